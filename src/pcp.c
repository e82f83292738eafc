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
#include <limits.h>
#include <linux/membarrier.h>
#include <stdatomic.h>
#include <stddef.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "pcp.h"

/*
 * A lock holder's token: a value no other thread has (a remote locker tells by it whether a
 * local sequence overwrote its claim).  Handed out in turn, odd from 3 up: never 0 (free),
 * never 1 (raw_spin_lock()'s value); a thread address cut to 32 bits could repeat.
 */
static _Atomic int lock_tokens_given;
static __thread int lock_token;

static int my_lock_token(void)
{
	if (unlikely(!lock_token))
		lock_token = 2 * (atomic_fetch_add_explicit(&lock_tokens_given, 1,
							    memory_order_relaxed) %
				  (INT_MAX / 2 - 1)) +
			     3;
	return lock_token;
}
#define LOCK_TOKEN my_lock_token()

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

static struct per_cpu_pages *lock_cpu(struct nlru_engine *eng, struct per_cpu_pages *base, int cpu);

struct per_cpu_pages *pcp_lock_local(struct nlru_engine *eng, struct per_cpu_pages *base, int *cpu)
{
	/* The lock order is checked here, before and outside any sequence. */
	witness_lock(LOCK_PCP, &eng->log);
	if (!eng->pcp_rseq) {
		*cpu = this_cpu(eng);
		raw_spin_lock(&base[*cpu].lock);
		return &base[*cpu];
	}
	while (rseq_lock(base, (uint32_t)eng->nr_cpus, LOCK_TOKEN, cpu)) {
		/* A CPU past the lists (hot-added since the engine was made): CPU 0's list, taken
		 * as a drain takes another CPU's. */
		if ((unsigned int)current_cpu() >= (unsigned int)eng->nr_cpus) {
			*cpu = 0;
			return lock_cpu(eng, base, 0);
		}
		wait_for_unlock(&base[this_cpu(eng)]);
	}
	/* The sequence's store is not an atomic: order the holder's accesses after it. */
	atomic_thread_fence(memory_order_acquire);
	return &base[*cpu];
}

/* Restart whatever sequence @cpu is running, so that it sees a lock just taken. */
static void fence_cpu(struct nlru_engine *eng, int cpu)
{
	if (membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED_RSEQ, MEMBARRIER_CMD_FLAG_CPU, cpu) == 0)
		return;
	/* Not registered in this process (older kernels do not carry it over fork): register,
	 * once, and fence again.  (A forked child may use the engine only as far as any
	 * multi-threaded library allows: its kswapd and flusher threads are not in the child.) */
	membarrier(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED_RSEQ, 0, 0);
	if (membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED_RSEQ, MEMBARRIER_CMD_FLAG_CPU, cpu) < 0)
		log_err(&eng->log,
			"membarrier(RSEQ) failed on CPU %d: %s; a per-CPU list may "
			"race",
			cpu, strerror(errno));
}

static struct per_cpu_pages *lock_cpu(struct nlru_engine *eng, struct per_cpu_pages *base, int cpu)
{
	struct per_cpu_pages *pcp = &base[cpu];
	int token = LOCK_TOKEN;

	if (!eng->pcp_rseq) {
		raw_spin_lock(&pcp->lock);
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

struct per_cpu_pages *pcp_lock_cpu(struct nlru_engine *eng, struct per_cpu_pages *base, int cpu)
{
	witness_lock(LOCK_PCP, &eng->log);
	return lock_cpu(eng, base, cpu);
}

void pcp_unlock(struct nlru_engine *eng, struct per_cpu_pages *pcp)
{
	raw_spin_unlock(&pcp->lock);
	witness_unlock(LOCK_PCP, &eng->log);
}

int pcp_pop_locked(struct nlru_engine *eng, struct per_cpu_pages *base, uint32_t *pfn)
{
	struct per_cpu_pages *pcp = &base[this_cpu(eng)];
	int count;

	if (!raw_spin_trylock(&pcp->lock))
		return -EAGAIN;
	count = pcp_count(pcp);
	if (count) {
		*pfn = pcp->pfns[count - 1];
		pcp_set_count(pcp, count - 1, 1);
	}
	raw_spin_unlock(&pcp->lock);
	return count ? 0 : -EAGAIN;
}

int pcp_push_locked(struct nlru_engine *eng, struct per_cpu_pages *base, uint32_t pfn)
{
	struct per_cpu_pages *pcp = &base[this_cpu(eng)];
	int count;
	bool room;

	if (!raw_spin_trylock(&pcp->lock))
		return -EAGAIN;
	count = pcp_count(pcp);
	room = count + 1 < pcp->high;
	if (room) {
		pcp->pfns[count] = pfn;
		pcp_set_count(pcp, count + 1, 0);
	}
	raw_spin_unlock(&pcp->lock);
	return room ? 0 : -EAGAIN;
}
