/*
 * Per-CPU stat thresholds (mm/vmstat.c of 4.7 and 4.8): the normal and pressure formulas
 * against figures worked by hand, the drift marks and node thresholds an engine gets, and
 * kswapd lowering the thresholds while it is awake, in both modes, as zoneinfo prints them
 * and as zone mode's fair batches fold at them.
 */
#include <criterion/criterion.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "helpers.h"
#include "kswapd.h"
#include "page_alloc_47.h"
#include "vmstat.h"
#include "watermark.h"

TestSuite(stat_threshold, .timeout = 60);

/* A zone of @managed pages with low - min = @distance, on an engine of @cpus CPUs. */
struct fake {
	struct nlru_engine eng;
	struct zone zone;
};

static struct fake *fake_zone(int cpus, unsigned long managed, unsigned long distance)
{
	struct fake *f = calloc(1, sizeof(*f));

	cr_assert(f);
	f->eng.nr_cpus = cpus;
	f->zone.managed_pages = (uint32_t)managed;
	f->zone.watermark[WMARK_MIN] = 100;
	f->zone.watermark[WMARK_LOW] = 100 + distance;
	f->zone.watermark[WMARK_HIGH] = 100 + 2 * distance;
	return f;
}

#define MIB(n) ((unsigned long)(n) << (20 - PAGE_SHIFT))

/*
 * calculate_normal_threshold = min(125, 2 * fls(cpus) * (1 + fls(managed >> 15))), the
 * managed pages in 128 MiB units; worked by hand:
 *   1 CPU,    12 MiB: 2 * 1 * (1 + fls(0) = 1)  =   2
 *   2 CPUs,   12 MiB: 2 * 2 * 1                 =   4
 *   16 CPUs, 100 MiB: 2 * 5 * 1                 =  10  (Linux's table: 10)
 *   2 CPUs,    1 GiB: 2 * 2 * (1 + fls(8) = 5) =  20
 *   4 CPUs,    1 GiB: 2 * 3 * 5                 =  30
 *   64 CPUs,   4 GiB: 2 * 7 * (1 + fls(32) = 7) = 98
 *   8 CPUs,  128 MiB: 2 * 4 * (1 + fls(1) = 2)  =  16
 *   1024 CPUs, 16 GiB: 2 * 11 * (1 + fls(128) = 9) = 198 -> 125
 */
Test(stat_threshold, normal_threshold_by_hand)
{
	static const struct {
		int cpus;
		unsigned long mib;
		int want;
	} cases[] = {
		{1, 12, 2},    {2, 12, 4},     {16, 100, 10}, {2, 1024, 20},
		{4, 1024, 30}, {64, 4096, 98}, {8, 128, 16},  {1024, 16384, 125},
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct fake *f = fake_zone(cases[i].cpus, MIB(cases[i].mib), 0);

		cr_expect_eq(calculate_normal_threshold(&f->eng, &f->zone), cases[i].want,
			     "%d CPUs, %lu MiB: %d, not %d", cases[i].cpus, cases[i].mib,
			     calculate_normal_threshold(&f->eng, &f->zone), cases[i].want);
		free(f);
	}
}

/*
 * calculate_pressure_threshold = min(125, max(1, (low - min) / cpus)); by hand:
 *   low - min 24, 2 CPUs: 12;  24, 64 CPUs: 0 -> 1;  300, 4 CPUs: 75;  1000, 4 CPUs: 250 -> 125;
 *   0, 1 CPU: 1;  7, 3 CPUs: 2.
 */
Test(stat_threshold, pressure_threshold_by_hand)
{
	static const struct {
		int cpus;
		unsigned long distance;
		int want;
	} cases[] = {
		{2, 24, 12}, {64, 24, 1}, {4, 300, 75}, {4, 1000, 125}, {1, 0, 1}, {3, 7, 2},
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct fake *f = fake_zone(cases[i].cpus, MIB(64), cases[i].distance);

		cr_expect_eq(calculate_pressure_threshold(&f->eng, &f->zone), cases[i].want,
			     "%d CPUs, low - min %lu: %d, not %d", cases[i].cpus, cases[i].distance,
			     calculate_pressure_threshold(&f->eng, &f->zone), cases[i].want);
		free(f);
	}
}

static struct zone *zone_of(struct nlru_engine *eng, int nid, int zid)
{
	return &NODE_DATA(eng, nid)->node_zones[zid];
}

/* 2 * fls(@cpus): the normal threshold of a zone under 128 MiB. */
static int small_zone_threshold(int cpus)
{
	return 2 * (32 - __builtin_clz((unsigned int)cpus));
}

/*
 * Two nodes of 16 MiB (node 0: DMA32 1024 pages, Normal 3072; node 1: Normal 4096), default
 * watermarks: every zone is under 128 MiB, so its normal threshold is 2 * fls(CPUs); a zone
 * gets a drift mark of high + CPUs * threshold only when that drift is more than low - min;
 * a node's threshold is the largest of its zones'.
 */
