/*
 * The ABI of the first release, pinned: the values a program compiles in (enum constants,
 * flags, struct layouts) and what the library answers for them.  A program built against an
 * older header keeps working only if none of these change, so a failure here means an
 * incompatible change, which needs a new soname, not an edit of this file.
 *
 * What may change, and how this file follows:
 *  - a counter is added (vmstat_items.h says how its value is chosen): add a COUNTER line.
 *    This grows struct nlru_vmstat and moves its zone[] and node[] arrays, so the SIZE and
 *    OFFSET lines of that struct fail: programs built against the older header then have
 *    their snapshots refused (vmstat.h), a break to decide on knowingly before updating them;
 *  - a tunable is added at the end of tunables.h: add its name to tunables[] and its OFFSET,
 *    and update the SIZE of struct nlru_config;
 *  - a struct with a size member (nlru_config, nlru_shrinker_def, nlru_zone_info, nlru_vmstat,
 *    nlru_jemalloc_config, nlru_jemalloc_stats) gains members at its end: add their OFFSET
 *    lines and update its SIZE.  No member moves;
 *  - struct nlru_shrink_control, which only the library fills and programs only read, gains
 *    members at its end: add their OFFSET lines and update its SIZE.
 *
 * Sizes and offsets are those of x86_64 and other LP64 targets; elsewhere they are skipped.
 */
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <nodelru/jemalloc.h>
#include <nodelru/nodelru.h>
#include <nodelru/vmstat.h>

static int failures;

static void check(long long got, long long want, const char *what)
{
	if (got != want) {
		printf("layout: %s is %lld, the ABI says %lld\n", what, got, want);
		failures++;
	}
}

static void check_name(const char *got, const char *want, const char *what)
{
	if (!got || strcmp(got, want) != 0) {
		printf("layout: %s is named %s, the ABI says %s\n", what, got ? got : "(null)",
		       want);
		failures++;
	}
}

#define VALUE(c, v)                                                                                \
	{                                                                                          \
		(long long)(c), v, #c                                                              \
	}

/* Constants of nodelru.h, vmstat.h and jemalloc.h. */
static const struct {
	long long got, want;
	const char *what;
} values[] = {
	VALUE(NLRU_PAGE_SHIFT, 12),
	VALUE(NLRU_PAGE_SIZE, 4096),
	VALUE(NLRU_MAX_ORDER, 11),
	VALUE(NLRU_MAX_NUMNODES, 64),
	VALUE(NLRU_NUMA_NO_NODE, -1),
	VALUE(NLRU_ZONE_DMA, 0),
	VALUE(NLRU_ZONE_DMA32, 1),
	VALUE(NLRU_ZONE_NORMAL, 2),
	VALUE(NLRU_ZONE_MOVABLE, 3),
	VALUE(NLRU_MAX_NR_ZONES, 4),
	VALUE(NLRU_GFP_DMA, 1 << 0),
	VALUE(NLRU_GFP_HIGHMEM, 1 << 1),
	VALUE(NLRU_GFP_DMA32, 1 << 2),
	VALUE(NLRU_GFP_MOVABLE, 1 << 3),
	VALUE(NLRU_GFP_HIGH, 1 << 5),
	VALUE(NLRU_GFP_IO, 1 << 6),
	VALUE(NLRU_GFP_FS, 1 << 7),
	VALUE(NLRU__GFP_ATOMIC, 1 << 9),
	VALUE(NLRU_GFP_DIRECT_RECLAIM, 1 << 10),
	VALUE(NLRU_GFP_KSWAPD_RECLAIM, 1 << 11),
	VALUE(NLRU_GFP_NORETRY, 1 << 12),
	VALUE(NLRU_GFP_NOWARN, 1 << 13),
	VALUE(NLRU_GFP_THISNODE, 1 << 18),
	VALUE(NLRU_GFP_HARDWALL, 1 << 20),
	VALUE(NLRU_GFP_ZERO, 1 << 21),
	VALUE(NLRU_GFP_SLAB_RECLAIMABLE, 1 << 22),
	VALUE(NLRU_GFP_SLAB_UNRECLAIMABLE, 1 << 23),
	VALUE(NLRU_GFP_WRITE, 1 << 24),
	VALUE(NLRU_ZONE_INFO_SIZE_1, 112),
	VALUE(NLRU_GFP_KERNEL, 0xcc0),
	VALUE(NLRU_GFP_HIGHUSER_MOVABLE, 0x100cca),
	/* 0.1's NLRU_GFP_ATOMIC_FLAGS; 0.1's NLRU_GFP_ATOMIC (1 << 9) is NLRU__GFP_ATOMIC. */
	VALUE(NLRU_GFP_ATOMIC, 0xa20),
	VALUE(NLRU_MODE_NODE, 0),
	VALUE(NLRU_MODE_ZONE, 1),
	VALUE(NLRU_LOG_ERROR, 0),
	VALUE(NLRU_LOG_WARN, 1),
	VALUE(NLRU_LOG_INFO, 2),
	VALUE(NLRU_LOG_DEBUG, 3),
	VALUE(NLRU_CONFIG_VERSION, 1),
	VALUE(NLRU_PIN_WRITE, 1),
	VALUE(NLRU_SHRINK_STOP, (long long)(~0ul - 1)),
	VALUE(NLRU_DEFAULT_SEEKS, 2),
	VALUE(NLRU_SHRINKER_NUMA_AWARE, 1),
	VALUE(NLRU_VMSTAT_VERSION, 1),
	VALUE(NLRU_JEMALLOC_CONFIG_VERSION, 1),
	VALUE(NLRU_JEMALLOC_STATS_VERSION, 1),
};

