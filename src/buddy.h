/*
 * The buddy allocator of one zone: free lists per order 0..10, split on allocation, merge with
 * the buddy on free.  Every function here is called with zone->lock held, except the creation
 * helpers.  A single migrate type: the engine does not model anti-fragmentation grouping.
 */
#ifndef NODELRU_BUDDY_H
#define NODELRU_BUDDY_H

#include <stdint.h>

struct nlru_log;
struct zone;

/* Take a block of 2^order pages; PFN_NIL if none.  Updates NR_FREE_PAGES. */
uint32_t rmqueue_smallest(struct zone *zone, unsigned int order);
/* Give back a block, merging with free buddies.  Updates NR_FREE_PAGES. */
void free_one_page_locked(struct zone *zone, uint32_t pfn, unsigned int order);
/*
 * rmqueue_bulk(): take up to @count order-0 pages for a per-CPU stack, written to @dst so
 * that the first page the buddy allocator gave ends on top.  Returns how many.
 */
int rmqueue_bulk(struct zone *zone, int count, uint32_t *dst);
/* free_pcppages_bulk(): give the @count pages of @pfns back to the buddy lists. */
void free_pcppages_bulk(struct zone *zone, int count, const uint32_t *pfns);

/* Creation: hand every page of the zone to its free lists as the largest aligned blocks. */
void zone_free_all(struct zone *zone);

/*
 * Debug, zone locked: walk the free lists.  Every block is marked free with its order, unused,
 * aligned inside the zone and linked both ways; each list holds nr_free blocks, all of them
 * NR_FREE_PAGES pages.  A failure is a counted debug check (debug.h), logged.  0 or -EIO.
 */
int zone_check_free_lists(struct zone *zone, const struct nlru_log *log);

/*
 * Debug, zone locked, with no page of the zone in use (engine destruction): the free blocks
 * cover every page of the zone, each page once.  Counted and logged as above.  0 or -EIO.
 */
int zone_check_all_free(struct zone *zone, const struct nlru_log *log);

#endif /* NODELRU_BUDDY_H */
