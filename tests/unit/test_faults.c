/*
 * What the engine does when its disk fails or fills, and when memory runs out: every refusal
 * is reported to the caller and explained in the log, without flooding it.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "filemap.h"
#include "helpers.h"
#include "page_writeback.h"
#include "swap.h"

TestSuite(faults, .fini = test_remove_dir, .timeout = 120);

/* An 8 MiB engine with no background threads: what happens, happens in the test's calls. */
static struct nlru_engine *quiet_engine(long swap_mib)
{
	struct nlru_engine *eng = NULL;
	struct nlru_config cfg;

	test_config(&cfg, 8, NULL);
	cfg.swap_mib = swap_mib;
	cfg.kswapd = 0;
	cfg.flusher = 0;
	cr_assert_eq(nlru_engine_create(&cfg, &eng), 0, "%s", test_log_last);
	return eng;
}

/*
 * A program that keeps pinning once memory is gone gets -ENOMEM every time, and the log
 * says why (the failed allocation's report), but only now and then: at most 10 reports in
 * 5 seconds, however many refusals.
 */
Test(faults, refused_pins_are_logged_once_in_a_while)
{
	struct nlru_engine *eng = quiet_engine(0);
	struct nlru_region *region;
	size_t pages = 4096, i, refused = 1;
	int before, per_report;
	void *p;

	cr_assert_eq(nlru_region_create(eng, pages, 0, &region), 0);
	for (i = 0; i < pages && nlru_region_pin(region, i, NLRU_PIN_WRITE, &p) == 0; i++)
		cr_assert_eq(nlru_region_unpin(region, i), 0);
	cr_assert_lt(i, pages, "8 MiB held 16 MiB of anonymous memory with no swap");
	cr_assert_lt(i + 200, pages);
	before = test_log_count;
	cr_assert_eq(nlru_region_pin(region, i, NLRU_PIN_WRITE, &p), -ENOMEM);
	per_report = test_log_count - before;
	cr_assert_geq(per_report, 1, "a refused pin was not explained");
	for (size_t k = i + 1; refused < 200; k++, refused++)
		cr_assert_eq(nlru_region_pin(region, k, NLRU_PIN_WRITE, &p), -ENOMEM);
	cr_expect_leq(test_log_count - before, 11 * per_report,
		      "%d lines for %zu refusals, %d lines a report", test_log_count - before,
		      refused, per_report);
	cr_assert_eq(nlru_region_destroy(region), 0);
	destroy_engine(eng);
}

/* Dirty every other page of the first @pages of @f: one write each when they go out. */
static void dirty_apart(struct nlru_file *f, int pages)
{
	char buf[4096];

	memset(buf, 'd', sizeof(buf));
	for (int i = 0; i < pages; i += 2)
		cr_assert_eq(nlru_file_pwrite(f, buf, sizeof(buf), (uint64_t)i * 4096), 4096);
}

/* A disk failing every write makes as many failures as writes; the log gets 10 of them. */
Test(faults, writeback_errors_are_logged_once_in_a_while)
{
	struct nlru_engine *eng = quiet_engine(0);
	struct nlru_file *f;
	int before;

	cr_assert_eq(nlru_file_open(eng, test_path("f"), O_RDWR | O_CREAT | O_TRUNC, 0600, 0, &f),
		     0);
	dirty_apart(f, 200);
	filemap_inject_write_errors(f, EIO, 1000);
	before = test_log_count;
	cr_expect_eq(nlru_file_fsync(f), -EIO);
	cr_expect_geq(test_log_count - before, 1);
	cr_expect_leq(test_log_count - before, 10, "%d messages for 100 failed writes",
		      test_log_count - before);
	filemap_inject_write_errors(f, 0, 0);
	cr_assert_eq(nlru_file_close(f), 0);
	destroy_engine(eng);
}

/*
 * A file on a full disk: its writer gets the disk's error once the file holds its share of
 * the dirty limit, the engine's dirty pages stay within the limit, and another file, anonymous
 * memory and page allocations go on working.  Room on the disk again, everything is written.
 */
