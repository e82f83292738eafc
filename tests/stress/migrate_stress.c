/*
 * migrate_stress - page migration, reclaim and pins at once: threads pin, write, verify and
 * unpin random pages of regions larger than the engine (so kswapd and direct reclaim swap
 * them), while another thread asks for blocks of orders 4 to 9, which direct compaction and
 * kcompactd make by migrating the region pages those threads pin.  A page must never be torn:
 * every pin sees what was last written.  Plain main() (exit 0 pass, 1 fail) so it runs under
 * ThreadSanitizer; it fails as well if nothing was migrated, since then it tested nothing.
 * Whether a run needs compaction depends on how the threads interleave (now and then every
 * block is found free), so the pinners run again, with new regions and seeds, until some
 * page has been migrated, MAX_ROUNDS times at most.
 *
 * Usage: migrate_stress [pinning threads] [operations per thread]
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nodelru/nodelru.h>
#include <nodelru/vmstat.h>

#include "debug_log.h"

#define NODE_MIB 24
#define PAGES 4608 /* per region: 0.75 of the engine, two of them overcommit it */
#define WORDS (4096 / sizeof(uint64_t))
#define HELD 8 /* high-order blocks held at once */
#define MAX_ROUNDS 10

struct pinner {
	struct nlru_engine *eng;
	long ops;
	unsigned int seed;
	uint32_t version[PAGES];
};

static atomic_bool done;
static atomic_long errors, refusals, mismatches, blocks_got, blocks_refused;

static uint64_t word(size_t page, uint32_t version, size_t w)
{
	return ((uint64_t)page << 40) ^ ((uint64_t)version << 16) ^ w;
}

static void *pinner_main(void *arg)
{
	struct pinner *p = arg;
	struct nlru_region *r;

	if (nlru_region_create(p->eng, PAGES, NLRU_NUMA_NO_NODE, &r)) {
		atomic_fetch_add(&errors, 1);
		return NULL;
	}
	for (long op = 0; op < p->ops; op++) {
		size_t i = (size_t)rand_r(&p->seed) % PAGES;
		bool write = rand_r(&p->seed) % 2;
		uint64_t *page;

		if (nlru_region_pin(r, i, write ? NLRU_PIN_WRITE : 0, (void **)&page)) {
			atomic_fetch_add(&refusals, 1);
			continue;
		}
		/* Every word: a migration that tore the page would show anywhere in it. */
		for (size_t k = 0; k < WORDS; k++)
			if (page[k] != (p->version[i] ? word(i, p->version[i], k) : 0)) {
				atomic_fetch_add(&mismatches, 1);
				break;
			}
		if (write) {
			p->version[i]++;
			for (size_t k = 0; k < WORDS; k++)
				page[k] = word(i, p->version[i], k);
		}
		nlru_region_unpin(r, i);
	}
	if (nlru_region_destroy(r))
		atomic_fetch_add(&errors, 1);
	return NULL;
}

/* Blocks of orders 4 to 9, each filled and checked, a few held at a time. */
static void *high_order_main(void *arg)
{
	struct nlru_engine *eng = arg;
	void *held[HELD] = {NULL};
	unsigned int order[HELD], seed = 99;

	while (!atomic_load(&done)) {
		int k = rand_r(&seed) % HELD;

		if (held[k]) {
			uint64_t *q = held[k];

			if (q[0] != (uint64_t)(uintptr_t)q ||
			    q[(512u << order[k]) - 1] != (uint64_t)(uintptr_t)q)
				atomic_fetch_add(&mismatches, 1);
			if (nlru_free_pages(eng, held[k], order[k]))
				atomic_fetch_add(&errors, 1);
			held[k] = NULL;
			continue;
		}
		order[k] = 4 + (unsigned int)(rand_r(&seed) % 6);
		if (nlru_alloc_pages(eng, NLRU_GFP_KERNEL | NLRU_GFP_NOWARN, order[k],
				     NLRU_NUMA_NO_NODE, &held[k])) {
			atomic_fetch_add(&blocks_refused, 1);
			held[k] = NULL;
			continue;
		}
		atomic_fetch_add(&blocks_got, 1);
		((uint64_t *)held[k])[0] = (uint64_t)(uintptr_t)held[k];
		((uint64_t *)held[k])[(512u << order[k]) - 1] = (uint64_t)(uintptr_t)held[k];
	}
	for (int k = 0; k < HELD; k++)
		if (held[k] && nlru_free_pages(eng, held[k], order[k]))
			atomic_fetch_add(&errors, 1);
	return NULL;
}

int main(int argc, char **argv)
{
	int threads = argc > 1 ? atoi(argv[1]) : 2;
	long ops = argc > 2 ? atol(argv[2]) : 20000;
	struct nlru_vmstat snap = {.size = sizeof(snap), .version = NLRU_VMSTAT_VERSION};
	struct pinner *p = calloc((size_t)threads, sizeof(*p));
	pthread_t *tid = calloc((size_t)threads, sizeof(*tid)), high;
	int64_t migrated = 0, stalls = 0, swapped = 0;
	int rounds;
	struct nlru_engine *eng;
	struct nlru_config cfg;

	nlru_config_init(&cfg);
	cfg.node_mib = NODE_MIB;
	cfg.dma32_pct = 0; /* one zone: every block must come from where the pins are */
	cfg.swap_mib = (long)threads * (PAGES * 4096 >> 20) + NODE_MIB;
	cfg.log = debug_log;
	if (!p || !tid || nlru_engine_create(&cfg, &eng))
		return 1;
	pthread_create(&high, NULL, high_order_main, eng);
	for (rounds = 0; rounds < MAX_ROUNDS && !migrated; rounds++) {
		for (int i = 0; i < threads; i++) {
			memset(&p[i], 0, sizeof(p[i]));
			p[i].eng = eng;
			p[i].ops = ops;
			p[i].seed = 7u * (unsigned int)(i + rounds * threads) + 3;
			pthread_create(&tid[i], NULL, pinner_main, &p[i]);
		}
		for (int i = 0; i < threads; i++)
			pthread_join(tid[i], NULL);
		nlru_vmstat_read(eng, &snap);
		nlru_vmstat_get(&snap, "pgmigrate_success", &migrated);
	}
	atomic_store(&done, true);
	pthread_join(high, NULL);
	nlru_vmstat_read(eng, &snap);
	nlru_vmstat_get(&snap, "pgmigrate_success", &migrated);
	nlru_vmstat_get(&snap, "compact_stall", &stalls);
	nlru_vmstat_get(&snap, "pswpout", &swapped);
	if (nlru_engine_destroy(eng))
		atomic_fetch_add(&errors, 1);
	if (debug_log_reports())
		atomic_fetch_add(&errors, debug_log_reports());
	printf("migrate_stress: %d round(s) of %d threads x %ld pins, %ld blocks of orders 4-9 "
	       "(%ld refused), %lld pages migrated in %lld direct compactions, %lld swapped out; "
	       "%ld torn or wrong pages, %ld refused pins, %ld other errors\n",
	       rounds, threads, ops, atomic_load(&blocks_got), atomic_load(&blocks_refused),
	       (long long)migrated, (long long)stalls, (long long)swapped, atomic_load(&mismatches),
	       atomic_load(&refusals), atomic_load(&errors));
	free(p);
	free(tid);
	if (atomic_load(&mismatches) || atomic_load(&refusals) || atomic_load(&errors))
		return 1;
	return migrated == 0 || swapped == 0; /* nothing moved: it tested nothing */
}
