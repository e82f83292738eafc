/*
 * page_writeback.c - dirty limits: the global ones writers are held to (and reclaim, in
 * throttle_vm_writeout), and the share of them each node (4.8 node_dirty_ok) or zone (4.7
 * zone_dirty_ok) may hold, which the allocator's fast path checks for page cache pages about
 * to be dirtied (NLRU_GFP_WRITE).  The engine has
 * no real-time or PF_LESS_THROTTLE tasks and no byte-valued limits (vm.dirty_bytes), so only
 * the ratio branches apply; x86_64 has no highmem, so none is taken off.
 */
#include "page_writeback.h"
#include "vmscan.h"
#include "vmstat.h"

/* global_dirtyable_memory(): free pages above the reserves plus the file LRU, plus one. */
static unsigned long global_dirtyable_memory(const struct nlru_engine *eng)
{
	unsigned long free = 0, reserve = 0, file = 0;
	const struct pglist_data *pgdat;
	const struct zone *zone;
	int nid;

	for_each_online_pgdat(pgdat, eng, nid) {
		for_each_zone_in_node(zone, pgdat)
			free += (unsigned long)zone_page_state(zone, NLRU_NR_FREE_PAGES);
		reserve += __atomic_load_n(&pgdat->totalreserve_pages, __ATOMIC_RELAXED);
		file += (unsigned long)(node_page_state(pgdat, NLRU_NR_INACTIVE_FILE) +
					node_page_state(pgdat, NLRU_NR_ACTIVE_FILE));
	}
	return free - MIN(free, reserve) + file + 1;
}

void global_dirty_limits(const struct nlru_engine *eng, unsigned long *background,
			 unsigned long *dirty)
{
	unsigned long available = global_dirtyable_memory(eng);
	/* Linux scales the percentages to PAGE_SIZE fractions first; keep its rounding. */
	unsigned long ratio = (unsigned long)tunable(eng, dirty_ratio) * PAGE_SIZE / 100;
	unsigned long bg_ratio =
		(unsigned long)tunable(eng, dirty_background_ratio) * PAGE_SIZE / 100;
	unsigned long thresh = ratio * available / PAGE_SIZE;
	unsigned long bg_thresh = bg_ratio * available / PAGE_SIZE;

	if (bg_thresh >= thresh)
		bg_thresh = thresh / 2;
	*background = bg_thresh;
	*dirty = thresh;
}

unsigned long global_dirty_pages(const struct nlru_engine *eng, bool with_writeback)
{
	const struct pglist_data *pgdat;
	long dirty = 0;
	int nid;

	for_each_online_pgdat(pgdat, eng, nid) {
		dirty += node_page_state(pgdat, NLRU_NR_FILE_DIRTY);
		if (with_writeback)
			dirty += node_page_state(pgdat, NLRU_NR_WRITEBACK);
	}
	/* Per-CPU drift can leave the sum a little below zero for a moment. */
	return (unsigned long)MAX(dirty, 0);
}

bool over_bground_thresh(const struct nlru_engine *eng)
{
	unsigned long background, limit;

	global_dirty_limits(eng, &background, &limit);
	return global_dirty_pages(eng, false) > background;
}

void throttle_vm_writeout(struct nlru_engine *eng, unsigned int gfp)
{
	for (;;) {
		unsigned long background, dirty, writeback;

		writeback = global_dirty_pages(eng, true) - global_dirty_pages(eng, false);
		/* Nothing in flight (always so without a device model): no limit to compute. */
		if (!writeback)
			break;
		global_dirty_limits(eng, &background, &dirty);
		/* Linux's "boost the allowable dirty threshold a bit for page allocators". */
		dirty += dirty / 10;
		if (writeback <= dirty)
			break;
		congestion_wait(eng);
		if ((gfp & (NLRU_GFP_IO | NLRU_GFP_FS)) != (NLRU_GFP_IO | NLRU_GFP_FS))
			break;
	}
}

/* node_dirtyable_memory() (4.8): the node's free pages above its reserves, plus its file LRU. */
static unsigned long node_dirtyable_memory(const struct pglist_data *pgdat)
{
	unsigned long nr_pages = 0;
	const struct zone *zone;

	for_each_zone_in_node(zone, pgdat)
		if (populated_zone(zone))
			nr_pages += (unsigned long)zone_page_state(zone, NLRU_NR_FREE_PAGES);
	nr_pages -= MIN(nr_pages, __atomic_load_n(&pgdat->totalreserve_pages, __ATOMIC_RELAXED));
	return nr_pages + (unsigned long)(node_page_state(pgdat, NLRU_NR_INACTIVE_FILE) +
					  node_page_state(pgdat, NLRU_NR_ACTIVE_FILE));
}

unsigned long node_dirty_limit(const struct nlru_engine *eng, const struct pglist_data *pgdat)
{
	return (unsigned long)tunable(eng, dirty_ratio) * node_dirtyable_memory(pgdat) / 100;
}

bool node_dirty_ok(const struct nlru_engine *eng, const struct pglist_data *pgdat)
{
	long nr_pages = node_page_state(pgdat, NLRU_NR_FILE_DIRTY) +
			node_page_state(pgdat, NLRU_NR_UNSTABLE_NFS) +
			node_page_state(pgdat, NLRU_NR_WRITEBACK);

	return (unsigned long)MAX(nr_pages, 0) <= node_dirty_limit(eng, pgdat);
}

/* zone_dirtyable_memory() (4.7): the zone's free pages above its reserves, plus its file LRU. */
static unsigned long zone_dirtyable_memory(const struct zone *zone)
{
	unsigned long nr_pages = (unsigned long)zone_page_state(zone, NLRU_NR_FREE_PAGES);

	nr_pages -= MIN(nr_pages, __atomic_load_n(&zone->zm->totalreserve_pages, __ATOMIC_RELAXED));
	return nr_pages + (unsigned long)(zone_page_state(zone, NLRU_NR_ZONE_INACTIVE_FILE) +
					  zone_page_state(zone, NLRU_NR_ZONE_ACTIVE_FILE));
}

unsigned long zone_dirty_limit(const struct nlru_engine *eng, const struct zone *zone)
{
	return (unsigned long)tunable(eng, dirty_ratio) * zone_dirtyable_memory(zone) / 100;
}

bool zone_dirty_ok(const struct nlru_engine *eng, const struct zone *zone)
{
	long nr_pages = zone_node_page_state(zone, NLRU_NR_FILE_DIRTY) +
			zone_node_page_state(zone, NLRU_NR_UNSTABLE_NFS) +
			zone_node_page_state(zone, NLRU_NR_WRITEBACK);

	return (unsigned long)MAX(nr_pages, 0) <= zone_dirty_limit(eng, zone);
}
