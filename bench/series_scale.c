/*
 * series_scale.c - the tunables of the series' time scale (series_scale.h).
 *
 * The gap between a zone's low and high watermarks (and between min and low) is
 * max(min/4, managed * watermark_scale_factor / 10000) pages (__setup_per_zone_wmarks); the
 * series' 3 GiB DMA32 at the default factor of 10 had 786.  An engine's DMA32 of
 * node_mib * 256 * SERIES_DMA32_PCT / 100 pages gets the same gap from the factor below.  The
 * disk is the series' bandwidth, not a scaled one: with the same gap in pages and the same
 * page rate, a band lasts as long as it did on the series' machine.
 */
#include <stdio.h>

#include "series_scale.h"

long series_watermark_scale_factor(long node_mib)
{
	long dma32_pages = node_mib * 256 * SERIES_DMA32_PCT / 100;
	long factor;

	if (dma32_pages <= 0)
		return 1000;
	factor = (SERIES_DMA32_GAP_PAGES * 10000l + dma32_pages / 2) / dma32_pages;
	return factor < 1 ? 1 : factor > 1000 ? 1000 : factor;
}

void series_scale_tunables(long node_mib, char buf[SERIES_SCALE_SETS][48],
			   const char *sets[SERIES_SCALE_SETS + 1])
{
	snprintf(buf[0], sizeof(buf[0]), "dma32_pct=%d", SERIES_DMA32_PCT);
	snprintf(buf[1], sizeof(buf[1]), "watermark_scale_factor=%ld",
		 series_watermark_scale_factor(node_mib));
	snprintf(buf[2], sizeof(buf[2]), "blkdev_mbs=%d", SERIES_DISK_MBS);
	for (int i = 0; i < SERIES_SCALE_SETS; i++)
		sets[i] = buf[i];
	sets[SERIES_SCALE_SETS] = NULL;
}
