/*
 * watch: the sampling loop driven without waiting.  The "sleep" rewrites the source file with
 * the next dump and the clock advances one second per reading, so every figure is exact.
 */
#include <errno.h>

#include "helpers.h"
#include "plot.h"
#include "watch.h"

TestSuite(watch, .timeout = 10);

struct script {
	const char *path;
	const char *const *dumps; /* what the source holds after each "sleep" */
	int next;
	double now;
};

static int fake_sleep(double seconds, void *arg)
{
	struct script *s = arg;
	const char *text = s->dumps[s->next];

	(void)seconds;
	if (!text)
		return 1;
	s->next++;
	write_file(s->path, text, strlen(text));
	return 0;
}

static double fake_clock(void *arg)
{
	struct script *s = arg;

	return s->now++;
}

static const char *const later[] = {
	"nr_free_pages 90\npgfault 15\npgscan_kswapd 0\n",
	"nr_free_pages 90\npgfault 15\npgscan_kswapd 0\n",
	"nr_free_pages 70\npgfault 45\npgscan_kswapd 8\nnlru_pcp_drain 1\n",
	NULL,
};

/* Watch a source that holds @first, then each of @next in turn; the output, captured. */
static const char *run_script(enum out_fmt fmt, long count, char *dir, struct capture *cap,
			      const char *first, const char *const *next)
{
	char path[128];
	struct script s = {path, next, 0, 100.0};
	struct watch_opts o = {path, 1.0, count, fmt, NULL, fake_sleep, fake_clock, &s};

	scratch_dir(dir);
	snprintf(path, sizeof(path), "%s/stats", dir);
	write_file(path, first, strlen(first));
	capture_open(cap);
	cr_assert_eq(watch_run(&o, NULL, cap->f), 0);
	return capture_close(cap);
}

static const char *run(enum out_fmt fmt, long count, char *dir, struct capture *cap)
{
	return run_script(fmt, count, dir, cap, "nr_free_pages 100\npgfault 10\npgscan_kswapd 0\n",
			  later);
}

Test(watch, text_reports_only_what_changed)
{
	struct capture cap;
	char dir[64];
	const char *out = run(OUT_TEXT, 3, dir, &cap);

	cr_expect(strncmp(out, "sample 0: 3 counters from /tmp/", 31) == 0, "%s", out);
	cr_expect_not_null(strstr(out,
				  "sample 1 at 1.000 s (+1.000 s):\n"
				  "  nr_free_pages                                      90 (-10)\n"
				  "  pgfault                                            +5 "
				  "           5.0/s\n"),
			   "%s", out);
	cr_expect_not_null(strstr(out, "sample 2 at 2.000 s (+1.000 s):\n  (no change)\n"), "%s",
			   out);
	cr_expect_not_null(strstr(out, "  pgscan_kswapd                                      +8"),
			   "%s", out);
	cr_expect_not_null(
		strstr(out, "  nlru_pcp_drain                                      1 (new)"), "%s",
		out);
	free(cap.buf);
	scratch_remove(dir, (const char *const[]){"stats", NULL});
}

Test(watch, count_bounds_the_loop)
{
	struct capture cap;
	char dir[64];
	const char *out = run(OUT_TEXT, 1, dir, &cap);

	cr_expect_not_null(strstr(out, "sample 1 "), "%s", out);
	cr_expect_null(strstr(out, "sample 2 "), "%s", out);
	free(cap.buf);
	scratch_remove(dir, (const char *const[]){"stats", NULL});
}

Test(watch, csv_recording_reads_back_for_plot)
{
	struct capture cap;
	struct plot_rec rec;
	struct diag_log log;
	struct vm_diag diag = diag_for(&log);
	uint32_t sel[PLOT_MAX_SERIES];
	char dir[64];
	const char *out = run(OUT_CSV, 0, dir, &cap); /* until the script runs out */

	static const char want[] = "time,name,value,delta\n"
				   "0.000,@sample,0,\n"
				   "0.000,nr_free_pages,100,\n"
				   "0.000,pgfault,10,\n"
				   "0.000,pgscan_kswapd,0,\n"
				   "1.000,@sample,1,\n"
				   "1.000,nr_free_pages,90,-10\n"
				   "1.000,pgfault,15,5\n"
				   "2.000,@sample,2,\n"
				   "3.000,@sample,3,\n";

	cr_expect(strncmp(out, want, strlen(want)) == 0, "%s", out);
	memset(&rec, 0, sizeof(rec));
	cr_assert_eq(plot_rec_parse(&rec, out, strlen(out), "rec", &diag), 0);
	cr_expect_eq(log.count, 0, "%s", log.text);
	cr_expect_eq(rec.nr_samples, 4);
	cr_expect_eq(rec.names.nr, 4);
	/* pgscan_kswapd and nr_free_pages are preferred and changed; pgfault is not preferred. */
	cr_assert_eq(plot_rec_select(&rec, NULL, sel, NULL), 2);
	cr_expect_str_eq(rec.names.v[sel[0]].name, "pgscan_kswapd");
	cr_expect_str_eq(rec.names.v[sel[1]].name, "nr_free_pages");
	plot_rec_fini(&rec);
	free(cap.buf);
	scratch_remove(dir, (const char *const[]){"stats", NULL});
}

