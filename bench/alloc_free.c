/*
 * alloc_free - order-0 allocation + free cost per page, side by side in one run:
 *   nodelru   nlru_alloc_pages / nlru_free_pages (GFP_KERNEL, node 0)
 *   bulk      nlru_alloc_pages_bulk / nlru_free_pages_bulk: the whole batch in one call each
 *   jemalloc  mallocx(4096) / dallocx, default tcache
 *   mmap      mmap / munmap of one page (never touched, like pagealloc's pages)
 *
 * For each batch size b (1, 2, 4 ... 16384) one sample allocates b pages one call at a time
 * (bulk: in one call), then frees them in the same (FIFO) order, repeated until a sample
 * holds at least 4096 pages; the figure is the median over the samples of (alloc + free
 * time) / pages.  The allocators take turns sample by sample, each round starting with the
 * next one so that none always runs first (after the others' frees) or last, and drift on a
 * busy machine hits them alike.  bulk/nlru is the median of the ratios of the two samples of
 * one round, which were taken next to each other: closer than the ratio of two medians.
 *
 * Usage: alloc_free [--samples N] [--max-batch B] [--cpu C]
 */
#include <errno.h>
#include <jemalloc/jemalloc.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include <nodelru/nodelru.h>

#include "bench_util.h"

enum peer { PEER_NODELRU, PEER_BULK, PEER_JEMALLOC, PEER_MMAP, NR_PEERS };
static const char *const peer_names[NR_PEERS] = {"nodelru", "bulk", "jemalloc", "mmap"};

struct bench {
	struct nlru_engine *eng;
	void **ptrs;
	int samples;
	long max_batch;
};

static int alloc_one(struct bench *b, enum peer peer, void **p)
{
	switch (peer) {
	case PEER_NODELRU:
		return nlru_alloc_pages(b->eng, NLRU_GFP_KERNEL, 0, 0, p);
	case PEER_JEMALLOC:
		*p = mallocx(4096, 0);
		return *p ? 0 : -ENOMEM;
	default:
		*p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		return *p == MAP_FAILED ? -ENOMEM : 0;
	}
}

static void free_one(struct bench *b, enum peer peer, void *p)
{
	switch (peer) {
	case PEER_NODELRU:
		nlru_free_pages(b->eng, p, 0);
		break;
	case PEER_JEMALLOC:
		dallocx(p, 0);
		break;
	default:
		munmap(p, 4096);
	}
}

/*
 * The whole batch in bulk calls: one each unless memory runs short.  0 or -ENOMEM.  The
 * entries are NULL to begin with, and the bulk free clears them again.
 */
static int bulk_batch(struct bench *b, long batch)
{
	int got;

	while ((got = nlru_alloc_pages_bulk(b->eng, NLRU_GFP_KERNEL, 0, (size_t)batch, b->ptrs)) <
	       batch)
		if (got <= 0)
			return -ENOMEM;
	return nlru_free_pages_bulk(b->eng, b->ptrs, (size_t)batch);
}

/* One sample: ns per page of alloc+free for batches of @batch, or a negative errno. */
static double sample(struct bench *b, enum peer peer, long batch)
{
	long reps = batch >= 4096 ? 1 : 4096 / batch;
	double t0;

	if (peer == PEER_BULK) /* the other columns leave freed addresses behind */
		memset(b->ptrs, 0, sizeof(void *) * (size_t)batch);
	t0 = now_s();

	for (long r = 0; r < reps; r++) {
		if (peer == PEER_BULK) {
			if (bulk_batch(b, batch))
				return -ENOMEM;
			continue;
		}
		for (long i = 0; i < batch; i++)
			if (alloc_one(b, peer, &b->ptrs[i]))
				return -ENOMEM;
		for (long i = 0; i < batch; i++)
			free_one(b, peer, b->ptrs[i]);
	}
	return (now_s() - t0) * 1e9 / (double)(reps * batch);
}

static int run(struct bench *b)
{
	double *s[NR_PEERS], *ratio = calloc((size_t)b->samples, sizeof(double));

	printf("# order-0 alloc+free, ns per page, median of %d samples\n", b->samples);
	printf("%6s %10s %10s %10s %10s %14s %10s %10s\n", "batch", "nodelru", "bulk", "jemalloc",
	       "mmap", "nodelru/jem", "mmap/nlru", "bulk/nlru");
	for (int p = 0; p < NR_PEERS; p++)
		s[p] = calloc((size_t)b->samples, sizeof(double));
	for (long batch = 1; batch <= b->max_batch; batch *= 2) {
		double med[NR_PEERS];

		for (int i = 0; i < b->samples; i++)
			for (int k = 0; k < NR_PEERS; k++) {
				int p = (i + k) % NR_PEERS;

				if ((s[p][i] = sample(b, (enum peer)p, batch)) < 0) {
					fprintf(stderr, "%s: out of memory at batch %ld\n",
						peer_names[p], batch);
					return 1;
				}
			}
		/* Before median() sorts the samples: the pairs are the rounds'. */
		for (int i = 0; i < b->samples; i++)
			ratio[i] = s[PEER_BULK][i] / s[PEER_NODELRU][i];
		for (int p = 0; p < NR_PEERS; p++)
			med[p] = median(s[p], b->samples);
		printf("%6ld %10.2f %10.2f %10.2f %10.2f %14.2f %10.1f %10.2f\n", batch,
		       med[PEER_NODELRU], med[PEER_BULK], med[PEER_JEMALLOC], med[PEER_MMAP],
		       med[PEER_NODELRU] / med[PEER_JEMALLOC], med[PEER_MMAP] / med[PEER_NODELRU],
		       median(ratio, b->samples));
		fflush(stdout);
	}
	for (int p = 0; p < NR_PEERS; p++)
		free(s[p]);
	free(ratio);
	return 0;
}

static const char usage[] = "usage: alloc_free [--samples N] [--max-batch B] [--cpu C]\n"
			    "  --samples N    samples of each figure (default 15)\n"
			    "  --max-batch B  largest batch, doubled from 1 (default 16384)\n"
			    "  --cpu C        CPU the benchmark runs on (default 0)\n";

int main(int argc, char **argv)
{
	long samples = 15, max_batch = 16384, cpu = 0;
	const struct bench_opt opts[] = {
		{"--samples", &samples, NULL, 1, 100000},
		{"--max-batch", &max_batch, NULL, 1, 16384},
		{"--cpu", &cpu, NULL, 0, CPU_SETSIZE - 1},
		{NULL},
	};
	struct bench b;
	struct nlru_config cfg;
	int r = bench_parse_opts(argc, argv, opts, usage);

	if (r)
		return r > 0 ? 0 : 2;
	b = (struct bench){.samples = (int)samples, .max_batch = max_batch};
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET((int)cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		fprintf(stderr, "alloc_free: cannot run on CPU %ld: %s\n", cpu, strerror(errno));
		return 2;
	}

	nlru_config_init(&cfg);
	cfg.node_mib = 256; /* 65536 pages: a 16384-page batch stays far above the watermarks */
	cfg.prefault = 1;
	r = nlru_engine_create(&cfg, &b.eng);
	if (r) {
		fprintf(stderr, "alloc_free: engine: %s\n", strerror(-r));
		return 1;
	}
	b.ptrs = calloc((size_t)b.max_batch, sizeof(void *));
	r = run(&b);
	free(b.ptrs);
	nlru_engine_destroy(b.eng);
	return r;
}
