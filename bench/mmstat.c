/*
 * mmstat - mmtests' VMR/Stat.pm in C.  Everything is double precision, as Perl's numbers are;
 * the only departure is that an empty sample set gives NaN where Perl would divide by zero.
 */
#include "mmstat.h"

#include <math.h>

double mm_min(const double *x, size_t n)
{
	double m = NAN;

	for (size_t i = 0; i < n; i++)
		if (i == 0 || x[i] < m)
			m = x[i];
	return m;
}

double mm_max(const double *x, size_t n)
{
	double m = NAN;

	for (size_t i = 0; i < n; i++)
		if (i == 0 || x[i] > m)
			m = x[i];
	return m;
}

double mm_mean(const double *x, size_t n)
{
	double sum = 0;

	if (n == 0)
		return NAN;
	for (size_t i = 0; i < n; i++)
		sum += x[i];
	return sum / (double)n;
}

double mm_hmean(const double *x, size_t n)
{
	double sum = 0;

	if (n == 0)
		return NAN;
	for (size_t i = 0; i < n; i++) {
		if (x[i] <= 0)
			return -1;
		sum += 1.0 / x[i];
	}
	return (double)n / sum;
}

double mm_stddev(const double *x, size_t n)
{
	double mean = mm_mean(x, n), sq = 0;

	if (n == 0)
		return NAN;
	for (size_t i = 0; i < n; i++)
		sq += (x[i] - mean) * (x[i] - mean);
	return sqrt(sq / (double)n);
}

double mm_coeffvar(const double *x, size_t n)
{
	double mean = mm_mean(x, n);

	if (n == 0)
		return NAN;
	return mean == 0 ? 0 : mm_stddev(x, n) * 100 / mean;
}

void mm_multiops(const double *x, size_t n, int harmonic, double out[NR_MM_MULTIOP_ROWS])
{
	out[MM_MIN] = mm_min(x, n);
	out[MM_MEAN] = harmonic ? mm_hmean(x, n) : mm_mean(x, n);
	out[MM_STDDEV] = mm_stddev(x, n);
	out[MM_COEFFVAR] = mm_coeffvar(x, n);
	out[MM_MAX] = mm_max(x, n);
}

double mm_pdiff(double value, double base)
{
	if (value == base || value == 0)
		return 0;
	if (base == 0)
		return 100;
	return value * 100 / base - 100;
}

double mm_pndiff(double value, double base)
{
	if (value == base)
		return 0;
	if (value == 0)
		return 100;
	if (base == 0)
		return -99;
	return 100 - value * 100 / base;
}
