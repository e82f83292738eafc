/*
 * names - counter knowledge.  The engine's counters (which are Linux 4.8's, plus nlru_*) take
 * their help text from the one X-macro list in <nodelru/vmstat_items.h>; this file adds only
 * what that list lacks: 4.7-only names, the writeback thresholds, and names of later kernels.
 * A name in neither table is still classified, by its prefix, so `show` and `diff` pass it
 * through in a sensible place.
 */
#include "names.h"

#include <string.h>

#include <nodelru/vmstat_items.h>

enum { PLAIN, ZONED, ZONED_SUM };

struct item {
	const char *name;
	const char *help;
	unsigned char kind;  /* enum vm_kind */
	unsigned char zoned; /* PLAIN, ZONED (only name_<zone>), ZONED_SUM (both forms) */
};

/* clang-format off */
#define NAMES_STATE_(e, v, n, h) {n, h, VM_STATE, PLAIN},
#define NAMES_EVENT_(e, v, n, h) {n, h, VM_EVENT, PLAIN},
#define NAMES_ZONED_(e, v, n, h) {n, h, VM_EVENT, ZONED},
#define NAMES_ZSUM_(e, v, n, h) {n, h, VM_EVENT, ZONED_SUM},
static const struct item engine_items[] = {
	NLRU_ZONE_STAT_ITEMS(NAMES_STATE_)
	NLRU_NODE_STAT_ITEMS(NAMES_STATE_)
	NLRU_VM_EVENT_ITEMS(NAMES_EVENT_, NAMES_ZONED_, NAMES_ZSUM_)
};
#undef NAMES_STATE_
#undef NAMES_EVENT_
#undef NAMES_ZONED_
#undef NAMES_ZSUM_

/*
 * State items of the kernel that only ever grow (Linux keeps them in the state arrays for
 * per-node accounting); diff and compare must treat them as events, as mmtests does.
 */
static const char *const cumulative_state[] = {
	"nr_dirtied", "nr_written", "nr_vmscan_write", "nr_vmscan_immediate_reclaim",
	"workingset_refault", "workingset_activate", "workingset_nodereclaim",
	"numa_hit", "numa_miss", "numa_foreign", "numa_interleave", "numa_local", "numa_other",
};

