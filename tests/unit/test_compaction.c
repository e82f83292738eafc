/*
 * Compaction (compaction.c): a zone fragmented on purpose, region pages every other page, is
 * compacted until a free block of the largest order exists, with every page's data intact.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <time.h>

#include "anon.h"
#include "compaction.h"
#include "helpers.h"
#include "kswapd.h"
#include "page_alloc.h"
#include "vmscan.h"
#include "zonelist.h"

TestSuite(compaction, .fini = test_remove_dir, .timeout = 120);

/* The largest order with a free block in @zone, or -1. */
static int largest_free_order(struct zone *zone)
{
	for (int o = MAX_ORDER - 1; o >= 0; o--)
		if (zone->free_area[o].nr_free)
			return o;
	return -1;
}

static void fill(struct nlru_region *region, size_t index, uint64_t value)
{
	uint64_t *p;

	cr_assert_eq(nlru_region_pin(region, index, NLRU_PIN_WRITE, (void **)&p), 0);
	for (size_t i = 0; i < 512; i++)
		p[i] = value;
	cr_assert_eq(nlru_region_unpin(region, index), 0);
}

/*
 * Fill @region until Normal has no free block of pageblock order left (page i holds
 * @base + i), then give back every even page of Normal: half of it free, in single pages.
 * Returns how many region pages were filled.
 */
static size_t fragment_normal(struct nlru_engine *eng, struct nlru_region *region, size_t cap,
			      uint64_t base)
{
	struct zone *normal = &NODE_DATA(eng, 0)->node_zones[ZONE_NORMAL];
	size_t n = 0;

	while (n < cap && largest_free_order(normal) >= (int)pageblock_order) {
		fill(region, n, base + n);
		if (++n % 64 == 0)
			drain_all_pages(eng); /* what the per-CPU lists hold would merge later */
	}
	cr_assert_lt(n, cap);
	drain_all_pages(eng);
	cr_log_info("%zu pages filled; largest free order %d", n, largest_free_order(normal));
	for (size_t i = 0; i < n; i++) {
		struct page *page = region_page(region, i);

		if (page && page_zonenum(page) == ZONE_NORMAL &&
		    page_to_pfn(NODE_DATA(eng, 0), page) % 2 == 0)
			cr_assert_eq(nlru_region_discard(region, i), 0);
	}
	drain_all_pages(eng);
	return n;
}

/* Every page of @region's first @n still held holds @base + its index. */
static void expect_region_data(struct nlru_region *region, size_t n, uint64_t base)
{
	for (size_t i = 0; i < n; i++) {
		uint64_t *p;

		if (!region_page(region, i) && region_swap_slot(region, i) < 0)
			continue;
		cr_assert_eq(nlru_region_pin(region, i, 0, (void **)&p), 0);
		cr_expect_eq(p[0], base + i, "page %zu", i);
		cr_expect_eq(p[511], base + i, "page %zu", i);
		cr_assert_eq(nlru_region_unpin(region, i), 0);
	}
}

/*
 * One zone (Normal), no swap, so nothing is reclaimable and only compaction makes a block;
 * compaction runs for a fragmentation index above @extfrag_threshold.
 */
/* 32 MiB in one zone (Normal), no swap. */
static void one_zone_config(struct nlru_config *cfg)
{
	test_config(cfg, 32, NULL);
	cfg->dma32_pct = 0;
	cfg->swap_mib = 0;
}

static struct nlru_engine *normal_only_engine_threshold(bool kswapd, long extfrag_threshold)
{
	struct nlru_engine *eng;
	struct nlru_config cfg;

	one_zone_config(&cfg);
	cfg.kswapd = kswapd;
	cfg.extfrag_threshold = extfrag_threshold;
	cr_assert_eq(nlru_engine_create(&cfg, &eng), 0, "%s", test_log_last);
	return eng;
}

static struct nlru_engine *normal_only_engine(bool kswapd)
{
	return normal_only_engine_threshold(kswapd, 500);
}

/* A zone that is only its free counts: fragmentation_index() reads nothing else. */
static struct zone free_counts_zone;

static int index_of(const unsigned long nr_free[MAX_ORDER], unsigned int order)
{
	for (int o = 0; o < MAX_ORDER; o++)
		free_counts_zone.free_area[o].nr_free = nr_free[o];
	return fragmentation_index(&free_counts_zone, order);
}

