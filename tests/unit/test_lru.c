/* LRU lists: where pages go, the two-touch rule, rotation, and zone-aware isolation. */
#include <criterion/criterion.h>

#include "helpers.h"
#include "lru.h"
#include "page_alloc.h"

TestSuite(lru, .timeout = 60);

static long node_stat(struct nlru_engine *eng, enum nlru_node_stat_item item)
{
	return node_page_state(NODE_DATA(eng, 0), item);
}

Test(lru, new_anon_pages_start_on_the_active_list)
{
	struct nlru_engine *eng = test_swap_engine(8, 16, false);
	struct nlru_region *r;
	void *p;

	cr_assert_eq(nlru_region_create(eng, 10, 0, &r), 0);
	for (size_t i = 0; i < 10; i++) {
		cr_assert_eq(nlru_region_pin(r, i, 0, &p), 0);
		cr_assert_eq(nlru_region_unpin(r, i), 0);
	}
	cr_expect_eq(node_stat(eng, NLRU_NR_ACTIVE_ANON), 10);
	cr_expect_eq(node_stat(eng, NLRU_NR_INACTIVE_ANON), 0);
	cr_expect_eq(node_stat(eng, NLRU_NR_ANON_MAPPED), 10);
	cr_expect_eq(vmstat_value(eng, "pgfault"), 10);
	cr_expect_eq(nlru_region_mark_accessed(r, 3), 0);
	cr_expect_eq(nlru_region_mark_dirty(r, 3), 0);
	check_lru_invariants(eng, true);
	cr_assert_eq(nlru_region_destroy(r), 0);
	cr_expect_eq(node_stat(eng, NLRU_NR_ACTIVE_ANON), 0);
	destroy_engine(eng);
}

/* A page-cache-like page (not swap-backed) on the inactive list. */
static struct page *inactive_file_page(struct nlru_engine *eng)
{
	struct page *page = alloc_pages_node(eng, NLRU_GFP_KERNEL, 0, 0);

	cr_assert(page);
	lru_cache_add(eng, page);
	return page;
}

static void release(struct nlru_engine *eng, struct page *page)
{
	cr_assert_eq(isolate_lru_page(eng, page), 0);
	page->flags &= ~((1u << PG_active) | (1u << PG_referenced));
	__atomic_store_n(&page->refcount, 0, __ATOMIC_RELEASE);
	free_pages_trusted(eng, page, 0);
}

Test(lru, mark_page_accessed_takes_two_touches)
{
	struct nlru_engine *eng = test_swap_engine(8, 0, false);
	struct page *page = inactive_file_page(eng);

	cr_expect_eq(node_stat(eng, NLRU_NR_INACTIVE_FILE), 1);
	mark_page_accessed(eng, page);
	cr_expect(page_test(page, PG_referenced), "first touch: referenced");
	cr_expect_not(page_test(page, PG_active));
	mark_page_accessed(eng, page);
	cr_expect(page_test(page, PG_active), "second touch: active");
	cr_expect_not(page_test(page, PG_referenced), "and the referenced bit is spent");
	cr_expect_eq(node_stat(eng, NLRU_NR_ACTIVE_FILE), 1);
	cr_expect_eq(vmstat_value(eng, "pgactivate"), 1);
	check_lru_invariants(eng, false);
	release(eng, page);
	destroy_engine(eng);
}

Test(lru, rotate_moves_to_the_tail)
{
	struct nlru_engine *eng = test_swap_engine(8, 0, false);
	struct page *a = inactive_file_page(eng), *b = inactive_file_page(eng);
	struct pglist_data *pgdat = NODE_DATA(eng, 0);
	struct lruvec *lruvec = page_lruvec(pgdat, a);

	/* b was added last, so a is the tail (oldest); rotating b makes b the tail. */
	cr_assert_eq(page_lruvec(pgdat, b), lruvec, "zone mode: both from one zone");
	cr_expect_eq(lruvec->lists[LRU_INACTIVE_FILE].last, page_to_pfn(pgdat, a));
	rotate_reclaimable_page(eng, b);
	cr_expect_eq(lruvec->lists[LRU_INACTIVE_FILE].last, page_to_pfn(pgdat, b));
	cr_expect_eq(vmstat_value(eng, "pgrotated"), 1);
	check_lru_invariants(eng, false);
	release(eng, a);
	release(eng, b);
	destroy_engine(eng);
}

/*
 * 4.8 rotates only a page that is neither locked, dirty, active nor unevictable: one
 * written to again during its writeback, or locked by a writer copying into it, stays put.
 */
Test(lru, rotate_leaves_locked_and_dirty_pages_in_place)
{
	struct nlru_engine *eng = test_swap_engine(8, 0, false);
	struct page *a = inactive_file_page(eng), *b = inactive_file_page(eng);
	struct pglist_data *pgdat = NODE_DATA(eng, 0);
	struct lruvec *lruvec = page_lruvec(pgdat, a);
	static const enum pageflags busy[] = {PG_dirty, PG_locked};

	cr_assert_eq(page_lruvec(pgdat, b), lruvec, "zone mode: both from one zone");
	for (size_t i = 0; i < sizeof(busy) / sizeof(busy[0]); i++) {
		page_set(b, busy[i]);
		rotate_reclaimable_page(eng, b);
		page_clear(b, busy[i]);
		cr_expect_eq(lruvec->lists[LRU_INACTIVE_FILE].last, page_to_pfn(pgdat, a),
			     "flag %d: a is still the tail", (int)busy[i]);
		cr_expect_eq(vmstat_value(eng, "pgrotated"), 0, "flag %d: nothing rotated",
			     (int)busy[i]);
	}
	rotate_reclaimable_page(eng, b);
	cr_expect_eq(lruvec->lists[LRU_INACTIVE_FILE].last, page_to_pfn(pgdat, b), "then rotated");
	cr_expect_eq(vmstat_value(eng, "pgrotated"), 1);
	check_lru_invariants(eng, false);
	release(eng, a);
	release(eng, b);
	destroy_engine(eng);
}
