/*
 * Reclaim of anonymous memory in node mode: nothing lost through swap-out and swap-in, under
 * kswapd, direct reclaim, failing swap writes, full swap and pinned pages.  Then
 * shrink_page_list's rules for reclaimers without __GFP_IO and for pages under writeback.
 */
#include <criterion/criterion.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "anon.h"
#include "current.h"
#include "gfp.h"
#include "helpers.h"
#include "lru.h"
#include "page_alloc.h"
#include "reclaim_mode.h"
#include "swap.h"
#include "vmscan.h"
#include "vmstat.h"
#include "zonelist.h"

TestSuite(reclaim, .timeout = 120);

#define WORDS (4096 / sizeof(uint64_t))

static uint64_t pattern(size_t page, size_t word, uint64_t seed)
{
	return (page * 0x9e3779b97f4a7c15ull) ^ (word * 0xff51afd7ed558ccdull) ^ seed;
}

/* The reclaim counters, for a failure message. */
static const char *why(struct nlru_region *r)
{
	static char text[256];
	struct nlru_engine *eng = region_engine(r);

	snprintf(text, sizeof(text),
		 "retries %lld fails %lld stalls %lld direct %lld/%lld kswapd %lld/%lld free %lld",
		 (long long)vmstat_value(eng, "nlru_alloc_retry"),
		 (long long)vmstat_value(eng, "nlru_alloc_fail"),
		 (long long)vmstat_value(eng, "allocstall_movable"),
		 (long long)vmstat_value(eng, "pgsteal_direct"),
		 (long long)vmstat_value(eng, "pgscan_direct"),
		 (long long)vmstat_value(eng, "pgsteal_kswapd"),
		 (long long)vmstat_value(eng, "pgscan_kswapd"),
		 (long long)vmstat_value(eng, "nr_free_pages"));
	return text;
}

/* Pin page @i for writing and fill it; 0 or the pin's error. */
static int write_page(struct nlru_region *r, size_t i, uint64_t seed)
{
	uint64_t *p;
	int err = nlru_region_pin(r, i, NLRU_PIN_WRITE, (void **)&p);

	if (err)
		return err;
	for (size_t w = 0; w < WORDS; w++)
		p[w] = pattern(i, w, seed);
	cr_assert_eq(nlru_region_unpin(r, i), 0);
	return 0;
}

/* Pin page @i and count the words that differ from the pattern. */
static long verify_page(struct nlru_region *r, size_t i, uint64_t seed)
{
	uint64_t *p;
	long bad = 0;

	int err = nlru_region_pin(r, i, 0, (void **)&p);

	cr_assert_eq(err, 0, "pin %zu: %d %s (%s)", i, err, test_log_last, why(r));
	for (size_t w = 0; w < WORDS; w++)
		bad += p[w] != pattern(i, w, seed);
	cr_assert_eq(nlru_region_unpin(r, i), 0);
	return bad;
}

static long write_and_verify(struct nlru_region *r, size_t pages, uint64_t seed)
{
	long bad = 0;

	for (size_t i = 0; i < pages; i++) {
		int err = write_page(r, i, seed);

		cr_assert_eq(err, 0, "write page %zu: %d %s (%s)", i, err, test_log_last, why(r));
	}
	for (size_t i = 0; i < pages; i++)
		bad += verify_page(r, i, seed);
	return bad;
}

Test(reclaim, region_four_times_memory_single_thread)
{
	struct nlru_engine *eng = test_swap_engine(8, 48, true);
	struct nlru_region *r;
	size_t pages = 4 * 2048;

	cr_assert_eq(nlru_region_create(eng, pages, 0, &r), 0);
	cr_expect_eq(write_and_verify(r, pages, 1), 0, "mismatched words");
	/* Each pass pushes three quarters of the region through swap. */
	cr_expect_geq(vmstat_value(eng, "pswpout"), (int64_t)pages);
	cr_expect_geq(vmstat_value(eng, "pswpin"), (int64_t)pages / 2);
	cr_expect_gt(vmstat_value(eng, "pgmajfault"), 0);
	cr_expect_eq(vmstat_value(eng, "nlru_swap_write_fail"), 0);
	check_lru_invariants(eng, false);
	cr_assert_eq(nlru_region_destroy(r), 0);
	destroy_engine(eng);
}

