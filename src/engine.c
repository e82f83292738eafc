/*
 * engine.c - engine lifecycle and node memory: create (topology, per-node mappings and
 * descriptors, zone layout, watermarks, pcp lists, freeing every page, the swap file, the
 * kswapd threads), destroy (refused while regions or pages are in use), and the read-only
 * queries of geometry.
 *
 * Creation and destruction are single-threaded by contract; nothing else here takes a lock.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "blkdev.h"
#include "buddy.h"
#include "compaction.h"
#include "engine.h"
#include "filemap.h"
#include "flusher.h"
#include "kswapd.h"
#include "lru.h"
#include "os.h"
#include "owner.h"
#include "page_alloc.h"
#include "pageindex.h"
#include "pcp.h"
#include "reclaim_mode.h"
#include "shrinker.h"
#include "swap.h"
#include "topo.h"
#include "vmstat.h"
#include "watermark.h"
#include "workingset.h"
#include "zonelist.h"

static size_t node_mem_bytes(const struct pglist_data *pgdat)
{
	return (size_t)pgdat->node_present_pages << PAGE_SHIFT;
}

static size_t node_desc_bytes(const struct pglist_data *pgdat)
{
	return (size_t)pgdat->node_present_pages * sizeof(struct page);
}

/* Pages per zone: low zones live on node 0 only, as below 4 GiB on a PC; Normal takes the rest. */
static void zone_layout(const struct nlru_engine *eng, int nid, uint32_t pages,
			uint32_t size[MAX_NR_ZONES])
{
	const struct nlru_config *cfg = &eng->cfg;

	size[ZONE_DMA] = nid == 0 ? (uint32_t)((uint64_t)pages * (uint64_t)cfg->dma_pct / 100) : 0;
	size[ZONE_DMA32] =
		nid == 0 ? (uint32_t)((uint64_t)pages * (uint64_t)cfg->dma32_pct / 100) : 0;
	size[ZONE_MOVABLE] = (uint32_t)((uint64_t)pages * (uint64_t)cfg->movable_pct / 100);
	size[ZONE_NORMAL] = pages - size[ZONE_DMA] - size[ZONE_DMA32] - size[ZONE_MOVABLE];
}

STATIC_ASSERT(OS_MAP_ALIGN == PAGE_SIZE << (MAX_ORDER - 1),
	      "node mappings are aligned to the largest buddy block");

static void lruvec_init(struct lruvec *lruvec, struct pglist_data *pgdat, struct zone *zone)
{
	spin_lock_init(&lruvec->lru_lock, LOCK_LRU, pgdat->log);
	for (int lru = 0; lru < NR_LRU_LISTS; lru++)
		pfnlist_init(&lruvec->lists[lru]);
	lruvec->pgdat = pgdat;
	lruvec->zone = zone;
}

static void zone_init(const struct nlru_engine *eng, struct pglist_data *pgdat, int zid,
		      uint32_t start, uint32_t pages)
{
	struct zone *zone = &pgdat->node_zones[zid];

	/* The one place the modes' LRU placement is decided: the zone's lists or the node's. */
	zone->zm = &pgdat->zone_mode[zid];
	lruvec_init(&zone->zm->lruvec, pgdat, zone);
	zone->page_lruvec = eng->mode->lru_per_zone ? &zone->zm->lruvec : &pgdat->lruvec;
	zone->zone_pgdat = pgdat;
	zone->node = pgdat->node_id;
	zone->zone_idx = zid;
	zone->zone_start_pfn = start;
	zone->spanned_pages = zone->present_pages = zone->managed_pages = pages;
	spin_lock_init(&zone->lock, LOCK_ZONE, pgdat->log);
	for (int order = 0; order < MAX_ORDER; order++)
		for (int mt = 0; mt < MIGRATE_TYPES; mt++)
			pfnlist_init(&zone->free_area[order].free_list[mt]);
	for (uint32_t pfn = start; pfn < start + pages; pfn++)
		page_init(&pgdat->pages[pfn], pgdat->node_id, (unsigned int)zid);
	if (pages)
		pgdat->nr_zones = zid + 1;
}

