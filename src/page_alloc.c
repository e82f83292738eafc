/*
 * page_alloc.c - the allocator's front: per-CPU order-0 lists, the zonelist walk under
 * watermarks, and the Linux 4.8 slow path; plus the public alloc/free calls and their checks.
 *
 * Locking: order 0 goes through the CPU's per-CPU list with no lock (pcp.c); its slow paths
 * take the list's lock, then the zone's lock (never the other way round).  Higher orders take
 * the zone lock.
 * Watermark checks read NR_FREE_PAGES without a lock, as Linux does: a racing allocation can
 * dip a page or a batch below a watermark, which the next check sees.
 *
 * Each per-CPU list holds one migrate type (Linux's pcp->lists[migratetype]): an allocation
 * pops from its gfp flags' type, a free pushes onto its pageblock's type (a high-order atomic
 * reserve page onto the movable list, as 4.8's free_hot_cold_page() does).
 *
 * Not here: the buddy lists themselves (buddy.c), watermark maths (watermark.c), reclaim
 * (vmscan.c, kswapd.c), compaction itself (compaction.c), and an OOM killer: the engine has
 * none (docs/design.md says what replaces it).
 */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buddy.h"
#include "compaction.h"
#include "current.h"
#include "gfp.h"
#include "page_alloc.h"
#include "page_alloc_47.h"
#include "page_writeback.h"
#include "pcp.h"
#include "reclaim_mode.h"
#include "show_mem.h"
#include "vmscan.h"
#include "vmstat.h"
#include "watermark.h"
#include "zonelist.h"

#define MAX_RECLAIM_RETRIES 16
/*
 * Linux resets its retry count whenever reclaim or the OOM killer makes progress, so a task
 * can loop for as long as others keep taking what it frees.  The engine has no OOM killer to
 * end that, so it also caps the total number of slow-path rounds: high enough that threads
 * competing for a small engine do not fail while reclaim keeps up, finite all the same.
 */
#define MAX_SLOWPATH_ROUNDS (16 * MAX_RECLAIM_RETRIES)

struct alloc_context {
	struct zonelist *zonelist;
	struct zoneref *preferred_zoneref;
	int high_zoneidx; /* gfp_zone(): the highest zone the request may use */
	int nid;          /* the node asked for, or NLRU_NUMA_NO_NODE */
	int migratetype;  /* gfpflags_to_migratetype() */
	/* NLRU_GFP_WRITE, in the fast path only: pass over nodes (zones) over their dirty limit */
	bool spread_dirty_pages;
};

static inline int ac_classzone_idx(const struct alloc_context *ac)
{
	return ac->preferred_zoneref->zone_idx;
}

#define __hot_inline inline __attribute__((always_inline))
#define __cold_noinline __attribute__((noinline, cold))
/* Out of line so that the callers' one-page paths keep a small frame. */
#define __batch_noinline __attribute__((noinline))

/* The node an allocation starts from: @nid, or the calling CPU's for NLRU_NUMA_NO_NODE. */
static __hot_inline struct pglist_data *preferred_pgdat(struct nlru_engine *eng, int nid)
{
	return NODE_DATA(eng, nid == NLRU_NUMA_NO_NODE ? numa_node_id(eng) : nid);
}

/* A free page of @zone: unused, on no LRU list, no longer marked as a free block's head. */
static bool page_free_in(const struct zone *zone, const struct page *page)
{
	uint32_t flags = page_flags(page);

	return !__atomic_load_n(&page->refcount, __ATOMIC_RELAXED) && !page->mapping &&
	       !page->index && !page->private &&
	       !(flags &
		 ((1u << PG_buddy) | (1u << PG_lru) | (1u << PG_locked) | (1u << PG_writeback))) &&
	       (flags & PAGE_ZONE_MASK) >> PAGE_ZONE_SHIFT == (uint32_t)zone->zone_idx &&
	       (int)((flags & PAGE_NODE_MASK) >> PAGE_NODE_SHIFT) == zone->node &&
	       (uint32_t)(page - zone->zone_pgdat->pages) - zone->zone_start_pfn <
		       zone->spanned_pages;
}

/* What a per-CPU list's pfns array holds at most (zone_pcp_init() sizes it one more). */
static inline int pcp_capacity(const struct per_cpu_pages *pcp)
{
	return MAX(pcp->high, pcp->batch);
}

/*
 * Fresh block of @zone: no page flag left from its last owner, its order recorded, counted as
 * allocated.  The owner fields are already clear: every owner clears private, mapping and
 * index before it frees a page.
 */
static __hot_inline void prep_new_page(const struct zone *zone, struct page *page,
				       unsigned int order)
{
	CHECK_FULL(zone->zone_pgdat->log, page_free_in(zone, page));
	set_page_flags(page, ((uint32_t)zone->node << PAGE_NODE_SHIFT) |
				     ((uint32_t)zone->zone_idx << PAGE_ZONE_SHIFT) |
				     (order << PAGE_ORDER_SHIFT));
	__atomic_store_n(&page->refcount, 1, __ATOMIC_RELEASE);
}

/*
 * zone_statistics() for an allocation served by @z.  Order-0 allocations (@pcp_page) count
 * only the exceptions, a miss or another node's CPU: hit and local are derived from the
 * per-CPU lists' allocation counts.
 */
static __hot_inline void zone_statistics(struct nlru_engine *eng, bool pcp_page,
					 struct zone *preferred, struct zone *z)
{
	bool hit = z->node == preferred->node;
	/* One node: every allocation is local, and the CPU need not be looked up. */
	bool local = eng->nr_nodes == 1 || z->node == numa_node_id(eng);

	if (pcp_page) {
		if (unlikely(!hit))
			atomic_fetch_add_explicit(&z->pcp_numa_miss, 1, memory_order_relaxed);
		if (unlikely(!local))
			atomic_fetch_add_explicit(&z->pcp_numa_other, 1, memory_order_relaxed);
	} else {
		mod_zone_page_state(z, hit ? NLRU_NUMA_HIT : NLRU_NUMA_MISS, 1);
		mod_zone_page_state(z, local ? NLRU_NUMA_LOCAL : NLRU_NUMA_OTHER, 1);
	}
	if (unlikely(!hit))
		mod_zone_page_state(preferred, NLRU_NUMA_FOREIGN, 1);
}

/* The per-CPU list was empty or busy: lock it, refill from the buddy lists, take one. */
static __cold_noinline bool rmqueue_pcplist_slow(struct nlru_engine *eng, struct zone *zone,
						 int migratetype, uint32_t *pfn)
{
	int cpu, count;
	struct per_cpu_pages *pcp = pcp_lock_local(eng, zone->pageset[migratetype], &cpu);

	count = pcp_count(pcp);
	if (count == 0) {
		spin_lock(&zone->lock);
		count = rmqueue_bulk(zone, pcp->batch, pcp->pfns, migratetype);
		spin_unlock(&zone->lock);
		pcp_stat_add(pcp, PCP_REFILLED, count);
	}
	CHECK_CHEAP(&eng->log, count <= pcp_capacity(pcp));
	if (count)
		*pfn = pcp->pfns[count - 1];
	pcp_set_count(pcp, count ? count - 1 : 0, count ? 1 : 0);
	pcp_unlock(eng, pcp);
	return count != 0;
}

static __hot_inline struct page *rmqueue_pcplist(struct nlru_engine *eng, struct zone *preferred,
						 struct zone *zone, int migratetype)
{
	struct page *page;
	uint32_t pfn;

	if (unlikely(pcp_pop_fast(eng, zone->pageset[migratetype], &pfn)) &&
	    !rmqueue_pcplist_slow(eng, zone, migratetype, &pfn))
		return NULL;
	page = &zone->zone_pgdat->pages[pfn];
	zone_statistics(eng, true, preferred, zone);
	prep_new_page(zone, page, 0);
	return page;
}

/*
 * A block from the buddy lists.  ALLOC_HARDER may use the high-order atomic reserve first,
 * and a high-order block it gets makes its pageblock part of that reserve (4.8's
 * buffered_rmqueue() and the reserve_highatomic_pageblock() after it).
 */
