/*
 * libnodelru-jemalloc: arenas on engine pages, counted as slab pages, given back by purges and
 * by the shrinker under pressure, and refusing bad input and foreign memory with a message.
 *
 * Like the library, these tests use only the public headers and the shared libraries: a
 * second, static copy of the engine in the test would not be the one the library calls.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <jemalloc/jemalloc.h>
#include <stdio.h>
#include <string.h>

#include <nodelru/jemalloc.h>
#include <nodelru/vmstat.h>

TestSuite(jemalloc, .timeout = 120);

#define PAGE NLRU_PAGE_SIZE
#define NOCACHE MALLOCX_TCACHE_NONE

static char log_last[512];
/* The first report of the engine's debug checks (full debug builds: "debug: ..."), or "". */
static char log_debug[512];

static void remember_log(void *arg, enum nlru_log_level level, const char *msg)
{
	snprintf(log_last, sizeof(log_last), "%s", msg);
	if (!strncmp(msg, "debug: ", 7) && !log_debug[0])
		snprintf(log_debug, sizeof(log_debug), "%s", msg);
}

static struct nlru_engine *engine(long node_mib, const char *topology, bool kswapd)
{
	struct nlru_config cfg;
	struct nlru_engine *eng;

	nlru_config_init(&cfg);
	cfg.node_mib = node_mib;
	cfg.topology = topology;
	cfg.kswapd = kswapd;
	cfg.prefault = 1;
	cfg.log = remember_log;
	log_last[0] = '\0';
	cr_assert_eq(nlru_engine_create(&cfg, &eng), 0, "engine: %s", log_last);
	return eng;
}

static struct nlru_jemalloc *arena_on(struct nlru_engine *eng, int nid, long dirty_decay_ms,
				      unsigned int *arena)
{
	struct nlru_jemalloc_config cfg;
	struct nlru_jemalloc *je;

	nlru_jemalloc_config_init(&cfg);
	cfg.nid = nid;
	cfg.dirty_decay_ms = dirty_decay_ms;
	cr_assert_eq(nlru_jemalloc_create(eng, &cfg, &je), 0, "arena: %s", log_last);
	cr_assert_eq(nlru_jemalloc_arena(je, arena), 0);
	return je;
}

static struct nlru_jemalloc_stats arena_stats(struct nlru_jemalloc *je)
{
	struct nlru_jemalloc_stats st = {.size = sizeof(st),
					 .version = NLRU_JEMALLOC_STATS_VERSION};

	cr_assert_eq(nlru_jemalloc_stats(je, &st), 0);
	return st;
}

static int64_t stat_value(struct nlru_engine *eng, const char *name)
{
	struct nlru_vmstat snap = {.size = sizeof(snap), .version = NLRU_VMSTAT_VERSION};
	int64_t v = -1;

	cr_assert_eq(nlru_vmstat_read(eng, &snap), 0);
	cr_assert_eq(nlru_vmstat_get(&snap, name, &v), 0, "no counter %s", name);
	return v;
}

static void destroy_all(struct nlru_engine *eng, struct nlru_jemalloc *je)
{
	cr_assert_eq(nlru_jemalloc_destroy(je), 0, "arena destroy: %s", log_last);
	cr_expect_eq(stat_value(eng, "nr_slab_unreclaimable"), 0, "every page went back");
	cr_assert_eq(nlru_engine_destroy(eng), 0, "engine destroy: %s", log_last);
	cr_assert_str_empty(log_debug, "the engine's debug checks: %s", log_debug);
}

