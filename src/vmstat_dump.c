/*
 * vmstat_dump.c - the text dumps, byte for byte in the formats of the kernel the engine's
 * mode imitates (mm/vmstat.c vmstat_show and zoneinfo_show_print, drivers/base/node.c
 * node_read_vmstat): so the engine's dumps and a real kernel's go through the same tools.
 * This file has the public calls, what both layouts share, and the Linux 4.8 layout of node
 * mode; vmstat_dump_47.c has the 4.7 layout of zone mode.  /proc/buddyinfo and
 * /proc/pagetypeinfo (frag_show_print, pagetypeinfo_show) are the same in 4.7 and 4.8, so
 * both modes print them here.
 *
 * The engine is configured like an x86_64 NUMA kernel without THP, compaction, migration,
 * NUMA balancing, hugetlb, balloon and ZSMALLOC: the counters of those groups are absent, as
 * they would be from such a kernel.  Engine-only counters (nlru_*) come last.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "blkdev.h"
#include "log.h"
#include "mmzone.h"
#include "page_writeback.h"
#include "pcp.h"
#include "reclaim_mode.h"
#include "vmscan.h"
#include "vmstat.h"
#include "vmstat_dump.h"
#include "watermark.h"

long sum_zone_stat(const struct nlru_engine *eng, int only_nid, enum nlru_zone_stat_item item)
{
	long sum = 0;

	for (int nid = 0; nid < eng->nr_nodes; nid++)
		if (only_nid < 0 || nid == only_nid)
			for (int zid = 0; zid < MAX_NR_ZONES; zid++)
				sum += zone_stat_read(eng, &NODE_DATA(eng, nid)->node_zones[zid],
						      item);
	return sum;
}

long sum_node_stat(const struct nlru_engine *eng, int only_nid, enum nlru_node_stat_item item)
{
	long sum = 0;

	for (int nid = 0; nid < eng->nr_nodes; nid++)
		if (only_nid < 0 || nid == only_nid)
			sum += node_page_state(NODE_DATA(eng, nid), item);
	return sum;
}

/* 4.8: zone items, then node items: /proc/vmstat over every node, nodeN/vmstat over one. */
void dump_vmstat_items_48(struct nlru_engine *eng, int only_nid, FILE *out)
{
	for (int k = 0; k < NR_VM_ZONE_STAT_ITEMS; k++) {
		enum nlru_zone_stat_item i = zone_stat_order[k];

		fprintf(out, "%s %lu\n", nlru_zone_stat_name(i),
			(unsigned long)sum_zone_stat(eng, only_nid, i));
	}
	for (int k = 0; k < NR_VM_NODE_STAT_ITEMS; k++) {
		enum nlru_node_stat_item i = node_stat_order[k];

		fprintf(out, "%s %lu\n", nlru_node_stat_name(i),
			(unsigned long)sum_node_stat(eng, only_nid, i));
	}
}

void dump_vmstat_events_48(struct nlru_engine *eng, FILE *out)
{
	for (int k = 0; k < NR_VM_EVENT_ITEMS; k++) {
		enum nlru_vm_event_item i = vm_event_order[k];
		const char *sum_name;
		unsigned long sum = 0;

		if (vm_event_printed_per_zone(i, &sum_name) || !sum_name) {
			fprintf(out, "%s %lu\n", nlru_vm_event_name(i), vm_event_read(eng, i));
			continue;
		}
		if (vm_event_zone(i) != 0)
			continue;
		for (int zid = 0; zid < MAX_NR_ZONES; zid++)
			sum += vm_event_read(eng, (enum nlru_vm_event_item)(i + zid));
		fprintf(out, "%s %lu\n", sum_name, sum);
	}
}

/*
 * The end of a dump: flushed, so that a write the stream buffered fails here rather than at
 * the caller's fclose() (a full disk, /dev/full).  -EIO, logged with the reason, if any write
 * of the dump failed.
 */