static __cold_noinline struct page *rmqueue_buddy(struct nlru_engine *eng, struct zone *preferred,
						  struct zone *zone, unsigned int order,
						  unsigned int alloc_flags, int migratetype)
{
	uint32_t pfn = PFN_NIL;

	spin_lock(&zone->lock);
	if (alloc_flags & ALLOC_HARDER)
		pfn = __rmqueue_smallest(zone, order, MIGRATE_HIGHATOMIC);
	if (pfn == PFN_NIL)
		pfn = __rmqueue(zone, order, migratetype);
	spin_unlock(&zone->lock);
	if (pfn == PFN_NIL)
		return NULL;
	count_zid_vm_events(eng, NLRU_PGALLOC, zone->zone_idx, 1ul << order);
	zone_statistics(eng, false, preferred, zone);
	prep_new_page(zone, &zone->zone_pgdat->pages[pfn], order);
	if (order && (alloc_flags & ALLOC_HARDER))
		reserve_highatomic_pageblock(zone, pfn);
	return &zone->zone_pgdat->pages[pfn];
}

/* buffered_rmqueue(): order 0 from the per-CPU list, larger orders from the buddy lists. */
static __hot_inline struct page *buffered_rmqueue(struct nlru_engine *eng, struct zone *preferred,
						  struct zone *zone, unsigned int order,
						  unsigned int alloc_flags, int migratetype)
{
	if (likely(order == 0))
		return rmqueue_pcplist(eng, preferred, zone, migratetype);
	return rmqueue_buddy(eng, preferred, zone, order, alloc_flags, migratetype);
}

/*
 * A page about to be dirtied comes from a node within its dirty limit (4.8), so that no node
 * holds more than its share of the dirty pages and kswapd can balance it without writing
 * pages from its LRU lists.  A node found over it is remembered in *@last, and its other
 * zones are passed over without asking again.  True: pass over @zone.
 */
static __cold_noinline bool node_over_dirty_limit(const struct nlru_engine *eng,
						  const struct zone *zone,
						  const struct pglist_data **last)
{
	if (*last == zone->zone_pgdat)
		return true;
	if (node_dirty_ok(eng, zone->zone_pgdat))
		return false;
	*last = zone->zone_pgdat;
	return true;
}

/*
 * get_page_from_freelist(): the first zone in zonelist order that passes its watermark (and,
 * for NLRU_GFP_WRITE in the fast path, whose node is within its dirty limit).
 */
static __hot_inline struct page *get_page_from_freelist(struct nlru_engine *eng, unsigned int order,
							unsigned int alloc_flags,
							const struct alloc_context *ac)
{
	const struct pglist_data *last_pgdat_dirty_limit = NULL;
	struct zoneref *z = ac->preferred_zoneref;
	struct zone *zone;

	for_next_zone_zonelist(zone, z, ac->high_zoneidx) {
		unsigned long mark = wmark_pages(zone, alloc_flags & ALLOC_WMARK_MASK);
		struct page *page;

		if (unlikely(ac->spread_dirty_pages) &&
		    node_over_dirty_limit(eng, zone, &last_pgdat_dirty_limit))
			continue;
		/* node_reclaim_mode is 0: a zone below its mark is simply passed over. */
		if (!(alloc_flags & ALLOC_NO_WATERMARKS) &&
		    !zone_watermark_fast(zone, order, mark, ac_classzone_idx(ac), alloc_flags))
			continue;
		page = buffered_rmqueue(eng, ac->preferred_zoneref->zone, zone, order, alloc_flags,
					ac->migratetype);
		if (likely(page))
			return page;
	}
	return NULL;
}

/*
 * In zone mode every allocation, fair or not, spends its zone's batch (4.7 does it in
 * buffered_rmqueue).  Done around the walk, so that node mode's fast path, which calls
 * get_page_from_freelist() directly, carries no test for it.
 */
static struct page *get_page_counted(struct nlru_engine *eng, unsigned int order,
				     unsigned int alloc_flags, const struct alloc_context *ac)
{
	struct page *page = get_page_from_freelist(eng, order, alloc_flags, ac);

	if (eng->fair_zone_policy && page)
		fair_account_alloc(eng, page_zone(page_pgdat(eng, page), page), order);
	return page;
}

/*
 * Zone mode's fast path: 4.7's get_page_from_freelist() with ALLOC_FAIR.  A first pass skips
 * local zones that have spent their batch; if it skipped some and found nothing locally, the
 * batches are reset and the zonelist is walked again without fairness, before any remote
 * zone is tried.  Apart from node mode's walk, so that one stays as lean as 4.8's.
 */
static __attribute__((noinline)) struct page *
get_page_from_freelist_47(struct nlru_engine *eng, unsigned int order,
			  const struct alloc_context *ac)
{
	struct zone *preferred = ac->preferred_zoneref->zone;
	bool apply_fair = true, fair_skipped = false;
	struct zoneref *z;
	struct zone *zone;

zonelist_scan:
	z = ac->preferred_zoneref;
	for_next_zone_zonelist(zone, z, ac->high_zoneidx) {
		struct page *page;

		if (apply_fair) {
			if (zone_fair_depleted(zone)) {
				fair_skipped = true;
				continue;
			}
			/* The first remote zone: reset the local batches if that is why we are
			 * here. */
			if (!zone_local(preferred, zone)) {
				if (fair_skipped)
					goto reset_fair;
				apply_fair = false;
			}
		}
		/* 4.7 spreads pages about to be dirtied over zones, each within its own limit. */
		if (ac->spread_dirty_pages && !zone_dirty_ok(eng, zone))
			continue;
		if (!zone_watermark_fast(zone, order, low_wmark_pages(zone), ac_classzone_idx(ac),
					 ALLOC_WMARK_LOW))
			continue;
		page = buffered_rmqueue(eng, preferred, zone, order, ALLOC_WMARK_LOW,
					ac->migratetype);
		if (page) {
			fair_account_alloc(eng, zone, order);
			return page;
		}
	}
	if (fair_skipped) {
	reset_fair:
		apply_fair = fair_skipped = false;
		reset_alloc_batches(preferred);
		goto zonelist_scan;
	}
	return NULL;
}

static unsigned int gfp_to_alloc_flags(unsigned int gfp)
{
	unsigned int alloc_flags = ALLOC_WMARK_MIN | ALLOC_CPUSET;

	if (gfp & NLRU_GFP_HIGH)
		alloc_flags |= ALLOC_HIGH;
	if (gfp & NLRU__GFP_ATOMIC)
		alloc_flags = (alloc_flags | ALLOC_HARDER) & ~ALLOC_CPUSET;
	return alloc_flags;
}

/* wake_all_kswapds(): the mode decides which kswapds, with what request. */
static void wake_all_kswapds(struct nlru_engine *eng, unsigned int order,
			     const struct alloc_context *ac)
{
	eng->mode->wake_all_kswapds(eng, order, ac->preferred_zoneref, ac->high_zoneidx);
}

/*
 * unreserve_highatomic_pageblock(): an allocation about to fail after reclaim takes back one
 * pageblock of the high-order atomic reserve, in the first zone of its zonelist that has more
 * than one: failed atomic allocations are easier to recover from than a failure here.
 */
static void unreserve_highatomic_pageblock(const struct alloc_context *ac)
{
	struct zoneref *z = ac->zonelist->_zonerefs;
	struct zone *zone;

	for_next_zone_zonelist(zone, z, ac->high_zoneidx)
		if (unreserve_highatomic_pageblock_zone(zone, ac->migratetype))
			return;
}

/*
 * __alloc_pages_direct_compact() with try_to_compact_pages() (4.8.15): compact the zones the
 * request may use, in zonelist order, at @prio, each unless compaction is deferred there or
 * compaction_suitable() says no (too few free pages, or a failure from lack of memory by the
 * fragmentation index), until one passes its low watermark for @order; then allocate
 * (compact_stall, compact_success, compact_fail).  A zone compacted at sync-light to the end
 * without a block is deferred; async failures are not.  Nothing without __GFP_FS and
 * __GFP_IO.  *@deferred: every zone tried was deferred (4.8's COMPACT_DEFERRED).
 */
