/*
 * Topology and node memory: the real machine, emulated nodes, and binding that the kernel
 * refuses (made real with a seccomp filter in this test's own process).
 */
#include <criterion/criterion.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <numa.h>
#include <numaif.h>
#include <stddef.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

#include "helpers.h"
#include "topo.h"
#include "vmstat.h"

TestSuite(topology, .timeout = 30);

static long membind_fallbacks(struct nlru_engine *eng)
{
	struct nlru_vmstat snap = {.size = sizeof(snap), .version = NLRU_VMSTAT_VERSION};

	nlru_vmstat_read(eng, &snap);
	return (long)snap.events[NLRU_MEMBIND_FALLBACK];
}

Test(topology, real_machine_nodes_are_bound)
{
	struct nlru_engine *eng = test_engine(8, NULL);
	int nodes = numa_available() >= 0 ? numa_max_node() + 1 : 1;

	cr_expect_eq(nlru_engine_nr_nodes(eng), nodes);
	cr_expect_eq(nlru_node_distance(eng, 0, 0), 10);
	/* Either the binding held, or its refusal was counted. */
	for (int nid = 0; nid < nodes; nid++)
		cr_expect(NODE_DATA(eng, nid)->mem_bound || membind_fallbacks(eng) > 0);
	if (NODE_DATA(eng, 0)->mem_bound) {
		int mode = -1;
		unsigned long mask = 0;

		cr_assert_eq(get_mempolicy(&mode, &mask, 64, NODE_DATA(eng, 0)->mem, MPOL_F_ADDR),
			     0);
		cr_expect_eq(mode, MPOL_BIND);
		cr_expect_eq(mask, 1ul, "node 0's memory is bound to real node 0");
	}
	destroy_engine(eng);
}

Test(topology, real_multi_node_machine)
{
	if (numa_available() < 0 || numa_max_node() < 1)
		cr_skip_test("this machine has one NUMA node");
	struct nlru_engine *eng = test_engine(8, NULL);

	for (int nid = 0; nid < nlru_engine_nr_nodes(eng); nid++)
		cr_expect(NODE_DATA(eng, nid)->mem_bound, "node %d bound", nid);
	destroy_engine(eng);
}

Test(topology, emulated_nodes_are_never_bound)
{
	struct nlru_engine *eng = test_engine(8, "pack:4 numa:1 core:1 pu:1");
	int cpus[8];

	cr_assert_eq(nlru_engine_nr_nodes(eng), 4);
	for (int nid = 0; nid < 4; nid++)
		cr_expect_not(NODE_DATA(eng, nid)->mem_bound);
	cr_expect_eq(membind_fallbacks(eng), 0);
	/* Emulated CPUs fold onto the real ones: PU i runs on CPU i % nproc. */
	for (int nid = 0; nid < 4; nid++) {
		cr_assert_eq(topo_node_cpus(eng->topo, nid, cpus, 8), 1);
		cr_expect_eq(cpus[0], nid % topo_possible_cpus(), "node %d cpu %d", nid, cpus[0]);
	}
	destroy_engine(eng);
}

/* Make mbind fail with EPERM in this process only, as a container's seccomp profile does. */
static void refuse_mbind(void)
{
	struct sock_filter filter[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_mbind, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA)),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = {.len = sizeof(filter) / sizeof(filter[0]), .filter = filter};

	cr_assert_eq(prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), 0);
	cr_assert_eq(prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog), 0);
}

Test(topology, refused_binding_falls_back_and_says_so_once)
{
	struct nlru_engine *eng;
	void *p;

	refuse_mbind();
	eng = test_engine(8, NULL);
	cr_expect_not(NODE_DATA(eng, 0)->mem_bound);
	cr_expect_eq(membind_fallbacks(eng), nlru_engine_nr_nodes(eng));
	cr_expect(strstr(test_log_last, "refused"), "%s", test_log_last);
	cr_expect_eq(test_log_count, 1, "said once, not per node or per mapping");
	/* The memory works all the same. */
	cr_assert_eq(nlru_alloc_pages(eng, NLRU_GFP_KERNEL | NLRU_GFP_ZERO, 3, 0, &p), 0);
	cr_assert_eq(nlru_free_pages(eng, p, 3), 0);
	destroy_engine(eng);
}

Test(topology, prefault_touches_every_page)
{
	struct nlru_engine *eng;
	struct nlru_config cfg;
	unsigned char vec[2048];

	test_config(&cfg, 8, NULL);
	cfg.prefault = 1;
	cr_assert_eq(nlru_engine_create(&cfg, &eng), 0);
	cr_assert_eq(mincore(NODE_DATA(eng, 0)->mem, 8 << 20, vec), 0);
	for (int i = 0; i < 2048; i++)
		cr_assert(vec[i] & 1, "page %d is not resident", i);
	destroy_engine(eng);
}
