/*
 * kswapd_47.c - kswapd's Linux 4.7 policy, for zone mode (mm/vmscan.c of 4.7: wakeup_kswapd,
 * kswapd, kswapd_try_to_sleep, prepare_kswapd_sleep, pgdat_balanced, balance_pgdat,
 * kswapd_shrink_zone).  The thread and its wait queue are kswapd.c's.
 *
 * How 4.7 differs from 4.8 (docs/kernel-reclaim.md, "kswapd"):
 *  - a wakeup is per zone, judged by that zone's own high watermark with no lowmem reserve;
 *  - the pending request keeps the largest order, and takes the smaller classzone only when
 *    the order grows; it resets to order 0 and the highest zone;
 *  - a pass finds the highest unbalanced zone (end_zone) and reclaims every zone from DMA up
 *    to it, each by its own lists, skipping zones already above high + a 1% gap;
 *  - the node is done only when every zone up to the classzone is balanced (order 0), not
 *    when any one is.
 * With compaction (the compaction tunable), zone_balanced() judges kswapd's own balancing
 * at order 0 with room for the block, leaving the block to kcompactd, as 4.7 built with
 * CONFIG_COMPACTION does; its wakeup check still asks for the real order.
 */
#include "atomic.h"
#include "kswapd.h"
#include "vmscan.h"
#include "vmstat.h"
#include "watermark.h"
#include "zonelist.h"

#define KSWAPD_ZONE_BALANCE_GAP_RATIO 100

/*
 * zone_balanced() (4.7): above high + @balance_gap at @order, the classzone's reserve applied.
 * With compaction, unless @highorder (the wakeup's question), kswapd stops at the order-0
 * mark plus 2^@order and lets kcompactd make the block.
 */
static bool zone_balanced_47(const struct nlru_engine *eng, struct zone *zone, int order,
			     bool highorder, unsigned long balance_gap, int classzone_idx)
{
	unsigned long mark = high_wmark_pages(zone) + balance_gap;

	if (eng->cfg.compaction && !highorder) {
		mark += 1ul << order;
		order = 0;
	}
	return zone_watermark_ok(zone, (unsigned int)order, mark, classzone_idx, 0);
}

static void clear_lruvec_flags(struct lruvec *lruvec, unsigned long bits)
{
	atomic_fetch_and(&lruvec->flags, ~bits);
}

#define CONGESTED_AND_DIRTY ((1ul << LRUVEC_CONGESTED) | (1ul << LRUVEC_DIRTY))

void wakeup_kswapd_47(struct nlru_engine *eng, struct zone *zone, unsigned int order,
		      int classzone_idx)
{
	struct kswapd_state *ks = &zone->zone_pgdat->kswapd;
	int cur = atomic_load(&ks->order);

	if (!populated_zone(zone))
		return;
	/* The classzone only moves down together with a larger order: a 4.7 quirk, kept. */
	while ((int)order > cur) {
		if (atomic_compare_exchange_weak(&ks->order, &cur, (int)order)) {
			atomic_min(&ks->classzone_idx, classzone_idx);
			break;
		}
	}
	if (!kswapd_sleeping(ks) || zone_balanced_47(eng, zone, (int)order, true, 0, 0))
		return;
	kswapd_wake(eng, ks);
}

/* wake_all_kswapds() (4.7): every zone of the zonelist, the preferred zone as classzone. */
void wake_all_kswapds_47(struct nlru_engine *eng, unsigned int order, struct zoneref *z,
			 int high_zoneidx)
{
	int classzone_idx = z->zone_idx;
	struct zone *zone;

	for_next_zone_zonelist(zone, z, high_zoneidx)
		wakeup_kswapd_47(eng, zone, order, classzone_idx);
}

bool pgdat_balanced_47(struct nlru_engine *eng, struct pglist_data *pgdat, int order,
		       int classzone_idx)
{
	unsigned long managed = 0, balanced = 0;

	for (int zid = 0; zid <= classzone_idx; zid++) {
		struct zone *zone = &pgdat->node_zones[zid];

		if (!populated_zone(zone))
			continue;
		managed += zone->managed_pages;
		/* A zone reclaim has given up on counts as balanced: nothing more to get there. */
		if (!zone_reclaimable(eng, zone)) {
			balanced += zone->managed_pages;
			continue;
		}
		if (zone_balanced_47(eng, zone, order, false, 0, zid))
			balanced += zone->managed_pages;
		else if (!order)
			return false;
	}
	/* A high order is satisfied once a quarter of the node is balanced. */
	return order ? balanced >= managed / 4 : true;
}

/*
 * kswapd_shrink_zone(): reclaim one zone towards its high watermark, unless it is already
 * above high plus the balance gap (then it counts as having done enough).
 */
static bool kswapd_shrink_zone(struct nlru_engine *eng, struct zone *zone, int classzone_idx,
			       struct scan_control *sc)
{
	unsigned long balance_gap =
		MIN(low_wmark_pages(zone),
		    DIV_ROUND_UP(zone->managed_pages, KSWAPD_ZONE_BALANCE_GAP_RATIO));

