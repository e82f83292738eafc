/*
 * Grouping by mobility (buddy.c): which type an allocation is, the fallback order, when a
 * fallback steals a pageblock, and the high-order atomic reserve, each against a case worked
 * out by hand from 4.8's __rmqueue_fallback(), steal_suitable_fallback() and
 * can_steal_fallback().
 *
 * The hand-made cases empty the Normal zone of a 16 MiB engine (3072 pages from pfn 1024, six
 * pageblocks), then give back chosen blocks with chosen pageblock types, under zone->lock.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "buddy.h"
#include "gfp.h"
#include "helpers.h"
#include "page_alloc.h"
#include "vmstat.h"

TestSuite(migratetype, .timeout = 60);

#define NORMAL_START 1024u
#define NORMAL_PAGES 3072u

/* What the test holds of the zone: one byte per node-local pfn. */
struct hold {
	struct zone *zone;
	unsigned char held[NORMAL_START + NORMAL_PAGES];
};

static void mark(struct hold *h, uint32_t pfn, unsigned int order, unsigned char v)
{
	cr_assert_neq(pfn, PFN_NIL);
	for (uint32_t i = 0; i < 1u << order; i++) {
		cr_assert_neq(h->held[pfn + i], v, "pfn %u held twice or freed twice", pfn + i);
		h->held[pfn + i] = v;
	}
}

/* Lock the Normal zone and take every free page of it. */
static void take_all(struct nlru_engine *eng, struct hold *h)
{
	memset(h, 0, sizeof(*h));
	h->zone = &NODE_DATA(eng, 0)->node_zones[ZONE_NORMAL];
	cr_assert_eq(h->zone->zone_start_pfn, NORMAL_START);
	cr_assert_eq(h->zone->spanned_pages, NORMAL_PAGES);
	spin_lock(&h->zone->lock);
	for (int order = MAX_ORDER - 1; order >= 0; order--)
		for (int mt = 0; mt < MIGRATE_TYPES; mt++)
			for (uint32_t pfn; (pfn = __rmqueue_smallest(h->zone, (unsigned int)order,
								     mt)) != PFN_NIL;)
				mark(h, pfn, (unsigned int)order, 1);
	cr_assert_eq(zone_page_state(h->zone, NLRU_NR_FREE_PAGES), 0);
}

/* Give back a held block, its pageblock first made @mt. */
static void give(struct hold *h, uint32_t pfn, unsigned int order, int mt)
{
	mark(h, pfn, order, 0);
	set_pageblock_migratetype(h->zone, pfn, mt);
	free_one_page_locked(h->zone, pfn, order, mt);
}

static uint32_t take(struct hold *h, unsigned int order, int mt)
{
	uint32_t pfn = __rmqueue(h->zone, order, mt);

	mark(h, pfn, order, 1);
	return pfn;
}

/* Is the free block of @order at @pfn on @mt's list? */
static bool on_list(struct hold *h, uint32_t pfn, unsigned int order, int mt)
{
	struct page *pages = h->zone->zone_pgdat->pages;

	for (uint32_t p = h->zone->free_area[order].free_list[mt].first; p != PFN_NIL;
	     p = pages[p].next)
		if (p == pfn)
			return true;
	return false;
}

/* Everything back to the buddy lists; the lists and the accounting are whole again. */
static void give_all_back(struct nlru_engine *eng, struct hold *h)
{
	for (uint32_t pfn = NORMAL_START; pfn < NORMAL_START + NORMAL_PAGES; pfn++)
		if (h->held[pfn]) {
			h->held[pfn] = 0;
			free_one_page_locked(h->zone, pfn, 0,
					     get_pfnblock_migratetype(h->zone, pfn));
		}
	cr_assert_eq(zone_check_free_lists(h->zone, &eng->log), 0, "%s", test_log_last);
	spin_unlock(&h->zone->lock);
	cr_expect_eq(zone_page_state(h->zone, NLRU_NR_FREE_PAGES), NORMAL_PAGES);
	check_pages_accounted(eng, 0);
	destroy_engine(eng);
}

static struct hold hold;

