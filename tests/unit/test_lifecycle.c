/* Engines are created and destroyed many times in one process without leaking (ASan checks). */
#include <criterion/criterion.h>
#include <malloc.h>

#include "helpers.h"

TestSuite(lifecycle, .timeout = 120);

static void create_use_destroy(long node_mib, const char *topology, int round)
{
	struct nlru_engine *eng = NULL;
	struct nlru_config cfg;
	void *p[8];

	test_config(&cfg, node_mib, topology);
	cr_assert_eq(nlru_engine_create(&cfg, &eng), 0, "round %d: %s", round, test_log_last);
	for (int i = 0; i < 8; i++)
		cr_assert_eq(nlru_alloc_pages(eng, NLRU_GFP_KERNEL, (unsigned int)i % 3,
					      NLRU_NUMA_NO_NODE, &p[i]),
			     0, "round %d", round);
	for (int i = 0; i < 8; i++)
		cr_assert_eq(nlru_free_pages(eng, p[i], (unsigned int)i % 3), 0, "round %d", round);
	cr_assert_eq(nlru_engine_destroy(eng), 0, "round %d: %s", round, test_log_last);
}

/* Mapped size of the process in pages: node memory is mmap'ed, where LeakSanitizer cannot see. */
static long vm_pages(void)
{
	FILE *f = fopen("/proc/self/statm", "r");
	long size = -1;

	cr_assert(f);
	cr_assert_eq(fscanf(f, "%ld", &size), 1);
	fclose(f);
	return size;
}

Test(lifecycle, hundred_engines_one_after_another)
{
	long before;

	/* Each engine starts threads of its own; under load glibc may give one of them a new
	 * 64 MiB malloc arena, which is no leak but would count as 16k pages here.  Keep every
	 * thread on the arenas that exist. */
	mallopt(M_ARENA_MAX, 1);
	create_use_destroy(8, NULL, -1); /* let libraries settle their one-time allocations */
	before = vm_pages();
	for (int round = 0; round < 100; round++)
		create_use_destroy(8, NULL, round);
	/* 100 leaked 8 MiB nodes would be 200k pages; allow 16 MiB of allocator slack. */
	cr_expect_lt(vm_pages() - before, 4096, "mapped size grew by %ld pages",
		     vm_pages() - before);
	check_no_leaks();
}

Test(lifecycle, hundred_emulated_two_node_engines)
{
	for (int round = 0; round < 100; round++)
		create_use_destroy(4, "pack:2 numa:1 core:1 pu:1", round);
	check_no_leaks();
}

Test(lifecycle, failed_creations_leak_nothing)
{
	struct nlru_config cfg;
	struct nlru_engine *eng;

	for (int round = 0; round < 100; round++) {
		test_config(&cfg, 8, round % 2 ? "pack:2 nonsense" : NULL);
		cfg.dma32_pct = round % 2 ? 25 : 90;
		cfg.movable_pct = 20;
		cr_assert_eq(nlru_engine_create(&cfg, &eng), -EINVAL, "round %d", round);
	}
	check_no_leaks();
}

Test(lifecycle, two_engines_side_by_side)
{
	struct nlru_engine *a = test_engine(8, NULL);
	struct nlru_engine *b = test_engine(8, "pack:2 numa:1 core:1 pu:1");
	void *pa, *pb;

	cr_assert_eq(nlru_alloc_pages(a, NLRU_GFP_KERNEL, 0, 0, &pa), 0);
	cr_assert_eq(nlru_alloc_pages(b, NLRU_GFP_KERNEL, 0, 1, &pb), 0);
	/* A page of one engine is foreign to the other. */
	cr_expect_eq(nlru_free_pages(a, pb, 0), -EINVAL);
	cr_expect_eq(nlru_free_pages(b, pa, 0), -EINVAL);
	cr_assert_eq(nlru_free_pages(a, pa, 0), 0);
	cr_assert_eq(nlru_free_pages(b, pb, 0), 0);
	destroy_engine(a);
	destroy_engine(b);
}
