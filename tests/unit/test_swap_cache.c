/*
 * Anonymous pages through the swap cache and the block device model: a page keeps its swap
 * slot while its copy there is current, swap writes end asynchronously, and nothing is lost
 * or freed while a write is in flight.
 */
#include <criterion/criterion.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>

#include "anon.h"
#include "blkdev.h"
#include "gfp.h"
#include "helpers.h"
#include "swap.h"
#include "vmscan.h"
#include "zonelist.h"

TestSuite(swap_cache, .timeout = 120);

#define HOG_PAGES 2560 /* more than the engine's 2048 */

/* Page 0 of @region out to swap, by writing pages of @hog after it until it goes. */
/*
 * Pin hog pages until page 0 of @region is in swap.  The fake clock moves on a second each
 * time, so that swap counting as full after a run of failed writes (swap.c) ends at once.
 */
static void swap_out_page0(struct nlru_region *region, struct nlru_region *hog)
{
	for (size_t i = 0; i < HOG_PAGES && region_swap_slot(region, 0) < 0; i++) {
		char *p;

		atomic_fetch_add(&test_fake_now, 1000000000);

		cr_assert_eq(nlru_region_pin(hog, i, NLRU_PIN_WRITE, (void **)&p), 0,
			     "hog page %zu: %s", i, test_log_last);
		p[0] = 1;
		cr_assert_eq(nlru_region_unpin(hog, i), 0);
	}
	cr_assert_geq(region_swap_slot(region, 0), 0, "page 0 went to swap");
}

static void discard_all(struct nlru_region *region, size_t pages)
{
	for (size_t i = 0; i < pages; i++)
		cr_assert_eq(nlru_region_discard(region, i), 0);
}

static void write_string(struct nlru_region *region, const char *text)
{
	char *p;

	cr_assert_eq(nlru_region_pin(region, 0, NLRU_PIN_WRITE, (void **)&p), 0);
	strcpy(p, text);
	cr_assert_eq(nlru_region_unpin(region, 0), 0);
}

static void expect_string(struct nlru_region *region, const char *text)
{
	char *p;

	cr_assert_eq(nlru_region_pin(region, 0, 0, (void **)&p), 0);
	cr_expect_str_eq(p, text);
	cr_assert_eq(nlru_region_unpin(region, 0), 0);
}

/*
 * A page read back from swap keeps its slot (it counts in nr_file_pages, as the swap cache
 * does in 4.8), and goes back to swap without being written: with every write failing, it
 * still leaves, to the same slot, with its data.
 */
Test(swap_cache, a_page_read_back_returns_to_swap_without_a_write)
{
	struct nlru_engine *eng = NULL;
	struct nlru_config cfg;
	struct nlru_region *region, *hog;
	long slot;

	test_config(&cfg, 8, NULL);
	cfg.swap_mib = 16;
	cfg.kswapd = 0;
	cfg.clock = test_fake_clock;
	cr_assert_eq(nlru_engine_create(&cfg, &eng), 0, "%s", test_log_last);
	cr_assert_eq(nlru_region_create(eng, 1, 0, &region), 0);
	cr_assert_eq(nlru_region_create(eng, HOG_PAGES, 0, &hog), 0);
	write_string(region, "kept");
	swap_out_page0(region, hog);
	slot = region_swap_slot(region, 0);
	discard_all(hog, HOG_PAGES);
	cr_expect_eq(vmstat_value(eng, "nr_file_pages"), 0);

	expect_string(region, "kept");
	cr_expect_eq(region_swap_slot(region, 0), -1, "resident again");
	cr_expect_eq(vmstat_value(eng, "nr_file_pages"), 1, "in the swap cache");
	cr_expect_eq(get_nr_swap_pages(eng), total_swap_pages(eng) - 1, "its slot is kept");

	swap_inject_write_errors(eng->swap, EIO, 1 << 30);
	swap_out_page0(region, hog);
	swap_inject_write_errors(eng->swap, 0, 0);
	/* The disk works again: once swap's back-off ends, the hog can go out. */
	atomic_fetch_add(&test_fake_now, 10000000000ull);
	cr_expect_eq(region_swap_slot(region, 0), slot, "back in the slot it kept");
	expect_string(region, "kept");
	cr_assert_eq(nlru_region_destroy(hog), 0);
	cr_assert_eq(nlru_region_destroy(region), 0);
	cr_expect_eq(get_nr_swap_pages(eng), total_swap_pages(eng));
	destroy_engine(eng);
}

