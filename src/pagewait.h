/*
 * Sleeping on a page's flag bits (Linux's wait_on_page_bit, end_page_writeback's
 * wake_up_page; lock_page() of page.h sleeps here too), with a futex on the page's flags word.
 *
 * A page stays locked for a whole read and under writeback for a whole write.  With the block
 * device model those last milliseconds, so a waiter must sleep, not spin.  As Linux 4.10
 * does, a waiter first sets PG_waiters; whoever clears a bit that can be waited for calls the
 * futex only when PG_waiters was set, so the common case costs one atomic and no system
 * call.  Any change of the flags word wakes nobody by itself: a waiter woken, or whose futex
 * wait found the word changed, looks at its bit again.
 */
#ifndef NODELRU_PAGEWAIT_H
#define NODELRU_PAGEWAIT_H

#include <stdint.h>

#include "page.h"

/* Sleep until @bit of @page's flags is clear.  Call with no lock held. */
void wait_on_page_bit(struct page *page, enum pageflags bit);

/* Clear @bit (release order) and wake whoever waits on the page. */
void clear_bit_unlock_wake(struct page *page, enum pageflags bit);

static inline void wait_on_page_locked(struct page *page)
{
	wait_on_page_bit(page, PG_locked);
}

static inline void wait_on_page_writeback(struct page *page)
{
	wait_on_page_bit(page, PG_writeback);
}

/*
 * A count of things in flight that another thread waits to see reach 0 (Linux's
 * wait_var_event() on an atomic_t), raised with a relaxed atomic add of 1; the top bit marks
 * a sleeper, so that the decrement that ends the count makes a system call only then.
 * dec_var_and_wake() may be the last touch of the structure holding @var, so it reads
 * nothing after the decrement.
 */
void wait_var_zero(uint32_t *var);
void dec_var_and_wake(uint32_t *var);

#endif /* NODELRU_PAGEWAIT_H */
