/*
 * nodelru - a userspace page reclaim engine modelled on Linux 4.8 node-based LRU reclaim.
 *
 * Conventions of this API:
 *  - Every fallible call returns 0 or a negative errno (-EINVAL, -ENOMEM, -EBUSY, ...), never
 *    sets errno as its way of reporting, and explains a refusal through the log callback of
 *    the engine the call is about.  Only a call given no engine, and no object of one, to
 *    log through (a NULL engine, region or file) returns -EINVAL without a word; so do the
 *    lock-free queries that say they log nothing.
 *  - Objects are opaque and come back through out-parameters, which are left untouched on
 *    failure.
 *  - The library never prints to stdout, never calls abort() or exit().
 *  - Unless a function says otherwise, it is thread-safe: any thread may call it at any time
 *    while the engine exists.  Creating and destroying an object must not race with other
 *    calls on that object.
 */
#ifndef NODELRU_NODELRU_H
#define NODELRU_NODELRU_H

#include <stddef.h>
#include <stdint.h>

#include <nodelru/tunables.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(NLRU_BUILDING_LIBRARY) && defined(__GNUC__)
#define NLRU_API __attribute__((visibility("default")))
#else
#define NLRU_API
#endif

#define NLRU_VERSION_MAJOR 0
#define NLRU_VERSION_MINOR 2
#define NLRU_VERSION_PATCH 0
#define NLRU_VERSION_NUM                                                                           \
	(NLRU_VERSION_MAJOR * 10000 + NLRU_VERSION_MINOR * 100 + NLRU_VERSION_PATCH)

/* The version of the library actually loaded, as NLRU_VERSION_NUM computes it. */
NLRU_API int nlru_version(void);

#define NLRU_PAGE_SHIFT 12
#define NLRU_PAGE_SIZE (1ul << NLRU_PAGE_SHIFT)
#define NLRU_MAX_ORDER 11 /* orders 0 .. NLRU_MAX_ORDER - 1, as Linux's MAX_ORDER */
#define NLRU_MAX_NUMNODES 64
#define NLRU_NUMA_NO_NODE (-1)

/* Zone types, in Linux's x86_64 order (ZONE_DMA, ZONE_DMA32, ZONE_NORMAL, ZONE_MOVABLE). */
enum nlru_zone_type {
	NLRU_ZONE_DMA,
	NLRU_ZONE_DMA32,
	NLRU_ZONE_NORMAL,
	NLRU_ZONE_MOVABLE,
	NLRU_MAX_NR_ZONES
};

/*
 * Allocation flags, the engine's gfp_t, named as Linux names them without its underscores:
 * NLRU_GFP_X is Linux's GFP_X where Linux has that combination (NLRU_GFP_KERNEL, ...), and its
 * __GFP_X bit otherwise (NLRU_GFP_IO, ...); the one bit whose name Linux also gives a
 * combination is NLRU__GFP_ATOMIC (__GFP_ATOMIC), NLRU_GFP_ATOMIC being GFP_ATOMIC.
 * Zone modifiers choose the highest zone an allocation
 * may use exactly as gfp_zone() does on x86_64: none -> Normal, DMA32 -> DMA32, DMA -> DMA,
 * HIGHMEM|MOVABLE -> Movable, MOVABLE or HIGHMEM alone -> Normal; DMA|DMA32, DMA|HIGHMEM and
 * DMA32|HIGHMEM are invalid.
 */
#define NLRU_GFP_DMA (1u << 0)
#define NLRU_GFP_HIGHMEM (1u << 1)
#define NLRU_GFP_DMA32 (1u << 2)
/*
 * NLRU_GFP_MOVABLE is also the migrate type: the page goes among movable pages (a page of
 * nlru_alloc_pages() is still never moved, see there).
 */
#define NLRU_GFP_MOVABLE (1u << 3)
#define NLRU_GFP_HIGH (1u << 5)            /* may use part of the min reserve (ALLOC_HIGH) */
#define NLRU_GFP_IO (1u << 6)              /* reclaim may start I/O */
#define NLRU_GFP_FS (1u << 7)              /* reclaim may write files */
#define NLRU__GFP_ATOMIC (1u << 9)         /* cannot sleep; may dip deeper (ALLOC_HARDER) */
#define NLRU_GFP_DIRECT_RECLAIM (1u << 10) /* may reclaim in the calling thread */
#define NLRU_GFP_KSWAPD_RECLAIM (1u << 11) /* may wake kswapd */
#define NLRU_GFP_NORETRY (1u << 12)        /* give up after one reclaim attempt */
#define NLRU_GFP_NOWARN (1u << 13)         /* fail without the allocation failure report */
#define NLRU_GFP_THISNODE (1u << 18)       /* the requested node only, no fallback */
#define NLRU_GFP_HARDWALL (1u << 20)
#define NLRU_GFP_ZERO (1u << 21) /* return zeroed memory */
/* Charge to nr_slab_reclaimable (a shrinkable cache); the page goes among reclaimable pages. */
#define NLRU_GFP_SLAB_RECLAIMABLE (1u << 22)
#define NLRU_GFP_SLAB_UNRECLAIMABLE (1u << 23) /* charge to nr_slab_unreclaimable */
/*
 * Linux's __GFP_WRITE: a page cache page about to be dirtied.  The fast path passes over nodes
 * (node mode) or zones (zone mode) holding more than their share of the dirty limit.
 */
#define NLRU_GFP_WRITE (1u << 24)

#define NLRU_GFP_RECLAIM (NLRU_GFP_DIRECT_RECLAIM | NLRU_GFP_KSWAPD_RECLAIM)
#define NLRU_GFP_KERNEL (NLRU_GFP_RECLAIM | NLRU_GFP_IO | NLRU_GFP_FS)
#define NLRU_GFP_NOFS (NLRU_GFP_RECLAIM | NLRU_GFP_IO)
#define NLRU_GFP_NOIO (NLRU_GFP_RECLAIM)
#define NLRU_GFP_NOWAIT (NLRU_GFP_KSWAPD_RECLAIM)
/* GFP_ATOMIC: never sleeps or reclaims here, wakes kswapd, may dip deepest into the reserves. */
#define NLRU_GFP_ATOMIC (NLRU_GFP_HIGH | NLRU__GFP_ATOMIC | NLRU_GFP_KSWAPD_RECLAIM)
#define NLRU_GFP_USER (NLRU_GFP_KERNEL | NLRU_GFP_HARDWALL)
#define NLRU_GFP_HIGHUSER_MOVABLE (NLRU_GFP_USER | NLRU_GFP_HIGHMEM | NLRU_GFP_MOVABLE)

