/*
 * Real kernels' /proc/vmstat and /proc/zoneinfo, 2.6.8 to 6.19 (data/real/, sources in
 * data/real/SOURCES.md): every file is read without a refusal and without a warning but the
 * ones a kernel earned, every counter name is known with its meaning and era, and the
 * counters whose meaning changed across kernels are explained and summed as they were meant.
 */
#include <dirent.h>
#include <errno.h>
#include <math.h>

#include "compare.h"
#include "helpers.h"
#include "map.h"
#include "names.h"
#include "zoneinfo.h"

TestSuite(real, .timeout = 30);

#define REAL(name) DATA("real/" name)

/* The files of data/real/ ending in @suffix, in @names (up to 64), sorted. */
static size_t real_files(const char *suffix, char names[][128])
{
	struct dirent **list;
	size_t n = 0;
	int nr = scandir(DATA("real"), &list, NULL, alphasort);

	cr_assert_geq(nr, 0);
	for (int i = 0; i < nr; i++) {
		size_t len = strlen(list[i]->d_name), sl = strlen(suffix);

		if (len > sl && strcmp(list[i]->d_name + len - sl, suffix) == 0 && n < 64)
			snprintf(names[n++], 128, "%s", list[i]->d_name);
		free(list[i]);
	}
	free(list);
	return n;
}

static void load(struct vm_dump *d, const char *name, struct diag_log *log)
{
	char path[512];
	struct vm_diag diag = diag_for(log);

	snprintf(path, sizeof(path), "%s/%.127s", DATA("real"), name);
	cr_assert_eq(dump_init(d, path), 0);
	cr_assert_eq(dump_load(d, path, &diag), 0, "%s", name);
}

Test(real, every_vmstat_is_read_and_every_name_known)
{
	char names[64][128];
	size_t n = real_files(".vmstat", names);

	cr_assert_eq(n, 21);
	for (size_t i = 0; i < n; i++) {
		struct diag_log log;
		struct vm_dump d;

		load(&d, names[i], &log);
		cr_expect_eq(log.count, 0, "%s: %s", names[i], log.text);
		cr_expect_gt(d.nr, 30, "%s", names[i]);
		for (size_t k = 0; k < d.nr; k++) {
			struct name_info ni;

			names_lookup(d.v[k].name, &ni);
			/* nr_overhead is a vendor kernel's, not mainline's. */
			if (strcmp(d.v[k].name, "nr_overhead") == 0)
				continue;
			cr_expect_not_null(ni.help, "%s: %s unknown", names[i], d.v[k].name);
			cr_expect_not_null(ni.era, "%s: %s has no era", names[i], d.v[k].name);
		}
		dump_fini(&d);
	}
}

Test(real, every_zoneinfo_is_read_and_only_nameless_values_are_warned_about)
{
	char names[64][128];
	size_t n = real_files(".zoneinfo", names);

	cr_assert_eq(n, 17);
	for (size_t i = 0; i < n; i++) {
		struct diag_log log;
		struct vm_diag diag = diag_for(&log);
		struct zoneinfo zi;
		char path[512];
		int nameless = strstr(names[i], "4.18.0-80") || strstr(names[i], "4.14-4.19");

		snprintf(path, sizeof(path), "%s/%.127s", DATA("real"), names[i]);
		cr_assert_eq(zoneinfo_init(&zi, path), 0);
		cr_assert_eq(zoneinfo_load(&zi, path, &diag), 0, "%s", names[i]);
		cr_expect_gt(zi.nr_zones, 0, "%s", names[i]);
		if (nameless)
			cr_expect_str_eq(log.text,
					 "30: a value without a counter name (expected 'name "
					 "value'); line skipped\n",
					 "%s", names[i]);
		else
			cr_expect_eq(log.count, 0, "%s: %s", names[i], log.text);
		zoneinfo_fini(&zi);
	}
}

/* 2.6.16: "scanned N (a: A i: I)", "cpu: N pcp: M" and the unsplit active/inactive lists. */
Test(real, zoneinfo_of_2_6_is_read_whole)
{
	struct diag_log log;
	struct vm_diag diag = diag_for(&log);
	const char *path = REAL("linux-2.6.16-arm720t-dmaonly.zoneinfo");
	struct zoneinfo zi;
	int64_t v, act, inact;

	cr_assert_eq(zoneinfo_init(&zi, path), 0);
	cr_assert_eq(zoneinfo_load(&zi, path, &diag), 0);
	cr_expect_eq(log.count, 0, "%s", log.text);
	cr_assert_eq(zi.nr_zones, 1);
	cr_expect_eq(dump_get(&zi.zones[0].fields, "scanned", &v), 0);
	cr_expect_eq(v, 0);
	cr_expect_eq(dump_get(&zi.zones[0].fields, "spanned", &v), 0);
	cr_expect_eq(v, 8192);
	cr_expect_eq(dump_get(&zi.zones[0].fields, "all_unreclaimable", &v), 0);
	cr_expect_eq(zoneinfo_node_unsplit(&zi, &zi.nodes[0], &act, &inact), 0);
	cr_expect_eq(act, 367);
	cr_expect_eq(inact, 720);
	zoneinfo_fini(&zi);
}

