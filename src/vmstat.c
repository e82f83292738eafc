/*
 * vmstat.c - counter names, reporting reads and the public snapshot.
 *
 * Every table below is generated from vmstat_items.h.  Reads are lock-free: each counter is
 * read atomically, and per-CPU list counts are folded in as Linux folds vm_stat_diff.
 */
#include <errno.h>
#include <string.h>

#include "pcp.h"
#include "vmstat.h"
#include "watermark.h"

enum event_kind { EV_GLOBAL, EV_ZONED, EV_ZONED_SUM };

struct event_desc {
	const char *name; /* expanded: "pgalloc_dma32" */
	const char *base; /* "pgalloc" */
	const char *help;
	enum event_kind kind;
	int zid; /* zone of an expanded zoned slot */
};

/* Every table below is indexed by the counter's value (vmstat_items.h), not its place. */
#define ZONE_SLOTS(e, v, n, h, kind)                                                               \
	[v] = {n "_dma", n, h, kind, 0}, [v + 1] = {n "_dma32", n, h, kind, 1},                    \
	[v + 2] = {n "_normal", n, h, kind, 2}, [v + 3] = {n "_movable", n, h, kind, 3},
#define G_(e, v, n, h) [v] = {n, n, h, EV_GLOBAL, 0},
#define Z_(e, v, n, h) ZONE_SLOTS(e, v, n, h, EV_ZONED)
#define ZS_(e, v, n, h) ZONE_SLOTS(e, v, n, h, EV_ZONED_SUM)
static const struct event_desc event_desc[NR_VM_EVENT_ITEMS] = {NLRU_VM_EVENT_ITEMS(G_, Z_, ZS_)};
#undef G_
#undef Z_
#undef ZS_

STATIC_ASSERT(MAX_NR_ZONES == 4, "ZONE_SLOTS names exactly four zone types");

#define NAME_(e, v, n, h) [v] = n,
#define HELP_(e, v, n, h) [v] = h,
static const char *const zone_stat_text[NR_VM_ZONE_STAT_ITEMS] = {NLRU_ZONE_STAT_ITEMS(NAME_)};
static const char *const zone_stat_help_text[NR_VM_ZONE_STAT_ITEMS] = {NLRU_ZONE_STAT_ITEMS(HELP_)};
static const char *const node_stat_text[NR_VM_NODE_STAT_ITEMS] = {NLRU_NODE_STAT_ITEMS(NAME_)};
static const char *const node_stat_help_text[NR_VM_NODE_STAT_ITEMS] = {NLRU_NODE_STAT_ITEMS(HELP_)};
#undef NAME_
#undef HELP_

/* The print order: the order of the lists. */
#define ITEM_(e, v, n, h) NLRU_##e,
#define SLOTS_(e, v, n, h) NLRU_##e, NLRU_##e + 1, NLRU_##e + 2, NLRU_##e + 3,
const enum nlru_zone_stat_item zone_stat_order[NR_VM_ZONE_STAT_ITEMS] = {
	NLRU_ZONE_STAT_ITEMS(ITEM_)};
const enum nlru_node_stat_item node_stat_order[NR_VM_NODE_STAT_ITEMS] = {
	NLRU_NODE_STAT_ITEMS(ITEM_)};
const enum nlru_vm_event_item vm_event_order[NR_VM_EVENT_ITEMS] = {
	NLRU_VM_EVENT_ITEMS(ITEM_, SLOTS_, SLOTS_)};
#undef ITEM_
#undef SLOTS_

/*
 * The values of each list are 0 .. NR - 1, each once: every value is below NR (these asserts),
 * no two are equal (the case labels below: a repeat does not compile), and NR counts them.
 */
#define BELOW_(v, slots, nr) STATIC_ASSERT((v) + (slots) <= (nr), "a counter value past its list");
#define ZONE_BELOW_(e, v, n, h) BELOW_(v, 1, NR_VM_ZONE_STAT_ITEMS)
#define NODE_BELOW_(e, v, n, h) BELOW_(v, 1, NR_VM_NODE_STAT_ITEMS)
#define EVENT_BELOW_(e, v, n, h) BELOW_(v, 1, NR_VM_EVENT_ITEMS)
#define ZONED_BELOW_(e, v, n, h) BELOW_(v, MAX_NR_ZONES, NR_VM_EVENT_ITEMS)
NLRU_ZONE_STAT_ITEMS(ZONE_BELOW_)
NLRU_NODE_STAT_ITEMS(NODE_BELOW_)
NLRU_VM_EVENT_ITEMS(EVENT_BELOW_, ZONED_BELOW_, ZONED_BELOW_)
#undef BELOW_
#undef ZONE_BELOW_
#undef NODE_BELOW_
#undef EVENT_BELOW_
#undef ZONED_BELOW_

