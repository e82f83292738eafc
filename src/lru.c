/*
 * lru.c - the LRU lists: one lruvec per node in node mode (Linux 4.8), one per zone in zone
 * mode (4.7), each under its own lru_lock.
 *
 * Every add and remove updates the node's and the page's zone's size counters together (the
 * 4.8 double accounting), so reclaim can tell how many pages of each list a request may use;
 * in zone mode the zone's counters are simply its own lists' sizes, as 4.7 keeps them.
 * Not here: isolation for reclaim and the scanning policy (vmscan.c).
 *
 * Linux batches additions in per-CPU pagevecs of 14.  The engine adds directly: one
 * uncontended lock per page costs about what filling a pagevec does here, and reclaim then
 * never has to drain other CPUs' pagevecs (lru_add_drain) before it can see every page.
 */
#include <errno.h>
#include <string.h>

#include "lru.h"
#include "page_alloc.h"
#include "workingset.h"

void update_lru_size(struct lruvec *lruvec, enum lru_list lru, int zid, long nr)
{
	struct pglist_data *pgdat = lruvec->pgdat;

	mod_node_page_state(pgdat, (enum nlru_node_stat_item)(NLRU_NR_INACTIVE_ANON + lru), nr);
	mod_zone_page_state(&pgdat->node_zones[zid],
			    (enum nlru_zone_stat_item)(NLRU_NR_ZONE_INACTIVE_ANON + lru), nr);
}

/*
 * A page about to go on @lru of @lruvec: marked PG_lru, of that list by its flags, of that
 * lruvec by its zone, and on no list now (links cleared, not the list's only page).  Under the
 * lru_lock, which the witness can tell in full builds.
 */
static void check_lru_add(struct lruvec *lruvec, struct page *page, enum lru_list lru)
{
	struct pglist_data *pgdat = lruvec->pgdat;
	uint32_t pfn = page_to_pfn(pgdat, page);

	if (!CHECK_FULL(pgdat->log, page_test(page, PG_lru) && page_lru(page) == lru &&
					    page_lruvec(pgdat, page) == lruvec &&
					    page->next == PFN_NIL && page->prev == PFN_NIL &&
					    lruvec->lists[lru].first != pfn))
		log_err(pgdat->log, "node %d pfn %u (flags %#x) added to LRU list %d",
			pgdat->node_id, pfn, page_flags(page), (int)lru);
	CHECK_FULL(pgdat->log, witness_holds(LOCK_LRU));
}

void __add_page_to_lru_list(struct lruvec *lruvec, struct page *page, enum lru_list lru)
{
	struct pglist_data *pgdat = lruvec->pgdat;

	check_lru_add(lruvec, page, lru);
	update_lru_size(lruvec, lru, (int)page_zonenum(page), 1);
	pfnlist_add(&lruvec->lists[lru], pgdat->pages, page_to_pfn(pgdat, page));
}

void __add_page_to_lru_list_tail(struct lruvec *lruvec, struct page *page, enum lru_list lru)
{
	struct pglist_data *pgdat = lruvec->pgdat;

	check_lru_add(lruvec, page, lru);
	update_lru_size(lruvec, lru, (int)page_zonenum(page), 1);
	pfnlist_add_tail(&lruvec->lists[lru], pgdat->pages, page_to_pfn(pgdat, page));
}

void __del_page_from_lru_list(struct lruvec *lruvec, struct page *page, enum lru_list lru)
{
	struct pglist_data *pgdat = lruvec->pgdat;

	/* Of this list by its flags (PG_lru may be cleared already: isolation) and lruvec. */
	if (!CHECK_FULL(pgdat->log, page_lru(page) == lru && page_lruvec(pgdat, page) == lruvec &&
					    lruvec_lru_size(lruvec, lru) > 0))
		log_err(pgdat->log, "node %d pfn %u (flags %#x) taken off LRU list %d",
			pgdat->node_id, page_to_pfn(pgdat, page), page_flags(page), (int)lru);
	CHECK_FULL(pgdat->log, witness_holds(LOCK_LRU));
	pfnlist_del(&lruvec->lists[lru], pgdat->pages, page_to_pfn(pgdat, page));
	update_lru_size(lruvec, lru, (int)page_zonenum(page), -1);
}

/* __pagevec_lru_add_fn(): what every LRU addition counts for get_scan_count(). */
static void lru_add_locked(struct lruvec *lruvec, struct page *page)
{
	enum lru_list lru = page_lru(page);
	int file = is_file_lru(lru);

	page_set(page, PG_lru);
	__add_page_to_lru_list(lruvec, page, lru);
	if (lru != LRU_UNEVICTABLE) {
		lruvec->reclaim_stat.recent_scanned[file]++;
		if (is_active_lru(lru))
			lruvec->reclaim_stat.recent_rotated[file]++;
	}
}

/* The lruvec of @page, locked. */
static struct lruvec *lock_page_lruvec(struct nlru_engine *eng, const struct page *page)
{
	struct lruvec *lruvec = page_lruvec(page_pgdat(eng, page), page);

