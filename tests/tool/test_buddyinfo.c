/*
 * /proc/buddyinfo and /proc/pagetypeinfo: the hand-made two-node 4.8 pair (data/buddyinfo-4.8-*
 * and data/pagetypeinfo-4.8-*, from frag_show_print and pagetypeinfo_show's format strings),
 * a 6.x file with a capped count, CMA and the mixed-blocks table, real kernels' files
 * (data/real/), the format tests, malformed input, and show's and diff's output.
 */
#include <dirent.h>
#include <errno.h>

#include "buddyinfo.h"
#include "helpers.h"
#include "input.h"

TestSuite(buddyinfo, .timeout = 10);

static void load(struct buddyinfo *bi, const char *path)
{
	cr_assert_eq(buddyinfo_init(bi, path), 0);
	cr_assert_eq(buddyinfo_load(bi, path), 0, "%s: line %u: %s", path, bi->error_line,
		     bi->error);
}

/* Parse @text as @format: its error, with bi->error kept in @why (160 bytes). */
static int parse_text(const char *text, enum bi_format format, char *why, unsigned int *line)
{
	struct buddyinfo bi;
	int err;

	cr_assert_eq(buddyinfo_init(&bi, "test"), 0);
	err = buddyinfo_parse(&bi, format, text, strlen(text));
	snprintf(why, 160, "%s", bi.error);
	*line = bi.error_line;
	buddyinfo_fini(&bi);
	return err;
}

static int64_t zone_pages(const struct buddyinfo *bi, int node, const char *zone)
{
	struct bi_zone_sum s;

	buddyinfo_zone_sum(bi, node, zone, &s);
	return s.pages;
}

Test(buddyinfo, formats_are_told_by_their_first_line)
{
	static const char bi[] = "Node 0, zone      DMA      1      0 \n";
	static const char pti[] = "Page block order: 9\nPages per block:  512\n";
	static const char zi[] = "Node 0, zone      DMA\n  per-node stats\n";

	cr_expect(input_is_buddyinfo(bi, strlen(bi)));
	cr_expect_not(input_is_zoneinfo(bi, strlen(bi)), "a buddyinfo is no zoneinfo");
	cr_expect(input_is_pagetypeinfo(pti, strlen(pti)));
	cr_expect_not(input_is_buddyinfo(pti, strlen(pti)));
	cr_expect(input_is_zoneinfo(zi, strlen(zi)));
	cr_expect_not(input_is_buddyinfo(zi, strlen(zi)));
	cr_expect_not(input_is_pagetypeinfo(zi, strlen(zi)));
}

/*
 * data/buddyinfo-4.8-before: node 0 with DMA, DMA32 and Normal, node 1 with Normal.  Node 1's
 * Normal: 18235 + 2 * 8485 + 4 * 3372 + 8 * 1318 + 16 * 630 + 32 * 302 + 64 * 150 + 128 * 72
 * + 256 * 33 + 512 * 20 + 1024 * 1610 = 1765125 pages.
 */
Test(buddyinfo, linux_4_8_buddyinfo_of_two_nodes)
{
	struct buddyinfo bi;
	struct bi_zone_sum s;

	load(&bi, DATA("buddyinfo-4.8-before"));
	cr_expect_eq(bi.format, BI_BUDDYINFO);
	cr_expect_eq(bi.nr_orders, 11);
	cr_assert_eq(bi.nr_free, 4);
	cr_expect_str_eq(bi.free[1].zone, "DMA32");
	cr_expect_eq(bi.free[3].node, 1);
	cr_expect_eq(bi.free[2].count[0], 27635);
	cr_expect_eq(bi.free[3].count[10], 1610);
	buddyinfo_zone_sum(&bi, 1, "Normal", &s);
	cr_expect_eq(s.pages, 1765125);
	cr_expect_eq(s.largest, 10);
	cr_expect_not(s.lower_bound);
	cr_expect_eq(bi.nr_blocks, 0);
	buddyinfo_fini(&bi);
}

