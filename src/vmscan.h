/*
 * Page reclaim (mm/vmscan.c): scan_control, shrink_node (4.8) and shrink_zone (4.7) over the
 * one shared lruvec reclaim core, and the entry points the allocator and kswapd call.
 */
#ifndef NODELRU_VMSCAN_H
#define NODELRU_VMSCAN_H

#include <stdbool.h>

#include "mmzone.h"

struct nlru_engine;

#define DEF_PRIORITY 12

struct scan_control {
	unsigned long nr_to_reclaim; /* stop once this many pages are reclaimed */
	unsigned int gfp_mask;
	int order;
	int reclaim_idx; /* highest zone whose pages may be isolated (4.8; zone mode: the
			    highest zone it may shrink) */
	int priority;    /* scan lists >> priority: 12 down to 0 */
	unsigned int may_writepage : 1;
	unsigned int may_unmap : 1;
	unsigned int may_swap : 1;
	unsigned int may_thrash : 1; /* direct reclaim's second round (4.8: memcg low limits off) */
	unsigned int ignore_unreclaimable : 1; /* the engine's stand-in for the OOM killer */
	unsigned int compaction_ready : 1;     /* a zone has enough free for compaction: stop */
	unsigned long nr_scanned;   /* inactive pages looked at (mapped ones count twice) */
	unsigned long nr_reclaimed; /* pages freed */
};

/* shrink_node() (4.8): one proportional pass over the node's lists, then the shrinkers. */
bool shrink_node(struct nlru_engine *eng, struct pglist_data *pgdat, struct scan_control *sc);

/*
 * shrink_zone() (4.7): one proportional pass over the zone's lists; the shrinkers run only
 * when @is_classzone.  True if it made progress.
 */
bool shrink_zone(struct nlru_engine *eng, struct zone *zone, struct scan_control *sc,
		 bool is_classzone);

/* Direct reclaim's walk of the zonelist, one per mode (struct reclaim_mode). */
void shrink_zones_48(struct nlru_engine *eng, struct zonelist *zonelist, struct scan_control *sc);
void shrink_zones_47(struct nlru_engine *eng, struct zonelist *zonelist, struct scan_control *sc);

/* age_active_anon(): keep the inactive anon list from running empty (kswapd). */
void age_active_anon(struct nlru_engine *eng, struct lruvec *lruvec, struct scan_control *sc);

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
 * lruvec_reclaimable(): false once reclaim has scanned six times what the lruvec could give
 * back since a page was last freed to its node (4.8 pgdat_reclaimable) or zone (4.7
 * zone_reclaimable): the "unreclaimable" rule of NR_PAGES_SCANNED.
 */
unsigned long lruvec_reclaimable_pages(const struct nlru_engine *eng, const struct lruvec *lruvec);
bool lruvec_reclaimable(const struct nlru_engine *eng, const struct lruvec *lruvec);

static inline bool pgdat_reclaimable(const struct nlru_engine *eng, const struct pglist_data *pgdat)
{
	return lruvec_reclaimable(eng, &pgdat->lruvec);
}

static inline bool zone_reclaimable(const struct nlru_engine *eng, const struct zone *zone)
{
	return lruvec_reclaimable(eng, &zone->zm->lruvec);
}

/*
 * pfmemalloc_watermark_ok(): are the free pages of the node's zones up to Normal (those with
 * reclaimable pages) above half their min watermarks?  If not, kswapd is woken.
 */
bool pfmemalloc_watermark_ok(struct nlru_engine *eng, struct pglist_data *pgdat);
/* kswapd's side of throttle_direct_reclaim(): wake the throttled reclaimers of @pgdat, all,
 * or only once pfmemalloc_watermark_ok() holds.  No lock held. */
void wake_throttled(struct pglist_data *pgdat);
void wake_throttled_if_ok(struct nlru_engine *eng, struct pglist_data *pgdat);

/*
 * wait_iff_congested(): direct reclaim, after a batch of @lruvec, sleeps as congestion_wait()
 * does only if writes are congested and the lruvec is flagged congested (vmscan_throttle.c).
 */
void wait_iff_congested(struct nlru_engine *eng, const struct lruvec *lruvec);

/*
 * throttle_direct_reclaim(): a direct reclaimer with @gfp over @zonelist waits (a second at
 * most) while its first node is below half its min reserve, for kswapd to bring it back.
 */
void throttle_direct_reclaim(struct nlru_engine *eng, unsigned int gfp, struct zonelist *zonelist);

/* congestion_wait(BLK_RW_ASYNC, HZ/10): give writeback time to complete. */
void congestion_wait(struct nlru_engine *eng);

#endif /* NODELRU_VMSCAN_H */
