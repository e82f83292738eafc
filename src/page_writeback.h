/* Dirty page limits (Linux 4.8 mm/page-writeback.c; zone_dirty_ok of 4.7). */
#ifndef NODELRU_PAGE_WRITEBACK_H
#define NODELRU_PAGE_WRITEBACK_H

#include <stdbool.h>

struct nlru_engine;
struct pglist_data;
struct zone;

/* global_dirty_limits(): the nr_dirty_background_threshold and nr_dirty_threshold values. */
void global_dirty_limits(const struct nlru_engine *eng, unsigned long *background,
			 unsigned long *dirty);

/* Dirty page cache pages of the engine (NR_FILE_DIRTY), plus those under writeback if asked. */
unsigned long global_dirty_pages(const struct nlru_engine *eng, bool with_writeback);

/* wb_over_bg_thresh(): more dirty pages than the background threshold? */
bool over_bground_thresh(const struct nlru_engine *eng);

/*
 * throttle_vm_writeout(): reclaim with @gfp sleeps in congestion_wait() while the pages under
 * writeback (anon and file) pass the dirty limit plus a tenth, so that it does not outrun the
 * device.  A caller that may not do both I/O and FS waits once at most.  No lock held but the
 * owner table's read lock, which no write's completion needs.
 */
void throttle_vm_writeout(struct nlru_engine *eng, unsigned int gfp);

/*
 * The dirty pages one node (4.8) or one zone (4.7) may hold: vm.dirty_ratio of its own
 * dirtyable memory (free pages above its reserves, plus its file LRU pages), so that no node
 * or zone holds more than its share of the global limit and kswapd can balance it without
 * writing pages from its LRU lists.
 */
unsigned long node_dirty_limit(const struct nlru_engine *eng, const struct pglist_data *pgdat);
unsigned long zone_dirty_limit(const struct nlru_engine *eng, const struct zone *zone);

/*
 * node_dirty_ok() (4.8), zone_dirty_ok() (4.7, zone mode only: it reads the zone's copies of
 * the node counters): are its dirty, unstable and writeback pages within its limit?
 */
bool node_dirty_ok(const struct nlru_engine *eng, const struct pglist_data *pgdat);
bool zone_dirty_ok(const struct nlru_engine *eng, const struct zone *zone);

#endif /* NODELRU_PAGE_WRITEBACK_H */