/* Bind the node's memory when it is a real node; a refusal costs locality, not correctness. */
static void node_bind(struct nlru_engine *eng, struct pglist_data *pgdat)
{
	int r;

	if (!topo_node_is_real(eng->topo, pgdat->node_id))
		return;
	r = topo_bind_memory(eng->topo, pgdat->node_id, pgdat->mem, node_mem_bytes(pgdat));
	if (!r)
		r = topo_bind_memory(eng->topo, pgdat->node_id, pgdat->pages,
				     node_desc_bytes(pgdat));
	pgdat->mem_bound = r == 0;
	if (r) {
		count_vm_event(eng, NLRU_MEMBIND_FALLBACK);
		if (!atomic_exchange(&eng->membind_warned, true))
			log_warn(&eng->log,
				 "binding node %d memory refused (%s); memory stays unbound (seen "
				 "in containers without CAP_SYS_NICE)",
				 pgdat->node_id, strerror(-r));
	}
}

STATIC_ASSERT((uint64_t)NLRU_NODE_MIB_MAX << (20 - PAGE_SHIFT) <= PFN_NIL,
	      "a node's pfns, 0 to pages - 1, stay 32-bit and below PFN_NIL");

/* @mem: the node's memory from the caller (checked by check_caller_memory()), or NULL. */
static int node_init(struct nlru_engine *eng, int nid, uint64_t start_pfn, void *mem_of_caller)
{
	uint32_t pages = (uint32_t)(eng->cfg.node_mib << (20 - PAGE_SHIFT));
	uint32_t size[MAX_NR_ZONES], start = 0;
	struct pglist_data *pgdat;
	void *mem, *desc;

	pgdat = aligned_alloc(CACHELINE, sizeof(*pgdat));
	if (!pgdat)
		return -ENOMEM;
	memset(pgdat, 0, sizeof(*pgdat));
	eng->node_data[nid] = pgdat;
	pgdat->node_id = nid;
	pgdat->log = &eng->log;
	pgdat->node_start_pfn = start_pfn;
	pgdat->node_present_pages = pages;
	lruvec_init(&pgdat->lruvec, pgdat, NULL);
	kswapd_state_init(&pgdat->kswapd, &eng->log);
	kcompactd_state_init(pgdat, &eng->log);
	pgdat->mem_caller = mem_of_caller != NULL;
	if (mem_of_caller)
		pgdat->mem = mem_of_caller;
	else if (os_map(node_mem_bytes(pgdat), &mem) == 0)
		pgdat->mem = mem;
	if (pgdat->mem && os_map(node_desc_bytes(pgdat), &desc) == 0)
		pgdat->pages = desc;
	if (!pgdat->pages) {
		log_err(&eng->log, "cannot map %ld MiB for node %d", eng->cfg.node_mib, nid);
		return -ENOMEM;
	}
	node_bind(eng, pgdat);
	if (eng->cfg.prefault)
		os_prefault(pgdat->mem, node_mem_bytes(pgdat));
	zone_layout(eng, nid, pages, size);
	for (int zid = 0; zid < MAX_NR_ZONES; zid++) {
		zone_init(eng, pgdat, zid, start, size[zid]);
		start += size[zid];
	}
	atomic_init(&pgdat->kswapd.classzone_idx, eng->mode->kswapd_classzone_reset(pgdat));
	return 0;
}

static void node_free(const struct nlru_engine *eng, struct pglist_data *pgdat)
{
	struct zone *zone;

	if (!pgdat)
		return;
	for_each_zone_in_node(zone, pgdat) {
		zone_pcp_destroy(eng, zone);
		zone_buddy_destroy(zone);
	}
	if (!pgdat->mem_caller)
		os_unmap(pgdat->mem, node_mem_bytes(pgdat));
	os_unmap(pgdat->pages, node_desc_bytes(pgdat));
	kswapd_state_destroy(&pgdat->kswapd);
	kcompactd_state_destroy(pgdat);
	free(pgdat);
}

/*
 * The engine and the state of its subsystems that engine.h names by pointer only, so that
 * their types stay out of the header every file includes: one allocation, freed as one.  The
 * engine comes first, so free(eng) frees the whole block.
 */
struct engine_alloc {
	struct nlru_engine eng;
	struct flusher flusher;
	struct owner_table owners;
	struct pageindex_cache pageindex_cache;
};

