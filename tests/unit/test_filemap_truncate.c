/*
 * Pages and shadow entries leaving a file's index (src/filemap_truncate.c and reclaim's side
 * in src/filemap.c): invalidation of clean pages only, refaults found through the shadows
 * evicted pages leave, and those shadows kept bounded and dropped at close.
 */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <stdatomic.h>

#include "filemap.h"
#include "helpers.h"

TestSuite(filemap, .fini = test_remove_dir, .timeout = 120);

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
