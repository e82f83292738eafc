/* diff: deltas of events, levels of state, missing sides and counters that went down. */
#include <math.h>

#include "compare.h"
#include "diff.h"
#include "helpers.h"

TestSuite(diff, .timeout = 10);

static const struct diff_row *row(const struct diff_row *rows, long n, const char *name)
{
	for (long i = 0; i < n; i++)
		if (strcmp(rows[i].name, name) == 0)
			return &rows[i];
	return NULL;
}

Test(diff, events_states_and_missing_sides)
{
	struct vm_dump b, a;
	struct diff_row *rows;
	const struct diff_row *r;
	long n;

	dump_from(&b, "nr_free_pages 100\npgfault 10\npgscan_kswapd 50\nold_only 1\n", NULL);
	dump_from(&a, "nr_free_pages 80\npgfault 25\npgscan_kswapd 40\nnew_only 2\n", NULL);
	n = diff_rows(&b, &a, &rows);
	cr_assert_eq(n, 5, "AFTER's 4 names, then the one only BEFORE has");
	cr_expect_str_eq(rows[4].name, "old_only");
	r = row(rows, n, "pgfault");
	cr_expect_eq(r->kind, VM_EVENT);
	cr_expect_eq(r->delta, 15);
	cr_expect_eq(r->flag, DIFF_OK);
	r = row(rows, n, "nr_free_pages");
	cr_expect_eq(r->kind, VM_STATE);
	cr_expect_eq(r->delta, -20);
	cr_expect_eq(r->flag, DIFF_OK, "a level may go down");
	r = row(rows, n, "pgscan_kswapd");
	cr_expect_eq(r->flag, DIFF_DOWN);
	cr_expect_eq(row(rows, n, "new_only")->flag, DIFF_ONLY_AFTER);
	cr_expect_eq(row(rows, n, "old_only")->flag, DIFF_ONLY_BEFORE);
	free(rows);
	dump_fini(&b);
	dump_fini(&a);
}

Test(diff, text_shows_rates_dashes_and_flags)
{
	struct diff_opts o = {10.0, 0};
	struct vm_dump b, a;
	struct capture cap;
	const char *out;

	dump_from(&b, "nr_free_pages 100\npgfault 10\npgscan_kswapd 50\nsame 3\nold_only 1\n",
		  NULL);
	dump_from(&a, "nr_free_pages 80\npgfault 25\npgscan_kswapd 40\nsame 3\nnew_only 2\n", NULL);
	capture_open(&cap);
	cr_assert_eq(diff_print(&b, &a, &o, OUT_TEXT, cap.f), 0);
	out = capture_close(&cap);
	cr_expect_not_null(strstr(out, "pgfault                                                10"
				       "               25               15            1.500\n"),
			   "%s", out);
	cr_expect_not_null(strstr(out, "went down"), "%s", out);
	cr_expect_not_null(strstr(out, "new_only                                                -"),
			   "%s", out);
	cr_expect_not_null(strstr(out, "only in BEFORE"), "%s", out);
	cr_expect_null(strstr(out, "same"), "unchanged counters are hidden without --all:\n%s",
		       out);
	free(cap.buf);
	dump_fini(&b);
	dump_fini(&a);
}

Test(diff, csv_and_json_with_and_without_elapsed)
{
	struct diff_opts o = {NAN, 1};
	struct vm_dump b, a;
	struct capture cap;
	const char *out;

	dump_from(&b, "pgfault 10\nsame 3\n", NULL);
	dump_from(&a, "pgfault 25\nsame 3\n", NULL);
	capture_open(&cap);
	cr_assert_eq(diff_print(&b, &a, &o, OUT_CSV, cap.f), 0);
	out = capture_close(&cap);
	cr_expect_str_eq(out, "name,kind,before,after,delta,per_second,flag\n"
			      "pgfault,event,10,25,15,,\n"
			      "same,event,3,3,0,,\n");
	free(cap.buf);
	o.elapsed = 5;
	capture_open(&cap);
	cr_assert_eq(diff_print(&b, &a, &o, OUT_JSON, cap.f), 0);
	out = capture_close(&cap);
	cr_expect_not_null(strstr(out, "{\"name\":\"pgfault\",\"kind\":\"event\",\"before\":10,"
				       "\"after\":25,\"delta\":15,\"per_second\":3,\"flag\":null}"),
			   "%s", out);
	free(cap.buf);
	dump_fini(&b);
	dump_fini(&a);
}

