/*
 * libnodelru-jemalloc internals: the object behind a struct nlru_jemalloc handle, shared by
 * arena.c (its life and its mallctl plumbing), extent_hooks.c (where jemalloc gets its pages)
 * and purge_shrinker.c (where memory pressure makes it give them back).
 *
 * Like tools/ and examples/, this library is an embedder of the engine: it includes only the
 * public headers of include/nodelru/ and reaches the engine through libnodelru's API.
 */
#ifndef NODELRU_JEMALLOC_ARENA_H
#define NODELRU_JEMALLOC_ARENA_H

#include <jemalloc/jemalloc.h>
#include <stdatomic.h>

#include <nodelru/jemalloc.h>

#define NLRU_JEMALLOC_MAGIC 0x6e6c6a65u /* "nlje": a handle that is one of ours */
#define ARENA_UNKNOWN (~0u)             /* the index, before arenas.create has returned it */

struct nlru_jemalloc {
	/*
	 * First, so that the extent_hooks_t pointer jemalloc hands every hook is also a pointer
	 * to this handle.  Immutable once the arena exists; it must outlive the arena.
	 */
	extent_hooks_t hooks;
	uint32_t magic; /* NLRU_JEMALLOC_MAGIC while alive, 0 once destroyed */
	struct nlru_engine *eng;
	unsigned int arena;             /* jemalloc's index; ARENA_UNKNOWN during arenas.create */
	int nid;                        /* node of the pages, or NLRU_NUMA_NO_NODE */
	unsigned int gfp;               /* what the alloc hook asks the engine with */
	struct nlru_shrinker *shrinker; /* NULL when the config asked for none */
	int shrinker_seeks;             /* as configured; -1: no shrinker */
	_Atomic int alloc_error;        /* the engine's answer to the last failed extent */
	/* Counters (relaxed atomics: hooks run in any thread, shrinkers in kswapd too). */
	_Atomic long pages;                   /* engine pages the arena holds now */
	_Atomic unsigned long extents_alloc;  /* alloc hook calls served */
	_Atomic unsigned long extents_failed; /* alloc hook calls the engine could not serve */
	_Atomic unsigned long pages_returned; /* by the dalloc and destroy hooks */
	_Atomic unsigned long purges;         /* shrinker scans that asked jemalloc to purge */
	_Atomic unsigned long pages_purged;   /* returned while those scans ran */
	_Atomic unsigned long refused;        /* hook calls refused: not this engine's memory */
};

/*
 * Nonzero while the calling thread runs one of our hooks.  A hook may reclaim in the engine,
 * and reclaim calls shrinkers: the purge shrinker must then not call back into jemalloc,
 * which holds its own locks around every hook (jemalloc#978: "mallocing from within your
 * extent hooks is not supported").
 */
extern __thread int extent_hook_depth;

/* arena.c: purge the arena ("arena.<i>.purge"); the pages that came back meanwhile. */
long arena_purge(struct nlru_jemalloc *je);

/* extent_hooks.c: fill in je->hooks. */
void extent_hooks_init(struct nlru_jemalloc *je);

/*
 * purge_shrinker.c: register the engine shrinker that purges the arena under pressure, with
 * je->shrinker_seeks (nothing to do when that is -1).
 */
int purge_shrinker_register(struct nlru_jemalloc *je);

/*
 * arena.c: mallctl of "arena.<i>.@leaf" or "stats.arenas.<i>.@leaf" for this arena.  0, or
 * jemalloc's positive errno.
 */
int arena_ctl(const struct nlru_jemalloc *je, const char *leaf, void *old, size_t *oldlen,
	      void *new, size_t newlen);
int arena_stat(const struct nlru_jemalloc *je, const char *leaf, size_t *value);
/* Refresh jemalloc's statistics snapshot ("epoch"), as every stats read needs first. */
void arena_stats_refresh(void);

/*
 * tombstone.c: an arena that refuses every allocation, created at the index of the arena
 * just destroyed (@destroyed), so that a later use of that index fails instead of being
 * served by jemalloc from the operating system.
 */
void tombstone_place(unsigned int destroyed);
/* Destroy one tombstone, so that the next arenas.create takes its index. */
void tombstone_clear_one(void);

#endif /* NODELRU_JEMALLOC_ARENA_H */
