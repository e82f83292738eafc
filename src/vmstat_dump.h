/*
 * The dump printers of each mode (reclaim_mode.h points at them) and what they share.
 * vmstat_dump.c: Linux 4.8 (node mode); vmstat_dump_47.c: Linux 4.7 (zone mode).
 */
#ifndef NODELRU_VMSTAT_DUMP_H
#define NODELRU_VMSTAT_DUMP_H

#include <stdio.h>

#include <nodelru/vmstat.h>

struct nlru_engine;
struct zone;

/* State items of /proc/vmstat (@only_nid < 0) or of /sys/.../node<only_nid>/vmstat. */
void dump_vmstat_items_48(struct nlru_engine *eng, int only_nid, FILE *out);
void dump_vmstat_items_47(struct nlru_engine *eng, int only_nid, FILE *out);
/* Event counters of /proc/vmstat, after the writeback thresholds. */
void dump_vmstat_events_48(struct nlru_engine *eng, FILE *out);
void dump_vmstat_events_47(struct nlru_engine *eng, FILE *out);
/* /proc/zoneinfo. */
void dump_zoneinfo_48(struct nlru_engine *eng, FILE *out);
void dump_zoneinfo_47(struct nlru_engine *eng, FILE *out);

/* Sums over every node (@only_nid < 0) or over one. */
long sum_zone_stat(const struct nlru_engine *eng, int only_nid, enum nlru_zone_stat_item item);
long sum_node_stat(const struct nlru_engine *eng, int only_nid, enum nlru_node_stat_item item);
/* A zone's "protection:" line and its "pagesets" block, the same in 4.7 and 4.8. */
void dump_zone_pagesets(const struct nlru_engine *eng, const struct zone *zone, FILE *out);

#endif /* NODELRU_VMSTAT_DUMP_H */
