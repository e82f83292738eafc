/* A file's page index: the radix tree against a plain reference, walks in order, pruning. */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "helpers.h"
#include "pageindex.h"

/* Each test process's node cache, emptied after each test. */
static struct pageindex_cache cache;

static void cache_init(void)
{
	pageindex_cache_init(&cache, NULL);
}

static void cache_fini(void)
{
	pageindex_cache_destroy(&cache);
	check_no_leaks();
}

TestSuite(pageindex, .init = cache_init, .fini = cache_fini, .timeout = 60);

/* Every entry by walks of @batch at a time: count, in strictly increasing offset order. */
static uint32_t walk_all(const struct pageindex *idx, uint32_t batch, uint32_t *keys,
			 uint64_t *values, uint32_t cap)
{
	uint32_t cursor = 0, n = 0, rounds = 0;

	do {
		uint32_t got =
			pageindex_walk(idx, &cursor, keys + n, values + n, MIN(batch, cap - n));

		for (uint32_t i = 0; i < got; i++)
			cr_assert(n + i == 0 || keys[n + i] > keys[n + i - 1],
				  "walk out of order: %u after %u", keys[n + i], keys[n + i - 1]);
		n += got;
		cr_assert(++rounds < 1u << 20, "walk does not end");
	} while (cursor && n < cap);
	return n;
}

Test(pageindex, empty_index_has_nothing)
{
	struct pageindex idx;
	uint32_t key, cursor = 7;
	uint64_t value;

	pageindex_init(&idx, &cache);
	cr_expect_eq(pageindex_lookup(&idx, 0), 0);
	cr_expect_eq(pageindex_lookup(&idx, UINT32_MAX), 0);
	pageindex_delete(&idx, 5);
	cr_expect_eq(pageindex_walk(&idx, &cursor, &key, &value, 1), 0);
	cr_expect_eq(cursor, 0, "an empty walk ends at once");
	pageindex_destroy(&idx);
}

/* Offsets at every level boundary, up to the largest, store, replace and delete. */
Test(pageindex, boundary_offsets)
{
	static const uint32_t offsets[] = {0,         1,        63,
					   64,        4095,     4096,
					   262143,    262144,   (1u << 24) - 1,
					   1u << 24,  1u << 30, UINT32_MAX - 1,
					   UINT32_MAX};
	const uint32_t n = sizeof(offsets) / sizeof(offsets[0]);
	uint32_t keys[16];
	uint64_t values[16];
	struct pageindex idx;

	pageindex_init(&idx, &cache);
	for (uint32_t i = n; i-- > 0;)
		cr_assert_eq(pageindex_store(&idx, offsets[i], 2 * i + 1), 0);
	for (uint32_t i = 0; i < n; i++)
		cr_expect_eq(pageindex_lookup(&idx, offsets[i]), 2 * i + 1, "offset %u",
			     offsets[i]);
	cr_expect_eq(pageindex_lookup(&idx, 2), 0);
	cr_expect_eq(pageindex_lookup(&idx, 1u << 29), 0);

	cr_assert_eq(pageindex_store(&idx, 4096, 99), 0, "replace");
	cr_expect_eq(pageindex_lookup(&idx, 4096), 99);
	cr_assert_eq(walk_all(&idx, 3, keys, values, 16), n, "a replace adds no entry");
	for (uint32_t i = 0; i < n; i++)
		cr_expect_eq(keys[i], offsets[i]);

	for (uint32_t i = 0; i < n; i++) {
		pageindex_delete(&idx, offsets[i]);
		cr_expect_eq(pageindex_lookup(&idx, offsets[i]), 0);
		cr_expect_eq(walk_all(&idx, 5, keys, values, 16), n - 1 - i);
	}
	cr_expect_null(idx.root, "deleting everything frees every node");
	cr_expect_eq(idx.shift, 0);
	pageindex_destroy(&idx);
}

/* Once the large offsets are gone, the tree is only as tall as the small ones need. */
Test(pageindex, deletes_shrink_the_tree)
{
	struct pageindex idx;

	pageindex_init(&idx, &cache);
	for (uint32_t k = 0; k < 64; k++)
		cr_assert_eq(pageindex_store(&idx, k, k + 1), 0);
	cr_expect_eq(idx.shift, 0, "64 offsets fit one leaf");
	cr_assert_eq(pageindex_store(&idx, 1u << 20, 7), 0);
	cr_expect_eq(idx.shift, 18, "offset 2^20 needs four levels");
	pageindex_delete(&idx, 1u << 20);
	cr_expect_eq(idx.shift, 0, "back to one leaf");
	for (uint32_t k = 0; k < 64; k++)
		cr_expect_eq(pageindex_lookup(&idx, k), k + 1);
	pageindex_destroy(&idx);
}

