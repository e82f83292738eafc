/*
 * vmscan_throttle.c - where reclaim waits: congestion_wait() and wait_iff_congested() (Linux
 * 4.8 mm/backing-dev.c), and throttle_direct_reclaim() with the pfmemalloc reserve check
 * (mm/vmscan.c).  throttle_vm_writeout() is page_writeback.c's, as in Linux.
 *
 * Locking: the throttled reclaimers sleep on their node's kswapd lock and pfmemalloc_wait
 * condition, which kswapd broadcasts on; the congestion waits sleep in the block device's
 * own lock (blkdev.c).  None is held by anything a completion or kswapd needs.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <time.h>

#include "atomic.h"
#include "blkdev.h"
#include "current.h"
#include "engine.h"
#include "gfp.h"
#include "kswapd.h"
#include "vmscan.h"
#include "vmstat.h"
#include "watermark.h"
#include "zonelist.h"

#define HZ_10_NS (100 * 1000 * 1000ull)

void congestion_wait(struct nlru_engine *eng)
{
	struct timespec hz_10 = {.tv_sec = 0, .tv_nsec = HZ_10_NS};

	atomic_fetch_add_explicit(&eng->congestion_waits, 1, memory_order_relaxed);
	/* Until a write request ends below the congestion mark, as clear_wb_congested() wakes. */
	if (eng->blkdev)
		blkdev_congestion_wait(eng->blkdev, HZ_10_NS);
	else
		nanosleep(&hz_10, NULL);
}

/*
 * wait_iff_congested(): sleep as congestion_wait() does only if writes are congested and
 * reclaim found this lruvec's dirty pages all waiting on them (PGDAT_CONGESTED, 4.7
 * ZONE_CONGESTED).  Otherwise Linux only calls cond_resched(), which gives the CPU up only
 * when the task's time slice is over: in userspace the scheduler does that by itself.
 */
void wait_iff_congested(struct nlru_engine *eng, const struct lruvec *lruvec)
{
	if (blkdev_write_congested(eng->blkdev) &&
	    (atomic_load(&lruvec->flags) & (1ul << LRUVEC_CONGESTED)))
		congestion_wait(eng);
}

/* The free pages of the node's zones up to Normal that have reclaimable pages (those of
 * their lruvec: the node's in 4.8, the zone's in 4.7) above half their min watermarks? */
static bool pfmemalloc_reserve_ok(const struct nlru_engine *eng, struct pglist_data *pgdat)
{
	unsigned long reserve = 0, free_pages = 0;

	for (int zid = 0; zid <= ZONE_NORMAL; zid++) {
		struct zone *zone = &pgdat->node_zones[zid];

		if (!managed_zone(zone) || !lruvec_reclaimable_pages(eng, zone->page_lruvec))
			continue;
		reserve += min_wmark_pages(zone);
		free_pages += (unsigned long)MAX(0, zone_page_state(zone, NLRU_NR_FREE_PAGES));
	}
	/* No reserves: nothing to protect, no throttling. */
	return !reserve || free_pages > reserve / 2;
}

bool pfmemalloc_watermark_ok(struct nlru_engine *eng, struct pglist_data *pgdat)
{
	struct kswapd_state *ks = &pgdat->kswapd;
	bool ok = pfmemalloc_reserve_ok(eng, pgdat);

	/* kswapd must be awake while reclaimers are throttled. */
	if (!ok && kswapd_sleeping(ks)) {
		atomic_min(&ks->classzone_idx, ZONE_NORMAL);
		kswapd_wake(eng, ks);
	}
	return ok;
}

void wake_throttled(struct pglist_data *pgdat)
{
	struct kswapd_state *ks = &pgdat->kswapd;

	if (!atomic_load_explicit(&ks->nr_throttled, memory_order_relaxed))
		return;
	mutex_lock(&ks->lock);
	pthread_cond_broadcast(&ks->pfmemalloc_wait);
	mutex_unlock(&ks->lock);
}

void wake_throttled_if_ok(struct nlru_engine *eng, struct pglist_data *pgdat)
{
	if (atomic_load_explicit(&pgdat->kswapd.nr_throttled, memory_order_relaxed) &&
	    pfmemalloc_watermark_ok(eng, pgdat))
		wake_throttled(pgdat);
}

/*
 * Longest a direct reclaimer stays throttled: HZ, as Linux waits for a caller without
 * __GFP_FS.  Linux waits for others until kswapd wakes them; the engine, which must never
 * hang an allocation, waits a second at most whoever calls.
 */
#define THROTTLE_MAX_NS 1000000000ull

/*
 * throttle_direct_reclaim(): when the first node of the zonelist with a zone up to Normal has
 * its free pages below half its min watermarks, a direct reclaimer waits for kswapd to bring
 * them back up (pgscan_direct_throttle), so that kswapd, not a crowd of reclaimers, does the
 * work.  Not kswapd itself (PF_KTHREAD), and not without a kswapd thread to wake it.
 */
void throttle_direct_reclaim(struct nlru_engine *eng, unsigned int gfp, struct zonelist *zonelist)
{
	struct pglist_data *pgdat = NULL;
	struct zoneref *z = zonelist->_zonerefs;
	struct timespec deadline;
	struct kswapd_state *ks;
	struct zone *zone;

	if (current_is_kswapd() || !eng->cfg.kswapd)
		return;
	for_next_zone_zonelist(zone, z, gfp_zone(gfp)) {
		if (zone->zone_idx > ZONE_NORMAL)
			continue;
		pgdat = zone->zone_pgdat;
		break;
	}
	if (!pgdat || pfmemalloc_watermark_ok(eng, pgdat))
		return;
	count_vm_event(eng, NLRU_PGSCAN_DIRECT_THROTTLE);
	ks = &pgdat->kswapd;
	deadline = monotonic_after(THROTTLE_MAX_NS);
	mutex_lock(&ks->lock);
	atomic_fetch_add(&ks->nr_throttled, 1);
	/* Checked under the lock kswapd broadcasts with, so that no wakeup is lost. */
	while (!atomic_load(&ks->stop) && !pfmemalloc_reserve_ok(eng, pgdat)) {
		if (kswapd_sleeping(ks)) {
			/* It went to sleep meanwhile: wake it (which takes the lock) and look
			 * again. */
			mutex_unlock(&ks->lock);
			pfmemalloc_watermark_ok(eng, pgdat);
			mutex_lock(&ks->lock);
			continue;
		}
		if (pthread_cond_timedwait(&ks->pfmemalloc_wait, &ks->lock.mutex, &deadline) ==
		    ETIMEDOUT)
			break;
	}
	atomic_fetch_sub(&ks->nr_throttled, 1);
	mutex_unlock(&ks->lock);
}
