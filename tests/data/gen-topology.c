/*
 * Writes the hwloc XML fixtures of this folder: an hwloc synthetic topology plus a distance
 * matrix (synthetic strings cannot carry distances; XML can).  Not built by meson:
 *
 *   cc gen-topology.c -o gen $(pkg-config --cflags --libs hwloc)
 *   ./gen "pack:2 numa:1 core:1 pu:1" 2 10 21 21 10 topo-2node.xml
 *   ./gen "pack:4 numa:1 core:1 pu:1" 4 10 16 32 32 16 10 32 32 32 32 10 16 32 32 16 10
 * topo-4node.xml
 */
#include <hwloc.h>
#include <stdio.h>
#include <stdlib.h>
/* usage: gen SYNTHETIC N d00 d01 ... OUT.xml */
int main(int argc, char **argv)
{
	hwloc_topology_t t;
	int n = atoi(argv[2]);
	hwloc_topology_init(&t);
	hwloc_topology_set_synthetic(t, argv[1]);
	hwloc_topology_load(t);
	hwloc_obj_t objs[16];
	hwloc_uint64_t vals[256];
	for (int i = 0; i < n; i++)
		objs[i] = hwloc_get_obj_by_type(t, HWLOC_OBJ_NUMANODE, i);
	for (int i = 0; i < n * n; i++)
		vals[i] = strtoull(argv[3 + i], NULL, 10);
	hwloc_distances_add_handle_t h = hwloc_distances_add_create(
		t, "emulated", HWLOC_DISTANCES_KIND_FROM_USER | HWLOC_DISTANCES_KIND_MEANS_LATENCY,
		0);
	if (!h || hwloc_distances_add_values(t, h, n, objs, vals, 0) < 0 ||
	    hwloc_distances_add_commit(t, h, 0) < 0) {
		fprintf(stderr, "fail\n");
		return 1;
	}
	if (hwloc_topology_export_xml(t, argv[3 + n * n], 0) < 0) {
		fprintf(stderr, "export fail\n");
		return 1;
	}
	hwloc_topology_destroy(t);
	return 0;
}