static void engine_free(struct nlru_engine *eng)
{
	flusher_stop(eng);
	flusher_destroy(eng->flusher);
	pageindex_cache_destroy(eng->pageindex_cache);
	kswapd_stop_all(eng);
	kcompactd_stop_all(eng);     /* after its waker */
	blkdev_destroy(eng->blkdev); /* completes what is in flight: nothing submits any more */
	swap_close(eng->swap);
	owner_table_destroy(eng->owners);
	nlru_shrinker_unregister(eng->shadow_shrinker);
	shrinker_list_destroy(eng);
	mutex_destroy(&eng->sysctl_lock);
	for (int nid = 0; nid < MAX_NUMNODES; nid++)
		node_free(eng, eng->node_data[nid]);
	topo_destroy(eng->topo);
	free(eng->vm_events);
	free(eng->cpu_node);
	free(eng->topology_desc);
	free(eng->swap_path);
	free(eng);
}

static int engine_topology(struct nlru_engine *eng)
{
	int r;

	if (eng->cfg.topology) {
		eng->topology_desc = strdup(eng->cfg.topology);
		if (!eng->topology_desc)
			return -ENOMEM;
	}
	eng->cfg.topology = eng->topology_desc;
	r = topo_load(eng->topology_desc, &eng->log, &eng->topo);
	if (r)
		return r;
	eng->nr_nodes = topo_nr_nodes(eng->topo);
	eng->nr_cpus = topo_possible_cpus();
	eng->cpu_node = calloc((size_t)eng->nr_cpus, sizeof(int));
	eng->vm_events = aligned_alloc(CACHELINE, sizeof(*eng->vm_events) * (size_t)eng->nr_cpus);
	if (!eng->cpu_node || !eng->vm_events)
		return -ENOMEM;
	memset(eng->vm_events, 0, sizeof(*eng->vm_events) * (size_t)eng->nr_cpus);
	for (int cpu = 0; cpu < eng->nr_cpus; cpu++)
		eng->cpu_node[cpu] = topo_cpu_to_node(eng->topo, cpu);
	return 0;
}

/*
 * build_all_zonelists()'s page_group_by_mobility_disabled: grouping by mobility is off when
 * the pages the movable zonelist reaches (all of them: watermarks are still 0 at that point of
 * a boot) do not give every migrate type a pageblock.
 */
static void set_mobility_grouping(struct nlru_engine *eng)
{
	unsigned long total = 0;
	struct pglist_data *pgdat;
	struct zone *zone;
	int nid;

	for_each_online_pgdat(pgdat, eng, nid)
		for_each_zone_in_node(zone, pgdat)
			total += zone->managed_pages;
	for_each_online_pgdat(pgdat, eng, nid)
		pgdat->group_by_mobility_disabled =
			total < (unsigned long)pageblock_nr_pages * MIGRATE_TYPES;
	eng->migratetype_mask = total < (unsigned long)pageblock_nr_pages * MIGRATE_TYPES ? 0 : 3;
}

/* After every node exists: zonelists, watermarks, pcp lists, then all pages to the buddy. */
static int engine_zones(struct nlru_engine *eng)
{
	struct pglist_data *pgdat;
	struct zone *zone;
	int nid, r;

	build_all_zonelists(eng);
	set_mobility_grouping(eng);
	init_per_zone_wmark_min(eng);
	pcp_setup(eng);
	for_each_online_pgdat(pgdat, eng, nid) {
		for_each_zone_in_node(zone, pgdat) {
			if (!managed_zone(zone))
				continue;
			r = zone_pcp_init(eng, zone);
			if (!r)
				r = zone_free_all(zone);
			if (r)
				return r;
		}
	}
	return 0;
}

/* The swap file: twice the engine's memory (capped) unless configured, none when set to 0. */
static int engine_swap(struct nlru_engine *eng)
{
	uint64_t pages = swap_pages_wanted(
		eng->cfg.swap_mib,
		(uint64_t)eng->nr_nodes * ((uint64_t)eng->cfg.node_mib << (20 - PAGE_SHIFT)));

	if (!pages)
		return 0;
	if (eng->cfg.swap_path && !(eng->swap_path = strdup(eng->cfg.swap_path)))
		return -ENOMEM;
	eng->cfg.swap_path = eng->swap_path;
	return swap_open(eng, eng->swap_path, pages, &eng->swap);
}

/* The block device, when the config gives it a bandwidth or makes it direct (blkdev.h). */
static int engine_blkdev(struct nlru_engine *eng)
{
	struct blkdev_params params = {
		.direct = eng->cfg.blkdev_direct,
		.mbs = (unsigned long)eng->cfg.blkdev_mbs,
		.latency_us = (unsigned long)eng->cfg.blkdev_latency_us,
		.seek_us = (unsigned long)eng->cfg.blkdev_seek_us,
		.nr_requests = (unsigned int)eng->cfg.blkdev_nr_requests,
		.max_kb = (unsigned int)eng->cfg.blkdev_max_kb,
	};

	if (!params.mbs && !params.direct)
		return 0;
	return blkdev_create(&params, eng->cfg.clock, eng->cfg.clock_arg, &eng->log, &eng->blkdev);
}