/*
 * Version 0.1's name for NLRU_GFP_ATOMIC, deprecated (the compiler says so where it is used)
 * and removed in the release after 0.2.  Version 0.1's NLRU_GFP_ATOMIC was the bit alone,
 * now NLRU__GFP_ATOMIC: programs built against 0.1 pass the same values as before and get
 * the same behaviour.
 */
enum {
	nlru_deprecated_gfp_atomic_flags
	__attribute__((deprecated("NLRU_GFP_ATOMIC_FLAGS is now NLRU_GFP_ATOMIC"))) =
		NLRU_GFP_ATOMIC
};
#define NLRU_GFP_ATOMIC_FLAGS nlru_deprecated_gfp_atomic_flags

/*
 * Reclaim modes, the value of the "mode" tunable (NLRU_MODE=node|zone).  Node mode is Linux 4.8:
 * LRU lists per node, no fair zone allocation policy, kswapd done once any eligible zone is
 * balanced.  Zone mode is Linux 4.7: LRU lists per zone, the fair zone allocation policy, and
 * kswapd balancing every zone up to the highest unbalanced one.  Both run in one process.
 */
enum nlru_mode { NLRU_MODE_NODE = 0, NLRU_MODE_ZONE = 1 };

/* Severity of a message to the log callback, from the most severe. */
enum nlru_log_level { NLRU_LOG_ERROR, NLRU_LOG_WARN, NLRU_LOG_INFO, NLRU_LOG_DEBUG };

/*
 * Receives every diagnostic of the library.  Called from any thread, possibly while the
 * engine holds internal locks: it must return promptly and must not call into the engine.
 */
typedef void (*nlru_log_fn)(void *arg, enum nlru_log_level level, const char *msg);

/*
 * nlru_engine_log - hand a message to the engine's log callback (cfg.log), formatted as
 * printf() does and cut at 511 bytes, so that libraries built on the engine report where it
 * reports.  Nothing happens without a callback or with a NULL @eng.  Thread-safe.
 */
struct nlru_engine;
NLRU_API void nlru_engine_log(struct nlru_engine *eng, enum nlru_log_level level, const char *fmt,
			      ...) __attribute__((format(printf, 3, 4)));

/* Returns monotonic time in nanoseconds.  Tests replace it to drive time by hand. */
typedef uint64_t (*nlru_clock_fn)(void *arg);

#define NLRU_CONFIG_VERSION 1

/*
 * Engine configuration.  Fill it with nlru_config_init(), change what you need, pass it to
 * nlru_engine_create().  The struct grows at its end.  The library reads only cfg->size bytes,
 * so a program built against an older, shorter struct keeps working: fields past its size take
 * their defaults.  The size must end where a member ends; one that cuts a member in two is
 * refused with -EINVAL, and so is a struct the library does not know (-EINVAL, logged): larger
 * than its own, or with a version of 0 or above NLRU_CONFIG_VERSION (a program built against a
 * newer nodelru, or a struct never passed through nlru_config_init()).
 */
struct nlru_config {
	size_t size;      /* sizeof(struct nlru_config) as the caller compiled it */
	uint32_t version; /* NLRU_CONFIG_VERSION */
	/*
	 * NULL or "": the machine's real NUMA topology.  Otherwise an hwloc synthetic description
	 * ("pack:2 numa:1 core:1 pu:1"), or the path of an hwloc XML file (which may carry
	 * distances).  Environment default: NLRU_TOPOLOGY.
	 */
	const char *topology;
	nlru_log_fn log; /* NULL: diagnostics are dropped */
	void *log_arg;
	nlru_clock_fn clock; /* NULL: CLOCK_MONOTONIC; times kswapd's nap and dirty expiry */
	void *clock_arg;
	/*
	 * The swap file: NULL for a private file in $TMPDIR (or /tmp), removed as soon as it is
	 * open; otherwise this path, created if needed and left in place.  Environment default:
	 * NLRU_SWAP_PATH.
	 */
	const char *swap_path;
	/* The tunables of tunables.h, one long each. */
#define NLRU_X_(name, def, min, max, help) long name;
	NLRU_TUNABLES(NLRU_X_)
#undef NLRU_X_
};

/*
 * nlru_config_init - fill @cfg with the defaults, cfg->size and cfg->version included, then
 * apply NLRU_<NAME> environment variables (NLRU_NODE_MIB, ..., and NLRU_TOPOLOGY,
 * NLRU_SWAP_PATH), whose values read as nlru_config_set() reads them.  An environment value
 * that does not parse or is out of range is ignored here, where there is no log to say so;
 * nlru_engine_create() then logs a warning naming it.  Returns 0, or -EINVAL if @cfg is NULL.
 */
NLRU_API int nlru_config_init(struct nlru_config *cfg);

/*
 * nlru_config_set - set the tunable called @name (see tunables.h) from the text @value, as the
 * tools' --set name=value does: decimal ("010" is ten), hexadecimal after "0x", with an
 * optional minus sign and nothing around it (" 5", "+5" and "5\n" are refused), or a word
 * some tunables take ("node" and "zone" for mode).
 * "topology" and "swap_path" are accepted too and keep the @value pointer, which must stay
 * valid until nlru_engine_create() returns.  Returns 0; -ENOENT for an unknown name, -EINVAL
 * for a value that does not parse, is out of range, or is one the tunable does not take
 * although its range has it (percpu_pagelist_fraction 1 to 7), each with a message through
 * cfg->log.  A value it takes is one nlru_engine_create() takes.
 */
NLRU_API int nlru_config_set(struct nlru_config *cfg, const char *name, const char *value);

/*
 * nlru_tunable_get - the value of tunable @name (see tunables.h) in force on @eng: the one it
 * was created with, or the last nlru_tunable_set() gave (min_free_kbytes 0 means "computed":
 * nlru_min_free_kbytes() says how much).  Returns 0; -ENOENT (logged) for an unknown name;
 * -EINVAL for a NULL argument.  Thread-safe.
 */
NLRU_API int nlru_tunable_get(const struct nlru_engine *eng, const char *name, long *value);

