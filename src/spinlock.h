/*
 * A small test-and-test-and-set lock for short critical sections (per-CPU lists, zone free
 * lists).  The kernel disables preemption under a spinlock; userspace cannot, so a holder may
 * be descheduled: after a bounded spin the waiter yields the CPU instead of burning its slice.
 * Uncontended lock+unlock costs about 2 ns here, a pthread mutex about twice that.
 *
 * A struct spinlock has a lock class (witness.h), given at spin_lock_init(), and in full
 * debug builds every spin_lock() checks the lock order.  struct raw_spinlock is the lock word
 * alone, for the per-CPU lists, whose restartable sequences read it in place (pcp.c checks
 * their order itself).
 */
#ifndef NODELRU_SPINLOCK_H
#define NODELRU_SPINLOCK_H

#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "debug.h"
#include "witness.h"

struct raw_spinlock {
	atomic_int locked;
};

struct spinlock {
	struct raw_spinlock raw;
#if NLRU_DEBUG >= 2
	struct lock_witness witness;
#endif
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

static inline void raw_spin_lock_init(struct raw_spinlock *lock)
{
	atomic_init(&lock->locked, 0);
}

static inline bool raw_spin_trylock(struct raw_spinlock *lock)
{
	int expected = 0;
	return atomic_compare_exchange_strong_explicit(&lock->locked, &expected, 1,
						       memory_order_acquire, memory_order_relaxed);
}

static inline void raw_spin_lock(struct raw_spinlock *lock)
{
	unsigned int spins = 0;

	while (unlikely(!raw_spin_trylock(lock))) {
		while (atomic_load_explicit(&lock->locked, memory_order_relaxed)) {
			if (++spins < SPIN_BEFORE_YIELD)
				cpu_relax();
			else
				sched_yield();
		}
	}
}

static inline void raw_spin_unlock(struct raw_spinlock *lock)
{
	atomic_store_explicit(&lock->locked, 0, memory_order_release);
}

/* The lock's class and its engine's log, for the lock-order check (full debug builds). */
static inline enum lock_class spin_lock_class(const struct spinlock *lock)
{
#if NLRU_DEBUG >= 2
	return lock->witness.cls;
#else
	(void)lock;
	return LOCK_NONE;
#endif
}

static inline const struct nlru_log *spin_lock_log(const struct spinlock *lock)
{
#if NLRU_DEBUG >= 2
	return lock->witness.log;
#else
	(void)lock;
	return NULL;
#endif
}

/* A lock of class @cls (witness.h) of the engine that logs to @log. */
static inline void spin_lock_init(struct spinlock *lock, enum lock_class cls,
				  const struct nlru_log *log)
{
	raw_spin_lock_init(&lock->raw);
#if NLRU_DEBUG >= 2
	lock->witness = (struct lock_witness){cls, log};
#else
	(void)cls;
	(void)log;
#endif
}

#define spin_trylock(lock) spin_trylock_at(lock, __FILE__, __LINE__)
#define spin_lock(lock) spin_lock_at(lock, __FILE__, __LINE__)
#define spin_unlock(lock) spin_unlock_at(lock, __FILE__, __LINE__)

static inline bool spin_trylock_at(struct spinlock *lock, const char *file, int line)
{
	if (!raw_spin_trylock(&lock->raw))
		return false;
	witness_trylocked_(spin_lock_class(lock), spin_lock_log(lock), file, line);
	return true;
}

static inline void spin_lock_at(struct spinlock *lock, const char *file, int line)
{
	witness_lock_(spin_lock_class(lock), spin_lock_log(lock), file, line);
	raw_spin_lock(&lock->raw);
}

static inline void spin_unlock_at(struct spinlock *lock, const char *file, int line)
{
	raw_spin_unlock(&lock->raw);
	witness_unlock_(spin_lock_class(lock), spin_lock_log(lock), file, line);
}

/*
 * bit_spin_lock(): bit @bit of *@word as a lock, with the same spin-then-yield as spin_lock().
 * Unchecked: its users name its class (lock_page() in page.h).
 */
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
