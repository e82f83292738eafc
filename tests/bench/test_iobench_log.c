/*
 * iobench_log and the duration table: the thread counts of the paralleldd and tiobench
 * shellpacks, GNU time's lines, tiobench.pl's report (its Perl formats), the reading of both
 * benchmarks' files as mmtests' Extract modules read them, and their tables, against figures
 * worked out by hand.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "iobench_log.h"
#include "mmtable.h"
#include "mmtests_results.h"

#define EPS 1e-9

TestSuite(iobench_log, .timeout = 10);

static void expect_list(const int *got, int n, const int *want, int nw)
{
	cr_assert_eq(n, nw, "%d counts, expected %d", n, nw);
	for (int i = 0; i < n; i++)
		cr_expect_eq(got[i], want[i], "count %d: %d, expected %d", i, got[i], want[i]);
}

Test(iobench_log, paralleldd_thread_counts_of_the_shellpack)
{
	static const int series[] = {1, 3, 5, 7, 12, 16}, two[] = {1, 2}, eight[] = {1, 3, 5, 7, 8},
			 forty[] = {1, 4, 7, 12, 21, 30, 40},
			 hundred[] = {1, 4, 7, 12, 21, 30, 48, 79, 100}, from5[] = {5, 7, 12, 16};
	int out[IOB_MAX_THREAD_COUNTS];

	/* 16 CPUs, the series' machine: seq 1 2 8, seq 12 6 16, then 16 appended. */
	expect_list(out, iob_paralleldd_threads(1, 16, out, IOB_MAX_THREAD_COUNTS), series, 6);
	expect_list(out, iob_paralleldd_threads(1, 2, out, IOB_MAX_THREAD_COUNTS), two, 2);
	expect_list(out, iob_paralleldd_threads(1, 8, out, IOB_MAX_THREAD_COUNTS), eight, 5);
	/* Over 32: seq 1 3 8, seq 12 9 32, seq 48 31 max. */
	expect_list(out, iob_paralleldd_threads(1, 40, out, IOB_MAX_THREAD_COUNTS), forty, 7);
	expect_list(out, iob_paralleldd_threads(1, 100, out, IOB_MAX_THREAD_COUNTS), hundred, 9);
	expect_list(out, iob_paralleldd_threads(5, 16, out, IOB_MAX_THREAD_COUNTS), from5, 4);
	cr_expect_eq(iob_paralleldd_threads(3, 2, out, IOB_MAX_THREAD_COUNTS), -EINVAL);
	cr_expect_eq(iob_paralleldd_threads(1, 16, out, 4), 4, "cut to the room given");
}

Test(iobench_log, tiobench_thread_counts_of_the_shellpack)
{
	static const int series[] = {1, 2, 4, 8, 16}, twelve[] = {1, 2, 4, 8, 12}, one[] = {1},
			 from3[] = {3, 6, 12, 16};
	int out[IOB_MAX_THREAD_COUNTS];

	expect_list(out, iob_tiobench_threads(1, 16, out, IOB_MAX_THREAD_COUNTS), series, 5);
	expect_list(out, iob_tiobench_threads(1, 12, out, IOB_MAX_THREAD_COUNTS), twelve, 5);
	expect_list(out, iob_tiobench_threads(1, 1, out, IOB_MAX_THREAD_COUNTS), one, 1);
	expect_list(out, iob_tiobench_threads(3, 16, out, IOB_MAX_THREAD_COUNTS), from3, 4);
	cr_expect_eq(iob_tiobench_threads(0, 16, out, IOB_MAX_THREAD_COUNTS), -EINVAL);
}

Test(iobench_log, gnu_time_elapsed_as_extract_reads_it)
{
	cr_expect_float_eq(iob_time_elapsed("0.01user 0.02system 0:02.50elapsed 1%CPU (0avgtext"),
			   2.5, EPS);
	cr_expect_float_eq(iob_time_elapsed("1.00user 2.00system 3:04.25elapsed 99%CPU"), 184.25,
			   EPS);
	cr_expect_float_eq(iob_time_elapsed("1.00user 2.00system 1:02:03elapsed 99%CPU"), 3723,
			   EPS);
	cr_expect(isnan(iob_time_elapsed("0inputs+0outputs (0major+0minor)pagefaults 0swaps")));
}

