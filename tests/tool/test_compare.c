/*
 * The mmtests vmstat summary: a 4.7 run against a 4.8 run (and a 6.x run) from the fixtures,
 * every derived row checked against a value computed by hand.
 *
 * Hand computation.  Deltas are AFTER - BEFORE of tests/tool/data/vmstat-4.{7,8}-{before,after};
 * both runs last 100 s.
 *
 *   4.7 (per-zone names)                         4.8 (global names, zoned stalls)
 *   pgscan_kswapd_dma32    0 -> 10000   10000     pgscan_kswapd     1000 -> 21000   20000
 *   pgscan_kswapd_normal 1000 -> 11000  10000     pgscan_direct        0 ->   400     400
 *   pgscan_direct_dma32    0 ->   200     200     pgsteal_kswapd     990 -> 20590   19600
 *   pgscan_direct_normal   0 ->   200     200     pgsteal_direct       0 ->   299     299
 *   pgsteal_kswapd_dma32   0 ->  9800    9800     allocstall_dma32     0 ->     4       4
 *   pgsteal_kswapd_normal 990 -> 10790   9800     allocstall_normal    1 ->    11      10
 *   pgsteal_direct_dma32   0 ->   150     150
 *   pgsteal_direct_normal  0 ->   149     149
 *   allocstall             2 ->    16      14
 *   Both: pgfault +200000, pgmajfault +100, pswpout +20, nr_vmscan_write +40.
 *
 *   K_scan  = 10000 + 10000 = 20000 (4.7)          = 20000 (4.8)
 *   D_scan  =   200 +   200 =   400                =   400
 *   K_steal =  9800 +  9800 = 19600                = 19600
 *   D_steal =   150 +   149 =   299                =   299
 *   Kswapd efficiency       = 19600 * 100 / 20000  = 98       -> "98%"
 *   Kswapd velocity         = 20000 / 100          = 200.000
 *   Direct efficiency       = 299 * 100 / 400      = 74.75    -> "74%" (truncated, Perl %d)
 *   Direct velocity         = 400 / 100            = 4.000
 *   Percentage direct scans = 400 * 100 / 20400    = 1.96...  -> "1%"
 *   Zone normal velocity    = 4.7: (10000 + 200) / 100 = 102.000
 *                             4.8: (20000 + 400) / 100 = 204.000 (global counters go to normal)
 *   Zone dma32 velocity     = 4.7: (10000 + 200) / 100 = 102.000; 4.8: no counter -> "-"
 *   Allocation stalls       = 4.7: 14; 4.8: 4 + 10 = 14 (mmtests 2016 would print 0 here)
 *   Minor Faults            = 200000 - 100 = 199900
 *   Page writes by reclaim  = 40, printed "40.000" (mmtests' format shift)
 *   Page writes file        = 40 - 20 = 20
 */
#include <math.h>

#include "compare.h"
#include "helpers.h"

TestSuite(compare, .timeout = 10);

struct runs {
	struct vm_dump d[6];
	struct cmp_run run[3];
};

static void load_pair(struct runs *r, int k, const char *name, const char *b, const char *a,
		      double elapsed)
{
	cr_assert_eq(dump_init(&r->d[2 * k], b), 0);
	cr_assert_eq(dump_load(&r->d[2 * k], b, NULL), 0, "%s", b);
	cr_assert_eq(dump_init(&r->d[2 * k + 1], a), 0);
	cr_assert_eq(dump_load(&r->d[2 * k + 1], a, NULL), 0, "%s", a);
	r->run[k] = (struct cmp_run){name, &r->d[2 * k], &r->d[2 * k + 1], elapsed};
}

