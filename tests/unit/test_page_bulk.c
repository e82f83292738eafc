/* Order-0 pages many at a time: nlru_alloc_pages_bulk() and nlru_free_pages_bulk(). */
#include <criterion/criterion.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"

TestSuite(page_bulk, .timeout = 120);

static int cmp_ptr(const void *a, const void *b)
{
	uintptr_t x = *(const uintptr_t *)a, y = *(const uintptr_t *)b;

	return x < y ? -1 : x > y;
}

/* Free pages of every zone, per-CPU lists drained. */
static uint64_t free_pages(struct nlru_engine *eng)
{
	uint64_t sum = 0;

	nlru_drain_pages(eng);
	for (int zid = 0; zid < NLRU_MAX_NR_ZONES; zid++) {
		struct nlru_zone_info zi = {.size = sizeof(zi), .version = NLRU_ZONE_INFO_VERSION};

		cr_assert_eq(nlru_zone_info(eng, 0, (enum nlru_zone_type)zid, &zi), 0);
		sum += zi.free;
	}
	return sum;
}

/* 3000 pages in calls of every size: distinct pages, counted, and all given back. */
Test(page_bulk, pages_are_distinct_counted_and_given_back)
{
	struct nlru_engine *eng = test_engine(32, NULL);
	static void *pages[3000];
	uint64_t before = free_pages(eng);
	int64_t allocs = vmstat_value(eng, "pgalloc_normal") + vmstat_value(eng, "pgalloc_dma32");
	size_t n = 0;

	for (size_t chunk = 1; n < 3000; chunk = chunk * 2 % 700 + 1) {
		size_t want = chunk < 3000 - n ? chunk : 3000 - n;

		cr_assert_eq(nlru_alloc_pages_bulk(eng, NLRU_GFP_KERNEL, 0, want, &pages[n]),
			     (int)want, "%s", test_log_last);
		n += want;
	}
	for (size_t i = 0; i < n; i++)
		memset(pages[i], (int)i, 4096);
	qsort(pages, n, sizeof(pages[0]), cmp_ptr);
	for (size_t i = 1; i < n; i++)
		cr_assert_neq(pages[i], pages[i - 1], "page %p handed out twice", pages[i]);
	cr_expect_eq(vmstat_value(eng, "pgalloc_normal") + vmstat_value(eng, "pgalloc_dma32") -
			     allocs,
		     3000);
	cr_expect_eq(free_pages(eng), before - 3000);
	cr_assert_eq(nlru_free_pages_bulk(eng, pages, n), 0, "%s", test_log_last);
	cr_expect_eq(free_pages(eng), before);
	destroy_engine(eng);
}

