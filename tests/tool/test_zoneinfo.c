/* /proc/zoneinfo of 4.7, 4.8 (two nodes), 6.x and the live machine. */
#include <errno.h>

#include "helpers.h"
#include "zoneinfo.h"

TestSuite(zoneinfo, .timeout = 10);

static void load(struct zoneinfo *zi, const char *path, struct diag_log *log)
{
	struct vm_diag diag = diag_for(log);

	cr_assert_eq(zoneinfo_init(zi, path), 0);
	cr_assert_eq(zoneinfo_load(zi, path, &diag), 0, "%s", path);
}

static int64_t field(const struct zi_zone *z, const char *name)
{
	int64_t v = -12345;

	cr_expect_eq(dump_get(&z->fields, name, &v), 0, "%s of %s", name, z->name);
	return v;
}

Test(zoneinfo, linux_4_8_two_nodes_with_per_node_stats)
{
	struct diag_log log;
	struct zoneinfo zi;
	int64_t v;

	load(&zi, DATA("zoneinfo-4.8"), &log);
	cr_expect_eq(log.count, 0, "%s", log.text);
	cr_assert_eq(zi.nr_zones, 4);
	cr_assert_eq(zi.nr_nodes, 2);
	cr_expect_str_eq(zi.zones[1].name, "DMA32");
	cr_expect_eq(field(&zi.zones[0], "free"), 3976);
	cr_expect_eq(field(&zi.zones[0], "min"), 33);
	cr_expect_eq(field(&zi.zones[0], "high"), 49, "the watermark, not the pageset's high:");
	cr_expect_eq(field(&zi.zones[0], "managed"), 3976);
	cr_expect_eq(field(&zi.zones[0], "node_scanned"), 0);
	cr_expect_eq(field(&zi.zones[2], "start_pfn"), 1048576);
	cr_expect(zi.nodes[0].has_stats && zi.nodes[1].has_stats);
	cr_expect_eq(zoneinfo_node_lru(&zi, &zi.nodes[0], 2, &v), 0);
	cr_expect_eq(v, 512000, "node 0 inactive_file");
	cr_expect_eq(zoneinfo_zone_lru(&zi.zones[1], 2, &v), 0);
	cr_expect_eq(v, 20000, "DMA32 nr_zone_inactive_file");
	cr_expect_eq(zi.zones[3].node, 1);
	cr_expect_eq(zoneinfo_node_lru(&zi, &zi.nodes[1], 3, &v), 0);
	cr_expect_eq(v, 50000);
	zoneinfo_fini(&zi);
}

Test(zoneinfo, linux_4_7_lru_per_zone_summed_per_node)
{
	struct diag_log log;
	struct zoneinfo zi;
	int64_t v;

	load(&zi, DATA("zoneinfo-4.7"), &log);
	cr_expect_eq(log.count, 0, "%s", log.text);
	cr_assert_eq(zi.nr_zones, 3);
	cr_expect(!zi.nodes[0].has_stats);
	cr_expect_eq(field(&zi.zones[2], "scanned"), 0);
	cr_expect_eq(field(&zi.zones[2], "inactive_ratio"), 11);
	cr_expect_eq(zoneinfo_zone_lru(&zi.zones[2], 0, &v), 0);
	cr_expect_eq(v, 2311, "4.7 names it nr_inactive_anon, per zone");
	/* 0 (DMA) + 100 (DMA32) + 2311 (Normal) */
	cr_expect_eq(zoneinfo_node_lru(&zi, &zi.nodes[0], 0, &v), 0);
	cr_expect_eq(v, 2411);
	zoneinfo_fini(&zi);
}

