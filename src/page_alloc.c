/*
 * page_alloc.c - the allocator's front: per-CPU order-0 lists, the zonelist walk under
 * watermarks, and the Linux 4.8 slow path; plus the public alloc/free calls and their checks.
 *
 * Locking: a per-CPU list's lock, then its zone's lock (never the other way round).  The
 * fast path takes only the per-CPU lock for order 0, the zone lock for higher orders.
 * Watermark checks read NR_FREE_PAGES without a lock, as Linux does: a racing allocation can
 * dip a page or a batch below a watermark, which the next check sees.
 *
 * Not here: the buddy lists themselves (buddy.c), watermark maths (watermark.c), reclaim
 * (vmscan.c, kswapd.c), and compaction, which the engine does not model: no compaction
 * stage in the slow path, and no OOM killer (docs/design.md says what replaces them).
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

#include "buddy.h"
#include "gfp.h"
#include "kswapd.h"
#include "page_alloc.h"
#include "vmscan.h"
#include "vmstat.h"
#include "watermark.h"
#include "zonelist.h"

#define MAX_RECLAIM_RETRIES 16
/*
 * Linux resets its retry count whenever reclaim or the OOM killer makes progress, so a task
 * can loop for as long as others keep taking what it frees.  The engine has no OOM killer to
 * end that, so it also caps the total number of slow-path rounds.
 */
#define MAX_SLOWPATH_ROUNDS (4 * MAX_RECLAIM_RETRIES)

struct alloc_context {
	struct zonelist *zonelist;
	struct zoneref *preferred_zoneref;
	int high_zoneidx; /* gfp_zone(): the highest zone the request may use */
};

static inline int ac_classzone_idx(const struct alloc_context *ac)
{
	return ac->preferred_zoneref->zone_idx;
}

/* Fresh block: head counted as allocated, owner fields clear, node and zone kept. */
static void prep_new_page(struct page *page, unsigned int order)
{
	page->flags &= PAGE_NODE_MASK | PAGE_ZONE_MASK;
	set_page_order(page, order);
	page->private = 0;
	page->mapping = 0;
	page->index = 0;
	__atomic_store_n(&page->refcount, 1, __ATOMIC_RELEASE);
}

/* zone_statistics() for an allocation served by @z; pcp-held counts when @pcp is given. */
static void zone_statistics(struct nlru_engine *eng, struct per_cpu_pages *pcp,
			    struct zone *preferred, struct zone *z, int cpu)
{
	bool hit = z->node == preferred->node;
	bool local = z->node == eng->cpu_node[cpu];

	if (pcp) {
		pcp_stat_add(pcp, hit ? PCP_NUMA_HIT : PCP_NUMA_MISS, 1);
		pcp_stat_add(pcp, local ? PCP_NUMA_LOCAL : PCP_NUMA_OTHER, 1);
	} else {
		mod_zone_page_state(z, hit ? NLRU_NUMA_HIT : NLRU_NUMA_MISS, 1);
		mod_zone_page_state(z, local ? NLRU_NUMA_LOCAL : NLRU_NUMA_OTHER, 1);
	}
	if (!hit)
		mod_zone_page_state(preferred, NLRU_NUMA_FOREIGN, 1);
}

static struct page *rmqueue_pcplist(struct nlru_engine *eng, struct zone *preferred,
				    struct zone *zone)
{
	int cpu = this_cpu(eng);
	struct per_cpu_pages *pcp = &zone->pageset[cpu];
	struct page *pages = zone->zone_pgdat->pages;
	struct page *page;
	uint32_t pfn;

	spin_lock(&pcp->lock);
	if (pfnlist_empty(&pcp->list)) {
		spin_lock(&zone->lock);
		pcp->count += rmqueue_bulk(zone, pcp->batch, &pcp->list);
		spin_unlock(&zone->lock);
	}
	pfn = pfnlist_pop(&pcp->list, pages);
	if (unlikely(pfn == PFN_NIL)) {
		spin_unlock(&pcp->lock);
		return NULL;
	}
	pcp->count--;
	page = &pages[pfn];
	pcp_stat_add(pcp, PCP_PGALLOC, 1);
	zone_statistics(eng, pcp, preferred, zone, cpu);
	spin_unlock(&pcp->lock);
	prep_new_page(page, 0);
	return page;
}

/* buffered_rmqueue(): order 0 from the per-CPU list, larger orders from the buddy lists. */
static struct page *buffered_rmqueue(struct nlru_engine *eng, struct zone *preferred,
				     struct zone *zone, unsigned int order)
{
	uint32_t pfn;