/* Every counter: its enum constant, its value, and the name the library gives that value. */
struct counter {
	long long got, want;
	const char *name, *what;
};
#define COUNTER(c, v, n)                                                                           \
	{                                                                                          \
		(long long)(c), v, n, #c                                                           \
	}

static const struct counter zone_counters[] = {
	COUNTER(NLRU_NR_FREE_PAGES, 0, "nr_free_pages"),
	COUNTER(NLRU_NR_ZONE_INACTIVE_ANON, 1, "nr_zone_inactive_anon"),
	COUNTER(NLRU_NR_ZONE_ACTIVE_ANON, 2, "nr_zone_active_anon"),
	COUNTER(NLRU_NR_ZONE_INACTIVE_FILE, 3, "nr_zone_inactive_file"),
	COUNTER(NLRU_NR_ZONE_ACTIVE_FILE, 4, "nr_zone_active_file"),
	COUNTER(NLRU_NR_ZONE_UNEVICTABLE, 5, "nr_zone_unevictable"),
	COUNTER(NLRU_NR_ZONE_WRITE_PENDING, 6, "nr_zone_write_pending"),
	COUNTER(NLRU_NR_MLOCK, 7, "nr_mlock"),
	COUNTER(NLRU_NR_SLAB_RECLAIMABLE, 8, "nr_slab_reclaimable"),
	COUNTER(NLRU_NR_SLAB_UNRECLAIMABLE, 9, "nr_slab_unreclaimable"),
	COUNTER(NLRU_NR_PAGETABLE, 10, "nr_page_table_pages"),
	COUNTER(NLRU_NR_KERNEL_STACK_KB, 11, "nr_kernel_stack"),
	COUNTER(NLRU_NR_BOUNCE, 12, "nr_bounce"),
	COUNTER(NLRU_NUMA_HIT, 13, "numa_hit"),
	COUNTER(NLRU_NUMA_MISS, 14, "numa_miss"),
	COUNTER(NLRU_NUMA_FOREIGN, 15, "numa_foreign"),
	COUNTER(NLRU_NUMA_INTERLEAVE_HIT, 16, "numa_interleave"),
	COUNTER(NLRU_NUMA_LOCAL, 17, "numa_local"),
	COUNTER(NLRU_NUMA_OTHER, 18, "numa_other"),
	COUNTER(NLRU_NR_FREE_CMA_PAGES, 19, "nr_free_cma"),
};

