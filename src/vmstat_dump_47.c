/*
 * vmstat_dump_47.c - the dumps of zone mode, in Linux 4.7's layout (mm/vmstat.c of 4.7):
 * every state counter is a zone counter, printed in 4.7's enum zone_stat_item order; the
 * reclaim events are printed per zone (pgscan_kswapd_dma32, ...); allocstall is one counter;
 * zoneinfo has no per-node block and ends with all_unreclaimable and inactive_ratio.
 *
 * The engine keeps some counters per node (4.8's placement) and, in zone mode, a copy of each
 * per zone (zone->zm->vm_node_stat), so every 4.7 item has its per-zone value; the table below
 * says where each one lives.
 */
#include <stdio.h>

#include "vmscan.h"
#include "vmstat.h"
#include "vmstat_dump.h"
#include "watermark.h"

struct item_47 {
	const char *name;
	bool per_node;    /* kept as a node item (its per-zone copy in zone mode) */
	int item;         /* enum nlru_zone_stat_item or enum nlru_node_stat_item */
	bool alloc_batch; /* NR_ALLOC_BATCH, kept beside the zone counters */
};

#define Z(name, item)                                                                              \
	{                                                                                          \
		name, false, NLRU_##item, false                                                    \
	}
#define N(name, item)                                                                              \
	{                                                                                          \
		name, true, NLRU_##item, false                                                     \
	}

/* 4.7 enum zone_stat_item, CONFIG_NUMA, without THP file and ZSMALLOC items. */
static const struct item_47 items_47[] = {
	Z("nr_free_pages", NR_FREE_PAGES),
	{"nr_alloc_batch", false, 0, true},
	Z("nr_inactive_anon", NR_ZONE_INACTIVE_ANON),
	Z("nr_active_anon", NR_ZONE_ACTIVE_ANON),
	Z("nr_inactive_file", NR_ZONE_INACTIVE_FILE),
	Z("nr_active_file", NR_ZONE_ACTIVE_FILE),
	Z("nr_unevictable", NR_ZONE_UNEVICTABLE),
	Z("nr_mlock", NR_MLOCK),
	N("nr_anon_pages", NR_ANON_MAPPED),
	N("nr_mapped", NR_FILE_MAPPED),
	N("nr_file_pages", NR_FILE_PAGES),
	N("nr_dirty", NR_FILE_DIRTY),
	N("nr_writeback", NR_WRITEBACK),
	Z("nr_slab_reclaimable", NR_SLAB_RECLAIMABLE),
	Z("nr_slab_unreclaimable", NR_SLAB_UNRECLAIMABLE),
	Z("nr_page_table_pages", NR_PAGETABLE),
	Z("nr_kernel_stack", NR_KERNEL_STACK_KB),
	N("nr_unstable", NR_UNSTABLE_NFS),
	Z("nr_bounce", NR_BOUNCE),
	N("nr_vmscan_write", NR_VMSCAN_WRITE),
	N("nr_vmscan_immediate_reclaim", NR_VMSCAN_IMMEDIATE),
	N("nr_writeback_temp", NR_WRITEBACK_TEMP),
	N("nr_isolated_anon", NR_ISOLATED_ANON),
	N("nr_isolated_file", NR_ISOLATED_FILE),
	N("nr_shmem", NR_SHMEM),
	N("nr_dirtied", NR_DIRTIED),
	N("nr_written", NR_WRITTEN),
	N("nr_pages_scanned", NR_PAGES_SCANNED),
	Z("numa_hit", NUMA_HIT),
	Z("numa_miss", NUMA_MISS),
	Z("numa_foreign", NUMA_FOREIGN),
	Z("numa_interleave", NUMA_INTERLEAVE_HIT),
	Z("numa_local", NUMA_LOCAL),
	Z("numa_other", NUMA_OTHER),
	N("workingset_refault", WORKINGSET_REFAULT),
	N("workingset_activate", WORKINGSET_ACTIVATE),
	N("workingset_nodereclaim", WORKINGSET_NODERECLAIM),
	N("nr_anon_transparent_hugepages", NR_ANON_THPS),
	Z("nr_free_cma", NR_FREE_CMA_PAGES),
};

#undef Z
#undef N

static long zone_item_47(const struct nlru_engine *eng, const struct zone *zone,
			 const struct item_47 *it)
{
	if (it->alloc_batch)
		return atomic_load_explicit(&zone->alloc_batch, memory_order_relaxed);
	if (it->per_node)
		return zone_node_page_state(zone, (enum nlru_node_stat_item)it->item);
	return zone_stat_read(eng, zone, (enum nlru_zone_stat_item)it->item);
}

