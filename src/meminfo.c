/*
 * meminfo.c - what an embedder asks about the engine's memory before it allocates: one zone's
 * geometry, watermarks and free blocks (nlru_zone_info(), /proc/zoneinfo and
 * /proc/buddyinfo), and the estimate of available memory (si_mem_available(), MemAvailable).
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "engine.h"
#include "mmzone.h"
#include "spinlock.h"
#include "vmstat.h"
#include "watermark.h"

STATIC_ASSERT(offsetof(struct nlru_zone_info, version) == NLRU_ZONE_INFO_SIZE_1,
	      "version 2's members follow version 1's struct");

/* The version a caller's @info asks for: 1 or 2, or 0 (logged) if unknown. */
static unsigned int zone_info_version(const struct nlru_engine *eng,
				      const struct nlru_zone_info *info)
{
	if (!info) {
		log_err(&eng->log, "zone_info: info is NULL");
		return 0;
	}
	if (info->size == NLRU_ZONE_INFO_SIZE_1)
		return 1;
	if (info->size != sizeof(*info)) {
		log_err(&eng->log,
			"zone_info: info->size is %zu; set it to sizeof(struct nlru_zone_info) "
			"(%zu)%s",
			info->size, sizeof(*info),
			info->size > sizeof(*info)
				? ": was the program built against a newer nodelru?"
				: "");
		return 0;
	}
	if (info->version != NLRU_ZONE_INFO_VERSION) {
		log_err(&eng->log,
			"zone_info: info->version is %u; set it to NLRU_ZONE_INFO_VERSION (%d)",
			info->version, NLRU_ZONE_INFO_VERSION);
		return 0;
	}
	return NLRU_ZONE_INFO_VERSION;
}

int nlru_zone_info(struct nlru_engine *eng, int nid, enum nlru_zone_type zid,
		   struct nlru_zone_info *info)
{
	struct zone *zone;
	unsigned int version;
	size_t size;

	if (!eng)
		return -EINVAL;
	version = zone_info_version(eng, info);
	if (!version)
		return -EINVAL;
	if (nid < 0 || nid >= eng->nr_nodes || (unsigned int)zid >= MAX_NR_ZONES)
		return log_einval(&eng->log,
				  "zone_info: node %d zone %d does not exist (nodes 0 to "
				  "%d, zones 0 to %d)",
				  nid, (int)zid, eng->nr_nodes - 1, MAX_NR_ZONES - 1);
	zone = &NODE_DATA(eng, nid)->node_zones[zid];
	size = info->size;
	memset(info, 0, size);
	info->size = size;
	info->start_pfn = NODE_DATA(eng, nid)->node_start_pfn + zone->zone_start_pfn;
	info->spanned = zone->spanned_pages;
	info->present = zone->present_pages;
	info->managed = zone->managed_pages;
	info->free = (uint64_t)zone_page_state(zone, NLRU_NR_FREE_PAGES);
	info->wmark_min = min_wmark_pages(zone);
	info->wmark_low = low_wmark_pages(zone);
	info->wmark_high = high_wmark_pages(zone);
	for (int j = 0; j < MAX_NR_ZONES; j++)
		info->lowmem_reserve[j] = (uint64_t)zone_lowmem_reserve(zone, j);
	if (zone->pageset[0]) {
		info->pcp_high = (uint32_t)zone->pageset[0][0].high;
		info->pcp_batch = (uint32_t)zone->pageset[0][0].batch;
	}
	if (version < 2)
		return 0;
	info->version = version;
	/* A zone without pages has no lock to take: its lists were never set up. */
	if (!zone->managed_pages)
		return 0;
	spin_lock(&zone->lock);
	for (unsigned int order = 0; order < MAX_ORDER; order++)
		info->nr_free_blocks[order] = zone->free_area[order].nr_free;
	spin_unlock(&zone->lock);
	return 0;
}

long nlru_mem_available(const struct nlru_engine *eng)
{
	unsigned long wmark_low = 0, reserve = 0, pagecache = 0, slab = 0, free = 0;
	const struct pglist_data *pgdat;
	const struct zone *zone;
	int nid;
	long available;

	if (!eng)
		return -EINVAL;
	for_each_online_pgdat(pgdat, eng, nid) {
		reserve += __atomic_load_n(&pgdat->totalreserve_pages, __ATOMIC_RELAXED);
		pagecache += (unsigned long)(node_page_state(pgdat, NLRU_NR_ACTIVE_FILE) +
					     node_page_state(pgdat, NLRU_NR_INACTIVE_FILE));
		for_each_zone_in_node(zone, pgdat) {
			wmark_low += low_wmark_pages(zone);
			free += (unsigned long)MAX(zone_page_state(zone, NLRU_NR_FREE_PAGES), 0);
			slab += (unsigned long)MAX(zone_page_state(zone, NLRU_NR_SLAB_RECLAIMABLE),
						   0);
		}
	}
	available = (long)free - (long)reserve;
	/* Not all the page cache can be freed without swapping: half, or the low marks, stay. */
	available += (long)(pagecache - MIN(pagecache / 2, wmark_low));
	/* Part of a reclaimable cache is in use and cannot be freed. */
	available += (long)(slab - MIN(slab / 2, wmark_low));
	return MAX(available, 0);
}
