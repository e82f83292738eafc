/*
 * Dirty spreading (NLRU_GFP_WRITE, Linux's __GFP_WRITE): the per-node (4.8 node_dirty_limit)
 * and per-zone (4.7 zone_dirty_limit) limits worked by hand, the fast path passing over a
 * node (node mode) or zone (zone mode) over its limit for pages about to be dirtied and only
 * for those, and the page cache asking for them when it writes but not when it reads.
 *
 * Dirty pages are counted by hand here (the counters nr_dirty and nr_writeback, put back
 * before the engine goes), so that each rule is met at its exact edge.
 */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <string.h>

#include "helpers.h"
#include "page_writeback.h"
#include "vmstat.h"
#include "watermark.h"

TestSuite(dirty_spread, .fini = test_remove_dir, .timeout = 60);

/* One 16 MiB node (DMA32 1024 pages, Normal 3072), or two (node 1: Normal 4096). */
static struct nlru_engine *spread_engine(enum nlru_mode mode, const char *topology)
{
	struct nlru_engine *eng;
	struct nlru_config cfg;

	run_in_mode(mode);
	test_config(&cfg, 16, topology);
	cfg.swap_mib = 0;
	cfg.kswapd = 0;
	cfg.flusher = 0;
	cr_assert_eq(nlru_engine_create(&cfg, &eng), 0, "%s", test_log_last);
	return eng;
}

static struct zone *zone_of(struct nlru_engine *eng, int nid, int zid)
{
	return &NODE_DATA(eng, nid)->node_zones[zid];
}

/* The zone of an engine address. */
static int zone_of_addr(struct nlru_engine *eng, const void *addr)
{
	int nid = nlru_addr_node(eng, addr, 1);
	struct pglist_data *pgdat = NODE_DATA(eng, nid);

	return (int)page_zonenum(&pgdat->pages[((const char *)addr - pgdat->mem) >> PAGE_SHIFT]);
}

/*
 * Count @delta more pages of @item (nr_dirty, nr_writeback) on @zone: on its node, and in
 * zone mode on the zone's own copy too, as the page cache counts them.
 */
static void count_on(struct nlru_engine *eng, struct zone *zone, enum nlru_node_stat_item item,
		     long delta)
{
	mod_node_page_state(zone->zone_pgdat, item, delta);
	if (nlru_engine_mode(eng) == NLRU_MODE_ZONE)
		atomic_fetch_add(&zone->zm->vm_node_stat[item], delta);
}

/* Allocate one page with @gfp from node 0 on: its node * 10 + zone, and keep it in *@p. */
static int where(struct nlru_engine *eng, unsigned int gfp, void **p)
{
	cr_assert_eq(nlru_alloc_pages(eng, gfp, 0, 0, p), 0, "%s", test_log_last);
	return nlru_addr_node(eng, *p, 1) * 10 + zone_of_addr(eng, *p);
}

/*
 * A fresh engine of one 16 MiB node: every page free, no file pages.  Watermarks (see
 * test_zone_mode.c): DMA32 high 48, Normal high 144; DMA32 keeps 3072 / 256 = 12 pages from
 * Normal-classzone requests.  Reserves (calculate_totalreserve_pages): DMA32 48 + 12 = 60,
 * Normal 144 + 0, the node 204.  With dirty_ratio 20:
 *   4.7 zone_dirty_limit:  DMA32  20 * (1024 - 60) / 100  = 192 (192.8)
 *                          Normal 20 * (3072 - 144) / 100 = 585 (585.6)
 *   4.8 node_dirty_limit:  20 * (4096 - 204) / 100 = 778 (778.4)
 * File LRU pages count as dirtyable too: 100 of them on Normal raise its limit by 20.
 */
