/*
 * show_mem.c - the report of a failed allocation: Linux 4.8's warn_alloc() and
 * show_free_areas() (mm/page_alloc.c), with the slow path's own account of what it tried,
 * which Linux leaves to a stack trace.  Each report is a few messages through the log
 * callback: the request, the slow path, then one line per node and per zone it could use.
 *
 * Locking: none.  Counters and free counts are read lock-free, as /proc/zoneinfo reads them;
 * a report is a snapshot of a moving system.
 */
#include <stdio.h>
#include <string.h>

#include "engine.h"
#include "gfp.h"
#include "show_mem.h"
#include "swap.h"
#include "vmstat.h"
#include "watermark.h"
#include "zonelist.h"

/* Combinations first, largest first, so that a mask reads as Linux prints it. */
static const struct {
	unsigned int mask;
	const char *name;
} gfp_flag_names[] = {
	{NLRU_GFP_HIGHUSER_MOVABLE, "GFP_HIGHUSER_MOVABLE"},
	{NLRU_GFP_USER, "GFP_USER"},
	{NLRU_GFP_KERNEL, "GFP_KERNEL"},
	{NLRU_GFP_NOFS, "GFP_NOFS"},
	{NLRU_GFP_ATOMIC, "GFP_ATOMIC"},
	{NLRU_GFP_NOIO, "GFP_NOIO"},
	{NLRU_GFP_NOWAIT, "GFP_NOWAIT"},
	{NLRU_GFP_DMA, "__GFP_DMA"},
	{NLRU_GFP_HIGHMEM, "__GFP_HIGHMEM"},
	{NLRU_GFP_DMA32, "__GFP_DMA32"},
	{NLRU_GFP_MOVABLE, "__GFP_MOVABLE"},
	{NLRU_GFP_HIGH, "__GFP_HIGH"},
	{NLRU_GFP_IO, "__GFP_IO"},
	{NLRU_GFP_FS, "__GFP_FS"},
	{NLRU__GFP_ATOMIC, "__GFP_ATOMIC"},
	{NLRU_GFP_DIRECT_RECLAIM, "__GFP_DIRECT_RECLAIM"},
	{NLRU_GFP_KSWAPD_RECLAIM, "__GFP_KSWAPD_RECLAIM"},
	{NLRU_GFP_NOWARN, "__GFP_NOWARN"},
	{NLRU_GFP_NORETRY, "__GFP_NORETRY"},
	{NLRU_GFP_THISNODE, "__GFP_THISNODE"},
	{NLRU_GFP_HARDWALL, "__GFP_HARDWALL"},
	{NLRU_GFP_ZERO, "__GFP_ZERO"},
	{NLRU_GFP_SLAB_RECLAIMABLE, "SLAB_RECLAIMABLE"},
	{NLRU_GFP_SLAB_UNRECLAIMABLE, "SLAB_UNRECLAIMABLE"},
	{NLRU_GFP_WRITE, "__GFP_WRITE"},
};

char *gfp_names(unsigned int gfp, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < ARRAY_SIZE(gfp_flag_names) && gfp; i++) {
		unsigned int mask = gfp_flag_names[i].mask;

		if ((gfp & mask) != mask)
			continue;
		gfp &= ~mask;
		n += (size_t)snprintf(buf + MIN(n, len), len - MIN(n, len), "%s%s", n ? "|" : "",
				      gfp_flag_names[i].name);
	}
	if (gfp)
		snprintf(buf + MIN(n, len), len - MIN(n, len), "%s%#x", n ? "|" : "", gfp);
	else if (!n)
		snprintf(buf, len, "0");
	return buf;
}

/* The node's LRU and slab state, one line (show_free_areas()'s per-node part). */
static void show_node(struct nlru_engine *eng, struct pglist_data *pgdat)
{
	long slab_r = 0, slab_u = 0;
	struct zone *zone;

	for_each_zone_in_node(zone, pgdat) {
		slab_r += zone_page_state(zone, NLRU_NR_SLAB_RECLAIMABLE);
		slab_u += zone_page_state(zone, NLRU_NR_SLAB_UNRECLAIMABLE);
	}
	log_warn(&eng->log,
		 "alloc: node %d active_anon:%ld inactive_anon:%ld active_file:%ld "
		 "inactive_file:%ld unevictable:%ld isolated_anon:%ld isolated_file:%ld dirty:%ld "
		 "writeback:%ld slab_reclaimable:%ld slab_unreclaimable:%ld",
		 pgdat->node_id, node_page_state(pgdat, NLRU_NR_ACTIVE_ANON),
		 node_page_state(pgdat, NLRU_NR_INACTIVE_ANON),
		 node_page_state(pgdat, NLRU_NR_ACTIVE_FILE),
		 node_page_state(pgdat, NLRU_NR_INACTIVE_FILE),
		 node_page_state(pgdat, NLRU_NR_UNEVICTABLE),
		 node_page_state(pgdat, NLRU_NR_ISOLATED_ANON),
		 node_page_state(pgdat, NLRU_NR_ISOLATED_FILE),
		 node_page_state(pgdat, NLRU_NR_FILE_DIRTY),
		 node_page_state(pgdat, NLRU_NR_WRITEBACK), slab_r, slab_u);
}