/* Kernel counters that vmstat_items.h does not list: 4.7 names and later kernels' names. */
static const struct item kernel_items[] = {
	{"nr_alloc_batch", "pages left in the zone's fair-allocation batch (4.7 only)",
	 VM_STATE, 0},
	{"allocstall", "direct reclaim entries (4.7: one global count)", VM_EVENT, 0},
	{"nr_dirty_threshold", "dirty pages at which writers are throttled", VM_STATE, 0},
	{"nr_dirty_background_threshold", "dirty pages at which background writeback starts",
	 VM_STATE, 0},
	{"nr_zspages", "pages used by zsmalloc (zram, zswap)", VM_STATE, 0},
	{"nr_free_pages_blocks", "free pages in whole free pageblocks (6.x)", VM_STATE, 0},
	{"workingset_nodes", "xarray nodes holding shadow entries", VM_STATE, 0},
	{"workingset_refault_anon", "anon pages faulted in again after eviction", VM_EVENT, 0},
	{"workingset_refault_file", "file pages faulted in again after eviction", VM_EVENT, 0},
	{"workingset_activate_anon", "refaulted anon pages activated at once", VM_EVENT, 0},
	{"workingset_activate_file", "refaulted file pages activated at once", VM_EVENT, 0},
	{"workingset_restore_anon", "refaulted anon pages that had been part of the workingset",
	 VM_EVENT, 0},
	{"workingset_restore_file", "refaulted file pages that had been part of the workingset",
	 VM_EVENT, 0},
	{"nr_file_hugepages", "page cache huge pages", VM_STATE, 0},
	{"nr_file_pmdmapped", "page cache huge pages mapped by PMD", VM_STATE, 0},
	{"nr_throttled_written", "pages written while reclaim was throttled on writeback", VM_EVENT,
	 0},
	{"nr_kernel_misc_reclaimable", "other reclaimable kernel pages", VM_STATE, 0},
	{"nr_foll_pin_acquired", "pages pinned by FOLL_PIN", VM_EVENT, 0},
	{"nr_foll_pin_released", "FOLL_PIN pins released", VM_EVENT, 0},
	{"nr_sec_page_table_pages", "secondary (IOMMU, KVM) page table pages", VM_STATE, 0},
	{"nr_iommu_pages", "pages used by IOMMU page tables", VM_STATE, 0},
	{"nr_swapcached", "pages in the swap cache", VM_STATE, 0},
	{"nr_hugetlb", "hugetlbfs pages", VM_STATE, 0},
	{"nr_balloon_pages", "pages taken by a balloon driver", VM_STATE, 0},
	{"nr_kernel_file_pages", "page cache pages charged to the kernel", VM_STATE, 0},
	{"nr_memmap_pages", "pages holding struct page arrays", VM_STATE, 0},
	{"nr_memmap_boot_pages", "boot-time pages holding struct page arrays", VM_STATE, 0},
	{"pglazyfree", "pages marked lazily freeable (MADV_FREE)", VM_EVENT, 0},
	{"pgreuse", "write faults that reused the faulting page", VM_EVENT, 0},
	{"pgsteal_khugepaged", "pages reclaimed by khugepaged", VM_EVENT, 0},
	{"pgsteal_proactive", "pages reclaimed by proactive (memory.reclaim) reclaim", VM_EVENT, 0},
	{"pgscan_khugepaged", "inactive list pages scanned by khugepaged", VM_EVENT, 0},
	{"pgscan_proactive", "inactive list pages scanned by proactive reclaim", VM_EVENT, 0},
	{"pgscan_anon", "anon inactive list pages scanned, all reclaimers (6.x)", VM_EVENT, 0},
	{"pgscan_file", "file inactive list pages scanned, all reclaimers (6.x)", VM_EVENT, 0},
	{"pgsteal_anon", "anon pages reclaimed, all reclaimers (6.x)", VM_EVENT, 0},
	{"pgsteal_file", "file pages reclaimed, all reclaimers (6.x)", VM_EVENT, 0},
	{"pgdemote_kswapd", "pages demoted to a slower tier by kswapd", VM_EVENT, 0},
	{"pgdemote_direct", "pages demoted to a slower tier by direct reclaim", VM_EVENT, 0},
	{"pgdemote_khugepaged", "pages demoted to a slower tier by khugepaged", VM_EVENT, 0},
	{"pgdemote_proactive", "pages demoted to a slower tier by proactive reclaim", VM_EVENT, 0},
	{"pgpromote_success", "pages promoted to a faster tier", VM_EVENT, 0},
	{"pgpromote_candidate", "pages found worth promoting", VM_EVENT, 0},
	{"zone_reclaim_success", "node_reclaim passes that freed pages", VM_EVENT, 0},
	{"oom_kill", "processes killed by the OOM killer", VM_EVENT, 0},
	{"kswapd_steal", "pages reclaimed by kswapd (kernels before 3.x)", VM_EVENT, 0},
	{"pswpin_zero", "zero-filled pages swapped in without I/O", VM_EVENT, 0},
	{"swpin_zero", "zero-filled pages swapped in without I/O", VM_EVENT, 0},
	{"swpout_zero", "zero-filled pages swapped out without I/O", VM_EVENT, 0},
	{"swap_ra", "pages read ahead from swap", VM_EVENT, 0},
	{"swap_ra_hit", "swap readahead pages that were used", VM_EVENT, 0},
	{"zswpin", "pages loaded from zswap", VM_EVENT, 0},
	{"zswpout", "pages stored in zswap", VM_EVENT, 0},
	{"zswpwb", "zswap pages written back to swap", VM_EVENT, 0},
	{"numa_pte_updates", "PTEs marked for NUMA hinting faults", VM_EVENT, 0},
	{"numa_hint_faults", "NUMA hinting faults", VM_EVENT, 0},
	{"numa_hint_faults_local", "NUMA hinting faults on the local node", VM_EVENT, 0},
	{"numa_pages_migrated", "pages migrated by NUMA balancing", VM_EVENT, 0},
	{"pgmigrate_success", "pages migrated", VM_EVENT, 0},
	{"pgmigrate_fail", "pages that failed to migrate", VM_EVENT, 0},
	{"compact_stall", "direct compaction entries", VM_EVENT, 0},
	{"compact_fail", "direct compactions that failed", VM_EVENT, 0},
	{"compact_success", "direct compactions that succeeded", VM_EVENT, 0},
	{"compact_migrate_scanned", "pages scanned by the compaction migrate scanner", VM_EVENT, 0},
	{"compact_free_scanned", "pages scanned by the compaction free scanner", VM_EVENT, 0},
	{"compact_isolated", "pages isolated by compaction", VM_EVENT, 0},
	{"compact_daemon_wake", "kcompactd wakeups", VM_EVENT, 0},
	{"thp_fault_alloc", "huge pages allocated at fault", VM_EVENT, 0},
	{"thp_fault_fallback", "huge page faults that fell back to small pages", VM_EVENT, 0},
	{"thp_collapse_alloc", "huge pages allocated by khugepaged", VM_EVENT, 0},
	{"thp_split_page", "huge pages split", VM_EVENT, 0},
	{"htlb_buddy_alloc_success", "hugetlb pages allocated from the buddy allocator", VM_EVENT,
	 0},
	{"htlb_buddy_alloc_fail", "hugetlb buddy allocations that failed", VM_EVENT, 0},
	{"compact_daemon_migrate_scanned", "pages scanned by kcompactd's migrate scanner",
	 VM_EVENT, 0},
	{"compact_daemon_free_scanned", "pages scanned by kcompactd's free scanner", VM_EVENT, 0},
	{"numa_huge_pte_updates", "huge PMDs marked for NUMA hinting faults", VM_EVENT, 0},
	{"pgpromote_candidate_nrl", "promotion candidates counted without the rate limit",
	 VM_EVENT, 0},
	{"thp_fault_fallback_charge", "huge page faults that fell back on a memcg charge failure",
	 VM_EVENT, 0},
	{"thp_collapse_alloc_failed", "khugepaged huge page allocations that failed", VM_EVENT, 0},
	{"thp_file_alloc", "page cache huge pages allocated", VM_EVENT, 0},
	{"thp_file_fallback", "page cache huge page allocations that fell back", VM_EVENT, 0},
	{"thp_file_fallback_charge",
	 "page cache huge pages that fell back on a memcg charge failure", VM_EVENT, 0},
	{"thp_file_mapped", "page cache huge pages mapped by PMD", VM_EVENT, 0},
	{"thp_split_page_failed", "huge page splits that failed", VM_EVENT, 0},
	{"thp_deferred_split_page", "huge pages queued for a deferred split", VM_EVENT, 0},
	{"thp_underused_split_page", "underused huge pages split by the shrinker", VM_EVENT, 0},
	{"thp_split_pmd", "huge PMD mappings split", VM_EVENT, 0},
	{"thp_split_pud", "huge PUD mappings split", VM_EVENT, 0},
	{"thp_scan_exceed_none_pte", "khugepaged collapses given up: too many empty PTEs",
	 VM_EVENT, 0},
	{"thp_scan_exceed_swap_pte", "khugepaged collapses given up: too many swap PTEs",
	 VM_EVENT, 0},
	{"thp_scan_exceed_share_pte", "khugepaged collapses given up: too many shared PTEs",
	 VM_EVENT, 0},
	{"thp_zero_page_alloc", "huge zero pages allocated", VM_EVENT, 0},
	{"thp_zero_page_alloc_failed", "huge zero page allocations that failed", VM_EVENT, 0},
	{"thp_migration_success", "huge pages migrated whole", VM_EVENT, 0},
	{"thp_migration_fail", "huge pages that failed to migrate", VM_EVENT, 0},
	{"thp_migration_split", "huge pages split to be migrated", VM_EVENT, 0},
	{"thp_swpout", "huge pages swapped out whole", VM_EVENT, 0},
	{"thp_swpout_fallback", "huge pages split before swap-out", VM_EVENT, 0},
	{"ksm_swpin_copy", "KSM pages copied at swap-in", VM_EVENT, 0},
	{"cow_ksm", "copy-on-write faults on KSM pages", VM_EVENT, 0},
	{"balloon_inflate", "pages taken by a balloon driver", VM_EVENT, 0},
	{"balloon_deflate", "pages given back by a balloon driver", VM_EVENT, 0},
	{"balloon_migrate", "balloon pages migrated", VM_EVENT, 0},
	{"direct_map_level2_splits", "kernel direct-map 2 MiB mappings split", VM_EVENT, 0},
	{"direct_map_level3_splits", "kernel direct-map 1 GiB mappings split", VM_EVENT, 0},
	{"direct_map_level2_collapses", "kernel direct-map 2 MiB mappings collapsed", VM_EVENT, 0},
	{"direct_map_level3_collapses", "kernel direct-map 1 GiB mappings collapsed", VM_EVENT, 0},
};

