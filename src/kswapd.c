/*
 * kswapd.c - per-node background reclaim: the thread and its wait queue, and the Linux 4.8
 * policy (mm/vmscan.c kswapd, balance_pgdat, kswapd_try_to_sleep, wakeup_kswapd).  The 4.7
 * policy of zone mode is in kswapd_47.c and shares the thread and the wait queue.
 *
 * Each node has a thread bound to the node's CPUs, with PF_MEMALLOC | PF_KSWAPD set.  It
 * sleeps on its wait queue (a mutex and condition variable) until the allocator finds every
 * eligible zone below its low watermark, reclaims until one eligible zone is balanced (the
 * 4.8 rule), naps for HZ/10 and goes back to sleep.  Destruction sets the stop flag and
 * wakes it; balance_pgdat() checks the flag every priority round, so it stops mid-reclaim.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "atomic.h"
#include "compaction.h"
#include "current.h"
#include "kswapd.h"
#include "kthread.h"
#include "reclaim_mode.h"
#include "topo.h"
#include "vmscan.h"
#include "vmstat.h"
#include "watermark.h"
#include "zonelist.h"

void kswapd_state_init(struct kswapd_state *ks, const struct nlru_log *log)
{
	pthread_condattr_t attr;

	mutex_init(&ks->lock, LOCK_KSWAPD, log);
	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&ks->wait, &attr);
	pthread_cond_init(&ks->pfmemalloc_wait, &attr);
	pthread_condattr_destroy(&attr);
}

void kswapd_state_destroy(struct kswapd_state *ks)
{
	pthread_cond_destroy(&ks->pfmemalloc_wait);
	pthread_cond_destroy(&ks->wait);
	mutex_destroy(&ks->lock);
}

bool zone_balanced_48(struct zone *zone, int order, int classzone_idx)
{
	/* Exact counters: zone_watermark_ok_safe() is zone_watermark_ok(). */
	if (!zone_watermark_ok(zone, (unsigned int)order, high_wmark_pages(zone), classzone_idx, 0))
		return false;
	/* A balanced zone ends the node's congested and dirty state (4.8 does it here too). */
	atomic_fetch_and(&zone->zone_pgdat->lruvec.flags,
			 ~((1ul << LRUVEC_CONGESTED) | (1ul << LRUVEC_DIRTY)));
	return true;
}

/* Any managed zone from @classzone_idx down is balanced: the 4.8 "done" test. */
static bool pgdat_any_zone_balanced(struct pglist_data *pgdat, int order, int classzone_idx)
{
	for (int zid = classzone_idx; zid >= 0; zid--) {
		struct zone *zone = &pgdat->node_zones[zid];

		if (managed_zone(zone) && zone_balanced_48(zone, order, classzone_idx))
			return true;
	}
	return false;
}

void wakeup_kswapd_48(struct nlru_engine *eng, struct zone *zone, unsigned int order,
		      int classzone_idx)
{
	struct pglist_data *pgdat = zone->zone_pgdat;
	struct kswapd_state *ks = &pgdat->kswapd;

	if (!managed_zone(zone))
		return;
	atomic_max(&ks->classzone_idx, classzone_idx);
	atomic_max(&ks->order, (int)order);
	/* Only wake kswapd if all zones are unbalanced: checked without its lock, as 4.8. */
	if (!kswapd_sleeping(ks) || pgdat_any_zone_balanced(pgdat, (int)order, classzone_idx))
		return;
	kswapd_wake(eng, ks);
}

void kswapd_wake(struct nlru_engine *eng, struct kswapd_state *ks)
{
	bool wake;

	mutex_lock(&ks->lock);
	/* Woken already and not running yet: a second signal would only cost a system call. */
	wake = ks->waiting && !ks->woken;
	if (wake) {
		ks->woken = true;
		count_vm_event(eng, NLRU_KSWAPD_WAKEUP);
	}
	mutex_unlock(&ks->lock);
	/* After the unlock, so that kswapd does not wake into a held lock. */
	if (wake)
		pthread_cond_signal(&ks->wait);
}