Test(jemalloc, objects_live_on_engine_pages_counted_as_slab)
{
	struct nlru_engine *eng = engine(32, NULL, true);
	unsigned int arena;
	struct nlru_jemalloc *je = arena_on(eng, NLRU_NUMA_NO_NODE, 10000, &arena);
	static unsigned char *obj[2000];
	struct nlru_jemalloc_stats st;

	for (int i = 0; i < 2000; i++) {
		size_t size = 16 + (size_t)(i * 37) % 20000;

		obj[i] = mallocx(size, MALLOCX_ARENA(arena) | NOCACHE);
		cr_assert(obj[i], "mallocx(%zu) failed: %s", size, log_last);
		cr_assert_geq(nlru_addr_node(eng, obj[i], size), 0,
			      "object %d is not engine memory", i);
		memset(obj[i], i & 0xff, size);
	}
	st = arena_stats(je);
	cr_expect_gt(st.extents_alloc, 1);
	cr_expect_eq((int64_t)st.pages, stat_value(eng, "nr_slab_unreclaimable"),
		     "the arena's %llu pages are the engine's slab pages",
		     (unsigned long long)st.pages);
	for (int i = 0; i < 2000; i++) {
		size_t size = 16 + (size_t)(i * 37) % 20000;

		for (size_t b = 0; b < size; b += 512)
			cr_assert_eq(obj[i][b], i & 0xff, "object %d byte %zu", i, b);
		dallocx(obj[i], NOCACHE);
	}
	destroy_all(eng, je);
}

/* One arena per node, each taking its node's pages only. */
Test(jemalloc, a_node_arena_takes_that_node_pages)
{
	struct nlru_engine *eng = engine(16, "pack:2 numa:1 core:1 pu:1", true);
	struct nlru_jemalloc *je[2];
	unsigned int arena[2];

	for (int nid = 0; nid < 2; nid++)
		je[nid] = arena_on(eng, nid, 10000, &arena[nid]);
	for (int nid = 0; nid < 2; nid++) {
		void *small = mallocx(100, MALLOCX_ARENA(arena[nid]) | NOCACHE);
		void *large = mallocx(300 << 10, MALLOCX_ARENA(arena[nid]) | NOCACHE);

		cr_assert(small && large);
		cr_expect_eq(nlru_addr_node(eng, small, 100), nid);
		cr_expect_eq(nlru_addr_node(eng, large, 300 << 10), nid);
		dallocx(small, NOCACHE);
		dallocx(large, NOCACHE);
	}
	cr_assert_eq(nlru_jemalloc_destroy(je[1]), 0);
	destroy_all(eng, je[0]);
}

Test(jemalloc, larger_than_the_largest_block_fails_cleanly)
{
	struct nlru_engine *eng = engine(32, NULL, true);
	unsigned int arena;
	struct nlru_jemalloc *je = arena_on(eng, NLRU_NUMA_NO_NODE, 10000, &arena);
	void *p;

	p = mallocx(3 << 20, MALLOCX_ARENA(arena) | NOCACHE);
	cr_expect(p, "3 MiB fits in a block: %s", log_last);
	dallocx(p, NOCACHE);
	cr_expect_null(mallocx(5 << 20, MALLOCX_ARENA(arena) | NOCACHE));
	cr_expect(strstr(log_last, "above the largest engine block"), "%s", log_last);
	cr_expect_gt(arena_stats(je).extents_failed, 0);
	/* The arena is still fine afterwards. */
	p = mallocx(100, MALLOCX_ARENA(arena) | NOCACHE);
	cr_expect(p);
	dallocx(p, NOCACHE);
	destroy_all(eng, je);
}

Test(jemalloc, destroy_refuses_while_objects_live_and_the_engine_waits_for_the_arena)
{
	struct nlru_engine *eng = engine(16, NULL, true);
	unsigned int arena;
	struct nlru_jemalloc *je = arena_on(eng, NLRU_NUMA_NO_NODE, 10000, &arena);
	void *p = mallocx(1000, MALLOCX_ARENA(arena) | NOCACHE);

	cr_assert(p);
	cr_expect_eq(nlru_jemalloc_destroy(je), -EBUSY);
	cr_expect(strstr(log_last, "destroy refused (-EBUSY): "), "%s", log_last);
	cr_expect(strstr(log_last, "bytes are allocated in it, counting objects the program holds"),
		  "%s", log_last);
	cr_expect(strstr(log_last, "thread caches keep (thread.tcache.flush"), "%s", log_last);
	dallocx(p, NOCACHE);
	/* No live object, but the arena's pages: the engine cannot go first. */
	cr_expect_eq(nlru_engine_destroy(eng), -EBUSY);
	cr_expect(strstr(log_last, "still allocated"), "%s", log_last);
	cr_expect_eq(nlru_jemalloc_destroy(NULL), 0);
	destroy_all(eng, je);
}

