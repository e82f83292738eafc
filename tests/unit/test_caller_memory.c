/* An engine on memory the caller hands over (nlru_engine_create_on()). */
#include <criterion/criterion.h>
#include <string.h>
#include <sys/mman.h>

#include "helpers.h"

TestSuite(caller_memory, .timeout = 120);

#define NODE_MIB 16
#define NODE_BYTES ((size_t)NODE_MIB << 20)

/* @n node mappings of NODE_MIB each, 4 MiB-aligned, in one reservation. */
static char *map_nodes(int n)
{
	size_t span = (size_t)n * NODE_BYTES + (4u << 20);
	char *p = mmap(NULL, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	cr_assert_neq(p, MAP_FAILED);
	return (char *)(((uintptr_t)p + (4u << 20) - 1) & ~(uintptr_t)((4u << 20) - 1));
}

static void config(struct nlru_config *cfg)
{
	test_config(cfg, NODE_MIB, "pack:2 numa:1 core:1 pu:1");
	cfg->swap_mib = 64;
	cfg->kswapd = 0;
}

/*
 * Every page the engine hands out, allocated or a region's, lies in the caller's memory of
 * its node; swap works as on the engine's own; after destroy the memory is still mapped.
 */
Test(caller_memory, pages_come_from_the_callers_memory_and_it_stays_mapped)
{
	char *base = map_nodes(2);
	void *mem[2] = {base, base + NODE_BYTES};
	struct nlru_engine *eng = NULL;
	struct nlru_region *region;
	struct nlru_config cfg;
	void *p;

	config(&cfg);
	cr_assert_eq(nlru_engine_create_on(&cfg, mem, 2, &eng), 0, "%s", test_log_last);
	for (int nid = 0; nid < 2; nid++) {
		cr_assert_eq(nlru_alloc_pages(eng, NLRU_GFP_KERNEL | NLRU_GFP_THISNODE, 3, nid, &p),
			     0);
		cr_expect((char *)p >= (char *)mem[nid] &&
				  (char *)p < (char *)mem[nid] + NODE_BYTES,
			  "node %d's page %p is outside its memory", nid, p);
		cr_expect_eq(nlru_addr_node(eng, p, 4096), nid);
		cr_assert_eq(nlru_free_pages(eng, p, 3), 0);
	}
	/* More than the engine: pages go to swap and come back. */
	cr_assert_eq(nlru_region_create(eng, 3 * 4096, 0, &region), 0);
	for (size_t i = 0; i < 3 * 4096; i++) {
		cr_assert_eq(nlru_region_pin(region, i, NLRU_PIN_WRITE, &p), 0, "%s",
			     test_log_last);
		cr_expect((char *)p >= base && (char *)p < base + 2 * NODE_BYTES);
		*(size_t *)p = i;
		cr_assert_eq(nlru_region_unpin(region, i), 0);
	}
	for (size_t i = 0; i < 3 * 4096; i += 7) {
		cr_assert_eq(nlru_region_pin(region, i, 0, &p), 0);
		cr_assert_eq(*(size_t *)p, i);
		cr_assert_eq(nlru_region_unpin(region, i), 0);
	}
	cr_expect_gt(vmstat_value(eng, "pswpout"), 0);
	cr_assert_eq(nlru_region_destroy(region), 0);
	destroy_engine(eng);
	memset(base, 0x5a, 2 * NODE_BYTES); /* still mapped: the caller's again */
}

Test(caller_memory, bad_mappings_are_refused_and_explained)
{
	char *base = map_nodes(3);
	struct nlru_engine *eng = NULL;
	struct nlru_config cfg;
	void *mem[3] = {base, base + NODE_BYTES, base + 2 * NODE_BYTES};

	config(&cfg);
	cr_expect_eq(nlru_engine_create_on(&cfg, mem, 3, &eng), -EINVAL, "3 for 2 nodes");
	cr_expect(strstr(test_log_last, "3 node mappings for a topology of 2 nodes"), "%s",
		  test_log_last);
	cr_expect_eq(nlru_engine_create_on(&cfg, NULL, 2, &eng), -EINVAL);
	mem[1] = base + 4096 * 3 + 1;
	cr_expect_eq(nlru_engine_create_on(&cfg, mem, 2, &eng), -EINVAL);
	cr_expect(strstr(test_log_last, "not page-aligned"), "%s", test_log_last);
	mem[1] = base + NODE_BYTES / 2;
	cr_expect_eq(nlru_engine_create_on(&cfg, mem, 2, &eng), -EINVAL);
	cr_expect(strstr(test_log_last, "overlaps"), "%s", test_log_last);
	/* A hole in node 1's memory. */
	mem[1] = base + NODE_BYTES;
	cr_assert_eq(munmap(base + NODE_BYTES + (1u << 20), 4096), 0);
	cr_expect_eq(nlru_engine_create_on(&cfg, mem, 2, &eng), -EFAULT);
	cr_expect(strstr(test_log_last, "not all of it is mapped"), "%s", test_log_last);
	/* Node 1 on memory of its own, unaligned to 4 MiB: accepted, and said. */
	mem[1] = base + 2 * NODE_BYTES - (1u << 20) + 4096;
	cr_assert_eq(nlru_engine_create_on(&cfg, mem, 2, &eng), 0, "%s", test_log_last);
	destroy_engine(eng);
}
