/* Shared helpers of the unit tests. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/lsan_interface.h>
#else
static int __lsan_do_recoverable_leak_check(void)
{
	return 0;
}
#endif

#include "buddy.h"
#include "helpers.h"
#include "page_alloc.h"
#include "vmstat.h"

char test_log_last[512];
int test_log_count;

void test_log(void *arg, enum nlru_log_level level, const char *msg)
{
	snprintf(test_log_last, sizeof(test_log_last), "%s", msg);
	test_log_count++;
}

void test_config(struct nlru_config *cfg, long node_mib, const char *topology)
{
	nlru_config_init(cfg);
	cfg->node_mib = node_mib;
	cfg->topology = topology;
	cfg->log = test_log;
	test_log_last[0] = '\0';
	test_log_count = 0;
}

struct nlru_engine *test_engine(long node_mib, const char *topology)
{
	struct nlru_engine *eng = NULL;
	struct nlru_config cfg;
	int r;

	test_config(&cfg, node_mib, topology);
	r = nlru_engine_create(&cfg, &eng);
	cr_assert_eq(r, 0, "engine_create(%ld MiB, %s) = %d: %s", node_mib,
		     topology ? topology : "real", r, test_log_last);
	return eng;
}

void check_free_lists(struct nlru_engine *eng)
{
	for (int nid = 0; nid < eng->nr_nodes; nid++)
		for (int zid = 0; zid < MAX_NR_ZONES; zid++) {
			struct zone *zone = &NODE_DATA(eng, nid)->node_zones[zid];

			spin_lock(&zone->lock);
			int r = zone_check_free_lists(zone, &eng->log);
			spin_unlock(&zone->lock);
			cr_assert_eq(r, 0, "node %d zone %d free lists: %s", nid, zid,
				     test_log_last);
		}
}

void check_pages_accounted(struct nlru_engine *eng, long allocated)
{
	long free = 0, on_pcp = 0, managed = 0;

	for (int nid = 0; nid < eng->nr_nodes; nid++)
		for (int zid = 0; zid < MAX_NR_ZONES; zid++) {
			struct zone *zone = &NODE_DATA(eng, nid)->node_zones[zid];

			managed += zone->managed_pages;
			free += zone_page_state(zone, NLRU_NR_FREE_PAGES);
			for (int cpu = 0; zone->pageset && cpu < eng->nr_cpus; cpu++)
				on_pcp += zone->pageset[cpu].count;
		}
	if (allocated >= 0)
		cr_assert_eq(free + on_pcp + allocated, managed,
			     "free %ld + per-CPU %ld + allocated %ld != managed %ld", free, on_pcp,
			     allocated, managed);
}

void count_free_blocks(struct nlru_engine *eng, unsigned long blocks[NLRU_MAX_ORDER])
{
	memset(blocks, 0, sizeof(unsigned long) * NLRU_MAX_ORDER);
	for (int nid = 0; nid < eng->nr_nodes; nid++)
		for (int zid = 0; zid < MAX_NR_ZONES; zid++)
			for (int o = 0; o < NLRU_MAX_ORDER; o++)
				blocks[o] += NODE_DATA(eng, nid)->node_zones[zid].free_area[o].nr_free;
}

void check_no_leaks(void)
{
	cr_assert_eq(__lsan_do_recoverable_leak_check(), 0,
		     "LeakSanitizer found leaks (its report is on stderr)");
}

void destroy_engine(struct nlru_engine *eng)
{
	cr_assert_eq(nlru_engine_destroy(eng), 0, "destroy: %s", test_log_last);
	check_no_leaks();
}
