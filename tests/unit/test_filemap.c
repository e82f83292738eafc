/*
 * The page cache's files as a whole (src/filemap.c): open refusing what it cannot honour and
 * a second open of a file, pins and their bad input, destroy closing files left open.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "filemap.h"
#include "helpers.h"

TestSuite(filemap, .fini = test_remove_dir, .timeout = 120);

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
