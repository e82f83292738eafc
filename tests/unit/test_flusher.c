/*
 * The flusher: background writeback down to the background threshold, periodic writeback of
 * expired files by the engine's clock, writers paused over the dirty limit, reclaim's wakeup,
 * failing writes, and files closed while it works.
 */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

#include "filemap.h"
#include "helpers.h"
#include "page_writeback.h"

TestSuite(flusher, .fini = test_remove_dir, .timeout = 120);

#define SEC 1000000000ull

/* An engine with no kswapd or swap, dirty limits at 20 % and 10 %, a flusher thread or not. */
static struct nlru_engine *flusher_engine(long node_mib, bool thread, bool fake_time)
{
	struct nlru_engine *eng;
	struct nlru_config cfg;

	test_config(&cfg, node_mib, NULL);
	cfg.swap_mib = 0;
	cfg.kswapd = 0;
	cfg.flusher = thread;
	cfg.dirty_ratio = 20;
	cfg.dirty_background_ratio = 10;
	if (fake_time)
		cfg.clock = test_fake_clock;
	cr_assert_eq(nlru_engine_create(&cfg, &eng), 0, "%s", test_log_last);
	return eng;
}

static unsigned long background_thresh(struct nlru_engine *eng)
{
	unsigned long background, limit;

	global_dirty_limits(eng, &background, &limit);
	return background;
}

static unsigned long dirty_limit(struct nlru_engine *eng)
{
	unsigned long background, limit;

	global_dirty_limits(eng, &background, &limit);
	return limit;
}

/* Write pages [@first, @first + @n) of @f, each filled with a byte of its own. */
static void write_pages(struct nlru_file *f, uint64_t first, uint64_t n)
{
	char buf[4096];

	for (uint64_t i = first; i < first + n; i++) {
		memset(buf, (int)(i * 7 + 1), sizeof(buf));
		cr_assert_eq(nlru_file_pwrite(f, buf, sizeof(buf), i * 4096), 4096, "%s",
			     test_log_last);
	}
}

/* The real file holds what write_pages() wrote to its pages [0, @n). */
static void expect_on_disk(const char *path, uint64_t n)
{
	char buf[4096];
	int fd = open(path, O_RDONLY);

	cr_assert(fd >= 0);
	for (uint64_t i = 0; i < n; i++) {
		cr_assert_eq(pread(fd, buf, sizeof(buf), (off_t)(i * 4096)), 4096, "page %llu",
			     (unsigned long long)i);
		cr_assert_eq(buf[0], (char)(i * 7 + 1), "page %llu", (unsigned long long)i);
		cr_assert_eq(buf[4095], (char)(i * 7 + 1), "page %llu", (unsigned long long)i);
	}
	close(fd);
}

/* Over the background threshold: one pass writes down to it, and no further. */
Test(flusher, background_writeback_stops_at_the_background_threshold)
{
	struct nlru_engine *eng = flusher_engine(16, false, false);
	unsigned long background = background_thresh(eng);
	struct nlru_file *f;
	uint64_t pages = 3 * background / 2;
	long written;

	cr_assert_lt(pages, dirty_limit(eng), "the writer stays under the limit");
	cr_assert_eq(nlru_file_open(eng, test_path("bg"), O_RDWR | O_CREAT, 0600, 0, &f), 0);
	write_pages(f, 0, pages);
	cr_expect_eq(vmstat_value(eng, "nr_dirty"), (int64_t)pages,
		     "no thread: nothing written yet");
	written = nlru_flusher_run(eng);
	cr_expect_gt(written, 0);
	cr_expect_eq(vmstat_value(eng, "nr_written"), written);
	cr_expect_leq(vmstat_value(eng, "nr_dirty"), (int64_t)background, "down to the threshold");
	/* In chunks of 1024 pages at most, so it stops within one chunk of it. */
	cr_expect_gt(vmstat_value(eng, "nr_dirty") + 1024, (int64_t)background, "not much below");
	cr_expect_eq(nlru_flusher_run(eng), 0, "under the threshold, nothing expired: no work");
	cr_assert_eq(nlru_file_close(f), 0);
	expect_on_disk(test_path("bg"), pages);
	destroy_engine(eng);
}