Test(faults, a_file_on_a_full_disk_gets_its_error_and_others_go_on)
{
	struct nlru_engine *eng = quiet_engine(8);
	struct nlru_file *full, *ok;
	struct nlru_region *region;
	static char buf[64 * 4096], back[4096];
	unsigned long background, limit;
	long r = 0, accepted = 0;
	void *pages, *p;

	memset(buf, 'f', sizeof(buf));
	cr_assert_eq(
		nlru_file_open(eng, test_path("full"), O_RDWR | O_CREAT | O_TRUNC, 0600, 0, &full),
		0);
	cr_assert_eq(nlru_file_open(eng, test_path("ok"), O_RDWR | O_CREAT | O_TRUNC, 0600, 0, &ok),
		     0);
	cr_assert_eq(nlru_file_pwrite(ok, buf, 4096, 0), 4096);
	cr_assert_eq(nlru_file_fsync(ok), 0);
	filemap_inject_write_errors(full, ENOSPC, 1 << 30);
	/* 24 MiB into an 8 MiB engine whose disk takes nothing. */
	while (accepted < 24l << 20) {
		r = nlru_file_pwrite(full, buf, sizeof(buf), (uint64_t)accepted);
		if (r <= 0)
			break;
		accepted += r;
	}
	cr_expect_eq(r, -ENOSPC, "the writer of a file on a full disk got %ld after %ld bytes", r,
		     accepted);
	global_dirty_limits(eng, &background, &limit);
	cr_expect_leq(global_dirty_pages(eng, true), limit + 2 * 64,
		      "%lu pages dirty with a dirty limit of %lu", global_dirty_pages(eng, true),
		      limit);
	/* The other file, anonymous memory and allocations still work. */
	cr_expect_eq(nlru_file_pread(ok, back, 4096, 0), 4096);
	cr_expect_eq(back[0], 'f');
	cr_expect_eq(nlru_file_pwrite(ok, buf, sizeof(buf), 4096), (long)sizeof(buf));
	cr_assert_eq(nlru_region_create(eng, 256, 0, &region), 0);
	for (size_t i = 0; i < 256; i++) {
		cr_assert_eq(nlru_region_pin(region, i, NLRU_PIN_WRITE, &p), 0, "pin %zu", i);
		nlru_region_unpin(region, i);
	}
	cr_expect_eq(nlru_alloc_pages(eng, NLRU_GFP_KERNEL, 2, NLRU_NUMA_NO_NODE, &pages), 0);
	nlru_free_pages(eng, pages, 2);
	/* Room again: everything goes out, and the file closes. */
	filemap_inject_write_errors(full, 0, 0);
	cr_expect_eq(nlru_file_fsync(full), -ENOSPC, "the error was reported to fsync once");
	cr_expect_eq(nlru_file_fsync(full), 0);
	cr_assert_eq(nlru_region_destroy(region), 0);
	cr_assert_eq(nlru_file_close(full), 0);
	cr_assert_eq(nlru_file_close(ok), 0);
	destroy_engine(eng);
}

