/* Per-CPU lists: batching from and to the buddy lists, drain, and the counters they feed. */
#include <criterion/criterion.h>
#include <sched.h>
#include <string.h>

#include "helpers.h"
#include "lru.h"
#include "page_alloc.h"
#include "pcp.h"
#include "vmstat.h"

/* Pin the test to CPU 0 so every call uses the same per-CPU list. */
static void pin_cpu0(void)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(0, &set);
	cr_assert_eq(sched_setaffinity(0, sizeof(set), &set), 0);
}

TestSuite(pcp, .init = pin_cpu0, .timeout = 30);

static struct per_cpu_pages *pcp0(struct nlru_engine *eng)
{
	/* NLRU_GFP_KERNEL pages are unmovable: that type's list of CPU 0. */
	return &NODE_DATA(eng, 0)->node_zones[ZONE_NORMAL].pageset[MIGRATE_UNMOVABLE][0];
}

static long normal_free(struct nlru_engine *eng)
{
	return zone_page_state(&NODE_DATA(eng, 0)->node_zones[ZONE_NORMAL], NLRU_NR_FREE_PAGES);
}

/* 64 MiB: Normal has 12288 pages, pcp high 18 and batch 3 (see test_watermark.c). */
Test(pcp, refill_and_drain_move_whole_batches)
{
	struct nlru_engine *eng = test_engine(64, NULL);
	struct per_cpu_pages *pcp = pcp0(eng);
	void *p[32];

	cr_assert_eq(pcp->high, 18);
	cr_assert_eq(pcp->batch, 3);
	/* The first allocation pulls one batch of 3 from the buddy lists, hands out one. */
	cr_assert_eq(nlru_alloc_pages(eng, NLRU_GFP_KERNEL, 0, 0, &p[0]), 0);
	cr_expect_eq(pcp_count(pcp), 2);
	cr_expect_eq(normal_free(eng), 12288 - 3);
	/* 20 more: the list refills 3 at a time. */
	for (int i = 1; i <= 20; i++)
		cr_assert_eq(nlru_alloc_pages(eng, NLRU_GFP_KERNEL, 0, 0, &p[i]), 0);
	cr_expect_eq(pcp_count(pcp), 0, "21 pages = 7 batches of 3, count %d", pcp_count(pcp));
	cr_expect_eq(normal_free(eng), 12288 - 21);
	/* Freeing 17 keeps them on the list; the 18th reaches high and sends a batch back. */
	for (int i = 0; i < 17; i++)
		cr_assert_eq(nlru_free_pages(eng, p[i], 0), 0);
	cr_expect_eq(pcp_count(pcp), 17);
	cr_expect_eq(normal_free(eng), 12288 - 21);
	cr_assert_eq(nlru_free_pages(eng, p[17], 0), 0);
	cr_expect_eq(pcp_count(pcp), 15);
	cr_expect_eq(normal_free(eng), 12288 - 21 + 3);
	check_pages_accounted(eng, 3);
	/* Drain empties the list into the buddy allocator. */
	cr_assert_eq(nlru_drain_pages(eng), 0);
	cr_expect_eq(pcp_count(pcp), 0);
	cr_expect_eq(normal_free(eng), 12288 - 3);
	check_free_lists(eng);
	for (int i = 18; i <= 20; i++)
		cr_assert_eq(nlru_free_pages(eng, p[i], 0), 0);
	destroy_engine(eng);
}

