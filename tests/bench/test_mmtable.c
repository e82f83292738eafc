/*
 * mmtable: the comparison table against excerpts of mmtests' tables, byte for byte
 * (data/layout-*.txt: the layout bin/lib/MMTests/Compare.pm prints, with synthetic figures),
 * and its special cells.
 *
 * The examples show excerpts of real tables: a "..." line stands for rows left out, and the
 * widths come from the whole table, so the tables built here hold the rows the excerpt hides
 * too (a 16-character operation in pagealloc's, all 17 statistics in stutter's).  Their
 * synthetic figures were printed rounded; the values below are ones that print as shown and
 * give the percentages shown (0.12388 and 0.136051 print as 0.1239 and 0.1361, and differ by
 * the -9.82% printed, which the rounded figures would not give: -9.85%).
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mmtable.h"

TestSuite(mmtable, .timeout = 10);

static const char *const kernels[] = {"4.7.0-rc4-mmotm-20160623", "4.7.0-rc4-nodelru-v9"};

static char *print_to_string(const struct mm_table *t,
			     void (*print)(const struct mm_table *, FILE *))
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	cr_assert(f);
	print(t, f);
	fclose(f);
	return buf;
}

static char *read_fixture(const char *name)
{
	char path[512], *buf = calloc(1, 1 << 16);
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", BENCH_TEST_DATA, name);
	f = fopen(path, "r");
	cr_assert(f && buf, "%s", path);
	fread(buf, 1, (1 << 16) - 1, f);
	fclose(f);
	return buf;
}

/* Every line of @fixture, in order, is a line of @out; "..." skips any number of lines. */
static void expect_excerpt(const char *out, const char *fixture)
{
	const char *o = out, *x = fixture;
	int skipping = 0;

	while (*x) {
		size_t xl = strcspn(x, "\n");

		if (xl == 3 && strncmp(x, "...", 3) == 0) {
			skipping = 1;
		} else {
			for (;;) {
				size_t ol = strcspn(o, "\n");

				cr_assert(*o, "line not found: '%.*s'\nin:\n%s", (int)xl, x, out);
				if (ol == xl && strncmp(o, x, xl) == 0) {
					o += ol + (o[ol] == '\n');
					break;
				}
				cr_assert(skipping, "expected '%.*s'\ngot      '%.*s'", (int)xl, x,
					  (int)ol, o);
				o += ol + (o[ol] == '\n');
			}
			skipping = 0;
		}
		x += xl + (x[xl] == '\n');
	}
}

static void add(struct mm_table *t, const char *stat, const char *op, double base, double v)
{
	double row[2] = {base, v};

	cr_assert_eq(mm_table_add(t, stat, op, MM_CMP_PNDIFF, row), 0);
}

Test(mmtable, pagealloc_layout_of_the_spec)
{
	struct mm_table t;
	char *out, *fixture = read_fixture("layout-pagealloc.txt");

	/* ComparePagealloc: _FieldLength 17, precision 2; header parts %27s. */
	cr_assert_eq(mm_table_init(&t, kernels, 2, 17, 2, 17), 0);
	add(&t, "Min", "total-odr0-1", 303, 285);
	add(&t, "Min", "total-odr1-8192", 215, 316);
	add(&t, "Amean", "total-odr0-1", 396.69, 475.846);
	add(&t, "CoeffVar", "total-odr0-16384", 1, 1); /* the widest names of a real table */
	out = print_to_string(&t, mm_table_print);
	expect_excerpt(out, fixture);
	cr_expect_eq(strncmp(out, fixture, strlen(fixture)), 0, "the excerpt is the table's head");
	free(out);
	free(fixture);
	mm_table_fini(&t);
}