/* Dirty pages far apart (a sparse file): the flusher finds them all the same. */
Test(flusher, sparse_dirty_pages_are_found)
{
	struct nlru_engine *eng = flusher_engine(16, false, false);
	unsigned long background = background_thresh(eng);
	uint64_t pages = 3 * background / 2, stride = 97;
	struct nlru_file *f;
	char buf[4096];
	int fd;

	cr_assert_eq(nlru_file_open(eng, test_path("sparse"), O_RDWR | O_CREAT, 0600, 0, &f), 0);
	for (uint64_t i = 0; i < pages; i++) {
		memset(buf, (int)(i + 1), sizeof(buf));
		cr_assert_eq(nlru_file_pwrite(f, buf, sizeof(buf), i * stride * 4096), 4096);
	}
	cr_expect_gt(nlru_flusher_run(eng), 0);
	cr_expect_leq(vmstat_value(eng, "nr_dirty"), (int64_t)background);
	cr_expect_eq(vmstat_value(eng, "nr_written") + vmstat_value(eng, "nr_dirty"),
		     (int64_t)pages);
	cr_assert_eq(nlru_file_close(f), 0);
	fd = open(test_path("sparse"), O_RDONLY);
	cr_assert(fd >= 0);
	for (uint64_t i = 0; i < pages; i++) {
		cr_assert_eq(pread(fd, buf, sizeof(buf), (off_t)(i * stride * 4096)), 4096);
		cr_assert_eq(buf[0], (char)(i + 1), "page %llu", (unsigned long long)(i * stride));
	}
	close(fd);
	destroy_engine(eng);
}

/* kupdate: by the engine's clock, only files dirty for longer than dirty_expire_centisecs. */
Test(flusher, periodic_writeback_takes_only_expired_files)
{
	struct nlru_engine *eng;
	struct nlru_file *old, *young;

	atomic_store(&test_fake_now, 1000 * SEC);
	eng = flusher_engine(16, false, true);
	cr_assert_eq(nlru_file_open(eng, test_path("old"), O_RDWR | O_CREAT, 0600, 0, &old), 0);
	cr_assert_eq(nlru_file_open(eng, test_path("young"), O_RDWR | O_CREAT, 0600, 0, &young), 0);
	write_pages(old, 0, 10);
	atomic_store(&test_fake_now, 1020 * SEC);
	write_pages(young, 0, 20);
	write_pages(old, 10, 5); /* more pages of a dirty file do not make it younger */
	atomic_store(&test_fake_now, 1029 * SEC);
	cr_expect_eq(nlru_flusher_run(eng), 0, "29 s: nothing has expired (30 s)");
	atomic_store(&test_fake_now, 1031 * SEC);
	cr_expect_eq(nlru_flusher_run(eng), 15, "31 s: the old file, all of it");
	cr_expect_eq(vmstat_value(eng, "nr_dirty"), 20);
	expect_on_disk(test_path("old"), 15);
	/* Dirty again: its clock starts again. */
	write_pages(old, 0, 1);
	atomic_store(&test_fake_now, 1051 * SEC);
	cr_expect_eq(nlru_flusher_run(eng), 20, "51 s: the young file, 31 s old now");
	atomic_store(&test_fake_now, 1062 * SEC);
	cr_expect_eq(nlru_flusher_run(eng), 1, "62 s: the old file's new page");
	cr_expect_eq(vmstat_value(eng, "nr_dirty"), 0);
	expect_on_disk(test_path("young"), 20);
	cr_assert_eq(nlru_file_close(old), 0);
	cr_assert_eq(nlru_file_close(young), 0);
	destroy_engine(eng);
}

