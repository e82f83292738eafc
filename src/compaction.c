/*
 * compaction.c - compact_zone() with its migrate and free scanners (Linux 4.8
 * isolate_migratepages_block(), isolate_freepages_block(), compact_finished()), synchronous.
 *
 * The migrate scanner reads page flags without a lock to choose candidates, as Linux's does;
 * migrate_page() then checks under the owner's and the LRU's locks that the page is what it
 * seemed, so a page freed or taken meanwhile is only refused.  The free scanner takes whole
 * free blocks off the buddy lists under zone->lock and splits them into order-0 targets;
 * those left over at the end go back to the allocator.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buddy.h"
#include "compaction.h"
#include "engine.h"
#include "kthread.h"
#include "migrate.h"
#include "mmzone.h"
#include "page_alloc.h"
#include "spinlock.h"
#include "vmstat.h"
#include "watermark.h"

/* The longest deferral: 1 << COMPACT_MAX_DEFER_SHIFT requests. */
#define COMPACT_MAX_DEFER_SHIFT 6

void defer_compaction(struct zone *zone, unsigned int order)
{
	unsigned int shift = __atomic_load_n(&zone->compact_defer_shift, __ATOMIC_RELAXED);

	__atomic_store_n(&zone->compact_considered, 0, __ATOMIC_RELAXED);
	if (shift < COMPACT_MAX_DEFER_SHIFT)
		__atomic_store_n(&zone->compact_defer_shift, shift + 1, __ATOMIC_RELAXED);
	if ((int)order < __atomic_load_n(&zone->compact_order_failed, __ATOMIC_RELAXED))
		__atomic_store_n(&zone->compact_order_failed, (int)order, __ATOMIC_RELAXED);
}

bool compaction_deferred(struct zone *zone, unsigned int order)
{
	unsigned long defer_limit =
		1ul << __atomic_load_n(&zone->compact_defer_shift, __ATOMIC_RELAXED);

	if ((int)order < __atomic_load_n(&zone->compact_order_failed, __ATOMIC_RELAXED))
		return false;
	/* Avoid possible overflow, as 4.8 does. */
	if (__atomic_add_fetch(&zone->compact_considered, 1, __ATOMIC_RELAXED) > defer_limit)
		__atomic_store_n(&zone->compact_considered, (unsigned int)defer_limit,
				 __ATOMIC_RELAXED);
	return __atomic_load_n(&zone->compact_considered, __ATOMIC_RELAXED) < defer_limit;
}

void compaction_defer_reset(struct zone *zone, unsigned int order)
{
	__atomic_store_n(&zone->compact_considered, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&zone->compact_defer_shift, 0, __ATOMIC_RELAXED);
	if ((int)order >= __atomic_load_n(&zone->compact_order_failed, __ATOMIC_RELAXED))
		__atomic_store_n(&zone->compact_order_failed, (int)order + 1, __ATOMIC_RELAXED);
}

/* What fill_contig_page_info() counts of a zone's free blocks. */
struct contig_page_info {
	unsigned long free_pages;
	unsigned long free_blocks_total;
	unsigned long free_blocks_suitable; /* blocks of the order asked for the free ones hold */
};

static void fill_contig_page_info(struct zone *zone, unsigned int suitable_order,
				  struct contig_page_info *info)
{
	*info = (struct contig_page_info){0};
	for (unsigned int o = 0; o < MAX_ORDER; o++) {
		unsigned long blocks =
			__atomic_load_n(&zone->free_area[o].nr_free, __ATOMIC_RELAXED);

		info->free_blocks_total += blocks;
		info->free_pages += blocks << o;
		if (o >= suitable_order)
			info->free_blocks_suitable += blocks << (o - suitable_order);
	}
}

int fragmentation_index(struct zone *zone, unsigned int order)
{
	struct contig_page_info info;
	unsigned long requested = 1ul << order;

	fill_contig_page_info(zone, order, &info);
	if (!info.free_blocks_total)
		return 0;
	/* The index only means something for a request that would fail. */
	if (info.free_blocks_suitable)
		return -1000;
	return 1000 - (int)((1000 + info.free_pages * 1000 / requested) / info.free_blocks_total);
}

