/*
 * Sleeping on a page's flag bits (Linux's wait_on_page_bit, lock_page, unlock_page,
 * end_page_writeback's wake_up_page), with a futex on the page's flags word.
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

#include <stdbool.h>

#include "page.h"

/* Sleep until @bit of @page's flags is clear.  Call with no lock held. */
void wait_on_page_bit(struct page *page, enum pageflags bit);

/* Clear @bit (release order) and wake whoever waits on the page. */
void clear_bit_unlock_wake(struct page *page, enum pageflags bit);

/* lock_page(): take PG_locked, sleeping while another holds it.  No lock held on entry. */
void lock_page(struct page *page);
bool trylock_page(struct page *page);
void unlock_page(struct page *page);

static inline void wait_on_page_locked(struct page *page)
{
	wait_on_page_bit(page, PG_locked);
}

static inline void wait_on_page_writeback(struct page *page)
{
	wait_on_page_bit(page, PG_writeback);
}

#endif /* NODELRU_PAGEWAIT_H */
