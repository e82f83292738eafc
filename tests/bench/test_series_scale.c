/*
 * The series' time scale for stutter (bench/series_scale.c): the watermark_scale_factor that
 * gives an engine's DMA32 the series' 786-page gap, worked by hand, and checked on a real
 * engine's watermarks.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nodelru/nodelru.h>

#include "series_scale.h"

/* DMA32 is 25 % of node 0: 8192 pages at 128 MiB, 786 * 10000 / 8192 = 959.5, rounded. */
Test(series_scale, factor_gives_the_series_gap)
{
	cr_expect_eq(series_watermark_scale_factor(128), 959);
	cr_expect_eq(series_watermark_scale_factor(512), 240);
	cr_expect_eq(series_watermark_scale_factor(1024), 120);
	/* A DMA32 too small for the gap at the largest factor the kernel allows. */
	cr_expect_eq(series_watermark_scale_factor(16), 1000);
	/* One larger than the series' gap needs less than the default 10, but at least 1. */
	cr_expect_eq(series_watermark_scale_factor(1l << 20), 1);
}

Test(series_scale, tunables_are_what_the_rule_says)
{
	char buf[SERIES_SCALE_SETS][48];
	const char *sets[SERIES_SCALE_SETS + 1];

	series_scale_tunables(512, buf, sets);
	cr_expect_str_eq(sets[0], "dma32_pct=25");
	cr_expect_str_eq(sets[1], "watermark_scale_factor=240");
	cr_expect_str_eq(sets[2], "blkdev_mbs=150");
	cr_expect_null(sets[3]);
}

/* On an engine of 128 MiB the rule's factor makes DMA32's low - min and high - low 785 pages. */
Test(series_scale, an_engine_gets_the_gap)
{
	char buf[SERIES_SCALE_SETS][48];
	const char *sets[SERIES_SCALE_SETS + 1];
	struct nlru_zone_info info = {.size = sizeof(info), .version = NLRU_ZONE_INFO_VERSION};
	struct nlru_engine *eng;
	struct nlru_config cfg;

	nlru_config_init(&cfg);
	cfg.node_mib = 128;
	cfg.swap_mib = 0;
	cfg.topology = "pack:1 numa:1 core:1 pu:1";
	series_scale_tunables(128, buf, sets);
	for (int i = 0; sets[i]; i++) {
		char name[48];
		const char *eq = strchr(sets[i], '=');

		snprintf(name, sizeof(name), "%.*s", (int)(eq - sets[i]), sets[i]);
		cr_assert_eq(nlru_config_set(&cfg, name, eq + 1), 0, "%s", sets[i]);
	}
	cfg.blkdev_mbs = 0; /* the gap is the question here, not the disk */
	cr_assert_eq(nlru_engine_create(&cfg, &eng), 0);
	cr_assert_eq(nlru_zone_info(eng, 0, NLRU_ZONE_DMA32, &info), 0);
	cr_expect_eq(info.managed, 8192);
	cr_expect_eq(info.wmark_low - info.wmark_min, 785);
	cr_expect_eq(info.wmark_high - info.wmark_low, 785);
	cr_assert_eq(nlru_engine_destroy(eng), 0);
}
