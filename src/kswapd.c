/*
 * kswapd.c - per-node background reclaim.
 *
 * So far only the seam the allocator calls: wakeup_kswapd() counts the request.  The kswapd
 * threads, balance_pgdat() and the sleep rules come with LRU reclaim.
 */
#include "kswapd.h"
#include "vmstat.h"

void wakeup_kswapd(struct nlru_engine *eng, struct zone *zone, unsigned int order,
		   int classzone_idx)
{
	if (!managed_zone(zone))
		return;
	count_vm_event(eng, NLRU_KSWAPD_WAKEUP);
}
