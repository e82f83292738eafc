/* The dump parser and file input: fixtures of 4.7, 4.8, 6.x and the engine, bad lines, bad files.
 */
#include <errno.h>
#include <sys/stat.h>

#include "helpers.h"
#include "input.h"

TestSuite(parse, .timeout = 10);

static void load(struct vm_dump *d, const char *path, struct diag_log *log)
{
	struct vm_diag diag = diag_for(log);

	cr_assert_eq(dump_init(d, path), 0);
	cr_assert_eq(dump_load(d, path, &diag), 0, "loading %s", path);
}

Test(parse, fixture_4_8_has_global_reclaim_and_zoned_stalls)
{
	struct diag_log log;
	struct vm_dump d;
	int64_t v;

	load(&d, DATA("vmstat-4.8-after"), &log);
	cr_expect_eq(log.count, 0, "%s", log.text);
	cr_expect_eq(d.nr, 124);
	cr_expect_eq(dump_get(&d, "pgscan_kswapd", &v), 0);
	cr_expect_eq(v, 21000);
	cr_expect_eq(dump_get(&d, "allocstall_normal", &v), 0);
	cr_expect_eq(v, 11);
	cr_expect_eq(dump_get(&d, "allocstall", &v), -ENOENT);
	cr_expect_str_eq(d.v[0].name, "nr_free_pages", "file order is kept");
	dump_fini(&d);
}

Test(parse, fixture_4_7_has_per_zone_reclaim)
{
	struct diag_log log;
	struct vm_dump d;
	int64_t v;

	load(&d, DATA("vmstat-4.7-after"), &log);
	cr_expect_eq(log.count, 0, "%s", log.text);
	cr_expect_eq(dump_get(&d, "pgscan_kswapd_normal", &v), 0);
	cr_expect_eq(v, 11000);
	cr_expect_eq(dump_get(&d, "pgscan_kswapd", &v), -ENOENT);
	cr_expect_eq(dump_get(&d, "allocstall", &v), 0);
	cr_expect_eq(v, 16);
	dump_fini(&d);
}

Test(parse, engine_counters_pass_through)
{
	struct diag_log log;
	struct vm_dump d;
	int64_t v;

	load(&d, DATA("engine-node-after"), &log);
	cr_expect_eq(log.count, 0, "%s", log.text);
	cr_expect_eq(dump_get(&d, "nlru_kswapd_wakeup", &v), 0);
	cr_expect_eq(v, 45);
	cr_expect_str_eq(d.v[d.nr - 1].name, "nlru_membind_fallback");
	dump_fini(&d);
}

Test(parse, live_proc_vmstat)
{
	struct diag_log log;
	struct vm_dump d;
	int64_t v;

	if (access("/proc/vmstat", R_OK) != 0)
		cr_skip_test("no /proc/vmstat on this machine");
	load(&d, "/proc/vmstat", &log);
	cr_expect_eq(log.count, 0, "a kernel's own file must parse cleanly:\n%s", log.text);
	cr_expect_gt(d.nr, 50);
	cr_expect_eq(dump_get(&d, "nr_free_pages", &v), 0);
	cr_expect_gt(v, 0);
	cr_expect_eq(dump_get(&d, "pgfault", &v), 0);
	dump_fini(&d);
}

Test(parse, malformed_lines_are_reported_with_line_and_skipped)
{
	static const char text[] = "nr_free_pages 10\n"
				   "pgfault\n"               /* 2: no value */
				   "pgmajfault 12x\n"        /* 3: not a number */
				   "pswpin 1 2\n"            /* 4: trailing text */
				   "bad/name 4\n"            /* 5: bad name */
				   "\n"                      /* 6: blank, fine */
				   "# a comment\n"           /* 7: fine */
				   "nr_free_pages 11\n"      /* 8: duplicate */
				   "brand_new_counter 77\n"; /* 9: unknown, kept */
	struct diag_log log;
	struct vm_diag diag = diag_for(&log);
	struct vm_dump d;
	int64_t v;

	dump_from(&d, text, &diag);
	cr_expect_eq(d.nr, 2);
	cr_expect_eq(d.nr_malformed, 5);
	cr_expect_eq(log.count, 5, "%s", log.text);
	cr_expect_not_null(strstr(log.text, "2: no value"), "%s", log.text);
	cr_expect_not_null(strstr(log.text, "3: value is not a number"), "%s", log.text);
	cr_expect_not_null(strstr(log.text, "4: trailing text"), "%s", log.text);
	cr_expect_not_null(strstr(log.text, "5: bad counter name"), "%s", log.text);
	cr_expect_not_null(
		strstr(log.text, "8: duplicate counter 'nr_free_pages' (first at line 1)"), "%s",
		log.text);
	cr_expect_eq(dump_get(&d, "nr_free_pages", &v), 0);
	cr_expect_eq(v, 10, "the first of two duplicates is kept");
	cr_expect_eq(dump_get(&d, "brand_new_counter", &v), 0);
	cr_expect_eq(v, 77);
	dump_fini(&d);
}

