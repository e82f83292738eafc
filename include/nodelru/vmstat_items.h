/*
 * nodelru counter list: the one place every counter is declared.
 *
 * Each list is an X-macro.  The engine generates from it the public enums (vmstat.h), the names
 * printed in the /proc/vmstat and /proc/zoneinfo dumps, the help text that tools show, and the
 * checks in the tests, so no second table has to be kept in step by hand (as the kernel's
 * vmstat_text[] must).  The order of each list is the Linux 4.8 /proc/vmstat print order.
 *
 * X(name, value, text, help): NLRU_<name> is the enum constant, <text> the Linux name in the
 * dumps, <help> one line for tools.  <value> is the constant's value, written out because it
 * is part of the ABI: programs compile it in (snap.events[NLRU_PGMAJFAULT]) and index the
 * arrays of struct nlru_vmstat with it.  The rules, which keep a program built against an
 * older header reading the counter it asked for:
 *  - a value never changes, and no counter is removed or renamed once released;
 *  - a new counter takes the next value after the highest of its list (a ZONED or ZONED_SUM
 *    event takes NLRU_MAX_NR_ZONES values, one per zone type, from its value up), wherever
 *    it goes in the list: the list order is the print order, the values are not;
 *  - the values of a list are 0 .. NLRU_NR_<list>_ITEMS - 1 with no gap and no repeat
 *    (src/vmstat.c fails to compile otherwise).
 * tests/abi/layout.c pins every value and name of the first release; add a new counter there
 * too.  A new counter still grows struct nlru_vmstat and moves its zone[] and node[] arrays:
 * see the struct in vmstat.h.
 *
 * Names are Linux's.  Counters the engine adds of its own start with "nlru_" and are printed
 * after the Linux ones.
 */
#ifndef NODELRU_VMSTAT_ITEMS_H
#define NODELRU_VMSTAT_ITEMS_H

/* Per-zone state counters (Linux 4.8 enum zone_stat_item, CONFIG_NUMA, no ZSMALLOC). */
#define NLRU_ZONE_STAT_ITEMS(X)                                                                    \
	X(NR_FREE_PAGES, 0, "nr_free_pages",                                                       \
	  "pages free in the buddy allocator (per-CPU lists excluded)")                            \
	X(NR_ZONE_INACTIVE_ANON, 1, "nr_zone_inactive_anon",                                       \
	  "inactive anon LRU pages of this zone")                                                  \
	X(NR_ZONE_ACTIVE_ANON, 2, "nr_zone_active_anon", "active anon LRU pages of this zone")     \
	X(NR_ZONE_INACTIVE_FILE, 3, "nr_zone_inactive_file",                                       \
	  "inactive file LRU pages of this zone")                                                  \
	X(NR_ZONE_ACTIVE_FILE, 4, "nr_zone_active_file", "active file LRU pages of this zone")     \
	X(NR_ZONE_UNEVICTABLE, 5, "nr_zone_unevictable", "unevictable LRU pages of this zone")     \
	X(NR_ZONE_WRITE_PENDING, 6, "nr_zone_write_pending",                                       \
	  "dirty and writeback pages of this zone")                                                \
	X(NR_MLOCK, 7, "nr_mlock", "mlocked pages")                                                \
	X(NR_SLAB_RECLAIMABLE, 8, "nr_slab_reclaimable", "pages charged to shrinkable caches")     \
	X(NR_SLAB_UNRECLAIMABLE, 9, "nr_slab_unreclaimable",                                       \
	  "pages charged to unshrinkable caches")                                                  \
	X(NR_PAGETABLE, 10, "nr_page_table_pages", "pages used for page tables")                   \
	X(NR_KERNEL_STACK_KB, 11, "nr_kernel_stack", "KiB of kernel stacks")                       \
	X(NR_BOUNCE, 12, "nr_bounce", "bounce buffer pages")                                       \
	X(NUMA_HIT, 13, "numa_hit", "pages allocated on the node that was asked for")              \
	X(NUMA_MISS, 14, "numa_miss", "pages allocated here although another node was asked for")  \
	X(NUMA_FOREIGN, 15, "numa_foreign", "pages asked of this node but allocated on another")   \
	X(NUMA_INTERLEAVE_HIT, 16, "numa_interleave", "interleave-policy pages allocated here")    \
	X(NUMA_LOCAL, 17, "numa_local", "pages allocated by a CPU of the same node")               \
	X(NUMA_OTHER, 18, "numa_other", "pages allocated by a CPU of another node")                \
	X(NR_FREE_CMA_PAGES, 19, "nr_free_cma", "free CMA pages")

