/*
 * What the benchmarks share: a monotonic clock, the median of a set of samples, a growing
 * array of samples, the TSC that mmtests' pagealloc times with, and the option parser of
 * the benchmarks that do not run through the harness.
 */
#ifndef NODELRU_BENCH_UTIL_H
#define NODELRU_BENCH_UTIL_H

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

/* Append @v to the samples @x[0..@n) of capacity @cap, doubling it as needed: 0 or -ENOMEM. */
static inline int samples_push(double **x, size_t *n, size_t *cap, double v)
{
	if (*n == *cap) {
		size_t ncap = *cap ? *cap * 2 : 16;
		double *nx = realloc(*x, ncap * sizeof(*nx));

		if (!nx)
			return -ENOMEM;
		*x = nx;
		*cap = ncap;
	}
	(*x)[(*n)++] = v;
	return 0;
}

static inline double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static inline uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static inline int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Sorts @v in place. */
static inline double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/*
 * The clock of mmtests' pagealloc: rdtsc, unfenced, as the stap module reads it (its unit is
 * TSC ticks, which mmtests calls cycles).  Elsewhere than x86 the nanosecond clock stands in,
 * and tsc_per_ns() is then 1.
 */
static inline uint64_t tsc_read(void)
{
#if defined(__x86_64__) || defined(__i386__)
	return __rdtsc();
#else
	return now_ns();
#endif
}

/* TSC ticks per nanosecond, measured against CLOCK_MONOTONIC over @ms milliseconds. */
static inline double tsc_per_ns(unsigned int ms)
{
	struct timespec pause = {0, (long)ms * 1000000};
	uint64_t n0 = now_ns(), t0 = tsc_read(), n1, t1;

	nanosleep(&pause, NULL);
	t1 = tsc_read();
	n1 = now_ns();
	return n1 > n0 ? (double)(t1 - t0) / (double)(n1 - n0) : 1.0;
}

/* One "--name value" option: a number in [min, max] into *num, or a string into *str. */
struct bench_opt {
	const char *name;
	long *num;
	const char **str;
	long min, max;
};

/*
 * Parse @argv against @opts, which end with a NULL name.  0; 1 for --help, with @usage on
 * stdout; -EINVAL for an unknown option, a missing value or a number out of range, said on
 * stderr with @usage.  A benchmark that ran with a mistyped option would measure something
 * other than what its caller asked for.
 */
static inline int bench_parse_opts(int argc, char **argv, const struct bench_opt *opts,
				   const char *usage)
{
	for (int i = 1; i < argc; i++) {
		const struct bench_opt *o = opts;
		char *end;
		long v;

		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			fputs(usage, stdout);
			return 1;
		}
		while (o->name && strcmp(o->name, argv[i]))
			o++;
		if (!o->name || i + 1 == argc) {
			fprintf(stderr, "%s: %s %s\n%s", argv[0], argv[i],
				o->name ? "needs a value" : "is not an option", usage);
			return -EINVAL;
		}
		if (o->str) {
			*o->str = argv[++i];
			continue;
		}
		errno = 0;
		v = strtol(argv[++i], &end, 10);
		if (errno || *end || end == argv[i] || v < o->min || v > o->max) {
			fprintf(stderr, "%s: %s takes a number from %ld to %ld, not \"%s\"\n%s",
				argv[0], o->name, o->min, o->max, argv[i], usage);
			return -EINVAL;
		}
		*o->num = v;
	}
	return 0;
}

#endif /* NODELRU_BENCH_UTIL_H */