static const struct counter node_counters[] = {
	COUNTER(NLRU_NR_INACTIVE_ANON, 0, "nr_inactive_anon"),
	COUNTER(NLRU_NR_ACTIVE_ANON, 1, "nr_active_anon"),
	COUNTER(NLRU_NR_INACTIVE_FILE, 2, "nr_inactive_file"),
	COUNTER(NLRU_NR_ACTIVE_FILE, 3, "nr_active_file"),
	COUNTER(NLRU_NR_UNEVICTABLE, 4, "nr_unevictable"),
	COUNTER(NLRU_NR_ISOLATED_ANON, 5, "nr_isolated_anon"),
	COUNTER(NLRU_NR_ISOLATED_FILE, 6, "nr_isolated_file"),
	COUNTER(NLRU_NR_PAGES_SCANNED, 7, "nr_pages_scanned"),
	COUNTER(NLRU_WORKINGSET_REFAULT, 8, "workingset_refault"),
	COUNTER(NLRU_WORKINGSET_ACTIVATE, 9, "workingset_activate"),
	COUNTER(NLRU_WORKINGSET_NODERECLAIM, 10, "workingset_nodereclaim"),
	COUNTER(NLRU_NR_ANON_MAPPED, 11, "nr_anon_pages"),
	COUNTER(NLRU_NR_FILE_MAPPED, 12, "nr_mapped"),
	COUNTER(NLRU_NR_FILE_PAGES, 13, "nr_file_pages"),
	COUNTER(NLRU_NR_FILE_DIRTY, 14, "nr_dirty"),
	COUNTER(NLRU_NR_WRITEBACK, 15, "nr_writeback"),
	COUNTER(NLRU_NR_WRITEBACK_TEMP, 16, "nr_writeback_temp"),
	COUNTER(NLRU_NR_SHMEM, 17, "nr_shmem"),
	COUNTER(NLRU_NR_SHMEM_THPS, 18, "nr_shmem_hugepages"),
	COUNTER(NLRU_NR_SHMEM_PMDMAPPED, 19, "nr_shmem_pmdmapped"),
	COUNTER(NLRU_NR_ANON_THPS, 20, "nr_anon_transparent_hugepages"),
	COUNTER(NLRU_NR_UNSTABLE_NFS, 21, "nr_unstable"),
	COUNTER(NLRU_NR_VMSCAN_WRITE, 22, "nr_vmscan_write"),
	COUNTER(NLRU_NR_VMSCAN_IMMEDIATE, 23, "nr_vmscan_immediate_reclaim"),
	COUNTER(NLRU_NR_DIRTIED, 24, "nr_dirtied"),
	COUNTER(NLRU_NR_WRITTEN, 25, "nr_written"),
};

