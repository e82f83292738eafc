/* Shrinkers: shrink_slab's proportion and deferral, slab page charging, bad registrations. */
#include <criterion/criterion.h>
#include <stdatomic.h>
#include <string.h>

#include "helpers.h"
#include "shrinker.h"

TestSuite(shrinker, .timeout = 60);

/*
 * do_shrink_slab's target (4.8.0-4.8.15): delta = (4 * scanned / seeks) * freeable /
 * (eligible + 1); plus deferred work; capped at freeable / 2 when delta is small, and at
 * 2 * freeable always.
 */
Test(shrinker, target_follows_the_4_8_formula)
{
	/* 4*32/2 = 64; 64 * 1000 / 1001 = 63 (integer); 63 < 250, so min(63, 500) */
	cr_expect_eq(shrink_slab_target(1000, 0, 32, 1000, 2), 63);
	/* deferred 1000 adds up to 1063, but delta is small: at most half the cache */
	cr_expect_eq(shrink_slab_target(1000, 1000, 32, 1000, 2), 500);
	/* 4*2000/2 * 1000 / 1001 = 3996 > 2 * 1000: capped at twice the cache */
	cr_expect_eq(shrink_slab_target(1000, 0, 2000, 1000, 2), 2000);
	/* seeks 1 doubles the pressure: 128 * 1000 / 1001 = 127 */
	cr_expect_eq(shrink_slab_target(1000, 0, 32, 1000, 1), 127);
	/* delta 300 >= 1000/4: no half-cache cap, 300 + 400 deferred */
	cr_expect_eq(shrink_slab_target(1000, 400, 150, 1000, 2), 299 + 400);
}

/* A cache of engine pages that a shrinker can give back, one page per object. */
struct cache {
	struct nlru_engine *eng;
	void *pages[4096];
	_Atomic int n;
	_Atomic long scanned, scans, counts, last_nid;
	bool stop; /* answer NLRU_SHRINK_STOP */
};

static unsigned long cache_count(void *arg, struct nlru_shrink_control *sc)
{
	struct cache *c = arg;

	atomic_fetch_add(&c->counts, 1);
	atomic_store(&c->last_nid, sc->nid);
	return (unsigned long)atomic_load(&c->n);
}

static unsigned long cache_scan(void *arg, struct nlru_shrink_control *sc)
{
	struct cache *c = arg;
	unsigned long freed = 0;

	atomic_fetch_add(&c->scans, 1);
	if (c->stop)
		return NLRU_SHRINK_STOP;
	atomic_fetch_add(&c->scanned, (long)sc->nr_to_scan);
	while (freed < sc->nr_to_scan && atomic_load(&c->n) > 0) {
		int i = atomic_fetch_sub(&c->n, 1) - 1;

		cr_assert_eq(nlru_free_pages(c->eng, c->pages[i], 0), 0);
		freed++;
	}
	return freed;
}

static void cache_fill(struct cache *c, unsigned int gfp, int max)
{
	while (atomic_load(&c->n) < max && nlru_alloc_pages(c->eng, NLRU_GFP_NOWAIT | gfp, 0, 0,
							    &c->pages[atomic_load(&c->n)]) == 0)
		atomic_fetch_add(&c->n, 1);
}

static struct nlru_shrinker *register_cache(struct cache *c, long batch, unsigned int flags)
{
	struct nlru_shrinker_def def = {.size = sizeof(def),
					.count = cache_count,
					.scan = cache_scan,
					.arg = c,
					.batch = batch,
					.flags = flags};
	struct nlru_shrinker *s;

	cr_assert_eq(nlru_shrinker_register(c->eng, &def, &s), 0);
	return s;
}

static void cache_empty(struct cache *c)
{
	while (atomic_load(&c->n) > 0)
		cr_assert_eq(nlru_free_pages(c->eng, c->pages[atomic_fetch_sub(&c->n, 1) - 1], 0),
			     0);
}

/* Memory full of a shrinkable cache: an allocation succeeds by shrinking it. */
Test(shrinker, full_memory_of_cache_is_given_back)
{
	static struct cache c;
	struct nlru_engine *eng = test_swap_engine(8, 0, false);
	struct nlru_shrinker *s;
	void *p;

	c.eng = eng;
	cache_fill(&c, NLRU_GFP_SLAB_RECLAIMABLE, 4096);
	cr_assert_gt(c.n, 1500);
	cr_expect_eq(vmstat_value(eng, "nr_slab_reclaimable"), c.n);
	s = register_cache(&c, 32, 0);
	cr_assert_eq(nlru_alloc_pages(eng, NLRU_GFP_KERNEL, 0, 0, &p), 0, "%s", test_log_last);
	cr_expect_gt(c.scans, 0, "direct reclaim asked the cache");
	cr_expect_eq(vmstat_value(eng, "slabs_scanned"), c.scanned,
		     "slabs_scanned counts what the shrinker was asked to scan");
	cr_expect_eq(vmstat_value(eng, "nr_slab_reclaimable"), c.n, "freed pages are uncharged");
	cr_expect_eq(vmstat_value(eng, "pgsteal_direct"), 0, "no LRU page was reclaimed");
	cr_assert_eq(nlru_free_pages(eng, p, 0), 0);
	cr_assert_eq(nlru_shrinker_unregister(s), 0);
	cache_empty(&c);
	destroy_engine(eng);
}

