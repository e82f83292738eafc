/* mmstat: mmtests' Stat.pm figures against values worked out by hand. */
#include <criterion/criterion.h>
#include <math.h>

#include "mmstat.h"

#define EPS 1e-9

TestSuite(mmstat, .timeout = 10);

/* 2 4 4 4 5 5 7 9: Σ = 40, mean 5; Σ(x-5)² = 9+1+1+1+0+0+4+16 = 32, /8 = 4, stddev 2. */
static const double classic[] = {2, 4, 4, 4, 5, 5, 7, 9};

Test(mmstat, min_mean_max_and_population_stddev)
{
	cr_expect_float_eq(mm_min(classic, 8), 2, EPS);
	cr_expect_float_eq(mm_max(classic, 8), 9, EPS);
	cr_expect_float_eq(mm_mean(classic, 8), 5, EPS);
	cr_expect_float_eq(mm_stddev(classic, 8), 2, EPS, "population, not sample (n-1: 2.138)");
	cr_expect_float_eq(mm_coeffvar(classic, 8), 40, EPS, "2 * 100 / 5");
}

Test(mmstat, harmonic_mean_and_its_minus_one_flag)
{
	static const double x[] = {1, 2, 4}, zero[] = {1, 0, 4}, neg[] = {3, -1};

	/* 3 / (1 + 1/2 + 1/4) = 3 / 1.75 */
	cr_expect_float_eq(mm_hmean(x, 3), 12.0 / 7.0, EPS);
	cr_expect_eq(mm_hmean(zero, 3), -1);
	cr_expect_eq(mm_hmean(neg, 2), -1);
}

Test(mmstat, coeffvar_is_zero_when_the_mean_is)
{
	static const double x[] = {-1, 1};

	cr_expect_eq(mm_coeffvar(x, 2), 0);
}

Test(mmstat, empty_sets_give_nan)
{
	cr_expect(isnan(mm_min(classic, 0)));
	cr_expect(isnan(mm_mean(classic, 0)));
	cr_expect(isnan(mm_stddev(classic, 0)));
}

Test(mmstat, multiops_rows_in_mmtests_order)
{
	static const double x[] = {1, 2, 4};
	double row[NR_MM_MULTIOP_ROWS];

	mm_multiops(x, 3, 0, row);
	cr_expect_float_eq(row[MM_MIN], 1, EPS);
	cr_expect_float_eq(row[MM_MEAN], 7.0 / 3.0, EPS, "Amean for time data");
	/* Σ(x - 7/3)² = 16/9 + 1/9 + 25/9 = 42/9; /3 = 14/9 */
	cr_expect_float_eq(row[MM_STDDEV], sqrt(14.0 / 9.0), EPS);
	cr_expect_float_eq(row[MM_COEFFVAR], sqrt(14.0 / 9.0) * 100 / (7.0 / 3.0), EPS);
	cr_expect_float_eq(row[MM_MAX], 4, EPS);
	mm_multiops(x, 3, 1, row);
	cr_expect_float_eq(row[MM_MEAN], 12.0 / 7.0, EPS, "Hmean for throughput data");
}

Test(mmstat, pndiff_positive_means_lower_than_baseline)
{
	cr_expect_float_eq(mm_pndiff(285, 303), 100 - 28500.0 / 303, EPS); /* 5.94 */
	cr_expect_float_eq(mm_pndiff(316, 215), 100 - 31600.0 / 215, EPS); /* -46.98 */
	cr_expect_eq(mm_pndiff(7, 7), 0);
	cr_expect_eq(mm_pndiff(0, 7), 100, "new == 0");
	cr_expect_eq(mm_pndiff(7, 0), -99, "base == 0");
	cr_expect_eq(mm_pndiff(0, 0), 0, "equal wins over new == 0");
}

Test(mmstat, pdiff_positive_means_higher_than_baseline)
{
	cr_expect_float_eq(mm_pdiff(110, 100), 10, EPS);
	cr_expect_float_eq(mm_pdiff(50, 100), -50, EPS);
	cr_expect_eq(mm_pdiff(7, 7), 0);
	cr_expect_eq(mm_pdiff(0, 7), 0, "new == 0 gives 0, not -100");
	cr_expect_eq(mm_pdiff(7, 0), 100, "base == 0");
}