/*
 * nlru_tunable_set - change tunable @name of a live engine, with the effect writing its
 * /proc/sys/vm file has in Linux 4.8: min_free_kbytes and watermark_scale_factor recompute
 * every zone's watermarks and the reserves the dirty limits leave out
 * (setup_per_zone_wmarks()); the lowmem_reserve_ratio_* tunables every zone's lowmem reserve
 * (its "protection") and those reserves (setup_per_zone_lowmem_reserve());
 * percpu_pagelist_fraction gives every per-CPU list its new high and batch, draining it
 * first; swappiness, dirty_ratio, dirty_background_ratio, dirty_writeback_centisecs,
 * dirty_expire_centisecs, kswapd_nap_ms and extfrag_threshold are read where they are used,
 * so the next reclaim pass, writer, flusher wakeup, kswapd nap or compaction check follows
 * them (the flusher's current sleep, as in 4.8, ends at the interval it began with).
 * Returns 0; -ENOENT for an unknown name, -EINVAL for a value the tunable does not take,
 * -EPERM for a tunable fixed at creation (the engine's size and zones, topology,
 * prefaulting, mode, threads, swap, device model, the mapped regions' access sampling,
 * compaction on or off, and inactive_ratio_scale), each logged; -ENOMEM when a per-CPU list
 * could not be resized (those done keep their new size).  Thread-safe.
 */
NLRU_API int nlru_tunable_set(struct nlru_engine *eng, const char *name, long value);

/* Description of one tunable, for tools and documentation. */
struct nlru_tunable_info {
	const char *name; /* field name in struct nlru_config and the --set name */
	char env[64];     /* environment variable: NLRU_ and the name in capitals */
	long def, min, max;
	const char *help;
};

/*
 * nlru_tunable_info - name, environment variable, default, range and help of the @index-th
 * tunable of tunables.h.  Returns 0; -ENOENT past the last one; -EINVAL for a NULL @info.
 */
NLRU_API int nlru_tunable_info(unsigned int index, struct nlru_tunable_info *info);

struct nlru_engine;

/*
 * nlru_engine_create - build an engine: discover (or emulate) the NUMA topology, map each
 * node's memory (bound with mbind() on real nodes), lay out zones, compute watermarks, set up
 * the per-CPU lists, free every page to the buddy allocator, open the swap file, and start a
 * kswapd thread per node and the flusher thread (unless the kswapd and flusher tunables are 0).
 * Errors (each logged): -EINVAL for a bad config (a size or version this library does not know,
 * unparsable topology, zone layout that does not add up, a node smaller than its minimum,
 * out-of-range tunable), -ENOMEM when memory cannot be mapped, and the system's -errno when the
 * swap file cannot be created, opened or sized (-ENOENT for a swap_path in a missing
 * directory, -ENOSPC when its disk has no room for it: its blocks are reserved at creation);
 * with blkdev_direct, -EINVAL for a swap file on tmpfs or ramfs, or on a file
 * system that refuses O_DIRECT.
 */
NLRU_API int nlru_engine_create(const struct nlru_config *cfg, struct nlru_engine **out);

/*
 * nlru_engine_create_on - nlru_engine_create() on memory the caller hands over, as jemalloc's
 * extent hooks and mimalloc's mi_manage_os_memory() take a host's memory: @node_mem[nid] is
 * node nid's page memory, cfg->node_mib MiB of it, for each of the @nr_nodes nodes of the
 * engine's topology (cfg->topology, or the machine's; nlru_engine_nr_nodes() of an engine of
 * the same config tells how many).  Each mapping must be page-aligned (4 MiB-aligned for
 * high-order blocks to be aligned in the address space; otherwise an info message says so),
 * apart from the others, and mapped in full; the engine makes it readable and writable
 * (mprotect()), binds it to its node when the node is real and prefaults it when asked, as
 * it does its own.  The page descriptors are still the engine's.  The memory is never
 * unmapped: after nlru_engine_destroy() it is the caller's again, its contents undefined.
 * Errors as nlru_engine_create(), and: -EINVAL (logged) for a NULL @node_mem, a count that
 * is not the topology's, a NULL, unaligned or overlapping mapping; -EFAULT (logged) when
 * part of a mapping is not mapped; the errno of mprotect() when it may not be made writable.
 */
NLRU_API int nlru_engine_create_on(const struct nlru_config *cfg, void *const *node_mem,
				   size_t nr_nodes, struct nlru_engine **out);

/*
 * nlru_engine_destroy - stop the engine's threads, drain the per-CPU lists and unmap all memory.
 * Files left open are flushed and closed first: -EIO if one cannot be written back, -EBUSY if
 * one has pinned pages.
 * Returns -EBUSY (logged), and leaves the engine fully usable, while regions exist or pages are
 * still allocated (an arena of libnodelru-jemalloc holds pages).
 * Shrinkers still registered are freed with the engine (a warning is logged): like pointers
 * after free(), their handles are then invalid, and nlru_shrinker_unregister() on one is a
 * use-after-free.  Unregister shrinkers first.
 * NULL is accepted and returns 0.  No other call on @eng may run concurrently or follow.
 */
NLRU_API int nlru_engine_destroy(struct nlru_engine *eng);

/*
 * The reclaim mode the engine runs in: NLRU_MODE_NODE (Linux 4.8; also the answer for a NULL
 * @eng) or NLRU_MODE_ZONE (Linux 4.7).
 */
NLRU_API enum nlru_mode nlru_engine_mode(const struct nlru_engine *eng);

/* Number of NUMA nodes of the engine (node ids are 0 .. n-1); -EINVAL for a NULL @eng. */
NLRU_API int nlru_engine_nr_nodes(const struct nlru_engine *eng);

/* SLIT-style distance between two nodes (10 = local); -EINVAL on a bad id or a NULL @eng. */
NLRU_API int nlru_node_distance(const struct nlru_engine *eng, int from, int to);