static struct page *alloc_pages_direct_compact(struct nlru_engine *eng, unsigned int gfp,
					       unsigned int order, unsigned int alloc_flags,
					       const struct alloc_context *ac,
					       enum compact_priority prio, bool *deferred)
{
	struct zoneref *z = ac->zonelist->_zonerefs;
	bool stalled = false, any_deferred = false;
	struct zone *zone;
	struct page *page;

	*deferred = false;
	/* compaction 0: 4.8's !CONFIG_COMPACTION stub, COMPACT_SKIPPED and no page. */
	if (!order || (current_flags & PF_MEMALLOC) || !eng->cfg.compaction ||
	    !(gfp & NLRU_GFP_FS) || !(gfp & NLRU_GFP_IO))
		return NULL;
	for_next_zone_zonelist(zone, z, ac->high_zoneidx) {
		enum compact_result status;

		if (!managed_zone(zone))
			continue;
		if (compaction_deferred(zone, order)) {
			any_deferred = true;
			continue;
		}
		status = compaction_suitable(eng, zone, order, alloc_flags, ac_classzone_idx(ac));
		if (status != COMPACT_CONTINUE && status != COMPACT_SUCCESS)
			continue;
		stalled = true;
		/* A zone that passes the watermark for @order already is not compacted. */
		if (status == COMPACT_CONTINUE)
			status = compact_zone(eng, zone, order, prio, NULL);
		if (zone_watermark_ok(zone, order, low_wmark_pages(zone), ac_classzone_idx(ac),
				      alloc_flags)) {
			compaction_defer_reset(zone, order);
			break;
		}
		if (prio != COMPACT_PRIO_ASYNC && status == COMPACT_COMPLETE)
			defer_compaction(zone, order);
	}
	*deferred = any_deferred && !stalled;
	if (!stalled)
		return NULL;
	count_vm_event(eng, NLRU_COMPACT_STALL);
	page = get_page_counted(eng, order, alloc_flags, ac);
	if (page) {
		compaction_defer_reset(page_zone(page_pgdat(eng, page), page), order);
		count_vm_event(eng, NLRU_COMPACT_SUCCESS);
		return page;
	}
	count_vm_event(eng, NLRU_COMPACT_FAIL);
	return NULL;
}

/*
 * should_compact_retry() of 4.8.15 (the stable rule that keeps orders 1 to 3 from an early
 * OOM): with compaction, a request of order 1 to 3 whose reclaim made progress tries again;
 * without it, while some zone passes its order-0 min watermark.  Order 0 and costly orders
 * never do.
 */
static bool should_compact_retry(const struct nlru_engine *eng, unsigned int order,
				 unsigned int alloc_flags, const struct alloc_context *ac)
{
	struct zoneref *z = ac->preferred_zoneref;
	struct zone *zone;

	if (!order || order > PAGE_ALLOC_COSTLY_ORDER)
		return false;
	if (eng->cfg.compaction)
		return true;
	for_next_zone_zonelist(zone, z, ac->high_zoneidx)
		if (zone_watermark_ok(zone, 0, min_wmark_pages(zone), ac_classzone_idx(ac),
				      alloc_flags))
			return true;
	return false;
}

static struct page *alloc_pages_direct_reclaim(struct nlru_engine *eng, unsigned int gfp,
					       unsigned int order, unsigned int alloc_flags,
					       const struct alloc_context *ac,
					       unsigned long *progress)
{
	struct page *page;

	current_flags |= PF_MEMALLOC;
	*progress = try_to_free_pages(eng, ac->zonelist, order, gfp, ac->high_zoneidx);
	current_flags &= ~PF_MEMALLOC;
	if (!*progress)
		return NULL;
	page = get_page_counted(eng, order, alloc_flags, ac);
	if (!page) {
		/* What reclaim freed may be sitting on other CPUs' lists or in the reserve. */
		unreserve_highatomic_pageblock(ac);
		drain_all_pages(eng);
		page = get_page_counted(eng, order, alloc_flags, ac);
	}
	return page;
}

/*
 * should_reclaim_retry(): keep going while some zone could pass its min watermark if the
 * reclaimable pages, discounted by how often reclaim has already failed, were freed.
 */
static bool should_reclaim_retry(struct nlru_engine *eng, unsigned int order,
				 const struct alloc_context *ac, unsigned int alloc_flags,
				 bool did_some_progress, int no_progress_loops)
{
	struct zoneref *z = ac->preferred_zoneref;
	struct zone *zone;

	if (no_progress_loops > MAX_RECLAIM_RETRIES)
		return false;
	for_next_zone_zonelist(zone, z, ac->high_zoneidx) {
		/* 4.7 counts the zone's isolated pages too: its lruvec's count is exactly that. */
		long reclaimable = lruvec_is_node(zone->page_lruvec)
					   ? (long)zone_reclaimable_pages(eng, zone)
					   : (long)lruvec_reclaimable_pages(eng, zone->page_lruvec);
		long available = reclaimable -
				 (no_progress_loops * reclaimable + MAX_RECLAIM_RETRIES - 1) /
					 MAX_RECLAIM_RETRIES +
				 zone_page_state(zone, NLRU_NR_FREE_PAGES);

		if (!__zone_watermark_ok(zone, order, min_wmark_pages(zone), ac_classzone_idx(ac),
					 alloc_flags, available))
			continue;
		/* Mostly dirty or under writeback: wait for the I/O rather than scan again. */
		if (!did_some_progress &&
		    2 * zone_page_state(zone, NLRU_NR_ZONE_WRITE_PENDING) > reclaimable)
			congestion_wait(eng);
		else
			sched_yield();
		return true;
	}
	return false;
}

/*
 * __alloc_pages_may_oom()'s place: 4.8 would kill a task to make progress.  The engine
 * reclaims once more without the "unreclaimable" heuristic (the conditions under which 4.8
 * does not OOM-kill are kept: costly orders, requests below Normal, NORETRY).  True if that
 * freed anything, so the caller may retry.
 */
static bool may_oom_reclaim(struct nlru_engine *eng, unsigned int gfp, unsigned int order,
			    const struct alloc_context *ac, struct alloc_report *rep)
{
	unsigned long progress;

	if (order > PAGE_ALLOC_COSTLY_ORDER || ac->high_zoneidx < ZONE_NORMAL ||
	    (gfp & (NLRU_GFP_NORETRY | NLRU_GFP_THISNODE))) {
		rep->gave_up = "reclaim made no progress, and Linux would not OOM-kill for this "
			       "request (order above 3, zones below Normal, __GFP_NORETRY or "
			       "__GFP_THISNODE)";
		return false;
	}
	current_flags |= PF_MEMALLOC;
	progress = try_to_free_pages_oom(eng, ac->zonelist, order, gfp, ac->high_zoneidx);
	current_flags &= ~PF_MEMALLOC;
	rep->oom_reclaims++;
	rep->oom_reclaimed += progress;
	if (!progress)
		rep->gave_up = "reclaim made no progress, and the last-resort reclaim freed "
			       "nothing";
	return progress > 0;
}

/* No zone the request may use can ever hold a block of @order. */
static bool order_fits_no_zone(const struct alloc_context *ac, unsigned int order)
{
	struct zoneref *z = ac->preferred_zoneref;
	struct zone *zone;

	for_next_zone_zonelist(zone, z, ac->high_zoneidx)
		if (zone->spanned_pages >= 1u << order)
			return false;
	return true;
}

/* Why the slow path stopped, for warn_alloc(). */
static const char *why_no_retry(unsigned int gfp, unsigned int order, bool can_direct_reclaim)
{
	if (current_flags & PF_MEMALLOC)
		return "the caller is reclaiming (PF_MEMALLOC: a shrinker or kswapd), so it may "
		       "not reclaim again, and the reserves were empty";
	if (!can_direct_reclaim)
		return "the request may not reclaim (no __GFP_DIRECT_RECLAIM)";
	if (gfp & NLRU_GFP_NORETRY)
		return "__GFP_NORETRY allows one reclaim";
	if (order > PAGE_ALLOC_COSTLY_ORDER)
		return "an order above 3 gets one reclaim and one compaction after it";
	return NULL;
}

