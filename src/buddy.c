/*
 * buddy.c - the binary buddy allocator of a zone (Linux 4.8 __rmqueue_smallest, expand,
 * __free_one_page), on node-local pfn lists.
 *
 * Locking: zone->lock protects free_area and every page on it.  NR_FREE_PAGES is written only
 * here, under that lock, and read lock-free by the watermark checks.
 *
 * Buddy arithmetic runs on offsets from the zone start, so blocks are aligned within their
 * zone whatever the zone's position in the node.  A free block is marked on its first page
 * only (PG_buddy and its order), as in Linux; the pages inside it are plain free pages with a
 * refcount of 0, which is what lets a double free be told from a first one.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "buddy.h"
#include "vmstat.h"

static inline struct page *zone_pages(struct zone *zone)
{
	return zone->zone_pgdat->pages;
}

static inline void area_nr_free_add(struct free_area *area, long delta)
{
	__atomic_store_n(&area->nr_free, area->nr_free + (unsigned long)delta, __ATOMIC_RELAXED);
}

static bool page_is_buddy(const struct page *buddy, unsigned int order)
{
	uint32_t flags = page_flags(buddy);

	return (flags & (1u << PG_buddy)) &&
	       ((flags & PAGE_ORDER_MASK) >> PAGE_ORDER_SHIFT) == order;
}

static void add_to_free_area(struct zone *zone, uint32_t pfn, unsigned int order)
{
	struct page *page = &zone_pages(zone)[pfn];

	__page_set(page, PG_buddy);
	set_page_order(page, order);
	pfnlist_add(&zone->free_area[order].free_list, zone_pages(zone), pfn);
	area_nr_free_add(&zone->free_area[order], 1);
}

static void del_from_free_area(struct zone *zone, uint32_t pfn, unsigned int order)
{
	struct page *page = &zone_pages(zone)[pfn];

	CHECK_FULL(zone->zone_pgdat->log,
		   page_is_buddy(page, order) && zone->free_area[order].nr_free > 0);
	pfnlist_del(&zone->free_area[order].free_list, zone_pages(zone), pfn);
	area_nr_free_add(&zone->free_area[order], -1);
	__page_clear(page, PG_buddy);
	set_page_order(page, 0);
}

/* expand(): split a block of order @high down to @low, freeing the upper halves. */
static void expand(struct zone *zone, uint32_t pfn, unsigned int low, unsigned int high)
{
	uint32_t size = 1u << high;

	while (high > low) {
		high--;
		size >>= 1;
		add_to_free_area(zone, pfn + size, high);
	}
}

uint32_t rmqueue_smallest(struct zone *zone, unsigned int order)
{
	for (unsigned int cur = order; cur < MAX_ORDER; cur++) {
		uint32_t pfn = zone->free_area[cur].free_list.first;

		if (pfn == PFN_NIL)
			continue;
		del_from_free_area(zone, pfn, cur);
		expand(zone, pfn, order, cur);
		__mod_zone_page_state(zone, NLRU_NR_FREE_PAGES, -(1l << order));
		/* Its writers hold the zone's lock: the count is exact here (order 0: per batch).
		 */
		DEBUG_CHECK(order ? 1 : 2, zone->zone_pgdat->log,
			    zone_page_state(zone, NLRU_NR_FREE_PAGES) >= 0);
		CHECK_FULL(zone->zone_pgdat->log, witness_holds(LOCK_ZONE));
		return pfn;
	}
	return PFN_NIL;
}

/*
 * A block that may go back to the free lists: inside the zone, aligned to its order, of this
 * zone by its flags, neither free already nor on an LRU list, and unused.
 */
static bool block_freeable(const struct zone *zone, const struct page *page, uint32_t pfn,
			   unsigned int order)
{
	uint32_t idx = pfn - zone->zone_start_pfn, flags = page_flags(page);

	return order < MAX_ORDER && pfn >= zone->zone_start_pfn &&
	       idx + (1u << order) <= zone->spanned_pages && !(idx & ((1u << order) - 1)) &&
	       (flags & PAGE_ZONE_MASK) >> PAGE_ZONE_SHIFT == (uint32_t)zone->zone_idx &&
	       !(flags & ((1u << PG_buddy) | (1u << PG_lru))) &&
	       !__atomic_load_n(&page->refcount, __ATOMIC_RELAXED);
}