/* A walk stopped half way sees entries stored and deleted before it resumes. */
Test(pageindex, walk_resumes_after_changes)
{
	struct pageindex idx;
	uint32_t keys[4], cursor = 0;
	uint64_t values[4];

	pageindex_init(&idx, &cache);
	for (uint32_t k = 0; k < 1000; k += 10)
		cr_assert_eq(pageindex_store(&idx, k, k + 1), 0);
	cr_assert_eq(pageindex_walk(&idx, &cursor, keys, values, 4), 4);
	cr_expect_eq(keys[3], 30);
	cr_expect_eq(cursor, 31);
	pageindex_delete(&idx, 40);
	cr_assert_eq(pageindex_store(&idx, 35, 36), 0);
	cr_assert_eq(pageindex_store(&idx, 20000, 20001), 0);
	cr_assert_eq(pageindex_walk(&idx, &cursor, keys, values, 2), 2);
	cr_expect_eq(keys[0], 35);
	cr_expect_eq(keys[1], 50);
	cursor = 995;
	cr_assert_eq(pageindex_walk(&idx, &cursor, keys, values, 4), 1);
	cr_expect_eq(keys[0], 20000);
	cr_expect_eq(values[0], 20001);
	cr_expect_eq(cursor, 0, "the end of the index");
	pageindex_destroy(&idx);
}

/* Random stores and deletes agree with a plain array at every step's end. */
Test(pageindex, random_operations_match_a_reference)
{
	enum { SPAN = 1 << 14, OPS = 200000 };
	uint64_t *ref = calloc(SPAN, sizeof(*ref));
	uint32_t *keys = malloc(SPAN * sizeof(*keys));
	uint64_t *values = malloc(SPAN * sizeof(*values));
	uint32_t live = 0, n;
	struct pageindex idx;
	unsigned int seed = 42;

	cr_assert(ref && keys && values);
	pageindex_init(&idx, &cache);
	for (int op = 0; op < OPS; op++) {
		/* Offsets cluster low, with a sprinkle across the whole span. */
		uint32_t k = (uint32_t)rand_r(&seed) % (op % 7 ? 512 : SPAN);

		if (rand_r(&seed) % 3) {
			uint64_t v = (uint64_t)op * 4 + 1;

			cr_assert_eq(pageindex_store(&idx, k, v), 0);
			live += !ref[k];
			ref[k] = v;
		} else {
			pageindex_delete(&idx, k);
			live -= !!ref[k];
			ref[k] = 0;
		}
		if (op % 20000 == 0 || op == OPS - 1) {
			for (uint32_t i = 0; i < SPAN; i++)
				cr_assert_eq(pageindex_lookup(&idx, i), ref[i], "offset %u", i);
			n = walk_all(&idx, 1 + (uint32_t)op % 97, keys, values, SPAN);
			cr_assert_eq(n, live);
			for (uint32_t i = 0; i < n; i++)
				cr_assert_eq(values[i], ref[keys[i]]);
		}
	}
	pageindex_destroy(&idx);
	free(ref);
	free(keys);
	free(values);
}

/* Nodes given back go to the cache and the next index is built from them. */
Test(pageindex, freed_nodes_are_reused)
{
	struct pageindex a, b;
	struct pageindex_node *leaf;

	pageindex_init(&a, &cache);
	for (uint32_t k = 0; k < 64 * 64; k++)
		cr_assert_eq(pageindex_store(&a, k, k + 1), 0);
	leaf = (struct pageindex_node *)(uintptr_t)a.root->slots[5];
	pageindex_destroy(&a);
	cr_expect_eq(cache.nr, 65, "64 leaves and their parent kept");
	cr_expect_null(a.root);

	pageindex_init(&b, &cache);
	cr_assert_eq(pageindex_store(&b, 0, 7), 0);
	cr_expect_eq(cache.nr, 64, "one node taken from the cache");
	for (uint32_t k = 1; k < 64; k++)
		cr_assert_eq(pageindex_lookup(&b, k), 0, "a reused node starts empty: slot %u", k);
	for (uint32_t k = 64; k < 64 * 64; k++)
		cr_assert_eq(pageindex_store(&b, k, 7), 0);
	cr_expect_eq(cache.nr, 0, "built from the cache");
	bool reused = false;
	for (int i = 0; i < 64; i++)
		reused |= (struct pageindex_node *)(uintptr_t)b.root->slots[i] == leaf;
	cr_expect(reused, "a leaf of the first index serves the second");
	pageindex_destroy(&b);
}
