/*
 * Per-CPU page lists: the fast pop and push of order-0 pages, and the locks that refills,
 * batch frees and drains take.  See pcp.c for how restartable sequences stand in for the
 * kernel's "preemption off".
 */
#ifndef NODELRU_PCP_H
#define NODELRU_PCP_H

#include <errno.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "cpu.h"
#include "debug.h"
#include "engine.h"
#include "mmzone.h"

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
			      (((old >> PCP_COUNT_BITS) + allocs) << PCP_COUNT_BITS) |
				      (uint64_t)count,
			      memory_order_relaxed);
}

#if defined(__x86_64__) && defined(HAVE_RSEQ) && !defined(__SANITIZE_THREAD__)
#define PCP_RSEQ 1
#else
#define PCP_RSEQ 0
#endif

STATIC_ASSERT(offsetof(struct per_cpu_pages, lock) == 0, "rseq sequences read the lock at 0");
STATIC_ASSERT(offsetof(struct per_cpu_pages, high) == 4, "rseq sequences read high at 4");
STATIC_ASSERT(offsetof(struct per_cpu_pages, state) == 8, "rseq sequences read state at 8");
STATIC_ASSERT(offsetof(struct per_cpu_pages, pfns) == 16, "rseq sequences read pfns at 16");

#if PCP_RSEQ
/*
 * The sequences.  Each one publishes its descriptor (start, length, abort handler) in
 * rseq->rseq_cs, then runs from label 1 to the single committing store before label 2.  The
 * abort handler must be preceded by the signature glibc registered (RSEQ_SIG, 0x53053053 on
 * x86), here hidden in a ud1 instruction as the kernel's selftests do.  A CPU id past the
 * lists the engine made (@ncpu: a CPU hot-added since) is "busy": the slow path takes over.
 */
#define RSEQ_CS_BEGIN                                                                              \
	".pushsection __rseq_cs, \"aw\"\n\t"                                                       \
	".balign 32\n\t"                                                                           \
	"3:\n\t"                                                                                   \
	".long 0x0, 0x0\n\t"                                                                       \
	".quad 1f, (2f - 1f), 4f\n\t"                                                              \
	".popsection\n\t"                                                                          \
	"leaq 3b(%%rip), %%rax\n\t"                                                                \
	"movq %%rax, %[rseq_cs]\n\t"                                                               \
	"1:\n\t"                                                                                   \
	"movl %[cpu_id], %%eax\n\t"                                                                \
	"cmpl %[ncpu], %%eax\n\t"                                                                  \
	"jae %l[busy]\n\t"                                                                         \
	"shlq $6, %%rax\n\t"                                                                       \
	"addq %[base], %%rax\n\t"                                                                  \
	"cmpl $0, (%%rax)\n\t"                                                                     \
	"jnz %l[busy]\n\t"

#define RSEQ_CS_END                                                                                \
	"2:\n\t"                                                                                   \
	".pushsection __rseq_failure, \"ax\"\n\t"                                                  \
	".byte 0x0f, 0xb9, 0x3d\n\t"                                                               \
	".long 0x53053053\n\t"                                                                     \
	"4:\n\t"                                                                                   \
	"jmp %l[busy]\n\t"                                                                         \
	".popsection\n\t"

static inline struct rseq *rseq_area(void)
{
	return (struct rseq *)((char *)__builtin_thread_pointer() + __rseq_offset);
}

/* pop: count > 0, take pfns[count - 1], commit state - 1 + one allocation. */
static inline int rseq_pop(struct per_cpu_pages *base, uint32_t ncpu, uint32_t *pfn)
{
	struct rseq *rs = rseq_area();

	__asm__ __volatile__ goto(RSEQ_CS_BEGIN "movq 8(%%rax), %%rcx\n\t"
						"testw %%cx, %%cx\n\t"
						"jz %l[busy]\n\t"
						"movzwl %%cx, %%edx\n\t"
						"movq 16(%%rax), %%rsi\n\t"
						"movl -4(%%rsi,%%rdx,4), %%edx\n\t"
						"movl %%edx, %[pfn]\n\t"
						"addq $0xffff, %%rcx\n\t"
						"movq %%rcx, 8(%%rax)\n\t" RSEQ_CS_END
				  :
				  : [rseq_cs] "m"(rs->rseq_cs), [cpu_id] "m"(rs->cpu_id),
				    [base] "r"(base), [ncpu] "r"(ncpu), [pfn] "m"(*pfn)
				  : "memory", "cc", "rax", "rcx", "rdx", "rsi"
				  : busy);
	return 0;
busy:
	return -EAGAIN;
}

