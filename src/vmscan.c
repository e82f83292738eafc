/*
 * vmscan.c - page reclaim.
 *
 * So far only the seam the allocator calls: try_to_free_pages() counts the attempt and frees
 * nothing, because no page is on an LRU list yet.  scan_control, shrink_node and the rest come
 * with LRU reclaim.
 */
#include <time.h>

#include "vmscan.h"
#include "vmstat.h"

__thread unsigned int current_flags;

unsigned long try_to_free_pages(struct nlru_engine *eng, struct zonelist *zonelist,
				unsigned int order, unsigned int gfp, int high_zoneidx)
{
	count_vm_event(eng, NLRU_DIRECT_RECLAIM);
	return 0;
}

unsigned long zone_reclaimable_pages(const struct zone *zone)
{
	/* No swap device exists yet, so anon pages do not count (4.8: only while swap has room). */
	return (unsigned long)(zone_page_state(zone, NLRU_NR_ZONE_INACTIVE_FILE) +
			       zone_page_state(zone, NLRU_NR_ZONE_ACTIVE_FILE));
}

unsigned long pgdat_reclaimable_pages(const struct pglist_data *pgdat)
{
	/* No swap device exists yet, so anon pages do not count. */
	return (unsigned long)(node_page_state(pgdat, NLRU_NR_ACTIVE_FILE) +
			       node_page_state(pgdat, NLRU_NR_INACTIVE_FILE) +
			       node_page_state(pgdat, NLRU_NR_ISOLATED_FILE));
}

bool pgdat_reclaimable(const struct pglist_data *pgdat)
{
	return (unsigned long)node_page_state(pgdat, NLRU_NR_PAGES_SCANNED) <
	       pgdat_reclaimable_pages(pgdat) * 6;
}

void congestion_wait(struct nlru_engine *eng)
{
	struct timespec hz_10 = {.tv_sec = 0, .tv_nsec = 100 * 1000 * 1000};

	nanosleep(&hz_10, NULL);
}