/*
 * fragmentation_index() = 1000 - (1000 + 1000 x free pages / 2^order) / free blocks, in
 * integers, when no free block is large enough; worked out by hand for each case.
 */
Test(compaction, the_fragmentation_index_is_4_8s)
{
	/* Nothing free: 0. */
	cr_expect_eq(index_of((unsigned long[MAX_ORDER]){0}, 9), 0);
	/* A free block of the order, or of a larger one: the request would succeed, -1000. */
	cr_expect_eq(index_of((unsigned long[MAX_ORDER]){[9] = 1}, 9), -1000);
	cr_expect_eq(index_of((unsigned long[MAX_ORDER]){[0] = 4000, [10] = 1}, 9), -1000);
	/*
	 * 4096 single pages, order 9 (512): (1000 + 4096000 / 512) / 4096 = 9000 / 4096 = 2,
	 * 1000 - 2 = 998: all fragmentation.
	 */
	cr_expect_eq(index_of((unsigned long[MAX_ORDER]){[0] = 4096}, 9), 998);
	/*
	 * 100 order-0, 10 order-3 and 2 order-8 blocks: 100 + 80 + 512 = 692 pages in 112
	 * blocks; order 9: 692000 / 512 = 1351, (1000 + 1351) / 112 = 20, 1000 - 20 = 980.
	 */
	cr_expect_eq(index_of((unsigned long[MAX_ORDER]){[0] = 100, [3] = 10, [8] = 2}, 9), 980);
	/*
	 * 8 order-8 blocks, order 9: 2048 pages, (1000 + 2048000 / 512) / 8 = 5000 / 8 = 625,
	 * 1000 - 625 = 375: below the default threshold of 500, lack of memory.
	 */
	cr_expect_eq(index_of((unsigned long[MAX_ORDER]){[8] = 8}, 9), 375);
	/* 2 order-8 blocks, order 9: (1000 + 512000 / 512) / 2 = 1000, so 0. */
	cr_expect_eq(index_of((unsigned long[MAX_ORDER]){[8] = 2}, 9), 0);
	/*
	 * One order-8 block, order 10 (1024): (1000 + 256000 / 1024) / 1 = 1250, so -250: below
	 * 0, which compaction_suitable() does not take for lack of memory.
	 */
	cr_expect_eq(index_of((unsigned long[MAX_ORDER]){[8] = 1}, 10), -250);
}

/*
 * compaction_suitable()'s fragmentation test: the same fragmented zone (every other page
 * free, an index near 1000) is reclaimed, not compacted, when extfrag_threshold is 1000 and
 * the index therefore in 0 .. threshold, "lack of memory"; with the default 500 it is taken
 * for fragmentation and compacted.
 */
Test(compaction, a_request_failing_from_lack_of_memory_is_not_compacted)
{
	struct nlru_engine *eng = normal_only_engine_threshold(false, 1000);
	struct zone *normal = &NODE_DATA(eng, 0)->node_zones[ZONE_NORMAL];
	struct nlru_region *region;
	size_t n, cap = 8192;
	int index;
	void *addr;

	cr_assert_eq(nlru_region_create(eng, cap, 0, &region), 0);
	n = fragment_normal(eng, region, cap, 0x7000);
	index = fragmentation_index(normal, MAX_ORDER - 1);
	cr_log_info("fragmentation index %d", index);
	cr_assert(index > 500 && index <= 1000, "index %d", index);
	cr_expect_eq(compaction_suitable(eng, normal, MAX_ORDER - 1, 0, ZONE_NORMAL),
		     COMPACT_NOT_SUITABLE_ZONE);
	cr_expect_eq(
		nlru_alloc_pages(eng, NLRU_GFP_KERNEL | NLRU_GFP_NOWARN, MAX_ORDER - 1, 0, &addr),
		-ENOMEM, "nothing reclaimable, and no compaction");
	cr_expect_eq(vmstat_value(eng, "compact_stall"), 0);
	cr_expect_eq(vmstat_value(eng, "compact_migrate_scanned"), 0);
	cr_expect_eq(vmstat_value(eng, "compact_free_scanned"), 0);
	cr_expect_eq(vmstat_value(eng, "pgmigrate_success"), 0);

	/* The default threshold, set as vm.extfrag_threshold is: fragmentation, so compaction. */
	cr_assert_eq(nlru_tunable_set(eng, "extfrag_threshold", 500), 0, "%s", test_log_last);
	cr_expect_eq(compaction_suitable(eng, normal, MAX_ORDER - 1, 0, ZONE_NORMAL),
		     COMPACT_CONTINUE);
	cr_assert_eq(nlru_alloc_pages(eng, NLRU_GFP_KERNEL, MAX_ORDER - 1, 0, &addr), 0, "%s",
		     test_log_last);
	cr_expect_eq(vmstat_value(eng, "compact_stall"), 1);
	cr_expect_eq(vmstat_value(eng, "compact_success"), 1);
	cr_expect_gt(vmstat_value(eng, "compact_migrate_scanned"), 0);
	cr_assert_eq(nlru_free_pages(eng, addr, MAX_ORDER - 1), 0);
	expect_region_data(region, n, 0x7000);
	cr_assert_eq(nlru_region_destroy(region), 0);
	check_pages_accounted(eng, 0);
	destroy_engine(eng);
}