/* push: count + 1 < high, write pfns[count], commit state + 1. */
static inline int rseq_push(struct per_cpu_pages *base, uint32_t ncpu, uint32_t pfn)
{
	struct rseq *rs = rseq_area();

	__asm__ __volatile__ goto(RSEQ_CS_BEGIN "movq 8(%%rax), %%rcx\n\t"
						"movzwl %%cx, %%edx\n\t"
						"leal 1(%%edx), %%esi\n\t"
						"cmpl 4(%%rax), %%esi\n\t"
						"jge %l[busy]\n\t"
						"movq 16(%%rax), %%rsi\n\t"
						"movl %[pfn], (%%rsi,%%rdx,4)\n\t"
						"addq $1, %%rcx\n\t"
						"movq %%rcx, 8(%%rax)\n\t" RSEQ_CS_END
				  :
				  : [rseq_cs] "m"(rs->rseq_cs), [cpu_id] "m"(rs->cpu_id),
				    [base] "r"(base), [ncpu] "r"(ncpu), [pfn] "r"(pfn)
				  : "memory", "cc", "rax", "rcx", "rdx", "rsi"
				  : busy);
	return 0;
busy:
	return -EAGAIN;
}

/*
 * pop_n: count > 0, k = min(count, @n), out[0 .. k) = pfns[count - 1] down to pfns[count - k]
 * (hottest first), commit state - k + k allocations.  @n >= 1.  Returns k.
 */
static inline int rseq_pop_n(struct per_cpu_pages *base, uint32_t ncpu, uint32_t *out, uint32_t n)
{
	struct rseq *rs = rseq_area();
	uint32_t k = 0;

	__asm__ __volatile__ goto(
		RSEQ_CS_BEGIN "movq 8(%%rax), %%rcx\n\t"
			      "movzwl %%cx, %%edx\n\t"
			      "testl %%edx, %%edx\n\t"
			      "jz %l[busy]\n\t"
			      "movl %[n], %%r8d\n\t"
			      "cmpl %%r8d, %%edx\n\t"
			      "cmovbl %%edx, %%r8d\n\t"
			      "movq 16(%%rax), %%rsi\n\t"
			      "xorl %%r9d, %%r9d\n\t"
			      "5:\n\t"
			      "movl -4(%%rsi,%%rdx,4), %%r10d\n\t"
			      "movl %%r10d, (%[out],%%r9,4)\n\t"
			      "decl %%edx\n\t"
			      "incl %%r9d\n\t"
			      "cmpl %%r8d, %%r9d\n\t"
			      "jb 5b\n\t"
			      "movl %%r8d, (%[k])\n\t"
			      "imulq $0xffff, %%r8, %%r8\n\t"
			      "addq %%r8, %%rcx\n\t"
			      "movq %%rcx, 8(%%rax)\n\t" RSEQ_CS_END
		:
		: [rseq_cs] "m"(rs->rseq_cs), [cpu_id] "m"(rs->cpu_id), [base] "r"(base),
		  [ncpu] "r"(ncpu), [out] "r"(out), [n] "r"(n), [k] "r"(&k)
		: "memory", "cc", "rax", "rcx", "rdx", "rsi", "r8", "r9", "r10"
		: busy);
	return (int)k;
busy:
	return -EAGAIN;
}

/* push_n: count + @n < high, pfns[count .. count + n) = in[0 .. n), commit state + n.  @n >= 1. */
static inline int rseq_push_n(struct per_cpu_pages *base, uint32_t ncpu, const uint32_t *in,
			      uint64_t n)
{
	struct rseq *rs = rseq_area();

	__asm__ __volatile__ goto(RSEQ_CS_BEGIN "movq 8(%%rax), %%rcx\n\t"
						"movzwl %%cx, %%edx\n\t"
						"leaq (%%rdx,%[n]), %%rsi\n\t"
						"movslq 4(%%rax), %%r8\n\t"
						"cmpq %%r8, %%rsi\n\t"
						"jge %l[busy]\n\t"
						"movq 16(%%rax), %%rsi\n\t"
						"leaq (%%rsi,%%rdx,4), %%rsi\n\t"
						"xorl %%r9d, %%r9d\n\t"
						"5:\n\t"
						"movl (%[in],%%r9,4), %%r10d\n\t"
						"movl %%r10d, (%%rsi,%%r9,4)\n\t"
						"incq %%r9\n\t"
						"cmpq %[n], %%r9\n\t"
						"jb 5b\n\t"
						"addq %[n], %%rcx\n\t"
						"movq %%rcx, 8(%%rax)\n\t" RSEQ_CS_END
				  :
				  : [rseq_cs] "m"(rs->rseq_cs), [cpu_id] "m"(rs->cpu_id),
				    [base] "r"(base), [ncpu] "r"(ncpu), [in] "r"(in), [n] "r"(n)
				  : "memory", "cc", "rax", "rcx", "rdx", "rsi", "r8", "r9", "r10"
				  : busy);
	return 0;
busy:
	return -EAGAIN;
}