/* A zoned event: its first slot, named for ZONE_DMA; the next three follow. */
static const struct counter event_counters[] = {
	COUNTER(NLRU_PGPGIN, 0, "pgpgin"),
	COUNTER(NLRU_PGPGOUT, 1, "pgpgout"),
	COUNTER(NLRU_PSWPIN, 2, "pswpin"),
	COUNTER(NLRU_PSWPOUT, 3, "pswpout"),
	COUNTER(NLRU_PGALLOC, 4, "pgalloc_dma"),
	COUNTER(NLRU_ALLOCSTALL, 8, "allocstall_dma"),
	COUNTER(NLRU_PGSCAN_SKIP, 12, "pgskip_dma"),
	COUNTER(NLRU_PGFREE, 16, "pgfree"),
	COUNTER(NLRU_PGACTIVATE, 17, "pgactivate"),
	COUNTER(NLRU_PGDEACTIVATE, 18, "pgdeactivate"),
	COUNTER(NLRU_PGFAULT, 19, "pgfault"),
	COUNTER(NLRU_PGMAJFAULT, 20, "pgmajfault"),
	COUNTER(NLRU_PGLAZYFREED, 21, "pglazyfreed"),
	COUNTER(NLRU_PGREFILL, 22, "pgrefill_dma"),
	COUNTER(NLRU_PGSTEAL_KSWAPD, 26, "pgsteal_kswapd_dma"),
	COUNTER(NLRU_PGSTEAL_DIRECT, 30, "pgsteal_direct_dma"),
	COUNTER(NLRU_PGSCAN_KSWAPD, 34, "pgscan_kswapd_dma"),
	COUNTER(NLRU_PGSCAN_DIRECT, 38, "pgscan_direct_dma"),
	COUNTER(NLRU_PGSCAN_DIRECT_THROTTLE, 42, "pgscan_direct_throttle"),
	COUNTER(NLRU_PGSCAN_ZONE_RECLAIM_FAILED, 43, "zone_reclaim_failed"),
	COUNTER(NLRU_PGINODESTEAL, 44, "pginodesteal"),
	COUNTER(NLRU_SLABS_SCANNED, 45, "slabs_scanned"),
	COUNTER(NLRU_KSWAPD_INODESTEAL, 46, "kswapd_inodesteal"),
	COUNTER(NLRU_KSWAPD_LOW_WMARK_HIT_QUICKLY, 47, "kswapd_low_wmark_hit_quickly"),
	COUNTER(NLRU_KSWAPD_HIGH_WMARK_HIT_QUICKLY, 48, "kswapd_high_wmark_hit_quickly"),
	COUNTER(NLRU_PAGEOUTRUN, 49, "pageoutrun"),
	COUNTER(NLRU_PGROTATED, 50, "pgrotated"),
	COUNTER(NLRU_DROP_PAGECACHE, 51, "drop_pagecache"),
	COUNTER(NLRU_DROP_SLAB, 52, "drop_slab"),
	COUNTER(NLRU_UNEVICTABLE_PGCULLED, 53, "unevictable_pgs_culled"),
	COUNTER(NLRU_UNEVICTABLE_PGSCANNED, 54, "unevictable_pgs_scanned"),
	COUNTER(NLRU_UNEVICTABLE_PGRESCUED, 55, "unevictable_pgs_rescued"),
	COUNTER(NLRU_UNEVICTABLE_PGMLOCKED, 56, "unevictable_pgs_mlocked"),
	COUNTER(NLRU_UNEVICTABLE_PGMUNLOCKED, 57, "unevictable_pgs_munlocked"),
	COUNTER(NLRU_UNEVICTABLE_PGCLEARED, 58, "unevictable_pgs_cleared"),
	COUNTER(NLRU_UNEVICTABLE_PGSTRANDED, 59, "unevictable_pgs_stranded"),
	COUNTER(NLRU_KSWAPD_WAKEUP, 60, "nlru_kswapd_wakeup"),
	COUNTER(NLRU_DIRECT_RECLAIM, 61, "nlru_direct_reclaim"),
	COUNTER(NLRU_ALLOC_RETRY, 62, "nlru_alloc_retry"),
	COUNTER(NLRU_ALLOC_FAIL, 63, "nlru_alloc_fail"),
	COUNTER(NLRU_OOM_RECLAIM, 64, "nlru_oom_reclaim"),
	COUNTER(NLRU_BAD_FREE, 65, "nlru_bad_free"),
	COUNTER(NLRU_PCP_DRAIN, 66, "nlru_pcp_drain"),
	COUNTER(NLRU_MEMBIND_FALLBACK, 67, "nlru_membind_fallback"),
	COUNTER(NLRU_SWAP_WRITE_FAIL, 68, "nlru_swap_write_fail"),
	COUNTER(NLRU_SWAP_FULL, 69, "nlru_swap_full"),
	COUNTER(NLRU_MAP_SAMPLE, 70, "nlru_map_sample"),
	COUNTER(NLRU_MAP_SAMPLE_HIT, 71, "nlru_map_sample_hit"),
	COUNTER(NLRU_PGMIGRATE_SUCCESS, 72, "pgmigrate_success"),
	COUNTER(NLRU_PGMIGRATE_FAIL, 73, "pgmigrate_fail"),
	COUNTER(NLRU_COMPACT_MIGRATE_SCANNED, 74, "compact_migrate_scanned"),
	COUNTER(NLRU_COMPACT_FREE_SCANNED, 75, "compact_free_scanned"),
	COUNTER(NLRU_COMPACT_ISOLATED, 76, "compact_isolated"),
	COUNTER(NLRU_COMPACT_STALL, 77, "compact_stall"),
	COUNTER(NLRU_COMPACT_FAIL, 78, "compact_fail"),
	COUNTER(NLRU_COMPACT_SUCCESS, 79, "compact_success"),
	COUNTER(NLRU_COMPACT_DAEMON_WAKE, 80, "compact_daemon_wake"),
	COUNTER(NLRU_SWAP_BAD_SLOT, 81, "nlru_swap_bad_slot"),
};