/* A thread bound to the arena: -EBUSY, and a message that says -EBUSY, not jemalloc's EFAULT. */
Test(jemalloc, destroy_refused_while_a_thread_is_bound_says_ebusy)
{
	struct nlru_engine *eng = engine(16, NULL, true);
	unsigned int arena, zero = 0, old;
	size_t len = sizeof(old);
	struct nlru_jemalloc *je = arena_on(eng, NLRU_NUMA_NO_NODE, 10000, &arena);

	cr_assert_eq(mallctl("thread.arena", &old, &len, &arena, sizeof(arena)), 0);
	cr_expect_eq(nlru_jemalloc_destroy(je), -EBUSY);
	cr_expect(strstr(log_last, "(-EBUSY): a thread is bound to it"), "%s", log_last);
	cr_expect_null(strstr(log_last, "refused (Bad address)"), "%s", log_last);
	cr_assert_eq(mallctl("thread.arena", NULL, NULL, old == arena ? &zero : &old, sizeof(old)),
		     0);
	destroy_all(eng, je);
}

/* Freed objects leave dirty pages in the arena; a purge gives them to the engine. */
static void make_dirty_pages(unsigned int arena, size_t bytes)
{
	void *obj[256];
	size_t n = bytes / (32 << 10);

	cr_assert_leq(n, 256);
	for (size_t i = 0; i < n; i++)
		cr_assert(obj[i] = mallocx(32 << 10, MALLOCX_ARENA(arena) | NOCACHE), "%s",
			  log_last);
	for (size_t i = 0; i < n; i++)
		dallocx(obj[i], NOCACHE);
}

Test(jemalloc, purge_gives_dirty_pages_back)
{
	struct nlru_engine *eng = engine(16, NULL, true);
	unsigned int arena;
	struct nlru_jemalloc *je = arena_on(eng, NLRU_NUMA_NO_NODE, -1, &arena);
	struct nlru_jemalloc_stats before, after;
	long purged;

	make_dirty_pages(arena, 4 << 20);
	before = arena_stats(je);
	cr_expect_geq(before.dirty_pages, 1024, "4 MiB freed: %llu dirty pages",
		      (unsigned long long)before.dirty_pages);
	purged = nlru_jemalloc_purge(je);
	after = arena_stats(je);
	cr_expect_geq(purged, 1024, "purged %ld pages", purged);
	cr_expect_eq(after.dirty_pages, 0);
	cr_expect_eq(after.pages, before.pages - (uint64_t)purged);
	cr_expect_eq((int64_t)after.pages, stat_value(eng, "nr_slab_unreclaimable"));
	destroy_all(eng, je);
}

/*
 * Anonymous memory beyond the engine makes the allocating thread reclaim (kswapd is off):
 * shrink_slab asks the arena's shrinker, which purges the dirty pages.
 */
Test(jemalloc, memory_pressure_purges_the_arena)
{
	struct nlru_engine *eng = engine(16, NULL, false);
	unsigned int arena;
	struct nlru_jemalloc *je = arena_on(eng, NLRU_NUMA_NO_NODE, -1, &arena);
	struct nlru_region *region;
	struct nlru_jemalloc_stats st;
	void *page;

	make_dirty_pages(arena, 6 << 20);
	cr_assert_eq(nlru_region_create(eng, 4096, NLRU_NUMA_NO_NODE, &region), 0);
	for (size_t i = 0; i < 4096; i++) {
		cr_assert_eq(nlru_region_pin(region, i, NLRU_PIN_WRITE, &page), 0, "page %zu: %s",
			     i, log_last);
		cr_assert_eq(nlru_region_unpin(region, i), 0);
	}
	st = arena_stats(je);
	cr_expect_gt(st.purges, 0, "the shrinker purged");
	cr_expect_geq(st.pages_purged, 1024, "%llu pages came back",
		      (unsigned long long)st.pages_purged);
	cr_expect_gt(stat_value(eng, "slabs_scanned"), 0);
	cr_expect_gt(stat_value(eng, "allocstall"), 0, "the pressure was direct reclaim");
	cr_assert_eq(nlru_region_destroy(region), 0);
	destroy_all(eng, je);
}

