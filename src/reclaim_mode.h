/*
 * The two reclaim modes side by side: what Linux 4.7 (zone mode) and 4.8 (node mode) do
 * differently.  This comment lists every difference; everything it does not list is the same
 * code in both modes.  The code takes a mode's path only through this table (eng->mode->...),
 * the fast path's copy of fair_zone_policy, and lruvec_is_node(), so
 *   grep -rn 'mode->\|fair_zone_policy\|lruvec_is_node' src
 * finds every branch, and reclaim_mode_of() below is the only test of enum nlru_mode.
 *
 * Names: a function that exists once per mode ends in _48 or _47 (balance_pgdat_48 and
 * balance_pgdat_47); zone mode's own code lives in a *_47.c file beside the file that holds
 * the shared code and node mode's (kswapd_47.c, page_alloc_47.c, vmstat_dump_47.c).  A Linux
 * name without a suffix (shrink_node, shrink_zone, kswapd_shrink_zone) belongs to the one
 * version that has that function.
 *
 * 1. Operations, one function per mode (struct reclaim_mode below):
 *    - direct reclaim's walk (shrink_zones): each node once, or each zone by its own lists;
 *    - waking kswapd (wake_all_kswapds): once per node if no eligible zone is balanced, or
 *      per zone by that zone's own high watermark;
 *    - kswapd's life (kswapd_loop, kswapd_run_once): when it is done balancing (any eligible
 *      zone balanced, or every zone up to the classzone), how a pass reclaims (one node
 *      pass, or zone by zone up to end_zone), how its pending request is merged and taken;
 *    - when kswapd may sleep (prepare_kswapd_sleep), what an early wakeup does to its
 *      request (kswapd_woken_early), and the request's reset value (kswapd_classzone_reset);
 *    - the text dumps (dump_vmstat_items, dump_vmstat_events, dump_zoneinfo).
 * 2. Data the table sets at engine creation:
 *    - lru_per_zone: the lruvec a zone's pages go on (zone->page_lruvec), its own
 *      (zone->zm->lruvec) or its node's.  Everything kept per lruvec then follows without a
 *      test: the lists and their lru_lock, get_scan_count's recent_scanned/rotated, the
 *      workingset clock, the congested/dirty/writeback flags, NR_PAGES_SCANNED and its
 *      "unreclaimable" rule, and the zone copies of the node counters (zone->zm);
 *    - fair_zone_policy: 4.7's fair zone allocation policy (page_alloc_47.c).  The fast path
 *      tests a copy of it (eng->fair_zone_policy) twice in page_alloc.c, to walk the zonelist
 *      fairly (get_page_from_freelist_47) and to charge every allocation to its zone's
 *      batch; a flag, not an operation, so node mode's fast path makes no indirect call.
 *      The walk it picks also decides how pages about to be dirtied (NLRU_GFP_WRITE) are
 *      spread: over nodes within their dirty limits (node_dirty_ok, with the
 *      last_pgdat_dirty_limit shortcut) or over zones within theirs (zone_dirty_ok);
 * 3. The kind of lruvec, tested with lruvec_is_node() where a rule holds for one kind only:
 *    - which counters an lruvec's sizes and node items are (lruvec_lru_size,
 *      lruvec_page_state, mod_lruvec_state, lruvec_reset_state): the node's, or the zone's;
 *    - the zones whose pages it holds (for_each_lruvec_zone): get_scan_count's "cache trap"
 *      sums the free pages and high watermarks of every zone of the node, or of the one zone;
 *    - the zone a reclaim event is booked on (count_reclaim_event): the request's highest
 *      zone, or the zone reclaimed;
 *    - eligibility (inactive_list_is_low, inactive_reclaimable_pages): 4.8 leaves out the
 *      pages of zones above reclaim_idx, which a zone's lruvec never holds;
 *    - should_reclaim_retry's reclaimable estimate: the zone's LRU pages (4.8), or its
 *      lruvec's reclaimable pages, isolated ones included (4.7);
 *    - the full debug checks at destruction (check_engine in engine.c): the node's lists,
 *      or each zone's lists and the zone copies of the node counters.
 */
#ifndef NODELRU_RECLAIM_MODE_H
#define NODELRU_RECLAIM_MODE_H

#include <stdbool.h>
#include <stdio.h>

#include <nodelru/nodelru.h>

struct nlru_engine;
struct pglist_data;
struct scan_control;
struct zone;
struct zonelist;
struct zoneref;

struct reclaim_mode {
	/* Each zone has LRU lists of its own (4.7), rather than sharing its node's (4.8). */
	bool lru_per_zone;
	/* The fast path spreads allocations over the local zones (4.7 ALLOC_FAIR). */
	bool fair_zone_policy;
	/* shrink_zones(): direct reclaim's walk of the zonelist at one priority. */
	void (*shrink_zones)(struct nlru_engine *eng, struct zonelist *zonelist,
			     struct scan_control *sc);
	/*
	 * wake_all_kswapds(): the allocator slow path asks the kswapds of the zonelist's nodes
	 * (from @preferred on, zones up to @high_zoneidx) to reclaim for @order.
	 */
	void (*wake_all_kswapds)(struct nlru_engine *eng, unsigned int order,
				 struct zoneref *preferred, int high_zoneidx);
	/* The life of one node's kswapd thread: sleep, balance, repeat until stopped. */
	void (*kswapd_loop)(struct nlru_engine *eng, struct pglist_data *pgdat);
	/* nlru_kswapd_run(): one balance pass for what is pending, in the calling thread. */
	void (*kswapd_run_once)(struct nlru_engine *eng, struct pglist_data *pgdat);
	/*
	 * prepare_kswapd_sleep(): is @pgdat balanced enough for kswapd to nap and then sleep,
	 * for the request (@order, @classzone_idx) it last balanced for?
	 */
	bool (*prepare_kswapd_sleep)(struct nlru_engine *eng, struct pglist_data *pgdat, int order,
				     int classzone_idx);
	/* A wakeup cut kswapd's nap short: what becomes of the request it napped on. */
	void (*kswapd_woken_early)(struct pglist_data *pgdat, int order, int classzone_idx);
	/* kswapd's pending request when none is pending: classzone 0 (4.8) or the top (4.7). */
	int (*kswapd_classzone_reset)(const struct pglist_data *pgdat);
	/* The /proc/vmstat, /proc/zoneinfo and nodeN/vmstat dumps of the imitated kernel. */
	void (*dump_vmstat_items)(struct nlru_engine *eng, int only_nid, FILE *out);
	void (*dump_vmstat_events)(struct nlru_engine *eng, FILE *out);
	void (*dump_zoneinfo)(struct nlru_engine *eng, FILE *out);
};

extern const struct reclaim_mode reclaim_mode_48; /* Linux 4.8 */
extern const struct reclaim_mode reclaim_mode_47; /* Linux 4.7 */

static inline const struct reclaim_mode *reclaim_mode_of(enum nlru_mode mode)
{
	return mode == NLRU_MODE_ZONE ? &reclaim_mode_47 : &reclaim_mode_48;
}

#endif /* NODELRU_RECLAIM_MODE_H */