#define CASE_(e, v, n, h) case v:
#define CASES_(e, v, n, h)                                                                         \
	case v:                                                                                    \
	case v + 1:                                                                                \
	case v + 2:                                                                                \
	case v + 3:
static __attribute__((unused)) void counter_values_are_distinct(int v)
{
	switch (v) {
		NLRU_ZONE_STAT_ITEMS(CASE_)
		break;
	}
	switch (v) {
		NLRU_NODE_STAT_ITEMS(CASE_)
		break;
	}
	switch (v) {
		NLRU_VM_EVENT_ITEMS(CASE_, CASES_, CASES_)
		break;
	}
}
#undef CASE_
#undef CASES_

static const char *const zone_names[MAX_NR_ZONES] = {"DMA", "DMA32", "Normal", "Movable"};

const char *nlru_zone_name(enum nlru_zone_type zone)
{
	return (unsigned int)zone < MAX_NR_ZONES ? zone_names[zone] : NULL;
}

const char *nlru_zone_stat_name(enum nlru_zone_stat_item item)
{
	return (unsigned int)item < NR_VM_ZONE_STAT_ITEMS ? zone_stat_text[item] : NULL;
}

const char *nlru_node_stat_name(enum nlru_node_stat_item item)
{
	return (unsigned int)item < NR_VM_NODE_STAT_ITEMS ? node_stat_text[item] : NULL;
}

const char *nlru_vm_event_name(enum nlru_vm_event_item item)
{
	return (unsigned int)item < NR_VM_EVENT_ITEMS ? event_desc[item].name : NULL;
}

const char *nlru_zone_stat_help(enum nlru_zone_stat_item item)
{
	return (unsigned int)item < NR_VM_ZONE_STAT_ITEMS ? zone_stat_help_text[item] : NULL;
}

const char *nlru_node_stat_help(enum nlru_node_stat_item item)
{
	return (unsigned int)item < NR_VM_NODE_STAT_ITEMS ? node_stat_help_text[item] : NULL;
}

const char *nlru_vm_event_help(enum nlru_vm_event_item item)
{
	return (unsigned int)item < NR_VM_EVENT_ITEMS ? event_desc[item].help : NULL;
}

int calculate_normal_threshold(const struct nlru_engine *eng, const struct zone *zone)
{
	int cpus_fls = 32 - __builtin_clz((unsigned int)eng->nr_cpus);
	unsigned long mem = zone->managed_pages >> (27 - PAGE_SHIFT);
	int mem_fls = mem ? 64 - __builtin_clzl(mem) : 0;

	return MIN(125, 2 * cpus_fls * (1 + mem_fls));
}

int calculate_pressure_threshold(const struct nlru_engine *eng, const struct zone *zone)
{
	int watermark_distance = (int)(low_wmark_pages(zone) - min_wmark_pages(zone));

	return MIN(125, MAX(1, watermark_distance / eng->nr_cpus));
}

void refresh_zone_stat_thresholds(struct nlru_engine *eng)
{
	struct pglist_data *pgdat;
	struct zone *zone;
	int nid;

	for_each_online_pgdat(pgdat, eng, nid) {
		pgdat->stat_threshold = 0;
		for_each_zone_in_node(zone, pgdat) {
			unsigned long tolerate_drift, max_drift;
			int threshold;

			if (!populated_zone(zone))
				continue;
			threshold = calculate_normal_threshold(eng, zone);
			atomic_store_explicit(&zone->stat_threshold, threshold,
					      memory_order_relaxed);
			pgdat->stat_threshold = MAX(pgdat->stat_threshold, threshold);
			/* Linux leaves the mark alone otherwise; it is 0 from boot. */
			tolerate_drift = low_wmark_pages(zone) - min_wmark_pages(zone);
			max_drift = (unsigned long)eng->nr_cpus * (unsigned long)threshold;
			zone->percpu_drift_mark =
				max_drift > tolerate_drift ? high_wmark_pages(zone) + max_drift : 0;
		}
	}
}

