/*
 * libnodelru-jemalloc - jemalloc arenas whose memory is engine pages.
 *
 * Each struct nlru_jemalloc is one explicit jemalloc arena ("arenas.create") whose extent
 * hooks take pages from the engine's page allocator (nlru_alloc_pages_exact) and give them
 * back when jemalloc lets an extent go.  Allocate from it with jemalloc's own calls:
 *
 *	unsigned arena;
 *	nlru_jemalloc_arena(je, &arena);
 *	void *p = mallocx(size, MALLOCX_ARENA(arena) | MALLOCX_TCACHE_NONE);
 *	...
 *	dallocx(p, MALLOCX_TCACHE_NONE);
 *
 * (or a private tcache from "tcache.create" with MALLOCX_TCACHE(tc)).  The pages show in the
 * engine's vmstat as nr_slab_unreclaimable, as a kernel slab cache's do; an engine shrinker
 * makes jemalloc purge the arena's unused dirty pages back to the engine under memory
 * pressure, counted in slabs_scanned like any shrinker's work.
 *
 * Linking: this library links jemalloc, and Debian's jemalloc is unprefixed (its mallocx and
 * its malloc are the same library), so a program using it normally gets jemalloc as its
 * malloc too.  docs/api-jemalloc.md says what that means, for dlopen and sanitizers included.
 * The core library, libnodelru, never links jemalloc.
 *
 * Limits: an extent is at most the engine's largest block (NLRU_PAGE_SIZE << (NLRU_MAX_ORDER
 * - 1), 4 MiB), so a mallocx() larger than about that fails with NULL (logged at
 * NLRU_LOG_INFO); so does one the engine has no memory for, after reclaim.
 *
 * Conventions as nodelru.h: 0 or -errno, messages through the engine's log callback.
 */
#ifndef NODELRU_JEMALLOC_H
#define NODELRU_JEMALLOC_H

#include <nodelru/nodelru.h>

