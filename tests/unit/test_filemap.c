/*
 * The page cache: pread/pwrite semantics, nothing lost through reclaim, close, destroy and
 * failing writes, the 4.8 writeback rule, refault detection, and the shadow bound.
 */
#include <criterion/criterion.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "filemap.h"
#include "helpers.h"

TestSuite(filemap, .fini = test_remove_dir, .timeout = 120);

static unsigned char byte_at(uint64_t pos, unsigned int seed)
{
	return (unsigned char)((pos * 2654435761u) >> 13 ^ (pos >> 12) ^ seed);
}

/* A real file of @bytes written with plain write(2). */
static void make_file(const char *path, uint64_t bytes, unsigned int seed)
{
	static unsigned char buf[1 << 16];
	int fd = open(path, O_CREAT | O_TRUNC | O_WRONLY, 0600);

	cr_assert(fd >= 0);
	for (uint64_t off = 0; off < bytes; off += sizeof(buf)) {
		size_t n = (size_t)MIN((uint64_t)sizeof(buf), bytes - off);

		for (size_t i = 0; i < n; i++)
			buf[i] = byte_at(off + i, seed);
		cr_assert_eq(write(fd, buf, n), (ssize_t)n);
	}
	close(fd);
}

static uint64_t file_size(const char *path)
{
	struct stat st;

	cr_assert_eq(stat(path, &st), 0, "%s", path);
	return (uint64_t)st.st_size;
}

/* Compare two real files byte for byte. */
static void expect_same_files(const char *a, const char *b)
{
	static unsigned char x[1 << 16], y[1 << 16];
	int fa = open(a, O_RDONLY), fb = open(b, O_RDONLY);
	ssize_t na, nb;
	uint64_t off = 0;

	cr_assert(fa >= 0 && fb >= 0);
	do {
		na = read(fa, x, sizeof(x));
		nb = read(fb, y, sizeof(y));
		cr_assert_eq(na, nb, "sizes differ at %llu", (unsigned long long)off);
		cr_assert_eq(memcmp(x, y, (size_t)MAX(na, 0)), 0, "contents differ near %llu",
			     (unsigned long long)off);
		off += (uint64_t)MAX(na, 0);
	} while (na > 0);
	close(fa);
	close(fb);
}

/* Copy @src to @dst through the engine in chunks of @chunk bytes (read A, write B). */
static void copy_through(struct nlru_engine *eng, const char *src, const char *dst, size_t chunk)
{
	struct nlru_file *a, *b;
	char *buf = malloc(chunk);
	uint64_t off = 0;
	long n;

	cr_assert_eq(nlru_file_open(eng, src, O_RDONLY, 0, 0, &a), 0);
	cr_assert_eq(nlru_file_open(eng, dst, O_RDWR | O_CREAT | O_TRUNC, 0600, 0, &b), 0);
	while ((n = nlru_file_pread(a, buf, chunk, off)) > 0) {
		cr_assert_eq(nlru_file_pwrite(b, buf, (size_t)n, off), n, "%s", test_log_last);
		off += (uint64_t)n;
	}
	cr_assert_eq(n, 0, "read error %ld: %s", n, test_log_last);
	cr_assert_eq(nlru_file_close(b), 0, "%s", test_log_last);
	cr_assert_eq(nlru_file_close(a), 0);
	free(buf);
}

Test(filemap, copy_twice_memory_is_identical)
{
	struct nlru_engine *eng = test_swap_engine(8, 0, true);

	make_file(test_path("src"), 16 << 20, 1);
	copy_through(eng, test_path("src"), test_path("dst"), 100000);
	expect_same_files(test_path("src"), test_path("dst"));
	cr_expect_gt(vmstat_value(eng, "pgsteal_kswapd") + vmstat_value(eng, "pgsteal_direct"), 0,
		     "the cache was reclaimed on the way");
	cr_expect_eq(vmstat_value(eng, "nr_file_pages"), 0, "closed files leave no pages");
	cr_expect_eq(vmstat_value(eng, "nr_dirty"), 0);
	destroy_engine(eng);
}

/* Copy @src to @dst page by page through pinned pages: no buffer in between. */
static void copy_pinned(struct nlru_engine *eng, const char *src, const char *dst)
{
	struct nlru_file *in, *out;
	uint64_t size = file_size(src);

	cr_assert_eq(nlru_file_open(eng, src, O_RDONLY, 0, 0, &in), 0);
	cr_assert_eq(nlru_file_open(eng, dst, O_RDWR | O_CREAT | O_TRUNC, 0644, 0, &out), 0);
	for (uint64_t index = 0; index << 12 < size; index++) {
		size_t n = (size_t)MIN(4096, size - (index << 12));
		void *from, *to;

		cr_assert_eq(nlru_file_pin_page(in, index, 0, &from), 0, "%s", test_log_last);
		cr_assert_eq(nlru_file_pin_page(out, index, NLRU_PIN_WRITE, &to), 0);
		memcpy(to, from, n);
		cr_assert_eq(nlru_file_unpin_page(out, index, n), 0);
		cr_assert_eq(nlru_file_unpin_page(in, index, 0), 0);
	}
	cr_assert_eq(nlru_file_close(in), 0);
	cr_assert_eq(nlru_file_close(out), 0);
}

