/*
 * The buddy allocator of one zone: free lists per order 0..10 and per migrate type, split on
 * allocation, merge with the buddy on free, and Linux 4.8's grouping of pages by mobility
 * (fallback to other types' lists, stealing of pageblocks, the high-order atomic reserve).
 * Every function here is called with zone->lock held, except where it says otherwise.
 */
#ifndef NODELRU_BUDDY_H
#define NODELRU_BUDDY_H

#include <stdbool.h>
#include <stdint.h>

struct free_area;
struct nlru_log;
struct zone;

/*
 * __rmqueue(): take a block of 2^order pages for @migratetype, from its own lists or, failing
 * that, by falling back to another type's (__rmqueue_fallback).  PFN_NIL if none.  Updates
 * NR_FREE_PAGES.
 */
uint32_t __rmqueue(struct zone *zone, unsigned int order, int migratetype);
/* __rmqueue_smallest(): the smallest block of @migratetype's own lists, split down; no
 * fallback.  Updates NR_FREE_PAGES. */
uint32_t __rmqueue_smallest(struct zone *zone, unsigned int order, int migratetype);
/*
 * __free_one_page(): give back a block freed as @migratetype, merging with free buddies.
 * Updates NR_FREE_PAGES.
 */
void free_one_page_locked(struct zone *zone, uint32_t pfn, unsigned int order, int migratetype);
/*
 * rmqueue_bulk(): take up to @count order-0 pages of @migratetype for a per-CPU stack, written
 * to @dst so that the first page the buddy allocator gave ends on top.  Returns how many.
 */
int rmqueue_bulk(struct zone *zone, int count, uint32_t *dst, int migratetype);
/*
 * free_pcppages_bulk(): give the @count pages of @pfns back to the buddy lists, each as the
 * migrate type its pageblock has now (Linux: the type it had when it was freed to the list).
 */
void free_pcppages_bulk(struct zone *zone, int count, const uint32_t *pfns);

/*
 * find_suitable_fallback(): the first type in @migratetype's fallback order with a free block
 * of this order on @area, or -1; *@can_steal says whether taking it may claim its pageblock.
 * With @only_stealable, only such a type is returned.  Lock-free callers (compaction's end
 * test) get an answer that may be stale.
 */
int find_suitable_fallback(const struct free_area *area, unsigned int order, int migratetype,
			   bool only_stealable, bool *can_steal, bool mobility_disabled);

/*
 * move_freepages_block(): the free blocks of @pfn's pageblock (within the zone) onto
 * @migratetype's lists.  Returns the pages moved.
 */
unsigned long move_freepages_block(struct zone *zone, uint32_t pfn, int migratetype);

/*
 * reserve_highatomic_pageblock(): after a high-order ALLOC_HARDER allocation at @pfn, make its
 * pageblock MIGRATE_HIGHATOMIC unless the zone holds a pageblock plus 1 % of itself in the
 * reserve already.  Takes zone->lock itself.
 */
void reserve_highatomic_pageblock(struct zone *zone, uint32_t pfn);
/*
 * One zone's part of unreserve_highatomic_pageblock(): give one reserved pageblock (the first
 * with a free block, from order 0 up) to @migratetype, keeping at least one reserved.
 * Takes zone->lock itself.  True if it gave one.
 */
bool unreserve_highatomic_pageblock_zone(struct zone *zone, int migratetype);

/*
 * isolate_free_block(): compaction's free scanner (__isolate_free_page() and split_page()):
 * take the free block headed at @pfn off its list, each of its pages then an order-0 page the
 * caller holds (refcount 1).  Not when that would leave fewer than @min_free free pages.
 * Returns the block's order, or -1.  Updates NR_FREE_PAGES.
 */
int isolate_free_block(struct zone *zone, uint32_t pfn, unsigned long min_free);

/*
 * Take the pages [@start, @start + @n) of @zone off the free lists, each then an order-0 page
 * the caller holds (refcount 1), if every one of them lies in a free block on @migratetype's
 * list; the parts of those blocks outside the range go back as the largest aligned blocks
 * they make.  Locked.  True if taken; false, with nothing changed, otherwise.  Updates
 * NR_FREE_PAGES.
 */
bool take_free_range(struct zone *zone, uint32_t start, uint32_t n, int migratetype);

/*
 * Creation, zone not locked: every pageblock MIGRATE_MOVABLE (memmap_init_zone()) and every
 * page to the free lists as the largest aligned blocks.  0 or -ENOMEM (the pageblock flags).
 */
int zone_free_all(struct zone *zone);
/* Destruction: what zone_free_all() allocated. */
void zone_buddy_destroy(struct zone *zone);

/*
 * Debug, zone locked: walk the free lists.  Every block is marked free with its order and the
 * type of its list, unused, aligned inside the zone and linked both ways; each area holds
 * nr_free blocks, all of them NR_FREE_PAGES pages.  A failure is a counted debug check
 * (debug.h), logged.  0 or -EIO.
 */
int zone_check_free_lists(struct zone *zone, const struct nlru_log *log);

/*
 * Debug, zone locked, with no page of the zone in use (engine destruction): the free blocks
 * cover every page of the zone, each page once.  Counted and logged as above.  0 or -EIO.
 */
int zone_check_all_free(struct zone *zone, const struct nlru_log *log);

#endif /* NODELRU_BUDDY_H */
