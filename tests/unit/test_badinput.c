/*
 * Every bad input the API can be given: refused with -errno and a message through the log
 * callback, nothing printed to stdout, and the free lists left intact.
 */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "helpers.h"
#include "page_alloc.h"
#include "vmstat.h"

TestSuite(badinput, .fini = test_remove_dir, .timeout = 30);

static void expect_create_fails(struct nlru_config *cfg, int err, const char *words)
{
	struct nlru_engine *eng = (struct nlru_engine *)0x1;

	cr_expect_eq(nlru_engine_create(cfg, &eng), err, "create should fail with %d", err);
	cr_expect_eq(eng, (struct nlru_engine *)0x1, "no engine is returned on failure");
	cr_expect(strstr(test_log_last, words), "log \"%s\" should mention \"%s\"", test_log_last,
		  words);
}

Test(badinput, zone_layout_that_does_not_add_up)
{
	struct nlru_config cfg;

	test_config(&cfg, 16, NULL);
	cfg.dma32_pct = 60;
	cfg.movable_pct = 50;
	expect_create_fails(&cfg, -EINVAL, "does not add up");
}

Test(badinput, unparsable_topologies)
{
	struct nlru_config cfg;

	test_config(&cfg, 16, "pack:2 frobnicate:7");
	expect_create_fails(&cfg, -EINVAL, "cannot be parsed");
	test_config(&cfg, 16, NLRU_TEST_DATA "/no-such-topology.xml");
	expect_create_fails(&cfg, -EINVAL, "cannot be parsed");
	test_config(&cfg, 16, NLRU_TEST_DATA "/gen-topology.c");
	expect_create_fails(&cfg, -EINVAL, "cannot be parsed");
}

Test(badinput, engine_below_its_minimum_and_tunables_out_of_range)
{
	struct nlru_config cfg;

	test_config(&cfg, 3, NULL);
	expect_create_fails(&cfg, -EINVAL, "node_mib = 3 is outside");
	test_config(&cfg, 16, NULL);
	cfg.watermark_scale_factor = 0;
	expect_create_fails(&cfg, -EINVAL, "watermark_scale_factor");
	test_config(&cfg, 16, NULL);
	cfg.percpu_pagelist_fraction = 4;
	expect_create_fails(&cfg, -EINVAL, "percpu_pagelist_fraction");
	test_config(&cfg, 16, NULL);
	cfg.size = 4;
	expect_create_fails(&cfg, -EINVAL, "too small");
}

/*
 * 2^24 MiB is 2^32 pages: one more than a node's 32-bit page numbers or a swap file's slots
 * can count.  Refused as out of range, not by a truncated mapping or the swap file later.
 */
Test(badinput, node_and_swap_sizes_past_32_bit_page_numbers)
{
	struct nlru_config cfg;

	test_config(&cfg, 1L << 24, NULL);
	expect_create_fails(&cfg, -EINVAL, "node_mib = 16777216 is outside [4, 16777215]");
	test_config(&cfg, 16, NULL);
	cfg.swap_mib = 1L << 24;
	expect_create_fails(&cfg, -EINVAL, "swap_mib = 16777216 is outside [-1, 16777215]");
	cr_expect_eq(nlru_config_set(&cfg, "node_mib", "16777216"), -EINVAL);
	cr_expect_eq(nlru_config_set(&cfg, "node_mib", "16777215"), 0);
	cr_expect_eq(nlru_config_set(&cfg, "swap_mib", "16777216"), -EINVAL);
	cr_expect_eq(nlru_config_set(&cfg, "swap_mib", "16777215"), 0);
}

/* A struct from a newer header, or one never passed through nlru_config_init(). */
Test(badinput, config_of_an_unknown_size_or_version)
{
	struct {
		struct nlru_config cfg;
		long newer_tunable;
	} newer;

	test_config(&newer.cfg, 16, NULL);
	newer.cfg.size = sizeof(newer);
	expect_create_fails(&newer.cfg, -EINVAL, "not a struct nlru_config this library knows");
	test_config(&newer.cfg, 16, NULL);
	newer.cfg.version = NLRU_CONFIG_VERSION + 1;
	expect_create_fails(&newer.cfg, -EINVAL, "newer nodelru");
	test_config(&newer.cfg, 16, NULL);
	newer.cfg.version = 0;
	expect_create_fails(&newer.cfg, -EINVAL, "version 0");
}

