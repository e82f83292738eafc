/*
 * Zone mode (Linux 4.7) against node mode (4.8): the tests that pin down where the two
 * differ, each run in both modes side by side.  Reclaim is driven synchronously (kswapd=0,
 * nlru_kswapd_run) so every count is deterministic.  The rest of the suite runs in zone mode
 * too (meson test --setup zone), which covers what the modes share: data integrity above all.
 */
#include <criterion/criterion.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "kswapd.h"
#include "vmscan.h"
#include "vmstat.h"
#include "watermark.h"

TestSuite(zone_mode, .timeout = 120);

static struct nlru_engine *mode_engine(enum nlru_mode mode, long node_mib, long swap_mib,
				       bool kswapd)
{
	run_in_mode(mode);
	return test_swap_engine(node_mib, swap_mib, kswapd);
}

static struct zone *zone_of(struct nlru_engine *eng, int zid)
{
	return &NODE_DATA(eng, 0)->node_zones[zid];
}

/* The zone of an engine address (a page the caller holds). */
static int zone_of_addr(struct nlru_engine *eng, const void *addr)
{
	struct pglist_data *pgdat = NODE_DATA(eng, 0);

	return (int)page_zonenum(&pgdat->pages[((const char *)addr - pgdat->mem) >> PAGE_SHIFT]);
}

/*
 * Keep the thread on one CPU (the first it may use): per-CPU lists, and so the fair policy's
 * folds, are per CPU.
 */
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

/* The counts derived below need the stat threshold of 2 or 3 CPUs. */
static void require_threshold_4(struct nlru_engine *eng)
{
	if (calculate_normal_threshold(eng, zone_of(eng, ZONE_NORMAL)) != 4)
		cr_skip_test("the derivation assumes 2 or 3 CPUs (stat threshold 4)");
}

/*
 * Default-flag allocations on a node with DMA32 (25%) and Normal: node mode takes every one
 * from Normal, zone mode interleaves the two in proportion to their size.
 */
Test(zone_mode, fair_policy_interleaves_zones_node_mode_fills_normal)
{
	enum nlru_mode modes[] = {NLRU_MODE_NODE, NLRU_MODE_ZONE};

	stay_on_one_cpu();
	for (int m = 0; m < 2; m++) {
		struct nlru_engine *eng = mode_engine(modes[m], 16, 0, false);
		static void *p[2000];
		int64_t dma32, normal;

		require_threshold_4(eng);
		for (int i = 0; i < 2000; i++)
			cr_assert_eq(nlru_alloc_pages(eng, NLRU_GFP_KERNEL, 0, 0, &p[i]), 0);
		dma32 = vmstat_value(eng, "pgalloc_dma32");
		normal = vmstat_value(eng, "pgalloc_normal");
		cr_expect_eq(dma32 + normal, 2000);
		if (modes[m] == NLRU_MODE_NODE) {
			/* 2000 of Normal's 3072 pages: it never reached its low watermark. */
			cr_expect_eq(dma32, 0, "node mode: Normal first, DMA32 only as a fallback");
		} else {
			/*
			 * golden_counters_of_a_fixed_workload derives the cycle: 26 from Normal and
			 * 12 from DMA32 first, then 28 and 14 (a third from DMA32 on a zone of a
			 * quarter: the batches are only a few thresholds long).  2000 = 38 + 46 *
			 * 42
			 * + 28 + 2.
			 */
			cr_expect_eq(dma32, 12 + 46 * 14 + 2, "zone mode: got %lld from DMA32",
				     (long long)dma32);
			cr_expect_eq(nlru_engine_mode(eng), NLRU_MODE_ZONE);
		}
		for (int i = 0; i < 2000; i++)
			cr_assert_eq(nlru_free_pages(eng, p[i], 0), 0);
		destroy_engine(eng);
	}
}