void free_one_page_locked(struct zone *zone, uint32_t pfn, unsigned int order)
{
	struct page *pages = zone_pages(zone);
	uint32_t idx = pfn - zone->zone_start_pfn;
	unsigned int freed_order = order;

	/*
	 * Order-0 pages come here in batches from the per-CPU lists, checked on their way in
	 * (free_pages_trusted(), nlru_free_pages()'s claim): the cheap level leaves them be.
	 */
	if (!DEBUG_CHECK(order ? 1 : 2, zone->zone_pgdat->log,
			 block_freeable(zone, &pages[pfn], pfn, order)))
		log_err(zone->zone_pgdat->log,
			"zone %d/%d: pfn %u freed at order %u with flags %#x, refcount %d",
			zone->node, zone->zone_idx, pfn, order, page_flags(&pages[pfn]),
			__atomic_load_n(&pages[pfn].refcount, __ATOMIC_RELAXED));
	CHECK_FULL(zone->zone_pgdat->log, witness_holds(LOCK_ZONE));

	while (order < MAX_ORDER - 1) {
		uint32_t buddy_idx = idx ^ (1u << order);

		if (buddy_idx + (1u << order) > zone->spanned_pages)
			break;
		if (!page_is_buddy(&pages[zone->zone_start_pfn + buddy_idx], order))
			break;
		del_from_free_area(zone, zone->zone_start_pfn + buddy_idx, order);
		idx &= buddy_idx;
		order++;
	}
	add_to_free_area(zone, zone->zone_start_pfn + idx, order);
	__mod_zone_page_state(zone, NLRU_NR_FREE_PAGES, 1l << freed_order);
}

int rmqueue_bulk(struct zone *zone, int count, uint32_t *dst)
{
	int n;

	for (n = 0; n < count; n++) {
		uint32_t pfn = rmqueue_smallest(zone, 0);

		if (pfn == PFN_NIL)
			break;
		dst[count - 1 - n] = pfn;
	}
	/* Fewer than asked: close the gap so the pages sit at the bottom of the slots. */
	if (n < count)
		memmove(dst, dst + count - n, sizeof(*dst) * (size_t)n);
	CHECK_CHEAP(zone->zone_pgdat->log, zone_page_state(zone, NLRU_NR_FREE_PAGES) >= 0);
	return n;
}

void free_pcppages_bulk(struct zone *zone, int count, const uint32_t *pfns)
{
	for (int i = 0; i < count; i++)
		free_one_page_locked(zone, pfns[i], 0);
}

void zone_free_all(struct zone *zone)
{
	uint32_t idx = 0;

	while (idx < zone->spanned_pages) {
		unsigned int order = MAX_ORDER - 1;

		while ((idx & ((1u << order) - 1)) || idx + (1u << order) > zone->spanned_pages)
			order--;
		add_to_free_area(zone, zone->zone_start_pfn + idx, order);
		__mod_zone_page_state(zone, NLRU_NR_FREE_PAGES, 1l << order);
		idx += 1u << order;
	}
}

/* @pfn's links on @list agree both ways, and with the list's head and tail at the ends. */
static bool links_agree(const struct pfnlist *list, const struct page *pages, uint32_t pfn)
{
	const struct page *page = &pages[pfn];

	return (page->prev == PFN_NIL ? list->first == pfn : pages[page->prev].next == pfn) &&
	       (page->next == PFN_NIL ? list->last == pfn : pages[page->next].prev == pfn);
}