	spin_lock(&lruvec->lru_lock);
	return lruvec;
}

void lru_cache_add(struct nlru_engine *eng, struct page *page)
{
	struct lruvec *lruvec = lock_page_lruvec(eng, page);

	lru_add_locked(lruvec, page);
	spin_unlock(&lruvec->lru_lock);
}

void lru_cache_add_pages(struct nlru_engine *eng, struct page *const *pages, int n)
{
	struct lruvec *locked = NULL;

	for (int i = 0; i < n; i++) {
		struct lruvec *lruvec;

		if (!pages[i])
			continue;
		lruvec = page_lruvec(page_pgdat(eng, pages[i]), pages[i]);
		if (lruvec != locked) {
			if (locked)
				spin_unlock(&locked->lru_lock);
			spin_lock(&lruvec->lru_lock);
			locked = lruvec;
		}
		lru_add_locked(lruvec, pages[i]);
	}
	if (locked)
		spin_unlock(&locked->lru_lock);
}

void lru_cache_add_active_or_unevictable(struct nlru_engine *eng, struct page *page)
{
	if (!page_test(page, PG_mlocked))
		page_set(page, PG_active);
	else
		page_set(page, PG_unevictable);
	lru_cache_add(eng, page);
}

/* __activate_page(): inactive list -> active list head. */
static void activate_page_locked(struct nlru_engine *eng, struct lruvec *lruvec, struct page *page)
{
	enum lru_list lru;
	int file;

	if (!page_test(page, PG_lru) || page_test(page, PG_active) ||
	    page_test(page, PG_unevictable))
		return;
	lru = page_lru_base_type(page);
	file = is_file_lru(lru);
	__del_page_from_lru_list(lruvec, page, lru);
	page_set(page, PG_active);
	__add_page_to_lru_list(lruvec, page, lru + LRU_ACTIVE);
	count_vm_event(eng, NLRU_PGACTIVATE);
	lruvec->reclaim_stat.recent_scanned[file]++;
	lruvec->reclaim_stat.recent_rotated[file]++;
}

void mark_page_accessed(struct nlru_engine *eng, struct page *page)
{
	struct lruvec *lruvec;

	if (page_test(page, PG_active) || page_test(page, PG_unevictable) ||
	    !page_test(page, PG_referenced)) {
		page_set(page, PG_referenced);
		return;
	}
	/* Second touch of an inactive page: promote it. */
	lruvec = lock_page_lruvec(eng, page);
	activate_page_locked(eng, lruvec, page);
	spin_unlock(&lruvec->lru_lock);
	page_clear(page, PG_referenced);
	/* An activation ages the workingset clock as an eviction does. */
	if (!page_test(page, PG_swapbacked))
		workingset_activation(lruvec);
}

void rotate_reclaimable_page(struct nlru_engine *eng, struct page *page)
{
	struct lruvec *lruvec = lock_page_lruvec(eng, page);
	enum lru_list lru;

	/* Locked or dirtied again since its write began: in use, so not for quick reclaim. */
	if (page_test(page, PG_lru) && !page_test(page, PG_locked) && !page_test(page, PG_dirty) &&
	    !page_test(page, PG_active) && !page_test(page, PG_unevictable)) {
		lru = page_lru_base_type(page);
		__del_page_from_lru_list(lruvec, page, lru);
		__add_page_to_lru_list_tail(lruvec, page, lru);
		count_vm_event(eng, NLRU_PGROTATED);
	}
	spin_unlock(&lruvec->lru_lock);
}

void putback_lru_page(struct nlru_engine *eng, struct page *page)
{
	struct lruvec *lruvec = lock_page_lruvec(eng, page);

	page_set(page, PG_lru);
	__add_page_to_lru_list(lruvec, page, page_lru(page));
	spin_unlock(&lruvec->lru_lock);
}

int isolate_lru_page(struct nlru_engine *eng, struct page *page)
{
	struct lruvec *lruvec = lock_page_lruvec(eng, page);
	int r = -EBUSY;

	if (page_test(page, PG_lru)) {
		page_clear(page, PG_lru);
		__del_page_from_lru_list(lruvec, page, page_lru(page));
		r = 0;
	}
	spin_unlock(&lruvec->lru_lock);
	return r;
}

void lru_release_page(struct nlru_engine *eng, struct page *page)
{
	/* Reclaim is excluded, so the page is on its list (the call is made at every level). */
	int isolated = isolate_lru_page(eng, page);

	CHECK_CHEAP(&eng->log, isolated == 0);
	set_page_mapping(page, 0);
	set_page_index(page, 0);
	__atomic_store_n(&page->refcount, 0, __ATOMIC_RELEASE);
	free_pages_trusted(eng, page, 0);
}

