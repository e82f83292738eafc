/*
 * Test hooks that make the next writes of a device or file fail with a chosen errno, so the
 * "nothing lost" paths run for real.  Off unless a test sets them; one atomic load otherwise.
 */
#ifndef NODELRU_INJECT_H
#define NODELRU_INJECT_H

#include <stdatomic.h>

struct fault_injection {
	_Atomic int err;   /* the errno to return */
	_Atomic int count; /* how many more writes fail */
};

static inline void fault_inject_set(struct fault_injection *fi, int err, int count)
{
	atomic_store(&fi->err, err);
	atomic_store(&fi->count, count);
}

/* The errno of a pending injected failure, consumed by this write, or 0. */
static inline int fault_injected(struct fault_injection *fi)
{
	int n = atomic_load_explicit(&fi->count, memory_order_relaxed);

	while (n > 0)
		if (atomic_compare_exchange_weak(&fi->count, &n, n - 1))
			return atomic_load(&fi->err);
	return 0;
}

#endif /* NODELRU_INJECT_H */
