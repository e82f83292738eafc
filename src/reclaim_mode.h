/*
 * The two reclaim modes side by side: what Linux 4.7 (zone mode) and 4.8 (node mode) do
 * differently, as one table of operations per mode.
 *
 * Where the LRU lists live is data, not an operation: each zone points at the lruvec its
 * pages go on (zone->page_lruvec), its own in zone mode and its node's in node mode, and the
 * reclaim core (vmscan.c) works on whichever it is given.  What remains different is listed
 * here: which lruvecs direct reclaim visits, how kswapd is woken, when it is done and when it
 * sleeps, the fair zone allocation policy, and the layout of the dumps.  Everything else is
 * the same code in both modes.
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
