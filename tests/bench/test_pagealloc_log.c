/* pagealloc_log: the stap module's line format and ExtractPagealloc's reading of a log. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pagealloc_log.h"

TestSuite(pagealloc_log, .timeout = 10);

Test(pagealloc_log, line_format)
{
	struct pa_line l = {3, 64, 123, 45};
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	pa_log_write(f, &l);
	fclose(f);
	cr_expect_str_eq(buf, "order  3 batch     64 alloc 123 free 45\n");
	free(buf);
}

/*
 * Four outer iterations of orders 0 and 1, batches 1 and 2, as the benchmark logs them: order
 * 0 batch 1 (4 lines), order 0 batch 2, order 1 batch 1, order 1 batch 2.  Line k of a pair
 * has alloc = 100 * order + 10 * batch + k and free = k.
 */
static char *sample_log(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	for (unsigned int o = 0; o < 2; o++)
		for (unsigned long b = 1; b <= 2; b++)
			for (uint64_t k = 0; k < 4; k++) {
				struct pa_line l = {o, b, 100 * o + 10 * b + k, k};

				pa_log_write(f, &l);
			}
	fputs("a stray line\n", f);
	fclose(f);
	return buf;
}

Test(pagealloc_log, operations_in_mmtests_order)
{
	static const char *const want[] = {"alloc-odr0-1", "alloc-odr0-2", "alloc-odr1-1",
					   "alloc-odr1-2", "free-odr0-1",  "free-odr0-2",
					   "free-odr1-1",  "free-odr1-2",  "total-odr0-1",
					   "total-odr0-2", "total-odr1-1", "total-odr1-2"};
	char *log = sample_log();
	struct pa_ops ops;

	cr_assert_eq(pa_extract(log, strlen(log), &ops), 0);
	cr_assert_eq(ops.nr, 12);
	for (size_t i = 0; i < 12; i++)
		cr_expect_str_eq(ops.op[i].name, want[i]);
	cr_expect_eq(ops.nr_malformed, 1);
	pa_ops_fini(&ops);
	free(log);
}

/*
 * One counter per batch value, shared by the orders: batch 1 is seen 4 times at order 0
 * (counts 1-4, the first two dropped) and 4 more at order 1 (counts 5-8, all kept).  So
 * order 0 keeps samples k = 2, 3 and order 1 keeps k = 0..3.
 */
Test(pagealloc_log, warm_up_drop_hits_the_first_order_only)
{
	char *log = sample_log();
	const struct pa_op *op;
	struct pa_ops ops;

	cr_assert_eq(pa_extract(log, strlen(log), &ops), 0);
	cr_expect_eq(ops.nr_dropped, 4, "two lines of each batch at order 0");
	op = pa_ops_find(&ops, "alloc-odr0-1");
	cr_assert(op);
	cr_assert_eq(op->n, 2);
	cr_expect_eq(op->x[0], 12);
	cr_expect_eq(op->x[1], 13);
	op = pa_ops_find(&ops, "free-odr1-2");
	cr_assert(op);
	cr_assert_eq(op->n, 4);
	cr_expect_eq(op->x[0], 0);
	cr_expect_eq(op->x[3], 3);
	/* total = alloc + free of the same line: 120 + 2k */
	op = pa_ops_find(&ops, "total-odr1-2");
	cr_assert(op);
	cr_expect_eq(op->x[0], 120);
	cr_expect_eq(op->x[3], 126);
	pa_ops_fini(&ops);
	free(log);
}

Test(pagealloc_log, an_empty_log_has_no_operation)
{
	struct pa_ops ops;

	cr_assert_eq(pa_extract("", 0, &ops), 0);
	cr_expect_eq(ops.nr, 0);
	cr_expect_null(pa_ops_find(&ops, "alloc-odr0-1"));
	pa_ops_fini(&ops);
}