static char *tmpdir(void)
{
	char *d = strdup("/tmp/nlru-iobench-test-XXXXXX");

	cr_assert(mkdtemp(d));
	return d;
}

static char *slurp(const char *dir, const char *name)
{
	char path[512], *buf = calloc(1, 1 << 16);
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r");
	cr_assert(f && buf, "%s", path);
	fread(buf, 1, (1 << 16) - 1, f);
	fclose(f);
	return buf;
}

static void rm_rf(const char *dir)
{
	char cmd[600];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	cr_expect_eq(system(cmd), 0);
}

Test(iobench_log, gnu_time_file_with_cpu_times)
{
	char *d = tmpdir(), *text;

	/* 0.25 + 0.5 CPU seconds in 75.5 s of wall time: 1 %CPU. */
	cr_assert_eq(mmt_write_gnu_time(d, "time-1-1-1", 0.25, 0.5, 75.5), 0);
	text = slurp(d, "time-1-1-1");
	cr_expect_str_eq(text,
			 "0.25user 0.50system 1:15.500000000elapsed 1%CPU (0avgtext+0avgdata "
			 "0maxresident)k\n0inputs+0outputs (0major+0minor)pagefaults 0swaps\n");
	cr_expect_float_eq(iob_time_elapsed(text), 75.5, EPS);
	free(text);
	rm_rf(d);
	free(d);
}

static void write_time(const char *dir, int threads, int instance, int it, double secs)
{
	char name[64];

	snprintf(name, sizeof(name), "time-%d-%d-%d", threads, instance, it);
	cr_assert_eq(mmt_write_gnu_time(dir, name, 0, 0, secs), 0);
}

static char *print_table(const struct mm_table *t)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	mm_table_print(t, f);
	fclose(f);
	return buf;
}

/*
 * Two modes' dd times.  Elapsd-1, three iterations: zone 10 12 14, node 9 12 15; Elapsd-3,
 * one iteration of three dds: zone 20 21 22, node 19 21 23.  By hand: zone Elapsd-1 mean 12,
 * stddev sqrt(8/3) = 1.633, CoeffVar 13.61; node stddev sqrt(6) = 2.449 (-50 %), CoeffVar
 * 20.41; Elapsd-3 stddevs sqrt(2/3) = 0.816 and sqrt(8/3) (-100 %), CoeffVars 3.89 and 7.78.
 */
