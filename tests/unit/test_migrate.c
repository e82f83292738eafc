/*
 * Page migration (migrate.c): a region page or a page cache page moves to another page with
 * its data, its slot or index, its place on its LRU list and its flags; a busy page is left
 * alone (-EAGAIN), and a pin racing migration always finds its data whole.
 */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "anon.h"
#include "filemap.h"
#include "helpers.h"
#include "lru.h"
#include "migrate.h"
#include "page_alloc.h"

TestSuite(migrate, .fini = test_remove_dir, .timeout = 120);

#define PAGEFLAGS ((1u << NR_PAGEFLAGS) - 1)

/*
 * A fresh page of @page's zone, to migrate into (zone mode's fair policy spreads allocations
 * over the zones: the others are given back).
 */
static struct page *new_page_like(struct nlru_engine *eng, const struct page *page)
{
	struct page *other[64], *newpage = NULL;
	int n = 0;

	while (n < 64) {
		newpage = alloc_pages_node(eng, NLRU_GFP_HIGHUSER_MOVABLE, 0, 0);
		cr_assert(newpage);
		if (page_zonenum(newpage) == page_zonenum(page))
			break;
		other[n++] = newpage;
		newpage = NULL;
	}
	while (n)
		free_pages_trusted(eng, other[--n], 0);
	cr_assert(newpage, "no page of the zone");
	return newpage;
}

static void fill(struct nlru_region *region, size_t index, uint64_t value)
{
	uint64_t *p;

	cr_assert_eq(nlru_region_pin(region, index, NLRU_PIN_WRITE, (void **)&p), 0);
	for (size_t i = 0; i < 4096 / sizeof(*p); i++)
		p[i] = value;
	cr_assert_eq(nlru_region_unpin(region, index), 0);
}

/* The page at @p holds @value throughout; the first word that does not, or -1. */
static long first_wrong(const uint64_t *p, uint64_t value)
{
	for (size_t i = 0; i < 4096 / sizeof(*p); i++)
		if (p[i] != value)
			return (long)i;
	return -1;
}

static void expect_data(struct nlru_region *region, size_t index, uint64_t value)
{
	uint64_t *p;

	cr_assert_eq(nlru_region_pin(region, index, 0, (void **)&p), 0);
	cr_expect_eq(first_wrong(p, value), -1, "page %zu: word %ld is %#llx, not %#llx", index,
		     first_wrong(p, value), (unsigned long long)p[first_wrong(p, value)],
		     (unsigned long long)value);
	cr_assert_eq(nlru_region_unpin(region, index), 0);
}

Test(migrate, region_pages_move_with_slot_lru_place_and_flags)
{
	struct nlru_engine *eng = test_engine(16, NULL);
	struct nlru_region *region;
	const size_t n = 64;

	cr_assert_eq(nlru_region_create(eng, n, 0, &region), 0);
	for (size_t i = 0; i < n; i++)
		fill(region, i, 0x1000 + i);
	cr_assert_eq(nlru_region_mark_accessed(region, 7), 0);
	for (size_t i = 0; i < n; i++) {
		struct page *page = region_page(region, i), *newpage = new_page_like(eng, page);
		uint32_t prev = page->prev, next = page->next, flags = page_flags(page) & PAGEFLAGS;
		uint32_t mapping = page->mapping, index = page->index;

		cr_assert_eq(migrate_page(eng, page, newpage), 0, "page %zu", i);
		cr_expect_eq(region_page(region, i), newpage);
		cr_expect_eq(newpage->prev, prev, "page %zu keeps its place on its list", i);
		cr_expect_eq(newpage->next, next);
		cr_expect_eq(page_flags(newpage) & PAGEFLAGS, flags, "page %zu: %#x, not %#x", i,
			     page_flags(newpage) & PAGEFLAGS, flags);
		cr_expect_eq(newpage->mapping, mapping);
		cr_expect_eq(newpage->index, index);
		cr_expect_eq(__atomic_load_n(&page->refcount, __ATOMIC_RELAXED), 0, "freed");
	}
	cr_expect(page_test(region_page(region, 7), PG_young));
	for (size_t i = 0; i < n; i++)
		expect_data(region, i, 0x1000 + i);
	cr_expect_eq(vmstat_value(eng, "pgmigrate_success"), (int64_t)n);
	cr_expect_eq(vmstat_value(eng, "pgmigrate_fail"), 0);
	check_lru_invariants(eng, true);
	check_free_lists(eng);
	cr_assert_eq(nlru_region_destroy(region), 0);
	destroy_engine(eng);
}

