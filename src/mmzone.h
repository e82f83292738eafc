/*
 * The engine's memory model: nodes (pglist_data), zones, free areas, per-CPU page lists.
 * Names and meanings follow Linux 4.8 include/linux/mmzone.h; docs/design.md lists where we
 * differ (managed == present == spanned; pfns are engine-wide; per-CPU lists as stacks).
 */
#ifndef NODELRU_MMZONE_H
#define NODELRU_MMZONE_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include <nodelru/nodelru.h>
#include <nodelru/vmstat.h>

#include "debug.h"
#include "mutex.h"
#include "page.h"
#include "pfnlist.h"
#include "spinlock.h"

#define MAX_ORDER NLRU_MAX_ORDER
#define MAX_NR_ZONES NLRU_MAX_NR_ZONES
#define MAX_NUMNODES NLRU_MAX_NUMNODES
#define PAGE_SHIFT NLRU_PAGE_SHIFT
#define PAGE_SIZE NLRU_PAGE_SIZE
#define NR_VM_ZONE_STAT_ITEMS NLRU_NR_VM_ZONE_STAT_ITEMS
#define NR_VM_NODE_STAT_ITEMS NLRU_NR_VM_NODE_STAT_ITEMS
#define NR_VM_EVENT_ITEMS NLRU_NR_VM_EVENT_ITEMS

STATIC_ASSERT(MAX_ORDER - 1 <= (int)(PAGE_ORDER_MASK >> PAGE_ORDER_SHIFT),
	      "page->flags holds every order");
STATIC_ASSERT(MAX_NR_ZONES - 1 <= (int)(PAGE_ZONE_MASK >> PAGE_ZONE_SHIFT),
	      "page->flags holds every zone index");
STATIC_ASSERT(MAX_NUMNODES - 1 <= (int)(PAGE_NODE_MASK >> PAGE_NODE_SHIFT),
	      "page->flags holds every node id");

enum zone_type {
	ZONE_DMA = NLRU_ZONE_DMA,
	ZONE_DMA32 = NLRU_ZONE_DMA32,
	ZONE_NORMAL = NLRU_ZONE_NORMAL,
	ZONE_MOVABLE = NLRU_ZONE_MOVABLE,
};

enum zone_watermarks { WMARK_MIN, WMARK_LOW, WMARK_HIGH, NR_WMARK };

/*
 * Migrate types (Linux 4.8 enum migratetype, without CMA and ISOLATE, which an x86_64 kernel
 * without CONFIG_CMA and CONFIG_MEMORY_ISOLATION has neither): what the pages of a pageblock
 * are for, so that pages that can never move stay together, away from those compaction can
 * move or reclaim can free.  The first MIGRATE_PCPTYPES have per-CPU lists.
 */
enum migratetype {
	MIGRATE_UNMOVABLE,
	MIGRATE_MOVABLE,
	MIGRATE_RECLAIMABLE,
	MIGRATE_PCPTYPES, /* the number of types on the per-CPU lists */
	MIGRATE_HIGHATOMIC = MIGRATE_PCPTYPES,
	MIGRATE_TYPES
};

/*
 * Pageblocks: the unit a migrate type is given to, pageblock_order 9 (2 MiB), x86_64's
 * HUGETLB_PAGE_ORDER.  Aligned within their zone, as the buddy blocks are; a zone whose size
 * is no multiple of it ends with a partial block.
 */
#define pageblock_order 9
#define pageblock_nr_pages (1u << pageblock_order)

/*
 * A zone's pageblock flags (Linux's pageblock_flags bitmap, enum pageblock_bits): one byte per
 * pageblock, beside the descriptors, so struct page stays 32 bytes.  Bits 0-2 hold the migrate
 * type.  Linux's PB_migrate_skip has no bit: compaction does not skip blocks (design.md).
 */
#define PB_MIGRATETYPE_MASK 0x7u

struct free_area {
	/* heads of free blocks of this order, by the migrate type each was freed as */
	struct pfnlist free_list[MIGRATE_TYPES];
	unsigned long nr_free; /* blocks on all of them */
};

/*
 * Counts kept inside each per-CPU list, written by its lock holder and read lock-free.
 * Allocations through the list are counted in its state word (see below); pages freed into
 * it are derived: count + returned + allocated - refilled, so a free counts nothing.
 */