/* The tunables by index (nlru_tunable_info), in the order of tunables.h. */
static const char *const tunables[] = {
	"node_mib",
	"dma_pct",
	"dma32_pct",
	"movable_pct",
	"min_free_kbytes",
	"watermark_scale_factor",
	"lowmem_reserve_ratio_dma",
	"lowmem_reserve_ratio_dma32",
	"lowmem_reserve_ratio_normal",
	"percpu_pagelist_fraction",
	"prefault",
	"dirty_ratio",
	"dirty_background_ratio",
	"swap_mib",
	"swappiness",
	"kswapd",
	"kswapd_nap_ms",
	"mode",
	"flusher",
	"dirty_writeback_centisecs",
	"dirty_expire_centisecs",
	"blkdev_mbs",
	"blkdev_latency_us",
	"blkdev_nr_requests",
	"blkdev_max_kb",
	"blkdev_direct",
	"map_sample_pages",
	"map_sample_ms",
	"inactive_ratio_scale",
	"extfrag_threshold",
	"compaction",
	"blkdev_seek_us",
};

#define SIZE(t, n)                                                                                 \
	{                                                                                          \
		sizeof(t), n, "sizeof(" #t ")"                                                     \
	}
#define OFFSET(t, m, n)                                                                            \
	{                                                                                          \
		offsetof(t, m), n, "offsetof(" #t ", " #m ")"                                      \
	}