static const char *const group_titles[NR_VM_GROUPS] = {
	[G_ALLOC] = "allocation",
	[G_RECLAIM] = "reclaim",
	[G_SWAP] = "swap and paging I/O",
	[G_WORKINGSET] = "workingset",
	[G_STATE] = "memory state",
	[G_ZONE] = "per-zone",
	[G_NUMA] = "NUMA",
	[G_ENGINE] = "engine (nlru_*)",
	[G_OTHER] = "other",
};

struct prefix_rule {
	const char *prefix;
	enum vm_group group;
};

/* First match wins, so specific nr_* prefixes come before the catch-all "nr_". */
static const struct prefix_rule group_rules[] = {
	{"nlru_", G_ENGINE},         {"nr_zone_", G_ZONE},         {"workingset_", G_WORKINGSET},
	{"pswp", G_SWAP},            {"swap_", G_SWAP},            {"swpin", G_SWAP},
	{"swpout", G_SWAP},          {"zswp", G_SWAP},             {"nr_swapcached", G_SWAP},
	{"ksm_swpin", G_SWAP},       {"thp_swpout", G_SWAP},       {"pgpgin", G_SWAP},
	{"pgpgout", G_SWAP},         {"pgscan", G_RECLAIM},        {"pgsteal", G_RECLAIM},
	{"pgrefill", G_RECLAIM},     {"pgactivate", G_RECLAIM},    {"pgdeactivate", G_RECLAIM},
	{"pgrotated", G_RECLAIM},    {"pageoutrun", G_RECLAIM},    {"kswapd_", G_RECLAIM},
	{"slabs_scanned", G_RECLAIM}, {"pginodesteal", G_RECLAIM}, {"nr_vmscan", G_RECLAIM},
	{"drop_", G_RECLAIM},        {"nr_isolated", G_RECLAIM},   {"nr_pages_scanned", G_RECLAIM},
	{"pgdemote", G_RECLAIM},     {"zone_reclaim", G_RECLAIM},  {"pglazyfree", G_RECLAIM},
	{"nr_throttled", G_RECLAIM}, {"pgalloc", G_ALLOC},         {"pgfree", G_ALLOC},
	{"allocstall", G_ALLOC},     {"pgfault", G_ALLOC},         {"pgmajfault", G_ALLOC},
	{"nr_free", G_ALLOC},        {"nr_alloc_batch", G_ALLOC},  {"oom_kill", G_ALLOC},
	{"pgreuse", G_ALLOC},        {"numa_", G_NUMA},            {"pgpromote", G_NUMA},
	{"pgmigrate", G_NUMA},       {"thp_migration", G_NUMA},    {"nr_", G_STATE},
};

