/* Dirty page limits (Linux 4.8 mm/page-writeback.c). */
#ifndef NODELRU_PAGE_WRITEBACK_H
#define NODELRU_PAGE_WRITEBACK_H

#include "engine.h"

/* global_dirty_limits(): the nr_dirty_background_threshold and nr_dirty_threshold values. */
void global_dirty_limits(const struct nlru_engine *eng, unsigned long *background,
			 unsigned long *dirty);

#endif /* NODELRU_PAGE_WRITEBACK_H */