Test(filemap, copy_through_pinned_pages_is_identical)
{
	struct nlru_engine *eng = test_swap_engine(8, 0, true);

	/* Twice the engine, and a tail that is not a whole page. */
	make_file(test_path("src"), (16 << 20) + 1234, 4);
	copy_pinned(eng, test_path("src"), test_path("dst"));
	expect_same_files(test_path("src"), test_path("dst"));
	cr_expect_gt(vmstat_value(eng, "pgsteal_kswapd") + vmstat_value(eng, "pgsteal_direct"), 0);
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
	filemap_inject_read_errors(f, EIO, 2);
	cr_expect_eq(nlru_file_pread(f, buf, sizeof(buf), 0), -EIO);
	cr_expect(strstr(test_log_last, "read of"), "%s", test_log_last);
	cr_expect_eq(vmstat_value(eng, "nr_file_pages"), 1, "the page stays in the cache");
	/* The second failure is the page's read again, by the next reader. */
	cr_expect_eq(nlru_file_pread(f, buf, sizeof(buf), 0), -EIO);
	cr_expect_eq(nlru_file_pread(f, buf, sizeof(buf), 0), (long)sizeof(buf), "%s",
		     test_log_last);
	for (size_t i = 0; i < sizeof(buf); i++)
		cr_assert_eq(buf[i], byte_at(i, 11), "byte %zu", i);
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

/* The page cache's own eviction test hook drops a clean page and keeps a dirty one. */
Test(filemap, invalidate_drops_clean_pages_only)
{
	struct nlru_engine *eng = test_swap_engine(8, 0, false);
	struct nlru_file *f;
	char buf[4096];

	make_file(test_path("inv"), 2 * 4096, 13);
	cr_assert_eq(nlru_file_open(eng, test_path("inv"), O_RDWR, 0, 0, &f), 0);
	cr_assert_eq(nlru_file_pread(f, buf, sizeof(buf), 0), (long)sizeof(buf));
	cr_assert_eq(nlru_file_pwrite(f, "x", 1, 4096), 1);
	cr_expect(filemap_invalidate_page(f, 0), "clean: dropped");
	cr_expect_not(filemap_invalidate_page(f, 1), "dirty: kept");
	cr_expect_not(filemap_invalidate_page(f, 5), "not cached");
	cr_expect_eq(vmstat_value(eng, "nr_file_pages"), 1);
	cr_assert_eq(nlru_file_close(f), 0);
	destroy_engine(eng);
}

/* nlru_file_copy_range() of a whole file twice the engine: aligned, page to page. */
Test(filemap, copy_range_twice_memory_is_identical)
{
	struct nlru_engine *eng = test_swap_engine(8, 0, true);
	uint64_t size = (16 << 20) + 1234; /* and a tail that is not a whole page */
	struct nlru_file *in, *out;

	make_file(test_path("src"), size, 5);
	cr_assert_eq(nlru_file_open(eng, test_path("src"), O_RDONLY, 0, 0, &in), 0);
	cr_assert_eq(
		nlru_file_open(eng, test_path("dst"), O_RDWR | O_CREAT | O_TRUNC, 0600, 0, &out),
		0);
	cr_expect_eq(nlru_file_copy_range(in, 0, out, 0, 1ul << 30), (long)size,
		     "short at the end of the source: %s", test_log_last);
	cr_expect_eq(nlru_file_copy_range(in, size, out, size, 4096), 0, "at the end: nothing");
	cr_assert_eq(nlru_file_close(out), 0, "%s", test_log_last);
	cr_assert_eq(nlru_file_close(in), 0);
	expect_same_files(test_path("src"), test_path("dst"));
	cr_expect_gt(vmstat_value(eng, "pgsteal_kswapd") + vmstat_value(eng, "pgsteal_direct"), 0);
	cr_expect_eq(vmstat_value(eng, "nr_dirty"), 0);
	destroy_engine(eng);
}

/* Ranges off page boundaries, into a file with contents around the copy, and within a file. */
Test(filemap, copy_range_unaligned_and_within_a_file)
{
	struct nlru_engine *eng = test_swap_engine(8, 0, false);
	const uint64_t in_off = 1000, out_off = 70001, len = 300000;
	static unsigned char got[400000];
	struct nlru_file *in, *out;
	int fd;

	make_file(test_path("src"), 400000, 6);
	make_file(test_path("dst"), 400000, 7);
	cr_assert_eq(nlru_file_open(eng, test_path("src"), O_RDONLY, 0, 0, &in), 0);
	cr_assert_eq(nlru_file_open(eng, test_path("dst"), O_RDWR, 0, 0, &out), 0);
	cr_expect_eq(nlru_file_copy_range(in, in_off, out, out_off, len), (long)len, "%s",
		     test_log_last);
	/* Within one file: page 0 onto page 90, then an overlap, refused. */
	cr_expect_eq(nlru_file_copy_range(out, 0, out, 90 * 4096, 4096), 4096);
	cr_expect_eq(nlru_file_copy_range(out, 0, out, 4095, 4096), -EINVAL);
	cr_expect(strstr(test_log_last, "overlap"), "%s", test_log_last);
	cr_assert_eq(nlru_file_close(out), 0);
	cr_assert_eq(nlru_file_close(in), 0);

	fd = open(test_path("dst"), O_RDONLY);
	cr_assert_eq(pread(fd, got, sizeof(got), 0), (ssize_t)sizeof(got));
	close(fd);
	for (uint64_t pos = 0; pos < sizeof(got); pos++) {
		unsigned char want = byte_at(pos, 7);

		if (pos >= 90 * 4096 && pos < 91 * 4096)
			want = byte_at(pos - 90 * 4096, 7);
		else if (pos >= out_off && pos < out_off + len)
			want = byte_at(pos - out_off + in_off, 6);
		cr_assert_eq(got[pos], want, "byte %llu", (unsigned long long)pos);
	}
	destroy_engine(eng);
}

Test(filemap, copy_range_bad_input_changes_nothing)
{
	struct nlru_engine *eng = test_swap_engine(8, 0, false),
			   *other = test_swap_engine(8, 0, false);
	struct nlru_file *rw, *ro, *wo, *elsewhere;
	char buf[16];

	make_file(test_path("a"), 8192, 8);
	make_file(test_path("a2"), 8192, 8);
	cr_assert_eq(nlru_file_open(eng, test_path("a"), O_RDWR, 0, 0, &rw), 0);
	cr_assert_eq(nlru_file_open(eng, test_path("a2"), O_RDONLY, 0, 0, &ro), 0);
	cr_assert_eq(nlru_file_open(eng, test_path("b"), O_WRONLY | O_CREAT, 0600, 0, &wo), 0);
	cr_assert_eq(nlru_file_open(other, test_path("c"), O_RDWR | O_CREAT, 0600, 0, &elsewhere),
		     0);
	cr_expect_eq(nlru_file_copy_range(NULL, 0, rw, 0, 10), -EINVAL);
	cr_expect_eq(nlru_file_copy_range(rw, 0, NULL, 0, 10), -EINVAL);
	cr_expect_eq(nlru_file_copy_range(wo, 0, rw, 0, 10), -EBADF);
	cr_expect(strstr(test_log_last, "write-only"), "%s", test_log_last);
	cr_expect_eq(nlru_file_copy_range(rw, 0, ro, 0, 10), -EBADF);
	cr_expect(strstr(test_log_last, "read-only"), "%s", test_log_last);
	cr_expect_eq(nlru_file_copy_range(rw, 0, elsewhere, 0, 10), -EXDEV);
	cr_expect_eq(nlru_file_copy_range(ro, 0, rw, 1ull << 44, 10), -EFBIG);
	cr_expect_eq(nlru_file_pwrite(rw, "x", 1, (1ull << 44) - 0), -EFBIG);
	cr_expect_eq(nlru_file_pwrite(rw, "xy", 2, (1ull << 44) - 1), -EFBIG);
	cr_expect_eq(nlru_file_pread(rw, buf, sizeof(buf), 1ull << 45), 0, "past 16 TiB: nothing");
	cr_expect_eq(vmstat_value(eng, "nr_dirty"), 0, "nothing was written");
	cr_expect_eq(file_size(test_path("b")), 0);
	cr_assert_eq(nlru_file_close(elsewhere), 0);
	cr_assert_eq(nlru_file_close(wo), 0);
	cr_assert_eq(nlru_file_close(ro), 0);
	cr_assert_eq(nlru_file_close(rw), 0);
	destroy_engine(other);
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

/* Flags the cache cannot honour are refused before the file is opened or created. */
Test(filemap, open_refuses_flags_it_cannot_honour)
{
	static const int refused[] = {
		O_APPEND, O_DIRECT, O_SYNC, O_DSYNC, O_NONBLOCK, O_PATH, O_TMPFILE & ~O_DIRECTORY};
	struct nlru_engine *eng = test_swap_engine(8, 0, false);
	struct nlru_file *f;
	struct stat st;

	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		cr_expect_eq(nlru_file_open(eng, test_path("new"), O_RDWR | O_CREAT | refused[i],
					    0600, 0, &f),
			     -EINVAL, "flag %#x", refused[i]);
		cr_expect(strstr(test_log_last, "flags"), "%s", test_log_last);
	}
	cr_expect_eq(nlru_file_open(eng, test_path("new"), O_ACCMODE | O_CREAT, 0600, 0, &f),
		     -EINVAL, "no such access mode");
	cr_expect_neq(stat(test_path("new"), &st), 0, "nothing was created");
	cr_assert_eq(nlru_file_open(eng, test_path("new"), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC,
				    0600, 0, &f),
		     0);
	cr_expect_eq(nlru_file_pwrite(f, "abc", 3, 0), 3);
	cr_assert_eq(nlru_file_close(f), 0);
	cr_expect_eq(file_size(test_path("new")), 3);
	destroy_engine(eng);
}

/*
 * One engine caches a file through one open: a second open of it (by any name) would cache
 * it twice, and each copy would overwrite the other's writes at writeback.  Refused, before
 * O_TRUNC could cut the file under the first open.  Nor is anything but a regular file taken:
 * a FIFO would block the open until a writer came.
 */
Test(filemap, a_file_is_opened_once_and_only_regular_files)
{
	struct nlru_engine *eng = test_swap_engine(8, 0, false);
	struct nlru_file *f, *again;
	char buf[8];

	make_file(test_path("one"), 8192, 4);
	cr_assert_eq(link(test_path("one"), test_path("linked")), 0);
	cr_assert_eq(nlru_file_open(eng, test_path("one"), O_RDWR, 0, 0, &f), 0);
	cr_expect_eq(nlru_file_pwrite(f, "W", 1, 0), 1);
	cr_expect_eq(nlru_file_open(eng, test_path("one"), O_RDONLY, 0, 0, &again), -EBUSY);
	cr_expect(strstr(test_log_last, "open in this engine already"), "%s", test_log_last);
	cr_expect_eq(nlru_file_open(eng, test_path("linked"), O_RDWR | O_TRUNC, 0, 0, &again),
		     -EBUSY, "the same file under another name");
	cr_expect_eq(file_size(test_path("one")), 8192, "not truncated");
	cr_expect_eq(nlru_file_pread(f, buf, 1, 0), 1);
	cr_expect_eq(buf[0], 'W');
	cr_assert_eq(nlru_file_close(f), 0);
	cr_assert_eq(nlru_file_open(eng, test_path("linked"), O_RDONLY, 0, 0, &again), 0,
		     "closed, it may be opened again");
	cr_expect_eq(nlru_file_pread(again, buf, 1, 0), 1);
	cr_expect_eq(buf[0], 'W');
	cr_assert_eq(nlru_file_close(again), 0);

	cr_assert_eq(mkfifo(test_path("fifo"), 0600), 0);
	cr_expect_eq(nlru_file_open(eng, test_path("fifo"), O_RDONLY, 0, 0, &f), -EINVAL);
	cr_expect(strstr(test_log_last, "not a regular file"), "%s", test_log_last);
	cr_expect_eq(nlru_file_open(eng, "/dev/null", O_RDWR, 0, 0, &f), -EINVAL);
	destroy_engine(eng);
}

/*
 * One pwrite far larger than the dirty limit, with no flusher and no kswapd to clean behind
 * it: the writer must stop at the limit and write back pages itself on the way, as it does
 * between calls, and so write all of it.
 */
Test(filemap, one_large_write_keeps_to_the_dirty_limit)
{
	const size_t len = 24 << 20; /* three times the engine */
	struct nlru_config cfg;
	struct nlru_engine *eng;
	struct nlru_file *f;
	unsigned char *buf = malloc(len);

	test_config(&cfg, 8, NULL);
	cfg.kswapd = 0;
	cfg.flusher = 0;
	cr_assert_eq(nlru_engine_create(&cfg, &eng), 0, "%s", test_log_last);
	for (size_t i = 0; i < len; i++)
		buf[i] = byte_at(i, 11);
	cr_assert_eq(nlru_file_open(eng, test_path("big"), O_RDWR | O_CREAT, 0600, 0, &f), 0);
	cr_expect_eq(nlru_file_pwrite(f, buf, len, 0), (long)len, "%s", test_log_last);
	cr_assert_eq(nlru_file_close(f), 0);
	free(buf);
	cr_expect_eq(file_size(test_path("big")), len);
	make_file(test_path("want"), len, 11);
	expect_same_files(test_path("big"), test_path("want"));
	destroy_engine(eng);
}

/*
 * A page cached to be written whole is no refault (Linux: __GFP_WRITE): rewriting pages
 * evicted a moment ago counts nothing, where reading them back counts each.
 */
Test(filemap, rewriting_evicted_pages_is_no_refault)
{
	struct nlru_engine *eng = test_swap_engine(8, 0, false);
	static char page[4096];
	struct nlru_file *f;
	int64_t refaults;

	make_file(test_path("data"), 24 << 20, 2);
	cr_assert_eq(nlru_file_open(eng, test_path("data"), O_RDWR, 0, 0, &f), 0);
	for (uint64_t off = 0; off < 24 << 20; off += sizeof(page))
		cr_assert_eq(nlru_file_pread(f, page, sizeof(page), off), (long)sizeof(page));
	refaults = vmstat_value(eng, "workingset_refault");
	/* The first pages went long ago and left shadows: write them whole. */
	for (uint64_t off = 0; off < 2 << 20; off += sizeof(page))
		cr_assert_eq(nlru_file_pwrite(f, page, sizeof(page), off), (long)sizeof(page));
	cr_expect_eq(vmstat_value(eng, "workingset_refault"), refaults, "writes are no refaults");
	for (uint64_t off = 4 << 20; off < 6 << 20; off += sizeof(page))
		cr_assert_eq(nlru_file_pread(f, page, sizeof(page), off), (long)sizeof(page));
	cr_expect_gt(vmstat_value(eng, "workingset_refault"), refaults, "reads of them are");
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

/* A pinned page keeps its address and contents while reclaim streams a file past it. */
Test(filemap, pinned_file_pages_are_not_reclaimed)
{
	struct nlru_engine *eng = test_swap_engine(8, 0, false);
	struct nlru_file *f, *big;
	unsigned char *p, *q;
	char buf[4096];

	make_file(test_path("small"), 10000, 5);
	make_file(test_path("big"), 24 << 20, 6);
	cr_assert_eq(nlru_file_open(eng, test_path("small"), O_RDWR, 0, 0, &f), 0);
	cr_assert_eq(nlru_file_pin_page(f, 2, 0, (void **)&p), 0);
	cr_expect_eq(p[0], byte_at(8192, 5));
	cr_expect_eq(p[10000 - 8192 - 1], byte_at(9999, 5));
	cr_expect_eq(p[10000 - 8192], 0, "past the end of the file: zeroes");
	/* Pinned twice, by a writer this time. */
	cr_assert_eq(nlru_file_pin_page(f, 2, NLRU_PIN_WRITE, (void **)&q), 0);
	cr_assert_eq(q, p);
	cr_assert_eq(nlru_file_open(eng, test_path("big"), O_RDONLY, 0, 0, &big), 0);
	for (uint64_t off = 0; off < (24 << 20); off += sizeof(buf))
		cr_assert_eq(nlru_file_pread(big, buf, sizeof(buf), off), (long)sizeof(buf));
	cr_assert_gt(vmstat_value(eng, "pgsteal_direct"), 0, "reclaim ran");
	cr_expect_eq(p[0], byte_at(8192, 5), "still there");
	q[10000 - 8192] = 'X';
	cr_expect_eq(nlru_file_unpin_page(f, 2, 10000 - 8192 + 1), 0);
	cr_expect_eq(nlru_file_close(f), -EBUSY, "a pin is left");
	cr_expect(strstr(test_log_last, "pinned"), "%s", test_log_last);
	cr_expect_eq(nlru_file_unpin_page(f, 2, 0), 0);
	cr_expect_eq(nlru_file_unpin_page(f, 2, 0), -EINVAL, "no pin left");
	cr_assert_eq(nlru_file_close(f), 0);
	cr_assert_eq(nlru_file_close(big), 0);
	cr_expect_eq(file_size(test_path("small")), 10001, "the write grew the file by one byte");
	int fd = open(test_path("small"), O_RDONLY);
	cr_assert_eq(pread(fd, buf, 2, 9999), 2);
	cr_expect_eq((unsigned char)buf[0], byte_at(9999, 5));
	cr_expect_eq(buf[1], 'X');
	close(fd);
	destroy_engine(eng);
}

Test(filemap, pin_bad_input_changes_nothing)
{
	struct nlru_engine *eng = test_swap_engine(8, 0, false);
	struct nlru_file *ro, *rw;
	void *p;

	make_file(test_path("f"), 8192, 7);
	make_file(test_path("g"), 8192, 7);
	cr_assert_eq(nlru_file_open(eng, test_path("g"), O_RDONLY, 0, 0, &ro), 0);
	cr_assert_eq(nlru_file_open(eng, test_path("f"), O_RDWR, 0, 0, &rw), 0);
	cr_expect_eq(nlru_file_pin_page(ro, 0, NLRU_PIN_WRITE, &p), -EBADF);
	cr_expect(strstr(test_log_last, "read-only"), "%s", test_log_last);
	cr_expect_eq(nlru_file_pin_page(rw, 0, 1u << 7, &p), -EINVAL);
	cr_expect_eq(nlru_file_pin_page(rw, 1ull << 32, 0, &p), -EINVAL);
	cr_expect_eq(nlru_file_pin_page(NULL, 0, 0, &p), -EINVAL);
	cr_expect_eq(nlru_file_pin_page(rw, 0, 0, NULL), -EINVAL);
	cr_expect_eq(nlru_file_unpin_page(rw, 0, 0), -EINVAL, "not pinned");
	/* A write pin sees the file's bytes: a page is never cached before it holds them. */
	cr_assert_eq(nlru_file_pin_page(rw, 0, NLRU_PIN_WRITE, &p), 0);
	cr_expect_eq(((unsigned char *)p)[100], byte_at(100, 7));
	cr_expect_eq(nlru_file_unpin_page(rw, 0, 0), 0);
	cr_assert_eq(nlru_file_pin_page(ro, 1, 0, &p), 0);
	cr_expect_eq(nlru_file_unpin_page(ro, 1, 10), -EBADF, "a read-only file is not written");
	cr_expect_eq(nlru_file_unpin_page(ro, 1, 4097), -EINVAL);
	cr_expect_eq(nlru_engine_destroy(eng), -EBUSY, "a file with a pinned page stays");
	cr_expect_eq(nlru_file_unpin_page(ro, 1, 0), 0);
	cr_expect_eq(vmstat_value(eng, "nr_dirty"), 0, "nothing was written");
	cr_assert_eq(nlru_file_close(ro), 0);
	cr_assert_eq(nlru_file_close(rw), 0);
	cr_expect_eq(file_size(test_path("f")), 8192);
	destroy_engine(eng);
}

struct hog {
	struct nlru_engine *eng;
	atomic_bool *stop;
	long bad;
};

static void *hog_main(void *arg)
{
	struct hog *h = arg;
	struct nlru_region *r;
	uint64_t *p;

	cr_assert_eq(nlru_region_create(h->eng, 1536, 0, &r), 0);
	for (size_t i = 0; !atomic_load(h->stop); i = (i + 1) % 1536) {
		cr_assert_eq(nlru_region_pin(r, i, NLRU_PIN_WRITE, (void **)&p), 0);
		if (p[0] && p[0] != i + 1)
			h->bad++;
		p[0] = i + 1;
		nlru_region_unpin(r, i);
	}
	cr_assert_eq(nlru_region_destroy(r), 0);
	return NULL;
}

/* The same copy while an anonymous hog of three quarters of memory runs on another thread. */
Test(filemap, copy_with_an_anon_hog_running)
{
	struct nlru_engine *eng = test_swap_engine(8, 32, true);
	atomic_bool stop = false;
	struct hog h = {eng, &stop, 0};
	pthread_t tid;

	make_file(test_path("src2"), 16 << 20, 2);
	cr_assert_eq(pthread_create(&tid, NULL, hog_main, &h), 0);
	copy_through(eng, test_path("src2"), test_path("dst2"), 65536 + 123);
	atomic_store(&stop, true);
	pthread_join(tid, NULL);
	expect_same_files(test_path("src2"), test_path("dst2"));
	cr_expect_eq(h.bad, 0, "the hog's memory stayed intact");
	destroy_engine(eng);
}

struct racer {
	struct nlru_file *file;
	unsigned char fill;
	uint64_t pages;
};

/* Write the whole file, run after run of 16 pages, every page filled with one byte. */
static void *race_writer(void *arg)
{
	struct racer *r = arg;
	static _Thread_local unsigned char buf[16 * 4096];

	memset(buf, r->fill, sizeof(buf));
	for (int round = 0; round < 8; round++)
		for (uint64_t p = 0; p < r->pages; p += 16)
			cr_assert_eq(nlru_file_pwrite(r->file, buf, sizeof(buf), p * 4096),
				     (long)sizeof(buf), "%s", test_log_last);
	return NULL;
}

/*
 * Two threads write the same pages whole at once, often both finding a page missing and one
 * losing the race to cache its new page: every page must end as one writer's page, never a
 * mix, never zeroes, and the file as long as what was written.
 */
Test(filemap, concurrent_whole_page_writers_never_mix)
{
	struct nlru_engine *eng = test_swap_engine(8, 0, true);
	struct racer r[2];
	pthread_t tid[2];
	struct nlru_file *f;
	unsigned char page[4096];
	uint64_t pages = 4096; /* twice the engine: pages come and go while they race */

	cr_assert_eq(
		nlru_file_open(eng, test_path("race"), O_RDWR | O_CREAT | O_TRUNC, 0600, 0, &f), 0);
	for (int i = 0; i < 2; i++) {
		r[i] = (struct racer){f, (unsigned char)(0xa0 + i), pages};
		cr_assert_eq(pthread_create(&tid[i], NULL, race_writer, &r[i]), 0);
	}
	for (int i = 0; i < 2; i++)
		pthread_join(tid[i], NULL);
	for (uint64_t p = 0; p < pages; p++) {
		cr_assert_eq(nlru_file_pread(f, page, sizeof(page), p * 4096), (long)sizeof(page));
		cr_assert(page[0] == 0xa0 || page[0] == 0xa1, "page %llu: %#x",
			  (unsigned long long)p, page[0]);
		for (size_t b = 1; b < sizeof(page); b++)
			cr_assert_eq(page[b], page[0], "page %llu mixed at byte %zu",
				     (unsigned long long)p, b);
	}
	cr_assert_eq(nlru_file_close(f), 0);
	cr_expect_eq(file_size(test_path("race")), pages * 4096);
	destroy_engine(eng);
}

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

/* Without kswapd nothing may write file pages in reclaim: writers clean their own. */
Test(filemap, direct_reclaim_never_writes_file_pages)
{
	struct nlru_engine *eng = test_swap_engine(8, 0, false);

	make_file(test_path("src3"), 12 << 20, 4);
	copy_through(eng, test_path("src3"), test_path("dst3"), 4096);
	expect_same_files(test_path("src3"), test_path("dst3"));
	cr_expect_eq(vmstat_value(eng, "nr_vmscan_write"), 0);
	cr_expect_gt(vmstat_value(eng, "pgsteal_direct"), 0);
	cr_expect_eq(vmstat_value(eng, "nr_written"), vmstat_value(eng, "nr_dirtied"));
	destroy_engine(eng);
}

/* A file left open with dirty pages is flushed and closed by destroy. */
Test(filemap, destroy_flushes_files_left_open)
{
	struct nlru_engine *eng = test_swap_engine(8, 0, false);
	struct nlru_file *f;
	char buf[4096];

	memset(buf, 'q', sizeof(buf));
	cr_assert_eq(
		nlru_file_open(eng, test_path("left"), O_RDWR | O_CREAT | O_TRUNC, 0600, 0, &f), 0);
	for (int i = 0; i < 100; i++)
		cr_assert_eq(nlru_file_pwrite(f, buf, sizeof(buf), (uint64_t)i * 4096), 4096);
	cr_expect_gt(vmstat_value(eng, "nr_dirty"), 0);
	destroy_engine(eng);
	cr_expect(strstr(test_log_last, "left open"), "%s", test_log_last);
	int fd = open(test_path("left"), O_RDONLY);
	cr_assert(fd >= 0);
	cr_expect_eq(lseek(fd, 0, SEEK_END), 100 * 4096);
	close(fd);
}

/* A write error keeps the data dirty and says so; once writing works again, nothing is lost. */
Test(filemap, failed_writeback_keeps_the_data)
{
	struct nlru_engine *eng = test_swap_engine(8, 0, false);
	struct rlimit small = {64 << 10, RLIM_INFINITY}, big = {RLIM_INFINITY, RLIM_INFINITY};
	struct nlru_file *f;
	char buf[4096];

	signal(SIGXFSZ, SIG_IGN); /* writes past the limit fail with EFBIG instead */
	memset(buf, 'w', sizeof(buf));
	cr_assert_eq(nlru_file_open(eng, test_path("big"), O_RDWR | O_CREAT | O_TRUNC, 0600, 0, &f),
		     0);
	for (int i = 0; i < 64; i++)
		cr_assert_eq(nlru_file_pwrite(f, buf, sizeof(buf), (uint64_t)i * 4096), 4096);
	cr_assert_eq(setrlimit(RLIMIT_FSIZE, &small), 0);
	cr_expect_eq(nlru_file_close(f), -EIO);
	cr_expect(strstr(test_log_last, "big"), "the message names the file: %s", test_log_last);
	cr_expect_gt(vmstat_value(eng, "nr_dirty"), 0, "the pages past the limit stay dirty");
	cr_expect_eq(nlru_engine_destroy(eng), -EIO, "destroy will not drop them either");
	cr_assert_eq(setrlimit(RLIMIT_FSIZE, &big), 0);
	cr_expect_eq(nlru_file_fsync(f), -EFBIG, "fsync reports the earlier error once");
	cr_assert_eq(nlru_file_close(f), 0);
	int fd = open(test_path("big"), O_RDONLY);
	cr_expect_eq(lseek(fd, 0, SEEK_END), 64 * 4096, "everything reached the file");
	close(fd);
	destroy_engine(eng);
}

/*
 * Refaults: a file streamed through a small engine leaves shadows; read back from its end,
 * the pages evicted last come back within the active list's size and start active.
 */
Test(filemap, refaults_are_detected_and_recent_ones_activated)
{
	struct nlru_engine *eng = test_swap_engine(8, 0, false);
	struct nlru_file *hot, *s;
	char buf[4096];

	make_file(test_path("hot"), 256 * 4096, 5);
	make_file(test_path("stream"), 4096 * 4096, 6);
	cr_assert_eq(nlru_file_open(eng, test_path("hot"), O_RDONLY, 0, 0, &hot), 0);
	cr_assert_eq(nlru_file_open(eng, test_path("stream"), O_RDONLY, 0, 0, &s), 0);
	for (int pass = 0; pass < 2; pass++)
		for (uint64_t p = 0; p < 256; p++)
			cr_assert_eq(nlru_file_pread(hot, buf, 4096, p * 4096), 4096);
	cr_expect_geq(vmstat_value(eng, "nr_active_file"), 256, "touched twice: active");
	for (uint64_t p = 0; p < 4096; p++)
		cr_assert_eq(nlru_file_pread(s, buf, 4096, p * 4096), 4096);
	cr_expect_eq(vmstat_value(eng, "workingset_refault"), 0);
	for (uint64_t p = 4096; p-- > 0;)
		cr_assert_eq(nlru_file_pread(s, buf, 4096, p * 4096), 4096);
	cr_expect_gt(vmstat_value(eng, "workingset_refault"), 0);
	cr_expect_gt(vmstat_value(eng, "workingset_activate"), 0);
	cr_expect_lt(vmstat_value(eng, "workingset_activate"),
		     vmstat_value(eng, "workingset_refault"),
		     "pages evicted long ago come back inactive");
	cr_assert_eq(nlru_file_close(s), 0);
	cr_assert_eq(nlru_file_close(hot), 0);
	destroy_engine(eng);
}

/* Shadow entries stay bounded: past four per file LRU page, the shadow shrinker trims them. */
Test(filemap, shadow_entries_are_bounded)
{
	struct nlru_engine *eng = test_swap_engine(8, 0, false);
	struct nlru_file *s;
	char buf[65536];
	long shadows, file_pages;

	make_file(test_path("huge"), 64 << 20, 7);
	cr_assert_eq(nlru_file_open(eng, test_path("huge"), O_RDONLY, 0, 0, &s), 0);
	for (uint64_t off = 0; off < (64u << 20); off += sizeof(buf))
		cr_assert_eq(nlru_file_pread(s, buf, sizeof(buf), off), (long)sizeof(buf));
	shadows = atomic_load(&NODE_DATA(eng, 0)->nr_shadows);
	file_pages = vmstat_value(eng, "nr_file_pages");
	cr_expect_gt(vmstat_value(eng, "workingset_nodereclaim"), 0, "shadows were trimmed");
	/* Within a scan batch of the bound. */
	cr_expect_leq(shadows, 4 * file_pages + 2048, "%ld shadows for %ld file pages", shadows,
		      file_pages);
	cr_assert_eq(nlru_file_close(s), 0);
	cr_expect_eq(atomic_load(&NODE_DATA(eng, 0)->nr_shadows), 0, "close drops its shadows");
	destroy_engine(eng);
}

/* Injected EIO and ENOSPC: the pages stay dirty, the next fsync reports it once. */
Test(filemap, injected_writeback_errors_are_reported_once)
{
	struct nlru_engine *eng = test_swap_engine(8, 0, false);
	struct nlru_file *f;
	char buf[4096];

	cr_assert_eq(nlru_file_open(eng, test_path("inj"), O_RDWR | O_CREAT | O_TRUNC, 0600, 0, &f),
		     0);
	for (int i = 0; i < 20; i++) {
		memset(buf, 'a' + i, sizeof(buf));
		cr_assert_eq(nlru_file_pwrite(f, buf, sizeof(buf), (uint64_t)i * 4096), 4096);
	}
	/* The 20 consecutive pages go out in one write: fail it. */
	filemap_inject_write_errors(f, EIO, 1);
	cr_expect_eq(nlru_file_fsync(f), -EIO);
	cr_expect_eq(vmstat_value(eng, "nr_dirty"), 20, "the failed pages are still dirty");
	filemap_inject_write_errors(f, ENOSPC, 1);
	cr_expect_eq(nlru_file_flush(f), -EIO, "a flush fails too");
	cr_expect_eq(nlru_file_fsync(f), -ENOSPC, "the next fsync sees the next error");
	cr_expect_eq(nlru_file_fsync(f), 0, "and then none: each error is reported once");
	cr_expect_eq(vmstat_value(eng, "nr_dirty"), 0);
	/* Redirtied pages are not newly dirtied: 20 pages dirtied, 20 written in the end. */
	cr_expect_eq(vmstat_value(eng, "nr_dirtied"), 20);
	cr_expect_eq(vmstat_value(eng, "nr_written"), 20);
	cr_assert_eq(nlru_file_close(f), 0);
	int fd = open(test_path("inj"), O_RDONLY);
	for (int i = 0; i < 20; i++) {
		cr_assert_eq(pread(fd, buf, sizeof(buf), (off_t)i * 4096), 4096);
		cr_expect_eq(buf[100], 'a' + i, "page %d", i);
	}
	close(fd);
	destroy_engine(eng);
}

Test(filemap, bad_input_changes_nothing)
{
	struct nlru_engine *eng = test_swap_engine(8, 0, false);
	struct nlru_file *f;
	char buf[100];

	cr_expect_eq(nlru_file_open(eng, "/tmp", O_RDONLY, 0, 0, &f), -EISDIR);
	cr_expect(strstr(test_log_last, "directory"), "%s", test_log_last);
	cr_expect_eq(nlru_file_open(eng, test_path("absent"), O_RDONLY, 0, 0, &f), -ENOENT);
	cr_expect_eq(nlru_file_open(eng, test_path("x"), O_RDONLY, 0, 5, &f), -EINVAL, "bad node");
	make_file(test_path("wo"), 8192, 9);
	cr_assert_eq(nlru_file_open(eng, test_path("wo"), O_WRONLY, 0, 0, &f), 0);
	cr_expect_eq(nlru_file_pread(f, buf, sizeof(buf), 0), -EBADF);
	/* A partial write of a write-only file still reads the rest of the page in. */
	cr_expect_eq(nlru_file_pwrite(f, "ZZ", 2, 100), 2);
	cr_assert_eq(nlru_file_close(f), 0);
	int fd = open(test_path("wo"), O_RDONLY);
	cr_assert_eq(pread(fd, buf, 100, 50), 100);
	cr_expect_eq(buf[50], 'Z');
	cr_expect_eq((unsigned char)buf[0], byte_at(50, 9), "the bytes around it are intact");
	cr_expect_eq((unsigned char)buf[99], byte_at(149, 9));
	close(fd);
	cr_expect_eq(nlru_file_pread(NULL, buf, 1, 0), -EINVAL);
	destroy_engine(eng);
}

/*
 * An unreadable file: root reads anything, so the opener drops to "nobody" in a child
 * process first (exit 77 if it may not, and the test is skipped).
 */
Test(filemap, unreadable_file_is_refused_with_eacces)
{
	int status;
	pid_t pid;

	make_file(test_path("secret"), 4096, 3);
	cr_assert_eq(chmod(test_path("secret"), 0600), 0);
	cr_assert_eq(chmod(test_dir(), 0755), 0);
	pid = fork();
	cr_assert_geq(pid, 0);
	if (pid == 0) {
		struct nlru_engine *eng = test_swap_engine(8, 0, false);
		struct nlru_file *f = NULL;
		int r;

		if (setresgid(65534, 65534, 65534) || setresuid(65534, 65534, 65534))
			_exit(77);
		r = nlru_file_open(eng, test_path("secret"), O_RDONLY, 0, 0, &f);
		_exit(r == -EACCES && !f && strstr(test_log_last, "secret") &&
				      strstr(test_log_last, "Permission denied")
			      ? 0
			      : 1);
	}
	cr_assert_eq(waitpid(pid, &status, 0), pid);
	cr_assert(WIFEXITED(status));
	if (WEXITSTATUS(status) == 77)
		cr_skip_test("cannot drop privileges here");
	cr_expect_eq(WEXITSTATUS(status), 0, "-EACCES, a message naming the file, no handle");
}

/*
 * The two-list classic: a working set that fits is read twice and becomes active; a stream
 * larger than memory is read once and activates nothing.
 */
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
 * With no dirty limit in the way, memory fills with dirty pages that direct reclaim may not
 * write.  kswapd's first pass flags the node dirty and, since every written page was touched
 * once (PG_referenced: reclaim it only if clean), keeps them for one more trip; the second
 * pass writes them.
 */
/* Some lruvec of node 0 has @flag set. */
static bool lruvec_flagged(struct nlru_engine *eng, enum lruvec_flags flag)
{
	struct lruvec *lruvecs[NLRU_MAX_NR_ZONES];

	for (int n = node_lruvecs(eng, 0, lruvecs); n--;)
		if (atomic_load(&lruvecs[n]->flags) & (1ul << flag))
			return true;
	return false;
}

Test(filemap, kswapd_writes_dirty_pages_once_the_node_is_dirty)
{
	struct nlru_engine *eng;
	struct nlru_config cfg;
	struct nlru_file *f;
	struct nlru_zone_info normal = {.size = sizeof(normal)}, dma32 = {.size = sizeof(dma32)};
	char buf[4096];
	uint64_t page = 0;

	test_config(&cfg, 8, NULL);
	cfg.kswapd = 0;
	cfg.flusher = 0; /* reclaim's wakeups would have it clean the pages kswapd is to write */
	cfg.swap_mib = 0;
	cfg.dirty_ratio = 100;
	cfg.dirty_background_ratio = 99;
	cr_assert_eq(nlru_engine_create(&cfg, &eng), 0);
	memset(buf, 'd', sizeof(buf));
	cr_assert_eq(
		nlru_file_open(eng, test_path("dirty"), O_RDWR | O_CREAT | O_TRUNC, 0600, 0, &f),
		0);
	/*
	 * Dirty pages until no zone is balanced for the page cache's Movable classzone (4.8's
	 * kswapd stops as soon as any eligible zone is): free at most high + reserve in both.
	 */
	do {
		cr_assert_eq(nlru_file_pwrite(f, buf, sizeof(buf), page++ * 4096), 4096);
		nlru_zone_info(eng, 0, NLRU_ZONE_NORMAL, &normal);
		nlru_zone_info(eng, 0, NLRU_ZONE_DMA32, &dma32);
	} while (normal.free > normal.wmark_high + normal.lowmem_reserve[NLRU_ZONE_MOVABLE] ||
		 dma32.free > dma32.wmark_high + dma32.lowmem_reserve[NLRU_ZONE_MOVABLE]);
	cr_expect_eq(vmstat_value(eng, "nr_vmscan_write"), 0);
	cr_assert_eq(nlru_kswapd_run(eng, 0), 0);
	cr_expect_eq(vmstat_value(eng, "nr_vmscan_write"), 0, "first pass: referenced, kept");
	cr_expect(lruvec_flagged(eng, LRUVEC_DIRTY), "the node (4.8) or a zone (4.7) is dirty");
	cr_assert_eq(nlru_kswapd_run(eng, 0), 0);
	cr_expect_gt(vmstat_value(eng, "nr_vmscan_write"), 0, "kswapd wrote dirty file pages");
	cr_expect_gt(vmstat_value(eng, "pgsteal_kswapd"), 0, "and freed them");
	cr_expect_gt(vmstat_value(eng, "nr_vmscan_immediate_reclaim"), 0,
		     "before the node was flagged, dirty pages were passed over");
	cr_assert_eq(nlru_file_close(f), 0);
	int fd = open(test_path("dirty"), O_RDONLY);
	cr_expect_eq(lseek(fd, 0, SEEK_END), (off_t)page * 4096);
	close(fd);
	destroy_engine(eng);
}
