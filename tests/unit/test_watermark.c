/*
 * Watermarks, lowmem reserves and pcp sizes against the Linux formulas worked by hand
 * (init_per_zone_wmark_min, __setup_per_zone_wmarks, setup_per_zone_lowmem_reserve and
 * zone_batchsize in mm/page_alloc.c; docs/kernel-reclaim.md, "Watermarks and reserves").
 */
#include <criterion/criterion.h>

#include "gfp.h"
#include "helpers.h"
#include "watermark.h"

TestSuite(watermark, .timeout = 30);

struct expect_zone {
	int nid, zid;
	unsigned long min, low, high;
	long protection[NLRU_MAX_NR_ZONES];
	int pcp_high, pcp_batch;
};

static void check_zone(struct nlru_engine *eng, const struct expect_zone *e)
{
	struct zone *zone = &NODE_DATA(eng, e->nid)->node_zones[e->zid];
	int high, batch;

	cr_expect_eq(zone->watermark[WMARK_MIN], e->min, "node %d zone %d min %lu, want %lu",
		     e->nid, e->zid, zone->watermark[WMARK_MIN], e->min);
	cr_expect_eq(zone->watermark[WMARK_LOW], e->low, "node %d zone %d low %lu, want %lu",
		     e->nid, e->zid, zone->watermark[WMARK_LOW], e->low);
	cr_expect_eq(zone->watermark[WMARK_HIGH], e->high, "node %d zone %d high %lu, want %lu",
		     e->nid, e->zid, zone->watermark[WMARK_HIGH], e->high);
	for (int j = 0; j < NLRU_MAX_NR_ZONES; j++)
		cr_expect_eq(zone->lowmem_reserve[j], e->protection[j],
			     "node %d zone %d protection[%d] %ld, want %ld", e->nid, e->zid, j,
			     zone->lowmem_reserve[j], e->protection[j]);
	zone_pcp_sizes(eng, zone, &high, &batch);
	cr_expect_eq(high, e->pcp_high, "zone %d pcp high %d, want %d", e->zid, high, e->pcp_high);
	cr_expect_eq(batch, e->pcp_batch, "zone %d pcp batch %d, want %d", e->zid, batch,
		     e->pcp_batch);
}

/*
 * 64 MiB, one node: DMA32 4096 pages, Normal 12288.
 * lowmem_kbytes = 16384 pages * 4 = 65536; int_sqrt(65536 * 16) = 1024 KiB -> pages_min 256.
 * DMA32:  tmp = 256 * 4096 / 16384 = 64;   gap = max(64/4, 4096*10/10000=4) = 16.
 * Normal: tmp = 256 * 12288 / 16384 = 192; gap = max(48, 12) = 48.
 * DMA32 protects 12288 / 256 = 48 pages from Normal and Movable classzones; DMA would
 * protect 16384 / 256 = 64 but is empty.
 * zone_batchsize: DMA32 4096/1024 = 4, /4 = 1, rounddown_pow_of_two(1) - 1 = 0 -> high 0,
 * batch 1; Normal 12 -> 3 -> rounddown_pow_of_two(4) - 1 = 3 -> high 18, batch 3.
 */
Test(watermark, engine_of_64_mib)
{
	struct nlru_engine *eng = test_engine(64, NULL);
	struct expect_zone zones[] = {
		{0, ZONE_DMA32, 64, 80, 96, {0, 0, 48, 48}, 0, 1},
		{0, ZONE_NORMAL, 192, 240, 288, {0, 0, 0, 0}, 18, 3},
	};

	cr_expect_eq(nlru_min_free_kbytes(eng), 1024);
	for (size_t i = 0; i < sizeof(zones) / sizeof(zones[0]); i++)
		check_zone(eng, &zones[i]);
	cr_expect_eq(NODE_DATA(eng, 0)->node_zones[ZONE_DMA].lowmem_reserve[ZONE_MOVABLE], 64);
	destroy_engine(eng);
}

/*
 * 1 GiB, one node: DMA32 65536 pages, Normal 196608.
 * int_sqrt(1048576 * 16) = 4096 KiB (Linux's own 1 GiB reference point) -> pages_min 1024.
 * DMA32:  tmp = 256; gap = max(64, 65) = 65 -> 256, 321, 386.
 * Normal: tmp = 768; gap = max(192, 196) = 196 -> 768, 964, 1160.
 * DMA32 protection from Normal: 196608 / 256 = 768.
 * Batches: Normal 192 capped to 128 (512 KiB), /4 = 32, rounddown(48) - 1 = 31 -> high 186;
 * DMA32 64 -> 16 -> rounddown(24) - 1 = 15 -> high 90.
 */
Test(watermark, engine_of_1_gib)
{
	struct nlru_engine *eng = test_engine(1024, NULL);
	struct expect_zone zones[] = {
		{0, ZONE_DMA32, 256, 321, 386, {0, 0, 768, 768}, 90, 15},
		{0, ZONE_NORMAL, 768, 964, 1160, {0, 0, 0, 0}, 186, 31},
	};

	cr_expect_eq(nlru_min_free_kbytes(eng), 4096);
	for (size_t i = 0; i < sizeof(zones) / sizeof(zones[0]); i++)
		check_zone(eng, &zones[i]);
	destroy_engine(eng);
}

