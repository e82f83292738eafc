/*
 * Page reclaim (Linux 4.8 mm/vmscan.c, node mode): scan_control, shrink_node and the list
 * shrinkers, and the entry points the allocator and kswapd call.
 */
#ifndef NODELRU_VMSCAN_H
#define NODELRU_VMSCAN_H

#include <stdbool.h>

#include "engine.h"

/* Task flags of the calling thread, as Linux's current->flags. */
#define PF_MEMALLOC 0x1 /* reclaiming: allocations may use the reserves, never recurse */
#define PF_KSWAPD 0x2   /* this thread is a kswapd */

extern __thread unsigned int current_flags;

static inline bool current_is_kswapd(void)
{
	return current_flags & PF_KSWAPD;
}

#define DEF_PRIORITY 12
#define SWAP_CLUSTER_MAX 32ul

struct scan_control {
	unsigned long nr_to_reclaim; /* stop once this many pages are reclaimed */
	unsigned int gfp_mask;
	int order;
	int reclaim_idx; /* highest zone whose pages may be isolated (4.8) */
	int priority;    /* scan lists >> priority: 12 down to 0 */
	unsigned int may_writepage : 1;
	unsigned int may_unmap : 1;
	unsigned int may_swap : 1;
	unsigned int ignore_unreclaimable : 1; /* the engine's stand-in for the OOM killer */
	unsigned long nr_scanned;   /* inactive pages looked at (mapped ones count twice) */
	unsigned long nr_reclaimed; /* pages freed */
};

/* shrink_node(): one proportional pass over the node's lists.  True if it made progress. */
bool shrink_node(struct nlru_engine *eng, struct pglist_data *pgdat, struct scan_control *sc);

/* age_active_anon(): keep the inactive anon list from running empty (kswapd). */
void age_active_anon(struct nlru_engine *eng, struct pglist_data *pgdat, struct scan_control *sc);

/*
 * try_to_free_pages(): direct reclaim for an allocation of @order with @gfp whose zones go up
 * to @high_zoneidx, over @zonelist.  Returns the number of pages reclaimed.
 */
unsigned long try_to_free_pages(struct nlru_engine *eng, struct zonelist *zonelist,
				unsigned int order, unsigned int gfp, int high_zoneidx);

/*
 * The engine's answer where Linux 4.8 would call the OOM killer: one more direct reclaim
 * that ignores the "unreclaimable" heuristic (NR_PAGES_SCANNED), which in 4.8 can give up
 * on a node whose pages were all recently used.  Returns the pages reclaimed; 0 means the
 * allocation really cannot be satisfied.
 */
unsigned long try_to_free_pages_oom(struct nlru_engine *eng, struct zonelist *zonelist,
				    unsigned int order, unsigned int gfp, int high_zoneidx);

/*
 * zone_reclaimable_pages(): what reclaim could free in @zone, for should_reclaim_retry().
 * 4.8 counts the zone's file LRU pages, and its anon LRU pages while swap has room.
 */
unsigned long zone_reclaimable_pages(const struct nlru_engine *eng, const struct zone *zone);

/*
 * pgdat_reclaimable(): false once reclaim has scanned six times what the node could give
 * back since a page was last freed there (4.8's "unreclaimable" rule, NR_PAGES_SCANNED).
 */
unsigned long pgdat_reclaimable_pages(const struct nlru_engine *eng, const struct pglist_data *pgdat);
bool pgdat_reclaimable(const struct nlru_engine *eng, const struct pglist_data *pgdat);

/* congestion_wait(BLK_RW_ASYNC, HZ/10): give writeback time to complete. */
void congestion_wait(struct nlru_engine *eng);

#endif /* NODELRU_VMSCAN_H */