/* Entries already set are left alone; NLRU_GFP_ZERO and the slab charge apply to each page. */
Test(page_bulk, set_entries_are_kept_and_flags_apply_to_each_page)
{
	struct nlru_engine *eng = test_engine(16, NULL);
	void *pages[64] = {NULL}, *kept;

	/* Dirty some pages first, so that zeroing is seen to happen. */
	cr_assert_eq(nlru_alloc_pages_bulk(eng, NLRU_GFP_KERNEL, 0, 64, pages), 64);
	for (int i = 0; i < 64; i++)
		memset(pages[i], 0xab, 4096);
	cr_assert_eq(nlru_free_pages_bulk(eng, pages, 64), 0);
	memset(pages, 0, sizeof(pages));
	cr_assert_eq(nlru_alloc_pages(eng, NLRU_GFP_KERNEL, 0, 0, &kept), 0);
	pages[10] = kept;
	cr_assert_eq(nlru_alloc_pages_bulk(
			     eng, NLRU_GFP_KERNEL | NLRU_GFP_ZERO | NLRU_GFP_SLAB_RECLAIMABLE, 0,
			     64, pages),
		     64);
	cr_expect_eq(pages[10], kept, "a set entry was replaced");
	for (int i = 0; i < 64; i++)
		for (int b = 0; i != 10 && b < 4096; b++)
			cr_assert_eq(((unsigned char *)pages[i])[b], 0, "page %d byte %d", i, b);
	cr_expect_eq(vmstat_value(eng, "nr_slab_reclaimable"), 63);
	pages[10] = NULL;
	for (int i = 0; i < 64; i++)
		if (pages[i])
			memset(pages[i], 0xcd, 4096);
	cr_assert_eq(nlru_free_pages_bulk(eng, pages, 64), 0);
	cr_expect_eq(vmstat_value(eng, "nr_slab_reclaimable"), 0);
	/* Two entries, too few to batch, go the single calls' way under the same rules. */
	void *two[2] = {NULL, kept};
	cr_assert_eq(nlru_alloc_pages_bulk(
			     eng, NLRU_GFP_KERNEL | NLRU_GFP_ZERO | NLRU_GFP_SLAB_RECLAIMABLE, 0, 2,
			     two),
		     2);
	cr_expect_eq(two[1], kept, "a set entry was replaced");
	for (int b = 0; b < 4096; b++)
		cr_assert_eq(((unsigned char *)two[0])[b], 0, "byte %d", b);
	cr_expect_eq(vmstat_value(eng, "nr_slab_reclaimable"), 1);
	two[1] = NULL;
	cr_assert_eq(nlru_free_pages_bulk(eng, two, 2), 0);
	cr_expect_null(two[0], "a freed entry was not cleared");
	cr_expect_eq(vmstat_value(eng, "nr_slab_reclaimable"), 0);
	cr_assert_eq(
		nlru_alloc_pages_bulk(eng, NLRU_GFP_KERNEL | NLRU_GFP_SLAB_RECLAIMABLE, 0, 2, two),
		2);
	cr_expect(two[0] && two[1] && two[0] != two[1] && two[0] != kept && two[1] != kept);
	cr_expect_eq(vmstat_value(eng, "nr_slab_reclaimable"), 2);
	cr_assert_eq(nlru_free_pages_bulk(eng, two, 2), 0);
	cr_expect(!two[0] && !two[1], "freed entries were not cleared");
	cr_expect_eq(vmstat_value(eng, "nr_slab_reclaimable"), 0);
	cr_assert_eq(nlru_free_pages(eng, kept, 0), 0);
	destroy_engine(eng);
}

/* A bad entry is refused and reported; the others are freed all the same. */
Test(page_bulk, a_bad_entry_is_refused_and_the_others_freed)
{
	struct nlru_engine *eng = test_engine(16, NULL);
	uint64_t before = free_pages(eng);
	void *pages[8] = {NULL}, *block, *first;
	int64_t bad;
	int local;

	cr_assert_eq(nlru_alloc_pages_bulk(eng, NLRU_GFP_KERNEL, 0, 6, pages), 6);
	cr_assert_eq(nlru_alloc_pages(eng, NLRU_GFP_KERNEL, 2, 0, &block), 0);
	pages[6] = block; /* order 2: not for a bulk free */
	pages[7] = &local;
	first = pages[0];
	bad = vmstat_value(eng, "nlru_bad_free");
	cr_expect_eq(nlru_free_pages_bulk(eng, pages, 8), -EINVAL);
	cr_expect(strstr(test_log_last, "refused"), "%s", test_log_last);
	cr_expect_eq(vmstat_value(eng, "nlru_bad_free"), bad + 2, "each refusal counted");
	for (int i = 0; i < 6; i++)
		cr_expect_null(pages[i], "entry %d was freed but not cleared", i);
	cr_expect_eq(pages[6], block, "a refused entry was changed");
	cr_expect_eq(pages[7], (void *)&local, "a refused entry was changed");
	cr_assert_eq(nlru_free_pages(eng, block, 2), 0, "the order-2 block was left alone");
	cr_expect_eq(free_pages(eng), before);
	pages[0] = first;
	cr_expect_eq(nlru_free_pages_bulk(eng, pages, 1), -EINVAL, "a double free");
	cr_expect_eq(pages[0], first, "a refused entry was changed");
	pages[1] = first;
	bad = vmstat_value(eng, "nlru_bad_free");
	cr_expect_eq(nlru_free_pages_bulk(eng, pages, 2), -EINVAL, "a double free");
	cr_expect_eq(pages[0], first, "a refused entry was changed");
	cr_expect_eq(pages[1], first, "a refused entry was changed");
	cr_expect_eq(vmstat_value(eng, "nlru_bad_free"), bad + 2, "each refusal counted");
	cr_expect_eq(nlru_alloc_pages_bulk(eng, NLRU_GFP_KERNEL, 0, 4, NULL), -EINVAL);
	cr_expect_eq(nlru_alloc_pages_bulk(eng, NLRU_GFP_DMA | NLRU_GFP_DMA32, 0, 4, pages),
		     -EINVAL);
	destroy_engine(eng);
}

