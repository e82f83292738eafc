/*
 * nodelru counter list: the one place every counter is declared.
 *
 * Each list is an X-macro.  The engine generates from it the public enums (vmstat.h), the names
 * printed in the /proc/vmstat and /proc/zoneinfo dumps, the help text that tools show, and the
 * checks in the tests, so no second table has to be kept in step by hand (as the kernel's
 * vmstat_text[] must).  The order of each list is the Linux 4.8 /proc/vmstat print order.
 *
 * Names are Linux's.  Counters the engine adds of its own start with "nlru_" and are printed
 * after the Linux ones.
 */
#ifndef NODELRU_VMSTAT_ITEMS_H
#define NODELRU_VMSTAT_ITEMS_H

/* Per-zone state counters (Linux 4.8 enum zone_stat_item, CONFIG_NUMA, no ZSMALLOC). */
#define NLRU_ZONE_STAT_ITEMS(X)                                                                    \
	X(NR_FREE_PAGES, "nr_free_pages",                                                          \
	  "pages free in the buddy allocator (per-CPU lists excluded)")                            \
	X(NR_ZONE_INACTIVE_ANON, "nr_zone_inactive_anon", "inactive anon LRU pages of this zone")  \
	X(NR_ZONE_ACTIVE_ANON, "nr_zone_active_anon", "active anon LRU pages of this zone")        \
	X(NR_ZONE_INACTIVE_FILE, "nr_zone_inactive_file", "inactive file LRU pages of this zone")  \
	X(NR_ZONE_ACTIVE_FILE, "nr_zone_active_file", "active file LRU pages of this zone")        \
	X(NR_ZONE_UNEVICTABLE, "nr_zone_unevictable", "unevictable LRU pages of this zone")        \
	X(NR_ZONE_WRITE_PENDING, "nr_zone_write_pending",                                          \
	  "dirty and writeback pages of this zone")                                                \
	X(NR_MLOCK, "nr_mlock", "mlocked pages")                                                   \
	X(NR_SLAB_RECLAIMABLE, "nr_slab_reclaimable", "pages charged to shrinkable caches")        \
	X(NR_SLAB_UNRECLAIMABLE, "nr_slab_unreclaimable", "pages charged to unshrinkable caches")  \
	X(NR_PAGETABLE, "nr_page_table_pages", "pages used for page tables")                       \
	X(NR_KERNEL_STACK_KB, "nr_kernel_stack", "KiB of kernel stacks")                           \
	X(NR_BOUNCE, "nr_bounce", "bounce buffer pages")                                           \
	X(NUMA_HIT, "numa_hit", "pages allocated on the node that was asked for")                  \
	X(NUMA_MISS, "numa_miss", "pages allocated here although another node was asked for")      \
	X(NUMA_FOREIGN, "numa_foreign", "pages asked of this node but allocated on another")       \
	X(NUMA_INTERLEAVE_HIT, "numa_interleave", "interleave-policy pages allocated here")        \
	X(NUMA_LOCAL, "numa_local", "pages allocated by a CPU of the same node")                   \
	X(NUMA_OTHER, "numa_other", "pages allocated by a CPU of another node")                    \
	X(NR_FREE_CMA_PAGES, "nr_free_cma", "free CMA pages")

