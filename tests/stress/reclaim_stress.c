/*
 * reclaim_stress - threads pin, write, verify and unpin random pages of their own regions,
 * each larger than the engine, while kswapd reclaims and swaps; a bounded number of
 * operations.  Plain main() (exit 0 pass, 1 fail) so it runs under ThreadSanitizer.  Swap
 * holds every region whole, so a pin is never refused for want of swap: a refused pin, a
 * page holding the wrong data and any other failing call are each counted and reported apart.
 *
 * Usage: reclaim_stress [threads] [operations per thread]
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <nodelru/nodelru.h>
#include <nodelru/vmstat.h>

#include "debug_log.h"

#define PAGES 3072 /* per region: 1.5 times the engine */
#define WORDS (4096 / sizeof(uint64_t))

struct worker {
	struct nlru_engine *eng;
	long ops;
	unsigned int seed;
	uint32_t version[PAGES]; /* what each page should hold; 0: never written */
};

static atomic_long errors;     /* calls that failed, other than pins */
static atomic_long refusals;   /* pins refused (-ENOMEM: no memory, no swap) */
static atomic_long mismatches; /* words that did not hold what was last written */

static uint64_t word(size_t page, uint32_t version, size_t w)
{
	return ((uint64_t)page << 40) ^ ((uint64_t)version << 16) ^ w;
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct nlru_region *r;

	if (nlru_region_create(w->eng, PAGES, NLRU_NUMA_NO_NODE, &r)) {
		atomic_fetch_add(&errors, 1);
		return NULL;
	}
	for (long op = 0; op < w->ops; op++) {
		size_t i = (size_t)rand_r(&w->seed) % PAGES;
		bool write = rand_r(&w->seed) % 2;
		uint64_t *p;

		if (nlru_region_pin(r, i, write ? NLRU_PIN_WRITE : 0, (void **)&p)) {
			atomic_fetch_add(&refusals, 1);
			continue;
		}
		for (size_t k = 0; k < WORDS; k += 64)
			if (p[k] != (w->version[i] ? word(i, w->version[i], k) : 0))
				atomic_fetch_add(&mismatches, 1);
		if (write) {
			w->version[i]++;
			for (size_t k = 0; k < WORDS; k += 64)
				p[k] = word(i, w->version[i], k);
		}
		nlru_region_unpin(r, i);
	}
	if (nlru_region_destroy(r))
		atomic_fetch_add(&errors, 1);
	return NULL;
}

int main(int argc, char **argv)
{
	int threads = argc > 1 ? atoi(argv[1]) : 3;
	long ops = argc > 2 ? atol(argv[2]) : 20000;
	struct nlru_vmstat snap = {.size = sizeof(snap), .version = NLRU_VMSTAT_VERSION};
	struct worker *w = calloc((size_t)threads, sizeof(*w));
	pthread_t *tid = calloc((size_t)threads, sizeof(*tid));
	struct nlru_engine *eng;
	struct nlru_config cfg;
	int64_t out = 0;

	nlru_config_init(&cfg);
	cfg.node_mib = 8;
	/* Every region whole in swap, and the engine's memory over: nothing runs out. */
	cfg.swap_mib = (long)threads * (PAGES * 4096 >> 20) + cfg.node_mib;
	cfg.log = debug_log;
	if (!w || !tid || nlru_engine_create(&cfg, &eng))
		return 1;
	for (int i = 0; i < threads; i++) {
		w[i].eng = eng;
		w[i].ops = ops;
		w[i].seed = 31u * (unsigned int)i + 5;
		pthread_create(&tid[i], NULL, worker_main, &w[i]);
	}
	for (int i = 0; i < threads; i++)
		pthread_join(tid[i], NULL);
	nlru_vmstat_read(eng, &snap);
	nlru_vmstat_get(&snap, "pswpout", &out);
	if (nlru_engine_destroy(eng))
		atomic_fetch_add(&errors, 1);
	if (debug_log_reports())
		atomic_fetch_add(&errors, debug_log_reports());
	printf("reclaim_stress: %d threads x %ld operations, %lld pages swapped out, "
	       "%ld wrong words, %ld refused pins, %ld other errors\n",
	       threads, ops, (long long)out, atomic_load(&mismatches), atomic_load(&refusals),
	       atomic_load(&errors));
	free(w);
	free(tid);
	if (atomic_load(&mismatches) || atomic_load(&refusals) || atomic_load(&errors))
		return 1;
	return out == 0; /* nothing was swapped: the test did not test reclaim */
}
