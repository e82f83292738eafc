/* Reading the before/after /proc/vmstat copies and the elapsed time out of a tests-timestamp. */
#include <errno.h>
#include <math.h>

#include "helpers.h"
#include "input.h"
#include "mmtests.h"

TestSuite(mmtests, .timeout = 10);

struct pair {
	struct vm_dump before, after;
	double elapsed;
};

static int extract(const char *text, size_t len, struct pair *p, struct diag_log *log)
{
	struct vm_diag diag = diag_for(log);

	cr_assert_eq(dump_init(&p->before, "t"), 0);
	cr_assert_eq(dump_init(&p->after, "t"), 0);
	return mmtests_extract(text, len, "t", NULL, &p->before, &p->after, &p->elapsed, &diag);
}

static void pair_fini(struct pair *p)
{
	dump_fini(&p->before);
	dump_fini(&p->after);
}

Test(mmtests, fixture_holds_both_dumps_and_the_time)
{
	struct diag_log log;
	struct pair p;
	char *buf;
	size_t len;
	int64_t v;

	cr_assert_eq(input_read(DATA("tests-timestamp-4.8"), &buf, &len), 0);
	cr_expect(mmtests_looks_like(buf, len));
	cr_assert_eq(extract(buf, len, &p, &log), 0);
	cr_expect_eq(log.count, 0, "meminfo and zoneinfo lines are not read as counters:\n%s",
		     log.text);
	cr_expect_eq(p.before.nr, 124);
	cr_expect_eq(p.after.nr, 124);
	cr_expect_eq(dump_get(&p.after, "pgscan_kswapd", &v), 0);
	cr_expect_eq(v, 21000);
	/* "start ::", "arch ::" and 11 numactl --hardware lines come first, as in real files. */
	cr_expect_eq(p.before.v[0].line, 16, "line numbers count from the top of the whole file");
	cr_expect(fabs(p.elapsed - 100.0) < 1e-9, "elapsed %f", p.elapsed);
	free(buf);
	pair_fini(&p);
}

Test(mmtests, only_the_first_benchmark_and_a_missing_time)
{
	static const char text[] = "test begin :: a 1\n"
				   "file start :: /proc/vmstat\n"
				   "pgfault 1\n"
				   "file end :: /proc/vmstat\n"
				   "pgfault 5\n"
				   "test end :: a 2\n"
				   "test begin :: b 3\n" /* 7 */
				   "file start :: /proc/vmstat\n"
				   "pgfault 100\n";
	struct diag_log log;
	struct pair p;
	int64_t v;

	cr_assert_eq(extract(text, strlen(text), &p, &log), 0);
	cr_expect_eq(dump_get(&p.before, "pgfault", &v), 0);
	cr_expect_eq(v, 1, "the second benchmark's dump is not read");
	cr_expect(isnan(p.elapsed));
	cr_expect_not_null(strstr(log.text, "7: more than one benchmark"), "%s", log.text);
	pair_fini(&p);
}

Test(mmtests, no_after_copy_is_an_error)
{
	static const char text[] = "test begin :: a 1\n"
				   "file start :: /proc/vmstat\n"
				   "pgfault 1\n"
				   "time :: a 1.00 user 2.00 system garbage elapsed\n";
	struct diag_log log;
	struct pair p;

	cr_expect_eq(extract(text, strlen(text), &p, &log), -EBADMSG);
	cr_expect_not_null(strstr(log.text, "4: unreadable 'time ::' line"), "%s", log.text);
	cr_expect(!mmtests_looks_like("pgfault 1\n", 10));
	pair_fini(&p);
}

/*
 * run-mmtests.sh writes "start ::", "arch ::" and numactl --hardware's listing before the first
 * "test begin ::"; a run aborted before its first test has only the "start ::" line.
 */
Test(mmtests, real_files_open_with_start_and_machine_lines)
{
	static const char head[] = "start :: 1469499990\n"
				   "arch :: x86_64\n"
				   "available: 1 nodes (0)\n"
				   "node 0 cpus: 0 1\n"
				   "node distances:\n"
				   "node   0 \n"
				   "  0:  10 \n"
				   "test begin :: a 1\n"
				   "file start :: /proc/vmstat\n"
				   "pgfault 1\n"
				   "file end :: /proc/vmstat\n"
				   "pgfault 5\n"
				   "test end :: a 2\n";
	static const char numactl_first[] = "arch :: x86_64\n"
					    "available: 1 nodes (0)\n"
					    "test begin :: a 1\n";
	struct diag_log log;
	struct pair p;
	int64_t v;

	cr_expect(mmtests_looks_like(head, strlen(head)));
	cr_expect(mmtests_looks_like("start :: 1469499990\n", 20), "aborted before any test");
	cr_expect(mmtests_looks_like(numactl_first, strlen(numactl_first)));
	cr_expect(!mmtests_looks_like("pgfault 1\nstart :: 1\n", 22), "start :: only opens a file");
	cr_assert_eq(extract(head, strlen(head), &p, &log), 0);
	cr_expect_eq(log.count, 0, "%s", log.text);
	cr_expect_eq(dump_get(&p.after, "pgfault", &v), 0);
	cr_expect_eq(v, 5);
	pair_fini(&p);
}