Test(migrate, busy_pages_stay)
{
	struct nlru_engine *eng = test_engine(16, NULL);
	struct nlru_region *region;
	struct page *page, *newpage, *dma32;
	void *addr;

	cr_assert_eq(nlru_region_create(eng, 4, 0, &region), 0);
	for (size_t i = 0; i < 4; i++)
		fill(region, i, 77 + i);
	page = region_page(region, 0);
	newpage = new_page_like(eng, page);

	/* Pinned: the pin's holder may be writing it. */
	cr_assert_eq(nlru_region_pin(region, 0, 0, &addr), 0);
	cr_expect_eq(migrate_page(eng, page, newpage), -EAGAIN);
	cr_assert_eq(nlru_region_unpin(region, 0), 0);
	cr_expect_eq(region_page(region, 0), page);

	/* Off its list, as reclaim holds the pages it scans. */
	cr_assert_eq(isolate_lru_page(eng, page), 0);
	cr_expect_eq(migrate_page(eng, page, newpage), -EAGAIN);
	putback_lru_page(eng, page);

	/* Locked, or under writeback. */
	page_set(page, PG_locked);
	cr_expect_eq(migrate_page(eng, page, newpage), -EAGAIN);
	page_clear(page, PG_locked);
	page_set(page, PG_writeback);
	cr_expect_eq(migrate_page(eng, page, newpage), -EAGAIN);
	page_clear(page, PG_writeback);
	cr_expect_eq(vmstat_value(eng, "pgmigrate_fail"), 4);

	/* Into another zone: refused before anything is looked at. */
	dma32 = alloc_pages_node(eng, NLRU_GFP_DMA32, 0, 0);
	cr_assert(dma32 && page_zonenum(dma32) == ZONE_DMA32);
	cr_expect_eq(migrate_page(eng, page, dma32), -EXDEV);
	free_pages_trusted(eng, dma32, 0);

	/* A page of nlru_alloc_pages() has no owner: never migrated. */
	cr_assert_eq(nlru_alloc_pages(eng, NLRU_GFP_HIGHUSER_MOVABLE, 0, 0, &addr), 0);
	cr_expect_eq(migrate_page(eng, virt_to_page(eng, addr), newpage), -EINVAL);
	cr_assert_eq(nlru_free_pages(eng, addr, 0), 0);

	expect_data(region, 0, 77);
	cr_expect_eq(migrate_page(eng, page, newpage), 0, "not busy any more");
	expect_data(region, 0, 77);
	check_lru_invariants(eng, true);
	cr_assert_eq(nlru_region_destroy(region), 0);
	destroy_engine(eng);
}

/*
 * A pin racing migration: one thread pins the page, checks it holds the previous round's
 * value throughout, writes this round's and unpins; the other migrates the page over and
 * over.  Every pin finds one page or the other, whole.
 */
struct race {
	struct nlru_engine *eng;
	struct nlru_region *region;
	atomic_bool done;
	atomic_long migrated, busy;
};

static void *migrator(void *arg)
{
	struct race *race = arg;

	while (!atomic_load(&race->done)) {
		struct page *page = region_page(race->region, 0);
		struct page *newpage = alloc_pages_node(race->eng, NLRU_GFP_HIGHUSER_MOVABLE, 0, 0);

		if (!page || !newpage || page_zonenum(newpage) != page_zonenum(page)) {
			if (newpage)
				free_pages_trusted(race->eng, newpage, 0);
			continue;
		}
		if (migrate_page(race->eng, page, newpage) == 0) {
			atomic_fetch_add(&race->migrated, 1);
		} else {
			atomic_fetch_add(&race->busy, 1);
			free_pages_trusted(race->eng, newpage, 0);
		}
	}
	return NULL;
}

