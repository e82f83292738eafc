/*
 * Per-CPU page lists: the fast pop and push of order-0 pages, and the locks that refills,
 * batch frees and drains take.  See pcp.c for how restartable sequences stand in for the
 * kernel's "preemption off".
 */
#ifndef NODELRU_PCP_H
#define NODELRU_PCP_H

#include "engine.h"

static inline int pcp_count(const struct per_cpu_pages *pcp)
{
	return (int)(atomic_load_explicit(&pcp->state, memory_order_relaxed) & PCP_COUNT_MASK);
}

static inline uint64_t pcp_allocs(const struct per_cpu_pages *pcp)
{
	return atomic_load_explicit(&pcp->state, memory_order_relaxed) >> PCP_COUNT_BITS;
}

/* For the lock holder: set count, adding @allocs to the allocation count. */
static inline void pcp_set_count(struct per_cpu_pages *pcp, int count, uint64_t allocs)
{
	uint64_t old = atomic_load_explicit(&pcp->state, memory_order_relaxed);

	atomic_store_explicit(&pcp->state,
			      (((old >> PCP_COUNT_BITS) + allocs) << PCP_COUNT_BITS) | (uint64_t)count,
			      memory_order_relaxed);
}

/* Try to take the hottest page of this CPU's list.  0, or -EAGAIN (empty, locked). */
int pcp_pop_fast(struct nlru_engine *eng, struct zone *zone, uint32_t *pfn);
/* Try to add a page to this CPU's list.  0, or -EAGAIN (would reach high, locked). */
int pcp_push_fast(struct nlru_engine *eng, struct zone *zone, uint32_t pfn);

/* Lock the list of the CPU this thread runs on, returned in *cpu. */
struct per_cpu_pages *pcp_lock_local(struct nlru_engine *eng, struct zone *zone, int *cpu);
/* Lock the list of any CPU (drains, readers). */
struct per_cpu_pages *pcp_lock_cpu(struct nlru_engine *eng, struct zone *zone, int cpu);
void pcp_unlock(struct per_cpu_pages *pcp);

/* Decide at engine creation whether the lists use restartable sequences. */
void pcp_setup(struct nlru_engine *eng);

#endif /* NODELRU_PCP_H */