enum compact_result compaction_suitable(const struct nlru_engine *eng, struct zone *zone,
					unsigned int order, unsigned int alloc_flags,
					int classzone_idx)
{
	unsigned long watermark = low_wmark_pages(zone);
	int fragindex;

	/* The block is there already (COMPACT_PARTIAL in 4.8). */
	if (zone_watermark_ok(zone, order, watermark, classzone_idx, alloc_flags))
		return COMPACT_SUCCESS;
	/* Migration needs a target for each page it moves: 2^(order+1) above the watermark. */
	watermark += 2ul << order;
	if (!zone_watermark_ok(zone, 0, watermark, classzone_idx, alloc_flags))
		return COMPACT_SKIPPED;
	/* Only a failure from fragmentation is compaction's to mend. */
	fragindex = fragmentation_index(zone, order);
	if (fragindex >= 0 && fragindex <= tunable(eng, extfrag_threshold))
		return COMPACT_NOT_SUITABLE_ZONE;
	return COMPACT_CONTINUE;
}

/* Targets kept at a time, Linux's COMPACT_CLUSTER_MAX. */
#define COMPACT_CLUSTER_MAX 32

struct compact_control {
	struct nlru_engine *eng;
	struct zone *zone;
	unsigned int order;
	uint32_t migrate_pfn; /* the next pageblock the migrate scanner takes */
	uint32_t free_pfn;    /* the pageblock the free scanner takes next, going down */
	uint32_t freepages[COMPACT_CLUSTER_MAX + (1u << (MAX_ORDER - 1))];
	unsigned int nr_freepages;
	bool async; /* MIGRATE_ASYNC: movable pageblocks only, no page under writeback */
	struct compact_stats stats;
};

/* suitable_migration_target(): free pages are taken from movable pageblocks only. */
static bool suitable_target(const struct zone *zone, uint32_t block)
{
	return get_pfnblock_migratetype(zone, block) == MIGRATE_MOVABLE;
}

/*
 * isolate_freepages(): walk down from free_pfn, one pageblock at a time, taking its free
 * blocks until COMPACT_CLUSTER_MAX targets are held or the scanner reaches the migrate
 * scanner's pageblock.
 */
static void isolate_freepages(struct compact_control *cc)
{
	struct zone *zone = cc->zone;
	struct page *pages = zone->zone_pgdat->pages;
	unsigned long min_free = min_wmark_pages(zone);

	while (cc->nr_freepages < COMPACT_CLUSTER_MAX && cc->free_pfn > cc->migrate_pfn) {
		uint32_t block = cc->free_pfn, end = block + pageblock_nr_pages;

		cc->free_pfn = block - pageblock_nr_pages;
		if (end > zone_end_pfn(zone) || !suitable_target(zone, block))
			continue;
		spin_lock(&zone->lock);
		for (uint32_t pfn = block; pfn < end && cc->nr_freepages < COMPACT_CLUSTER_MAX;) {
			int order;

			cc->stats.free_scanned++;
			if (!page_test(&pages[pfn], PG_buddy) ||
			    (order = isolate_free_block(zone, pfn, min_free)) < 0) {
				pfn++;
				continue;
			}
			for (uint32_t i = 0; i < 1u << order; i++)
				cc->freepages[cc->nr_freepages++] = pfn + i;
			cc->stats.isolated += 1ul << order;
			pfn += 1u << order;
		}
		spin_unlock(&zone->lock);
		/* A block not scanned to its end is scanned again next time. */
		if (cc->nr_freepages >= COMPACT_CLUSTER_MAX)
			cc->free_pfn = block;
	}
}

/* compact_finished(): a free block of the order asked for, of any type, exists. */
static bool compact_finished(const struct zone *zone, unsigned int order)
{
	for (unsigned int o = order; o < MAX_ORDER; o++)
		if (__atomic_load_n(&zone->free_area[o].nr_free, __ATOMIC_RELAXED))
			return true;
	return false;
}

/* A page the migrate scanner may try: in use by an owner and on an LRU list, as it looks. */
static bool migration_candidate(const struct page *page)
{
	uint32_t flags = page_flags(page);

	return (flags & (1u << PG_lru)) && !(flags & (1u << PG_buddy)) && page_mapping_id(page);
}