/* A write pin makes the copy in swap stale: the slot is given up (reuse_swap_page()). */
Test(swap_cache, a_write_pin_gives_the_slot_up)
{
	struct nlru_engine *eng = test_swap_engine(8, 16, false);
	struct nlru_region *region, *hog;
	long free_slots;
	char *p;

	cr_assert_eq(nlru_region_create(eng, 1, 0, &region), 0);
	cr_assert_eq(nlru_region_create(eng, HOG_PAGES, 0, &hog), 0);
	write_string(region, "one");
	swap_out_page0(region, hog);
	discard_all(hog, HOG_PAGES);
	expect_string(region, "one");
	free_slots = get_nr_swap_pages(eng);
	cr_assert_eq(nlru_region_pin(region, 0, NLRU_PIN_WRITE, (void **)&p), 0);
	cr_expect_eq(get_nr_swap_pages(eng), free_slots + 1);
	cr_expect_eq(vmstat_value(eng, "nr_file_pages"), 0, "left the swap cache");
	strcpy(p, "two");
	cr_assert_eq(nlru_region_unpin(region, 0), 0);
	swap_out_page0(region, hog);
	expect_string(region, "two");
	cr_assert_eq(nlru_region_destroy(hog), 0);
	cr_assert_eq(nlru_region_destroy(region), 0);
	destroy_engine(eng);
}

/* vm_swap_full(): with more than half of swap in use, a swap-in gives its slot up at once. */
Test(swap_cache, a_swap_in_keeps_no_slot_when_swap_is_tight)
{
	struct nlru_engine *eng = test_swap_engine(8, 2, false); /* 512 slots */
	struct nlru_region *region, *hog;
	size_t hog_pages = 2048 + 300;
	char *p;

	cr_assert_eq(nlru_region_create(eng, 1, 0, &region), 0);
	cr_assert_eq(nlru_region_create(eng, hog_pages, 0, &hog), 0);
	write_string(region, "tight");
	for (size_t i = 0; i < hog_pages; i++) {
		cr_assert_eq(nlru_region_pin(hog, i, NLRU_PIN_WRITE, (void **)&p), 0,
			     "hog page %zu: %s", i, test_log_last);
		cr_assert_eq(nlru_region_unpin(hog, i), 0);
	}
	cr_assert_geq(region_swap_slot(region, 0), 0);
	cr_assert_lt(get_nr_swap_pages(eng) * 2, total_swap_pages(eng), "swap is not tight");
	expect_string(region, "tight");
	cr_expect_eq(vmstat_value(eng, "nr_file_pages"), 0, "kept its slot with swap tight");
	cr_assert_eq(nlru_region_destroy(hog), 0);
	cr_assert_eq(nlru_region_destroy(region), 0);
	destroy_engine(eng);
}

#define WORDS (4096 / sizeof(uint64_t))

static uint64_t pattern(size_t page, size_t word)
{
	return (page * 0x9e3779b97f4a7c15ull) ^ (word * 0xff51afd7ed558ccdull) ^ 0x5a5a;
}

/*
 * With the block device model on, swap writes end after the submitter has moved on: the
 * pages wait under writeback, are rotated to the inactive tail when their write ends
 * (pgrotated), and are freed by a later pass.  Three times the engine's memory goes through
 * swap and comes back intact.
 */