Test(iobench_log, paralleldd_times_extracted_and_tabled)
{
	static const char *const cols[] = {"4.7-zone", "4.8-node"};
	static const char *const want =
		"                                    4.7                   4.8\n"
		"                                   zone                  node\n"
		"Min      Elapsd-1       10.00 (  0.00%)        9.00 ( 10.00%)\n"
		"Min      Elapsd-3       20.00 (  0.00%)       19.00 (  5.00%)\n"
		"Amean    Elapsd-1       12.00 (  0.00%)       12.00 (  0.00%)\n"
		"Amean    Elapsd-3       21.00 (  0.00%)       21.00 (  0.00%)\n"
		"Stddev   Elapsd-1        1.63 (  0.00%)        2.45 (-50.00%)\n"
		"Stddev   Elapsd-3        0.82 (  0.00%)        1.63 (-100.00%)\n"
		"CoeffVar Elapsd-1       13.61 (  0.00%)       20.41 (-50.00%)\n"
		"CoeffVar Elapsd-3        3.89 (  0.00%)        7.78 (-100.00%)\n"
		"Max      Elapsd-1       14.00 (  0.00%)       15.00 ( -7.14%)\n"
		"Max      Elapsd-3       22.00 (  0.00%)       23.00 ( -4.55%)\n";
	static const double e1[2][3] = {{10, 12, 14}, {9, 12, 15}},
			    e3[2][3] = {{20, 21, 22}, {19, 21, 23}};
	struct iob_ops ops[2];
	struct mm_table t;
	char *dir[2], *out;

	for (int m = 0; m < 2; m++) {
		dir[m] = tmpdir();
		for (int it = 0; it < 3; it++)
			write_time(dir[m], 1, 1, it + 1, e1[m][it]);
		for (int i = 0; i < 3; i++)
			write_time(dir[m], 3, i + 1, 1, e3[m][i]);
		/* A count without its time-<n>-1-1 is not one ExtractParalleldd finds. */
		write_time(dir[m], 12, 2, 1, 99);
		cr_assert_eq(iob_paralleldd_extract(dir[m], &ops[m]), 0);
	}
	cr_assert_eq(ops[0].nr, 2);
	cr_expect_str_eq(ops[0].op[0].name, "Elapsd-1");
	cr_expect_str_eq(ops[0].op[1].name, "Elapsd-3");
	cr_expect_eq(ops[0].op[0].n, 3);
	/* CompareParalleldd: field 12, precision 2; ExtractParalleldd's field 12. */
	cr_assert_eq(mm_table_init(&t, cols, 2, 12, 2, 12), 0);
	cr_assert_eq(iob_fill_table(&t, ops, 2, 0, MM_CMP_PNDIFF), 0);
	out = print_table(&t);
	cr_expect_str_eq(out, want);
	free(out);
	mm_table_fini(&t);
	for (int m = 0; m < 2; m++) {
		iob_ops_fini(&ops[m]);
		rm_rf(dir[m]);
		free(dir[m]);
	}
}

Test(iobench_log, paralleldd_extract_without_files)
{
	char *d = tmpdir();
	struct iob_ops ops;

	cr_expect_eq(iob_paralleldd_extract(d, &ops), -ENOENT);
	cr_expect_eq(ops.nr, 0);
	rm_rf(d);
	free(d);
}

/*
 * tiotest's figures by hand: 256 MB in 1.7 s with 0.31 + 1.02 s of CPU is 150.59 MB/s at
 * 78.24 %, so 150.59 / 0.7824 = 192 MB/s per CPU; a random read of 156.25 MB in 0.1 s with no
 * CPU at all is 1562.5 MB/s, and mmtests' patch takes its CPU share as 0.01: 156250.
 */
static void sample_figures(struct tio_figures f[NR_TIO_TESTS])
{
	f[TIO_WRITE] = (struct tio_figures){256, 3.1, 0.2, 0.9, 0.011, 338.88, 0, 0};
	f[TIO_RWRITE] = (struct tio_figures){15.625, 13.3, 0, 0.05, 3.14159, 2500, 0.0123, 0};
	f[TIO_READ] = (struct tio_figures){256, 1.7, 0.31, 1.02, 0.052, 12.5, 0, 0};
	f[TIO_RREAD] = (struct tio_figures){156.25, 0.1, 0, 0, 0.1, 0.5, 0, 0};
}

Test(iobench_log, tiobench_rates_as_tiobench_pl_computes_them)
{
	struct tio_figures f[NR_TIO_TESTS];
	struct tio_rate r;

	sample_figures(f);
	tio_rate_of(&f[TIO_READ], &r);
	cr_expect_float_eq(r.rate, 256 / 1.7, EPS);
	cr_expect_float_eq(r.cpu, 100 * 1.33 / 1.7, EPS);
	cr_expect_float_eq(r.cpueff, (256 / 1.7) / (1.33 / 1.7), EPS);
	tio_rate_of(&f[TIO_RREAD], &r);
	cr_expect_float_eq(r.cpu, 0, EPS);
	cr_expect_float_eq(r.cpueff, 156250, EPS);
}

/*
 * The report as tiobench.pl's formats print it (checked against Perl 5.36 running the same
 * format lines): fields centred with the odd space on the right, CPU% as Perl's text of the
 * number cut to 5 characters, '#'s for a number too wide for its field (1562.50 in @##.##,
 * 156250 in @####).
 */