/* A shrinker that cannot make progress, or has nothing, stops nothing else. */
Test(shrinker, stop_and_empty_shrinkers_are_tolerated)
{
	static struct cache busy, empty, real;
	struct nlru_engine *eng = test_swap_engine(8, 0, false);
	struct nlru_shrinker *a, *b, *r;
	void *p;

	busy.eng = empty.eng = real.eng = eng;
	busy.stop = true;
	cache_fill(&busy, NLRU_GFP_SLAB_UNRECLAIMABLE, 200);
	cache_fill(&real, NLRU_GFP_SLAB_RECLAIMABLE, 4096);
	a = register_cache(&busy, 0, 0);
	b = register_cache(&empty, 0, 0);
	r = register_cache(&real, 16, 0);
	cr_assert_eq(nlru_alloc_pages(eng, NLRU_GFP_KERNEL, 0, 0, &p), 0, "%s", test_log_last);
	cr_expect_gt(busy.scans, 0);
	cr_expect_eq(busy.scanned, 0, "STOP scanned nothing");
	cr_expect_gt(empty.counts, 0);
	cr_expect_eq(empty.scans, 0, "a cache of 0 objects is never scanned");
	cr_expect_gt(real.scanned, 0);
	cr_expect_eq(vmstat_value(eng, "slabs_scanned"), real.scanned);
	cr_expect_eq(vmstat_value(eng, "nr_slab_unreclaimable"), busy.n);
	cr_assert_eq(nlru_free_pages(eng, p, 0), 0);
	nlru_shrinker_unregister(a);
	nlru_shrinker_unregister(b);
	nlru_shrinker_unregister(r);
	cache_empty(&busy);
	cache_empty(&real);
	destroy_engine(eng);
}

/* NUMA-aware shrinkers hear which node is reclaimed; the others always hear node 0. */
Test(shrinker, numa_aware_shrinkers_see_the_node)
{
	static struct cache aware, plain;
	struct nlru_engine *eng = test_engine(8, "pack:2 numa:1 core:1 pu:1");
	struct nlru_shrinker *a, *b;
	void *held[4096];
	int n = 0;

	aware.eng = plain.eng = eng;
	aware.last_nid = plain.last_nid = -1;
	a = register_cache(&aware, 0, NLRU_SHRINKER_NUMA_AWARE);
	b = register_cache(&plain, 0, 0);
	/* Exhaust node 1 alone, so that reclaim runs there. */
	while (n < 4096 &&
	       nlru_alloc_pages(eng, NLRU_GFP_KERNEL | NLRU_GFP_THISNODE, 0, 1, &held[n]) == 0)
		n++;
	/* One direct reclaim; it freed nothing, so it ran a second round (may_thrash). */
	cr_expect_eq(vmstat_value(eng, "nlru_direct_reclaim"), 1);
	cr_expect_eq(vmstat_value(eng, "allocstall_normal"), 2);
	cr_expect_eq(aware.last_nid, 1);
	cr_expect_eq(plain.last_nid, 0);
	while (n--)
		cr_assert_eq(nlru_free_pages(eng, held[n], 0), 0);
	nlru_shrinker_unregister(a);
	nlru_shrinker_unregister(b);
	destroy_engine(eng);
}