/*
 * An extent allocation that must reclaim runs inside jemalloc's locks; arenas.create even
 * holds jemalloc's global ctl_mtx while it takes the new arena's first block.  Reclaim then
 * calls the shrinkers, and an arena's shrinker that called mallctl from there would wait on
 * a lock its own thread holds: it must stay out instead.
 */
Test(jemalloc, reclaim_inside_an_extent_hook_does_not_call_jemalloc_back)
{
	struct nlru_engine *eng = engine(16, NULL, false);
	unsigned int arena;
	struct nlru_jemalloc *je = arena_on(eng, NLRU_NUMA_NO_NODE, -1, &arena), *second = NULL;
	struct nlru_region *region;
	int64_t stalls;
	void *page;
	int r;

	cr_assert_eq(nlru_region_create(eng, 4096, NLRU_NUMA_NO_NODE, &region), 0);
	for (size_t i = 0; i < 4096; i++) {
		cr_assert_eq(nlru_region_pin(region, i, NLRU_PIN_WRITE, &page), 0);
		cr_assert_eq(nlru_region_unpin(region, i), 0);
	}
	/* The first arena has dirty pages its shrinker would purge. */
	make_dirty_pages(arena, 1 << 20);
	cr_assert_gt(arena_stats(je).dirty_pages, 0);
	/*
	 * The engine is full: what its free lists still hold is taken, page by page, so that no
	 * 2 MiB block is left and none forms without reclaim (the dirty pages' own growth may
	 * have reclaimed enough for one).
	 */
	static void *held[4096];
	size_t nr_held = 0;

	while (nr_held < 4096 && nlru_alloc_pages(eng, NLRU_GFP_NOWAIT | NLRU_GFP_NOWARN, 0,
						  NLRU_NUMA_NO_NODE, &held[nr_held]) == 0)
		nr_held++;
	unsigned long purges = arena_stats(je).purges;
	stalls = stat_value(eng, "allocstall");
	/* The second arena's 2 MiB come only through direct reclaim, inside arenas.create. */
	r = nlru_jemalloc_create(eng, NULL, &second);
	cr_expect(r == 0 || r == -ENOMEM, "create under pressure: %d (%s)", r, log_last);
	cr_expect_gt(stat_value(eng, "allocstall"), stalls, "the hook reclaimed");
	cr_expect_eq(arena_stats(je).purges, purges, "no purge from inside the hook");
	if (r == 0)
		cr_assert_eq(nlru_jemalloc_destroy(second), 0);
	while (nr_held)
		cr_assert_eq(nlru_free_pages(eng, held[--nr_held], 0), 0);
	cr_assert_eq(nlru_region_destroy(region), 0);
	destroy_all(eng, je);
}

