/*
 * The direct block device (blkdev_direct=1): files and swap go to the disk with O_DIRECT
 * through the device's queue, and come back intact; a file's partial last page never makes
 * the file longer; memory file systems are refused.  The files are a few MiB: the disk is
 * slow.  The tests need /tmp on a disk file system and are skipped otherwise (the refusal of
 * tmpfs is tested on /dev/shm).
 */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "blkdev.h"
#include "helpers.h"

TestSuite(direct, .fini = test_remove_dir, .timeout = 120);

static bool on_memory_fs(const char *path)
{
	struct statfs fs;

	return statfs(path, &fs) == 0 && (fs.f_type == TMPFS_MAGIC || fs.f_type == RAMFS_MAGIC);
}

static void need_disk_dir(void)
{
	if (on_memory_fs(test_dir()))
		cr_skip_test("%s is on a memory file system: no disk to test O_DIRECT on",
			     test_dir());
}

/* An engine of @node_mib MiB whose I/O is direct; swap in the test's folder if @swap_mib. */
static struct nlru_engine *direct_engine(long node_mib, long swap_mib)
{
	struct nlru_engine *eng = NULL;
	struct nlru_config cfg;

	test_config(&cfg, node_mib, NULL);
	cfg.swap_mib = swap_mib;
	cfg.swap_path = swap_mib ? test_path("swap") : NULL;
	cfg.blkdev_direct = 1;
	cr_assert_eq(nlru_engine_create(&cfg, &eng), 0, "%s", test_log_last);
	return eng;
}

/* Pages of @path the host's page cache holds: O_DIRECT leaves none behind. */
static long host_cached_pages(const char *path)
{
	int fd = open(path, O_RDONLY);
	struct stat st;
	unsigned char *vec;
	long pages, cached = 0;
	void *map;

	cr_assert_geq(fd, 0);
	cr_assert_eq(fstat(fd, &st), 0);
	pages = (st.st_size + 4095) / 4096;
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, fd, 0);
	cr_assert_neq(map, MAP_FAILED);
	vec = calloc((size_t)pages, 1);
	cr_assert_eq(mincore(map, (size_t)st.st_size, vec), 0);
	for (long i = 0; i < pages; i++)
		cached += vec[i] & 1;
	free(vec);
	munmap(map, (size_t)st.st_size);
	close(fd);
	return cached;
}

static void expect_content(const char *path, uint64_t bytes, unsigned int seed)
{
	unsigned char *buf = malloc(bytes + 1);
	int fd = open(path, O_RDONLY);

	cr_assert_geq(fd, 0);
	cr_expect_eq(pread(fd, buf, bytes + 1, 0), (ssize_t)bytes, "%s is not %lu bytes long", path,
		     (unsigned long)bytes);
	for (uint64_t i = 0; i < bytes; i++)
		cr_assert_eq(buf[i], byte_at(i, seed), "byte %lu of %s", (unsigned long)i, path);
	close(fd);
	free(buf);
}

/*
 * A file larger than the engine, written through the cache (writeback by the flusher and by
 * writers over the dirty limit), then read back through it after a close: every byte
 * intact, the size exact although the last page is partial, and nothing left in the host's
 * page cache but that last page, which goes through the buffered descriptor.
 */
Test(direct, a_file_goes_to_the_disk_and_back)
{
	const uint64_t bytes = (12u << 20) + 1000;
	unsigned char *buf = malloc(bytes);
	struct nlru_engine *eng;
	struct nlru_file *f;

	need_disk_dir();
	eng = direct_engine(8, 0);
	for (uint64_t i = 0; i < bytes; i++)
		buf[i] = byte_at(i, 7);
	cr_assert_eq(nlru_file_open(eng, test_path("f"), O_WRONLY | O_CREAT | O_TRUNC, 0600, 0, &f),
		     0, "%s", test_log_last);
	for (uint64_t at = 0; at < bytes; at += 1 << 20) {
		size_t n = (size_t)MIN(bytes - at, 1u << 20);

		cr_assert_eq(nlru_file_pwrite(f, buf + at, n, at), (long)n);
	}
	cr_assert_eq(nlru_file_fsync(f), 0);
	cr_assert_eq(nlru_file_close(f), 0);
	cr_expect_eq(file_size(test_path("f")), bytes);
	cr_expect_leq(host_cached_pages(test_path("f")), 1, "written through the host's cache");
	expect_content(test_path("f"), bytes, 7);
	memset(buf, 0, bytes);
	cr_assert_eq(nlru_file_open(eng, test_path("f"), O_RDONLY, 0, 0, &f), 0);
	cr_assert_eq(nlru_file_pread(f, buf, bytes, 0), (long)bytes);
	for (uint64_t i = 0; i < bytes; i++)
		cr_assert_eq(buf[i], byte_at(i, 7), "byte %lu read back", (unsigned long)i);
	cr_assert_eq(nlru_file_close(f), 0);
	cr_expect_gt(vmstat_value(eng, "pgpgout"), 12 * 1024 - 1);
	free(buf);
	destroy_engine(eng);
}

