/*
 * Reads through the page cache and readahead (src/filemap_read.c): pread semantics, failed and
 * short reads, a read racing a write of its page, the last page a file can have, and the
 * working set reads build.
 */
#include <criterion/criterion.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include "filemap.h"
#include "helpers.h"

TestSuite(filemap, .fini = test_remove_dir, .timeout = 120);

Test(filemap, pread_pwrite_semantics)
{
	struct nlru_engine *eng = test_swap_engine(8, 0, false);
	struct nlru_file *f, *ro;
	char buf[10000], back[10000];

	make_file(test_path("sem"), 5000, 3);
	cr_assert_eq(nlru_file_open(eng, test_path("sem"), O_RDWR, 0, 0, &f), 0);
	/* A read across a page boundary and past the end comes back short. */
	cr_expect_eq(nlru_file_pread(f, buf, 4000, 3000), 2000);
	for (int i = 0; i < 2000; i++)
		cr_assert_eq((unsigned char)buf[i], byte_at(3000 + (uint64_t)i, 3));
	cr_expect_eq(nlru_file_pread(f, buf, 10, 5000), 0, "at the end: nothing");
	/* A write past the end leaves a hole that reads as zeroes. */
	memset(buf, 'x', 100);
	cr_expect_eq(nlru_file_pwrite(f, buf, 100, 20000), 100);
	cr_expect_eq(nlru_file_pread(f, back, 10000, 10000), 10000);
	for (int i = 0; i < 10000; i++)
		cr_assert_eq(back[i], 0, "hole byte %d", i);
	cr_expect_eq(nlru_file_pread(f, back, 200, 20000), 100);
	cr_expect_eq(memcmp(back, buf, 100), 0);
	cr_expect_gt(vmstat_value(eng, "nr_dirty"), 0);
	cr_assert_eq(nlru_file_fsync(f), 0);
	cr_expect_eq(vmstat_value(eng, "nr_dirty"), 0);
	cr_assert_eq(nlru_file_close(f), 0);
	/* Read-only files refuse writes. */
	cr_assert_eq(nlru_file_open(eng, test_path("sem"), O_RDONLY, 0, 0, &ro), 0);
	cr_expect_eq(nlru_file_pwrite(ro, buf, 10, 0), -EBADF);
	cr_expect_eq(nlru_file_pread(ro, back, 100, 20000), 100);
	cr_expect_eq(memcmp(back, buf, 100), 0, "the write reached the real file");
	cr_assert_eq(nlru_file_close(ro), 0);
	cr_expect_eq(nlru_file_open(eng, test_path("no/such/dir/file"), O_RDONLY, 0, 0, &ro),
		     -ENOENT);
	destroy_engine(eng);
}

/* A read that fails leaves its page cached and not uptodate; the next reader reads it again. */
Test(filemap, failed_read_is_reported_and_read_again)
{
	struct nlru_engine *eng = test_swap_engine(8, 0, false);
	unsigned char buf[3 * 4096];
	struct nlru_file *f;

	make_file(test_path("r"), sizeof(buf), 11);
	cr_assert_eq(nlru_file_open(eng, test_path("r"), O_RDONLY, 0, 0, &f), 0);
	/*
	 * A reader whose page's read failed reads it once more itself before it gives up
	 * (do_generic_file_read's readpage after a failed readahead): two failures.
	 */
	filemap_inject_read_errors(f, EIO, 3);
	cr_expect_eq(nlru_file_pread(f, buf, sizeof(buf), 0), -EIO);
	cr_expect(strstr(test_log_last, "read of"), "%s", test_log_last);
	cr_expect_eq(vmstat_value(eng, "nr_file_pages"), 1, "the page stays in the cache");
	/* The third failure is the page's read again, by the next reader. */
	cr_expect_eq(nlru_file_pread(f, buf, sizeof(buf), 0), -EIO);
	cr_expect_eq(nlru_file_pread(f, buf, sizeof(buf), 0), (long)sizeof(buf), "%s",
		     test_log_last);
	for (size_t i = 0; i < sizeof(buf); i++)
		cr_assert_eq(buf[i], byte_at(i, 11), "byte %zu", i);
	cr_assert_eq(nlru_file_close(f), 0);
	destroy_engine(eng);
}

/*
 * preadv(2) of this test binary: cut to at most short_read_bytes while a test sets it, as a
 * file system may return less than asked before the end of a file.  (The engine is linked in
 * statically, so its calls come here.)
 */