/* __alloc_pages_slowpath(), Linux 4.8.15's order, without the OOM killer. */
static __cold_noinline struct page *alloc_pages_slowpath(struct nlru_engine *eng, unsigned int gfp,
							 unsigned int order,
							 const struct alloc_context *ac)
{
	bool can_direct_reclaim = gfpflags_allow_blocking(gfp);
	struct alloc_report rep = {0};
	unsigned int orig_gfp = gfp;
	enum compact_priority compact_priority = DEF_COMPACT_PRIORITY;
	int no_progress_loops = 0;
	unsigned long progress;
	unsigned int alloc_flags;
	struct page *page;
	bool deferred;

	/* A block larger than every zone it may come from: no reclaim can help. */
	if (order && order_fits_no_zone(ac, order)) {
		warn_alloc_impossible(eng, gfp, order, ac->nid, ac->high_zoneidx);
		return NULL;
	}
	/* A caller that may sleep has no claim on the atomic reserves. */
	if ((gfp & NLRU__GFP_ATOMIC) && can_direct_reclaim)
		gfp &= ~NLRU__GFP_ATOMIC;
	alloc_flags = gfp_to_alloc_flags(gfp);
	if (gfp & NLRU_GFP_KSWAPD_RECLAIM)
		wake_all_kswapds(eng, order, ac);
	page = get_page_counted(eng, order, alloc_flags, ac);
	/* Costly orders compact (async) before reclaiming: enough pages may be free already. */
	if (!page && can_direct_reclaim && order > PAGE_ALLOC_COSTLY_ORDER &&
	    !(current_flags & PF_MEMALLOC)) {
		page = alloc_pages_direct_compact(eng, gfp, order, alloc_flags, ac,
						  INIT_COMPACT_PRIORITY, &deferred);
		if (!page && (gfp & NLRU_GFP_NORETRY)) {
			/* Sync compaction failed here lately: do not disrupt, fail. */
			if (deferred) {
				rep.gave_up = "__GFP_NORETRY, and compaction is deferred after "
					      "failing lately";
				goto nopage;
			}
			/* Reclaim and compaction are worth it, but stay with async. */
			compact_priority = INIT_COMPACT_PRIORITY;
		}
	}
	for (int round = 0; !page && round < MAX_SLOWPATH_ROUNDS; round++) {
		rep.rounds = round + 1;
		if (round)
			count_vm_event(eng, NLRU_ALLOC_RETRY);
		if (gfp & NLRU_GFP_KSWAPD_RECLAIM)
			wake_all_kswapds(eng, order, ac);
		/* Reclaimers allocating on behalf of reclaim may use all that is left. */
		if (current_flags & PF_MEMALLOC)
			alloc_flags = ALLOC_NO_WATERMARKS;
		page = get_page_counted(eng, order, alloc_flags, ac);
		if (page || !can_direct_reclaim || (current_flags & PF_MEMALLOC))
			break;
		page = alloc_pages_direct_reclaim(eng, gfp, order, alloc_flags, ac, &progress);
		rep.reclaims++;
		rep.reclaimed += progress;
		/* What reclaim freed, brought together. */
		if (!page)
			page = alloc_pages_direct_compact(eng, gfp, order, alloc_flags, ac,
							  compact_priority, &deferred);
		if (page || (gfp & NLRU_GFP_NORETRY) || order > PAGE_ALLOC_COSTLY_ORDER)
			break;
		no_progress_loops = progress ? 0 : no_progress_loops + 1;
		if (should_reclaim_retry(eng, order, ac, alloc_flags, progress > 0,
					 no_progress_loops))
			continue;
		/* Compaction needs free pages, which only reclaim's progress makes. */
		if (progress && should_compact_retry(eng, order, alloc_flags, ac))
			continue;
		/* Where 4.8 would OOM-kill: reclaim once more, heuristics off; fail if in vain. */
		if (!may_oom_reclaim(eng, gfp, order, ac, &rep))
			break;
		no_progress_loops = 0;
	}
nopage:
	if (unlikely(!page) && !(orig_gfp & NLRU_GFP_NOWARN)) {
		if (!rep.gave_up)
			rep.gave_up = why_no_retry(gfp, order, can_direct_reclaim);
		if (!rep.gave_up && rep.rounds == MAX_SLOWPATH_ROUNDS)
			rep.gave_up = "it reached its limit of 256 rounds";
		warn_alloc(eng, orig_gfp, order, ac->preferred_zoneref, ac->high_zoneidx, &rep);
	}
	return page;
}

static __hot_inline struct page *__alloc_pages_node(struct nlru_engine *eng, unsigned int gfp,
						    unsigned int order, int nid)
{
	struct pglist_data *pgdat = preferred_pgdat(eng, nid);
	struct alloc_context ac = {
		.zonelist = node_zonelist(pgdat, gfp),
		.high_zoneidx = gfp_zone(gfp),
		.nid = nid,
		.migratetype = gfpflags_to_migratetype(gfp, eng->migratetype_mask),
		.spread_dirty_pages = gfp & NLRU_GFP_WRITE,
	};
	struct page *page = NULL;

	/* Reclaim takes the owner table's lock first: none that comes after it may be held. */
	CHECK_FULL(&eng->log, !gfpflags_allow_blocking(gfp) || witness_may_take(LOCK_OWNERS));
	ac.preferred_zoneref = first_zones_zonelist(ac.zonelist, ac.high_zoneidx);
	if (likely(ac.preferred_zoneref->zone)) {
		/* Only the fast path is fair (4.7); the slow path's flags never carry ALLOC_FAIR.
		 */
		if (unlikely(eng->fair_zone_policy))
			page = get_page_from_freelist_47(eng, order, &ac);
		else
			page = get_page_from_freelist(eng, order, ALLOC_WMARK_LOW, &ac);
		if (unlikely(!page)) {
			/*
			 * Dirty spreading is for the fast path only: rather than reclaim, the slow
			 * path may put a page over a node's (zone's) dirty limit, which matters
			 * when the allowed nodes are together smaller than the global limit.
			 */
			ac.spread_dirty_pages = false;
			page = alloc_pages_slowpath(eng, gfp, order, &ac);
		}
	} else {
		/* No zone it may use has memory: nothing will ever change that. */
		warn_alloc_impossible(eng, gfp, order, nid, ac.high_zoneidx);
	}
	if (unlikely(!page))
		count_vm_event(eng, NLRU_ALLOC_FAIL);
	return page;
}

struct page *alloc_pages_node(struct nlru_engine *eng, unsigned int gfp, unsigned int order,
			      int nid)
{
	return __alloc_pages_node(eng, gfp, order, nid);
}

/*
 * Freeing a page ends "unreclaimable": reset the scan count of the lruvec its zone's pages
 * live on, the node's (4.8 free_pcppages_bulk) or the zone's (4.7).
 */
static void reset_pages_scanned(struct zone *zone)
{
	if (lruvec_page_state(zone->page_lruvec, NLRU_NR_PAGES_SCANNED))
		lruvec_reset_state(zone->page_lruvec, NLRU_NR_PAGES_SCANNED);
}

/*
 * Give the @batch coldest pages back to the buddy allocator, each as its pageblock's type.
 * pcp locked, holding @count.
 */
static void free_pcp_batch(struct zone *zone, struct per_cpu_pages *pcp, int count, int batch)
{
	spin_lock(&zone->lock);
	free_pcppages_bulk(zone, batch, pcp->pfns);
	spin_unlock(&zone->lock);
	pcp_stat_add(pcp, PCP_RETURNED, batch);
	memmove(pcp->pfns, pcp->pfns + batch, sizeof(*pcp->pfns) * (size_t)(count - batch));
	pcp_set_count(pcp, count - batch, 0);
	reset_pages_scanned(zone);
}

/* The push would reach high (or the list is busy): lock, push, send a batch back. */
static __cold_noinline void free_pcp_page_slow(struct nlru_engine *eng, struct zone *zone,
					       struct per_cpu_pages *base, uint32_t pfn)
{
	int cpu;
	struct per_cpu_pages *pcp = pcp_lock_local(eng, base, &cpu);
	int count = pcp_count(pcp);

	/* The array has room for one more than that: the page pushed here. */
	CHECK_CHEAP(&eng->log, count <= pcp_capacity(pcp));
	pcp->pfns[count++] = pfn;
	pcp_set_count(pcp, count, 0);
	if (count >= pcp->high)
		free_pcp_batch(zone, pcp, count, MIN(pcp->batch, count));
	pcp_unlock(eng, pcp);
}