Test(pcp, counters_match_the_allocator)
{
	run_in_mode(NLRU_MODE_NODE); /* every page from Normal: no fair zone policy */
	struct nlru_engine *eng = test_engine(64, NULL);
	struct nlru_vmstat snap = {.size = sizeof(snap), .version = NLRU_VMSTAT_VERSION};
	void *p[100];
	int64_t v;

	for (int i = 0; i < 100; i++)
		cr_assert_eq(nlru_alloc_pages(eng, NLRU_GFP_KERNEL, i % 10 == 9 ? 3 : 0, 0, &p[i]),
			     0);
	for (int i = 0; i < 50; i++)
		cr_assert_eq(nlru_free_pages(eng, p[i], i % 10 == 9 ? 3 : 0), 0);
	cr_assert_eq(nlru_vmstat_read(eng, &snap), 0);
	/* 90 order-0 pages + 10 order-3 blocks = 170 pages from Normal; freed 45 + 5*8 = 85. */
	cr_expect_eq(snap.events[NLRU_PGALLOC + NLRU_ZONE_NORMAL], 170);
	cr_expect_eq(snap.events[NLRU_PGALLOC + NLRU_ZONE_DMA32], 0);
	cr_expect_eq(snap.events[NLRU_PGFREE], 85);
	/* numa_hit counts allocations, not pages; all of them are local on a one-node engine. */
	cr_expect_eq(snap.zone[NLRU_NUMA_HIT], 100);
	cr_expect_eq(snap.zone[NLRU_NUMA_LOCAL], 100);
	cr_expect_eq(snap.zone[NLRU_NUMA_MISS], 0);
	cr_assert_eq(nlru_vmstat_get(&snap, "pgalloc_normal", &v), 0);
	cr_expect_eq(v, 170);
	/* nr_free_pages plus what the per-CPU lists hold is everything not allocated. */
	check_pages_accounted(eng, 170 - 85);
	for (int i = 50; i < 100; i++)
		cr_assert_eq(nlru_free_pages(eng, p[i], i % 10 == 9 ? 3 : 0), 0);
	destroy_engine(eng);
}

/*
 * The bulk calls move pages as that many single calls would: a free pushes them in order, an
 * allocation takes the hottest first, from the list while it holds them and then in batches
 * from the buddy lists; a free that would reach high sends batches back.
 */
Test(pcp, bulk_calls_move_pages_as_single_calls_would)
{
	run_in_mode(NLRU_MODE_NODE); /* zone mode's fair policy takes bulk pages one by one */
	struct nlru_engine *eng = test_engine(64, NULL);
	struct per_cpu_pages *pcp = pcp0(eng);
	void *p[20], *was[20], *q[4] = {NULL}, *r[10] = {NULL};
	uint64_t allocs;

	for (int i = 0; i < 20; i++)
		cr_assert_eq(nlru_alloc_pages(eng, NLRU_GFP_KERNEL, 0, 0, &p[i]), 0);
	memcpy(was, p, sizeof(p)); /* the bulk free clears the entries */
	cr_assert_eq(nlru_drain_pages(eng), 0);
	cr_assert_eq(nlru_free_pages_bulk(eng, p, 10), 0);
	cr_expect_eq(pcp_count(pcp), 10, "the ten pages stay on the list");
	cr_expect_eq(normal_free(eng), 12288 - 20);
	allocs = pcp_allocs(pcp);
	cr_assert_eq(nlru_alloc_pages_bulk(eng, NLRU_GFP_KERNEL, 0, 4, q), 4);
	for (int i = 0; i < 4; i++)
		cr_expect_eq(q[i], was[9 - i], "page %d of the batch is not the list's hottest", i);
	cr_expect_eq(pcp_count(pcp), 6);
	cr_expect_eq(pcp_allocs(pcp) - allocs, 4);
	/* Six from the list, then two batches of 3 from the buddy lists for the other four. */
	cr_assert_eq(nlru_alloc_pages_bulk(eng, NLRU_GFP_KERNEL, 0, 10, r), 10);
	for (int i = 0; i < 6; i++)
		cr_expect_eq(r[i], was[5 - i], "page %d of the batch is not the list's hottest", i);
	cr_expect_eq(pcp_count(pcp), 2);
	cr_expect_eq(pcp_allocs(pcp) - allocs, 14);
	cr_expect_eq(normal_free(eng), 12288 - 20 - 6);
	/* 2 + 24 pages would pass high (18): batches of 3 go back, the list stays below it. */
	cr_assert_eq(nlru_free_pages_bulk(eng, &p[10], 10), 0);
	cr_assert_eq(nlru_free_pages_bulk(eng, r, 10), 0);
	cr_assert_eq(nlru_free_pages_bulk(eng, q, 4), 0);
	cr_expect_lt(pcp_count(pcp), 18);
	cr_expect_eq(normal_free(eng) + pcp_count(pcp), 12288);
	check_pages_accounted(eng, 0);
	cr_assert_eq(nlru_drain_pages(eng), 0);
	check_free_lists(eng);
	destroy_engine(eng);
}