void set_pgdat_percpu_threshold(const struct nlru_engine *eng, struct pglist_data *pgdat,
				int (*calculate)(const struct nlru_engine *, const struct zone *))
{
	for (int zid = 0; zid < pgdat->nr_zones; zid++) {
		struct zone *zone = &pgdat->node_zones[zid];

		if (!zone->percpu_drift_mark)
			continue;
		atomic_store_explicit(&zone->stat_threshold, calculate(eng, zone),
				      memory_order_relaxed);
	}
}

/* Order-0 allocations made through a zone's per-CPU lists. */
static long pcp_alloc_sum(const struct nlru_engine *eng, const struct zone *zone)
{
	long sum = 0;

	for (int mt = 0; zone->pageset[0] && mt < MIGRATE_PCPTYPES; mt++)
		for (int cpu = 0; cpu < eng->nr_cpus; cpu++)
			sum += (long)pcp_allocs(&zone->pageset[mt][cpu]);
	return sum;
}

/*
 * The NUMA counters of order-0 allocations live in the per-CPU lists, which count only
 * allocations and the exceptions (a miss, another node's CPU) to keep the fast path short.
 */
long zone_stat_read(const struct nlru_engine *eng, const struct zone *zone,
		    enum nlru_zone_stat_item item)
{
	long v = zone_page_state(zone, item);

	long miss = atomic_load_explicit(&zone->pcp_numa_miss, memory_order_relaxed);
	long other = atomic_load_explicit(&zone->pcp_numa_other, memory_order_relaxed);

	switch (item) {
	case NLRU_NUMA_HIT:
		return v + pcp_alloc_sum(eng, zone) - miss;
	case NLRU_NUMA_MISS:
		return v + miss;
	case NLRU_NUMA_LOCAL:
		return v + pcp_alloc_sum(eng, zone) - other;
	case NLRU_NUMA_OTHER:
		return v + other;
	default:
		return v;
	}
}

/* Pages freed into a zone's per-CPU lists, from the balance of what went in and out. */
static long pcp_frees(struct nlru_engine *eng, struct zone *zone)
{
	long sum = 0;

	for (int i = 0; zone->pageset[0] && i < eng->nr_cpus * MIGRATE_PCPTYPES; i++) {
		/* Under the lock, so that count and the totals agree. */
		struct per_cpu_pages *pcp =
			pcp_lock_cpu(eng, zone->pageset[i / eng->nr_cpus], i % eng->nr_cpus);

		sum += pcp_count(pcp) + (long)pcp_allocs(pcp) +
		       atomic_load(&pcp->stat[PCP_RETURNED]) -
		       atomic_load(&pcp->stat[PCP_REFILLED]);
		pcp_unlock(eng, pcp);
	}
	return sum;
}

/* Per-CPU list counts that belong to event @item, over every zone they apply to. */
static unsigned long pcp_event_sum(struct nlru_engine *eng, enum nlru_vm_event_item item)
{
	bool zoned = item >= NLRU_PGALLOC && item < NLRU_PGALLOC + MAX_NR_ZONES;
	unsigned long sum = 0;

	if (!zoned && item != NLRU_PGFREE)
		return 0;
	for (int nid = 0; nid < eng->nr_nodes; nid++) {
		struct pglist_data *pgdat = NODE_DATA(eng, nid);

		for (int zid = 0; zid < MAX_NR_ZONES; zid++) {
			struct zone *zone = &pgdat->node_zones[zid];

			if (!zoned)
				sum += (unsigned long)pcp_frees(eng, zone);
			else if ((int)(item - NLRU_PGALLOC) == zid)
				sum += (unsigned long)pcp_alloc_sum(eng, zone);
		}
	}
	return sum;
}

unsigned long vm_event_read(struct nlru_engine *eng, enum nlru_vm_event_item item)
{
	unsigned long sum = pcp_event_sum(eng, item);

	for (int cpu = 0; cpu < eng->nr_cpus; cpu++)
		sum += atomic_load_explicit(&eng->vm_events[cpu].event[item], memory_order_relaxed);
	return sum;
}

