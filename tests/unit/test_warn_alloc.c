/*
 * What a failed allocation says (show_mem.c): the request with its flags decoded, what the
 * slow path did, every node and zone it could use; nothing with NLRU_GFP_NOWARN; at most 10
 * reports in 5 s; and a request that can never be served refused at once, saying why.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "helpers.h"

TestSuite(warn_alloc, .timeout = 60);

/* Every message of the test, one after the other, and how many came at WARN. */
static char logged[65536];
static size_t logged_len;
static int warnings;

static void collect(void *arg, enum nlru_log_level level, const char *msg)
{
	test_log(arg, level, msg);
	warnings += level == NLRU_LOG_WARN;
	logged_len +=
		(size_t)snprintf(logged + logged_len, sizeof(logged) - logged_len, "%s\n", msg);
	if (logged_len >= sizeof(logged))
		logged_len = sizeof(logged) - 1;
}

static void forget(void)
{
	logged[0] = '\0';
	logged_len = 0;
	warnings = 0;
}

static struct nlru_engine *engine(long dma_pct, const char *topology)
{
	struct nlru_engine *eng;
	struct nlru_config cfg;

	test_config(&cfg, 8, topology);
	cfg.log = collect;
	cfg.kswapd = 0;
	cfg.swap_mib = 0;
	cfg.dma_pct = dma_pct;
	cfg.clock = test_fake_clock;
	test_fake_now = 1000000000ull;
	cr_assert_eq(nlru_engine_create(&cfg, &eng), 0, "%s", test_log_last);
	forget();
	return eng;
}

/* Allocate order-0 pages with @gfp until one fails; returns how many were had. */
static int exhaust(struct nlru_engine *eng, unsigned int gfp, void **held, int max)
{
	int n = 0;

	while (n < max && nlru_alloc_pages(eng, gfp, 0, 0, &held[n]) == 0)
		n++;
	return n;
}

static void give_back(struct nlru_engine *eng, void **held, int n)
{
	while (n--)
		cr_assert_eq(nlru_free_pages(eng, held[n], 0), 0);
}

Test(warn_alloc, a_failure_explains_itself)
{
	struct nlru_engine *eng = engine(0, NULL);
	static void *held[4096];
	int n = exhaust(eng, NLRU_GFP_KERNEL | NLRU_GFP_ZERO, held, 4096);

	cr_assert_lt(n, 4096);
	cr_expect(strstr(logged, "alloc: page allocation failure: order:0, "
				 "mode:0x200cc0(GFP_KERNEL|__GFP_ZERO), node 0 first"),
		  "%s", logged);
	/* Nothing reclaimable and no OOM killer: the slow path says what it tried. */
	cr_expect(strstr(logged,
			 "alloc: slow path: 1 round, 1 direct reclaim freed 0 pages, 1 "
			 "last-resort reclaim (where Linux would OOM-kill) freed 0; gave up: "
			 "reclaim made no progress, and the last-resort reclaim freed nothing"),
		  "%s", logged);
	/* The node and each zone it could use, with watermarks and free blocks. */
	cr_expect(strstr(logged, "alloc: node 0 active_anon:0"), "%s", logged);
	cr_expect(strstr(logged, "alloc: node 0 Normal free:"), "%s", logged);
	cr_expect(strstr(logged, "alloc: node 0 DMA32 free:"), "%s", logged);
	cr_expect(strstr(logged, " min:"), "%s", logged);
	cr_expect(strstr(logged, "*4kB "), "%s", logged);
	cr_expect(strstr(logged, "alloc: swap free:0 of 0 pages"), "%s", logged);
	cr_expect_gt(warnings, 0);
	give_back(eng, held, n);
	destroy_engine(eng);
}

Test(warn_alloc, an_atomic_failure_says_it_could_not_reclaim)
{
	struct nlru_engine *eng = engine(0, NULL);
	static void *held[4096];
	int n = exhaust(eng, NLRU_GFP_ATOMIC, held, 4096);

	cr_expect(strstr(logged, "mode:0xa20(GFP_ATOMIC)"), "%s", logged);
	cr_expect(strstr(logged, "may not reclaim (no __GFP_DIRECT_RECLAIM)"), "%s", logged);
	give_back(eng, held, n);
	destroy_engine(eng);
}

Test(warn_alloc, nowarn_fails_silently)
{
	struct nlru_engine *eng = engine(0, NULL);
	static void *held[4096];
	int n = exhaust(eng, NLRU_GFP_KERNEL | NLRU_GFP_NOWARN, held, 4096);
	void *p;

	cr_expect_eq(logged_len, 0, "%s", logged);
	cr_expect_eq(nlru_alloc_pages(eng, NLRU_GFP_NOWAIT | NLRU_GFP_NOWARN, 0, 0, &p), -ENOMEM);
	cr_expect_eq(logged_len, 0, "%s", logged);
	cr_expect_gt(vmstat_value(eng, "nlru_alloc_fail"), 0, "counted all the same");
	give_back(eng, held, n);
	destroy_engine(eng);
}