/*
 * Onto this CPU's list of the page's pageblock type; pages of the high-order atomic reserve go
 * on the movable list, to be had back if needed (4.8's free_hot_cold_page()).
 */
static __hot_inline void free_pcp_page(struct nlru_engine *eng, struct zone *zone, uint32_t pfn,
				       int mt)
{
	struct per_cpu_pages *base = zone->pageset[mt];

	if (unlikely(pcp_push_fast(eng, base, pfn)))
		free_pcp_page_slow(eng, zone, base, pfn);
}

static __cold_noinline void free_buddy_block(struct nlru_engine *eng, struct zone *zone,
					     uint32_t pfn, unsigned int order, int mt)
{
	spin_lock(&zone->lock);
	free_one_page_locked(zone, pfn, order, mt);
	spin_unlock(&zone->lock);
	reset_pages_scanned(zone);
	count_vm_events(eng, NLRU_PGFREE, 1ul << order);
}

/* A slab page leaves its cache: uncharge it, and credit reclaim if a shrinker freed it. */
static __cold_noinline void slab_uncharge(struct zone *zone, struct page *page, uint32_t flags,
					  unsigned int order)
{
	bool reclaimable = flags & (1u << PG_slab_reclaimable);

	mod_zone_page_state(zone,
			    reclaimable ? NLRU_NR_SLAB_RECLAIMABLE : NLRU_NR_SLAB_UNRECLAIMABLE,
			    -(1l << order));
	set_page_flags(page, flags & ~((1u << PG_slab) | (1u << PG_slab_reclaimable)));
	if (current_reclaim_state)
		current_reclaim_state->reclaimed_slab += 1ul << order;
}

/* The zone of a page whose flags are @flags. */
static __hot_inline struct zone *flags_zone(struct pglist_data *pgdat, uint32_t flags)
{
	return &pgdat->node_zones[(flags & PAGE_ZONE_MASK) >> PAGE_ZONE_SHIFT];
}

/*
 * A block of @zone goes back as @mt, its pageblock's type, which the callers read before they
 * give up their reference: the lookup's loads then overlap the atomic that does it, rather
 * than wait behind it.
 */
static __hot_inline void __free_pages(struct nlru_engine *eng, struct zone *zone, uint32_t pfn,
				      unsigned int order, uint32_t flags, int mt)
{
	if (unlikely(flags & (1u << PG_slab)))
		slab_uncharge(zone, &zone->zone_pgdat->pages[pfn], flags, order);
	if (likely(order == 0))
		free_pcp_page(eng, zone, pfn, mt);
	else
		free_buddy_block(eng, zone, pfn, order, mt);
}

/* free_pages_trusted(), and with @to_buddy an order-0 page skips the per-CPU lists. */
static void free_trusted(struct nlru_engine *eng, struct page *page, unsigned int order,
			 bool to_buddy)
{
	struct pglist_data *pgdat = page_pgdat(eng, page);
	uint32_t flags = page_flags(page);
	struct zone *zone;
	int mt;

	if (!CHECK_CHEAP(&eng->log, !page->private && !page->mapping && !page->index))
		log_err(&eng->log, "page %u of node %d freed with owner fields set (%llu, %u, %u)",
			page_to_pfn(pgdat, page), pgdat->node_id, (unsigned long long)page->private,
			page->mapping, page->index);
	/* The caller's reference at most: a page someone else holds must not be freed. */
	if (!CHECK_CHEAP(&eng->log, __atomic_load_n(&page->refcount, __ATOMIC_RELAXED) <= 1 &&
					    !(flags & ((1u << PG_buddy) | (1u << PG_lru) |
						       (1u << PG_locked) | (1u << PG_writeback)))))
		log_err(&eng->log, "page %u of node %d freed with refcount %d and flags %#x",
			page_to_pfn(pgdat, page), pgdat->node_id,
			__atomic_load_n(&page->refcount, __ATOMIC_RELAXED), flags);
	zone = flags_zone(pgdat, flags);
	mt = get_pfnblock_migratetype(zone, page_to_pfn(pgdat, page));
	/* A free page has refcount 0, so that a stale pointer's free is told from a first one. */
	__atomic_store_n(&page->refcount, 0, __ATOMIC_RELEASE);
	if (to_buddy && !order) {
		if (unlikely(flags & (1u << PG_slab)))
			slab_uncharge(zone, page, flags, order);
		free_buddy_block(eng, zone, page_to_pfn(pgdat, page), order, mt);
		return;
	}
	__free_pages(eng, zone, page_to_pfn(pgdat, page), order, flags, mt);
}

void free_pages_trusted(struct nlru_engine *eng, struct page *page, unsigned int order)
{
	free_trusted(eng, page, order, false);
}

void free_pages_trusted_buddy(struct nlru_engine *eng, struct page *page, unsigned int order)
{
	free_trusted(eng, page, order, true);
}

/* Full debug checks: every page a per-CPU list holds is a free page of its zone.  pcp locked. */
static void check_pcp_pages(struct nlru_engine *eng, struct zone *zone,
			    const struct per_cpu_pages *pcp, int count)
{
	for (int i = 0; i < count; i++)
		if (!CHECK_FULL(&eng->log,
				pcp->pfns[i] - zone->zone_start_pfn < zone->spanned_pages &&
					page_free_in(zone, &zone->zone_pgdat->pages[pcp->pfns[i]])))
			log_err(&eng->log,
				"zone %d/%d: per-CPU slot %d holds pfn %u, not a free page",
				zone->node, zone->zone_idx, i, pcp->pfns[i]);
}

static void drain_pcp(struct nlru_engine *eng, struct zone *zone, int cpu)
{
	for (int mt = 0; mt < MIGRATE_PCPTYPES; mt++) {
		struct per_cpu_pages *pcp = pcp_lock_cpu(eng, zone->pageset[mt], cpu);
		int count = pcp_count(pcp);

		CHECK_CHEAP(&eng->log, count <= pcp_capacity(pcp));
		if (NLRU_DEBUG >= 2)
			check_pcp_pages(eng, zone, pcp, count);
		if (count)
			free_pcp_batch(zone, pcp, count, count);
		pcp_unlock(eng, pcp);
	}
}

void drain_local_pages(struct nlru_engine *eng, struct zone *zone)
{
	if (managed_zone(zone))
		drain_pcp(eng, zone, this_cpu(eng));
}

void drain_all_pages(struct nlru_engine *eng)
{
	struct pglist_data *pgdat;
	struct zone *zone;
	int nid;

	count_vm_event(eng, NLRU_PCP_DRAIN);
	for_each_online_pgdat(pgdat, eng, nid) {
		for_each_zone_in_node(zone, pgdat) {
			if (!managed_zone(zone))
				continue;
			/* Only a list that frees pages resets the scan count (free_pcp_batch). */
			for (int cpu = 0; cpu < eng->nr_cpus; cpu++)
				drain_pcp(eng, zone, cpu);
			if (NLRU_DEBUG >= 2) {
				spin_lock(&zone->lock);
				zone_check_free_lists(zone, &eng->log);
				spin_unlock(&zone->lock);
			}
		}
	}
}

/*
 * One list per CPU and per-CPU type, each with Linux's high and batch (Linux caps the three
 * lists of a CPU together at high; docs/design.md says why these are capped each).
 */
int zone_pcp_init(struct nlru_engine *eng, struct zone *zone)
{
	size_t n = (size_t)eng->nr_cpus * MIGRATE_PCPTYPES;
	struct per_cpu_pages *all;
	int high, batch;

	all = aligned_alloc(CACHELINE, sizeof(*all) * n);
	if (!all)
		return -ENOMEM;
	memset(all, 0, sizeof(*all) * n);
	for (int mt = 0; mt < MIGRATE_PCPTYPES; mt++)
		zone->pageset[mt] = all + (size_t)mt * (size_t)eng->nr_cpus;
	zone->pageset[MIGRATE_HIGHATOMIC] = zone->pageset[MIGRATE_MOVABLE];
	zone_pcp_sizes(eng, zone, &high, &batch);
	for (size_t i = 0; i < n; i++) {
		struct per_cpu_pages *pcp = &all[i];

		raw_spin_lock_init(&pcp->lock);
		pcp->high = high;
		pcp->batch = batch;
		pcp->pfns = calloc((size_t)MAX(high, batch) + 1, sizeof(*pcp->pfns));
		atomic_init(&pcp->state, 0);
		if (!pcp->pfns)
			return -ENOMEM;
	}
	return 0;
}

