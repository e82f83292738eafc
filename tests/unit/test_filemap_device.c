/*
 * The page cache over the block device model: reads and writeback complete asynchronously,
 * in the device's time, with the data intact.  The engine's clock is a variable the tests
 * move, so "still in flight" is certain, not a matter of the machine's speed.
 */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "filemap.h"
#include "helpers.h"

TestSuite(filemap_device, .fini = test_remove_dir, .timeout = 120);

static _Atomic uint64_t fake_now = 1;
static atomic_bool frozen;

/* A clock that moves 1 ms each time it is read, and stands still while frozen. */
static uint64_t ticking_clock(void *arg)
{
	(void)arg;
	if (atomic_load(&frozen))
		return atomic_load(&fake_now);
	return atomic_fetch_add(&fake_now, 1000000) + 1000000;
}

/* Wait (real time, generously) until counter @name reads @value; false if it never does. */
static bool eventually(struct nlru_engine *eng, const char *name, int64_t value)
{
	struct timespec ms = {0, 1000000};

	for (int i = 0; i < 10000 && vmstat_value(eng, name) != value; i++)
		nanosleep(&ms, NULL);
	return vmstat_value(eng, name) == value;
}

/* An 8 MiB engine whose I/O goes through a 100 MB/s device; @stopped: its clock frozen. */
static struct nlru_engine *device_engine(bool stopped)
{
	struct nlru_engine *eng = NULL;
	struct nlru_config cfg;

	test_config(&cfg, 8, NULL);
	cfg.swap_mib = 0;
	cfg.kswapd = 0;
	cfg.flusher = 0;
	cfg.blkdev_mbs = 100;
	cfg.blkdev_latency_us = 200;
	if (stopped) {
		atomic_store(&frozen, true);
		cfg.clock = ticking_clock;
	}
	cr_assert_eq(nlru_engine_create(&cfg, &eng), 0, "%s", test_log_last);
	return eng;
}

static void settle(void)
{
	struct timespec ms20 = {0, 20000000};

	nanosleep(&ms20, NULL);
}

struct call {
	struct nlru_file *file;
	unsigned char buf[4096];
	long result;
	atomic_bool returned;
};

static void *pread_page0(void *arg)
{
	struct call *c = arg;

	c->result = nlru_file_pread(c->file, c->buf, sizeof(c->buf), 0);
	atomic_store(&c->returned, true);
	return NULL;
}

/*
 * A read waits for its page's read to end in the device's time: with the clock at rest it
 * cannot return, while the whole window is already in the cache, locked, not uptodate.
 */
Test(filemap_device, a_read_waits_for_the_device)
{
	struct nlru_engine *eng = device_engine(true);
	struct call c = {0};
	pthread_t reader;

	make_file(test_path("f"), 64 * 4096, 3);
	cr_assert_eq(nlru_file_open(eng, test_path("f"), O_RDONLY, 0, 0, &c.file), 0);
	cr_assert_eq(pthread_create(&reader, NULL, pread_page0, &c), 0);
	cr_expect(eventually(eng, "nr_file_pages", 1), "the page is cached before its read");
	settle();
	cr_expect_not(atomic_load(&c.returned), "a read returned before its I/O ended");
	cr_expect_eq(vmstat_value(eng, "pgpgin"), 0, "the read ended with the clock at rest");
	atomic_store(&frozen, false);
	pthread_join(reader, NULL);
	cr_expect_eq(c.result, 4096);
	for (size_t i = 0; i < sizeof(c.buf); i++)
		cr_assert_eq(c.buf[i], byte_at(i, 3), "byte %zu", i);
	cr_expect_eq(vmstat_value(eng, "pgpgin"), 4);
	cr_assert_eq(nlru_file_close(c.file), 0);
	destroy_engine(eng);
}

static void *fsync_file(void *arg)
{
	struct call *c = arg;

	c->result = nlru_file_fsync(c->file);
	atomic_store(&c->returned, true);
	return NULL;
}

