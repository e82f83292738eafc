/*
 * buddy.c - the binary buddy allocator of a zone (Linux 4.8 __rmqueue_smallest, expand,
 * __free_one_page), on node-local pfn lists, with grouping by mobility: a free list per
 * migrate type, each pageblock's type in zone->pageblock_flags, and 4.8's fallbacks
 * (__rmqueue_fallback, steal_suitable_fallback, can_steal_fallback) and high-order atomic
 * reserve (reserve_highatomic_pageblock, unreserve_highatomic_pageblock).
 *
 * Locking: zone->lock protects free_area and every page on it, and the pageblock types
 * (written here; read lock-free by frees).  NR_FREE_PAGES is written only here, under that
 * lock, and read lock-free by the watermark checks.
 *
 * Buddy arithmetic runs on offsets from the zone start, so blocks are aligned within their
 * zone whatever the zone's position in the node.  A free block is marked on its first page
 * only (PG_buddy, its order and the type of its list), as in Linux; the pages inside it are
 * plain free pages with a refcount of 0, which is what lets a double free be told from a
 * first one.
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

/* The type of the free list a free block's head is on. */
static int free_list_type(const struct page *page)
{
	return (int)((page_flags(page) & PAGE_FREE_MT_MASK) >> PAGE_FREE_MT_SHIFT);
}

static void add_to_free_area(struct zone *zone, uint32_t pfn, unsigned int order, int migratetype,
			     bool tail)
{
	struct page *page = &zone_pages(zone)[pfn];
	struct pfnlist *list = &zone->free_area[order].free_list[migratetype];

	set_page_flags(page, (page_flags(page) & ~(PAGE_ORDER_MASK | PAGE_FREE_MT_MASK)) |
				     (1u << PG_buddy) | (order << PAGE_ORDER_SHIFT) |
				     ((uint32_t)migratetype << PAGE_FREE_MT_SHIFT));
	if (tail)
		pfnlist_add_tail(list, zone_pages(zone), pfn);
	else
		pfnlist_add(list, zone_pages(zone), pfn);
	area_nr_free_add(&zone->free_area[order], 1);
}

static void del_from_free_area(struct zone *zone, uint32_t pfn, unsigned int order)
{
	struct page *page = &zone_pages(zone)[pfn];

	CHECK_FULL(zone->zone_pgdat->log,
		   page_is_buddy(page, order) && zone->free_area[order].nr_free > 0);
	pfnlist_del(&zone->free_area[order].free_list[free_list_type(page)], zone_pages(zone), pfn);
	area_nr_free_add(&zone->free_area[order], -1);
	set_page_flags(page, page_flags(page) &
				     ~((1u << PG_buddy) | PAGE_ORDER_MASK | PAGE_FREE_MT_MASK));
}

/* expand(): split a block of order @high down to @low, freeing the upper halves. */
static void expand(struct zone *zone, uint32_t pfn, unsigned int low, unsigned int high,
		   int migratetype)
{
	uint32_t size = 1u << high;

	while (high > low) {
		high--;
		size >>= 1;
		add_to_free_area(zone, pfn + size, high, migratetype, false);
	}
}

/* A block of @order at @pfn leaves the free lists for an allocation. */
static void account_taken(struct zone *zone, unsigned int order)
{
	__mod_zone_page_state(zone, NLRU_NR_FREE_PAGES, -(1l << order));
	/* Its writers hold the zone's lock: the count is exact here (order 0: per batch). */
	DEBUG_CHECK(order ? 1 : 2, zone->zone_pgdat->log,
		    zone_page_state(zone, NLRU_NR_FREE_PAGES) >= 0);
	CHECK_FULL(zone->zone_pgdat->log, witness_holds(LOCK_ZONE));
}

uint32_t __rmqueue_smallest(struct zone *zone, unsigned int order, int migratetype)
{
	for (unsigned int cur = order; cur < MAX_ORDER; cur++) {
		uint32_t pfn = zone->free_area[cur].free_list[migratetype].first;

		if (pfn == PFN_NIL)
			continue;
		del_from_free_area(zone, pfn, cur);
		expand(zone, pfn, order, cur, migratetype);
		account_taken(zone, order);
		return pfn;
	}
	return PFN_NIL;
}