/* Per-node state counters (Linux 4.8 enum node_stat_item). */
#define NLRU_NODE_STAT_ITEMS(X)                                                                    \
	X(NR_INACTIVE_ANON, "nr_inactive_anon", "inactive anon LRU pages")                         \
	X(NR_ACTIVE_ANON, "nr_active_anon", "active anon LRU pages")                               \
	X(NR_INACTIVE_FILE, "nr_inactive_file", "inactive file LRU pages")                         \
	X(NR_ACTIVE_FILE, "nr_active_file", "active file LRU pages")                               \
	X(NR_UNEVICTABLE, "nr_unevictable", "unevictable LRU pages")                               \
	X(NR_ISOLATED_ANON, "nr_isolated_anon", "anon pages taken off the LRU by reclaim")         \
	X(NR_ISOLATED_FILE, "nr_isolated_file", "file pages taken off the LRU by reclaim")         \
	X(NR_PAGES_SCANNED, "nr_pages_scanned", "pages scanned since a page was last freed")       \
	X(WORKINGSET_REFAULT, "workingset_refault", "file pages faulted in again after eviction")  \
	X(WORKINGSET_ACTIVATE, "workingset_activate", "refaulted pages activated at once")         \
	X(WORKINGSET_NODERECLAIM, "workingset_nodereclaim", "shadow entry nodes reclaimed")        \
	X(NR_ANON_MAPPED, "nr_anon_pages", "resident anonymous pages")                             \
	X(NR_FILE_MAPPED, "nr_mapped", "mapped page cache pages")                                  \
	X(NR_FILE_PAGES, "nr_file_pages", "page cache pages")                                      \
	X(NR_FILE_DIRTY, "nr_dirty", "dirty page cache pages")                                     \
	X(NR_WRITEBACK, "nr_writeback", "pages under writeback")                                   \
	X(NR_WRITEBACK_TEMP, "nr_writeback_temp", "FUSE temporary writeback pages")                \
	X(NR_SHMEM, "nr_shmem", "shared memory pages")                                             \
	X(NR_SHMEM_THPS, "nr_shmem_hugepages", "shmem huge pages")                                 \
	X(NR_SHMEM_PMDMAPPED, "nr_shmem_pmdmapped", "shmem huge pages mapped by PMD")              \
	X(NR_ANON_THPS, "nr_anon_transparent_hugepages", "anonymous huge pages")                   \
	X(NR_UNSTABLE_NFS, "nr_unstable", "NFS unstable pages")                                    \
	X(NR_VMSCAN_WRITE, "nr_vmscan_write", "pages written by reclaim")                          \
	X(NR_VMSCAN_IMMEDIATE, "nr_vmscan_immediate_reclaim",                                      \
	  "dirty pages marked for reclaim at writeback end")                                       \
	X(NR_DIRTIED, "nr_dirtied", "pages dirtied since start")                                   \
	X(NR_WRITTEN, "nr_written", "pages written since start")

/*
 * Event counters (Linux 4.8 enum vm_event_item, without the THP, compaction, migration,
 * NUMA-balancing, hugetlb and balloon groups: the engine models none of them).
 *
 *   GLOBAL(name, text, help)     one counter
 *   ZONED(name, text, help)      one counter per zone type: text_dma, text_dma32, ...
 *   ZONED_SUM(name, text, help)  counted per zone, printed as one sum by Linux 4.8
 *                                (and per zone by 4.7): pgrefill, pgsteal_*, pgscan_*
 */