static _Atomic size_t short_read_bytes;

ssize_t preadv(int fd, const struct iovec *iov, int cnt, off_t off)
{
	static ssize_t (*real)(int, const struct iovec *, int, off_t);
	size_t limit = atomic_load(&short_read_bytes);
	struct iovec cut[64];
	int n = 0;

	if (!real)
		*(void **)&real = dlsym(RTLD_NEXT, "preadv64"); /* POSIX's way round ISO C */
	if (!limit || cnt > 64)
		return real(fd, iov, cnt, off);
	for (; n < cnt && limit; n++) {
		cut[n] = iov[n];
		cut[n].iov_len = MIN(cut[n].iov_len, limit);
		limit -= cut[n].iov_len;
	}
	return real(fd, cut, n, off);
}

/* Short reads before the end of a file are read on, not taken for its end. */
Test(filemap, short_reads_are_read_on)
{
	struct nlru_engine *eng = test_swap_engine(8, 0, false);
	static unsigned char buf[1 << 20];
	struct nlru_file *f;

	make_file(test_path("src"), sizeof(buf) + 1000, 12);
	cr_assert_eq(nlru_file_open(eng, test_path("src"), O_RDONLY, 0, 0, &f), 0);
	atomic_store(&short_read_bytes, 1000);
	cr_expect_eq(nlru_file_pread(f, buf, sizeof(buf), 0), (long)sizeof(buf));
	atomic_store(&short_read_bytes, 0);
	for (size_t i = 0; i < sizeof(buf); i++)
		cr_assert_eq(buf[i], byte_at(i, 12), "byte %zu", i);
	cr_assert_eq(nlru_file_close(f), 0);
	destroy_engine(eng);
}

struct read_race {
	struct nlru_file *file;
	sem_t read_done;
	unsigned char buf[4096];
	long got;
};

/* The read hook: the data is in, its page not yet out; hold it there a while. */
static void hold_the_read(void *arg)
{
	struct read_race *race = arg;

	sem_post(&race->read_done);
	usleep(100 * 1000);
}

static void *race_reader(void *arg)
{
	struct read_race *race = arg;

	race->got = nlru_file_pread(race->file, race->buf, sizeof(race->buf), 0);
	return NULL;
}

/*
 * A page written, written back and dropped while an older copy of it was being read must not
 * come back as that older copy: the read's page is in the cache, locked, before the read, so
 * the write waits for it and lands after it (Linux's add_to_page_cache_lru() + lock_page()).
 */
Test(filemap, a_page_written_during_its_read_is_not_replaced_by_the_older_data)
{
	struct nlru_engine *eng = test_swap_engine(8, 0, false);
	struct read_race race = {0};
	unsigned char fresh[4096], back[4096];
	pthread_t reader;

	make_file(test_path("race"), sizeof(fresh), 12);
	cr_assert_eq(nlru_file_open(eng, test_path("race"), O_RDWR, 0, 0, &race.file), 0);
	sem_init(&race.read_done, 0, 0);
	filemap_set_read_hook(race.file, hold_the_read, &race);
	cr_assert_eq(pthread_create(&reader, NULL, race_reader, &race), 0);
	sem_wait(&race.read_done);
	memset(fresh, 'N', sizeof(fresh));
	cr_assert_eq(nlru_file_pwrite(race.file, fresh, sizeof(fresh), 0), (long)sizeof(fresh));
	cr_assert_eq(nlru_file_fsync(race.file), 0);
	filemap_invalidate_page(race.file, 0);
	pthread_join(reader, NULL);
	filemap_set_read_hook(race.file, NULL, NULL);
	cr_expect_eq(race.got, (long)sizeof(fresh));
	cr_assert_eq(nlru_file_pread(race.file, back, sizeof(back), 0), (long)sizeof(back));
	cr_expect_eq(memcmp(back, fresh, sizeof(back)), 0, "the write survives the read");
	cr_assert_eq(nlru_file_close(race.file), 0);
	int fd = open(test_path("race"), O_RDONLY);
	cr_assert_eq(pread(fd, back, sizeof(back), 0), (ssize_t)sizeof(back));
	close(fd);
	cr_expect_eq(memcmp(back, fresh, sizeof(back)), 0, "and reaches the file");
	sem_destroy(&race.read_done);
	destroy_engine(eng);
}