Test(parse, a_line_is_read_only_within_its_length)
{
	/* A line handed over without a NUL after it, as the file reader does: the sanitizer build
	 * fails this test on any read past the line's last byte. */
	static const char *const lines[] = {"12345", "12345 ", "pgfault", "pgfault 7"};

	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		size_t len = strlen(lines[i]);
		char *exact = malloc(len);
		const char *name = NULL, *why = NULL;
		size_t name_len = 0;
		int64_t v = 0;
		int r;

		cr_assert_not_null(exact);
		memcpy(exact, lines[i], len);
		r = dump_parse_line(exact, len, &name, &name_len, &v, &why);
		if (i < 3) {
			cr_expect_eq(r, -EINVAL, "'%s'", lines[i]);
			cr_expect_str_eq(
				why,
				i < 2 ? "a value without a counter name (expected 'name value')"
				      : "no value (expected 'name value')",
				"'%s'", lines[i]);
		} else {
			cr_expect_eq(r, 1);
			cr_expect_eq(v, 7);
		}
		free(exact);
	}
}

Test(parse, values_at_the_edges)
{
	static const char text[] = "a 18446744073709551615\n" /* %lu of -1 */
				   "b 18446744073709551616\n" /* 2^64: out of range */
				   "c -5\n"
				   "d 9223372036854775807\n"
				   "e -9223372036854775809\n" /* below INT64_MIN */
				   "f\t42\r\n";
	struct diag_log log;
	struct vm_diag diag = diag_for(&log);
	struct vm_dump d;
	int64_t v;

	dump_from(&d, text, &diag);
	cr_expect_eq(dump_get(&d, "a", &v), 0);
	cr_expect_eq(v, -1, "a drifted state counter reads back negative");
	cr_expect_eq(dump_get(&d, "b", &v), -ENOENT);
	cr_expect_eq(dump_get(&d, "c", &v), 0);
	cr_expect_eq(v, -5);
	cr_expect_eq(dump_get(&d, "d", &v), 0);
	cr_expect_eq(v, INT64_MAX);
	cr_expect_eq(dump_get(&d, "e", &v), -ENOENT);
	cr_expect_eq(dump_get(&d, "f", &v), 0, "tabs and CRLF are blanks");
	cr_expect_eq(v, 42);
	cr_expect_eq(log.count, 2, "%s", log.text);
	dump_fini(&d);
}

Test(parse, many_counters_grow_the_index)
{
	struct vm_dump d;
	char name[32];
	int64_t v;

	cr_assert_eq(dump_init(&d, NULL), 0);
	for (int i = 0; i < 5000; i++) {
		snprintf(name, sizeof(name), "c%d", i);
		cr_assert_eq(dump_add(&d, name, strlen(name), i, 0), 0);
	}
	cr_expect_eq(dump_add(&d, "c42", 3, 0, 0), -EEXIST);
	for (int i = 0; i < 5000; i += 499) {
		snprintf(name, sizeof(name), "c%d", i);
		cr_expect_eq(dump_get(&d, name, &v), 0);
		cr_expect_eq(v, i);
	}
	dump_fini(&d);
}

Test(parse, bad_files_get_a_clear_error)
{
	static const char bin[] = "nr_free_pages 1\n\x7f"
				  "ELF\x02\x01";
	char dir[64], path[128];
	struct vm_dump d;

	scratch_dir(dir);
	snprintf(path, sizeof(path), "%s/empty", dir);
	write_file(path, "", 0);
	cr_assert_eq(dump_init(&d, path), 0);
	cr_expect_eq(dump_load(&d, path, NULL), -ENODATA);
	cr_expect_str_eq(input_strerror(-ENODATA), "empty file");
	dump_fini(&d);

	snprintf(path, sizeof(path), "%s/binary", dir);
	write_file(path, bin, sizeof(bin)); /* the NUL at the end too */
	cr_assert_eq(dump_init(&d, path), 0);
	cr_expect_eq(dump_load(&d, path, NULL), -EILSEQ);
	dump_fini(&d);

	cr_assert_eq(dump_init(&d, dir), 0);
	cr_expect_eq(dump_load(&d, dir, NULL), -EISDIR);
	dump_fini(&d);

	snprintf(path, sizeof(path), "%s/missing", dir);
	cr_assert_eq(dump_init(&d, path), 0);
	cr_expect_eq(dump_load(&d, path, NULL), -ENOENT);
	dump_fini(&d);

	cr_assert_eq(dump_init(&d, DATA("zoneinfo-4.8")), 0);
	cr_expect_eq(dump_load(&d, DATA("zoneinfo-4.8"), NULL), -EMEDIUMTYPE,
		     "a zoneinfo file is refused, not read as counters");
	dump_fini(&d);
	scratch_remove(dir, (const char *const[]){"empty", "binary", NULL});
}
