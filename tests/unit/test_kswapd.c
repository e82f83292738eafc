/*
 * kswapd in node mode (4.8): when it is woken, when a balance pass stops, and clean stops.
 * The rules are checked synchronously (kswapd=0, nlru_kswapd_run), the thread for liveness.
 */
#include <criterion/criterion.h>
#include <pthread.h>
#include <stdatomic.h>

#include "buddy.h"
#include "helpers.h"
#include "kswapd.h"
#include "vmscan.h"
#include "watermark.h"

/* These are 4.8's rules; test_zone_mode.c has 4.7's beside them. */
static void in_node_mode(void)
{
	run_in_mode(NLRU_MODE_NODE);
}

TestSuite(kswapd, .init = in_node_mode, .timeout = 120);

static struct zone *zone_of(struct nlru_engine *eng, int zid)
{
	return &NODE_DATA(eng, 0)->node_zones[zid];
}

/*
 * Take pages straight from zone @zid's buddy lists until its free count is @target, to set up
 * watermark situations the allocator's own fallback would not produce.
 */
struct held {
	struct zone *zone;
	uint32_t pfns[4096];
	int n;
};

static void drain_zone_to(struct nlru_engine *eng, int zid, long target, struct held *h)
{
	h->zone = zone_of(eng, zid);
	h->n = 0;
	spin_lock(&h->zone->lock);
	while (zone_page_state(h->zone, NLRU_NR_FREE_PAGES) > target)
		h->pfns[h->n++] = __rmqueue(h->zone, 0, MIGRATE_MOVABLE);
	spin_unlock(&h->zone->lock);
}

static void give_back(struct held *h)
{
	spin_lock(&h->zone->lock);
	while (h->n) {
		uint32_t pfn = h->pfns[--h->n];

		free_one_page_locked(h->zone, pfn, 0, get_pfnblock_migratetype(h->zone, pfn));
	}
	spin_unlock(&h->zone->lock);
}

/* 4.8 wakes kswapd only when every eligible zone is below its high watermark. */
Test(kswapd, woken_only_when_no_eligible_zone_is_balanced)
{
	struct nlru_engine *eng = test_swap_engine(16, 16, false);
	struct kswapd_state *ks = &NODE_DATA(eng, 0)->kswapd;
	static struct held normal, dma32;

	/* Pretend the thread sleeps, then watch what a wakeup does. */
	ks->waiting = true;
	/* Normal below high, DMA32 still balanced: no wakeup for a Normal-classzone request. */
	drain_zone_to(eng, ZONE_NORMAL, (long)high_wmark_pages(zone_of(eng, ZONE_NORMAL)) - 1,
		      &normal);
	cr_assert(zone_balanced_48(zone_of(eng, ZONE_DMA32), 0, ZONE_NORMAL));
	wakeup_kswapd_48(eng, zone_of(eng, ZONE_NORMAL), 0, ZONE_NORMAL);
	cr_expect_not(ks->woken, "DMA32 is balanced: 4.8 leaves kswapd asleep");
	/* Now DMA32 too. */
	drain_zone_to(eng, ZONE_DMA32, (long)high_wmark_pages(zone_of(eng, ZONE_DMA32)) - 1,
		      &dma32);
	wakeup_kswapd_48(eng, zone_of(eng, ZONE_NORMAL), 0, ZONE_NORMAL);
	cr_expect(ks->woken, "no eligible zone balanced: kswapd is woken");
	cr_expect_eq(atomic_load(&ks->classzone_idx), ZONE_NORMAL);
	cr_expect_eq(vmstat_value(eng, "nlru_kswapd_wakeup"), 1);
	ks->waiting = false;
	give_back(&normal);
	give_back(&dma32);
	destroy_engine(eng);
}

/* A pass stops as soon as any eligible zone is balanced, even if another is not. */
Test(kswapd, balance_stops_when_any_eligible_zone_is_balanced)
{
	struct nlru_engine *eng = test_swap_engine(16, 16, false);
	static struct held normal;

	drain_zone_to(eng, ZONE_NORMAL, (long)low_wmark_pages(zone_of(eng, ZONE_NORMAL)) - 1,
		      &normal);
	cr_assert(zone_balanced_48(zone_of(eng, ZONE_DMA32), 0, ZONE_NORMAL));
	cr_assert_not(zone_balanced_48(zone_of(eng, ZONE_NORMAL), 0, ZONE_NORMAL));
	cr_assert_eq(nlru_kswapd_run(eng, 0), 0);
	cr_expect_eq(vmstat_value(eng, "pageoutrun"), 1);
	cr_expect_eq(vmstat_value(eng, "pgscan_kswapd"), 0, "nothing scanned: DMA32 is balanced");
	give_back(&normal);
	destroy_engine(eng);
}

/*
 * Under anon pressure, one synchronous pass reclaims until a zone is back above high.  32 MiB
 * keeps each zone's high watermark above what one direct reclaim (32 pages) gives back.
 */
