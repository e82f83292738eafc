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
	const char *era;     /* the Linux versions that print the name (kernel_items only) */
};

/* clang-format off */
#define NAMES_STATE_(e, v, n, h) {n, h, VM_STATE, PLAIN, NULL},
#define NAMES_EVENT_(e, v, n, h) {n, h, VM_EVENT, PLAIN, NULL},
#define NAMES_ZONED_(e, v, n, h) {n, h, VM_EVENT, ZONED, NULL},
#define NAMES_ZSUM_(e, v, n, h) {n, h, VM_EVENT, ZONED_SUM, NULL},
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

/*
 * Kernel counters that vmstat_items.h does not list: names of other kernels, from 2.6 to 6.x,
 * with the Linux versions that print them (mm/vmstat.c's vmstat_text over its history; "on":
 * still printed; "x" where the exact release is not pinned down).  ZONED entries stand for
 * name_<zone>.
 */
static const struct item kernel_items[] = {
	/* 2.6 to 3.3: one steal count per zone, kswapd's share apart */
	{"pgsteal", "pages reclaimed from the zone, by kswapd and direct reclaim together "
	 "(kswapd_steal is kswapd's share)", VM_EVENT, ZONED, "2.6-3.3"},
	{"kswapd_steal", "pages reclaimed by kswapd, its share of pgsteal_<zone>", VM_EVENT, PLAIN,
	 "2.6-3.3"},
	{"nr_slab", "pages used by the slab allocator", VM_STATE, PLAIN, "2.6-2.6.18"},
	{"nr_active", "pages on the zone's active list (one list for anon and file)", VM_STATE,
	 PLAIN, "2.6.21-2.6.27"},
	{"nr_inactive", "pages on the zone's inactive list (one list for anon and file)", VM_STATE,
	 PLAIN, "2.6.21-2.6.27"},
	{"unevictable_pgs_mlockfreed", "mlocked pages freed without being munlocked", VM_EVENT,
	 PLAIN, "2.6.28-3.6"},
	{"kswapd_skip_congestion_wait", "kswapd balance passes that did not wait on congestion",
	 VM_EVENT, PLAIN, "2.6.36-3.x"},
	{"compact_blocks_moved", "pageblocks compaction moved pages out of", VM_EVENT, PLAIN,
	 "2.6.35-3.7"},
	{"compact_pages_moved", "pages compaction migrated", VM_EVENT, PLAIN, "2.6.35-3.7"},
	{"compact_pagemigrate_failed", "pages compaction failed to migrate", VM_EVENT, PLAIN,
	 "2.6.35-3.7"},
	/* the reclaim counters of 3.4 to 4.7 and of 4.8 on */
	{"allocstall", "direct reclaim entries (4.7: one global count)", VM_EVENT, PLAIN,
	 "2.6-4.7"},
	{"nr_alloc_batch", "pages left in the zone's fair-allocation batch", VM_STATE, PLAIN,
	 "3.12-4.7"},
	{"nr_pages_scanned", "pages scanned since a page was last freed (zone, then node)",
	 VM_STATE, PLAIN, "3.17-4.10"},
	{"workingset_restore", "refaulted pages that had been part of the workingset", VM_EVENT,
	 PLAIN, "4.20-5.8"},
	{"nr_indirectly_reclaimable", "reclaimable kernel memory not in slabs, in bytes",
	 VM_STATE, PLAIN, "4.17-4.19"},
	/* writeback thresholds, levels of later kernels */
	{"nr_dirty_threshold", "dirty pages at which writers are throttled", VM_STATE, PLAIN,
	 "2.6.37 on"},
	{"nr_dirty_background_threshold", "dirty pages at which background writeback starts",
	 VM_STATE, PLAIN, "2.6.37 on"},
	{"nr_zspages", "pages used by zsmalloc (zram, zswap)", VM_STATE, PLAIN, "4.8 on"},
	{"nr_free_pages_blocks", "free pages in whole free pageblocks", VM_STATE, PLAIN, "6.x on"},
	{"workingset_nodes", "xarray nodes holding shadow entries", VM_STATE, PLAIN, "4.20 on"},
	{"workingset_refault_anon", "anon pages faulted in again after eviction", VM_EVENT, PLAIN,
	 "5.9 on"},
	{"workingset_refault_file", "file pages faulted in again after eviction", VM_EVENT, PLAIN,
	 "5.9 on"},
	{"workingset_activate_anon", "refaulted anon pages activated at once", VM_EVENT, PLAIN,
	 "5.9 on"},
	{"workingset_activate_file", "refaulted file pages activated at once", VM_EVENT, PLAIN,
	 "5.9 on"},
	{"workingset_restore_anon", "refaulted anon pages that had been part of the workingset",
	 VM_EVENT, PLAIN, "5.9 on"},
	{"workingset_restore_file", "refaulted file pages that had been part of the workingset",
	 VM_EVENT, PLAIN, "5.9 on"},
	{"nr_file_hugepages", "page cache huge pages", VM_STATE, PLAIN, "5.4 on"},
	{"nr_file_pmdmapped", "page cache huge pages mapped by PMD", VM_STATE, PLAIN, "5.4 on"},
	{"nr_throttled_written", "pages written while reclaim was throttled on writeback", VM_EVENT,
	 PLAIN, "5.16 on"},
	{"nr_kernel_misc_reclaimable", "other reclaimable kernel pages", VM_STATE, PLAIN,
	 "4.20 on"},
	{"nr_foll_pin_acquired", "pages pinned by FOLL_PIN", VM_EVENT, PLAIN, "5.7 on"},
	{"nr_foll_pin_released", "FOLL_PIN pins released", VM_EVENT, PLAIN, "5.7 on"},
	{"nr_sec_page_table_pages", "secondary (IOMMU, KVM) page table pages", VM_STATE, PLAIN,
	 "6.0 on"},
	{"nr_iommu_pages", "pages used by IOMMU page tables", VM_STATE, PLAIN, "6.11 on"},
	{"nr_swapcached", "pages in the swap cache", VM_STATE, PLAIN, "5.13 on"},
	{"nr_unaccepted", "memory not yet accepted by a confidential-computing guest, in pages",
	 VM_STATE, PLAIN, "6.5 on"},
	{"nr_hugetlb", "hugetlbfs pages", VM_STATE, PLAIN, "6.x on"},
	{"nr_balloon_pages", "pages taken by a balloon driver", VM_STATE, PLAIN, "6.x on"},
	{"nr_kernel_file_pages", "page cache pages charged to the kernel", VM_STATE, PLAIN,
	 "6.x on"},
	{"nr_memmap_pages", "pages holding struct page arrays", VM_STATE, PLAIN, "6.11 on"},
	{"nr_memmap_boot_pages", "boot-time pages holding struct page arrays", VM_STATE, PLAIN,
	 "6.11 on"},
	/* events of later kernels */
	{"pglazyfree", "pages marked lazily freeable (MADV_FREE)", VM_EVENT, PLAIN, "4.12 on"},
	{"pgreuse", "write faults that reused the faulting page", VM_EVENT, PLAIN, "5.10 on"},
	{"pgsteal_khugepaged", "pages reclaimed by khugepaged", VM_EVENT, PLAIN, "6.x on"},
	{"pgsteal_proactive", "pages reclaimed by proactive (memory.reclaim) reclaim", VM_EVENT,
	 PLAIN, "6.x on"},
	{"pgscan_khugepaged", "inactive list pages scanned by khugepaged", VM_EVENT, PLAIN,
	 "6.x on"},
	{"pgscan_proactive", "inactive list pages scanned by proactive reclaim", VM_EVENT, PLAIN,
	 "6.x on"},
	{"pgscan_anon", "anon inactive list pages scanned, all reclaimers", VM_EVENT, PLAIN,
	 "5.8 on"},
	{"pgscan_file", "file inactive list pages scanned, all reclaimers", VM_EVENT, PLAIN,
	 "5.8 on"},
	{"pgsteal_anon", "anon pages reclaimed, all reclaimers", VM_EVENT, PLAIN, "5.8 on"},
	{"pgsteal_file", "file pages reclaimed, all reclaimers", VM_EVENT, PLAIN, "5.8 on"},
	{"pgdemote_kswapd", "pages demoted to a slower tier by kswapd", VM_EVENT, PLAIN, "5.16 on"},
	{"pgdemote_direct", "pages demoted to a slower tier by direct reclaim", VM_EVENT, PLAIN,
	 "5.16 on"},
	{"pgdemote_khugepaged", "pages demoted to a slower tier by khugepaged", VM_EVENT, PLAIN,
	 "6.x on"},
	{"pgdemote_proactive", "pages demoted to a slower tier by proactive reclaim", VM_EVENT,
	 PLAIN, "6.x on"},
	{"pgpromote_success", "pages promoted to a faster tier", VM_EVENT, PLAIN, "5.18 on"},
	{"pgpromote_candidate", "pages found worth promoting", VM_EVENT, PLAIN, "6.1 on"},
	{"pgpromote_candidate_nrl", "promotion candidates counted without the rate limit",
	 VM_EVENT, PLAIN, "6.x on"},
	{"zone_reclaim_success", "node_reclaim passes that freed pages", VM_EVENT, PLAIN, "6.x on"},
	{"oom_kill", "processes killed by the OOM killer", VM_EVENT, PLAIN, "4.13 on"},
	{"pswpin_zero", "zero-filled pages swapped in without I/O", VM_EVENT, PLAIN, "6.1x"},
	{"swpin_zero", "zero-filled pages swapped in without I/O", VM_EVENT, PLAIN, "6.1x on"},
	{"swpout_zero", "zero-filled pages swapped out without I/O", VM_EVENT, PLAIN, "6.1x on"},
	{"swap_ra", "pages read ahead from swap", VM_EVENT, PLAIN, "4.14 on"},
	{"swap_ra_hit", "swap readahead pages that were used", VM_EVENT, PLAIN, "4.14 on"},
	{"zswpin", "pages loaded from zswap", VM_EVENT, PLAIN, "5.19 on"},
	{"zswpout", "pages stored in zswap", VM_EVENT, PLAIN, "5.19 on"},
	{"zswpwb", "zswap pages written back to swap", VM_EVENT, PLAIN, "6.8 on"},
	{"cma_alloc_success", "CMA allocations that succeeded", VM_EVENT, PLAIN, "5.12 on"},
	{"cma_alloc_fail", "CMA allocations that failed", VM_EVENT, PLAIN, "5.12 on"},
	/* NUMA balancing and migration */
	{"numa_pte_updates", "PTEs marked for NUMA hinting faults", VM_EVENT, PLAIN, "3.8 on"},
	{"numa_huge_pte_updates", "huge PMDs marked for NUMA hinting faults", VM_EVENT, PLAIN,
	 "3.13 on"},
	{"numa_hint_faults", "NUMA hinting faults", VM_EVENT, PLAIN, "3.8 on"},
	{"numa_hint_faults_local", "NUMA hinting faults on the local node", VM_EVENT, PLAIN,
	 "3.8 on"},
	{"numa_pages_migrated", "pages migrated by NUMA balancing", VM_EVENT, PLAIN, "3.8 on"},
	{"thp_migration_success", "huge pages migrated whole", VM_EVENT, PLAIN, "5.8 on"},
	{"thp_migration_fail", "huge pages that failed to migrate", VM_EVENT, PLAIN, "5.8 on"},
	{"thp_migration_split", "huge pages split to be migrated", VM_EVENT, PLAIN, "5.8 on"},
	/* compaction */
	{"compact_daemon_migrate_scanned", "pages scanned by kcompactd's migrate scanner",
	 VM_EVENT, PLAIN, "4.1x on"},
	{"compact_daemon_free_scanned", "pages scanned by kcompactd's free scanner", VM_EVENT,
	 PLAIN, "4.1x on"},
	/* hugetlb and transparent huge pages */
	{"htlb_buddy_alloc_success", "hugetlb pages allocated from the buddy allocator", VM_EVENT,
	 PLAIN, "2.6.26 on"},
	{"htlb_buddy_alloc_fail", "hugetlb buddy allocations that failed", VM_EVENT, PLAIN,
	 "2.6.26 on"},
	{"thp_fault_alloc", "huge pages allocated at fault", VM_EVENT, PLAIN, "2.6.39 on"},
	{"thp_fault_fallback", "huge page faults that fell back to small pages", VM_EVENT, PLAIN,
	 "2.6.39 on"},
	{"thp_collapse_alloc", "huge pages allocated by khugepaged", VM_EVENT, PLAIN, "2.6.39 on"},
	{"thp_collapse_alloc_failed", "khugepaged huge page allocations that failed", VM_EVENT,
	 PLAIN, "2.6.39 on"},
	{"thp_split", "huge pages split", VM_EVENT, PLAIN, "2.6.39-4.4"},
	{"thp_split_page", "huge pages split", VM_EVENT, PLAIN, "4.5 on"},
	{"thp_split_page_failed", "huge page splits that failed", VM_EVENT, PLAIN, "4.5 on"},
	{"thp_deferred_split_page", "huge pages queued for a deferred split", VM_EVENT, PLAIN,
	 "4.5 on"},
	{"thp_split_pmd", "huge PMD mappings split", VM_EVENT, PLAIN, "4.5 on"},
	{"thp_split_pud", "huge PUD mappings split", VM_EVENT, PLAIN, "4.14 on"},
	{"thp_zero_page_alloc", "huge zero pages allocated", VM_EVENT, PLAIN, "3.8 on"},
	{"thp_zero_page_alloc_failed", "huge zero page allocations that failed", VM_EVENT, PLAIN,
	 "3.8 on"},
	{"thp_file_alloc", "page cache huge pages allocated", VM_EVENT, PLAIN, "4.8 on"},
	{"thp_file_mapped", "page cache huge pages mapped by PMD", VM_EVENT, PLAIN, "4.8 on"},
	{"thp_fault_fallback_charge", "huge page faults that fell back on a memcg charge failure",
	 VM_EVENT, PLAIN, "5.7 on"},
	{"thp_file_fallback", "page cache huge page allocations that fell back", VM_EVENT, PLAIN,
	 "5.7 on"},
	{"thp_file_fallback_charge",
	 "page cache huge pages that fell back on a memcg charge failure", VM_EVENT, PLAIN,
	 "5.7 on"},
	{"thp_underused_split_page", "underused huge pages split by the shrinker", VM_EVENT, PLAIN,
	 "6.x on"},
	{"thp_scan_exceed_none_pte", "khugepaged collapses given up: too many empty PTEs",
	 VM_EVENT, PLAIN, "5.x on"},
	{"thp_scan_exceed_swap_pte", "khugepaged collapses given up: too many swap PTEs",
	 VM_EVENT, PLAIN, "5.x on"},
	{"thp_scan_exceed_share_pte", "khugepaged collapses given up: too many shared PTEs",
	 VM_EVENT, PLAIN, "5.x on"},
	{"thp_swpout", "huge pages swapped out whole", VM_EVENT, PLAIN, "4.13 on"},
	{"thp_swpout_fallback", "huge pages split before swap-out", VM_EVENT, PLAIN, "4.13 on"},
	/* KSM, balloons, the direct map */
	{"ksm_swpin_copy", "KSM pages copied at swap-in", VM_EVENT, PLAIN, "5.1x on"},
	{"cow_ksm", "copy-on-write faults on KSM pages", VM_EVENT, PLAIN, "6.x on"},
	{"balloon_inflate", "pages taken by a balloon driver", VM_EVENT, PLAIN, "3.x on"},
	{"balloon_deflate", "pages given back by a balloon driver", VM_EVENT, PLAIN, "3.x on"},
	{"balloon_migrate", "balloon pages migrated", VM_EVENT, PLAIN, "3.x on"},
	{"direct_map_level2_splits", "kernel direct-map 2 MiB mappings split", VM_EVENT, PLAIN,
	 "5.x on"},
	{"direct_map_level3_splits", "kernel direct-map 1 GiB mappings split", VM_EVENT, PLAIN,
	 "5.x on"},
	{"direct_map_level2_collapses", "kernel direct-map 2 MiB mappings collapsed", VM_EVENT,
	 PLAIN, "6.x on"},
	{"direct_map_level3_collapses", "kernel direct-map 1 GiB mappings collapsed", VM_EVENT,
	 PLAIN, "6.x on"},
	/* debug builds only (CONFIG_DEBUG_TLBFLUSH, CONFIG_DEBUG_VM_VMACACHE) */
	{"nr_tlb_remote_flush", "TLB flush IPIs sent", VM_EVENT, PLAIN, "3.12 on"},
	{"nr_tlb_remote_flush_received", "TLB flush IPIs received", VM_EVENT, PLAIN, "3.12 on"},
	{"nr_tlb_local_flush_all", "full local TLB flushes", VM_EVENT, PLAIN, "3.12 on"},
	{"nr_tlb_local_flush_one", "single-page local TLB flushes", VM_EVENT, PLAIN, "3.12 on"},
	{"vmacache_find_calls", "VMA cache lookups", VM_EVENT, PLAIN, "3.15-6.0"},
	{"vmacache_find_hits", "VMA cache hits", VM_EVENT, PLAIN, "3.15-6.0"},
	{"vmacache_full_flushes", "VMA cache flushes of every task", VM_EVENT, PLAIN, "3.15-6.0"},
};

