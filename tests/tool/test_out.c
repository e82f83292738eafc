/* JSON and CSV escaping, and show's three formats. */
#include <math.h>

#include "helpers.h"
#include "out.h"
#include "show.h"

TestSuite(out, .timeout = 10);

Test(out, json_strings_and_numbers)
{
	struct capture cap;

	capture_open(&cap);
	out_json_str(cap.f, "a\"b\\c\nd\x01");
	fputc(' ', cap.f);
	out_json_num(cap.f, 0.1);
	fputc(' ', cap.f);
	out_json_num(cap.f, 100);
	fputc(' ', cap.f);
	out_json_num(cap.f, NAN);
	cr_expect_str_eq(capture_close(&cap), "\"a\\\"b\\\\c\\nd\\u0001\" 0.1 100 null");
	free(cap.buf);
}

Test(out, csv_fields)
{
	struct capture cap;

	capture_open(&cap);
	out_csv_str(cap.f, "plain");
	fputc(',', cap.f);
	out_csv_str(cap.f, "a,b");
	fputc(',', cap.f);
	out_csv_str(cap.f, "say \"hi\"");
	cr_expect_str_eq(capture_close(&cap), "plain,\"a,b\",\"say \"\"hi\"\"\"");
	free(cap.buf);
}

Test(out, show_groups_and_explains)
{
	struct vm_dump d;
	struct capture cap;
	const char *out;

	cr_assert_eq(dump_init(&d, DATA("vmstat-4.7-after")), 0);
	cr_assert_eq(dump_load(&d, DATA("vmstat-4.7-after"), NULL), 0);
	cr_assert_eq(dump_add(&d, "mystery_counter", 15, 3, 0), 0);
	capture_open(&cap);
	show_print(&d, OUT_TEXT, cap.f);
	out = capture_close(&cap);
	cr_expect_not_null(strstr(out, "allocation:\n"), "%s", out);
	cr_expect_not_null(strstr(out, "per-zone:\n"), "%s", out);
	cr_expect_not_null(
		strstr(out, "  pgscan_kswapd_normal                     11000  inactive list "
			    "pages scanned by kswapd (Linux 2.6-4.7) [part of pgscan_kswapd]\n"),
		"%s", out);
	cr_expect_not_null(strstr(out,
				  "  mystery_counter                              3  (unknown to "
				  "nlru-vmstat)\n"),
			   "%s", out);
	free(cap.buf);
	capture_open(&cap);
	show_print(&d, OUT_CSV, cap.f);
	out = capture_close(&cap);
	cr_expect_not_null(strstr(out, "\nallocstall,16,event,allocation,direct reclaim entries "
				       "(4.7: one global count),,2.6-4.7\n"),
			   "%s", out);
	free(cap.buf);
	capture_open(&cap);
	show_print(&d, OUT_JSON, cap.f);
	out = capture_close(&cap);
	cr_expect_not_null(strstr(out,
				  "{\"name\":\"mystery_counter\",\"value\":3,\"kind\":\"event\","
				  "\"group\":\"other\",\"help\":null,\"part_of\":null,"
				  "\"linux\":null}"),
			   "%s", out);
	free(cap.buf);
	dump_fini(&d);
}

/* Event counters are the kernel's unsigned long; only a state counter's level can be < 0. */
Test(out, counts_are_unsigned_for_events_signed_for_state)
{
	char b[OUT_COUNT_MAX];

	cr_expect_str_eq(out_count(b, 1, INT64_MIN + 1), "9223372036854775809");
	cr_expect_str_eq(out_count(b, 1, -1), "18446744073709551615");
	cr_expect_str_eq(out_count(b, 0, -1), "-1");
	cr_expect_str_eq(out_change(b, 1, 1, INT64_MIN + 1, 0), "9223372036854775808");
	cr_expect_str_eq(out_change(b, 1, 10, 25, 1), "+15");
	cr_expect_str_eq(out_change(b, 1, -1, 0, 0), "-18446744073709551615", "a fall, in full");
	cr_expect_str_eq(out_change(b, 0, 100, 80, 1), "-20");
	cr_expect_str_eq(out_change(b, 0, -5, 5, 1), "+10");
}

Test(out, show_prints_big_event_counters_unsigned)
{
	/* Indexed by enum out_fmt: text, JSON, CSV. */
	static const char *const want[] = {
		"  pgfault       9223372036854775809  page faults (Linux 2.6 on)\n",
		"{\"name\":\"pgfault\",\"value\":9223372036854775809,",
		"\npgfault,9223372036854775809,event,",
	};
	static const char *const minus_one[] = {" -1  ", "\"value\":-1,", ",-1,"};
	struct vm_dump d;
	struct capture cap;

	/* 2^63 + 1 faults, and a free-page count that drifted to -1 (printed 2^64 - 1). */
	dump_from(&d, "pgfault 9223372036854775809\nnr_free_pages 18446744073709551615\n", NULL);
	for (int fmt = OUT_TEXT; fmt <= OUT_CSV; fmt++) {
		const char *out;

		capture_open(&cap);
		show_print(&d, (enum out_fmt)fmt, cap.f);
		out = capture_close(&cap);
		cr_expect_not_null(strstr(out, want[fmt]), "format %d:\n%s", fmt, out);
		cr_expect_null(strstr(out, "-9223372036854775807"), "format %d:\n%s", fmt, out);
		cr_expect_not_null(strstr(out, minus_one[fmt]),
				   "the state counter stays signed, format %d:\n%s", fmt, out);
		free(cap.buf);
	}
	dump_fini(&d);
}