/* The same with kswapd off: all of it through direct reclaim, and exact accounting. */
Test(reclaim, direct_reclaim_alone_loses_nothing)
{
	struct nlru_engine *eng = test_swap_engine(8, 48, false);
	struct nlru_region *r;
	size_t pages = 4 * 2048;

	cr_assert_eq(nlru_region_create(eng, pages, 0, &r), 0);
	cr_expect_eq(write_and_verify(r, pages, 2), 0);
	cr_expect_gt(vmstat_value(eng, "allocstall_movable"), 0, "GFP_HIGHUSER_MOVABLE stalls");
	cr_expect_gt(vmstat_value(eng, "pgsteal_direct"), 0);
	cr_expect_eq(vmstat_value(eng, "pageoutrun"), 0);
	/* Every swap-out is a page written by reclaim (compared with nothing else running). */
	cr_expect_eq(vmstat_value(eng, "nr_vmscan_write"), vmstat_value(eng, "pswpout"));
	check_lru_invariants(eng, true);
	cr_assert_eq(nlru_region_destroy(r), 0);
	/* Destroying the region gave back every page and every swap slot. */
	check_pages_accounted(eng, 0);
	cr_expect_eq(get_nr_swap_pages(eng), total_swap_pages(eng));
	destroy_engine(eng);
}

struct owner {
	struct nlru_engine *eng;
	size_t pages;
	uint64_t seed;
	long bad;
};

static void *owner_main(void *arg)
{
	struct owner *o = arg;
	struct nlru_region *r;

	cr_assert_eq(nlru_region_create(o->eng, o->pages, NLRU_NUMA_NO_NODE, &r), 0);
	o->bad = write_and_verify(r, o->pages, o->seed);
	o->bad += write_and_verify(r, o->pages, o->seed + 1);
	cr_assert_eq(nlru_region_destroy(r), 0);
	return NULL;
}

Test(reclaim, several_threads_on_their_own_regions_with_kswapd)
{
	struct nlru_engine *eng = test_swap_engine(8, 96, true);
	struct owner o[3];
	pthread_t tid[3];

	for (int i = 0; i < 3; i++) {
		o[i] = (struct owner){eng, 2 * 2048, 100u * (uint64_t)i, 0};
		cr_assert_eq(pthread_create(&tid[i], NULL, owner_main, &o[i]), 0);
	}
	for (int i = 0; i < 3; i++) {
		pthread_join(tid[i], NULL);
		cr_expect_eq(o[i].bad, 0, "thread %d: %ld mismatched words", i, o[i].bad);
	}
	/* Who reclaimed (kswapd or the threads themselves) depends on scheduling: not asserted. */
	cr_expect_gt(vmstat_value(eng, "pgsteal_kswapd") + vmstat_value(eng, "pgsteal_direct"), 0);
	check_lru_invariants(eng, false);
	destroy_engine(eng);
}

Test(reclaim, failed_swap_writes_keep_the_page)
{
	struct nlru_engine *eng = test_swap_engine(8, 48, false);
	struct nlru_region *r;
	size_t pages = 3 * 2048;

	/* Fewer in a row than make swap count as full (swap.c). */
	swap_inject_write_errors(eng->swap, EIO, 30);
	cr_assert_eq(nlru_region_create(eng, pages, 0, &r), 0);
	test_log_count = 0;
	for (size_t i = 0; i < pages; i++)
		cr_assert_eq(write_page(r, i, 3), 0, "page %zu: %s", i, test_log_last);
	cr_expect_eq(vmstat_value(eng, "nlru_swap_write_fail"), 30);
	/* Logged as Linux's printk_ratelimited(): 10 in 5 s (the test takes less). */
	cr_expect_leq(test_log_count, 10, "%d messages for 30 failed writes", test_log_count);
	swap_inject_write_errors(eng->swap, ENOSPC, 10);
	long bad = 0;
	for (size_t i = 0; i < pages; i++)
		bad += verify_page(r, i, 3);
	cr_expect_eq(bad, 0, "a failed write lost data");
	cr_expect_eq(vmstat_value(eng, "nlru_swap_write_fail"), 40);
	check_lru_invariants(eng, true);
	cr_assert_eq(nlru_region_destroy(r), 0);
	destroy_engine(eng);
}

