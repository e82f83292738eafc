/* Shrinkers: shrink_slab's proportion and deferral, slab page charging, bad registrations. */
#include <criterion/criterion.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

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
	_Atomic unsigned int last_gfp, last_flags;
	_Atomic int last_priority;
	_Atomic long engine_thread_scans; /* scans nlru_in_engine_thread() said 1 in */
	bool stop;                        /* answer NLRU_SHRINK_STOP */
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
	atomic_store(&c->last_gfp, sc->gfp_mask);
	atomic_store(&c->last_flags, sc->flags);
	atomic_store(&c->last_priority, sc->priority);
	atomic_fetch_add(&c->engine_thread_scans, nlru_in_engine_thread());
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

/*
 * A shrinker hears whether kswapd or an allocating thread asks, with which flags (so that a
 * cache can honour NOFS and NOIO as Linux's do) and at what priority.
 */
Test(shrinker, the_control_says_who_asks_with_which_flags)
{
	static struct cache c;
	struct nlru_engine *eng = test_swap_engine(8, 0, false);
	struct nlru_shrinker *s;
	void *p;

	c.eng = eng;
	cache_fill(&c, NLRU_GFP_SLAB_RECLAIMABLE, 4096);
	s = register_cache(&c, 32, 0);
	cr_assert_eq(nlru_alloc_pages(eng, NLRU_GFP_NOFS, 0, 0, &p), 0, "%s", test_log_last);
	cr_assert_gt(c.scans, 0, "direct reclaim asked the cache");
	cr_expect_eq(c.last_gfp, NLRU_GFP_NOFS, "the allocation's flags: 0x%x", c.last_gfp);
	cr_expect_eq(c.last_flags, 0, "an allocating thread asked");
	cr_expect_eq(c.engine_thread_scans, 0, "the allocating thread is not the engine's");
	cr_expect(c.last_priority >= 0 && c.last_priority <= 12, "priority %d", c.last_priority);
	cr_assert_eq(nlru_free_pages(eng, p, 0), 0);

	/* Memory full again: a kswapd pass asks, with GFP_KERNEL. */
	cache_fill(&c, NLRU_GFP_SLAB_RECLAIMABLE, 4096);
	c.scans = 0;
	cr_assert_eq(nlru_kswapd_run(eng, 0), 0);
	cr_assert_gt(c.scans, 0, "kswapd asked the cache");
	cr_expect_eq(c.last_flags, NLRU_SHRINK_KSWAPD);
	cr_expect_eq(c.last_gfp, NLRU_GFP_KERNEL, "kswapd's flags: 0x%x", c.last_gfp);
	cr_assert_eq(nlru_shrinker_unregister(s), 0);
	cache_empty(&c);
	destroy_engine(eng);
}

/* The kswapd thread is one of the engine's own: nlru_in_engine_thread() says so there. */
Test(shrinker, kswapd_runs_shrinkers_in_an_engine_thread)
{
	static struct cache c;
	struct nlru_engine *eng = test_swap_engine(8, 0, true);
	struct nlru_shrinker *s;
	void *p;

	c.eng = eng;
	c.stop = true; /* the cache keeps its pages, so filling it never races a scan */
	s = register_cache(&c, 32, 0);
	cr_expect_eq(nlru_in_engine_thread(), 0);
	/* Allocations that never reclaim themselves: below the low watermark they wake kswapd. */
	cache_fill(&c, NLRU_GFP_SLAB_RECLAIMABLE, 4096);
	for (int round = 0; round < 1000 && !atomic_load(&c.engine_thread_scans); round++) {
		if (nlru_alloc_pages(eng, NLRU_GFP_NOWAIT | NLRU_GFP_NOWARN, 0, 0, &p) == 0)
			cr_assert_eq(nlru_free_pages(eng, p, 0), 0);
		usleep(10000);
	}
	cr_expect_gt(c.engine_thread_scans, 0, "kswapd never asked the cache from its thread");
	cr_assert_eq(nlru_shrinker_unregister(s), 0);
	cache_empty(&c);
	destroy_engine(eng);
}