/*
 * A partial last page written, then grown within the page and past it: after each fsync the
 * file on disk is exactly as long as what was written, never the page's 4096 bytes.
 */
Test(direct, a_partial_last_page_does_not_extend_the_file)
{
	static const uint64_t sizes[] = {10000, 12000, 16384 + 5};
	static unsigned char buf[16384 + 5];
	struct nlru_engine *eng;
	struct nlru_file *f;
	uint64_t done = 0;

	need_disk_dir();
	eng = direct_engine(8, 0);
	for (size_t i = 0; i < sizeof(buf); i++)
		buf[i] = byte_at(i, 3);
	cr_assert_eq(nlru_file_open(eng, test_path("p"), O_RDWR | O_CREAT | O_TRUNC, 0600, 0, &f),
		     0);
	for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		cr_assert_eq(nlru_file_pwrite(f, buf + done, sizes[k] - done, done),
			     (long)(sizes[k] - done));
		done = sizes[k];
		cr_assert_eq(nlru_file_fsync(f), 0);
		cr_expect_eq(file_size(test_path("p")), sizes[k], "after writing %lu bytes",
			     (unsigned long)sizes[k]);
		expect_content(test_path("p"), sizes[k], 3);
	}
	cr_assert_eq(nlru_file_close(f), 0);
	destroy_engine(eng);
}

/* Anonymous memory twice the engine goes to a direct swap file and comes back intact. */
Test(direct, swap_goes_to_the_disk_and_back)
{
	const size_t pages = 2 * 8 * 256;
	struct nlru_engine *eng;
	struct nlru_region *r;
	uint32_t *p;

	need_disk_dir();
	eng = direct_engine(8, 32);
	cr_assert_eq(nlru_region_create(eng, pages, 0, &r), 0);
	for (size_t i = 0; i < pages; i++) {
		cr_assert_eq(nlru_region_pin(r, i, NLRU_PIN_WRITE, (void **)&p), 0, "%s",
			     test_log_last);
		for (size_t w = 0; w < 1024; w++)
			p[w] = (uint32_t)(i * 1024 + w) ^ 0x5a5a5a5au;
		cr_assert_eq(nlru_region_unpin(r, i), 0);
	}
	for (size_t i = 0; i < pages; i++) {
		cr_assert_eq(nlru_region_pin(r, i, 0, (void **)&p), 0, "%s", test_log_last);
		for (size_t w = 0; w < 1024; w++)
			cr_assert_eq(p[w], (uint32_t)(i * 1024 + w) ^ 0x5a5a5a5au,
				     "page %zu word %zu", i, w);
		cr_assert_eq(nlru_region_unpin(r, i), 0);
	}
	cr_expect_gt(vmstat_value(eng, "pswpout"), 0);
	cr_expect_gt(vmstat_value(eng, "pswpin"), 0);
	cr_expect_eq(vmstat_value(eng, "nlru_swap_write_fail"), 0);
	cr_assert_eq(nlru_region_destroy(r), 0);
	destroy_engine(eng);
}

/*
 * tmpfs (/dev/shm) is refused before anything is created there, for swap at engine creation
 * and for a file at its open: its O_DIRECT, where the kernel takes it, is a copy in memory.
 */
Test(direct, memory_file_systems_are_refused)
{
	char swap[128], file[128];
	struct nlru_engine *eng = NULL;
	struct nlru_config cfg;
	struct nlru_file *f;

	if (!on_memory_fs("/dev/shm"))
		cr_skip_test("/dev/shm is not tmpfs here");
	snprintf(swap, sizeof(swap), "/dev/shm/nlru-direct-swap-%d", (int)getpid());
	snprintf(file, sizeof(file), "/dev/shm/nlru-direct-file-%d", (int)getpid());
	test_config(&cfg, 8, NULL);
	cfg.swap_mib = 8;
	cfg.swap_path = swap;
	cfg.blkdev_direct = 1;
	cr_expect_eq(nlru_engine_create(&cfg, &eng), -EINVAL);
	cr_expect(strstr(test_log_last, "on tmpfs"), "%s", test_log_last);
	cr_expect_neq(access(swap, F_OK), 0, "the swap file was created");
	cfg.swap_mib = 0;
	cr_assert_eq(nlru_engine_create(&cfg, &eng), 0, "%s", test_log_last);
	cr_expect_eq(nlru_file_open(eng, file, O_RDWR | O_CREAT, 0600, 0, &f), -EINVAL);
	cr_expect(strstr(test_log_last, "blkdev_direct needs a file on a disk"), "%s",
		  test_log_last);
	cr_expect_neq(access(file, F_OK), 0, "the file was created");
	destroy_engine(eng);
}