enum pcp_stat {
	PCP_REFILLED, /* pages taken in from the buddy lists */
	PCP_RETURNED, /* pages given back to the buddy lists */
	NR_PCP_STATS
};

#define PCP_COUNT_BITS 16
#define PCP_COUNT_MASK ((1ull << PCP_COUNT_BITS) - 1)
#define PCP_MAX_PAGES 32767 /* high and batch are capped so count fits its 16 bits */

/*
 * struct per_cpu_pages: the order-0 page cache of one zone on one CPU.
 *
 * Linux keeps these pages on a list threaded through struct page and protects it by
 * disabling preemption.  The engine keeps their pfns in a small array used as a stack (the
 * top is the hot end Linux allocates from and frees to, the bottom the cold end that goes
 * back to the buddy allocator) and, where the kernel supports it, pops and pushes with
 * restartable sequences (pcp.c): the userspace equivalent of preemption off.  Refills,
 * batch frees and drains take the lock.  The first 24 bytes are read by that assembly:
 * keep their layout.
 */
struct per_cpu_pages {
	struct raw_spinlock lock; /* held by refill, batch free and drain; fast paths back off */
	int high;                 /* hand batch pages back once count reaches this */
	_Atomic uint64_t state;   /* bits 0-15: pages held (count); 16-63: allocations made */
	uint32_t *pfns;           /* pfns[0] coldest .. pfns[count - 1] hottest */
	int batch;                /* pages moved to or from the buddy lists at a time */
	_Atomic long stat[NR_PCP_STATS];
	/*
	 * Zone mode (page_alloc_47.c): pages of orders above 0 allocated through this CPU, and
	 * pages already charged to the zone's NR_ALLOC_BATCH (Linux's vm_stat_diff, kept as the
	 * difference between what was allocated and what was charged).
	 */
	_Atomic uint64_t fair_high_order_pages;
	_Atomic uint64_t fair_charged;
} __cacheline_aligned;

STATIC_ASSERT(sizeof(struct per_cpu_pages) == 64, "per-CPU lists are indexed by cpu << 6");

/* Linux's enum lru_list: the list index is (file ? 2 : 0) + (active ? 1 : 0). */
enum lru_list {
	LRU_INACTIVE_ANON,
	LRU_ACTIVE_ANON,
	LRU_INACTIVE_FILE,
	LRU_ACTIVE_FILE,
	LRU_UNEVICTABLE,
	NR_LRU_LISTS
};

#define LRU_ACTIVE 1
#define LRU_FILE 2

/*
 * Reclaim's batch: the pages it takes off an LRU list at a time, and the least it aims to
 * free or scan per pass (Linux's include/linux/swap.h).
 */
#define SWAP_CLUSTER_MAX 32ul

/* Index 0 is anon, 1 is file (get_scan_count's balance between the two). */
struct zone_reclaim_stat {
	unsigned long recent_rotated[2];
	unsigned long recent_scanned[2];
};

/*
 * Reclaim's feedback about an lruvec's pages, set by shrink_inactive_list() and cleared once a
 * zone is balanced: Linux 4.8's enum pgdat_flags on a node, 4.7's ZONE_* flags on a zone.
 */
enum lruvec_flags {
	LRUVEC_CONGESTED, /* PGDAT_CONGESTED / ZONE_CONGESTED: writeback congested, back off */
	LRUVEC_DIRTY,     /* PGDAT_DIRTY / ZONE_DIRTY: the inactive tail is dirty and unqueued,
			     so kswapd may write those pages itself */
	LRUVEC_WRITEBACK, /* PGDAT_WRITEBACK / ZONE_WRITEBACK: the tail is under writeback */
};

struct nlru_log;
struct pglist_data;
struct zone;

/*
 * struct lruvec: the five LRU lists, their lock and their reclaim statistics.  Node mode
 * (4.8) uses one per node, zone mode (4.7) one per zone: reclaim works on an lruvec and
 * does not care which.  Sizes live in the node and zone counters (NR_INACTIVE_ANON ... and
 * NR_ZONE_INACTIVE_ANON ...), kept together by update_lru_size().
 */