/*
 * Page 2^32 - 1, the last a file can have (16 TiB - 4 KiB on): readahead from there must not
 * wrap round to page 0, and a write of that whole page must make the file 16 TiB long.  On
 * tmpfs, whose files may be that large (ext4's stop a page short).
 */
Test(filemap, the_last_page_a_file_can_have)
{
	const uint64_t last = (uint64_t)UINT32_MAX << 12;
	char path[] = "/dev/shm/nlru-last-XXXXXX";
	static char page[4096], got[4096];
	struct nlru_engine *eng = test_swap_engine(8, 0, false);
	struct nlru_file *f;
	int fd = mkstemp(path);
	void *addr;
	struct stat st;

	if (fd < 0)
		cr_skip_test("no tmpfs at /dev/shm: %s", strerror(errno));
	close(fd);
	make_file(path, 8 * 4096, 3);
	cr_assert_eq(nlru_file_open(eng, path, O_RDWR, 0, 0, &f), 0);
	/* A first access at the last page, as a sequential reader's would be: no readahead. */
	cr_assert_eq(nlru_file_pin_page(f, UINT32_MAX, 0, &addr), 0);
	cr_expect_eq(((char *)addr)[0], 0, "past the end of the file: zeros");
	cr_assert_eq(nlru_file_unpin_page(f, UINT32_MAX, 0), 0);
	cr_assert_eq(nlru_file_pread(f, got, sizeof(got), 0), (long)sizeof(got));
	for (size_t i = 0; i < sizeof(got); i++)
		cr_assert_eq((unsigned char)got[i], byte_at(i, 3), "page 0 byte %zu", i);

	memset(page, 'L', sizeof(page));
	cr_assert_eq(nlru_file_pwrite(f, page, sizeof(page), last), (long)sizeof(page));
	cr_expect_eq(nlru_file_pread(f, got, sizeof(got), last), (long)sizeof(got));
	cr_expect_eq(memcmp(got, page, sizeof(page)), 0);
	cr_expect_eq(nlru_file_pwrite(f, "Z", 1, 0), 1);
	cr_assert_eq(nlru_file_close(f), 0);

	cr_assert_eq(stat(path, &st), 0);
	cr_expect_eq((uint64_t)st.st_size, last + 4096, "16 TiB long");
	fd = open(path, O_RDONLY);
	cr_assert_eq(pread(fd, got, sizeof(got), (off_t)last), (ssize_t)sizeof(got));
	cr_expect_eq(memcmp(got, page, sizeof(page)), 0, "the last page reached the file");
	cr_assert_eq(pread(fd, got, sizeof(got), 0), (ssize_t)sizeof(got));
	close(fd);
	unlink(path);
	cr_expect_eq(got[0], 'Z');
	for (size_t i = 1; i < sizeof(got); i++)
		cr_assert_eq((unsigned char)got[i], byte_at(i, 3), "page 0 byte %zu kept", i);
	destroy_engine(eng);
}

/*
 * The two-list classic: a working set that fits is read twice and becomes active; a stream
 * larger than memory is read once and activates nothing.
 */
/*
 * What counts as an access, as in 4.8's mm/filemap.c: a write none (generic_perform_write()),
 * a sequential read in small pieces one per page (do_generic_file_read()'s prev_pos), so a
 * page written and then read once in 512-byte reads is referenced and stays inactive; the
 * next pass over it activates it.
 */
Test(filemap, small_sequential_reads_reference_a_page_once_writes_not_at_all)
{
	enum { PAGES = 64, PIECE = 512 };
	struct nlru_engine *eng;
	struct nlru_config cfg;
	struct nlru_file *f;
	char buf[PIECE];
	uint64_t activated;

	test_config(&cfg, 16, NULL);
	cr_assert_eq(nlru_engine_create(&cfg, &eng), 0);
	cr_assert_eq(
		nlru_file_open(eng, test_path("pieces"), O_RDWR | O_CREAT | O_TRUNC, 0600, 0, &f),
		0);
	memset(buf, 'p', sizeof(buf));
	activated = vmstat_value(eng, "pgactivate");
	for (uint64_t off = 0; off < PAGES * 4096; off += PIECE)
		cr_assert_eq(nlru_file_pwrite(f, buf, PIECE, off), PIECE);
	for (uint64_t off = 0; off < PAGES * 4096; off += PIECE)
		cr_assert_eq(nlru_file_pread(f, buf, PIECE, off), PIECE);
	cr_expect_eq(vmstat_value(eng, "pgactivate"), activated,
		     "eight writes and eight reads of each page activated it");
	cr_expect_eq(vmstat_value(eng, "nr_active_file"), 0);
	for (uint64_t off = 0; off < PAGES * 4096; off += PIECE)
		cr_assert_eq(nlru_file_pread(f, buf, PIECE, off), PIECE);
	cr_expect_eq(vmstat_value(eng, "pgactivate"), activated + PAGES,
		     "a second pass activates each page once");
	cr_assert_eq(nlru_file_close(f), 0);
	destroy_engine(eng);
}