/* The thread cleans a file over the background threshold without being asked. */
Test(flusher, the_thread_writes_in_the_background)
{
	struct nlru_engine *eng = flusher_engine(16, true, false);
	unsigned long background = background_thresh(eng);
	struct nlru_file *f;
	uint64_t pages = 3 * background / 2;

	cr_assert_eq(nlru_file_open(eng, test_path("thread"), O_RDWR | O_CREAT, 0600, 0, &f), 0);
	write_pages(f, 0, pages);
	/* No deadline on how soon: only that it happens (the suite's timeout guards a hang). */
	while (vmstat_value(eng, "nr_dirty") > (int64_t)background)
		usleep(1000);
	cr_expect_gt(vmstat_value(eng, "nr_written"), 0);
	expect_on_disk(test_path("thread"), pages - background);
	cr_assert_eq(nlru_file_close(f), 0);
	destroy_engine(eng);
}

/*
 * A writer far past the dirty limit: each write returns with the engine under the limit, with
 * the flusher's help or, without a flusher, by its own writeback; give or take the 32 pages a
 * writer may dirty between two looks at the limit (Linux's nr_dirtied_pause).
 */
#define RATELIMIT_PAGES 32

static void writer_stays_under_the_limit(bool thread)
{
	struct nlru_engine *eng = flusher_engine(32, thread, false);
	uint64_t pages = 3 * dirty_limit(eng);
	static char buf[16 * 4096];
	struct nlru_file *f;

	cr_assert_lt(pages, 32 * 256 * 3 / 4, "the file fits: no reclaim in this test");
	cr_assert_eq(nlru_file_open(eng, test_path("limit"), O_RDWR | O_CREAT, 0600, 0, &f), 0);
	for (uint64_t off = 0; off < pages * 4096; off += sizeof(buf)) {
		int64_t dirty;

		memset(buf, (int)(off >> 16), sizeof(buf));
		cr_assert_eq(nlru_file_pwrite(f, buf, sizeof(buf), off), (long)sizeof(buf));
		/*
		 * Pages dirty or under writeback: nr_dirty + nr_writeback, read as dirtied less
		 * written.  Two reads of those would count twice a page the flusher moves from
		 * one to the other between them; nr_dirtied changes only in this thread, and the
		 * one read of nr_written gives the exact figure of its moment.  (Equal here, with
		 * no swap and no failed write; those move one count and not the other.)
		 */
		dirty = vmstat_value(eng, "nr_dirtied") - vmstat_value(eng, "nr_written");
		cr_assert_leq(dirty, (int64_t)dirty_limit(eng) + RATELIMIT_PAGES,
			      "at %llu: %lld dirty", (unsigned long long)off, (long long)dirty);
	}
	cr_expect_geq(vmstat_value(eng, "nr_written"), (int64_t)(pages - dirty_limit(eng)));
	cr_assert_eq(nlru_file_close(f), 0);
	destroy_engine(eng);
}

Test(flusher, writers_over_the_limit_wait_for_the_flusher)
{
	writer_stays_under_the_limit(true);
}

Test(flusher, writers_over_the_limit_write_back_without_a_flusher)
{
	writer_stays_under_the_limit(false);
}

/*
 * Reclaim's wakeup: with no kswapd and dirty limits no writer reaches, direct reclaim may not
 * write the dirty pages it meets (4.8) and nothing else would.  It wakes the flusher, which
 * cleans them, and a file twice the engine's memory goes through.
 */
Test(flusher, direct_reclaim_wakes_the_flusher)
{
	struct nlru_engine *eng;
	struct nlru_config cfg;
	struct nlru_file *f;
	uint64_t pages = 2 * 8 * 256;

	test_config(&cfg, 8, NULL);
	cfg.swap_mib = 0;
	cfg.kswapd = 0;
	cfg.flusher = 1;
	cfg.dirty_ratio = 100;
	cfg.dirty_background_ratio = 99;
	cr_assert_eq(nlru_engine_create(&cfg, &eng), 0);
	cr_assert_eq(nlru_file_open(eng, test_path("pressure"), O_RDWR | O_CREAT, 0600, 0, &f), 0);
	write_pages(f, 0, pages);
	cr_expect_gt(vmstat_value(eng, "allocstall_movable"), 0, "direct reclaim ran");
	cr_expect_gt(vmstat_value(eng, "nr_written"), 0, "the flusher wrote before close");
	cr_expect_eq(vmstat_value(eng, "nr_vmscan_write"), 0, "reclaim itself wrote nothing");
	cr_assert_eq(nlru_file_close(f), 0);
	expect_on_disk(test_path("pressure"), pages);
	destroy_engine(eng);
}

