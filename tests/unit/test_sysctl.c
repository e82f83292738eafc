/*
 * Tunables changed on a live engine (nlru_tunable_set()), with the effects writing their
 * /proc/sys/vm file has in Linux 4.8, and read back (nlru_tunable_get()).
 */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

#include "helpers.h"

TestSuite(sysctl, .fini = test_remove_dir, .timeout = 120);

static struct nlru_zone_info normal_zone(struct nlru_engine *eng)
{
	struct nlru_zone_info zi = {.size = sizeof(zi), .version = NLRU_ZONE_INFO_VERSION};

	cr_assert_eq(nlru_zone_info(eng, 0, NLRU_ZONE_NORMAL, &zi), 0, "%s", test_log_last);
	return zi;
}

/* watermark_scale_factor sets the low/high gaps at once (setup_per_zone_wmarks()). */
Test(sysctl, watermark_scale_factor_moves_the_watermarks)
{
	struct nlru_engine *eng = test_engine(64, NULL);
	struct nlru_zone_info before = normal_zone(eng), after;
	long v;

	cr_assert_eq(nlru_tunable_set(eng, "watermark_scale_factor", 1000), 0, "%s", test_log_last);
	after = normal_zone(eng);
	cr_expect_eq(after.wmark_min, before.wmark_min, "the min watermark stays");
	cr_expect_eq(after.wmark_low - after.wmark_min, after.managed * 1000 / 10000,
		     "the gap is 10 %% of the zone");
	cr_expect_eq(after.wmark_high - after.wmark_low, after.wmark_low - after.wmark_min);
	cr_assert_eq(nlru_tunable_get(eng, "watermark_scale_factor", &v), 0);
	cr_expect_eq(v, 1000);
	cr_assert_eq(nlru_tunable_set(eng, "watermark_scale_factor", 10), 0);
	after = normal_zone(eng);
	cr_expect_eq(after.wmark_low, before.wmark_low, "back to the watermarks it had");
	destroy_engine(eng);
}

/* min_free_kbytes scales every min watermark; 0 computes it again as at creation. */
Test(sysctl, min_free_kbytes_is_applied_and_0_recomputes_it)
{
	struct nlru_engine *eng = test_engine(64, NULL);
	long computed = nlru_min_free_kbytes(eng);
	struct nlru_zone_info before = normal_zone(eng), after;

	cr_assert_eq(nlru_tunable_set(eng, "min_free_kbytes", 4 * computed), 0, "%s",
		     test_log_last);
	cr_expect_eq(nlru_min_free_kbytes(eng), 4 * computed);
	after = normal_zone(eng);
	cr_expect(after.wmark_min >= 4 * before.wmark_min - 3 &&
			  after.wmark_min <= 4 * before.wmark_min + 3,
		  "min watermark %llu, was %llu", (unsigned long long)after.wmark_min,
		  (unsigned long long)before.wmark_min);
	cr_assert_eq(nlru_tunable_set(eng, "min_free_kbytes", 0), 0);
	cr_expect_eq(nlru_min_free_kbytes(eng), computed);
	cr_expect_eq(normal_zone(eng).wmark_min, before.wmark_min);
	destroy_engine(eng);
}

/* percpu_pagelist_fraction gives every per-CPU list high = managed / fraction. */
Test(sysctl, percpu_pagelist_fraction_resizes_the_per_cpu_lists)
{
	struct nlru_engine *eng = test_engine(64, NULL);
	struct nlru_zone_info zi;
	void *pages[512];

	for (int i = 0; i < 512; i++)
		cr_assert_eq(nlru_alloc_pages(eng, NLRU_GFP_KERNEL, 0, 0, &pages[i]), 0);
	for (int i = 0; i < 512; i++)
		cr_assert_eq(nlru_free_pages(eng, pages[i], 0), 0);
	cr_assert_eq(nlru_tunable_set(eng, "percpu_pagelist_fraction", 8), 0, "%s", test_log_last);
	zi = normal_zone(eng);
	cr_expect_eq(zi.pcp_high, zi.managed / 8);
	cr_expect_eq(zi.pcp_batch, 96, "PAGE_SHIFT * 8 at most");
	/* The lists work at their new size: a batch larger than the old high goes through. */
	for (int i = 0; i < 512; i++)
		cr_assert_eq(nlru_alloc_pages(eng, NLRU_GFP_KERNEL, 0, 0, &pages[i]), 0);
	for (int i = 0; i < 512; i++)
		cr_assert_eq(nlru_free_pages(eng, pages[i], 0), 0);
	cr_expect_eq(nlru_tunable_set(eng, "percpu_pagelist_fraction", 3), -EINVAL);
	cr_expect(strstr(test_log_last, "0 or at least 8"), "%s", test_log_last);
	cr_assert_eq(nlru_tunable_set(eng, "percpu_pagelist_fraction", 0), 0);
	cr_expect_lt(normal_zone(eng).pcp_high, zi.pcp_high);
	destroy_engine(eng);
}

