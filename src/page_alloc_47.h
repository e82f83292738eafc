/*
 * The fair zone allocation policy of Linux 4.7 (zone mode only; removed in 4.8 with the
 * zone LRUs).  Each zone may hand out NR_ALLOC_BATCH pages (high - low watermark, so about
 * its share of the node) before the fast path passes it over for the next local zone; once
 * every local zone is spent, all batches are reset.  Allocations then interleave over the
 * zones in proportion to their size, and pages of the same age spread evenly over the zone
 * LRUs, which zone reclaim needs to age the zones alike.
 */
#ifndef NODELRU_PAGE_ALLOC_47_H
#define NODELRU_PAGE_ALLOC_47_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "engine.h"
#include "mmzone.h"
#include "pcp.h"
#include "vmstat.h"

/* ZONE_FAIR_DEPLETED: the zone has handed out its batch. */
static inline bool zone_fair_depleted(const struct zone *zone)
{
	return atomic_load_explicit(&zone->fair_depleted, memory_order_relaxed);
}

/* zone_local(): the fair pass covers only zones of the preferred zone's node. */
static inline bool zone_local(const struct zone *local_zone, const struct zone *zone)
{
	return local_zone->node == zone->node;
}

/* Charge what is due: pcp's fair_charged goes from @charged to @upto, the batch by the same. */
void fair_fold(struct zone *zone, struct per_cpu_pages *pcp, uint64_t charged, uint64_t upto);

/* What @cpu allocated through @zone's per-CPU lists, of every type, and charged or not. */
static inline uint64_t fair_cpu_allocs(const struct zone *zone, int cpu)
{
	uint64_t allocated = atomic_load_explicit(&zone->pageset[0][cpu].fair_high_order_pages,
						  memory_order_relaxed);

	for (int mt = 0; mt < MIGRATE_PCPTYPES; mt++)
		allocated += pcp_allocs(&zone->pageset[mt][cpu]);
	return allocated;
}

/*
 * Every allocation from a zone, fair or not, spends its batch (buffered_rmqueue), through
 * the CPU's delta that is folded past the zone's stat threshold as it is at that moment (the
 * normal one, or the pressure one while kswapd is awake), as 4.7's vm_stat_diff is.
 * Inline: it runs on every allocation of zone mode's fast path; the fold, every few, is not.
 */
static inline void fair_account_alloc(struct nlru_engine *eng, struct zone *zone,
				      unsigned int order)
{
	int cpu = this_cpu(eng);
	/* The CPU's delta is kept in its first per-CPU list, over the lists of every type. */
	struct per_cpu_pages *pcp = &zone->pageset[0][cpu];
	int64_t threshold = zone_stat_threshold(zone);
	uint64_t charged, allocated;

	if (order)
		atomic_fetch_add_explicit(&pcp->fair_high_order_pages, 1ull << order,
					  memory_order_relaxed);
	/* Charged first: a fold by another thread in between only makes the test fail. */
	charged = atomic_load_explicit(&pcp->fair_charged, memory_order_relaxed);
	allocated = fair_cpu_allocs(zone, cpu);
	if ((int64_t)(allocated - charged) <= threshold)
		return;
	/* __dec_zone_state() charges half a threshold ahead; __mod_zone_page_state() does not. */
	fair_fold(zone, pcp, charged, allocated + (order ? 0 : (uint64_t)(threshold >> 1)));
}

/* NR_ALLOC_BATCH := high - low and ZONE_FAIR_DEPLETED cleared (__setup_per_zone_wmarks). */
void zone_reset_alloc_batch(struct zone *zone);

/* reset_alloc_batches(): every zone of @preferred's node up to it, after a fair pass failed. */
void reset_alloc_batches(struct zone *preferred);

#endif /* NODELRU_PAGE_ALLOC_47_H */