/* With memory short, a call gives what it can, at least one page once reclaim made room. */
Test(page_bulk, under_pressure_a_call_gives_fewer_and_the_rest_follows)
{
	struct nlru_engine *eng = test_engine(16, NULL);
	static void *pages[8192];
	size_t n = 0;
	int calls = 0, got;

	while (n < 8192 && (got = nlru_alloc_pages_bulk(eng, NLRU_GFP_KERNEL | NLRU_GFP_NOWARN, 0,
							256, &pages[n])) > 0) {
		n += (size_t)got;
		calls++;
		if (got < 256)
			break;
	}
	cr_expect_lt(n, 4096, "16 MiB gave %zu pages", n);
	cr_expect_gt(n, 3000, "the engine's memory was used, %zu pages", n);
	cr_assert_eq(nlru_free_pages_bulk(eng, pages, n), 0);
	destroy_engine(eng);
}

struct churn {
	struct nlru_engine *eng;
	long rounds;
};

static void *churn_main(void *arg)
{
	struct churn *c = arg;
	void *pages[97];

	for (c->rounds = 0; c->rounds < 3000; c->rounds++) {
		int n;

		memset(pages, 0, sizeof(pages));
		n = nlru_alloc_pages_bulk(c->eng, NLRU_GFP_KERNEL, NLRU_NUMA_NO_NODE, 97, pages);
		for (int i = 0; i < n; i++)
			*(long *)pages[i] = c->rounds;
		for (int i = 0; i < n; i++)
			cr_assert_eq(*(long *)pages[i], c->rounds, "a page was handed out twice");
		cr_assert_eq(nlru_free_pages_bulk(c->eng, pages, 97), 0);
	}
	return NULL;
}

/* Two threads and drains at once on two nodes: every page comes back free. */
Test(page_bulk, threads_and_drains_at_once_lose_nothing)
{
	struct nlru_engine *eng = test_engine(16, "pack:2 numa:1 core:1 pu:1");
	struct churn c[2] = {{.eng = eng}, {.eng = eng}};
	pthread_t tid[2];
	uint64_t before = 0, after = 0;

	for (int nid = 0; nid < 2; nid++)
		for (int zid = 0; zid < NLRU_MAX_NR_ZONES; zid++) {
			struct nlru_zone_info zi = {.size = sizeof(zi),
						    .version = NLRU_ZONE_INFO_VERSION};

			cr_assert_eq(nlru_zone_info(eng, nid, (enum nlru_zone_type)zid, &zi), 0);
			before += zi.managed;
		}
	for (int i = 0; i < 2; i++)
		cr_assert_eq(pthread_create(&tid[i], NULL, churn_main, &c[i]), 0);
	for (int k = 0; k < 200; k++)
		nlru_drain_pages(eng);
	for (int i = 0; i < 2; i++)
		pthread_join(tid[i], NULL);
	nlru_drain_pages(eng);
	for (int nid = 0; nid < 2; nid++)
		for (int zid = 0; zid < NLRU_MAX_NR_ZONES; zid++) {
			struct nlru_zone_info zi = {.size = sizeof(zi),
						    .version = NLRU_ZONE_INFO_VERSION};

			cr_assert_eq(nlru_zone_info(eng, nid, (enum nlru_zone_type)zid, &zi), 0);
			after += zi.free;
		}
	cr_expect_eq(after, before, "%llu of %llu pages free at the end", (unsigned long long)after,
		     (unsigned long long)before);
	destroy_engine(eng);
}