#ifdef __cplusplus
extern "C" {
#endif

#define NLRU_JEMALLOC_CONFIG_VERSION 1

/*
 * Arena configuration: fill it with nlru_jemalloc_config_init(), change what you need, pass it
 * to nlru_jemalloc_create().  The struct grows at its end, as struct nlru_config does: the
 * library reads only cfg->size bytes and fields past them take their defaults.  A size that
 * stops before nid, ends inside a member or goes past the library's struct, or a version of 0
 * or above NLRU_JEMALLOC_CONFIG_VERSION, is refused with -EINVAL.
 */
struct nlru_jemalloc_config {
	size_t size;      /* sizeof(struct nlru_jemalloc_config) as the caller compiled it */
	uint32_t version; /* NLRU_JEMALLOC_CONFIG_VERSION */
	/*
	 * Node whose pages back the arena: a node id takes that node's pages only
	 * (NLRU_GFP_THISNODE; one arena per node is the usual set-up), NLRU_NUMA_NO_NODE
	 * (default) the allocating CPU's node with fallback to the others.
	 */
	int nid;
	/*
	 * Engine allocation flags for the arena's pages.  Default NLRU_GFP_KERNEL: an extent
	 * allocation may reclaim in the calling thread.  NLRU_GFP_SLAB_UNRECLAIMABLE is always
	 * added; NLRU_GFP_SLAB_RECLAIMABLE and NLRU_GFP_ZERO are refused (jemalloc asks for
	 * zeroed memory itself when it needs it).
	 */
	unsigned int gfp;
	/*
	 * arena.<i>.dirty_decay_ms: how long freed pages stay in the arena before jemalloc gives
	 * them back on its own (only while the arena is in use: there is no background thread).
	 * -1: never by time, only under pressure; 0: at once; at most 18446744072000 (about
	 * 2^64 ns, jemalloc's limit).  Default 10000, jemalloc's.
	 */
	long dirty_decay_ms;
	/*
	 * The purge shrinker's seeks (cost to recreate an object, NLRU_DEFAULT_SEEKS if 0), or
	 * -1 for no shrinker at all.  Default 0.
	 */
	int shrinker_seeks;
};

/* nlru_jemalloc_config_init - fill @cfg with the defaults.  0, or -EINVAL for NULL. */
NLRU_API int nlru_jemalloc_config_init(struct nlru_jemalloc_config *cfg);

struct nlru_jemalloc;

/*
 * nlru_jemalloc_create - create a jemalloc arena on @eng's pages (@cfg NULL: the defaults),
 * set its decay and growth, and register its purge shrinker.  jemalloc takes a 2 MiB block for
 * the arena's own metadata at once, and later extents as it needs them.
 * Returns 0 and the handle in *@out; -EINVAL (logged) for a NULL engine or out, a config of
 * an unknown size or version, a bad node, NLRU_GFP_SLAB_RECLAIMABLE or NLRU_GFP_ZERO in gfp or
 * flags the engine refuses, a dirty_decay_ms outside -1 .. 18446744072000, or a
 * shrinker_seeks below -1; -ENOMEM when the engine or jemalloc could not provide the arena.
 * Thread-safe.
 */
NLRU_API int nlru_jemalloc_create(struct nlru_engine *eng, const struct nlru_jemalloc_config *cfg,
				  struct nlru_jemalloc **out);

/*
 * nlru_jemalloc_destroy - unregister the shrinker, destroy the arena ("arena.<i>.destroy")
 * and give every page back to the engine.  Returns -EBUSY (logged), with everything left as
 * it was, while the arena still has live allocations ("stats.arenas.<i>.small.allocated" and
 * "large.allocated"; flush private tcaches first) or a thread is bound to it with
 * "thread.arena"; -ENOTSUP (logged) when this jemalloc keeps no statistics, so live
 * allocations cannot be ruled out; -EINVAL for a handle that is not an arena's.  NULL is
 * accepted and returns 0.  No other call on @je, and no use of its arena, may run
 * concurrently or follow: a destroyed handle is freed memory (a cleared mark makes a second
 * destroy return -EINVAL when the memory has not been reused, which is a hint, not a
 * guarantee).  The engine refuses to be destroyed (-EBUSY) while an arena on it exists, so
 * destroy arenas first.  The arena's index serves nothing afterwards: a mallocx() with
 * MALLOCX_ARENA() of it returns NULL, where jemalloc would create a default arena there on
 * the operating system's memory, outside the engine; the next nlru_jemalloc_create() may
 * take the index again.
 */
NLRU_API int nlru_jemalloc_destroy(struct nlru_jemalloc *je);

/*
 * nlru_jemalloc_arena - the arena's index for MALLOCX_ARENA() in *@arena.  0, or -EINVAL for
 * NULL arguments.  Thread-safe.
 */
NLRU_API int nlru_jemalloc_arena(const struct nlru_jemalloc *je, unsigned int *arena);

/*
 * nlru_jemalloc_purge - give every unused dirty page of the arena back to the engine now
 * ("arena.<i>.purge"), as the shrinker does under pressure.  Returns the number of pages given
 * back, or -EINVAL; -EDEADLK from inside an extent hook of any such arena (a shrinker called
 * by reclaim that such a hook started), where calling jemalloc could wait on itself.
 * Thread-safe; other threads may allocate from the arena meanwhile.
 */
NLRU_API long nlru_jemalloc_purge(struct nlru_jemalloc *je);

#define NLRU_JEMALLOC_STATS_VERSION 1

/* Counters of one arena, since it was created. */
struct nlru_jemalloc_stats {
	size_t size;             /* sizeof(struct nlru_jemalloc_stats), set by the caller */
	uint32_t version;        /* NLRU_JEMALLOC_STATS_VERSION, set by the caller */
	uint64_t pages;          /* engine pages the arena holds now: in use, dirty, metadata */
	uint64_t extents_alloc;  /* extents the engine provided */
	uint64_t extents_failed; /* extents the engine could not provide (no memory, too big) */
	uint64_t pages_returned; /* pages given back, by jemalloc's own decay or by purges */
	uint64_t purges;         /* purges asked for by the shrinker or nlru_jemalloc_purge() */
	uint64_t pages_purged;   /* pages given back during those purges */
	uint64_t dirty_pages;    /* unused pages jemalloc keeps now (stats.arenas.<i>.pdirty) */
	uint64_t refused;        /* hook calls refused: memory that is not the engine's */
};

/*
 * nlru_jemalloc_stats - fill @stats (the counters are read one by one, not as one
 * snapshot).  0; -EINVAL (logged) for NULL arguments or a struct of an unknown size or
 * version.  Thread-safe.
 */
NLRU_API int nlru_jemalloc_stats(struct nlru_jemalloc *je, struct nlru_jemalloc_stats *stats);

#ifdef __cplusplus
}
#endif

#endif /* NODELRU_JEMALLOC_H */
