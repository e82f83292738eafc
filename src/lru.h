/*
 * LRU lists (Linux 4.8 mm/swap.c and include/linux/mm_inline.h): which list a page belongs
 * on, adding, removing, rotating and activating, and the two-touch mark_page_accessed() rule.
 *
 * The "__" functions expect the lruvec's lru_lock held; the others take it.  Pages carry
 * PG_lru while on a list; reclaim takes them off (isolation) under the lock.  Which lruvec a
 * page lives on (its node's or its zone's) is the mode's business: page_lruvec() knows.
 */
#ifndef NODELRU_LRU_H
#define NODELRU_LRU_H

#include <stdbool.h>

#include <nodelru/vmstat.h>

#include "mmzone.h"
#include "page.h"
#include "vmstat.h"

struct nlru_engine;

static inline bool is_file_lru(enum lru_list lru)
{
	return lru == LRU_INACTIVE_FILE || lru == LRU_ACTIVE_FILE;
}

static inline bool is_active_lru(enum lru_list lru)
{
	return lru == LRU_ACTIVE_ANON || lru == LRU_ACTIVE_FILE;
}

/* Anon (and shmem) pages are swap-backed; everything else is file. */
static inline enum lru_list page_lru_base_type(const struct page *page)
{
	return page_test(page, PG_swapbacked) ? LRU_INACTIVE_ANON : LRU_INACTIVE_FILE;
}

static inline enum lru_list page_lru(const struct page *page)
{
	if (page_test(page, PG_unevictable))
		return LRU_UNEVICTABLE;
	return page_lru_base_type(page) + (page_test(page, PG_active) ? LRU_ACTIVE : 0);
}

/* Pages on @lru of @lruvec: the node's list in node mode, the zone's in zone mode. */
static inline unsigned long lruvec_lru_size(const struct lruvec *lruvec, enum lru_list lru)
{
	if (lruvec_is_node(lruvec))
		return (unsigned long)node_page_state(
			lruvec->pgdat, (enum nlru_node_stat_item)(NLRU_NR_INACTIVE_ANON + lru));
	return (unsigned long)zone_page_state(
		lruvec->zone, (enum nlru_zone_stat_item)(NLRU_NR_ZONE_INACTIVE_ANON + lru));
}

/* Pages on @lru that belong to zone @zid (the 4.8 per-zone copies). */
static inline unsigned long zone_lru_size(const struct pglist_data *pgdat, int zid,
					  enum lru_list lru)
{
	return (unsigned long)zone_page_state(
		&pgdat->node_zones[zid],
		(enum nlru_zone_stat_item)(NLRU_NR_ZONE_INACTIVE_ANON + lru));
}

void __add_page_to_lru_list(struct lruvec *lruvec, struct page *page, enum lru_list lru);
void __add_page_to_lru_list_tail(struct lruvec *lruvec, struct page *page, enum lru_list lru);
void __del_page_from_lru_list(struct lruvec *lruvec, struct page *page, enum lru_list lru);
/* update_lru_size(): node and zone counters together, as 4.8's __update_lru_size(). */
void update_lru_size(struct lruvec *lruvec, enum lru_list lru, int zid, long nr);

/* lru_cache_add(): a new page onto the list its flags name; counts it as recently scanned. */
void lru_cache_add(struct nlru_engine *eng, struct page *page);
/* The same for @n pages (NULL ones skipped), one lock hold per lruvec: __pagevec_lru_add(). */
void lru_cache_add_pages(struct nlru_engine *eng, struct page *const *pages, int n);
/* New anonymous pages start on the active list (lru_cache_add_active_or_unevictable). */
void lru_cache_add_active_or_unevictable(struct nlru_engine *eng, struct page *page);
/* mark_page_accessed(): inactive+unreferenced -> referenced -> active, as Linux. */
void mark_page_accessed(struct nlru_engine *eng, struct page *page);
/*
 * rotate_reclaimable_page(): an inactive page on its list, neither locked nor dirty, to the
 * tail for quick reclaim (pgrotated); any other page stays where it is.
 */
void rotate_reclaimable_page(struct nlru_engine *eng, struct page *page);
/* putback_lru_page(): an isolated page back onto the list its flags name now. */
void putback_lru_page(struct nlru_engine *eng, struct page *page);
/*
 * isolate_lru_page(): take one page off its list for its owner (not for reclaim).  Returns
 * 0, or -EBUSY when the page is not on a list (reclaim has it isolated).
 */
int isolate_lru_page(struct nlru_engine *eng, struct page *page);

/*
 * lru_release_page(): the owner is done with an unpinned page (truncation, region teardown):
 * off its LRU list, owner fields cleared, back to the allocator.  The caller excludes
 * reclaim (owner table write-locked), so the page is on its list.
 */
void lru_release_page(struct nlru_engine *eng, struct page *page);

/*
 * lru_migrate_page(): the LRU half of a page migration (migrate_page_move_mapping() and
 * migrate_page_copy()), called under the owner's lock once the owner has seen @page is still
 * its own.  @newpage (in use, refcount 1, of @page's zone) takes @page's place on its LRU
 * list, its page flags and owner fields, and with @copy its data; @page is left in use with
 * none of them, for the caller to free.  -EAGAIN, nothing changed, when someone else holds
 * @page: off its list (reclaim has it isolated), locked, under writeback, or referenced
 * beyond its owner (a pin, a reader); -EXDEV when @newpage is of another zone.
 */
int lru_migrate_page(struct nlru_engine *eng, struct page *page, struct page *newpage, bool copy);

/*
 * Debug, lru_lock held: walk every list of @lruvec.  Each page is marked PG_lru, belongs on
 * that list and that lruvec by its flags and zone, is in use and linked both ways; each
 * list's length is its node (or zone) counter and its pages of each zone the zone counters.
 * A failure is a counted debug check (debug.h), logged.  0 or -EIO.
 */
int lruvec_check_lists(struct lruvec *lruvec);

#endif /* NODELRU_LRU_H */