/*
 * At most 10 reports every 5 s of the engine's clock; the next report's first message says how
 * many were held back.
 */
Test(warn_alloc, reports_are_rate_limited)
{
	struct nlru_engine *eng = engine(0, NULL);
	static void *held[4096];
	int n = exhaust(eng, NLRU_GFP_NOWAIT | NLRU_GFP_NOWARN, held, 4096);
	void *p;

	for (int i = 0; i < 25; i++)
		cr_expect_eq(nlru_alloc_pages(eng, NLRU_GFP_NOWAIT, 0, 0, &p), -ENOMEM);
	cr_expect_eq(vmstat_value(eng, "nlru_alloc_fail"), 26);
	/* Each report opens with one "page allocation failure" line. */
	int reports = 0;
	for (const char *s = logged; (s = strstr(s, "page allocation failure")); s++)
		reports++;
	cr_expect_eq(reports, 10, "%d reports", reports);
	forget();
	test_fake_now += 5000000000ull;
	cr_expect_eq(nlru_alloc_pages(eng, NLRU_GFP_NOWAIT, 0, 0, &p), -ENOMEM);
	/* The count ends the report's first message, so that message still names the failure. */
	cr_expect(strncmp(logged, "alloc: page allocation failure: ", 32) == 0, "%s", logged);
	cr_expect(strstr(logged, " (15 earlier reports not logged; nlru_alloc_fail counts all)\n"),
		  "%s", logged);
	cr_expect(strchr(logged, '\n') > strstr(logged, "earlier reports"), "%s", logged);
	give_back(eng, held, n);
	destroy_engine(eng);
}

/* Asking for a zone that has no memory can never succeed: refused at once, without reclaim. */
Test(warn_alloc, an_empty_zone_is_refused_at_once)
{
	struct nlru_engine *eng = engine(0, NULL);
	void *p;

	cr_expect_eq(nlru_alloc_pages(eng, NLRU_GFP_KERNEL | NLRU_GFP_DMA, 0, 0, &p), -ENOMEM);
	cr_expect(strstr(logged, "can never be served: no zone up to DMA on any node has any "
				 "memory"),
		  "%s", logged);
	/* Said even with NOWARN: it is a mistake, not a shortage. */
	forget();
	cr_expect_eq(
		nlru_alloc_pages(eng, NLRU_GFP_KERNEL | NLRU_GFP_DMA | NLRU_GFP_NOWARN, 0, 0, &p),
		-ENOMEM);
	cr_expect(strstr(logged, "can never be served"), "%s", logged);
	cr_expect_eq(vmstat_value(eng, "nlru_direct_reclaim"), 0, "no reclaim was tried");
	destroy_engine(eng);
}

/* A block larger than every zone it may come from: refused at once too. */
Test(warn_alloc, a_block_larger_than_its_zones_is_refused_at_once)
{
	struct nlru_engine *eng = engine(10, NULL); /* DMA: 10 % of 2048 pages, 204 */
	void *p;

	cr_expect_eq(nlru_alloc_pages(eng, NLRU_GFP_KERNEL | NLRU_GFP_DMA, 8, 0, &p), -ENOMEM);
	cr_expect(strstr(logged,
			 "order:8, mode:0xcc1(GFP_KERNEL|__GFP_DMA) can never be served: "
			 "no zone up to DMA on any node has room for a block of that order"),
		  "%s", logged);
	cr_expect_eq(vmstat_value(eng, "nlru_direct_reclaim"), 0, "no reclaim was tried");
	/* A block that fits is served. */
	cr_expect_eq(nlru_alloc_pages(eng, NLRU_GFP_KERNEL | NLRU_GFP_DMA, 7, 0, &p), 0, "%s",
		     logged);
	cr_expect_eq(nlru_free_pages(eng, p, 7), 0);
	destroy_engine(eng);
}

/* Node 1 has no DMA32 zone: with THISNODE, a DMA32 request there has nowhere to go. */
Test(warn_alloc, thisnode_without_the_zone_is_refused_at_once)
{
	struct nlru_engine *eng = engine(0, "pack:2 numa:1 core:1 pu:1");
	void *p;

	cr_expect_eq(nlru_alloc_pages(eng, NLRU_GFP_KERNEL | NLRU_GFP_DMA32 | NLRU_GFP_THISNODE, 0,
				      1, &p),
		     -ENOMEM);
	cr_expect(strstr(logged, "no zone up to DMA32 on node 1 (__GFP_THISNODE) has any memory"),
		  "%s", logged);
	/* Without THISNODE it falls back to node 0's DMA32. */
	cr_expect_eq(nlru_alloc_pages(eng, NLRU_GFP_KERNEL | NLRU_GFP_DMA32, 0, 1, &p), 0);
	cr_expect_eq(nlru_addr_node(eng, p, 1), 0);
	cr_expect_eq(nlru_free_pages(eng, p, 0), 0);
	destroy_engine(eng);
}