/*
 * Golden counters of a fixed allocation workload, derived by hand.  16 MiB node: DMA32 1024
 * pages, Normal 3072; min_free_kbytes = int_sqrt(16384 * 16) = 512, so pages_min 128 split
 * 32 / 96, gaps max(min / 4, managed / 1000) = 8 / 24: watermarks DMA32 32/40/48, Normal
 * 96/120/144, and DMA32 keeps 3072 / 256 = 12 pages from Normal-classzone requests.
 *
 * Workload: 40 order-2 blocks, then 1960 order-0 pages (2120 pages), one thread on one CPU.
 *
 * Zone mode: NR_ALLOC_BATCH is high - low, 24 for Normal and 8 for DMA32, charged through the
 * CPU's delta with stat_threshold t = min(125, 2 * fls(2 CPUs) * (1 + 0)) = 4, which folds
 * once more than t pages are uncharged: a block folds what is due, an order-0 page that plus
 * t / 2 = 2 ahead.
 *  - Order 2: every second block folds 8, so 6 blocks spend Normal's 24 and 2 spend DMA32's
 *    8; both depleted, the next allocation resets them.  40 blocks are 5 such cycles: 120
 *    pages from Normal, 40 from DMA32, with nothing left uncharged.
 *  - Order 0 from there: folds of 7 after the 5th page, then every 7th.  Normal depletes at
 *    its 26th page (24 - 4 * 7 < 0), DMA32 at its 12th (8 - 2 * 7); after a reset each starts
 *    2 ahead: 28 and 14 pages a cycle.  1960 = 38 + 45 * 42 + 28 + 4: Normal 26 + 45 * 28 +
 *    28 = 1314, DMA32 12 + 45 * 14 + 4 = 646.
 *  Totals: Normal 1434, DMA32 686.
 *
 * Node mode: Normal first until an order-0 check finds free <= low (120), which 2120 pages
 * out of Normal's 3072 never reach: Normal 2120, DMA32 0.
 */
static void golden_workload(struct nlru_engine *eng, struct nlru_vmstat *snap)
{
	static void *p[1960], *q[40];

	for (int i = 0; i < 40; i++)
		cr_assert_eq(nlru_alloc_pages(eng, NLRU_GFP_KERNEL, 2, 0, &q[i]), 0);
	for (int i = 0; i < 1960; i++)
		cr_assert_eq(nlru_alloc_pages(eng, NLRU_GFP_KERNEL, 0, 0, &p[i]), 0);
	cr_assert_eq(nlru_vmstat_read(eng, snap), 0);
	for (int i = 0; i < 40; i++)
		cr_assert_eq(nlru_free_pages(eng, q[i], 2), 0);
	for (int i = 0; i < 1960; i++)
		cr_assert_eq(nlru_free_pages(eng, p[i], 0), 0);
}

Test(zone_mode, golden_counters_of_a_fixed_workload)
{
	const struct {
		enum nlru_mode mode;
		int64_t normal, dma32;
	} want[] = {{NLRU_MODE_ZONE, 1434, 686}, {NLRU_MODE_NODE, 2120, 0}};

	stay_on_one_cpu();
	for (int m = 0; m < 2; m++) {
		struct nlru_vmstat snap[2];

		for (int run = 0; run < 2; run++) {
			struct nlru_engine *eng = mode_engine(want[m].mode, 16, 0, false);
			struct nlru_zone_info zi = {.size = sizeof(zi),
						    .version = NLRU_ZONE_INFO_VERSION};
			int64_t v;

			/* The inputs of the derivation above. */
			cr_assert_eq(nlru_zone_info(eng, 0, NLRU_ZONE_DMA32, &zi), 0);
			cr_assert(zi.wmark_low == 40 && zi.wmark_high == 48 &&
				  zi.lowmem_reserve[NLRU_ZONE_NORMAL] == 12);
			cr_assert_eq(nlru_zone_info(eng, 0, NLRU_ZONE_NORMAL, &zi), 0);
			cr_assert(zi.wmark_low == 120 && zi.wmark_high == 144);
			require_threshold_4(eng);

			snap[run] = (struct nlru_vmstat){.size = sizeof(snap[run]),
							 .version = NLRU_VMSTAT_VERSION};
			golden_workload(eng, &snap[run]);
			cr_assert_eq(nlru_vmstat_get(&snap[run], "pgalloc_normal", &v), 0);
			cr_expect_eq(v, want[m].normal, "%s mode: pgalloc_normal %lld",
				     want[m].mode ? "zone" : "node", (long long)v);
			cr_assert_eq(nlru_vmstat_get(&snap[run], "pgalloc_dma32", &v), 0);
			cr_expect_eq(v, want[m].dma32, "%s mode: pgalloc_dma32 %lld",
				     want[m].mode ? "zone" : "node", (long long)v);
			destroy_engine(eng);
		}
		/* And every other counter too: the same workload gives the same values each time.
		 */
		cr_expect_eq(memcmp(snap[0].events, snap[1].events, sizeof(snap[0].events)), 0);
		cr_expect_eq(memcmp(snap[0].zone, snap[1].zone, sizeof(snap[0].zone)), 0);
		cr_expect_eq(memcmp(snap[0].node, snap[1].node, sizeof(snap[0].node)), 0);
	}
}