Test(compaction, a_fragmented_zone_compacts_to_the_largest_order)
{
	struct nlru_engine *eng = test_swap_engine(32, 0, false); /* nothing reclaimable */
	struct zone *normal = &NODE_DATA(eng, 0)->node_zones[ZONE_NORMAL];
	struct compact_stats stats;
	struct nlru_region *region;
	size_t n = 0, cap = 8192;
	enum compact_result r;
	int before;

	cr_assert_eq(nlru_region_create(eng, cap, 0, &region), 0);
	n = fragment_normal(eng, region, cap, 0x5000);
	before = largest_free_order(normal);
	cr_assert_lt(before, MAX_ORDER - 1, "fragmented: order %d free", before);

	r = compact_zone(eng, normal, MAX_ORDER - 1, COMPACT_PRIO_SYNC_LIGHT, &stats);
	cr_log_info("before %d after %d: %lu migrate scanned, %lu free scanned, %lu isolated, "
		    "%lu migrated, %lu failed",
		    before, largest_free_order(normal), stats.migrate_scanned, stats.free_scanned,
		    stats.isolated, stats.migrated, stats.failed);
	cr_expect_eq(r, COMPACT_SUCCESS);
	cr_expect_eq(largest_free_order(normal), MAX_ORDER - 1);
	cr_expect_gt(stats.migrated, 0);
	cr_expect_eq(vmstat_value(eng, "pgmigrate_success"), (int64_t)stats.migrated);

	expect_region_data(region, n, 0x5000);
	check_free_lists(eng);
	check_lru_invariants(eng, true);
	cr_assert_eq(nlru_region_destroy(region), 0);
	check_pages_accounted(eng, 0);
	destroy_engine(eng);
}

/*
 * Direct compaction: in an engine with one zone, fragmented the same way and with nothing
 * reclaimable, an unmovable order-10 request is served by compacting, and counted.
 */
Test(compaction, the_slow_path_compacts_for_a_high_order_request)
{
	struct nlru_engine *eng = normal_only_engine(false);
	struct zone *normal = &NODE_DATA(eng, 0)->node_zones[ZONE_NORMAL];
	struct nlru_region *region;
	size_t n, cap = 8192;
	void *addr;

	cr_assert_eq(nlru_region_create(eng, cap, 0, &region), 0);
	n = fragment_normal(eng, region, cap, 0);
	cr_assert_lt(largest_free_order(normal), MAX_ORDER - 1);
	cr_assert_eq(nlru_alloc_pages(eng, NLRU_GFP_KERNEL, MAX_ORDER - 1, 0, &addr), 0, "%s",
		     test_log_last);
	cr_expect_geq(vmstat_value(eng, "compact_stall"), 1);
	cr_expect_eq(vmstat_value(eng, "compact_success"), 1);
	cr_expect_gt(vmstat_value(eng, "compact_migrate_scanned"), 0);
	cr_expect_gt(vmstat_value(eng, "compact_free_scanned"), 0);
	cr_expect_gt(vmstat_value(eng, "compact_isolated"), 0);
	cr_expect_gt(vmstat_value(eng, "pgmigrate_success"), 0);
	cr_assert_eq(nlru_free_pages(eng, addr, MAX_ORDER - 1), 0);
	expect_region_data(region, n, 0);
	check_free_lists(eng);
	cr_assert_eq(nlru_region_destroy(region), 0);
	check_pages_accounted(eng, 0);
	destroy_engine(eng);
}

