/* kswapd: one background reclaim thread per node (Linux 4.8 node mode). */
#ifndef NODELRU_KSWAPD_H
#define NODELRU_KSWAPD_H

#include <stdbool.h>

#include "engine.h"

/*
 * wakeup_kswapd(): ask @zone's node to reclaim for an allocation of @order that may use zones
 * up to @classzone_idx.  Merges the request; wakes the thread only if it sleeps and no
 * eligible zone is balanced.  Never sleeps.
 */
void wakeup_kswapd(struct nlru_engine *eng, struct zone *zone, unsigned int order,
		   int classzone_idx);

/* zone_balanced(): above the high watermark plus the classzone's reserve, at @order. */
bool zone_balanced(struct zone *zone, int order, int classzone_idx);

/* balance_pgdat(): one kswapd balance pass; returns the order it finished at. */
int balance_pgdat(struct nlru_engine *eng, struct pglist_data *pgdat, int order,
		  int classzone_idx);

/* Start and stop the per-node threads (engine creation and destruction). */
int kswapd_start_all(struct nlru_engine *eng);
void kswapd_stop_all(struct nlru_engine *eng);
void kswapd_state_init(struct kswapd_state *ks);
void kswapd_state_destroy(struct kswapd_state *ks);

#endif /* NODELRU_KSWAPD_H */