/* wake_all_kswapds() (4.8): once per node of the zonelist, with the gfp zone as classzone. */
void wake_all_kswapds_48(struct nlru_engine *eng, unsigned int order, struct zoneref *z,
			 int high_zoneidx)
{
	struct pglist_data *last_pgdat = NULL;
	struct zone *zone;

	for_next_zone_zonelist(zone, z, high_zoneidx) {
		if (zone->zone_pgdat == last_pgdat)
			continue;
		wakeup_kswapd_48(eng, zone, order, high_zoneidx);
		last_pgdat = zone->zone_pgdat;
	}
}

/* kswapd_shrink_node(): reclaim towards the high watermarks of the eligible zones. */
static bool kswapd_shrink_node(struct nlru_engine *eng, struct pglist_data *pgdat,
			       struct scan_control *sc)
{
	sc->nr_to_reclaim = 0;
	for (int zid = 0; zid <= sc->reclaim_idx; zid++) {
		struct zone *zone = &pgdat->node_zones[zid];

		if (managed_zone(zone))
			sc->nr_to_reclaim += MAX(high_wmark_pages(zone), SWAP_CLUSTER_MAX);
	}
	shrink_node(eng, pgdat, sc);
	/* Enough for a high-order block in principle: fall back to order 0 (kcompactd's turn). */
	if (sc->order && sc->nr_reclaimed >= 2ul << sc->order)
		sc->order = 0;
	return sc->nr_scanned >= sc->nr_to_reclaim;
}

struct scan_control kswapd_scan_control(int order)
{
	/* laptop_mode is off: kswapd may write from the start. */
	return (struct scan_control){
		.gfp_mask = NLRU_GFP_KERNEL,
		.order = order,
		.reclaim_idx = MAX_NR_ZONES - 1,
		.priority = DEF_PRIORITY,
		.may_writepage = 1,
		.may_unmap = 1,
		.may_swap = 1,
	};
}

int balance_pgdat_48(struct nlru_engine *eng, struct pglist_data *pgdat, int order,
		     int classzone_idx)
{
	struct scan_control sc = kswapd_scan_control(order);

	count_vm_event(eng, NLRU_PAGEOUTRUN);
	do {
		bool raise_priority = true;

		sc.nr_reclaimed = 0;
		sc.reclaim_idx = classzone_idx;
		if (pgdat_any_zone_balanced(pgdat, sc.order, classzone_idx))
			break;
		age_active_anon(eng, &pgdat->lruvec, &sc);
		sc.nr_scanned = 0;
		if (kswapd_shrink_node(eng, pgdat, &sc))
			raise_priority = false;
		wake_throttled_if_ok(eng, pgdat);
		if (atomic_load(&pgdat->kswapd.stop))
			break;
		/* Scanned enough but freed nothing: look harder next round anyway. */
		if (raise_priority || !sc.nr_reclaimed)
			sc.priority--;
	} while (sc.priority >= 1);
	return sc.order;
}

/* prepare_kswapd_sleep() (4.8): every eligible zone balanced (stricter than balance_pgdat's exit).
 */
bool prepare_kswapd_sleep_48(struct nlru_engine *eng, struct pglist_data *pgdat, int order,
			     int classzone_idx)
{
	(void)eng;
	for (int zid = 0; zid <= classzone_idx; zid++) {
		struct zone *zone = &pgdat->node_zones[zid];

		if (managed_zone(zone) && !zone_balanced_48(zone, order, classzone_idx))
			return false;
	}
	return true;
}

/*
 * A real-time wait until @ns of CLOCK_MONOTONIC from now.  With the engine on a clock of the
 * caller's (tests drive it by hand) the nap is waited in ticks of 1 ms, to follow that clock;
 * on the real clock in one wait, so a napping kswapd does not wake a thousand times a second.
 */
static void wait_real_ns(struct kswapd_state *ks, uint64_t ns)
{
	struct timespec deadline = monotonic_after(ns);

	pthread_cond_timedwait(&ks->wait, &ks->lock.mutex, &deadline);
}

/*
 * Wait for a wakeup or the stop flag: at most @ms of the engine's clock, or without limit
 * when @ms is 0.  Returns true when woken.  ks->lock held.
 */