Test(iobench_log, tiobench_report_in_perl_formats)
{
	static const char *const want =
		"\n"
		"Unit information\n"
		"================\n"
		"File size = megabytes\n"
		"Blk Size  = bytes\n"
		"Rate      = megabytes per second\n"
		"CPU%      = percentage of CPU used during the test\n"
		"Latency   = milliseconds\n"
		"Lat%      = percent of requests that took longer than X seconds\n"
		"CPU Eff   = Rate divided by CPU% - throughput per cpu load\n"
		"\n"
		"Sequential Reads\n"
		"4.7-zone                      256   4096   16  150.59 78.23%     0.052       12.50"
		"   0.00000  0.00000   192\n"
		"\n"
		"Random Reads\n"
		"4.7-zone                      256   4096   16  ######     0%     0.100        0.50"
		"   0.00000  0.00000 #####\n"
		"\n"
		"Sequential Writes\n"
		"4.7-zone                      256   4096   16   82.58 35.48%     0.011      338.88"
		"   0.00000  0.00000   233\n"
		"\n"
		"Random Writes\n"
		"4.7-zone                      256   4096   16    1.17 0.375%     3.142     2500.00"
		"   0.01230  0.00000   312\n";
	struct tio_figures f[NR_TIO_TESTS];
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	sample_figures(f);
	tio_report_write(out, "4.7-zone", 256, 4096, 16, f);
	fclose(out);
	cr_expect_str_eq(buf, want);
	free(buf);
}

Test(iobench_log, tiobench_report_read_as_extract_reads_it)
{
	struct tio_figures f[NR_TIO_TESTS];
	double rate[NR_TIO_TESTS];
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	sample_figures(f);
	tio_report_write(out, "4.8-node", 256, 4096, 16, f);
	fclose(out);
	tio_report_rates(buf, len, rate);
	cr_expect_float_eq(rate[TIO_READ], 150.59, EPS);
	cr_expect_float_eq(rate[TIO_RREAD], -1, EPS, "'#'s: too fast for the field");
	cr_expect_float_eq(rate[TIO_WRITE], 82.58, EPS);
	cr_expect_float_eq(rate[TIO_RWRITE], 1.17, EPS);
	free(buf);
	/* A report without a test leaves it NaN. */
	tio_report_rates("Random Reads\nx 1 2 3 4.5\n", 26, rate);
	cr_expect_float_eq(rate[TIO_RREAD], 4.5, EPS);
	cr_expect(isnan(rate[TIO_READ]));
}

static void write_report(const char *dir, const char *col, int threads, int it, double seq_read)
{
	struct tio_figures f[NR_TIO_TESTS];
	char path[512];
	FILE *out;

	sample_figures(f);
	f[TIO_READ] = (struct tio_figures){seq_read, 1, 0, 0, 0, 0, 0, 0};
	snprintf(path, sizeof(path), "%s/tiobench-%d-%d.log", dir, threads, it);
	cr_assert((out = fopen(path, "w")));
	fputs("Run #1: tiotest -t 1 -f 256 -r 4000 -b 4096 -d . -T\n", out);
	tio_report_write(out, col, 256, 4096, threads, f);
	fclose(out);
}

/*
 * Two modes, threads 1 and 2, two iterations each.  SeqRead-MB/sec-1: zone 100 and 150 (Hmean
 * 2 / (1/100 + 1/150) = 120), node 90 and 180 (Hmean 120 too: 0.00 %); -2: zone 60 60, node 40
 * 120 (Hmean 60, Min 40: -33.33 % with pdiff).  Stddev: zone 25 and 0, node 45 and 40.
 */