	sc->nr_to_reclaim = MAX(SWAP_CLUSTER_MAX, high_wmark_pages(zone));
	if (zone_balanced_47(eng, zone, sc->order, false, balance_gap, classzone_idx))
		return true;
	shrink_zone(eng, zone, sc, zone->zone_idx == classzone_idx);
	clear_lruvec_flags(&zone->zm->lruvec, 1ul << LRUVEC_WRITEBACK);
	if (zone_reclaimable(eng, zone) &&
	    zone_balanced_47(eng, zone, sc->order, false, 0, classzone_idx))
		clear_lruvec_flags(&zone->zm->lruvec, CONGESTED_AND_DIRTY);
	return sc->nr_scanned >= sc->nr_to_reclaim;
}

/* The highest zone that needs work, scanning down from the top; -1 if none does. */
static int find_end_zone(struct nlru_engine *eng, struct pglist_data *pgdat,
			 struct scan_control *sc)
{
	for (int zid = pgdat->nr_zones - 1; zid >= 0; zid--) {
		struct zone *zone = &pgdat->node_zones[zid];

		if (!populated_zone(zone))
			continue;
		if (sc->priority != DEF_PRIORITY && !zone_reclaimable(eng, zone))
			continue;
		age_active_anon(eng, &zone->zm->lruvec, sc);
		if (!zone_balanced_47(eng, zone, sc->order, false, 0, 0))
			return zid;
		clear_lruvec_flags(&zone->zm->lruvec, CONGESTED_AND_DIRTY);
	}
	return -1;
}

int balance_pgdat_47(struct nlru_engine *eng, struct pglist_data *pgdat, int order,
		     int classzone_idx)
{
	int end_zone = 0;
	/* 4.7 has no reclaim_idx: zone lists hold nothing to skip. */
	struct scan_control sc = kswapd_scan_control(order);

	count_vm_event(eng, NLRU_PAGEOUTRUN);
	do {
		bool raise_priority = true;
		int zid = find_end_zone(eng, pgdat, &sc);

		sc.nr_reclaimed = 0;
		if (zid < 0)
			break;
		end_zone = zid;
		/* Zones from DMA up, the opposite of the allocator's order, so low zones get
		 * reclaimed before the allocator falls back to them. */
		for (zid = 0; zid <= end_zone; zid++) {
			struct zone *zone = &pgdat->node_zones[zid];

			if (!populated_zone(zone))
				continue;
			if (sc.priority != DEF_PRIORITY && !zone_reclaimable(eng, zone))
				continue;
			sc.nr_scanned = 0;
			if (kswapd_shrink_zone(eng, zone, end_zone, &sc))
				raise_priority = false;
		}
		wake_throttled_if_ok(eng, pgdat);
		if (atomic_load(&pgdat->kswapd.stop))
			break;
		if (raise_priority || !sc.nr_reclaimed)
			sc.priority--;
	} while (sc.priority >= 1 && !pgdat_balanced_47(eng, pgdat, order, classzone_idx));
	return end_zone;
}

/*
 * prepare_kswapd_sleep() (4.7): pgdat_balanced() for the classzone the last pass ended at
 * (never after an early wakeup, which kswapd_try_to_sleep() checks).
 */
bool prepare_kswapd_sleep_47(struct nlru_engine *eng, struct pglist_data *pgdat, int order,
			     int classzone_idx)
{
	return pgdat_balanced_47(eng, pgdat, order, classzone_idx);
}

/* Woken during the nap (4.7): the request kswapd napped on is dropped, not merged. */
void kswapd_woken_early_47(struct pglist_data *pgdat, int order, int classzone_idx)
{
	(void)pgdat;
	(void)order;
	(void)classzone_idx;
}

int kswapd_classzone_reset_47(const struct pglist_data *pgdat)
{
	return pgdat->nr_zones - 1;
}

/* Take the pending request, leaving the reset values (order 0, the highest zone). */
static void take_request(struct pglist_data *pgdat, int *order, int *classzone_idx)
{
	*order = atomic_exchange(&pgdat->kswapd.order, 0);
	*classzone_idx =
		atomic_exchange(&pgdat->kswapd.classzone_idx, kswapd_classzone_reset_47(pgdat));
}

/* kswapd() (4.7): a stricter request that came in while balancing is served without sleeping. */
void kswapd_loop_47(struct nlru_engine *eng, struct pglist_data *pgdat)
{
	struct kswapd_state *ks = &pgdat->kswapd;
	int order = 0, classzone_idx = pgdat->nr_zones - 1;
	int balanced_classzone_idx = classzone_idx;

	while (!atomic_load(&ks->stop)) {
		int new_order, new_classzone_idx;

		take_request(pgdat, &new_order, &new_classzone_idx);
		if (order < new_order || classzone_idx > new_classzone_idx) {
			order = new_order;
			classzone_idx = new_classzone_idx;
		} else {
			kswapd_try_to_sleep(eng, pgdat, order, order, balanced_classzone_idx);
			take_request(pgdat, &order, &classzone_idx);
		}
		if (atomic_load(&ks->stop))
			break;
		balanced_classzone_idx = balance_pgdat_47(eng, pgdat, order, classzone_idx);
	}
}

void kswapd_run_once_47(struct nlru_engine *eng, struct pglist_data *pgdat)
{
	int order, classzone_idx;

	take_request(pgdat, &order, &classzone_idx);
	balance_pgdat_47(eng, pgdat, order, classzone_idx);
}