static bool kswapd_wait(struct nlru_engine *eng, struct kswapd_state *ks, long ms)
{
	uint64_t start = engine_now_ns(eng), limit = (uint64_t)ms * NSEC_PER_MSEC;

	while (!ks->woken && !atomic_load(&ks->stop)) {
		uint64_t waited = engine_now_ns(eng) - start;

		if (!ms)
			pthread_cond_wait(&ks->wait, &ks->lock.mutex);
		else if (waited >= limit)
			break;
		else
			wait_real_ns(ks, eng->cfg.clock ? NSEC_PER_MSEC : limit - waited);
	}
	return ks->woken;
}

void kswapd_try_to_sleep(struct nlru_engine *eng, struct pglist_data *pgdat, int alloc_order,
			 int order, int classzone_idx)
{
	const struct reclaim_mode *mode = eng->mode;
	struct kswapd_state *ks = &pgdat->kswapd;
	bool remaining = false;

	mutex_lock(&ks->lock);
	if (atomic_load(&ks->stop)) {
		mutex_unlock(&ks->lock);
		return;
	}
	/* prepare_to_wait(): from here on a waker sees kswapd waiting (see kswapd_sleeping()). */
	ks->woken = false;
	ks->waiting = true;
	mutex_unlock(&ks->lock);
	atomic_thread_fence(memory_order_seq_cst);
	/*
	 * No reclaimer stays throttled while kswapd sleeps: wake them all, to look again (and
	 * wake kswapd if they must wait still), as prepare_kswapd_sleep() does in both versions.
	 */
	wake_throttled(pgdat);
	/*
	 * The balance checks read counters only and run unlocked, as the wakers' do: a waker
	 * then takes the lock only to wake kswapd, not to wait while kswapd weighs its zones.
	 */
	if (mode->prepare_kswapd_sleep(eng, pgdat, order, classzone_idx)) {
		/* Reclaim is done: have kcompactd make the blocks it was woken for. */
		wakeup_kcompactd(eng, pgdat, alloc_order, classzone_idx);
		mutex_lock(&ks->lock);
		remaining = kswapd_wait(eng, ks, tunable(eng, kswapd_nap_ms));
		mutex_unlock(&ks->lock);
		if (remaining)
			mode->kswapd_woken_early(pgdat, order, classzone_idx);
	}
	if (!remaining && mode->prepare_kswapd_sleep(eng, pgdat, order, classzone_idx)) {
		/*
		 * Asleep, kswapd leaves the zones their normal stat thresholds; awake, the
		 * smaller pressure ones, so that the counters' drift cannot hide a breach of the
		 * min watermark (set_pgdat_percpu_threshold, both versions).
		 */
		set_pgdat_percpu_threshold(eng, pgdat, calculate_normal_threshold);
		mutex_lock(&ks->lock);
		kswapd_wait(eng, ks, 0);
		mutex_unlock(&ks->lock);
		set_pgdat_percpu_threshold(eng, pgdat, calculate_pressure_threshold);
	} else {
		count_vm_event(eng, remaining ? NLRU_KSWAPD_LOW_WMARK_HIT_QUICKLY
					      : NLRU_KSWAPD_HIGH_WMARK_HIT_QUICKLY);
	}
	ks->waiting = false;
}

/* Woken during the nap (4.8): merge the request kswapd napped on into the new one. */
void kswapd_woken_early_48(struct pglist_data *pgdat, int order, int classzone_idx)
{
	atomic_max(&pgdat->kswapd.classzone_idx, classzone_idx);
	atomic_max(&pgdat->kswapd.order, order);
}

/* kswapd() (4.8): sleep, balance for the merged request, sleep at the order it ended at. */
void kswapd_loop_48(struct nlru_engine *eng, struct pglist_data *pgdat)
{
	struct kswapd_state *ks = &pgdat->kswapd;
	int alloc_order = 0, reclaim_order = 0, classzone_idx = 0;

	while (!atomic_load(&ks->stop)) {
		kswapd_try_to_sleep(eng, pgdat, alloc_order, reclaim_order, classzone_idx);
		alloc_order = reclaim_order = atomic_exchange(&ks->order, 0);
		classzone_idx = atomic_exchange(&ks->classzone_idx, 0);
		if (atomic_load(&ks->stop))
			break;
		reclaim_order = balance_pgdat_48(eng, pgdat, alloc_order, classzone_idx);
		/* Fell back to order 0: check sleep at that order for the same zones. */
		if (reclaim_order < alloc_order)
			continue;
		/* Otherwise check it against whatever was requested meanwhile (4.8 peeks). */
		alloc_order = reclaim_order = atomic_load(&ks->order);
		classzone_idx = atomic_load(&ks->classzone_idx);
	}
}

