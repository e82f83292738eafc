/*
 * page_alloc_fair.c - NR_ALLOC_BATCH accounting and resets for the 4.7 fair zone allocation
 * policy (mm/page_alloc.c of 4.7: buffered_rmqueue, reset_alloc_batches).  The fair pass over
 * the zonelist itself is in page_alloc.c's get_page_from_freelist().
 *
 * Linux decrements NR_ALLOC_BATCH per page through per-CPU deltas folded into the zone
 * counter past a threshold, so the counter (and ZONE_FAIR_DEPLETED) lags by up to a threshold
 * per CPU.  The engine's per-CPU lists already count their allocations without an atomic;
 * what has not yet been taken off the batch is that count minus allocs_folded, folded when
 * it reaches the same threshold.  A compare-and-swap on allocs_folded makes exactly one of
 * two racing threads fold a given stretch.
 */
#include "page_alloc_fair.h"
#include "pcp.h"

static void alloc_batch_spend(struct zone *zone, long nr)
{
	long left = atomic_fetch_sub_explicit(&zone->alloc_batch, nr, memory_order_relaxed) - nr;

	if (left <= 0 && !zone_fair_depleted(zone))
		atomic_store_explicit(&zone->fair_depleted, true, memory_order_relaxed);
}

void fair_account_alloc(struct nlru_engine *eng, struct zone *zone, unsigned int order)
{
	struct per_cpu_pages *pcp;
	uint64_t allocs, folded;

	if (order) {
		alloc_batch_spend(zone, 1l << order);
		return;
	}
	pcp = &zone->pageset[this_cpu(eng)];
	allocs = pcp_allocs(pcp);
	folded = atomic_load_explicit(&pcp->allocs_folded, memory_order_relaxed);
	if (allocs - folded >= (uint64_t)zone->stat_threshold &&
	    atomic_compare_exchange_strong(&pcp->allocs_folded, &folded, allocs))
		alloc_batch_spend(zone, (long)(allocs - folded));
}

void zone_reset_alloc_batch(struct zone *zone)
{
	atomic_store_explicit(&zone->alloc_batch,
			      (long)(zone->watermark[WMARK_HIGH] - zone->watermark[WMARK_LOW]),
			      memory_order_relaxed);
	atomic_store_explicit(&zone->fair_depleted, false, memory_order_relaxed);
}

void reset_alloc_batches(struct zone *preferred)
{
	struct zone *zone = preferred->zone_pgdat->node_zones;

	for (; zone <= preferred; zone++) {
		if (!populated_zone(zone))
			continue;
		zone_reset_alloc_batch(zone);
	}
}