/*
 * The caller's memory for nlru_engine_create_on(): one mapping per node, each node_mib MiB,
 * page-aligned, apart, and mapped writable (mprotect() says ENOMEM for a hole, EACCES for a
 * mapping that may not be written, such as a read-only file's).  0 or -errno, logged.
 */
static int check_caller_memory(struct nlru_engine *eng, void *const *mem, size_t nr)
{
	size_t bytes = (size_t)eng->cfg.node_mib << 20;

	if (nr != (size_t)eng->nr_nodes)
		return log_einval(&eng->log,
				  "engine create: %zu node mappings for a topology of %d nodes", nr,
				  eng->nr_nodes);
	for (size_t i = 0; i < nr; i++) {
		if (!mem[i] || ((uintptr_t)mem[i] & (PAGE_SIZE - 1)))
			return log_einval(&eng->log, "engine create: node %zu's memory %p is %s", i,
					  mem[i], mem[i] ? "not page-aligned" : "NULL");
		for (size_t j = 0; j < i; j++)
			if ((char *)mem[i] < (char *)mem[j] + bytes &&
			    (char *)mem[j] < (char *)mem[i] + bytes)
				return log_einval(&eng->log,
						  "engine create: the memory of nodes %zu and %zu "
						  "overlaps (each is node_mib = %ld MiB)",
						  j, i, eng->cfg.node_mib);
		if (mprotect(mem[i], bytes, PROT_READ | PROT_WRITE)) {
			int err = errno;

			log_err(&eng->log,
				"engine create: node %zu's memory [%p, +%ld MiB) cannot be used: "
				"%s",
				i, mem[i], eng->cfg.node_mib,
				err == ENOMEM ? "not all of it is mapped"
					      : "it may not be made writable");
			return err == ENOMEM ? -EFAULT : -err;
		}
		if ((uintptr_t)mem[i] & ((PAGE_SIZE << (MAX_ORDER - 1)) - 1))
			log_info(&eng->log,
				 "engine create: node %zu's memory is not 4 MiB-aligned: blocks of "
				 "high orders are aligned within their zone only",
				 i);
	}
	return 0;
}

static int engine_create(const struct nlru_config *cfg, void *const *node_mem, size_t nr_mem,
			 struct nlru_engine **out)
{
	struct engine_alloc *alloc;
	struct nlru_engine *eng;
	uint64_t start_pfn = 0;
	int r;

	if (!cfg || !out) {
		if (cfg)
			nlru_logf(&(struct nlru_log){cfg->log, cfg->log_arg}, NLRU_LOG_ERROR,
				  "engine create: out is NULL");
		return -EINVAL;
	}
	alloc = calloc(1, sizeof(*alloc));
	if (!alloc)
		return -ENOMEM;
	eng = &alloc->eng;
	eng->flusher = &alloc->flusher;
	eng->owners = &alloc->owners;
	eng->pageindex_cache = &alloc->pageindex_cache;
	eng->log = (struct nlru_log){cfg->log, cfg->log_arg};
	r = owner_table_init(eng->owners, &eng->log);
	if (r) {
		free(eng);
		return r;
	}
	r = shrinker_list_init(eng);
	if (r) {
		owner_table_destroy(eng->owners);
		free(eng);
		return r;
	}
	flusher_init(eng->flusher, &eng->log);
	pageindex_cache_init(eng->pageindex_cache, &eng->log);
	mutex_init(&eng->sysctl_lock, LOCK_NONE, &eng->log);
	r = config_copy(&eng->cfg, cfg, &eng->log);
	eng->mode = reclaim_mode_of((enum nlru_mode)eng->cfg.mode);
	eng->fair_zone_policy = eng->mode->fair_zone_policy;
	if (!r)
		r = engine_topology(eng);
	if (!r && node_mem)
		r = check_caller_memory(eng, node_mem, nr_mem);
	for (int nid = 0; !r && nid < eng->nr_nodes; nid++) {
		r = node_init(eng, nid, start_pfn, node_mem ? node_mem[nid] : NULL);
		start_pfn += (uint64_t)eng->cfg.node_mib << (20 - PAGE_SHIFT);
	}
	if (!r)
		r = engine_zones(eng);
	if (!r)
		r = engine_blkdev(eng);
	if (!r)
		r = engine_swap(eng);
	if (!r)
		r = workingset_init(eng);
	/* compaction 0: a kernel without CONFIG_COMPACTION has no kcompactd. */
	if (!r && eng->cfg.kswapd && eng->cfg.compaction)
		r = kcompactd_start_all(eng);
	if (!r && eng->cfg.kswapd)
		r = kswapd_start_all(eng);
	if (!r)
		r = flusher_start(eng);
	if (r) {
		engine_free(eng);
		return r;
	}
	*out = eng;
	return 0;
}