Test(reclaim, full_swap_ends_in_enomem_without_losing_data)
{
	struct nlru_engine *eng = test_swap_engine(8, 1, false);
	struct nlru_region *r;
	size_t pages = 4096, written = 0;
	int err = 0;
	long bad = 0;

	cr_assert_eq(nlru_region_create(eng, pages, 0, &r), 0);
	while (written < pages && !(err = write_page(r, written, 4)))
		written++;
	cr_expect_eq(err, -ENOMEM, "the region is larger than memory and swap together");
	cr_expect_gt(written, 2048 - 200, "memory was used before failing (%zu pages)", written);
	cr_expect_gt(vmstat_value(eng, "nlru_swap_full"), 0);
	cr_expect_gt(vmstat_value(eng, "nlru_alloc_fail"), 0);
	/* Everything written is still there once the owner makes room by discarding a tail. */
	for (size_t i = written - 300; i < written; i++)
		cr_assert_eq(nlru_region_discard(r, i), 0);
	for (size_t i = 0; i < written - 300; i++)
		bad += verify_page(r, i, 4);
	cr_expect_eq(bad, 0, "full swap lost data");
	cr_assert_eq(nlru_region_destroy(r), 0);
	destroy_engine(eng);
}

Test(reclaim, pinned_pages_are_never_reclaimed)
{
	struct nlru_engine *eng = test_swap_engine(8, 48, false);
	struct nlru_region *pinned, *hog;
	void *addr[256];

	cr_assert_eq(nlru_region_create(eng, 256, 0, &pinned), 0);
	for (size_t i = 0; i < 256; i++) {
		cr_assert_eq(nlru_region_pin(pinned, i, NLRU_PIN_WRITE, &addr[i]), 0);
		for (size_t w = 0; w < WORDS; w++)
			((uint64_t *)addr[i])[w] = pattern(i, w, 5);
	}
	cr_assert_eq(nlru_region_create(eng, 3 * 2048, 0, &hog), 0);
	cr_expect_eq(write_and_verify(hog, 3 * 2048, 6), 0);
	cr_expect_gt(vmstat_value(eng, "pswpout"), 0);
	for (size_t i = 0; i < 256; i++) {
		void *again;

		cr_assert_eq(nlru_region_pin(pinned, i, 0, &again), 0);
		cr_expect_eq(again, addr[i], "pinned page %zu moved", i);
		for (size_t w = 0; w < WORDS; w++)
			cr_assert_eq(((uint64_t *)addr[i])[w], pattern(i, w, 5));
		cr_assert_eq(nlru_region_unpin(pinned, i), 0);
		cr_assert_eq(nlru_region_unpin(pinned, i), 0);
	}
	cr_expect_eq(nlru_region_unpin(pinned, 0), -EINVAL, "one unpin too many");
	cr_assert_eq(nlru_region_destroy(hog), 0);
	cr_assert_eq(nlru_region_destroy(pinned), 0);
	destroy_engine(eng);
}

Test(reclaim, no_swap_means_anon_is_unreclaimable)
{
	struct nlru_engine *eng = test_swap_engine(8, 0, false);
	struct nlru_region *r;
	size_t written = 0;

	cr_assert_eq(nlru_region_create(eng, 4096, 0, &r), 0);
	while (written < 4096 && write_page(r, written, 7) == 0)
		written++;
	cr_expect_lt(written, 2048, "no page can leave memory");
	cr_expect_eq(vmstat_value(eng, "pswpout"), 0);
	cr_expect_eq(vmstat_value(eng, "pgsteal_direct"), 0);
	cr_assert_eq(nlru_region_destroy(r), 0);
	destroy_engine(eng);
}