/* A size must end where a member ends: one inside a pointer would copy half of it. */
Test(badinput, config_size_inside_a_member)
{
	static const size_t torn[] = {
		offsetof(struct nlru_config, topology) + 4,
		offsetof(struct nlru_config, swap_path) + 1,
		offsetof(struct nlru_config, dma32_pct) + 3,
		sizeof(struct nlru_config) - 1,
	};
	struct nlru_config cfg;

	for (size_t i = 0; i < sizeof(torn) / sizeof(torn[0]); i++) {
		test_config(&cfg, 16, "pack:1 numa:1 core:1 pu:1");
		cfg.size = torn[i];
		expect_create_fails(&cfg, -EINVAL, "ends inside a member");
	}
}

/* A log callback may do I/O of its own; the library must not take its errno for the error. */
static void log_clobbering_errno(void *arg, enum nlru_log_level level, const char *msg)
{
	test_log(arg, level, msg);
	errno = ENOTTY;
}

Test(badinput, swap_open_error_survives_a_log_that_sets_errno)
{
	const char *tmpdir = getenv("TMPDIR");
	char *saved = tmpdir ? strdup(tmpdir) : NULL;
	struct nlru_config cfg;

	test_config(&cfg, 8, NULL);
	cfg.log = log_clobbering_errno;
	cfg.swap_path = "/nonexistent-nodelru-dir/swap";
	expect_create_fails(&cfg, -ENOENT, "cannot open /nonexistent-nodelru-dir/swap");
	/* The private file in $TMPDIR goes through mkostemp(), a second path to the same log. */
	test_config(&cfg, 8, NULL);
	cfg.log = log_clobbering_errno;
	setenv("TMPDIR", "/nonexistent-nodelru-dir", 1);
	expect_create_fails(&cfg, -ENOENT, "cannot create /nonexistent-nodelru-dir/");
	if (saved)
		setenv("TMPDIR", saved, 1);
	else
		unsetenv("TMPDIR");
	free(saved);
}

Test(badinput, null_arguments)
{
	struct nlru_engine *eng = test_engine(8, NULL);
	struct nlru_config cfg;
	void *p;

	test_config(&cfg, 8, NULL);
	cr_expect_eq(nlru_engine_create(NULL, &eng), -EINVAL);
	cr_expect_eq(nlru_engine_create(&cfg, NULL), -EINVAL);
	cr_expect_eq(nlru_config_init(NULL), -EINVAL);
	cr_expect_eq(nlru_alloc_pages(NULL, NLRU_GFP_KERNEL, 0, 0, &p), -EINVAL);
	cr_expect_eq(nlru_alloc_pages(eng, NLRU_GFP_KERNEL, 0, 0, NULL), -EINVAL);
	cr_expect_eq(nlru_free_pages(NULL, &p, 0), -EINVAL);
	cr_expect_eq(nlru_vmstat_dump(eng, NULL), -EINVAL);
	cr_expect_eq(nlru_vmstat_read(eng, NULL), -EINVAL);
	cr_expect_eq(nlru_engine_destroy(NULL), 0);
	cr_expect_eq(nlru_flusher_run(NULL), -EINVAL);
	destroy_engine(eng);
}

Test(badinput, bad_allocation_requests)
{
	struct nlru_engine *eng = test_engine(8, NULL);
	void *p;

	cr_expect_eq(nlru_alloc_pages(eng, NLRU_GFP_KERNEL, 11, 0, &p), -EINVAL);
	cr_expect(strstr(test_log_last, "order 11"), "%s", test_log_last);
	cr_expect_eq(nlru_alloc_pages(eng, NLRU_GFP_KERNEL | (1u << 30), 0, 0, &p), -EINVAL);
	cr_expect(strstr(test_log_last, "unknown gfp flags 0x40000000"), "%s", test_log_last);
	cr_expect_eq(nlru_alloc_pages(eng, NLRU_GFP_DMA | NLRU_GFP_DMA32, 0, 0, &p), -EINVAL);
	cr_expect(strstr(test_log_last, "exclude each other"), "%s", test_log_last);
	cr_expect_eq(nlru_alloc_pages(eng, NLRU_GFP_DMA32 | NLRU_GFP_HIGHMEM, 0, 0, &p), -EINVAL);
	cr_expect_eq(nlru_alloc_pages(eng, NLRU_GFP_KERNEL, 0, 1, &p), -EINVAL);
	cr_expect(strstr(test_log_last, "node 1 does not exist"), "%s", test_log_last);
	cr_expect_eq(nlru_alloc_pages(eng, NLRU_GFP_KERNEL, 0, -2, &p), -EINVAL);
	/* A DMA request on an engine without ZONE_DMA is valid but cannot be served. */
	cr_expect_eq(nlru_alloc_pages(eng, NLRU_GFP_KERNEL | NLRU_GFP_DMA, 0, 0, &p), -ENOMEM);
	check_free_lists(eng);
	check_pages_accounted(eng, 0);
	destroy_engine(eng);
}