int nlru_vmstat_read(struct nlru_engine *eng, struct nlru_vmstat *snap)
{
	if (!eng)
		return -EINVAL;
	if (!snap)
		return log_einval(&eng->log, "vmstat: snapshot is NULL");
	if (snap->size < sizeof(*snap) || snap->version == 0 ||
	    snap->version > NLRU_VMSTAT_VERSION) {
		log_err(&eng->log,
			"vmstat: snapshot size %zu, version %u is not one this library knows "
			"(size at least %zu, version 1 to %d)",
			snap->size, snap->version, sizeof(*snap), NLRU_VMSTAT_VERSION);
		return -EINVAL;
	}
	memset((char *)snap + offsetof(struct nlru_vmstat, nr_nodes), 0,
	       sizeof(*snap) - offsetof(struct nlru_vmstat, nr_nodes));
	snap->nr_nodes = (uint32_t)eng->nr_nodes;
	for (int i = 0; i < NR_VM_EVENT_ITEMS; i++)
		snap->events[i] = vm_event_read(eng, (enum nlru_vm_event_item)i);
	for (int nid = 0; nid < eng->nr_nodes; nid++) {
		const struct pglist_data *pgdat = NODE_DATA(eng, nid);

		for (int i = 0; i < NR_VM_NODE_STAT_ITEMS; i++)
			snap->node[i] += node_page_state(pgdat, (enum nlru_node_stat_item)i);
		for (int zid = 0; zid < MAX_NR_ZONES; zid++)
			for (int i = 0; i < NR_VM_ZONE_STAT_ITEMS; i++)
				snap->zone[i] += zone_stat_read(eng, &pgdat->node_zones[zid],
								(enum nlru_zone_stat_item)i);
	}
	return 0;
}

int nlru_vmstat_get(const struct nlru_vmstat *snap, const char *name, int64_t *value)
{
	int64_t sum = 0;
	bool found = false;

	if (!snap || !name || !value)
		return -EINVAL;
	for (int i = 0; i < NR_VM_ZONE_STAT_ITEMS; i++)
		if (strcmp(zone_stat_text[i], name) == 0)
			return *value = snap->zone[i], 0;
	for (int i = 0; i < NR_VM_NODE_STAT_ITEMS; i++)
		if (strcmp(node_stat_text[i], name) == 0)
			return *value = snap->node[i], 0;
	for (int i = 0; i < NR_VM_EVENT_ITEMS; i++) {
		const struct event_desc *d = &event_desc[i];

		if (strcmp(d->name, name) == 0)
			return *value = (int64_t)snap->events[i], 0;
		/*
		 * A zoned counter also answers to its name without the zone, as the sum over
		 * zones: the 4.8 name of pgscan_kswapd and the like, 4.7's single allocstall.
		 */
		if (d->kind != EV_GLOBAL && strcmp(d->base, name) == 0) {
			sum += (int64_t)snap->events[i];
			found = true;
		}
	}
	if (!found)
		return -ENOENT;
	*value = sum;
	return 0;
}

int nlru_zone_stat_read(struct nlru_engine *eng, int nid, enum nlru_zone_type zone,
			enum nlru_zone_stat_item item, int64_t *value)
{
	if (!eng)
		return -EINVAL;
	if (!value || nid < 0 || nid >= eng->nr_nodes || (unsigned int)zone >= MAX_NR_ZONES ||
	    (unsigned int)item >= NR_VM_ZONE_STAT_ITEMS)
		return log_einval(&eng->log,
				  "zone_stat_read: node %d zone %d item %d%s: nodes 0 to %d, zones "
				  "0 to %d, items 0 to %d",
				  nid, (int)zone, (int)item, value ? "" : " into a NULL value",
				  eng->nr_nodes - 1, MAX_NR_ZONES - 1, NR_VM_ZONE_STAT_ITEMS - 1);
	*value = zone_stat_read(eng, &NODE_DATA(eng, nid)->node_zones[zone], item);
	return 0;
}

int nlru_node_stat_read(struct nlru_engine *eng, int nid, enum nlru_node_stat_item item,
			int64_t *value)
{
	if (!eng)
		return -EINVAL;
	if (!value || nid < 0 || nid >= eng->nr_nodes ||
	    (unsigned int)item >= NR_VM_NODE_STAT_ITEMS)
		return log_einval(&eng->log,
				  "node_stat_read: node %d item %d%s: nodes 0 to %d, items 0 to %d",
				  nid, (int)item, value ? "" : " into a NULL value",
				  eng->nr_nodes - 1, NR_VM_NODE_STAT_ITEMS - 1);
	*value = node_page_state(NODE_DATA(eng, nid), item);
	return 0;
}

/* For the dumps: how the 4.8 /proc/vmstat prints slot @item. */
bool vm_event_printed_per_zone(enum nlru_vm_event_item item, const char **sum_name)
{
	const struct event_desc *d = &event_desc[item];

	*sum_name = d->kind == EV_ZONED_SUM ? d->base : NULL;
	return d->kind == EV_ZONED;
}

int vm_event_zone(enum nlru_vm_event_item item)
{
	return event_desc[item].zid;
}