	if (likely(order == 0))
		return rmqueue_pcplist(eng, preferred, zone);
	spin_lock(&zone->lock);
	pfn = rmqueue_smallest(zone, order);
	spin_unlock(&zone->lock);
	if (pfn == PFN_NIL)
		return NULL;
	count_zid_vm_events(eng, NLRU_PGALLOC, zone->zone_idx, 1ul << order);
	zone_statistics(eng, NULL, preferred, zone, this_cpu(eng));
	prep_new_page(&zone->zone_pgdat->pages[pfn], order);
	return &zone->zone_pgdat->pages[pfn];
}

/* get_page_from_freelist(): the first zone in zonelist order that passes its watermark. */
static struct page *get_page_from_freelist(struct nlru_engine *eng, unsigned int order,
					   unsigned int alloc_flags, const struct alloc_context *ac)
{
	struct zoneref *z = ac->preferred_zoneref;
	struct zone *zone;

	for_next_zone_zonelist(zone, z, ac->high_zoneidx) {
		unsigned long mark = zone->watermark[alloc_flags & ALLOC_WMARK_MASK];
		struct page *page;

		/* node_reclaim_mode is 0: a zone below its mark is simply passed over. */
		if (!(alloc_flags & ALLOC_NO_WATERMARKS) &&
		    !zone_watermark_fast(zone, order, mark, ac_classzone_idx(ac), alloc_flags))
			continue;
		page = buffered_rmqueue(eng, ac->preferred_zoneref->zone, zone, order);
		if (page)
			return page;
	}
	return NULL;
}

static unsigned int gfp_to_alloc_flags(unsigned int gfp)
{
	unsigned int alloc_flags = ALLOC_WMARK_MIN | ALLOC_CPUSET;

	if (gfp & NLRU_GFP_HIGH)
		alloc_flags |= ALLOC_HIGH;
	if (gfp & NLRU_GFP_ATOMIC)
		alloc_flags = (alloc_flags | ALLOC_HARDER) & ~ALLOC_CPUSET;
	return alloc_flags;
}