Test(filemap, working_set_is_activated_streaming_is_not)
{
	struct nlru_engine *eng = test_swap_engine(8, 0, false);
	struct nlru_file *ws, *st;
	char buf[65536];
	int64_t activated;

	make_file(test_path("ws"), 1024 * 4096, 10);
	make_file(test_path("st"), 6144 * 4096, 11);
	cr_assert_eq(nlru_file_open(eng, test_path("ws"), O_RDONLY, 0, 0, &ws), 0);
	cr_assert_eq(nlru_file_open(eng, test_path("st"), O_RDONLY, 0, 0, &st), 0);
	for (int pass = 0; pass < 2; pass++)
		for (uint64_t off = 0; off < 1024 * 4096; off += sizeof(buf))
			cr_assert_eq(nlru_file_pread(ws, buf, sizeof(buf), off), (long)sizeof(buf));
	cr_expect_geq(vmstat_value(eng, "nr_active_file"), 1000, "the working set is active");
	activated = vmstat_value(eng, "pgactivate");
	for (uint64_t off = 0; off < 6144 * 4096; off += sizeof(buf))
		cr_assert_eq(nlru_file_pread(st, buf, sizeof(buf), off), (long)sizeof(buf));
	cr_expect_eq(vmstat_value(eng, "pgactivate"), activated, "streaming activated nothing");
	cr_expect_eq(vmstat_value(eng, "workingset_activate"), 0);
	cr_assert_eq(nlru_file_close(st), 0);
	cr_assert_eq(nlru_file_close(ws), 0);
	destroy_engine(eng);
}

/*
 * The working set left active after a stream of twice the engine has gone through, with
 * inactive_list_is_low() weighing the lists at the engine's own size or at @scale times it.
 */
static int64_t active_after_stream(long scale)
{
	struct nlru_engine *eng;
	struct nlru_config cfg;
	struct nlru_file *ws, *st;
	char buf[65536];
	int64_t active;

	test_config(&cfg, 16, NULL);
	cfg.swap_mib = 0;
	cfg.inactive_ratio_scale = scale;
	cr_assert_eq(nlru_engine_create(&cfg, &eng), 0);
	cr_assert_eq(nlru_file_open(eng, test_path("ws"), O_RDONLY, 0, 0, &ws), 0);
	cr_assert_eq(nlru_file_open(eng, test_path("st"), O_RDONLY, 0, 0, &st), 0);
	for (int pass = 0; pass < 2; pass++)
		for (uint64_t off = 0; off < 3072 * 4096; off += sizeof(buf))
			cr_assert_eq(nlru_file_pread(ws, buf, sizeof(buf), off), (long)sizeof(buf));
	for (uint64_t off = 0; off < 8192 * 4096; off += sizeof(buf))
		cr_assert_eq(nlru_file_pread(st, buf, sizeof(buf), off), (long)sizeof(buf));
	active = vmstat_value(eng, "nr_active_file");
	cr_assert_eq(nlru_file_close(st), 0);
	cr_assert_eq(nlru_file_close(ws), 0);
	destroy_engine(eng);
	return active;
}

/*
 * At 16 MiB the inactive ratio is 1 (the lists' GiB round to 0): reclaim deactivates the
 * working set until the lists are even.  Weighed as lists 256 times larger (some 4 GiB:
 * a ratio of 5 or 6), the inactive list may be a fifth of the active one, so more
 * of the working set stays active through the same stream.
 */
Test(filemap, inactive_ratio_scale_keeps_more_of_the_working_set_active)
{
	int64_t own, scaled;

	make_file(test_path("ws"), 3072 * 4096, 12);
	make_file(test_path("st"), 8192 * 4096, 13);
	own = active_after_stream(1);
	scaled = active_after_stream(256);
	cr_expect_gt(scaled, own + 500, "active file pages: %lld at scale 256, %lld at 1",
		     (long long)scaled, (long long)own);
}