/* Two emulated nodes: a region of node 1 larger than all memory, kswapd running on each. */
Test(reclaim, two_nodes_each_with_its_kswapd)
{
	struct nlru_engine *eng;
	struct nlru_config cfg;
	struct nlru_region *r;
	size_t pages = 3 * 2 * 2048;

	test_config(&cfg, 8, "pack:2 numa:1 core:1 pu:1");
	cfg.swap_mib = 64;
	cr_assert_eq(nlru_engine_create(&cfg, &eng), 0, "%s", test_log_last);
	cr_assert(NODE_DATA(eng, 0)->kswapd.started && NODE_DATA(eng, 1)->kswapd.started);
	cr_assert_eq(nlru_region_create(eng, pages, 1, &r), 0);
	cr_expect_eq(write_and_verify(r, pages, 9), 0);
	/* Node 1 filled first; its overflow went to node 0 before anything was reclaimed. */
	cr_expect_gt(vmstat_value(eng, "numa_miss"), 0);
	cr_expect_gt(vmstat_value(eng, "pswpout"), 0);
	check_lru_invariants(eng, false);
	cr_assert_eq(nlru_region_destroy(r), 0);
	destroy_engine(eng);
}

/*
 * 4.8's "unreclaimable" heuristic can write a node off while it still has pages to give
 * back.  Where Linux would then OOM-kill, the engine reclaims once more without it.
 */
Test(reclaim, a_node_wrongly_written_off_is_reclaimed_before_enomem)
{
	struct nlru_engine *eng = test_swap_engine(8, 48, false);
	struct lruvec *lruvecs[NLRU_MAX_NR_ZONES];
	struct nlru_region *r;
	size_t i = 0;
	void *p;

	cr_assert_eq(nlru_region_create(eng, 4096, 0, &r), 0);
	while (vmstat_value(eng, "allocstall_movable") == 0) {
		cr_assert_eq(nlru_region_pin(r, i, NLRU_PIN_WRITE, &p), 0);
		cr_assert_eq(nlru_region_unpin(r, i++), 0);
	}
	/* As if reclaim had scanned everything many times over and freed nothing. */
	for (int n = node_lruvecs(eng, 0, lruvecs); n--;) {
		mod_lruvec_state(lruvecs[n], NLRU_NR_PAGES_SCANNED, 1000000);
		cr_assert_not(lruvec_reclaimable(eng, lruvecs[n]));
	}
	for (size_t k = 0; k < 64; k++, i++) {
		cr_assert_eq(nlru_region_pin(r, i, NLRU_PIN_WRITE, &p), 0, "pin %zu: %s", i,
			     test_log_last);
		cr_assert_eq(nlru_region_unpin(r, i), 0);
	}
	cr_expect_gt(vmstat_value(eng, "nlru_oom_reclaim"), 0, "the last resort ran");
	cr_expect_eq(vmstat_value(eng, "nlru_alloc_fail"), 0);
	cr_assert_eq(nlru_region_destroy(r), 0);
	destroy_engine(eng);
}

/* Fault in pages 0..@pages-1 of @r and let go of them: dirty anon pages on the active list. */
static void touch_pages(struct nlru_region *r, size_t pages)
{
	void *p;

	for (size_t i = 0; i < pages; i++) {
		cr_assert_eq(nlru_region_pin(r, i, NLRU_PIN_WRITE, &p), 0);
		cr_assert_eq(nlru_region_unpin(r, i), 0);
	}
}

/*
 * 4.8 shrink_page_list: a reclaimer whose gfp lacks __GFP_IO cannot add an anon page to
 * swap, so it keeps the page on the inactive list: no activation, no "swap full".
 */