/*
 * nlru_alloc_pages - allocate 2^@order contiguous pages, aligned to their size within their
 * zone.
 * @nid: the preferred node, or NLRU_NUMA_NO_NODE for the calling CPU's node.  Other nodes are
 * used in distance order when it runs low, unless NLRU_GFP_THISNODE is given.
 * Blocking: with NLRU_GFP_DIRECT_RECLAIM the call may reclaim in this thread; it never waits
 * without bound (at most 256 rounds of the slow path).  Without it, it never reclaims and may
 * use part of the reserves.
 * Returns 0 and the address in *@addr; -EINVAL (logged) for order >= NLRU_MAX_ORDER, unknown
 * or contradictory flags, or a bad node; -ENOMEM when no memory could be found: after
 * reclaim failed, where Linux would call the OOM killer.  Pages are grouped by mobility in
 * 2 MiB pageblocks, as Linux does: NLRU_GFP_MOVABLE asks for a movable page,
 * NLRU_GFP_SLAB_RECLAIMABLE a reclaimable one, anything else an unmovable one (both flags at
 * once are refused).  A page of this call is never migrated, whatever its type: the engine
 * cannot know where the caller keeps its address, so NLRU_GFP_MOVABLE only places it among
 * movable pages, and should be given only for pages held briefly.  A high-order request can
 * still fail while enough pages are free in total.  A failure is reported at NLRU_LOG_WARN as
 * Linux's warn_alloc() reports it (the flags decoded, what reclaim and the retries did, each
 * usable node's and zone's free pages, watermarks and free blocks), unless @gfp has
 * NLRU_GFP_NOWARN, and at most 10 reports in 5 s per engine (the next one's first message ends
 * with how many were held back; nlru_alloc_fail counts them all).  A report is several
 * messages, as Linux's is several lines: the first, "alloc: page allocation failure: ...", says
 * what was asked; a log callback that keeps one message per failure should keep that one, not
 * the last (the swap line).  Reports of threads that fail at the same moment may interleave.  A
 * request that no zone of the engine can ever serve (its zones have no memory, as NLRU_GFP_DMA
 * with dma_pct 0, or none has room for a block of @order) is refused at once with -ENOMEM,
 * without reclaim, and logged at NLRU_LOG_ERROR whatever the flags.
 */
NLRU_API int nlru_alloc_pages(struct nlru_engine *eng, unsigned int gfp, unsigned int order,
			      int nid, void **addr);

/*
 * nlru_free_pages - give back what nlru_alloc_pages() returned, with the same order.
 * Returns 0; -EINVAL (logged, counted in nlru_bad_free), with the free lists untouched, for an
 * address the engine does not own, a page that is not allocated (double free), the inside of
 * a block, the wrong order, or a page of a region or a file (an address a pin handed out);
 * -EBUSY for a page someone still holds a reference to.  Every refusal is counted, and the
 * refusals of all the free calls together are logged at most 10 times every 5 seconds (Linux
 * rate-limits bad_page() reports too), a message after a quiet spell saying how many were
 * not.
 */
NLRU_API int nlru_free_pages(struct nlru_engine *eng, void *addr, unsigned int order);

/*
 * nlru_alloc_pages_bulk - fill the NULL entries of @pages[0 .. @nr) with order-0 pages (Linux
 * 5.13's alloc_pages_bulk_array()); entries already set are left alone.  @gfp and @nid as
 * nlru_alloc_pages().  The pages come from the first zone whose low watermark holds with all
 * of them gone: what this CPU's list of it holds, taken without a lock, then the rest with
 * the list locked once; when that gives none (a zone short of memory), one page comes the
 * way nlru_alloc_pages() gets it, reclaiming if @gfp allows.  One or two NULL entries are
 * filled one at a time as nlru_alloc_pages() fills them, cheaper than a batch, until one
 * cannot be had.  So fewer than asked is normal under pressure: call again for the rest.
 * A zone batches only while its free pages, less the entries still to fill, stay above its
 * low watermark and lowmem reserve; zones are tried in zonelist order, and when none holds
 * the call gets one page, as in Linux.  So near the watermark a smaller batch keeps its
 * batching longer, and a large one gets one page a call.
 * In zone mode, whose fair policy charges every page to a zone's batch, and for
 * NLRU_GFP_WRITE, placed by the dirty limits, the pages come one at a time until one cannot
 * be had.
 * Returns the number of non-NULL entries now (those filled and those that were), or
 * -EINVAL (logged) for a NULL @pages with @nr > 0, more than INT_MAX entries, or what
 * nlru_alloc_pages() refuses.  Thread-safe.
 */
NLRU_API int nlru_alloc_pages_bulk(struct nlru_engine *eng, unsigned int gfp, int nid, size_t nr,
				   void **pages);

/*
 * nlru_free_pages_bulk - free every non-NULL entry of @pages[0 .. @nr), each an order-0 page
 * of nlru_alloc_pages() or nlru_alloc_pages_bulk() (Linux's release_pages()): pushed onto this
 * CPU's lists, a run of pages of one zone and type at a time; an array of one or two
 * entries, cheaper freed page by page, as nlru_free_pages() frees each.  Each entry freed is
 * set to NULL, so the array is ready for the next nlru_alloc_pages_bulk(); an entry
 * refused keeps its value.  Returns 0, or the error of the first entry refused (each refused
 * and logged as nlru_free_pages() refuses it), the others freed all the same.  Thread-safe.
 */
NLRU_API int nlru_free_pages_bulk(struct nlru_engine *eng, void **pages, size_t nr);

/*
 * nlru_drain_pages - return every per-CPU list's pages to the buddy allocator (drain_all_pages).
 * Returns 0, or -EINVAL for a NULL @eng.
 */
NLRU_API int nlru_drain_pages(struct nlru_engine *eng);

/*
 * nlru_alloc_pages_exact - allocate @size bytes rounded up to whole pages, aligned to @align
 * (0 or a power of two up to the largest block; 0 means a page), as Linux's alloc_pages_exact():
 * the next block up is split and what lies outside the run is freed at once.  Each page of the
 * run is then allocated on its own, so nlru_free_pages_exact() may free the run whole or any
 * page-aligned part of it, in any order.  @gfp and @nid as nlru_alloc_pages() (NLRU_GFP_SLAB_*
 * charges only the pages kept; NLRU_GFP_ZERO zeroes only them).
 * Returns 0 and the address in *@addr; -EINVAL (logged) for a size of 0 or above the largest
 * block (NLRU_PAGE_SIZE << (NLRU_MAX_ORDER - 1), 4 MiB), a bad alignment, or what
 * nlru_alloc_pages() refuses; -ENOMEM when no block could be had, or when the run and its
 * alignment together need more than the largest block where memory happens to lie.
 * Thread-safe; may reclaim in the calling thread as nlru_alloc_pages() does.
 */
NLRU_API int nlru_alloc_pages_exact(struct nlru_engine *eng, unsigned int gfp, size_t size,
				    size_t align, int nid, void **addr);

