/*
 * nodelru tunables: one X-macro table.  It generates the fields of struct nlru_config, their
 * defaults, their NLRU_<NAME> environment variables, the --set name=value flag of the tools,
 * range checks, and docs/tuning.md (nlru-tunables --markdown), so none of those drift apart.
 *
 * X(name, default, min, max, help).  Every value is a long.  New tunables go at the end.  Each
 * help starts with the tunable's Linux counterpart in [brackets] (or "none: why"), which
 * docs/tuning.md shows in a column of its own.
 */
#ifndef NODELRU_TUNABLES_H
#define NODELRU_TUNABLES_H

/*
 * The largest node and swap file, in MiB: 2^32 - 256 pages, since a node's page frame numbers
 * and a swap file's slots are 32-bit (with the top value reserved).
 */
#define NLRU_NODE_MIB_MAX ((1L << 24) - 1)
#define NLRU_SWAP_MIB_MAX ((1L << 24) - 1)

/* One tunable a line, however long its help. */
/* clang-format off */
#define NLRU_TUNABLES(X)                                                                           \
	X(node_mib, 64, 4, NLRU_NODE_MIB_MAX, "[a node's present memory; numa=fake= splits a machine into nodes] memory of each NUMA node, MiB (page numbers are 32-bit)")                              \
	X(dma_pct, 0, 0, 100, "[ZONE_DMA, the first 16 MiB on x86_64] share of node 0 in ZONE_DMA, percent (other nodes have none)")      \
	X(dma32_pct, 25, 0, 100, "[ZONE_DMA32, memory below 4 GiB on x86_64] share of node 0 in ZONE_DMA32, percent (other nodes have none)") \
	X(movable_pct, 0, 0, 100, "[kernelcore= and movablecore= boot parameters] share of every node in ZONE_MOVABLE, percent")                  \
	X(min_free_kbytes, 0, 0, 1L << 30, "[vm.min_free_kbytes] 0 computes it as Linux does at boot") \
	X(watermark_scale_factor, 10, 1, 1000, "[vm.watermark_scale_factor] low/high gap, 1/10000 of a zone") \
	X(lowmem_reserve_ratio_dma, 256, 1, 1L << 20, "[vm.lowmem_reserve_ratio, first value] reserve ratio for ZONE_DMA")      \
	X(lowmem_reserve_ratio_dma32, 256, 1, 1L << 20, "[vm.lowmem_reserve_ratio, second value] reserve ratio for ZONE_DMA32")  \
	X(lowmem_reserve_ratio_normal, 32, 1, 1L << 20, "[vm.lowmem_reserve_ratio, third value] reserve ratio for ZONE_NORMAL") \
	X(percpu_pagelist_fraction, 0, 0, 1L << 20, "[vm.percpu_pagelist_fraction] 0, or 8 and up (pcp high = managed/fraction)") \
	X(prefault, 0, 0, 1, "[none: a kernel's memory is always backed] touch every page at creation so first use does not fault")          \
	X(dirty_ratio, 20, 0, 100, "[vm.dirty_ratio] dirty pages a writer may leave, percent of dirtyable memory") \
	X(dirty_background_ratio, 10, 0, 100, "[vm.dirty_background_ratio] background writeback starts here, percent") \
	X(swap_mib, -1, -1, NLRU_SWAP_MIB_MAX, "[the swap device's size (mkswap, swapon)] swap file size, MiB (slot numbers are 32-bit); -1: twice the engine's memory, at most the largest swap file; 0: no swap") \
	X(swappiness, 60, 0, 100, "[vm.swappiness] reclaim's preference for anon (high) or file (low) pages") \
	X(kswapd, 1, 0, 1, "[none: kswapd always runs] run a kswapd thread per node; 0 leaves balancing to nlru_kswapd_run() and direct reclaim") \
	X(kswapd_nap_ms, 100, 1, 10000, "[HZ/10, kswapd_try_to_sleep()'s nap] kswapd's short nap before a full sleep, ms") \
	X(mode, 0, 0, 1, "[the kernel version: 4.8 or 4.7] reclaim mode: node (0, Linux 4.8 node-based LRU) or zone (1, Linux 4.7 zone-based LRU)") \
	X(flusher, 1, 0, 1, "[none: the writeback workers always run] run a flusher thread that writes dirty file pages in the background; 0 leaves writeback to nlru_flusher_run(), writers over the dirty limit, fsync, close and kswapd") \
	X(dirty_writeback_centisecs, 500, 0, 360000, "[vm.dirty_writeback_centisecs] how often the flusher wakes to write old dirty files, 1/100 s; 0: never") \
	X(dirty_expire_centisecs, 3000, 0, 360000, "[vm.dirty_expire_centisecs] dirty data older than this is written by the periodic wakeup, 1/100 s") \
	X(blkdev_mbs, 0, 0, 1L << 20, "[the disk's own speed] bandwidth of the block device model that swap, readahead and writeback share, MB/s; 0: no model, I/O runs at the speed of the files underneath") \
	X(blkdev_latency_us, 100, 0, 10000000, "[the disk's access time] added to every request of the block device model after its transfer, us") \
	X(blkdev_nr_requests, 128, 1, 65536, "[/sys/block/X/queue/nr_requests] requests of each direction the model's queue holds; a submitter finding none free waits, and writes are congested from 7/8 of them") \
	X(blkdev_max_kb, 512, 4, 65536, "[/sys/block/X/queue/max_sectors_kb] the largest request the model's queue makes by merging, KiB") \
	X(blkdev_direct, 0, 0, 1, "[none: a kernel's disk is always real] 1: the block device does the I/O of swap and files with O_DIRECT on the real disk, each request ending when its I/O does (blkdev_mbs and blkdev_latency_us unused); the swap file and every file opened must be on a disk file system, not tmpfs") \
	X(map_sample_pages, 64, 0, 65536, "[none: Linux reads PTE young bits through the rmap; NUMA hinting faults, task_numa_work(), unmap a bounded number of pages per pass] pages of each mapped region unmapped per pass to see whether they are touched again; 0: no access tracking") \
	X(map_sample_ms, 10, 1, 10000, "[none: task_numa_work() runs every numa_balancing_scan_period_min_ms] interval between two sampling passes of a mapped region, ms") \
	X(inactive_ratio_scale, 1, 1, 1L << 20, "[none: a machine's own size sets it] inactive_list_is_low() weighs the active/inactive balance as for LRU lists this many times larger: 1 is Linux's rule for the engine's size; 64 gives a 128 MiB engine the balance of an 8 GiB machine (int_sqrt(10 x GiB) inactive ratio)") \
	X(extfrag_threshold, 500, 0, 1000, "[vm.extfrag_threshold] compaction runs for a high-order request only if its failure would be from fragmentation: a fragmentation index (0: lack of memory .. 1000: fragmentation) above this; at or below it the zone is reclaimed instead") \
	X(compaction, 1, 0, 1, "[CONFIG_COMPACTION] 0: as a kernel built without compaction: the allocator's slow path never compacts (high orders get a block only from reclaim or what is free) and no kcompactd thread runs") \
	X(blkdev_seek_us, 0, 0, 1000000, "[a rotating disk's seek and rotational delay; 0 for an SSD] the block device model's one head: a request that does not begin where the previous one ended (another file, or another place in it) first keeps the device busy this long, us; a skip forward in the same file costs the skipped bytes' transfer time, at most this long")
/* clang-format on */

#endif /* NODELRU_TUNABLES_H */
