/*
 * Atomic helpers the C11 atomics lack: raise or lower a shared value to at least or at most
 * a given one, as kswapd's pending request merges its wakers' orders and classzones.
 */
#ifndef NODELRU_ATOMIC_H
#define NODELRU_ATOMIC_H

#include <stdatomic.h>

/* *@v = max(*@v, @x), against concurrent updates. */
static inline void atomic_max(_Atomic int *v, int x)
{
	int cur = atomic_load(v);

	while (cur < x && !atomic_compare_exchange_weak(v, &cur, x))
		;
}

/* *@v = min(*@v, @x), against concurrent updates. */
static inline void atomic_min(_Atomic int *v, int x)
{
	int cur = atomic_load(v);

	while (cur > x && !atomic_compare_exchange_weak(v, &cur, x))
		;
}

#endif /* NODELRU_ATOMIC_H */