struct lruvec {
	struct spinlock lru_lock
		__cacheline_aligned;        /* the lists, PG_lru/PG_active, reclaim_stat */
	struct pfnlist lists[NR_LRU_LISTS]; /* head = most recently added, tail = reclaim end */
	struct zone_reclaim_stat reclaim_stat;
	_Atomic unsigned long inactive_age; /* the workingset clock */
	_Atomic unsigned long flags;        /* enum lruvec_flags bits */
	struct pglist_data *pgdat;          /* the node whose pages these are */
	struct zone *zone;                  /* zone mode: the one zone; node mode: NULL */
};

/*
 * A node's lruvec, holding the pages of every zone of the node (node mode, Linux 4.8), rather
 * than one zone's (zone mode, 4.7).  The code both modes share asks this where a rule holds
 * for one kind of lruvec only, as 4.8 names its memcg test global_reclaim(sc).
 */
static inline bool lruvec_is_node(const struct lruvec *lruvec)
{
	return !lruvec->zone;
}

struct zone {
	/* Read-mostly after creation (watermarks change only when tunables are reapplied). */
	unsigned long watermark[NR_WMARK];
	long lowmem_reserve[MAX_NR_ZONES];
	struct pglist_data *zone_pgdat;
	/*
	 * [engine->nr_cpus] lists for each per-CPU type, one allocation (pageset[0] owns it).
	 * pageset[MIGRATE_HIGHATOMIC] is the movable lists again: a free indexes this by its
	 * pageblock's type with no test, and a reserve page goes on the movable list as 4.8's
	 * free_hot_cold_page() puts it.
	 */
	struct per_cpu_pages *pageset[MIGRATE_TYPES];
	/* A byte per pageblock (PB_*), read without a lock by frees; written under zone->lock,
	 * the skip bit by compaction without it (atomics both ways). */
	uint8_t *pageblock_flags;
	uint32_t zone_start_pfn; /* node-local pfn of the first page */
	uint32_t spanned_pages;
	uint32_t present_pages;
	uint32_t managed_pages; /* pages the buddy allocator manages; 0: zone unused */
	int zone_idx;           /* enum zone_type */
	int node;
	/*
	 * Where this zone's LRU pages live: its own lruvec (zm->lruvec) in zone mode, the node's
	 * in node mode.  Fixed at engine creation.
	 */
	struct lruvec *page_lruvec;
	struct zone_mode_state *zm; /* what only zone mode uses, beside the node's zones */
	/*
	 * Linux's per-CPU stat threshold, the same on every CPU: the normal one, or the pressure
	 * one while kswapd is awake (set_pgdat_percpu_threshold).  Zone mode folds NR_ALLOC_BATCH
	 * at it; zoneinfo prints it.
	 */
	_Atomic int stat_threshold;
	/* Zone mode's fast path tests this on every allocation, as 4.7 tests zone->flags. */
	_Atomic bool fair_depleted; /* ZONE_FAIR_DEPLETED: alloc_batch reached 0 */
	/*
	 * Non-zero when the per-CPU drift could hide a breach of the min watermark, which is
	 * when kswapd lowers this zone's threshold while it is awake
	 * (refresh_zone_stat_thresholds).
	 */
	unsigned long percpu_drift_mark;

	/* The buddy free lists. */
	struct spinlock lock __cacheline_aligned; /* protects free_area, nr_reserved_highatomic */
	struct free_area free_area[MAX_ORDER];
	/* Pages in MIGRATE_HIGHATOMIC pageblocks; read without the lock by watermark checks. */
	unsigned long nr_reserved_highatomic;
	/* Deferred compaction (compaction.c), read and written racily as in Linux: atomics. */
	unsigned int compact_considered;
	unsigned int compact_defer_shift;
	int compact_order_failed;
	/* The pfn after the last page-exact run handed out of this zone; 0: none.  zone->lock. */
	uint32_t exact_next;

	_Atomic long vm_stat[NR_VM_ZONE_STAT_ITEMS] __cacheline_aligned;
	/* numa_miss and numa_other of order-0 allocations: numa_hit and numa_local are the
	 * per-CPU lists' allocations minus these. */
	_Atomic long pcp_numa_miss, pcp_numa_other;
	/* Zone mode: NR_ALLOC_BATCH, what the zone may still hand out this round (4.7 keeps it
	 * among the zone's counters too). */
	_Atomic long alloc_batch;
};

