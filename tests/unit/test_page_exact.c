/*
 * Page-exact allocations (nlru_alloc_pages_exact / nlru_free_pages_exact): runs of any page
 * count at any alignment, freed whole or in parts, charged exactly, refused cleanly, and the
 * buddy lists whole again once everything is back.
 */
#include <criterion/criterion.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <string.h>

#include "helpers.h"

TestSuite(page_exact, .timeout = 60);

#define PAGE NLRU_PAGE_SIZE
#define MAX_BLOCK (NLRU_PAGE_SIZE << (NLRU_MAX_ORDER - 1))

static void *alloc_exact(struct nlru_engine *eng, unsigned int gfp, size_t size, size_t align)
{
	void *p = NULL;
	int r = nlru_alloc_pages_exact(eng, gfp, size, align, 0, &p);

	cr_assert_eq(r, 0, "alloc_exact(%zu, align %zu) = %d: %s", size, align, r, test_log_last);
	cr_assert_eq((uintptr_t)p % (align ? align : PAGE), 0, "%p is not %zu-aligned", p, align);
	return p;
}

/* After a drain, the free lists hold exactly the blocks they held before anything ran. */
static void expect_free_lists_whole(struct nlru_engine *eng, const unsigned long before[])
{
	unsigned long after[NLRU_MAX_ORDER];

	nlru_drain_pages(eng);
	count_free_blocks(eng, after);
	for (int order = 0; order < NLRU_MAX_ORDER; order++)
		cr_expect_eq(after[order], before[order], "order %d: %lu free blocks, %lu before",
			     order, after[order], before[order]);
	check_free_lists(eng);
	check_pages_accounted(eng, 0);
}

Test(page_exact, a_run_keeps_only_its_pages)
{
	struct nlru_engine *eng = test_engine(16, NULL);
	unsigned long before[NLRU_MAX_ORDER];
	char *p;

	nlru_drain_pages(eng);
	count_free_blocks(eng, before);
	/* 3 pages from an order-2 block: the fourth goes straight back. */
	p = alloc_exact(eng, NLRU_GFP_KERNEL, 3 * PAGE - 100, 0);
	check_pages_accounted(eng, 3);
	memset(p, 0xa5, 3 * PAGE);
	cr_expect_eq(nlru_free_pages_exact(eng, p, 3 * PAGE - 100), 0);
	/* 1025 pages do not fit the largest block. */
	cr_expect_eq(
		nlru_alloc_pages_exact(eng, NLRU_GFP_KERNEL, MAX_BLOCK + PAGE, 0, 0, (void **)&p),
		-EINVAL);
	/* Exactly the largest block is fine. */
	p = alloc_exact(eng, NLRU_GFP_KERNEL, MAX_BLOCK, 0);
	cr_expect_eq(nlru_free_pages_exact(eng, p, MAX_BLOCK), 0);
	expect_free_lists_whole(eng, before);
	destroy_engine(eng);
}

Test(page_exact, parts_of_a_run_free_in_any_order)
{
	struct nlru_engine *eng = test_engine(16, NULL);
	unsigned long before[NLRU_MAX_ORDER];
	char *p;

	nlru_drain_pages(eng);
	count_free_blocks(eng, before);
	p = alloc_exact(eng, NLRU_GFP_KERNEL, 5 * PAGE, 0);
	check_pages_accounted(eng, 5);
	cr_expect_eq(nlru_free_pages_exact(eng, p + 2 * PAGE, PAGE), 0);
	check_pages_accounted(eng, 4);
	cr_expect_eq(nlru_free_pages_exact(eng, p + 3 * PAGE, 2 * PAGE), 0);
	cr_expect_eq(nlru_free_pages_exact(eng, p, 2 * PAGE), 0);
	expect_free_lists_whole(eng, before);
	destroy_engine(eng);
}

/* jemalloc asks for 2 MiB at 2 MiB (its base blocks) and pages at page alignment. */
Test(page_exact, runs_are_aligned_as_asked)
{
	struct nlru_engine *eng = test_engine(32, NULL);
	static const size_t cases[][2] = {
		{2u << 20, 2u << 20}, {PAGE, 64 << 10},       {12 * PAGE, 32 * PAGE},
		{3u << 20, 1u << 20}, {MAX_BLOCK, MAX_BLOCK}, {7 * PAGE, PAGE},
	};
	unsigned long before[NLRU_MAX_ORDER];

	nlru_drain_pages(eng);
	count_free_blocks(eng, before);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		void *p = alloc_exact(eng, NLRU_GFP_KERNEL, cases[i][0], cases[i][1]);

		check_pages_accounted(eng, (long)(cases[i][0] / PAGE));
		cr_expect_eq(nlru_free_pages_exact(eng, p, cases[i][0]), 0);
	}
	expect_free_lists_whole(eng, before);
	destroy_engine(eng);
}