/* The order lists are fallen back to when a type's own are empty (fallbacks[] of 4.8). */
static const int fallbacks[MIGRATE_PCPTYPES][2] = {
	[MIGRATE_UNMOVABLE] = {MIGRATE_RECLAIMABLE, MIGRATE_MOVABLE},
	[MIGRATE_RECLAIMABLE] = {MIGRATE_UNMOVABLE, MIGRATE_MOVABLE},
	[MIGRATE_MOVABLE] = {MIGRATE_RECLAIMABLE, MIGRATE_UNMOVABLE},
};

/*
 * move_freepages(): the free blocks heading in [@start, @end] (zone pfns) onto
 * @migratetype's lists.  Returns the pages moved.
 */
static unsigned long move_freepages(struct zone *zone, uint32_t start, uint32_t end,
				    int migratetype)
{
	struct page *pages = zone_pages(zone);
	unsigned long moved = 0;

	for (uint32_t pfn = start; pfn <= end;) {
		unsigned int order;

		if (!page_test(&pages[pfn], PG_buddy)) {
			pfn++;
			continue;
		}
		order = page_order(&pages[pfn]);
		del_from_free_area(zone, pfn, order);
		add_to_free_area(zone, pfn, order, migratetype, false);
		pfn += 1u << order;
		moved += 1ul << order;
	}
	return moved;
}

unsigned long move_freepages_block(struct zone *zone, uint32_t pfn, int migratetype)
{
	uint32_t idx = (pfn - zone->zone_start_pfn) & ~(pageblock_nr_pages - 1);
	uint32_t start = zone->zone_start_pfn + idx, end = start + pageblock_nr_pages - 1;

	/* A partial pageblock at the zone's end is not moved, as 4.8 leaves one that crosses
	 * the zone's boundary. */
	if (end >= zone_end_pfn(zone))
		return 0;
	return move_freepages(zone, start, end, migratetype);
}

/* change_pageblock_range(): a block of @order >= pageblock_order becomes @migratetype's. */
static void change_pageblock_range(struct zone *zone, uint32_t pfn, unsigned int order,
				   int migratetype)
{
	for (uint32_t n = 1u << (order - pageblock_order); n--; pfn += pageblock_nr_pages)
		set_pageblock_migratetype(zone, pfn, migratetype);
}

/*
 * can_steal_fallback(): may an allocation of @start_mt falling back on a block of @order take
 * the rest of that pageblock too?  Large blocks, and unmovable and reclaimable allocations
 * always (their pollution of movable blocks costs more than the other way round).
 */
static bool can_steal_fallback(unsigned int order, int start_mt, bool mobility_disabled)
{
	return order >= pageblock_order / 2 || start_mt == MIGRATE_RECLAIMABLE ||
	       start_mt == MIGRATE_UNMOVABLE || mobility_disabled;
}

/*
 * steal_suitable_fallback(): take the pageblock of the free block at @pfn for @start_type:
 * whole blocks of pageblock_order and up outright, otherwise its free pages, and the block
 * itself if more than half of it was free.
 */
static void steal_suitable_fallback(struct zone *zone, uint32_t pfn, int start_type)
{
	unsigned int order = page_order(&zone_pages(zone)[pfn]);
	unsigned long pages;

	if (order >= pageblock_order) {
		change_pageblock_range(zone, pfn, order, start_type);
		return;
	}
	pages = move_freepages_block(zone, pfn, start_type);
	if (pages >= (1u << (pageblock_order - 1)) || zone->zone_pgdat->group_by_mobility_disabled)
		set_pageblock_migratetype(zone, pfn, start_type);
}

int find_suitable_fallback(const struct free_area *area, unsigned int order, int migratetype,
			   bool only_stealable, bool *can_steal, bool mobility_disabled)
{
	if (!__atomic_load_n(&area->nr_free, __ATOMIC_RELAXED))
		return -1;
	*can_steal = false;
	for (int i = 0; i < 2; i++) {
		int fallback_mt = fallbacks[migratetype][i];

		if (pfnlist_empty(&area->free_list[fallback_mt]))
			continue;
		if (can_steal_fallback(order, migratetype, mobility_disabled))
			*can_steal = true;
		if (!only_stealable || *can_steal)
			return fallback_mt;
	}
	return -1;
}

