/*
 * zonelist.c - build_zonelists() in node order, the 64-bit default (ZONELIST_ORDER_NODE):
 * all zones of the local node from the highest index down, then the nearest other node's,
 * and so on by distance.  Equal distances go to the node that follows the local one in id
 * order, which spreads fallback load the way Linux's find_next_best_node() penalty does for
 * the common symmetric cases.  Built once at creation, read-only afterwards.
 */
#include <stdlib.h>

#include "engine.h"
#include "topo.h"
#include "zonelist.h"

static int add_node_zones(struct pglist_data *pgdat, struct zoneref *zrefs, int nr)
{
	for (int zid = MAX_NR_ZONES - 1; zid >= 0; zid--) {
		struct zone *zone = &pgdat->node_zones[zid];

		if (!managed_zone(zone))
			continue;
		zrefs[nr].zone = zone;
		zrefs[nr].zone_idx = zid;
		nr++;
	}
	return nr;
}

/* Nodes sorted by distance from @local, ties broken by id distance after @local. */
static void node_order(const struct nlru_engine *eng, int local, int *order)
{
	int n = eng->nr_nodes;

	for (int i = 0; i < n; i++)
		order[i] = (local + i) % n;
	for (int i = 1; i < n; i++) {
		int key = order[i], j = i - 1;
		int dkey = topo_distance(eng->topo, local, key);

		while (j >= 0 && topo_distance(eng->topo, local, order[j]) > dkey) {
			order[j + 1] = order[j];
			j--;
		}
		order[j + 1] = key;
	}
}

static void build_zonelists(struct nlru_engine *eng, struct pglist_data *pgdat)
{
	struct zoneref *fallback = pgdat->node_zonelists[ZONELIST_FALLBACK]._zonerefs;
	struct zoneref *nofallback = pgdat->node_zonelists[ZONELIST_NOFALLBACK]._zonerefs;
	int order[MAX_NUMNODES];
	int nr = 0;

	node_order(eng, pgdat->node_id, order);
	for (int i = 0; i < eng->nr_nodes; i++)
		nr = add_node_zones(NODE_DATA(eng, order[i]), fallback, nr);
	fallback[nr].zone = NULL;
	nr = add_node_zones(pgdat, nofallback, 0);
	nofallback[nr].zone = NULL;
}

void build_all_zonelists(struct nlru_engine *eng)
{
	struct pglist_data *pgdat;
	int nid;

	for_each_online_pgdat(pgdat, eng, nid)
		build_zonelists(eng, pgdat);
}