Test(mmtable, stutter_layout_of_the_spec)
{
	static const char *const stats[] = {
		"Min",         "1st-qrtle",   "2nd-qrtle",   "3rd-qrtle",   "Max-90%",
		"Max-93%",     "Max-95%",     "Max-99%",     "Max",         "Mean",
		"Best99%Mean", "Best95%Mean", "Best90%Mean", "Best50%Mean", "Best10%Mean",
		"Best5%Mean",  "Best1%Mean"};
	struct mm_table t;
	char *out, *fixture = read_fixture("layout-stutter.txt");

	/* CompareStutter: _FieldLength 12, _Precision 4; header parts %22s. */
	cr_assert_eq(mm_table_init(&t, kernels, 2, 12, 4, 12), 0);
	for (int i = 0; i < 17; i++) {
		double base = 1, v = 1;

		if (i == 0 || i == 16)
			base = 0.12388, v = 0.136051;
		else if (i == 1)
			base = 1.796351, v = 1.129097;
		else if (i == 8)
			base = 78.9579, v = 71.2519;
		else if (i == 9)
			base = 2.433951, v = 2.182159;
		else if (i == 10)
			base = 2.3954, v = 2.1454;
		add(&t, stats[i], "mmap", base, v);
	}
	out = print_to_string(&t, mm_table_print);
	expect_excerpt(out, fixture);
	free(out);
	free(fixture);
	mm_table_fini(&t);
}

Test(mmtable, minus_one_prints_as_zero_and_a_missing_figure_as_a_dash)
{
	static const char *const cols[] = {"a-x", "b-y", "c-z"};
	double row[3] = {-1, 5, NAN};
	struct mm_table t;
	char *out;

	cr_assert_eq(mm_table_init(&t, cols, 3, 8, 2, 8), 0);
	cr_assert_eq(mm_table_add(&t, "Hmean", "tput", MM_CMP_PDIFF, row), 0);
	out = print_to_string(&t, mm_table_print);
	/* header parts are %18s (8 + 6 + 4); no percentage against a baseline of -1 */
	cr_expect_str_eq(out, "                           a                 b                 c\n"
			      "                           x                 y                 z\n"
			      "Hmean tput    0.00 (  0.00%)    5.00 (  0.00%)       -          \n");
	cr_expect_eq(mm_table_percent(&t, 0, 1), 0);
	free(out);
	mm_table_fini(&t);
}

Test(mmtable, a_table_of_single_figures_has_no_statistic_column)
{
	static const char *const cols[] = {"4.7-zone", "4.8-node"};
	double row[2] = {100, 125};
	struct mm_table t;
	char *out;

	cr_assert_eq(mm_table_init(&t, cols, 2, 12, 2, 12), 0);
	cr_assert_eq(mm_table_add(&t, "", "Write", MM_CMP_PDIFF, row), 0);
	out = print_to_string(&t, mm_table_print);
	cr_expect_str_eq(out, "                        4.7                   4.8\n"
			      "                       zone                  node\n"
			      "Write      100.00 (  0.00%)      125.00 ( 25.00%)\n");
	free(out);
	mm_table_fini(&t);
}

Test(mmtable, csv_and_json_carry_every_cell)
{
	static const char *const cols[] = {"4.7-zone", "4.8-node"};
	double row[2] = {200, 150};
	struct mm_table t;
	char *csv, *json;

	cr_assert_eq(mm_table_init(&t, cols, 2, 12, 4, 12), 0);
	cr_assert_eq(mm_table_add(&t, "Max", "mmap", MM_CMP_PNDIFF, row), 0);
	csv = print_to_string(&t, mm_table_print_csv);
	json = print_to_string(&t, mm_table_print_json);
	cr_expect_str_eq(csv, "stat,op,column,value,percent\n"
			      "Max,mmap,4.7-zone,200.000000,0.00\n"
			      "Max,mmap,4.8-node,150.000000,25.00\n");
	cr_expect_str_eq(json, "{\"columns\":[\"4.7-zone\",\"4.8-node\"],\"rows\":[\n"
			       "{\"stat\":\"Max\",\"op\":\"mmap\",\"values\":[200,150],"
			       "\"percent\":[0,25]}]}\n");
	free(csv);
	free(json);
	mm_table_fini(&t);
}