/*
 * kcompactd: woken for a high order, as kswapd wakes it before its nap (wakeup_kcompactd()),
 * it makes the block in the background.  kswapd of 4.8 passes the order only when it gave
 * that order up after reclaiming enough for compaction; nothing is reclaimable here, so the
 * test wakes it as kswapd would.
 */
Test(compaction, kcompactd_compacts_when_woken)
{
	struct nlru_engine *eng = normal_only_engine(true);
	struct zone *normal = &NODE_DATA(eng, 0)->node_zones[ZONE_NORMAL];
	struct nlru_region *region;
	size_t cap = 8192;
	void *addr;

	cr_assert_eq(nlru_region_create(eng, cap, 0, &region), 0);
	fragment_normal(eng, region, cap, 0);
	/* (In zone mode kswapd may have woken kcompactd already: 4.7 passes it the order.) */
	wakeup_kcompactd(eng, NODE_DATA(eng, 0), MAX_ORDER - 1, ZONE_NORMAL);
	for (int i = 0; i < 1000 && largest_free_order(normal) < MAX_ORDER - 1; i++)
		nanosleep(&(struct timespec){0, 10 * 1000 * 1000}, NULL);
	cr_expect_geq(vmstat_value(eng, "compact_daemon_wake"), 1);
	cr_expect_eq(largest_free_order(normal), MAX_ORDER - 1, "kcompactd made the block");
	cr_expect_eq(vmstat_value(eng, "compact_stall"), 0, "no direct compaction");
	cr_assert_eq(nlru_alloc_pages(eng, NLRU_GFP_NOWAIT, MAX_ORDER - 1, 0, &addr), 0);
	cr_assert_eq(nlru_free_pages(eng, addr, MAX_ORDER - 1), 0);
	cr_assert_eq(nlru_region_destroy(region), 0);
	destroy_engine(eng);
}

/* Every counter compaction moves. */
static const char *const compact_counters[] = {
	"compact_stall",           "compact_fail",         "compact_success",
	"compact_migrate_scanned", "compact_free_scanned", "compact_isolated",
	"compact_daemon_wake",     "pgmigrate_success",
};

static void expect_no_compaction(struct nlru_engine *eng)
{
	for (size_t i = 0; i < sizeof(compact_counters) / sizeof(compact_counters[0]); i++)
		cr_expect_eq(vmstat_value(eng, compact_counters[i]), 0, "%s", compact_counters[i]);
}

static struct nlru_engine *no_compaction_engine(long swap_mib, bool kswapd)
{
	struct nlru_engine *eng;
	struct nlru_config cfg;

	test_config(&cfg, 32, NULL);
	cfg.dma32_pct = 0;
	cfg.swap_mib = swap_mib;
	cfg.kswapd = kswapd;
	cfg.compaction = 0;
	cr_assert_eq(nlru_engine_create(&cfg, &eng), 0, "%s", test_log_last);
	return eng;
}

/*
 * compaction 0, a kernel without CONFIG_COMPACTION: no kcompactd even with kswapd, and the
 * fragmented zone that the tests above compact gives no block, with nothing reclaimable;
 * no compaction counter moves.  A block that is free is still handed out.
 */