Test(migrate, a_racing_pin_never_sees_a_torn_page)
{
	struct race race = {.eng = test_engine(16, NULL)};
	pthread_t thread;
	/* At least 5000 rounds, and more until the migrator has both moved the page and met a
	 * pin: on a busy machine it may get little time, and the test is of what it meets. */
	const long min_rounds = 5000, max_rounds = 1000000;
	long bad = 0, round;

	cr_assert_eq(nlru_region_create(race.eng, 1, 0, &race.region), 0);
	fill(race.region, 0, 0);
	cr_assert_eq(pthread_create(&thread, NULL, migrator, &race), 0);
	for (round = 1; round <= max_rounds; round++) {
		uint64_t *p;

		cr_assert_eq(nlru_region_pin(race.region, 0, NLRU_PIN_WRITE, (void **)&p), 0);
		if (first_wrong(p, (uint64_t)round - 1) >= 0)
			bad++;
		for (size_t i = 0; i < 4096 / sizeof(*p); i++) {
			p[i] = (uint64_t)round;
			/* Now and then let the migrator run while the page is pinned, half written.
			 */
			if (round % 64 == 0 && i == 256)
				sched_yield();
		}
		cr_assert_eq(nlru_region_unpin(race.region, 0), 0);
		if (round % 8 == 0)
			sched_yield(); /* and while it is not */
		if (round >= min_rounds && atomic_load(&race.migrated) && atomic_load(&race.busy))
			break;
	}
	round = round > max_rounds ? max_rounds : round;
	atomic_store(&race.done, true);
	pthread_join(thread, NULL);
	cr_log_info("%ld rounds: %ld migrations, %ld refused", round, atomic_load(&race.migrated),
		    atomic_load(&race.busy));
	cr_expect_eq(bad, 0, "%ld pins found a page not whole", bad);
	cr_expect_gt(atomic_load(&race.migrated), 0, "the page never moved (%ld refusals)",
		     atomic_load(&race.busy));
	cr_expect_gt(atomic_load(&race.busy), 0, "no migration met a pin");
	cr_expect_eq(vmstat_value(race.eng, "pgmigrate_success"), atomic_load(&race.migrated));
	expect_data(race.region, 0, (uint64_t)round);
	check_lru_invariants(race.eng, true);
	cr_assert_eq(nlru_region_destroy(race.region), 0);
	destroy_engine(race.eng);
}

Test(migrate, page_cache_pages_move_clean_or_dirty)
{
	struct nlru_engine *eng = test_engine(16, NULL);
	static char buf[16 * 4096];
	struct nlru_file *file;
	void *addr;

	make_file(test_path("f"), sizeof(buf), 3);
	cr_assert_eq(nlru_file_open(eng, test_path("f"), O_RDWR, 0, 0, &file), 0);
	cr_assert_eq(nlru_file_pread(file, buf, sizeof(buf), 0), (long)sizeof(buf));
	/* Page 2 dirty: it moves too, and its data reaches the file. */
	cr_assert_eq(nlru_file_pwrite(file, "dirty", 5, 2 * 4096 + 10), 5);
	for (uint32_t i = 0; i < 16; i++) {
		struct page *page = filemap_cached_page(file, i), *newpage;
		uint32_t flags;

		cr_assert(page, "page %u is cached", i);
		flags = page_flags(page) & PAGEFLAGS;
		newpage = new_page_like(eng, page);
		cr_assert_eq(migrate_page(eng, page, newpage), 0, "page %u", i);
		cr_expect_eq(filemap_cached_page(file, i), newpage);
		cr_expect_eq(page_flags(newpage) & PAGEFLAGS, flags);
	}
	cr_expect(page_test(filemap_cached_page(file, 2), PG_dirty));
	memset(buf, 0, sizeof(buf));
	cr_assert_eq(nlru_file_pread(file, buf, sizeof(buf), 0), (long)sizeof(buf));
	for (size_t i = 0; i < sizeof(buf); i++)
		if (i < 2 * 4096 + 10 || i >= 2 * 4096 + 15)
			cr_assert_eq((unsigned char)buf[i], byte_at(i, 3), "byte %zu", i);
	cr_expect_eq(memcmp(buf + 2 * 4096 + 10, "dirty", 5), 0);

	/* A pinned page cache page stays. */
	cr_assert_eq(nlru_file_pin_page(file, 5, 0, &addr), 0);
	{
		struct page *page = filemap_cached_page(file, 5),
			    *newpage = new_page_like(eng, page);

		cr_expect_eq(migrate_page(eng, page, newpage), -EAGAIN);
		free_pages_trusted(eng, newpage, 0);
	}
	cr_assert_eq(nlru_file_unpin_page(file, 5, 0), 0);
	cr_assert_eq(nlru_file_close(file), 0);
	/* The dirty page, migrated, was written back by close. */
	{
		FILE *f = fopen(test_path("f"), "r");
		char word[5];

		cr_assert(f);
		cr_assert_eq(fseek(f, 2 * 4096 + 10, SEEK_SET), 0);
		cr_assert_eq(fread(word, 1, 5, f), 5);
		fclose(f);
		cr_expect_eq(memcmp(word, "dirty", 5), 0);
	}
	cr_expect_eq(vmstat_value(eng, "pgmigrate_success"), 16);
	destroy_engine(eng);
}
