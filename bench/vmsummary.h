/*
 * vmsummary - mmtests' vmstat summary (bin/lib/MMTests/MonitorMmtestsvmstat.pm) of one
 * benchmark, one column per reclaim mode, computed from the dumps the engine wrote before and after
 * the benchmark, in its own mode's layout (4.7 names in zone mode, 4.8 names in node mode).  The
 * formulas are nlru-vmstat's (tools/vmstat/compare.c), which sum every kernel's spelling of a
 * counter, so one formula serves both layouts exactly as mmtests' does.
 */
#ifndef NODELRU_BENCH_VMSUMMARY_H
#define NODELRU_BENCH_VMSUMMARY_H

#include <stdio.h>

struct vmsummary_run {
	const char *column; /* "4.7-zone" */
	const char *dir;    /* holds vmstat-before and vmstat-after (harness_dump) */
	double elapsed;     /* wall-clock seconds between the two dumps */
};

/*
 * vmsummary_write - print the summary of @n runs to @out (mmtests' text layout) and write it
 * as vmstat-summary.txt, .csv and .json into @dir.  Problems with the dumps are reported on
 * stderr.  0, or -errno when a dump cannot be read or a file written.
 */
int vmsummary_write(const struct vmsummary_run *runs, size_t n, const char *dir, FILE *out);

#endif /* NODELRU_BENCH_VMSUMMARY_H */