Test(migratetype, gfp_flags_choose_the_type)
{
	unsigned int mask = 3;

	cr_expect_eq(gfpflags_to_migratetype(NLRU_GFP_KERNEL, mask), MIGRATE_UNMOVABLE);
	cr_expect_eq(gfpflags_to_migratetype(NLRU_GFP_ATOMIC, mask), MIGRATE_UNMOVABLE);
	cr_expect_eq(gfpflags_to_migratetype(NLRU_GFP_HIGHUSER_MOVABLE, mask), MIGRATE_MOVABLE);
	cr_expect_eq(gfpflags_to_migratetype(NLRU_GFP_KERNEL | NLRU_GFP_MOVABLE, mask),
		     MIGRATE_MOVABLE);
	cr_expect_eq(gfpflags_to_migratetype(NLRU_GFP_KERNEL | NLRU_GFP_SLAB_RECLAIMABLE, mask),
		     MIGRATE_RECLAIMABLE);
	cr_expect_eq(gfpflags_to_migratetype(NLRU_GFP_KERNEL | NLRU_GFP_SLAB_UNRECLAIMABLE, mask),
		     MIGRATE_UNMOVABLE);
	/* Grouping off: everything unmovable. */
	cr_expect_eq(gfpflags_to_migratetype(NLRU_GFP_HIGHUSER_MOVABLE, 0), MIGRATE_UNMOVABLE);
	cr_expect_eq(gfpflags_to_migratetype(NLRU_GFP_SLAB_RECLAIMABLE, 0), MIGRATE_UNMOVABLE);
}

Test(migratetype, a_fresh_zone_is_movable_pageblocks)
{
	struct nlru_engine *eng = test_engine(16, NULL);
	struct zone *zone = &NODE_DATA(eng, 0)->node_zones[ZONE_NORMAL];

	cr_expect_not(NODE_DATA(eng, 0)->group_by_mobility_disabled);
	for (uint32_t pfn = NORMAL_START; pfn < NORMAL_START + NORMAL_PAGES;
	     pfn += pageblock_nr_pages)
		cr_expect_eq(get_pfnblock_migratetype(zone, pfn), MIGRATE_MOVABLE, "pfn %u", pfn);
	cr_expect_eq(zone->free_area[10].nr_free, 3);
	for (int mt = 0; mt < MIGRATE_TYPES; mt++)
		cr_expect_eq(pfnlist_empty(&zone->free_area[10].free_list[mt]),
			     mt != MIGRATE_MOVABLE, "type %d", mt);
	destroy_engine(eng);
}

/* The public calls: each type's first page steals a whole order-10 block (two pageblocks). */
Test(migratetype, each_type_gets_pageblocks_of_its_own)
{
	static const unsigned int gfp[] = {NLRU_GFP_KERNEL, NLRU_GFP_HIGHUSER_MOVABLE,
					   NLRU_GFP_KERNEL | NLRU_GFP_SLAB_RECLAIMABLE};
	static const int want[] = {MIGRATE_UNMOVABLE, MIGRATE_MOVABLE, MIGRATE_RECLAIMABLE};
	struct nlru_engine *eng = test_engine(16, NULL);
	void *addr[3];

	for (int i = 0; i < 3; i++) {
		struct pglist_data *pgdat = NODE_DATA(eng, 0);
		struct page *page;

		cr_assert_eq(nlru_alloc_pages(eng, gfp[i], 0, 0, &addr[i]), 0, "%s", test_log_last);
		page = virt_to_page(eng, addr[i]);
		cr_expect_eq(
			get_pfnblock_migratetype(page_zone(pgdat, page), page_to_pfn(pgdat, page)),
			want[i], "gfp %#x", gfp[i]);
	}
	for (int i = 0; i < 3; i++)
		cr_assert_eq(nlru_free_pages(eng, addr[i], 0), 0);
	cr_expect_eq(
		nlru_alloc_pages(eng, NLRU_GFP_MOVABLE | NLRU_GFP_SLAB_RECLAIMABLE, 0, 0, &addr[0]),
		-EINVAL, "movable and reclaimable at once is refused");
	cr_expect(strstr(test_log_last, "movable or reclaimable"), "%s", test_log_last);
	drain_all_pages(eng);
	check_free_lists(eng);
	check_pages_accounted(eng, 0);
	destroy_engine(eng);
}