static int dump_done(struct nlru_engine *eng, const char *what, FILE *out)
{
	int flushed = fflush(out), err = errno; /* before logging: the callback may change it */

	if (flushed == 0 && !ferror(out))
		return 0;
	log_err(&eng->log, "%s dump: writing it failed: %s", what,
		flushed ? strerror(err) : "an earlier write of the stream failed");
	return -EIO;
}

int nlru_vmstat_dump(struct nlru_engine *eng, FILE *out)
{
	unsigned long background, dirty;

	if (!eng)
		return -EINVAL;
	if (!out)
		return log_einval(&eng->log, "vmstat dump: no FILE to write to");
	eng->mode->dump_vmstat_items(eng, -1, out);
	global_dirty_limits(eng, &background, &dirty);
	fprintf(out, "nr_dirty_threshold %lu\n", dirty);
	fprintf(out, "nr_dirty_background_threshold %lu\n", background);
	eng->mode->dump_vmstat_events(eng, out);
	return dump_done(eng, "vmstat", out);
}

int nlru_node_vmstat_dump(struct nlru_engine *eng, int nid, FILE *out)
{
	if (!eng)
		return -EINVAL;
	if (!out || nid < 0 || nid >= eng->nr_nodes)
		return log_einval(&eng->log, "node vmstat dump: %s",
				  !out ? "no FILE to write to" : "no such node");
	eng->mode->dump_vmstat_items(eng, nid, out);
	return dump_done(eng, "node vmstat", out);
}

static bool is_zone_first_populated(const struct pglist_data *pgdat, const struct zone *zone)
{
	for (int zid = 0; zid < MAX_NR_ZONES; zid++)
		if (populated_zone(&pgdat->node_zones[zid]))
			return zone == &pgdat->node_zones[zid];
	return false;
}

static void dump_zone_header_48(const struct nlru_engine *eng, const struct zone *zone, FILE *out)
{
	const struct pglist_data *pgdat = zone->zone_pgdat;

	fprintf(out, "Node %d, zone %8s", pgdat->node_id, nlru_zone_name(zone->zone_idx));
	if (is_zone_first_populated(pgdat, zone)) {
		fprintf(out, "\n  per-node stats");
		for (int k = 0; k < NR_VM_NODE_STAT_ITEMS; k++)
			fprintf(out, "\n      %-12s %lu", nlru_node_stat_name(node_stat_order[k]),
				(unsigned long)node_page_state(pgdat, node_stat_order[k]));
	}
	fprintf(out,
		"\n  pages free     %lu\n        min      %lu\n        low      %lu"
		"\n        high     %lu\n   node_scanned  %lu\n        spanned  %lu"
		"\n        present  %lu\n        managed  %lu",
		(unsigned long)zone_page_state(zone, NLRU_NR_FREE_PAGES), min_wmark_pages(zone),
		low_wmark_pages(zone), high_wmark_pages(zone),
		(unsigned long)node_page_state(pgdat, NLRU_NR_PAGES_SCANNED),
		(unsigned long)zone->spanned_pages, (unsigned long)zone->present_pages,
		(unsigned long)zone->managed_pages);
	for (int k = 0; k < NR_VM_ZONE_STAT_ITEMS; k++)
		fprintf(out, "\n      %-12s %lu", nlru_zone_stat_name(zone_stat_order[k]),
			(unsigned long)zone_stat_read(eng, zone, zone_stat_order[k]));
}

/* The protection line and the per-CPU lists: the same in 4.7 and 4.8. */
void dump_zone_pagesets(const struct nlru_engine *eng, const struct zone *zone, FILE *out)
{
	fprintf(out, "\n        protection: (%ld", zone_lowmem_reserve(zone, 0));
	for (int j = 1; j < MAX_NR_ZONES; j++)
		fprintf(out, ", %ld", zone_lowmem_reserve(zone, j));
	fprintf(out, ")\n  pagesets");
	for (int cpu = 0; cpu < eng->nr_cpus; cpu++) {
		const struct per_cpu_pages *pcp = &zone->pageset[0][cpu];
		int count = 0;

		/* Linux's pcp.count is the pages of every per-CPU type together. */
		for (int mt = 0; mt < MIGRATE_PCPTYPES; mt++)
			count += pcp_count(&zone->pageset[mt][cpu]);
		fprintf(out,
			"\n    cpu: %i\n              count: %i\n              high:  %i"
			"\n              batch: %i\n  vm stats threshold: %d",
			cpu, count, pcp->high, pcp->batch, zone_stat_threshold(zone));
	}
}

