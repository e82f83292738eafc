/*
 * mmstat - mmtests' summary statistics (calc_* of bin/lib/VMR/Stat.pm) and the multi-op
 * summary rows of bin/lib/MMTests/SummariseMultiops.pm: the figures, not their layout (that is
 * mmtable.h).  Quantiles and BestN%Mean of latency samples live in tools/vmstat/stutter.h,
 * which computes them on grouped samples; this file holds what that one does not.
 *
 * All functions are pure and take plain arrays; none allocates.
 */
#ifndef NODELRU_BENCH_MMSTAT_H
#define NODELRU_BENCH_MMSTAT_H

#include <stddef.h>

/* The rows of a multi-op summary, in mmtests' order: Min, mean, Stddev, CoeffVar, Max. */
enum mm_multiop_row { MM_MIN, MM_MEAN, MM_STDDEV, MM_COEFFVAR, MM_MAX, NR_MM_MULTIOP_ROWS };

/* calc_min, calc_max, calc_mean (Amean): NaN for n == 0. */
double mm_min(const double *x, size_t n);
double mm_max(const double *x, size_t n);
double mm_mean(const double *x, size_t n);

/* calc_harmmean (Hmean): n / Σ(1/x); -1 when any x <= 0, as mmtests flags it. */
double mm_hmean(const double *x, size_t n);

/* calc_stddev: the population standard deviation, sqrt(Σ(x - mean)² / n). */
double mm_stddev(const double *x, size_t n);

/* calc_coeffvar: stddev * 100 / mean, or 0 when the mean is 0. */
double mm_coeffvar(const double *x, size_t n);

/*
 * mm_multiops - the five summary rows of @n samples.  @harmonic picks Hmean (throughput data,
 * higher is better) instead of Amean (time data, lower is better) for MM_MEAN, as
 * SummariseMultiops does by data type.
 */
void mm_multiops(const double *x, size_t n, int harmonic, double out[NR_MM_MULTIOP_ROWS]);

/*
 * The percentage of a comparison cell, positive meaning better than @base whatever the
 * direction.  mm_pdiff is for higher-is-better figures, mm_pndiff for lower-is-better ones;
 * both keep mmtests' special cases for zeroes (pdiff and pndiff of bin/lib/VMR/Stat.pm).
 */
double mm_pdiff(double value, double base);
double mm_pndiff(double value, double base);

#endif /* NODELRU_BENCH_MMSTAT_H */
