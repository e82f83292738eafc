/*
 * ratelimit.h - Linux's ___ratelimit() (lib/ratelimit.c) without a lock: at most @burst
 * messages in each @interval, counting the ones held back so the next message can say how
 * many were.  Racing callers may let one message more or fewer through at the turn of an
 * interval, which is all a diagnostic needs.
 */
#ifndef NODELRU_RATELIMIT_H
#define NODELRU_RATELIMIT_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

/* Linux's DEFAULT_RATELIMIT_INTERVAL (5 * HZ) and DEFAULT_RATELIMIT_BURST. */
#define RATELIMIT_INTERVAL_NS 5000000000ull
#define RATELIMIT_BURST 10

struct ratelimit_state {
	_Atomic uint64_t begin; /* start of the current interval, ns; 0: none yet */
	atomic_int printed;     /* messages let through in it */
	atomic_int missed;      /* messages held back since the last one let through */
};

/*
 * May a message go out at @now (ns)?  True for the first RATELIMIT_BURST of each
 * RATELIMIT_INTERVAL_NS; then *@missed is how many were held back before it (0 mostly).
 */
static inline bool ratelimit_ok(struct ratelimit_state *rs, uint64_t now, int *missed)
{
	uint64_t begin = atomic_load_explicit(&rs->begin, memory_order_relaxed);

	if (!begin || now - begin >= RATELIMIT_INTERVAL_NS) {
		if (atomic_compare_exchange_strong(&rs->begin, &begin, now ? now : 1))
			atomic_store_explicit(&rs->printed, 0, memory_order_relaxed);
	}
	if (atomic_fetch_add_explicit(&rs->printed, 1, memory_order_relaxed) >= RATELIMIT_BURST) {
		atomic_fetch_add_explicit(&rs->missed, 1, memory_order_relaxed);
		return false;
	}
	*missed = atomic_exchange_explicit(&rs->missed, 0, memory_order_relaxed);
	return true;
}

#endif /* NODELRU_RATELIMIT_H */