/*
 * Fill a 16 MiB node with anon pages (kswapd off) until direct reclaim starts.  Returns the
 * number of pages touched.
 */
static size_t fill_until_reclaim(struct nlru_engine *eng, struct nlru_region *r)
{
	size_t i = 0;
	void *p;

	while (vmstat_value(eng, "allocstall") == 0 &&
	       vmstat_value(eng, "allocstall_movable") == 0) {
		cr_assert_eq(nlru_region_pin(r, i, NLRU_PIN_WRITE, &p), 0);
		cr_assert_eq(nlru_region_unpin(r, i++), 0);
	}
	return i;
}

/*
 * A DMA32-only allocation under pressure: zone mode reclaims the DMA32 zone's own lists and
 * never looks at Normal's; node mode scans the node's one list and passes over Normal pages.
 */
Test(zone_mode, dma32_request_reclaims_dma32_lists_or_skips_normal_pages)
{
	enum nlru_mode modes[] = {NLRU_MODE_ZONE, NLRU_MODE_NODE};

	for (int m = 0; m < 2; m++) {
		struct nlru_engine *eng = mode_engine(modes[m], 16, 64, false);
		int64_t scan_normal, scan_dma32;
		struct nlru_region *r;
		void *dma[64];

		cr_assert_eq(nlru_region_create(eng, 8192, 0, &r), 0);
		fill_until_reclaim(eng, r);
		scan_normal = vmstat_value(eng, "pgscan_direct_normal");
		scan_dma32 = vmstat_value(eng, "pgscan_direct_dma32");
		for (int k = 0; k < 64; k++)
			cr_assert_eq(nlru_alloc_pages(eng, NLRU_GFP_KERNEL | NLRU_GFP_DMA32, 0, 0,
						      &dma[k]),
				     0, "DMA32 page %d: %s", k, test_log_last);
		cr_assert_gt(vmstat_value(eng, "allocstall_dma32"), 0, "DMA32 had to be reclaimed");
		if (modes[m] == NLRU_MODE_ZONE) {
			cr_expect_gt(vmstat_value(eng, "pgscan_direct_dma32"), scan_dma32,
				     "the DMA32 lists were scanned");
			cr_expect_eq(vmstat_value(eng, "pgscan_direct_normal"), scan_normal,
				     "Normal's lists were left alone");
			cr_expect_eq(vmstat_value(eng, "pgskip"), 0,
				     "zone lists hold no other zone");
		} else {
			cr_expect_gt(vmstat_value(eng, "pgskip_normal"), 0,
				     "Normal pages were skipped");
			cr_expect_eq(vmstat_value(eng, "pgskip_dma32"), 0);
		}
		for (int k = 0; k < 64; k++)
			cr_assert_eq(nlru_free_pages(eng, dma[k], 0), 0);
		check_lru_invariants(eng, false);
		cr_assert_eq(nlru_region_destroy(r), 0);
		destroy_engine(eng);
	}
}

/*
 * kswapd with one eligible zone balanced (DMA32) and one not (Normal): 4.8 is done as soon as
 * any eligible zone is balanced and scans nothing; 4.7 balances every zone up to the highest
 * unbalanced one, so it reclaims Normal (and skips DMA32, already above high + gap).
 */