/* The pagetypeinfo of the same moment: one section per node, its types summing to buddyinfo. */
Test(buddyinfo, linux_4_8_pagetypeinfo_agrees_with_its_buddyinfo)
{
	struct buddyinfo bi, pti;

	load(&bi, DATA("buddyinfo-4.8-before"));
	load(&pti, DATA("pagetypeinfo-4.8-before"));
	cr_expect_eq(pti.format, BI_PAGETYPEINFO);
	cr_expect_eq(pti.pageblock_order, 9);
	cr_expect_eq(pti.pages_per_block, 512);
	cr_expect_eq(pti.nr_orders, 11);
	cr_assert_eq(pti.nr_types, 5);
	cr_expect_str_eq(pti.types[3], "HighAtomic");
	cr_expect_eq(pti.nr_free, 4 * 5);
	cr_assert_eq(pti.nr_blocks, 4);
	cr_expect_eq(pti.blocks[2].count[1], 5768, "node 0 Normal Movable pageblocks");
	cr_expect_eq(pti.blocks[3].node, 1);
	for (size_t i = 0; i < bi.nr_free; i++)
		cr_expect_eq(zone_pages(&pti, bi.free[i].node, bi.free[i].zone),
			     zone_pages(&bi, bi.free[i].node, bi.free[i].zone), "node %d %s",
			     bi.free[i].node, bi.free[i].zone);
	cr_expect_eq(pti.nr_mixed, 0);
	buddyinfo_fini(&bi);
	buddyinfo_fini(&pti);
}

/* data/pagetypeinfo-6.x-capped: Movable order 0 printed ">100000", CMA, the mixed table. */
Test(buddyinfo, a_capped_count_is_a_lower_bound)
{
	struct buddyinfo bi;
	struct bi_zone_sum s;
	const struct bi_free *mov;

	load(&bi, DATA("pagetypeinfo-6.x-capped"));
	cr_assert_eq(bi.nr_types, 6);
	cr_expect_str_eq(bi.types[4], "CMA");
	mov = buddyinfo_find_free(&bi, 0, "Normal", "Movable");
	cr_assert_not_null(mov);
	cr_expect_eq(mov->count[0], 100000);
	cr_expect_eq(mov->capped, 1u);
	buddyinfo_zone_sum(&bi, 0, "Normal", &s);
	cr_expect(s.lower_bound);
	cr_assert_eq(bi.nr_mixed, 1);
	cr_expect_eq(bi.mixed[0].count[1], 210);
	cr_expect_eq(bi.blocks[0].count[4], 64);
	buddyinfo_fini(&bi);
}

static int has_suffix(const char *name, const char *suffix)
{
	size_t n = strlen(name), k = strlen(suffix);

	return n > k && strcmp(name + n - k, suffix) == 0;
}

