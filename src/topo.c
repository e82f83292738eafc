/*
 * topo.c - NUMA topology through hwloc, memory binding through libnuma's mbind.
 *
 * Owns: the node table (CPUs, distances, real-or-emulated) of one engine.  It is built once at
 * engine creation and read-only afterwards, so it needs no lock.
 * Does not: allocate or touch node memory (os.c), or decide policy for failed binding (engine).
 */
#include <errno.h>
#include <hwloc.h>
#include <numa.h>
#include <numaif.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <nodelru/nodelru.h>

#include "debug.h"
#include "log.h"
#include "topo.h"

#define LOCAL_DISTANCE 10
#define REMOTE_DISTANCE 20 /* Linux's default when firmware gives no SLIT */

struct topo_node {
	unsigned int os_index; /* the node's number in the topology (real node id when real) */
	bool real;
	int nr_cpus;
	int *cpus; /* real CPU ids */
};

struct topo {
	bool emulated;
	int nr_nodes;
	int nr_possible_cpus;
	struct topo_node nodes[NLRU_MAX_NUMNODES];
	int distance[NLRU_MAX_NUMNODES][NLRU_MAX_NUMNODES];
	int *cpu_node; /* [nr_possible_cpus] */
};

int topo_possible_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_CONF);

	return n > 0 ? (int)n : 1;
}

static bool is_xml_path(const char *desc)
{
	size_t len = strlen(desc);

	return strchr(desc, '/') || (len > 4 && strcmp(desc + len - 4, ".xml") == 0);
}

static int load_hwloc(hwloc_topology_t *out, const char *desc, const struct nlru_log *log)
{
	hwloc_topology_t t;
	int r = 0;

	if (hwloc_topology_init(&t) < 0)
		return -ENOMEM;
	if (desc && *desc) {
		if (is_xml_path(desc))
			r = hwloc_topology_set_xml(t, desc);
		else
			r = hwloc_topology_set_synthetic(t, desc);
	}
	if (r == 0)
		r = hwloc_topology_load(t);
	if (r < 0) {
		log_err(log, "topology \"%s\" cannot be parsed by hwloc (%s)", desc,
			is_xml_path(desc) ? "XML file" : "synthetic description");
		hwloc_topology_destroy(t);
		return -EINVAL;
	}
	*out = t;
	return 0;
}

/* Real CPUs of a node: its own PUs on the real machine, PUs folded onto real CPUs otherwise. */
static int collect_cpus(struct topo *topo, hwloc_topology_t t, hwloc_obj_t numa, int nid)
{
	struct topo_node *node = &topo->nodes[nid];
	int n = hwloc_bitmap_weight(numa->cpuset);
	unsigned int pu_index;

	node->cpus = calloc(n > 0 ? (size_t)n : 1, sizeof(int));
	if (!node->cpus)
		return -ENOMEM;
	hwloc_bitmap_foreach_begin(pu_index, numa->cpuset)
	{
		hwloc_obj_t pu = hwloc_get_pu_obj_by_os_index(t, pu_index);
		unsigned int id =
			pu ? (topo->emulated ? pu->logical_index : pu->os_index) : pu_index;
		int cpu = (int)(id % (unsigned int)topo->nr_possible_cpus);

		node->cpus[node->nr_cpus++] = cpu;
		if (topo->cpu_node[cpu] < 0)
			topo->cpu_node[cpu] = nid;
	}
	hwloc_bitmap_foreach_end();
	return 0;
}

static void read_distances(struct topo *topo, hwloc_topology_t t)
{
	struct hwloc_distances_s *dist = NULL;
	unsigned int nr = 1;

	for (int i = 0; i < topo->nr_nodes; i++)
		for (int j = 0; j < topo->nr_nodes; j++)
			topo->distance[i][j] = i == j ? LOCAL_DISTANCE : REMOTE_DISTANCE;
	if (hwloc_distances_get_by_type(t, HWLOC_OBJ_NUMANODE, &nr, &dist, 0, 0) < 0 || nr == 0)
		return;
	for (unsigned int i = 0; i < dist->nbobjs; i++) {
		for (unsigned int j = 0; j < dist->nbobjs; j++) {
			unsigned int a = dist->objs[i]->logical_index,
				     b = dist->objs[j]->logical_index;
			uint64_t v = dist->values[i * dist->nbobjs + j];

			if (a < (unsigned int)topo->nr_nodes && b < (unsigned int)topo->nr_nodes &&
			    v)
				topo->distance[a][b] = (int)MIN(v, 255u);
		}
	}
	hwloc_distances_release(t, dist);
}

