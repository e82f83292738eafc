/*
 * alloc_stress - threads allocate, write, verify and free pages of mixed orders on every node
 * for a bounded number of operations, while another thread keeps draining the per-CPU lists
 * and reading the counters.  A plain main() (exit 0 pass, 1 fail), so it runs under
 * ThreadSanitizer, which Criterion cannot.
 *
 * Usage: alloc_stress [threads] [operations per thread]
 */
#include <errno.h>
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

#define HELD 64

struct worker {
	struct nlru_engine *eng;
	unsigned int seed;
	long ops;
	long failures;
};

static atomic_long errors;
static atomic_bool done;

static void fail(const char *what, long detail)
{
	fprintf(stderr, "alloc_stress: %s (%ld)\n", what, detail);
	atomic_fetch_add(&errors, 1);
}

/* Each block carries its own address and order in its first and last word. */
static void stamp(void *p, unsigned int order)
{
	uintptr_t *w = p;
	size_t n = (4096ul << order) / sizeof(*w);

	w[0] = (uintptr_t)p ^ order;
	w[n - 1] = ~(uintptr_t)p;
}

static void verify(void *p, unsigned int order)
{
	uintptr_t *w = p;
	size_t n = (4096ul << order) / sizeof(*w);

	if (w[0] != ((uintptr_t)p ^ order) || w[n - 1] != ~(uintptr_t)p)
		fail("block contents changed while it was allocated", (long)order);
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	void *addr[HELD] = {0};
	unsigned int order[HELD] = {0};
	int nodes = nlru_engine_nr_nodes(w->eng);

	for (long op = 0; op < w->ops; op++) {
		int slot = rand_r(&w->seed) % HELD;
		int r;

		if (addr[slot]) {
			verify(addr[slot], order[slot]);
			if ((r = nlru_free_pages(w->eng, addr[slot], order[slot])))
				fail("free refused", r);
			addr[slot] = NULL;
			continue;
		}
		order[slot] = (unsigned int)(rand_r(&w->seed) % 4);
		r = nlru_alloc_pages(w->eng, NLRU_GFP_KERNEL, order[slot], rand_r(&w->seed) % nodes,
				     &addr[slot]);
		if (r == -ENOMEM) {
			w->failures++;
			addr[slot] = NULL;
		} else if (r) {
			fail("alloc error", r);
		} else {
			stamp(addr[slot], order[slot]);
		}
	}
	for (int slot = 0; slot < HELD; slot++)
		if (addr[slot] && nlru_free_pages(w->eng, addr[slot], order[slot]))
			fail("final free refused", slot);
	return NULL;
}

static void *drainer_main(void *arg)
{
	struct nlru_engine *eng = arg;
	struct nlru_vmstat snap = {.size = sizeof(snap), .version = NLRU_VMSTAT_VERSION};

	while (!atomic_load(&done)) {
		nlru_drain_pages(eng);
		if (nlru_vmstat_read(eng, &snap))
			fail("vmstat_read", 0);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	int threads = argc > 1 ? atoi(argv[1]) : 4;
	long ops = argc > 2 ? atol(argv[2]) : 200000;
	struct nlru_vmstat snap = {.size = sizeof(snap), .version = NLRU_VMSTAT_VERSION};
	struct worker *w = calloc((size_t)threads, sizeof(*w));
	pthread_t *tid = calloc((size_t)threads, sizeof(*tid)), drainer;
	struct nlru_engine *eng;
	struct nlru_config cfg;
	uint64_t alloc = 0;

	nlru_config_init(&cfg);
	cfg.node_mib = 8;
	cfg.topology = "pack:2 numa:1 core:1 pu:1";
	cfg.log = debug_log;
	if (nlru_engine_create(&cfg, &eng))
		return 1;
	pthread_create(&drainer, NULL, drainer_main, eng);
	for (int i = 0; i < threads; i++) {
		w[i] = (struct worker){.eng = eng, .seed = 77u * (unsigned int)i + 1, .ops = ops};
		pthread_create(&tid[i], NULL, worker_main, &w[i]);
	}
	for (int i = 0; i < threads; i++)
		pthread_join(tid[i], NULL);
	atomic_store(&done, true);
	pthread_join(drainer, NULL);

	nlru_vmstat_read(eng, &snap);
	for (int z = 0; z < NLRU_MAX_NR_ZONES; z++)
		alloc += snap.events[NLRU_PGALLOC + z];
	if (alloc != snap.events[NLRU_PGFREE])
		fail("pgalloc and pgfree differ", (long)(alloc - snap.events[NLRU_PGFREE]));
	if (snap.events[NLRU_BAD_FREE])
		fail("frees were refused", (long)snap.events[NLRU_BAD_FREE]);
	if (nlru_engine_destroy(eng))
		fail("destroy refused: pages leaked", 0);
	if (debug_log_reports())
		fail("debug checks failed (above)", debug_log_reports());
	printf("alloc_stress: %d threads x %ld operations, %lu pages allocated, %s\n", threads, ops,
	       (unsigned long)alloc, atomic_load(&errors) ? "FAILED" : "ok");
	free(w);
	free(tid);
	return atomic_load(&errors) ? 1 : 0;
}
