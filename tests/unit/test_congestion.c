/*
 * Reclaim against a congested block device, as 4.8 (and 4.7, per zone) throttles it:
 * shrink_inactive_list() flags an lruvec congested when every dirty page it met waits on
 * congested writes, and direct reclaim then sleeps in wait_iff_congested(); reclaim also
 * sleeps in throttle_vm_writeout() while too many pages are under writeback.  The engine's
 * clock stands still, so no write ends before the test lets it.
 */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>

#include "blkdev.h"
#include "filemap.h"
#include "filemap_internal.h"
#include "gfp.h"
#include "helpers.h"
#include "page_writeback.h"
#include "reclaim_mode.h"
#include "vmscan.h"
#include "zonelist.h"

TestSuite(congestion, .fini = test_remove_dir, .timeout = 120);

static _Atomic uint64_t fake_now = 1;
static atomic_bool frozen;

static uint64_t ticking_clock(void *arg)
{
	(void)arg;
	if (atomic_load(&frozen))
		return atomic_load(&fake_now);
	return atomic_fetch_add(&fake_now, 1000000) + 1000000;
}

/*
 * An 8 MiB engine (no kswapd, no flusher) on a device of @nr_requests, its clock frozen; with
 * @dirty_ratio 100 writers never start writeback themselves.
 */
static struct nlru_engine *frozen_device_engine(long nr_requests, long dirty_ratio)
{
	struct nlru_engine *eng = NULL;
	struct nlru_config cfg;

	atomic_store(&frozen, true);
	test_config(&cfg, 8, NULL);
	cfg.swap_mib = 0;
	cfg.kswapd = 0;
	cfg.flusher = 0;
	cfg.blkdev_mbs = 100;
	cfg.blkdev_nr_requests = nr_requests;
	cfg.clock = ticking_clock;
	cfg.dirty_ratio = dirty_ratio;
	cfg.dirty_background_ratio = dirty_ratio;
	cr_assert_eq(nlru_engine_create(&cfg, &eng), 0, "%s", test_log_last);
	return eng;
}

/* A file of @pages dirty pages, on the inactive file list. */
static struct nlru_file *dirty_file(struct nlru_engine *eng, const char *name, int pages)
{
	struct nlru_file *f;
	char buf[4096];

	memset(buf, 'd', sizeof(buf));
	cr_assert_eq(nlru_file_open(eng, test_path(name), O_RDWR | O_CREAT | O_TRUNC, 0600, 0, &f),
		     0);
	for (int i = 0; i < pages; i++)
		cr_assert_eq(nlru_file_pwrite(f, buf, sizeof(buf), (uint64_t)i * 4096), 4096);
	return f;
}

static bool some_lruvec_flagged(struct nlru_engine *eng, int flag)
{
	struct lruvec *lruvecs[NLRU_MAX_NR_ZONES];
	int n = node_lruvecs(eng, 0, lruvecs);

	for (int i = 0; i < n; i++)
		if (atomic_load(&lruvecs[i]->flags) & (1ul << flag))
			return true;
	return false;
}

static void close_after_thaw(struct nlru_engine *eng, struct nlru_file *f)
{
	atomic_store(&frozen, false);
	cr_assert_eq(nlru_file_close(f), 0, "%s", test_log_last);
	destroy_engine(eng);
}

/*
 * With writes congested (a queue of one request, congested by it), every dirty page a direct
 * reclaimer meets waits on them: the lruvec is flagged congested, and the reclaimer sleeps.
 */
Test(congestion, direct_reclaim_waits_on_a_congested_device)
{
	struct nlru_engine *eng = frozen_device_engine(1, 100);
	struct nlru_file *f = dirty_file(eng, "c", 256);

	cr_assert_eq(writeback_pages(f, 64, NULL), 0);
	cr_assert(blkdev_write_congested(eng->blkdev), "a full queue does not congest");
	reclaim_pass(eng, NLRU_GFP_KERNEL);
	cr_expect(some_lruvec_flagged(eng, LRUVEC_CONGESTED));
	cr_expect_gt(atomic_load(&eng->congestion_waits), 0, "direct reclaim did not wait");
	close_after_thaw(eng, f);
}

/* The same pages with the device far from congested: no flag, no sleep. */
Test(congestion, no_wait_without_congestion)
{
	struct nlru_engine *eng = frozen_device_engine(128, 100);
	struct nlru_file *f = dirty_file(eng, "n", 256);

	cr_assert_eq(writeback_pages(f, 64, NULL), 0);
	cr_assert_not(blkdev_write_congested(eng->blkdev));
	reclaim_pass(eng, NLRU_GFP_KERNEL);
	cr_expect_not(some_lruvec_flagged(eng, LRUVEC_CONGESTED));
	cr_expect_eq(atomic_load(&eng->congestion_waits), 0);
	close_after_thaw(eng, f);
}

struct pass {
	struct nlru_engine *eng;
	unsigned int gfp;
	atomic_bool returned;
};

static void *reclaim_in_thread(void *arg)
{
	struct pass *p = arg;

	reclaim_pass(p->eng, p->gfp);
	atomic_store(&p->returned, true);
	return NULL;
}

/*
 * throttle_vm_writeout(): with more pages under writeback than the dirty limit and a tenth,
 * reclaim sleeps until writes end; one that may not do I/O sleeps once and goes on.
 */