/* wake_all_kswapds(): once per node of the zonelist, with the gfp zone as classzone. */
static void wake_all_kswapds(struct nlru_engine *eng, unsigned int order,
			     const struct alloc_context *ac)
{
	struct zoneref *z = ac->preferred_zoneref;
	struct pglist_data *last_pgdat = NULL;
	struct zone *zone;

	for_next_zone_zonelist(zone, z, ac->high_zoneidx) {
		if (zone->zone_pgdat == last_pgdat)
			continue;
		wakeup_kswapd(eng, zone, order, ac->high_zoneidx);
		last_pgdat = zone->zone_pgdat;
	}
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
	page = get_page_from_freelist(eng, order, alloc_flags, ac);
	if (!page) {
		/* What reclaim freed may be sitting on other CPUs' lists. */
		drain_all_pages(eng);
		page = get_page_from_freelist(eng, order, alloc_flags, ac);
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
		long reclaimable = (long)zone_reclaimable_pages(zone);
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

/* __alloc_pages_slowpath(), Linux 4.8 order, without compaction and the OOM killer. */
static struct page *alloc_pages_slowpath(struct nlru_engine *eng, unsigned int gfp,
					 unsigned int order, const struct alloc_context *ac)
{
	bool can_direct_reclaim = gfpflags_allow_blocking(gfp);
	int no_progress_loops = 0;
	unsigned long progress;
	unsigned int alloc_flags;
	struct page *page;

	/* A caller that may sleep has no claim on the atomic reserves. */
	if ((gfp & NLRU_GFP_ATOMIC) && can_direct_reclaim)
		gfp &= ~NLRU_GFP_ATOMIC;
	alloc_flags = gfp_to_alloc_flags(gfp);
	if (gfp & NLRU_GFP_KSWAPD_RECLAIM)
		wake_all_kswapds(eng, order, ac);
	page = get_page_from_freelist(eng, order, alloc_flags, ac);
	for (int round = 0; !page && round < MAX_SLOWPATH_ROUNDS; round++) {
		if (round)
			count_vm_event(eng, NLRU_ALLOC_RETRY);
		if (gfp & NLRU_GFP_KSWAPD_RECLAIM)
			wake_all_kswapds(eng, order, ac);
		/* Reclaimers allocating on behalf of reclaim may use all that is left. */
		if (current_flags & PF_MEMALLOC)
			alloc_flags = ALLOC_NO_WATERMARKS;
		page = get_page_from_freelist(eng, order, alloc_flags, ac);
		if (page || !can_direct_reclaim || (current_flags & PF_MEMALLOC))
			break;
		page = alloc_pages_direct_reclaim(eng, gfp, order, alloc_flags, ac, &progress);
		if (page || (gfp & NLRU_GFP_NORETRY) || order > PAGE_ALLOC_COSTLY_ORDER)
			break;
		no_progress_loops = progress ? 0 : no_progress_loops + 1;
		if (!should_reclaim_retry(eng, order, ac, alloc_flags, progress > 0,
					  no_progress_loops))
			break;
	}
	return page;
}

struct page *alloc_pages_node(struct nlru_engine *eng, unsigned int gfp, unsigned int order,
			      int nid)
{
	struct pglist_data *pgdat = NODE_DATA(eng, nid == NLRU_NUMA_NO_NODE ? numa_node_id(eng) : nid);
	struct alloc_context ac = {
		.zonelist = node_zonelist(pgdat, gfp),
		.high_zoneidx = gfp_zone(gfp),
	};
	struct page *page = NULL;

	ac.preferred_zoneref = first_zones_zonelist(ac.zonelist, ac.high_zoneidx);
	if (likely(ac.preferred_zoneref->zone)) {
		page = get_page_from_freelist(eng, order, ALLOC_WMARK_LOW, &ac);
		if (unlikely(!page))
			page = alloc_pages_slowpath(eng, gfp, order, &ac);
	}
	if (unlikely(!page))
		count_vm_event(eng, NLRU_ALLOC_FAIL);
	return page;
}

/* Freeing a page ends "unreclaimable": reset the node's scan count (4.8 free_pcppages_bulk). */
static void reset_pages_scanned(struct pglist_data *pgdat)
{
	long scanned = node_page_state(pgdat, NLRU_NR_PAGES_SCANNED);

	if (scanned)
		mod_node_page_state(pgdat, NLRU_NR_PAGES_SCANNED, -scanned);
}

static void free_pcp_page(struct nlru_engine *eng, struct zone *zone, uint32_t pfn)
{
	struct per_cpu_pages *pcp = &zone->pageset[this_cpu(eng)];
	struct page *pages = zone->zone_pgdat->pages;

	spin_lock(&pcp->lock);
	__page_set(&pages[pfn], PG_pcp);
	pfnlist_add(&pcp->list, pages, pfn);
	pcp_stat_add(pcp, PCP_PGFREE, 1);
	if (++pcp->count >= pcp->high) {
		int batch = MIN(pcp->batch, pcp->count);

		spin_lock(&zone->lock);
		free_pcppages_bulk(zone, batch, &pcp->list);
		spin_unlock(&zone->lock);
		pcp->count -= batch;
		reset_pages_scanned(zone->zone_pgdat);
	}
	spin_unlock(&pcp->lock);
}

void free_pages_trusted(struct nlru_engine *eng, struct page *page, unsigned int order)
{
	struct pglist_data *pgdat = page_pgdat(eng, page);
	struct zone *zone = page_zone(pgdat, page);
	uint32_t pfn = page_to_pfn(pgdat, page);

	if (likely(order == 0)) {
		free_pcp_page(eng, zone, pfn);
		return;
	}
	spin_lock(&zone->lock);
	free_one_page_locked(zone, pfn, order);
	spin_unlock(&zone->lock);
	reset_pages_scanned(pgdat);
	count_vm_events(eng, NLRU_PGFREE, 1ul << order);
}

static void drain_pcp(struct zone *zone, struct per_cpu_pages *pcp)
{
	spin_lock(&pcp->lock);
	if (pcp->count) {
		spin_lock(&zone->lock);
		free_pcppages_bulk(zone, pcp->count, &pcp->list);
		spin_unlock(&zone->lock);
		pcp->count = 0;
	}
	spin_unlock(&pcp->lock);
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
			for (int cpu = 0; cpu < eng->nr_cpus; cpu++)
				drain_pcp(zone, &zone->pageset[cpu]);
		}
		reset_pages_scanned(pgdat);
	}
}

int zone_pcp_init(struct nlru_engine *eng, struct zone *zone)
{
	int high, batch;

	zone->pageset = aligned_alloc(CACHELINE, sizeof(*zone->pageset) * (size_t)eng->nr_cpus);
	if (!zone->pageset)
		return -ENOMEM;
	memset(zone->pageset, 0, sizeof(*zone->pageset) * (size_t)eng->nr_cpus);
	zone_pcp_sizes(eng, zone, &high, &batch);
	for (int cpu = 0; cpu < eng->nr_cpus; cpu++) {
		struct per_cpu_pages *pcp = &zone->pageset[cpu];

		spin_lock_init(&pcp->lock);
		pcp->high = high;
		pcp->batch = batch;
		pfnlist_init(&pcp->list);
	}
	return 0;
}