/* A refused region says which of its arguments is wrong, and a held pin how many there are. */
Test(badinput, bad_region_requests_name_what_is_wrong)
{
	struct nlru_engine *eng = test_engine(8, NULL);
	struct nlru_region *region;
	char missing[64];
	void *p;

	cr_expect_eq(nlru_region_create(eng, 0, 0, &region), -EINVAL);
	cr_expect(strstr(test_log_last, "0 pages: a region has 1 to"), "%s", test_log_last);
	/* The engine has the host's nodes, however many: the number past the last names none. */
	snprintf(missing, sizeof(missing), "node %d does not exist", eng->nr_nodes);
	cr_expect_eq(nlru_region_create(eng, 16, eng->nr_nodes, &region), -EINVAL);
	cr_expect(strstr(test_log_last, missing), "%s", test_log_last);
	cr_assert_eq(nlru_region_create(eng, 16, 0, &region), 0);
	cr_assert_eq(nlru_region_pin(region, 0, 0, &p), 0);
	cr_expect_eq(nlru_region_destroy(region), -EBUSY);
	cr_expect(strstr(test_log_last, "1 pin is still held"), "%s", test_log_last);
	cr_assert_eq(nlru_region_pin(region, 1, 0, &p), 0);
	cr_expect_eq(nlru_region_destroy(region), -EBUSY);
	cr_expect(strstr(test_log_last, "2 pins are still held"), "%s", test_log_last);
	cr_assert_eq(nlru_region_unpin(region, 0), 0);
	cr_assert_eq(nlru_region_unpin(region, 1), 0);
	cr_expect_eq(nlru_region_destroy(region), 0);
	destroy_engine(eng);
}

static void expect_bad_free(struct nlru_engine *eng, void *addr, unsigned int order, int err,
			    const char *words)
{
	struct nlru_vmstat snap = {.size = sizeof(snap), .version = NLRU_VMSTAT_VERSION};
	int logged = test_log_count;
	int64_t before, after;

	nlru_vmstat_read(eng, &snap);
	before = (int64_t)snap.events[NLRU_BAD_FREE];
	cr_expect_eq(nlru_free_pages(eng, addr, order), err, "free(%p, %u)", addr, order);
	/*
	 * Logged, so test_log_last is this refusal's message: an engine logs 10 refusals in 5 s,
	 * a test that checks more messages than that needs another engine.
	 */
	cr_expect_eq(test_log_count, logged + 1, "the refusal is logged");
	cr_expect(strstr(test_log_last, words), "log \"%s\" should mention \"%s\"", test_log_last,
		  words);
	nlru_vmstat_read(eng, &snap);
	after = (int64_t)snap.events[NLRU_BAD_FREE];
	cr_expect_eq(after, before + 1, "nlru_bad_free counts the refusal");
	check_free_lists(eng);
}

