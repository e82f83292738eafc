/*
 * Counter updates and reads.  Event counters are per CPU (struct vm_event_state) plus the
 * per-CPU list counts (enum pcp_stat); state counters are exact atomics per zone and per node.
 * Linux folds per-CPU deltas into the atomics past a threshold; exact counters make
 * zone_watermark_ok_safe() the same as zone_watermark_ok() and need no drift mark.
 */
#ifndef NODELRU_VMSTAT_INTERNAL_H
#define NODELRU_VMSTAT_INTERNAL_H

#include "engine.h"

static inline void count_vm_events(struct nlru_engine *eng, enum nlru_vm_event_item item,
				   unsigned long delta)
{
	atomic_fetch_add_explicit(&eng->vm_events[this_cpu(eng)].event[item], delta,
				  memory_order_relaxed);
}

static inline void count_vm_event(struct nlru_engine *eng, enum nlru_vm_event_item item)
{
	count_vm_events(eng, item, 1);
}

/* A zoned event (pgalloc_<zone>, allocstall_<zone>, ...) for zone index @zid. */
static inline void count_zid_vm_events(struct nlru_engine *eng, enum nlru_vm_event_item item,
				       int zid, unsigned long delta)
{
	count_vm_events(eng, (enum nlru_vm_event_item)(item + zid), delta);
}

static inline long zone_page_state(const struct zone *zone, enum nlru_zone_stat_item item)
{
	return atomic_load_explicit(&zone->vm_stat[item], memory_order_relaxed);
}

static inline void mod_zone_page_state(struct zone *zone, enum nlru_zone_stat_item item, long delta)
{
	atomic_fetch_add_explicit(&zone->vm_stat[item], delta, memory_order_relaxed);
}

/* For items whose every writer holds zone->lock: no read-modify-write atomic needed. */
static inline void __mod_zone_page_state(struct zone *zone, enum nlru_zone_stat_item item,
					 long delta)
{
	atomic_store_explicit(&zone->vm_stat[item], zone_page_state(zone, item) + delta,
			      memory_order_relaxed);
}

static inline long node_page_state(const struct pglist_data *pgdat, enum nlru_node_stat_item item)
{
	return atomic_load_explicit(&pgdat->vm_stat[item], memory_order_relaxed);
}

static inline void mod_node_page_state(struct pglist_data *pgdat, enum nlru_node_stat_item item,
				       long delta)
{
	atomic_fetch_add_explicit(&pgdat->vm_stat[item], delta, memory_order_relaxed);
}

/*
 * A node item of @lruvec's pages: the node counter, and in zone mode also the zone's copy
 * (4.7 keeps every counter per zone; the node counter stays their sum).
 */
static inline void mod_lruvec_state(struct lruvec *lruvec, enum nlru_node_stat_item item,
				    long delta)
{
	mod_node_page_state(lruvec->pgdat, item, delta);
	if (!lruvec_is_node(lruvec))
		atomic_fetch_add_explicit(&lruvec->zone->zm->vm_node_stat[item], delta,
					  memory_order_relaxed);
}

/* A node item of @page's node, and in zone mode of its zone (the page's lruvec). */
static inline void mod_page_node_state(struct pglist_data *pgdat, const struct page *page,
				       enum nlru_node_stat_item item, long delta)
{
	mod_lruvec_state(page_lruvec(pgdat, page), item, delta);
}

/*
 * Zero @item of @lruvec (its node's counter in node mode, its zone's copy in zone mode) and
 * take what it held off the node counter too.  An exchange, so that two threads resetting at
 * once do not both subtract the same value.
 */
static inline void lruvec_reset_state(struct lruvec *lruvec, enum nlru_node_stat_item item)
{
	long v;

	if (lruvec_is_node(lruvec)) {
		atomic_exchange_explicit(&lruvec->pgdat->vm_stat[item], 0, memory_order_relaxed);
		return;
	}
	v = atomic_exchange_explicit(&lruvec->zone->zm->vm_node_stat[item], 0,
				     memory_order_relaxed);
	if (v)
		mod_node_page_state(lruvec->pgdat, item, -v);
}