/*
 * What a zone has only in zone mode (Linux 4.7): its own LRU lists and per-zone copies of the
 * node counters.  Kept beside the node's zones rather than inside struct zone, so that node
 * mode's zones stay as small and as hot as 4.8's.  (The fair policy's two words, which zone
 * mode's fast path needs, stay in struct zone.)
 */
struct zone_mode_state {
	struct lruvec lruvec; /* the zone's LRU lists */
	/*
	 * Per-zone copies of the node items, as 4.7 keeps every counter per zone (the node
	 * counters are then their sums).  The LRU sizes are not copied here: the zone's NR_ZONE_*
	 * items already hold them.
	 */
	_Atomic long vm_node_stat[NR_VM_NODE_STAT_ITEMS];
	/* 4.7's zone->totalreserve_pages: the zone's part of its node's, for zone_dirty_ok(). */
	unsigned long totalreserve_pages;
};

STATIC_ASSERT(MIGRATE_TYPES - 1 <= (int)(PAGE_FREE_MT_MASK >> PAGE_FREE_MT_SHIFT),
	      "a free block's head holds every migrate type");
STATIC_ASSERT(MIGRATE_TYPES - 1 <= (int)PB_MIGRATETYPE_MASK,
	      "a pageblock holds every migrate type");

/* The pageblock flags of the block holding node-local @pfn of @zone. */
static inline uint8_t *pageblock_flags_of(const struct zone *zone, uint32_t pfn)
{
	return &zone->pageblock_flags[(pfn - zone->zone_start_pfn) >> pageblock_order];
}

/* get_pfnblock_migratetype(): lock-free, as a free reads it. */
static inline int get_pfnblock_migratetype(const struct zone *zone, uint32_t pfn)
{
	return __atomic_load_n(pageblock_flags_of(zone, pfn), __ATOMIC_RELAXED) &
	       PB_MIGRATETYPE_MASK;
}