/* Failed writes: the pages stay dirty, the pass goes on, fsync reports the error once. */
Test(flusher, failed_background_writes_keep_the_pages_for_fsync)
{
	struct nlru_engine *eng = flusher_engine(16, false, false);
	unsigned long background = background_thresh(eng);
	struct nlru_file *bad, *good;

	cr_assert_eq(nlru_file_open(eng, test_path("bad"), O_RDWR | O_CREAT, 0600, 0, &bad), 0);
	cr_assert_eq(nlru_file_open(eng, test_path("good"), O_RDWR | O_CREAT, 0600, 0, &good), 0);
	write_pages(bad, 0, background);
	write_pages(good, 0, background);
	filemap_inject_write_errors(bad, ENOSPC, 1000000);
	cr_expect_gt(nlru_flusher_run(eng), 0, "the good file was written");
	cr_expect_eq(vmstat_value(eng, "nr_dirty"), (int64_t)background,
		     "the failing file's pages, all still dirty, and no more");
	filemap_inject_write_errors(bad, 0, 0);
	cr_expect_eq(nlru_file_fsync(bad), -ENOSPC, "fsync reports the flusher's error");
	cr_expect_eq(nlru_file_fsync(bad), 0, "once");
	cr_assert_eq(nlru_file_close(bad), 0);
	cr_assert_eq(nlru_file_close(good), 0);
	expect_on_disk(test_path("bad"), background);
	expect_on_disk(test_path("good"), background);
	destroy_engine(eng);
}

struct churn {
	struct nlru_engine *eng;
	int id;
};

/* Open, write past the background threshold, close, check: over and over. */
static void *churn_main(void *arg)
{
	struct churn *c = arg;
	char path[256]; /* not test_path(): its buffers are not the threads' own */

	for (int round = 0; round < 20; round++) {
		struct nlru_file *f;

		snprintf(path, sizeof(path), "%s/churn-%d-%d", test_dir(), c->id, round % 3);
		cr_assert_eq(nlru_file_open(c->eng, path, O_RDWR | O_CREAT | O_TRUNC, 0600, 0, &f),
			     0);
		write_pages(f, 0, 300);
		cr_assert_eq(nlru_file_close(f), 0, "%s", test_log_last);
		expect_on_disk(path, 300);
	}
	return NULL;
}

/* Files closed while the flusher writes them: nothing lost, nothing used after close. */
Test(flusher, files_close_while_the_flusher_writes)
{
	struct nlru_engine *eng;
	struct nlru_config cfg;
	struct churn c[3];
	pthread_t tid[3];

	test_config(&cfg, 16, NULL);
	cfg.swap_mib = 0;
	cfg.flusher = 1;
	cfg.dirty_background_ratio = 1; /* the flusher works all the time */
	cr_assert_eq(nlru_engine_create(&cfg, &eng), 0);
	test_dir(); /* made here, before the threads use it */
	for (int i = 0; i < 3; i++) {
		c[i] = (struct churn){eng, i};
		cr_assert_eq(pthread_create(&tid[i], NULL, churn_main, &c[i]), 0);
	}
	for (int i = 0; i < 3; i++)
		pthread_join(tid[i], NULL);
	cr_expect_gt(vmstat_value(eng, "nr_written"), 0);
	cr_expect_eq(vmstat_value(eng, "nr_dirty"), 0);
	destroy_engine(eng);
}