Test(shrinker, bad_registrations_and_slab_flags)
{
	struct nlru_engine *eng = test_engine(8, NULL);
	struct nlru_shrinker_def def = {.size = sizeof(def), .count = cache_count};
	struct nlru_shrinker *s;
	void *p;

	cr_expect_eq(nlru_shrinker_register(eng, &def, &s), -EINVAL, "no scan callback");
	def.scan = cache_scan;
	def.size = 8;
	cr_expect_eq(nlru_shrinker_register(eng, &def, &s), -EINVAL, "short struct");
	def.size = sizeof(def);
	def.seeks = -1;
	cr_expect_eq(nlru_shrinker_register(eng, &def, &s), -EINVAL, "negative seeks");
	def.seeks = 0;
	def.flags = 0x80;
	cr_expect_eq(nlru_shrinker_register(eng, &def, &s), -EINVAL, "unknown flag 0x80");
	cr_expect(strstr(test_log_last, "unknown flags 0x80"), "%s", test_log_last);
	def.flags = NLRU_SHRINKER_NUMA_AWARE;
	cr_assert_eq(nlru_shrinker_register(eng, &def, &s), 0, "%s", test_log_last);
	cr_expect_eq(nlru_shrinker_unregister(s), 0);
	cr_expect_eq(nlru_shrinker_register(eng, NULL, &s), -EINVAL);
	cr_expect_eq(nlru_shrinker_unregister(NULL), 0);
	cr_expect_eq(nlru_alloc_pages(eng,
				      NLRU_GFP_KERNEL | NLRU_GFP_SLAB_RECLAIMABLE |
					      NLRU_GFP_SLAB_UNRECLAIMABLE,
				      0, 0, &p),
		     -EINVAL);
	cr_expect(strstr(test_log_last, "not both"), "%s", test_log_last);
	destroy_engine(eng);
}

/*
 * Destroy frees shrinkers left registered (their handles die with the engine) and says so;
 * the engine's own workingset shrinker is not the user's and draws no warning.
 */
Test(shrinker, destroy_reports_shrinkers_left_registered)
{
	struct nlru_engine *eng = test_engine(8, NULL);
	struct nlru_shrinker_def def = {
		.size = sizeof(def), .count = cache_count, .scan = cache_scan};
	struct nlru_shrinker *a, *b;

	test_log_last[0] = '\0';
	cr_assert_eq(nlru_engine_destroy(eng), 0, "%s", test_log_last);
	cr_expect(!strstr(test_log_last, "shrinker"), "no user shrinker, no word: %s",
		  test_log_last);
	eng = test_engine(8, NULL);
	cr_assert_eq(nlru_shrinker_register(eng, &def, &a), 0);
	cr_assert_eq(nlru_shrinker_register(eng, &def, &b), 0);
	cr_assert_eq(nlru_shrinker_unregister(a), 0);
	cr_assert_eq(nlru_engine_destroy(eng), 0, "%s", test_log_last);
	cr_expect(strstr(test_log_last, "1 shrinker was still registered"), "%s", test_log_last);
	check_no_leaks();
}

/* A cache of a million virtual objects that never shrinks, to measure what is asked of it. */
struct virtual_cache {
	_Atomic long scanned;
};

static unsigned long virtual_count(void *arg, struct nlru_shrink_control *sc)
{
	return 1000000;
}

static unsigned long virtual_scan(void *arg, struct nlru_shrink_control *sc)
{
	atomic_fetch_add(&((struct virtual_cache *)arg)->scanned, (long)sc->nr_to_scan);
	return sc->nr_to_scan;
}

/* Under the same LRU pressure a cache four times cheaper to rebuild is asked four times more. */
Test(shrinker, pressure_is_proportional_to_lru_scanning_and_seeks)
{
	struct nlru_engine *eng = test_swap_engine(8, 48, false);
	static struct virtual_cache cheap, dear;
	struct nlru_shrinker_def def = {
		.size = sizeof(def), .count = virtual_count, .scan = virtual_scan};
	struct nlru_shrinker *a, *b;
	struct nlru_region *r;
	void *p;

	def.arg = &cheap;
	def.seeks = 1;
	cr_assert_eq(nlru_shrinker_register(eng, &def, &a), 0);
	def.arg = &dear;
	def.seeks = 4;
	cr_assert_eq(nlru_shrinker_register(eng, &def, &b), 0);
	cr_assert_eq(nlru_region_create(eng, 4 * 2048, 0, &r), 0);
	for (size_t i = 0; i < 4 * 2048; i++) {
		cr_assert_eq(nlru_region_pin(r, i, NLRU_PIN_WRITE, &p), 0);
		cr_assert_eq(nlru_region_unpin(r, i), 0);
	}
	double ratio = (double)cheap.scanned / (double)dear.scanned;

	cr_expect_gt(dear.scanned, 10000, "the caches were asked (%ld)", dear.scanned);
	cr_expect(ratio > 3.5 && ratio < 4.5, "seeks 1 against seeks 4: %.2f times, want 4", ratio);
	cr_expect_eq(vmstat_value(eng, "slabs_scanned"), cheap.scanned + dear.scanned);
	cr_assert_eq(nlru_region_destroy(r), 0);
	nlru_shrinker_unregister(a);
	nlru_shrinker_unregister(b);
	destroy_engine(eng);
}