/* isolate_migratepages_block() and migrate_pages() for one pageblock.  False: no targets. */
static bool migrate_block(struct compact_control *cc, uint32_t block)
{
	struct pglist_data *pgdat = cc->zone->zone_pgdat;
	uint32_t end = block + pageblock_nr_pages;

	if (end > zone_end_pfn(cc->zone))
		end = zone_end_pfn(cc->zone);
	/* migrate_async_suitable(): async compaction moves pages out of movable blocks only. */
	if (cc->async && get_pfnblock_migratetype(cc->zone, block) != MIGRATE_MOVABLE)
		return true;
	for (uint32_t pfn = block; pfn < end; pfn++) {
		struct page *page = &pgdat->pages[pfn];

		cc->stats.migrate_scanned++;
		if (!migration_candidate(page) || (cc->async && page_test(page, PG_writeback)))
			continue;
		if (!cc->nr_freepages)
			isolate_freepages(cc);
		if (!cc->nr_freepages)
			return false;
		if (migrate_page(cc->eng, page,
				 &pgdat->pages[cc->freepages[cc->nr_freepages - 1]]) == 0) {
			cc->nr_freepages--;
			cc->stats.migrated++;
		} else {
			cc->stats.failed++;
		}
	}
	return true;
}

enum compact_result compact_zone(struct nlru_engine *eng, struct zone *zone, unsigned int order,
				 enum compact_priority prio, struct compact_stats *stats)
{
	/* About 4 KiB on the stack: no allocation (a thread's first malloc() may map an arena). */
	struct compact_control control = {0}, *cc = &control;
	enum compact_result result = COMPACT_COMPLETE;
	unsigned long migrated;

	cc->eng = eng;
	cc->zone = zone;
	cc->order = order;
	cc->async = prio == COMPACT_PRIO_ASYNC;
	cc->migrate_pfn = zone->zone_start_pfn;
	/* The last whole pageblock of the zone. */
	cc->free_pfn = zone->zone_start_pfn +
		       ((zone->spanned_pages / pageblock_nr_pages) - 1) * pageblock_nr_pages;
	if (zone->spanned_pages < pageblock_nr_pages)
		cc->free_pfn = zone->zone_start_pfn;
	while (!compact_finished(zone, order)) {
		uint32_t block = cc->migrate_pfn;

		if (block >= cc->free_pfn + pageblock_nr_pages || block >= zone_end_pfn(zone))
			break;
		cc->migrate_pfn = block + pageblock_nr_pages;
		migrated = cc->stats.migrated;
		if (!migrate_block(cc, block))
			break;
		/*
		 * The pages moved out of the block went to this CPU's per-CPU list: flush them,
		 * so that they merge and compact_finished() sees a block made (4.8's check_drain).
		 */
		if (cc->stats.migrated != migrated)
			drain_local_pages(eng, zone);
	}
	if (compact_finished(zone, order))
		result = COMPACT_SUCCESS;
	/* release_freepages(): the targets not used go back. */
	while (cc->nr_freepages)
		free_pages_trusted(eng, &zone->zone_pgdat->pages[cc->freepages[--cc->nr_freepages]],
				   0);
	if (compact_finished(zone, order))
		result = COMPACT_SUCCESS;
	count_vm_events(eng, NLRU_COMPACT_MIGRATE_SCANNED, cc->stats.migrate_scanned);
	count_vm_events(eng, NLRU_COMPACT_FREE_SCANNED, cc->stats.free_scanned);
	count_vm_events(eng, NLRU_COMPACT_ISOLATED, cc->stats.isolated);
	if (stats)
		*stats = cc->stats;
	return result;
}

/* A zone up to @classzone_idx needs compaction for @order and can have it. */
static bool kcompactd_node_suitable(const struct nlru_engine *eng, struct pglist_data *pgdat,
				    int order, int classzone_idx)
{
	for (int zid = 0; zid <= classzone_idx; zid++) {
		struct zone *zone = &pgdat->node_zones[zid];

		if (managed_zone(zone) && compaction_suitable(eng, zone, (unsigned int)order, 0,
							      classzone_idx) == COMPACT_CONTINUE)
			return true;
	}
	return false;
}

