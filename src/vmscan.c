/*
 * vmscan.c - page reclaim (mm/vmscan.c): get_scan_count's balance of anon against file,
 * proportional scanning of an lruvec's lists, isolation that skips pages of zones the request
 * cannot use, the active list's aging, shrink_page_list's reference checks and swap-out, and
 * direct reclaim's priority loop.
 *
 * Both modes share all of it: reclaim works on an lruvec, which is a node's in node mode
 * (4.8 shrink_node) and a zone's in zone mode (4.7 shrink_zone).  What differs is which
 * lruvecs direct reclaim visits (shrink_zones_48 / shrink_zones_47 below) and the few
 * 4.8 rules that only make sense for a node lruvec holding several zones' pages (eligibility
 * in inactive_list_is_low and inactive_reclaimable_pages); each is marked where it is.
 *
 * Locking: the lruvec's lru_lock around isolation and putback only; the region table's read
 * lock across a whole shrink pass, so no region disappears while reclaim holds its pages
 * isolated.  Pages are written out with no lock held (anon.c).
 *
 * Not modelled: memcg.  Where reclaim waits (congestion, throttle_direct_reclaim()) is
 * vmscan_throttle.c's.  docs/design.md lists what differs.
 */
#include <string.h>
#include <time.h>

#include "anon.h"
#include "blkdev.h"
#include "compaction.h"
#include "current.h"
#include "filemap.h"
#include "flusher.h"
#include "gfp.h"
#include "lru.h"
#include "owner.h"
#include "page_alloc.h"
#include "page_writeback.h"
#include "reclaim_mode.h"
#include "shrinker.h"
#include "swap.h"
#include "vmscan.h"
#include "vmstat.h"
#include "watermark.h"
#include "zonelist.h"

__thread unsigned int current_flags;

enum scan_balance { SCAN_EQUAL, SCAN_FRACT, SCAN_ANON, SCAN_FILE };

enum page_references { PAGEREF_RECLAIM, PAGEREF_RECLAIM_CLEAN, PAGEREF_KEEP, PAGEREF_ACTIVATE };

/* Too many direct reclaimers isolating at once: how often to wait before going on anyway. */
#define MAX_ISOLATED_WAITS 10

unsigned long zone_reclaimable_pages(const struct nlru_engine *eng, const struct zone *zone)
{
	unsigned long nr = (unsigned long)(zone_page_state(zone, NLRU_NR_ZONE_INACTIVE_FILE) +
					   zone_page_state(zone, NLRU_NR_ZONE_ACTIVE_FILE));

	if (get_nr_swap_pages(eng) > 0)
		nr += (unsigned long)(zone_page_state(zone, NLRU_NR_ZONE_INACTIVE_ANON) +
				      zone_page_state(zone, NLRU_NR_ZONE_ACTIVE_ANON));
	return nr;
}

unsigned long lruvec_reclaimable_pages(const struct nlru_engine *eng, const struct lruvec *lruvec)
{
	unsigned long nr = lruvec_lru_size(lruvec, LRU_ACTIVE_FILE) +
			   lruvec_lru_size(lruvec, LRU_INACTIVE_FILE) +
			   (unsigned long)lruvec_page_state(lruvec, NLRU_NR_ISOLATED_FILE);

	if (get_nr_swap_pages(eng) > 0)
		nr += lruvec_lru_size(lruvec, LRU_ACTIVE_ANON) +
		      lruvec_lru_size(lruvec, LRU_INACTIVE_ANON) +
		      (unsigned long)lruvec_page_state(lruvec, NLRU_NR_ISOLATED_ANON);
	return nr;
}

bool lruvec_reclaimable(const struct nlru_engine *eng, const struct lruvec *lruvec)
{
	long scanned = lruvec_page_state(lruvec, NLRU_NR_PAGES_SCANNED);

	/* A counter caught between a reset and an update reads as nothing scanned. */
	return (unsigned long)MAX(scanned, 0) < lruvec_reclaimable_pages(eng, lruvec) * 6;
}

/*
 * Reclaim events are kept per zone: zone mode books them on the zone reclaimed (4.7's
 * pgscan_kswapd_<zone>, ...), node mode on the request's highest zone, and its dumps print
 * the sum (4.8's single pgscan_kswapd, ...).
 */
static void count_reclaim_event(struct nlru_engine *eng, enum nlru_vm_event_item item,
				const struct lruvec *lruvec, const struct scan_control *sc,
				unsigned long nr)
{
	count_zid_vm_events(eng, item,
			    lruvec_is_node(lruvec) ? sc->reclaim_idx : lruvec->zone->zone_idx, nr);
}

/*
 * inactive_list_is_low(): is the inactive list of a type smaller than the active one needs?
 * 4.8 leaves out the pages of zones above reclaim_idx, which this request cannot use (a zone
 * lruvec holds no such pages).
 */
static bool inactive_list_is_low(const struct nlru_engine *eng, const struct lruvec *lruvec,
				 bool file, const struct scan_control *sc)
{
	const struct pglist_data *pgdat = lruvec->pgdat;
	enum lru_list base = file ? LRU_INACTIVE_FILE : LRU_INACTIVE_ANON;
	unsigned long inactive, active, gb, ratio;

	if (!file && !total_swap_pages(eng))
		return false;
	inactive = lruvec_lru_size(lruvec, base);
	active = lruvec_lru_size(lruvec, base + LRU_ACTIVE);
	for (int zid = sc->reclaim_idx + 1; lruvec_is_node(lruvec) && zid < MAX_NR_ZONES; zid++) {
		if (!managed_zone(&pgdat->node_zones[zid]))
			continue;
		inactive -= MIN(inactive, zone_lru_size(pgdat, zid, base));
		active -= MIN(active, zone_lru_size(pgdat, zid, base + LRU_ACTIVE));
	}
	/* inactive_ratio_scale: the balance of a larger machine's lists (docs/tuning.md). */
	gb = (inactive + active) * (unsigned long)eng->cfg.inactive_ratio_scale >>
	     (30 - PAGE_SHIFT);
	ratio = gb ? int_sqrt(10 * gb) : 1;
	return inactive * ratio < active;
}