Test(jemalloc, bad_configs_and_arguments_are_refused)
{
	struct nlru_engine *eng = engine(16, "pack:2 numa:1 core:1 pu:1", true);
	struct nlru_jemalloc_config cfg;
	struct nlru_jemalloc_stats st = {.size = 8, .version = NLRU_JEMALLOC_STATS_VERSION};
	struct nlru_jemalloc *je = (struct nlru_jemalloc *)0x1;
	unsigned int arena;

	cr_expect_eq(nlru_jemalloc_config_init(NULL), -EINVAL);
	cr_expect_eq(nlru_jemalloc_create(NULL, NULL, &je), -EINVAL);
	cr_expect_eq(nlru_jemalloc_create(eng, NULL, NULL), -EINVAL);
	nlru_jemalloc_config_init(&cfg);
	cfg.size = sizeof(cfg) + 8;
	cr_expect_eq(nlru_jemalloc_create(eng, &cfg, &je), -EINVAL);
	cr_expect(strstr(log_last, "not one this library knows"), "%s", log_last);
	/* A size inside a member would copy half of it: half the decay, a node from two. */
	nlru_jemalloc_config_init(&cfg);
	cfg.dirty_decay_ms = 1L << 40;
	cfg.size = offsetof(struct nlru_jemalloc_config, dirty_decay_ms) + 4;
	cr_expect_eq(nlru_jemalloc_create(eng, &cfg, &je), -EINVAL);
	cr_expect(strstr(log_last, "ends inside a member"), "%s", log_last);
	cfg.size = offsetof(struct nlru_jemalloc_config, nid) + 2;
	cr_expect_eq(nlru_jemalloc_create(eng, &cfg, &je), -EINVAL);
	nlru_jemalloc_config_init(&cfg);
	cfg.version = 7;
	cr_expect_eq(nlru_jemalloc_create(eng, &cfg, &je), -EINVAL);
	nlru_jemalloc_config_init(&cfg);
	cfg.nid = 2;
	cr_expect_eq(nlru_jemalloc_create(eng, &cfg, &je), -EINVAL);
	cr_expect(strstr(log_last, "node 2 does not exist"), "%s", log_last);
	nlru_jemalloc_config_init(&cfg);
	cfg.gfp |= NLRU_GFP_ZERO;
	cr_expect_eq(nlru_jemalloc_create(eng, &cfg, &je), -EINVAL);
	nlru_jemalloc_config_init(&cfg);
	cfg.gfp = NLRU_GFP_DMA | NLRU_GFP_DMA32;
	cr_expect_eq(nlru_jemalloc_create(eng, &cfg, &je), -EINVAL, "the engine refuses the gfp");
	cr_expect(strstr(log_last, "arenas.create failed"), "%s", log_last);
	cr_expect_eq(je, (struct nlru_jemalloc *)0x1, "no handle on failure");

	/* Above jemalloc's limit (its decay_ms_valid()): -EINVAL, not jemalloc's EFAULT. */
	nlru_jemalloc_config_init(&cfg);
	cfg.dirty_decay_ms = 1L << 62;
	cr_expect_eq(nlru_jemalloc_create(eng, &cfg, &je), -EINVAL);
	cr_expect(strstr(log_last, "dirty_decay_ms 4611686018427387904"), "%s", log_last);
	cfg.dirty_decay_ms = 18446744072001L;
	cr_expect_eq(nlru_jemalloc_create(eng, &cfg, &je), -EINVAL);
	cr_expect_eq(je, (struct nlru_jemalloc *)0x1, "no handle on failure");
	/* An older, shorter struct (here one ending after gfp) keeps the defaults of the rest. */
	nlru_jemalloc_config_init(&cfg);
	cfg.size = offsetof(struct nlru_jemalloc_config, dirty_decay_ms);
	cfg.dirty_decay_ms = -7;
	cr_assert_eq(nlru_jemalloc_create(eng, &cfg, &je), 0, "%s", log_last);
	cr_assert_eq(nlru_jemalloc_destroy(je), 0, "%s", log_last);
	je = arena_on(eng, NLRU_NUMA_NO_NODE, 18446744072000L, &arena);
	cr_assert_eq(nlru_jemalloc_destroy(je), 0, "%s", log_last);
	je = arena_on(eng, NLRU_NUMA_NO_NODE, 10000, &arena);
	cr_expect_eq(nlru_jemalloc_arena(NULL, &arena), -EINVAL);
	cr_expect_eq(nlru_jemalloc_arena(je, NULL), -EINVAL);
	cr_expect_eq(nlru_jemalloc_stats(je, &st), -EINVAL);
	cr_expect_eq(nlru_jemalloc_stats(NULL, &st), -EINVAL);
	cr_expect_eq(nlru_jemalloc_purge(NULL), -EINVAL);
	destroy_all(eng, je);
}