Test(compaction, without_compaction_a_fragmented_zone_stays_so)
{
	struct nlru_engine *eng = no_compaction_engine(0, true);
	struct zone *normal = &NODE_DATA(eng, 0)->node_zones[ZONE_NORMAL];
	struct nlru_region *region;
	size_t n, cap = 8192;
	void *addr;

	cr_expect_not(NODE_DATA(eng, 0)->kcompactd.started, "no kcompactd");
	cr_assert_eq(nlru_alloc_pages(eng, NLRU_GFP_KERNEL, MAX_ORDER - 1, 0, &addr), 0, "%s",
		     test_log_last);
	cr_assert_eq(nlru_free_pages(eng, addr, MAX_ORDER - 1), 0);
	cr_assert_eq(nlru_region_create(eng, cap, 0, &region), 0);
	n = fragment_normal(eng, region, cap, 0x9000);
	cr_assert_lt(largest_free_order(normal), MAX_ORDER - 1);
	wakeup_kcompactd(eng, NODE_DATA(eng, 0), MAX_ORDER - 1, ZONE_NORMAL);
	cr_expect_eq(
		nlru_alloc_pages(eng, NLRU_GFP_KERNEL | NLRU_GFP_NOWARN, MAX_ORDER - 1, 0, &addr),
		-ENOMEM);
	cr_expect_lt(largest_free_order(normal), MAX_ORDER - 1);
	expect_no_compaction(eng);
	expect_region_data(region, n, 0x9000);
	cr_assert_eq(nlru_region_destroy(region), 0);
	check_pages_accounted(eng, 0);
	destroy_engine(eng);
}

/*
 * compaction 0 with swap: the same fragmented zone, its pages reclaimable now.  Each order-10
 * request reclaims; once reclaim has swapped out both pages of the pairs of a block, the
 * block is free and the request gets it, by reclaim alone.  The bound is the number of
 * requests that would swap out every page of the region, 32 at a time, twice over.
 */
Test(compaction, without_compaction_reclaim_alone_makes_a_block)
{
	struct nlru_engine *eng = no_compaction_engine(64, false);
	struct nlru_region *region;
	size_t n, cap = 8192, tries = 0;
	void *addr = NULL;

	cr_assert_eq(nlru_region_create(eng, cap, 0, &region), 0);
	n = fragment_normal(eng, region, cap, 0xb000);
	while (tries < 2 * n / 32 &&
	       nlru_alloc_pages(eng, NLRU_GFP_KERNEL | NLRU_GFP_NOWARN, MAX_ORDER - 1, 0, &addr))
		tries++;
	cr_log_info("an order-10 block after %zu failed requests, %" PRId64 " pages swapped out",
		    tries, vmstat_value(eng, "pswpout"));
	cr_assert_not_null(addr, "reclaim freed no block in %zu requests", tries);
	cr_expect_gt(vmstat_value(eng, "pswpout"), 0);
	expect_no_compaction(eng);
	cr_assert_eq(nlru_free_pages(eng, addr, MAX_ORDER - 1), 0);
	expect_region_data(region, n, 0xb000);
	cr_assert_eq(nlru_region_destroy(region), 0);
	check_pages_accounted(eng, 0);
	destroy_engine(eng);
}

/*
 * Fill @eng with unmovable order-0 pages into @held (at most @max), then free every other one:
 * half the memory free in single pages between pages nothing can move.  How many were held.
 */
static size_t fragment_unmovable(struct nlru_engine *eng, void **held, size_t max)
{
	size_t n = 0;

	while (n < max &&
	       nlru_alloc_pages(eng, NLRU_GFP_KERNEL | NLRU_GFP_NOWARN, 0, 0, &held[n]) == 0)
		n++;
	for (size_t i = 0; i < n; i += 2)
		cr_assert_eq(nlru_free_pages(eng, held[i], 0), 0);
	drain_all_pages(eng);
	return n;
}

/* Free the pages fragment_unmovable() kept. */
static void free_unmovable(struct nlru_engine *eng, void **held, size_t n)
{
	for (size_t i = 1; i < n; i += 2)
		cr_assert_eq(nlru_free_pages(eng, held[i], 0), 0);
}

/*
 * 4.8.15's priorities: a costly request compacts async first, whose failures defer nothing
 * and whose migrate scanner passes unmovable pageblocks by; after reclaim it compacts at
 * sync-light, whose failure to the end defers the zone.  A __GFP_NORETRY request stays async,
 * and gives up before reclaiming when the zone's compaction is deferred.  Here nothing can
 * be moved: half of Normal is free in single pages between unmovable ones.
 */