void zone_pcp_destroy(const struct nlru_engine *eng, struct zone *zone)
{
	if (!zone->pageset[0])
		return;
	for (size_t i = 0; i < (size_t)eng->nr_cpus * MIGRATE_PCPTYPES; i++)
		free(zone->pageset[0][i].pfns);
	free(zone->pageset[0]);
	for (int mt = 0; mt < MIGRATE_TYPES; mt++)
		zone->pageset[mt] = NULL;
}

int zone_pcp_update(struct nlru_engine *eng, struct zone *zone)
{
	int high, batch;

	if (!zone->pageset[0])
		return 0;
	zone_pcp_sizes(eng, zone, &high, &batch);
	for (int mt = 0; mt < MIGRATE_PCPTYPES; mt++) {
		for (int cpu = 0; cpu < eng->nr_cpus; cpu++) {
			uint32_t *pfns = calloc((size_t)MAX(high, batch) + 1, sizeof(*pfns)), *old;
			struct per_cpu_pages *pcp;
			int count;

			if (!pfns)
				return -ENOMEM;
			/* Locked as a drain locks it: no fast sequence of that CPU is in flight. */
			pcp = pcp_lock_cpu(eng, zone->pageset[mt], cpu);
			count = pcp_count(pcp);
			if (count)
				free_pcp_batch(zone, pcp, count, count);
			old = pcp->pfns;
			pcp->pfns = pfns;
			pcp->high = high;
			pcp->batch = batch;
			pcp_unlock(eng, pcp);
			free(old);
		}
	}
	return 0;
}

/* Public entry points: validate everything, say why through the log, then do the work. */

/* Charge a new page to nr_slab_(un)reclaimable, as the slab allocator does. */
static __cold_noinline void slab_charge(struct zone *zone, struct page *page, unsigned int gfp,
					unsigned int order)
{
	bool reclaimable = gfp & NLRU_GFP_SLAB_RECLAIMABLE;

	page_set(page, PG_slab);
	if (reclaimable)
		page_set(page, PG_slab_reclaimable);
	mod_zone_page_state(zone,
			    reclaimable ? NLRU_NR_SLAB_RECLAIMABLE : NLRU_NR_SLAB_UNRECLAIMABLE,
			    1l << order);
}

/* Says which argument of an allocation is wrong. */
static __cold_noinline int bad_alloc(struct nlru_engine *eng, unsigned int gfp, unsigned int order,
				     int nid)
{
	if (order >= MAX_ORDER)
		log_err(&eng->log, "alloc: order %u is above the largest order %d", order,
			MAX_ORDER - 1);
	else if (gfp & ~GFP_KNOWN)
		log_err(&eng->log, "alloc: unknown gfp flags 0x%x", gfp & ~GFP_KNOWN);
	else if (gfp_zone(gfp) < 0)
		log_err(&eng->log,
			"alloc: gfp 0x%x combines zone modifiers that exclude each other", gfp);
	else if ((gfp & GFP_SLAB) == GFP_SLAB)
		log_err(&eng->log, "alloc: a slab page is reclaimable or not, not both");
	else if ((gfp & GFP_MOVABLE_MASK) == GFP_MOVABLE_MASK)
		log_err(&eng->log, "alloc: a page is movable or reclaimable, not both");
	else
		log_err(&eng->log, "alloc: node %d does not exist (the engine has %d)", nid,
			eng->nr_nodes);
	return -EINVAL;
}

/* Charge and clear a page nlru_alloc_pages() or its bulk form hands out, as @gfp asks. */
static __hot_inline void finish_page(struct pglist_data *pgdat, struct page *page, unsigned int gfp,
				     unsigned int order, void *addr)
{
	if (unlikely(gfp & GFP_SLAB))
		slab_charge(page_zone(pgdat, page), page, gfp, order);
	if (gfp & NLRU_GFP_ZERO)
		memset(addr, 0, PAGE_SIZE << order);
}

/* Flags and a node an allocation takes: known flags, one zone modifier, one type, a node. */
static __hot_inline bool gfp_nid_ok(const struct nlru_engine *eng, unsigned int gfp, int nid)
{
	return !((gfp & ~GFP_KNOWN) || gfp_zone(gfp) < 0 || (gfp & GFP_SLAB) == GFP_SLAB ||
		 (gfp & GFP_MOVABLE_MASK) == GFP_MOVABLE_MASK ||
		 (nid != NLRU_NUMA_NO_NODE && (unsigned int)nid >= (unsigned int)eng->nr_nodes));
}

/*
 * A page-exact run taken where the last one of the zone ended (page_alloc_exact.c): the
 * first zone of @nid's zonelist up to @gfp's highest whose pages [exact_next, + @pages) are
 * all free on the list of @gfp's type, and whose low watermark holds with them gone.  The
 * pages are order-0 pages of their own, counted as allocated (pgalloc, numa, the slab charge
 * @gfp asks for, and in zone mode the fair batch).  Returns the first page, or NULL.
 */
struct page *alloc_exact_next(struct nlru_engine *eng, unsigned int gfp, int nid, uint32_t pages)
{
	int high_zoneidx = gfp_zone(gfp), mt = gfpflags_to_migratetype(gfp, eng->migratetype_mask);
	struct zoneref *preferred, *z;
	struct pglist_data *pgdat;
	struct zone *zone;

	if (!gfp_nid_ok(eng, gfp, nid))
		return NULL; /* the usual path refuses it, and says why */
	pgdat = preferred_pgdat(eng, nid);
	preferred = first_zones_zonelist(node_zonelist(pgdat, gfp), high_zoneidx);
	z = preferred;
	for_next_zone_zonelist(zone, z, high_zoneidx) {
		uint32_t start;
		bool taken;

		if (!__atomic_load_n(&zone->exact_next, __ATOMIC_RELAXED) ||
		    !zone_watermark_ok(zone, 0, low_wmark_pages(zone) + pages, preferred->zone_idx,
				       ALLOC_WMARK_LOW))
			continue;
		spin_lock(&zone->lock);
		start = zone->exact_next;
		taken = start && take_free_range(zone, start, pages, mt);
		if (taken)
			__atomic_store_n(&zone->exact_next, start + pages, __ATOMIC_RELAXED);
		spin_unlock(&zone->lock);
		if (!taken)
			continue;
		count_zid_vm_events(eng, NLRU_PGALLOC, zone->zone_idx, pages);
		zone_statistics(eng, false, preferred->zone, zone);
		if (eng->fair_zone_policy)
			atomic_fetch_add_explicit(
				&zone->pageset[0][this_cpu(eng)].fair_high_order_pages, pages,
				memory_order_relaxed);
		for (uint32_t i = 0; i < pages && (gfp & GFP_SLAB); i++)
			slab_charge(zone, &zone->zone_pgdat->pages[start + i], gfp, 0);
		return &zone->zone_pgdat->pages[start];
	}
	return NULL;
}

/* nlru_alloc_pages() once its arguments are known to be good. */
static __hot_inline int alloc_checked(struct nlru_engine *eng, unsigned int gfp, unsigned int order,
				      int nid, void **addr)
{
	struct page *page = __alloc_pages_node(eng, gfp, order, nid);
	struct pglist_data *pgdat;

	if (unlikely(!page))
		return -ENOMEM;
	pgdat = page_pgdat(eng, page);
	*addr = page_address(pgdat, page_to_pfn(pgdat, page));
	finish_page(pgdat, page, gfp, order, *addr);
	return 0;
}

int nlru_alloc_pages(struct nlru_engine *eng, unsigned int gfp, unsigned int order, int nid,
		     void **addr)
{
	if (unlikely(!eng))
		return -EINVAL;
	if (unlikely(!addr))
		return log_einval(&eng->log, "alloc: addr is NULL");
	if (unlikely(order >= MAX_ORDER || !gfp_nid_ok(eng, gfp, nid)))
		return bad_alloc(eng, gfp, order, nid);
	return alloc_checked(eng, gfp, order, nid, addr);
}

