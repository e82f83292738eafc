/*
 * watermark.c - min_free_kbytes, per-zone watermarks, lowmem reserves, pcp sizes and the
 * watermark checks of the allocator (Linux 4.8 mm/page_alloc.c, identical maths in 4.7).
 *
 * The setup runs once at engine creation with no allocation in flight, so it takes no lock;
 * the checks read NR_FREE_PAGES lock-free, as Linux does.
 */
#include "watermark.h"
#include "gfp.h"
#include "page_alloc_47.h"
#include "vmstat.h"

unsigned long int_sqrt(unsigned long x)
{
	unsigned long lo = 0, hi = x < 2 ? x : MIN(x / 2 + 1, 0xffffffffUL);

	while (lo < hi) {
		unsigned long mid = lo + (hi - lo + 1) / 2;

		if (mid <= x / mid)
			lo = mid;
		else
			hi = mid - 1;
	}
	return lo;
}

/* nr_free_buffer_pages(): pages of zones usable by GFP_USER above their high watermark. */
static unsigned long nr_free_buffer_pages(const struct nlru_engine *eng)
{
	unsigned long sum = 0;
	const struct pglist_data *pgdat;
	int nid;

	for_each_online_pgdat(pgdat, eng, nid) {
		for (int zid = 0; zid <= gfp_zone(NLRU_GFP_USER); zid++) {
			const struct zone *zone = &pgdat->node_zones[zid];

			if (zone->managed_pages > high_wmark_pages(zone))
				sum += zone->managed_pages - high_wmark_pages(zone);
		}
	}
	return sum;
}

/* __setup_per_zone_wmarks(): the global min shared by zone size, then the scaled gaps. */
static void setup_per_zone_wmarks(struct nlru_engine *eng)
{
	unsigned long pages_min = (unsigned long)eng->min_free_kbytes >> (PAGE_SHIFT - 10);
	unsigned long lowmem_pages = 0;
	struct pglist_data *pgdat;
	struct zone *zone;
	int nid;

	/* No zone is highmem on a 64-bit machine, so every zone counts as lowmem. */
	for_each_online_pgdat(pgdat, eng, nid)
		for_each_zone_in_node(zone, pgdat)
			lowmem_pages += zone->managed_pages;

	for_each_online_pgdat(pgdat, eng, nid) {
		for_each_zone_in_node(zone, pgdat) {
			uint64_t tmp = lowmem_pages ? (uint64_t)pages_min * zone->managed_pages /
							      lowmem_pages
						    : 0;
			uint64_t gap =
				MAX(tmp / 4,
				    (uint64_t)zone->managed_pages *
					    (uint64_t)tunable(eng, watermark_scale_factor) / 10000);

			__atomic_store_n(&zone->watermark[WMARK_MIN], tmp, __ATOMIC_RELAXED);
			__atomic_store_n(&zone->watermark[WMARK_LOW], tmp + gap, __ATOMIC_RELAXED);
			__atomic_store_n(&zone->watermark[WMARK_HIGH], tmp + 2 * gap,
					 __ATOMIC_RELAXED);
			zone_reset_alloc_batch(zone);
		}
	}
}

static long lowmem_reserve_ratio(const struct nlru_engine *eng, int zid)
{
	switch (zid) {
	case ZONE_DMA:
		return tunable(eng, lowmem_reserve_ratio_dma);
	case ZONE_DMA32:
		return tunable(eng, lowmem_reserve_ratio_dma32);
	default:
		return tunable(eng, lowmem_reserve_ratio_normal);
	}
}

/*
 * setup_per_zone_lowmem_reserve(): a lower zone keeps back, from allocations that could have
 * used zone j, the managed pages of the zones above it up to j divided by its own ratio.
 */
static void setup_per_zone_lowmem_reserve(struct nlru_engine *eng)
{
	struct pglist_data *pgdat;
	int nid;

	for_each_online_pgdat(pgdat, eng, nid) {
		for (int j = 0; j < MAX_NR_ZONES; j++) {
			unsigned long managed = pgdat->node_zones[j].managed_pages;

			__atomic_store_n(&pgdat->node_zones[j].lowmem_reserve[j], 0,
					 __ATOMIC_RELAXED);
			for (int idx = j - 1; idx >= 0; idx--) {
				struct zone *lower = &pgdat->node_zones[idx];
				long ratio = MAX(lowmem_reserve_ratio(eng, idx), 1);

				__atomic_store_n(&lower->lowmem_reserve[j],
						 (long)(managed / (unsigned long)ratio),
						 __ATOMIC_RELAXED);
				managed += lower->managed_pages;
			}
		}
	}
}

/*
 * calculate_totalreserve_pages(): what the dirty limits must not count as available: per
 * zone, its high watermark and largest lowmem reserve, at most its size.  4.8 keeps the sum
 * per node (node_dirty_ok), 4.7 each zone's own too (zone_dirty_ok).
 */
static void calculate_totalreserve_pages(struct nlru_engine *eng)
{
	struct pglist_data *pgdat;
	struct zone *zone;
	int nid;

	for_each_online_pgdat(pgdat, eng, nid) {
		unsigned long node_total = 0;

		for_each_zone_in_node(zone, pgdat) {
			long max = 0;
			unsigned long total;

			for (int j = 0; j < MAX_NR_ZONES; j++)
				max = MAX(max, zone_lowmem_reserve(zone, j));
			total = MIN((unsigned long)max + high_wmark_pages(zone),
				    zone->managed_pages);
			__atomic_store_n(&zone->zm->totalreserve_pages, total, __ATOMIC_RELAXED);
			node_total += total;
		}
		__atomic_store_n(&pgdat->totalreserve_pages, node_total, __ATOMIC_RELAXED);
	}
}