/* __isolate_lru_page(): may reclaim take this page?  Takes a reference if so. */
static bool isolate_one(struct page *page, bool clean_only)
{
	int ref;

	if (!page_test(page, PG_lru) || page_test(page, PG_unevictable))
		return false;
	if (clean_only && (page_test(page, PG_writeback) || page_test(page, PG_dirty)))
		return false;
	ref = __atomic_load_n(&page->refcount, __ATOMIC_ACQUIRE);
	do {
		if (ref == 0)
			return false;
	} while (!__atomic_compare_exchange_n(&page->refcount, &ref, ref + 1, false,
					      __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE));
	page_clear(page, PG_lru);
	return true;
}

/*
 * isolate_lru_pages(): take up to @nr_to_scan pages from the tail of @lru onto @dst.  Pages
 * of zones above reclaim_idx are skipped (pgskip_<zone>), put back at the head, and count a
 * quarter each towards *nr_scanned (all of them if the list ran out) so that a node full of
 * ineligible pages still looks scanned.  lru_lock held.
 */
static unsigned long isolate_lru_pages(struct nlru_engine *eng, struct lruvec *lruvec,
				       unsigned long nr_to_scan, struct pfnlist *dst,
				       unsigned long *nr_scanned, const struct scan_control *sc,
				       enum lru_list lru)
{
	struct pfnlist *src = &lruvec->lists[lru], skipped;
	unsigned long scan = 0, taken = 0, nr_skipped[MAX_NR_ZONES] = {0}, total_skipped = 0;
	long nr_zone_taken[MAX_NR_ZONES] = {0};
	struct page *pages = lruvec->pgdat->pages;

	pfnlist_init(&skipped);
	while (scan < nr_to_scan && taken < nr_to_scan && !pfnlist_empty(src)) {
		uint32_t pfn = pfnlist_pop_tail(src, pages);
		int zid = (int)page_zonenum(&pages[pfn]);

		if (!CHECK_FULL(lruvec->pgdat->log,
				page_test(&pages[pfn], PG_lru) && page_lru(&pages[pfn]) == lru))
			log_err(lruvec->pgdat->log,
				"node %d pfn %u (flags %#x) found on LRU list %d",
				lruvec->pgdat->node_id, pfn, page_flags(&pages[pfn]), (int)lru);

		if (zid > sc->reclaim_idx) {
			pfnlist_add(&skipped, pages, pfn);
			nr_skipped[zid]++;
			continue;
		}
		scan++;
		if (isolate_one(&pages[pfn], !sc->may_writepage)) {
			pfnlist_add(dst, pages, pfn);
			nr_zone_taken[zid]++;
			taken++;
		} else {
			pfnlist_add(src, pages, pfn); /* busy: to the head, as -EBUSY does */
		}
	}
	for (int zid = 0; zid < MAX_NR_ZONES; zid++) {
		if (nr_skipped[zid])
			count_zid_vm_events(eng, NLRU_PGSCAN_SKIP, zid, nr_skipped[zid]);
		total_skipped += nr_skipped[zid];
		if (nr_zone_taken[zid])
			update_lru_size(lruvec, lru, zid, -nr_zone_taken[zid]);
	}
	if (total_skipped) {
		scan += pfnlist_empty(src) ? total_skipped : total_skipped >> 2;
		for (uint32_t pfn; (pfn = pfnlist_pop_tail(&skipped, pages)) != PFN_NIL;)
			pfnlist_add(src, pages, pfn);
		/* The skipped pages never left the list as far as its size counters are concerned.
		 */
	}
	*nr_scanned = scan;
	return taken;
}

/*
 * Isolate under the lru_lock and account it as both list shrinkers do: isolated pages,
 * recent_scanned, the node's scan count, and @event (pgscan_* or pgrefill).  Returns taken.
 */
static unsigned long isolate_and_count(struct nlru_engine *eng, struct lruvec *lruvec,
				       unsigned long nr_to_scan, struct pfnlist *dst,
				       const struct scan_control *sc, enum lru_list lru,
				       enum nlru_vm_event_item event)
{
	bool file = is_file_lru(lru);
	unsigned long taken, scanned;

	spin_lock(&lruvec->lru_lock);
	taken = isolate_lru_pages(eng, lruvec, nr_to_scan, dst, &scanned, sc, lru);
	mod_lruvec_state(lruvec, file ? NLRU_NR_ISOLATED_FILE : NLRU_NR_ISOLATED_ANON, (long)taken);
	lruvec->reclaim_stat.recent_scanned[file] += taken;
	mod_lruvec_state(lruvec, NLRU_NR_PAGES_SCANNED, (long)scanned);
	count_reclaim_event(eng, event, lruvec, sc, scanned);
	spin_unlock(&lruvec->lru_lock);
	return taken;
}

/* Drop reclaim's isolation reference. */
static void put_isolated(struct page *page)
{
	__atomic_sub_fetch(&page->refcount, 1, __ATOMIC_ACQ_REL);
}

/*
 * page_check_references(): the PTE young bits (PG_young here) and PG_referenced decide.
 * Mapped anon pages used since the last look are activated; page cache pages, which have no
 * PTEs here, go by PG_referenced: reclaimed if clean, kept if dirty.
 */
static enum page_references page_check_references(struct page *page)
{
	int referenced_ptes = anon_page_referenced(page);
	bool referenced_page = page_test_clear(page, PG_referenced);

	if (referenced_ptes) {
		if (page_test(page, PG_swapbacked))
			return PAGEREF_ACTIVATE;
		page_set(page, PG_referenced);
		if (referenced_page || referenced_ptes > 1)
			return PAGEREF_ACTIVATE;
		return PAGEREF_KEEP;
	}
	if (referenced_page && !page_test(page, PG_swapbacked))
		return PAGEREF_RECLAIM_CLEAN;
	return PAGEREF_RECLAIM;
}