static void load_runs(struct runs *r)
{
	load_pair(r, 0, "4.7.0-rc4-mmotm-20160623", DATA("vmstat-4.7-before"),
		  DATA("vmstat-4.7-after"), 100);
	load_pair(r, 1, "4.7.0-rc4-nodelru-v9", DATA("vmstat-4.8-before"), DATA("vmstat-4.8-after"),
		  100);
	load_pair(r, 2, "6.x", DATA("vmstat-6.x-before"), DATA("vmstat-6.x-after"), 150);
}

static void free_runs(struct runs *r)
{
	for (int i = 0; i < 6; i++)
		dump_fini(&r->d[i]);
}

static void expect_int(const struct cmp_table *t, const char *label, size_t run, int64_t want)
{
	const struct cmp_cell *c = compare_cell(t, label, run);

	cr_assert_not_null(c, "row %s", label);
	cr_expect(c->ok, "%s run %zu should be present", label, run);
	cr_expect_eq(c->i, want, "%s run %zu: %lld, want %lld", label, run, (long long)c->i,
		     (long long)want);
}

static void expect_vel(const struct cmp_table *t, const char *label, size_t run, double want)
{
	const struct cmp_cell *c = compare_cell(t, label, run);

	cr_assert_not_null(c, "row %s", label);
	cr_expect(c->ok, "%s run %zu should be present", label, run);
	cr_expect(fabs(c->f - want) < 1e-9, "%s run %zu: %f, want %f", label, run, c->f, want);
}

static void expect_missing(const struct cmp_table *t, const char *label, size_t run)
{
	const struct cmp_cell *c = compare_cell(t, label, run);

	cr_assert_not_null(c, "row %s", label);
	cr_expect(!c->ok, "%s run %zu should print '-'", label, run);
}

Test(compare, derived_rows_4_7_vs_4_8_match_the_hand_computation)
{
	struct cmp_table t;
	struct runs r;

	load_runs(&r);
	cr_assert_eq(compare_build(r.run, 2, 0, NULL, &t), 0);
	for (size_t k = 0; k < 2; k++) {
		expect_int(&t, "Minor Faults", k, 199900);
		expect_int(&t, "Kswapd pages scanned", k, 20000);
		expect_int(&t, "Direct pages scanned", k, 400);
		expect_int(&t, "Kswapd pages reclaimed", k, 19600);
		expect_int(&t, "Direct pages reclaimed", k, 299);
		expect_int(&t, "Kswapd efficiency", k, 98);
		expect_vel(&t, "Kswapd velocity", k, 200.0);
		expect_int(&t, "Direct efficiency", k, 74);
		expect_vel(&t, "Direct velocity", k, 4.0);
		expect_int(&t, "Percentage direct scans", k, 1);
		expect_int(&t, "Allocation stalls", k, 14);
		expect_int(&t, "Page writes by reclaim", k, 40);
		expect_int(&t, "Page writes file", k, 20);
	}
	expect_vel(&t, "Zone normal velocity", 0, 102.0);
	expect_vel(&t, "Zone dma32 velocity", 0, 102.0);
	expect_vel(&t, "Zone dma velocity", 0, 0.0);
	expect_vel(&t, "Zone normal velocity", 1, 204.0);
	expect_missing(&t, "Zone dma32 velocity", 1);
	expect_missing(&t, "Stall zone Normal", 0);
	expect_int(&t, "Stall zone Normal", 1, 10);
	expect_int(&t, "Stall zone DMA32", 1, 4);
	expect_missing(&t, "Page rescued immediate", 0);
	cr_expect_null(compare_cell(&t, "Pages skipped", 0), "extended rows need --extended");
	cr_expect_eq(t.nr_down[0] + t.nr_down[1], 0);
	compare_free(&t);
	free_runs(&r);
}

/*
 * 6.x run, 150 s: pgscan_kswapd +30000, pgsteal_kswapd +29000, no direct reclaim.
 * Kswapd efficiency = 29000 * 100 / 30000 = 96.67 -> 96%; velocity = 30000 / 150 = 200.000;
 * Direct efficiency = 100% (D_scan = 0, mmtests' rule); Percentage direct scans = 0%.
 * Workingset refaults = refault_anon +5 + refault_file +95 = 100; pgrefill +8000.
 */