/*
 * A configured min_free_kbytes the engine cannot hold: every zone's min watermark at or above
 * its size, so no allocation ever passes a watermark check.  Linux takes any value
 * vm.min_free_kbytes is given as well; the engine says what it will do.
 */
static void warn_min_free_too_large(struct nlru_engine *eng)
{
	unsigned long pages_min = (unsigned long)eng->min_free_kbytes >> (PAGE_SHIFT - 10);
	unsigned long managed = 0;
	const struct pglist_data *pgdat;
	const struct zone *zone;
	int nid;

	for_each_online_pgdat(pgdat, eng, nid)
		for_each_zone_in_node(zone, pgdat)
			managed += zone->managed_pages;
	if (pages_min < managed)
		return;
	log_warn(&eng->log,
		 "min_free_kbytes %ld is %lu pages, not less than the engine's %lu: every "
		 "allocation will fail its watermark check (leave it 0 to have it computed)",
		 eng->min_free_kbytes, pages_min, managed);
}

/* The min_free_kbytes in force: the tunable's, or (0) the one computed at creation. */
static void set_min_free_kbytes(struct nlru_engine *eng)
{
	long configured = tunable(eng, min_free_kbytes);

	if (configured) {
		__atomic_store_n(&eng->min_free_kbytes, configured, __ATOMIC_RELAXED);
		warn_min_free_too_large(eng);
	} else {
		__atomic_store_n(&eng->min_free_kbytes, eng->computed_min_free_kbytes,
				 __ATOMIC_RELAXED);
	}
}

void init_per_zone_wmark_min(struct nlru_engine *eng)
{
	/* From the pages above the watermarks, none yet: the boot-time value. */
	unsigned long lowmem_kbytes = nr_free_buffer_pages(eng) * (PAGE_SIZE >> 10);

	eng->computed_min_free_kbytes = MIN(MAX((long)int_sqrt(lowmem_kbytes * 16), 128), 65536);
	set_min_free_kbytes(eng);
	setup_per_zone_wmarks(eng);
	refresh_zone_stat_thresholds(eng);
	setup_per_zone_lowmem_reserve(eng);
	calculate_totalreserve_pages(eng);
}

void setup_per_zone_wmarks_live(struct nlru_engine *eng)
{
	set_min_free_kbytes(eng);
	setup_per_zone_wmarks(eng);
	calculate_totalreserve_pages(eng);
}

void setup_per_zone_lowmem_reserve_live(struct nlru_engine *eng)
{
	setup_per_zone_lowmem_reserve(eng);
	calculate_totalreserve_pages(eng);
}

static unsigned long rounddown_pow_of_two(unsigned long n)
{
	return n ? 1ul << (63 - __builtin_clzl(n)) : 0;
}

int zone_batchsize(const struct zone *zone)
{
	unsigned long batch = zone->managed_pages / 1024;

	/* At most 512 KiB of pages at a time, and a quarter of that per batch. */
	if (batch * PAGE_SIZE > 512 * 1024)
		batch = (512 * 1024) / PAGE_SIZE;
	batch /= 4;
	if (batch < 1)
		batch = 1;
	/* 2^n - 1 keeps successive batches from all landing on the same cache colours. */
	return (int)rounddown_pow_of_two(batch + batch / 2) - 1;
}

void zone_pcp_sizes(const struct nlru_engine *eng, const struct zone *zone, int *high, int *batch)
{
	long fraction = tunable(eng, percpu_pagelist_fraction);

	if (fraction) {
		/* pageset_set_high() */
		unsigned long h = zone->managed_pages / (unsigned long)fraction;

		*high = (int)MIN(h, PCP_MAX_PAGES);
		*batch = (int)(h / 4 > PAGE_SHIFT * 8 ? PAGE_SHIFT * 8 : MAX(1ul, h / 4));
	} else {
		/* pageset_set_batch() */
		int b = zone_batchsize(zone);

		*high = 6 * b;
		*batch = MAX(1, b);
	}
}

bool __zone_watermark_ok(struct zone *z, unsigned int order, unsigned long mark, int classzone_idx,
			 unsigned int alloc_flags, long free_pages)
{
	long min = (long)mark;

	/* free_pages may go negative: that is fine */
	free_pages -= (1l << order) - 1;
	if (alloc_flags & ALLOC_HIGH)
		min -= min / 2;
	/*
	 * Without ALLOC_HARDER the high-order atomic reserve is not the caller's: leave it out
	 * (all of it, although some may be in use: cheaper than a search, as in 4.8).
	 */
	if (likely(!(alloc_flags & ALLOC_HARDER)))
		free_pages -= (long)__atomic_load_n(&z->nr_reserved_highatomic, __ATOMIC_RELAXED);
	else
		min -= min / 4;
	if (free_pages <= min + zone_lowmem_reserve(z, classzone_idx))
		return false;
	if (!order)
		return true;
	/* A free block at least as big as asked for, of a type the request may take. */
	for (unsigned int o = order; o < MAX_ORDER; o++) {
		const struct free_area *area = &z->free_area[o];

		if (!__atomic_load_n(&area->nr_free, __ATOMIC_RELAXED))
			continue;
		if (alloc_flags & ALLOC_HARDER)
			return true;
		for (int mt = 0; mt < MIGRATE_PCPTYPES; mt++)
			if (!pfnlist_empty(&area->free_list[mt]))
				return true;
	}
	return false;
}

bool zone_watermark_ok(struct zone *z, unsigned int order, unsigned long mark, int classzone_idx,
		       unsigned int alloc_flags)
{
	return __zone_watermark_ok(z, order, mark, classzone_idx, alloc_flags,
				   zone_page_state(z, NLRU_NR_FREE_PAGES));
}
