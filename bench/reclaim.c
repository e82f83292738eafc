/*
 * reclaim - what reclaim costs and how fast it swaps, side by side in one run:
 *   raw     4 KiB pwrite loop to a file in the swap file's directory (the I/O ceiling)
 *   kswapd  one balance pass (nlru_kswapd_run) over a full engine of dirty anon pages,
 *           with a watermark gap of 10% so the pass writes a large batch to swap
 *   scan    reclaim passes over pinned pages, which are scanned but never written:
 *           CPU per page scanned, kswapd and direct, with no I/O.  Each pass starts right
 *           after a page is freed, which ends the node's "unreclaimable" state as in Linux.
 *   fault   first touch of a region page through nlru_region_pin (allocation, zeroing,
 *           LRU addition)
 * Each figure is the median of --samples runs.  Usage: reclaim [--mib N] [--samples N]
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <nodelru/nodelru.h>

#include "bench_util.h"
#include <nodelru/vmstat.h>

static int64_t stat(struct nlru_engine *eng, const char *name)
{
	struct nlru_vmstat snap = {.size = sizeof(snap), .version = NLRU_VMSTAT_VERSION};
	int64_t v = 0;

	nlru_vmstat_read(eng, &snap);
	nlru_vmstat_get(&snap, name, &v);
	return v;
}

/* MB/s of writing @pages pages with pwrite, as the swap file is written. */
static double raw_write_mbs(long pages)
{
	char path[] = "/tmp/nlru-raw-XXXXXX", page[4096];
	int fd = mkstemp(path);
	double t0;

	if (fd < 0)
		return 0;
	unlink(path);
	memset(page, 0x5a, sizeof(page));
	t0 = now_s();
	for (long i = 0; i < pages; i++)
		if (pwrite(fd, page, sizeof(page), i * 4096) != (ssize_t)sizeof(page))
			break;
	t0 = now_s() - t0;
	close(fd);
	return (double)pages * 4096 / 1e6 / t0;
}

static struct nlru_engine *engine(long mib, long scale_factor)
{
	struct nlru_engine *eng = NULL;
	struct nlru_config cfg;

	nlru_config_init(&cfg);
	cfg.node_mib = mib;
	cfg.swap_mib = 8 * mib;
	cfg.kswapd = 0;
	cfg.prefault = 1;
	cfg.watermark_scale_factor = scale_factor;
	if (nlru_engine_create(&cfg, &eng)) {
		fprintf(stderr, "reclaim: cannot create the engine\n");
		exit(1);
	}
	return eng;
}

/* Touch (write) region pages from *next on until the allocator stalls once more. */
static void fill(struct nlru_engine *eng, struct nlru_region *r, size_t *next, size_t pages)
{
	int64_t stalls = stat(eng, "allocstall_movable");
	void *p;

	while (*next < pages && stat(eng, "allocstall_movable") == stalls) {
		if (nlru_region_pin(r, *next, NLRU_PIN_WRITE, &p))
			break;
		memset(p, (int)*next, 64);
		nlru_region_unpin(r, (*next)++);
	}
}

static void kswapd_swapout(long mib, int samples, double raw)
{
	struct nlru_engine *eng = engine(mib, 1000);
	size_t pages = (size_t)mib * 256 * 6, next = 0;
	double mbs[64], ns_scan[64];
	struct nlru_region *r;

	nlru_region_create(eng, pages, 0, &r);
	for (int s = 0; s < samples; s++) {
		fill(eng, r, &next, pages);
		int64_t out0 = stat(eng, "pswpout"),
			scan0 = stat(eng, "pgscan_kswapd") + stat(eng, "pgrefill");
		double t0 = now_s();

		nlru_kswapd_run(eng, 0);
		t0 = now_s() - t0; /* before stat(), whose own cost must stay out of the figure */
		mbs[s] = (double)(stat(eng, "pswpout") - out0) * 4096 / 1e6 / t0;
		ns_scan[s] = t0 * 1e9 /
			     (double)(stat(eng, "pgscan_kswapd") + stat(eng, "pgrefill") - scan0);
	}
	printf("kswapd swap-out      %8.1f MB/s  (%.0f%% of raw)  %6.1f ns per page scanned, I/O included\n",
	       median(mbs, samples), 100 * median(mbs, samples) / raw, median(ns_scan, samples));
	nlru_region_destroy(r);
	nlru_engine_destroy(eng);
}

