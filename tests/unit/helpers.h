/* Shared helpers of the unit tests: small engines, a log that remembers, invariant checks. */
#ifndef NODELRU_TEST_HELPERS_H
#define NODELRU_TEST_HELPERS_H

#include <errno.h>
#include <stdbool.h>

#include <nodelru/nodelru.h>
#include <nodelru/vmstat.h>

#include "engine.h"

#ifndef NLRU_TEST_DATA
#define NLRU_TEST_DATA "tests/data"
#endif

/* The last message the library logged, and how many it logged, for the current test. */
extern char test_log_last[512];
extern int test_log_count;
/* The first message of a failed debug check or lock-order violation ("debug: ..."), or "". */
extern char test_log_debug[512];
void test_log(void *arg, enum nlru_log_level level, const char *msg);

/*
 * No debug check failed and no lock-order violation was seen in this test's process so far
 * (debug.h, witness.h).  Every nlru_engine_destroy() of a unit test checks it too.
 */
void check_debug_counters(void);
/* nlru_engine_destroy() without that check: for tests that break an invariant on purpose. */
int destroy_engine_unchecked(struct nlru_engine *eng);

/*
 * The test needs one mode: it runs in it even when the suite runs in the other (NLRU_MODE,
 * read by nlru_config_init()).  Each Criterion test is its own process, so this stays local.
 */
void run_in_mode(enum nlru_mode mode);

/* The distinct lruvecs of node @nid: 1 in node mode, one per populated zone in zone mode. */
int node_lruvecs(struct nlru_engine *eng, int nid, struct lruvec *out[NLRU_MAX_NR_ZONES]);

/* A config for a small engine (node_mib MiB per node) logging into test_log. */
void test_config(struct nlru_config *cfg, long node_mib, const char *topology);
struct nlru_engine *test_engine(long node_mib, const char *topology);

/*
 * Allocator invariants: every zone's free lists agree with nr_free and NR_FREE_PAGES, and
 * free + allocated (as the caller counts it) = managed.  @allocated may be -1 to skip that.
 */
void check_free_lists(struct nlru_engine *eng);
void check_pages_accounted(struct nlru_engine *eng, long allocated);

/*
 * In sanitizer builds, fail if anything allocated so far has leaked.  Criterion's test
 * processes end without LeakSanitizer's exit-time check counting (a suite's .fini cannot fail
 * a test either), so tests ask for it in their body.  A no-op in other builds.
 */
void check_no_leaks(void);
/* The LRU invariants hold, nlru_engine_destroy() succeeds, and nothing has leaked. */
void destroy_engine(struct nlru_engine *eng);

/*
 * LRU invariants: every list walked under the lru_lock agrees with the node and zone size
 * counters and with its pages' flags; pgsteal <= pgscan; and, when every allocated page is
 * an anon page, free + per-CPU + anon + isolated = managed.
 */
void check_lru_invariants(struct nlru_engine *eng, bool only_anon_allocated);

/*
 * One reclaim pass at priority 0 over node 0's zones with @gfp, as direct reclaim makes it
 * (or kswapd's, with PF_KSWAPD set in current_flags); unreclaimable nodes are not skipped.
 */
void reclaim_pass(struct nlru_engine *eng, unsigned int gfp);

/* A small engine with a swap file of @swap_mib and kswapd on or off. */
struct nlru_engine *test_swap_engine(long node_mib, long swap_mib, bool kswapd);

/* One event counter by its /proc/vmstat name (a 4.8 sum name works too). */
int64_t vmstat_value(struct nlru_engine *eng, const char *name);

/*
 * A folder of the test's own under /tmp, made on first use (each Criterion test runs in a
 * process of its own), and the path of @name in it: four buffers in turn.  Neither is for
 * several threads at once: make the folder before starting threads, which then build their
 * paths on test_dir().  test_remove_dir() removes
 * the folder and its files: a suite's .fini.
 */
const char *test_dir(void);
const char *test_path(const char *name);
void test_remove_dir(void);

/* An engine clock the test moves by hand: cfg.clock = test_fake_clock, then set test_fake_now. */
extern _Atomic uint64_t test_fake_now;
uint64_t test_fake_clock(void *arg);

/* Blocks of each order on the free lists, summed over the engine. */
void count_free_blocks(struct nlru_engine *eng, unsigned long blocks[NLRU_MAX_ORDER]);

/*
 * Real files for the page cache tests.  make_file() writes @bytes of a pattern, byte_at(pos,
 * seed) being the byte at @pos, with plain write(2); file_size() is stat(2)'s size;
 * expect_same_files() fails unless two files hold the same bytes; copy_through() copies @src
 * to @dst through @eng with pread and pwrite of @chunk bytes, and closes both.
 */
unsigned char byte_at(uint64_t pos, unsigned int seed);
void make_file(const char *path, uint64_t bytes, unsigned int seed);
uint64_t file_size(const char *path);
void expect_same_files(const char *a, const char *b);
void copy_through(struct nlru_engine *eng, const char *src, const char *dst, size_t chunk);

#endif /* NODELRU_TEST_HELPERS_H */