Test(reclaim, noio_reclaim_keeps_anon_pages_inactive)
{
	struct nlru_engine *eng = test_swap_engine(8, 16, false);
	struct pglist_data *pgdat = NODE_DATA(eng, 0);
	struct nlru_region *r;
	unsigned long reclaimed;

	cr_assert_eq(nlru_region_create(eng, 512, 0, &r), 0);
	touch_pages(r, 512);
	reclaimed = try_to_free_pages(eng, node_zonelist(pgdat, NLRU_GFP_NOIO), 0, NLRU_GFP_NOIO,
				      gfp_zone(NLRU_GFP_NOIO));
	cr_expect_eq(reclaimed, 0, "nothing can be written without __GFP_IO");
	/* Aging deactivated pages, whose young bits it cleared; reclaim then met them. */
	cr_assert_gt(vmstat_value(eng, "pgscan_direct"), 0, "no inactive anon page was scanned");
	cr_expect_gt(node_page_state(pgdat, NLRU_NR_INACTIVE_ANON), 0);
	cr_expect_eq(vmstat_value(eng, "pgactivate"), 0, "kept, not activated");
	cr_expect_eq(vmstat_value(eng, "nlru_swap_full"), 0, "swap has room: not \"full\"");
	cr_expect_eq(vmstat_value(eng, "pswpout"), 0);
	check_lru_invariants(eng, true);
	cr_assert_eq(nlru_region_destroy(r), 0);
	destroy_engine(eng);
}

#define WB_PAGES 64 /* two batches of SWAP_CLUSTER_MAX */

/* Page cache pages (not swap-backed, no owner) on the inactive list, their write not ended. */
static void add_writeback_pages(struct nlru_engine *eng, struct page *pages[WB_PAGES])
{
	for (int i = 0; i < WB_PAGES; i++) {
		pages[i] = alloc_pages_node(eng, NLRU_GFP_KERNEL, 0, 0);
		cr_assert(pages[i]);
		page_set(pages[i], PG_writeback);
		lru_cache_add(eng, pages[i]);
	}
}

static void free_writeback_pages(struct nlru_engine *eng, struct page *pages[WB_PAGES])
{
	for (int i = 0; i < WB_PAGES; i++) {
		cr_assert_eq(isolate_lru_page(eng, pages[i]), 0);
		pages[i]->flags &= ~((1u << PG_writeback) | (1u << PG_reclaim));
		__atomic_store_n(&pages[i]->refcount, 0, __ATOMIC_RELEASE);
		free_pages_trusted(eng, pages[i], 0);
	}
}

/*
 * 4.8 shrink_page_list's writeback cases (4.7's, with ZONE_WRITEBACK, in zone mode).  A page
 * under writeback is marked PG_reclaim and kept; a batch of nothing else flags its lruvec
 * WRITEBACK.  kswapd meeting a marked page again on a flagged lruvec counts nr_immediate,
 * and shrink_inactive_list() then waits in congestion_wait() for the I/O to progress.
 */
Test(reclaim, kswapd_waits_when_it_meets_marked_pages_still_under_writeback)
{
	struct nlru_engine *eng = test_swap_engine(8, 0, false);
	struct lruvec *lruvecs[NLRU_MAX_NR_ZONES];
	struct page *pages[WB_PAGES];
	int nr_lruvecs = node_lruvecs(eng, 0, lruvecs);

	add_writeback_pages(eng, pages);
	current_flags = PF_KSWAPD;
	reclaim_pass(eng, NLRU_GFP_KERNEL);
	cr_assert_eq(vmstat_value(eng, "pgscan_kswapd"), WB_PAGES, "every page was scanned");
	for (int i = 0; i < WB_PAGES; i++)
		cr_expect(page_test(pages[i], PG_reclaim), "page %d marked for rotation", i);
	for (int n = 0; n < nr_lruvecs; n++) {
		bool flagged = atomic_load(&lruvecs[n]->flags) & (1ul << LRUVEC_WRITEBACK);

		cr_expect(flagged || !lruvec_lru_size(lruvecs[n], LRU_INACTIVE_FILE),
			  "lruvec %d of %d: its batches were all writeback", n, nr_lruvecs);
	}
	cr_expect_eq(atomic_load(&eng->congestion_waits), 0, "first meeting: marked, no wait");

	current_flags = 0;
	reclaim_pass(eng, NLRU_GFP_KERNEL);
	cr_expect_eq(atomic_load(&eng->congestion_waits), 0, "direct reclaim never waits here");

	current_flags = PF_KSWAPD;
	reclaim_pass(eng, NLRU_GFP_KERNEL);
	current_flags = 0;
	cr_expect_gt(atomic_load(&eng->congestion_waits), 0,
		     "kswapd met marked pages on a WRITEBACK lruvec: nr_immediate, so it waited");
	cr_expect_eq(vmstat_value(eng, "pgsteal_kswapd") + vmstat_value(eng, "pgsteal_direct"), 0);
	cr_expect_eq(node_page_state(NODE_DATA(eng, 0), NLRU_NR_INACTIVE_FILE), WB_PAGES,
		     "all kept");
	check_lru_invariants(eng, false);
	free_writeback_pages(eng, pages);
	destroy_engine(eng);
}