/* A program built against version 0.1 registers its smaller def, and reclaim calls it. */
Test(shrinker, a_version_0_1_def_still_registers)
{
	static struct cache c;
	struct nlru_engine *eng = test_swap_engine(8, 0, false);
	/* What such a program passes: its def ends before name (set here, it must be unread). */
	struct nlru_shrinker_def def = {.size = NLRU_SHRINKER_DEF_SIZE_0_1,
					.count = cache_count,
					.scan = cache_scan,
					.arg = &c,
					.name = (const char *)1};
	struct nlru_shrinker *s;
	void *p;

	c.eng = eng;
	cache_fill(&c, NLRU_GFP_SLAB_RECLAIMABLE, 4096);
	cr_assert_eq(nlru_shrinker_register(eng, &def, &s), 0, "%s", test_log_last);
	cr_assert_eq(nlru_alloc_pages(eng, NLRU_GFP_KERNEL, 0, 0, &p), 0, "%s", test_log_last);
	cr_expect_gt(c.scans, 0, "direct reclaim asked the cache");
	cr_assert_eq(nlru_free_pages(eng, p, 0), 0);
	cr_assert_eq(nlru_shrinker_unregister(s), 0);
	cache_empty(&c);
	destroy_engine(eng);
}

Test(shrinker, bad_registrations_and_slab_flags)
{
	struct nlru_engine *eng = test_engine(8, NULL);
	struct nlru_shrinker_def def = {.size = sizeof(def), .count = cache_count};
	struct nlru_shrinker *s;
	void *p;

	/* Each refusal says what is wrong. */
	cr_expect_eq(nlru_shrinker_register(eng, &def, &s), -EINVAL, "no scan callback");
	cr_expect(strstr(test_log_last, "the scan callback is missing"), "%s", test_log_last);
	def.scan = cache_scan;
	def.size = 8;
	cr_expect_eq(nlru_shrinker_register(eng, &def, &s), -EINVAL, "short struct");
	cr_expect(strstr(test_log_last, "def->size is 8"), "%s", test_log_last);
	def.size = sizeof(def) + 8;
	cr_expect_eq(nlru_shrinker_register(eng, &def, &s), -EINVAL, "a later version's struct");
	cr_expect(strstr(test_log_last, "newer nodelru"), "%s", test_log_last);
	def.size = sizeof(def);
	def.seeks = -1;
	cr_expect_eq(nlru_shrinker_register(eng, &def, &s), -EINVAL, "negative seeks");
	cr_expect(strstr(test_log_last, "seeks is -1"), "%s", test_log_last);
	def.seeks = 0;
	def.batch = -5;
	cr_expect_eq(nlru_shrinker_register(eng, &def, &s), -EINVAL, "negative batch");
	cr_expect(strstr(test_log_last, "batch is -5"), "%s", test_log_last);
	def.batch = 0;
	cr_expect_eq(nlru_shrinker_register(eng, &def, NULL), -EINVAL, "no handle");
	cr_expect(strstr(test_log_last, "(out)"), "%s", test_log_last);
	def.flags = 0x80;
	cr_expect_eq(nlru_shrinker_register(eng, &def, &s), -EINVAL, "unknown flag 0x80");
	cr_expect(strstr(test_log_last, "unknown flags 0x80"), "%s", test_log_last);
	def.flags = NLRU_SHRINKER_NUMA_AWARE;
	cr_assert_eq(nlru_shrinker_register(eng, &def, &s), 0, "%s", test_log_last);
	cr_expect_eq(nlru_shrinker_unregister(s), 0);
	cr_expect_eq(nlru_shrinker_register(eng, NULL, &s), -EINVAL);
	cr_expect(strstr(test_log_last, "def is NULL"), "%s", test_log_last);
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

/*
 * A cache whose callbacks change the shrinker list, as a slab allocator does when a cache
 * empties or is torn down under pressure: unregister itself or another shrinker, register a
 * new one, or allocate from the engine.
 */
struct meddler {
	struct cache cache;
	struct nlru_shrinker *self;   /* set once registered */
	struct nlru_shrinker *victim; /* unregistered by the first scan, if set */
	bool unregister_self;         /* the first scan unregisters its own shrinker */
	bool unregister_in_count;     /* ... from the count callback instead */
	bool register_one;            /* the first scan registers another shrinker */
	bool allocate;                /* every scan allocates (and frees) an engine page */
	struct nlru_shrinker *registered;
	_Atomic int done;             /* the first callback did its deed */
	_Atomic int calls_after;      /* callbacks after it unregistered itself */
	_Atomic int depth, max_depth; /* nesting of scans in one thread */
	_Atomic long allocs, alloc_failures;
};

static _Thread_local int scan_depth;

static unsigned long meddler_count(void *arg, struct nlru_shrink_control *sc)
{
	struct meddler *m = arg;

	if (atomic_load(&m->done) && (m->unregister_self || m->unregister_in_count))
		atomic_fetch_add(&m->calls_after, 1);
	if (m->unregister_in_count && !atomic_exchange(&m->done, 1))
		cr_assert_eq(nlru_shrinker_unregister(m->self), 0);
	return cache_count(&m->cache, sc);
}

static unsigned long meddler_scan(void *arg, struct nlru_shrink_control *sc)
{
	struct meddler *m = arg;
	unsigned long freed;

	if (atomic_load(&m->done) && m->unregister_self)
		atomic_fetch_add(&m->calls_after, 1);
	if (++scan_depth > atomic_load(&m->max_depth))
		atomic_store(&m->max_depth, scan_depth);
	if (m->allocate) {
		void *p;

		/* A reclaiming allocation inside reclaim: served from the reserves, no recursion.
		 */
		if (nlru_alloc_pages(m->cache.eng, NLRU_GFP_KERNEL, 0, NLRU_NUMA_NO_NODE, &p) ==
		    0) {
			atomic_fetch_add(&m->allocs, 1);
			cr_assert_eq(nlru_free_pages(m->cache.eng, p, 0), 0);
		} else {
			atomic_fetch_add(&m->alloc_failures, 1);
		}
	}
	freed = cache_scan(&m->cache, sc);
	if (!m->unregister_in_count && !atomic_exchange(&m->done, 1)) {
		if (m->unregister_self)
			cr_assert_eq(nlru_shrinker_unregister(m->self), 0);
		if (m->victim)
			cr_assert_eq(nlru_shrinker_unregister(m->victim), 0);
		if (m->register_one) {
			struct nlru_shrinker_def def = {
				.size = sizeof(def), .count = virtual_count, .scan = virtual_scan};
			static struct virtual_cache v;

			def.arg = &v;
			cr_assert_eq(nlru_shrinker_register(m->cache.eng, &def, &m->registered), 0);
		}
	}
	scan_depth--;
	return freed;
}

static struct nlru_shrinker *register_meddler(struct nlru_engine *eng, struct meddler *m)
{
	struct nlru_shrinker_def def = {
		.size = sizeof(def), .count = meddler_count, .scan = meddler_scan, .arg = m};

	m->cache.eng = eng;
	cr_assert_eq(nlru_shrinker_register(eng, &def, &m->self), 0);
	return m->self;
}

/* Fill the engine with the meddler's cache, then make direct reclaim run its callbacks. */
static void meddle_by_direct_reclaim(struct nlru_engine *eng, struct meddler *m)
{
	void *p;

	cache_fill(&m->cache, NLRU_GFP_SLAB_RECLAIMABLE, 4096);
	cr_assert_gt(m->cache.n, 1500);
	cr_assert_eq(nlru_alloc_pages(eng, NLRU_GFP_KERNEL, 0, 0, &p), 0, "%s", test_log_last);
	cr_expect_eq(atomic_load(&m->done), 1, "the callback ran");
	cr_assert_eq(nlru_free_pages(eng, p, 0), 0);
}

/* A scan may unregister its own shrinker: it is never called again, and nothing hangs. */
Test(shrinker, scan_may_unregister_its_own_shrinker)
{
	static struct meddler m = {.unregister_self = true};
	struct nlru_engine *eng = test_swap_engine(8, 0, false);
	void *p;

	register_meddler(eng, &m);
	meddle_by_direct_reclaim(eng, &m);
	/* More pressure: the cache is not asked again. */
	cache_fill(&m.cache, NLRU_GFP_SLAB_RECLAIMABLE, 4096);
	cr_expect_eq(nlru_alloc_pages(eng, NLRU_GFP_KERNEL, 0, 0, &p), -ENOMEM);
	cr_expect_eq(atomic_load(&m.calls_after), 0, "no callback after the unregister returned");
	cache_empty(&m.cache);
	test_log_last[0] = '\0';
	destroy_engine(eng);
	cr_expect(!strstr(test_log_last, "still registered"), "%s", test_log_last);
}

/* The same from the count callback, which runs first. */
Test(shrinker, count_may_unregister_its_own_shrinker)
{
	static struct meddler m = {.unregister_in_count = true};
	struct nlru_engine *eng = test_swap_engine(8, 0, false);
	void *p;

	register_meddler(eng, &m);
	cache_fill(&m.cache, NLRU_GFP_SLAB_RECLAIMABLE, 4096);
	cr_expect_eq(nlru_alloc_pages(eng, NLRU_GFP_KERNEL, 0, 0, &p), -ENOMEM);
	cr_expect_eq(atomic_load(&m.done), 1, "the count callback ran");
	cr_expect_eq(atomic_load(&m.calls_after), 0, "no callback after the unregister returned");
	cr_expect_eq(m.cache.scans, 0, "the count that unregistered was not followed by a scan");
	cache_empty(&m.cache);
	destroy_engine(eng);
}

/* A scan may unregister another shrinker, or register a new one. */
Test(shrinker, scan_may_unregister_and_register_others)
{
	static struct meddler m = {.register_one = true};
	static struct cache other;
	struct nlru_engine *eng = test_swap_engine(8, 0, false);

	other.eng = eng;
	m.victim = register_cache(&other, 0, 0);
	register_meddler(eng, &m);
	meddle_by_direct_reclaim(eng, &m);
	cr_assert_neq(m.registered, NULL);
	cr_expect_eq(nlru_shrinker_unregister(m.registered), 0);
	cr_expect_eq(nlru_shrinker_unregister(m.self), 0);
	cache_empty(&m.cache);
	destroy_engine(eng);
}

/*
 * A scan run by kswapd that unregisters its shrinker: kswapd goes on balancing, and the
 * engine's destruction, which stops kswapd, returns.
 */
Test(shrinker, kswapd_scan_may_unregister_its_own_shrinker)
{
	static struct meddler m = {.unregister_self = true};
	struct nlru_engine *eng = test_swap_engine(8, 0, true);
	void *p;

	/* Filled first: kswapd, woken by the filling, must not scan a cache half made. */
	m.cache.eng = eng;
	cache_fill(&m.cache, NLRU_GFP_SLAB_RECLAIMABLE, 4096);
	/* Without direct reclaim: only kswapd, woken by the allocations, asks the cache. */
	register_meddler(eng, &m);
	for (int i = 0; i < 5000 && !atomic_load(&m.done); i++) {
		if (nlru_alloc_pages(eng, NLRU_GFP_NOWAIT, 0, 0, &p) == 0)
			cr_assert_eq(nlru_free_pages(eng, p, 0), 0);
		usleep(1000);
	}
	cr_assert_eq(atomic_load(&m.done), 1, "kswapd ran the scan");
	/* kswapd is not stuck: it reclaims again for a new wakeup. */
	cache_empty(&m.cache);
	cr_expect_eq(atomic_load(&m.calls_after), 0);
	destroy_engine(eng);
}

/*
 * A scan that allocates with direct reclaim allowed does not recurse into reclaim (the thread
 * is PF_MEMALLOC): from direct reclaim and from kswapd alike, no scan runs inside a scan.
 */
Test(shrinker, scan_that_allocates_does_not_recurse)
{
	static struct meddler m = {.allocate = true};
	struct nlru_engine *eng = test_swap_engine(8, 0, false);

	register_meddler(eng, &m);
	meddle_by_direct_reclaim(eng, &m);
	cache_fill(&m.cache, NLRU_GFP_SLAB_RECLAIMABLE, 4096);
	cr_assert_eq(nlru_kswapd_run(eng, 0), 0);
	cr_expect_gt(atomic_load(&m.allocs), 0, "the scans' allocations were served");
	cr_expect_eq(atomic_load(&m.alloc_failures), 0);
	cr_expect_eq(atomic_load(&m.max_depth), 1, "no scan inside a scan");
	cr_expect_eq(nlru_shrinker_unregister(m.self), 0);
	cache_empty(&m.cache);
	destroy_engine(eng);
}

/* A scan another thread is in; unregister from outside waits for it to return. */
struct slow_scan {
	_Atomic int entered, release, returned;
};

static unsigned long slow_count(void *arg, struct nlru_shrink_control *sc)
{
	return 1000;
}

static unsigned long slow_scan_fn(void *arg, struct nlru_shrink_control *sc)
{
	struct slow_scan *s = arg;

	if (atomic_exchange(&s->entered, 1))
		return NLRU_SHRINK_STOP;
	while (!atomic_load(&s->release))
		usleep(1000);
	atomic_store(&s->returned, 1);
	return NLRU_SHRINK_STOP;
}

struct unregister_job {
	struct nlru_shrinker *s;
	_Atomic int done;
};

static void *unregister_thread(void *arg)
{
	struct unregister_job *job = arg;

	nlru_shrinker_unregister(job->s);
	atomic_store(&job->done, 1);
	return NULL;
}

static void *kswapd_pass_thread(void *arg)
{
	nlru_kswapd_run(arg, 0);
	return NULL;
}

Test(shrinker, unregister_waits_for_calls_in_progress)
{
	static struct slow_scan s;
	struct nlru_engine *eng = test_swap_engine(8, 0, false);
	struct nlru_shrinker_def def = {
		.size = sizeof(def), .count = slow_count, .scan = slow_scan_fn, .arg = &s};
	struct unregister_job job = {0};
	pthread_t reclaimer, unregisterer;
	void *held[2048];
	int n = 0;

	cr_assert_eq(nlru_shrinker_register(eng, &def, &job.s), 0);
	/* Below the high watermark, so that a kswapd pass reclaims. */
	while (n < 2048 && nlru_alloc_pages(eng, NLRU_GFP_NOWAIT, 0, 0, &held[n]) == 0)
		n++;
	cr_assert_eq(pthread_create(&reclaimer, NULL, kswapd_pass_thread, eng), 0);
	while (!atomic_load(&s.entered))
		usleep(1000);
	cr_assert_eq(pthread_create(&unregisterer, NULL, unregister_thread, &job), 0);
	usleep(50000);
	cr_expect_eq(atomic_load(&job.done), 0, "unregister returned while the scan ran");
	atomic_store(&s.release, 1);
	pthread_join(unregisterer, NULL);
	cr_expect_eq(atomic_load(&s.returned), 1, "the scan had returned when unregister did");
	pthread_join(reclaimer, NULL);
	while (n--)
		cr_assert_eq(nlru_free_pages(eng, held[n], 0), 0);
	destroy_engine(eng);
}

/* A shrinker that claims 2^40 objects and frees none of them. */
struct liar {
	_Atomic long scans;
};

static unsigned long liar_count(void *arg, struct nlru_shrink_control *sc)
{
	return 1ul << 40;
}

static unsigned long liar_scan(void *arg, struct nlru_shrink_control *sc)
{
	atomic_fetch_add(&((struct liar *)arg)->scans, 1);
	return 0;
}

static _Atomic int futile_reports;
static char futile_report[512];

static void count_futile_reports(void *arg, enum nlru_log_level level, const char *msg)
{
	if (strstr(msg, "scans in a row freed none") && !atomic_fetch_add(&futile_reports, 1))
		snprintf(futile_report, sizeof(futile_report), "%s", msg);
	test_log(arg, level, msg);
}

/*
 * 4.8's target for such a shrinker is twice its count, 2^41 objects: every reclaim call would
 * scan it for hours.  Each call stops after SHRINK_FUTILE_BATCHES fruitless scans, the
 * allocations that reclaim go on, and the shrinker is reported once, by its name.
 */
Test(shrinker, a_count_that_scans_never_free_does_not_hang_reclaim)
{
	struct nlru_engine *eng;
	struct nlru_config cfg;
	static struct liar liar;
	char name[] = "liar-cache";
	struct nlru_shrinker_def def = {.size = sizeof(def),
					.count = liar_count,
					.scan = liar_scan,
					.arg = &liar,
					.name = name};
	struct nlru_shrinker *s;
	struct nlru_region *r;
	void *p;

	test_config(&cfg, 8, NULL);
	cfg.swap_mib = 48;
	cfg.kswapd = false;
	cfg.log = count_futile_reports;
	cr_assert_eq(nlru_engine_create(&cfg, &eng), 0, "%s", test_log_last);
	cr_assert_eq(nlru_shrinker_register(eng, &def, &s), 0);
	strcpy(name, "changed"); /* the engine keeps its own copy */
	cr_assert_eq(nlru_region_create(eng, 2 * 2048, 0, &r), 0);
	for (size_t i = 0; i < 2 * 2048; i++) {
		cr_assert_eq(nlru_region_pin(r, i, NLRU_PIN_WRITE, &p), 0, "page %zu", i);
		cr_assert_eq(nlru_region_unpin(r, i), 0);
	}
	cr_expect_gt(vmstat_value(eng, "allocstall_movable") +
			     vmstat_value(eng, "allocstall_normal"),
		     0, "direct reclaim ran");
	cr_expect_gt(atomic_load(&liar.scans), 0);
	cr_expect_eq(atomic_load(&futile_reports), 1, "reported once, not per call");
	cr_expect(strstr(futile_report, "shrinker liar-cache: "), "%s", futile_report);
	cr_assert_eq(nlru_region_destroy(r), 0);
	nlru_shrinker_unregister(s);
	destroy_engine(eng);
}