Test(badinput, bad_frees_leave_the_free_lists_intact)
{
	struct nlru_engine *eng = test_engine(8, NULL);
	char *p4, *p0;
	int on_stack;
	void *heap = malloc(64);

	cr_assert_eq(nlru_alloc_pages(eng, NLRU_GFP_KERNEL, 2, 0, (void **)&p4), 0);
	cr_assert_eq(nlru_alloc_pages(eng, NLRU_GFP_KERNEL, 0, 0, (void **)&p0), 0);
	expect_bad_free(eng, heap, 0, -EINVAL, "not memory of this engine");
	expect_bad_free(eng, &on_stack, 0, -EINVAL, "not memory of this engine");
	expect_bad_free(eng, p4 + 100, 2, -EINVAL, "not the start of a page");
	expect_bad_free(eng, p4 + 4096, 0, -EINVAL, "not allocated");
	expect_bad_free(eng, p4, 1, -EINVAL, "allocated with order 2, freed with order 1");
	expect_bad_free(eng, p4, 12, -EINVAL, "above the largest order");
	/* The block is still allocated after all that, and frees properly once. */
	check_pages_accounted(eng, 5);
	cr_assert_eq(nlru_free_pages(eng, p4, 2), 0);
	expect_bad_free(eng, p4, 2, -EINVAL, "not allocated");
	/* An order-0 double free while the first free still sits on the per-CPU list. */
	cr_assert_eq(nlru_free_pages(eng, p0, 0), 0);
	expect_bad_free(eng, p0, 0, -EINVAL, "not allocated");
	/* And once drained and merged into the buddy lists. */
	nlru_drain_pages(eng);
	expect_bad_free(eng, p0, 0, -EINVAL, "not allocated");
	check_pages_accounted(eng, 0);
	free(heap);
	destroy_engine(eng);
}

/*
 * A page the engine takes and gives back without using it (a cache page that lost a race to
 * another reader, a fault that lost to another fault) is free with refcount 0 like any
 * other: a stale pointer to it is refused as a double free, not taken a second time.
 */
Test(badinput, double_free_of_a_page_the_engine_gave_back_unused)
{
	struct nlru_engine *eng = test_engine(8, NULL);
	struct page *page = alloc_pages_node(eng, NLRU_GFP_KERNEL, 0, 0);
	struct pglist_data *pgdat;
	void *addr;

	cr_assert(page);
	pgdat = page_pgdat(eng, page);
	addr = page_address(pgdat, page_to_pfn(pgdat, page));
	free_pages_trusted(eng, page, 0);
	cr_assert_eq(__atomic_load_n(&page->refcount, __ATOMIC_RELAXED), 0);
	expect_bad_free(eng, addr, 0, -EINVAL, "not allocated");
	nlru_drain_pages(eng);
	expect_bad_free(eng, addr, 0, -EINVAL, "not allocated");
	check_pages_accounted(eng, 0);
	destroy_engine(eng);
}

/*
 * A caller's loop that frees a stale pointer again and again is refused every time and
 * counted every time, but logs at most 10 refusals in 5 seconds (the frees here take
 * microseconds), as Linux's bad_page() reports are rate-limited.
 */
Test(badinput, repeated_bad_frees_are_all_counted_and_logged_ten_at_a_time)
{
	struct nlru_engine *eng = test_engine(8, NULL);
	unsigned long before = vm_event_read(eng, NLRU_BAD_FREE);
	int logged = test_log_count;
	void *p;

	cr_assert_eq(nlru_alloc_pages(eng, NLRU_GFP_KERNEL, 0, 0, &p), 0);
	cr_assert_eq(nlru_free_pages(eng, p, 0), 0);
	for (int i = 0; i < 200; i++)
		cr_assert_eq(nlru_free_pages(eng, p, 0), -EINVAL);
	cr_expect_eq(vm_event_read(eng, NLRU_BAD_FREE) - before, 200);
	cr_expect_geq(test_log_count - logged, 1);
	cr_expect_leq(test_log_count - logged, 10, "%d messages for 200 refused frees",
		      test_log_count - logged);
	cr_expect(strstr(test_log_last, "not allocated"), "%s", test_log_last);
	check_pages_accounted(eng, 0);
	destroy_engine(eng);
}