/* set_pageblock_migratetype(): zone->lock held (the other bits are kept). */
static inline void set_pageblock_migratetype(struct zone *zone, uint32_t pfn, int migratetype)
{
	uint8_t *flags = pageblock_flags_of(zone, pfn),
		old = __atomic_load_n(flags, __ATOMIC_RELAXED);

	while (!__atomic_compare_exchange_n(
		flags, &old, (uint8_t)((old & ~PB_MIGRATETYPE_MASK) | (unsigned int)migratetype),
		false, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		;
}

/* zone_end_pfn(): the node-local pfn after the zone's last page. */
static inline uint32_t zone_end_pfn(const struct zone *zone)
{
	return zone->zone_start_pfn + zone->spanned_pages;
}

static inline bool populated_zone(const struct zone *zone)
{
	return zone->present_pages != 0;
}

static inline bool managed_zone(const struct zone *zone)
{
	return zone->managed_pages != 0;
}

/* A zonelist entry; the list ends with zone == NULL. */
struct zoneref {
	struct zone *zone;
	int zone_idx;
};

#define MAX_ZONES_PER_ZONELIST (MAX_NUMNODES * MAX_NR_ZONES)

struct zonelist {
	struct zoneref _zonerefs[MAX_ZONES_PER_ZONELIST + 1];
};

enum { ZONELIST_FALLBACK, ZONELIST_NOFALLBACK, MAX_ZONELISTS };

/*
 * A node's kswapd: the thread, its wait queue (mutex and condition), and the pending request
 * that wakeups merge into (4.8: order and classzone both take the maximum, reset to 0).
 */
struct kswapd_state {
	pthread_t thread;
	bool started;
	struct mutex lock; /* taken to set woken and to wait for it */
	pthread_cond_t wait;
	/* asleep or napping: waitqueue_active(&pgdat->kswapd_wait); read without the lock too */
	_Atomic bool waiting;
	_Atomic bool woken;        /* a wakeup arrived since it last went to sleep */
	_Atomic bool stop;         /* kthread_should_stop() */
	_Atomic int order;         /* pgdat->kswapd_order */
	_Atomic int classzone_idx; /* pgdat->kswapd_classzone_idx */
	/* pgdat->pfmemalloc_wait: direct reclaimers throttled until kswapd frees enough; lock */
	pthread_cond_t pfmemalloc_wait;
	_Atomic int nr_throttled; /* waitqueue_active(&pgdat->pfmemalloc_wait) */
};

/* kcompactd's thread and wait queue (pgdat->kcompactd_*), compaction.c. */
struct kcompactd_state {
	pthread_t thread;
	bool started;
	struct mutex lock; /* taken to set woken and to wait for it; unchecked, a leaf */
	pthread_cond_t wait;
	bool woken;        /* lock */
	_Atomic bool stop; /* kthread_should_stop() */
	int order;         /* pgdat->kcompactd_max_order; lock */
	int classzone_idx; /* pgdat->kcompactd_classzone_idx; lock */
};

/* struct pglist_data: one NUMA node. */
struct pglist_data {
	struct zone node_zones[MAX_NR_ZONES];
	struct zonelist node_zonelists[MAX_ZONELISTS];
	int node_id;
	int nr_zones;            /* highest populated zone index + 1 */
	uint64_t node_start_pfn; /* engine-wide pfn of the node's first page */
	uint32_t node_present_pages;
	char *mem;          /* the node's page memory: node_present_pages * PAGE_SIZE bytes */
	struct page *pages; /* the descriptors, one per page of mem */
	bool mem_bound;     /* mem is bound to the real node of the same id */
	bool mem_caller;    /* mem is the caller's (nlru_engine_create_on()): never unmapped */
	const struct nlru_log *log;       /* the engine's: where debug checks of its lists report */
	unsigned long totalreserve_pages; /* calculate_totalreserve_pages(), for dirty limits */
	/*
	 * 4.8's per-CPU threshold of the node counters: the largest normal threshold of its
	 * zones, never lowered under pressure.  The engine's node counters are exact; kept for
	 * what 4.8 would use (refresh_zone_stat_thresholds).
	 */
	int stat_threshold;
	/*
	 * Linux's page_group_by_mobility_disabled (one value for the whole engine): too little
	 * memory to give every migrate type pageblocks of its own, so every allocation is
	 * MIGRATE_UNMOVABLE and fallbacks always steal (build_all_zonelists()).
	 */
	bool group_by_mobility_disabled;

	struct lruvec lruvec;                           /* node mode only: the node's LRU lists */
	struct zone_mode_state zone_mode[MAX_NR_ZONES]; /* zone mode only: node_zones[i].zm */

	struct kswapd_state kswapd;
	struct kcompactd_state kcompactd;

	_Atomic long nr_shadows; /* shadow entries of evicted page cache pages of this node */
	_Atomic long
		shadows_trimmed; /* by the shadow shrinker; every 64 is a workingset_nodereclaim */

	_Atomic long vm_stat[NR_VM_NODE_STAT_ITEMS] __cacheline_aligned;
};

static inline uint32_t page_to_pfn(const struct pglist_data *pgdat, const struct page *page)
{
	return (uint32_t)(page - pgdat->pages);
}

static inline void *page_address(const struct pglist_data *pgdat, uint32_t pfn)
{
	return pgdat->mem + ((uint64_t)pfn << PAGE_SHIFT);
}

static inline struct zone *page_zone(struct pglist_data *pgdat, const struct page *page)
{
	return &pgdat->node_zones[page_zonenum(page)];
}

/* The lruvec @page lives on (mem_cgroup_page_lruvec() without memcg). */
static inline struct lruvec *page_lruvec(struct pglist_data *pgdat, const struct page *page)
{
	return pgdat->node_zones[page_zonenum(page)].page_lruvec;
}

/* The zones whose pages @lruvec holds: all of its node's, or its one zone. */
#define for_each_lruvec_zone(zone, lruvec)                                                         \
	for ((zone) = lruvec_is_node(lruvec) ? (lruvec)->pgdat->node_zones : (lruvec)->zone;       \
	     (zone) < (lruvec_is_node(lruvec) ? (lruvec)->pgdat->node_zones + MAX_NR_ZONES         \
					      : (lruvec)->zone + 1);                               \
	     (zone)++)

#define for_each_zone_in_node(zone, pgdat)                                                         \
	for ((zone) = (pgdat)->node_zones; (zone) < (pgdat)->node_zones + MAX_NR_ZONES; (zone)++)

#endif /* NODELRU_MMZONE_H */