Test(migratetype, a_small_engine_does_not_group)
{
	struct nlru_engine *eng = test_engine(4, NULL);
	struct pglist_data *pgdat = NODE_DATA(eng, 0);
	struct page *page;
	void *addr;

	/* 1024 pages: fewer than a pageblock for each of the four types. */
	cr_expect(pgdat->group_by_mobility_disabled);
	cr_assert_eq(nlru_alloc_pages(eng, NLRU_GFP_HIGHUSER_MOVABLE, 0, 0, &addr), 0);
	page = virt_to_page(eng, addr);
	cr_expect_eq(get_pfnblock_migratetype(page_zone(pgdat, page), page_to_pfn(pgdat, page)),
		     MIGRATE_UNMOVABLE);
	cr_assert_eq(nlru_free_pages(eng, addr, 0), 0);
	destroy_engine(eng);
}

/* A block of pageblock_order or more is claimed whole, every pageblock of it. */
Test(migratetype, a_large_fallback_claims_its_pageblocks)
{
	struct nlru_engine *eng = test_engine(16, NULL);
	uint32_t pfn;

	take_all(eng, &hold);
	give(&hold, 2048, 10, MIGRATE_MOVABLE);
	set_pageblock_migratetype(hold.zone, 2048 + 512, MIGRATE_MOVABLE);
	pfn = take(&hold, 0, MIGRATE_UNMOVABLE);
	cr_expect_eq(pfn, 2048);
	cr_expect_eq(get_pfnblock_migratetype(hold.zone, 2048), MIGRATE_UNMOVABLE);
	cr_expect_eq(get_pfnblock_migratetype(hold.zone, 2048 + 512), MIGRATE_UNMOVABLE);
	/* The rest, split, is on the unmovable lists: orders 0..9 at 2048 + 2^order. */
	for (unsigned int o = 0; o < 10; o++)
		cr_expect(on_list(&hold, 2048 + (1u << o), o, MIGRATE_UNMOVABLE), "order %u", o);
	give_all_back(eng, &hold);
}

/*
 * Below pageblock_order / 2 a movable allocation takes the block it falls back on and nothing
 * else; from that order on it also moves the pageblock's other free pages to its own lists.
 * Neither claims the pageblock: less than half of it is free.
 */
Test(migratetype, movable_steals_from_order_four)
{
	for (unsigned int order = 3; order <= 4; order++) {
		struct nlru_engine *eng = test_engine(16, NULL);
		uint32_t pfn;

		take_all(eng, &hold);
		give(&hold, 1536, order, MIGRATE_UNMOVABLE);
		give(&hold, 1536 + 256, 0, MIGRATE_UNMOVABLE);
		pfn = take(&hold, 0, MIGRATE_MOVABLE);
		cr_expect_eq(pfn, 1536, "the larger block is fallen back on");
		cr_expect_eq(get_pfnblock_migratetype(hold.zone, 1536), MIGRATE_UNMOVABLE);
		/* The split remainder is the allocation's type, stolen or not (expand()). */
		cr_expect(on_list(&hold, 1536 + 1, 0, MIGRATE_MOVABLE));
		cr_expect(on_list(&hold, 1536 + (1u << (order - 1)), order - 1, MIGRATE_MOVABLE));
		cr_expect(on_list(&hold, 1536 + 256, 0,
				  order >= 4 ? MIGRATE_MOVABLE : MIGRATE_UNMOVABLE),
			  "order %u: the pageblock's other free page %s moved", order,
			  order >= 4 ? "is" : "is not");
		give_all_back(eng, &hold);
	}
}

/* Unmovable always steals; it claims the pageblock once half of it or more is free. */
Test(migratetype, unmovable_claims_a_pageblock_half_free)
{
	for (unsigned int extra = 0; extra <= 1; extra++) {
		struct nlru_engine *eng = test_engine(16, NULL);
		uint32_t pfn;

		take_all(eng, &hold);
		/* 255 or 256 free pages in the pageblock at 2560. */
		give(&hold, 2560, 7, MIGRATE_MOVABLE);
		give(&hold, 2560 + 128, 6, MIGRATE_MOVABLE);
		give(&hold, 2560 + 192, 5, MIGRATE_MOVABLE);
		give(&hold, 2560 + 224, 4, MIGRATE_MOVABLE);
		give(&hold, 2560 + 240, 3, MIGRATE_MOVABLE);
		give(&hold, 2560 + 248, 2, MIGRATE_MOVABLE);
		give(&hold, 2560 + 252, 1, MIGRATE_MOVABLE);
		give(&hold, 2560 + 254, 0, MIGRATE_MOVABLE);
		if (extra)
			give(&hold, 2560 + 300, 0, MIGRATE_MOVABLE);
		pfn = take(&hold, 0, MIGRATE_UNMOVABLE);
		cr_expect_eq(pfn, 2560, "the largest block is taken first");
		cr_expect_eq(get_pfnblock_migratetype(hold.zone, 2560),
			     extra ? MIGRATE_UNMOVABLE : MIGRATE_MOVABLE, "%u free pages",
			     255 + extra);
		/* Either way the pageblock's free pages went to the unmovable lists. */
		cr_expect(on_list(&hold, 2560 + 254, 0, MIGRATE_UNMOVABLE));
		cr_expect(on_list(&hold, 2560 + 128, 6, MIGRATE_UNMOVABLE));
		give_all_back(eng, &hold);
	}
}

