/*
 * A block's head from any address inside it, and the caller's word in its descriptor
 * (nlru_page_head(), nlru_page_set_private(), nlru_page_private()).
 */
#include <criterion/criterion.h>
#include <string.h>

#include "helpers.h"

TestSuite(page_block, .timeout = 60);

/* Every address of blocks of every order finds its block's head, order and word. */
Test(page_block, every_address_of_a_block_finds_its_head_and_word)
{
	struct nlru_engine *eng = test_engine(16, NULL);
	void *blocks[NLRU_MAX_ORDER];

	for (unsigned int order = 0; order < NLRU_MAX_ORDER; order++) {
		cr_assert_eq(nlru_alloc_pages(eng, NLRU_GFP_KERNEL, order, 0, &blocks[order]), 0);
		cr_assert_eq(nlru_page_set_private(eng, (char *)blocks[order] + 100, 1000 + order),
			     0, "%s", test_log_last);
	}
	for (unsigned int order = 0; order < NLRU_MAX_ORDER; order++) {
		size_t bytes = (size_t)4096 << order;

		for (size_t off = 0; off < bytes; off += 4096 + 8) {
			void *head = NULL;
			unsigned int got = 99;
			uint64_t word = 0;

			cr_assert_eq(nlru_page_head(eng, (char *)blocks[order] + off, &head, &got),
				     0, "order %u offset %zu: %s", order, off, test_log_last);
			cr_assert_eq(head, blocks[order], "order %u offset %zu", order, off);
			cr_assert_eq(got, order);
			cr_assert_eq(nlru_page_private(eng, (char *)blocks[order] + off, &word), 0);
			cr_assert_eq(word, 1000 + order);
		}
	}
	for (unsigned int order = 0; order < NLRU_MAX_ORDER; order++)
		cr_assert_eq(nlru_free_pages(eng, blocks[order], order), 0, "%s", test_log_last);
	destroy_engine(eng);
}

/* The word is the block's holder's: 0 on a new block, forgotten when it is freed. */
Test(page_block, the_word_starts_at_0_and_is_forgotten_at_free)
{
	struct nlru_engine *eng = test_engine(16, NULL);
	void *p, *q;
	uint64_t word = 1;

	cr_assert_eq(nlru_alloc_pages(eng, NLRU_GFP_KERNEL, 2, 0, &p), 0);
	cr_assert_eq(nlru_page_private(eng, p, &word), 0);
	cr_expect_eq(word, 0);
	cr_assert_eq(nlru_page_set_private(eng, p, ~0ull), 0);
	cr_assert_eq(nlru_free_pages(eng, p, 2), 0, "%s", test_log_last);
	cr_expect_eq(nlru_page_private(eng, p, &word), -EINVAL, "a freed block has no word");
	cr_expect(strstr(test_log_last, "not inside an allocated block"), "%s", test_log_last);
	/* Allocated again (the same block, most likely): the word starts afresh. */
	cr_assert_eq(nlru_alloc_pages(eng, NLRU_GFP_KERNEL, 2, 0, &q), 0);
	cr_assert_eq(nlru_page_private(eng, q, &word), 0);
	cr_expect_eq(word, 0);
	cr_assert_eq(nlru_free_pages(eng, q, 2), 0);
	/* An exact run: each page its own block. */
	cr_assert_eq(nlru_alloc_pages_exact(eng, NLRU_GFP_KERNEL, 3 * 4096, 4096, 0, &p), 0, "%s",
		     test_log_last);
	cr_assert_eq(nlru_page_set_private(eng, (char *)p + 4096 + 1, 7), 0);
	cr_assert_eq(nlru_page_private(eng, (char *)p + 2 * 4096 - 1, &word), 0);
	cr_expect_eq(word, 7);
	cr_assert_eq(nlru_free_pages_exact(eng, p, 3 * 4096), 0, "%s", test_log_last);
	destroy_engine(eng);
}

Test(page_block, region_pages_and_foreign_addresses_are_refused)
{
	struct nlru_engine *eng = test_engine(16, NULL);
	struct nlru_region *region;
	unsigned int order;
	uint64_t word;
	void *p, *head;
	int local;

	cr_assert_eq(nlru_region_create(eng, 1, 0, &region), 0);
	cr_assert_eq(nlru_region_pin(region, 0, NLRU_PIN_WRITE, &p), 0);
	cr_expect_eq(nlru_page_set_private(eng, p, 1), -EINVAL);
	cr_expect(strstr(test_log_last, "region or a file"), "%s", test_log_last);
	cr_assert_eq(nlru_region_unpin(region, 0), 0);
	cr_assert_eq(nlru_region_destroy(region), 0);
	cr_expect_eq(nlru_page_head(eng, &local, &head, &order), -EINVAL);
	cr_expect(strstr(test_log_last, "not memory of this engine"), "%s", test_log_last);
	cr_expect_eq(nlru_page_private(eng, &local, NULL), -EINVAL);
	cr_expect_eq(nlru_page_private(NULL, &local, &word), -EINVAL);
	destroy_engine(eng);
}
