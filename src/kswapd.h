/* kswapd: the per-node background reclaim thread.  Woken by the allocator's slow path. */
#ifndef NODELRU_KSWAPD_H
#define NODELRU_KSWAPD_H

#include "engine.h"

/*
 * wakeup_kswapd(): ask @zone's node to reclaim for an allocation of @order that may use zones
 * up to @classzone_idx.  Called from the allocator without locks; never sleeps.
 */
void wakeup_kswapd(struct nlru_engine *eng, struct zone *zone, unsigned int order,
		   int classzone_idx);

#endif /* NODELRU_KSWAPD_H */