/* The hooks, called with memory that is not the engine's: refused, logged, nothing touched. */
Test(jemalloc, foreign_memory_handed_to_the_hooks_is_refused)
{
	struct nlru_engine *eng = engine(16, NULL, true);
	unsigned int arena;
	struct nlru_jemalloc *je = arena_on(eng, NLRU_NUMA_NO_NODE, 10000, &arena);
	extent_hooks_t *hooks = NULL;
	size_t len = sizeof(hooks);
	char name[64], on_stack[2 * PAGE];
	void *foreign = (void *)(((uintptr_t)on_stack + PAGE - 1) & ~(PAGE - 1));
	bool zero = false, commit = false;
	int64_t free_before = stat_value(eng, "nr_free_pages");

	snprintf(name, sizeof(name), "arena.%u.extent_hooks", arena);
	cr_assert_eq(mallctl(name, &hooks, &len, NULL, 0), 0);
	cr_expect(hooks->dalloc(hooks, foreign, PAGE, true, arena), "dalloc kept the extent");
	cr_expect(strstr(log_last, "the engine refused the pages"), "%s", log_last);
	hooks->destroy(hooks, foreign, PAGE, true, arena);
	cr_expect(strstr(log_last, "destroy of"), "%s", log_last);
	cr_expect(hooks->commit(hooks, foreign, PAGE, 0, PAGE, arena));
	cr_expect(strstr(log_last, "commit of"), "%s", log_last);
	cr_expect(hooks->split(hooks, foreign, 2 * PAGE, PAGE, PAGE, true, arena));
	cr_expect(strstr(log_last, "not memory of this engine"), "%s", log_last);
	cr_expect(hooks->merge(hooks, foreign, PAGE, (char *)foreign + PAGE, PAGE, true, arena));
	cr_expect_null(hooks->alloc(hooks, NULL, PAGE, PAGE, &zero, &commit, arena + 1));
	cr_expect(strstr(log_last, "hooks called for arena"), "%s", log_last);
	cr_expect_null(hooks->alloc(hooks, foreign, PAGE, PAGE, &zero, &commit, arena),
		       "no extent at a fixed address");
	cr_expect_geq(arena_stats(je).refused, 6);
	cr_expect_eq(stat_value(eng, "nr_free_pages"), free_before, "nothing was freed");
	destroy_all(eng, je);
}

/*
 * jemalloc creates a default arena, on the operating system's memory, at an index given to
 * MALLOCX_ARENA() whose arena was destroyed.  After nlru_jemalloc_destroy() such a use fails
 * instead (a tombstone arena stands there), and the next arena created takes the index.
 */
Test(jemalloc, a_destroyed_arenas_index_serves_nothing)
{
	struct nlru_engine *eng = engine(16, NULL, false);
	unsigned int arena, again;
	struct nlru_jemalloc *je = arena_on(eng, NLRU_NUMA_NO_NODE, -1, &arena);
	void *p;

	cr_assert_eq(nlru_jemalloc_destroy(je), 0, "%s", log_last);
	cr_expect_null(mallocx(64, MALLOCX_ARENA(arena) | NOCACHE), "a small object was served");
	cr_expect_null(mallocx(256 * 1024, MALLOCX_ARENA(arena) | NOCACHE),
		       "a large object was served");
	je = arena_on(eng, NLRU_NUMA_NO_NODE, -1, &again);
	cr_expect_eq(again, arena, "the index was not handed out again");
	p = mallocx(256 * 1024, MALLOCX_ARENA(again) | NOCACHE);
	cr_assert_not_null(p);
	cr_expect_geq(nlru_addr_node(eng, p, 256 * 1024), 0, "not engine memory");
	dallocx(p, NOCACHE);
	cr_assert_eq(nlru_jemalloc_destroy(je), 0, "%s", log_last);
	cr_assert_eq(nlru_engine_destroy(eng), 0, "%s", log_last);
}