Test(watch, json_lines)
{
	struct capture cap;
	char dir[64];
	const char *out = run(OUT_JSON, 1, dir, &cap);

	cr_expect_not_null(strstr(out,
				  "{\"sample\":0,\"time\":0.000,\"counters\":{\"nr_free_pages\":"
				  "{\"value\":100,\"delta\":null},"),
			   "%s", out);
	cr_expect_not_null(strstr(out,
				  "{\"sample\":1,\"time\":1.000,\"counters\":{\"nr_free_pages\":"
				  "{\"value\":90,\"delta\":-10},\"pgfault\":{\"value\":15,"
				  "\"delta\":5}}}\n"),
			   "%s", out);
	free(cap.buf);
	scratch_remove(dir, (const char *const[]){"stats", NULL});
}

/* Event counters print unsigned past 2^63, in every format; a fall prints as '-' and its size. */
Test(watch, big_event_counters_print_unsigned)
{
	static const char *const next[] = {"pgfault 9223372036854775809\npgscan_kswapd 1\n", NULL};
	static const char first[] = "pgfault 1\npgscan_kswapd 9223372036854775817\n";
	static const char *const want[][2] = {
		{"  pgfault                              +9223372036854775808",
		 "  pgscan_kswapd                        -9223372036854775816"},
		{"\"pgfault\":{\"value\":9223372036854775809,\"delta\":9223372036854775808}",
		 "\"pgscan_kswapd\":{\"value\":9223372036854775817,\"delta\":null}"},
		{"1.000,pgfault,9223372036854775809,9223372036854775808\n",
		 "0.000,pgscan_kswapd,9223372036854775817,\n"},
	};

	for (int fmt = OUT_TEXT; fmt <= OUT_CSV; fmt++) {
		struct capture cap;
		char dir[64];
		const char *out = run_script((enum out_fmt)fmt, 1, dir, &cap, first, next);

		for (int k = 0; k < 2; k++)
			cr_expect_not_null(strstr(out, want[fmt][k]), "format %d:\n%s", fmt, out);
		free(cap.buf);
		scratch_remove(dir, (const char *const[]){"stats", NULL});
	}
}

/*
 * pgfault is missing from sample 1 and back at sample 2, 30 higher: its change counts from the
 * last value read (10), over the 2 s since; it is not "new".  The machine formats record the
 * gap so that plot can place the change.
 */
Test(watch, a_counter_missing_for_a_sample_counts_from_its_last_value)
{
	static const char *const next[] = {"nr_free_pages 5\n", "pgfault 40\nnr_free_pages 5\n",
					   NULL};
	static const char first[] = "pgfault 10\nnr_free_pages 5\n";
	static const char *const want[][2] = {
		{"sample 1 at 1.000 s (+1.000 s):\n  (no change)\n",
		 "sample 2 at 2.000 s (+1.000 s):\n  pgfault                                  "
		 "         +30           15.0/s over 2.000 s\n"},
		{"{\"sample\":1,\"time\":1.000,\"counters\":"
		 "{\"pgfault\":{\"value\":null,\"delta\":null}}}",
		 "{\"sample\":2,\"time\":2.000,\"counters\":"
		 "{\"pgfault\":{\"value\":40,\"delta\":30}}}"},
		{"1.000,@sample,1,\n1.000,pgfault,,\n", "2.000,@sample,2,\n2.000,pgfault,40,30\n"},
	};

	for (int fmt = OUT_TEXT; fmt <= OUT_CSV; fmt++) {
		struct capture cap;
		char dir[64];
		const char *out = run_script((enum out_fmt)fmt, 2, dir, &cap, first, next);

		for (int k = 0; k < 2; k++)
			cr_expect_not_null(strstr(out, want[fmt][k]), "format %d:\n%s", fmt, out);
		cr_expect_null(strstr(out, "new"), "format %d:\n%s", fmt, out);
		free(cap.buf);
		scratch_remove(dir, (const char *const[]){"stats", NULL});
	}
}

Test(watch, a_vanished_source_is_an_error)
{
	struct watch_opts o = {"/nonexistent/nlru-stats", 0, 1, OUT_TEXT, NULL, NULL, NULL, NULL};
	struct capture cap;

	capture_open(&cap);
	cr_expect_eq(watch_run(&o, NULL, cap.f), -ENOENT);
	capture_close(&cap);
	free(cap.buf);
}

Test(watch, live_proc_vmstat_two_samples)
{
	struct watch_opts o = {"/proc/vmstat", 0, 1, OUT_CSV, NULL, NULL, NULL, NULL};
	struct capture cap;
	const char *out;

	if (access("/proc/vmstat", R_OK) != 0)
		cr_skip_test("no /proc/vmstat on this machine");
	capture_open(&cap);
	cr_assert_eq(watch_run(&o, NULL, cap.f), 0);
	out = capture_close(&cap);
	cr_expect_not_null(strstr(out, ",@sample,1,\n"), "%s", out);
	cr_expect_not_null(strstr(out, ",nr_free_pages,"), "%s", out);
	free(cap.buf);
}
