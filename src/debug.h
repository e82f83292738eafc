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
 */
#ifndef NODELRU_DEBUG_H
#define NODELRU_DEBUG_H

#include "nlru_config.h"

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
