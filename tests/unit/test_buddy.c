/* Buddy allocator: split and merge invariants. */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "helpers.h"
#include "page_alloc.h"
#include "vmstat.h"

TestSuite(buddy, .timeout = 30);

static struct zone *normal_zone(struct nlru_engine *eng)
{
	return &NODE_DATA(eng, 0)->node_zones[ZONE_NORMAL];
}

Test(buddy, fresh_engine_is_all_free_in_largest_blocks)
{
	struct nlru_engine *eng = test_engine(16, NULL);
	unsigned long blocks[NLRU_MAX_ORDER];

	/* 16 MiB = 4096 pages: DMA32 1024 pages, Normal 3072 pages, all order-10 blocks. */
	count_free_blocks(eng, blocks);
	for (int o = 0; o < NLRU_MAX_ORDER - 1; o++)
		cr_expect_eq(blocks[o], 0, "order %d has %lu blocks", o, blocks[o]);
	cr_expect_eq(blocks[NLRU_MAX_ORDER - 1], 4, "order-10 blocks: %lu", blocks[10]);
	check_free_lists(eng);
	check_pages_accounted(eng, 0);
	destroy_engine(eng);
}

Test(buddy, odd_zone_sizes_use_aligned_blocks)
{
	struct nlru_config cfg;
	struct nlru_engine *eng;

	/* 5 MiB = 1280 pages; DMA32 10% = 128 pages, Normal 1152 = 1024 + 128. */
	test_config(&cfg, 5, NULL);
	cfg.dma32_pct = 10;
	cr_assert_eq(nlru_engine_create(&cfg, &eng), 0, "%s", test_log_last);
	cr_expect_eq(NODE_DATA(eng, 0)->node_zones[ZONE_DMA32].free_area[7].nr_free, 1);
	cr_expect_eq(normal_zone(eng)->free_area[10].nr_free, 1);
	cr_expect_eq(normal_zone(eng)->free_area[7].nr_free, 1);
	check_free_lists(eng);
	destroy_engine(eng);
}

Test(buddy, high_order_allocation_splits_once_per_order)
{
	struct nlru_engine *eng = test_engine(16, NULL);
	struct zone *zone = normal_zone(eng);
	void *addr;

	/* Normal: 3 order-10 blocks.  An order-4 block splits one into 1 each of orders 4..9. */
	cr_assert_eq(nlru_alloc_pages(eng, NLRU_GFP_KERNEL, 4, 0, &addr), 0);
	cr_expect_eq(zone->free_area[10].nr_free, 2);
	for (int o = 4; o < 10; o++)
		cr_expect_eq(zone->free_area[o].nr_free, 1, "order %d: %lu", o,
			     zone->free_area[o].nr_free);
	cr_expect_eq(((char *)addr - NODE_DATA(eng, 0)->mem) % (16 * 4096), 0,
		     "an order-4 block is aligned to 16 pages");
	check_free_lists(eng);
	cr_assert_eq(nlru_free_pages(eng, addr, 4), 0);
	cr_expect_eq(zone->free_area[10].nr_free, 3, "freeing merges back to order 10");
	for (int o = 0; o < 10; o++)
		cr_expect_eq(zone->free_area[o].nr_free, 0);
	destroy_engine(eng);
}

struct block {
	void *addr;
	unsigned int order;
};

Test(buddy, everything_merges_back_after_random_frees)
{
	struct nlru_engine *eng = test_engine(16, NULL);
	unsigned long before[NLRU_MAX_ORDER], after[NLRU_MAX_ORDER];
	struct block *blocks = calloc(8192, sizeof(*blocks));
	long n = 0, pages = 0;

	count_free_blocks(eng, before);
	srand(42);
	/* Fill the engine with mixed orders 0-4 until the allocator refuses. */
	for (;;) {
		unsigned int order = (unsigned int)(rand() % 5);

		if (nlru_alloc_pages(eng, NLRU_GFP_KERNEL, order, 0, &blocks[n].addr))
			break;
		blocks[n++].order = order;
		pages += 1 << order;
	}
	cr_assert_gt(n, 500, "only %ld blocks allocated", n);
	check_pages_accounted(eng, pages);
	check_free_lists(eng);
	/* Fisher-Yates shuffle, then free in that order. */
	for (long i = n - 1; i > 0; i--) {
		long j = rand() % (i + 1);
		struct block t = blocks[i];

		blocks[i] = blocks[j];
		blocks[j] = t;
	}
	for (long i = 0; i < n; i++)
		cr_assert_eq(nlru_free_pages(eng, blocks[i].addr, blocks[i].order), 0);
	nlru_drain_pages(eng);
	count_free_blocks(eng, after);
	for (int o = 0; o < NLRU_MAX_ORDER; o++)
		cr_expect_eq(after[o], before[o], "order %d: %lu blocks after, %lu before", o,
			     after[o], before[o]);
	check_pages_accounted(eng, 0);
	check_free_lists(eng);
	free(blocks);
	destroy_engine(eng);
}

Test(buddy, zeroed_allocation_is_zero)
{
	struct nlru_engine *eng = test_engine(8, NULL);
	unsigned char *p;

	cr_assert_eq(nlru_alloc_pages(eng, NLRU_GFP_KERNEL, 1, 0, (void **)&p), 0);
	memset(p, 0xaa, 2 * 4096);
	cr_assert_eq(nlru_free_pages(eng, p, 1), 0);
	cr_assert_eq(nlru_alloc_pages(eng, NLRU_GFP_KERNEL | NLRU_GFP_ZERO, 1, 0, (void **)&p), 0);
	for (int i = 0; i < 2 * 4096; i++)
		cr_assert_eq(p[i], 0, "byte %d is %d", i, p[i]);
	cr_assert_eq(nlru_free_pages(eng, p, 1), 0);
	destroy_engine(eng);
}
