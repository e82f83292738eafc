/*
 * page_alloc_47.c - NR_ALLOC_BATCH accounting and resets for the 4.7 fair zone allocation
 * policy (mm/page_alloc.c of 4.7: buffered_rmqueue, reset_alloc_batches).  The fair pass over
 * the zonelist itself is in page_alloc.c's get_page_from_freelist().
 *
 * 4.7 charges every allocation to the zone's batch through the CPU's vm_stat_diff: an order-0
 * page with __dec_zone_state(), which folds into the zone counter once the CPU's delta goes
 * below -stat_threshold, and then charges half a threshold ahead ("overstep"); a larger block
 * with __mod_zone_page_state(), which folds past the threshold without overstep.  ZONE_FAIR_
 * DEPLETED is set once the zone counter is at or below 0.  So the batch, and the flag, lag
 * the allocations by up to a threshold per CPU, and run ahead by half of one after a fold.
 * The threshold is the zone's at the moment of the charge: the normal one, or, in a zone
 * with a drift mark, the smaller pressure one while kswapd is awake (vmstat.c), so on many
 * CPUs the batches fold in shorter strides under pressure, as 4.7's do.
 *
 * The engine keeps the CPU's delta as a difference: pages allocated through the per-CPU list
 * (its own allocation count, and fair_high_order_pages) minus pages charged (fair_charged).
 * The per-CPU lists already count their allocations without an atomic, so the order-0 fast
 * path gains none.  A compare-and-swap on fair_charged makes exactly one of two racing
 * threads (on one CPU, or a thread that migrated) fold a given stretch.  Not modelled: the
 * once-a-second vmstat_update() that folds what is left below the threshold.
 */
#include "page_alloc_47.h"
#include "watermark.h"

void fair_fold(struct zone *zone, struct per_cpu_pages *pcp, uint64_t charged, uint64_t upto)
{
	long nr = (long)(upto - charged), left;

	if (!atomic_compare_exchange_strong(&pcp->fair_charged, &charged, upto))
		return;
	left = atomic_fetch_sub_explicit(&zone->alloc_batch, nr, memory_order_relaxed) - nr;
	if (left <= 0 && !zone_fair_depleted(zone))
		atomic_store_explicit(&zone->fair_depleted, true, memory_order_relaxed);
}

void zone_reset_alloc_batch(struct zone *zone)
{
	atomic_store_explicit(&zone->alloc_batch,
			      (long)(high_wmark_pages(zone) - low_wmark_pages(zone)),
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