void zone_pcp_destroy(struct zone *zone)
{
	free(zone->pageset);
	zone->pageset = NULL;
}

/* Public entry points: validate everything, say why through the log, then do the work. */

int nlru_alloc_pages(struct nlru_engine *eng, unsigned int gfp, unsigned int order, int nid,
		     void **addr)
{
	struct page *page;

	if (!eng || !addr)
		return -EINVAL;
	if (order >= MAX_ORDER) {
		log_err(&eng->log, "alloc: order %u is above the largest order %d", order,
			MAX_ORDER - 1);
		return -EINVAL;
	}
	if (gfp & ~GFP_KNOWN) {
		log_err(&eng->log, "alloc: unknown gfp flags 0x%x", gfp & ~GFP_KNOWN);
		return -EINVAL;
	}
	if (gfp_zone(gfp) < 0) {
		log_err(&eng->log, "alloc: gfp 0x%x combines zone modifiers that exclude each other",
			gfp);
		return -EINVAL;
	}
	if (nid != NLRU_NUMA_NO_NODE && (nid < 0 || nid >= eng->nr_nodes)) {
		log_err(&eng->log, "alloc: node %d does not exist (the engine has %d)", nid,
			eng->nr_nodes);
		return -EINVAL;
	}
	page = alloc_pages_node(eng, gfp, order, nid);
	if (!page)
		return -ENOMEM;
	*addr = page_address(page_pgdat(eng, page), page_to_pfn(page_pgdat(eng, page), page));
	if (gfp & NLRU_GFP_ZERO)
		memset(*addr, 0, PAGE_SIZE << order);
	return 0;
}

static struct pglist_data *addr_to_pgdat(struct nlru_engine *eng, const void *addr)
{
	const char *p = addr;

	for (int nid = 0; nid < eng->nr_nodes; nid++) {
		struct pglist_data *pgdat = NODE_DATA(eng, nid);

		if (p >= pgdat->mem && p < pgdat->mem + ((size_t)pgdat->node_present_pages << PAGE_SHIFT))
			return pgdat;
	}
	return NULL;
}

static int bad_free(struct nlru_engine *eng, int err, const void *addr, const char *why,
		    unsigned int a, unsigned int b)
{
	char msg[160];

	snprintf(msg, sizeof(msg), why, a, b);
	count_vm_event(eng, NLRU_BAD_FREE);
	log_err(&eng->log, "free %p refused: %s", addr, msg);
	return err;
}

int nlru_free_pages(struct nlru_engine *eng, void *addr, unsigned int order)
{
	struct pglist_data *pgdat;
	struct page *page;
	int expected = 1;
	uint32_t pfn;

	if (!eng)
		return -EINVAL;
	if (order >= MAX_ORDER)
		return bad_free(eng, -EINVAL, addr, "order %u is above the largest order %u", order,
				MAX_ORDER - 1);
	pgdat = addr_to_pgdat(eng, addr);
	if (!pgdat)
		return bad_free(eng, -EINVAL, addr, "not memory of this engine", 0, 0);
	if ((uintptr_t)addr & (PAGE_SIZE - 1))
		return bad_free(eng, -EINVAL, addr, "not the start of a page", 0, 0);
	pfn = (uint32_t)(((char *)addr - pgdat->mem) >> PAGE_SHIFT);
	page = &pgdat->pages[pfn];
	if (__atomic_load_n(&page->refcount, __ATOMIC_ACQUIRE) == 0)
		return bad_free(eng, -EINVAL, addr,
				"page is not allocated (a double free, or inside a larger block)", 0,
				0);
	if (page_order(page) != order)
		return bad_free(eng, -EINVAL, addr, "allocated with order %u, freed with order %u",
				page_order(page), order);
	/* Claim the free: of two racing frees of one block, exactly one succeeds. */
	if (!__atomic_compare_exchange_n(&page->refcount, &expected, 0, false, __ATOMIC_ACQ_REL,
					 __ATOMIC_ACQUIRE))
		return bad_free(eng, expected > 1 ? -EBUSY : -EINVAL, addr,
				expected > 1 ? "page is still in use (refcount %u)"
					     : "page was freed concurrently (double free)",
				(unsigned int)expected, 0);
	free_pages_trusted(eng, page, order);
	return 0;
}

int nlru_drain_pages(struct nlru_engine *eng)
{
	if (!eng)
		return -EINVAL;
	drain_all_pages(eng);
	return 0;
}
