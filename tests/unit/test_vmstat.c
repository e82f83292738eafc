/* The /proc/vmstat, /proc/zoneinfo and nodeN/vmstat dumps: 4.8 and 4.7 layouts, and values. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"

TestSuite(vmstat, .timeout = 30);

struct dump {
	char *text;
	size_t len;
	char *names[512];
	long values[512];
	int n;
};

/* Capture a dump and split it into "name value" lines, checking each line's shape. */
static void capture(struct dump *d, int (*fn)(struct nlru_engine *, FILE *),
		    struct nlru_engine *eng)
{
	FILE *f = open_memstream(&d->text, &d->len);
	char *line, *save;

	cr_assert_eq(fn(eng, f), 0);
	fclose(f);
	d->n = 0;
	for (line = strtok_r(d->text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *space = strchr(line, ' ');

		cr_assert(space && !strchr(space + 1, ' '), "line \"%s\" is not \"name value\"",
			  line);
		*space = '\0';
		d->names[d->n] = line;
		d->values[d->n++] = strtol(space + 1, NULL, 10);
	}
}

static int count_lines_starting(const char *text, const char *prefix)
{
	int n = 0;

	for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
		n += strncmp(l, prefix, strlen(prefix)) == 0;
	return n;
}

static int find(const struct dump *d, const char *name)
{
	for (int i = 0; i < d->n; i++)
		if (strcmp(d->names[i], name) == 0)
			return i;
	return -1;
}

/* The zoneinfo dump of a fresh engine of two 8 MiB nodes in @mode (free() it). */
static char *two_node_zoneinfo(enum nlru_mode mode, struct nlru_engine **eng)
{
	char *text;
	size_t len;
	FILE *f = open_memstream(&text, &len);

	run_in_mode(mode);
	*eng = test_engine(8, "pack:2 numa:1 core:1 pu:1");
	cr_assert_eq(nlru_zoneinfo_dump(*eng, f), 0);
	fclose(f);
	return text;
}

#define RUN_MAX 9

/* Each run of names (up to RUN_MAX, NULL-padded) stands in @d on consecutive lines. */
static void expect_runs(const struct dump *d, const char *const runs[][RUN_MAX], size_t n)
{
	for (size_t r = 0; r < n; r++) {
		int at = find(d, runs[r][0]);

		cr_assert_geq(at, 0, "%s missing", runs[r][0]);
		for (int i = 1; i < RUN_MAX && runs[r][i]; i++)
			cr_expect_str_eq(d->names[at + i], runs[r][i], "after %s", runs[r][i - 1]);
	}
}

Test(vmstat, names_and_order_are_linux_4_8)
{
	run_in_mode(NLRU_MODE_NODE); /* 4.7's layout: test_zone_mode.c */
	struct nlru_engine *eng = test_engine(16, NULL);
	struct dump d;
	/* Runs of consecutive lines, straight from 4.8's vmstat_text[]. */
	const char *const runs[][RUN_MAX] = {
		{"nr_free_pages", "nr_zone_inactive_anon", "nr_zone_active_anon"},
		{"nr_written", "nr_dirty_threshold", "nr_dirty_background_threshold", "pgpgin",
		 "pgpgout", "pswpin", "pswpout", "pgalloc_dma"},
		{"pgalloc_movable", "allocstall_dma", "allocstall_dma32", "allocstall_normal",
		 "allocstall_movable", "pgskip_dma"},
		{"pgskip_movable", "pgfree", "pgactivate", "pgdeactivate", "pgfault", "pgmajfault",
		 "pglazyfreed", "pgrefill"},
		{"pgrefill", "pgsteal_kswapd", "pgsteal_direct", "pgscan_kswapd", "pgscan_direct",
		 "pgscan_direct_throttle", "zone_reclaim_failed", "pginodesteal"},
		{"kswapd_high_wmark_hit_quickly", "pageoutrun", "pgrotated", "drop_pagecache",
		 "drop_slab", "pgmigrate_success", "pgmigrate_fail", "compact_migrate_scanned"},
		{"compact_migrate_scanned", "compact_free_scanned", "compact_isolated",
		 "compact_stall", "compact_fail", "compact_success", "compact_daemon_wake",
		 "unevictable_pgs_culled"},
	};

	capture(&d, nlru_vmstat_dump, eng);
	cr_expect_eq(find(&d, "nr_free_pages"), 0);
	expect_runs(&d, runs, sizeof(runs) / sizeof(runs[0]));
	/* 4.7-only names must not appear in a 4.8 dump. */
	cr_expect_eq(find(&d, "allocstall"), -1);
	cr_expect_eq(find(&d, "pgscan_kswapd_normal"), -1);
	cr_expect_eq(find(&d, "nr_alloc_batch"), -1);
	/* Engine counters come after every Linux one. */
	cr_expect_gt(find(&d, "nlru_kswapd_wakeup"), find(&d, "unevictable_pgs_stranded"));
	free(d.text);
	destroy_engine(eng);
}

Test(vmstat, names_and_order_are_linux_4_7_in_zone_mode)
{
	run_in_mode(NLRU_MODE_ZONE);
	struct nlru_engine *eng = test_engine(16, NULL);
	struct dump d;
	/* Runs of consecutive lines, straight from 4.7's vmstat_text[]. */
	const char *const runs[][RUN_MAX] = {
		{"nr_free_pages", "nr_alloc_batch", "nr_inactive_anon", "nr_active_anon",
		 "nr_inactive_file", "nr_active_file", "nr_unevictable", "nr_mlock",
		 "nr_anon_pages"},
		{"nr_anon_pages", "nr_mapped", "nr_file_pages", "nr_dirty", "nr_writeback",
		 "nr_slab_reclaimable", "nr_slab_unreclaimable", "nr_page_table_pages",
		 "nr_kernel_stack"},
		{"nr_kernel_stack", "nr_unstable", "nr_bounce", "nr_vmscan_write",
		 "nr_vmscan_immediate_reclaim", "nr_writeback_temp", "nr_isolated_anon",
		 "nr_isolated_file", "nr_shmem"},
		{"nr_shmem", "nr_dirtied", "nr_written", "nr_pages_scanned", "numa_hit"},
		{"numa_other", "workingset_refault", "workingset_activate",
		 "workingset_nodereclaim", "nr_anon_transparent_hugepages", "nr_free_cma",
		 "nr_dirty_threshold", "nr_dirty_background_threshold", "pgpgin"},
		{"pgalloc_movable", "pgfree", "pgactivate", "pgdeactivate", "pgfault", "pgmajfault",
		 "pglazyfreed", "pgrefill_dma", "pgrefill_dma32"},
		{"pgrefill_movable", "pgsteal_kswapd_dma", "pgsteal_kswapd_dma32",
		 "pgsteal_kswapd_normal", "pgsteal_kswapd_movable", "pgsteal_direct_dma"},
		{"pgscan_direct_movable", "pgscan_direct_throttle", "zone_reclaim_failed",
		 "pginodesteal", "slabs_scanned", "kswapd_inodesteal",
		 "kswapd_low_wmark_hit_quickly", "kswapd_high_wmark_hit_quickly", "pageoutrun"},
		{"pageoutrun", "allocstall", "pgrotated", "drop_pagecache", "drop_slab",
		 "pgmigrate_success", "pgmigrate_fail", "compact_migrate_scanned"},
		{"compact_migrate_scanned", "compact_free_scanned", "compact_isolated",
		 "compact_stall", "compact_fail", "compact_success", "compact_daemon_wake",
		 "unevictable_pgs_culled"},
	};

	capture(&d, nlru_vmstat_dump, eng);
	cr_expect_eq(find(&d, "nr_free_pages"), 0);
	expect_runs(&d, runs, sizeof(runs) / sizeof(runs[0]));
	/* 4.8-only names must not appear in a 4.7 dump. */
	cr_expect_eq(find(&d, "nr_zone_inactive_anon"), -1);
	cr_expect_eq(find(&d, "pgskip_normal"), -1);
	cr_expect_eq(find(&d, "allocstall_normal"), -1);
	cr_expect_eq(find(&d, "pgscan_kswapd"), -1);
	cr_expect_eq(find(&d, "pgrefill"), -1);
	/* nr_alloc_batch is the sum of high - low: DMA32 8 + Normal 24. */
	cr_expect_eq(d.values[find(&d, "nr_alloc_batch")], 32);
	cr_expect_gt(find(&d, "nlru_kswapd_wakeup"), find(&d, "unevictable_pgs_stranded"));
	free(d.text);
	/* A batch spent below zero shows as 0, as 4.7's global_page_state() shows it. */
	atomic_store(&NODE_DATA(eng, 0)->node_zones[ZONE_DMA32].alloc_batch, -100);
	capture(&d, nlru_vmstat_dump, eng);
	cr_expect_eq(d.values[find(&d, "nr_alloc_batch")], 0);
	free(d.text);
	destroy_engine(eng);
}

Test(vmstat, zoneinfo_layout_4_7_in_zone_mode)
{
	struct nlru_engine *eng;
	char *text = two_node_zoneinfo(NLRU_MODE_ZONE, &eng);

	cr_expect_eq(count_lines_starting(text, "Node "), 3);
	cr_expect_eq(count_lines_starting(text, "  per-node stats"), 0, "4.7 has none");
	cr_expect(strstr(text, "Node 0, zone    DMA32\n  pages free     512\n        min      "),
		  "%s", text);
	cr_expect(strstr(text, "\n        scanned  0\n        spanned  512\n"));
	/* Zone items with 4 spaces and %-12s: every counter of the zone, LRU ones included. */
	cr_expect(strstr(text, "\n        low      20\n        high     24\n"));
	/* nr_alloc_batch is high - low: 24 - 20. */
	cr_expect(strstr(text, "\n    nr_free_pages 512\n    nr_alloc_batch 4\n"
			       "    nr_inactive_anon 0\n"),
		  "%s", text);
	cr_expect(strstr(text, "\n    nr_mapped    0\n"));
	cr_expect(strstr(text, "\n    nr_pages_scanned 0\n"));
	cr_expect(strstr(text, "\n        protection: (0, 0, 6, 6)\n  pagesets\n    cpu: 0\n"));
	cr_expect(strstr(text, "\n  all_unreclaimable: 1\n  start_pfn:         0\n"
			       "  inactive_ratio:    0\n"));
	cr_expect(strstr(text, "start_pfn:         2048\n"), "node 1 starts after node 0");
	cr_expect_null(strstr(text, "node_scanned"));
	free(text);
	destroy_engine(eng);
}

Test(vmstat, dump_values_agree_with_the_engine)
{
	struct nlru_engine *eng = test_engine(16, NULL);
	struct nlru_zone_info zi = {.size = sizeof(zi), .version = NLRU_ZONE_INFO_VERSION};
	unsigned long bg, dirty, available;
	struct dump d;
	void *p[10];

	for (int i = 0; i < 10; i++)
		cr_assert_eq(nlru_alloc_pages(eng, NLRU_GFP_KERNEL | NLRU_GFP_DMA32, 1, 0, &p[i]),
			     0);
	nlru_drain_pages(eng);
	capture(&d, nlru_vmstat_dump, eng);
	cr_expect_eq(d.values[find(&d, "pgalloc_dma32")], 20);
	cr_expect_eq(d.values[find(&d, "pgalloc_normal")], 0);
	cr_expect_eq(d.values[find(&d, "numa_hit")], 10);
	cr_expect_eq(d.values[find(&d, "nr_free_pages")], 4096 - 20);
	nlru_zone_info(eng, 0, NLRU_ZONE_DMA32, &zi);
	cr_expect_eq(zi.free, 1024 - 20);
	/*
	 * Dirty limits (domain_dirty_limits with the default 20 and 10 percent): available =
	 * free - totalreserve + file + 1.  min_free_kbytes = int_sqrt(16384 * 16) = 512, so
	 * pages_min 128: DMA32 min 32, gap 8, high 48; Normal min 96, gap 24, high 144.
	 * totalreserve = DMA32 (high 48 + protection 3072/256 = 12) + Normal 144 = 204.
	 * available = 4076 - 204 + 1 = 3873; ratio 20*4096/100 = 819 -> 819 * 3873 / 4096 = 774;
	 * background 409 * 3873 / 4096 = 386.
	 */
	available = 4076 - 204 + 1;
	dirty = 819 * available / 4096;
	bg = 409 * available / 4096;
	cr_expect_eq(dirty, 774);
	cr_expect_eq(bg, 386);
	cr_expect_eq(d.values[find(&d, "nr_dirty_threshold")], (long)dirty);
	cr_expect_eq(d.values[find(&d, "nr_dirty_background_threshold")], (long)bg);
	for (int i = 0; i < 10; i++)
		cr_assert_eq(nlru_free_pages(eng, p[i], 1), 0);
	free(d.text);
	destroy_engine(eng);
}

Test(vmstat, zoneinfo_layout)
{
	struct nlru_engine *eng;
	char *text = two_node_zoneinfo(NLRU_MODE_NODE, &eng);

	/* Populated zones only: node 0 DMA32 and Normal, node 1 Normal. */
	cr_expect_eq(count_lines_starting(text, "Node "), 3);
	cr_expect(strstr(text,
			 "Node 0, zone    DMA32\n  per-node stats\n      nr_inactive_anon 0\n"));
	cr_expect(strstr(text, "Node 0, zone   Normal\n  pages free     1536\n"), "%s", text);
	cr_expect(strstr(text, "Node 1, zone   Normal\n  per-node stats\n"));
	cr_expect_eq(count_lines_starting(text, "  per-node stats"), 2, "once per node");
	cr_expect(strstr(text, "\n      nr_mapped    0\n"), "node items use %%-12s");
	cr_expect(strstr(text, "\n   node_scanned  0\n        spanned  512\n"));
	/* node 0 DMA32 keeps 1536 / 256 = 6 pages from Normal-classzone allocations */
	cr_expect(strstr(text, "\n        protection: (0, 0, 6, 6)\n  pagesets\n    cpu: 0\n"));
	cr_expect(strstr(text, "\n  node_unreclaimable:  1\n  start_pfn:           0\n"
			       "  node_inactive_ratio: 0\n"));
	cr_expect(strstr(text, "start_pfn:           2048\n"), "node 1 starts after node 0");
	free(text);
	destroy_engine(eng);
}

Test(vmstat, node_vmstat_covers_one_node)
{
	struct nlru_engine *eng = test_engine(8, "pack:2 numa:1 core:1 pu:1");
	char *text;
	size_t len;
	FILE *f = open_memstream(&text, &len);

	cr_assert_eq(nlru_node_vmstat_dump(eng, 1, f), 0);
	fclose(f);
	cr_expect(strncmp(text, "nr_free_pages 2048\n", 19) == 0, "%.40s", text);
	cr_expect_null(strstr(text, "pgalloc"), "no events in a node file");
	cr_expect_eq(nlru_node_vmstat_dump(eng, 2, stdout), -EINVAL);
	free(text);
	destroy_engine(eng);
}

Test(vmstat, write_errors_are_reported)
{
	struct nlru_engine *eng = test_engine(8, NULL);
	FILE *ro = fopen("/dev/null", "r");

	cr_assert(ro);
	cr_expect_eq(nlru_vmstat_dump(eng, ro), -EIO);
	cr_expect_eq(nlru_zoneinfo_dump(eng, ro), -EIO);
	fclose(ro);
	destroy_engine(eng);
}

/*
 * A dump smaller than the stream's buffer is only written when the stream is flushed: to
 * /dev/full, where every write fails with ENOSPC, each dump must still report -EIO, and say
 * why through the log.
 */
Test(vmstat, dumps_to_a_full_device_report_the_error)
{
	struct nlru_engine *eng = test_engine(8, "pack:2 numa:1 core:1 pu:1");
	int (*dumps[])(struct nlru_engine *, FILE *) = {nlru_vmstat_dump, nlru_zoneinfo_dump,
							nlru_diskstats_dump};
	FILE *full;

	for (size_t i = 0; i < sizeof(dumps) / sizeof(dumps[0]); i++) {
		full = fopen("/dev/full", "w");
		if (!full)
			cr_skip_test("no /dev/full: %s", strerror(errno));
		test_log_last[0] = '\0';
		/* The diskstats of an engine without a device is empty: nothing to fail. */
		cr_expect_eq(dumps[i](eng, full), i == 2 ? 0 : -EIO, "dump %zu", i);
		cr_expect(i == 2 || strstr(test_log_last, "dump: writing it failed"), "%s",
			  test_log_last);
		fclose(full);
	}
	full = fopen("/dev/full", "w");
	cr_expect_eq(nlru_node_vmstat_dump(eng, 1, full), -EIO);
	fclose(full);
	destroy_engine(eng);
}

Test(vmstat, names_help_and_lookup)
{
	struct nlru_engine *eng = test_engine(8, NULL);
	struct nlru_vmstat snap = {.size = sizeof(snap), .version = NLRU_VMSTAT_VERSION};
	int64_t v;

	cr_expect_str_eq(nlru_vm_event_name(NLRU_PGALLOC + NLRU_ZONE_MOVABLE), "pgalloc_movable");
	cr_expect_str_eq(nlru_vm_event_name(NLRU_PGSCAN_KSWAPD + NLRU_ZONE_NORMAL),
			 "pgscan_kswapd_normal");
	cr_expect_str_eq(nlru_node_stat_name(NLRU_NR_ANON_MAPPED), "nr_anon_pages");
	cr_expect_str_eq(nlru_zone_stat_name(NLRU_NR_KERNEL_STACK_KB), "nr_kernel_stack");
	cr_expect_str_eq(nlru_zone_name(NLRU_ZONE_NORMAL), "Normal");
	cr_expect_null(nlru_vm_event_name(NLRU_NR_VM_EVENT_ITEMS));
	cr_expect_null(nlru_zone_stat_help(NLRU_NR_VM_ZONE_STAT_ITEMS));
	for (int i = 0; i < NLRU_NR_VM_EVENT_ITEMS; i++)
		cr_expect(nlru_vm_event_help(i) && *nlru_vm_event_help(i), "event %d help", i);
	cr_assert_eq(nlru_vmstat_read(eng, &snap), 0);
	cr_expect_eq(nlru_vmstat_get(&snap, "pgscan_kswapd", &v), 0, "4.8 sum name");
	cr_expect_eq(nlru_vmstat_get(&snap, "nr_free_pages", &v), 0);
	cr_expect_eq(v, 2048);
	cr_expect_eq(nlru_vmstat_get(&snap, "no_such_counter", &v), -ENOENT);
	snap.size = 8;
	cr_expect_eq(nlru_vmstat_read(eng, &snap), -EINVAL);
	destroy_engine(eng);
}

/* A version this library does not know may lay the struct out differently: refused. */
Test(vmstat, read_refuses_an_unknown_version)
{
	struct nlru_engine *eng = test_engine(8, NULL);
	struct nlru_vmstat snap;
	const uint32_t bad[] = {0, NLRU_VMSTAT_VERSION + 1, 99};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snap = (struct nlru_vmstat){.size = sizeof(snap), .version = bad[i]};
		test_log_last[0] = '\0';
		cr_expect_eq(nlru_vmstat_read(eng, &snap), -EINVAL, "version %u", bad[i]);
		cr_expect(strstr(test_log_last, "not one this library knows"),
			  "version %u: log \"%s\"", bad[i], test_log_last);
		cr_expect_eq(snap.nr_nodes, 0, "version %u: nothing filled in", bad[i]);
	}
	snap = (struct nlru_vmstat){.size = sizeof(snap), .version = NLRU_VMSTAT_VERSION};
	cr_expect_eq(nlru_vmstat_read(eng, &snap), 0);
	cr_expect_eq(snap.nr_nodes, 1);
	destroy_engine(eng);
}