Test(page_exact, slab_charge_and_zeroing_cover_the_kept_pages_only)
{
	struct nlru_engine *eng = test_engine(16, NULL);
	unsigned int gfp = NLRU_GFP_KERNEL | NLRU_GFP_SLAB_UNRECLAIMABLE;
	struct nlru_vmstat snap = {.size = sizeof(snap), .version = NLRU_VMSTAT_VERSION};
	char *p;

	p = alloc_exact(eng, gfp, 5 * PAGE, 0);
	nlru_vmstat_read(eng, &snap);
	cr_expect_eq(snap.zone[NLRU_NR_SLAB_UNRECLAIMABLE], 5, "an order-3 block, 5 pages kept");
	cr_expect_eq(nlru_free_pages_exact(eng, p + PAGE, PAGE), 0);
	nlru_vmstat_read(eng, &snap);
	cr_expect_eq(snap.zone[NLRU_NR_SLAB_UNRECLAIMABLE], 4);
	memset(p, 0xff, PAGE);
	memset(p + 2 * PAGE, 0xff, 3 * PAGE);
	cr_expect_eq(nlru_free_pages_exact(eng, p, PAGE), 0);
	cr_expect_eq(nlru_free_pages_exact(eng, p + 2 * PAGE, 3 * PAGE), 0);
	nlru_vmstat_read(eng, &snap);
	cr_expect_eq(snap.zone[NLRU_NR_SLAB_UNRECLAIMABLE], 0);
	/* The same pages come back zeroed when asked. */
	p = alloc_exact(eng, NLRU_GFP_KERNEL | NLRU_GFP_ZERO, 5 * PAGE, 0);
	for (size_t i = 0; i < 5 * PAGE; i++)
		cr_assert_eq(p[i], 0, "byte %zu of a zeroed run is %d", i, p[i]);
	cr_expect_eq(nlru_free_pages_exact(eng, p, 5 * PAGE), 0);
	destroy_engine(eng);
}

static void expect_refused_alloc(struct nlru_engine *eng, size_t size, size_t align,
				 const char *words)
{
	void *p = NULL;

	cr_expect_eq(nlru_alloc_pages_exact(eng, NLRU_GFP_KERNEL, size, align, 0, &p), -EINVAL,
		     "alloc_exact(%zu, align %zu)", size, align);
	cr_expect(strstr(test_log_last, words), "log \"%s\" should mention \"%s\"", test_log_last,
		  words);
}

static void expect_refused_free(struct nlru_engine *eng, void *addr, size_t size, const char *words)
{
	int64_t bad = vmstat_value(eng, "nlru_bad_free");
	int logged = test_log_count;

	cr_expect_eq(nlru_free_pages_exact(eng, addr, size), -EINVAL, "free_exact(%p, %zu)", addr,
		     size);
	/*
	 * Logged, so test_log_last is this refusal's message: an engine logs 10 refusals in 5 s,
	 * a test that checks more messages than that needs another engine.
	 */
	cr_expect_eq(test_log_count, logged + 1, "the refusal is logged");
	cr_expect(strstr(test_log_last, words), "log \"%s\" should mention \"%s\"", test_log_last,
		  words);
	cr_expect_eq(vmstat_value(eng, "nlru_bad_free"), bad + 1, "counted in nlru_bad_free");
	check_free_lists(eng);
}

