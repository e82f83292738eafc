/*
 * What an embedder asks before it allocates: a zone's free blocks of each order
 * (nlru_zone_info() version 2, a /proc/buddyinfo line) and MemAvailable (nlru_mem_available()).
 */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <string.h>

#include "helpers.h"

TestSuite(meminfo, .fini = test_remove_dir, .timeout = 60);

static struct nlru_zone_info zone_info(struct nlru_engine *eng, enum nlru_zone_type zid)
{
	struct nlru_zone_info zi = {.size = sizeof(zi), .version = NLRU_ZONE_INFO_VERSION};

	cr_assert_eq(nlru_zone_info(eng, 0, zid, &zi), 0, "%s", test_log_last);
	return zi;
}

/* The free blocks of every order add up to the free pages, and follow an allocation. */
Test(meminfo, zone_info_counts_the_free_blocks_of_each_order)
{
	struct nlru_engine *eng = test_engine(16, NULL);
	unsigned long before;
	struct nlru_zone_info zi;
	uint64_t pages = 0;
	void *p;

	nlru_drain_pages(eng);
	zi = zone_info(eng, NLRU_ZONE_NORMAL);
	cr_expect_eq(zi.version, NLRU_ZONE_INFO_VERSION);
	for (int order = 0; order < NLRU_MAX_ORDER; order++)
		pages += zi.nr_free_blocks[order] << order;
	cr_expect_eq(pages, zi.free, "blocks hold %llu pages, the zone %llu free",
		     (unsigned long long)pages, (unsigned long long)zi.free);
	cr_expect_gt(zi.nr_free_blocks[NLRU_MAX_ORDER - 1], 0, "a fresh zone is in 4 MiB blocks");

	before = zi.nr_free_blocks[NLRU_MAX_ORDER - 1];
	cr_assert_eq(nlru_alloc_pages(eng, NLRU_GFP_KERNEL, NLRU_MAX_ORDER - 1, 0, &p), 0);
	zi = zone_info(eng, NLRU_ZONE_NORMAL);
	cr_expect_eq(zi.nr_free_blocks[NLRU_MAX_ORDER - 1], before - 1,
		     "the 4 MiB block came from Normal");
	cr_assert_eq(nlru_free_pages(eng, p, NLRU_MAX_ORDER - 1), 0);
	destroy_engine(eng);
}

/* A program built against version 1 passes the smaller struct: nothing past it is written. */
Test(meminfo, a_version_1_zone_info_is_filled_within_its_size)
{
	struct nlru_engine *eng = test_engine(16, NULL);
	union {
		struct nlru_zone_info zi;
		unsigned char bytes[sizeof(struct nlru_zone_info)];
	} u;

	memset(&u, 0xa5, sizeof(u));
	u.zi.size = NLRU_ZONE_INFO_SIZE_1;
	cr_assert_eq(nlru_zone_info(eng, 0, NLRU_ZONE_NORMAL, &u.zi), 0, "%s", test_log_last);
	cr_expect_gt(u.zi.managed, 0);
	cr_expect_eq(u.zi.size, NLRU_ZONE_INFO_SIZE_1);
	for (size_t i = NLRU_ZONE_INFO_SIZE_1; i < sizeof(u); i++)
		cr_assert_eq(u.bytes[i], 0xa5, "byte %zu past version 1's struct was written", i);
	destroy_engine(eng);
}

Test(meminfo, an_unknown_size_or_version_is_refused_and_explained)
{
	struct nlru_engine *eng = test_engine(16, NULL);
	struct nlru_zone_info zi = {.size = sizeof(zi)};

	cr_expect_eq(nlru_zone_info(eng, 0, NLRU_ZONE_NORMAL, &zi), -EINVAL);
	cr_expect(strstr(test_log_last, "NLRU_ZONE_INFO_VERSION"), "%s", test_log_last);
	zi.version = NLRU_ZONE_INFO_VERSION;
	zi.size = sizeof(zi) + 8;
	cr_expect_eq(nlru_zone_info(eng, 0, NLRU_ZONE_NORMAL, &zi), -EINVAL);
	cr_expect(strstr(test_log_last, "newer nodelru"), "%s", test_log_last);
	cr_expect_eq(nlru_mem_available(NULL), -EINVAL);
	destroy_engine(eng);
}

/* Free pages less the reserves (calculate_totalreserve_pages()), from zone_info. */
static long free_less_reserves(struct nlru_engine *eng)
{
	long total = 0;

	for (int zid = 0; zid < NLRU_MAX_NR_ZONES; zid++) {
		struct nlru_zone_info zi = zone_info(eng, (enum nlru_zone_type)zid);
		uint64_t reserve = 0;

		for (int j = 0; j < NLRU_MAX_NR_ZONES; j++)
			reserve = zi.lowmem_reserve[j] > reserve ? zi.lowmem_reserve[j] : reserve;
		reserve += zi.wmark_high;
		total += (long)zi.free - (long)(reserve < zi.managed ? reserve : zi.managed);
	}
	return total;
}

/*
 * MemAvailable counts page cache as available, all but what is assumed to stay (at most the
 * low watermarks' worth), and anonymous memory without swap as gone.
 */
Test(meminfo, mem_available_counts_page_cache_and_not_anonymous_memory)
{
	struct nlru_engine *eng = test_swap_engine(16, 0, false);
	struct nlru_region *region;
	struct nlru_file *f;
	long fresh, cached, anon, wmark_low = 0;
	char buf[65536];
	void *p;

	for (int zid = 0; zid < NLRU_MAX_NR_ZONES; zid++)
		wmark_low += (long)zone_info(eng, (enum nlru_zone_type)zid).wmark_low;
	nlru_drain_pages(eng);
	fresh = nlru_mem_available(eng);
	cr_expect_eq(fresh, free_less_reserves(eng),
		     "a fresh engine: its free pages less reserves");

	make_file(test_path("cached"), 8 << 20, 1);
	cr_assert_eq(nlru_file_open(eng, test_path("cached"), O_RDONLY, 0, 0, &f), 0);
	for (uint64_t off = 0; off < 8 << 20; off += sizeof(buf))
		cr_assert_eq(nlru_file_pread(f, buf, sizeof(buf), off), (long)sizeof(buf));
	nlru_drain_pages(eng);
	cached = nlru_mem_available(eng);
	cr_expect_lt(cached, fresh, "some of the cache is assumed to stay");
	cr_expect_geq(cached, fresh - wmark_low - 64,
		      "8 MiB of cache cost %ld available pages; the low watermarks are %ld",
		      fresh - cached, wmark_low);

	cr_assert_eq(nlru_region_create(eng, 1024, 0, &region), 0);
	for (size_t i = 0; i < 1024; i++) {
		cr_assert_eq(nlru_region_pin(region, i, NLRU_PIN_WRITE, &p), 0);
		cr_assert_eq(nlru_region_unpin(region, i), 0);
	}
	nlru_drain_pages(eng);
	anon = nlru_mem_available(eng);
	cr_expect_leq(anon, cached - 1024 + 64, "4 MiB of anonymous memory without swap is gone");
	cr_assert_eq(nlru_region_destroy(region), 0);
	cr_assert_eq(nlru_file_close(f), 0);
	destroy_engine(eng);
}