/*
 * __rmqueue_fallback(): the largest free block of another type, so that one steal takes as
 * much of a pageblock as it can and later allocations of this type stay there.
 */
static uint32_t __rmqueue_fallback(struct zone *zone, unsigned int order, int start_migratetype)
{
	bool disabled = zone->zone_pgdat->group_by_mobility_disabled;

	for (int cur = MAX_ORDER - 1; cur >= (int)order; cur--) {
		struct free_area *area = &zone->free_area[cur];
		bool can_steal;
		int fallback_mt = find_suitable_fallback(area, (unsigned int)cur, start_migratetype,
							 false, &can_steal, disabled);
		uint32_t pfn;

		if (fallback_mt == -1)
			continue;
		pfn = area->free_list[fallback_mt].first;
		if (can_steal)
			steal_suitable_fallback(zone, pfn, start_migratetype);
		del_from_free_area(zone, pfn, (unsigned int)cur);
		expand(zone, pfn, order, (unsigned int)cur, start_migratetype);
		account_taken(zone, order);
		return pfn;
	}
	return PFN_NIL;
}

uint32_t __rmqueue(struct zone *zone, unsigned int order, int migratetype)
{
	uint32_t pfn = __rmqueue_smallest(zone, order, migratetype);

	if (unlikely(pfn == PFN_NIL))
		pfn = __rmqueue_fallback(zone, order, migratetype);
	return pfn;
}

void reserve_highatomic_pageblock(struct zone *zone, uint32_t pfn)
{
	/* A pageblock, plus about 1 % of the zone; checked without the lock first (racy but
	 * harmless, as in 4.8), then under it. */
	unsigned long max_managed = zone->managed_pages / 100 + pageblock_nr_pages;
	int mt;

	if (__atomic_load_n(&zone->nr_reserved_highatomic, __ATOMIC_RELAXED) >= max_managed)
		return;
	spin_lock(&zone->lock);
	mt = get_pfnblock_migratetype(zone, pfn);
	if (zone->nr_reserved_highatomic < max_managed && mt != MIGRATE_HIGHATOMIC) {
		__atomic_store_n(&zone->nr_reserved_highatomic,
				 zone->nr_reserved_highatomic + pageblock_nr_pages,
				 __ATOMIC_RELAXED);
		set_pageblock_migratetype(zone, pfn, MIGRATE_HIGHATOMIC);
		move_freepages_block(zone, pfn, MIGRATE_HIGHATOMIC);
	}
	spin_unlock(&zone->lock);
}

bool unreserve_highatomic_pageblock_zone(struct zone *zone, int migratetype)
{
	if (__atomic_load_n(&zone->nr_reserved_highatomic, __ATOMIC_RELAXED) <= pageblock_nr_pages)
		return false;
	spin_lock(&zone->lock);
	for (unsigned int order = 0; order < MAX_ORDER; order++) {
		uint32_t pfn = zone->free_area[order].free_list[MIGRATE_HIGHATOMIC].first;

		if (pfn == PFN_NIL)
			continue;
		__atomic_store_n(&zone->nr_reserved_highatomic,
				 zone->nr_reserved_highatomic -
					 MIN((unsigned long)pageblock_nr_pages,
					     zone->nr_reserved_highatomic),
				 __ATOMIC_RELAXED);
		/* To the caller's type directly, not by the stealing rules: it needs the pages. */
		set_pageblock_migratetype(zone, pfn, migratetype);
		move_freepages_block(zone, pfn, migratetype);
		spin_unlock(&zone->lock);
		return true;
	}
	spin_unlock(&zone->lock);
	return false;
}

int isolate_free_block(struct zone *zone, uint32_t pfn, unsigned long min_free)
{
	struct page *pages = zone_pages(zone);
	unsigned int order;

	if (!page_test(&pages[pfn], PG_buddy))
		return -1;
	order = page_order(&pages[pfn]);
	if (zone_page_state(zone, NLRU_NR_FREE_PAGES) - (1l << order) < (long)min_free)
		return -1;
	del_from_free_area(zone, pfn, order);
	account_taken(zone, order);
	/* split_page(): every page of the block an order-0 page of its own. */
	for (uint32_t i = 0; i < 1u << order; i++) {
		struct page *page = &pages[pfn + i];

		set_page_flags(page, page_flags(page) & (PAGE_NODE_MASK | PAGE_ZONE_MASK));
		__atomic_store_n(&page->refcount, 1, __ATOMIC_RELEASE);
	}
	return (int)order;
}