Test(pcp, freeing_resets_the_node_scan_count)
{
	run_in_mode(NLRU_MODE_NODE); /* zone mode resets the zone's: test_zone_mode.c */
	struct nlru_engine *eng = test_engine(64, NULL);
	struct pglist_data *pgdat = NODE_DATA(eng, 0);
	void *p;

	/* NR_PAGES_SCANNED is reclaim's "unreclaimable" clock: a page freed to buddy ends it. */
	mod_node_page_state(pgdat, NLRU_NR_PAGES_SCANNED, 1000);
	cr_assert_eq(nlru_alloc_pages(eng, NLRU_GFP_KERNEL, 4, 0, &p), 0);
	cr_assert_eq(nlru_free_pages(eng, p, 4), 0);
	cr_expect_eq(node_page_state(pgdat, NLRU_NR_PAGES_SCANNED), 0);
	destroy_engine(eng);
}

/*
 * A drain resets NR_PAGES_SCANNED only where it frees pages: 4.8's free_pcppages_bulk does
 * the reset, and drain_pages_zone calls it only for a list that holds pages.
 */
Test(pcp, a_drain_that_frees_nothing_keeps_the_scan_count)
{
	/* 64 MiB: small zones have pcp high 0, and every free goes straight to buddy. */
	struct nlru_engine *eng = test_engine(64, NULL);
	struct pglist_data *pgdat = NODE_DATA(eng, 0);
	struct lruvec *lruvecs[NLRU_MAX_NR_ZONES], *freed_to;
	int n = node_lruvecs(eng, 0, lruvecs);
	struct page *page;

	cr_assert_eq(nlru_drain_pages(eng), 0);
	for (int i = 0; i < n; i++)
		mod_lruvec_state(lruvecs[i], NLRU_NR_PAGES_SCANNED, 1000);
	cr_assert_eq(nlru_drain_pages(eng), 0);
	for (int i = 0; i < n; i++)
		cr_expect_eq(lruvec_page_state(lruvecs[i], NLRU_NR_PAGES_SCANNED), 1000,
			     "lruvec %d of %d: every per-CPU list was empty", i, n);

	/* A page freed onto this CPU's list; draining that list resets its lruvec only. */
	page = alloc_pages_node(eng, NLRU_GFP_KERNEL, 0, 0);
	cr_assert(page);
	freed_to = page_lruvec(pgdat, page);
	__atomic_store_n(&page->refcount, 0, __ATOMIC_RELEASE);
	free_pages_trusted(eng, page, 0);
	cr_expect_eq(lruvec_page_state(freed_to, NLRU_NR_PAGES_SCANNED), 1000, "still per-CPU");
	cr_assert_eq(nlru_drain_pages(eng), 0);
	for (int i = 0; i < n; i++)
		cr_expect_eq(lruvec_page_state(lruvecs[i], NLRU_NR_PAGES_SCANNED),
			     lruvecs[i] == freed_to ? 0 : 1000, "lruvec %d of %d", i, n);
	destroy_engine(eng);
}

/*
 * A thread on a CPU past the per-CPU lists the engine made (one hot-added since; here the
 * engine is told it has one CPU and the test runs on CPU 1) must not index past them: the
 * restartable sequences check the CPU id and the slow path takes CPU 0's list, locked as a
 * drain locks another CPU's.
 */
Test(pcp, a_cpu_past_the_lists_uses_the_first_list)
{
	struct nlru_engine *eng = test_engine(64, NULL);
	struct zone *normal = &NODE_DATA(eng, 0)->node_zones[ZONE_NORMAL];
	cpu_set_t set;
	void *pages[200];

	if (!eng->pcp_rseq || eng->nr_cpus < 2)
		cr_skip_test("needs restartable sequences and two CPUs");
	CPU_ZERO(&set);
	CPU_SET(1, &set);
	cr_assert_eq(sched_setaffinity(0, sizeof(set), &set), 0);
	eng->nr_cpus = 1; /* CPU 1's list is still there, but must go untouched */
	for (int round = 0; round < 3; round++) {
		for (int i = 0; i < 200; i++)
			cr_assert_eq(nlru_alloc_pages(eng, NLRU_GFP_KERNEL, 0, 0, &pages[i]), 0);
		for (int i = 0; i < 200; i++)
			cr_assert_eq(nlru_free_pages(eng, pages[i], 0), 0);
	}
	cr_expect_eq(pcp_count(&normal->pageset[MIGRATE_UNMOVABLE][1]), 0, "CPU 1's list was used");
	cr_expect_gt(pcp_count(&normal->pageset[MIGRATE_UNMOVABLE][0]), 0, "CPU 0's list was not");
	eng->nr_cpus = 2;
	check_pages_accounted(eng, 0);
	destroy_engine(eng);
}