Test(stat_threshold, refresh_sets_thresholds_drift_marks_and_node_thresholds)
{
	struct nlru_engine *eng = test_engine(16, "pack:2 numa:1 core:1 pu:1");
	int t = small_zone_threshold(eng->nr_cpus);

	cr_assert_eq(eng->nr_nodes, 2);
	for (int nid = 0; nid < 2; nid++) {
		for (int zid = 0; zid < MAX_NR_ZONES; zid++) {
			struct zone *zone = zone_of(eng, nid, zid);
			unsigned long drift = (unsigned long)eng->nr_cpus * (unsigned long)t;

			if (!populated_zone(zone))
				continue;
			cr_expect_eq(zone_stat_threshold(zone), t);
			cr_expect_eq(zone->percpu_drift_mark,
				     drift > low_wmark_pages(zone) - min_wmark_pages(zone)
					     ? high_wmark_pages(zone) + drift
					     : 0,
				     "node %d zone %d", nid, zid);
		}
		cr_expect_eq(NODE_DATA(eng, nid)->stat_threshold, t);
	}
	destroy_engine(eng);
}

/*
 * An engine whose zones all have drift marks on any number of CPUs: min_free_kbytes 32 (8
 * pages: DMA32's min 2, Normal's 6) and watermark_scale_factor 1 leave low - min at 0 for
 * DMA32 and 1 for Normal, below the CPUs' drift at the smallest normal threshold, 2.  The
 * pressure threshold is then 1 in both, and Normal's fair batch (high - low) 1 page.  The
 * engine clock stands still, so kswapd, once woken, naps until the test moves it on.
 */
static struct nlru_engine *marked_engine(enum nlru_mode mode)
{
	struct nlru_engine *eng;
	struct nlru_config cfg;

	run_in_mode(mode);
	test_config(&cfg, 16, NULL);
	cfg.clock = test_fake_clock;
	cfg.min_free_kbytes = 32;
	cfg.watermark_scale_factor = 1;
	cfg.swap_mib = 0;
	cfg.flusher = 0;
	cr_assert_eq(nlru_engine_create(&cfg, &eng), 0, "%s", test_log_last);
	for (int zid = ZONE_DMA32; zid <= ZONE_NORMAL; zid++) {
		struct zone *zone = zone_of(eng, 0, zid);

		cr_assert(zone->percpu_drift_mark);
		cr_assert_eq(calculate_pressure_threshold(eng, zone), 1);
		cr_assert_eq(calculate_normal_threshold(eng, zone),
			     small_zone_threshold(eng->nr_cpus));
	}
	cr_assert_eq(high_wmark_pages(zone_of(eng, 0, ZONE_NORMAL)) -
			     low_wmark_pages(zone_of(eng, 0, ZONE_NORMAL)),
		     1);
	return eng;
}

/* The "vm stats threshold" zoneinfo prints for node 0's zone @zid, on CPU 0. */
static int printed_threshold(struct nlru_engine *eng, int zid)
{
	char *buf = NULL, head[64];
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	const char *at;
	int v = -1;

	cr_assert(out);
	cr_assert_eq(nlru_zoneinfo_dump(eng, out), 0);
	fclose(out);
	snprintf(head, sizeof(head), "Node 0, zone %8s", nlru_zone_name(zid));
	at = strstr(buf, head);
	cr_assert(at, "no %s in zoneinfo", head);
	at = strstr(at, "vm stats threshold:");
	cr_assert(at);
	cr_assert_eq(sscanf(at, "vm stats threshold: %d", &v), 1);
	free(buf);
	return v;
}

/*
 * Wait (at most 10 s) until node 0's zone @zid has stat threshold @want.  With @end_naps, the
 * engine clock moves on past kswapd's nap at every look, however late kswapd started it, so
 * that kswapd goes to full sleep once its node is balanced.
 */
static bool threshold_becomes(struct nlru_engine *eng, int zid, int want, bool end_naps)
{
	struct timespec tick = {0, 1000000};

	for (int i = 0; i < 10000; i++) {
		if (zone_stat_threshold(zone_of(eng, 0, zid)) == want)
			return true;
		if (end_naps)
			atomic_fetch_add(&test_fake_now,
					 (uint64_t)(eng->cfg.kswapd_nap_ms + 1) * 1000000);
		nanosleep(&tick, NULL);
	}
	return false;
}

/* The zone of an engine address on node 0. */
static int zone_of_addr(struct nlru_engine *eng, const void *addr)
{
	struct pglist_data *pgdat = NODE_DATA(eng, 0);

	return (int)page_zonenum(&pgdat->pages[((const char *)addr - pgdat->mem) >> PAGE_SHIFT]);
}

/*
 * As if kswapd had been woken before: pressure thresholds set by hand, then kswapd goes to
 * full sleep (restoring the normal ones) and is woken from it.  Returns once the pressure
 * thresholds are back, kswapd awake.
 */
