/*
 * compare - the mmtests vmstat summary (MonitorMmtestsvmstat.pm, mmtests of July 2016) for two
 * or more runs, each a BEFORE and an AFTER dump; the first run is the baseline column.
 * Deliberate differences from mmtests are listed in docs/vmstat-tool.md.
 */
#ifndef NODELRU_TOOLS_VMSTAT_COMPARE_H
#define NODELRU_TOOLS_VMSTAT_COMPARE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "diag.h"
#include "dump.h"
#include "out.h"

struct cmp_run {
	const char *name;             /* column name, split over two header lines */
	const struct vm_dump *before; /* taken before the benchmark */
	const struct vm_dump *after;  /* taken after it */
	double elapsed;               /* wall-clock seconds between them; NAN if unknown */
};

enum cmp_fmt {
	CMP_INT,  /* "%12d" */
	CMP_PCT,  /* "%11d%%", the value truncated toward zero as Perl's %d does */
	CMP_VEL,  /* "%12.3f" */
	CMP_COST, /* a real number (mmtests' cost models), "%12d" of it truncated */
};

struct cmp_cell {
	int ok;    /* 0: an input is missing (or elapsed unknown): printed as "-" */
	int64_t i; /* the value of CMP_INT and CMP_PCT cells (CMP_COST: truncated) */
	double f;  /* the value of CMP_VEL and CMP_COST cells (and the untruncated CMP_PCT value) */
};

struct cmp_row {
	const char *label;
	enum cmp_fmt fmt; /* what the value is; JSON and CSV print it as that */
	int extended;     /* not an mmtests row: printed only with --extended */
	/*
	 * Text only: 0, or 1 + the cmp_fmt the text table prints the row in, the format of
	 * another row: mmtests takes each row's format by its place in a list that has rows it
	 * does not print (MonitorMmtestsvmstat.pm), so "Page writes by reclaim" prints
	 * "%12.3f", "NUMA hint local percent" "%12d" and, with the newer compaction counters,
	 * "AutoNUMA cost" "%11d%%".
	 */
	int text_fmt;
};

struct cmp_table {
	size_t nr_runs, nr_rows;
	const struct cmp_row **rows; /* the rows printed, in order */
	struct cmp_cell *cells;      /* nr_rows x nr_runs, row-major */
	size_t *nr_down;             /* per run: event counters that went down */
};

/*
 * compare_build - compute every row for @n runs.  Counters that went down between a run's
 * dumps, and counters present in only one of them, are reported through @diag (against the
 * AFTER file).  Returns 0, -EINVAL for no runs, or -ENOMEM.
 */
int compare_build(const struct cmp_run *runs, size_t n, int extended, const struct vm_diag *diag,
		  struct cmp_table *t);
void compare_free(struct cmp_table *t);

/* compare_cell - the cell of the row labelled @label for run @run, or NULL. */
const struct cmp_cell *compare_cell(const struct cmp_table *t, const char *label, size_t run);

/* compare_print - the table as mmtests prints it (OUT_TEXT), or as JSON or CSV. */
void compare_print(const struct cmp_table *t, const struct cmp_run *runs, enum out_fmt fmt,
		   FILE *f);

/*
 * compare_split_name - mmtests' two-line header split: at the first '-', moved 4 characters on
 * when the text there is "-rc<digit>"; the character at the split point is dropped.
 * "4.7.0-rc4-mmotm-20160623" -> "4.7.0-rc4" / "mmotm-20160623".  @l1 and @l2 hold @sz bytes.
 */
void compare_split_name(const char *name, char *l1, char *l2, size_t sz);

/*
 * delta_check_down - report through @diag each event counter of @after that is lower than in
 * @before (a reboot or engine restart between the dumps, or the arguments swapped).  With
 * @names non-NULL, up to @max of their names are stored there.  Returns how many went down.
 */
size_t delta_check_down(const struct vm_dump *before, const struct vm_dump *after,
			const struct vm_diag *diag, const char **names, size_t max);

#endif /* NODELRU_TOOLS_VMSTAT_COMPARE_H */