/* What shrink_page_list() does with an anon page it may reclaim. */
static enum page_references try_anon_pageout(struct nlru_engine *eng, struct page *page,
					     const struct scan_control *sc)
{
	bool swapcache = page_test(page, PG_swapcache);

	/* A clean page in the swap cache needs no I/O; any other needs a write to swap. */
	if (!swapcache || page_test(page, PG_dirty)) {
		/* A reclaimer that may not start I/O cannot write it: it stays inactive. */
		if (!(sc->gfp_mask & NLRU_GFP_IO))
			return PAGEREF_KEEP;
		if (!swapcache && (!sc->may_swap || get_nr_swap_pages(eng) <= 0)) {
			count_vm_event(eng, NLRU_SWAP_FULL);
			return PAGEREF_ACTIVATE; /* add_to_swap() failed: activate_locked */
		}
	}
	switch (anon_pageout(eng, page)) {
	case ANON_SWAPPED:
		return PAGEREF_RECLAIM;
	case ANON_ACTIVATE:
		return PAGEREF_ACTIVATE;
	default:
		return PAGEREF_KEEP;
	}
}

/* What shrink_page_list() saw of dirty and writeback file pages, for the lruvec's flags. */
struct page_list_stat {
	unsigned long nr_dirty;          /* dirty or under writeback */
	unsigned long nr_unqueued_dirty; /* dirty and not yet queued for writeback */
	unsigned long nr_writeback;      /* under writeback, now marked PG_reclaim */
	unsigned long nr_immediate;      /* kswapd met them again before their I/O ended */
	unsigned long nr_congested;      /* waiting on congested writes, or met again in flight */
};

/*
 * A clean page cache page is dropped, leaving a shadow entry.  A dirty one is written only
 * by kswapd and only once its lruvec is flagged dirty (PGDAT_DIRTY in 4.8, ZONE_DIRTY in
 * 4.7): everyone else marks it PG_reclaim and moves on, so the writer that dirtied it, or
 * kswapd, cleans it.
 */
static enum page_references try_file_reclaim(struct nlru_engine *eng, struct lruvec *lruvec,
					     struct page *page, enum page_references ref,
					     const struct scan_control *sc)
{
	if (page_test(page, PG_dirty)) {
		if (!current_is_kswapd() ||
		    !(atomic_load(&lruvec->flags) & (1ul << LRUVEC_DIRTY))) {
			mod_lruvec_state(lruvec, NLRU_NR_VMSCAN_IMMEDIATE, 1);
			page_set(page, PG_reclaim);
			return PAGEREF_KEEP;
		}
		if (ref == PAGEREF_RECLAIM_CLEAN || !sc->may_writepage ||
		    !(sc->gfp_mask & NLRU_GFP_FS) || filemap_pageout(eng, page))
			return PAGEREF_KEEP;
		mod_lruvec_state(lruvec, NLRU_NR_VMSCAN_WRITE, 1);
	}
	return filemap_remove_page(eng, page) ? PAGEREF_RECLAIM : PAGEREF_KEEP;
}

static void tally_dirty(const struct nlru_engine *eng, const struct page *page,
			struct page_list_stat *stat)
{
	bool dirty = page_test(page, PG_dirty), writeback = page_test(page, PG_writeback);

	/* page_check_dirty_writeback(): anon pages never count, flushers do not handle them. */
	if (page_test(page, PG_swapbacked))
		return;
	stat->nr_dirty += dirty || writeback;
	stat->nr_unqueued_dirty += dirty && !writeback;
	/* Its device congested (inode_write_congested()), or back in flight a second time. */
	stat->nr_congested += ((dirty || writeback) && blkdev_write_congested(eng->blkdev)) ||
			      (writeback && page_test(page, PG_reclaim));
}

/*
 * A page under writeback is kept.  kswapd meeting one it already marked, on an lruvec whose
 * last batch was all writeback (PGDAT_WRITEBACK, 4.7 ZONE_WRITEBACK), is cycling the LRU
 * faster than the I/O completes: it counts nr_immediate for shrink_inactive_list() to wait.
 * Anyone else marks it PG_reclaim, to be rotated to the tail when its writeback ends.
 */
static void keep_writeback_page(const struct lruvec *lruvec, struct page *page,
				struct page_list_stat *stat)
{
	if (current_is_kswapd() && page_test(page, PG_reclaim) &&
	    (atomic_load(&lruvec->flags) & (1ul << LRUVEC_WRITEBACK))) {
		stat->nr_immediate++;
		return;
	}
	page_set(page, PG_reclaim);
	stat->nr_writeback++;
}

/*
 * shrink_page_list(): decide each isolated page's fate.  Freed pages go to @free (their
 * refcount already 0), the rest stay on @list for putback.  Returns pages reclaimed.
 */
static unsigned long shrink_page_list(struct nlru_engine *eng, struct lruvec *lruvec,
				      struct pfnlist *list, struct pfnlist *free,
				      struct scan_control *sc, struct page_list_stat *stat)
{
	struct page *pages = lruvec->pgdat->pages;
	struct pfnlist keep;
	unsigned long reclaimed = 0, activated = 0;
	uint32_t pfn;

	pfnlist_init(&keep);
	while ((pfn = pfnlist_pop_tail(list, pages)) != PFN_NIL) {
		struct page *page = &pages[pfn];
		enum page_references ref;

		sc->nr_scanned++;
		/* A mapped (anon) page costs an unmap too: it weighs double for the shrinkers. */
		if (page_test(page, PG_swapbacked))
			sc->nr_scanned++;
		tally_dirty(eng, page, stat);
		if (page_test(page, PG_writeback)) {
			keep_writeback_page(lruvec, page, stat);
			ref = PAGEREF_KEEP;
		} else {
			ref = page_check_references(page);
		}
		if ((ref == PAGEREF_RECLAIM || ref == PAGEREF_RECLAIM_CLEAN) &&
		    page_test(page, PG_swapbacked))
			ref = try_anon_pageout(eng, page, sc);
		else if (ref == PAGEREF_RECLAIM || ref == PAGEREF_RECLAIM_CLEAN)
			ref = try_file_reclaim(eng, lruvec, page, ref, sc);
		if (ref == PAGEREF_RECLAIM) {
			pfnlist_add(free, pages, pfn);
			reclaimed++;
			continue;
		}
		if (ref == PAGEREF_ACTIVATE && !page_test(page, PG_active)) {
			page_set(page, PG_active);
			activated++;
		}
		pfnlist_add(&keep, pages, pfn);
	}
	*list = keep;
	count_vm_events(eng, NLRU_PGACTIVATE, activated);
	return reclaimed;
}

