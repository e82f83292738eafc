/*
 * Dirty page cache pages and their writeback (src/filemap_writeback.c): the dirty limit
 * within one large write, the 4.8 rule that only kswapd writes file pages from reclaim,
 * failed and injected write errors, and kswapd writing once the node is dirty.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "filemap.h"
#include "helpers.h"

TestSuite(filemap, .fini = test_remove_dir, .timeout = 120);

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
	cr_expect_eq(nlru_file_flush(f), -ENOSPC, "a flush fails too, with its error");
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

/* Some lruvec of node 0 has @flag set. */
/*
 * With no dirty limit in the way, memory fills with dirty pages that direct reclaim may not
 * write.  kswapd's first batches pass them over (nr_vmscan_immediate_reclaim) and flag the
 * node dirty, since every page they took was dirty and not yet queued; its later batches
 * write them.  Written pages were never marked accessed (a write is no reference), so no
 * second trip round the list is needed.
 */
Test(filemap, kswapd_writes_dirty_pages_once_the_node_is_dirty)
{
	struct nlru_engine *eng;
	struct nlru_config cfg;
	struct nlru_file *f;
	struct nlru_zone_info normal = {.size = sizeof(normal), .version = NLRU_ZONE_INFO_VERSION};
	struct nlru_zone_info dma32 = {.size = sizeof(dma32), .version = NLRU_ZONE_INFO_VERSION};
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
