/* plot: stutter statistics on a generated latency file, data files and gnuplot scripts. */
#include <errno.h>
#include <math.h>
#include <sys/stat.h>

#include "helpers.h"
#include "plot.h"
#include "stutter.h"

TestSuite(plot, .timeout = 10);

static void expect_ms(const struct stutter_stats *st, int row, double want)
{
	cr_expect(fabs(st->ms[row] - want) < 1e-9, "%s = %f, want %f", stutter_stat_names[row],
		  st->ms[row], want);
}

/*
 * 1000 samples of 1, 2, ..., 1000 ms in a scrambled order, a fifth of them in the mmtests
 * "<count> <ns>" form.  Sorted, s[k] = k+1 ms and last = 999, so (SummariseVariabletime.pm):
 *   1st-qrtle s[int(249.75+0.5)=250] = 251     2nd s[500] = 501     3rd s[int(749.75)=749] = 750
 *   Max-90%   s[int(899.6)=899] = 900          Max-93% s[929] = 930  Max-95% s[949] = 950
 *   Max-99%   s[int(989.51)=989] = 990         Mean = 500.5
 *   BestP%Mean averages t+1 values, t = int(1000*P/100): Best99 = mean(1..991) = 496,
 *   Best95 = 476, Best90 = 451, Best50 = 251, Best10 = 51, Best5 = 26, Best1 = mean(1..11) = 6.
 */
Test(plot, stutter_statistics_of_a_generated_file)
{
	char dir[64], path[128], used[256];
	struct stutter_samples s;
	struct stutter_stats st;
	struct diag_log log;
	struct vm_diag diag = diag_for(&log);
	FILE *f;

	scratch_dir(dir);
	snprintf(path, sizeof(path), "%s/" STUTTER_FILE, dir);
	f = fopen(path, "w");
	cr_assert_not_null(f);
	fputs("# stutter latency, one sample per line, ns\n", f);
	for (int i = 0; i < 1000; i++) {
		int ms = (i * 7919) % 1000 + 1; /* 7919 is prime to 1000: a permutation */

		fprintf(f, i % 5 ? "%d000000\n" : "1 %d000000\n", ms);
	}
	fputs("not a number\n", f);
	fclose(f);
	memset(&s, 0, sizeof(s));
	cr_assert_eq(stutter_load_dir(&s, dir, &diag, used, sizeof(used)), 0);
	cr_expect_eq(log.count, 1, "%s", log.text);
	cr_expect_not_null(strstr(log.text, "1002: "), "%s", log.text);
	cr_assert_eq(stutter_stats(&s, &st), 0);
	cr_expect_eq(st.n, 1000);
	expect_ms(&st, ST_MIN, 1);
	expect_ms(&st, ST_Q1, 251);
	expect_ms(&st, ST_Q2, 501);
	expect_ms(&st, ST_Q3, 750);
	expect_ms(&st, ST_P90, 900);
	expect_ms(&st, ST_P93, 930);
	expect_ms(&st, ST_P95, 950);
	expect_ms(&st, ST_P99, 990);
	expect_ms(&st, ST_MAX, 1000);
	expect_ms(&st, ST_MEAN, 500.5);
	expect_ms(&st, ST_B99, 496);
	expect_ms(&st, ST_B95, 476);
	expect_ms(&st, ST_B90, 451);
	expect_ms(&st, ST_B50, 251);
	expect_ms(&st, ST_B10, 51);
	expect_ms(&st, ST_B5, 26);
	expect_ms(&st, ST_B1, 6);
	stutter_fini(&s);
	scratch_remove(dir, (const char *const[]){STUTTER_FILE, NULL});
}

/* "3 5000000" is three samples of 5 ms: s = {5, 5, 5, 10}, mean 6.25, Best50 = mean(s[0..2]). */
Test(plot, stutter_grouped_lines_expand)
{
	static const char text[] = "3 5000000\n1 10000000\n0 7\n";
	struct stutter_samples s;
	struct stutter_stats st;
	struct capture cap;
	const char *out;

	memset(&s, 0, sizeof(s));
	cr_assert_eq(stutter_parse(&s, text, strlen(text), "t", NULL), 0);
	cr_expect_eq(s.nr_malformed, 1, "a count of 0 is refused");
	cr_assert_eq(stutter_stats(&s, &st), 0);
	cr_expect_eq(st.n, 4);
	expect_ms(&st, ST_Q2, 5);
	expect_ms(&st, ST_P90, 10);
	expect_ms(&st, ST_MEAN, 6.25);
	expect_ms(&st, ST_B50, 5);
	expect_ms(&st, ST_B1, 6.25);
	capture_open(&cap);
	stutter_print(&st, OUT_TEXT, cap.f);
	out = capture_close(&cap);
	cr_expect(strncmp(out, "Min         mmap      5.0000\n", 29) == 0, "%s", out);
	cr_expect_not_null(strstr(out, "\nBest99%Mean mmap      6.2500\n"), "%s", out);
	free(cap.buf);
	stutter_fini(&s);
}

