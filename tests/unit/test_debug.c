/*
 * The debug checks themselves (debug.h): a failed check is logged through the engine's log
 * callback with its place and expression, counted, and not fatal.  Only a build with
 * -Ddebug_checks=full has them all; the tests say so and skip in other builds.
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
	cr_assert_eq(nlru_engine_destroy(eng), 0, "destroy: %s", test_log_last);
	cr_assert_gt(debug_check_failures(), before);
	cr_assert(strstr(test_log_last, "order 3 lists"), "logged: %s", test_log_last);
	debug_reset_counters();
}
