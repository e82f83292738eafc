/*
 * Writes and copies through the page cache (src/filemap_write.c): files copied through an
 * engine half their size by pwrite and by copy_range, copy_range's bad input, writers of the
 * same pages racing, and whole-page writes of evicted pages counting no refault.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

#include "filemap.h"
#include "helpers.h"

TestSuite(filemap, .fini = test_remove_dir, .timeout = 120);

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
