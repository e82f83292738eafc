/*
 * The CPU the calling thread runs on, for indexing per-CPU data.  glibc 2.35+ registers rseq
 * for every thread, and the kernel keeps rseq->cpu_id current: one load (under 1 ns here)
 * instead of sched_getcpu()'s 3 ns.  The answer may be stale by the time it is used, which is
 * fine: per-CPU data is always locked, the CPU id only spreads threads over the locks.
 */
#ifndef NODELRU_CPU_H
#define NODELRU_CPU_H

#include <sched.h>

#if defined(__has_include)
#if __has_include(<sys/rseq.h>)
#include <sys/rseq.h>
#define HAVE_RSEQ 1
#endif
#endif

/* The rseq CPU id, or -1 when this thread has no rseq registration. */
static inline int current_cpu_rseq(void)
{
#ifdef HAVE_RSEQ
	if (__rseq_size > 0) {
		const struct rseq *rs =
			(const struct rseq *)((char *)__builtin_thread_pointer() + __rseq_offset);

		return (int)__atomic_load_n(&rs->cpu_id, __ATOMIC_RELAXED);
	}
#endif
	return -1;
}

static inline int current_cpu(void)
{
#ifdef HAVE_RSEQ
	if (__rseq_size > 0) {
		const struct rseq *rs =
			(const struct rseq *)((char *)__builtin_thread_pointer() + __rseq_offset);
		int cpu = (int)__atomic_load_n(&rs->cpu_id, __ATOMIC_RELAXED);

		if (cpu >= 0)
			return cpu;
	}
#endif
	return sched_getcpu();
}

#endif /* NODELRU_CPU_H */
