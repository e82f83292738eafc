/*
 * zoneinfo - /proc/zoneinfo of Linux 4.7 (all stats per zone), 4.8 (a "per-node stats" block
 * under each node's first zone) and 6.x (more fields, every zone printed), and the engine's
 * dumps of either mode.
 */
#ifndef NODELRU_TOOLS_VMSTAT_ZONEINFO_H
#define NODELRU_TOOLS_VMSTAT_ZONEINFO_H

#include <stdio.h>

#include "diag.h"
#include "dump.h"
#include "out.h"

#define ZI_NAME_MAX 16

struct zi_zone {
	int node;
	char name[ZI_NAME_MAX]; /* "DMA32", "Normal", ... as printed */
	/*
	 * Every "name value" and "name: value" line of the zone, under its printed name, except
	 * "pages free N", stored as "free".  Watermarks are "min", "low", "high".
	 */
	struct vm_dump fields;
	unsigned int line; /* of the "Node N, zone X" header */
};

struct zi_node {
	int id;
	int has_stats;        /* a "per-node stats" block was seen (4.8 and later) */
	struct vm_dump stats; /* its counters */
};

struct zoneinfo {
	char *path;
	struct zi_zone *zones;
	size_t nr_zones;
	struct zi_node *nodes;
	size_t nr_nodes;
	unsigned int nr_malformed; /* lines reported and skipped */
};

/* zoneinfo_init - empty, @path copied for messages.  0 or -ENOMEM. */
int zoneinfo_init(struct zoneinfo *zi, const char *path);
void zoneinfo_fini(struct zoneinfo *zi);

/*
 * zoneinfo_parse - parse @len bytes of @buf.  Unknown fields are kept; lines that fit no form
 * are reported through @diag and skipped.  0 or -ENOMEM.
 */
int zoneinfo_parse(struct zoneinfo *zi, const char *buf, size_t len, const struct vm_diag *diag);

/*
 * zoneinfo_load - read and parse @path.  Returns 0; the input_read() errors; -EMEDIUMTYPE,
 * before any line is parsed, when the file does not open with "Node " (a vmstat dump, say);
 * or -EBADMSG when it holds no zone.
 */
int zoneinfo_load(struct zoneinfo *zi, const char *path, const struct vm_diag *diag);

/*
 * zoneinfo_zone_lru - one LRU size of a zone, @lru in 0..4 (inactive_anon, active_anon,
 * inactive_file, active_file, unevictable): nr_zone_<lru> (4.8+) or nr_<lru> (4.7).
 * 0 or -ENOENT.
 */
int zoneinfo_zone_lru(const struct zi_zone *z, int lru, int64_t *v);

/*
 * zoneinfo_node_unsplit - the node's active and inactive list sizes of kernels before 2.6.28,
 * whose LRU lists were not split into anon and file: the sum over its zones of "active" and
 * "inactive" (2.6.16) or "nr_active" and "nr_inactive" (2.6.21 to 2.6.27).  0, or -ENOENT.
 */
int zoneinfo_node_unsplit(const struct zoneinfo *zi, const struct zi_node *n, int64_t *active,
			  int64_t *inactive);

/* zoneinfo_node_lru - the node's LRU size: its per-node stat, else the sum of its zones. */
int zoneinfo_node_lru(const struct zoneinfo *zi, const struct zi_node *n, int lru, int64_t *v);

#define ZI_NR_LRU 5
extern const char *const zoneinfo_lru_names[ZI_NR_LRU];

/* zoneinfo_print - per node and zone: free, watermarks, managed/present/spanned, LRU sizes. */
void zoneinfo_print(const struct zoneinfo *zi, enum out_fmt fmt, FILE *f);

#endif /* NODELRU_TOOLS_VMSTAT_ZONEINFO_H */