/* Pin pages until the allocator gives up: nothing left that reclaim could write. */
static size_t pin_all(struct nlru_region *r, size_t pages)
{
	size_t n = 0;
	void *p;

	while (n < pages && nlru_region_pin(r, n, NLRU_PIN_WRITE, &p) == 0)
		n++;
	return n;
}

/*
 * Take pages without reclaiming until the allocator must reclaim directly: that allocation
 * runs one full pass over pinned pages and fails.  Returns its ns per page scanned.
 */
static double direct_pass_ns(struct nlru_engine *eng)
{
	static void *held[4096];
	int n = 0;
	double ns = 0;

	for (;;) {
		int64_t k0 = stat(eng, "pgscan_direct") + stat(eng, "pgrefill");
		double t0 = now_s(), t;
		int r = nlru_alloc_pages(eng, NLRU_GFP_KERNEL | NLRU_GFP_NORETRY, 0, 0, &held[n]);

		t = now_s() - t0;
		if (r || n == 4095) {
			ns = t * 1e9 /
			     (double)(stat(eng, "pgscan_direct") + stat(eng, "pgrefill") - k0);
			break;
		}
		n++;
	}
	while (n--)
		nlru_free_pages(eng, held[n], 0);
	return ns;
}

static void scan_cost(long mib, int samples)
{
	struct nlru_engine *eng = engine(mib, 10);
	size_t pages = (size_t)mib * 256, pinned;
	double kswapd[64], direct[64], fault;
	struct nlru_region *r;
	void *spare;

	nlru_region_create(eng, pages, 0, &r);
	fault = now_s();
	pinned = pin_all(r, pages);
	fault = (now_s() - fault) * 1e9 / (double)pinned;
	/* One page from the atomic reserve, freed before each pass to reset NR_PAGES_SCANNED. */
	if (nlru_alloc_pages(eng, NLRU_GFP_ATOMIC, 0, 0, &spare))
		return;
	for (int s = 0; s < samples; s++) {
		int64_t k0 = stat(eng, "pgscan_kswapd") + stat(eng, "pgrefill");
		double t0, t;

		/* Freed through to the buddy allocator: that is what resets the scan count. */
		nlru_free_pages(eng, spare, 0);
		nlru_drain_pages(eng);
		t0 = now_s();
		nlru_kswapd_run(eng, 0);
		t = now_s() - t0;
		kswapd[s] =
			t * 1e9 / (double)(stat(eng, "pgscan_kswapd") + stat(eng, "pgrefill") - k0);
		/* One direct reclaim pass (NORETRY): the allocation that finds nothing left. */
		nlru_drain_pages(eng);
		direct[s] = direct_pass_ns(eng);
		if (nlru_alloc_pages(eng, NLRU_GFP_ATOMIC, 0, 0, &spare))
			return;
	}
	nlru_free_pages(eng, spare, 0);
	printf("scan, no I/O         kswapd %6.1f ns/page, direct %6.1f ns/page scanned (%zu pinned pages)\n",
	       median(kswapd, samples), median(direct, samples), pinned);
	printf("first-touch fault    %8.1f ns per page (allocate, zero, add to the LRU)\n", fault);
	for (size_t i = 0; i < pinned; i++)
		nlru_region_unpin(r, i);
	nlru_region_destroy(r);
	nlru_engine_destroy(eng);
}

static const char usage[] = "usage: reclaim [--mib N] [--samples N]\n"
			    "  --mib N      engine size in MiB (default 64)\n"
			    "  --samples N  samples of each figure, up to 64 (default 5)\n";

int main(int argc, char **argv)
{
	long mib = 64, samples = 5;
	const struct bench_opt opts[] = {
		{"--mib", &mib, NULL, 16, 65536},
		{"--samples", &samples, NULL, 1, 64},
		{NULL},
	};
	double raw[64];
	int r = bench_parse_opts(argc, argv, opts, usage);

	if (r)
		return r > 0 ? 0 : 2;
	for (int s = 0; s < samples; s++)
		raw[s] = raw_write_mbs(mib * 256);
	printf("# engine %ld MiB, median of %ld samples\n", mib, samples);
	printf("raw pwrite 4 KiB     %8.1f MB/s\n", median(raw, (int)samples));
	kswapd_swapout(mib, (int)samples, median(raw, (int)samples));
	scan_cost(mib, (int)samples);
	return 0;
}