static void wake_kswapd_from_full_sleep(struct nlru_engine *eng)
{
	struct pglist_data *pgdat = NODE_DATA(eng, 0);
	int normal = small_zone_threshold(eng->nr_cpus);

	set_pgdat_percpu_threshold(eng, pgdat, calculate_pressure_threshold);
	cr_expect_eq(printed_threshold(eng, ZONE_NORMAL), 1);
	cr_assert(threshold_becomes(eng, ZONE_NORMAL, normal, true),
		  "kswapd went to sleep and left the pressure threshold");
	cr_expect_eq(zone_stat_threshold(zone_of(eng, 0, ZONE_DMA32)), normal);
	/* Woken: pressure thresholds while it balances and naps (the clock stands still). */
	kswapd_wake(eng, &pgdat->kswapd);
	cr_assert(threshold_becomes(eng, ZONE_NORMAL, 1, false),
		  "kswapd woke and kept the normal threshold");
}

/*
 * kswapd_try_to_sleep of both versions: going to full sleep, kswapd gives the zones with a
 * drift mark their normal thresholds; woken from it, their pressure ones, which stay while it
 * balances and naps.  zoneinfo prints whichever is in force.
 */
Test(stat_threshold, kswapd_lowers_thresholds_while_awake)
{
	enum nlru_mode modes[] = {NLRU_MODE_NODE, NLRU_MODE_ZONE};

	for (int m = 0; m < 2; m++) {
		struct nlru_engine *eng = marked_engine(modes[m]);
		int normal = small_zone_threshold(eng->nr_cpus);

		/* At creation kswapd has never been woken: normal thresholds. */
		cr_expect_eq(printed_threshold(eng, ZONE_NORMAL), normal);
		cr_expect_eq(printed_threshold(eng, ZONE_DMA32), normal);
		wake_kswapd_from_full_sleep(eng);
		cr_expect_eq(printed_threshold(eng, ZONE_NORMAL), 1, "mode %d", m);
		cr_expect_eq(printed_threshold(eng, ZONE_DMA32), 1, "mode %d", m);
		/* The nap over and the node balanced, it sleeps again. */
		cr_assert(threshold_becomes(eng, ZONE_NORMAL, normal, true));
		cr_expect_eq(printed_threshold(eng, ZONE_DMA32), normal);
		destroy_engine(eng);
	}
}

/* Keep the thread on one CPU: the fair batches are charged through each CPU's delta. */
static void stay_on_one_cpu(void)
{
	cpu_set_t set;
	int cpu = 0;

	cr_assert_eq(sched_getaffinity(0, sizeof(set), &set), 0);
	while (!CPU_ISSET(cpu, &set))
		cpu++;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	cr_assert_eq(sched_setaffinity(0, sizeof(set), &set), 0);
}

/*
 * Zone mode: the fair batch of Normal (1 page) is charged at the threshold of the moment.
 * kswapd never woken (normal threshold t >= 2), two order-0 pages fold nothing: the batch
 * stays 1.
 * kswapd awake (threshold 1), the second page folds 2 with no overstep (1 >> 1 = 0): the batch
 * is -1 and Normal depleted, as 4.7's __dec_zone_state leaves it.
 */
Test(stat_threshold, fair_batch_folds_at_the_threshold_of_the_moment)
{
	struct nlru_engine *eng;
	struct zone *normal;
	void *p[4];

	stay_on_one_cpu();
	eng = marked_engine(NLRU_MODE_ZONE);
	normal = zone_of(eng, 0, ZONE_NORMAL);
	for (int i = 0; i < 2; i++)
		cr_assert_eq(nlru_alloc_pages(eng, NLRU_GFP_KERNEL, 0, 0, &p[i]), 0);
	cr_expect_eq(atomic_load(&normal->alloc_batch), 1, "asleep: batch %ld",
		     atomic_load(&normal->alloc_batch));
	for (int i = 0; i < 2; i++)
		cr_assert_eq(nlru_free_pages(eng, p[i], 0), 0);

	wake_kswapd_from_full_sleep(eng);
	zone_reset_alloc_batch(normal);
	/* What this CPU allocated before is charged or under the threshold: start even. */
	atomic_store(&normal->pageset[0][this_cpu(eng)].fair_charged,
		     fair_cpu_allocs(normal, this_cpu(eng)));
	for (int i = 0; i < 2; i++) {
		cr_assert_eq(nlru_alloc_pages(eng, NLRU_GFP_KERNEL, 0, 0, &p[i]), 0);
		cr_expect_eq(zone_of_addr(eng, p[i]), ZONE_NORMAL);
	}
	cr_expect_eq(atomic_load(&normal->alloc_batch), -1, "awake: batch %ld",
		     atomic_load(&normal->alloc_batch));
	cr_expect(atomic_load(&normal->fair_depleted));
	for (int i = 0; i < 2; i++)
		cr_assert_eq(nlru_free_pages(eng, p[i], 0), 0);
	destroy_engine(eng);
}