/* Pages a pin handed out belong to their region or file: nlru_free_pages() must not take them. */
Test(badinput, free_refuses_pages_of_regions_and_files)
{
	struct nlru_engine *eng = test_swap_engine(8, 4, false);
	struct nlru_region *region;
	struct nlru_file *file;
	char *in_region, *in_file;

	cr_assert_eq(nlru_region_create(eng, 4, 0, &region), 0);
	cr_assert_eq(nlru_region_pin(region, 0, NLRU_PIN_WRITE, (void **)&in_region), 0);
	memset(in_region, 'R', 4096);
	cr_assert_eq(nlru_region_unpin(region, 0), 0);
	cr_assert_eq(nlru_file_open(eng, test_path("f"), O_RDWR | O_CREAT, 0600, 0, &file), 0);
	cr_assert_eq(nlru_file_pin_page(file, 1, NLRU_PIN_WRITE, (void **)&in_file), 0);
	memset(in_file, 'F', 4096);
	cr_assert_eq(nlru_file_unpin_page(file, 1, 4096), 0);

	expect_bad_free(eng, in_region, 0, -EINVAL, "belongs to a region or a file");
	expect_bad_free(eng, in_file, 0, -EINVAL, "belongs to a region or a file");
	/* Both pages are still their owners', with their data. */
	cr_assert_eq(nlru_region_pin(region, 0, 0, (void **)&in_region), 0);
	cr_expect_eq(in_region[4095], 'R');
	cr_assert_eq(nlru_region_unpin(region, 0), 0);
	cr_assert_eq(nlru_file_pin_page(file, 1, 0, (void **)&in_file), 0);
	cr_expect_eq(in_file[4095], 'F');
	cr_assert_eq(nlru_file_unpin_page(file, 1, 0), 0);
	cr_assert_eq(nlru_file_close(file), 0);
	cr_assert_eq(nlru_region_destroy(region), 0);
	check_pages_accounted(eng, 0);
	destroy_engine(eng);
}

Test(badinput, destroy_refuses_while_pages_are_allocated)
{
	struct nlru_engine *eng = test_engine(8, NULL);
	void *p;

	cr_assert_eq(nlru_alloc_pages(eng, NLRU_GFP_KERNEL, 3, 0, &p), 0);
	cr_expect_eq(nlru_engine_destroy(eng), -EBUSY);
	cr_expect(strstr(test_log_last, "8 pages are still allocated"), "%s", test_log_last);
	/* Still fully usable. */
	cr_assert_eq(nlru_free_pages(eng, p, 3), 0);
	cr_assert_eq(nlru_alloc_pages(eng, NLRU_GFP_KERNEL, 0, 0, &p), 0);
	cr_assert_eq(nlru_free_pages(eng, p, 0), 0);
	destroy_engine(eng);
}

Test(badinput, config_set_refuses_unknown_names_and_bad_values)
{
	struct nlru_config cfg;

	test_config(&cfg, 8, NULL);
	cr_expect_eq(nlru_config_set(&cfg, "no_such_tunable", "1"), -ENOENT);
	cr_expect(strstr(test_log_last, "no_such_tunable"), "%s", test_log_last);
	cr_expect_eq(nlru_config_set(&cfg, "node_mib", "12x"), -EINVAL);
	cr_expect_eq(nlru_config_set(&cfg, "node_mib", ""), -EINVAL);
	/* The whole text is the number: no space on either side, no plus sign. */
	cr_expect_eq(nlru_config_set(&cfg, "node_mib", " 12"), -EINVAL);
	cr_expect_eq(nlru_config_set(&cfg, "node_mib", "\t12"), -EINVAL);
	cr_expect_eq(nlru_config_set(&cfg, "node_mib", "12 "), -EINVAL);
	cr_expect_eq(nlru_config_set(&cfg, "node_mib", "12\n"), -EINVAL);
	cr_expect_eq(nlru_config_set(&cfg, "node_mib", "+12"), -EINVAL);
	cr_expect_eq(nlru_config_set(&cfg, "node_mib", "0x"), -EINVAL);
	cr_expect_eq(nlru_config_set(&cfg, "node_mib", "- 1"), -EINVAL);
	cr_expect_eq(cfg.node_mib, 8);
	cr_expect_eq(nlru_config_set(&cfg, "node_mib", "0x10"), 0);
	cr_expect_eq(cfg.node_mib, 16);
	cr_expect_eq(nlru_config_set(&cfg, "node_mib", "010"), 0);
	cr_expect_eq(cfg.node_mib, 10);
	cr_expect_eq(nlru_config_set(&cfg, "swap_mib", "-1"), 0);
	cr_expect_eq(cfg.swap_mib, -1);
	cr_expect_eq(nlru_config_set(&cfg, "node_mib", "8"), 0);
	cr_expect_eq(nlru_config_set(&cfg, "watermark_scale_factor", "1001"), -EINVAL);
	cr_expect(strstr(test_log_last, "[1, 1000]"), "%s", test_log_last);
	cr_expect_eq(cfg.node_mib, 8, "a refused value leaves the field alone");
	/* In range, but not a value the tunable takes: refused here as creation refuses it. */
	cr_expect_eq(nlru_config_set(&cfg, "percpu_pagelist_fraction", "3"), -EINVAL);
	cr_expect(strstr(test_log_last, "0 or at least 8"), "%s", test_log_last);
	cr_expect_eq(cfg.percpu_pagelist_fraction, 0);
	cr_expect_eq(nlru_config_set(&cfg, "percpu_pagelist_fraction", "8"), 0);
}