void wakeup_kcompactd(struct nlru_engine *eng, struct pglist_data *pgdat, int order,
		      int classzone_idx)
{
	struct kcompactd_state *kc = &pgdat->kcompactd;

	if (!order || !kc->started || !kcompactd_node_suitable(eng, pgdat, order, classzone_idx))
		return;
	mutex_lock(&kc->lock);
	if (order > kc->order)
		kc->order = order;
	if (classzone_idx > kc->classzone_idx)
		kc->classzone_idx = classzone_idx;
	kc->woken = true;
	pthread_cond_signal(&kc->wait);
	mutex_unlock(&kc->lock);
}

/* kcompactd_do_work(): every zone up to @classzone_idx that needs it, for @order. */
static void kcompactd_do_work(struct nlru_engine *eng, struct pglist_data *pgdat, int order,
			      int classzone_idx)
{
	count_vm_event(eng, NLRU_COMPACT_DAEMON_WAKE);
	for (int zid = 0; zid <= classzone_idx && !atomic_load(&pgdat->kcompactd.stop); zid++) {
		struct zone *zone = &pgdat->node_zones[zid];

		if (!managed_zone(zone) || compaction_deferred(zone, (unsigned int)order) ||
		    compaction_suitable(eng, zone, (unsigned int)order, 0, zid) != COMPACT_CONTINUE)
			continue;
		/* kcompactd_do_work() compacts at MIGRATE_SYNC_LIGHT. */
		if (compact_zone(eng, zone, (unsigned int)order, COMPACT_PRIO_SYNC_LIGHT, NULL) ==
		    COMPACT_SUCCESS)
			compaction_defer_reset(zone, (unsigned int)order);
		else
			defer_compaction(zone, (unsigned int)order);
	}
}

struct kcompactd_arg {
	struct nlru_engine *eng;
	struct pglist_data *pgdat;
};

static void *kcompactd_main(void *p)
{
	struct kcompactd_arg arg = *(struct kcompactd_arg *)p;
	struct kcompactd_state *kc = &arg.pgdat->kcompactd;

	free(p);
	mutex_lock(&kc->lock);
	for (;;) {
		int order, classzone_idx;

		while (!kc->woken && !atomic_load(&kc->stop))
			pthread_cond_wait(&kc->wait, &kc->lock.mutex);
		if (atomic_load(&kc->stop))
			break;
		kc->woken = false;
		order = kc->order;
		classzone_idx = kc->classzone_idx;
		kc->order = 0;
		kc->classzone_idx = 0;
		mutex_unlock(&kc->lock);
		kcompactd_do_work(arg.eng, arg.pgdat, order, classzone_idx);
		mutex_lock(&kc->lock);
	}
	mutex_unlock(&kc->lock);
	return NULL;
}

void kcompactd_state_init(struct pglist_data *pgdat, const struct nlru_log *log)
{
	mutex_init(&pgdat->kcompactd.lock, LOCK_NONE, log);
	pthread_cond_init(&pgdat->kcompactd.wait, NULL);
}

void kcompactd_state_destroy(struct pglist_data *pgdat)
{
	pthread_cond_destroy(&pgdat->kcompactd.wait);
	mutex_destroy(&pgdat->kcompactd.lock);
}

int kcompactd_start_all(struct nlru_engine *eng)
{
	struct pglist_data *pgdat;
	int nid, r;

	for_each_online_pgdat(pgdat, eng, nid) {
		struct kcompactd_arg *arg = malloc(sizeof(*arg));

		if (!arg)
			return -ENOMEM;
		*arg = (struct kcompactd_arg){eng, pgdat};
		r = kthread_run(&pgdat->kcompactd.thread, kcompactd_main, arg, "kcompactd%d", nid);
		if (r) {
			free(arg);
			log_err(&eng->log, "cannot start kcompactd for node %d: %s", nid,
				strerror(r));
			return -r;
		}
		pgdat->kcompactd.started = true;
	}
	return 0;
}

void kcompactd_stop_all(struct nlru_engine *eng)
{
	for (int nid = 0; nid < MAX_NUMNODES; nid++) {
		struct pglist_data *pgdat = eng->node_data[nid];

		if (!pgdat || !pgdat->kcompactd.started)
			continue;
		mutex_lock(&pgdat->kcompactd.lock);
		atomic_store(&pgdat->kcompactd.stop, true);
		pthread_cond_signal(&pgdat->kcompactd.wait);
		mutex_unlock(&pgdat->kcompactd.lock);
		pthread_join(pgdat->kcompactd.thread, NULL);
		pgdat->kcompactd.started = false;
	}
}
