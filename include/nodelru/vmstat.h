/*
 * nodelru counters: the public enums generated from vmstat_items.h, a snapshot struct, and the
 * /proc/vmstat, /proc/zoneinfo, /proc/buddyinfo and /proc/pagetypeinfo format dumps.
 */
#ifndef NODELRU_VMSTAT_H
#define NODELRU_VMSTAT_H

#include <stdint.h>
#include <stdio.h>

#include <nodelru/nodelru.h>
#include <nodelru/vmstat_items.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The counter enums.  Each constant's value is written in vmstat_items.h, where the rules that
 * keep values fixed from release to release are; NLRU_NR_* is the number of values of a list.
 */
enum nlru_zone_stat_item {
#define NLRU_X_(e, v, n, h) NLRU_##e = v,
	NLRU_ZONE_STAT_ITEMS(NLRU_X_)
#undef NLRU_X_
#define NLRU_X_(e, v, n, h) +1
		NLRU_NR_VM_ZONE_STAT_ITEMS = 0 NLRU_ZONE_STAT_ITEMS(NLRU_X_)
#undef NLRU_X_
};

enum nlru_node_stat_item {
#define NLRU_X_(e, v, n, h) NLRU_##e = v,
	NLRU_NODE_STAT_ITEMS(NLRU_X_)
#undef NLRU_X_
#define NLRU_X_(e, v, n, h) +1
		NLRU_NR_VM_NODE_STAT_ITEMS = 0 NLRU_NODE_STAT_ITEMS(NLRU_X_)
#undef NLRU_X_
};

/*
 * Event counters.  A zoned counter takes NLRU_MAX_NR_ZONES consecutive slots:
 * NLRU_ZONE_EVENT(NLRU_PGALLOC, NLRU_ZONE_DMA32) is pgalloc_dma32.
 */
enum nlru_vm_event_item {
#define NLRU_G_(e, v, n, h) NLRU_##e = v,
#define NLRU_Z_(e, v, n, h) NLRU_##e = v, NLRU_##e##_LAST_ = v + NLRU_MAX_NR_ZONES - 1,
	NLRU_VM_EVENT_ITEMS(NLRU_G_, NLRU_Z_, NLRU_Z_)
#undef NLRU_G_
#undef NLRU_Z_
#define NLRU_G_(e, v, n, h) +1
#define NLRU_Z_(e, v, n, h) +NLRU_MAX_NR_ZONES
		NLRU_NR_VM_EVENT_ITEMS = 0 NLRU_VM_EVENT_ITEMS(NLRU_G_, NLRU_Z_, NLRU_Z_)
#undef NLRU_G_
#undef NLRU_Z_
};

/*
 * The slot of zoned event @item for zone @zone (NLRU_PGALLOC and NLRU_ZONE_DMA32 give
 * pgalloc_dma32), as an enum nlru_vm_event_item.  The plain sum NLRU_PGALLOC +
 * NLRU_ZONE_DMA32 is the same number in C, but C++20 deprecates arithmetic between two
 * enumerations and C++ takes no int where the enum is expected.
 */
#define NLRU_ZONE_EVENT(item, zone) ((enum nlru_vm_event_item)((int)(item) + (int)(zone)))

#define NLRU_VMSTAT_VERSION 1

/*
 * A consistent-enough copy of every counter (each is read atomically; the set is not), each
 * array indexed by the enum above.  A counter added in a later release grows this struct and
 * moves zone[] and node[]: nlru_vmstat_read() of that release refuses (-EINVAL, logged) the
 * smaller snapshot of a program built against this header.
 */
struct nlru_vmstat {
	size_t size;                             /* sizeof(struct nlru_vmstat), set by the caller */
	uint32_t version;                        /* NLRU_VMSTAT_VERSION, set by the caller */
	uint32_t nr_nodes;                       /* filled in */
	uint64_t events[NLRU_NR_VM_EVENT_ITEMS]; /* summed over CPUs */
	int64_t zone[NLRU_NR_VM_ZONE_STAT_ITEMS]; /* summed over all zones of all nodes */
	int64_t node[NLRU_NR_VM_NODE_STAT_ITEMS]; /* summed over all nodes */
};

/*
 * nlru_vmstat_read - fill @snap with every counter of @eng.  The caller sets snap->size (at
 * least sizeof(struct nlru_vmstat)) and snap->version (1 to NLRU_VMSTAT_VERSION).
 * Returns 0; -EINVAL for a NULL argument, or (logged) a size or version it does not know.
 * Thread-safe, lock-free; may run concurrently with allocation and reclaim.
 */
NLRU_API int nlru_vmstat_read(struct nlru_engine *eng, struct nlru_vmstat *snap);

