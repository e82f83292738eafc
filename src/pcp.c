/*
 * pcp.c - per-CPU page lists without a lock on the fast path.
 *
 * The kernel makes a per-CPU list safe by disabling preemption around it.  Userspace cannot,
 * but Linux's restartable sequences (rseq, registered by glibc for every thread) give the
 * same guarantee after the fact: a short assembly sequence that reads the current CPU, works
 * on that CPU's list and ends with one store is restarted by the kernel if the thread is
 * preempted, migrated or signalled before that store.  So pop and push cost a few loads and
 * one store, no atomic instruction.
 *
 * Everything slower (refill from the buddy lists, the batch free at high, drains) takes the
 * list's lock, and the fast sequences back off while it is held:
 *  - a thread locks its own CPU's list inside a sequence too (check free, store its token),
 *    so no other sequence of that CPU can be half-way through;
 *  - a thread locking another CPU's list (a drain) swaps its token in atomically, then has
 *    membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED_RSEQ) restart whatever sequence that CPU is
 *    in, and finally checks that its token is still there (a local locker may have won).
 * Where rseq or that membarrier command is missing (other architectures, old kernels,
 * valgrind, ThreadSanitizer builds), every access takes the lock with compare-and-swap.
 */
#include <errno.h>
#include <string.h>
#include <linux/membarrier.h>
#include <stddef.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "pcp.h"

#if defined(__x86_64__) && defined(HAVE_RSEQ) && !defined(__SANITIZE_THREAD__)
#define PCP_RSEQ 1
#else
#define PCP_RSEQ 0
#endif

STATIC_ASSERT(offsetof(struct per_cpu_pages, lock) == 0, "rseq sequences read the lock at 0");
STATIC_ASSERT(offsetof(struct per_cpu_pages, high) == 4, "rseq sequences read high at 4");
STATIC_ASSERT(offsetof(struct per_cpu_pages, state) == 8, "rseq sequences read state at 8");
STATIC_ASSERT(offsetof(struct per_cpu_pages, pfns) == 16, "rseq sequences read pfns at 16");

/* A lock holder's token: any non-zero value unique to the thread. */
static __thread char lock_token_anchor;
#define LOCK_TOKEN ((int)(((uintptr_t)&lock_token_anchor >> 4) | 1))

static int membarrier(int cmd, unsigned int flags, int cpu)
{
	return (int)syscall(__NR_membarrier, cmd, flags, cpu);
}

void pcp_setup(struct nlru_engine *eng)
{
	eng->pcp_rseq = false;
	if (!PCP_RSEQ || current_cpu_rseq() < 0)
		return;
	if (!(membarrier(MEMBARRIER_CMD_QUERY, 0, 0) & MEMBARRIER_CMD_PRIVATE_EXPEDITED_RSEQ))
		return;
	eng->pcp_rseq = membarrier(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED_RSEQ, 0, 0) == 0;
}

#if PCP_RSEQ
/*
 * The sequences.  Each one publishes its descriptor (start, length, abort handler) in
 * rseq->rseq_cs, then runs from label 1 to the single committing store before label 2.  The
 * abort handler must be preceded by the signature glibc registered (RSEQ_SIG, 0x53053053 on
 * x86), here hidden in a ud1 instruction as the kernel's selftests do.
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
static int rseq_pop(struct per_cpu_pages *base, uint32_t *pfn)
{
	struct rseq *rs = rseq_area();

	__asm__ __volatile__ goto(RSEQ_CS_BEGIN
				  "movq 8(%%rax), %%rcx\n\t"
				  "testw %%cx, %%cx\n\t"
				  "jz %l[busy]\n\t"
				  "movzwl %%cx, %%edx\n\t"
				  "movq 16(%%rax), %%rsi\n\t"
				  "movl -4(%%rsi,%%rdx,4), %%edx\n\t"
				  "movl %%edx, %[pfn]\n\t"
				  "addq $0xffff, %%rcx\n\t"
				  "movq %%rcx, 8(%%rax)\n\t" RSEQ_CS_END
				  :
				  : [rseq_cs] "m"(rs->rseq_cs), [cpu_id] "m"(rs->cpu_id), [base] "r"(base),
				    [pfn] "m"(*pfn)
				  : "memory", "cc", "rax", "rcx", "rdx", "rsi"
				  : busy);
	return 0;
busy:
	return -EAGAIN;
}

/* push: count + 1 < high, write pfns[count], commit state + 1. */
static int rseq_push(struct per_cpu_pages *base, uint32_t pfn)
{
	struct rseq *rs = rseq_area();

	__asm__ __volatile__ goto(RSEQ_CS_BEGIN
				  "movq 8(%%rax), %%rcx\n\t"
				  "movzwl %%cx, %%edx\n\t"
				  "leal 1(%%edx), %%esi\n\t"
				  "cmpl 4(%%rax), %%esi\n\t"
				  "jge %l[busy]\n\t"
				  "movq 16(%%rax), %%rsi\n\t"
				  "movl %[pfn], (%%rsi,%%rdx,4)\n\t"
				  "addq $1, %%rcx\n\t"
				  "movq %%rcx, 8(%%rax)\n\t" RSEQ_CS_END
				  :
				  : [rseq_cs] "m"(rs->rseq_cs), [cpu_id] "m"(rs->cpu_id), [base] "r"(base),
				    [pfn] "r"(pfn)
				  : "memory", "cc", "rax", "rcx", "rdx", "rsi"
				  : busy);
	return 0;
busy:
	return -EAGAIN;
}