/* putback_inactive_pages(): kept pages back onto the list their flags name.  lru_lock held. */
static void putback_inactive_pages(struct lruvec *lruvec, struct pfnlist *list)
{
	struct zone_reclaim_stat *stat = &lruvec->reclaim_stat;
	struct page *pages = lruvec->pgdat->pages;
	uint32_t pfn;

	while ((pfn = pfnlist_pop_tail(list, pages)) != PFN_NIL) {
		struct page *page = &pages[pfn];
		enum lru_list lru = page_lru(page);

		page_set(page, PG_lru);
		__add_page_to_lru_list(lruvec, page, lru);
		if (is_active_lru(lru))
			stat->recent_rotated[is_file_lru(lru)]++;
		put_isolated(page);
	}
}

static void free_page_list(struct nlru_engine *eng, struct pglist_data *pgdat, struct pfnlist *list)
{
	uint32_t pfn;

	while ((pfn = pfnlist_pop(list, pgdat->pages)) != PFN_NIL)
		free_pages_trusted(eng, &pgdat->pages[pfn], 0);
}

/*
 * inactive_reclaimable_pages(): does some eligible zone have a batch worth scanning?  A 4.8
 * check for node lruvecs, whose lists may hold nothing but ineligible pages; 4.7 has none.
 */
static bool inactive_reclaimable_pages(const struct lruvec *lruvec, const struct scan_control *sc,
				       enum lru_list lru)
{
	const struct pglist_data *pgdat = lruvec->pgdat;

	if (!lruvec_is_node(lruvec))
		return true;
	for (int zid = 0; zid <= sc->reclaim_idx; zid++)
		if (managed_zone(&pgdat->node_zones[zid]) &&
		    zone_lru_size(pgdat, zid, lru) >= SWAP_CLUSTER_MAX)
			return true;
	return false;
}

/* too_many_isolated(): direct reclaimers must not isolate more than the list holds. */
static bool too_many_isolated(const struct lruvec *lruvec, bool file, const struct scan_control *sc)
{
	long inactive, isolated;

	if (current_is_kswapd())
		return false;
	inactive = (long)lruvec_lru_size(lruvec, file ? LRU_INACTIVE_FILE : LRU_INACTIVE_ANON);
	isolated = lruvec_page_state(lruvec, file ? NLRU_NR_ISOLATED_FILE : NLRU_NR_ISOLATED_ANON);
	if ((sc->gfp_mask & (NLRU_GFP_IO | NLRU_GFP_FS)) == (NLRU_GFP_IO | NLRU_GFP_FS))
		inactive >>= 3;
	return isolated > inactive;
}

static unsigned long shrink_inactive_list(struct nlru_engine *eng, unsigned long nr_to_scan,
					  struct lruvec *lruvec, struct scan_control *sc,
					  enum lru_list lru)
{
	bool file = is_file_lru(lru);
	enum nlru_node_stat_item isolated = file ? NLRU_NR_ISOLATED_FILE : NLRU_NR_ISOLATED_ANON;
	struct page_list_stat stat = {0};
	unsigned long taken, reclaimed;
	struct pfnlist list, free;

	if (!inactive_reclaimable_pages(lruvec, sc, lru))
		return 0;
	/* Linux waits until the others are done; bounded here so nothing waits forever. */
	for (int wait = 0; wait < MAX_ISOLATED_WAITS && too_many_isolated(lruvec, file, sc); wait++)
		congestion_wait(eng);
	pfnlist_init(&list);
	pfnlist_init(&free);
	taken = isolate_and_count(eng, lruvec, nr_to_scan, &list, sc, lru,
				  current_is_kswapd() ? NLRU_PGSCAN_KSWAPD : NLRU_PGSCAN_DIRECT);
	if (!taken)
		return 0;

	reclaimed = shrink_page_list(eng, lruvec, &list, &free, sc, &stat);

	spin_lock(&lruvec->lru_lock);
	count_reclaim_event(eng, current_is_kswapd() ? NLRU_PGSTEAL_KSWAPD : NLRU_PGSTEAL_DIRECT,
			    lruvec, sc, reclaimed);
	putback_inactive_pages(lruvec, &list);
	mod_lruvec_state(lruvec, isolated, -(long)taken);
	spin_unlock(&lruvec->lru_lock);
	free_page_list(eng, lruvec->pgdat, &free);
	/* The whole batch under writeback: kswapd meeting such pages again is to wait. */
	if (stat.nr_writeback && stat.nr_writeback == taken)
		atomic_fetch_or(&lruvec->flags, 1ul << LRUVEC_WRITEBACK);
	/* Every dirty page met waits on congested writes: direct reclaim is to wait for them. */
	if (stat.nr_dirty && stat.nr_dirty == stat.nr_congested)
		atomic_fetch_or(&lruvec->flags, 1ul << LRUVEC_CONGESTED);
	/* The whole batch was dirty and unqueued: let kswapd write such pages. */
	if (stat.nr_unqueued_dirty == taken)
		atomic_fetch_or(&lruvec->flags, 1ul << LRUVEC_DIRTY);
	/* current_may_throttle() holds: no reclaimer here is a PF_LESS_THROTTLE writer. */
	if (stat.nr_immediate)
		congestion_wait(eng);
	/* Direct reclaim waits for writes when its lruvec is congested; kswapd goes on. */
	if (!current_is_kswapd())
		wait_iff_congested(eng, lruvec);
	return reclaimed;
}

/* Move isolated pages to the head of @lru; returns how many.  lru_lock held. */
static unsigned long move_pages_to_lru(struct lruvec *lruvec, struct pfnlist *list,
				       enum lru_list lru)
{
	struct page *pages = lruvec->pgdat->pages;
	unsigned long moved = 0;
	uint32_t pfn;

	while ((pfn = pfnlist_pop_tail(list, pages)) != PFN_NIL) {
		struct page *page = &pages[pfn];

		page_set(page, PG_lru);
		__add_page_to_lru_list(lruvec, page, lru);
		put_isolated(page);
		moved++;
	}
	return moved;
}

/*
 * shrink_active_list(): age the active list.  Every page scanned is deactivated; the young
 * ones are only counted as rotated (4.8 keeps nothing active but executable file pages).
 */