/* A NULL out-parameter is a bad argument, not a tunable that does not exist. */
Test(badinput, tunable_info_of_null_is_einval)
{
	struct nlru_tunable_info info;

	cr_expect_eq(nlru_tunable_info(0, NULL), -EINVAL);
	cr_expect_eq(nlru_tunable_info(100000, NULL), -EINVAL);
	cr_expect_eq(nlru_tunable_info(100000, &info), -ENOENT);
	cr_expect_eq(nlru_tunable_info(0, &info), 0);
}

/* What nlru_config_init() could not take from the environment, creation warns of. */
Test(badinput, ignored_environment_values_are_reported_at_create)
{
	struct nlru_config cfg;
	struct nlru_engine *eng;
	char seen[512] = "";

	setenv("NLRU_NODE_MIB", "1", 1);
	nlru_config_init(&cfg);
	cr_expect_neq(cfg.node_mib, 1, "out of range: ignored");
	test_config(&cfg, 8, NULL);
	test_log_count = 0;
	cr_assert_eq(nlru_engine_create(&cfg, &eng), 0, "%s", test_log_last);
	unsetenv("NLRU_NODE_MIB");
	cr_expect_geq(test_log_count, 1);
	snprintf(seen, sizeof(seen), "%s", test_log_last);
	destroy_engine(eng);
	cr_expect(strstr(seen, "NLRU_NODE_MIB=\"1\""), "%s", seen);
	cr_expect(strstr(seen, "ignored"), "%s", seen);
}

/* A min_free_kbytes above the engine's memory makes every allocation fail: said at create. */
Test(badinput, min_free_kbytes_above_the_engine_is_warned_of)
{
	struct nlru_config cfg;
	struct nlru_engine *eng;
	void *p;

	test_config(&cfg, 8, NULL);
	cfg.min_free_kbytes = 8 * 1024;
	test_log_last[0] = '\0';
	cr_assert_eq(nlru_engine_create(&cfg, &eng), 0, "%s", test_log_last);
	cr_expect(strstr(test_log_last, "min_free_kbytes 8192"), "%s", test_log_last);
	cr_expect_eq(nlru_alloc_pages(eng, NLRU_GFP_KERNEL, 0, 0, &p), -ENOMEM);
	destroy_engine(eng);
	test_config(&cfg, 8, NULL);
	cfg.min_free_kbytes = 1024;
	test_log_last[0] = '\0';
	cr_assert_eq(nlru_engine_create(&cfg, &eng), 0, "%s", test_log_last);
	cr_expect_null(strstr(test_log_last, "min_free_kbytes"), "%s", test_log_last);
	destroy_engine(eng);
}

/* The library never writes to stdout, not even when refusing everything above. */
Test(badinput, nothing_is_printed_to_stdout)
{
	char path[] = "/tmp/nlru-stdout-XXXXXX";
	int fd = mkstemp(path), saved = dup(STDOUT_FILENO);
	struct nlru_config cfg;
	struct nlru_engine *eng;
	void *p, *held[1024];
	int n = 0;

	cr_assert(fd >= 0 && saved >= 0);
	fflush(stdout);
	dup2(fd, STDOUT_FILENO);
	test_config(&cfg, 8, "bogus:1");
	nlru_engine_create(&cfg, &eng);
	test_config(&cfg, 4, NULL);
	cfg.log = NULL; /* and with no callback at all */
	nlru_engine_create(&cfg, &eng);
	nlru_alloc_pages(eng, ~0u, 0, 0, &p);
	nlru_free_pages(eng, &p, 0);
	while (n < 1024 && nlru_alloc_pages(eng, NLRU_GFP_KERNEL, 0, 0, &held[n]) == 0)
		n++;
	nlru_engine_destroy(eng);
	while (n--)
		nlru_free_pages(eng, held[n], 0);
	nlru_engine_destroy(eng);
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	cr_expect_eq(lseek(fd, 0, SEEK_END), 0, "the library wrote to stdout");
	close(fd);
	close(saved);
	unlink(path);
	check_no_leaks();
}

