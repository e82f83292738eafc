/*
 * arena.c - the life of a jemalloc arena on engine pages: configuration, "arenas.create" with
 * our extent hooks, the arena's settings, its purge shrinker, statistics, and a destroy that
 * refuses while allocations are live (as nlru_engine_destroy() refuses while pages are).
 *
 * Locking: none of its own.  jemalloc serialises its mallctl calls; the handle's counters are
 * atomics; create and destroy are single-threaded per handle by contract.
 *
 * Settings made at creation: dirty_decay_ms from the config; muzzy pages never occur (no
 * purge_lazy hook).  jemalloc's opt.retain needs none: the extent hooks refuse the grows
 * that would keep retained memory (extent_hooks.c).
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "arena.h"

/*
 * The largest dirty_decay_ms jemalloc accepts (decay_ms_valid(): NSTIME_SEC_MAX seconds, about
 * 2^64 ns, in ms).  Checked before the arena exists, so a bad value is the caller's -EINVAL.
 */
#define DECAY_MS_MAX 18446744072000L

int arena_ctl(const struct nlru_jemalloc *je, const char *leaf, void *old, size_t *oldlen,
	      void *new, size_t newlen)
{
	char name[64];

	snprintf(name, sizeof(name), "arena.%u.%s", je->arena, leaf);
	return mallctl(name, old, oldlen, new, newlen);
}

int arena_stat(const struct nlru_jemalloc *je, const char *leaf, size_t *value)
{
	char name[64];
	size_t len = sizeof(*value);

	snprintf(name, sizeof(name), "stats.arenas.%u.%s", je->arena, leaf);
	return mallctl(name, value, &len, NULL, 0);
}

void arena_stats_refresh(void)
{
	uint64_t epoch = 1;

	mallctl("epoch", NULL, NULL, &epoch, sizeof(epoch));
}

int nlru_jemalloc_config_init(struct nlru_jemalloc_config *cfg)
{
	if (!cfg)
		return -EINVAL;
	*cfg = (struct nlru_jemalloc_config){
		.size = sizeof(*cfg),
		.version = NLRU_JEMALLOC_CONFIG_VERSION,
		.nid = NLRU_NUMA_NO_NODE,
		.gfp = NLRU_GFP_KERNEL,
		.dirty_decay_ms = 10000,
	};
	return 0;
}

#define MEMBER(m)                                                                                  \
	{                                                                                          \
		offsetof(struct nlru_jemalloc_config, m),                                          \
			sizeof(((struct nlru_jemalloc_config *)0)->m)                              \
	}

/* The members after the header: a caller's size may end between them, never inside one. */
static const struct {
	size_t offset, len;
} config_members[] = {MEMBER(nid), MEMBER(gfp), MEMBER(dirty_decay_ms), MEMBER(shrinker_seeks)};
#undef MEMBER
#define CONFIG_END (offsetof(struct nlru_jemalloc_config, shrinker_seeks) + sizeof(int))
#define CONFIG_ALIGN _Alignof(struct nlru_jemalloc_config)
_Static_assert(sizeof(struct nlru_jemalloc_config) ==
		       (CONFIG_END + CONFIG_ALIGN - 1) / CONFIG_ALIGN * CONFIG_ALIGN,
	       "shrinker_seeks is the last member, so config_members lists them all");
#undef CONFIG_END
#undef CONFIG_ALIGN

static bool config_size_cuts_a_member(size_t size)
{
	for (size_t i = 0; i < sizeof(config_members) / sizeof(config_members[0]); i++)
		if (size > config_members[i].offset &&
		    size < config_members[i].offset + config_members[i].len)
			return true;
	return false;
}