static void shrink_active_list(struct nlru_engine *eng, unsigned long nr_to_scan,
			       struct lruvec *lruvec, struct scan_control *sc, enum lru_list lru)
{
	struct page *pages = lruvec->pgdat->pages;
	bool file = is_file_lru(lru);
	enum nlru_node_stat_item isolated = file ? NLRU_NR_ISOLATED_FILE : NLRU_NR_ISOLATED_ANON;
	unsigned long taken, rotated = 0, moved;
	struct pfnlist hold, inactive;
	uint32_t pfn;

	pfnlist_init(&hold);
	pfnlist_init(&inactive);
	taken = isolate_and_count(eng, lruvec, nr_to_scan, &hold, sc, lru, NLRU_PGREFILL);

	while ((pfn = pfnlist_pop_tail(&hold, pages)) != PFN_NIL) {
		struct page *page = &pages[pfn];

		if (anon_page_referenced(page))
			rotated++;
		page_clear(page, PG_active);
		pfnlist_add(&inactive, pages, pfn);
	}

	spin_lock(&lruvec->lru_lock);
	lruvec->reclaim_stat.recent_rotated[file] += rotated;
	moved = move_pages_to_lru(lruvec, &inactive, lru - LRU_ACTIVE);
	mod_lruvec_state(lruvec, isolated, -(long)taken);
	spin_unlock(&lruvec->lru_lock);
	count_vm_events(eng, NLRU_PGDEACTIVATE, moved);
}

/* shrink_list(): an active list is aged only when its inactive list has run low. */
static unsigned long shrink_list(struct nlru_engine *eng, enum lru_list lru,
				 unsigned long nr_to_scan, struct lruvec *lruvec,
				 struct scan_control *sc)
{
	if (is_active_lru(lru)) {
		if (inactive_list_is_low(eng, lruvec, is_file_lru(lru), sc))
			shrink_active_list(eng, nr_to_scan, lruvec, sc, lru);
		return 0;
	}
	return shrink_inactive_list(eng, nr_to_scan, lruvec, sc, lru);
}

/* The SCAN_FRACT weights: swappiness, tilted by how often each type's pages came back. */
static void scan_fractions(struct nlru_engine *eng, struct lruvec *lruvec,
			   unsigned long fraction[2], unsigned long *denominator)
{
	struct zone_reclaim_stat *stat = &lruvec->reclaim_stat;
	unsigned long anon_prio = (unsigned long)tunable(eng, swappiness);
	unsigned long file_prio = 200 - anon_prio;
	unsigned long anon = lruvec_lru_size(lruvec, LRU_ACTIVE_ANON) +
			     lruvec_lru_size(lruvec, LRU_INACTIVE_ANON);
	unsigned long file = lruvec_lru_size(lruvec, LRU_ACTIVE_FILE) +
			     lruvec_lru_size(lruvec, LRU_INACTIVE_FILE);

	spin_lock(&lruvec->lru_lock);
	/* Decay the history so that it follows the current workload. */
	if (stat->recent_scanned[0] > anon / 4) {
		stat->recent_scanned[0] /= 2;
		stat->recent_rotated[0] /= 2;
	}
	if (stat->recent_scanned[1] > file / 4) {
		stat->recent_scanned[1] /= 2;
		stat->recent_rotated[1] /= 2;
	}
	fraction[0] = anon_prio * (stat->recent_scanned[0] + 1) / (stat->recent_rotated[0] + 1);
	fraction[1] = file_prio * (stat->recent_scanned[1] + 1) / (stat->recent_rotated[1] + 1);
	spin_unlock(&lruvec->lru_lock);
	*denominator = fraction[0] + fraction[1] + 1;
}

static enum scan_balance scan_balance(struct nlru_engine *eng, struct lruvec *lruvec,
				      const struct scan_control *sc)
{
	unsigned long file, free = 0, high = 0;
	struct zone *zone;

	if (!sc->may_swap || get_nr_swap_pages(eng) <= 0)
		return SCAN_FILE;
	if (sc->priority == 0 && tunable(eng, swappiness))
		return SCAN_EQUAL;
	/*
	 * The "cache trap": too little file cache left to reach the high watermarks, of every
	 * zone of the node (4.8) or of the one zone (4.7).
	 */
	file = lruvec_lru_size(lruvec, LRU_ACTIVE_FILE) +
	       lruvec_lru_size(lruvec, LRU_INACTIVE_FILE);
	for_each_lruvec_zone(zone, lruvec) {
		free += (unsigned long)zone_page_state(zone, NLRU_NR_FREE_PAGES);
		if (managed_zone(zone))
			high += high_wmark_pages(zone);
	}
	if (file + free <= high)
		return SCAN_ANON;
	if (!inactive_list_is_low(eng, lruvec, true, sc) &&
	    lruvec_lru_size(lruvec, LRU_INACTIVE_FILE) >> sc->priority)
		return SCAN_FILE;
	return SCAN_FRACT;
}

/*
 * in_reclaim_compaction(): reclaim for a costly order, or for any high order once the
 * priority has fallen below DEF_PRIORITY - 2, reclaims for compaction, which then needs free
 * pages to move pages into.  Never with compaction off (a kernel without CONFIG_COMPACTION).
 */
static bool in_reclaim_compaction(const struct nlru_engine *eng, const struct scan_control *sc)
{
	return eng->cfg.compaction && sc->order &&
	       (sc->order > PAGE_ALLOC_COSTLY_ORDER || sc->priority < DEF_PRIORITY - 2);
}

/*
 * get_scan_count(): how many pages of each list to scan at this priority.  4.8 sizes the
 * lists over the whole node, not only the eligible zones.  Returns the pages of the types
 * chosen (the slab shrinkers' denominator).
 */