/*
 * nlru_vmstat_get - look a counter up by its /proc/vmstat name in @snap ("pgalloc_normal",
 * "nr_free_pages").  A per-zone event also answers to its name without the zone, as the sum
 * over zones: 4.8's "pgscan_kswapd", 4.7's "allocstall".  Returns 0, -ENOENT, or -EINVAL for a
 * NULL argument.
 */
NLRU_API int nlru_vmstat_get(const struct nlru_vmstat *snap, const char *name, int64_t *value);

/* Current value of one per-zone or per-node state counter.  -EINVAL on a bad nid/zone/item. */
NLRU_API int nlru_zone_stat_read(struct nlru_engine *eng, int nid, enum nlru_zone_type zone,
				 enum nlru_zone_stat_item item, int64_t *value);
NLRU_API int nlru_node_stat_read(struct nlru_engine *eng, int nid, enum nlru_node_stat_item item,
				 int64_t *value);

/* Linux names and one-line help of each item; NULL for an item out of range. */
NLRU_API const char *nlru_zone_stat_name(enum nlru_zone_stat_item item);
NLRU_API const char *nlru_node_stat_name(enum nlru_node_stat_item item);
NLRU_API const char *nlru_vm_event_name(enum nlru_vm_event_item item);
NLRU_API const char *nlru_zone_stat_help(enum nlru_zone_stat_item item);
NLRU_API const char *nlru_node_stat_help(enum nlru_node_stat_item item);
NLRU_API const char *nlru_vm_event_help(enum nlru_vm_event_item item);
NLRU_API const char *nlru_zone_name(enum nlru_zone_type zone); /* "DMA32", "Normal", ... */

/*
 * Dumps in the exact text formats of the Linux version the engine's mode imitates:
 * /proc/vmstat, /proc/zoneinfo, and /sys/devices/system/node/node<nid>/vmstat.
 * Each flushes @out when done, so that a write the stream buffered is checked too.  Return 0,
 * -EINVAL on bad arguments, or -EIO (logged with the reason) if writing to @out failed.
 */
NLRU_API int nlru_vmstat_dump(struct nlru_engine *eng, FILE *out);
NLRU_API int nlru_zoneinfo_dump(struct nlru_engine *eng, FILE *out);
NLRU_API int nlru_node_vmstat_dump(struct nlru_engine *eng, int nid, FILE *out);

/*
 * nlru_diskstats_dump - the engine's block device (the blkdev_* tunables) as a line of
 * /proc/diskstats in Linux 4.8's format, the same in both modes: major 254, minor 0, name
 * nlru0, then reads completed, reads merged, sectors read, ms reading, the same four for
 * writes, I/Os in flight, ms with I/O in flight, and the weighted ms.  Times are the engine's
 * clock.  An engine without the device (blkdev_mbs and blkdev_direct 0) prints nothing and
 * returns 0: its I/O goes straight to the files in the caller, and nothing counts it.
 * Returns 0, -EINVAL for a NULL argument (logged when @eng is not NULL), or -EIO (logged) if
 * writing to @out failed, which a flush of @out at the end checks.  Takes the device's lock for a
 * moment; may run beside any I/O.
 */
NLRU_API int nlru_diskstats_dump(struct nlru_engine *eng, FILE *out);

/*
 * /proc/buddyinfo and /proc/pagetypeinfo in Linux 4.8's formats (its frag_show_print and
 * pagetypeinfo_show, the same in 4.7), in both modes.  buddyinfo: for each
 * populated zone of each node, "Node N, zone NAME" and its free blocks of each order, 0 to
 * NLRU_MAX_ORDER - 1.  pagetypeinfo, per node: the pageblock order and size, the free blocks of
 * each order on each migrate type's lists (Unmovable, Movable, Reclaimable, HighAtomic: a
 * kernel without CMA and memory isolation), and each zone's pageblocks of each type.  Pages on
 * the per-CPU lists are not free blocks and are not counted, as in Linux.
 * Each zone is read under its zone->lock, as Linux reads it, and printed after the lock is
 * dropped: a zone's line is a consistent snapshot; two zones' lines, or the two tables of
 * pagetypeinfo, may differ by what ran between them.  Each flushes @out when done.  Return 0,
 * -EINVAL for a NULL argument (logged when @eng is not NULL), or -EIO (logged with the reason)
 * if writing to @out failed.  May run beside allocation, reclaim and compaction.
 */
NLRU_API int nlru_buddyinfo_dump(struct nlru_engine *eng, FILE *out);
NLRU_API int nlru_pagetypeinfo_dump(struct nlru_engine *eng, FILE *out);

#ifdef __cplusplus
}
#endif

#endif /* NODELRU_VMSTAT_H */