static void dump_zone_tail_48(const struct nlru_engine *eng, const struct zone *zone, FILE *out)
{
	const struct pglist_data *pgdat = zone->zone_pgdat;

	dump_zone_pagesets(eng, zone, out);
	fprintf(out,
		"\n  node_unreclaimable:  %u\n  start_pfn:           %lu"
		"\n  node_inactive_ratio: %u\n",
		!pgdat_reclaimable(eng, pgdat),
		(unsigned long)(pgdat->node_start_pfn + zone->zone_start_pfn), 0u);
}

void dump_zoneinfo_48(struct nlru_engine *eng, FILE *out)
{
	for (int nid = 0; nid < eng->nr_nodes; nid++) {
		for (int zid = 0; zid < MAX_NR_ZONES; zid++) {
			const struct zone *zone = &NODE_DATA(eng, nid)->node_zones[zid];

			if (!populated_zone(zone))
				continue;
			dump_zone_header_48(eng, zone, out);
			dump_zone_tail_48(eng, zone, out);
		}
	}
}

int nlru_zoneinfo_dump(struct nlru_engine *eng, FILE *out)
{
	if (!eng)
		return -EINVAL;
	if (!out)
		return log_einval(&eng->log, "zoneinfo dump: no FILE to write to");
	eng->mode->dump_zoneinfo(eng, out);
	return dump_done(eng, "zoneinfo", out);
}

int nlru_diskstats_dump(struct nlru_engine *eng, FILE *out)
{
	if (!eng)
		return -EINVAL;
	if (!out) {
		log_err(&eng->log, "diskstats dump: no FILE to write to");
		return -EINVAL;
	}
	if (eng->blkdev)
		blkdev_print_diskstats(eng->blkdev, "nlru0", out);
	return dump_done(eng, "diskstats", out);
}

/*
 * What /proc/buddyinfo and /proc/pagetypeinfo print of one zone, copied under zone->lock
 * (walk_zones_in_node holds it while it prints) and printed after, so that no write to the
 * stream, which may block, is made under a spinlock.
 */
struct zone_free_snapshot {
	unsigned long nr_free[MAX_ORDER];
	unsigned long type_free[MIGRATE_TYPES][MAX_ORDER]; /* blocks on each type's list */
	unsigned long blocks[MIGRATE_TYPES];               /* pageblocks of each type */
};

static void zone_free_snapshot(struct zone *zone, struct zone_free_snapshot *snap)
{
	const struct page *pages = zone->zone_pgdat->pages;
	uint32_t pfn;

	memset(snap, 0, sizeof(*snap));
	spin_lock(&zone->lock);
	for (int order = 0; order < MAX_ORDER; order++) {
		snap->nr_free[order] = zone->free_area[order].nr_free;
		for (int mt = 0; mt < MIGRATE_TYPES; mt++)
			pfnlist_for_each(pfn, &zone->free_area[order].free_list[mt], pages)
				snap->type_free[mt][order]++;
	}
	/* pagetypeinfo_showblockcount_print: a partial last block counts as one. */
	for (pfn = zone->zone_start_pfn; pfn < zone_end_pfn(zone); pfn += pageblock_nr_pages)
		snap->blocks[get_pfnblock_migratetype(zone, pfn)]++;
	spin_unlock(&zone->lock);
}

/* Linux 4.8 migratetype_names[] without CONFIG_CMA and CONFIG_MEMORY_ISOLATION. */
static const char *const migratetype_names[MIGRATE_TYPES] = {"Unmovable", "Movable", "Reclaimable",
							     "HighAtomic"};

