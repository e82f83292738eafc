/*
 * latency_log: mmap-latency's grouping rule, its two quirks, and the statistics mmtests makes
 * of the log (through nlru-vmstat's stutter reader, which the benchmark uses too).
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "latency_log.h"
#include "stutter.h"

#define MS UINT64_C(1000000)

TestSuite(latency_log, .timeout = 10);

struct capture {
	char *buf;
	size_t len;
	FILE *f;
	struct latency_log log;
};

static void start(struct capture *c)
{
	c->f = open_memstream(&c->buf, &c->len);
	cr_assert(c->f);
	latency_log_init(&c->log, c->f);
}

static char *finish(struct capture *c)
{
	fclose(c->f);
	return c->buf;
}

Test(latency_log, a_thousand_fast_samples_make_one_averaged_line)
{
	struct capture c;

	start(&c);
	for (int i = 0; i < 999; i++)
		latency_log_add(&c.log, 5 * MS + MS / 2); /* 0.5 ms over the sleep */
	fflush(c.f);
	cr_expect_eq(c.len, 0, "no line before the 1000th sample");
	latency_log_add(&c.log, 6 * MS + MS / 2); /* the 1000th: 1.5 ms */
	/* Σ = 999 * 500000 + 1500000 = 501000000; / 1000 */
	cr_expect_str_eq(finish(&c), "1000 501000\n");
	cr_expect_eq(c.log.lines, 1);
	free(c.buf);
}

Test(latency_log, a_slow_sample_cuts_the_group_and_is_counted_in_its_average)
{
	struct capture c;

	start(&c);
	latency_log_add(&c.log, 6 * MS); /* 1 ms */
	latency_log_add(&c.log, 6 * MS);
	latency_log_add(&c.log, 6 * MS);
	latency_log_add(&c.log, 15 * MS); /* 10 ms: slow */
	/* The cut group: (1 + 1 + 1 + 10) ms / 3 = 4333333 ns, the mmtests quirk. */
	cr_expect_str_eq(finish(&c), "3 4333333\n1 10000000\n");
	cr_expect_eq(c.log.slow, 1);
	free(c.buf);
}

Test(latency_log, five_ms_over_is_slow_and_under_the_sleep_is_zero)
{
	struct capture c;

	start(&c);
	latency_log_add(&c.log, 10 * MS);     /* exactly 5 ms over: not < 5 ms, so slow */
	latency_log_add(&c.log, 4 * MS);      /* shorter than the sleep: clamped to 0 */
	latency_log_add(&c.log, 10 * MS - 1); /* 4.999999 ms: fast */
	latency_log_finish(&c.log, 1);
	/* (0 + 4999999) / 2 = 2499999 */
	cr_expect_str_eq(finish(&c), "1 5000000\n2 2499999\n");
	free(c.buf);
}

Test(latency_log, the_open_group_is_dropped_as_mmtests_does_unless_flushed)
{
	struct capture c;

	start(&c);
	latency_log_add(&c.log, 7 * MS);
	latency_log_finish(&c.log, 0);
	cr_expect_str_eq(finish(&c), "");
	free(c.buf);
	start(&c);
	latency_log_add(&c.log, 7 * MS);
	latency_log_add(&c.log, 8 * MS);
	latency_log_finish(&c.log, 1);
	cr_expect_str_eq(finish(&c), "2 2500000\n");
	free(c.buf);
}

static void stats_of(const char *log, struct stutter_stats *st)
{
	struct stutter_samples s;

	memset(&s, 0, sizeof(s));
	cr_assert_eq(stutter_parse(&s, log, strlen(log), "log", NULL), 0);
	cr_assert_eq(stutter_stats(&s, st), 0);
	stutter_fini(&s);
}

/*
 * Ten samples of 1 .. 10 ms, one line each: n = 10, last = 9.
 *   quartiles: s[int(9*0.25 + 0.5) = 2] = 3, s[int(5.0) = 5] = 6, s[int(7.25) = 7] = 8
 *   Max-90% s[int(8.6) = 8] = 9, Max-93% s[int(8.87) = 8] = 9, Max-95% s[int(9.05)] = 10,
 *   Max-99% s[9] = 10
 *   Best50%Mean: t = int(10 * 50 / 100) = 5, mean of s[0..5], SIX values: 3.5 (not 3)
 *   Best10%Mean: t = 1, mean of s[0..1] = 1.5 (not 1)
 *   Best5%Mean, Best1%Mean: t = 0, the mean of all = 5.5
 *   Best99/95/90%Mean: t = 9, mean of s[0..9] = all = 5.5
 */
Test(latency_log, statistics_keep_the_inclusive_best_mean)
{
	struct stutter_stats st;
	char log[256] = "";

	for (int ms = 10; ms >= 1; ms--) /* unsorted on purpose */
		sprintf(log + strlen(log), "1 %d000000\n", ms);
	stats_of(log, &st);
	cr_expect_eq(st.n, 10);
	cr_expect_float_eq(st.ms[ST_MIN], 1, 1e-12);
	cr_expect_float_eq(st.ms[ST_Q1], 3, 1e-12);
	cr_expect_float_eq(st.ms[ST_Q2], 6, 1e-12);
	cr_expect_float_eq(st.ms[ST_Q3], 8, 1e-12);
	cr_expect_float_eq(st.ms[ST_P90], 9, 1e-12);
	cr_expect_float_eq(st.ms[ST_P93], 9, 1e-12);
	cr_expect_float_eq(st.ms[ST_P95], 10, 1e-12);
	cr_expect_float_eq(st.ms[ST_P99], 10, 1e-12);
	cr_expect_float_eq(st.ms[ST_MAX], 10, 1e-12);
	cr_expect_float_eq(st.ms[ST_MEAN], 5.5, 1e-12);
	cr_expect_float_eq(st.ms[ST_B50], 3.5, 1e-12);
	cr_expect_float_eq(st.ms[ST_B10], 1.5, 1e-12);
	cr_expect_float_eq(st.ms[ST_B5], 5.5, 1e-12);
	cr_expect_float_eq(st.ms[ST_B1], 5.5, 1e-12);
	cr_expect_float_eq(st.ms[ST_B99], 5.5, 1e-12);
	cr_expect_float_eq(st.ms[ST_B90], 5.5, 1e-12);
}

/*
 * What the probe writes feeds the statistics as mmtests reads it: a "3 <avg>" line is three
 * samples of the average.  Three fast samples of 1 ms cut by a 10 ms one log as "3 4333333"
 * and "1 10000000": samples 4.333333, 4.333333, 4.333333, 10 ms.
 */
Test(latency_log, grouped_lines_count_as_that_many_samples)
{
	struct stutter_stats st;
	struct capture c;

	start(&c);
	for (int i = 0; i < 3; i++)
		latency_log_add(&c.log, 6 * MS);
	latency_log_add(&c.log, 15 * MS);
	stats_of(finish(&c), &st);
	cr_expect_eq(st.n, 4);
	cr_expect_float_eq(st.ms[ST_MIN], 4.333333, 1e-9);
	cr_expect_float_eq(st.ms[ST_MEAN], (3 * 4.333333 + 10) / 4, 1e-9);
	/* Best50%Mean: t = int(4 * 0.5) = 2, s[0..2]: three of 4.333333 */
	cr_expect_float_eq(st.ms[ST_B50], 4.333333, 1e-9);
	free(c.buf);
}