/*
 * 4.8 do_try_to_free_pages: a round of priorities 12..0 that reclaimed nothing is run once
 * more with may_thrash (memcg low limits off), counting a second allocstall.
 */
Test(reclaim, direct_reclaim_that_frees_nothing_tries_a_second_round)
{
	struct nlru_engine *eng = test_swap_engine(8, 0, false);
	struct lruvec *lruvecs[NLRU_MAX_NR_ZONES];
	struct pglist_data *pgdat = NODE_DATA(eng, 0);
	struct page *pages[WB_PAGES];
	int64_t one_round = 0;

	add_writeback_pages(eng, pages);
	/*
	 * Without swap only the inactive file lists are scanned, each (the node's, or in zone
	 * mode each zone's) by size >> priority at priorities 12..0; all of it is kept.
	 */
	for (int n = node_lruvecs(eng, 0, lruvecs); n--;)
		for (int prio = DEF_PRIORITY; prio >= 0; prio--)
			one_round += lruvec_lru_size(lruvecs[n], LRU_INACTIVE_FILE) >> prio;
	cr_assert_gt(one_round, 0);
	cr_expect_eq(try_to_free_pages(eng, node_zonelist(pgdat, NLRU_GFP_KERNEL), 0,
				       NLRU_GFP_KERNEL, ZONE_NORMAL),
		     0);
	cr_expect_eq(vmstat_value(eng, "allocstall_normal"), 2, "one allocstall per round");
	cr_expect_eq(vmstat_value(eng, "pgscan_direct"), 2 * one_round,
		     "two rounds of %lld pages scanned", (long long)one_round);
	check_lru_invariants(eng, false);
	free_writeback_pages(eng, pages);
	destroy_engine(eng);
}

/*
 * Swap-out is writeback as 4.8 counts it (set_page_writeback, test_clear_page_writeback):
 * nr_writeback and nr_zone_write_pending while the write is in flight, nr_written once it
 * went through.  A failed write is not counted as written, as for page cache pages.
 */
Test(reclaim, swap_out_counts_as_writeback)
{
	struct nlru_engine *eng = test_swap_engine(8, 48, false);
	struct nlru_region *r;
	size_t pages = 3 * 2048;

	swap_inject_write_errors(eng->swap, EIO, 10);
	cr_assert_eq(nlru_region_create(eng, pages, 0, &r), 0);
	cr_expect_eq(write_and_verify(r, pages, 10), 0);
	cr_assert_gt(vmstat_value(eng, "pswpout"), 0);
	cr_expect_eq(vmstat_value(eng, "nlru_swap_write_fail"), 10);
	cr_expect_eq(vmstat_value(eng, "nr_written"), vmstat_value(eng, "pswpout"),
		     "every page written to swap, and only those");
	cr_expect_eq(vmstat_value(eng, "nr_writeback"), 0, "every write has ended");
	cr_expect_eq(vmstat_value(eng, "nr_zone_write_pending"), 0);
	check_lru_invariants(eng, true);
	cr_assert_eq(nlru_region_destroy(r), 0);
	destroy_engine(eng);
}

#define HOG_PAGES 2560 /* more than the engine's 2048 */

/*
 * Page 0 of @region out to swap, by writing every page of @hog after it: it is the oldest
 * anonymous page, the first reclaim takes.
 */