/* Copies @src (NULL: the defaults) into @dst, refusing what the arena could not honour. */
static int config_copy(struct nlru_engine *eng, const struct nlru_jemalloc_config *src,
		       struct nlru_jemalloc_config *dst)
{
	nlru_jemalloc_config_init(dst);
	if (!src)
		return 0;
	if (src->size < offsetof(struct nlru_jemalloc_config, nid) || src->size > sizeof(*dst) ||
	    src->version == 0 || src->version > NLRU_JEMALLOC_CONFIG_VERSION) {
		nlru_engine_log(
			eng, NLRU_LOG_ERROR,
			"jemalloc: config size %zu, version %u is not one this library knows "
			"(size at most %zu, version 1 to %d); use nlru_jemalloc_config_init()",
			src->size, src->version, sizeof(*dst), NLRU_JEMALLOC_CONFIG_VERSION);
		return -EINVAL;
	}
	if (config_size_cuts_a_member(src->size)) {
		nlru_engine_log(
			eng, NLRU_LOG_ERROR,
			"jemalloc: config size %zu ends inside a member; use "
			"nlru_jemalloc_config_init() or sizeof(struct nlru_jemalloc_config)",
			src->size);
		return -EINVAL;
	}
	/* Fields past the caller's struct (an older, shorter one) keep their defaults. */
	memcpy(dst, src, src->size);
	dst->size = sizeof(*dst);
	if (dst->nid != NLRU_NUMA_NO_NODE &&
	    (dst->nid < 0 || dst->nid >= nlru_engine_nr_nodes(eng))) {
		nlru_engine_log(eng, NLRU_LOG_ERROR, "jemalloc: node %d does not exist", dst->nid);
		return -EINVAL;
	}
	if (dst->gfp & (NLRU_GFP_SLAB_RECLAIMABLE | NLRU_GFP_ZERO) || dst->dirty_decay_ms < -1 ||
	    dst->shrinker_seeks < -1) {
		nlru_engine_log(eng, NLRU_LOG_ERROR,
				"jemalloc: gfp 0x%x, dirty_decay_ms %ld, shrinker_seeks %d: no "
				"SLAB_RECLAIMABLE or ZERO flag, and nothing below -1",
				dst->gfp, dst->dirty_decay_ms, dst->shrinker_seeks);
		return -EINVAL;
	}
	if (dst->dirty_decay_ms > DECAY_MS_MAX) {
		nlru_engine_log(eng, NLRU_LOG_ERROR,
				"jemalloc: dirty_decay_ms %ld is more than jemalloc accepts (%ld); "
				"-1 keeps dirty pages until pressure",
				dst->dirty_decay_ms, DECAY_MS_MAX);
		return -EINVAL;
	}
	return 0;
}

static int arena_settings(struct nlru_jemalloc *je, long dirty_decay_ms)
{
	ssize_t decay = dirty_decay_ms;
	int r;

	r = arena_ctl(je, "dirty_decay_ms", NULL, NULL, &decay, sizeof(decay));
	if (r)
		nlru_engine_log(je->eng, NLRU_LOG_ERROR,
				"jemalloc arena %u: dirty_decay_ms %ld refused (%s)", je->arena,
				dirty_decay_ms, strerror(r));
	/* Only the caller's value can be refused here (EFAULT is jemalloc's word for it). */
	return r ? -EINVAL : 0;
}

static int arena_create(struct nlru_jemalloc *je)
{
	extent_hooks_t *hooks = &je->hooks;
	unsigned int arena;
	size_t len = sizeof(arena);
	int r = mallctl("arenas.create", &arena, &len, &hooks, sizeof(hooks));

	if (r) {
		nlru_engine_log(je->eng, NLRU_LOG_ERROR,
				"jemalloc: arenas.create failed (%s): the engine could not give "
				"the arena its first 2 MiB",
				strerror(r));
		/* A refused gfp is the caller's -EINVAL, anything else a lack of memory. */
		return atomic_load(&je->alloc_error) == -EINVAL ? -EINVAL : -ENOMEM;
	}
	je->arena = arena;
	return 0;
}

int nlru_jemalloc_create(struct nlru_engine *eng, const struct nlru_jemalloc_config *cfg,
			 struct nlru_jemalloc **out)
{
	struct nlru_jemalloc_config c;
	struct nlru_jemalloc *je;
	int r;

	if (!eng || !out) {
		nlru_engine_log(eng, NLRU_LOG_ERROR, "jemalloc: create needs an engine and *out");
		return -EINVAL;
	}
	r = config_copy(eng, cfg, &c);
	if (r)
		return r;
	je = calloc(1, sizeof(*je));
	if (!je)
		return -ENOMEM;
	je->magic = NLRU_JEMALLOC_MAGIC;
	je->eng = eng;
	je->arena = ARENA_UNKNOWN;
	je->nid = c.nid;
	je->shrinker_seeks = c.shrinker_seeks;
	je->gfp = c.gfp | NLRU_GFP_SLAB_UNRECLAIMABLE |
		  (c.nid == NLRU_NUMA_NO_NODE ? 0 : NLRU_GFP_THISNODE);
	extent_hooks_init(je);
	/* The index of a destroyed arena is handed out again, as jemalloc does without them. */
	tombstone_clear_one();
	r = arena_create(je);
	if (r)
		goto err_free;
	r = arena_settings(je, c.dirty_decay_ms);
	if (!r)
		r = purge_shrinker_register(je);
	if (r)
		goto err_destroy_arena;
	*out = je;
	return 0;

err_destroy_arena:
	arena_ctl(je, "destroy", NULL, NULL, NULL, 0);
err_free:
	free(je);
	return r;
}

/*
 * Bytes still allocated in the arena.  jemalloc counts as allocated the objects a tcache
 * fetched in a batch with the one asked for, and those a tcache keeps after their dallocx,
 * so the figure is more than the program holds while a tcache has any.  jemalloc's destroy
 * discards live objects, so when the statistics cannot be read (a jemalloc built without
 * them) the answer is "some": destroy must fail closed.
 */