/* The fallback order: the largest block first, then at one order reclaimable before movable. */
Test(migratetype, fallback_order)
{
	struct nlru_engine *eng = test_engine(16, NULL);

	take_all(eng, &hold);
	give(&hold, 1024, 5, MIGRATE_MOVABLE);
	give(&hold, 1536, 5, MIGRATE_RECLAIMABLE);
	cr_expect_eq(take(&hold, 5, MIGRATE_UNMOVABLE), 1536, "reclaimable first for unmovable");
	give(&hold, 2048, 6, MIGRATE_RECLAIMABLE);
	cr_expect_eq(take(&hold, 5, MIGRATE_UNMOVABLE), 2048, "a larger block comes first");
	/* Movable's own list at order 5 is empty: a movable request falls back on the rest of
	 * the order-6 block, now on the unmovable lists. */
	cr_expect_eq(take(&hold, 5, MIGRATE_MOVABLE), 1024, "its own type before any fallback");
	cr_expect_eq(take(&hold, 5, MIGRATE_MOVABLE), 2048 + 32);
	cr_expect_eq(__rmqueue(hold.zone, 0, MIGRATE_MOVABLE), PFN_NIL);
	give_all_back(eng, &hold);
}

/*
 * The high-order atomic reserve: a pageblock plus 1 % of the zone (542 pages here), so two
 * pageblocks; no fallback takes from it; unreserving keeps the last one.
 */
Test(migratetype, highatomic_reserve)
{
	struct nlru_engine *eng = test_engine(16, NULL);
	struct zone *zone;

	take_all(eng, &hold);
	zone = hold.zone;
	give(&hold, 1024, 3, MIGRATE_MOVABLE);
	give(&hold, 1536, 3, MIGRATE_MOVABLE);
	give(&hold, 2048, 3, MIGRATE_MOVABLE);
	spin_unlock(&zone->lock);
	reserve_highatomic_pageblock(zone, 1024);
	reserve_highatomic_pageblock(zone, 1536);
	reserve_highatomic_pageblock(zone, 2048);
	cr_expect_eq(zone->nr_reserved_highatomic, 2 * pageblock_nr_pages);
	cr_expect_eq(get_pfnblock_migratetype(zone, 1024), MIGRATE_HIGHATOMIC);
	cr_expect_eq(get_pfnblock_migratetype(zone, 1536), MIGRATE_HIGHATOMIC);
	cr_expect_eq(get_pfnblock_migratetype(zone, 2048), MIGRATE_MOVABLE, "over the limit");
	cr_expect(on_list(&hold, 1024, 3, MIGRATE_HIGHATOMIC));
	spin_lock(&zone->lock);
	cr_expect_eq(take(&hold, 3, MIGRATE_UNMOVABLE), 2048);
	cr_expect_eq(__rmqueue(zone, 3, MIGRATE_UNMOVABLE), PFN_NIL,
		     "the reserve is not a fallback");
	cr_expect_eq(__rmqueue_smallest(zone, 3, MIGRATE_HIGHATOMIC), 1536);
	mark(&hold, 1536, 3, 1);
	spin_unlock(&zone->lock);
	cr_expect(unreserve_highatomic_pageblock_zone(zone, MIGRATE_UNMOVABLE));
	cr_expect_eq(zone->nr_reserved_highatomic, pageblock_nr_pages);
	cr_expect_eq(get_pfnblock_migratetype(zone, 1024), MIGRATE_UNMOVABLE);
	cr_expect(on_list(&hold, 1024, 3, MIGRATE_UNMOVABLE));
	cr_expect_not(unreserve_highatomic_pageblock_zone(zone, MIGRATE_UNMOVABLE),
		      "the last reserved pageblock stays");
	spin_lock(&zone->lock);
	give_all_back(eng, &hold);
}
