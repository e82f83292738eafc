/* Shrinkers and shrink_slab() (Linux 4.8 mm/vmscan.c, the 4.8.0-4.8.15 deferral rule). */
#ifndef NODELRU_SHRINKER_H
#define NODELRU_SHRINKER_H

struct nlru_engine;

/*
 * shrink_slab(): ask every shrinker for objects in proportion to @nr_scanned LRU pages
 * scanned out of @nr_eligible, telling each the node, the reclaim's @gfp_mask and @priority,
 * and whether kswapd asks.  Returns objects freed (1 if the shrinker list was busy).
 */
unsigned long shrink_slab(struct nlru_engine *eng, int nid, unsigned int gfp_mask, int priority,
			  unsigned long nr_scanned, unsigned long nr_eligible);

/* do_shrink_slab()'s arithmetic, apart for tests: objects to scan now (before batching). */
unsigned long shrink_slab_target(unsigned long freeable, unsigned long deferred,
				 unsigned long nr_scanned, unsigned long nr_eligible, int seeks);

int shrinker_list_init(struct nlru_engine *eng);
/* Engine destruction: frees shrinkers the user did not unregister, with a warning. */
void shrinker_list_destroy(struct nlru_engine *eng);

#endif /* NODELRU_SHRINKER_H */