/* A refusal that has an engine to log through says why: each case below logs one message. */
#define EXPECT_LOGGED(call)                                                                        \
	do {                                                                                       \
		int before_ = test_log_count;                                                      \
		cr_expect_eq((long)(call), -EINVAL, "%s", #call);                                  \
		cr_expect_gt(test_log_count, before_, "%s refused without a word", #call);         \
	} while (0)

Test(badinput, every_refusal_with_an_engine_is_logged)
{
	struct nlru_engine *eng = test_engine(8, NULL);
	int missing_node = eng->nr_nodes; /* the engine has the host's nodes, however many */
	struct nlru_zone_info zi = {.size = 8};
	struct nlru_region *region;
	struct nlru_file *file;
	struct nlru_config cfg;
	int64_t v;
	int zl[4];
	char c;

	test_config(&cfg, 8, NULL);
	EXPECT_LOGGED(nlru_engine_create(&cfg, NULL));
	EXPECT_LOGGED(nlru_config_set(&cfg, NULL, "1"));
	EXPECT_LOGGED(nlru_alloc_pages(eng, NLRU_GFP_KERNEL, 0, 0, NULL));
	EXPECT_LOGGED(nlru_alloc_pages_exact(eng, NLRU_GFP_KERNEL, 4096, 0, 0, NULL));
	EXPECT_LOGGED(nlru_region_create(eng, 1, 0, NULL));
	EXPECT_LOGGED(nlru_node_distance(eng, 0, missing_node));
	EXPECT_LOGGED(nlru_zone_info(eng, 0, NLRU_ZONE_NORMAL, NULL));
	EXPECT_LOGGED(nlru_zone_info(eng, 0, NLRU_ZONE_NORMAL, &zi));
	zi.size = sizeof(zi);
	EXPECT_LOGGED(nlru_zone_info(eng, missing_node, NLRU_ZONE_NORMAL, &zi));
	EXPECT_LOGGED(nlru_zonelist(eng, 0, NULL, 4));
	EXPECT_LOGGED(nlru_zonelist(eng, 0, zl, -1));
	EXPECT_LOGGED(nlru_kswapd_run(eng, missing_node));
	EXPECT_LOGGED(nlru_vmstat_read(eng, NULL));
	EXPECT_LOGGED(nlru_zone_stat_read(eng, 0, NLRU_ZONE_NORMAL, 0, NULL));
	EXPECT_LOGGED(nlru_zone_stat_read(eng, missing_node, NLRU_ZONE_NORMAL, 0, &v));
	EXPECT_LOGGED(nlru_node_stat_read(eng, 0, (enum nlru_node_stat_item) - 1, &v));
	EXPECT_LOGGED(nlru_vmstat_dump(eng, NULL));
	EXPECT_LOGGED(nlru_node_vmstat_dump(eng, 0, NULL));
	EXPECT_LOGGED(nlru_zoneinfo_dump(eng, NULL));
	EXPECT_LOGGED(nlru_diskstats_dump(eng, NULL));
	EXPECT_LOGGED(nlru_file_open(eng, NULL, O_RDWR, 0, -1, &file));
	EXPECT_LOGGED(nlru_file_open(eng, test_path("f"), O_RDWR | O_CREAT, 0600, 3, &file));
	cr_assert_eq(nlru_file_open(eng, test_path("f"), O_RDWR | O_CREAT, 0600, -1, &file), 0);
	EXPECT_LOGGED(nlru_file_pin_page(file, 0, 0, NULL));
	EXPECT_LOGGED(nlru_file_pread(file, NULL, 1, 0));
	EXPECT_LOGGED(nlru_file_pwrite(file, NULL, 1, 0));
	EXPECT_LOGGED(nlru_file_copy_range(file, 0, NULL, 0, 1));
	cr_expect_eq(nlru_file_pwrite(file, &c, 0, 0), 0);
	cr_assert_eq(nlru_file_close(file), 0);
	cr_assert_eq(nlru_region_create(eng, 1, 0, &region), 0);
	EXPECT_LOGGED(nlru_region_pin(region, 0, 0, NULL));
	EXPECT_LOGGED(nlru_region_pin(region, 1, 0, (void **)&file));
	EXPECT_LOGGED(nlru_region_unpin(region, 0));
	cr_assert_eq(nlru_region_destroy(region), 0);
	test_remove_dir();
	destroy_engine(eng);
}