/* Per-node state counters (Linux 4.8 enum node_stat_item). */
#define NLRU_NODE_STAT_ITEMS(X)                                                                    \
	X(NR_INACTIVE_ANON, 0, "nr_inactive_anon", "inactive anon LRU pages")                      \
	X(NR_ACTIVE_ANON, 1, "nr_active_anon", "active anon LRU pages")                            \
	X(NR_INACTIVE_FILE, 2, "nr_inactive_file", "inactive file LRU pages")                      \
	X(NR_ACTIVE_FILE, 3, "nr_active_file", "active file LRU pages")                            \
	X(NR_UNEVICTABLE, 4, "nr_unevictable", "unevictable LRU pages")                            \
	X(NR_ISOLATED_ANON, 5, "nr_isolated_anon", "anon pages taken off the LRU by reclaim")      \
	X(NR_ISOLATED_FILE, 6, "nr_isolated_file", "file pages taken off the LRU by reclaim")      \
	X(NR_PAGES_SCANNED, 7, "nr_pages_scanned", "pages scanned since a page was last freed")    \
	X(WORKINGSET_REFAULT, 8, "workingset_refault",                                             \
	  "file pages faulted in again after eviction")                                            \
	X(WORKINGSET_ACTIVATE, 9, "workingset_activate", "refaulted pages activated at once")      \
	X(WORKINGSET_NODERECLAIM, 10, "workingset_nodereclaim", "shadow entry nodes reclaimed")    \
	X(NR_ANON_MAPPED, 11, "nr_anon_pages", "resident anonymous pages")                         \
	X(NR_FILE_MAPPED, 12, "nr_mapped", "mapped page cache pages")                              \
	X(NR_FILE_PAGES, 13, "nr_file_pages", "page cache pages")                                  \
	X(NR_FILE_DIRTY, 14, "nr_dirty", "dirty page cache pages")                                 \
	X(NR_WRITEBACK, 15, "nr_writeback", "pages under writeback")                               \
	X(NR_WRITEBACK_TEMP, 16, "nr_writeback_temp", "FUSE temporary writeback pages")            \
	X(NR_SHMEM, 17, "nr_shmem", "shared memory pages")                                         \
	X(NR_SHMEM_THPS, 18, "nr_shmem_hugepages", "shmem huge pages")                             \
	X(NR_SHMEM_PMDMAPPED, 19, "nr_shmem_pmdmapped", "shmem huge pages mapped by PMD")          \
	X(NR_ANON_THPS, 20, "nr_anon_transparent_hugepages", "anonymous huge pages")               \
	X(NR_UNSTABLE_NFS, 21, "nr_unstable", "NFS unstable pages")                                \
	X(NR_VMSCAN_WRITE, 22, "nr_vmscan_write", "pages written by reclaim")                      \
	X(NR_VMSCAN_IMMEDIATE, 23, "nr_vmscan_immediate_reclaim",                                  \
	  "dirty pages marked for reclaim at writeback end")                                       \
	X(NR_DIRTIED, 24, "nr_dirtied", "pages dirtied since start")                               \
	X(NR_WRITTEN, 25, "nr_written", "pages written since start")

/*
 * Event counters (Linux 4.8 enum vm_event_item, without the THP, NUMA-balancing, hugetlb and
 * balloon groups, which the engine does not model).
 *
 *   GLOBAL(name, value, text, help)     one counter
 *   ZONED(name, value, text, help)      one counter per zone type: text_dma, text_dma32, ...,
 *                                       values value .. value + NLRU_MAX_NR_ZONES - 1
 *   ZONED_SUM(name, value, text, help)  counted per zone, printed as one sum by Linux 4.8
 *                                       (and per zone by 4.7): pgrefill, pgsteal_*, pgscan_*
 */