int nlru_engine_create(const struct nlru_config *cfg, struct nlru_engine **out)
{
	return engine_create(cfg, NULL, 0, out);
}

int nlru_engine_create_on(const struct nlru_config *cfg, void *const *node_mem, size_t nr_nodes,
			  struct nlru_engine **out)
{
	if (cfg && !node_mem) {
		nlru_logf(&(struct nlru_log){cfg->log, cfg->log_arg}, NLRU_LOG_ERROR,
			  "engine create: node_mem is NULL");
		return -EINVAL;
	}
	return engine_create(cfg, node_mem, nr_nodes, out);
}

/* Pages not back in the buddy allocator once the per-CPU lists are drained. */
static uint64_t pages_in_use(struct nlru_engine *eng)
{
	struct pglist_data *pgdat;
	struct zone *zone;
	uint64_t used = 0;
	int nid;

	drain_all_pages(eng);
	for_each_online_pgdat(pgdat, eng, nid)
		for_each_zone_in_node(zone, pgdat)
			used += zone->managed_pages -
				(uint64_t)zone_page_state(zone, NLRU_NR_FREE_PAGES);
	return used;
}

/* Node items that count pages in use: none is left once every page is free. */
static const enum nlru_node_stat_item node_items_in_use[] = {
	NLRU_NR_INACTIVE_ANON, NLRU_NR_ACTIVE_ANON,   NLRU_NR_INACTIVE_FILE, NLRU_NR_ACTIVE_FILE,
	NLRU_NR_UNEVICTABLE,   NLRU_NR_ISOLATED_ANON, NLRU_NR_ISOLATED_FILE, NLRU_NR_ANON_MAPPED,
	NLRU_NR_FILE_PAGES,    NLRU_NR_FILE_DIRTY,    NLRU_NR_WRITEBACK,
};
static const enum nlru_zone_stat_item zone_items_in_use[] = {
	NLRU_NR_ZONE_INACTIVE_ANON, NLRU_NR_ZONE_ACTIVE_ANON,   NLRU_NR_ZONE_INACTIVE_FILE,
	NLRU_NR_ZONE_ACTIVE_FILE,   NLRU_NR_ZONE_UNEVICTABLE,   NLRU_NR_ZONE_WRITE_PENDING,
	NLRU_NR_SLAB_RECLAIMABLE,   NLRU_NR_SLAB_UNRECLAIMABLE,
};

/* Zone mode keeps every node item per zone too: the node's is their sum. */
static void check_zone_copies(struct nlru_engine *eng, struct pglist_data *pgdat)
{
	for (int i = NLRU_NR_ISOLATED_ANON; i < NR_VM_NODE_STAT_ITEMS; i++) {
		long sum = 0;

		for (int zid = 0; zid < MAX_NR_ZONES; zid++)
			sum += zone_node_page_state(&pgdat->node_zones[zid], i);
		if (!CHECK_FULL(&eng->log, sum == node_page_state(pgdat, i)))
			log_err(&eng->log, "node %d %s: its zones add up to %ld, the node says %ld",
				pgdat->node_id, nlru_node_stat_name(i), sum,
				node_page_state(pgdat, i));
	}
}

/*
 * Full debug checks before the memory goes away: every free list against its counters, every
 * LRU list against its; and when no page is in use (@idle), every page free exactly once and
 * no count of pages in use left over.
 */