static size_t live_bytes(const struct nlru_jemalloc *je)
{
	size_t small = 0, large = 0;

	arena_stats_refresh();
	if (arena_stat(je, "small.allocated", &small) || arena_stat(je, "large.allocated", &large))
		return SIZE_MAX;
	return small + large;
}

int nlru_jemalloc_destroy(struct nlru_jemalloc *je)
{
	size_t live;
	int r;

	if (!je)
		return 0;
	if (je->magic != NLRU_JEMALLOC_MAGIC)
		return -EINVAL;
	live = live_bytes(je);
	if (live == SIZE_MAX) {
		nlru_engine_log(
			je->eng, NLRU_LOG_ERROR,
			"jemalloc arena %u: destroy refused: this jemalloc keeps no statistics, "
			"so live objects cannot be ruled out",
			je->arena);
		return -ENOTSUP;
	}
	if (live) {
		nlru_engine_log(
			je->eng, NLRU_LOG_ERROR,
			"jemalloc arena %u: destroy refused (-EBUSY): %zu bytes are allocated "
			"in it, counting objects the program holds (dallocx them) and those "
			"thread caches keep (thread.tcache.flush in each thread, or allocate "
			"with MALLOCX_TCACHE_NONE)",
			je->arena, live);
		return -EBUSY;
	}
	/* No purge may run on an index that arenas.create could hand out again. */
	nlru_shrinker_unregister(je->shrinker);
	je->shrinker = NULL;
	r = arena_ctl(je, "destroy", NULL, NULL, NULL, 0);
	if (r) {
		nlru_engine_log(
			je->eng, NLRU_LOG_ERROR,
			"jemalloc arena %u: destroy refused (-EBUSY): a thread is bound to it "
			"with thread.arena (jemalloc's arena.%u.destroy failed: %s)",
			je->arena, je->arena, strerror(r));
		purge_shrinker_register(je);
		return -EBUSY;
	}
	/* A use of the index from now on gets NULL, not the operating system's memory. */
	tombstone_place(je->arena);
	je->magic = 0;
	free(je);
	return 0;
}

int nlru_jemalloc_arena(const struct nlru_jemalloc *je, unsigned int *arena)
{
	if (!je)
		return -EINVAL;
	if (!arena) {
		nlru_engine_log(je->eng, NLRU_LOG_ERROR, "jemalloc arena %u: arena is NULL",
				je->arena);
		return -EINVAL;
	}
	*arena = je->arena;
	return 0;
}

long arena_purge(struct nlru_jemalloc *je)
{
	unsigned long before = atomic_load(&je->pages_returned), freed;

	arena_ctl(je, "purge", NULL, NULL, NULL, 0);
	freed = atomic_load(&je->pages_returned) - before;
	atomic_fetch_add_explicit(&je->purges, 1, memory_order_relaxed);
	atomic_fetch_add_explicit(&je->pages_purged, freed, memory_order_relaxed);
	return (long)freed;
}

long nlru_jemalloc_purge(struct nlru_jemalloc *je)
{
	if (!je)
		return -EINVAL;
	if (extent_hook_depth) {
		nlru_engine_log(je->eng, NLRU_LOG_ERROR,
				"jemalloc arena %u: purge from inside an extent hook refused",
				je->arena);
		return -EDEADLK;
	}
	return arena_purge(je);
}

int nlru_jemalloc_stats(struct nlru_jemalloc *je, struct nlru_jemalloc_stats *st)
{
	size_t dirty = 0;

	if (!je)
		return -EINVAL;
	if (!st) {
		nlru_engine_log(je->eng, NLRU_LOG_ERROR, "jemalloc arena %u: stats is NULL",
				je->arena);
		return -EINVAL;
	}
	if (st->size < sizeof(*st) || st->version == 0 ||
	    st->version > NLRU_JEMALLOC_STATS_VERSION) {
		nlru_engine_log(
			je->eng, NLRU_LOG_ERROR,
			"jemalloc: stats size %zu, version %u is not one this library knows",
			st->size, st->version);
		return -EINVAL;
	}
	arena_stats_refresh();
	arena_stat(je, "pdirty", &dirty);
	*st = (struct nlru_jemalloc_stats){
		.size = sizeof(*st),
		.version = NLRU_JEMALLOC_STATS_VERSION,
		.pages = (uint64_t)atomic_load(&je->pages),
		.extents_alloc = atomic_load(&je->extents_alloc),
		.extents_failed = atomic_load(&je->extents_failed),
		.pages_returned = atomic_load(&je->pages_returned),
		.purges = atomic_load(&je->purges),
		.pages_purged = atomic_load(&je->pages_purged),
		.dirty_pages = dirty,
		.refused = atomic_load(&je->refused),
	};
	return 0;
}