void kswapd_run_once_48(struct nlru_engine *eng, struct pglist_data *pgdat)
{
	int order = atomic_exchange(&pgdat->kswapd.order, 0);
	int classzone_idx = atomic_exchange(&pgdat->kswapd.classzone_idx, 0);

	/* With no request pending, balance for the node's highest zone. */
	if (!order && !classzone_idx)
		classzone_idx = pgdat->nr_zones - 1;
	balance_pgdat_48(eng, pgdat, order, classzone_idx);
}

int kswapd_classzone_reset_48(const struct pglist_data *pgdat)
{
	(void)pgdat;
	return 0;
}

struct kswapd_arg {
	struct nlru_engine *eng;
	struct pglist_data *pgdat;
};

static void *kswapd_main(void *arg)
{
	struct nlru_engine *eng = ((struct kswapd_arg *)arg)->eng;
	struct pglist_data *pgdat = ((struct kswapd_arg *)arg)->pgdat;
	int r;

	free(arg);
	current_flags |= PF_MEMALLOC | PF_KSWAPD;
	r = topo_bind_thread(eng->topo, pgdat->node_id);
	/* Not fatal: kswapd still reclaims, from whatever CPU the scheduler gives it (the node's
	 * CPUs may lie outside this process's cpuset). */
	if (r)
		log_warn(&eng->log, "kswapd%d: cannot bind to node %d's CPUs: %s; it runs unbound",
			 pgdat->node_id, pgdat->node_id, strerror(-r));
	eng->mode->kswapd_loop(eng, pgdat);
	return NULL;
}

int kswapd_start_all(struct nlru_engine *eng)
{
	struct pglist_data *pgdat;
	int nid, r;

	for_each_online_pgdat(pgdat, eng, nid) {
		struct kswapd_arg *arg = malloc(sizeof(*arg));

		if (!arg)
			return -ENOMEM;
		*arg = (struct kswapd_arg){eng, pgdat};
		r = kthread_run(&pgdat->kswapd.thread, kswapd_main, arg, "kswapd%d", nid);
		if (r) {
			free(arg);
			log_err(&eng->log, "cannot start kswapd for node %d: %s", nid, strerror(r));
			return -r;
		}
		pgdat->kswapd.started = true;
	}
	return 0;
}

void kswapd_stop_all(struct nlru_engine *eng)
{
	for (int nid = 0; nid < MAX_NUMNODES; nid++) {
		struct pglist_data *pgdat = eng->node_data[nid];

		if (!pgdat || !pgdat->kswapd.started)
			continue;
		mutex_lock(&pgdat->kswapd.lock);
		atomic_store(&pgdat->kswapd.stop, true);
		pthread_cond_signal(&pgdat->kswapd.wait);
		mutex_unlock(&pgdat->kswapd.lock);
		pthread_join(pgdat->kswapd.thread, NULL);
		pgdat->kswapd.started = false;
	}
}

int nlru_kswapd_run(struct nlru_engine *eng, int nid)
{
	unsigned int saved = current_flags;
	struct pglist_data *pgdat;
	bool no_thread;

	if (!eng)
		return -EINVAL;
	if (nid < 0 || nid >= eng->nr_nodes)
		return log_einval(&eng->log,
				  "kswapd_run: node %d does not exist (the engine has %d)", nid,
				  eng->nr_nodes);
	pgdat = NODE_DATA(eng, nid);
	/* Without a thread, the caller's pass is kswapd awake, and asleep again after it. */
	no_thread = !pgdat->kswapd.started;
	if (no_thread)
		set_pgdat_percpu_threshold(eng, pgdat, calculate_pressure_threshold);
	current_flags = PF_MEMALLOC | PF_KSWAPD;
	eng->mode->kswapd_run_once(eng, pgdat);
	current_flags = saved;
	if (no_thread)
		set_pgdat_percpu_threshold(eng, pgdat, calculate_normal_threshold);
	return 0;
}
