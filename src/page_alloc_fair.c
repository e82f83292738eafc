/*
 * page_alloc_fair.c - NR_ALLOC_BATCH accounting and resets for the 4.7 fair zone allocation
 * policy (mm/page_alloc.c of 4.7: buffered_rmqueue, reset_alloc_batches).  The fair pass over
 * the zonelist itself is in page_alloc.c's get_page_from_freelist().
 *
 * 4.7 charges every allocation to the zone's batch through the CPU's vm_stat_diff: an order-0
 * page with __dec_zone_state(), which folds into the zone counter once the CPU's delta goes
 * below -stat_threshold, and then charges half a threshold ahead ("overstep"); a larger block
 * with __mod_zone_page_state(), which folds past the threshold without overstep.  ZONE_FAIR_
 * DEPLETED is set once the zone counter is at or below 0.  So the batch, and the flag, lag
 * the allocations by up to a threshold per CPU, and run ahead by half of one after a fold.
 *
 * The engine keeps the CPU's delta as a difference: pages allocated through the per-CPU list
 * (its own allocation count, and fair_high_order_pages) minus pages charged (fair_charged).
 * The per-CPU lists already count their allocations without an atomic, so the order-0 fast
 * path gains none.  A compare-and-swap on fair_charged makes exactly one of two racing
 * threads (on one CPU, or a thread that migrated) fold a given stretch.  Not modelled: the
 * once-a-second vmstat_update() that folds what is left below the threshold.
 */
#include "page_alloc_fair.h"
#include "pcp.h"

static void alloc_batch_spend(struct zone *zone, long nr)
{
	long left = atomic_fetch_sub_explicit(&zone->zm->alloc_batch, nr, memory_order_relaxed) - nr;

	if (left <= 0 && !zone_fair_depleted(zone))
		atomic_store_explicit(&zone->zm->fair_depleted, true, memory_order_relaxed);
}

void fair_account_alloc(struct nlru_engine *eng, struct zone *zone, unsigned int order)
{
	struct per_cpu_pages *pcp = &zone->pageset[this_cpu(eng)];
	int64_t threshold = zone->stat_threshold;
	uint64_t charged, allocated, upto;

	if (order)
		atomic_fetch_add_explicit(&pcp->fair_high_order_pages, 1ull << order,
					  memory_order_relaxed);
	/* Charged first: a fold by another thread in between only makes the test fail. */
	charged = atomic_load_explicit(&pcp->fair_charged, memory_order_relaxed);
	allocated = pcp_allocs(pcp) +
		    atomic_load_explicit(&pcp->fair_high_order_pages, memory_order_relaxed);
	if ((int64_t)(allocated - charged) <= threshold)
		return;
	/* __dec_zone_state() charges half a threshold ahead; __mod_zone_page_state() does not. */
	upto = allocated + (order ? 0 : (uint64_t)(threshold >> 1));
	if (atomic_compare_exchange_strong(&pcp->fair_charged, &charged, upto))
		alloc_batch_spend(zone, (long)(upto - charged));
}

void zone_reset_alloc_batch(struct zone *zone)
{
	atomic_store_explicit(&zone->zm->alloc_batch,
			      (long)(zone->watermark[WMARK_HIGH] - zone->watermark[WMARK_LOW]),
			      memory_order_relaxed);
	atomic_store_explicit(&zone->zm->fair_depleted, false, memory_order_relaxed);
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