/* dirty_ratio is read where it is used: the next writer is held to the new limit. */
Test(sysctl, a_lower_dirty_ratio_holds_the_next_writer)
{
	struct nlru_engine *eng = NULL;
	struct nlru_config cfg;
	struct nlru_file *f;
	char buf[4096];

	test_config(&cfg, 16, NULL);
	cfg.flusher = 0;
	cfg.kswapd = 0;
	cr_assert_eq(nlru_engine_create(&cfg, &eng), 0, "%s", test_log_last);
	cr_assert_eq(nlru_tunable_set(eng, "dirty_ratio", 1), 0, "%s", test_log_last);
	cr_assert_eq(nlru_tunable_set(eng, "dirty_background_ratio", 1), 0);
	cr_assert_eq(nlru_file_open(eng, test_path("f"), O_RDWR | O_CREAT | O_TRUNC, 0600, 0, &f),
		     0);
	memset(buf, 'x', sizeof(buf));
	for (int i = 0; i < 1024; i++)
		cr_assert_eq(nlru_file_pwrite(f, buf, sizeof(buf), (uint64_t)i * sizeof(buf)),
			     (long)sizeof(buf));
	/* 1 % of 4096 pages is 40; the default 20 % would have left all 1024 dirty. */
	cr_expect_lt(vmstat_value(eng, "nr_dirty"), 200, "%lld dirty pages",
		     (long long)vmstat_value(eng, "nr_dirty"));
	cr_assert_eq(nlru_file_close(f), 0);
	destroy_engine(eng);
}

/*
 * lowmem_reserve_ratio_dma32 sets what DMA32 keeps back from allocations that could have used
 * Normal (setup_per_zone_lowmem_reserve()): Normal's managed pages over the ratio.
 */
Test(sysctl, lowmem_reserve_ratio_sets_the_lower_zone_protection)
{
	struct nlru_engine *eng = test_engine(64, NULL);
	struct nlru_zone_info dma32 = {.size = sizeof(dma32), .version = NLRU_ZONE_INFO_VERSION};
	struct nlru_zone_info normal = normal_zone(eng);
	long v;

	cr_assert_eq(nlru_zone_info(eng, 0, NLRU_ZONE_DMA32, &dma32), 0, "%s", test_log_last);
	cr_assert_gt(dma32.managed, 0);
	cr_assert_eq(nlru_tunable_get(eng, "lowmem_reserve_ratio_dma32", &v), 0);
	cr_expect_eq(dma32.lowmem_reserve[NLRU_ZONE_NORMAL], normal.managed / (uint64_t)v);
	cr_assert_eq(nlru_tunable_set(eng, "lowmem_reserve_ratio_dma32", 4), 0, "%s",
		     test_log_last);
	cr_assert_eq(nlru_zone_info(eng, 0, NLRU_ZONE_DMA32, &dma32), 0);
	cr_expect_eq(dma32.lowmem_reserve[NLRU_ZONE_NORMAL], normal.managed / 4,
		     "protection %llu, Normal has %llu pages",
		     (unsigned long long)dma32.lowmem_reserve[NLRU_ZONE_NORMAL],
		     (unsigned long long)normal.managed);
	cr_expect_eq(dma32.lowmem_reserve[NLRU_ZONE_DMA32], 0, "no zone protects from itself");
	/* And back to the ratio it had. */
	cr_assert_eq(nlru_tunable_set(eng, "lowmem_reserve_ratio_dma32", v), 0);
	cr_assert_eq(nlru_zone_info(eng, 0, NLRU_ZONE_DMA32, &dma32), 0);
	cr_expect_eq(dma32.lowmem_reserve[NLRU_ZONE_NORMAL], normal.managed / (uint64_t)v);
	destroy_engine(eng);
}

