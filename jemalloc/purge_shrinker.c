/*
 * purge_shrinker.c - memory pressure on the engine makes jemalloc give the arena's unused
 * pages back, as Linux's shrink_slab() makes a slab cache free its empty slabs.
 *
 * Objects are pages: count() is the arena's dirty and muzzy pages (jemalloc's statistics,
 * refreshed through "epoch"), scan() purges them all at once ("arena.<i>.purge" cannot stop
 * at nr_to_scan) and reports the pages that came back.  The pages were charged as slab pages,
 * so while reclaim runs the shrinkers they count as reclaimed, exactly as a kernel cache's.
 *
 * Safety: count and scan run in kswapd and in any thread in direct reclaim, with the
 * engine's shrinker list read-locked and no other engine lock held (src/shrinker.c).  A purge
 * calls our dalloc hook, which frees engine pages: freeing never reclaims and never takes
 * the shrinker list's lock, so that is safe there.  What is not safe is calling jemalloc from
 * a thread that is inside one of our hooks, where jemalloc holds its own locks (an arena's
 * grow mutex, or ctl_mtx during arenas.create) and reclaim got to us through the hook's
 * allocation: such a call could wait on a lock its own thread holds.  So a thread inside a
 * hook reports nothing to count and stops any scan.
 */
#include <errno.h>

#include "arena.h"

static unsigned long purge_count(void *arg, struct nlru_shrink_control *sc)
{
	struct nlru_jemalloc *je = arg;
	size_t dirty = 0, muzzy = 0;

	if (extent_hook_depth || (je->nid != NLRU_NUMA_NO_NODE && sc->nid != je->nid))
		return 0;
	arena_stats_refresh();
	arena_stat(je, "pdirty", &dirty);
	arena_stat(je, "pmuzzy", &muzzy);
	return dirty + muzzy;
}

static unsigned long purge_scan(void *arg, struct nlru_shrink_control *sc)
{
	struct nlru_jemalloc *je = arg;

	if (extent_hook_depth)
		return NLRU_SHRINK_STOP;
	return (unsigned long)arena_purge(je);
}

int purge_shrinker_register(struct nlru_jemalloc *je)
{
	struct nlru_shrinker_def def = {
		.size = sizeof(def),
		.count = purge_count,
		.scan = purge_scan,
		.arg = je,
		.seeks = je->shrinker_seeks,
		/* A node's arena answers for its node only, as a NUMA-aware kernel cache does. */
		.flags = je->nid == NLRU_NUMA_NO_NODE ? 0 : NLRU_SHRINKER_NUMA_AWARE,
	};

	if (je->shrinker_seeks < 0)
		return 0;
	return nlru_shrinker_register(je->eng, &def, &je->shrinker);
}