Test(compaction, async_failures_defer_nothing_and_sync_light_ones_defer)
{
	struct nlru_engine *eng = normal_only_engine(false);
	struct zone *normal = &NODE_DATA(eng, 0)->node_zones[ZONE_NORMAL];
	static void *held[8192];
	size_t n = fragment_unmovable(eng, held, 8192);
	int64_t reclaims;
	void *p;

	cr_assert_eq(nlru_alloc_pages(eng, NLRU_GFP_KERNEL | NLRU_GFP_NORETRY | NLRU_GFP_NOWARN, 9,
				      0, &p),
		     -ENOMEM);
	cr_expect_geq(vmstat_value(eng, "compact_stall"), 1);
	cr_expect_eq(vmstat_value(eng, "compact_migrate_scanned"), 0,
		     "async compaction scanned unmovable pageblocks");
	cr_expect_eq(normal->compact_defer_shift, 0, "an async failure deferred the zone");

	cr_assert_eq(nlru_alloc_pages(eng, NLRU_GFP_KERNEL | NLRU_GFP_NOWARN, 9, 0, &p), -ENOMEM);
	cr_expect_gt(vmstat_value(eng, "compact_migrate_scanned"), 0, "no sync-light pass");
	cr_expect_eq(normal->compact_defer_shift, 1, "the sync-light failure did not defer");

	reclaims = vmstat_value(eng, "nlru_direct_reclaim");
	cr_assert_eq(nlru_alloc_pages(eng, NLRU_GFP_KERNEL | NLRU_GFP_NORETRY | NLRU_GFP_NOWARN, 9,
				      0, &p),
		     -ENOMEM);
	cr_expect_eq(vmstat_value(eng, "nlru_direct_reclaim"), reclaims,
		     "deferred: a __GFP_NORETRY request reclaimed");
	free_unmovable(eng, held, n);
	destroy_engine(eng);
}

/* 32 MiB in one zone (Normal) of @mode, a swap file of @swap_mib, kswapd off. */
static struct nlru_engine *mode_engine(enum nlru_mode mode, long compaction, long swap_mib)
{
	struct nlru_engine *eng;
	struct nlru_config cfg;

	one_zone_config(&cfg);
	cfg.swap_mib = swap_mib;
	cfg.kswapd = 0;
	cfg.mode = mode;
	cfg.compaction = compaction;
	cr_assert_eq(nlru_engine_create(&cfg, &eng), 0, "%s", test_log_last);
	return eng;
}

/*
 * 4.7's zone_balanced() with CONFIG_COMPACTION: kswapd's own balance for a high order is the
 * order-0 high mark plus 2^order, the block left to kcompactd; without compaction it is the
 * real order.  Normal here has half its pages free, all single between unmovable pages, no
 * 2 MiB block, and a file's pages in its cache for reclaim to work on.
 */
Test(compaction, zone_mode_kswapd_leaves_the_block_to_compaction)
{
	for (long compaction = 0; compaction <= 1; compaction++) {
		struct nlru_engine *eng = mode_engine(NLRU_MODE_ZONE, compaction, 0);
		struct zone *normal = &NODE_DATA(eng, 0)->node_zones[ZONE_NORMAL];
		static void *held[8192];
		size_t n = fragment_unmovable(eng, held, 8192);
		struct nlru_file *f;
		char buf[4096];

		make_file(test_path("cached"), 1 << 20, 1);
		cr_assert_eq(nlru_file_open(eng, test_path("cached"), O_RDONLY, 0, 0, &f), 0);
		for (uint64_t off = 0; off < 1 << 20; off += sizeof(buf))
			cr_assert_eq(nlru_file_pread(f, buf, sizeof(buf), off), (long)sizeof(buf));
		drain_all_pages(eng);
		cr_assert_lt(largest_free_order(normal), (int)pageblock_order);
		cr_expect_eq(pgdat_balanced_47(eng, NODE_DATA(eng, 0), 9, ZONE_NORMAL),
			     compaction == 1, "compaction %ld: balanced for order 9 says %d",
			     compaction, !compaction);
		cr_expect(pgdat_balanced_47(eng, NODE_DATA(eng, 0), 0, ZONE_NORMAL));
		cr_assert_eq(nlru_file_close(f), 0);
		free_unmovable(eng, held, n);
		destroy_engine(eng);
	}
}

/* Direct reclaim as a GFP_KERNEL request of @order makes it: the pages it reclaimed. */
static unsigned long direct_reclaim_for(struct nlru_engine *eng, unsigned int order)
{
	struct pglist_data *pgdat = NODE_DATA(eng, 0);

	return try_to_free_pages(eng, node_zonelist(pgdat, NLRU_GFP_KERNEL), order, NLRU_GFP_KERNEL,
				 ZONE_NORMAL);
}

