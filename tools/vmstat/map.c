/*
 * map - the spelling table across kernels.  Each entry lists every name a kernel used for the
 * logical counter; no kernel prints two of them, so summing never double-counts.  Before 3.4
 * pgsteal_<zone> counted kswapd's and direct reclaim's steals together, kswapd_steal being
 * kswapd's share: they are the kswapd spelling here, and compare.c takes kswapd_steal back
 * out of the per-zone counts for direct reclaim, as mmtests does.
 */
#include "map.h"

#include <string.h>

#include "wrap.h"

/* clang-format off */
#define ZONES_(p) p "_dma", p "_dma32", p "_normal", p "_high", p "_movable"

static const struct map_entry map[NR_MAP] = {
	[MAP_PGSCAN_KSWAPD] = {"pgscan_kswapd", {"pgscan_kswapd", ZONES_("pgscan_kswapd")},
			       "4.7 per zone; 4.8 and later one counter"},
	[MAP_PGSCAN_DIRECT] = {"pgscan_direct", {"pgscan_direct", ZONES_("pgscan_direct")},
			       "4.7 per zone; 4.8 and later one counter"},
	[MAP_PGSTEAL_KSWAPD] = {"pgsteal_kswapd",
				{"pgsteal_kswapd", "kswapd_steal", ZONES_("pgsteal_kswapd")},
				"3.4-4.7 per zone; 4.8 and later one counter; kswapd_steal before 3.4"},
	[MAP_PGSTEAL_DIRECT] = {"pgsteal_direct", {"pgsteal_direct", ZONES_("pgsteal_direct")},
				"3.4-4.7 per zone; 4.8 and later one counter; before 3.4 "
				"pgsteal_<zone> less kswapd_steal"},
	[MAP_PGREFILL] = {"pgrefill", {"pgrefill", ZONES_("pgrefill")},
			  "4.7 per zone; 4.8 and later one counter"},
	[MAP_ALLOCSTALL] = {"allocstall", {"allocstall", ZONES_("allocstall"), "allocstall_device"},
			    "4.7 one counter; 4.8 and later per zone"},
	[MAP_PGSKIP] = {"pgskip", {ZONES_("pgskip"), "pgskip_device"},
			"4.8 and later per zone; absent in 4.7"},
	[MAP_WORKINGSET_REFAULT] = {"workingset_refault",
				    {"workingset_refault", "workingset_refault_anon",
				     "workingset_refault_file"},
				    "3.15-5.8 one counter; 5.9 and later split anon/file"},
	[MAP_WORKINGSET_ACTIVATE] = {"workingset_activate",
				     {"workingset_activate", "workingset_activate_anon",
				      "workingset_activate_file"},
				     "3.15-5.8 one counter; 5.9 and later split anon/file"},
	[MAP_WORKINGSET_RESTORE] = {"workingset_restore",
				    {"workingset_restore", "workingset_restore_anon",
				     "workingset_restore_file"},
				    "4.20-5.8 one counter; 5.9 and later split anon/file; "
				    "absent before 4.20"},
};
/* clang-format on */

const struct map_entry *map_get(enum map_id id)
{
	return (unsigned)id < NR_MAP ? &map[id] : NULL;
}

const struct map_entry *map_canonical(const char *name)
{
	for (int i = 0; i < NR_MAP; i++)
		for (const char *const *p = map[i].parts; *p; p++)
			if (strcmp(*p, name) == 0)
				return &map[i];
	return NULL;
}

int map_sum(const struct vm_dump *d, const char *const *parts, int64_t *sum)
{
	int found = 0;

	*sum = 0;
	for (; *parts; parts++) {
		int64_t v;

		if (dump_get(d, *parts, &v) == 0) {
			/* Wrap like the kernel's unsigned long does rather than trap on overflow.
			 */
			*sum = wrap_add(*sum, v);
			found++;
		}
	}
	return found;
}