static unsigned long get_scan_count(struct nlru_engine *eng, struct lruvec *lruvec,
				    const struct scan_control *sc, unsigned long nr[NR_LRU_LISTS])
{
	bool force_scan = current_is_kswapd() && !lruvec_reclaimable(eng, lruvec);
	/*
	 * A scale rule: should_continue_reclaim() goes on only while passes find pages, and at
	 * Linux's scale a priority-12 pass over lists long enough to give 2^(order+1) pages
	 * scans dozens of them; over an engine's lists of a few thousand pages size >> priority
	 * is 0 or 1, and the anon/file fraction rounds it to 0.  So when a reclaim/compaction
	 * pass would scan nothing, each list it may scan gives up to SWAP_CLUSTER_MAX.
	 */
	bool compaction_scan = in_reclaim_compaction(eng, sc);
	enum scan_balance balance = scan_balance(eng, lruvec, sc);
	unsigned long fraction[2] = {1, 1}, denominator = 1, lru_pages = 0;
	bool some_scanned = false;

	if (balance == SCAN_FRACT)
		scan_fractions(eng, lruvec, fraction, &denominator);
	/* A second pass forces a little scanning when rounding left everything at zero. */
	for (int pass = 0; !some_scanned && pass < 2; pass++) {
		lru_pages = 0;
		for (int lru = 0; lru < LRU_UNEVICTABLE; lru++) {
			int file = is_file_lru(lru);
			unsigned long size = lruvec_lru_size(lruvec, (enum lru_list)lru);
			unsigned long scan = size >> sc->priority;

			if (!scan && pass && force_scan)
				scan = MIN(size, SWAP_CLUSTER_MAX);
			if (balance == SCAN_FRACT)
				scan = scan * fraction[file] / denominator;
			else if ((balance == SCAN_FILE && !file) || (balance == SCAN_ANON && file))
				size = scan = 0;
			if (!scan && pass && compaction_scan)
				scan = MIN(size, SWAP_CLUSTER_MAX);
			nr[lru] = scan;
			lru_pages += size;
			some_scanned |= scan != 0;
		}
	}
	return lru_pages;
}

/*
 * Once enough is reclaimed, stop the smaller of anon and file and scale the other down so
 * the whole pass keeps the proportion get_scan_count() asked for.
 */
static void scale_remaining(unsigned long nr[NR_LRU_LISTS],
			    const unsigned long targets[NR_LRU_LISTS])
{
	unsigned long nr_file = nr[LRU_INACTIVE_FILE] + nr[LRU_ACTIVE_FILE];
	unsigned long nr_anon = nr[LRU_INACTIVE_ANON] + nr[LRU_ACTIVE_ANON];
	enum lru_list small, big;
	unsigned long percentage;

	if (nr_file > nr_anon) {
		small = LRU_INACTIVE_ANON;
		percentage =
			nr_anon * 100 / (targets[LRU_INACTIVE_ANON] + targets[LRU_ACTIVE_ANON] + 1);
	} else {
		small = LRU_INACTIVE_FILE;
		percentage =
			nr_file * 100 / (targets[LRU_INACTIVE_FILE] + targets[LRU_ACTIVE_FILE] + 1);
	}
	big = small == LRU_INACTIVE_ANON ? LRU_INACTIVE_FILE : LRU_INACTIVE_ANON;
	nr[small] = nr[small + LRU_ACTIVE] = 0;
	for (enum lru_list l = big; l <= big + LRU_ACTIVE; l++) {
		unsigned long done = targets[l] - nr[l];
		unsigned long want = targets[l] * (100 - percentage) / 100;

		nr[l] = want > done ? want - done : 0;
	}
}

/* shrink_node_memcg() / shrink_zone_memcg(): scan the lists in proportion, 32 at a time. */
static unsigned long shrink_lruvec(struct nlru_engine *eng, struct lruvec *lruvec,
				   struct scan_control *sc)
{
	unsigned long nr[NR_LRU_LISTS] = {0}, targets[NR_LRU_LISTS];
	unsigned long reclaimed = 0, lru_pages;
	/* Direct reclaim at the first priority scans all it planned: a cheap, fair start. */
	bool scan_adjusted = !current_is_kswapd() && sc->priority == DEF_PRIORITY;

	lru_pages = get_scan_count(eng, lruvec, sc, nr);
	memcpy(targets, nr, sizeof(targets));
	while (nr[LRU_INACTIVE_ANON] || nr[LRU_ACTIVE_FILE] || nr[LRU_INACTIVE_FILE]) {
		for (int lru = 0; lru < LRU_UNEVICTABLE; lru++) {
			unsigned long chunk = MIN(nr[lru], SWAP_CLUSTER_MAX);

			if (!chunk)
				continue;
			nr[lru] -= chunk;
			reclaimed += shrink_list(eng, (enum lru_list)lru, chunk, lruvec, sc);
		}
		if (reclaimed < sc->nr_to_reclaim || scan_adjusted)
			continue;
		if (!(nr[LRU_INACTIVE_FILE] + nr[LRU_ACTIVE_FILE]) ||
		    !(nr[LRU_INACTIVE_ANON] + nr[LRU_ACTIVE_ANON]))
			break;
		scale_remaining(nr, targets);
		scan_adjusted = true;
	}
	sc->nr_reclaimed += reclaimed;
	/* Always age the anon list a little, so there is something to reclaim next time. */
	if (inactive_list_is_low(eng, lruvec, false, sc))
		shrink_active_list(eng, SWAP_CLUSTER_MAX, lruvec, sc, LRU_ACTIVE_ANON);
	throttle_vm_writeout(eng, sc->gfp_mask);
	return lru_pages;
}

/*
 * One reclaim pass over @lruvec, then the shrinkers in proportion to what it scanned when
 * @with_slab (always for a node, 4.8; only for the classzone's zone, 4.7).  True if it made
 * progress.
 */
static bool shrink_lruvec_and_slab(struct nlru_engine *eng, struct lruvec *lruvec,
				   struct scan_control *sc, bool with_slab)
{
	unsigned long reclaimed = sc->nr_reclaimed, scanned = sc->nr_scanned, lru_pages;
	struct reclaim_state reclaim_state = {0};