Test(compare, a_6x_run_maps_split_counters)
{
	struct cmp_table t;
	struct runs r;

	load_runs(&r);
	cr_assert_eq(compare_build(r.run, 3, 1, NULL, &t), 0);
	expect_int(&t, "Kswapd efficiency", 2, 96);
	expect_vel(&t, "Kswapd velocity", 2, 200.0);
	expect_int(&t, "Direct efficiency", 2, 100);
	expect_int(&t, "Percentage direct scans", 2, 0);
	expect_int(&t, "Workingset refaults", 2, 100);
	expect_int(&t, "Workingset refaults", 0, 300);
	expect_int(&t, "Active pages scanned", 0, 12000);
	expect_int(&t, "Active pages scanned", 1, 12000);
	expect_int(&t, "Active pages scanned", 2, 8000);
	expect_missing(&t, "Pages skipped", 0); /* 4.7 has no pgskip_* */
	expect_int(&t, "Pages skipped", 1, 123);
	expect_missing(&t, "Workingset restores", 0);
	compare_free(&t);
	free_runs(&r);
}

Test(compare, text_layout_matches_mmtests)
{
	struct capture cap;
	struct cmp_table t;
	struct runs r;
	const char *out;

	load_runs(&r);
	cr_assert_eq(compare_build(r.run, 2, 0, NULL, &t), 0);
	capture_open(&cap);
	compare_print(&t, r.run, OUT_TEXT, cap.f);
	out = capture_close(&cap);
	/*
	 * The label column is as wide as "Compaction migrate scanned" (26), a row of the newer
	 * compaction counters the 4.7 dumps have (pgmigrate_success); values are %12.
	 */
	cr_expect(strncmp(out,
			  "                             4.7.0-rc4   4.7.0-rc4\n"
			  "                          mmotm-20160623  nodelru-v9\n"
			  "Minor Faults                    199900      199900\n",
			  strlen("                             4.7.0-rc4   4.7.0-rc4\n"
				 "                          mmotm-20160623  nodelru-v9\n"
				 "Minor Faults                    199900      199900\n")) == 0,
		  "%s", out);
	cr_expect_not_null(strstr(out, "\nKswapd efficiency                  98%         98%\n"),
			   "%s", out);
	cr_expect_not_null(strstr(out, "\nKswapd velocity                200.000     200.000\n"),
			   "%s", out);
	cr_expect_not_null(strstr(out, "\nPercentage direct scans             1%          1%\n"),
			   "%s", out);
	cr_expect_not_null(strstr(out, "\nZone dma32 velocity            102.000           -\n"),
			   "%s", out);
	cr_expect_not_null(strstr(out, "\nPage writes by reclaim          40.000      40.000\n"),
			   "%s", out);
	cr_expect_not_null(strstr(out, "\nPage writes file                    20          20\n"),
			   "%s", out);
	/* mmtests' rows after the reclaim ones: a missing counter is 0, the formats shifted. */
	cr_expect_not_null(strstr(out, "\nKswapd skipped wait                  -           -\n"
				       "THP fault alloc                      0           0\n"),
			   "%s", out);
	cr_expect_not_null(strstr(out, "\nPage migrate success                 0           0\n"),
			   "%s", out);
	cr_expect_null(strstr(out, "Compaction pages moved"), "%s", out);
	cr_expect_not_null(strstr(out, "\nNUMA alloc hit                  300000      300000\n"),
			   "%s", out);
	cr_expect_not_null(strstr(out, "\nNUMA hint local percent            100         100\n"),
			   "%s", out);
	cr_expect_not_null(strstr(out, "\nAutoNUMA cost                       0%          0%\n"),
			   "%s", out);
	free(cap.buf);
	compare_free(&t);
	free_runs(&r);
}