/* A node item as @lruvec's reclaim sees it: the node's in node mode, the zone's in zone mode. */
static inline long lruvec_page_state(const struct lruvec *lruvec, enum nlru_node_stat_item item)
{
	if (lruvec_is_node(lruvec))
		return node_page_state(lruvec->pgdat, item);
	return atomic_load_explicit(&lruvec->zone->zm->vm_node_stat[item], memory_order_relaxed);
}

/* A node item of one zone: its zone-mode copy (zoneinfo in the 4.7 layout). */
static inline long zone_node_page_state(const struct zone *zone, enum nlru_node_stat_item item)
{
	return atomic_load_explicit(&zone->zm->vm_node_stat[item], memory_order_relaxed);
}

/* A per-CPU list count, bumped by its lock holder. */
static inline void pcp_stat_add(struct per_cpu_pages *pcp, enum pcp_stat item, long delta)
{
	atomic_store_explicit(&pcp->stat[item],
			      atomic_load_explicit(&pcp->stat[item], memory_order_relaxed) + delta,
			      memory_order_relaxed);
}

/*
 * Per-CPU stat thresholds (mm/vmstat.c of 4.7 and 4.8).  The engine's counters are exact, so
 * no counter drifts by them; zoneinfo prints a zone's, and zone mode folds NR_ALLOC_BATCH at
 * it, as 4.7's vm_stat_diff does.
 *
 * calculate_normal_threshold(): 2 x fls(CPUs) x (1 + fls(128 MiB units of the zone)), at
 * most 125.
 */
int calculate_normal_threshold(const struct nlru_engine *eng, const struct zone *zone);

/*
 * calculate_pressure_threshold(): the low - min watermark distance shared out over the CPUs
 * (at least 1, at most 125), so that even every CPU's drift together cannot hide a breach of
 * the min watermark.
 */
int calculate_pressure_threshold(const struct nlru_engine *eng, const struct zone *zone);

/*
 * refresh_zone_stat_thresholds(): every populated zone gets its normal threshold, and a drift
 * mark when the CPUs' drift at that threshold exceeds low - min; every node (4.8's node
 * counters) the largest normal threshold of its zones.
 */
void refresh_zone_stat_thresholds(struct nlru_engine *eng);

/*
 * set_pgdat_percpu_threshold(): the zones of @pgdat with a drift mark get @calculate's
 * threshold.  kswapd sets the pressure one when it wakes from a full sleep and the normal one
 * when it goes back to it (kswapd_try_to_sleep), in both modes.
 */
void set_pgdat_percpu_threshold(const struct nlru_engine *eng, struct pglist_data *pgdat,
				int (*calculate)(const struct nlru_engine *, const struct zone *));

static inline int zone_stat_threshold(const struct zone *zone)
{
	return atomic_load_explicit(&zone->stat_threshold, memory_order_relaxed);
}

/* Reporting reads: fold the per-CPU list counts into the zone and event counters. */
long zone_stat_read(const struct nlru_engine *eng, const struct zone *zone,
		    enum nlru_zone_stat_item item);
unsigned long vm_event_read(struct nlru_engine *eng, enum nlru_vm_event_item item);

/*
 * The counters in print order, the order of vmstat_items.h's lists (their values, which index
 * every array, need not follow it): dumps walk these.
 */
extern const enum nlru_zone_stat_item zone_stat_order[NR_VM_ZONE_STAT_ITEMS];
extern const enum nlru_node_stat_item node_stat_order[NR_VM_NODE_STAT_ITEMS];
extern const enum nlru_vm_event_item vm_event_order[NR_VM_EVENT_ITEMS];

/*
 * Print style of an event slot in the 4.8 /proc/vmstat: true when printed per zone; for a
 * zoned counter printed as one sum, *sum_name is set to that sum's name.
 */
bool vm_event_printed_per_zone(enum nlru_vm_event_item item, const char **sum_name);
int vm_event_zone(enum nlru_vm_event_item item);

#endif /* NODELRU_VMSTAT_INTERNAL_H */
