/*
 * mapped - what a mapped region's page costs, and what access sampling buys.
 *
 * Part 1, fault cost in one run, ns per page: a first touch and a swap-in of a mapped region's
 * page (userfaultfd), the same through nlru_region_pin(), and a first touch of the kernel's
 * own anonymous memory.  Swap-ins are measured by reading back a region twice the engine's
 * size, so each one includes the eviction that makes room for it.
 *
 * Part 2, an LRU-friendly trace: a hot set read over and over between writes of pages never
 * used again, on an engine a third of the footprint, with access sampling on
 * (map_sample_pages 256, map_sample_ms 1) and off (pages age by fault order only, as UMap's
 * FIFO eviction).  Refaults of the hot set (pgmajfault) and wall time.
 *
 * Usage: mapped.  Prints one table; exit 77 where userfaultfd is unavailable.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include <nodelru/nodelru.h>
#include <nodelru/vmstat.h>

#define PAGE 4096ul
#define ENGINE_MIB 16
#define ENGINE_PAGES (ENGINE_MIB * 256ul)

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int64_t counter(struct nlru_engine *eng, const char *name)
{
	struct nlru_vmstat snap = {.size = sizeof(snap), .version = NLRU_VMSTAT_VERSION};
	int64_t v = -1;

	nlru_vmstat_read(eng, &snap);
	nlru_vmstat_get(&snap, name, &v);
	return v;
}

static struct nlru_engine *engine(long mib, long sample_pages)
{
	struct nlru_engine *eng = NULL;
	struct nlru_config cfg;

	nlru_config_init(&cfg);
	cfg.node_mib = mib;
	cfg.swap_mib = 8 * mib;
	cfg.map_sample_pages = sample_pages;
	cfg.map_sample_ms = 1;
	if (nlru_engine_create(&cfg, &eng)) {
		fprintf(stderr, "mapped: cannot create the engine\n");
		exit(1);
	}
	return eng;
}

static struct nlru_region *mapped(struct nlru_engine *eng, size_t pages, char **mem)
{
	struct nlru_region *region = NULL;
	int r = nlru_region_create_mapped(eng, pages, 0, 1, (void **)mem, &region);

	if (r) {
		fprintf(stderr, "mapped: no mapped region: %s\n", strerror(-r));
		exit(r == -EPERM || r == -ENOSYS || r == -EOPNOTSUPP ? 77 : 1);
	}
	return region;
}

static void fault_cost(void)
{
	size_t first = ENGINE_PAGES / 2, big = 2 * ENGINE_PAGES;
	struct nlru_engine *eng = engine(ENGINE_MIB, 0);
	struct nlru_region *region, *pinned;
	volatile char sink = 0;
	double t, first_map, swapin_map, first_pin, swapin_pin, kernel;
	int64_t majors;
	char *mem, *p;

	/* First touch, mapped. */
	region = mapped(eng, first, &mem);
	t = now();
	for (size_t i = 0; i < first; i++)
		mem[i * PAGE] = 1;
	first_map = (now() - t) / (double)first * 1e9;
	nlru_region_destroy(region);

	/* First touch, pinned. */
	nlru_region_create(eng, first, 0, &pinned);
	t = now();
	for (size_t i = 0; i < first; i++) {
		nlru_region_pin(pinned, i, NLRU_PIN_WRITE, (void **)&p);
		p[0] = 1;
		nlru_region_unpin(pinned, i);
	}
	first_pin = (now() - t) / (double)first * 1e9;
	nlru_region_destroy(pinned);

	/* Swap-in, mapped: write twice the engine, read it back. */
	region = mapped(eng, big, &mem);
	for (size_t i = 0; i < big; i++)
		mem[i * PAGE] = (char)i;
	majors = counter(eng, "pgmajfault");
	t = now();
	for (size_t i = 0; i < big; i++)
		sink += mem[i * PAGE];
	t = now() - t;
	majors = counter(eng, "pgmajfault") - majors;
	swapin_map = t / (double)(majors ? majors : 1) * 1e9;
	nlru_region_destroy(region);

	/* Swap-in, pinned. */
	nlru_region_create(eng, big, 0, &pinned);
	for (size_t i = 0; i < big; i++) {
		nlru_region_pin(pinned, i, NLRU_PIN_WRITE, (void **)&p);
		p[0] = (char)i;
		nlru_region_unpin(pinned, i);
	}
	majors = counter(eng, "pgmajfault");
	t = now();
	for (size_t i = 0; i < big; i++) {
		nlru_region_pin(pinned, i, 0, (void **)&p);
		sink += p[0];
		nlru_region_unpin(pinned, i);
	}
	t = now() - t;
	majors = counter(eng, "pgmajfault") - majors;
	swapin_pin = t / (double)(majors ? majors : 1) * 1e9;
	nlru_region_destroy(pinned);

	/* The kernel's own anonymous first touch. */
	p = mmap(NULL, first * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	madvise(p, first * PAGE, MADV_NOHUGEPAGE);
	t = now();
	for (size_t i = 0; i < first; i++)
		p[i * PAGE] = 1;
	kernel = (now() - t) / (double)first * 1e9;
	munmap(p, first * PAGE);
	(void)sink;
	nlru_engine_destroy(eng);

	printf("fault cost, ns per page (engine %d MiB)\n", ENGINE_MIB);
	printf("  %-34s %8.0f\n", "mapped region, first touch", first_map);
	printf("  %-34s %8.0f\n", "nlru_region_pin, first touch", first_pin);
	printf("  %-34s %8.0f\n", "kernel anonymous, first touch", kernel);
	printf("  %-34s %8.0f\n", "mapped region, swap-in (+eviction)", swapin_map);
	printf("  %-34s %8.0f\n", "nlru_region_pin, swap-in (+eviction)", swapin_pin);
}

static void hot_set(long sample_pages)
{
	size_t hot = 384, cold = 6 * 2048;
	struct nlru_engine *eng = engine(8, sample_pages);
	struct nlru_region *region;
	volatile char sink = 0;
	double t;
	char *mem;

	region = mapped(eng, hot + cold, &mem);
	for (size_t i = 0; i < hot; i++)
		mem[i * PAGE] = 1;
	t = now();
	for (size_t c = 0; c < cold; c++) {
		mem[(hot + c) * PAGE] = 1;
		sink += mem[(c % hot) * PAGE];
	}
	t = now() - t;
	(void)sink;
	printf("  %-22s %10ld %10ld %10ld %8.3f\n", sample_pages ? "sampling on" : "off (FIFO)",
	       (long)counter(eng, "pgmajfault"), (long)counter(eng, "nlru_map_sample"),
	       (long)counter(eng, "nlru_map_sample_hit"), t);
	nlru_region_destroy(region);
	nlru_engine_destroy(eng);
}

int main(void)
{
	fault_cost();
	printf("\nhot set of 384 pages between 12288 writes, engine 8 MiB (2048 pages)\n");
	printf("  %-22s %10s %10s %10s %8s\n", "access tracking", "refaults", "sampled", "hits",
	       "wall s");
	hot_set(0);
	hot_set(256);
	hot_set(0);
	hot_set(256);
	return 0;
}
