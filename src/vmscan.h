/* Page reclaim: the entry points the allocator calls. */
#ifndef NODELRU_VMSCAN_H
#define NODELRU_VMSCAN_H

#include "engine.h"

/* Task flags of the calling thread, as Linux's current->flags. */
#define PF_MEMALLOC 0x1 /* reclaiming: allocations may use the reserves, never recurse */
#define PF_KSWAPD 0x2   /* this thread is a kswapd */

extern __thread unsigned int current_flags;

/*
 * try_to_free_pages(): direct reclaim for an allocation of @order with @gfp whose zones go up
 * to @high_zoneidx, over @zonelist.  Returns the number of pages reclaimed.
 */
unsigned long try_to_free_pages(struct nlru_engine *eng, struct zonelist *zonelist,
				unsigned int order, unsigned int gfp, int high_zoneidx);

/*
 * zone_reclaimable_pages(): what reclaim could free in @zone, for should_reclaim_retry().
 * 4.8 counts the zone's file LRU pages, and its anon LRU pages while swap has room.
 */
unsigned long zone_reclaimable_pages(const struct zone *zone);

/*
 * pgdat_reclaimable(): false once reclaim has scanned six times what the node could give
 * back since a page was last freed there (4.8's "unreclaimable" rule, NR_PAGES_SCANNED).
 */
unsigned long pgdat_reclaimable_pages(const struct pglist_data *pgdat);
bool pgdat_reclaimable(const struct pglist_data *pgdat);

/* congestion_wait(BLK_RW_ASYNC, HZ/10): give writeback time to complete. */
void congestion_wait(struct nlru_engine *eng);

#endif /* NODELRU_VMSCAN_H */