/* The largest offset lseek() takes on @fd: the file system's largest file (s_maxbytes). */
static uint64_t lseek_max(int fd)
{
	uint64_t lo = 0, hi = (uint64_t)INT64_MAX;

	while (hi - lo > 1) {
		uint64_t mid = lo + (hi - lo) / 2;

		if (lseek(fd, (off_t)mid, SEEK_SET) == (off_t)mid)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/*
 * A write at the file system's largest size is refused when it is made, -EFBIG (ext4: 2^44
 * - 4096, below the cache's 16 TiB), and one that would end past it is cut short, as
 * generic_write_checks() does: writeback never meets an EFBIG it could not get rid of.
 */
Test(faults, a_write_past_the_file_systems_limit_is_refused_at_once)
{
	struct nlru_engine *eng = quiet_engine(0);
	struct nlru_file *f;
	uint64_t max;
	int fd;

	fd = open(test_path("big"), O_RDWR | O_CREAT | O_TRUNC, 0600);
	cr_assert_geq(fd, 0);
	max = lseek_max(fd);
	close(fd);
	max = max < 1ull << 44 ? max : 1ull << 44;
	cr_assert_eq(nlru_file_open(eng, test_path("big"), O_RDWR, 0, 0, &f), 0);
	cr_expect_eq(nlru_file_pwrite(f, "x", 1, max), -EFBIG, "at %llu", (unsigned long long)max);
	cr_expect(strstr(test_log_last, "big"), "%s", test_log_last);
	cr_expect_eq(nlru_file_pwrite(f, "xy", 2, max - 1), 1, "cut short at the limit");
	cr_expect_eq(nlru_file_fsync(f), 0);
	cr_assert_eq(nlru_file_close(f), 0);
	cr_expect_eq(file_size(test_path("big")), max);
	destroy_engine(eng);
}

/*
 * A file whose writes fail for good cannot be closed, nor its engine destroyed, until its
 * dirty pages are given up with nlru_file_discard(): then fsync reports the loss once, and
 * close and destroy succeed.
 */
Test(faults, discarding_a_files_dirty_pages_lets_close_and_destroy_finish)
{
	struct nlru_engine *eng = quiet_engine(0);
	struct nlru_file *f, *left;

	cr_assert_eq(nlru_file_open(eng, test_path("f"), O_RDWR | O_CREAT | O_TRUNC, 0600, 0, &f),
		     0);
	cr_assert_eq(
		nlru_file_open(eng, test_path("left"), O_RDWR | O_CREAT | O_TRUNC, 0600, 0, &left),
		0);
	dirty_apart(f, 20);
	dirty_apart(left, 8);
	filemap_inject_write_errors(f, EIO, 1 << 30);
	filemap_inject_write_errors(left, ENOSPC, 1 << 30);
	cr_expect_eq(nlru_file_close(f), -EIO);
	cr_expect_eq(nlru_file_close(f), -EIO, "the error is permanent");
	cr_expect_eq(nlru_engine_destroy(eng), -EIO);
	cr_expect_eq(nlru_file_discard(f), 10);
	cr_expect(strstr(test_log_last, "10 dirty page"), "%s", test_log_last);
	cr_expect_eq(nlru_file_discard(f), 0, "nothing more to give up");
	cr_expect_eq(nlru_file_fsync(f), -EIO, "the loss is reported");
	cr_expect_eq(nlru_file_fsync(f), 0, "once");
	cr_assert_eq(nlru_file_close(f), 0);
	cr_expect_eq(nlru_file_discard(left), 4);
	destroy_engine(eng); /* closes "left" */
}

/*
 * A slot whose write failed is given back; the next swap-out must not take the same slot
 * again (it would fail again, for ever, on a full or bad spot), but go on past it, as
 * scan_swap_map() moves cluster_next.
 */
Test(faults, swap_moves_on_past_a_slot_given_back)
{
	struct nlru_engine *eng = quiet_engine(1);
	uint32_t a, b, c;

	cr_assert_eq(swap_slot_alloc(eng->swap, &a), 0);
	swap_slot_free(eng->swap, a);
	cr_assert_eq(swap_slot_alloc(eng->swap, &b), 0);
	cr_expect_neq(b, a, "slot %u handed out again at once", a);
	/* Round the whole device: the freed slot comes back in its turn. */
	for (long i = 0; i < total_swap_pages(eng) - 2; i++)
		cr_assert_eq(swap_slot_alloc(eng->swap, &c), 0, "slot %ld", i);
	cr_assert_eq(swap_slot_alloc(eng->swap, &c), 0);
	cr_expect_eq(c, a);
	cr_expect_eq(swap_slot_alloc(eng->swap, &c), -ENOSPC);
	for (uint32_t s = 0; s < (uint32_t)total_swap_pages(eng); s++)
		swap_slot_free(eng->swap, s);
	destroy_engine(eng);
}

/*
 * A slot whose write met EIO (a bad block) is retired: it is never handed out again and no
 * longer counts in total_swap_pages, while one that met ENOSPC comes back in its turn.
 */
Test(faults, a_slot_whose_write_met_eio_is_never_used_again)
{
	struct nlru_engine *eng = quiet_engine(1);
	long total = total_swap_pages(eng);
	uint32_t bad, full, s;
	long taken = 0;
	bool saw_full = false;

	cr_assert_eq(swap_slot_alloc(eng->swap, &bad), 0);
	cr_assert_eq(swap_slot_alloc(eng->swap, &full), 0);
	swap_write_failed(eng, bad, -EIO);
	swap_write_failed(eng, full, -ENOSPC);
	cr_expect_eq(vmstat_value(eng, "nlru_swap_bad_slot"), 1);
	cr_expect_eq(total_swap_pages(eng), total - 1);
	cr_expect_eq(get_nr_swap_pages(eng), total - 1);
	swap_set_cursor(eng->swap, 0);
	while (swap_slot_alloc(eng->swap, &s) == 0) {
		cr_assert_neq(s, bad, "the bad slot %u was handed out again", bad);
		saw_full |= s == full;
		taken++;
	}
	cr_expect(saw_full, "the slot that met ENOSPC never came back");
	cr_expect_eq(taken, total - 1);
	for (s = 0; s < (uint32_t)total; s++)
		if (s != bad)
			swap_slot_free(eng->swap, s);
	cr_expect_eq(get_nr_swap_pages(eng), total - 1);
	destroy_engine(eng);
}

/* Every byte of pages 0 .. @pages - 1 of @region is @seed + the page's index. */
static long region_mismatches(struct nlru_region *region, size_t pages, int seed)
{
	long bad = 0;

	for (size_t i = 0; i < pages; i++) {
		unsigned char *p;

		cr_assert_eq(nlru_region_pin(region, i, 0, (void **)&p), 0, "page %zu: %s", i,
			     test_log_last);
		for (size_t b = 0; b < 4096; b++)
			bad += p[b] != (unsigned char)(seed + i);
		cr_assert_eq(nlru_region_unpin(region, i), 0);
	}
	return bad;
}

/* Fill page @i of @region with @seed + @i; the pin's error. */
static int fill_page(struct nlru_region *region, size_t i, int seed)
{
	void *p;
	int err = nlru_region_pin(region, i, NLRU_PIN_WRITE, &p);

	if (err)
		return err;
	memset(p, seed + (int)i, 4096);
	return nlru_region_unpin(region, i);
}

/*
 * A disk that fails every swap write: after a run of failures swap counts as full, so a
 * refused pin costs a few dozen failed writes, not thousands, and the refusals that follow
 * cost none.  Swap is tried again once its back-off ends; with the disk working again,
 * everything goes out and comes back intact.
 */
Test(faults, failing_swap_counts_as_full_until_its_back_off_ends)
{
	struct nlru_engine *eng = NULL;
	struct nlru_region *region;
	struct nlru_config cfg;
	size_t pages = 4096, i;
	int64_t failed;
	int err = 0;

	test_config(&cfg, 8, NULL);
	cfg.swap_mib = 16;
	cfg.kswapd = 0;
	cfg.flusher = 0;
	cfg.clock = test_fake_clock;
	cr_assert_eq(nlru_engine_create(&cfg, &eng), 0, "%s", test_log_last);
	cr_assert_eq(nlru_region_create(eng, pages, 0, &region), 0);
	swap_inject_write_errors(eng->swap, EIO, 1 << 30);
	for (i = 0; i < pages && !(err = fill_page(region, i, 7)); i++)
		;
	cr_assert_eq(err, -ENOMEM, "8 MiB held %zu pages with no working swap", i);
	failed = vmstat_value(eng, "nlru_swap_write_fail");
	cr_expect_leq(failed, 2 * SWAP_CLUSTER_MAX, "%lld failed writes for one refusal",
		      (long long)failed);
	cr_expect(swap_is_backing_off(eng));
	cr_expect_eq(get_nr_swap_pages(eng), 0, "swap counts as full");
	for (size_t k = i; k < i + 50; k++)
		cr_assert_eq(fill_page(region, k, 7), -ENOMEM);
	cr_expect_eq(vmstat_value(eng, "nlru_swap_write_fail"), failed,
		     "refusals while swap backs off write nothing");
	cr_expect_eq(vmstat_value(eng, "nlru_swap_bad_slot"), failed, "EIO retires each slot");

	swap_inject_write_errors(eng->swap, 0, 0);
	atomic_fetch_add(&test_fake_now, 1000000000ull);
	cr_expect(!swap_is_backing_off(eng), "the back-off of 100 ms ended after 1 s");
	for (; i < pages; i++)
		cr_assert_eq(fill_page(region, i, 7), 0, "page %zu: %s", i, test_log_last);
	cr_expect_eq(region_mismatches(region, pages, 7), 0, "data lost");
	cr_expect_gt(vmstat_value(eng, "pswpout"), 0);
	cr_expect_eq(total_swap_pages(eng), 4096 - failed);
	check_lru_invariants(eng, true);
	cr_assert_eq(nlru_region_destroy(region), 0);
	destroy_engine(eng);
}

/* The swap file has every block allocated when the engine is created: no holes. */
Test(faults, the_swap_file_is_reserved_at_creation)
{
	struct nlru_engine *eng = NULL;
	struct nlru_config cfg;
	struct stat st;

	test_config(&cfg, 8, NULL);
	cfg.swap_mib = 4;
	cfg.swap_path = test_path("swapfile");
	cfg.kswapd = 0;
	cfg.flusher = 0;
	cr_assert_eq(nlru_engine_create(&cfg, &eng), 0, "%s", test_log_last);
	cr_assert_eq(stat(cfg.swap_path, &st), 0);
	cr_expect_eq(st.st_size, 4 << 20);
	cr_expect_geq((long long)st.st_blocks * 512, 4 << 20, "a sparse swap file: %lld bytes",
		      (long long)st.st_blocks * 512);
	destroy_engine(eng);
}

/*
 * A disk without room for the swap file refuses the engine at once, -ENOSPC with a message
 * that says what to change, as swapon refuses a file with holes.  A 1 MiB tmpfs is the small
 * disk (mounting needs root: skipped without it).
 */
Test(faults, an_engine_whose_swap_file_does_not_fit_is_refused)
{
	struct nlru_engine *eng = NULL;
	struct nlru_config cfg;
	const char *dir = test_path("small");
	char path[4200];
	int err;

	cr_assert_eq(mkdir(dir, 0700), 0);
	if (mount("nodelru-test", dir, "tmpfs", 0, "size=1m") != 0) {
		rmdir(dir);
		cr_skip_test("cannot mount a tmpfs (%s): needs root", strerror(errno));
	}
	snprintf(path, sizeof(path), "%s/swapfile", dir);
	test_config(&cfg, 8, NULL);
	cfg.swap_mib = 4;
	cfg.swap_path = path;
	cfg.kswapd = 0;
	cfg.flusher = 0;
	err = nlru_engine_create(&cfg, &eng);
	cr_expect_eq(err, -ENOSPC);
	cr_expect(strstr(test_log_last, "cannot reserve 4 MiB for the swap file"), "%s",
		  test_log_last);
	cr_expect(strstr(test_log_last, "swap_mib"), "the message names the tunable");
	if (!err)
		destroy_engine(eng);
	cr_expect_eq(umount2(dir, MNT_DETACH), 0);
	rmdir(dir);
}

/* fsync reports the error that happened, whether its own writes or the flusher's met it. */
Test(faults, fsync_reports_the_error_its_own_writes_met)
{
	struct nlru_engine *eng = quiet_engine(0);
	struct nlru_file *f;

	cr_assert_eq(nlru_file_open(eng, test_path("f"), O_RDWR | O_CREAT | O_TRUNC, 0600, 0, &f),
		     0);
	dirty_apart(f, 4);
	filemap_inject_write_errors(f, ENOSPC, 1 << 30);
	cr_expect_eq(nlru_file_fsync(f), -ENOSPC);
	filemap_inject_write_errors(f, EFBIG, 1 << 30);
	cr_expect_eq(nlru_file_flush(f), -EFBIG);
	filemap_inject_write_errors(f, 0, 0);
	cr_expect_eq(nlru_file_fsync(f), -EFBIG, "the flush's error, reported once");
	cr_expect_eq(nlru_file_fsync(f), 0);
	cr_assert_eq(nlru_file_close(f), 0);
	destroy_engine(eng);
}
