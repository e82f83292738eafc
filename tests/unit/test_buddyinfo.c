/*
 * The /proc/buddyinfo and /proc/pagetypeinfo dumps (vmstat_dump.c): exact lines for a free-list
 * state built by hand, Linux 4.8's headers (pagetypeinfo_show in mm/vmstat.c), one section
 * per node, and write errors.
 *
 * The hand-made state empties the Normal zone of a 16 MiB engine (3072 pages from pfn 1024, six
 * pageblocks) under zone->lock, then gives back chosen blocks with chosen pageblock types, as
 * test_migratetype.c does.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "buddy.h"
#include "helpers.h"
#include "vmstat.h"

TestSuite(buddyinfo, .timeout = 60);

#define NORMAL_START 1024u
#define NORMAL_PAGES 3072u

static unsigned char held[NORMAL_START + NORMAL_PAGES];

static struct zone *normal_zone(struct nlru_engine *eng)
{
	return &NODE_DATA(eng, 0)->node_zones[ZONE_NORMAL];
}

/* Take every free page of the Normal zone; zone->lock is held on return. */
static void take_all(struct zone *zone)
{
	memset(held, 0, sizeof(held));
	cr_assert_eq(zone->zone_start_pfn, NORMAL_START);
	cr_assert_eq(zone->spanned_pages, NORMAL_PAGES);
	spin_lock(&zone->lock);
	for (int order = MAX_ORDER - 1; order >= 0; order--)
		for (int mt = 0; mt < MIGRATE_TYPES; mt++)
			for (uint32_t pfn;
			     (pfn = __rmqueue_smallest(zone, (unsigned int)order, mt)) != PFN_NIL;)
				memset(&held[pfn], 1, 1u << order);
	cr_assert_eq(zone_page_state(zone, NLRU_NR_FREE_PAGES), 0);
}

/* Give back a held block, its pageblock first made @mt; zone->lock held. */
static void give(struct zone *zone, uint32_t pfn, unsigned int order, int mt)
{
	for (uint32_t i = 0; i < 1u << order; i++)
		cr_assert(held[pfn + i], "pfn %u given twice", pfn + i);
	memset(&held[pfn], 0, 1u << order);
	set_pageblock_migratetype(zone, pfn, mt);
	free_one_page_locked(zone, pfn, order, mt);
}

/* Everything back, each page as its pageblock's type; zone->lock held, dropped on return. */
static void give_all_back(struct nlru_engine *eng, struct zone *zone)
{
	for (uint32_t pfn = NORMAL_START; pfn < NORMAL_START + NORMAL_PAGES; pfn++)
		if (held[pfn]) {
			held[pfn] = 0;
			free_one_page_locked(zone, pfn, 0, get_pfnblock_migratetype(zone, pfn));
		}
	cr_assert_eq(zone_check_free_lists(zone, &eng->log), 0, "%s", test_log_last);
	spin_unlock(&zone->lock);
	cr_expect_eq(zone_page_state(zone, NLRU_NR_FREE_PAGES), NORMAL_PAGES);
}

/* A dump into a heap string (free() it). */
static char *dump_to_string(int (*dump)(struct nlru_engine *, FILE *), struct nlru_engine *eng)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	cr_assert(f);
	cr_assert_eq(dump(eng, f), 0, "%s", test_log_last);
	cr_assert_eq(fclose(f), 0);
	return buf;
}

/* Is @line, newline included, one whole line of @text? */
static bool has_line(const char *text, const char *line)
{
	for (const char *p = text; (p = strstr(p, line)); p++)
		if (p == text || p[-1] == '\n')
			return true;
	return false;
}

static size_t count_lines_starting(const char *text, const char *prefix)
{
	size_t n = 0;

	for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		n += strncmp(p, prefix, strlen(prefix)) == 0;
	return n;
}

/* A zone line of counts, "%6lu " each, as frag_show_print and the free table print them. */
static void counts_line(char *buf, size_t size, const char *head, const unsigned long *v)
{
	size_t n = (size_t)snprintf(buf, size, "%s", head);

	for (int order = 0; order < MAX_ORDER; order++)
		n += (size_t)snprintf(buf + n, size - n, "%6lu ", v[order]);
	snprintf(buf + n, size - n, "\n");
}

/*
 * In the emptied Normal zone: pageblock 0 Unmovable with an order-0 block at 1024 and an
 * order-2 block at 1028; pageblock 1 Movable, its whole order-9 block; pageblock 2 Reclaimable
 * with order-3 blocks at 2048 and 2064 (not buddies: 2048's buddy is 2056); pageblock 3
 * HighAtomic with an order-1 block at 2560; pageblocks 4 and 5 keep the Movable type every
 * pageblock starts with.  535 free pages: 1 + 2 + 4 + 2 * 8 + 512.
 */