/* fsync submits the dirty pages and sleeps until the device has written them. */
Test(filemap_device, fsync_waits_for_the_device)
{
	struct nlru_engine *eng = device_engine(true);
	struct call c = {0};
	pthread_t syncer;
	char buf[4096];
	int fd;

	cr_assert_eq(
		nlru_file_open(eng, test_path("w"), O_RDWR | O_CREAT | O_TRUNC, 0600, 0, &c.file),
		0);
	for (int i = 0; i < 16; i++) {
		memset(buf, 'a' + i, sizeof(buf));
		cr_assert_eq(nlru_file_pwrite(c.file, buf, sizeof(buf), (uint64_t)i * 4096), 4096);
	}
	cr_assert_eq(pthread_create(&syncer, NULL, fsync_file, &c), 0);
	cr_expect(eventually(eng, "nr_writeback", 16));
	settle();
	cr_expect_not(atomic_load(&c.returned), "fsync returned before its writes ended");
	cr_expect_eq(vmstat_value(eng, "nr_dirty"), 0, "clean while their write is in flight");
	cr_expect_eq(vmstat_value(eng, "nr_written"), 0);
	atomic_store(&frozen, false);
	pthread_join(syncer, NULL);
	cr_expect_eq(c.result, 0);
	cr_expect_eq(vmstat_value(eng, "nr_writeback"), 0);
	cr_expect_eq(vmstat_value(eng, "nr_written"), 16);
	fd = open(test_path("w"), O_RDONLY);
	for (int i = 0; i < 16; i++) {
		cr_assert_eq(pread(fd, buf, sizeof(buf), (off_t)i * 4096), 4096);
		cr_expect_eq(buf[7], 'a' + i, "page %d", i);
	}
	close(fd);
	cr_assert_eq(nlru_file_close(c.file), 0);
	destroy_engine(eng);
}

static void *close_file(void *arg)
{
	struct call *c = arg;

	c->result = nlru_file_close(c->file);
	atomic_store(&c->returned, true);
	return NULL;
}

/*
 * Close waits for the file's reads in flight before it frees anything: here the window that
 * async readahead submitted, which nobody waits for.
 */
Test(filemap_device, close_waits_for_reads_in_flight)
{
	struct nlru_engine *eng = NULL;
	struct nlru_config cfg;
	struct call c = {0};
	unsigned char buf[18 * 4096];
	pthread_t closer;

	atomic_store(&frozen, false);
	test_config(&cfg, 8, NULL);
	cfg.swap_mib = 0;
	cfg.kswapd = 0;
	cfg.blkdev_mbs = 100;
	cfg.clock = ticking_clock;
	cr_assert_eq(nlru_engine_create(&cfg, &eng), 0, "%s", test_log_last);
	make_file(test_path("c"), 128 * 4096, 5);
	cr_assert_eq(nlru_file_open(eng, test_path("c"), O_RDONLY, 0, 0, &c.file), 0);
	/* Page 0, then the window of pages 1-32, whose mark is page 17. */
	cr_assert_eq(nlru_file_pread(c.file, buf, 17 * 4096, 0), 17 * 4096);
	atomic_store(&frozen, true);
	cr_assert_eq(nlru_file_pread(c.file, buf, 4096, 17 * 4096), 4096);
	cr_expect_eq(vmstat_value(eng, "nr_file_pages"), 1 + 32 + 32, "no window at the mark");
	cr_assert_eq(pthread_create(&closer, NULL, close_file, &c), 0);
	settle();
	cr_expect_not(atomic_load(&c.returned), "close returned with a read in flight");
	atomic_store(&frozen, false);
	pthread_join(closer, NULL);
	cr_expect_eq(c.result, 0);
	destroy_engine(eng);
}

/*
 * Sequential reading keeps the device busy: reaching the marked page in the middle of a
 * window submits the next window before the reader gets there (async readahead), and the
 * whole file is read, intact, one request per window.
 */
Test(filemap_device, readahead_runs_ahead_of_a_sequential_reader)
{
	struct nlru_engine *eng = device_engine(false);
	static unsigned char buf[128 * 4096];
	struct nlru_file *f;

	make_file(test_path("s"), sizeof(buf), 9);
	cr_assert_eq(nlru_file_open(eng, test_path("s"), O_RDONLY, 0, 0, &f), 0);
	/* Pages 0 (one page, not yet in order), then 1.. (a window of 32, marked at 17). */
	cr_assert_eq(nlru_file_pread(f, buf, 2 * 4096, 0), 2 * 4096);
	cr_expect_eq(vmstat_value(eng, "nr_file_pages"), 1 + 32);
	cr_assert_eq(nlru_file_pread(f, buf + 2 * 4096, 16 * 4096, 2 * 4096), 16 * 4096);
	cr_expect_eq(vmstat_value(eng, "nr_file_pages"), 1 + 32 + 32,
		     "the next window was not submitted at the mark");
	cr_assert_eq(nlru_file_pread(f, buf + 18 * 4096, sizeof(buf) - 18 * 4096, 18 * 4096),
		     (long)sizeof(buf) - 18 * 4096);
	for (size_t i = 0; i < sizeof(buf); i++)
		cr_assert_eq(buf[i], byte_at(i, 9), "byte %zu", i);
	cr_expect_eq(vmstat_value(eng, "pgpgin"), 128 * 4);
	cr_assert_eq(nlru_file_close(f), 0);
	destroy_engine(eng);
}

