/*
 * A small test-and-test-and-set lock for short critical sections (per-CPU lists, zone free
 * lists).  The kernel disables preemption under a spinlock; userspace cannot, so a holder may
 * be descheduled: after a bounded spin the waiter yields the CPU instead of burning its slice.
 * Uncontended lock+unlock costs about 2 ns here, a pthread mutex about twice that.
 */
#ifndef NODELRU_SPINLOCK_H
#define NODELRU_SPINLOCK_H

#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "debug.h"

struct spinlock {
	atomic_int locked;
};

/*
 * Pauses before the first yield: under a microsecond, as long as any of the engine's
 * critical sections.  A lock still held after that has a holder that is not running, and
 * spinning on only keeps it from running where CPUs are few: with a copy, its flusher and
 * kswapd on two CPUs, 16 gave the streaming copy 4-7 % over 128 in interleaved A/Bs.
 */
#define SPIN_BEFORE_YIELD 16

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("yield");
#endif
}

static inline void spin_lock_init(struct spinlock *lock)
{
	atomic_init(&lock->locked, 0);
}

static inline bool spin_trylock(struct spinlock *lock)
{
	int expected = 0;
	return atomic_compare_exchange_strong_explicit(&lock->locked, &expected, 1,
						       memory_order_acquire, memory_order_relaxed);
}

static inline void spin_lock(struct spinlock *lock)
{
	unsigned int spins = 0;

	while (unlikely(!spin_trylock(lock))) {
		while (atomic_load_explicit(&lock->locked, memory_order_relaxed)) {
			if (++spins < SPIN_BEFORE_YIELD)
				cpu_relax();
			else
				sched_yield();
		}
	}
}

static inline void spin_unlock(struct spinlock *lock)
{
	atomic_store_explicit(&lock->locked, 0, memory_order_release);
}

/* bit_spin_lock(): bit @bit of *@word as a lock, with the same spin-then-yield as spin_lock(). */
static inline void bit_spin_lock(uint32_t *word, unsigned int bit)
{
	const uint32_t mask = 1u << bit;
	unsigned int spins = 0;

	while (__atomic_fetch_or(word, mask, __ATOMIC_ACQUIRE) & mask)
		while (__atomic_load_n(word, __ATOMIC_RELAXED) & mask) {
			if (++spins < SPIN_BEFORE_YIELD)
				cpu_relax();
			else
				sched_yield();
		}
}

static inline void bit_spin_unlock(uint32_t *word, unsigned int bit)
{
	__atomic_fetch_and(word, ~(1u << bit), __ATOMIC_RELEASE);
}

#endif /* NODELRU_SPINLOCK_H */