Test(zone_mode, kswapd_stops_at_any_balanced_zone_only_in_node_mode)
{
	enum nlru_mode modes[] = {NLRU_MODE_NODE, NLRU_MODE_ZONE};

	for (int m = 0; m < 2; m++) {
		struct nlru_engine *eng = mode_engine(modes[m], 16, 64, false);
		struct zone *normal = zone_of(eng, ZONE_NORMAL), *dma32 = zone_of(eng, ZONE_DMA32);
		struct nlru_region *r;
		size_t n = 0;
		void *p;

		cr_assert_eq(nlru_region_create(eng, 4096, 0, &r), 0);
		/* Anon pages until Normal is below its high watermark... */
		do {
			cr_assert_eq(nlru_region_pin(r, n, NLRU_PIN_WRITE, &p), 0);
			cr_assert_eq(nlru_region_unpin(r, n++), 0);
			if (n % 16 == 0)
				nlru_drain_pages(eng);
		} while (n % 16 || zone_page_state(normal, NLRU_NR_FREE_PAGES) >=
					   (long)high_wmark_pages(normal));
		/* ...then give back every page that zone mode's fair policy put in DMA32. */
		for (size_t i = 0; i < n; i++) {
			cr_assert_eq(nlru_region_pin(r, i, 0, &p), 0);
			bool in_dma32 = zone_of_addr(eng, p) == ZONE_DMA32;
			cr_assert_eq(nlru_region_unpin(r, i), 0);
			if (in_dma32)
				cr_assert_eq(nlru_region_discard(r, i), 0);
		}
		nlru_drain_pages(eng);
		cr_assert(zone_balanced_48(dma32, 0, ZONE_NORMAL), "DMA32 balanced");
		cr_assert_not(
			zone_watermark_ok(normal, 0, high_wmark_pages(normal), ZONE_NORMAL, 0),
			"Normal not balanced");
		cr_assert_eq(nlru_kswapd_run(eng, 0), 0);
		cr_expect_eq(vmstat_value(eng, "pageoutrun"), 1);
		if (modes[m] == NLRU_MODE_NODE) {
			cr_expect_eq(vmstat_value(eng, "pgscan_kswapd"), 0, "4.8: done at once");
		} else {
			cr_expect_gt(vmstat_value(eng, "pgscan_kswapd_normal"), 0,
				     "4.7: Normal reclaimed");
			cr_expect_eq(vmstat_value(eng, "pgscan_kswapd_dma32"), 0, "DMA32 skipped");
			cr_expect(zone_watermark_ok(normal, 0, high_wmark_pages(normal),
						    ZONE_NORMAL, 0),
				  "and kswapd kept on until Normal was balanced too");
		}
		check_lru_invariants(eng, false);
		cr_assert_eq(nlru_region_destroy(r), 0);
		destroy_engine(eng);
	}
}

/* 4.7 wakes a node's kswapd for any zone below its own high watermark, 4.8 only for all. */
Test(zone_mode, kswapd_wakeup_is_per_zone)
{
	struct nlru_engine *eng = mode_engine(NLRU_MODE_ZONE, 16, 16, false);
	struct kswapd_state *ks = &NODE_DATA(eng, 0)->kswapd;
	struct zone *normal = zone_of(eng, ZONE_NORMAL);
	static void *held[4096];
	int n = 0;

	/* Normal below high by direct allocation from it; DMA32 untouched. */
	while (zone_page_state(normal, NLRU_NR_FREE_PAGES) >= (long)high_wmark_pages(normal)) {
		cr_assert_eq(nlru_alloc_pages(eng, NLRU_GFP_KERNEL, 3, 0, &held[n]), 0);
		if (zone_of_addr(eng, held[n]) == ZONE_NORMAL)
			n++;
		else
			cr_assert_eq(nlru_free_pages(eng, held[n], 3), 0);
	}
	ks->waiting = true; /* pretend the thread sleeps */
	wakeup_kswapd_47(eng, zone_of(eng, ZONE_DMA32), 0, ZONE_NORMAL);
	cr_expect_not(ks->woken, "DMA32 is balanced: no wakeup");
	wakeup_kswapd_47(eng, normal, 0, ZONE_NORMAL);
	cr_expect(ks->woken, "Normal alone is enough in 4.7");
	cr_expect_eq(atomic_load(&ks->classzone_idx), ZONE_NORMAL, "order 0: classzone untouched");
	wakeup_kswapd_47(eng, normal, 2, ZONE_DMA32);
	cr_expect_eq(atomic_load(&ks->order), 2);
	cr_expect_eq(atomic_load(&ks->classzone_idx), ZONE_DMA32, "a larger order lowers it");
	wakeup_kswapd_47(eng, normal, 1, ZONE_NORMAL);
	cr_expect_eq(atomic_load(&ks->classzone_idx), ZONE_DMA32, "a smaller order does not");
	ks->waiting = false;
	while (n--)
		cr_assert_eq(nlru_free_pages(eng, held[n], 3), 0);
	destroy_engine(eng);
}