/*
 * Event counters are unsigned: 10 -> 2^63 + 9 and 1 -> 2^63 + 1 are growth, 2^63 + 9 -> 10 a
 * reset.  diff's flag and the warning delta_check_down gives (for diff and compare) agree.
 */
Test(diff, went_down_is_one_unsigned_rule)
{
	static const char *const cases[][2] = {
		{"pgfault 10\n", "pgfault 9223372036854775817\n"},
		{"pgfault 1\n", "pgfault 9223372036854775809\n"},
		{"pgfault 9223372036854775817\n", "pgfault 10\n"},
	};
	static const int down[] = {0, 0, 1};

	for (size_t k = 0; k < sizeof(down) / sizeof(down[0]); k++) {
		struct vm_dump b, a;
		struct diff_row *rows;
		long n;

		dump_from(&b, cases[k][0], NULL);
		dump_from(&a, cases[k][1], NULL);
		n = diff_rows(&b, &a, &rows);
		cr_assert_eq(n, 1);
		cr_expect_eq(rows[0].flag == DIFF_DOWN, down[k], "diff, case %zu: %s -> %s", k,
			     cases[k][0], cases[k][1]);
		cr_expect_eq(delta_check_down(&b, &a, NULL, NULL, 0), (size_t)down[k],
			     "compare, case %zu: %s -> %s", k, cases[k][0], cases[k][1]);
		free(rows);
		dump_fini(&b);
		dump_fini(&a);
	}
}

/* An event counter past 2^63 prints unsigned in every format; a fall prints as '-' and its size. */
Test(diff, big_event_counters_print_unsigned)
{
	struct diff_opts o = {NAN, 1};
	struct vm_dump b, a;
	struct capture cap;
	const char *out;

	static const char after[] = "pgfault 9223372036854775809\npgscan_kswapd 10\n"
				    "nr_free_pages 18446744073709551615\n";

	dump_from(&b, "pgfault 1\npgscan_kswapd 9223372036854775817\nnr_free_pages 5\n", NULL);
	dump_from(&a, after, NULL);
	capture_open(&cap);
	cr_assert_eq(diff_print(&b, &a, &o, OUT_TEXT, cap.f), 0);
	out = capture_close(&cap);
	cr_expect_not_null(strstr(out, "\npgfault                                                 1"
				       " 9223372036854775809 9223372036854775808\n"),
			   "%s", out);
	cr_expect_not_null(strstr(out, "\npgscan_kswapd                            "
				       "9223372036854775817               10 "
				       "-9223372036854775807  !! went down\n"),
			   "%s", out);
	cr_expect_not_null(strstr(out, "nr_free_pages                                           5"
				       "               -1               -6\n"),
			   "%s", out);
	free(cap.buf);
	capture_open(&cap);
	cr_assert_eq(diff_print(&b, &a, &o, OUT_CSV, cap.f), 0);
	out = capture_close(&cap);
	cr_expect_not_null(strstr(out, "\npgfault,event,1,9223372036854775809,9223372036854775808,,"
				       "\n"),
			   "%s", out);
	free(cap.buf);
	o.elapsed = 1;
	capture_open(&cap);
	cr_assert_eq(diff_print(&b, &a, &o, OUT_JSON, cap.f), 0);
	out = capture_close(&cap);
	cr_expect_not_null(strstr(out, "\"before\":9223372036854775817,\"after\":10,"
				       "\"delta\":-9223372036854775807,"),
			   "%s", out);
	cr_expect_not_null(strstr(out, "\"per_second\":-9.223372036854776e+18"), "%s", out);
	free(cap.buf);
	dump_fini(&b);
	dump_fini(&a);
}

Test(diff, live_proc_vmstat_against_itself)
{
	struct vm_dump b, a;
	struct diag_log log;
	struct vm_diag diag = diag_for(&log);

	if (access("/proc/vmstat", R_OK) != 0)
		cr_skip_test("no /proc/vmstat on this machine");
	cr_assert_eq(dump_init(&b, "/proc/vmstat"), 0);
	cr_assert_eq(dump_load(&b, "/proc/vmstat", NULL), 0);
	cr_assert_eq(dump_init(&a, "/proc/vmstat"), 0);
	cr_assert_eq(dump_load(&a, "/proc/vmstat", NULL), 0);
	/* Event counters only grow on a running kernel: nothing may be flagged as going down. */
	cr_expect_eq(delta_check_down(&b, &a, &diag, NULL, 0), 0, "%s", log.text);
	dump_fini(&b);
	dump_fini(&a);
}