/*
 * Reclaim/compaction (should_continue_reclaim(), both versions): direct reclaim for a costly
 * order goes on past SWAP_CLUSTER_MAX until 2^(order+1) pages are reclaimed, so that
 * compaction has free pages to move pages into; without compaction it stops at
 * SWAP_CLUSTER_MAX's worth, as order-0 reclaim does.  The engine is full of the clean page
 * cache of a file read once.
 */
Test(compaction, costly_direct_reclaim_reclaims_enough_for_compaction)
{
	enum nlru_mode modes[] = {NLRU_MODE_NODE, NLRU_MODE_ZONE};
	const uint64_t file_bytes = 40 << 20;
	const unsigned int order = 9;

	make_file(test_path("cache"), file_bytes, 2);
	for (int m = 0; m < 2; m++) {
		for (long compaction = 0; compaction <= 1; compaction++) {
			struct nlru_engine *eng = mode_engine(modes[m], compaction, 0);
			unsigned long reclaimed;
			struct nlru_file *f;
			char buf[65536];

			cr_assert_eq(nlru_file_open(eng, test_path("cache"), O_RDONLY, 0, 0, &f),
				     0);
			for (uint64_t off = 0; off < file_bytes; off += sizeof(buf))
				cr_assert_eq(nlru_file_pread(f, buf, sizeof(buf), off),
					     (long)sizeof(buf));
			reclaimed = direct_reclaim_for(eng, order);
			cr_log_info("mode %d, compaction %ld: %lu pages reclaimed", m, compaction,
				    reclaimed);
			if (compaction)
				cr_expect_geq(reclaimed, 2ul << order,
					      "mode %d: %lu reclaimed for an order-%u block", m,
					      reclaimed, order);
			else
				cr_expect(reclaimed >= SWAP_CLUSTER_MAX && reclaimed < 2ul << order,
					  "mode %d without compaction: %lu reclaimed", m,
					  reclaimed);
			cr_assert_eq(nlru_file_close(f), 0);
			destroy_engine(eng);
		}
	}
}

/*
 * compaction_ready() (node mode, 4.8's): a zone with 2^(order+1) pages free above its high
 * watermark and compaction able to run is left to compaction: direct reclaim for a costly
 * order scans nothing there and still reports progress, so that the allocation compacts
 * rather than fails.  Without compaction it reclaims, and so does zone mode, which leaves
 * 4.7's rule out (docs/design.md says why).  Normal is half free here, in single pages
 * between region pages that swap could free.
 */
Test(compaction, costly_direct_reclaim_leaves_a_zone_ready_for_compaction)
{
	enum nlru_mode modes[] = {NLRU_MODE_NODE, NLRU_MODE_ZONE};

	for (int m = 0; m < 2; m++) {
		for (long compaction = 0; compaction <= 1; compaction++) {
			struct nlru_engine *eng = mode_engine(modes[m], compaction, 64);
			struct nlru_region *region;
			unsigned long reclaimed;
			int64_t scanned;
			size_t n;

			cr_assert_eq(nlru_region_create(eng, 8192, 0, &region), 0);
			n = fragment_normal(eng, region, 8192, 0xd000);
			scanned = vmstat_value(eng, "pgscan_direct");
			reclaimed = direct_reclaim_for(eng, 9);
			scanned = vmstat_value(eng, "pgscan_direct") - scanned;
			if (compaction && modes[m] == NLRU_MODE_NODE) {
				cr_expect_eq(scanned, 0, "mode %d: %" PRId64 " pages scanned", m,
					     scanned);
				cr_expect_eq(reclaimed, 1, "mode %d: %lu reclaimed", m, reclaimed);
			} else {
				cr_expect_gt(scanned, 0, "mode %d, compaction %ld", m, compaction);
				cr_expect_gt(reclaimed, 0, "mode %d, compaction %ld", m,
					     compaction);
			}
			expect_region_data(region, n, 0xd000);
			cr_assert_eq(nlru_region_destroy(region), 0);
			destroy_engine(eng);
		}
	}
}