/*
 * 4.7 reads counters through global_page_state() and zone_page_state(), which show a
 * negative value as 0 (per-CPU deltas can leave one below zero for a while).  Of the engine's
 * counters only NR_ALLOC_BATCH goes below zero: every allocation spends it, fair or not, and a
 * zone only other nodes allocate from is never reset, as in 4.7.
 */
static unsigned long shown(long v)
{
	return v < 0 ? 0 : (unsigned long)v;
}

/*
 * /proc/vmstat shows the global counter (the sum of every zone), clamped once; nodeN/vmstat
 * sums the node's zones after clamping each (sum_zone_node_page_state()).
 */
void dump_vmstat_items_47(struct nlru_engine *eng, int only_nid, FILE *out)
{
	for (size_t i = 0; i < ARRAY_SIZE(items_47); i++) {
		unsigned long node_sum = 0;
		long sum = 0;

		for (int nid = 0; nid < eng->nr_nodes; nid++)
			if (only_nid < 0 || nid == only_nid)
				for (int zid = 0; zid < MAX_NR_ZONES; zid++) {
					long v = zone_item_47(eng,
							      &NODE_DATA(eng, nid)->node_zones[zid],
							      &items_47[i]);

					sum += v;
					node_sum += shown(v);
				}
		fprintf(out, "%s %lu\n", items_47[i].name, only_nid < 0 ? shown(sum) : node_sum);
	}
}

static unsigned long sum_over_zones(struct nlru_engine *eng, enum nlru_vm_event_item first)
{
	unsigned long sum = 0;

	for (int zid = 0; zid < MAX_NR_ZONES; zid++)
		sum += vm_event_read(eng, (enum nlru_vm_event_item)(first + zid));
	return sum;
}

/*
 * 4.7's events: the same list as 4.8's but every reclaim event per zone, no pgskip_*, and one
 * allocstall printed after pageoutrun.
 */
void dump_vmstat_events_47(struct nlru_engine *eng, FILE *out)
{
	for (int k = 0; k < NR_VM_EVENT_ITEMS; k++) {
		enum nlru_vm_event_item i = vm_event_order[k];
		bool in_skip = i >= NLRU_PGSCAN_SKIP && i < NLRU_PGSCAN_SKIP + MAX_NR_ZONES;
		bool in_allocstall = i >= NLRU_ALLOCSTALL && i < NLRU_ALLOCSTALL + MAX_NR_ZONES;

		if (in_skip || in_allocstall)
			continue;
		fprintf(out, "%s %lu\n", nlru_vm_event_name(i), vm_event_read(eng, i));
		if (i == NLRU_PAGEOUTRUN)
			fprintf(out, "allocstall %lu\n", sum_over_zones(eng, NLRU_ALLOCSTALL));
	}
}

static void dump_zone_47(struct nlru_engine *eng, const struct zone *zone, FILE *out)
{
	fprintf(out,
		"Node %d, zone %8s\n  pages free     %lu\n        min      %lu\n        low      %lu"
		"\n        high     %lu\n        scanned  %lu\n        spanned  %lu"
		"\n        present  %lu\n        managed  %lu",
		zone->node, nlru_zone_name(zone->zone_idx),
		(unsigned long)zone_page_state(zone, NLRU_NR_FREE_PAGES), min_wmark_pages(zone),
		low_wmark_pages(zone), high_wmark_pages(zone),
		(unsigned long)zone_node_page_state(zone, NLRU_NR_PAGES_SCANNED),
		(unsigned long)zone->spanned_pages, (unsigned long)zone->present_pages,
		(unsigned long)zone->managed_pages);
	for (size_t i = 0; i < ARRAY_SIZE(items_47); i++)
		fprintf(out, "\n    %-12s %lu", items_47[i].name,
			shown(zone_item_47(eng, zone, &items_47[i])));
	dump_zone_pagesets(eng, zone, out);
	/* inactive_ratio is never set in 4.7 either: it prints 0. */
	fprintf(out,
		"\n  all_unreclaimable: %u\n  start_pfn:         %lu\n  inactive_ratio:    %u\n",
		!zone_reclaimable(eng, zone),
		(unsigned long)(zone->zone_pgdat->node_start_pfn + zone->zone_start_pfn), 0u);
}

void dump_zoneinfo_47(struct nlru_engine *eng, FILE *out)
{
	for (int nid = 0; nid < eng->nr_nodes; nid++) {
		for (int zid = 0; zid < MAX_NR_ZONES; zid++) {
			const struct zone *zone = &NODE_DATA(eng, nid)->node_zones[zid];

			if (populated_zone(zone))
				dump_zone_47(eng, zone, out);
		}
	}
}