Test(compare, json_and_csv_carry_the_same_figures)
{
	struct capture cap;
	struct cmp_table t;
	struct runs r;
	const char *out;

	load_runs(&r);
	cr_assert_eq(compare_build(r.run, 2, 0, NULL, &t), 0);
	capture_open(&cap);
	compare_print(&t, r.run, OUT_CSV, cap.f);
	out = capture_close(&cap);
	cr_expect(strncmp(out, "row,4.7.0-rc4-mmotm-20160623,4.7.0-rc4-nodelru-v9\n", 50) == 0,
		  "%s", out);
	cr_expect_not_null(strstr(out, "\nKswapd efficiency,98,98\n"), "%s", out);
	cr_expect_not_null(strstr(out, "\nZone dma32 velocity,102.000,\n"), "%s", out);
	/* A page count: the text table's %12.3f is mmtests parity, not the figure's unit. */
	cr_expect_not_null(strstr(out, "\nPage writes by reclaim,40,40\n"), "%s", out);
	free(cap.buf);
	capture_open(&cap);
	compare_print(&t, r.run, OUT_JSON, cap.f);
	out = capture_close(&cap);
	cr_expect_not_null(strstr(out, "{\"label\":\"Direct efficiency\",\"unit\":\"percent\","
				       "\"values\":[74,74]}"),
			   "%s", out);
	cr_expect_not_null(strstr(out, "\"values\":[102,null]"), "%s", out);
	cr_expect_not_null(strstr(out, "{\"label\":\"Page writes by reclaim\",\"unit\":\"count\","
				       "\"values\":[40,40]}"),
			   "%s", out);
	cr_expect_not_null(strstr(out, "\"elapsed\":100"), "%s", out);
	free(cap.buf);
	compare_free(&t);
	free_runs(&r);
}

/* 20000 pages over 1e-305 s overflows to inf: JSON says null and CSV leaves the cell empty. */
Test(compare, an_infinite_velocity_is_no_json_number)
{
	struct capture cap;
	struct cmp_table t;
	struct runs r;
	const char *out;

	load_pair(&r, 0, "x", DATA("vmstat-4.8-before"), DATA("vmstat-4.8-after"), 1e-305);
	cr_assert_eq(compare_build(r.run, 1, 0, NULL, &t), 0);
	for (int fmt = OUT_JSON; fmt <= OUT_CSV; fmt++) {
		capture_open(&cap);
		compare_print(&t, r.run, (enum out_fmt)fmt, cap.f);
		out = capture_close(&cap);
		cr_expect_null(strstr(out, "inf"), "format %d:\n%s", fmt, out);
		cr_expect_not_null(strstr(out, fmt == OUT_JSON ? "\"Kswapd velocity\",\"unit\":"
								 "\"per_second\",\"values\":[null]"
							       : "\nKswapd velocity,\n"),
				   "format %d:\n%s", fmt, out);
		free(cap.buf);
	}
	compare_free(&t);
	dump_fini(&r.d[0]);
	dump_fini(&r.d[1]);
}

Test(compare, swapped_dumps_are_flagged)
{
	struct diag_log log;
	struct vm_diag diag = diag_for(&log);
	struct cmp_table t;
	struct runs r;
	struct cmp_run swapped;

	load_runs(&r);
	swapped = (struct cmp_run){"swapped", r.run[1].after, r.run[1].before, 100};
	cr_assert_eq(compare_build(&swapped, 1, 0, &diag, &t), 0);
	cr_expect_gt(t.nr_down[0], 10);
	cr_expect_not_null(strstr(log.text, "counter 'pgscan_kswapd' went down from 21000 to 1000"),
			   "%s", log.text);
	cr_expect_null(strstr(log.text, "'nr_free_pages'"), "state counters may go down");
	compare_free(&t);
	free_runs(&r);
}