/*
 * nlru_free_pages_exact - free the pages of [@addr, @addr + @size rounded up to pages): all of
 * a run nlru_alloc_pages_exact() returned, or any page-aligned part of one, or order-0 pages
 * of nlru_alloc_pages().  Every page is checked before any is freed: -EINVAL (counted in
 * nlru_bad_free, logged within the limit nlru_free_pages() names, nothing freed) for an address
 * that is not the start of an engine page, a range that leaves the engine's memory or one
 * node's, a page that is not allocated (double free), heads a higher-order block, or belongs
 * to a region or file.  Each page is claimed
 * with one atomic exchange: of two frees of the same pages racing, exactly one succeeds.
 * Thread-safe; never blocks.
 */
NLRU_API int nlru_free_pages_exact(struct nlru_engine *eng, void *addr, size_t size);

/*
 * nlru_page_head - the block of nlru_alloc_pages() (or page of nlru_alloc_pages_exact()) that
 * @addr, any address inside it, lies in: its first address in *@head and its order in
 * *@order (Linux's virt_to_head_page() and compound_order()).  At most NLRU_MAX_ORDER page
 * descriptors are read; no lock is taken, so the caller must hold the block.  Returns 0;
 * -EINVAL (logged) for an address outside the engine, in no allocated block, or in a page
 * of a region or a file, or a NULL @head or @order.
 */
NLRU_API int nlru_page_head(struct nlru_engine *eng, const void *addr, void **head,
			    unsigned int *order);

/*
 * nlru_page_set_private, nlru_page_private - store and read a word of the caller's in the
 * descriptor of the block @addr lies in (any address inside it), as a slab allocator keeps
 * its slab in page->private: a free(ptr) then finds its slab from the pointer alone.  The
 * word starts at 0 when the block is allocated and is forgotten when it is freed; the
 * descriptor does not grow.  No lock is taken: the block's holder sets and reads it.
 * Returns 0; -EINVAL (logged) as nlru_page_head() does, or for a NULL @word.
 */
NLRU_API int nlru_page_set_private(struct nlru_engine *eng, const void *addr, uint64_t word);
NLRU_API int nlru_page_private(struct nlru_engine *eng, const void *addr, uint64_t *word);

/*
 * nlru_addr_node - the node whose memory holds all of [@addr, @addr + @len), or -EINVAL if any
 * of it is not engine memory (or @len is 0).  A lock-free query; logs nothing.
 */
NLRU_API int nlru_addr_node(const struct nlru_engine *eng, const void *addr, size_t len);

/*
 * nlru_current_node - the node of the CPU the calling thread runs on, in @eng's topology
 * (Linux's numa_node_id()): the node an allocation with NLRU_NUMA_NO_NODE prefers.  A
 * NUMA-aware cache asks it to pick its per-node list; the answer may be stale as soon as the
 * thread migrates, as in Linux.  A table lookup after the CPU number (cached per thread, a
 * few ns): cheap enough for an allocation fast path.  Returns a node number below
 * nlru_engine_nr_nodes(), or -EINVAL (not logged) for a NULL @eng.  Never blocks.
 */
NLRU_API int nlru_current_node(const struct nlru_engine *eng);

/*
 * nlru_in_engine_thread - 1 when the calling thread is one of an engine's own threads
 * (kswapd, kcompactd, the flusher, the block device's thread, a mapped region's fault
 * threads; Linux's PF_KTHREAD), else 0.  Reclaim in those threads allocates memory of its
 * own (I/O requests, buffers): an allocator that serves a program from engine memory, where
 * a touch may wait for a fault thread, serves these threads from elsewhere so that none waits
 * on itself.  One thread-local load; never blocks.
 */
NLRU_API int nlru_in_engine_thread(void);

/*
 * Anonymous regions: the engine's vma and page table.  A region is a range of virtual pages
 * of one owner; each page is resident in engine memory, swapped out to the swap file, or not
 * yet touched.  Pin a page to use its memory; the engine reclaims unpinned pages under
 * pressure (swapping them out) and brings them back, intact, on the next pin.
 */
struct nlru_region;

#define NLRU_PIN_WRITE (1u << 0) /* the caller will write: the page is dirty */

/*
 * nlru_region_create - a region of @pages pages whose memory comes preferably from node @nid
 * (NLRU_NUMA_NO_NODE: the node of the CPU that first touches each page).  No memory is used
 * until pages are pinned.  -EINVAL for 0 pages, more than 2^32 - 1 pages or a bad node,
 * -ENOMEM.
 */
NLRU_API int nlru_region_create(struct nlru_engine *eng, size_t pages, int nid,
				struct nlru_region **out);

/*
 * nlru_region_create_mapped - a region of @pages pages that the program uses with ordinary
 * loads and stores, at *@addr (page-aligned, @pages pages long, fixed for the region's life),
 * instead of through pins.  A page's first touch, and a touch of a page reclaim swapped out,
 * stops the touching thread until one of the region's @fault_threads threads (0: one; at most
 * 64) has brought it in through userfaultfd(2): an engine page is allocated for it, which may
 * reclaim, then it is zero-filled or read back from swap (pgfault, pgmajfault, pswpin).  Its
 * data lives at its address in the range; the engine page accounts for it, on the LRU lists
 * as any region page, so resident pages of mapped regions count against the engine's memory
 * like everything else.  Reclaim writes a page to swap from that address (write-protected
 * meanwhile: a write waits for the write's end) and then drops it from the range
 * (MADV_DONTNEED).  Pages reclaim found unreferenced are sampled (the map_sample_pages and
 * map_sample_ms tunables, Linux 6.8's UFFDIO_MOVE): moved out of the range so that their
 * next touch faults and marks them referenced.  Pins, marks and discards work as on any
 * region; a pin returns the page's address in the range.
 *
 * The program must not unmap, remap or MADV_DONTNEED the range (nlru_region_discard() drops a
 * page; a page the program dropped anyway reads as zeroes), and a child process made by
 * fork() has no copy of it (MADV_DONTFORK).  Signal handlers may touch the range: the fault
 * threads block every signal.  nlru_region_destroy() unmaps it: no thread may touch it after.
 *
 * Returns 0; -EINVAL for a bad size, node or thread count; -EPERM when userfaultfd is not
 * permitted (vm.unprivileged_userfaultfd is 0 and the process lacks CAP_SYS_PTRACE and access
 * to /dev/userfaultfd, or a seccomp filter forbids it); -ENOSYS when the kernel has no
 * userfaultfd; -EOPNOTSUPP when it lacks write-protect faults on anonymous memory (Linux 5.7)
 * or its page size is not the engine's; -ENOMEM.  Each refusal is logged with its reason.
 */