Test(swap_cache, swap_through_the_device_model_loses_nothing)
{
	struct nlru_engine *eng = NULL;
	struct nlru_config cfg;
	struct nlru_region *region;
	size_t pages = 3 * 2048;
	long bad = 0;
	uint64_t *p;

	test_config(&cfg, 8, NULL);
	cfg.swap_mib = 48;
	cfg.blkdev_mbs = 2000;
	cfg.blkdev_latency_us = 50;
	cr_assert_eq(nlru_engine_create(&cfg, &eng), 0, "%s", test_log_last);
	cr_assert_eq(nlru_region_create(eng, pages, 0, &region), 0);
	for (size_t i = 0; i < pages; i++) {
		cr_assert_eq(nlru_region_pin(region, i, NLRU_PIN_WRITE, (void **)&p), 0,
			     "page %zu: %s", i, test_log_last);
		for (size_t w = 0; w < WORDS; w++)
			p[w] = pattern(i, w);
		cr_assert_eq(nlru_region_unpin(region, i), 0);
	}
	for (size_t i = 0; i < pages; i++) {
		cr_assert_eq(nlru_region_pin(region, i, 0, (void **)&p), 0, "page %zu: %s", i,
			     test_log_last);
		for (size_t w = 0; w < WORDS; w++)
			bad += p[w] != pattern(i, w);
		cr_assert_eq(nlru_region_unpin(region, i), 0);
	}
	cr_expect_eq(bad, 0, "mismatched words");
	cr_expect_geq(vmstat_value(eng, "pswpout"), (int64_t)pages - 2048);
	cr_expect_gt(vmstat_value(eng, "pgrotated"), 0, "no write ended after its submitter");
	cr_expect_eq(vmstat_value(eng, "nlru_swap_write_fail"), 0);
	cr_assert_eq(nlru_region_destroy(region), 0);
	cr_expect_eq(vmstat_value(eng, "nr_writeback"), 0);
	cr_expect_eq(get_nr_swap_pages(eng), total_swap_pages(eng));
	destroy_engine(eng);
}

static _Atomic uint64_t fake_now = 1;
static atomic_bool clock_moved;

static uint64_t fake_clock(void *arg)
{
	(void)arg;
	return atomic_load(&fake_now);
}

static void *move_clock_later(void *arg)
{
	struct timespec ms50 = {0, 50000000};

	(void)arg;
	nanosleep(&ms50, NULL);
	atomic_store(&clock_moved, true);
	atomic_store(&fake_now, UINT64_MAX / 2);
	return NULL;
}

/*
 * nlru_region_destroy() with swap writes of the region's pages in flight waits for them to
 * end, so that no completion touches a freed region or page (the sanitizer build would see
 * it).  The engine's clock stands still until a thread moves it, so the writes are certainly
 * in flight when destroy is called.
 */
Test(swap_cache, region_destroy_waits_for_its_swap_writes)
{
	struct nlru_engine *eng = NULL;
	struct nlru_config cfg;
	struct nlru_region *region;
	pthread_t mover;
	void *p;

	test_config(&cfg, 8, NULL);
	cfg.swap_mib = 16;
	cfg.kswapd = 0;
	cfg.blkdev_mbs = 100;
	cfg.clock = fake_clock;
	cr_assert_eq(nlru_engine_create(&cfg, &eng), 0, "%s", test_log_last);
	cr_assert_eq(nlru_region_create(eng, 512, 0, &region), 0);
	for (size_t i = 0; i < 512; i++) {
		cr_assert_eq(nlru_region_pin(region, i, NLRU_PIN_WRITE, &p), 0);
		cr_assert_eq(nlru_region_unpin(region, i), 0);
	}
	try_to_free_pages(eng, node_zonelist(NODE_DATA(eng, 0), NLRU_GFP_KERNEL), 0,
			  NLRU_GFP_KERNEL, gfp_zone(NLRU_GFP_KERNEL));
	cr_assert_gt(vmstat_value(eng, "nr_writeback"), 0, "no swap write in flight");
	cr_assert_eq(vmstat_value(eng, "pswpout"), 0, "a write ended with the clock stopped");
	cr_assert_eq(pthread_create(&mover, NULL, move_clock_later, NULL), 0);
	cr_assert_eq(nlru_region_destroy(region), 0);
	cr_expect(atomic_load(&clock_moved), "destroy returned before the writes ended");
	cr_expect_eq(vmstat_value(eng, "nr_writeback"), 0);
	pthread_join(mover, NULL);
	destroy_engine(eng);
}