Test(dirty_spread, limits_by_hand)
{
	enum nlru_mode modes[] = {NLRU_MODE_NODE, NLRU_MODE_ZONE};

	for (int m = 0; m < 2; m++) {
		struct nlru_engine *eng = spread_engine(modes[m], NULL);
		struct zone *dma32 = zone_of(eng, 0, ZONE_DMA32),
			    *normal = zone_of(eng, 0, ZONE_NORMAL);

		cr_assert_eq(zone_page_state(dma32, NLRU_NR_FREE_PAGES), 1024);
		cr_assert_eq(zone_page_state(normal, NLRU_NR_FREE_PAGES), 3072);
		cr_assert_eq(high_wmark_pages(normal), 144);
		cr_expect_eq(dma32->zm->totalreserve_pages, 60);
		cr_expect_eq(normal->zm->totalreserve_pages, 144);
		cr_expect_eq(NODE_DATA(eng, 0)->totalreserve_pages, 204);
		cr_expect_eq(zone_dirty_limit(eng, dma32), 192);
		cr_expect_eq(zone_dirty_limit(eng, normal), 585);
		cr_expect_eq(node_dirty_limit(eng, NODE_DATA(eng, 0)), 778);
		mod_zone_page_state(normal, NLRU_NR_ZONE_INACTIVE_FILE, 60);
		mod_zone_page_state(normal, NLRU_NR_ZONE_ACTIVE_FILE, 40);
		mod_node_page_state(NODE_DATA(eng, 0), NLRU_NR_INACTIVE_FILE, 60);
		mod_node_page_state(NODE_DATA(eng, 0), NLRU_NR_ACTIVE_FILE, 40);
		cr_expect_eq(zone_dirty_limit(eng, normal), 605);
		cr_expect_eq(node_dirty_limit(eng, NODE_DATA(eng, 0)), 798);
		mod_zone_page_state(normal, NLRU_NR_ZONE_INACTIVE_FILE, -60);
		mod_zone_page_state(normal, NLRU_NR_ZONE_ACTIVE_FILE, -40);
		mod_node_page_state(NODE_DATA(eng, 0), NLRU_NR_INACTIVE_FILE, -60);
		mod_node_page_state(NODE_DATA(eng, 0), NLRU_NR_ACTIVE_FILE, -40);
		destroy_engine(eng);
	}
}

/*
 * Zone mode (4.7 zone_dirty_ok): Normal at its limit still takes a page about to be dirtied;
 * one dirty page more (or one page under writeback) and such pages come from DMA32, while a
 * plain allocation still comes from Normal.  With both zones over, the fast path finds none
 * and the slow path, which ignores the limits, takes Normal.
 */
Test(dirty_spread, zone_mode_passes_over_a_zone_over_its_limit)
{
	struct nlru_engine *eng = spread_engine(NLRU_MODE_ZONE, NULL);
	struct zone *dma32 = zone_of(eng, 0, ZONE_DMA32), *normal = zone_of(eng, 0, ZONE_NORMAL);
	const unsigned int write = NLRU_GFP_HIGHUSER_MOVABLE | NLRU_GFP_WRITE;
	void *p[5];

	count_on(eng, normal, NLRU_NR_FILE_DIRTY, 585);
	cr_expect_eq(where(eng, write, &p[0]), ZONE_NORMAL, "at the limit: still Normal");
	count_on(eng, normal, NLRU_NR_WRITEBACK, 1);
	cr_expect_eq(where(eng, write, &p[1]), ZONE_DMA32, "over the limit: DMA32");
	cr_expect_eq(where(eng, NLRU_GFP_HIGHUSER_MOVABLE, &p[2]), ZONE_NORMAL,
		     "not about to be dirtied: Normal");
	count_on(eng, dma32, NLRU_NR_FILE_DIRTY, 193);
	cr_expect_eq(where(eng, write, &p[3]), ZONE_NORMAL, "both over: the slow path's Normal");
	cr_expect_eq(vmstat_value(eng, "pgalloc_dma32"), 1);
	for (int i = 0; i < 4; i++)
		cr_assert_eq(nlru_free_pages(eng, p[i], 0), 0);
	count_on(eng, normal, NLRU_NR_FILE_DIRTY, -585);
	count_on(eng, normal, NLRU_NR_WRITEBACK, -1);
	count_on(eng, dma32, NLRU_NR_FILE_DIRTY, -193);
	destroy_engine(eng);
}

/*
 * Node mode (4.8 node_dirty_ok): the limit is the node's, so a node over it is passed over
 * whole, DMA32 included, for the next node; a plain allocation stays.  Where no other node
 * will do, the slow path takes the page over the limit anyway.
 */
Test(dirty_spread, node_mode_passes_over_a_node_over_its_limit)
{
	struct nlru_engine *eng = spread_engine(NLRU_MODE_NODE, "pack:2 numa:1 core:1 pu:1");
	struct zone *normal0 = zone_of(eng, 0, ZONE_NORMAL),
		    *normal1 = zone_of(eng, 1, ZONE_NORMAL);
	const unsigned int write = NLRU_GFP_HIGHUSER_MOVABLE | NLRU_GFP_WRITE;
	unsigned long limit0 = node_dirty_limit(eng, NODE_DATA(eng, 0));
	unsigned long limit1 = node_dirty_limit(eng, NODE_DATA(eng, 1));
	void *p[5];

	cr_assert_eq(eng->nr_nodes, 2);
	count_on(eng, normal0, NLRU_NR_FILE_DIRTY, (long)limit0);
	cr_expect_eq(where(eng, write, &p[0]), ZONE_NORMAL, "at the limit: still node 0");
	count_on(eng, normal0, NLRU_NR_FILE_DIRTY, 1);
	cr_expect_eq(where(eng, write, &p[1]), 10 + ZONE_NORMAL, "over the limit: node 1");
	cr_expect_eq(where(eng, NLRU_GFP_KERNEL | NLRU_GFP_DMA32 | NLRU_GFP_WRITE, &p[2]),
		     ZONE_DMA32, "DMA32 only on node 0: the slow path takes it over the limit");
	cr_expect_eq(where(eng, NLRU_GFP_HIGHUSER_MOVABLE, &p[3]), ZONE_NORMAL,
		     "not about to be dirtied: node 0");
	count_on(eng, normal1, NLRU_NR_WRITEBACK, (long)limit1 + 1);
	cr_expect_eq(where(eng, write, &p[4]), ZONE_NORMAL, "both over: the slow path's node 0");
	for (int i = 0; i < 5; i++)
		cr_assert_eq(nlru_free_pages(eng, p[i], 0), 0);
	count_on(eng, normal0, NLRU_NR_FILE_DIRTY, -(long)limit0 - 1);
	count_on(eng, normal1, NLRU_NR_WRITEBACK, -(long)limit1 - 1);
	destroy_engine(eng);
}