Test(page_exact, bad_input_is_refused_and_nothing_is_freed)
{
	struct nlru_engine *eng = test_engine(16, NULL);
	struct nlru_region *region;
	char *run, *block, *pinned, on_stack[64];
	void *p;

	expect_refused_alloc(eng, 0, 0, "size 0");
	expect_refused_alloc(eng, MAX_BLOCK + 1, 0, "more than the largest block");
	expect_refused_alloc(eng, PAGE, 3 * PAGE, "not a power of two");
	expect_refused_alloc(eng, PAGE, 2 * MAX_BLOCK, "not a power of two of at most");
	cr_expect_eq(nlru_alloc_pages_exact(eng, NLRU_GFP_DMA | NLRU_GFP_DMA32, PAGE, 0, 0, &p),
		     -EINVAL);
	cr_expect_eq(nlru_alloc_pages_exact(NULL, NLRU_GFP_KERNEL, PAGE, 0, 0, &p), -EINVAL);
	cr_expect_eq(nlru_alloc_pages_exact(eng, NLRU_GFP_KERNEL, PAGE, 0, 0, NULL), -EINVAL);

	run = alloc_exact(eng, NLRU_GFP_KERNEL, 3 * PAGE, 0);
	cr_assert_eq(nlru_alloc_pages(eng, NLRU_GFP_KERNEL, 2, 0, (void **)&block), 0);
	cr_assert_eq(nlru_region_create(eng, 4, 0, &region), 0);
	cr_assert_eq(nlru_region_pin(region, 1, NLRU_PIN_WRITE, (void **)&pinned), 0);
	expect_refused_free(eng, on_stack, PAGE, "not memory of this engine");
	expect_refused_free(eng, run + 8, PAGE, "not the start of a page");
	expect_refused_free(eng, run, 0, "size 0");
	expect_refused_free(eng, block, PAGE, "heads a block of a higher order");
	expect_refused_free(eng, block + PAGE, PAGE, "is not allocated");
	expect_refused_free(eng, pinned, PAGE, "belongs to a region or a file");
	cr_expect_eq(nlru_free_pages_exact(NULL, run, PAGE), -EINVAL);
	/* All refused before anything was touched: 3 + 4 + 1 pages still allocated. */
	check_pages_accounted(eng, 8);
	cr_expect_eq(nlru_free_pages_exact(eng, run, 3 * PAGE), 0);
	expect_refused_free(eng, run + PAGE, PAGE, "is not allocated");
	cr_expect_eq(nlru_free_pages(eng, block, 2), 0);
	cr_expect_eq(nlru_region_unpin(region, 1), 0);
	cr_expect_eq(nlru_region_destroy(region), 0);
	destroy_engine(eng);
}

Test(page_exact, addr_node_names_the_node_of_a_range)
{
	struct nlru_engine *eng = test_engine(8, "pack:2 numa:1 core:1 pu:1");
	char *p0, *p1, on_stack[8];

	cr_assert_eq(nlru_alloc_pages_exact(eng, NLRU_GFP_KERNEL | NLRU_GFP_THISNODE, PAGE, 0, 0,
					    (void **)&p0),
		     0);
	cr_assert_eq(nlru_alloc_pages_exact(eng, NLRU_GFP_KERNEL | NLRU_GFP_THISNODE, PAGE, 0, 1,
					    (void **)&p1),
		     0);
	cr_expect_eq(nlru_addr_node(eng, p0, PAGE), 0);
	cr_expect_eq(nlru_addr_node(eng, p1 + 100, 10), 1);
	cr_expect_eq(nlru_addr_node(eng, on_stack, 1), -EINVAL);
	cr_expect_eq(nlru_addr_node(eng, p0, 0), -EINVAL);
	cr_expect_eq(nlru_addr_node(eng, p0, (size_t)8 << 20), -EINVAL, "past the node's end");
	cr_expect_eq(nlru_addr_node(NULL, p0, PAGE), -EINVAL);
	cr_expect_eq(nlru_free_pages_exact(eng, p0, PAGE), 0);
	cr_expect_eq(nlru_free_pages_exact(eng, p1, PAGE), 0);
	destroy_engine(eng);
}

/* Pinned to each CPU of a two-node topology in turn, the thread is told that CPU's node. */
Test(page_exact, current_node_follows_the_cpu_the_thread_runs_on)
{
	struct nlru_engine *eng = test_engine(8, "pack:2 numa:1 core:1 pu:1");
	cpu_set_t old, set;

	cr_assert_eq(sched_getaffinity(0, sizeof(old), &old), 0);
	for (int cpu = 0; cpu < 2; cpu++) {
		if (!CPU_ISSET(cpu, &old))
			continue;
		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		cr_assert_eq(sched_setaffinity(0, sizeof(set), &set), 0);
		cr_expect_eq(nlru_current_node(eng), cpu, "on CPU %d", cpu);
	}
	cr_assert_eq(sched_setaffinity(0, sizeof(old), &old), 0);
	cr_expect_eq(nlru_current_node(NULL), -EINVAL);
	destroy_engine(eng);
}

