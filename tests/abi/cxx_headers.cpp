/*
 * The public headers in a C++ program, built with every warning an error under the newest
 * standard the compiler knows: the documented idioms (gfp flags, counters read by enum, the
 * slot of a zoned event) must build as they do in C, and give the same values.
 */
#include <cstdio>
#include <cstring>

#include <nodelru/jemalloc.h>
#include <nodelru/nodelru.h>
#include <nodelru/tunables.h>
#include <nodelru/vmstat.h>

int main()
{
	struct nlru_engine *eng;
	struct nlru_config cfg;
	struct nlru_vmstat snap = {};
	unsigned long long pgalloc = 0;
	void *page;

	nlru_config_init(&cfg);
	cfg.node_mib = 8;
	if (nlru_engine_create(&cfg, &eng))
		return 1;
	if (nlru_alloc_pages(eng, NLRU_GFP_KERNEL | NLRU_GFP_ZERO, 0, NLRU_NUMA_NO_NODE, &page) ||
	    nlru_free_pages(eng, page, 0))
		return 2;
	snap.size = sizeof(snap);
	snap.version = NLRU_VMSTAT_VERSION;
	if (nlru_vmstat_read(eng, &snap))
		return 3;
	for (int zone = 0; zone < NLRU_MAX_NR_ZONES; zone++)
		pgalloc += snap.events[NLRU_ZONE_EVENT(NLRU_PGALLOC, zone)];
	if (pgalloc < 1)
		return 4;
	if (std::strcmp(nlru_vm_event_name(NLRU_ZONE_EVENT(NLRU_PGALLOC, NLRU_ZONE_MOVABLE)),
			"pgalloc_movable") != 0)
		return 5;
	if (nlru_engine_destroy(eng))
		return 6;
	std::puts("cxx_headers: ok");
	return 0;
}
