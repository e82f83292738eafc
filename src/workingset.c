/*
 * workingset.c - refault detection (mm/workingset.c): one clock per lruvec, so per node in
 * node mode (4.8) and per zone in zone mode (4.7).
 *
 * The clock is lruvec->inactive_age: it ticks on every eviction and every activation of a
 * file page, so the distance between an eviction and its refault is the number of pages that
 * competed for the inactive list meanwhile.  The shadow entry names the node and the zone of
 * the evicted page, as 4.7's does, so a refault finds the clock it was stamped with.  A 64-bit
 * clock never wraps here, so the shadow keeps it whole (Linux packs it with the node and memcg into
 * a radix tree exceptional entry and drops low bits on huge machines).
 *
 * Shadow entries are bounded by a shrinker, as Linux's workingset_shadow_shrinker bounds its
 * radix tree nodes: a node may keep up to four shadow entries per file LRU page (Linux allows
 * file_lru_pages / 16 radix nodes of 64 slots).  Every 64 entries trimmed count as one
 * workingset_nodereclaim, the node of 64 slots that Linux would have freed.
 */
#include "workingset.h"
#include "filemap.h"
#include "lru.h"
#include "vmstat.h"

#define SHADOWS_PER_FILE_PAGE 4
#define SLOTS_PER_RADIX_NODE 64

uint64_t workingset_eviction(struct lruvec *lruvec, const struct page *page)
{
	uint64_t eviction = atomic_fetch_add(&lruvec->inactive_age, 1) + 1;

	atomic_fetch_add(&lruvec->pgdat->nr_shadows, 1);
	return shadow_slot(lruvec->pgdat->node_id, (int)page_zonenum(page), eviction);
}

void workingset_shadow_gone(struct nlru_engine *eng, uint64_t shadow)
{
	atomic_fetch_sub(&NODE_DATA(eng, slot_nid(shadow))->nr_shadows, 1);
}

bool workingset_refault(struct nlru_engine *eng, uint64_t shadow)
{
	struct pglist_data *pgdat = NODE_DATA(eng, slot_nid(shadow));
	struct lruvec *lruvec = pgdat->node_zones[shadow_zid(shadow)].page_lruvec;
	uint64_t eviction = shadow_eviction(shadow);
	uint64_t refault = atomic_load(&lruvec->inactive_age);
	uint64_t distance = refault - eviction;

	mod_lruvec_state(lruvec, NLRU_WORKINGSET_REFAULT, 1);
	/* Would it have stayed if the active file pages had made room for it? */
	if (distance > lruvec_lru_size(lruvec, LRU_ACTIVE_FILE))
		return false;
	mod_lruvec_state(lruvec, NLRU_WORKINGSET_ACTIVATE, 1);
	return true;
}

void workingset_activation(struct lruvec *lruvec)
{
	atomic_fetch_add(&lruvec->inactive_age, 1);
}

static long shadows_over_limit(struct nlru_engine *eng, int nid)
{
	struct pglist_data *pgdat = NODE_DATA(eng, nid);
	long file = node_page_state(pgdat, NLRU_NR_ACTIVE_FILE) +
		    node_page_state(pgdat, NLRU_NR_INACTIVE_FILE);

	return atomic_load(&pgdat->nr_shadows) - SHADOWS_PER_FILE_PAGE * file;
}

static unsigned long count_shadows(void *arg, struct nlru_shrink_control *sc)
{
	long over = shadows_over_limit(arg, sc->nid);

	return over > 0 ? (unsigned long)over : 0;
}

static unsigned long scan_shadows(void *arg, struct nlru_shrink_control *sc)
{
	struct nlru_engine *eng = arg;
	struct pglist_data *pgdat = NODE_DATA(eng, sc->nid);
	unsigned long trimmed = filemap_trim_shadows(eng, sc->nid, sc->nr_to_scan);
	long before = atomic_fetch_add(&pgdat->shadows_trimmed, (long)trimmed);
	long nodes =
		(before + (long)trimmed) / SLOTS_PER_RADIX_NODE - before / SLOTS_PER_RADIX_NODE;

	/* Radix tree nodes are slab objects, so 4.7 books them on a zone: the node's highest. */
	if (nodes)
		mod_lruvec_state(pgdat->node_zones[pgdat->nr_zones - 1].page_lruvec,
				 NLRU_WORKINGSET_NODERECLAIM, nodes);
	return trimmed;
}

int workingset_init(struct nlru_engine *eng)
{
	struct nlru_shrinker_def def = {
		.size = sizeof(def),
		.count = count_shadows,
		.scan = scan_shadows,
		.arg = eng,
		.flags = NLRU_SHRINKER_NUMA_AWARE,
	};

	/* Unregistered by engine_free(), so that what is left there is the user's. */
	return nlru_shrinker_register(eng, &def, &eng->shadow_shrinker);
}