static int build_nodes(struct topo *topo, hwloc_topology_t t, const struct nlru_log *log)
{
	int n = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_NUMANODE);
	bool libnuma = !topo->emulated && numa_available() >= 0;

	if (n <= 0 || n > NLRU_MAX_NUMNODES) {
		log_err(log, "topology has %d NUMA nodes; the engine supports 1 to %d", n,
			NLRU_MAX_NUMNODES);
		return -EINVAL;
	}
	topo->nr_nodes = n;
	for (int nid = 0; nid < n; nid++) {
		hwloc_obj_t numa = hwloc_get_obj_by_type(t, HWLOC_OBJ_NUMANODE, (unsigned int)nid);
		int r;

		topo->nodes[nid].os_index = numa->os_index;
		topo->nodes[nid].real = libnuma && (int)numa->os_index <= numa_max_node();
		r = collect_cpus(topo, t, numa, nid);
		if (r)
			return r;
	}
	read_distances(topo, t);
	return 0;
}

int topo_load(const char *desc, const struct nlru_log *log, struct topo **out)
{
	hwloc_topology_t t;
	struct topo *topo;
	int r;

	topo = calloc(1, sizeof(*topo));
	if (!topo)
		return -ENOMEM;
	topo->emulated = desc && *desc;
	topo->nr_possible_cpus = topo_possible_cpus();
	topo->cpu_node = malloc(sizeof(int) * (size_t)topo->nr_possible_cpus);
	if (!topo->cpu_node) {
		free(topo);
		return -ENOMEM;
	}
	memset(topo->cpu_node, 0xff, sizeof(int) * (size_t)topo->nr_possible_cpus);
	r = load_hwloc(&t, desc, log);
	if (r == 0) {
		r = build_nodes(topo, t, log);
		hwloc_topology_destroy(t);
	}
	if (r) {
		topo_destroy(topo);
		return r;
	}
	for (int cpu = 0; cpu < topo->nr_possible_cpus; cpu++)
		if (topo->cpu_node[cpu] < 0)
			topo->cpu_node[cpu] = 0;
	*out = topo;
	return 0;
}

void topo_destroy(struct topo *topo)
{
	if (!topo)
		return;
	for (int nid = 0; nid < NLRU_MAX_NUMNODES; nid++)
		free(topo->nodes[nid].cpus);
	free(topo->cpu_node);
	free(topo);
}

int topo_nr_nodes(const struct topo *topo)
{
	return topo->nr_nodes;
}

int topo_distance(const struct topo *topo, int from, int to)
{
	return topo->distance[from][to];
}

int topo_cpu_to_node(const struct topo *topo, int cpu)
{
	if (cpu < 0 || cpu >= topo->nr_possible_cpus)
		return 0;
	return topo->cpu_node[cpu];
}

int topo_node_cpus(const struct topo *topo, int nid, int *cpus, int max)
{
	const struct topo_node *node = &topo->nodes[nid];
	int n = MIN(node->nr_cpus, max);

	memcpy(cpus, node->cpus, sizeof(int) * (size_t)n);
	return n;
}

bool topo_node_is_real(const struct topo *topo, int nid)
{
	return topo->nodes[nid].real;
}

bool topo_is_emulated(const struct topo *topo)
{
	return topo->emulated;
}

int topo_bind_memory(const struct topo *topo, int nid, void *addr, size_t len)
{
	unsigned long mask[NLRU_MAX_NUMNODES / (8 * sizeof(unsigned long)) + 1] = {0};
	unsigned int os = topo->nodes[nid].os_index;

	if (!topo->nodes[nid].real)
		return -ENODEV;
	if (os >= 8 * sizeof(mask))
		return -EINVAL;
	mask[os / (8 * sizeof(unsigned long))] |= 1ul << (os % (8 * sizeof(unsigned long)));
	if (mbind(addr, len, MPOL_BIND, mask, 8 * sizeof(mask), 0) < 0)
		return -errno;
	return 0;
}

int topo_bind_thread(const struct topo *topo, int nid)
{
	const struct topo_node *node = &topo->nodes[nid];
	cpu_set_t set;

	CPU_ZERO(&set);
	for (int i = 0; i < node->nr_cpus; i++)
		CPU_SET(node->cpus[i], &set);
	return -pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}