/* frag_show_print(), mm/vmstat.c: one line per populated zone. */
static void dump_buddyinfo_node(struct pglist_data *pgdat, FILE *out)
{
	struct zone_free_snapshot snap;
	struct zone *zone;

	for_each_zone_in_node(zone, pgdat) {
		if (!populated_zone(zone))
			continue;
		zone_free_snapshot(zone, &snap);
		fprintf(out, "Node %d, zone %8s ", pgdat->node_id, nlru_zone_name(zone->zone_idx));
		for (int order = 0; order < MAX_ORDER; order++)
			fprintf(out, "%6lu ", snap.nr_free[order]);
		fputc('\n', out);
	}
}

int nlru_buddyinfo_dump(struct nlru_engine *eng, FILE *out)
{
	if (!eng)
		return -EINVAL;
	if (!out)
		return log_einval(&eng->log, "buddyinfo dump: no FILE to write to");
	for (int nid = 0; nid < eng->nr_nodes; nid++)
		dump_buddyinfo_node(NODE_DATA(eng, nid), out);
	return dump_done(eng, "buddyinfo", out);
}

/* pagetypeinfo_showfree_print() and pagetypeinfo_showblockcount_print() of one zone. */
static void dump_pagetypeinfo_zone(const struct zone *zone, const struct zone_free_snapshot *snap,
				   bool blocks, FILE *out)
{
	const char *name = nlru_zone_name(zone->zone_idx);
	int nid = zone->zone_pgdat->node_id;

	if (blocks) {
		fprintf(out, "Node %d, zone %8s ", nid, name);
		for (int mt = 0; mt < MIGRATE_TYPES; mt++)
			fprintf(out, "%12lu ", snap->blocks[mt]);
		fputc('\n', out);
		return;
	}
	for (int mt = 0; mt < MIGRATE_TYPES; mt++) {
		fprintf(out, "Node %4d, zone %8s, type %12s ", nid, name, migratetype_names[mt]);
		for (int order = 0; order < MAX_ORDER; order++)
			fprintf(out, "%6lu ", snap->type_free[mt][order]);
		fputc('\n', out);
	}
}

/*
 * pagetypeinfo_show(), mm/vmstat.c: one section per node, the free lists then the pageblocks.
 * Like Linux, each of the two tables locks a zone apart, so the two may differ by what ran
 * between them.  Without CONFIG_PAGE_OWNER there is no "Number of mixed blocks" table.
 */
static void dump_pagetypeinfo_node(struct pglist_data *pgdat, FILE *out)
{
	struct zone_free_snapshot snap;
	struct zone *zone;

	if (!pgdat->node_present_pages) /* !node_state(nid, N_MEMORY): no section at all */
		return;
	fprintf(out, "Page block order: %d\nPages per block:  %lu\n\n", pageblock_order,
		(unsigned long)pageblock_nr_pages);
	fprintf(out, "%-43s ", "Free pages count per migrate type at order");
	for (int order = 0; order < MAX_ORDER; order++)
		fprintf(out, "%6d ", order);
	fputc('\n', out);
	for_each_zone_in_node(zone, pgdat) {
		if (!populated_zone(zone))
			continue;
		zone_free_snapshot(zone, &snap);
		dump_pagetypeinfo_zone(zone, &snap, false, out);
	}
	fprintf(out, "\n%-23s", "Number of blocks type ");
	for (int mt = 0; mt < MIGRATE_TYPES; mt++)
		fprintf(out, "%12s ", migratetype_names[mt]);
	fputc('\n', out);
	for_each_zone_in_node(zone, pgdat) {
		if (!populated_zone(zone))
			continue;
		zone_free_snapshot(zone, &snap);
		dump_pagetypeinfo_zone(zone, &snap, true, out);
	}
}

int nlru_pagetypeinfo_dump(struct nlru_engine *eng, FILE *out)
{
	if (!eng)
		return -EINVAL;
	if (!out)
		return log_einval(&eng->log, "pagetypeinfo dump: no FILE to write to");
	for (int nid = 0; nid < eng->nr_nodes; nid++)
		dump_pagetypeinfo_node(NODE_DATA(eng, nid), out);
	return dump_done(eng, "pagetypeinfo", out);
}