NLRU_API int nlru_region_create_mapped(struct nlru_engine *eng, size_t pages, int nid,
				       unsigned int fault_threads, void **addr,
				       struct nlru_region **out);

/*
 * nlru_region_destroy - free every page and swap slot of the region.  -EBUSY, with nothing
 * freed, while any page is pinned.  May wait for a reclaim pass in progress to finish.  As
 * with free(), no other call on the region may run meanwhile or follow (a pin still faulting
 * its page in is not yet counted as pinned).
 */
NLRU_API int nlru_region_destroy(struct nlru_region *region);

/*
 * nlru_region_pin - make page @index resident and return its address; it stays resident and
 * at that address until the matching nlru_region_unpin().  Pins nest: a page pinned twice
 * needs two unpins.  Faults it in as needed: zero-filled on first touch (pgfault), read back
 * from swap otherwise (pgmajfault, pswpin).  Counts as an access; NLRU_PIN_WRITE in @flags
 * also marks the page dirty.  May reclaim in the calling thread, and wait for the page's swap
 * write to finish; never waits without bound.  Any thread may pin any page.
 * Returns 0; -EINVAL for a bad index or flags; -ENOMEM when no page can be found, even after
 * reclaim; -EIO when reading the swap file failed (the data stays in swap and a later pin
 * retries).  Refusals are logged; -ENOMEM (the failed allocation's report) and -EIO, which
 * may repeat as fast as a program retries, at most 10 times every 5 seconds each (Linux's
 * printk_ratelimited()).
 */
NLRU_API int nlru_region_pin(struct nlru_region *region, size_t index, unsigned int flags,
			     void **addr);

/* Drop one pin of page @index.  -EINVAL if the page is not pinned. */
NLRU_API int nlru_region_unpin(struct nlru_region *region, size_t index);

/*
 * nlru_region_discard - drop page @index's contents (MADV_DONTNEED): its memory or swap slot
 * is freed and the next pin sees zeroes.  -EBUSY while it is pinned.  Waits for a reclaim
 * pass in progress to finish.
 */
NLRU_API int nlru_region_discard(struct nlru_region *region, size_t index);

/*
 * The page was used (a young PTE bit, for reclaim's reference checks) or written (dirty).
 * -ENOENT when the page is not resident, -EINVAL for a bad index.
 */
NLRU_API int nlru_region_mark_accessed(struct nlru_region *region, size_t index);
NLRU_API int nlru_region_mark_dirty(struct nlru_region *region, size_t index);

/*
 * nlru_kswapd_run - run one kswapd balance pass (balance_pgdat, by the rules of the engine's
 * mode) for node @nid in the calling thread, for the request wakeups left pending (or order 0
 * up to the node's highest zone).
 * With the kswapd tunable at 0 this is the only background reclaim, which makes tests and
 * simulations deterministic; the pass then counts as kswapd awake (the zones' per-CPU stat
 * thresholds are the pressure ones while it runs).  -EINVAL for a NULL @eng, or a bad node
 * (logged).
 */
NLRU_API int nlru_kswapd_run(struct nlru_engine *eng, int nid);

/*
 * nlru_flusher_run - one pass of the flusher in the calling thread: write back dirty file
 * pages while the engine is over its dirty background threshold, then the files that have
 * been dirty for longer than dirty_expire_centisecs (by the engine's clock); each part writes
 * at most the pages that were dirty when it started, so the call ends.  Returns the
 * pages written, or -EINVAL for a NULL engine.  Write errors stay with their files, for
 * nlru_file_fsync() to report.  With the flusher tunable at 0 this is the only background
 * writeback; safe to call alongside the thread too.
 */
NLRU_API long nlru_flusher_run(struct nlru_engine *eng);

/*
 * Files through the engine's page cache (Linux's address_space).  Reads and writes go through
 * engine pages on the file LRU lists; dirty pages are written back by the flusher thread (over
 * the background threshold, when reclaim asks, and once older than dirty_expire_centisecs),
 * by nlru_file_flush(), nlru_file_fsync(), nlru_file_close(), and by kswapd under pressure.  One
 * thread at a time per file for close; reads and writes may be concurrent.
 */
struct nlru_file;

/*
 * nlru_file_open - open (or create, with O_CREAT in @flags) the real file at @path for
 * caching on node @nid (NLRU_NUMA_NO_NODE: the caller's).  @flags: O_RDONLY, O_WRONLY or
 * O_RDWR, with O_CREAT, O_TRUNC, O_EXCL, O_CLOEXEC as open(2); -EINVAL for any other flag
 * (O_APPEND, O_DIRECT, O_SYNC, ...), which the cache could not honour, before anything is
 * opened or created.  Regular files only (-EINVAL otherwise).  An engine has a file open
 * once: -EBUSY, before O_TRUNC could cut it, if it is open already under any name (share
 * that handle, which is thread-safe).  With blkdev_direct, a file on tmpfs or ramfs is refused
 * (-EINVAL, logged) before anything is opened or created, and so is one whose file system
 * refuses O_DIRECT, once it is open.  -errno from open(2), -EISDIR, -EINVAL, -EBUSY, -ENOMEM.
 */
NLRU_API int nlru_file_open(struct nlru_engine *eng, const char *path, int flags, unsigned int mode,
			    int nid, struct nlru_file **out);

/*
 * pread(2) / pwrite(2) through the cache: any offset and length.  Return the bytes moved
 * (short at end of file for reads, and none from 16 TiB on), or -errno: -ENOMEM when no page
 * could be had, -EIO when reading the file failed, -EBADF reading a file opened write-only or
 * writing one opened read-only, -EFBIG writing at or past the largest file the file system
 * allows (its s_maxbytes: 2^44 - 4096 on ext4), or 16 TiB, the largest the cache holds (page
 * offsets are 32-bit): a write that would end past that limit is cut short there, as
 * generic_write_checks() cuts it; -EINVAL.
 * May reclaim in the calling thread.  A writer over the dirty limit pauses until the flusher
 * brings the engine back under it (with no flusher, it writes back pages of its file itself).
 * While the file's writeback fails (a full disk: -ENOSPC; a failing one: -EIO) and the file
 * holds more than half the dirty limit, a write returns short, then that error, and
 * dirties nothing more until a write of the file's pages succeeds again: the other files
 * and anonymous memory keep the rest of the engine.
 */