Test(sysctl, fixed_and_unknown_tunables_are_refused_and_explained)
{
	struct nlru_engine *eng = test_engine(16, NULL);
	long v;

	cr_expect_eq(nlru_tunable_set(eng, "node_mib", 32), -EPERM);
	cr_expect(strstr(test_log_last, "node_mib is fixed when the engine is created"), "%s",
		  test_log_last);
	cr_expect_eq(nlru_tunable_set(eng, "no_such_tunable", 1), -ENOENT);
	cr_expect_eq(nlru_tunable_get(eng, "no_such_tunable", &v), -ENOENT);
	cr_expect_eq(nlru_tunable_set(eng, "swappiness", 101), -EINVAL);
	cr_expect(strstr(test_log_last, "not in [0, 100]"), "%s", test_log_last);
	cr_expect_eq(nlru_tunable_set(eng, NULL, 1), -EINVAL);
	cr_expect_eq(nlru_tunable_get(eng, "swappiness", NULL), -EINVAL);
	cr_assert_eq(nlru_tunable_get(eng, "node_mib", &v), 0, "any tunable reads back");
	cr_expect_eq(v, 16);
	destroy_engine(eng);
}

/*
 * Every tunable the header names as live takes a new value on a running engine and reads it
 * back (the value next to the current one, so that each stays in its range); every other
 * tunable is refused as fixed, even set to the value it has.
 */
Test(sysctl, exactly_the_live_tunables_take_a_new_value_and_read_it_back)
{
	static const char *const live[] = {
		"swappiness",
		"dirty_ratio",
		"dirty_background_ratio",
		"dirty_writeback_centisecs",
		"dirty_expire_centisecs",
		"kswapd_nap_ms",
		"extfrag_threshold",
		"min_free_kbytes",
		"watermark_scale_factor",
		"lowmem_reserve_ratio_dma",
		"lowmem_reserve_ratio_dma32",
		"lowmem_reserve_ratio_normal",
		"percpu_pagelist_fraction",
	};
	struct nlru_engine *eng = test_engine(16, NULL);
	struct nlru_tunable_info info;

	for (size_t i = 0; i < ARRAY_SIZE(live); i++) {
		long old, want, now;

		cr_assert_eq(nlru_tunable_get(eng, live[i], &old), 0, "%s", live[i]);
		/* percpu_pagelist_fraction's 0 is "the default sizes"; its smallest other is 8. */
		want = old ? old + 1 : 8;
		if (nlru_tunable_set(eng, live[i], want) != 0) {
			want = old - 1;
			cr_expect_eq(nlru_tunable_set(eng, live[i], want), 0, "%s = %ld or %ld: %s",
				     live[i], old + 1, want, test_log_last);
		}
		cr_expect_eq(nlru_tunable_get(eng, live[i], &now), 0, "%s", live[i]);
		cr_expect_eq(now, want, "%s reads back %ld, set to %ld", live[i], now, want);
	}
	for (unsigned int t = 0; nlru_tunable_info(t, &info) == 0; t++) {
		bool is_live = false;
		long v;

		for (size_t i = 0; i < ARRAY_SIZE(live); i++)
			is_live |= strcmp(info.name, live[i]) == 0;
		cr_assert_eq(nlru_tunable_get(eng, info.name, &v), 0, "%s", info.name);
		if (!is_live)
			cr_expect_eq(nlru_tunable_set(eng, info.name, v), -EPERM, "%s", info.name);
	}
	destroy_engine(eng);
}

/*
 * Fill a swap engine with anonymous and clean file pages, both in use, set swappiness live,
 * then allocate until reclaim has taken 1200 pages; returns how many went to swap.  The file
 * pages outnumber what reclaim takes, so the cache trap (too little file left) never forces
 * anon scanning, and with so few pages on the lists every pass weighs the two types by
 * swappiness (get_scan_count()'s SCAN_FRACT).  Without kswapd the result is the same each run.
 */