/* Page cache pages of node @nid's zone @zid (its zone copy in zone mode, its node's else). */
static long file_pages(struct nlru_engine *eng, int nid, int zid)
{
	if (nlru_engine_mode(eng) == NLRU_MODE_ZONE)
		return zone_node_page_state(zone_of(eng, nid, zid), NLRU_NR_FILE_PAGES);
	return node_page_state(NODE_DATA(eng, nid), NLRU_NR_FILE_PAGES);
}

/*
 * The page cache asks for NLRU_GFP_WRITE for the pages it writes into (whole pages, a
 * partial page, a pinned page to be written), and not for pages it reads (nor the pages read
 * ahead of a partial write).  Zone mode with Normal over its limit: written pages land on
 * DMA32; node mode with node 0 over its limit: on node 1.
 */
Test(dirty_spread, page_cache_writes_spread_reads_do_not)
{
	enum nlru_mode modes[] = {NLRU_MODE_ZONE, NLRU_MODE_NODE};
	static char buf[2 * 4096];

	memset(buf, 7, sizeof(buf));
	make_file(test_path("old"), 4 * PAGE_SIZE, 3);
	for (int m = 0; m < 2; m++) {
		bool zone_mode = modes[m] == NLRU_MODE_ZONE;
		struct nlru_engine *eng =
			spread_engine(modes[m], zone_mode ? NULL : "pack:2 numa:1 core:1 pu:1");
		struct zone *normal = zone_of(eng, 0, ZONE_NORMAL);
		/* Where pages about to be dirtied go, and where the others stay. */
		int spread_nid = zone_mode ? 0 : 1,
		    spread_zid = zone_mode ? ZONE_DMA32 : ZONE_NORMAL;
		long over = zone_mode ? (long)zone_dirty_limit(eng, normal) + 1
				      : (long)node_dirty_limit(eng, NODE_DATA(eng, 0)) + 1;
		struct nlru_file *out, *in;
		void *addr;

		cr_assert_eq(nlru_file_open(eng, test_path("new"), O_RDWR | O_CREAT | O_TRUNC, 0600,
					    0, &out),
			     0);
		cr_assert_eq(nlru_file_open(eng, test_path("old"), O_RDONLY, 0, 0, &in), 0);
		count_on(eng, normal, NLRU_NR_FILE_DIRTY, over);
		/* Two whole pages, a partial one, a page pinned for writing. */
		cr_expect_eq(nlru_file_pwrite(out, buf, 2 * PAGE_SIZE, 0), 2 * (long)PAGE_SIZE);
		cr_expect_eq(nlru_file_pwrite(out, buf, 100, 10 * PAGE_SIZE + 5), 100);
		cr_assert_eq(nlru_file_pin_page(out, 20, NLRU_PIN_WRITE, &addr), 0);
		cr_assert_eq(nlru_file_unpin_page(out, 20, 1), 0);
		cr_expect_eq(file_pages(eng, spread_nid, spread_zid), 4, "mode %d: written pages",
			     m);
		/* Reads, in order, so with readahead: every page read stays where reads go. */
		cr_expect_eq(nlru_file_pread(in, buf, 1, 0), 1);
		cr_expect_eq(nlru_file_pread(in, buf, 1, PAGE_SIZE), 1);
		cr_expect_gt(file_pages(eng, 0, ZONE_NORMAL), 1);
		cr_expect_eq(file_pages(eng, 0, ZONE_NORMAL),
			     vmstat_value(eng, "nr_file_pages") - 4, "mode %d: read pages %ld", m,
			     file_pages(eng, 0, ZONE_NORMAL));
		cr_expect_eq(file_pages(eng, spread_nid, spread_zid), 4);
		count_on(eng, normal, NLRU_NR_FILE_DIRTY, -over);
		cr_assert_eq(nlru_file_close(in), 0);
		cr_assert_eq(nlru_file_close(out), 0, "%s", test_log_last);
		destroy_engine(eng);
	}
}
