/* Configuration: defaults, NLRU_* environment, setting by name, growth by size. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "swap.h"

TestSuite(config, .timeout = 30);

Test(config, defaults_come_from_the_tunable_table)
{
	struct nlru_tunable_info info;
	struct nlru_config cfg;
	unsigned int n = 0;

	nlru_config_init(&cfg);
	cr_expect_eq(cfg.size, sizeof(cfg));
	cr_expect_eq(cfg.version, NLRU_CONFIG_VERSION);
	cr_expect_null(cfg.topology);
	cr_expect_eq(cfg.node_mib, 64);
	cr_expect_eq(cfg.dma32_pct, 25);
	cr_expect_eq(cfg.watermark_scale_factor, 10);
	cr_expect_eq(cfg.lowmem_reserve_ratio_dma32, 256);
	cr_expect_eq(cfg.lowmem_reserve_ratio_normal, 32);
	for (; nlru_tunable_info(n, &info) == 0; n++) {
		long v;
		char text[32];

		/* Every tunable can be set by name to its default, which is within range. */
		snprintf(text, sizeof(text), "%ld", info.def);
		cr_expect_eq(nlru_config_set(&cfg, info.name, text), 0, "%s", info.name);
		cr_expect(info.def >= info.min && info.def <= info.max, "%s", info.name);
		cr_expect_eq(strncmp(info.env, "NLRU_", 5), 0);
		v = 0;
		for (const char *c = info.env + 5; *c; c++)
			v += *c >= 'a' && *c <= 'z';
		cr_expect_eq(v, 0, "%s is all capitals", info.env);
		/* docs/tuning.md's "Linux counterpart" column comes from here. */
		cr_expect(info.help[0] == '[' && strchr(info.help, ']'),
			  "%s: help should start with its Linux counterpart in [brackets]",
			  info.name);
	}
	cr_expect_geq(n, 10);
	cr_expect_eq(nlru_tunable_info(n, &info), -ENOENT);
	cr_expect_eq(nlru_tunable_info(0, NULL), -EINVAL, "a NULL info is a bad argument");
}

Test(config, environment_sets_the_defaults)
{
	struct nlru_config cfg;

	setenv("NLRU_NODE_MIB", "12", 1);
	setenv("NLRU_WATERMARK_SCALE_FACTOR", "0x20", 1);
	setenv("NLRU_DMA32_PCT", "banana", 1); /* ignored: not a number */
	setenv("NLRU_MOVABLE_PCT", "101", 1);  /* ignored: out of range */
	setenv("NLRU_TOPOLOGY", "pack:2 numa:1 core:1 pu:1", 1);
	nlru_config_init(&cfg);
	cr_expect_eq(cfg.node_mib, 12);
	cr_expect_eq(cfg.watermark_scale_factor, 32);
	cr_expect_eq(cfg.dma32_pct, 25);
	cr_expect_eq(cfg.movable_pct, 0);
	cr_expect_str_eq(cfg.topology, "pack:2 numa:1 core:1 pu:1");
	/* What the program sets afterwards wins over the environment. */
	cr_assert_eq(nlru_config_set(&cfg, "node_mib", "8"), 0);
	cfg.topology = NULL;
	struct nlru_engine *eng;
	cr_assert_eq(nlru_engine_create(&cfg, &eng), 0);
	cr_expect_eq(nlru_engine_nr_nodes(eng), 1);
	destroy_engine(eng);
	unsetenv("NLRU_NODE_MIB");
	unsetenv("NLRU_WATERMARK_SCALE_FACTOR");
	unsetenv("NLRU_DMA32_PCT");
	unsetenv("NLRU_MOVABLE_PCT");
	unsetenv("NLRU_TOPOLOGY");
}

Test(config, set_by_name)
{
	struct nlru_config cfg;

	test_config(&cfg, 8, NULL);
	cr_expect_eq(nlru_config_set(&cfg, "movable_pct", "30"), 0);
	cr_expect_eq(cfg.movable_pct, 30);
	cr_expect_eq(nlru_config_set(&cfg, "topology", "pack:4 numa:1 pu:1"), 0);
	cr_expect_str_eq(cfg.topology, "pack:4 numa:1 pu:1");
}

/* Decimal, leading zeros and all, or hex with an explicit 0x: never octal. */
Test(config, values_are_decimal_or_0x_hex)
{
	static const struct {
		const char *name, *text;
		int ret;
		long value;
	} cases[] = {
		{"swappiness", "010", 0, 10},      {"swappiness", "09", 0, 9},
		{"swappiness", "0", 0, 0},         {"swappiness", "0x10", 0, 16},
		{"swappiness", "0X1f", 0, 31},     {"swap_mib", "-1", 0, -1},
		{"swap_mib", "-01", 0, -1},        {"swappiness", "0x", -EINVAL, 0},
		{"swappiness", "0b1", -EINVAL, 0}, {"swappiness", "1e1", -EINVAL, 0},
	};
	struct nlru_config cfg;
	long *field;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		test_config(&cfg, 8, NULL);
		field = strcmp(cases[i].name, "swap_mib") ? &cfg.swappiness : &cfg.swap_mib;
		*field = 7;
		cr_expect_eq(nlru_config_set(&cfg, cases[i].name, cases[i].text), cases[i].ret,
			     "%s=\"%s\"", cases[i].name, cases[i].text);
		cr_expect_eq(*field, cases[i].ret ? 7 : cases[i].value, "%s=\"%s\" gives %ld",
			     cases[i].name, cases[i].text, *field);
	}
	setenv("NLRU_SWAPPINESS", "010", 1);
	setenv("NLRU_DIRTY_RATIO", "09", 1);
	nlru_config_init(&cfg);
	unsetenv("NLRU_SWAPPINESS");
	unsetenv("NLRU_DIRTY_RATIO");
	cr_expect_eq(cfg.swappiness, 10, "NLRU_SWAPPINESS=010 is ten, not octal 8");
	cr_expect_eq(cfg.dirty_ratio, 9, "NLRU_DIRTY_RATIO=09 is nine, not a bad octal number");
}