/* The dump of an engine's device: one line of 4.8's /proc/diskstats, counting what it did. */
static void read_diskstats(struct nlru_engine *eng, unsigned long v[11], char *line, size_t size)
{
	unsigned int major, minor;
	char name[32];
	FILE *f = fmemopen(line, size, "w");

	cr_assert_not_null(f);
	cr_assert_eq(nlru_diskstats_dump(eng, f), 0);
	fclose(f);
	cr_assert_eq(sscanf(line, "%u %u %31s %lu %lu %lu %lu %lu %lu %lu %lu %lu %lu %lu", &major,
			    &minor, name, &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7],
			    &v[8], &v[9], &v[10]),
		     14, "%s", line);
	cr_expect_eq(major, 254);
	cr_expect_eq(minor, 0);
	cr_expect_str_eq(name, "nlru0");
	cr_expect(strncmp(line, " 254       0 nlru0 ", 19) == 0, "not %%4d %%7d %%s: %s", line);
}

Test(filemap_device, diskstats_count_the_requests)
{
	struct nlru_engine *eng = device_engine(false);
	static unsigned char buf[128 * 4096];
	unsigned long v[11];
	struct nlru_file *f;
	char line[256];

	read_diskstats(eng, v, line, sizeof(line));
	for (int i = 0; i < 11; i++)
		cr_expect_eq(v[i], 0, "field %d of a new device: %s", i + 4, line);
	make_file(test_path("s"), sizeof(buf), 9);
	cr_assert_eq(nlru_file_open(eng, test_path("s"), O_RDONLY, 0, 0, &f), 0);
	cr_assert_eq(nlru_file_pread(f, buf, sizeof(buf), 0), (long)sizeof(buf));
	cr_assert_eq(nlru_file_close(f), 0);
	cr_assert_eq(nlru_file_open(eng, test_path("w"), O_RDWR | O_CREAT | O_TRUNC, 0600, 0, &f),
		     0);
	cr_assert_eq(nlru_file_pwrite(f, buf, 16 * 4096, 0), 16 * 4096);
	cr_assert_eq(nlru_file_fsync(f), 0);
	cr_assert_eq(nlru_file_close(f), 0);
	read_diskstats(eng, v, line, sizeof(line));
	/* Readahead windows, each one request: 1 page, then windows of 32. */
	cr_expect_geq(v[0], 4, "%s", line);
	cr_expect_leq(v[0], 128 / 32 + 2, "%s", line);
	cr_expect_eq(v[2], 128 * 8, "sectors read: %s", line);
	cr_expect_geq(v[4], 1, "%s", line);
	cr_expect_eq(v[6], 16 * 8, "sectors written: %s", line);
	cr_expect_geq(v[3] + v[7], 1, "no time counted for requests of 200 us and more: %s", line);
	cr_expect_geq(v[9], 1, "%s", line);
	cr_expect_geq(v[10], v[9], "weighted time below the busy time: %s", line);
	destroy_engine(eng);
}

/* Without the device nothing is printed; a NULL FILE is refused and logged. */
Test(filemap_device, diskstats_of_an_engine_without_the_device)
{
	struct nlru_engine *eng = test_engine(8, NULL);
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	cr_assert_eq(nlru_diskstats_dump(eng, f), 0);
	fclose(f);
	cr_expect_eq(len, 0, "printed: %s", text);
	free(text);
	test_log_count = 0;
	cr_expect_eq(nlru_diskstats_dump(eng, NULL), -EINVAL);
	cr_expect_eq(test_log_count, 1);
	cr_expect_eq(nlru_diskstats_dump(NULL, stdout), -EINVAL);
	destroy_engine(eng);
}