/* One zone: its watermarks and its free blocks, as "Node 0 Normal: 3*4kB 1*8kB ... = 20kB". */
static void show_zone(struct nlru_engine *eng, struct zone *zone, int classzone_idx)
{
	char blocks[256];
	size_t n = 0;
	unsigned long total_kb = 0;

	blocks[0] = '\0';
	for (unsigned int order = 0; order < MAX_ORDER; order++) {
		unsigned long nr =
			__atomic_load_n(&zone->free_area[order].nr_free, __ATOMIC_RELAXED);

		total_kb += nr << (order + PAGE_SHIFT - 10);
		n += (size_t)snprintf(blocks + MIN(n, sizeof(blocks)),
				      sizeof(blocks) - MIN(n, sizeof(blocks)), "%s%lu*%lukB",
				      order ? " " : "", nr, 4ul << order);
	}
	log_warn(&eng->log,
		 "alloc: node %d %s free:%ld min:%lu low:%lu high:%lu reserve:%ld managed:%u; "
		 "%s = %lukB",
		 zone->node, nlru_zone_name(zone->zone_idx),
		 zone_page_state(zone, NLRU_NR_FREE_PAGES), min_wmark_pages(zone),
		 low_wmark_pages(zone), high_wmark_pages(zone),
		 zone_lowmem_reserve(zone, classzone_idx), zone->managed_pages, blocks, total_kb);
}

/* Every node, then every zone, the request could use, in zonelist order. */
static void show_free_areas(struct nlru_engine *eng, const struct zoneref *preferred,
			    int high_zoneidx)
{
	bool shown[MAX_NUMNODES] = {false};
	const struct zoneref *z;
	struct zone *zone;

	for (z = preferred; (zone = z->zone); z++) {
		if (z->zone_idx > high_zoneidx || shown[zone->node])
			continue;
		shown[zone->node] = true;
		show_node(eng, zone->zone_pgdat);
	}
	for (z = preferred; (zone = z->zone); z++)
		if (z->zone_idx <= high_zoneidx)
			show_zone(eng, zone, preferred->zone_idx);
	log_warn(&eng->log, "alloc: swap free:%ld of %ld pages", get_nr_swap_pages(eng),
		 total_swap_pages(eng));
}

/*
 * May a report go out now?  Sets @held_back to the text its first line ends with: how many
 * reports the limit held back before it, or nothing.  The count rides on the first line, not
 * on a message of its own, so the first message of every report is the one that names it.
 */
static bool alloc_ratelimit_ok(struct nlru_engine *eng, char *held_back, size_t size)
{
	int missed = 0;

	if (!ratelimit_ok(&eng->alloc_warn_rs, engine_now_ns(eng), &missed))
		return false;
	if (missed)
		snprintf(held_back, size,
			 " (%d earlier report%s not logged; nlru_alloc_fail counts all)", missed,
			 missed == 1 ? "" : "s");
	else
		held_back[0] = '\0';
	return true;
}

void warn_alloc(struct nlru_engine *eng, unsigned int gfp, unsigned int order,
		const struct zoneref *preferred, int high_zoneidx, const struct alloc_report *rep)
{
	char names[200], held_back[96];

	if ((gfp & NLRU_GFP_NOWARN) || !alloc_ratelimit_ok(eng, held_back, sizeof(held_back)))
		return;
	log_warn(&eng->log,
		 "alloc: page allocation failure: order:%u, mode:%#x(%s), node %d%s, zones up "
		 "to %s%s",
		 order, gfp, gfp_names(gfp, names, sizeof(names)), preferred->zone->node,
		 gfp & NLRU_GFP_THISNODE ? " only" : " first, then the others by distance",
		 nlru_zone_name(high_zoneidx), held_back);
	if (rep)
		log_warn(
			&eng->log,
			"alloc: slow path: %d round%s, %d direct reclaim%s freed %lu pages, %d "
			"last-resort reclaim%s (where Linux would OOM-kill) freed %lu; gave up: %s",
			rep->rounds, rep->rounds == 1 ? "" : "s", rep->reclaims,
			rep->reclaims == 1 ? "" : "s", rep->reclaimed, rep->oom_reclaims,
			rep->oom_reclaims == 1 ? "" : "s", rep->oom_reclaimed,
			rep->gave_up ? rep->gave_up : "nothing was free");
	show_free_areas(eng, preferred, high_zoneidx);
}

void warn_alloc_impossible(struct nlru_engine *eng, unsigned int gfp, unsigned int order, int nid,
			   int high_zoneidx)
{
	char names[200], where[64], held_back[96];

	if (!alloc_ratelimit_ok(eng, held_back, sizeof(held_back)))
		return;
	if (gfp & NLRU_GFP_THISNODE)
		snprintf(where, sizeof(where), "node %d (__GFP_THISNODE)",
			 nid == NLRU_NUMA_NO_NODE ? numa_node_id(eng) : nid);
	else
		snprintf(where, sizeof(where), "any node");
	log_err(&eng->log,
		"alloc: order:%u, mode:%#x(%s) can never be served: no zone up to %s on %s has "
		"%s (zone sizes are fixed at creation: dma_pct, dma32_pct, movable_pct, node_mib)%s",
		order, gfp, gfp_names(gfp, names, sizeof(names)), nlru_zone_name(high_zoneidx),
		where, order ? "room for a block of that order" : "any memory", held_back);
}