static void check_engine(struct nlru_engine *eng, bool idle)
{
	struct pglist_data *pgdat;
	struct zone *zone;
	int nid;

	for_each_online_pgdat(pgdat, eng, nid) {
		for_each_zone_in_node(zone, pgdat) {
			spin_lock(&zone->lock);
			if (zone_check_free_lists(zone, &eng->log) == 0 && idle)
				zone_check_all_free(zone, &eng->log);
			spin_unlock(&zone->lock);
			if (!lruvec_is_node(zone->page_lruvec)) {
				spin_lock(&zone->zm->lruvec.lru_lock);
				lruvec_check_lists(&zone->zm->lruvec);
				spin_unlock(&zone->zm->lruvec.lru_lock);
			}
			for (size_t i = 0; idle && i < ARRAY_SIZE(zone_items_in_use); i++)
				if (!CHECK_FULL(&eng->log,
						!zone_page_state(zone, zone_items_in_use[i])))
					log_err(&eng->log,
						"zone %d/%d: %s is %ld with no page in use",
						zone->node, zone->zone_idx,
						nlru_zone_stat_name(zone_items_in_use[i]),
						zone_page_state(zone, zone_items_in_use[i]));
		}
		if (lruvec_is_node(pgdat->node_zones[0].page_lruvec)) {
			spin_lock(&pgdat->lruvec.lru_lock);
			lruvec_check_lists(&pgdat->lruvec);
			spin_unlock(&pgdat->lruvec.lru_lock);
		} else {
			check_zone_copies(eng, pgdat);
		}
		for (size_t i = 0; idle && i < ARRAY_SIZE(node_items_in_use); i++)
			if (!CHECK_FULL(&eng->log, !node_page_state(pgdat, node_items_in_use[i])))
				log_err(&eng->log, "node %d: %s is %ld with no page in use",
					pgdat->node_id, nlru_node_stat_name(node_items_in_use[i]),
					node_page_state(pgdat, node_items_in_use[i]));
		/* Every file is closed: its shadow entries went with its index. */
		CHECK_FULL(&eng->log, !idle || !atomic_load(&pgdat->nr_shadows));
	}
}

int nlru_engine_destroy(struct nlru_engine *eng)
{
	uint64_t used;
	int r;

	if (!eng)
		return 0;
	r = filemap_close_all(eng);
	if (r)
		return r;
	if (owner_table_count(eng->owners)) {
		log_err(&eng->log, "destroy: %u anonymous regions still exist; destroy them first",
			owner_table_count(eng->owners));
		return -EBUSY;
	}
	used = pages_in_use(eng);
	if (NLRU_DEBUG >= 2)
		check_engine(eng, used == 0);
	if (used) {
		log_err(&eng->log, "destroy: %llu pages are still allocated; free them first",
			(unsigned long long)used);
		return -EBUSY;
	}
	engine_free(eng);
	return 0;
}

enum nlru_mode nlru_engine_mode(const struct nlru_engine *eng)
{
	return eng ? (enum nlru_mode)eng->cfg.mode : NLRU_MODE_NODE;
}

int nlru_engine_nr_nodes(const struct nlru_engine *eng)
{
	return eng ? eng->nr_nodes : -EINVAL;
}

int nlru_node_distance(const struct nlru_engine *eng, int from, int to)
{
	if (!eng)
		return -EINVAL;
	if (from < 0 || to < 0 || from >= eng->nr_nodes || to >= eng->nr_nodes)
		return log_einval(&eng->log,
				  "node_distance: nodes %d and %d: the engine has 0 to %d", from,
				  to, eng->nr_nodes - 1);
	return topo_distance(eng->topo, from, to);
}

long nlru_min_free_kbytes(const struct nlru_engine *eng)
{
	return eng ? __atomic_load_n(&eng->min_free_kbytes, __ATOMIC_RELAXED) : -EINVAL;
}

int nlru_zonelist(const struct nlru_engine *eng, int nid, int *entries, int max)
{
	const struct zoneref *z;
	int n = 0;

	if (!eng)
		return -EINVAL;
	if (!entries || max < 0 || nid < 0 || nid >= eng->nr_nodes)
		return log_einval(&eng->log, "zonelist: node %d (of %d), %d entries at %p: %s", nid,
				  eng->nr_nodes, max, (void *)entries,
				  !entries  ? "entries is NULL"
				  : max < 0 ? "max is negative"
					    : "no such node");
	for (z = NODE_DATA(eng, nid)->node_zonelists[ZONELIST_FALLBACK]._zonerefs;
	     z->zone && n < max; z++)
		entries[n++] = z->zone->node * MAX_NR_ZONES + z->zone_idx;
	return n;
}