Test(plot, stutter_folder_without_a_log)
{
	struct stutter_samples s;
	char dir[64], used[256];

	memset(&s, 0, sizeof(s));
	scratch_dir(dir);
	cr_expect_eq(stutter_load_dir(&s, dir, NULL, used, sizeof(used)), -ENOENT);
	stutter_fini(&s);
	rmdir(dir);
}

static char *slurp(const char *path)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = fopen(path, "r");

	cr_assert_not_null(f, "%s", path);
	cr_assert_eq(getdelim(&buf, &len, '\0', f) > 0, 1);
	fclose(f);
	return buf;
}

Test(plot, counters_data_and_script)
{
	static const char rec_text[] = "time,name,value,delta\n"
				       "0.000,@sample,0,\n"
				       "0.000,pgscan_kswapd,100,\n"
				       "0.000,nr_free_pages,5000,\n"
				       "2.000,@sample,1,\n"
				       "2.000,pgscan_kswapd,300,200\n"
				       "4.000,@sample,2,\n"
				       "4.000,nr_free_pages,4000,-1000\n";
	char dir[64], prefix[128], path[160];
	struct plot_rec rec;
	uint32_t sel[PLOT_MAX_SERIES];
	char *dat, *gp;

	memset(&rec, 0, sizeof(rec));
	cr_assert_eq(plot_rec_parse(&rec, rec_text, strlen(rec_text), "r", NULL), 0);
	cr_assert_eq(plot_rec_select(&rec, NULL, sel, NULL), 2);
	scratch_dir(dir);
	snprintf(prefix, sizeof(prefix), "%s/it's", dir);
	cr_assert_eq(plot_counters_write(&rec, sel, 2, prefix, PLOT_BOTH), 0);
	snprintf(path, sizeof(path), "%s.dat", prefix);
	dat = slurp(path);
	/* pgscan_kswapd: rate 200/2 s = 100/s, then 0; nr_free_pages: the value carried forward */
	cr_expect_str_eq(dat, "# time pgscan_kswapd nr_free_pages\n"
			      "0.000 ? 5000\n"
			      "2.000 100.000 5000\n"
			      "4.000 0.000 4000\n");
	snprintf(path, sizeof(path), "%s.gp", prefix);
	gp = slurp(path);
	cr_expect_not_null(strstr(gp, "set terminal pngcairo"), "%s", gp);
	cr_expect_not_null(strstr(gp, "set terminal svg"), "%s", gp);
	cr_expect_not_null(strstr(gp, "it''s.svg'"), "quote doubled for gnuplot:\n%s", gp);
	cr_expect_not_null(strstr(gp, "set multiplot layout 2,1"), "%s", gp);
	cr_expect_not_null(
		strstr(gp, "using 1:2 with linespoints pointsize 0.6 title 'pgscan_kswapd'"), "%s",
		gp);
	cr_expect_not_null(
		strstr(gp, "using 1:3 with linespoints pointsize 0.6 title 'nr_free_pages'"), "%s",
		gp);
	free(dat);
	free(gp);
	plot_rec_fini(&rec);
	scratch_remove(dir, (const char *const[]){"it's.dat", "it's.gp", NULL});
}

/*
 * pgscan_kswapd is missing from sample 1 (an empty value, as watch records it) and back at
 * sample 2 having grown by 300 over the 4 s since sample 0: '?' at 1, 300/4 = 75/s at 2, never
 * 300 put on the 2 s of one interval (150/s).  nr_free_pages is missing from sample 2 only.
 */