/* Many runs of mixed sizes, freed in pieces and out of order, leave no page behind. */
Test(page_exact, mixed_runs_leave_the_buddy_lists_whole)
{
	struct nlru_engine *eng = test_engine(32, NULL);
	unsigned long before[NLRU_MAX_ORDER];
	struct {
		char *p;
		size_t pages;
	} runs[200];
	uint32_t seed = 12345;

	nlru_drain_pages(eng);
	count_free_blocks(eng, before);
	for (int i = 0; i < 200; i++) {
		seed = seed * 1103515245 + 12345;
		runs[i].pages = 1 + (seed >> 16) % 40;
		runs[i].p = alloc_exact(eng, NLRU_GFP_KERNEL, runs[i].pages * PAGE,
					(seed & 1) ? 0 : 8 * PAGE);
	}
	/* Free the odd pages of every run first, then the rest, last run first. */
	for (int i = 0; i < 200; i++)
		for (size_t pg = 1; pg < runs[i].pages; pg += 2)
			cr_assert_eq(nlru_free_pages_exact(eng, runs[i].p + pg * PAGE, PAGE), 0);
	for (int i = 199; i >= 0; i--)
		for (size_t pg = 0; pg < runs[i].pages; pg += 2)
			cr_assert_eq(nlru_free_pages_exact(eng, runs[i].p + pg * PAGE, PAGE), 0);
	expect_free_lists_whole(eng, before);
	destroy_engine(eng);
}

struct racer {
	struct nlru_engine *eng;
	void *run;
	pthread_barrier_t *go;
	int result;
};

static void *race_free(void *arg)
{
	struct racer *r = arg;

	pthread_barrier_wait(r->go);
	r->result = nlru_free_pages_exact(r->eng, r->run, 8 * PAGE);
	return NULL;
}

/* Two frees of one run at once: exactly one wins and the other frees nothing. */
Test(page_exact, racing_frees_of_one_run_free_it_once)
{
	struct nlru_engine *eng = test_engine(16, NULL);
	pthread_barrier_t go;

	pthread_barrier_init(&go, NULL, 2);
	for (int i = 0; i < 200; i++) {
		struct racer a = {eng, NULL, &go, 0}, b;
		pthread_t ta, tb;

		a.run = alloc_exact(eng, NLRU_GFP_KERNEL, 8 * PAGE, 0);
		b = a;
		pthread_create(&ta, NULL, race_free, &a);
		pthread_create(&tb, NULL, race_free, &b);
		pthread_join(ta, NULL);
		pthread_join(tb, NULL);
		cr_assert((a.result == 0) != (b.result == 0), "round %d: results %d and %d", i,
			  a.result, b.result);
		check_pages_accounted(eng, 0);
	}
	pthread_barrier_destroy(&go);
	destroy_engine(eng);
}

Test(page_exact, engine_log_reaches_the_callback)
{
	struct nlru_engine *eng = test_engine(8, NULL);

	nlru_engine_log(eng, NLRU_LOG_WARN, "from a library on top: %d", 42);
	cr_expect_str_eq(test_log_last, "from a library on top: 42");
	nlru_engine_log(NULL, NLRU_LOG_WARN, "nobody hears this");
	cr_expect_str_eq(test_log_last, "from a library on top: 42");
	destroy_engine(eng);
}

/*
 * Runs of a size that is not a power of two pack one after the other (exact_next): 17-page
 * runs fill nearly all of a fresh engine, where a block of 32 pages each would fill about
 * half, and each run starts where the last one ended.  Freed, the lists are whole again.
 */
Test(page_exact, odd_sized_runs_pack_one_after_the_other)
{
	struct nlru_engine *eng = test_engine(16, NULL);
	static void *runs[4096];
	unsigned long before[NLRU_MAX_ORDER];
	size_t n = 0, next_after = 0;
	uint64_t pages = 0;

	nlru_drain_pages(eng);
	count_free_blocks(eng, before);
	for (int order = 0; order < NLRU_MAX_ORDER; order++)
		pages += before[order] << order;
	while (n < 4096 && nlru_alloc_pages_exact(eng, NLRU_GFP_KERNEL | NLRU_GFP_NOWARN, 17 * PAGE,
						  0, 0, &runs[n]) == 0) {
		memset(runs[n], (int)n, 17 * PAGE);
		if (n && runs[n] == (char *)runs[n - 1] + 17 * PAGE)
			next_after++;
		n++;
	}
	cr_expect_geq(n * 17, pages * 9 / 10, "%zu runs of 17 pages in %llu free pages", n,
		      (unsigned long long)pages);
	cr_expect_geq(next_after, n * 9 / 10, "%zu of %zu runs followed the one before", next_after,
		      n);
	for (size_t i = 0; i < n; i++) {
		for (size_t b = 0; b < 17 * PAGE; b += 997)
			cr_assert_eq(((unsigned char *)runs[i])[b], (unsigned char)i, "run %zu", i);
		cr_assert_eq(nlru_free_pages_exact(eng, runs[i], 17 * PAGE), 0);
	}
	expect_free_lists_whole(eng, before);
	destroy_engine(eng);
}
