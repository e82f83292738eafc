/* Counter knowledge: help text reused from vmstat_items.h, kinds, groups, cross-kernel spellings.
 */
#include <nodelru/vmstat_items.h>

#include "helpers.h"
#include "map.h"
#include "names.h"

TestSuite(names, .timeout = 10);

Test(names, engine_counters_take_help_from_vmstat_items)
{
	struct name_info ni;

	names_lookup("pgscan_kswapd", &ni);
	cr_expect_str_eq(ni.help, "inactive list pages scanned by kswapd");
	cr_expect_eq(ni.kind, VM_EVENT);
	cr_expect_eq(ni.group, G_RECLAIM);
	names_lookup("nlru_kswapd_wakeup", &ni);
	cr_expect_str_eq(ni.help, "wakeups of a sleeping or napping kswapd");
	cr_expect_eq(ni.group, G_ENGINE);
	names_lookup("nr_inactive_file", &ni);
	cr_expect_eq(ni.kind, VM_STATE);
	cr_expect_eq(ni.group, G_STATE);
}

Test(names, every_item_of_the_engine_list_is_known)
{
#define CHECK_(e, v, n, h)                                                                         \
	names_lookup(n, &ni);                                                                      \
	cr_expect_str_eq(ni.help, h, "%s", n);
#define CHECK_ZONED_(e, v, n, h)                                                                   \
	names_lookup(n "_normal", &ni);                                                            \
	cr_expect_str_eq(ni.help, h, "%s_normal", n);
	struct name_info ni;

	NLRU_ZONE_STAT_ITEMS(CHECK_)
	NLRU_NODE_STAT_ITEMS(CHECK_)
	NLRU_VM_EVENT_ITEMS(CHECK_, CHECK_ZONED_, CHECK_ZONED_)
#undef CHECK_
#undef CHECK_ZONED_
}

Test(names, zoned_4_7_names_and_4_8_zoned_names)
{
	struct name_info ni;

	names_lookup("pgscan_kswapd_dma32", &ni); /* 4.7: per zone */
	cr_expect_str_eq(ni.help, "inactive list pages scanned by kswapd");
	cr_expect_eq(ni.group, G_ZONE);
	names_lookup("allocstall_normal", &ni); /* 4.8: per zone */
	cr_expect_eq(ni.kind, VM_EVENT);
	cr_expect_eq(ni.group, G_ZONE);
	names_lookup("allocstall", &ni); /* 4.7: one counter; not the 4.8 zoned item */
	cr_expect_str_eq(ni.help, "direct reclaim entries (4.7: one global count)");
	names_lookup("pgalloc", &ni); /* only exists per zone */
	cr_expect_null(ni.help);
}

Test(names, cumulative_state_items_are_events)
{
	static const char *const names[] = {"nr_dirtied", "nr_written", "nr_vmscan_write",
					    "workingset_refault", "numa_hit"};
	struct name_info ni;

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		names_lookup(names[i], &ni);
		cr_expect_eq(ni.kind, VM_EVENT, "%s only grows", names[i]);
	}
}

Test(names, unknown_names_are_classified_by_prefix)
{
	struct name_info ni;

	names_lookup("nr_something_new", &ni);
	cr_expect_null(ni.help);
	cr_expect_eq(ni.kind, VM_STATE);
	cr_expect_eq(ni.group, G_STATE);
	names_lookup("frobnicate_events", &ni);
	cr_expect_eq(ni.kind, VM_EVENT);
	cr_expect_eq(ni.group, G_OTHER);
	names_lookup("workingset_refault_file", &ni); /* 6.x */
	cr_expect_eq(ni.group, G_WORKINGSET);
	cr_expect_not_null(ni.help);
}

Test(names, spellings_fold_into_one_logical_counter)
{
	const struct map_entry *m = map_canonical("pgscan_kswapd_normal");
	struct vm_dump d47, d48, d6;
	int64_t v;

	cr_assert_not_null(m);
	cr_expect_str_eq(m->canon, "pgscan_kswapd");
	dump_from(&d47, "pgscan_kswapd_dma32 5\npgscan_kswapd_normal 7\nallocstall 3\n", NULL);
	dump_from(&d48, "pgscan_kswapd 12\nallocstall_dma32 1\nallocstall_normal 2\n", NULL);
	dump_from(&d6, "workingset_refault_anon 4\nworkingset_refault_file 6\n", NULL);
	cr_expect_eq(map_sum(&d47, map_get(MAP_PGSCAN_KSWAPD)->parts, &v), 2);
	cr_expect_eq(v, 12);
	cr_expect_eq(map_sum(&d48, map_get(MAP_PGSCAN_KSWAPD)->parts, &v), 1);
	cr_expect_eq(v, 12);
	cr_expect_eq(map_sum(&d47, map_get(MAP_ALLOCSTALL)->parts, &v), 1);
	cr_expect_eq(v, 3);
	cr_expect_eq(map_sum(&d48, map_get(MAP_ALLOCSTALL)->parts, &v), 2);
	cr_expect_eq(v, 3);
	cr_expect_eq(map_sum(&d6, map_get(MAP_WORKINGSET_REFAULT)->parts, &v), 2);
	cr_expect_eq(v, 10);
	cr_expect_eq(map_sum(&d6, map_get(MAP_PGSCAN_KSWAPD)->parts, &v), 0, "absent, not 0");
	dump_fini(&d47);
	dump_fini(&d48);
	dump_fini(&d6);
}

/* Every counter of the 4.7, 4.8, 6.x and engine fixtures has a meaning to show. */
Test(names, fixtures_have_no_unknown_counter)
{
	static const char *const files[] = {
		DATA("vmstat-4.7-after"),  DATA("vmstat-4.8-after"),  DATA("vmstat-6.x-after"),
		DATA("engine-zone-after"), DATA("engine-node-after"),
	};

	for (size_t f = 0; f < sizeof(files) / sizeof(files[0]); f++) {
		struct vm_dump d;

		cr_assert_eq(dump_init(&d, files[f]), 0);
		cr_assert_eq(dump_load(&d, files[f], NULL), 0);
		for (size_t i = 0; i < d.nr; i++) {
			struct name_info ni;

			names_lookup(d.v[i].name, &ni);
			cr_expect_not_null(ni.help, "%s: no help for %s", files[f], d.v[i].name);
		}
		dump_fini(&d);
	}
}