Test(iobench_log, tiobench_logs_extracted_and_tabled)
{
	static const char *const cols[] = {"4.7-zone", "4.8-node"};
	static const double seq[2][2][2] = {{{100, 150}, {60, 60}}, {{90, 180}, {40, 120}}};
	static const char *const want[] = {
		"                                                    4.7                         4.8\n"
		"                                                   zone                        node\n",
		"Min      PotentialReadSpeed       89.65 (  0.00%)        0.00 (  0.00%)\n",
		"Min      SeqRead-MB/sec-2         60.00 (  0.00%)       40.00 (-33.33%)\n",
		"Hmean    SeqRead-MB/sec-1        120.00 (  0.00%)      120.00 (  0.00%)\n",
		"Hmean    SeqRead-MB/sec-2         60.00 (  0.00%)       60.00 (  0.00%)\n",
		"Stddev   SeqRead-MB/sec-1         25.00 (  0.00%)       45.00 ( 80.00%)\n",
		"Max      SeqRead-MB/sec-2         60.00 (  0.00%)      120.00 (100.00%)\n",
		"Max      RandWrite-MB/sec-2        1.17 (  0.00%)        1.17 (  0.00%)\n",
	};
	struct iob_ops ops[2];
	struct mm_table t;
	char *dir[2], *out, path[512];
	FILE *f;

	for (int m = 0; m < 2; m++) {
		dir[m] = tmpdir();
		for (int th = 0; th < 2; th++)
			for (int it = 0; it < 2; it++)
				write_report(dir[m], cols[m], th + 1, it + 1, seq[m][th][it]);
		snprintf(path, sizeof(path), "%s/disk-read.speed", dir[m]);
		if (m == 0) {
			cr_assert((f = fopen(path, "w")));
			fputs("89.65\n", f);
			fclose(f);
		}
		cr_assert_eq(iob_tiobench_extract(dir[m], &ops[m]), 0);
	}
	cr_assert_eq(ops[0].nr, 9);
	cr_expect_str_eq(ops[0].op[0].name, "PotentialReadSpeed");
	cr_expect_str_eq(ops[0].op[1].name, "SeqRead-MB/sec-1");
	cr_expect_str_eq(ops[0].op[2].name, "SeqRead-MB/sec-2");
	cr_expect_str_eq(ops[0].op[3].name, "RandRead-MB/sec-1");
	cr_expect_str_eq(ops[0].op[8].name, "RandWrite-MB/sec-2");
	cr_expect_float_eq(ops[0].op[0].x[0], 89.65, EPS);
	cr_expect_float_eq(ops[1].op[0].x[0], -1, EPS, "no disk-read.speed: -1");
	/* CompareTiobench: field 12, precision 2, pdiff; Extract.pm's field 18 heads it. */
	cr_assert_eq(mm_table_init(&t, cols, 2, 12, 2, 18), 0);
	cr_assert_eq(iob_fill_table(&t, ops, 2, 1, MM_CMP_PDIFF), 0);
	out = print_table(&t);
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		cr_expect(strstr(out, want[i]), "no line\n%s\nin\n%s", want[i], out);
	free(out);
	mm_table_fini(&t);
	for (int m = 0; m < 2; m++) {
		iob_ops_fini(&ops[m]);
		rm_rf(dir[m]);
		free(dir[m]);
	}
}

/* compare-kernels' duration table: no percentages, "%12.2f" under headers of 12. */
Test(iobench_log, duration_table)
{
	static const char *const cols[] = {"4.7-zone", "4.8-node"};
	struct mmt_record recs[2] = {{.user = 1439.23, .sys = 8332.31, .elapsed = 3619.8},
				     {.user = 1433.37, .sys = 8216.01, .elapsed = 3532.69}};
	struct mm_table t;
	char *out;

	cr_assert_eq(mmt_duration_table(&t, cols, recs, 2), 0);
	out = print_table(&t);
	cr_expect_str_eq(out, "                 4.7         4.8\n"
			      "                zone        node\n"
			      "User         1439.23     1433.37\n"
			      "System       8332.31     8216.01\n"
			      "Elapsed      3619.80     3532.69\n");
	free(out);
	mm_table_fini(&t);
}