Test(zoneinfo, linux_6x_and_the_live_file)
{
	static const char *const files[] = {DATA("zoneinfo-6.x"), "/proc/zoneinfo"};

	for (size_t i = 0; i < 2; i++) {
		struct diag_log log;
		struct zoneinfo zi;

		if (access(files[i], R_OK) != 0)
			continue;
		load(&zi, files[i], &log);
		cr_expect_eq(log.count, 0, "%s:\n%s", files[i], log.text);
		cr_expect_gt(zi.nr_zones, 0, "%s", files[i]);
		for (size_t z = 0; z < zi.nr_zones; z++) {
			int64_t free = field(&zi.zones[z], "free");
			int64_t managed = field(&zi.zones[z], "managed");

			cr_expect_leq(free, managed, "%s zone %s", files[i], zi.zones[z].name);
		}
		zoneinfo_fini(&zi);
	}
}

Test(zoneinfo, malformed_lines_are_reported_and_skipped)
{
	static const char text[] = "  pages free 5\n" /* 1: outside any zone */
				   "Node 0, zone   Normal\n"
				   "  pages free     100\n"
				   "        min      x\n" /* 4: not a number */
				   "        low      20\n"
				   "        low      21\n" /* 6: repeated */
				   "Node zero, zone DMA\n" /* 7: bad header */
				   "        high     9\n"  /* 8: belongs to no zone */
				   "Node 1, zone DMA32\n"
				   "        high     30\n"; /* 10: before "pages free" */
	struct diag_log log;
	struct vm_diag diag = diag_for(&log);
	struct zoneinfo zi;

	cr_assert_eq(zoneinfo_init(&zi, "t"), 0);
	cr_assert_eq(zoneinfo_parse(&zi, text, strlen(text), &diag), 0);
	cr_expect_eq(zi.nr_zones, 2);
	cr_expect_eq(field(&zi.zones[0], "low"), 20);
	cr_expect_eq(zi.nr_malformed, 6, "%s", log.text);
	cr_expect_not_null(strstr(log.text, "1: line outside any zone block"), "%s", log.text);
	cr_expect_not_null(strstr(log.text, "4: value is not a number"), "%s", log.text);
	cr_expect_not_null(strstr(log.text, "6: field repeated"), "%s", log.text);
	cr_expect_not_null(strstr(log.text, "7: bad zone header"), "%s", log.text);
	cr_expect_not_null(strstr(log.text, "10: expected 'per-node stats' or 'pages free'"), "%s",
			   log.text);
	zoneinfo_fini(&zi);
}

Test(zoneinfo, summary_text_and_csv)
{
	struct diag_log log;
	struct zoneinfo zi;
	struct capture cap;
	const char *out;

	load(&zi, DATA("zoneinfo-4.8"), &log);
	capture_open(&cap);
	zoneinfo_print(&zi, OUT_TEXT, cap.f);
	out = capture_close(&cap);
	cr_expect_not_null(strstr(out, "Node 1  LRU pages: inactive_anon 7 active_anon 9 "
				       "inactive_file 100000 active_file 50000 unevictable 0\n"),
			   "%s", out);
	cr_expect_not_null(
		strstr(out, "  DMA32         700000        7300        9125       10950"), "%s",
		out);
	free(cap.buf);
	capture_open(&cap);
	zoneinfo_print(&zi, OUT_CSV, cap.f);
	out = capture_close(&cap);
	cr_expect_not_null(strstr(out, "\n0,,,,,,,,,2411,40203,512000,256000,12\n"), "%s", out);
	cr_expect_not_null(strstr(out, "\n1,Normal,4000000,42000,52500,63000,4128000,4194304,"
				       "4194304,7,9,100000,50000,0\n"),
			   "%s", out);
	free(cap.buf);
	zoneinfo_fini(&zi);
}

/* A vmstat dump is refused before its first line is parsed: one error, no warning per line. */
Test(zoneinfo, not_a_zoneinfo_file)
{
	struct diag_log log;
	struct vm_diag diag = diag_for(&log);
	struct zoneinfo zi;

	cr_assert_eq(zoneinfo_init(&zi, NULL), 0);
	cr_expect_eq(zoneinfo_load(&zi, DATA("vmstat-4.8-after"), &diag), -EMEDIUMTYPE);
	cr_expect_eq(log.count, 0, "%s", log.text);
	zoneinfo_fini(&zi);
}