	rwlock_rdlock(&eng->owners->lock);
	lru_pages = shrink_lruvec(eng, lruvec, sc);
	rwlock_unlock(&eng->owners->lock);
	/* Full debug checks: after each pass, the lists still agree with their counters. */
	if (NLRU_DEBUG >= 2) {
		spin_lock(&lruvec->lru_lock);
		lruvec_check_lists(lruvec);
		spin_unlock(&lruvec->lru_lock);
	}
	if (with_slab) {
		/* Caches off the LRU give back in proportion to what this pass scanned of it. */
		current_reclaim_state = &reclaim_state;
		shrink_slab(eng, lruvec->pgdat->node_id, sc->gfp_mask, sc->priority,
			    sc->nr_scanned - scanned, lru_pages);
		current_reclaim_state = NULL;
		sc->nr_reclaimed += reclaim_state.reclaimed_slab;
	}
	return sc->nr_reclaimed - reclaimed || sc->nr_scanned - scanned;
}

/* compaction_suitable() says the block is there or compaction may make it. */
static bool compaction_may_go_on(enum compact_result result)
{
	return result == COMPACT_SUCCESS || result == COMPACT_CONTINUE;
}

/*
 * What the reclaim passes since the last judgement got: should_continue_reclaim() gives up
 * when none of the last SWAP_CLUSTER_MAX pages scanned was reclaimed.  Linux judges each pass
 * alone, and at its scale a pass at any priority scans at least that many (a 3 GiB lruvec
 * scans 192 pages at priority 12); an engine of tens of MiB scans 2 or 3 at priority 12, of
 * which none may be reclaimable by chance.  So passes are judged together until they have
 * scanned SWAP_CLUSTER_MAX pages; a pass that scans nothing ends reclaim at once.
 */
struct reclaim_window {
	unsigned long reclaimed;
	unsigned long scanned;
	bool last_pass_scanned;
};

/*
 * should_continue_reclaim(): in reclaim/compaction, go on reclaiming @lruvec until 2^(order+1)
 * pages are reclaimed (while its inactive lists hold more than that) and compaction could run
 * in a zone; stop when the last SWAP_CLUSTER_MAX pages scanned gave nothing back (every
 * request is what Linux calls non-__GFP_REPEAT) or the last pass found nothing to scan.
 * 4.8 asks every zone of the node up to reclaim_idx; 4.7 the lruvec's own zone, classzone 0.
 */
static bool should_continue_reclaim(struct nlru_engine *eng, struct lruvec *lruvec,
				    const struct reclaim_window *w, struct scan_control *sc)
{
	unsigned long pages_for_compaction = 2ul << sc->order, inactive;
	unsigned int order = (unsigned int)sc->order;

	if (!in_reclaim_compaction(eng, sc))
		return false;
	if (!w->last_pass_scanned || (!w->reclaimed && w->scanned >= SWAP_CLUSTER_MAX))
		return false;
	inactive = lruvec_lru_size(lruvec, LRU_INACTIVE_FILE);
	if (get_nr_swap_pages(eng) > 0)
		inactive += lruvec_lru_size(lruvec, LRU_INACTIVE_ANON);
	if (sc->nr_reclaimed < pages_for_compaction && inactive > pages_for_compaction)
		return true;
	if (!lruvec_is_node(lruvec))
		return !compaction_may_go_on(compaction_suitable(eng, lruvec->zone, order, 0, 0));
	for (int zid = 0; zid <= sc->reclaim_idx; zid++) {
		struct zone *zone = &lruvec->pgdat->node_zones[zid];

		if (managed_zone(zone) &&
		    compaction_may_go_on(compaction_suitable(eng, zone, order, 0, sc->reclaim_idx)))
			return false;
	}
	return true;
}

/*
 * Reclaim passes over @lruvec while should_continue_reclaim() says so: one pass unless
 * reclaiming for compaction.  True if any pass made progress.
 */
static bool shrink_lruvec_for_compaction(struct nlru_engine *eng, struct lruvec *lruvec,
					 struct scan_control *sc, bool with_slab)
{
	struct reclaim_window w = {0};
	bool progress = false;

	for (;;) {
		unsigned long reclaimed = sc->nr_reclaimed, scanned = sc->nr_scanned;

		progress |= shrink_lruvec_and_slab(eng, lruvec, sc, with_slab);
		w.reclaimed += sc->nr_reclaimed - reclaimed;
		w.scanned += sc->nr_scanned - scanned;
		w.last_pass_scanned = sc->nr_scanned != scanned;
		if (!should_continue_reclaim(eng, lruvec, &w, sc))
			return progress;
		if (w.scanned >= SWAP_CLUSTER_MAX)
			w = (struct reclaim_window){0};
	}
}

bool shrink_node(struct nlru_engine *eng, struct pglist_data *pgdat, struct scan_control *sc)
{
	return shrink_lruvec_for_compaction(eng, &pgdat->lruvec, sc, true);
}

bool shrink_zone(struct nlru_engine *eng, struct zone *zone, struct scan_control *sc,
		 bool is_classzone)
{
	return shrink_lruvec_for_compaction(eng, &zone->zm->lruvec, sc, is_classzone);
}

/*
 * compaction_ready() (4.8): @zone has enough free for compaction to make the block a costly
 * request wants, with room to spare: 2^(order+1) pages above high, and compaction_suitable()
 * does not say it lacks free pages (while compaction is deferred there, the watermark alone
 * decides).
 */
static bool compaction_ready(struct nlru_engine *eng, struct zone *zone, struct scan_control *sc)
{
	unsigned int order = (unsigned int)sc->order;
	unsigned long mark = high_wmark_pages(zone) + (2ul << order);
	bool watermark_ok = zone_watermark_ok(zone, 0, mark, sc->reclaim_idx, 0);

	if (compaction_deferred(zone, order))
		return watermark_ok;
	if (compaction_suitable(eng, zone, order, 0, sc->reclaim_idx) == COMPACT_SKIPPED)
		return false;
	return watermark_ok;
}

/*
 * A costly request's direct reclaim passes a zone ready for compaction by, and ends its
 * priority loop (node mode).  Zone mode does not: 4.7's rule, each zone judged alone with
 * the balance gap added, stopped its reclaim as soon as both zones were ready, and the
 * engine's compaction then failed to make a block among an allocator's unmovable runs, which
 * the fair policy spreads over both zones (docs/design.md, "Reclaim/compaction").
 */
static bool leave_zone_to_compaction(struct nlru_engine *eng, struct zone *zone,
				     struct scan_control *sc)
{
	if (!eng->cfg.compaction || sc->order <= PAGE_ALLOC_COSTLY_ORDER ||
	    !compaction_ready(eng, zone, sc))
		return false;
	sc->compaction_ready = 1;
	return true;
}

