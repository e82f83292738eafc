/*
 * Assertion levels and compile-time helpers.
 *
 * NLRU_DEBUG comes from meson's debug_checks option: 0 off, 1 cheap O(1) checks, 2 full checks
 * that walk lists and recount counters.  Checks are written as `if (NLRU_DEBUG >= 2)` rather
 * than #if so the code behind them always compiles (jemalloc's config_debug).
 *
 * A failed check never aborts: the library must not take its host process down.  It is
 * reported through the engine's log callback, and the caller goes on or refuses the
 * operation (see free_pages_trusted and nlru_engine_destroy).
 *
 * CHECK_CHEAP() and CHECK_FULL() state an invariant: at their level and above, a false
 * expression is logged at NLRU_LOG_ERROR as "debug: check `EXPR' failed at FILE:LINE" and
 * counted (debug_check_failures()); below it they compile to nothing.  Both are expressions,
 * true when the invariant holds (or is not checked), so a caller can add what it knows:
 *
 *	if (!CHECK_CHEAP(zone->zone_pgdat->log, page_order(page) == order))
 *		log_err(zone->zone_pgdat->log, "pfn %u heads order %u", pfn, page_order(page));
 *
 * The cheap level is the default build: its checks are O(1) and stay off the order-0 fast
 * path (pcp.c's sequences and what surrounds them).  Walks of whole lists belong to the full
 * level.  Every message the debug checks log starts with "debug: ", so that a program can
 * tell them from the engine's other errors.
 */
#ifndef NODELRU_DEBUG_H
#define NODELRU_DEBUG_H

#include <stdbool.h>

#include "nlru_config.h"

struct nlru_log;

/* Log and count a failed check; the macros below call it.  Never aborts. */
__attribute__((cold)) void debug_check_failed(const struct nlru_log *log, const char *file,
					      int line, const char *expr);

/* Checks that failed in this process since it started (or since debug_reset_counters()). */
unsigned long debug_check_failures(void);
/* Tests that break an invariant or the lock order on purpose count afresh after it (both). */
void debug_reset_counters(void);
/* @file as the source tree names it: "src/buddy.c" for the build's "../src/buddy.c". */
const char *debug_source_path(const char *file);

/* A statement expression, so that an unused result draws no warning at any level. */
#define DEBUG_CHECK(level, log, expr)                                                              \
	__extension__({                                                                            \
		bool debug_ok_ = true;                                                             \
		if (NLRU_DEBUG >= (level) && __builtin_expect(!(expr), 0)) {                       \
			debug_check_failed((log), __FILE__, __LINE__, #expr);                      \
			debug_ok_ = false;                                                         \
		}                                                                                  \
		debug_ok_;                                                                         \
	})
#define CHECK_CHEAP(log, expr) DEBUG_CHECK(1, log, expr)
#define CHECK_FULL(log, expr) DEBUG_CHECK(2, log, expr)

#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))
#define DIV_ROUND_UP(n, d) (((n) + (d)-1) / (d))
#define CACHELINE 64
#define __cacheline_aligned __attribute__((aligned(CACHELINE)))

#define STATIC_ASSERT(cond, msg) _Static_assert(cond, msg)

#endif /* NODELRU_DEBUG_H */
