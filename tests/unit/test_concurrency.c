/*
 * Several threads allocate and free a million mixed-order blocks at once; afterwards every
 * page is accounted for and every free list is whole.
 */
#include <criterion/criterion.h>
#include <pthread.h>
#include <stdlib.h>

#include "helpers.h"
#include "vmstat.h"

TestSuite(concurrency, .timeout = 120);

#define NR_THREADS 4
#define OPS_PER_THREAD (1000000 / NR_THREADS)
#define HELD 256

struct worker {
	struct nlru_engine *eng;
	int nid; /* preferred node, or NLRU_NUMA_NO_NODE */
	unsigned int seed;
	long allocated_pages;
	long failures;
	long errors;
};

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	void *addr[HELD] = {0};
	unsigned int order[HELD] = {0};

	for (long op = 0; op < OPS_PER_THREAD; op++) {
		int slot = rand_r(&w->seed) % HELD;

		if (addr[slot]) {
			if (nlru_free_pages(w->eng, addr[slot], order[slot]))
				w->errors++;
			w->allocated_pages -= 1l << order[slot];
			addr[slot] = NULL;
			continue;
		}
		order[slot] = (unsigned int)(rand_r(&w->seed) % 5);
		int r = nlru_alloc_pages(w->eng, NLRU_GFP_KERNEL, order[slot], w->nid, &addr[slot]);
		if (r == -ENOMEM) {
			w->failures++;
			addr[slot] = NULL;
		} else if (r) {
			w->errors++;
		} else {
			*(volatile char *)addr[slot] = 1;
			w->allocated_pages += 1l << order[slot];
		}
	}
	for (int slot = 0; slot < HELD; slot++)
		if (addr[slot] && nlru_free_pages(w->eng, addr[slot], order[slot]) == 0)
			w->allocated_pages -= 1l << order[slot];
	return NULL;
}

/* Returns how many allocations failed with -ENOMEM. */
static long run_workers(struct nlru_engine *eng, bool spread_nodes)
{
	long failures = 0;
	struct nlru_vmstat snap = {.size = sizeof(snap), .version = NLRU_VMSTAT_VERSION};
	struct worker w[NR_THREADS];
	pthread_t tid[NR_THREADS];
	uint64_t alloc = 0;

	for (int i = 0; i < NR_THREADS; i++) {
		w[i] = (struct worker){.eng = eng,
				       .seed = 1234u + (unsigned int)i,
				       .nid = spread_nodes ? i % nlru_engine_nr_nodes(eng)
							   : NLRU_NUMA_NO_NODE};
		cr_assert_eq(pthread_create(&tid[i], NULL, worker_main, &w[i]), 0);
	}
	for (int i = 0; i < NR_THREADS; i++) {
		pthread_join(tid[i], NULL);
		failures += w[i].failures;
		cr_expect_eq(w[i].errors, 0, "thread %d saw %ld unexpected errors", i, w[i].errors);
		cr_expect_eq(w[i].allocated_pages, 0, "thread %d still holds %ld pages", i,
			     w[i].allocated_pages);
	}
	nlru_drain_pages(eng);
	check_free_lists(eng);
	check_pages_accounted(eng, 0);
	cr_assert_eq(nlru_vmstat_read(eng, &snap), 0);
	for (int z = 0; z < NLRU_MAX_NR_ZONES; z++)
		alloc += snap.events[NLRU_PGALLOC + z];
	cr_expect_eq(alloc, snap.events[NLRU_PGFREE], "pgalloc %lu pages, pgfree %lu pages",
		     (unsigned long)alloc, (unsigned long)snap.events[NLRU_PGFREE]);
	cr_expect_eq(snap.events[NLRU_BAD_FREE], 0);
	cr_expect_eq(snap.events[NLRU_ALLOC_FAIL], (uint64_t)failures);
	return failures;
}

Test(concurrency, million_mixed_operations_one_node)
{
	struct nlru_engine *eng = test_engine(32, NULL);

	run_workers(eng, false);
	destroy_engine(eng);
}

Test(concurrency, million_mixed_operations_two_nodes)
{
	struct nlru_engine *eng = test_engine(16, "pack:2 numa:1 core:1 pu:1");

	run_workers(eng, true);
	destroy_engine(eng);
}

/* Small engine, so threads drive it to the min watermark and the slow path all the time. */
Test(concurrency, pressure_fails_cleanly_and_loses_nothing)
{
	struct nlru_engine *eng = test_engine(4, NULL);
	static void *held[1024];
	int n = 0;

	/* Whether the threads themselves hit -ENOMEM depends on how they interleave. */
	run_workers(eng, false);
	/* One thread alone certainly does: it fails cleanly and leaves everything accounted. */
	while (n < 1024 && nlru_alloc_pages(eng, NLRU_GFP_KERNEL, 0, 0, &held[n]) == 0)
		n++;
	cr_expect_lt(n, 1024, "a 1024-page engine cannot hand out 1024 pages");
	cr_expect_gt(vmstat_value(eng, "nlru_alloc_fail"), 0);
	check_pages_accounted(eng, n);
	while (n--)
		cr_assert_eq(nlru_free_pages(eng, held[n], 0), 0);
	destroy_engine(eng);
}
