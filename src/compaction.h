/*
 * Compaction (Linux 4.8 mm/compaction.c): move the in-use pages of a zone's low pageblocks
 * into free pages of its high ones, so that free pages come together into large blocks.
 */
#ifndef NODELRU_COMPACTION_H
#define NODELRU_COMPACTION_H

#include <stdbool.h>

struct nlru_engine;
struct nlru_log;
struct zone;

/*
 * compact_zone()'s and compaction_suitable()'s answers, as 4.8's COMPACT_* values say them
 * (4.8 calls COMPACT_SUCCESS COMPACT_PARTIAL; 4.9 renamed it).
 */
enum compact_result {
	COMPACT_NOT_SUITABLE_ZONE, /* failure would be from lack of memory: reclaim instead */
	COMPACT_SKIPPED,           /* too few free pages to compact with */
	COMPACT_DEFERRED,          /* the zone's compaction is deferred after failures */
	COMPACT_CONTINUE,          /* compaction should run */
	COMPACT_SUCCESS,           /* a free block of the order asked for exists now */
	COMPACT_COMPLETE,          /* the scanners met without making one */
};

/* What one compact_zone() did. */
struct compact_stats {
	unsigned long migrate_scanned; /* pages the migrate scanner looked at */
	unsigned long free_scanned;    /* pages the free scanner looked at */
	unsigned long isolated;        /* free pages taken as targets, pages tried */
	unsigned long migrated;        /* pages moved */
	unsigned long failed;          /* pages that could not be moved now */
};

/*
 * 4.8's compaction priorities (include/linux/compaction.h): direct compaction starts async
 * and retries at sync-light; 4.8 has no full sync priority.
 */
enum compact_priority {
	COMPACT_PRIO_SYNC_LIGHT,
	MIN_COMPACT_PRIORITY = COMPACT_PRIO_SYNC_LIGHT,
	DEF_COMPACT_PRIORITY = COMPACT_PRIO_SYNC_LIGHT,
	COMPACT_PRIO_ASYNC,
	INIT_COMPACT_PRIORITY = COMPACT_PRIO_ASYNC
};

/*
 * compact_zone(): the two scanners of 4.8: the migrate scanner walks @zone's pageblocks from
 * the bottom, moving every region and page cache page it finds (migrate_page()) into free
 * pages the free scanner takes from movable pageblocks walked from the top, until a free block
 * of @order exists (compact_finished()) or the scanners meet.  At COMPACT_PRIO_ASYNC
 * (MIGRATE_ASYNC) the migrate scanner takes movable pageblocks only and passes pages under
 * writeback by (migrate_async_suitable(), ISOLATE_ASYNC_MIGRATE); at sync-light it takes
 * every pageblock.  Free pages never go below the zone's min watermark.  No lock held; may
 * sleep on the locks migration takes.  *@stats (may be NULL) says what it did.
 */
enum compact_result compact_zone(struct nlru_engine *eng, struct zone *zone, unsigned int order,
				 enum compact_priority prio, struct compact_stats *stats);

/*
 * Deferred compaction (4.8's defer_compaction(), compaction_deferred(),
 * compaction_defer_reset()): after compaction of @zone failed for an order, the next 1, 2, 4
 * ... 64 requests of that order or more pass the zone by; a success resets the count.
 */
void defer_compaction(struct zone *zone, unsigned int order);
bool compaction_deferred(struct zone *zone, unsigned int order);
void compaction_defer_reset(struct zone *zone, unsigned int order);
/*
 * fragmentation_index() (4.8's, mm/vmstat.c, with fill_contig_page_info()): why a request
 * of @order would fail in @zone, from its free blocks per order.  -1000: it would not, a
 * block of @order or more is free; 0 (also with nothing free) towards 1000: from lack of
 * memory towards external fragmentation, 1000 - (1000 + 1000 x free pages / 2^order) /
 * free blocks.  Reads the free counts without the zone lock, as Linux does.
 */
int fragmentation_index(struct zone *zone, unsigned int order);

/*
 * compaction_suitable() (4.8's __compaction_suitable(), the same in 4.7): COMPACT_SUCCESS if
 * the zone passes the low watermark for @order already; COMPACT_SKIPPED if it lacks the
 * order-0 low watermark plus 2^(order+1) pages (the block and the targets of the pages moved
 * for it); COMPACT_NOT_SUITABLE_ZONE if fragmentation_index() is in 0 .. extfrag_threshold
 * (a failure would be from lack of memory: reclaim, not compaction); else COMPACT_CONTINUE.
 * @alloc_flags and @classzone_idx are the watermark check's.
 */
enum compact_result compaction_suitable(const struct nlru_engine *eng, struct zone *zone,
					unsigned int order, unsigned int alloc_flags,
					int classzone_idx);

/*
 * kcompactd, one thread per node (4.8's kcompactd()): woken by kswapd as it goes to sleep
 * (wakeup_kcompactd(), only for a high order and when some zone up to @classzone_idx lacks a
 * block of it but has the free pages to make one), it compacts those zones for that order
 * (compact_daemon_wake).  Started with kswapd (cfg.kswapd), stopped after it.
 */
struct pglist_data;
void wakeup_kcompactd(struct nlru_engine *eng, struct pglist_data *pgdat, int order,
		      int classzone_idx);
void kcompactd_state_init(struct pglist_data *pgdat, const struct nlru_log *log);
void kcompactd_state_destroy(struct pglist_data *pgdat);
int kcompactd_start_all(struct nlru_engine *eng);
void kcompactd_stop_all(struct nlru_engine *eng);

#endif /* NODELRU_COMPACTION_H */