Test(kswapd, run_once_reclaims_to_the_high_watermark)
{
	struct nlru_engine *eng = test_swap_engine(32, 48, false);
	struct nlru_region *r;
	size_t i = 0;
	void *p;

	cr_assert_eq(nlru_region_create(eng, 16384, 0, &r), 0);
	/* Touch pages until the allocator had to reclaim directly once: memory is full. */
	while (vmstat_value(eng, "allocstall_movable") == 0) {
		cr_assert_eq(nlru_region_pin(r, i, NLRU_PIN_WRITE, &p), 0);
		cr_assert_eq(nlru_region_unpin(r, i++), 0);
	}
	cr_assert_eq(nlru_kswapd_run(eng, 0), 0);
	cr_expect_eq(vmstat_value(eng, "pageoutrun"), 1);
	cr_expect_gt(vmstat_value(eng, "pgscan_kswapd"), 0);
	cr_expect_gt(vmstat_value(eng, "pgsteal_kswapd"), 0);
	cr_expect(zone_balanced_48(zone_of(eng, ZONE_NORMAL), 0, ZONE_NORMAL) ||
			  zone_balanced_48(zone_of(eng, ZONE_DMA32), 0, ZONE_NORMAL),
		  "a zone is balanced after the pass");
	cr_expect_eq(nlru_kswapd_run(eng, 1), -EINVAL);
	check_lru_invariants(eng, true);
	cr_assert_eq(nlru_region_destroy(r), 0);
	destroy_engine(eng);
}

struct busy {
	struct nlru_engine *eng;
	atomic_bool *stop;
	unsigned int seed;
};

static void *busy_main(void *arg)
{
	struct busy *b = arg;
	struct nlru_region *r;
	void *p;

	cr_assert_eq(nlru_region_create(b->eng, 3000, NLRU_NUMA_NO_NODE, &r), 0);
	while (!atomic_load(b->stop)) {
		size_t i = (size_t)rand_r(&b->seed) % 3000;

		if (nlru_region_pin(r, i, NLRU_PIN_WRITE, &p) == 0) {
			*(volatile char *)p = 1;
			nlru_region_unpin(r, i);
		}
	}
	cr_assert_eq(nlru_region_destroy(r), 0);
	return NULL;
}

/* Destroy refuses while regions live, and goes through cleanly once they are gone. */
Test(kswapd, destroy_while_kswapd_and_threads_are_busy)
{
	struct nlru_engine *eng = test_swap_engine(8, 64, true);
	atomic_bool stop = false;
	struct busy b[3];
	pthread_t tid[3];

	for (int i = 0; i < 3; i++) {
		b[i] = (struct busy){eng, &stop, 7u + (unsigned int)i};
		cr_assert_eq(pthread_create(&tid[i], NULL, busy_main, &b[i]), 0);
	}
	/* Let the threads push memory through swap for a while. */
	while (vmstat_value(eng, "pswpout") < 4000)
		sched_yield();
	cr_expect_eq(nlru_engine_destroy(eng), -EBUSY);
	atomic_store(&stop, true);
	for (int i = 0; i < 3; i++)
		pthread_join(tid[i], NULL);
	destroy_engine(eng);
}

static bool kswapd_waiting(struct kswapd_state *ks)
{
	bool waiting;

	mutex_lock(&ks->lock);
	waiting = ks->waiting;
	mutex_unlock(&ks->lock);
	return waiting;
}

/*
 * With the engine clock stopped, the thread naps for ever after start-up; a wakeup during the
 * nap is a "low watermark hit quickly".  Moving the clock on lets it go to full sleep.
 */
Test(kswapd, woken_during_the_nap_counts_low_wmark_hit_quickly)
{
	struct nlru_engine *eng;
	struct nlru_config cfg;
	static struct held normal, dma32;
	struct kswapd_state *ks;

	test_config(&cfg, 16, NULL);
	cfg.clock = test_fake_clock;
	cr_assert_eq(nlru_engine_create(&cfg, &eng), 0);
	ks = &NODE_DATA(eng, 0)->kswapd;
	while (!kswapd_waiting(ks))
		sched_yield();
	drain_zone_to(eng, ZONE_NORMAL, (long)low_wmark_pages(zone_of(eng, ZONE_NORMAL)) - 1,
		      &normal);
	drain_zone_to(eng, ZONE_DMA32, (long)low_wmark_pages(zone_of(eng, ZONE_DMA32)) - 1, &dma32);
	wakeup_kswapd_48(eng, zone_of(eng, ZONE_NORMAL), 0, ZONE_NORMAL);
	while (vmstat_value(eng, "pageoutrun") == 0)
		sched_yield();
	cr_expect_eq(vmstat_value(eng, "kswapd_low_wmark_hit_quickly"), 1);
	cr_expect_eq(vmstat_value(eng, "nlru_kswapd_wakeup"), 1);
	give_back(&normal);
	give_back(&dma32);
	atomic_store(&test_fake_now, 1000000000ull);
	destroy_engine(eng);
}