/* Before 3.4, pgsteal_<zone> counted every reclaimer; kswapd_steal was kswapd's share. */
Test(real, pgsteal_of_zones_before_3_4_is_all_reclaim)
{
	struct name_info ni;

	names_lookup("pgsteal_normal", &ni);
	cr_expect_not_null(strstr(ni.help, "by kswapd and direct reclaim together"), "%s", ni.help);
	cr_expect_str_eq(ni.era, "2.6-3.3");
	cr_expect_null(map_canonical("pgsteal_normal"), "not a spelling of pgsteal_direct");
	names_lookup("kswapd_steal", &ni);
	cr_expect_str_eq(ni.era, "2.6-3.3");
	names_lookup("pgsteal_kswapd_normal", &ni);
	cr_expect_str_eq(ni.era, "3.4-4.7");
	names_lookup("pgsteal_kswapd", &ni);
	cr_expect_str_eq(ni.era, "4.8 on");
}

/* compare on 3.2.0: direct reclaim = the per-zone steals less kswapd_steal. */
Test(real, compare_takes_kswapd_steal_out_of_the_zone_steals)
{
	static const char before[] = "pgsteal_dma32 100\npgsteal_normal 50\nkswapd_steal 40\n"
				     "pgscan_kswapd_normal 60\npgscan_direct_normal 200\n";
	static const char after[] = "pgsteal_dma32 300\npgsteal_normal 150\nkswapd_steal 140\n"
				    "pgscan_kswapd_normal 160\npgscan_direct_normal 600\n";
	struct vm_dump b, a;
	struct cmp_run run = {"3.2.0", &b, &a, 10};
	struct cmp_table t;

	dump_from(&b, before, NULL);
	dump_from(&a, after, NULL);
	cr_assert_eq(compare_build(&run, 1, 0, NULL, &t), 0);
	cr_expect_eq(compare_cell(&t, "Kswapd pages reclaimed", 0)->i, 100);
	cr_expect_eq(compare_cell(&t, "Direct pages reclaimed", 0)->i, 300 - 100);
	cr_expect_eq(compare_cell(&t, "Direct efficiency", 0)->i, 50);
	compare_free(&t);
	dump_fini(&b);
	dump_fini(&a);
}

Test(real, eras_of_counters_that_came_and_went)
{
	static const struct {
		const char *name, *era;
	} cases[] = {
		{"nr_alloc_batch", "3.12-4.7"},
		{"workingset_restore", "4.20-5.8"},
		{"workingset_refault", "3.15-5.8"},
		{"workingset_refault_file", "5.9 on"},
		{"allocstall", "2.6-4.7"},
		{"allocstall_normal", "4.8 on (before: one allocstall)"},
		{"thp_split", "2.6.39-4.4"},
		{"thp_split_page", "4.5 on"},
		{"nr_slab", "2.6-2.6.18"},
		{"compact_pages_moved", "2.6.35-3.7"},
		{"pgmigrate_success", "3.8 on"},
		{"nr_pages_scanned", "3.17-4.10"},
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct name_info ni;

		names_lookup(cases[i].name, &ni);
		cr_expect_not_null(ni.era, "%s", cases[i].name);
		if (ni.era)
			cr_expect_str_eq(ni.era, cases[i].era, "%s", cases[i].name);
	}
}

/* workingset_restore (4.20-5.8) is known, and is the one-counter spelling compare sums. */
Test(real, workingset_restore_is_known_and_folded)
{
	struct name_info ni;
	const struct map_entry *m = map_canonical("workingset_restore");

	names_lookup("workingset_restore", &ni);
	cr_expect_not_null(ni.help);
	cr_assert_not_null(m);
	cr_expect_str_eq(m->canon, "workingset_restore");
}

/* Every name of 4.7's and 4.8's vmstat_text[] and of a 6.18 kernel's file has an era. */
Test(real, the_fixtures_of_4_7_4_8_and_6_x_have_eras_for_every_name)
{
	static const char *const files[] = {"vmstat-4.7-after", "vmstat-4.8-after",
					    "vmstat-6.x-before"};

	for (size_t f = 0; f < sizeof(files) / sizeof(files[0]); f++) {
		char path[512];
		struct vm_dump d;

		snprintf(path, sizeof(path), "%s/%s", TOOL_DATA_DIR, files[f]);
		cr_assert_eq(dump_init(&d, path), 0);
		cr_assert_eq(dump_load(&d, path, NULL), 0);
		for (size_t k = 0; k < d.nr; k++) {
			struct name_info ni;

			names_lookup(d.v[k].name, &ni);
			cr_expect_not_null(ni.era, "%s: %s", files[f], d.v[k].name);
		}
		dump_fini(&d);
	}
}