#define NLRU_VM_EVENT_ITEMS(GLOBAL, ZONED, ZONED_SUM)                                              \
	GLOBAL(PGPGIN, 0, "pgpgin", "KiB read in from files and swap")                             \
	GLOBAL(PGPGOUT, 1, "pgpgout", "KiB written out to files and swap")                         \
	GLOBAL(PSWPIN, 2, "pswpin", "pages read from swap")                                        \
	GLOBAL(PSWPOUT, 3, "pswpout", "pages written to swap")                                     \
	ZONED(PGALLOC, 4, "pgalloc", "pages allocated from the zone")                              \
	ZONED(ALLOCSTALL, 8, "allocstall",                                                         \
	      "direct reclaim entries, by the zone the request allowed")                           \
	ZONED(PGSCAN_SKIP, 12, "pgskip",                                                           \
	      "LRU pages skipped because the request could not use their zone")                    \
	GLOBAL(PGFREE, 16, "pgfree", "pages freed")                                                \
	GLOBAL(PGACTIVATE, 17, "pgactivate", "pages moved to an active list")                      \
	GLOBAL(PGDEACTIVATE, 18, "pgdeactivate", "pages moved to an inactive list")                \
	GLOBAL(PGFAULT, 19, "pgfault", "page faults")                                              \
	GLOBAL(PGMAJFAULT, 20, "pgmajfault", "page faults that read from swap or a file")          \
	GLOBAL(PGLAZYFREED, 21, "pglazyfreed", "lazily freed pages")                               \
	ZONED_SUM(PGREFILL, 22, "pgrefill", "active list pages scanned")                           \
	ZONED_SUM(PGSTEAL_KSWAPD, 26, "pgsteal_kswapd", "pages reclaimed by kswapd")               \
	ZONED_SUM(PGSTEAL_DIRECT, 30, "pgsteal_direct", "pages reclaimed by direct reclaim")       \
	ZONED_SUM(PGSCAN_KSWAPD, 34, "pgscan_kswapd", "inactive list pages scanned by kswapd")     \
	ZONED_SUM(PGSCAN_DIRECT, 38, "pgscan_direct",                                              \
		  "inactive list pages scanned by direct reclaim")                                 \
	GLOBAL(PGSCAN_DIRECT_THROTTLE, 42, "pgscan_direct_throttle",                               \
	       "direct reclaimers throttled")                                                      \
	GLOBAL(PGSCAN_ZONE_RECLAIM_FAILED, 43, "zone_reclaim_failed",                              \
	       "node_reclaim passes that failed")                                                  \
	GLOBAL(PGINODESTEAL, 44, "pginodesteal", "pages freed by inode reclaim")                   \
	GLOBAL(SLABS_SCANNED, 45, "slabs_scanned", "objects scanned by shrinkers")                 \
	GLOBAL(KSWAPD_INODESTEAL, 46, "kswapd_inodesteal", "pages freed by kswapd inode reclaim")  \
	GLOBAL(KSWAPD_LOW_WMARK_HIT_QUICKLY, 47, "kswapd_low_wmark_hit_quickly",                   \
	       "kswapd woken again within its short nap")                                          \
	GLOBAL(KSWAPD_HIGH_WMARK_HIT_QUICKLY, 48, "kswapd_high_wmark_hit_quickly",                 \
	       "kswapd found the node unbalanced when about to sleep")                             \
	GLOBAL(PAGEOUTRUN, 49, "pageoutrun", "kswapd balance passes")                              \
	GLOBAL(PGROTATED, 50, "pgrotated", "pages rotated to the inactive tail at writeback end")  \
	GLOBAL(DROP_PAGECACHE, 51, "drop_pagecache", "page cache drops requested")                 \
	GLOBAL(DROP_SLAB, 52, "drop_slab", "slab drops requested")                                 \
	GLOBAL(PGMIGRATE_SUCCESS, 72, "pgmigrate_success", "pages migrated")                       \
	GLOBAL(PGMIGRATE_FAIL, 73, "pgmigrate_fail", "page migrations refused: the page was busy") \
	GLOBAL(COMPACT_MIGRATE_SCANNED, 74, "compact_migrate_scanned",                             \
	       "pages the compaction migrate scanner looked at")                                   \
	GLOBAL(COMPACT_FREE_SCANNED, 75, "compact_free_scanned",                                   \
	       "pages the compaction free scanner looked at")                                      \
	GLOBAL(COMPACT_ISOLATED, 76, "compact_isolated", "free pages compaction took as targets")  \
	GLOBAL(COMPACT_STALL, 77, "compact_stall", "direct compaction entries")                    \
	GLOBAL(COMPACT_FAIL, 78, "compact_fail", "direct compactions that did not get the page")   \
	GLOBAL(COMPACT_SUCCESS, 79, "compact_success", "direct compactions that got the page")     \
	GLOBAL(COMPACT_DAEMON_WAKE, 80, "compact_daemon_wake", "kcompactd wakeups")                \
	GLOBAL(UNEVICTABLE_PGCULLED, 53, "unevictable_pgs_culled",                                 \
	       "pages moved to the unevictable list")                                              \
	GLOBAL(UNEVICTABLE_PGSCANNED, 54, "unevictable_pgs_scanned", "unevictable pages scanned")  \
	GLOBAL(UNEVICTABLE_PGRESCUED, 55, "unevictable_pgs_rescued", "pages made evictable again") \
	GLOBAL(UNEVICTABLE_PGMLOCKED, 56, "unevictable_pgs_mlocked", "pages mlocked")              \
	GLOBAL(UNEVICTABLE_PGMUNLOCKED, 57, "unevictable_pgs_munlocked", "pages munlocked")        \
	GLOBAL(UNEVICTABLE_PGCLEARED, 58, "unevictable_pgs_cleared", "mlocked pages freed")        \
	GLOBAL(UNEVICTABLE_PGSTRANDED, 59, "unevictable_pgs_stranded",                             \
	       "mlocked pages that could not be munlocked")                                        \
	GLOBAL(KSWAPD_WAKEUP, 60, "nlru_kswapd_wakeup", "wakeups of a sleeping or napping kswapd") \
	GLOBAL(DIRECT_RECLAIM, 61, "nlru_direct_reclaim",                                          \
	       "direct reclaim attempts by the allocator slow path")                               \
	GLOBAL(ALLOC_RETRY, 62, "nlru_alloc_retry", "slow path retries after reclaim")             \
	GLOBAL(ALLOC_FAIL, 63, "nlru_alloc_fail", "allocations that failed with -ENOMEM")          \
	GLOBAL(OOM_RECLAIM, 64, "nlru_oom_reclaim",                                                \
	       "last reclaim attempts where Linux would OOM-kill")                                 \
	GLOBAL(BAD_FREE, 65, "nlru_bad_free", "frees refused: double, foreign or wrong order")     \
	GLOBAL(PCP_DRAIN, 66, "nlru_pcp_drain", "per-CPU list drains")                             \
	GLOBAL(MEMBIND_FALLBACK, 67, "nlru_membind_fallback",                                      \
	       "node mappings left unbound because binding was refused")                           \
	GLOBAL(SWAP_WRITE_FAIL, 68, "nlru_swap_write_fail",                                        \
	       "swap-outs whose write failed; the page stayed resident")                           \
	GLOBAL(SWAP_FULL, 69, "nlru_swap_full", "anon pages kept because swap had no free slot")   \
	GLOBAL(SWAP_BAD_SLOT, 81, "nlru_swap_bad_slot",                                            \
	       "swap slots retired for good after a write to them failed with EIO")                \
	GLOBAL(MAP_SAMPLE, 70, "nlru_map_sample",                                                  \
	       "mapped pages unmapped by sampling to see whether they are touched again")          \
	GLOBAL(MAP_SAMPLE_HIT, 71, "nlru_map_sample_hit",                                          \
	       "touches of sampled mapped pages: faults that found them referenced")

#endif /* NODELRU_VMSTAT_ITEMS_H */