static const char *const zone_suffixes[] = {"_dma", "_dma32", "_normal", "_high", "_movable",
					    "_device"};
/* clang-format on */

unsigned int names_zone_suffix(const char *name)
{
	size_t len = strlen(name);

	for (size_t i = 0; i < sizeof(zone_suffixes) / sizeof(zone_suffixes[0]); i++) {
		size_t sl = strlen(zone_suffixes[i]);

		if (len > sl && strcmp(name + len - sl, zone_suffixes[i]) == 0)
			return (unsigned int)(len - sl);
	}
	return 0;
}

static const struct item *find_engine_item(const char *name)
{
	unsigned int base = names_zone_suffix(name);

	for (size_t i = 0; i < sizeof(engine_items) / sizeof(engine_items[0]); i++) {
		const struct item *it = &engine_items[i];

		if (it->zoned != ZONED && strcmp(it->name, name) == 0)
			return it;
		if (it->zoned != PLAIN && base && strlen(it->name) == base &&
		    strncmp(it->name, name, base) == 0)
			return it;
	}
	return NULL;
}

static const struct item *find_kernel_item(const char *name)
{
	for (size_t i = 0; i < sizeof(kernel_items) / sizeof(kernel_items[0]); i++)
		if (strcmp(kernel_items[i].name, name) == 0)
			return &kernel_items[i];
	return NULL;
}

static int is_cumulative_state(const char *name)
{
	for (size_t i = 0; i < sizeof(cumulative_state) / sizeof(cumulative_state[0]); i++)
		if (strcmp(cumulative_state[i], name) == 0)
			return 1;
	return 0;
}

static enum vm_group group_of(const char *name)
{
	if (strncmp(name, "nlru_", 5) != 0 && names_zone_suffix(name))
		return G_ZONE;
	for (size_t i = 0; i < sizeof(group_rules) / sizeof(group_rules[0]); i++)
		if (strncmp(name, group_rules[i].prefix, strlen(group_rules[i].prefix)) == 0)
			return group_rules[i].group;
	return G_OTHER;
}

void names_lookup(const char *name, struct name_info *out)
{
	const struct item *it = find_engine_item(name);

	if (!it)
		it = find_kernel_item(name);
	out->group = group_of(name);
	out->help = it ? it->help : NULL;
	if (it)
		out->kind = (enum vm_kind)it->kind;
	else
		/* Linux names its levels nr_*; the rest of /proc/vmstat are events. */
		out->kind = strncmp(name, "nr_", 3) == 0 ? VM_STATE : VM_EVENT;
	if (is_cumulative_state(name))
		out->kind = VM_EVENT;
}

const char *names_group_title(enum vm_group g)
{
	return (unsigned)g < NR_VM_GROUPS ? group_titles[g] : "?";
}

const char *names_kind_word(enum vm_kind k)
{
	return k == VM_EVENT ? "event" : "state";
}
