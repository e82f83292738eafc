/*
 * kswapd: one background reclaim thread per node.  kswapd.c holds the thread, its wait queue
 * and the Linux 4.8 (node mode) policy; kswapd_47.c the Linux 4.7 (zone mode) policy.
 * Each mode's policy is reached through struct reclaim_mode.
 */
#ifndef NODELRU_KSWAPD_H
#define NODELRU_KSWAPD_H

#include <stdatomic.h>
#include <stdbool.h>

#include "mmzone.h"
#include "vmscan.h"

struct nlru_engine;
struct nlru_log;

/* Linux 4.8: wake_all_kswapds(), kswapd(), and the pieces tests drive directly. */
void wake_all_kswapds_48(struct nlru_engine *eng, unsigned int order, struct zoneref *preferred,
			 int high_zoneidx);
void kswapd_loop_48(struct nlru_engine *eng, struct pglist_data *pgdat);
void kswapd_run_once_48(struct nlru_engine *eng, struct pglist_data *pgdat);

/*
 * wakeup_kswapd() (4.8): ask @zone's node to reclaim for an allocation of @order that may use
 * zones up to @classzone_idx.  Merges the request; wakes the thread only if it sleeps and no
 * eligible zone is balanced.  Never sleeps.
 */
void wakeup_kswapd_48(struct nlru_engine *eng, struct zone *zone, unsigned int order,
		      int classzone_idx);

/*
 * zone_balanced() (4.8): above the high watermark plus the classzone's reserve, at @order.
 * A balanced zone clears its node's congested and dirty flags, as in 4.8.
 */
bool zone_balanced_48(struct zone *zone, int order, int classzone_idx);

/* balance_pgdat() (4.8): one kswapd balance pass; returns the order it finished at. */
int balance_pgdat_48(struct nlru_engine *eng, struct pglist_data *pgdat, int order,
		     int classzone_idx);

/* Linux 4.7 (kswapd_47.c). */
void wake_all_kswapds_47(struct nlru_engine *eng, unsigned int order, struct zoneref *preferred,
			 int high_zoneidx);
void kswapd_loop_47(struct nlru_engine *eng, struct pglist_data *pgdat);
void kswapd_run_once_47(struct nlru_engine *eng, struct pglist_data *pgdat);
/* 4.7 wakeup_kswapd(): per zone, judged by that zone's own high watermark. */
void wakeup_kswapd_47(struct nlru_engine *eng, struct zone *zone, unsigned int order,
		      int classzone_idx);
/* 4.7 balance_pgdat(): returns end_zone, the highest zone it found unbalanced. */
int balance_pgdat_47(struct nlru_engine *eng, struct pglist_data *pgdat, int order,
		     int classzone_idx);
/* 4.7 pgdat_balanced(): order 0: every zone up to @classzone_idx balanced. */
bool pgdat_balanced_47(struct nlru_engine *eng, struct pglist_data *pgdat, int order,
		       int classzone_idx);

/* prepare_kswapd_sleep(): may kswapd sleep?  4.8: every eligible zone balanced; 4.7:
 * pgdat_balanced. */
bool prepare_kswapd_sleep_48(struct nlru_engine *eng, struct pglist_data *pgdat, int order,
			     int classzone_idx);
bool prepare_kswapd_sleep_47(struct nlru_engine *eng, struct pglist_data *pgdat, int order,
			     int classzone_idx);
/* A wakeup cut kswapd's nap short: 4.8 merges the request it napped on back, 4.7 drops it. */
void kswapd_woken_early_48(struct pglist_data *pgdat, int order, int classzone_idx);
void kswapd_woken_early_47(struct pglist_data *pgdat, int order, int classzone_idx);

/* The pending request's reset value: 0 in node mode, the highest zone in zone mode. */
int kswapd_classzone_reset_48(const struct pglist_data *pgdat);
int kswapd_classzone_reset_47(const struct pglist_data *pgdat);

/* Shared by both policies: kswapd's scan_control and its wait queue. */
struct scan_control kswapd_scan_control(int order);
/*
 * kswapd_try_to_sleep(), the same code in both modes: if the node is balanced for @order and
 * @classzone_idx, nap kswapd_nap_ms (HZ/10); if still balanced and not woken meanwhile, sleep
 * until woken.  Woken during the nap counts kswapd_low_wmark_hit_quickly, unbalanced after it
 * kswapd_high_wmark_hit_quickly.  What "balanced" means, and what becomes of the request
 * after an early wakeup, are the mode's (prepare_kswapd_sleep, kswapd_woken_early).  Before
 * the nap it wakes kcompactd for @alloc_order, the order kswapd was woken for
 * (wakeup_kcompactd()).
 */
void kswapd_try_to_sleep(struct nlru_engine *eng, struct pglist_data *pgdat, int alloc_order,
			 int order, int classzone_idx);

/*
 * waitqueue_active(), read before taking ks->lock: false while kswapd runs or a wakeup is
 * already on its way, which is what most allocations under the low watermark find; they then
 * leave the lock alone.  No fence, as in 4.8's wakeup_kswapd(): a waker that reads "not
 * waiting" too early read the free counts earlier still, and kswapd only goes to sleep when
 * it sees its node above the high watermark, far above the low one that sent the waker here.
 * So no wakeup is lost that kswapd needed, bar a waker's own last few pages.
 */
static inline bool kswapd_sleeping(struct kswapd_state *ks)
{
	return atomic_load_explicit(&ks->waiting, memory_order_relaxed) &&
	       !atomic_load_explicit(&ks->woken, memory_order_relaxed);
}

/*
 * wake_up_interruptible(&pgdat->kswapd_wait): if kswapd waits and has not been woken yet,
 * mark it woken, count nlru_kswapd_wakeup and signal it.
 */
void kswapd_wake(struct nlru_engine *eng, struct kswapd_state *ks);

/* Start and stop the per-node threads (engine creation and destruction). */
int kswapd_start_all(struct nlru_engine *eng);
void kswapd_stop_all(struct nlru_engine *eng);
void kswapd_state_init(struct kswapd_state *ks, const struct nlru_log *log);
void kswapd_state_destroy(struct kswapd_state *ks);

#endif /* NODELRU_KSWAPD_H */