/* Every real buddyinfo and pagetypeinfo: 2.6.16, 3.2 (Reserve), 4.4 (CMA, order 10), 4.18, 6.18. */
Test(buddyinfo, every_real_kernels_file_is_read)
{
	DIR *dir = opendir(DATA("real"));
	int files = 0;

	cr_assert_not_null(dir);
	for (struct dirent *e; (e = readdir(dir));) {
		char path[512];
		struct buddyinfo bi;

		if (!has_suffix(e->d_name, ".buddyinfo") && !has_suffix(e->d_name, ".pagetypeinfo"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", DATA("real"), e->d_name);
		load(&bi, path);
		cr_expect_eq(bi.format,
			     has_suffix(e->d_name, ".buddyinfo") ? BI_BUDDYINFO : BI_PAGETYPEINFO,
			     "%s", e->d_name);
		cr_expect_eq(bi.nr_orders, 11, "%s", e->d_name);
		cr_expect(bi.format == BI_BUDDYINFO || bi.nr_blocks > 0, "%s", e->d_name);
		buddyinfo_fini(&bi);
		files++;
	}
	closedir(dir);
	cr_expect_geq(files, 11);
}

Test(buddyinfo, older_and_newer_kernels_types_and_pageblocks)
{
	struct buddyinfo bi;

	load(&bi, DATA("real/linux-3.2.0-ubuntu-x86_64.pagetypeinfo"));
	cr_expect_eq(buddyinfo_type_index(&bi, "Reserve"), 3);
	cr_expect_eq(buddyinfo_type_index(&bi, "HighAtomic"), -1);
	cr_expect_not_null(buddyinfo_find_free(&bi, 0, "Normal", "Reserve"));
	buddyinfo_fini(&bi);
	load(&bi, DATA("real/linux-4.4.0-xilinx-armv7-cma.pagetypeinfo"));
	cr_expect_eq(bi.pageblock_order, 10);
	cr_expect_eq(bi.pages_per_block, 1024);
	cr_expect_eq(bi.blocks[0].count[buddyinfo_type_index(&bi, "CMA")], 4);
	buddyinfo_fini(&bi);
}

/*
 * The engine's own dumps (data/engine-node-*-after): two 32 MiB nodes after 6000 allocations
 * of orders 0 to 3 of the three types, a third freed.  Node 0's Normal has no order-9 or -10
 * block left; each zone's types sum to its buddyinfo line, as both come from one free list.
 */
Test(buddyinfo, the_engines_dumps_are_read)
{
	struct buddyinfo bi, pti;
	struct bi_zone_sum s;

	load(&bi, DATA("engine-node-buddyinfo-after"));
	load(&pti, DATA("engine-node-pagetypeinfo-after"));
	cr_expect_eq(bi.nr_free, 3);
	cr_expect_eq(pti.nr_types, 4);
	cr_expect_str_eq(pti.types[3], "HighAtomic");
	cr_expect_eq(pti.nr_blocks, 3);
	buddyinfo_zone_sum(&bi, 0, "Normal", &s);
	cr_expect_eq(s.largest, 8);
	cr_expect_eq(s.pages, 2640);
	for (size_t i = 0; i < bi.nr_free; i++)
		cr_expect_eq(zone_pages(&pti, bi.free[i].node, bi.free[i].zone),
			     zone_pages(&bi, bi.free[i].node, bi.free[i].zone), "node %d %s",
			     bi.free[i].node, bi.free[i].zone);
	buddyinfo_fini(&bi);
	buddyinfo_fini(&pti);
}

/* Malformed input: refused with the line and what is wrong, never skipped. */
Test(buddyinfo, malformed_input_is_refused_with_a_reason)
{
	static const struct {
		enum bi_format format;
		const char *text, *why;
		unsigned int line;
	} cases[] = {
		{BI_BUDDYINFO, "Node 0, zone DMA 1 2 x\n", "'x' is not a count", 1},
		{BI_BUDDYINFO, "Node 0, zone DMA 1 2 3\nNode 0, zone Normal 1 2\n", "2 counts", 2},
		{BI_BUDDYINFO, "Node 0, zone DMA 1\nNode 0, zone DMA 2\n", "printed twice", 2},
		{BI_BUDDYINFO, "Node x, zone DMA 1\n", "not a node number", 1},
		{BI_BUDDYINFO, "Node 0, zona DMA 1\n", "expected 'Node N, zone NAME'", 1},
		{BI_BUDDYINFO, "Node 0, zone DMA 99999999999999999999999\n", "out of range", 1},
		{BI_BUDDYINFO, "Node 0, zone DMA 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17\n",
		 "17 orders", 1},
		{BI_BUDDYINFO, "Node 0, zone DMA >\n", "is not a count", 1},
		{BI_BUDDYINFO, "\n\n", "no 'Node N, zone NAME' line", 0},
		{BI_PAGETYPEINFO, "Page block order: 9\nNode 0, zone DMA 1 2\n",
		 "before any table's header", 2},
		{BI_PAGETYPEINFO, "Page block order: x\n", "'x' is not a count", 1},
		{BI_PAGETYPEINFO, "Page block order: 9\nhello world\n", "not a line of", 2},
		{BI_PAGETYPEINFO,
		 "Free pages count per migrate type at order 0 1\nNode 0, zone DMA, kind A 1 2\n",
		 "expected 'type NAME'", 2},
		{BI_PAGETYPEINFO,
		 "Free pages count per migrate type at order 0 1\nNode 0, zone DMA type A 1 2\n",
		 "expected 'zone,'", 2},
		{BI_PAGETYPEINFO, "Free pages count per migrate type at order 0 2\n", "order '2'",
		 1},
		{BI_PAGETYPEINFO,
		 "Free pages count per migrate type at order 0\nNode 0, zone DMA, type A 1\n"
		 "Number of blocks type A B\nNode 0, zone DMA 1\n",
		 "1 counts where the table has 2 types", 4},
		{BI_PAGETYPEINFO,
		 "Free pages count per migrate type at order 0\nNode 0, zone DMA, type A 1\n"
		 "Number of blocks type A\nNode 0, zone DMA >5\n",
		 "never capped", 4},
		{BI_PAGETYPEINFO, "Number of blocks type A B\nNumber of mixed blocks A C\n",
		 "where an earlier", 2},
		{BI_PAGETYPEINFO,
		 "Free pages count per migrate type at order 0\nNode 0, zone DMA, type A 1\n"
		 "Node 0, zone DMA, type B 1\nNode 0, zone DMA, type C 1\n"
		 "Node 0, zone DMA, type D 1\nNode 0, zone DMA, type E 1\n"
		 "Node 0, zone DMA, type F 1\nNode 0, zone DMA, type G 1\n"
		 "Node 0, zone DMA, type H 1\nNode 0, zone DMA, type I 1\n",
		 "more than 8 migrate types", 10},
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char why[160];
		unsigned int line;

		cr_expect_eq(parse_text(cases[i].text, cases[i].format, why, &line), -EBADMSG,
			     "case %zu", i);
		cr_expect(strstr(why, cases[i].why), "case %zu: '%s', want '%s'", i, why,
			  cases[i].why);
		cr_expect_eq(line, cases[i].line, "case %zu", i);
	}
}

Test(buddyinfo, a_long_line_or_many_words_are_refused)
{
	char text[2048], why[160];
	unsigned int line;
	size_t n = (size_t)snprintf(text, sizeof(text), "Node 0, zone DMA");

	while (n < 1500)
		n += (size_t)snprintf(text + n, sizeof(text) - n, " 1");
	cr_expect_eq(parse_text(text, BI_BUDDYINFO, why, &line), -EBADMSG);
	cr_expect(strstr(why, "longer than"), "%s", why);
	snprintf(text, sizeof(text), "Node 0, zone DMA%s\n",
		 " 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8"
		 " 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8");
	cr_expect_eq(parse_text(text, BI_BUDDYINFO, why, &line), -EBADMSG);
	cr_expect(strstr(why, "more than 40 words"), "%s", why);
}

Test(buddyinfo, neither_format_is_refused_before_parsing)
{
	struct buddyinfo bi;

	cr_assert_eq(buddyinfo_init(&bi, NULL), 0);
	cr_expect_eq(buddyinfo_load(&bi, DATA("zoneinfo-4.8")), -EMEDIUMTYPE);
	cr_expect_eq(buddyinfo_load(&bi, DATA("vmstat-4.8-after")), -EMEDIUMTYPE);
	buddyinfo_fini(&bi);
}

static char *show(const char *path, enum out_fmt fmt)
{
	struct buddyinfo bi;
	struct capture c;

	load(&bi, path);
	capture_open(&c);
	cr_expect_eq(buddyinfo_show(&bi, fmt, c.f), 0);
	capture_close(&c);
	buddyinfo_fini(&bi);
	return c.buf;
}

Test(buddyinfo, show_prints_each_zone_with_its_totals)
{
	char *out = show(DATA("buddyinfo-4.8-before"), OUT_TEXT);

	cr_expect(strstr(out, "Node 1, zone Normal: 1765125 free pages, largest free order 10\n"),
		  "%s", out);
	cr_expect(strstr(out, "  blocks         18235    8485    3372"), "%s", out);
	cr_expect(strstr(out, "  pages          18235   16970   13488"), "%s", out);
	cr_expect(strstr(out, "All zones: "), "%s", out);
	free(out);

	out = show(DATA("pagetypeinfo-4.8-before"), OUT_TEXT);
	cr_expect(strstr(out, "pageblock order 9, 512 pages per block"), "%s", out);
	cr_expect(strstr(out, "  Reclaimable     3302    1877     640"), "%s", out);
	cr_expect(strstr(out, "  pageblocks: Unmovable 310, Movable 5768, Reclaimable 66, "
			      "HighAtomic 2, Isolate 0\n"),
		  "%s", out);
	free(out);

	out = show(DATA("pagetypeinfo-6.x-capped"), OUT_TEXT);
	cr_expect(strstr(out, "  Movable      >100000   61533"), "%s", out);
	cr_expect(strstr(out, "Node 0, zone Normal: >="), "%s", out);
	cr_expect(strstr(out, "  mixed pageblocks: Unmovable 37, Movable 210"), "%s", out);
	free(out);
}

Test(buddyinfo, show_json_and_csv)
{
	char *out = show(DATA("pagetypeinfo-6.x-capped"), OUT_JSON);

	cr_expect(strstr(out, "\"format\":\"pagetypeinfo\",\"orders\":11,\"pageblock_order\":9"),
		  "%s", out);
	cr_expect(strstr(out, "\"type\":\"Movable\",\"blocks\":[100000,61533"), "%s", out);
	cr_expect(strstr(out, "\"capped_orders\":[0]"), "%s", out);
	cr_expect(strstr(out, "\"free_pages_lower_bound\":true"), "%s", out);
	free(out);
	out = show(DATA("buddyinfo-4.8-before"), OUT_CSV);
	cr_expect(strncmp(out, "table,node,zone,type,order,count,capped,pages\n", 46) == 0, "%s",
		  out);
	cr_expect(strstr(out, "\nfree,1,Normal,,10,1610,0,1648640\n"), "%s", out);
	free(out);
}

static char *diff(const char *before, const char *after, int all, enum out_fmt fmt)
{
	struct diff_opts o = {0, all};
	struct buddyinfo b, a;
	struct capture c;
	const char *why = NULL;

	load(&b, before);
	load(&a, after);
	capture_open(&c);
	cr_expect_eq(buddyinfo_diff(&b, &a, &o, fmt, c.f, &why), 0, "%s", why);
	capture_close(&c);
	buddyinfo_fini(&b);
	buddyinfo_fini(&a);
	return c.buf;
}

/*
 * From -before to -after: node 0's Normal lost its large Movable blocks (order 10: 122 -> 40)
 * to small ones and took 8 more Unmovable pageblocks; node 1's Normal gave 5 order-10 Movable
 * blocks to Reclaimable ones (order 0: 2110 -> 2506) and 5 pageblocks with them.
 */
Test(buddyinfo, diff_shows_what_changed_per_order_and_type)
{
	char *out =
		diff(DATA("pagetypeinfo-4.8-before"), DATA("pagetypeinfo-4.8-after"), 0, OUT_TEXT);

	cr_expect_null(strstr(out, "zone DMA"), "unchanged zones are left out:\n%s", out);
	cr_expect(strstr(out, "  Movable        +7631   +2924    +699    +118     +15     -11"
			      "     -18     -19     -11      -7     -82"),
		  "%s", out);
	cr_expect(strstr(out, "  Reclaimable     +396    +189     +25      +5       0"), "%s", out);
	cr_expect(
		strstr(out, "  pageblocks: Unmovable 310 -> 318 (+8), Movable 5768 -> 5760 (-8)\n"),
		"%s", out);
	cr_expect(
		strstr(out, "  pageblocks: Movable 7832 -> 7827 (-5), Reclaimable 48 -> 53 (+5)\n"),
		"%s", out);
	cr_expect_null(strstr(out, "  HighAtomic"), "unchanged types are left out:\n%s", out);
	free(out);

	out = diff(DATA("buddyinfo-4.8-before"), DATA("buddyinfo-4.8-after"), 1, OUT_TEXT);
	cr_expect(strstr(out, "Node 0, zone DMA: 3135 -> 3135 free pages (0)"), "%s", out);
	free(out);
	out = diff(DATA("buddyinfo-4.8-before"), DATA("buddyinfo-4.8-before"), 0, OUT_TEXT);
	cr_expect(strstr(out, "no change\n"), "%s", out);
	free(out);
}

Test(buddyinfo, diff_json_csv_and_a_zone_in_one_file_only)
{
	char *out =
		diff(DATA("pagetypeinfo-4.8-before"), DATA("pagetypeinfo-6.x-capped"), 0, OUT_JSON);

	cr_expect(strstr(out, "\"zone\":\"DMA\",\"only_in\":\"before\""), "%s", out);
	cr_expect(strstr(out, "\"type\":\"CMA\",\"before\":null"), "%s", out);
	cr_expect(strstr(out, "\"change\":[null,"), "a capped count's change is unknown:\n%s", out);
	free(out);
	out = diff(DATA("buddyinfo-4.8-before"), DATA("buddyinfo-4.8-after"), 0, OUT_CSV);
	cr_expect(strstr(out, "\nfree,1,Normal,,10,1610,1605,-5\n"), "%s", out);
	free(out);
}

Test(buddyinfo, diff_refuses_two_formats)
{
	struct diff_opts o = {0, 0};
	struct buddyinfo b, a;
	const char *why = NULL;

	load(&b, DATA("buddyinfo-4.8-before"));
	load(&a, DATA("pagetypeinfo-4.8-after"));
	cr_expect_eq(buddyinfo_diff(&b, &a, &o, OUT_TEXT, stderr, &why), -EINVAL);
	cr_expect(why && strstr(why, "one file is a buddyinfo"), "%s", why);
	buddyinfo_fini(&b);
	buddyinfo_fini(&a);
}
