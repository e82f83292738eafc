/*
 * iobench_log - the raw files of mmtests' paralleldd and tiobench and their reading by
 * mmtests' report scripts (July 2016, the tree docs/benchmarks.md names), which paralleldd.c
 * and tiobench.c write and then read back for their tables:
 *
 * - the thread counts of shellpacks/shellpack-bench-paralleldd and -tiobench;
 * - paralleldd: per dd, GNU time's output in time-<threads>-<instance>-<iteration>, read as
 *   bin/lib/MMTests/ExtractParalleldd.pm reads it: operations Elapsd-<threads>;
 * - tiobench: tiobench.pl's report in tiobench-<threads>-<iteration>.log (its Perl formats,
 *   computed from tiotest's figures as tiobench.pl computes them), and the disk's read speed
 *   in disk-read.speed, read as bin/lib/MMTests/ExtractTiobench.pm reads them: operations
 *   PotentialReadSpeed and {Seq,Rand}{Read,Write}-MB/sec-<threads>;
 * - the summary rows of SummariseMultiops over such operations, one column per mode.
 */
#ifndef NODELRU_BENCH_IOBENCH_LOG_H
#define NODELRU_BENCH_IOBENCH_LOG_H

#include <stddef.h>
#include <stdio.h>

#include "mmtable.h"

#define IOB_MAX_THREAD_COUNTS 64

/*
 * iob_paralleldd_threads - the thread counts the paralleldd shellpack runs from @min to @max:
 * over 32, min, min + 3 ... up to 8, then 12, 21, 30, then 48, 79 ... up to max; over 8, min,
 * min + 2 ... up to 8, then 12, 18 ... up to max; else min, min + 2 ... up to max; max
 * appended when the list does not end with it; counts below min skipped.  (1-16: 1 3 5 7 12
 * 16.)  Writes at most @cap into @out; returns how many, or -EINVAL for a bad range.
 */
int iob_paralleldd_threads(int min, int max, int *out, int cap);

/*
 * iob_tiobench_threads - the tiobench shellpack's: min, then doubling while at most max, max
 * appended when the list does not end with it.  (1-16: 1 2 4 8 16.)  As above.
 */
int iob_tiobench_threads(int min, int max, int *out, int cap);

/* Named sample sets, in the order their names were first seen. */
struct iob_op {
	char name[MM_OP_MAX];
	double *x;
	size_t n, cap;
};

struct iob_ops {
	struct iob_op *op;
	size_t nr, cap;
};

/* iob_ops_add - append @v to the operation @name, made at the end if new.  0 or -errno. */
int iob_ops_add(struct iob_ops *ops, const char *name, double v);
const struct iob_op *iob_ops_find(const struct iob_ops *ops, const char *name);
void iob_ops_fini(struct iob_ops *ops);

/*
 * iob_fill_table - the rows of SummariseMultiops (extractSummary) for @nr_cols columns whose
 * operations are @ops[0 .. nr_cols - 1]: Min, the mean (Hmean when @harmonic, else Amean),
 * Stddev, CoeffVar, Max, each over every operation of the baseline @ops[0] in its order,
 * compared with @cmp; NaN where a column lacks the operation.  0 or -ENOMEM.
 */
int iob_fill_table(struct mm_table *t, const struct iob_ops *ops, size_t nr_cols, int harmonic,
		   enum mm_cmp cmp);

/*
 * iob_time_elapsed - the elapsed seconds of a line of GNU time's default output, as
 * bin/lib/MMTests/Extract.pm's _time_to_elapsed reads it: the third space-separated field,
 * "[H:]M:S.ss" followed by "elapsed".  NaN when the line has no "elapsed".
 */
double iob_time_elapsed(const char *line);

/*
 * iob_paralleldd_extract - ExtractParalleldd's operations from the folder @dir: the thread
 * counts are those with a time-<n>-1-1 file, ascending; each line holding "elapsed" of each
 * time-<n>-* file is one sample of Elapsd-<n>, in seconds.  0, -ENOENT when the folder has
 * no such file, or -errno.
 */
int iob_paralleldd_extract(const char *dir, struct iob_ops *ops);

/* tiotest's four tests, in the order it runs them. */
enum tio_test { TIO_WRITE, TIO_RWRITE, TIO_READ, TIO_RREAD, NR_TIO_TESTS };

/* What tiotest -T prints for one test: its line "<name>:<figures, comma-separated>". */
struct tio_figures {
	double mbytes;                /* MB moved by all threads, 2^20 bytes */
	double time;                  /* seconds from the threads' start to the last one's end */
	double utime, stime;          /* CPU seconds of the threads */
	double avglat, maxlat;        /* ms per read or write call: mean over all calls, largest */
	double pct_gt_2s, pct_gt_10s; /* percent of calls over 2 s and over 10 s */
};

/* The report's figures of one test, as tiobench.pl computes them from tiotest's. */
struct tio_rate {
	double rate;   /* mbytes / time */
	double cpu;    /* 100 * (utime + stime) / time */
	double cpueff; /* rate / (cpu / 100), with mmtests' patch: cpu / 100 taken as 0.01 if 0 */
};

void tio_rate_of(const struct tio_figures *f, struct tio_rate *out);

/*
 * tio_report_write - the report tiobench.pl prints after one run of tiotest (one size, one
 * block size, one thread count): its unit information, then per test ("Sequential Reads",
 * "Random Reads", "Sequential Writes", "Random Writes") a blank line, the title and the line
 * of its REPORT formats: @identifier, the total size in MB, @block, @threads, rate, CPU%,
 * latencies, CPU efficiency, with Perl's format rules (a number too wide for its field is a
 * row of '#', text is cut to its field).
 */
void tio_report_write(FILE *f, const char *identifier, long size_mb, long block, int threads,
		      const struct tio_figures fig[NR_TIO_TESTS]);

/*
 * tio_report_rates - what ExtractTiobench reads from one report (@buf, @len bytes): the line
 * after each title line, split on whitespace, its fifth field the MB/s (-1 when it is '#'s).
 * @rate is indexed by enum tio_test; NaN for a test the report lacks.
 */
void tio_report_rates(const char *buf, size_t len, double rate[NR_TIO_TESTS]);

/*
 * iob_tiobench_extract - ExtractTiobench's operations from the folder @dir:
 * PotentialReadSpeed (one sample, disk-read.speed's first line; -1 without the file), then for
 * SeqRead, RandRead, SeqWrite and RandWrite in turn "<test>-MB/sec-<n>" for each thread count
 * n with a tiobench-<n>-1.log, ascending, one sample per tiobench-<n>-*.log.  0, -ENOENT
 * when the folder has no log, or -errno.
 */
int iob_tiobench_extract(const char *dir, struct iob_ops *ops);

#endif /* NODELRU_BENCH_IOBENCH_LOG_H */
