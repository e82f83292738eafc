/* Dirty page limits (Linux 4.8 mm/page-writeback.c). */
#ifndef NODELRU_PAGE_WRITEBACK_H
#define NODELRU_PAGE_WRITEBACK_H

#include <stdbool.h>

struct nlru_engine;

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

#endif /* NODELRU_PAGE_WRITEBACK_H */
