/*
 * mmtests_results - the files that mmtests' report scripts read, in the results layout of
 * mmtests as of July 2016 (the tree docs/benchmarks.md names), so that its compare-kernels.sh
 * and bin/compare-mmtests.pl take a results folder as it is:
 *
 *   ROOT/tests-timestamp-<column>          run-mmtests.sh's record: per benchmark its vmstat
 *                                          and zoneinfo before and after, and its time line
 *   ROOT/<bench>-<column>/noprofile        a relative symlink to the column's own folder,
 *                                          which holds the raw logs the Extract modules read
 *
 * A column plays the part of a kernel ("4.7-zone", "4.8-node", "ref-jemalloc").  Times are
 * written at full precision (nanoseconds) where mmtests' tools print hundredths.
 */
#ifndef NODELRU_BENCH_MMTESTS_RESULTS_H
#define NODELRU_BENCH_MMTESTS_RESULTS_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "mmtable.h"

/* One benchmark's record in a column's tests-timestamp file. */
struct mmt_record {
	const char *bench;  /* "pagealloc" or "stutter": the test name */
	const char *column; /* the "kernel" name */
	const char *dir;    /* holds vmstat-before/-after and zoneinfo-before/-after */
	time_t begin, end;  /* wall clock of the test's begin and end lines (date +%s) */
	double elapsed;     /* seconds between the dumps: the time line's %e */
	double user, sys;   /* CPU seconds of the process over that interval: %U and %S */
};

/* The clock of a record: mmt_clock_start before the "before" dumps, mmt_clock_stop after. */
void mmt_clock_start(struct mmt_record *r);
void mmt_clock_stop(struct mmt_record *r);

/*
 * mmt_write_record - put @r into ROOT/tests-timestamp-<column>, replacing a record of the same
 * benchmark there.  A new file opens as run-mmtests.sh's does: "start :: <epoch>" and
 * "arch :: <machine>"; the start is @r->begin plus @index seconds, so that compare-kernels.sh,
 * which orders kernels by it, keeps the columns' order (the first is the baseline).
 * 0 or -errno after a message on stderr.
 */
int mmt_write_record(const char *root, const struct mmt_record *r, int index);

/*
 * mmt_link - ROOT/<bench>-<column>/noprofile as a relative symlink to @dir (an existing link
 * is replaced).  0 or -errno after a message.
 */
int mmt_link(const char *root, const char *bench, const char *column, const char *dir);

/*
 * mmt_write_time - <dir>/<name> in GNU time's default output, as mmtests' TIME_CMD -o writes
 * it: "0.00user 0.00system M:SS.sssssssssselapsed ...".  Only the elapsed field is measured
 * (the Extract modules read only it); the others are 0.  0 or -EIO.
 */
int mmt_write_time(const char *dir, const char *name, double elapsed);

/*
 * mmt_write_gnu_time - the same with the user and system CPU seconds measured too (%U and
 * %S, and %P from them), as for each dd of paralleldd.  0 or -EIO.
 */
int mmt_write_gnu_time(const char *dir, const char *name, double user, double sys, double elapsed);

/*
 * mmt_duration_table - the duration table compare-kernels.sh prints under every benchmark
 * (bin/lib/MMTests/MonitorDuration.pm read through CompareCputime.pm): rows User, System and
 * Elapsed of each column's time line, "%12.2f", no percentages.  @cols names the @n columns,
 * whose records are @recs.  0 or -ENOMEM.
 */
int mmt_duration_table(struct mm_table *t, const char *const *cols, const struct mmt_record *recs,
		       size_t n);

/* mmt_write_u64 - <dir>/<name> holding "<v>\n" (dd.filesize, dd.blocksize).  0 or -EIO. */
int mmt_write_u64(const char *dir, const char *name, uint64_t v);

/*
 * mmt_split_pagealloc - alloc-<order> and free-<order> in @dir from its pagealloc.log, lines
 * "<batch> <value>", as the pagealloc shellpack splits them; ExtractPagealloc finds the orders
 * by these files' names.  0 or -errno.
 */
int mmt_split_pagealloc(const char *dir);

#endif /* NODELRU_BENCH_MMTESTS_RESULTS_H */