/*
 * Two emulated nodes of 32 MiB: node 0 DMA32 2048 + Normal 6144, node 1 Normal 8192.
 * The min is shared over all zones of all nodes: lowmem 16384 pages -> 1024 KiB -> 256 pages.
 * node 0 DMA32: tmp = 32, gap = max(8, 2) = 8; Normal: tmp = 96, gap = 24;
 * node 1 Normal: tmp = 128, gap = 32.  DMA32 protection: 6144 / 256 = 24.
 * Batches: node 0 Normal 6144/1024 = 6, /4 = 1, rounddown(1) - 1 = 0 -> high 0, batch 1;
 * node 1 Normal 8, /4 = 2, rounddown(3) - 1 = 1 -> high 6, batch 1.
 */
Test(watermark, two_nodes_share_the_minimum)
{
	struct nlru_engine *eng = test_engine(32, "pack:2 numa:1 core:1 pu:1");
	struct expect_zone zones[] = {
		{0, ZONE_DMA32, 32, 40, 48, {0, 0, 24, 24}, 0, 1},
		{0, ZONE_NORMAL, 96, 120, 144, {0, 0, 0, 0}, 0, 1},
		{1, ZONE_NORMAL, 128, 160, 192, {0, 0, 0, 0}, 6, 1},
	};

	cr_expect_eq(nlru_min_free_kbytes(eng), 1024);
	for (size_t i = 0; i < sizeof(zones) / sizeof(zones[0]); i++)
		check_zone(eng, &zones[i]);
	destroy_engine(eng);
}

/*
 * Tunables: min_free_kbytes 4096 -> pages_min 1024; watermark_scale_factor 1000 (10%);
 * lowmem_reserve_ratio_dma32 128; percpu_pagelist_fraction 8.
 * DMA32:  tmp = 1024 * 4096 / 16384 = 256;  gap = max(64, 409) = 409 -> 256, 665, 1074.
 * Normal: tmp = 768; gap = max(192, 1228) = 1228 -> 768, 1996, 3224.
 * DMA32 protection 12288 / 128 = 96.  pcp: high = managed / 8, batch = high / 4 capped at 96.
 */
Test(watermark, tunables_change_the_marks)
{
	struct nlru_engine *eng;
	struct nlru_config cfg;

	test_config(&cfg, 64, NULL);
	cfg.min_free_kbytes = 4096;
	cfg.watermark_scale_factor = 1000;
	cfg.lowmem_reserve_ratio_dma32 = 128;
	cfg.percpu_pagelist_fraction = 8;
	cr_assert_eq(nlru_engine_create(&cfg, &eng), 0, "%s", test_log_last);
	struct expect_zone zones[] = {
		{0, ZONE_DMA32, 256, 665, 1074, {0, 0, 96, 96}, 512, 96},
		{0, ZONE_NORMAL, 768, 1996, 3224, {0, 0, 0, 0}, 1536, 96},
	};
	cr_expect_eq(nlru_min_free_kbytes(eng), 4096);
	for (size_t i = 0; i < sizeof(zones) / sizeof(zones[0]); i++)
		check_zone(eng, &zones[i]);
	destroy_engine(eng);
}

Test(watermark, int_sqrt_is_exact)
{
	unsigned long cases[][2] = {
		{0, 0},          {1, 1},           {3, 1},           {4, 2},
		{1048576, 1024}, {16777216, 4096}, {16777215, 4095}, {~0ul, 4294967295ul}};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		cr_expect_eq(int_sqrt(cases[i][0]), cases[i][1], "int_sqrt(%lu) = %lu", cases[i][0],
			     int_sqrt(cases[i][0]));
}

/* __zone_watermark_ok: "<=" fails, ALLOC_HIGH halves, ALLOC_HARDER takes a further quarter. */
Test(watermark, watermark_ok_rules)
{
	struct nlru_engine *eng = test_engine(64, NULL);
	struct zone *dma32 = &NODE_DATA(eng, 0)->node_zones[ZONE_DMA32];

	/* mark 80 with classzone DMA32 (reserve 0) */
	cr_expect_not(__zone_watermark_ok(dma32, 0, 80, ZONE_DMA32, 0, 80));
	cr_expect(__zone_watermark_ok(dma32, 0, 80, ZONE_DMA32, 0, 81));
	/* classzone Normal adds the 48-page protection */
	cr_expect_not(__zone_watermark_ok(dma32, 0, 80, ZONE_NORMAL, 0, 128));
	cr_expect(__zone_watermark_ok(dma32, 0, 80, ZONE_NORMAL, 0, 129));
	/* ALLOC_HIGH: min 80 -> 40; with ALLOC_HARDER too: 40 -> 30 */
	cr_expect(__zone_watermark_ok(dma32, 0, 80, ZONE_DMA32, ALLOC_HIGH, 41));
	cr_expect_not(__zone_watermark_ok(dma32, 0, 80, ZONE_DMA32, ALLOC_HIGH, 40));
	cr_expect(__zone_watermark_ok(dma32, 0, 80, ZONE_DMA32, ALLOC_HIGH | ALLOC_HARDER, 31));
	cr_expect_not(__zone_watermark_ok(dma32, 0, 80, ZONE_DMA32, ALLOC_HIGH | ALLOC_HARDER, 30));
	/* order 2 first subtracts 3 pages from free, then needs a free block of order >= 2 */
	cr_expect_not(__zone_watermark_ok(dma32, 2, 80, ZONE_DMA32, 0, 83));
	cr_expect(__zone_watermark_ok(dma32, 2, 80, ZONE_DMA32, 0, 84));
	cr_expect_not(__zone_watermark_ok(dma32, 11 - 1, 80, ZONE_DMA32, 0, 100000) &&
		      dma32->free_area[10].nr_free == 0);
	destroy_engine(eng);
}
