/* Zonelists: the order in which the allocator tries zones, local node first (node order). */
#ifndef NODELRU_ZONELIST_H
#define NODELRU_ZONELIST_H

#include <stddef.h>

#include <nodelru/nodelru.h>

#include "mmzone.h"

struct nlru_engine;

/* build_zonelists() for every node; needs the topology distances and populated zones. */
void build_all_zonelists(struct nlru_engine *eng);

static inline struct zonelist *node_zonelist(struct pglist_data *pgdat, unsigned int gfp)
{
	return &pgdat->node_zonelists[gfp & NLRU_GFP_THISNODE ? ZONELIST_NOFALLBACK
							      : ZONELIST_FALLBACK];
}

/* first_zones_zonelist(): the first entry whose zone index is at most @highest. */
static inline struct zoneref *first_zones_zonelist(struct zonelist *zonelist, int highest)
{
	struct zoneref *z = zonelist->_zonerefs;

	while (z->zone && z->zone_idx > highest)
		z++;
	return z;
}

/* Walk entries from @z on whose zone index is at most @highest. */
#define for_next_zone_zonelist(zone, z, highest)                                                   \
	for (; ((zone) = (z)->zone) != NULL; (z)++)                                                \
		if ((z)->zone_idx <= (highest))

#endif /* NODELRU_ZONELIST_H */