/* A free block of @order heading at @pfn: marked, unused, aligned, inside its zone. */
static bool free_block_ok(const struct zone *zone, const struct page *page, uint32_t pfn,
			  unsigned int order)
{
	uint32_t idx = pfn - zone->zone_start_pfn;

	return page_is_buddy(page, order) && !__atomic_load_n(&page->refcount, __ATOMIC_RELAXED) &&
	       !(page_flags(page) & (1u << PG_lru)) &&
	       page_zonenum(page) == (unsigned)zone->zone_idx && page_to_nid(page) == zone->node &&
	       pfn >= zone->zone_start_pfn && !(idx & ((1u << order) - 1)) &&
	       idx + (1u << order) <= zone->spanned_pages;
}

int zone_check_free_lists(struct zone *zone, const struct nlru_log *log)
{
	struct page *pages = zone_pages(zone);
	long free = 0;

	for (unsigned int order = 0; order < MAX_ORDER; order++) {
		const struct pfnlist *list = &zone->free_area[order].free_list;
		unsigned long n = 0, most = (zone->spanned_pages >> order) + 1;
		uint32_t pfn;

		/* Bounded: a list that loops back on itself would otherwise never end. */
		for (pfn = list->first; pfn != PFN_NIL && n < most; pfn = pages[pfn].next) {
			if (!DEBUG_CHECK(0, log,
					 pfn < zone->zone_start_pfn + zone->spanned_pages) ||
			    !DEBUG_CHECK(0, log, free_block_ok(zone, &pages[pfn], pfn, order)) ||
			    !DEBUG_CHECK(0, log, links_agree(list, pages, pfn))) {
				log_err(log,
					"zone %d/%d: pfn %u on the order-%u free list is not a "
					"free block of that order, or its links are broken",
					zone->node, zone->zone_idx, pfn, order);
				return -EIO;
			}
			n++;
		}
		if (!DEBUG_CHECK(0, log, pfn == PFN_NIL) ||
		    !DEBUG_CHECK(0, log, n == zone->free_area[order].nr_free)) {
			log_err(log, "zone %d/%d: order %u lists %lu%s blocks, nr_free says %lu",
				zone->node, zone->zone_idx, order, n, pfn == PFN_NIL ? "" : "+",
				zone->free_area[order].nr_free);
			return -EIO;
		}
		free += (long)n << order;
	}
	if (!DEBUG_CHECK(0, log, free == zone_page_state(zone, NLRU_NR_FREE_PAGES))) {
		log_err(log, "zone %d/%d: free lists hold %ld pages, NR_FREE_PAGES says %ld",
			zone->node, zone->zone_idx, free,
			zone_page_state(zone, NLRU_NR_FREE_PAGES));
		return -EIO;
	}
	return 0;
}

int zone_check_all_free(struct zone *zone, const struct nlru_log *log)
{
	struct page *pages = zone_pages(zone);
	uint64_t *seen = calloc((zone->spanned_pages + 63) / 64 + 1, sizeof(*seen));
	uint32_t covered = 0;
	int r = 0;

	if (!seen)
		return -ENOMEM;
	for (unsigned int order = 0; order < MAX_ORDER && !r; order++) {
		unsigned long n = 0;
		uint32_t pfn;

		/* zone_check_free_lists() has seen the lists whole: n only bounds a new loop. */
		for (pfn = zone->free_area[order].free_list.first;
		     pfn != PFN_NIL && n++ <= zone->spanned_pages && !r; pfn = pages[pfn].next) {
			for (uint32_t i = pfn - zone->zone_start_pfn;
			     i < pfn - zone->zone_start_pfn + (1u << order) && !r; i++) {
				if (!DEBUG_CHECK(0, log, !(seen[i / 64] & (1ull << (i % 64))))) {
					log_err(log,
						"zone %d/%d: pfn %u is in two free blocks (one at "
						"pfn %u, order %u)",
						zone->node, zone->zone_idx,
						zone->zone_start_pfn + i, pfn, order);
					r = -EIO;
				}
				seen[i / 64] |= 1ull << (i % 64);
				covered++;
			}
		}
	}
	if (!r && !DEBUG_CHECK(0, log, covered == zone->managed_pages)) {
		log_err(log, "zone %d/%d: free blocks cover %u of its %u pages, with none in use",
			zone->node, zone->zone_idx, covered, zone->managed_pages);
		r = -EIO;
	}
	free(seen);
	return r;
}