void age_active_anon(struct nlru_engine *eng, struct lruvec *lruvec, struct scan_control *sc)
{
	if (!total_swap_pages(eng) || !inactive_list_is_low(eng, lruvec, false, sc))
		return;
	rwlock_rdlock(&eng->owners->lock);
	shrink_active_list(eng, SWAP_CLUSTER_MAX, lruvec, sc, LRU_ACTIVE_ANON);
	rwlock_unlock(&eng->owners->lock);
}

/* shrink_zones(), 4.8: each node of the zonelist once per priority, eligible zones only. */
void shrink_zones_48(struct nlru_engine *eng, struct zonelist *zonelist, struct scan_control *sc)
{
	struct zoneref *z = zonelist->_zonerefs;
	struct pglist_data *last_pgdat = NULL;
	struct zone *zone;

	for_next_zone_zonelist(zone, z, sc->reclaim_idx) {
		/* An unreclaimable node is kswapd's to poll, not ours to rescan. */
		if (sc->priority != DEF_PRIORITY && !sc->ignore_unreclaimable &&
		    !lruvec_reclaimable(eng, &zone->zone_pgdat->lruvec))
			continue;
		if (leave_zone_to_compaction(eng, zone, sc))
			continue;
		if (zone->zone_pgdat == last_pgdat)
			continue;
		last_pgdat = zone->zone_pgdat;
		shrink_node(eng, zone->zone_pgdat, sc);
	}
}

/*
 * shrink_zones(), 4.7: every eligible zone of every node, each its own lists scanned at this
 * priority.  The shrinkers run with the node's classzone only: the request's highest zone,
 * or the highest populated one below it on that node.
 */
void shrink_zones_47(struct nlru_engine *eng, struct zonelist *zonelist, struct scan_control *sc)
{
	struct zoneref *z = zonelist->_zonerefs;
	struct zone *zone;

	for_next_zone_zonelist(zone, z, sc->reclaim_idx) {
		struct pglist_data *pgdat = zone->zone_pgdat;
		int classzone_idx = sc->reclaim_idx;

		if (!populated_zone(zone))
			continue;
		while (classzone_idx > 0 && !populated_zone(&pgdat->node_zones[classzone_idx]))
			classzone_idx--;
		if (sc->priority != DEF_PRIORITY && !sc->ignore_unreclaimable &&
		    !lruvec_reclaimable(eng, &zone->zm->lruvec))
			continue;
		shrink_zone(eng, zone, sc, zone->zone_idx == classzone_idx);
	}
}

/* One round of direct reclaim: priorities 12 down to 0 until enough is reclaimed. */
static void reclaim_priorities(struct nlru_engine *eng, struct zonelist *zonelist,
			       struct scan_control *sc, unsigned long *total_scanned)
{
	do {
		sc->nr_scanned = 0;
		eng->mode->shrink_zones(eng, zonelist, sc);
		*total_scanned += sc->nr_scanned;
		if (sc->nr_reclaimed >= sc->nr_to_reclaim || sc->compaction_ready)
			break;
		if (sc->priority < DEF_PRIORITY - 2)
			sc->may_writepage = 1;
		/* Scanning a lot without reclaiming: have the flusher clean what it scanned. */
		if (*total_scanned > sc->nr_to_reclaim * 3 / 2) {
			wakeup_flusher_threads(eng, *total_scanned);
			sc->may_writepage = 1;
		}
	} while (--sc->priority >= 0);
}

/*
 * do_try_to_free_pages(): a round that reclaimed nothing is run once more with may_thrash,
 * which lets 4.8 reclaim memcgs below their low limit.  With no memcg the second round is
 * simply another try, and counts another allocstall as 4.8's does.  A round that stopped
 * because a zone is ready for compaction counts as progress even if it reclaimed nothing.
 */
static unsigned long do_try_to_free_pages(struct nlru_engine *eng, struct zonelist *zonelist,
					  struct scan_control *sc)
{
	int initial_priority = sc->priority;
	unsigned long total_scanned = 0;

	for (;;) {
		/* allocstall_<zone of the request> (4.8); 4.7's single allocstall is their sum. */
		count_zid_vm_events(eng, NLRU_ALLOCSTALL, sc->reclaim_idx, 1);
		reclaim_priorities(eng, zonelist, sc, &total_scanned);
		if (sc->nr_reclaimed || sc->may_thrash)
			return sc->nr_reclaimed;
		/* Stopped for compaction: progress, so that the caller compacts, not fails. */
		if (sc->compaction_ready)
			return 1;
		sc->priority = initial_priority;
		sc->may_thrash = 1;
	}
}

static unsigned long direct_reclaim(struct nlru_engine *eng, struct zonelist *zonelist,
				    unsigned int order, unsigned int gfp, int high_zoneidx,
				    bool ignore_unreclaimable)
{
	struct scan_control sc = {
		.nr_to_reclaim = SWAP_CLUSTER_MAX,
		.gfp_mask = gfp,
		.order = (int)order,
		.reclaim_idx = high_zoneidx,
		.priority = DEF_PRIORITY,
		.may_writepage = 1,
		.may_unmap = 1,
		.may_swap = 1,
		.ignore_unreclaimable = ignore_unreclaimable,
	};

	return do_try_to_free_pages(eng, zonelist, &sc);
}

unsigned long try_to_free_pages(struct nlru_engine *eng, struct zonelist *zonelist,
				unsigned int order, unsigned int gfp, int high_zoneidx)
{
	throttle_direct_reclaim(eng, gfp, zonelist);
	count_vm_event(eng, NLRU_DIRECT_RECLAIM);
	return direct_reclaim(eng, zonelist, order, gfp, high_zoneidx, false);
}

unsigned long try_to_free_pages_oom(struct nlru_engine *eng, struct zonelist *zonelist,
				    unsigned int order, unsigned int gfp, int high_zoneidx)
{
	count_vm_event(eng, NLRU_OOM_RECLAIM);
	return direct_reclaim(eng, zonelist, order, gfp, high_zoneidx, true);
}