int lru_migrate_page(struct nlru_engine *eng, struct page *page, struct page *newpage, bool copy)
{
	struct pglist_data *pgdat = page_pgdat(eng, page);
	const uint32_t pageflags = (1u << NR_PAGEFLAGS) - 1,
		       busy = (1u << PG_locked) | (1u << PG_writeback) | (1u << PG_buddy);
	uint32_t pfn = page_to_pfn(pgdat, page), newpfn, flags;
	struct lruvec *lruvec;

	if (page_pgdat(eng, newpage) != pgdat || page_zonenum(newpage) != page_zonenum(page))
		return -EXDEV;
	newpfn = page_to_pfn(pgdat, newpage);
	lruvec = lock_page_lruvec(eng, page);
	flags = page_flags(page);
	/*
	 * Under the owner's lock and the LRU lock nobody can take a new reference: a pin or a
	 * reader needs the first, reclaim's isolation the second.  The owner's reference is the
	 * only one allowed (migrate_page_move_mapping()'s expected count).
	 */
	if (!(flags & (1u << PG_lru)) || (flags & busy) ||
	    __atomic_load_n(&page->refcount, __ATOMIC_ACQUIRE) != 1) {
		spin_unlock(&lruvec->lru_lock);
		return -EAGAIN;
	}
	if (copy)
		memcpy(page_address(pgdat, newpfn), page_address(pgdat, pfn), PAGE_SIZE);
	pfnlist_replace(&lruvec->lists[page_lru(page)], pgdat->pages, pfn, newpfn);
	set_page_mapping(newpage, page->mapping);
	set_page_index(newpage, page_index(page));
	newpage->private = page->private;
	set_page_flags(newpage, (page_flags(newpage) & ~pageflags) | (flags & pageflags));
	set_page_flags(page, flags & ~pageflags);
	set_page_mapping(page, 0);
	set_page_index(page, 0);
	page->private = 0;
	spin_unlock(&lruvec->lru_lock);
	return 0;
}

/* One page met on @lru of @lruvec: of that list, that lruvec, in use, linked both ways. */
static bool lru_page_ok(const struct lruvec *lruvec, const struct pfnlist *list, uint32_t pfn,
			enum lru_list lru)
{
	const struct page *pages = lruvec->pgdat->pages, *page = &pages[pfn];

	return pfn < lruvec->pgdat->node_present_pages && page_test(page, PG_lru) &&
	       !page_test(page, PG_buddy) && page_lru(page) == lru &&
	       page_lruvec(lruvec->pgdat, page) == lruvec &&
	       __atomic_load_n(&page->refcount, __ATOMIC_RELAXED) > 0 &&
	       (page->prev == PFN_NIL ? list->first == pfn : pages[page->prev].next == pfn) &&
	       (page->next == PFN_NIL ? list->last == pfn : pages[page->next].prev == pfn);
}

int lruvec_check_lists(struct lruvec *lruvec)
{
	struct pglist_data *pgdat = lruvec->pgdat;
	const struct nlru_log *log = pgdat->log;

	for (int lru = 0; lru < NR_LRU_LISTS; lru++) {
		const struct pfnlist *list = &lruvec->lists[lru];
		long per_zone[MAX_NR_ZONES] = {0}, total = 0;
		uint32_t pfn;

		/* Bounded: a list that loops back on itself would otherwise never end. */
		for (pfn = list->first; pfn != PFN_NIL && total <= pgdat->node_present_pages;
		     pfn = pgdat->pages[pfn].next) {
			if (!DEBUG_CHECK(0, log,
					 lru_page_ok(lruvec, list, pfn, (enum lru_list)lru))) {
				log_err(log,
					"node %d pfn %u (flags %#x) on LRU list %d is not its page",
					pgdat->node_id, pfn,
					pfn < pgdat->node_present_pages
						? page_flags(&pgdat->pages[pfn])
						: 0,
					lru);
				return -EIO;
			}
			per_zone[page_zonenum(&pgdat->pages[pfn])]++;
			total++;
		}
		if (!DEBUG_CHECK(0, log, pfn == PFN_NIL) ||
		    !DEBUG_CHECK(0, log,
				 (long)lruvec_lru_size(lruvec, (enum lru_list)lru) == total)) {
			log_err(log, "node %d LRU list %d holds %ld%s pages, its counter says %lu",
				pgdat->node_id, lru, total, pfn == PFN_NIL ? "" : "+",
				lruvec_lru_size(lruvec, (enum lru_list)lru));
			return -EIO;
		}
		for (int zid = 0; zid < MAX_NR_ZONES; zid++) {
			if (lruvec->zone && zid != lruvec->zone->zone_idx)
				continue;
			if (!DEBUG_CHECK(0, log,
					 (long)zone_lru_size(pgdat, zid, (enum lru_list)lru) ==
						 per_zone[zid])) {
				log_err(log,
					"node %d zone %d LRU list %d holds %ld pages, its counter "
					"says %lu",
					pgdat->node_id, zid, lru, per_zone[zid],
					zone_lru_size(pgdat, zid, (enum lru_list)lru));
				return -EIO;
			}
		}
	}
	return 0;
}