Test(plot, a_counter_missing_from_a_sample_gets_its_rate_over_the_gap)
{
	static const char rec_text[] = "time,name,value,delta\n"
				       "0.000,@sample,0,\n"
				       "0.000,pgscan_kswapd,100,\n"
				       "0.000,nr_free_pages,5000,\n"
				       "2.000,@sample,1,\n"
				       "2.000,pgscan_kswapd,,\n"
				       "4.000,@sample,2,\n"
				       "4.000,pgscan_kswapd,400,300\n"
				       "4.000,nr_free_pages,,\n"
				       "6.000,@sample,3,\n";
	struct diag_log log;
	struct vm_diag diag = diag_for(&log);
	char dir[64], prefix[128], path[160];
	struct plot_rec rec;
	uint32_t sel[PLOT_MAX_SERIES];
	char *dat;

	memset(&rec, 0, sizeof(rec));
	cr_assert_eq(plot_rec_parse(&rec, rec_text, strlen(rec_text), "r", &diag), 0);
	cr_expect_eq(log.count, 0, "an empty value is no malformed row:\n%s", log.text);
	cr_assert_eq(plot_rec_select(&rec, NULL, sel, NULL), 1, "only pgscan_kswapd changed");
	sel[1] = 1; /* nr_free_pages */
	scratch_dir(dir);
	snprintf(prefix, sizeof(prefix), "%s/gap", dir);
	cr_assert_eq(plot_counters_write(&rec, sel, 2, prefix, PLOT_PNG), 0);
	snprintf(path, sizeof(path), "%s.dat", prefix);
	dat = slurp(path);
	cr_expect_str_eq(dat, "# time pgscan_kswapd nr_free_pages\n"
			      "0.000 ? 5000\n"
			      "2.000 ? 5000\n"
			      "4.000 75.000 ?\n"
			      "6.000 0.000 5000\n");
	free(dat);
	plot_rec_fini(&rec);
	scratch_remove(dir, (const char *const[]){"gap.dat", "gap.gp", NULL});
}

Test(plot, recording_errors)
{
	static const char bad[] = "time,name,value,delta\n"
				  "0.000,pgfault,1,\n" /* 2: before any @sample */
				  "0.000,@sample,0,\n"
				  "x,pgfault,1,\n" /* 4: bad time */
				  "1.0,pgfault\n"; /* 5: no value */
	struct diag_log log;
	struct vm_diag diag = diag_for(&log);
	const char *missing = NULL;
	uint32_t sel[PLOT_MAX_SERIES];
	struct plot_rec rec;

	memset(&rec, 0, sizeof(rec));
	cr_assert_eq(plot_rec_parse(&rec, bad, strlen(bad), "r", &diag), 0);
	cr_expect_eq(rec.nr_malformed, 3, "%s", log.text);
	cr_expect_not_null(strstr(log.text, "2: counter row before the first @sample"), "%s",
			   log.text);
	cr_expect_eq(
		plot_rec_select(&rec, (const char *const[]){"pgscan_kswapd", NULL}, sel, &missing),
		-ENOENT);
	cr_expect_str_eq(missing, "pgscan_kswapd");
	cr_expect_eq(plot_rec_select(&rec, NULL, sel, NULL), 0, "nothing changed");
	plot_rec_fini(&rec);
	memset(&rec, 0, sizeof(rec));
	cr_expect_eq(plot_rec_parse(&rec, "time,name,value,delta\n", 22, "r", NULL), -EBADMSG);
	plot_rec_fini(&rec);
}

Test(plot, stutter_distribution_data)
{
	static const char text[] = "2 1000000\n3000000\n";
	char dir[64], prefix[128], path[160];
	struct stutter_samples s;
	struct stutter_stats st;
	char *dat, *gp;

	memset(&s, 0, sizeof(s));
	cr_assert_eq(stutter_parse(&s, text, strlen(text), "t", NULL), 0);
	cr_assert_eq(stutter_stats(&s, &st), 0);
	scratch_dir(dir);
	snprintf(prefix, sizeof(prefix), "%s/lat", dir);
	cr_assert_eq(plot_stutter_write(&s, prefix, PLOT_PNG), 0);
	snprintf(path, sizeof(path), "%s.dat", prefix);
	dat = slurp(path);
	cr_expect_str_eq(dat, "# latency_ms cumulative_percent\n"
			      "1.000000 66.666667\n"
			      "3.000000 100.000000\n");
	snprintf(path, sizeof(path), "%s.gp", prefix);
	gp = slurp(path);
	cr_expect_not_null(strstr(gp, "set logscale x"), "%s", gp);
	cr_expect_null(strstr(gp, "svg"), "only PNG was asked:\n%s", gp);
	free(dat);
	free(gp);
	stutter_fini(&s);
	scratch_remove(dir, (const char *const[]){"lat.dat", "lat.gp", NULL});
}

Test(plot, gnuplot_lookup_honours_the_override)
{
	char buf[256];

	setenv("NLRU_GNUPLOT", "/nonexistent/gnuplot", 1);
	cr_expect_eq(plot_find_gnuplot(buf, sizeof(buf)), -ENOENT);
	unsetenv("NLRU_GNUPLOT");
}