/*
 * The eras of the names vmstat_items.h lists (the engine's, which are 4.8's): the help text
 * comes from there, the Linux versions that print each name from here.
 */
struct era {
	const char *name;
	unsigned char zoned; /* PLAIN or ZONED (the name_<zone> forms) */
	const char *era;
};

static const struct era engine_eras[] = {
	{"nr_free_pages", PLAIN, "2.6.21 on"},
	{"nr_zone_inactive_anon", PLAIN, "4.8 on"},
	{"nr_zone_active_anon", PLAIN, "4.8 on"},
	{"nr_zone_inactive_file", PLAIN, "4.8 on"},
	{"nr_zone_active_file", PLAIN, "4.8 on"},
	{"nr_zone_unevictable", PLAIN, "4.8 on"},
	{"nr_zone_write_pending", PLAIN, "4.8 on"},
	{"nr_mlock", PLAIN, "2.6.28 on"},
	{"nr_slab_reclaimable", PLAIN, "2.6.19 on"},
	{"nr_slab_unreclaimable", PLAIN, "2.6.19 on"},
	{"nr_page_table_pages", PLAIN, "2.6 on"},
	{"nr_kernel_stack", PLAIN, "2.6.32 on"},
	{"nr_bounce", PLAIN, "2.6.18 on"},
	{"numa_hit", PLAIN, "2.6.18 on"},
	{"numa_miss", PLAIN, "2.6.18 on"},
	{"numa_foreign", PLAIN, "2.6.18 on"},
	{"numa_interleave", PLAIN, "2.6.18 on"},
	{"numa_local", PLAIN, "2.6.18 on"},
	{"numa_other", PLAIN, "2.6.18 on"},
	{"nr_free_cma", PLAIN, "3.7 on"},
	{"nr_inactive_anon", PLAIN, "2.6.28 on"},
	{"nr_active_anon", PLAIN, "2.6.28 on"},
	{"nr_inactive_file", PLAIN, "2.6.28 on"},
	{"nr_active_file", PLAIN, "2.6.28 on"},
	{"nr_unevictable", PLAIN, "2.6.28 on"},
	{"nr_isolated_anon", PLAIN, "2.6.32 on"},
	{"nr_isolated_file", PLAIN, "2.6.32 on"},
	{"nr_pages_scanned", PLAIN, "3.17-4.10"},
	{"workingset_refault", PLAIN, "3.15-5.8"},
	{"workingset_activate", PLAIN, "3.15-5.8"},
	{"workingset_nodereclaim", PLAIN, "3.15 on"},
	{"nr_anon_pages", PLAIN, "2.6.18 on"},
	{"nr_mapped", PLAIN, "2.6 on"},
	{"nr_file_pages", PLAIN, "2.6.18 on"},
	{"nr_dirty", PLAIN, "2.6 on"},
	{"nr_writeback", PLAIN, "2.6 on"},
	{"nr_writeback_temp", PLAIN, "2.6.26 on"},
	{"nr_shmem", PLAIN, "2.6.32 on"},
	{"nr_shmem_hugepages", PLAIN, "4.8 on"},
	{"nr_shmem_pmdmapped", PLAIN, "4.8 on"},
	{"nr_anon_transparent_hugepages", PLAIN, "2.6.38 on"},
	{"nr_unstable", PLAIN, "2.6 on (always 0 from 5.8, kept for compatibility)"},
	{"nr_vmscan_write", PLAIN, "2.6.19 on"},
	{"nr_vmscan_immediate_reclaim", PLAIN, "3.2 on"},
	{"nr_dirtied", PLAIN, "2.6.37 on"},
	{"nr_written", PLAIN, "2.6.37 on"},
	{"pgpgin", PLAIN, "2.6 on"},
	{"pgpgout", PLAIN, "2.6 on"},
	{"pswpin", PLAIN, "2.6 on"},
	{"pswpout", PLAIN, "2.6 on"},
	{"pgalloc", ZONED, "2.6 on (dma32 from 2.6.15, movable from 2.6.23)"},
	{"allocstall", ZONED, "4.8 on (before: one allocstall)"},
	{"pgskip", ZONED, "4.8 on"},
	{"pgfree", PLAIN, "2.6 on"},
	{"pgactivate", PLAIN, "2.6 on"},
	{"pgdeactivate", PLAIN, "2.6 on"},
	{"pgfault", PLAIN, "2.6 on"},
	{"pgmajfault", PLAIN, "2.6 on"},
	{"pglazyfreed", PLAIN, "4.5 on"},
	{"pgrefill", PLAIN, "4.8 on"},
	{"pgrefill", ZONED, "2.6-4.7"},
	{"pgsteal_kswapd", PLAIN, "4.8 on"},
	{"pgsteal_kswapd", ZONED, "3.4-4.7"},
	{"pgsteal_direct", PLAIN, "4.8 on"},
	{"pgsteal_direct", ZONED, "3.4-4.7"},
	{"pgscan_kswapd", PLAIN, "4.8 on"},
	{"pgscan_kswapd", ZONED, "2.6-4.7"},
	{"pgscan_direct", PLAIN, "4.8 on"},
	{"pgscan_direct", ZONED, "2.6-4.7"},
	{"pgscan_direct_throttle", PLAIN, "3.6 on"},
	{"zone_reclaim_failed", PLAIN, "2.6.31 on"},
	{"pginodesteal", PLAIN, "2.6 on"},
	{"slabs_scanned", PLAIN, "2.6 on"},
	{"kswapd_inodesteal", PLAIN, "2.6 on"},
	{"kswapd_low_wmark_hit_quickly", PLAIN, "2.6.34 on"},
	{"kswapd_high_wmark_hit_quickly", PLAIN, "2.6.34 on"},
	{"pageoutrun", PLAIN, "2.6 on"},
	{"pgrotated", PLAIN, "2.6 on"},
	{"drop_pagecache", PLAIN, "4.1 on"},
	{"drop_slab", PLAIN, "4.1 on"},
	{"pgmigrate_success", PLAIN, "3.8 on"},
	{"pgmigrate_fail", PLAIN, "3.8 on"},
	{"compact_migrate_scanned", PLAIN, "3.8 on"},
	{"compact_free_scanned", PLAIN, "3.8 on"},
	{"compact_isolated", PLAIN, "3.8 on"},
	{"compact_stall", PLAIN, "2.6.35 on"},
	{"compact_fail", PLAIN, "2.6.35 on"},
	{"compact_success", PLAIN, "2.6.35 on"},
	{"compact_daemon_wake", PLAIN, "4.6 on"},
	{"unevictable_pgs_culled", PLAIN, "2.6.28 on"},
	{"unevictable_pgs_scanned", PLAIN, "2.6.28 on"},
	{"unevictable_pgs_rescued", PLAIN, "2.6.28 on"},
	{"unevictable_pgs_mlocked", PLAIN, "2.6.28 on"},
	{"unevictable_pgs_munlocked", PLAIN, "2.6.28 on"},
	{"unevictable_pgs_cleared", PLAIN, "2.6.28 on"},
	{"unevictable_pgs_stranded", PLAIN, "2.6.28 on"},
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

/* Does @name, whose part before a zone suffix is @base long (0: none), name @it's form? */
static int name_matches(const char *name, unsigned int base, const char *it_name, int zoned)
{
	if (zoned == ZONED)
		return base && strlen(it_name) == base && strncmp(it_name, name, base) == 0;
	return strcmp(it_name, name) == 0;
}

static const struct item *find_kernel_item(const char *name)
{
	unsigned int base = names_zone_suffix(name);

	for (size_t i = 0; i < sizeof(kernel_items) / sizeof(kernel_items[0]); i++)
		if (name_matches(name, base, kernel_items[i].name, kernel_items[i].zoned))
			return &kernel_items[i];
	return NULL;
}

static const char *find_era(const char *name)
{
	unsigned int base = names_zone_suffix(name);

	for (size_t i = 0; i < sizeof(engine_eras) / sizeof(engine_eras[0]); i++)
		if (name_matches(name, base, engine_eras[i].name, engine_eras[i].zoned))
			return engine_eras[i].era;
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

	/* 4.7's allocstall is one counter, not the engine's (4.8's) allocstall_<zone>. */
	if (!it || (it->zoned == ZONED && !names_zone_suffix(name)))
		it = find_kernel_item(name);
	out->group = group_of(name);
	out->help = it ? it->help : NULL;
	out->era = !it                         ? NULL
		   : it->era                   ? it->era
		   : strncmp(name, "nlru_", 5) ? find_era(name)
					       : NULL;
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