static void swap_out_page0(struct nlru_engine *eng, struct nlru_region *region,
			   struct nlru_region *hog)
{
	for (size_t i = 0; i < HOG_PAGES && region_swap_slot(region, 0) < 0; i++) {
		char *p;

		cr_assert_eq(nlru_region_pin(hog, i, NLRU_PIN_WRITE, (void **)&p), 0);
		p[0] = 1;
		cr_assert_eq(nlru_region_unpin(hog, i), 0);
	}
	cr_assert_geq(region_swap_slot(region, 0), 0, "page 0 went to swap");
}

struct held_read {
	sem_t done, resume;
	atomic_int armed; /* the next read is held until resume */
	char seen[8];     /* what the held reader's pin found */
	struct nlru_region *region;
};

static void hold_armed_read(void *arg, uint32_t slot)
{
	struct held_read *h = arg;

	if (atomic_exchange(&h->armed, 0)) {
		sem_post(&h->done);
		sem_wait(&h->resume);
	}
}

static void *held_reader(void *arg)
{
	struct held_read *h = arg;
	char *p;

	cr_assert_eq(nlru_region_pin(h->region, 0, 0, (void **)&p), 0);
	memcpy(h->seen, p, sizeof(h->seen));
	cr_assert_eq(nlru_region_unpin(h->region, 0), 0);
	return NULL;
}

/*
 * A swap-in that read the page, then lost the race to install it, must not install it after
 * the page came back, was rewritten and went out again to the same swap slot.  Each
 * swap-out gives the slot value a new generation, so the late reader reads again.  The slot
 * is reused here for certain: page 0 goes out first both times, the hog's slots freed in
 * between, and the swap file's search set back to its first slot (swap_set_cursor()).
 */
Test(reclaim, a_swap_in_that_lost_its_race_never_installs_stale_data)
{
	struct nlru_engine *eng = test_swap_engine(8, 16, false);
	struct held_read h = {.armed = 0};
	struct nlru_region *hog;
	pthread_t reader;
	long slot;
	char *p;

	sem_init(&h.done, 0, 0);
	sem_init(&h.resume, 0, 0);
	cr_assert_eq(nlru_region_create(eng, 1, 0, &h.region), 0);
	cr_assert_eq(nlru_region_create(eng, HOG_PAGES, 0, &hog), 0);
	cr_assert_eq(nlru_region_pin(h.region, 0, NLRU_PIN_WRITE, (void **)&p), 0);
	strcpy(p, "old");
	cr_assert_eq(nlru_region_unpin(h.region, 0), 0);
	swap_out_page0(eng, h.region, hog);
	slot = region_swap_slot(h.region, 0);

	swap_set_read_hook(eng->swap, hold_armed_read, &h);
	atomic_store(&h.armed, 1);
	cr_assert_eq(pthread_create(&reader, NULL, held_reader, &h), 0);
	sem_wait(&h.done); /* the reader has "old" in its fresh page, not yet installed */
	cr_assert_eq(nlru_region_pin(h.region, 0, NLRU_PIN_WRITE, (void **)&p), 0);
	cr_expect_str_eq(p, "old");
	strcpy(p, "new");
	cr_assert_eq(nlru_region_unpin(h.region, 0), 0);
	for (size_t i = 0; i < HOG_PAGES; i++)
		cr_assert_eq(nlru_region_discard(hog, i), 0);
	swap_set_cursor(eng->swap, 0);
	swap_out_page0(eng, h.region, hog);
	cr_assert_eq(region_swap_slot(h.region, 0), slot, "the same swap slot again");
	sem_post(&h.resume);
	pthread_join(reader, NULL);
	swap_set_read_hook(eng->swap, NULL, NULL);

	cr_expect_str_eq(h.seen, "new", "the late reader installed the first swap copy");
	cr_assert_eq(nlru_region_pin(h.region, 0, 0, (void **)&p), 0);
	cr_expect_str_eq(p, "new");
	cr_assert_eq(nlru_region_unpin(h.region, 0), 0);
	cr_expect_eq(vmstat_value(eng, "pswpin"), vmstat_value(eng, "pgmajfault"),
		     "a read that lost its race is no swap-in");
	cr_assert_eq(nlru_region_destroy(hog), 0);
	cr_assert_eq(nlru_region_destroy(h.region), 0);
	destroy_engine(eng);
}