/* swap_mib -1 is twice the engine's memory, but no more than the largest swap file. */
Test(config, default_swap_is_capped_at_the_largest_swap_file)
{
	const uint64_t max = (uint64_t)NLRU_SWAP_MIB_MAX << 8;

	cr_expect_eq(swap_pages_wanted(-1, 2048), 4096);
	cr_expect_eq(swap_pages_wanted(-1, max / 2), max);
	cr_expect_eq(swap_pages_wanted(-1, max / 2 + 1), max, "twice is one page more than fits");
	cr_expect_eq(swap_pages_wanted(-1, 64 * ((uint64_t)NLRU_NODE_MIB_MAX << 8)), max,
		     "64 of the largest nodes");
	cr_expect_leq(max, SWAP_MAX_PAGES);
	cr_expect_eq(swap_pages_wanted(0, 2048), 0);
	cr_expect_eq(swap_pages_wanted(NLRU_SWAP_MIB_MAX, 2048), max);
}

/* The mode takes words as well as numbers, from the environment and by name. */
Test(config, mode_accepts_node_and_zone)
{
	struct nlru_config cfg;
	struct nlru_engine *eng;

	setenv("NLRU_MODE", "zone", 1);
	nlru_config_init(&cfg);
	unsetenv("NLRU_MODE");
	cr_expect_eq(cfg.mode, NLRU_MODE_ZONE);
	cr_expect_eq(nlru_config_set(&cfg, "mode", "node"), 0);
	cr_expect_eq(cfg.mode, NLRU_MODE_NODE);
	cr_expect_eq(nlru_config_set(&cfg, "mode", "4.7"), 0);
	cr_expect_eq(cfg.mode, NLRU_MODE_ZONE);
	cr_expect_eq(nlru_config_set(&cfg, "mode", "ZONE"), 0);
	cr_expect_eq(nlru_config_set(&cfg, "mode", "1"), 0);
	cr_expect_eq(nlru_config_set(&cfg, "mode", "node-ish"), -EINVAL);
	cr_expect_eq(nlru_config_set(&cfg, "mode", "2"), -EINVAL);
	cr_expect_eq(nlru_config_set(&cfg, "node_mib", "zone"), -EINVAL,
		     "words belong to one tunable");
	cr_expect_eq(cfg.mode, NLRU_MODE_ZONE);
	test_config(&cfg, 8, NULL);
	cfg.mode = NLRU_MODE_ZONE;
	cr_assert_eq(nlru_engine_create(&cfg, &eng), 0, "%s", test_log_last);
	cr_expect_eq(nlru_engine_mode(eng), NLRU_MODE_ZONE);
	destroy_engine(eng);
	cr_expect_eq(nlru_engine_mode(NULL), NLRU_MODE_NODE);
}

/* A program built against an older, shorter struct: fields past its size keep defaults. */
Test(config, shorter_struct_gets_defaults_for_the_rest)
{
	struct nlru_config cfg;
	struct nlru_engine *eng;
	struct nlru_zone_info zi = {.size = sizeof(zi), .version = NLRU_ZONE_INFO_VERSION};

	test_config(&cfg, 8, NULL);
	cfg.dma32_pct = 50;
	cfg.size = offsetof(struct nlru_config, dma32_pct);
	cr_assert_eq(nlru_engine_create(&cfg, &eng), 0, "%s", test_log_last);
	cr_assert_eq(nlru_zone_info(eng, 0, NLRU_ZONE_DMA32, &zi), 0);
	cr_expect_eq(zi.managed, 2048 / 4, "dma32_pct was past the caller's size: default 25%%");
	destroy_engine(eng);
}

/* Zone layout: low zones on node 0 only, Movable everywhere, Normal takes the rest. */
Test(config, zone_layout_follows_the_percentages)
{
	struct nlru_engine *eng;
	struct nlru_config cfg;
	struct nlru_zone_info zi = {.size = sizeof(zi), .version = NLRU_ZONE_INFO_VERSION};
	uint64_t want[2][4] = {{0, 0, 0, 1024}, {0, 0, 3072, 1024}};

	test_config(&cfg, 16, "pack:2 numa:1 core:1 pu:1");
	cfg.dma_pct = 12;
	cfg.dma32_pct = 13;
	cfg.movable_pct = 25;
	cr_assert_eq(nlru_engine_create(&cfg, &eng), 0, "%s", test_log_last);
	/* 4096 pages: DMA 12% = 491, DMA32 13% = 532, Movable 25% = 1024, Normal the rest */
	want[0][0] = 4096 * 12 / 100;
	want[0][1] = 4096 * 13 / 100;
	want[0][2] = 4096 - want[0][0] - want[0][1] - 1024;
	for (int nid = 0; nid < 2; nid++)
		for (int zid = 0; zid < 4; zid++) {
			cr_assert_eq(nlru_zone_info(eng, nid, zid, &zi), 0);
			cr_expect_eq(zi.managed, want[nid][zid], "node %d zone %d: %lu pages", nid,
				     zid, (unsigned long)zi.managed);
		}
	destroy_engine(eng);
}
