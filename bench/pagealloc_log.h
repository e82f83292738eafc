/*
 * pagealloc_log - the log of the pagealloc benchmark, one line per outer iteration in the
 * format of mmtests' stap-scripts/pagealloc-micro.stp, and the reading of it by
 * bin/lib/MMTests/ExtractPagealloc.pm (extractReport): the alloc-, free- and
 * total-odr<order>-<batch> operations, with mmtests' warm-up drop.
 */
#ifndef NODELRU_BENCH_PAGEALLOC_LOG_H
#define NODELRU_BENCH_PAGEALLOC_LOG_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "mmtable.h"

/* A kept line needs its batch counter, shared across orders, at this value or more. */
#define PA_WARMUP_KEEP_FROM 3

struct pa_line {
	unsigned int order;
	unsigned long batch;
	uint64_t alloc, free; /* per-page figures of one outer iteration */
};

/* pa_log_write - "order %2u batch %6lu alloc %llu free %llu\n". */
void pa_log_write(FILE *f, const struct pa_line *l);

struct pa_op {
	char name[MM_OP_MAX]; /* "alloc-odr0-1", "free-odr3-64", "total-odr4-1024" */
	double *x;            /* kept samples, in log order */
	size_t n, cap;
};

struct pa_ops {
	struct pa_op *op; /* in mmtests' order: every alloc op, then free, then total */
	size_t nr, cap;
	unsigned int nr_dropped;   /* lines dropped by the warm-up rule */
	unsigned int nr_malformed; /* lines that are not pagealloc lines, skipped */
};

/*
 * pa_extract - the operations of the log text @buf (@len bytes).  A line counts towards its
 * batch's counter (one counter per batch value, shared by every order, as mmtests keeps it)
 * and is kept only from the PA_WARMUP_KEEP_FROM-th on: so the first two outer iterations are
 * dropped for the first order logged, and none after it.  Within an order, batches appear in
 * the order first seen; orders ascend.  0 or -ENOMEM (@ops is then empty).
 */
int pa_extract(const char *buf, size_t len, struct pa_ops *ops);
void pa_ops_fini(struct pa_ops *ops);

/* pa_ops_find - the operation called @name, or NULL. */
const struct pa_op *pa_ops_find(const struct pa_ops *ops, const char *name);

#endif /* NODELRU_BENCH_PAGEALLOC_LOG_H */