Test(compare, went_down_warning_reads_event_counters_unsigned)
{
	struct vm_dump b, a;
	struct diag_log log;
	struct vm_diag diag = diag_for(&log);

	dump_from(&b, "pgfault 9223372036854775817\n", NULL);
	dump_from(&a, "pgfault 10\n", NULL);
	cr_expect_eq(delta_check_down(&b, &a, &diag, NULL, 0), 1);
	cr_expect_not_null(strstr(log.text, "went down from 9223372036854775817 to 10"), "%s",
			   log.text);
	dump_fini(&b);
	dump_fini(&a);
}

Test(compare, missing_counters_print_a_dash_not_zero)
{
	struct vm_dump b, a;
	struct diag_log log;
	struct vm_diag diag = diag_for(&log);
	struct cmp_run run = {"x", &b, &a, NAN};
	struct cmp_table t;

	dump_from(&b, "pgfault 10\npgscan_kswapd 5\npgsteal_kswapd 5\n", NULL);
	dump_from(&a, "pgfault 30\npgmajfault 1\npgscan_kswapd 5\npgsteal_kswapd 5\n", NULL);
	cr_assert_eq(compare_build(&run, 1, 0, &diag, &t), 0);
	expect_missing(&t, "Minor Faults", 0); /* pgmajfault only in AFTER */
	expect_missing(&t, "Major Faults", 0);
	expect_missing(&t, "Kswapd velocity", 0);    /* elapsed unknown */
	expect_int(&t, "Kswapd efficiency", 0, 100); /* K_scan = 0 -> 100 */
	expect_missing(&t, "Direct efficiency", 0);  /* no direct counter at all */
	cr_expect_not_null(strstr(log.text, "'pgmajfault' is in AFTER but not in BEFORE"), "%s",
			   log.text);
	compare_free(&t);
	dump_fini(&b);
	dump_fini(&a);
}

Test(compare, header_split_follows_mmtests)
{
	char l1[64], l2[64];

	compare_split_name("4.7.0-rc4-mmotm-20160623", l1, l2, sizeof(l1));
	cr_expect_str_eq(l1, "4.7.0-rc4");
	cr_expect_str_eq(l2, "mmotm-20160623");
	compare_split_name("4.8.0-nodelru", l1, l2, sizeof(l1));
	cr_expect_str_eq(l1, "4.8.0");
	cr_expect_str_eq(l2, "nodelru");
	compare_split_name("baseline", l1, l2, sizeof(l1));
	cr_expect_str_eq(l1, "baseline");
	cr_expect_str_eq(l2, "");
	compare_split_name("4.7.0-rc4", l1, l2, sizeof(l1));
	cr_expect_str_eq(l1, "4.7.0-rc4");
	cr_expect_str_eq(l2, "");
	/* "-rc<digit>" only right at the first '-' (Compare.pm looks further: vmstat-tool.md). */
	compare_split_name("4.7.0-foo-rc1", l1, l2, sizeof(l1));
	cr_expect_str_eq(l1, "4.7.0");
	cr_expect_str_eq(l2, "foo-rc1");
}

Test(compare, engine_dumps_of_both_modes_compare)
{
	struct runs r;
	struct cmp_table t;

	load_pair(&r, 0, "zone-mode", DATA("engine-zone-before"), DATA("engine-zone-after"), 100);
	load_pair(&r, 1, "node-mode", DATA("engine-node-before"), DATA("engine-node-after"), 100);
	cr_assert_eq(compare_build(r.run, 2, 0, NULL, &t), 0);
	expect_int(&t, "Kswapd efficiency", 0, 98);
	expect_int(&t, "Kswapd efficiency", 1, 98);
	expect_int(&t, "Allocation stalls", 0, 14);
	expect_int(&t, "Allocation stalls", 1, 14);
	compare_free(&t);
	for (int i = 0; i < 4; i++)
		dump_fini(&r.d[i]);
}
