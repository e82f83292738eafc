/*
 * diff - what changed between two dumps of the same system: deltas (and rates) of event
 * counters, before and after values of state counters.
 */
#ifndef NODELRU_TOOLS_VMSTAT_DIFF_H
#define NODELRU_TOOLS_VMSTAT_DIFF_H

#include <stdint.h>
#include <stdio.h>

#include "dump.h"
#include "names.h"
#include "out.h"

enum diff_flag {
	DIFF_OK,
	DIFF_DOWN,        /* an event counter went down */
	DIFF_ONLY_BEFORE, /* missing from AFTER */
	DIFF_ONLY_AFTER,  /* missing from BEFORE */
};

struct diff_row {
	const char *name;
	enum vm_kind kind;
	int has_before, has_after;
	int64_t before, after; /* as parsed: an event counter's bits are its unsigned value */
	int64_t delta;         /* after - before, wrapped; valid only when both are present */
	enum diff_flag flag;
};

/*
 * diff_rows - one row per counter of either dump: AFTER's order, then names only BEFORE has.
 * *@rows is malloc'd (free() it); names point into the dumps.  Returns the count, or -ENOMEM.
 */
long diff_rows(const struct vm_dump *before, const struct vm_dump *after, struct diff_row **rows);

struct diff_opts {
	double elapsed; /* seconds between the dumps; NAN if unknown (no rates) */
	int all;        /* also print counters that did not change */
};

/*
 * diff_print - the rows of diff_rows() as a table, JSON or CSV: event counters unsigned and
 * a fall as '-' and its size (out_count, out_change).  Returns 0 or -ENOMEM.
 */
int diff_print(const struct vm_dump *before, const struct vm_dump *after, const struct diff_opts *o,
	       enum out_fmt fmt, FILE *f);

#endif /* NODELRU_TOOLS_VMSTAT_DIFF_H */
