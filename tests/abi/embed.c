/*
 * An embedder's program, built against the installed library with nothing but
 * `pkg-config --cflags --libs nodelru`: only the public headers, only exported symbols.
 */
#include <stdio.h>

#include <nodelru/nodelru.h>
#include <nodelru/vmstat.h>

int main(void)
{
	struct nlru_engine *eng;
	struct nlru_config cfg;
	void *page;

	if (nlru_version() != NLRU_VERSION_NUM)
		return 1;
	nlru_config_init(&cfg);
	cfg.node_mib = 8;
	if (nlru_engine_create(&cfg, &eng))
		return 2;
	if (nlru_alloc_pages(eng, NLRU_GFP_KERNEL, 0, NLRU_NUMA_NO_NODE, &page) ||
	    nlru_free_pages(eng, page, 0))
		return 3;
	if (nlru_engine_destroy(eng))
		return 4;
	puts("embed: ok");
	return 0;
}