#define NLRU_VM_EVENT_ITEMS(GLOBAL, ZONED, ZONED_SUM)                                              \
	GLOBAL(PGPGIN, "pgpgin", "KiB read in from files and swap")                                \
	GLOBAL(PGPGOUT, "pgpgout", "KiB written out to files and swap")                            \
	GLOBAL(PSWPIN, "pswpin", "pages read from swap")                                           \
	GLOBAL(PSWPOUT, "pswpout", "pages written to swap")                                        \
	ZONED(PGALLOC, "pgalloc", "pages allocated from the zone")                                 \
	ZONED(ALLOCSTALL, "allocstall", "direct reclaim entries, by the zone the request allowed") \
	ZONED(PGSCAN_SKIP, "pgskip",                                                               \
	      "LRU pages skipped because the request could not use their zone")                    \
	GLOBAL(PGFREE, "pgfree", "pages freed")                                                    \
	GLOBAL(PGACTIVATE, "pgactivate", "pages moved to an active list")                          \
	GLOBAL(PGDEACTIVATE, "pgdeactivate", "pages moved to an inactive list")                    \
	GLOBAL(PGFAULT, "pgfault", "page faults")                                                  \
	GLOBAL(PGMAJFAULT, "pgmajfault", "page faults that read from swap or a file")              \
	GLOBAL(PGLAZYFREED, "pglazyfreed", "lazily freed pages")                                   \
	ZONED_SUM(PGREFILL, "pgrefill", "active list pages scanned")                               \
	ZONED_SUM(PGSTEAL_KSWAPD, "pgsteal_kswapd", "pages reclaimed by kswapd")                   \
	ZONED_SUM(PGSTEAL_DIRECT, "pgsteal_direct", "pages reclaimed by direct reclaim")           \
	ZONED_SUM(PGSCAN_KSWAPD, "pgscan_kswapd", "inactive list pages scanned by kswapd")         \
	ZONED_SUM(PGSCAN_DIRECT, "pgscan_direct", "inactive list pages scanned by direct reclaim") \
	GLOBAL(PGSCAN_DIRECT_THROTTLE, "pgscan_direct_throttle", "direct reclaimers throttled")    \
	GLOBAL(PGSCAN_ZONE_RECLAIM_FAILED, "zone_reclaim_failed",                                  \
	       "node_reclaim passes that failed")                                                  \
	GLOBAL(PGINODESTEAL, "pginodesteal", "pages freed by inode reclaim")                       \
	GLOBAL(SLABS_SCANNED, "slabs_scanned", "objects scanned by shrinkers")                     \
	GLOBAL(KSWAPD_INODESTEAL, "kswapd_inodesteal", "pages freed by kswapd inode reclaim")      \
	GLOBAL(KSWAPD_LOW_WMARK_HIT_QUICKLY, "kswapd_low_wmark_hit_quickly",                       \
	       "kswapd woken again within its short nap")                                          \
	GLOBAL(KSWAPD_HIGH_WMARK_HIT_QUICKLY, "kswapd_high_wmark_hit_quickly",                     \
	       "kswapd found the node unbalanced when about to sleep")                             \
	GLOBAL(PAGEOUTRUN, "pageoutrun", "kswapd balance passes")                                  \
	GLOBAL(PGROTATED, "pgrotated", "pages rotated to the inactive tail at writeback end")      \
	GLOBAL(DROP_PAGECACHE, "drop_pagecache", "page cache drops requested")                     \
	GLOBAL(DROP_SLAB, "drop_slab", "slab drops requested")                                     \
	GLOBAL(UNEVICTABLE_PGCULLED, "unevictable_pgs_culled",                                     \
	       "pages moved to the unevictable list")                                              \
	GLOBAL(UNEVICTABLE_PGSCANNED, "unevictable_pgs_scanned", "unevictable pages scanned")      \
	GLOBAL(UNEVICTABLE_PGRESCUED, "unevictable_pgs_rescued", "pages made evictable again")     \
	GLOBAL(UNEVICTABLE_PGMLOCKED, "unevictable_pgs_mlocked", "pages mlocked")                  \
	GLOBAL(UNEVICTABLE_PGMUNLOCKED, "unevictable_pgs_munlocked", "pages munlocked")            \
	GLOBAL(UNEVICTABLE_PGCLEARED, "unevictable_pgs_cleared", "mlocked pages freed")            \
	GLOBAL(UNEVICTABLE_PGSTRANDED, "unevictable_pgs_stranded",                                 \
	       "mlocked pages that could not be munlocked")                                        \
	GLOBAL(KSWAPD_WAKEUP, "nlru_kswapd_wakeup", "wakeups of a sleeping or napping kswapd")     \
	GLOBAL(DIRECT_RECLAIM, "nlru_direct_reclaim",                                              \
	       "direct reclaim attempts by the allocator slow path")                               \
	GLOBAL(ALLOC_RETRY, "nlru_alloc_retry", "slow path retries after reclaim")                 \
	GLOBAL(ALLOC_FAIL, "nlru_alloc_fail", "allocations that failed with -ENOMEM")              \
	GLOBAL(OOM_RECLAIM, "nlru_oom_reclaim",                                                    \
	       "last reclaim attempts where Linux would OOM-kill")                                 \
	GLOBAL(BAD_FREE, "nlru_bad_free", "frees refused: double, foreign or wrong order")         \
	GLOBAL(PCP_DRAIN, "nlru_pcp_drain", "per-CPU list drains")                                 \
	GLOBAL(MEMBIND_FALLBACK, "nlru_membind_fallback",                                          \
	       "node mappings left unbound because binding was refused")                           \
	GLOBAL(SWAP_WRITE_FAIL, "nlru_swap_write_fail",                                            \
	       "swap-outs whose write failed; the page stayed resident")                           \
	GLOBAL(SWAP_FULL, "nlru_swap_full", "anon pages kept because swap had no free slot")

#endif /* NODELRU_VMSTAT_ITEMS_H */