/* CRLF line ends and blanks after a marker's path: both dumps and the time are still found. */
Test(mmtests, markers_with_cr_or_trailing_blanks)
{
	static const char text[] = "start :: 1\r\n"
				   "test begin :: a 1\r\n"
				   "file start :: /proc/vmstat\r\n"
				   "pgfault 1\r\n"
				   "file start :: /proc/zoneinfo \r\n"
				   "Node 0, zone   Normal\r\n"
				   "file end :: /proc/vmstat \t\n"
				   "pgfault 5\r\n"
				   "file end :: /proc/zoneinfo\r\n"
				   "Node 0, zone   Normal\r\n"
				   "test end :: a 2\r\n"
				   "time :: a 1.00 user 2.00 system 4.00 elapsed\r\n";
	struct diag_log log;
	struct pair p;
	int64_t v;

	cr_expect(mmtests_looks_like(text, strlen(text)));
	cr_assert_eq(extract(text, strlen(text), &p, &log), 0);
	cr_expect_eq(log.count, 0, "the zoneinfo copies are not read as counters:\n%s", log.text);
	cr_expect_eq(p.before.nr, 1);
	cr_expect_eq(dump_get(&p.after, "pgfault", &v), 0);
	cr_expect_eq(v, 5);
	cr_expect(fabs(p.elapsed - 4.0) < 1e-9, "elapsed %f", p.elapsed);
	pair_fini(&p);
}

/* A benchmark shorter than time's 0.01 s: elapsed 0, and a warning that says just that. */
Test(mmtests, zero_elapsed_is_read_and_explained)
{
	static const char text[] = "test begin :: a 1\n"
				   "file start :: /proc/vmstat\n"
				   "pgfault 1\n"
				   "file end :: /proc/vmstat\n"
				   "pgfault 5\n"
				   "test end :: a 2\n"
				   "time :: a 0.00 user 0.00 system 0.00 elapsed\n";
	struct diag_log log;
	struct pair p;

	cr_assert_eq(extract(text, strlen(text), &p, &log), 0);
	cr_expect(p.elapsed == 0, "elapsed %f", p.elapsed);
	cr_expect_null(strstr(log.text, "unreadable"), "%s", log.text);
	cr_expect_not_null(strstr(log.text, "7: the benchmark took 0.00 s"), "%s", log.text);
	pair_fini(&p);
}

/* Two benchmarks in one file, as run.sh's results folder has them: each is read by name. */
Test(mmtests, a_named_benchmark_is_read_and_a_missing_one_refused)
{
	static const char text[] = "start :: 100\narch :: x86_64\n"
				   "test begin :: pagealloc 100\n"
				   "file start :: /proc/vmstat\npgfault 1\n"
				   "file start :: /proc/zoneinfo\nNode 0, zone Normal\n"
				   "file end :: /proc/vmstat\npgfault 3\n"
				   "file end :: /proc/zoneinfo\nNode 0, zone Normal\n"
				   "test end :: pagealloc 101\n"
				   "time :: pagealloc 0.1 user 0.2 system 1.5 elapsed\n"
				   "test begin :: stutter 101\n"
				   "file start :: /proc/vmstat\npgfault 10\n"
				   "file end :: /proc/vmstat\npgfault 30\n"
				   "test end :: stutter 102\n"
				   "time :: stutter 0.1 user 0.2 system 2.123456789 elapsed\n";
	struct vm_diag diag = {NULL, NULL};
	const char *const benches[] = {NULL, "pagealloc", "stutter"};
	const int64_t after[] = {3, 3, 30};
	const double elapsed[] = {1.5, 1.5, 2.123456789};

	for (int k = 0; k < 3; k++) {
		struct pair p;
		int64_t v;

		cr_assert_eq(dump_init(&p.before, "t"), 0);
		cr_assert_eq(dump_init(&p.after, "t"), 0);
		cr_assert_eq(mmtests_extract(text, sizeof(text) - 1, "t", benches[k], &p.before,
					     &p.after, &p.elapsed, &diag),
			     0);
		cr_expect_eq(dump_get(&p.after, "pgfault", &v), 0);
		cr_expect_eq(v, after[k], "bench %s: pgfault %lld", benches[k], (long long)v);
		cr_expect_eq(p.elapsed, elapsed[k]);
		pair_fini(&p);
	}
	{
		struct pair p;

		cr_assert_eq(dump_init(&p.before, "t"), 0);
		cr_assert_eq(dump_init(&p.after, "t"), 0);
		cr_expect_eq(mmtests_extract(text, sizeof(text) - 1, "t", "dbench4", &p.before,
					     &p.after, &p.elapsed, &diag),
			     -ENOENT);
		pair_fini(&p);
	}
}