Test(congestion, reclaim_waits_while_writeback_passes_the_dirty_limit)
{
	struct nlru_engine *eng = frozen_device_engine(128, 20);
	struct nlru_file *f = dirty_file(eng, "t", 1024);
	struct pass p = {.eng = eng, .gfp = NLRU_GFP_KERNEL};
	struct pass noio = {.eng = eng, .gfp = NLRU_GFP_NOIO};
	struct timespec ms300 = {0, 300000000};
	unsigned long background, limit;
	pthread_t thread;

	cr_assert_eq(writeback_pages(f, 1024, NULL), 0);
	global_dirty_limits(eng, &background, &limit);
	cr_assert_gt(vmstat_value(eng, "nr_writeback"), (int64_t)(limit + limit / 10));
	reclaim_in_thread(&noio);
	cr_expect(atomic_load(&noio.returned), "a NOIO reclaimer is held");
	cr_assert_eq(pthread_create(&thread, NULL, reclaim_in_thread, &p), 0);
	nanosleep(&ms300, NULL);
	cr_expect_not(atomic_load(&p.returned), "reclaim went on with writeback over the limit");
	cr_expect_geq(atomic_load(&eng->congestion_waits), 2);
	atomic_store(&frozen, false);
	pthread_join(thread, NULL);
	cr_expect(atomic_load(&p.returned));
	close_after_thaw(eng, f);
}

/*
 * A node whose zones up to Normal have fewer free pages than half their min watermarks,
 * while its lruvec holds pages (pinned page cache, which reclaim cannot free): kswapd has
 * work, and direct reclaimers are to wait for it (throttle_direct_reclaim()).  Returns the
 * file; the atomic allocations that dug into the reserve are in @pages[0..*@n).
 */
#define RESERVE_PAGES 2048
static struct nlru_file *dig_into_the_reserve(struct nlru_engine *eng, void *pages[], int *n)
{
	struct nlru_file *f;
	void *addr;

	make_file(test_path("pinned"), 512 * 4096, 1);
	cr_assert_eq(nlru_file_open(eng, test_path("pinned"), O_RDONLY, 0, 0, &f), 0);
	for (int i = 0; i < 512; i++)
		cr_assert_eq(nlru_file_pin_page(f, (uint64_t)i, 0, &addr), 0, "%s", test_log_last);
	*n = 0;
	while (*n < RESERVE_PAGES && nlru_alloc_pages(eng, NLRU_GFP_ATOMIC, 0, 0, &pages[*n]) == 0)
		(*n)++;
	return f;
}

static void give_back(struct nlru_engine *eng, struct nlru_file *f, void *pages[], int n)
{
	for (int i = 0; i < n; i++)
		cr_assert_eq(nlru_free_pages(eng, pages[i], 0), 0);
	for (int i = 0; i < 512; i++)
		cr_assert_eq(nlru_file_unpin_page(f, (uint64_t)i, 0), 0);
	cr_assert_eq(nlru_file_close(f), 0);
}

static struct nlru_engine *small_engine(bool kswapd)
{
	struct nlru_engine *eng = NULL;
	struct nlru_config cfg;

	test_config(&cfg, 8, NULL);
	cfg.swap_mib = 0;
	cfg.kswapd = kswapd;
	cr_assert_eq(nlru_engine_create(&cfg, &eng), 0, "%s", test_log_last);
	return eng;
}

/*
 * Below half the min reserve, a direct reclaimer is throttled (pgscan_direct_throttle) until
 * kswapd brings the node back, which here it cannot: the engine's bound (a second) lets it go.
 */
Test(congestion, direct_reclaim_is_throttled_below_half_the_min_reserve)
{
	struct nlru_engine *eng = small_engine(true);
	static void *pages[RESERVE_PAGES];
	struct pglist_data *pgdat = NODE_DATA(eng, 0);
	struct nlru_file *f;
	int n;

	f = dig_into_the_reserve(eng, pages, &n);
	cr_assert_not(pfmemalloc_watermark_ok(eng, pgdat), "the reserve is still half there");
	try_to_free_pages(eng, node_zonelist(pgdat, NLRU_GFP_KERNEL), 0, NLRU_GFP_KERNEL,
			  gfp_zone(NLRU_GFP_KERNEL));
	cr_expect_eq(vmstat_value(eng, "pgscan_direct_throttle"), 1);
	cr_expect_eq(atomic_load(&pgdat->kswapd.nr_throttled), 0);
	give_back(eng, f, pages, n);
	cr_expect(pfmemalloc_watermark_ok(eng, pgdat));
	destroy_engine(eng);
}

/* Without a kswapd thread nobody would end the wait: no throttling. */
Test(congestion, no_throttling_without_kswapd)
{
	struct nlru_engine *eng = small_engine(false);
	static void *pages[RESERVE_PAGES];
	struct pglist_data *pgdat = NODE_DATA(eng, 0);
	struct nlru_file *f;
	int n;

	f = dig_into_the_reserve(eng, pages, &n);
	cr_assert_not(pfmemalloc_watermark_ok(eng, pgdat));
	try_to_free_pages(eng, node_zonelist(pgdat, NLRU_GFP_KERNEL), 0, NLRU_GFP_KERNEL,
			  gfp_zone(NLRU_GFP_KERNEL));
	cr_expect_eq(vmstat_value(eng, "pgscan_direct_throttle"), 0);
	give_back(eng, f, pages, n);
	destroy_engine(eng);
}