Test(buddyinfo, a_known_free_list_state_is_printed_exactly)
{
	static const unsigned long nr_free[MAX_ORDER] = {1, 1, 1, 2, 0, 0, 0, 0, 0, 1, 0};
	static const unsigned long type_free[MIGRATE_TYPES][MAX_ORDER] = {
		{1, 0, 1}, {0, 0, 0, 0, 0, 0, 0, 0, 0, 1}, {0, 0, 0, 2}, {0, 1}};
	static const char *const names[MIGRATE_TYPES] = {"Unmovable", "Movable", "Reclaimable",
							 "HighAtomic"};
	struct nlru_engine *eng = test_engine(16, NULL);
	struct zone *zone = normal_zone(eng);
	char want[512], head[128];
	char *bi, *pti;

	take_all(zone);
	give(zone, 1024, 0, MIGRATE_UNMOVABLE);
	give(zone, 1028, 2, MIGRATE_UNMOVABLE);
	give(zone, 1536, 9, MIGRATE_MOVABLE);
	give(zone, 2048, 3, MIGRATE_RECLAIMABLE);
	give(zone, 2064, 3, MIGRATE_RECLAIMABLE);
	give(zone, 2560, 1, MIGRATE_HIGHATOMIC);
	spin_unlock(&zone->lock);
	cr_expect_eq(zone_page_state(zone, NLRU_NR_FREE_PAGES), 535);

	bi = dump_to_string(nlru_buddyinfo_dump, eng);
	counts_line(want, sizeof(want), "Node 0, zone   Normal ", nr_free);
	cr_expect(has_line(bi, want), "want\n%sin\n%s", want, bi);
	cr_expect_eq(count_lines_starting(bi, "Node 0, zone "), count_lines_starting(bi, "Node "));

	pti = dump_to_string(nlru_pagetypeinfo_dump, eng);
	for (int mt = 0; mt < MIGRATE_TYPES; mt++) {
		snprintf(head, sizeof(head), "Node    0, zone   Normal, type %12s ", names[mt]);
		counts_line(want, sizeof(want), head, type_free[mt]);
		cr_expect(has_line(pti, want), "want\n%sin\n%s", want, pti);
	}
	cr_expect(has_line(pti, "Node 0, zone   Normal            1            3            1"
				"            1 \n"),
		  "%s", pti);
	free(bi);
	free(pti);

	spin_lock(&zone->lock);
	give_all_back(eng, zone);
	check_pages_accounted(eng, 0);
	destroy_engine(eng);
}

/* The headers of pagetypeinfo_show, pagetypeinfo_showfree and pagetypeinfo_showblockcount. */
Test(buddyinfo, pagetypeinfo_has_linux_4_8_headers)
{
	struct nlru_engine *eng = test_engine(16, NULL);
	char *pti = dump_to_string(nlru_pagetypeinfo_dump, eng);

	cr_expect(strncmp(pti, "Page block order: 9\nPages per block:  512\n\n", 42) == 0, "%s",
		  pti);
	cr_expect(has_line(pti, "Free pages count per migrate type at order       0      1      2"
				"      3      4      5      6      7      8      9     10 \n"),
		  "%s", pti);
	cr_expect(has_line(pti, "Number of blocks type     Unmovable      Movable  Reclaimable"
				"   HighAtomic \n"),
		  "%s", pti);
	/* A fresh zone: its free pages are Movable blocks of the largest order that fit. */
	cr_expect(has_line(pti, "Node    0, zone   Normal, type      Movable      0      0      0"
				"      0      0      0      0      0      0      0      3 \n"),
		  "%s", pti);
	free(pti);
	destroy_engine(eng);
}

/* Each node is a section of its own, as the seq_file of pagetypeinfo walks nodes. */
Test(buddyinfo, every_node_is_printed)
{
	struct nlru_engine *eng = test_engine(16, "pack:2 numa:1 core:1 pu:1");
	char *bi = dump_to_string(nlru_buddyinfo_dump, eng);
	char *pti = dump_to_string(nlru_pagetypeinfo_dump, eng);

	cr_expect_gt(count_lines_starting(bi, "Node 0, zone "), 0, "%s", bi);
	cr_expect_gt(count_lines_starting(bi, "Node 1, zone "), 0, "%s", bi);
	cr_expect_eq(count_lines_starting(pti, "Page block order: 9"), 2, "%s", pti);
	cr_expect_eq(count_lines_starting(pti, "Number of blocks type "), 2, "%s", pti);
	cr_expect_eq(count_lines_starting(pti, "Node    1, zone "),
		     MIGRATE_TYPES * count_lines_starting(bi, "Node 1, zone "), "%s", pti);
	free(bi);
	free(pti);
	destroy_engine(eng);
}

Test(buddyinfo, bad_arguments_and_write_errors_are_reported)
{
	struct nlru_engine *eng = test_engine(8, NULL);
	int (*dumps[])(struct nlru_engine *, FILE *) = {nlru_buddyinfo_dump,
							nlru_pagetypeinfo_dump};

	for (size_t i = 0; i < sizeof(dumps) / sizeof(dumps[0]); i++) {
		FILE *full = fopen("/dev/full", "w");

		cr_expect_eq(dumps[i](NULL, stderr), -EINVAL);
		cr_expect_eq(dumps[i](eng, NULL), -EINVAL);
		if (!full)
			cr_skip_test("no /dev/full: %s", strerror(errno));
		test_log_last[0] = '\0';
		cr_expect_eq(dumps[i](eng, full), -EIO, "dump %zu", i);
		cr_expect(strstr(test_log_last, "dump: writing it failed"), "%s", test_log_last);
		fclose(full);
	}
	destroy_engine(eng);
}
