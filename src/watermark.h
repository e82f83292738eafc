/*
 * Watermarks, lowmem reserves and per-CPU list sizes (Linux 4.8 mm/page_alloc.c: the same
 * maths in 4.7).  The setup functions run at engine creation, before any allocation; the
 * watermarks and reserve totals are set again when min_free_kbytes or watermark_scale_factor
 * change on a live engine (sysctl.c), so they are stored and read with relaxed atomics, as
 * Linux reads them without a lock.
 */
#ifndef NODELRU_WATERMARK_H
#define NODELRU_WATERMARK_H

#include <stdbool.h>

#include <nodelru/vmstat.h>

#include "mmzone.h"
#include "vmstat.h"

struct nlru_engine;

/* init_per_zone_wmark_min(): min_free_kbytes, then every zone's watermarks and reserves. */
void init_per_zone_wmark_min(struct nlru_engine *eng);
/*
 * What writing vm.min_free_kbytes or vm.watermark_scale_factor does on a live engine: the
 * min_free_kbytes in force from the tunable (0: computed as at creation), then
 * setup_per_zone_wmarks() with calculate_totalreserve_pages().  Serialised by the caller.
 */
void setup_per_zone_wmarks_live(struct nlru_engine *eng);
/*
 * What writing vm.lowmem_reserve_ratio does (lowmem_reserve_ratio_sysctl_handler()): every
 * zone's reserves from the ratios in force, and the totals the dirty limits leave out.
 * Serialised by the caller.
 */
void setup_per_zone_lowmem_reserve_live(struct nlru_engine *eng);

/* zone_batchsize() and the pcp high/batch it implies (or percpu_pagelist_fraction's). */
int zone_batchsize(const struct zone *zone);
void zone_pcp_sizes(const struct nlru_engine *eng, const struct zone *zone, int *high, int *batch);

unsigned long int_sqrt(unsigned long x);

static inline unsigned long wmark_pages(const struct zone *z, enum zone_watermarks i)
{
	return __atomic_load_n(&z->watermark[i], __ATOMIC_RELAXED);
}

/* What @z keeps back from an allocation whose highest usable zone is @classzone_idx. */
static inline long zone_lowmem_reserve(const struct zone *z, int classzone_idx)
{
	return __atomic_load_n(&z->lowmem_reserve[classzone_idx], __ATOMIC_RELAXED);
}

static inline unsigned long min_wmark_pages(const struct zone *z)
{
	return wmark_pages(z, WMARK_MIN);
}

static inline unsigned long low_wmark_pages(const struct zone *z)
{
	return wmark_pages(z, WMARK_LOW);
}

static inline unsigned long high_wmark_pages(const struct zone *z)
{
	return wmark_pages(z, WMARK_HIGH);
}

bool __zone_watermark_ok(struct zone *z, unsigned int order, unsigned long mark, int classzone_idx,
			 unsigned int alloc_flags, long free_pages);
bool zone_watermark_ok(struct zone *z, unsigned int order, unsigned long mark, int classzone_idx,
		       unsigned int alloc_flags);
/* Order-0 shortcut first: one load and one compare on the allocation fast path. */
static inline bool zone_watermark_fast(struct zone *z, unsigned int order, unsigned long mark,
				       int classzone_idx, unsigned int alloc_flags)
{
	long free_pages = zone_page_state(z, NLRU_NR_FREE_PAGES);

	if (!order && free_pages > (long)mark + zone_lowmem_reserve(z, classzone_idx))
		return true;
	return __zone_watermark_ok(z, order, mark, classzone_idx, alloc_flags, free_pages);
}

#endif /* NODELRU_WATERMARK_H */