/* The order of the free block holding @pfn, its head in *@head; -1 if @pfn is not free. */
static int free_block_of(struct zone *zone, uint32_t pfn, uint32_t *head)
{
	struct page *pages = zone_pages(zone);
	uint32_t idx = pfn - zone->zone_start_pfn;

	for (unsigned int order = 0; order < MAX_ORDER; order++) {
		uint32_t h = zone->zone_start_pfn + (idx & ~((1u << order) - 1));

		if (!page_test(&pages[h], PG_buddy))
			continue;
		/* A free block at or below @pfn's alignment: it holds @pfn, or nothing does. */
		*head = h;
		return page_order(&pages[h]) >= order ? (int)page_order(&pages[h]) : -1;
	}
	return -1;
}

/* Pages [@first, @end) of @zone, each unused at order 0, back as the largest aligned blocks. */
static void free_range_locked(struct zone *zone, uint32_t first, uint32_t end, int migratetype)
{
	while (first < end) {
		uint32_t idx = first - zone->zone_start_pfn;
		unsigned int order = 0;

		while (order + 1 < MAX_ORDER && !(idx & ((2u << order) - 1)) &&
		       first + (2u << order) <= end)
			order++;
		free_one_page_locked(zone, first, order, migratetype);
		first += 1u << order;
	}
}

bool take_free_range(struct zone *zone, uint32_t start, uint32_t n, int migratetype)
{
	struct page *pages = zone_pages(zone);
	uint32_t end = start + n, pfn, head = 0;
	int order;

	CHECK_FULL(zone->zone_pgdat->log, witness_holds(LOCK_ZONE));
	if (start < zone->zone_start_pfn || end > zone->zone_start_pfn + zone->spanned_pages)
		return false;
	for (pfn = start; pfn < end; pfn = head + (1u << order)) {
		order = free_block_of(zone, pfn, &head);
		if (order < 0 || free_list_type(&pages[head]) != migratetype)
			return false;
	}
	for (pfn = start; pfn < end;) {
		uint32_t block_end;

		order = free_block_of(zone, pfn, &head);
		block_end = head + (1u << order);
		del_from_free_area(zone, head, (unsigned int)order);
		account_taken(zone, (unsigned int)order);
		for (uint32_t p = head; p < block_end; p++) {
			set_page_flags(&pages[p],
				       page_flags(&pages[p]) & (PAGE_NODE_MASK | PAGE_ZONE_MASK));
			__atomic_store_n(&pages[p].refcount, p >= start && p < end,
					 __ATOMIC_RELEASE);
		}
		free_range_locked(zone, head, MAX(head, start), migratetype);
		free_range_locked(zone, MIN(block_end, end), block_end, migratetype);
		pfn = block_end;
	}
	return true;
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

/*
 * 4.8's tail placement: a merged block whose buddy one order up is free goes to the tail of
 * its list, so that it is taken last and has the best chance to merge again.  @idx is the
 * block's offset in the zone.
 */
static bool higher_buddy_free(struct zone *zone, uint32_t idx, unsigned int order)
{
	uint32_t combined = idx & ~(1u << order), higher_buddy = combined ^ (2u << order);

	return order < MAX_ORDER - 2 && higher_buddy + (2u << order) <= zone->spanned_pages &&
	       page_is_buddy(&zone_pages(zone)[zone->zone_start_pfn + higher_buddy], order + 1);
}

void free_one_page_locked(struct zone *zone, uint32_t pfn, unsigned int order, int migratetype)
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
	add_to_free_area(zone, zone->zone_start_pfn + idx, order, migratetype,
			 higher_buddy_free(zone, idx, order));
	__mod_zone_page_state(zone, NLRU_NR_FREE_PAGES, 1l << freed_order);
}

