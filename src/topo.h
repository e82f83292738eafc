/*
 * The OS topology layer: the only code that calls hwloc and libnuma (as mimalloc keeps its
 * prim layer).  The rest of the engine sees node ids 0..n-1, distances, real CPU ids and
 * "bind this range to that node".
 *
 * A topology is the real machine's, or an emulated one loaded from an hwloc synthetic string
 * or XML file.  Emulated nodes are mapped onto the machine's real CPUs round-robin and their
 * memory is never bound; a node is "real" only when the topology is this system's and libnuma
 * knows the node.
 */
#ifndef NODELRU_TOPO_H
#define NODELRU_TOPO_H

#include <stdbool.h>
#include <stddef.h>

struct nlru_log;
struct topo;

/* Load @desc (NULL/"" real machine, synthetic string, or XML path).  -EINVAL if unparsable. */
int topo_load(const char *desc, const struct nlru_log *log, struct topo **out);
void topo_destroy(struct topo *topo);

int topo_nr_nodes(const struct topo *topo);
/* SLIT distance: 10 local; topologies without distances get Linux's default 20 for remote. */
int topo_distance(const struct topo *topo, int from, int to);
/* The node whose CPUs include real CPU @cpu (CPUs of no node count as node 0). */
int topo_cpu_to_node(const struct topo *topo, int cpu);
/* Real CPU ids that run node @nid's threads; returns how many were written (at most @max). */
int topo_node_cpus(const struct topo *topo, int nid, int *cpus, int max);
bool topo_node_is_real(const struct topo *topo, int nid);
bool topo_is_emulated(const struct topo *topo);

/*
 * Bind [addr, addr+len) to real node @nid with mbind(MPOL_BIND).  Returns 0, or -errno when
 * the kernel refuses (EPERM in containers without CAP_SYS_NICE); the memory stays usable.
 */
int topo_bind_memory(const struct topo *topo, int nid, void *addr, size_t len);

/* Run the calling thread on node @nid's real CPUs (kswapd).  0 or -errno. */
int topo_bind_thread(const struct topo *topo, int nid);

/* Number of CPUs the machine may run (per-CPU arrays are sized by it). */
int topo_possible_cpus(void);

#endif /* NODELRU_TOPO_H */
