/*
 * pagewait.c - sleeping on PG_locked and PG_writeback (pagewait.h).
 *
 * The futex is the page's own 32-bit flags word, private to the process.  Waking everyone on
 * the word is what Linux's hashed page wait queues do for a page too: each waiter looks at its
 * own bit again, and one that finds it still set sleeps again.
 */
#include <limits.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "pagewait.h"

static void futex_wait(uint32_t *word, uint32_t expected)
{
	syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, expected, NULL, NULL, 0);
}

static void futex_wake_all(uint32_t *word)
{
	syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
}

void wait_on_page_bit(struct page *page, enum pageflags bit)
{
	const uint32_t mask = 1u << bit, waiters = 1u << PG_waiters;

	for (;;) {
		uint32_t flags = __atomic_load_n(&page->flags, __ATOMIC_ACQUIRE);

		if (!(flags & mask))
			return;
		if (!(flags & waiters)) {
			/* Announce the sleep first: the bit's owner wakes only announced waiters.
			 */
			flags = __atomic_or_fetch(&page->flags, waiters, __ATOMIC_ACQ_REL);
			if (!(flags & mask))
				return;
		}
		/* Returns at once if the word changed since it was read: then look again. */
		futex_wait(&page->flags, flags);
	}
}

void clear_bit_unlock_wake(struct page *page, enum pageflags bit)
{
	const uint32_t waiters = 1u << PG_waiters;
	uint32_t old = __atomic_fetch_and(&page->flags, ~(1u << bit), __ATOMIC_RELEASE);

	/* Whoever sleeps on another bit of this page sets PG_waiters again when woken. */
	if (old & waiters) {
		__atomic_fetch_and(&page->flags, ~waiters, __ATOMIC_RELAXED);
		futex_wake_all(&page->flags);
	}
}

void __lock_page(struct page *page)
{
	while (__atomic_fetch_or(&page->flags, 1u << PG_locked, __ATOMIC_ACQUIRE) &
	       (1u << PG_locked))
		wait_on_page_locked(page);
}

void __unlock_page(struct page *page)
{
	clear_bit_unlock_wake(page, PG_locked);
}

/* In a count one can wait on: someone sleeps until it reaches 0. */
#define VAR_WAITERS (1u << 31)

void wait_var_zero(uint32_t *var)
{
	for (;;) {
		uint32_t v = __atomic_load_n(var, __ATOMIC_ACQUIRE);

		if (!(v & ~VAR_WAITERS))
			return;
		/* Announce the sleep, so that the last decrement knows to wake. */
		if (!(v & VAR_WAITERS)) {
			if (!__atomic_compare_exchange_n(var, &v, v | VAR_WAITERS, false,
							 __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
				continue;
			v |= VAR_WAITERS;
		}
		futex_wait(var, v);
	}
}

void dec_var_and_wake(uint32_t *var)
{
	/* The last one out with a sleeper announced: wake it.  Without, no system call. */
	if (__atomic_sub_fetch(var, 1, __ATOMIC_RELEASE) == VAR_WAITERS) {
		__atomic_fetch_and(var, ~VAR_WAITERS, __ATOMIC_RELAXED);
		futex_wake_all(var); /* on a freed address it wakes nobody: harmless */
	}
}