static const struct {
	size_t got, want;
	const char *what;
} layout[] = {
	SIZE(struct nlru_config, 320),
	SIZE(struct nlru_tunable_info, 104),
	SIZE(struct nlru_shrink_control, 40),
	SIZE(struct nlru_shrinker_def, 64),
	SIZE(struct nlru_zone_info, 208),
	SIZE(struct nlru_vmstat, 1040),
	SIZE(struct nlru_jemalloc_config, 40),
	SIZE(struct nlru_jemalloc_stats, 80),
	OFFSET(struct nlru_config, size, 0),
	OFFSET(struct nlru_config, version, 8),
	OFFSET(struct nlru_config, topology, 16),
	OFFSET(struct nlru_config, log, 24),
	OFFSET(struct nlru_config, log_arg, 32),
	OFFSET(struct nlru_config, clock, 40),
	OFFSET(struct nlru_config, clock_arg, 48),
	OFFSET(struct nlru_config, swap_path, 56),
	OFFSET(struct nlru_config, node_mib, 64),
	OFFSET(struct nlru_config, dma_pct, 72),
	OFFSET(struct nlru_config, dma32_pct, 80),
	OFFSET(struct nlru_config, movable_pct, 88),
	OFFSET(struct nlru_config, min_free_kbytes, 96),
	OFFSET(struct nlru_config, watermark_scale_factor, 104),
	OFFSET(struct nlru_config, lowmem_reserve_ratio_dma, 112),
	OFFSET(struct nlru_config, lowmem_reserve_ratio_dma32, 120),
	OFFSET(struct nlru_config, lowmem_reserve_ratio_normal, 128),
	OFFSET(struct nlru_config, percpu_pagelist_fraction, 136),
	OFFSET(struct nlru_config, prefault, 144),
	OFFSET(struct nlru_config, dirty_ratio, 152),
	OFFSET(struct nlru_config, dirty_background_ratio, 160),
	OFFSET(struct nlru_config, swap_mib, 168),
	OFFSET(struct nlru_config, swappiness, 176),
	OFFSET(struct nlru_config, kswapd, 184),
	OFFSET(struct nlru_config, kswapd_nap_ms, 192),
	OFFSET(struct nlru_config, mode, 200),
	OFFSET(struct nlru_config, flusher, 208),
	OFFSET(struct nlru_config, dirty_writeback_centisecs, 216),
	OFFSET(struct nlru_config, dirty_expire_centisecs, 224),
	OFFSET(struct nlru_config, blkdev_mbs, 232),
	OFFSET(struct nlru_config, blkdev_latency_us, 240),
	OFFSET(struct nlru_config, blkdev_nr_requests, 248),
	OFFSET(struct nlru_config, blkdev_max_kb, 256),
	OFFSET(struct nlru_config, blkdev_direct, 264),
	OFFSET(struct nlru_config, map_sample_pages, 272),
	OFFSET(struct nlru_config, map_sample_ms, 280),
	OFFSET(struct nlru_config, inactive_ratio_scale, 288),
	OFFSET(struct nlru_config, extfrag_threshold, 296),
	OFFSET(struct nlru_config, compaction, 304),
	OFFSET(struct nlru_config, blkdev_seek_us, 312),
	OFFSET(struct nlru_tunable_info, name, 0),
	OFFSET(struct nlru_tunable_info, env, 8),
	OFFSET(struct nlru_tunable_info, def, 72),
	OFFSET(struct nlru_tunable_info, min, 80),
	OFFSET(struct nlru_tunable_info, max, 88),
	OFFSET(struct nlru_tunable_info, help, 96),
	OFFSET(struct nlru_shrink_control, nid, 0),
	OFFSET(struct nlru_shrink_control, nr_to_scan, 8),
	OFFSET(struct nlru_shrink_control, nr_scanned, 16),
	OFFSET(struct nlru_shrink_control, gfp_mask, 24),
	OFFSET(struct nlru_shrink_control, priority, 28),
	OFFSET(struct nlru_shrink_control, flags, 32),
	OFFSET(struct nlru_shrinker_def, size, 0),
	OFFSET(struct nlru_shrinker_def, count, 8),
	OFFSET(struct nlru_shrinker_def, scan, 16),
	OFFSET(struct nlru_shrinker_def, arg, 24),
	OFFSET(struct nlru_shrinker_def, seeks, 32),
	OFFSET(struct nlru_shrinker_def, batch, 40),
	OFFSET(struct nlru_shrinker_def, flags, 48),
	OFFSET(struct nlru_shrinker_def, name, 56),
	OFFSET(struct nlru_zone_info, size, 0),
	OFFSET(struct nlru_zone_info, start_pfn, 8),
	OFFSET(struct nlru_zone_info, spanned, 16),
	OFFSET(struct nlru_zone_info, present, 24),
	OFFSET(struct nlru_zone_info, managed, 32),
	OFFSET(struct nlru_zone_info, free, 40),
	OFFSET(struct nlru_zone_info, wmark_min, 48),
	OFFSET(struct nlru_zone_info, wmark_low, 56),
	OFFSET(struct nlru_zone_info, wmark_high, 64),
	OFFSET(struct nlru_zone_info, lowmem_reserve, 72),
	OFFSET(struct nlru_zone_info, pcp_high, 104),
	OFFSET(struct nlru_zone_info, pcp_batch, 108),
	OFFSET(struct nlru_zone_info, version, 112),
	OFFSET(struct nlru_zone_info, nr_free_blocks, 120),
	OFFSET(struct nlru_vmstat, size, 0),
	OFFSET(struct nlru_vmstat, version, 8),
	OFFSET(struct nlru_vmstat, nr_nodes, 12),
	OFFSET(struct nlru_vmstat, events, 16),
	OFFSET(struct nlru_vmstat, zone, 672),
	OFFSET(struct nlru_vmstat, node, 832),
	OFFSET(struct nlru_jemalloc_config, size, 0),
	OFFSET(struct nlru_jemalloc_config, version, 8),
	OFFSET(struct nlru_jemalloc_config, nid, 12),
	OFFSET(struct nlru_jemalloc_config, gfp, 16),
	OFFSET(struct nlru_jemalloc_config, dirty_decay_ms, 24),
	OFFSET(struct nlru_jemalloc_config, shrinker_seeks, 32),
	OFFSET(struct nlru_jemalloc_stats, size, 0),
	OFFSET(struct nlru_jemalloc_stats, version, 8),
	OFFSET(struct nlru_jemalloc_stats, pages, 16),
	OFFSET(struct nlru_jemalloc_stats, extents_alloc, 24),
	OFFSET(struct nlru_jemalloc_stats, extents_failed, 32),
	OFFSET(struct nlru_jemalloc_stats, pages_returned, 40),
	OFFSET(struct nlru_jemalloc_stats, purges, 48),
	OFFSET(struct nlru_jemalloc_stats, pages_purged, 56),
	OFFSET(struct nlru_jemalloc_stats, dirty_pages, 64),
	OFFSET(struct nlru_jemalloc_stats, refused, 72),
};

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static void check_counters(const struct counter *c, size_t n, long long nr, const char *nr_name,
			   const char *(*name)(int))
{
	for (size_t i = 0; i < n; i++) {
		check(c[i].got, c[i].want, c[i].what);
		check_name(name((int)c[i].want), c[i].name, c[i].what);
	}
	if (nr < (long long)n) {
		printf("layout: %s is %lld, fewer than the %zu counters pinned\n", nr_name, nr, n);
		failures++;
	}
}