/* Pages one restartable sequence of the bulk calls moves at most (a stack buffer). */
#define BULK_SEQ_MAX 32
/*
 * Pages from which the bulk calls batch.  A batch's fixed cost (the calls, the zone and its
 * watermark, the run of pages gathered for one sequence) is about one page's, so one or two
 * pages go the single calls' way, page by page, with the arguments checked once for both
 * (two pages batched cost 1.00-1.02 of two single calls, taken singly 0.90-0.96:
 * docs/benchmarks.md, "Bulk calls").
 */
#define BULK_MIN_BATCH 3

/* Fill the NULL entries of @pages one at a time until one cannot be had; how many are set. */
static __hot_inline int alloc_pages_singly(struct nlru_engine *eng, unsigned int gfp, int nid,
					   size_t nr, void **pages)
{
	bool failed = false;
	int set = 0;

	for (size_t i = 0; i < nr; i++) {
		if (!pages[i] && !failed)
			failed = alloc_checked(eng, gfp, 0, nid, &pages[i]) != 0;
		set += pages[i] != NULL;
	}
	return set;
}

/* Hand out page @pfn of @zone as the next NULL entry of @pages from *@i on. */
static __hot_inline void bulk_give_page(struct zone *zone, uint32_t pfn, unsigned int gfp,
					void **pages, size_t *i)
{
	while (pages[*i])
		(*i)++;
	prep_new_page(zone, &zone->zone_pgdat->pages[pfn], 0);
	pages[*i] = page_address(zone->zone_pgdat, pfn);
	finish_page(zone->zone_pgdat, &zone->zone_pgdat->pages[pfn], gfp, 0, pages[*i]);
	(*i)++;
}

/*
 * The batch part of alloc_pages_bulk() (Linux 5.13 mm/page_alloc.c, __alloc_pages_bulk()):
 * the first zone whose low watermark still holds with every page asked for gone; from the
 * calling CPU's list of it, first what the list holds, taken in restartable sequences of up
 * to BULK_SEQ_MAX pages without its lock (one sequence where a single call takes one page),
 * then the rest with the list locked and refilled from the buddy lists as it empties.  Fills
 * the first @want NULL entries of @pages; returns how many it filled.
 */
static __batch_noinline size_t alloc_pages_bulk_pcp(struct nlru_engine *eng, unsigned int gfp,
						    int nid, size_t want, void **pages)
{
	struct pglist_data *pgdat = preferred_pgdat(eng, nid);
	struct zonelist *zonelist = node_zonelist(pgdat, gfp);
	int high_zoneidx = gfp_zone(gfp), mt = gfpflags_to_migratetype(gfp, eng->migratetype_mask);
	struct zoneref *preferred = first_zones_zonelist(zonelist, high_zoneidx), *z = preferred;
	size_t got = 0, i = 0;
	struct per_cpu_pages *pcp;
	struct zone *zone;
	int cpu, count;

	for_next_zone_zonelist(zone, z, high_zoneidx) {
		if (zone_watermark_fast(zone, 0, low_wmark_pages(zone) + want, preferred->zone_idx,
					ALLOC_WMARK_LOW))
			break;
	}
	if (!zone)
		return 0;
	while (got < want) {
		uint32_t pfns[BULK_SEQ_MAX];
		int k = pcp_pop_n_fast(eng, zone->pageset[mt], pfns,
				       (uint32_t)MIN(want - got, (size_t)BULK_SEQ_MAX));

		if (k <= 0)
			break;
		for (int j = 0; j < k; j++)
			bulk_give_page(zone, pfns[j], gfp, pages, &i);
		got += (size_t)k;
	}
	if (got < want) {
		size_t locked = 0;

		pcp = pcp_lock_local(eng, zone->pageset[mt], &cpu);
		count = pcp_count(pcp);
		while (got + locked < want) {
			if (!count) {
				spin_lock(&zone->lock);
				count = rmqueue_bulk(zone, pcp->batch, pcp->pfns, mt);
				spin_unlock(&zone->lock);
				pcp_stat_add(pcp, PCP_REFILLED, count);
				if (!count)
					break;
			}
			/* Charged and cleared under the lock, as Linux's prep_new_page() is. */
			bulk_give_page(zone, pcp->pfns[--count], gfp, pages, &i);
			locked++;
		}
		pcp_set_count(pcp, count, locked);
		pcp_unlock(eng, pcp);
		got += locked;
	}
	/* zone_statistics() for the lot: the per-CPU lists count only the exceptions. */
	if (zone->node != preferred->zone->node) {
		atomic_fetch_add_explicit(&zone->pcp_numa_miss, (long)got, memory_order_relaxed);
		mod_zone_page_state(preferred->zone, NLRU_NUMA_FOREIGN, (long)got);
	}
	if (eng->nr_nodes > 1 && zone->node != numa_node_id(eng))
		atomic_fetch_add_explicit(&zone->pcp_numa_other, (long)got, memory_order_relaxed);
	return got;
}

/* nlru_alloc_pages_bulk() for BULK_MIN_BATCH entries or more, its arguments known to be good. */
static __batch_noinline int alloc_pages_bulk_many(struct nlru_engine *eng, unsigned int gfp,
						  int nid, size_t nr, void **pages)
{
	size_t filled = 0, populated = 0;

	for (size_t i = 0; i < nr; i++)
		populated += pages[i] != NULL;
	/*
	 * Zone mode's fair policy charges each page to a zone's batch, and a page about to be
	 * dirtied is placed by the dirty limits: those go one at a time.  So do too few pages
	 * to batch, as a lone page does in Linux.
	 */
	if (nr - populated < BULK_MIN_BATCH || eng->fair_zone_policy || (gfp & NLRU_GFP_WRITE))
		return alloc_pages_singly(eng, gfp, nid, nr, pages);
	filled = alloc_pages_bulk_pcp(eng, gfp, nid, nr - populated, pages);
	/* Linux's rule: the batch gave some, or one page comes the usual way. */
	for (size_t i = 0; !filled && i < nr; i++)
		if (!pages[i]) {
			filled = !alloc_checked(eng, gfp, 0, nid, &pages[i]);
			break;
		}
	return (int)(populated + filled);
}

int nlru_alloc_pages_bulk(struct nlru_engine *eng, unsigned int gfp, int nid, size_t nr,
			  void **pages)
{
	if (unlikely(!eng))
		return -EINVAL;
	if (unlikely(!pages && nr))
		return log_einval(&eng->log, "alloc_bulk: pages is NULL");
	if (unlikely(nr > INT_MAX))
		return log_einval(&eng->log, "alloc_bulk: %zu pages is more than one call returns",
				  nr);
	if (unlikely(!gfp_nid_ok(eng, gfp, nid)))
		return bad_alloc(eng, gfp, 0, nid);
	/*
	 * Too few to batch.  A lone page with a constant count, so that the loop folds away and
	 * the call is the single call itself: the loop as such cost it 6 %.
	 */
	if (nr < BULK_MIN_BATCH)
		return nr == 1 ? alloc_pages_singly(eng, gfp, nid, 1, pages)
			       : alloc_pages_singly(eng, gfp, nid, nr, pages);
	return alloc_pages_bulk_many(eng, gfp, nid, nr, pages);
}

static __hot_inline struct pglist_data *addr_to_pgdat(struct nlru_engine *eng, const void *addr)
{
	const char *p = addr;

	for (int nid = 0; nid < eng->nr_nodes; nid++) {
		struct pglist_data *pgdat = NODE_DATA(eng, nid);

		if ((size_t)(p - pgdat->mem) < ((size_t)pgdat->node_present_pages << PAGE_SHIFT))
			return pgdat;
	}
	return NULL;
}

struct page *virt_to_page(struct nlru_engine *eng, const void *addr)
{
	struct pglist_data *pgdat = addr_to_pgdat(eng, addr);

	return pgdat ? &pgdat->pages[((const char *)addr - pgdat->mem) >> PAGE_SHIFT] : NULL;
}

