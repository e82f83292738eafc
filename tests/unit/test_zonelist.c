/* Zonelists in node-distance order, for emulated 2- and 4-node topologies with distances. */
#include <criterion/criterion.h>

#include "helpers.h"

TestSuite(zonelist, .timeout = 30);

#define Z(nid, zid) ((nid)*NLRU_MAX_NR_ZONES + (zid))

static void expect_zonelist(struct nlru_engine *eng, int nid, const int *want, int n)
{
	int got[64];
	int nr = nlru_zonelist(eng, nid, got, 64);

	cr_assert_eq(nr, n, "node %d zonelist has %d entries, want %d", nid, nr, n);
	for (int i = 0; i < n; i++)
		cr_expect_eq(got[i], want[i], "node %d entry %d is node %d zone %d, want %d/%d",
			     nid, i, got[i] / NLRU_MAX_NR_ZONES, got[i] % NLRU_MAX_NR_ZONES,
			     want[i] / NLRU_MAX_NR_ZONES, want[i] % NLRU_MAX_NR_ZONES);
}

Test(zonelist, two_nodes_from_xml_with_distances)
{
	struct nlru_engine *eng = test_engine(8, NLRU_TEST_DATA "/topo-2node.xml");
	/* Local zones highest first, then the other node. */
	int node0[] = {Z(0, ZONE_NORMAL), Z(0, ZONE_DMA32), Z(1, ZONE_NORMAL)};
	int node1[] = {Z(1, ZONE_NORMAL), Z(0, ZONE_NORMAL), Z(0, ZONE_DMA32)};

	cr_assert_eq(nlru_engine_nr_nodes(eng), 2);
	cr_expect_eq(nlru_node_distance(eng, 0, 1), 21);
	cr_expect_eq(nlru_node_distance(eng, 1, 1), 10);
	expect_zonelist(eng, 0, node0, 3);
	expect_zonelist(eng, 1, node1, 3);
	destroy_engine(eng);
}

/*
 * Distances: {0,1} and {2,3} are pairs at 16, pairs are 32 apart.  Each node falls back to
 * its partner first, then to the far pair, in id order after itself.
 */
Test(zonelist, four_nodes_follow_distance_order)
{
	struct nlru_engine *eng = test_engine(8, NLRU_TEST_DATA "/topo-4node.xml");
	int node0[] = {Z(0, ZONE_NORMAL), Z(0, ZONE_DMA32), Z(1, ZONE_NORMAL), Z(2, ZONE_NORMAL),
		       Z(3, ZONE_NORMAL)};
	int node2[] = {Z(2, ZONE_NORMAL), Z(3, ZONE_NORMAL), Z(0, ZONE_NORMAL), Z(0, ZONE_DMA32),
		       Z(1, ZONE_NORMAL)};
	int node3[] = {Z(3, ZONE_NORMAL), Z(2, ZONE_NORMAL), Z(0, ZONE_NORMAL), Z(0, ZONE_DMA32),
		       Z(1, ZONE_NORMAL)};

	cr_assert_eq(nlru_engine_nr_nodes(eng), 4);
	cr_expect_eq(nlru_node_distance(eng, 0, 2), 32);
	cr_expect_eq(nlru_node_distance(eng, 2, 3), 16);
	expect_zonelist(eng, 0, node0, 5);
	expect_zonelist(eng, 2, node2, 5);
	expect_zonelist(eng, 3, node3, 5);
	destroy_engine(eng);
}

Test(zonelist, synthetic_string_without_distances_uses_20)
{
	struct nlru_engine *eng = test_engine(8, "pack:4 numa:1 core:1 pu:1");
	int node1[] = {Z(1, ZONE_NORMAL), Z(2, ZONE_NORMAL), Z(3, ZONE_NORMAL), Z(0, ZONE_NORMAL),
		       Z(0, ZONE_DMA32)};

	cr_expect_eq(nlru_node_distance(eng, 1, 3), 20);
	expect_zonelist(eng, 1, node1, 5);
	destroy_engine(eng);
}

/* The fallback order is what the allocator really walks: a full local node spills to node 1. */
Test(zonelist, allocation_falls_back_in_zonelist_order)
{
	struct nlru_engine *eng = test_engine(8, NLRU_TEST_DATA "/topo-2node.xml");
	int64_t before, after;
	void *p[2048];

	/* GFP_KERNEL on node 1 without THISNODE: node 1 Normal until its low mark, then node 0. */
	nlru_zone_stat_read(eng, 0, NLRU_ZONE_NORMAL, NLRU_NUMA_MISS, &before);
	for (int i = 0; i < 2048; i++)
		cr_assert_eq(nlru_alloc_pages(eng, NLRU_GFP_NOWAIT, 0, 1, &p[i]), 0);
	nlru_zone_stat_read(eng, 0, NLRU_ZONE_NORMAL, NLRU_NUMA_MISS, &after);
	cr_expect_gt(after, before, "node 0 Normal served node 1's overflow (numa_miss)");
	nlru_zone_stat_read(eng, 1, NLRU_ZONE_NORMAL, NLRU_NUMA_FOREIGN, &after);
	cr_expect_gt(after, 0, "node 1 counts numa_foreign for what it could not serve");
	/* While pages are allocated destroy refuses, and the engine stays usable. */
	cr_expect_eq(nlru_engine_destroy(eng), -EBUSY);
	for (int i = 0; i < 2048; i++)
		cr_assert_eq(nlru_free_pages(eng, p[i], 0), 0);
	destroy_engine(eng);
}