static const char *zone_stat_name(int v)
{
	return nlru_zone_stat_name((enum nlru_zone_stat_item)v);
}

static const char *node_stat_name(int v)
{
	return nlru_node_stat_name((enum nlru_node_stat_item)v);
}

static const char *vm_event_name(int v)
{
	return nlru_vm_event_name((enum nlru_vm_event_item)v);
}

/* The deprecated spelling of 0.1 still compiles, to the same value. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
static const long long gfp_atomic_flags = NLRU_GFP_ATOMIC_FLAGS;
#pragma GCC diagnostic pop

int main(void)
{
	struct nlru_tunable_info info;

	for (size_t i = 0; i < ARRAY_SIZE(values); i++)
		check(values[i].got, values[i].want, values[i].what);
	check(gfp_atomic_flags, 0xa20, "NLRU_GFP_ATOMIC_FLAGS");
	check_counters(zone_counters, ARRAY_SIZE(zone_counters), NLRU_NR_VM_ZONE_STAT_ITEMS,
		       "NLRU_NR_VM_ZONE_STAT_ITEMS", zone_stat_name);
	check_counters(node_counters, ARRAY_SIZE(node_counters), NLRU_NR_VM_NODE_STAT_ITEMS,
		       "NLRU_NR_VM_NODE_STAT_ITEMS", node_stat_name);
	check_counters(event_counters, ARRAY_SIZE(event_counters), NLRU_NR_VM_EVENT_ITEMS,
		       "NLRU_NR_VM_EVENT_ITEMS", vm_event_name);
	check_name(nlru_vm_event_name(NLRU_PGALLOC + NLRU_ZONE_MOVABLE), "pgalloc_movable",
		   "NLRU_PGALLOC + NLRU_ZONE_MOVABLE");
	for (size_t i = 0; i < ARRAY_SIZE(tunables); i++) {
		if (nlru_tunable_info((unsigned int)i, &info) != 0)
			info.name = NULL;
		check_name(info.name, tunables[i], "tunable index");
	}
#if UINTPTR_MAX == UINT64_MAX && ULONG_MAX == UINT64_MAX
	for (size_t i = 0; i < ARRAY_SIZE(layout); i++)
		check((long long)layout[i].got, (long long)layout[i].want, layout[i].what);
#else
	puts("layout: not an LP64 target, sizes and offsets skipped");
#endif
	if (failures)
		return 1;
	puts("layout: ok");
	return 0;
}
