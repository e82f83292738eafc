/*
 * jemalloc_stress - threads allocate, fill, check and free objects of a jemalloc arena on
 * engine pages while another thread touches anonymous memory larger than the engine, so that
 * kswapd and direct reclaim purge the arena through its shrinker at the same time.  Plain
 * main() (exit 0 pass, 1 fail) so it runs under ThreadSanitizer.
 *
 * Usage: jemalloc_stress [threads] [operations per thread]
 */
#include <jemalloc/jemalloc.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <nodelru/jemalloc.h>
#include <nodelru/vmstat.h>

#include "debug_log.h"

#define SLOTS 64
#define HOG_PAGES 6144 /* 1.5 times the engine */
/* Hog passes over its region after the workers end, at most, waiting for a purge. */
#define MAX_PASSES_AFTER_WORK 200

static atomic_long errors, failed_allocs, hog_rounds;
static atomic_bool done, hog_filled;

struct worker {
	int flags; /* MALLOCX_ARENA(arena) | MALLOCX_TCACHE_NONE */
	long ops;
	unsigned int seed;
};

static void check_and_free(unsigned char *p, size_t size, int flags)
{
	for (size_t i = 0; i < size; i += 256)
		if (p[i] != (unsigned char)(size ^ i))
			atomic_fetch_add(&errors, 1);
	dallocx(p, flags);
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	unsigned char *obj[SLOTS] = {0};
	size_t size[SLOTS] = {0};

	/* Only once the hog holds the engine full do the arena's extents meet reclaim: started
	 * sooner, the workers could finish before the hog (slow to start under TSan) got going,
	 * and nothing would purge. */
	while (!atomic_load(&hog_filled))
		sched_yield();
	for (long op = 0; op < w->ops; op++) {
		int s = rand_r(&w->seed) % SLOTS;

		if (obj[s])
			check_and_free(obj[s], size[s], w->flags);
		/* Mostly small objects, now and then one of up to 256 KiB. */
		size[s] = rand_r(&w->seed) % 8 ? 16 + (size_t)rand_r(&w->seed) % 2000
					       : (size_t)rand_r(&w->seed) % (256 << 10) + 1;
		obj[s] = mallocx(size[s], w->flags);
		if (!obj[s]) {
			atomic_fetch_add(&failed_allocs, 1);
			continue;
		}
		for (size_t i = 0; i < size[s]; i += 256)
			obj[s][i] = (unsigned char)(size[s] ^ i);
	}
	for (int s = 0; s < SLOTS; s++)
		if (obj[s])
			check_and_free(obj[s], size[s], w->flags);
	return NULL;
}

static void *hog_main(void *arg)
{
	struct nlru_region *region = arg;
	void *page;

	for (size_t round = 0; !atomic_load(&done); round++) {
		size_t i = round % HOG_PAGES;

		if (nlru_region_pin(region, i, NLRU_PIN_WRITE, &page) == 0) {
			*(size_t *)page = i;
			nlru_region_unpin(region, i);
		}
		if (round + 1 == HOG_PAGES)
			atomic_store(&hog_filled, true);
		atomic_store(&hog_rounds, (long)round + 1);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	int threads = argc > 1 ? atoi(argv[1]) : 3;
	long ops = argc > 2 ? atol(argv[2]) : 20000;
	struct nlru_jemalloc_config jcfg;
	struct nlru_jemalloc_stats st = {.size = sizeof(st),
					 .version = NLRU_JEMALLOC_STATS_VERSION};
	struct worker w[16];
	pthread_t tid[16], hog;
	struct nlru_config cfg;
	struct nlru_engine *eng;
	struct nlru_jemalloc *je;
	struct nlru_region *region;
	unsigned int arena;

	if (threads < 1 || threads > 16)
		return 1;
	nlru_config_init(&cfg);
	cfg.node_mib = 16;
	cfg.prefault = 1;
	cfg.log = debug_log;
	nlru_jemalloc_config_init(&jcfg);
	jcfg.dirty_decay_ms = -1; /* only pressure gives pages back */
	if (nlru_engine_create(&cfg, &eng) || nlru_jemalloc_create(eng, &jcfg, &je) ||
	    nlru_region_create(eng, HOG_PAGES, NLRU_NUMA_NO_NODE, &region))
		return 1;
	nlru_jemalloc_arena(je, &arena);
	pthread_create(&hog, NULL, hog_main, region);
	for (int t = 0; t < threads; t++) {
		w[t] = (struct worker){MALLOCX_ARENA(arena) | MALLOCX_TCACHE_NONE, ops,
				       7u + (unsigned)t};
		pthread_create(&tid[t], NULL, worker_main, &w[t]);
	}
	for (int t = 0; t < threads; t++)
		pthread_join(tid[t], NULL);
	/* The workers may finish before reclaim has come round to the arena's shrinker (under
	 * TSan they sometimes take less than a second): the memory they freed stays dirty, so
	 * the hog's pressure must purge it within a bounded number of passes. */
	long end_round = atomic_load(&hog_rounds) + MAX_PASSES_AFTER_WORK * HOG_PAGES;

	while (nlru_jemalloc_stats(je, &st) == 0 && !st.purges &&
	       atomic_load(&hog_rounds) < end_round)
		nanosleep(&(struct timespec){.tv_nsec = 1000000}, NULL);
	atomic_store(&done, true);
	pthread_join(hog, NULL);
	nlru_jemalloc_stats(je, &st);
	printf("jemalloc_stress: %d threads x %ld ops, %llu extents, %llu purges gave back %llu "
	       "pages, %ld failed allocations, %ld corrupt objects\n",
	       threads, ops, (unsigned long long)st.extents_alloc, (unsigned long long)st.purges,
	       (unsigned long long)st.pages_purged, atomic_load(&failed_allocs),
	       atomic_load(&errors));
	if (nlru_region_destroy(region) || nlru_jemalloc_destroy(je) || nlru_engine_destroy(eng))
		return 1;
	if (debug_log_reports()) {
		printf("jemalloc_stress: %ld debug checks failed (above)\n", debug_log_reports());
		return 1;
	}
	/* With dirty_decay_ms -1, only the purge shrinker gives pages back: it must have run. */
	if (!st.purges) {
		printf("jemalloc_stress: reclaim never purged the arena\n");
		return 1;
	}
	return atomic_load(&errors) ? 1 : 0;
}