/* Says why a free is refused, counts it, and returns the error; the lists are untouched. */
static __cold_noinline int bad_free(struct nlru_engine *eng, void *addr, unsigned int order)
{
	struct pglist_data *pgdat = addr_to_pgdat(eng, addr);
	const char *why;
	int err = -EINVAL, ref = 0;
	unsigned int had = 0;

	if (order >= MAX_ORDER) {
		why = "order %u is above the largest order %u";
		had = order;
		order = MAX_ORDER - 1;
	} else if (!pgdat) {
		why = "not memory of this engine";
	} else if ((uintptr_t)addr & (PAGE_SIZE - 1)) {
		why = "not the start of a page";
	} else {
		struct page *page = &pgdat->pages[((char *)addr - pgdat->mem) >> PAGE_SHIFT];

		ref = __atomic_load_n(&page->refcount, __ATOMIC_ACQUIRE);
		had = page_order(page);
		if (ref && page_owned(page)) {
			why = "page belongs to a region or a file";
		} else if (ref == 0) {
			why = "page is not allocated (a double free, or inside a larger block)";
		} else if (had != order) {
			why = "allocated with order %u, freed with order %u";
		} else {
			why = "page is still in use (refcount %d)";
			err = -EBUSY;
		}
	}
	char msg[160];
	snprintf(msg, sizeof(msg), why, ref > 1 ? (unsigned int)ref : had, order);
	count_vm_event(eng, NLRU_BAD_FREE);
	log_err_ratelimited(&eng->log, &eng->bad_frees, "free %p refused: %s", addr, msg);
	return err;
}

/* nlru_free_pages() for an engine known to be good. */
static __hot_inline int free_checked(struct nlru_engine *eng, void *addr, unsigned int order)
{
	struct pglist_data *pgdat = addr_to_pgdat(eng, addr);
	struct zone *zone;
	struct page *page;
	uint32_t pfn, flags;
	int one = 1, mt;

	if (unlikely(!pgdat || order >= MAX_ORDER || ((uintptr_t)addr & (PAGE_SIZE - 1))))
		return bad_free(eng, addr, order);
	pfn = (uint32_t)(((char *)addr - pgdat->mem) >> PAGE_SHIFT);
	page = &pgdat->pages[pfn];
	flags = page_flags(page);
	zone = flags_zone(pgdat, flags);
	mt = get_pfnblock_migratetype(zone, pfn);
	/*
	 * Claim the block: only an allocated head of the right order has refcount 1 and that
	 * order, and of two racing frees of one block exactly one wins the exchange.  A page of
	 * a region or a file, whose address a pin handed out, is its owner's to free.
	 */
	if (unlikely(((flags & PAGE_ORDER_MASK) >> PAGE_ORDER_SHIFT) != order || page_owned(page) ||
		     !__atomic_compare_exchange_n(&page->refcount, &one, 0, false, __ATOMIC_ACQ_REL,
						  __ATOMIC_RELAXED)))
		return bad_free(eng, addr, order);
	page->private = 0; /* the caller's word (nlru_page_set_private()) */
	__free_pages(eng, zone, pfn, order, flags, mt);
	return 0;
}

int nlru_free_pages(struct nlru_engine *eng, void *addr, unsigned int order)
{
	if (unlikely(!eng))
		return -EINVAL;
	return free_checked(eng, addr, order);
}

/* Pages nlru_free_pages_bulk() has claimed that go onto one list: one zone, one type. */
struct bulk_free_run {
	struct zone *zone;
	int mt;
	uint32_t n;
	uint32_t pfns[BULK_SEQ_MAX];
};

/*
 * Push a run onto this CPU's list of its zone and type: in one restartable sequence if the
 * list stays below high, else with the list locked, a batch sent back to the buddy lists
 * each time it reaches high.
 */
static void bulk_free_flush(struct nlru_engine *eng, struct bulk_free_run *run)
{
	struct per_cpu_pages *pcp;
	int cpu, count;

	if (!run->n || !pcp_push_n_fast(eng, run->zone->pageset[run->mt], run->pfns, run->n))
		goto out;
	pcp = pcp_lock_local(eng, run->zone->pageset[run->mt], &cpu);
	count = pcp_count(pcp);
	for (uint32_t j = 0; j < run->n; j++) {
		pcp->pfns[count++] = run->pfns[j];
		if (count >= pcp->high) {
			free_pcp_batch(run->zone, pcp, count, MIN(pcp->batch, count));
			count = pcp_count(pcp);
		}
	}
	pcp_set_count(pcp, count, 0);
	pcp_unlock(eng, pcp);
out:
	run->n = 0;
}

/*
 * @err, or @r if @err is none: a bulk free returns its first refusal; every refusal is
 * counted and logged (within the refused frees' rate limit) where it is found.
 */
static inline int first_error(int err, int r)
{
	return err ? err : r;
}

/*
 * release_pages() for order-0 pages (Linux 5.13's free_unref_page_list()): each page claimed
 * as nlru_free_pages() claims it and its entry cleared, and the pages that share a zone and a
 * type pushed onto this CPU's list of them together, up to BULK_SEQ_MAX at a time.
 */
static __batch_noinline int free_pages_bulk_runs(struct nlru_engine *eng, void **pages, size_t nr)
{
	struct bulk_free_run run; /* not zeroed whole: rep stos would cost a short call dear */
	int err = 0;

	run.n = 0;
	for (size_t i = 0; i < nr; i++) {
		struct pglist_data *pgdat;
		struct page *page;
		struct zone *zone;
		uint32_t pfn, flags;
		int one = 1, mt;

		if (!pages[i])
			continue;
		pgdat = addr_to_pgdat(eng, pages[i]);
		if (unlikely(!pgdat || ((uintptr_t)pages[i] & (PAGE_SIZE - 1)))) {
			err = first_error(err, bad_free(eng, pages[i], 0));
			continue;
		}
		pfn = (uint32_t)(((char *)pages[i] - pgdat->mem) >> PAGE_SHIFT);
		page = &pgdat->pages[pfn];
		flags = page_flags(page);
		zone = flags_zone(pgdat, flags);
		mt = get_pfnblock_migratetype(zone, pfn);
		if (unlikely((flags & PAGE_ORDER_MASK) || page_owned(page) ||
			     !__atomic_compare_exchange_n(&page->refcount, &one, 0, false,
							  __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))) {
			err = first_error(err, bad_free(eng, pages[i], 0));
			continue;
		}
		page->private = 0; /* the caller's word (nlru_page_set_private()) */
		pages[i] = NULL;
		if (unlikely(flags & (1u << PG_slab)))
			slab_uncharge(zone, page, flags, 0);
		/* Highatomic pages go on the movable list, as free_pcp_page() puts them. */
		if (mt >= MIGRATE_PCPTYPES)
			mt = MIGRATE_MOVABLE;
		if (run.n && (run.zone != zone || run.mt != mt || run.n == BULK_SEQ_MAX))
			bulk_free_flush(eng, &run);
		run.zone = zone;
		run.mt = mt;
		run.pfns[run.n++] = pfn;
	}
	bulk_free_flush(eng, &run);
	return err;
}

/* Free the entries of @pages one at a time; the error of the first one refused, or 0. */
static __hot_inline int free_pages_singly(struct nlru_engine *eng, void **pages, size_t nr)
{
	int err = 0;

	for (size_t i = 0; i < nr; i++) {
		int r = pages[i] ? free_checked(eng, pages[i], 0) : 0;

		if (!r)
			pages[i] = NULL;
		err = first_error(err, r);
	}
	return err;
}

int nlru_free_pages_bulk(struct nlru_engine *eng, void **pages, size_t nr)
{
	if (unlikely(!eng))
		return -EINVAL;
	if (unlikely(!pages && nr))
		return log_einval(&eng->log, "free_bulk: pages is NULL");
	if (nr < BULK_MIN_BATCH) /* a lone page's count constant, as above */
		return nr == 1 ? free_pages_singly(eng, pages, 1)
			       : free_pages_singly(eng, pages, nr);
	return free_pages_bulk_runs(eng, pages, nr);
}

int nlru_drain_pages(struct nlru_engine *eng)
{
	if (!eng)
		return -EINVAL;
	drain_all_pages(eng);
	return 0;
}