/* lock this CPU's list: it is free, commit our token; the CPU is returned in *cpu. */
static inline int rseq_lock(struct per_cpu_pages *base, uint32_t ncpu, int token, int *cpu)
{
	struct rseq *rs = rseq_area();

	__asm__ __volatile__ goto(
		RSEQ_CS_BEGIN "movl %[cpu_id], %%ecx\n\t"
			      "movl %%ecx, %[cpu]\n\t"
			      "movl %[token], (%%rax)\n\t" RSEQ_CS_END
		:
		: [rseq_cs] "m"(rs->rseq_cs), [cpu_id] "m"(rs->cpu_id), [base] "r"(base),
		  [ncpu] "r"(ncpu), [token] "r"(token), [cpu] "m"(*cpu)
		: "memory", "cc", "rax", "rcx"
		: busy);
	return 0;
busy:
	return -EAGAIN;
}
#else
static inline int rseq_pop(struct per_cpu_pages *base, uint32_t ncpu, uint32_t *pfn)
{
	return -EAGAIN;
}

static inline int rseq_push(struct per_cpu_pages *base, uint32_t ncpu, uint32_t pfn)
{
	return -EAGAIN;
}

static inline int rseq_pop_n(struct per_cpu_pages *base, uint32_t ncpu, uint32_t *out, uint32_t n)
{
	return -EAGAIN;
}

static inline int rseq_push_n(struct per_cpu_pages *base, uint32_t ncpu, const uint32_t *in,
			      uint64_t n)
{
	return -EAGAIN;
}

static inline int rseq_lock(struct per_cpu_pages *base, uint32_t ncpu, int token, int *cpu)
{
	return -EAGAIN;
}
#endif

/*
 * The functions below work on one migrate type's lists of a zone, @base = zone->pageset[mt]
 * (every CPU's list of that type, indexed by CPU).
 *
 * The same with the lock, where restartable sequences are not available: a trylock around a
 * few loads and stores, which no lock order can make wait, and so left out of the check.
 */
int pcp_pop_locked(struct nlru_engine *eng, struct per_cpu_pages *base, uint32_t *pfn);
int pcp_push_locked(struct nlru_engine *eng, struct per_cpu_pages *base, uint32_t pfn);

/* Try to take the hottest page of this CPU's list.  0, or -EAGAIN (empty, locked). */
static inline int pcp_pop_fast(struct nlru_engine *eng, struct per_cpu_pages *base, uint32_t *pfn)
{
	if (likely(eng->pcp_rseq))
		return rseq_pop(base, (uint32_t)eng->nr_cpus, pfn);
	return pcp_pop_locked(eng, base, pfn);
}

/* Try to add a page to this CPU's list.  0, or -EAGAIN (would reach high, locked). */
static inline int pcp_push_fast(struct nlru_engine *eng, struct per_cpu_pages *base, uint32_t pfn)
{
	if (likely(eng->pcp_rseq))
		return rseq_push(base, (uint32_t)eng->nr_cpus, pfn);
	return pcp_push_locked(eng, base, pfn);
}

/*
 * Take up to @n (>= 1) of the hottest pages of this CPU's list in one sequence, hottest first
 * in @out.  How many (> 0), or -EAGAIN (empty, locked, no restartable sequences: the caller
 * locks the list instead).
 */
static inline int pcp_pop_n_fast(struct nlru_engine *eng, struct per_cpu_pages *base, uint32_t *out,
				 uint32_t n)
{
	if (likely(eng->pcp_rseq))
		return rseq_pop_n(base, (uint32_t)eng->nr_cpus, out, n);
	return -EAGAIN;
}

/* Add @n (>= 1) pages to this CPU's list in one sequence.  0, or -EAGAIN as above. */
static inline int pcp_push_n_fast(struct nlru_engine *eng, struct per_cpu_pages *base,
				  const uint32_t *in, uint32_t n)
{
	if (likely(eng->pcp_rseq))
		return rseq_push_n(base, (uint32_t)eng->nr_cpus, in, n);
	return -EAGAIN;
}

/* Lock the list of the CPU this thread runs on, returned in *cpu.  Order-checked (witness.h). */
struct per_cpu_pages *pcp_lock_local(struct nlru_engine *eng, struct per_cpu_pages *base, int *cpu);
/* Lock the list of any CPU (drains, readers). */
struct per_cpu_pages *pcp_lock_cpu(struct nlru_engine *eng, struct per_cpu_pages *base, int cpu);
void pcp_unlock(struct nlru_engine *eng, struct per_cpu_pages *pcp);

/* Decide at engine creation whether the lists use restartable sequences. */
void pcp_setup(struct nlru_engine *eng);

#endif /* NODELRU_PCP_H */