static int64_t swapped_with_swappiness(long swappiness)
{
	struct nlru_engine *eng = test_swap_engine(16, 32, false);
	struct nlru_region *region;
	struct nlru_file *f;
	static void *held[4096];
	char buf[4096];
	size_t n = 0;
	void *p;

	cr_assert_eq(nlru_region_create(eng, 1500, 0, &region), 0);
	for (size_t i = 0; i < 1500; i++) {
		cr_assert_eq(nlru_region_pin(region, i, NLRU_PIN_WRITE, &p), 0);
		memset(p, 1, 64);
		cr_assert_eq(nlru_region_unpin(region, i), 0);
	}
	cr_assert_eq(nlru_file_open(eng, test_path("f"), O_RDWR | O_CREAT | O_TRUNC, 0600, 0, &f),
		     0);
	memset(buf, 'x', sizeof(buf));
	for (int i = 0; i < 1500; i++)
		cr_assert_eq(nlru_file_pwrite(f, buf, sizeof(buf), (uint64_t)i * sizeof(buf)),
			     (long)sizeof(buf));
	cr_assert_eq(nlru_file_fsync(f), 0);
	/*
	 * Read twice, so that file pages are active too: otherwise reclaim weighs fresh file
	 * pages so far above the active anonymous ones that swappiness hardly counts.
	 */
	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < 1500; i++)
			cr_assert_eq(
				nlru_file_pread(f, buf, sizeof(buf), (uint64_t)i * sizeof(buf)),
				(long)sizeof(buf));
	cr_assert_eq(nlru_tunable_set(eng, "swappiness", swappiness), 0, "%s", test_log_last);
	while (n < 4096 && vmstat_value(eng, "pgsteal_direct") < 1200 &&
	       nlru_alloc_pages(eng, NLRU_GFP_KERNEL, 0, 0, &held[n]) == 0)
		n++;
	cr_expect_geq(vmstat_value(eng, "pgsteal_direct"), 1200, "reclaim took %lld pages",
		      (long long)vmstat_value(eng, "pgsteal_direct"));
	int64_t swapped = vmstat_value(eng, "pswpout");
	cr_log_info("swappiness %ld: %lld pages swapped out", swappiness, (long long)swapped);
	while (n)
		cr_assert_eq(nlru_free_pages(eng, held[--n], 0), 0);
	cr_assert_eq(nlru_file_close(f), 0);
	cr_assert_eq(nlru_region_destroy(region), 0);
	destroy_engine(eng);
	return swapped;
}

/*
 * swappiness is read by every reclaim pass: set on a live engine created with the default
 * 60, 0 keeps reclaim off anonymous pages while file pages remain (60 swaps a few here),
 * and 100 sends some to swap.
 */
Test(sysctl, swappiness_set_live_steers_reclaim_between_anon_and_file)
{
	int64_t none = swapped_with_swappiness(0), some = swapped_with_swappiness(100);

	cr_expect_eq(none, 0, "%lld pages swapped out with swappiness 0", (long long)none);
	cr_expect_gt(some, 0, "no page swapped out with swappiness 100");
}

struct churn {
	struct nlru_engine *eng;
	atomic_bool stop;
	long rounds;
};

static void *churn_main(void *arg)
{
	struct churn *c = arg;
	void *pages[64];

	while (!atomic_load(&c->stop)) {
		int n = 0;

		while (n < 64 && nlru_alloc_pages(c->eng, NLRU_GFP_KERNEL, 0, NLRU_NUMA_NO_NODE,
						  &pages[n]) == 0)
			memset(pages[n++], 1, 64);
		while (n--)
			cr_assert_eq(nlru_free_pages(c->eng, pages[n], 0), 0);
		c->rounds++;
	}
	return NULL;
}

/*
 * Per-CPU lists resized and watermarks moved while two threads allocate and free through
 * them: no page is lost or handed out twice (every page is free again at the end).
 */
Test(sysctl, changes_while_threads_allocate_lose_no_page)
{
	struct nlru_engine *eng = test_engine(32, NULL);
	struct churn c[2] = {{.eng = eng}, {.eng = eng}};
	pthread_t tid[2];
	uint64_t managed = 0, free_pages = 0;

	for (int i = 0; i < 2; i++)
		cr_assert_eq(pthread_create(&tid[i], NULL, churn_main, &c[i]), 0);
	for (int k = 0; k < 200; k++) {
		cr_assert_eq(nlru_tunable_set(eng, "percpu_pagelist_fraction", k % 2 ? 8 : 0), 0);
		cr_assert_eq(nlru_tunable_set(eng, "watermark_scale_factor", k % 2 ? 500 : 10), 0);
	}
	for (int i = 0; i < 2; i++) {
		atomic_store(&c[i].stop, true);
		pthread_join(tid[i], NULL);
	}
	cr_expect_gt(c[0].rounds + c[1].rounds, 0);
	nlru_drain_pages(eng);
	for (int zid = 0; zid < NLRU_MAX_NR_ZONES; zid++) {
		struct nlru_zone_info zi = {.size = sizeof(zi), .version = NLRU_ZONE_INFO_VERSION};

		cr_assert_eq(nlru_zone_info(eng, 0, (enum nlru_zone_type)zid, &zi), 0);
		managed += zi.managed;
		free_pages += zi.free;
	}
	cr_expect_eq(free_pages, managed, "%llu of %llu pages free with nothing allocated",
		     (unsigned long long)free_pages, (unsigned long long)managed);
	destroy_engine(eng);
}
