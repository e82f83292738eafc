/*
 * map - one meaning, three spellings.  Linux 4.7 counts reclaim per zone
 * (pgscan_kswapd_normal), 4.8 counts it once per event (pgscan_kswapd) but stalls per zone
 * (allocstall_normal), and 6.x splits refaults by type (workingset_refault_file).  A logical
 * counter is the sum of every spelling; a dump has only one of them, so the sum is that dump's
 * value whatever kernel wrote it.
 */
#ifndef NODELRU_TOOLS_VMSTAT_MAP_H
#define NODELRU_TOOLS_VMSTAT_MAP_H

#include <stdint.h>

#include "dump.h"

#define MAP_MAX_PARTS 12

struct map_entry {
	const char *canon;                    /* the 4.8 name */
	const char *parts[MAP_MAX_PARTS + 1]; /* NULL-terminated kernel names summed */
	const char *note;                     /* which kernel spells it how */
};

enum map_id {
	MAP_PGSCAN_KSWAPD,
	MAP_PGSCAN_DIRECT,
	MAP_PGSTEAL_KSWAPD,
	MAP_PGSTEAL_DIRECT,
	MAP_PGREFILL,
	MAP_ALLOCSTALL,
	MAP_PGSKIP,
	MAP_WORKINGSET_REFAULT,
	MAP_WORKINGSET_ACTIVATE,
	MAP_WORKINGSET_RESTORE,
	NR_MAP
};

const struct map_entry *map_get(enum map_id id);

/* map_canonical - the logical counter @name is one spelling of, or NULL. */
const struct map_entry *map_canonical(const char *name);

/*
 * map_sum - Σ over @parts of the value in @d.  Returns the number of parts present (0 means
 * the dump has no spelling of it at all).
 */
int map_sum(const struct vm_dump *d, const char *const *parts, int64_t *sum);

#endif /* NODELRU_TOOLS_VMSTAT_MAP_H */