/* Freeing a page ends "unreclaimable" for the zone it goes to (4.7), not the node's. */
Test(zone_mode, freeing_resets_the_zone_scan_count)
{
	struct nlru_engine *eng = mode_engine(NLRU_MODE_ZONE, 16, 0, false);
	struct zone *normal = zone_of(eng, ZONE_NORMAL), *dma32 = zone_of(eng, ZONE_DMA32);
	void *p, *from_dma32[8];
	int n = 0;

	mod_lruvec_state(&normal->zm->lruvec, NLRU_NR_PAGES_SCANNED, 1000);
	mod_lruvec_state(&dma32->zm->lruvec, NLRU_NR_PAGES_SCANNED, 1000);
	/* Hold on to DMA32 blocks: freeing them would reset DMA32's count. */
	for (;;) {
		cr_assert_eq(nlru_alloc_pages(eng, NLRU_GFP_KERNEL, 4, 0, &p), 0);
		if (zone_of_addr(eng, p) == ZONE_NORMAL)
			break;
		cr_assert_lt(n, 8);
		from_dma32[n++] = p;
	}
	cr_assert_eq(nlru_free_pages(eng, p, 4), 0);
	cr_expect_eq(zone_node_page_state(normal, NLRU_NR_PAGES_SCANNED), 0);
	cr_expect_eq(zone_node_page_state(dma32, NLRU_NR_PAGES_SCANNED), 1000);
	cr_expect_eq(node_page_state(NODE_DATA(eng, 0), NLRU_NR_PAGES_SCANNED), 1000,
		     "the node counter stays the sum of its zones'");
	while (n--)
		cr_assert_eq(nlru_free_pages(eng, from_dma32[n], 4), 0);
	destroy_engine(eng);
}

/* One engine's share of the side-by-side run: anon memory twice the engine, verified. */
struct side {
	struct nlru_engine *eng;
	long bad;
	int err;
};

#define SIDE_PAGES 4096 /* 16 MiB of anon on an 8 MiB engine */

static uint64_t side_word(size_t page, size_t word)
{
	return (page * 0x9e3779b97f4a7c15ull) ^ (word + 1);
}

static void *side_run(void *arg)
{
	struct side *s = arg;
	struct nlru_region *r;
	uint64_t *p;

	s->err = nlru_region_create(s->eng, SIDE_PAGES, 0, &r);
	for (int pass = 0; !s->err && pass < 2; pass++) {
		for (size_t i = 0; !s->err && i < SIDE_PAGES; i++) {
			s->err = nlru_region_pin(r, i, pass ? 0 : NLRU_PIN_WRITE, (void **)&p);
			for (size_t w = 0; !s->err && w < 512; w++) {
				if (pass)
					s->bad += p[w] != side_word(i, w);
				else
					p[w] = side_word(i, w);
			}
			if (!s->err)
				s->err = nlru_region_unpin(r, i);
		}
	}
	if (!s->err)
		s->err = nlru_region_destroy(r);
	return NULL;
}

/* Both modes in one process, each engine with its kswapd thread, at the same time. */
Test(zone_mode, node_and_zone_engines_side_by_side_with_kswapd)
{
	struct side sides[2] = {{.eng = mode_engine(NLRU_MODE_NODE, 8, 32, true)},
				{.eng = mode_engine(NLRU_MODE_ZONE, 8, 32, true)}};
	pthread_t threads[2];

	cr_assert_eq(nlru_engine_mode(sides[0].eng), NLRU_MODE_NODE);
	cr_assert_eq(nlru_engine_mode(sides[1].eng), NLRU_MODE_ZONE);
	for (int i = 0; i < 2; i++)
		cr_assert_eq(pthread_create(&threads[i], NULL, side_run, &sides[i]), 0);
	for (int i = 0; i < 2; i++) {
		pthread_join(threads[i], NULL);
		cr_expect_eq(sides[i].err, 0, "engine %d: %d %s", i, sides[i].err, test_log_last);
		cr_expect_eq(sides[i].bad, 0, "engine %d: %ld words differ", i, sides[i].bad);
		cr_expect_gt(vmstat_value(sides[i].eng, "pswpout"), 0, "engine %d swapped", i);
	}
	/* Each engine counted in its own layout: per-zone reclaim events only in zone mode. */
	cr_expect_eq(vmstat_value(sides[0].eng, "pgscan_kswapd_dma32") +
			     vmstat_value(sides[0].eng, "pgscan_direct_dma32"),
		     0, "node mode books reclaim on the request's zone (Movable/Normal)");
	for (int i = 0; i < 2; i++) {
		check_lru_invariants(sides[i].eng, false);
		destroy_engine(sides[i].eng);
	}
}