NLRU_API long nlru_file_pread(struct nlru_file *file, void *buf, size_t len, uint64_t offset);
NLRU_API long nlru_file_pwrite(struct nlru_file *file, const void *buf, size_t len,
			       uint64_t offset);

/*
 * nlru_file_copy_range - copy_file_range(2) through the cache: @len bytes of @in from
 * @in_offset to @out at @out_offset, page to page with no buffer between (the copy `cp`
 * makes through the kernel).  @in and @out may be the same file if the ranges do not overlap.
 * Returns the bytes copied (short at the end of @in), or -errno: -EBADF when @in is open
 * write-only or @out read-only, -EXDEV for files of two engines, -EINVAL for overlapping
 * ranges, -EFBIG past the largest file @out may have (as nlru_file_pwrite()), and the errors of
 * nlru_file_pread() and nlru_file_pwrite().  Reads and dirties pages as they do.
 */
NLRU_API long nlru_file_copy_range(struct nlru_file *in, uint64_t in_offset, struct nlru_file *out,
				   uint64_t out_offset, size_t len);

/*
 * Zero-copy access to the cache: pin a page of the file as regions pin anonymous pages, and
 * use its memory directly instead of copying through a buffer.
 *
 * nlru_file_pin_page - page @index of @file (its bytes from @index * NLRU_PAGE_SIZE), read in
 * if needed (with readahead for callers going in order), pinned: it stays at *@addr and is
 * not reclaimed until nlru_file_unpin_page().  Counts as an access, as a read does.  Bytes
 * past the end of the file read as zeroes.  @flags: 0 to read it; NLRU_PIN_WRITE to write
 * into it too.
 * Returns 0; -EINVAL for unknown flags or an index past 2^32 - 1; -EBADF for a write pin of
 * a file open read-only or a read pin of one open write-only; -ENOMEM; -EIO when reading the
 * file failed.  A page may be pinned several times, by several threads.
 */
NLRU_API int nlru_file_pin_page(struct nlru_file *file, uint64_t index, unsigned int flags,
				void **addr);

/*
 * nlru_file_unpin_page - drop one pin of page @index.  @written_end: 0 if the caller did not
 * write the page; otherwise the end of what it wrote within the page (1 .. NLRU_PAGE_SIZE):
 * the page is dirty and the file grows to cover it.  Returns 0; -EINVAL if the page is not pinned
 * or @written_end is past the page; -EBADF when writing a file open read-only.
 */
NLRU_API int nlru_file_unpin_page(struct nlru_file *file, uint64_t index, size_t written_end);

/*
 * Write every dirty page back.  If a write failed, the error it met (logged with the file
 * name): -ENOSPC for a full disk, -EIO for a failing one, and so on.
 */
NLRU_API int nlru_file_flush(struct nlru_file *file);
/*
 * nlru_file_flush(), then fdatasync(2).  Reports a write error once, as fsync(2) does: the
 * error its own writes met, or the first one background writeback met since the last report.
 */
NLRU_API int nlru_file_fsync(struct nlru_file *file);
/*
 * Flush, drop the file's pages and close it.  If writing back fails, returns -EIO naming the
 * file and keeps it open with its dirty pages, so nothing is lost; call again to retry.
 * -EBUSY, with nothing done, while a page of the file is pinned.  A file whose writes cannot
 * succeed (a full disk, a file system remounted read-only, a file past its size limit) closes
 * after nlru_file_discard(); so does an engine left with it open.
 */
NLRU_API int nlru_file_close(struct nlru_file *file);
/*
 * nlru_file_discard - give up on the file's dirty pages: mark every one clean without
 * writing it, so that nlru_file_close() and nlru_engine_destroy() succeed where writing
 * back fails for good.  What Linux does to a page whose write failed (end_page_writeback()
 * with the error recorded in the mapping), done here only when asked, since the engine
 * otherwise keeps the data dirty to be written again: the pages stay in the cache, clean, so
 * reads see the discarded data until reclaim or close drops them, while the file on disk
 * keeps what the last successful writes left there.  The next nlru_file_fsync() reports the
 * loss once: the latest write error, -EIO if none failed, unless an error is pending already.
 * Waits for the file's writes in flight.  Pages written while it runs may stay dirty.
 * Returns the number of pages discarded (logged when not 0); -EINVAL for a NULL @file.
 */
NLRU_API long nlru_file_discard(struct nlru_file *file);

/*
 * Shrinkers: caches the engine does not keep on its LRU lists (a user's object caches, slabs)
 * are asked to give memory back in proportion to LRU scanning, as Linux's shrink_slab() asks.
 */
struct nlru_shrinker;

/*
 * What reclaim tells a shrinker's callbacks about the call.  The fields from gfp_mask on came
 * with version 0.2: a program reads them only after registering a struct nlru_shrinker_def of
 * this header's size, which an older library refuses (def.size is larger than it knows).
 */
struct nlru_shrink_control {
	int nid;                  /* the node being reclaimed (0 unless NUMA-aware) */
	unsigned long nr_to_scan; /* objects to scan in this call (scan only) */
	unsigned long nr_scanned; /* may be set by scan to the number really looked at */
	/*
	 * The flags of the allocation reclaim is for, as Linux's sc->gfp_mask: without
	 * NLRU_GFP_FS the cache must not do file I/O to free objects, without NLRU_GFP_IO no
	 * I/O at all (return NLRU_SHRINK_STOP if that is all it could do).  kswapd asks with
	 * NLRU_GFP_KERNEL.
	 */
	unsigned int gfp_mask;
	int priority;       /* reclaim's priority, 12 (a light pass) down to 0 (the hardest) */
	unsigned int flags; /* NLRU_SHRINK_KSWAPD: kswapd asks; otherwise an allocating thread */
};

#define NLRU_SHRINK_KSWAPD (1u << 0) /* nlru_shrink_control.flags: the caller is kswapd */

/*
 * count: objects that could be freed now (0: nothing to do).  Called while reclaiming, as scan
 * is: an allocation in it takes from the reserves and never reclaims again.
 */
typedef unsigned long (*nlru_count_objects_fn)(void *arg, struct nlru_shrink_control *sc);
/*
 * scan: try to free nr_to_scan objects; returns how many were freed, or NLRU_SHRINK_STOP.  One
 * reclaim call of a shrinker ends after 1024 scans in a row that free nothing (reported once
 * per shrinker, at WARN), where Linux would go on to twice what count reported.
 */
