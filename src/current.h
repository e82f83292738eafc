/*
 * The calling thread's reclaim context, which Linux keeps in task_struct: current->flags
 * (PF_MEMALLOC, PF_KSWAPD) and current->reclaim_state.  The allocator reads and sets them,
 * reclaim and kswapd set them; each sees them here without including the other's interface.
 * The variables are defined by their writers: current_flags in vmscan.c,
 * current_reclaim_state in shrinker.c.
 */
#ifndef NODELRU_CURRENT_H
#define NODELRU_CURRENT_H

#include <stdbool.h>

/* Task flags of the calling thread, as Linux's current->flags. */
#define PF_MEMALLOC 0x1 /* reclaiming: allocations may use the reserves, never recurse */
#define PF_KSWAPD 0x2   /* this thread is a kswapd */
#define PF_KTHREAD 0x4  /* one of the engine's own threads (kthread.h) */

extern __thread unsigned int current_flags;

static inline bool current_is_kswapd(void)
{
	return current_flags & PF_KSWAPD;
}

/*
 * current->reclaim_state: while a thread runs shrinkers, slab pages freed by any of them are
 * added here, and shrink_node() counts them as reclaimed.
 */
struct reclaim_state {
	unsigned long reclaimed_slab;
};

extern __thread struct reclaim_state *current_reclaim_state;

#endif /* NODELRU_CURRENT_H */