int rmqueue_bulk(struct zone *zone, int count, uint32_t *dst, int migratetype)
{
	int n;

	for (n = 0; n < count; n++) {
		uint32_t pfn = __rmqueue(zone, 0, migratetype);

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
		free_one_page_locked(zone, pfns[i], 0, get_pfnblock_migratetype(zone, pfns[i]));
}

int zone_free_all(struct zone *zone)
{
	uint32_t idx = 0;

	zone->pageblock_flags =
		calloc((zone->spanned_pages + pageblock_nr_pages - 1) / pageblock_nr_pages, 1);
	if (!zone->pageblock_flags)
		return -ENOMEM;
	for (idx = 0; idx < zone->spanned_pages; idx += pageblock_nr_pages)
		set_pageblock_migratetype(zone, zone->zone_start_pfn + idx, MIGRATE_MOVABLE);
	idx = 0;
	while (idx < zone->spanned_pages) {
		unsigned int order = MAX_ORDER - 1;

		while ((idx & ((1u << order) - 1)) || idx + (1u << order) > zone->spanned_pages)
			order--;
		add_to_free_area(zone, zone->zone_start_pfn + idx, order, MIGRATE_MOVABLE, false);
		__mod_zone_page_state(zone, NLRU_NR_FREE_PAGES, 1l << order);
		idx += 1u << order;
	}
	return 0;
}

void zone_buddy_destroy(struct zone *zone)
{
	free(zone->pageblock_flags);
	zone->pageblock_flags = NULL;
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

/* One free list walked: its blocks' count in *@n, or -EIO (logged). */
static int check_free_list(struct zone *zone, const struct nlru_log *log, unsigned int order,
			   int mt, unsigned long *n)
{
	const struct pfnlist *list = &zone->free_area[order].free_list[mt];
	unsigned long most = (zone->spanned_pages >> order) + 1;
	struct page *pages = zone_pages(zone);
	uint32_t pfn;

	*n = 0;
	/* Bounded: a list that loops back on itself would otherwise never end. */
	for (pfn = list->first; pfn != PFN_NIL && *n < most; pfn = pages[pfn].next) {
		if (!DEBUG_CHECK(0, log, pfn < zone_end_pfn(zone)) ||
		    !DEBUG_CHECK(0, log, free_block_ok(zone, &pages[pfn], pfn, order)) ||
		    !DEBUG_CHECK(0, log, free_list_type(&pages[pfn]) == mt) ||
		    !DEBUG_CHECK(0, log, links_agree(list, pages, pfn))) {
			log_err(log,
				"zone %d/%d: pfn %u on the order-%u free list of type %d is not "
				"a free block of that order and type, or its links are broken",
				zone->node, zone->zone_idx, pfn, order, mt);
			return -EIO;
		}
		(*n)++;
	}
	if (!DEBUG_CHECK(0, log, pfn == PFN_NIL)) {
		log_err(log, "zone %d/%d: the order-%u free list of type %d does not end",
			zone->node, zone->zone_idx, order, mt);
		return -EIO;
	}
	return 0;
}

int zone_check_free_lists(struct zone *zone, const struct nlru_log *log)
{
	long free = 0;

	for (unsigned int order = 0; order < MAX_ORDER; order++) {
		unsigned long blocks = 0;

		for (int mt = 0; mt < MIGRATE_TYPES; mt++) {
			unsigned long n;

			if (check_free_list(zone, log, order, mt, &n))
				return -EIO;
			blocks += n;
		}
		if (!DEBUG_CHECK(0, log, blocks == zone->free_area[order].nr_free)) {
			log_err(log, "zone %d/%d: order %u lists %lu blocks, nr_free says %lu",
				zone->node, zone->zone_idx, order, blocks,
				zone->free_area[order].nr_free);
			return -EIO;
		}
		free += (long)blocks << order;
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
	for (unsigned int list = 0; list < MAX_ORDER * MIGRATE_TYPES && !r; list++) {
		unsigned int order = list / MIGRATE_TYPES;
		unsigned long n = 0;
		uint32_t pfn;

		/* zone_check_free_lists() has seen the lists whole: n only bounds a new loop. */
		for (pfn = zone->free_area[order].free_list[list % MIGRATE_TYPES].first;
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