typedef unsigned long (*nlru_scan_objects_fn)(void *arg, struct nlru_shrink_control *sc);

#define NLRU_SHRINK_STOP (~0ul - 1) /* cannot make progress now (a lock is busy, ...) */
#define NLRU_DEFAULT_SEEKS 2        /* cost to recreate an object, as DEFAULT_SEEKS */
#define NLRU_SHRINKER_NUMA_AWARE (1u << 0)

/* A shrinker: its callbacks and how reclaim asks them (nlru_shrinker_register()). */
struct nlru_shrinker_def {
	size_t size; /* sizeof(struct nlru_shrinker_def) */
	nlru_count_objects_fn count;
	nlru_scan_objects_fn scan;
	void *arg;
	int seeks;          /* 0: NLRU_DEFAULT_SEEKS */
	long batch;         /* objects per scan call; 0: 128 (SHRINK_BATCH) */
	unsigned int flags; /* NLRU_SHRINKER_NUMA_AWARE */
	/*
	 * Version 0.2: the shrinker's name in the engine's messages (copied; NULL: its address),
	 * as Linux 6.0 names shrinkers.  A def of the 0.1 size, without it, is still accepted.
	 */
	const char *name;
};

/* sizeof(struct nlru_shrinker_def) in version 0.1, before name: still accepted. */
#define NLRU_SHRINKER_DEF_SIZE_0_1 56

/*
 * nlru_shrinker_register - from now on reclaim calls @def's callbacks, from kswapd and from
 * allocating threads, possibly at the same time: they must be thread-safe and must not sleep
 * for long, and the caller must never hold a lock they take across a call into the engine
 * (any call may reclaim, and reclaim calls them).  Inside a callback the whole API may be
 * used: allocating (the thread is reclaiming, so it takes from the reserves and never
 * reclaims again, as Linux's PF_MEMALLOC), registering a shrinker, unregistering one (its
 * own included).  Pages the cache frees while reclaim calls it count as reclaimed when it
 * allocated them with NLRU_GFP_SLAB_*.
 * -EINVAL (logged, naming what is wrong) for a NULL @def or @out, a size other than this
 * library's or NLRU_SHRINKER_DEF_SIZE_0_1 (a larger one is a later version's struct, whose
 * members it would ignore), a missing callback, negative seeks or batch, or flags other than
 * NLRU_SHRINKER_NUMA_AWARE; -ENOMEM.
 */
NLRU_API int nlru_shrinker_register(struct nlru_engine *eng, const struct nlru_shrinker_def *def,
				    struct nlru_shrinker **out);

/*
 * nlru_shrinker_unregister - no call of @shrinker's callbacks starts after it returns; NULL is
 * fine.  Called from outside any shrinker callback, it first waits for the calls in progress
 * to return, so the cache may be torn down at once.  Called from inside a shrinker callback
 * (its own or another's), it does not wait, which could be for the very call it is in: calls
 * already in progress run to their end, and the shrinker is freed when the last one returns.
 * Never blocks on reclaim.  @shrinker must belong to a live engine: nlru_engine_destroy()
 * frees the shrinkers still registered, and their handles with them.
 */
NLRU_API int nlru_shrinker_unregister(struct nlru_shrinker *shrinker);

#define NLRU_ZONE_INFO_VERSION 2

/*
 * Geometry, watermarks and free blocks of one zone, as /proc/zoneinfo and /proc/buddyinfo
 * show them.  The caller sets size and version; members only grow at the end.
 */
struct nlru_zone_info {
	size_t size; /* sizeof(struct nlru_zone_info), set by the caller */
	uint64_t start_pfn, spanned, present, managed;
	uint64_t free;                             /* NR_FREE_PAGES */
	uint64_t wmark_min, wmark_low, wmark_high; /* pages */
	uint64_t lowmem_reserve[NLRU_MAX_NR_ZONES];
	uint32_t pcp_high, pcp_batch;
	/* Version 2 (library 0.2) on; a program built against 0.1 has none of what follows. */
	uint32_t version; /* NLRU_ZONE_INFO_VERSION, set by the caller */
	uint32_t reserved;
	uint64_t nr_free_blocks[NLRU_MAX_ORDER]; /* free blocks of each order: a buddyinfo line */
};

/* sizeof(struct nlru_zone_info) in version 1 (library 0.1): still accepted. */
#define NLRU_ZONE_INFO_SIZE_1 112

/*
 * nlru_zone_info - fill @info with zone @zone of node @nid: its geometry, free pages,
 * watermarks, lowmem reserves, per-CPU list sizes and, from version 2, its free blocks of
 * each order (taken together under the zone's lock, as /proc/buddyinfo reads them).  The
 * caller sets info->size to sizeof(struct nlru_zone_info) and info->version to
 * NLRU_ZONE_INFO_VERSION; a program built against version 1 sets size to
 * NLRU_ZONE_INFO_SIZE_1 and no version, and gets version 1's members.  Returns 0; -EINVAL
 * (logged) for a bad node or zone, a NULL @info, or a size or version this library does not
 * know; a zone with no pages reports zeros.
 */
NLRU_API int nlru_zone_info(struct nlru_engine *eng, int nid, enum nlru_zone_type zone,
			    struct nlru_zone_info *info);

/* min_free_kbytes in force (computed or configured); -EINVAL for a NULL @eng. */
NLRU_API long nlru_min_free_kbytes(const struct nlru_engine *eng);

/*
 * nlru_mem_available - the pages the engine could give without swapping, as Linux's
 * si_mem_available() estimates MemAvailable (mm/page_alloc.c, v4.8): free pages less the
 * reserves allocations cannot use (each zone's high watermark and largest lowmem reserve),
 * plus the page cache and reclaimable slab pages less the half (at most the low watermarks'
 * worth) assumed to stay.  An estimate, read without locks; -EINVAL for a NULL @eng.
 */
NLRU_API long nlru_mem_available(const struct nlru_engine *eng);

/*
 * The zonelist of @nid (fallback order the allocator walks): up to @max entries written as
 * node * NLRU_MAX_NR_ZONES + zone.  Returns the number of entries, or -EINVAL for a bad node,
 * a NULL @entries or a negative @max.
 */
NLRU_API int nlru_zonelist(const struct nlru_engine *eng, int nid, int *entries, int max);

#ifdef __cplusplus
}
#endif

#endif /* NODELRU_NODELRU_H */