/* lock this CPU's list: it is free, commit our token; the CPU is returned in *cpu. */
static int rseq_lock(struct per_cpu_pages *base, int token, int *cpu)
{
	struct rseq *rs = rseq_area();

	__asm__ __volatile__ goto(RSEQ_CS_BEGIN
				  "movl %[cpu_id], %%ecx\n\t"
				  "movl %%ecx, %[cpu]\n\t"
				  "movl %[token], (%%rax)\n\t" RSEQ_CS_END
				  :
				  : [rseq_cs] "m"(rs->rseq_cs), [cpu_id] "m"(rs->cpu_id), [base] "r"(base),
				    [token] "r"(token), [cpu] "m"(*cpu)
				  : "memory", "cc", "rax", "rcx"
				  : busy);
	return 0;
busy:
	return -EAGAIN;
}
#else
static int rseq_pop(struct per_cpu_pages *base, uint32_t *pfn)
{
	return -EAGAIN;
}

static int rseq_push(struct per_cpu_pages *base, uint32_t pfn)
{
	return -EAGAIN;
}

static int rseq_lock(struct per_cpu_pages *base, int token, int *cpu)
{
	return -EAGAIN;
}
#endif

static bool lock_word_free(struct per_cpu_pages *pcp)
{
	return atomic_load_explicit(&pcp->lock.locked, memory_order_acquire) == 0;
}

static void wait_for_unlock(struct per_cpu_pages *pcp)
{
	for (unsigned int spins = 0; !lock_word_free(pcp); spins++) {
		if (spins < SPIN_BEFORE_YIELD)
			cpu_relax();
		else
			sched_yield();
	}
}

struct per_cpu_pages *pcp_lock_local(struct nlru_engine *eng, struct zone *zone, int *cpu)
{
	if (!eng->pcp_rseq) {
		*cpu = this_cpu(eng);
		spin_lock(&zone->pageset[*cpu].lock);
		return &zone->pageset[*cpu];
	}
	while (rseq_lock(zone->pageset, LOCK_TOKEN, cpu))
		wait_for_unlock(&zone->pageset[this_cpu(eng)]);
	/* The sequence's store is not an atomic: order the holder's accesses after it. */
	atomic_thread_fence(memory_order_acquire);
	return &zone->pageset[*cpu];
}

/* Restart whatever sequence @cpu is running, so that it sees a lock just taken. */
static void fence_cpu(struct nlru_engine *eng, int cpu)
{
	if (membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED_RSEQ, MEMBARRIER_CMD_FLAG_CPU, cpu) == 0)
		return;
	/* A forked child inherits the engine but not the registration, which is per process. */
	membarrier(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED_RSEQ, 0, 0);
	if (membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED_RSEQ, MEMBARRIER_CMD_FLAG_CPU, cpu) < 0)
		log_err(&eng->log, "membarrier(RSEQ) failed on CPU %d: %s; a per-CPU list may "
				   "race", cpu, strerror(errno));
}

struct per_cpu_pages *pcp_lock_cpu(struct nlru_engine *eng, struct zone *zone, int cpu)
{
	struct per_cpu_pages *pcp = &zone->pageset[cpu];
	int token = LOCK_TOKEN;

	if (!eng->pcp_rseq) {
		spin_lock(&pcp->lock);
		return pcp;
	}
	for (;;) {
		int expected = 0;

		if (atomic_compare_exchange_strong(&pcp->lock.locked, &expected, token)) {
			fence_cpu(eng, cpu);
			if (atomic_load(&pcp->lock.locked) == token)
				return pcp;
			/* A local locker's sequence committed over our token: it holds the lock. */
		}
		wait_for_unlock(pcp);
	}
}

void pcp_unlock(struct per_cpu_pages *pcp)
{
	spin_unlock(&pcp->lock);
}

int pcp_pop_fast(struct nlru_engine *eng, struct zone *zone, uint32_t *pfn)
{
	struct per_cpu_pages *pcp;
	int count;

	if (eng->pcp_rseq)
		return rseq_pop(zone->pageset, pfn);
	pcp = &zone->pageset[this_cpu(eng)];
	if (!spin_trylock(&pcp->lock))
		return -EAGAIN;
	count = pcp_count(pcp);
	if (count)
		*pfn = pcp->pfns[count - 1];
	if (count)
		pcp_set_count(pcp, count - 1, 1);
	spin_unlock(&pcp->lock);
	return count ? 0 : -EAGAIN;
}

int pcp_push_fast(struct nlru_engine *eng, struct zone *zone, uint32_t pfn)
{
	struct per_cpu_pages *pcp;
	int count;

	if (eng->pcp_rseq)
		return rseq_push(zone->pageset, pfn);
	pcp = &zone->pageset[this_cpu(eng)];
	if (!spin_trylock(&pcp->lock))
		return -EAGAIN;
	count = pcp_count(pcp);
	if (count + 1 < pcp->high) {
		pcp->pfns[count] = pfn;
		pcp_set_count(pcp, count + 1, 0);
	}
	spin_unlock(&pcp->lock);
	return count + 1 < pcp->high ? 0 : -EAGAIN;
}
