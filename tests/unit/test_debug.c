/*
 * The debug checks themselves: a failed check (debug.h) or a lock taken out of order
 * (witness.h) is logged through the engine's log callback with where it happened, counted,
 * and not fatal.  Only a build with -Ddebug_checks=full has them all; in other builds these
 * tests say so and skip.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "helpers.h"

TestSuite(debug, .timeout = 60);

static void need_full_checks(void)
{
	if (NLRU_DEBUG < 2)
		cr_skip_test("built with debug checks at level %d; these tests need "
			     "-Ddebug_checks=full",
			     NLRU_DEBUG);
}

Test(debug, failed_check_is_logged_counted_and_not_fatal)
{
	struct nlru_engine *eng;
	unsigned long before = debug_check_failures();
	int line;
	char where[64];

	need_full_checks();
	eng = test_engine(8, NULL);
	line = __LINE__ + 1;
	cr_assert_not(CHECK_FULL(&eng->log, eng->nr_nodes == 0), "a false check is false");
	cr_assert(CHECK_FULL(&eng->log, eng->nr_nodes > 0), "a true check is true");
	cr_assert_eq(debug_check_failures(), before + 1);
	snprintf(where, sizeof(where), "tests/unit/test_debug.c:%d", line);
	cr_assert(strstr(test_log_last, "debug: check `eng->nr_nodes == 0' failed at "),
		  "logged: %s", test_log_last);
	cr_assert(strstr(test_log_last, where), "logged: %s", test_log_last);
	debug_reset_counters();
	destroy_engine(eng);
}

Test(debug, broken_free_list_count_is_reported_at_destroy)
{
	struct nlru_engine *eng;
	struct zone *zone;
	unsigned long before = debug_check_failures();

	need_full_checks();
	eng = test_engine(8, NULL);
	zone = &NODE_DATA(eng, 0)->node_zones[ZONE_NORMAL];
	zone->free_area[3].nr_free++;
	/* The engine goes on: destroy still succeeds, after saying what it found. */
	cr_assert_eq(destroy_engine_unchecked(eng), 0, "destroy: %s", test_log_last);
	cr_assert_gt(debug_check_failures(), before);
	cr_assert(strstr(test_log_last, "order 3 lists"), "logged: %s", test_log_last);
	debug_reset_counters();
}

/* The LRU lock nests outside the zone lock: taking it inside one is reported, once. */
Test(debug, lock_taken_out_of_order_is_reported_once_and_not_fatal)
{
	struct nlru_engine *eng;
	struct zone *zone;
	struct lruvec *lruvec;
	void *page;

	need_full_checks();
	eng = test_engine(8, NULL);
	zone = &NODE_DATA(eng, 0)->node_zones[ZONE_NORMAL];
	lruvec = zone->page_lruvec;
	/* The right order first: nothing to say. */
	spin_lock(&lruvec->lru_lock);
	spin_lock(&zone->lock);
	spin_unlock(&zone->lock);
	spin_unlock(&lruvec->lru_lock);
	cr_assert_eq(witness_violations(), 0, "%s", test_log_last);

	for (int round = 0; round < 2; round++) {
		test_log_count = 0;
		spin_lock(&zone->lock);
		spin_lock(&lruvec->lru_lock); /* wrong: lru_lock is taken before zone.lock */
		spin_unlock(&lruvec->lru_lock);
		spin_unlock(&zone->lock);
		cr_assert_eq(witness_violations(), (unsigned long)round + 1);
		/* Said the first time only, with both places. */
		cr_assert_eq(test_log_count, round == 0, "round %d: %d messages", round,
			     test_log_count);
	}
	cr_assert(strstr(test_log_debug, "debug: lock order: lruvec.lru_lock taken at "
					 "tests/unit/test_debug.c:"),
		  "logged: %s", test_log_debug);
	cr_assert(strstr(test_log_debug,
			 "while holding zone.lock (taken at tests/unit/test_debug.c:"),
		  "logged: %s", test_log_debug);
	/* Nothing is held any more, and the engine works on. */
	cr_assert(witness_may_take(LOCK_PAGE));
	cr_assert_eq(nlru_alloc_pages(eng, NLRU_GFP_KERNEL, 0, NLRU_NUMA_NO_NODE, &page), 0);
	cr_assert_eq(nlru_free_pages(eng, page, 0), 0);
	debug_reset_counters();
	destroy_engine(eng);
}

/* Two locks of one rank (two files' locks here) are never nested: reported too. */
Test(debug, second_lock_of_a_rank_is_reported)
{
	struct nlru_engine *eng;
	struct spinlock a, b;

	need_full_checks();
	eng = test_engine(8, NULL);
	spin_lock_init(&a, LOCK_FILE, &eng->log);
	spin_lock_init(&b, LOCK_FILE, &eng->log);
	spin_lock(&a);
	spin_lock(&b);
	spin_unlock(&b);
	spin_unlock(&a);
	cr_assert_eq(witness_violations(), 1);
	cr_assert(strstr(test_log_debug, "another lock of the same class"), "logged: %s",
		  test_log_debug);
	/* A trylock cannot deadlock: it is not an order violation. */
	spin_lock(&a);
	cr_assert(spin_trylock(&b));
	spin_unlock(&b);
	spin_unlock(&a);
	cr_assert_eq(witness_violations(), 1);
	debug_reset_counters();
	destroy_engine(eng);
}
