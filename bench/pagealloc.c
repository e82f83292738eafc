/*
 * pagealloc - mmtests' page allocator microbenchmark (shellpacks/shellpack-bench-pagealloc,
 * stap-scripts/pagealloc-micro.stp; docs/benchmarks.md, "The mmtests method") on the engine:
 * zone mode (Linux 4.7) against node mode (Linux 4.8) in one process, on engines configured
 * alike, with jemalloc (mallocx/dallocx) and mmap/munmap of the same sizes as reference columns.
 *
 * For each order and batch, each column runs the stap module's loop literally: OUTER times
 * INNER rounds of batch+1 timed allocations then batch+1 timed frees in the same (FIFO) order,
 * the accumulators divided by INNER and by batch (integer division) and carried over into the
 * next outer iteration.  The columns take turns outer iteration by outer iteration, the two
 * engines swapping places each time, so drift on a busy machine hits them alike.  The unit is
 * TSC ticks per page, as mmtests'; nanoseconds are written alongside.
 *
 * Differences from mmtests, all deliberate, are listed in docs/benchmarks.md.
 */
#include <errno.h>
#include <inttypes.h>
#include <jemalloc/jemalloc.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <nodelru/nodelru.h>

#include "bench_util.h"
#include "harness.h"
#include "input.h"
#include "mmstat.h"
#include "mmtable.h"
#include "mmtests_results.h"
#include "out.h"
#include "pagealloc_log.h"
#include "vmsummary.h"

#define PA_GFP NLRU_GFP_KERNEL /* GFP_KERNEL | __GFP_NOWARN: the engine never warns */
#define PA_MAX_COLS (2 * HARNESS_MAX_MODES + 2) /* each mode, with --ab, then the refs */
#define PA_MMTESTS_INNER 10000
#define PA_MMTESTS_OUTER 15
#define PA_MMTESTS_BATCH_MIB 128

enum col_kind { COL_ENGINE, COL_JEMALLOC, COL_MMAP };

struct column {
	const char *name;
	enum col_kind kind;
	struct nlru_engine *eng; /* COL_ENGINE only */
	char dir[HARNESS_PATH_MAX];
	FILE *log;                    /* pagealloc.log, mmtests' format */
	uint64_t acc_alloc, acc_free; /* ticks; carried between outer iterations as mmtests does */
	uint64_t failed;              /* allocations that returned nothing (timed, not freed) */
};

struct pagealloc {
	struct harness_opts h;
	unsigned int order_min, order_max;
	long batch_mib; /* BATCH_SIZE in MiB: batches run up to (MiB / 4 KiB) >> order, exclusive */
	long outer, inner; /* PARAM_ITERATIONS_*; inner 0: sized so a sample holds sample_pages */
	long sample_pages;
	int refs;       /* the jemalloc and mmap columns */
	const char *ab; /* --ab NAME=VALUE: a second engine per mode with this tunable */
	char ab_names[HARNESS_MAX_MODES][32];
	struct column col[PA_MAX_COLS];
	int nr_cols, nr_engines; /* engine columns come first */
	void **pages;
	FILE *samples; /* samples.csv */
	double tsc_per_ns;
	struct mmt_record clock; /* the measured loop, for mmtests' tests-timestamp */
	char results_buf[HARNESS_PATH_MAX];
};

static uint64_t timed_alloc(struct column *c, void **pages, unsigned long n, unsigned int order)
{
	size_t size = NLRU_PAGE_SIZE << order;
	uint64_t t = tsc_read();

	switch (c->kind) {
	case COL_ENGINE:
		for (unsigned long k = 0; k < n; k++)
			if (nlru_alloc_pages(c->eng, PA_GFP, order, NLRU_NUMA_NO_NODE, &pages[k]))
				pages[k] = NULL;
		break;
	case COL_JEMALLOC:
		for (unsigned long k = 0; k < n; k++)
			pages[k] = mallocx(size, 0);
		break;
	case COL_MMAP:
		for (unsigned long k = 0; k < n; k++) {
			pages[k] = mmap(NULL, size, PROT_READ | PROT_WRITE,
					MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
			if (pages[k] == MAP_FAILED)
				pages[k] = NULL;
		}
		break;
	}
	return tsc_read() - t;
}

static uint64_t timed_free(struct column *c, void **pages, unsigned long n, unsigned int order)
{
	size_t size = NLRU_PAGE_SIZE << order;
	uint64_t t = tsc_read();

	switch (c->kind) {
	case COL_ENGINE:
		for (unsigned long k = 0; k < n; k++)
			if (pages[k])
				nlru_free_pages(c->eng, pages[k], order);
		break;
	case COL_JEMALLOC:
		for (unsigned long k = 0; k < n; k++)
			if (pages[k])
				dallocx(pages[k], 0);
		break;
	case COL_MMAP:
		for (unsigned long k = 0; k < n; k++)
			if (pages[k])
				munmap(pages[k], size);
		break;
	}
	return tsc_read() - t;
}

static uint64_t count_failed(void *const *pages, unsigned long n)
{
	uint64_t failed = 0;

	for (unsigned long k = 0; k < n; k++)
		failed += pages[k] == NULL;
	return failed;
}

/* One outer iteration of the stap module's loop, and its log line. */
static void outer_iteration(struct pagealloc *pa, struct column *c, unsigned int order,
			    unsigned long batch, long inner, long iteration)
{
	struct pa_line line = {order, batch, 0, 0};

	for (long j = 0; j < inner; j++) {
		c->acc_alloc += timed_alloc(c, pa->pages, batch + 1, order);
		c->failed += count_failed(pa->pages, batch + 1);
		c->acc_free += timed_free(c, pa->pages, batch + 1, order);
	}
	c->acc_alloc = c->acc_alloc / (uint64_t)inner / batch;
	c->acc_free = c->acc_free / (uint64_t)inner / batch;
	line.alloc = c->acc_alloc;
	line.free = c->acc_free;
	pa_log_write(c->log, &line);
	fprintf(pa->samples, "%s,%u,%lu,%ld,%" PRIu64 ",%" PRIu64 ",%.3f,%.3f\n", c->name, order,
		batch, iteration, line.alloc, line.free, (double)line.alloc / pa->tsc_per_ns,
		(double)line.free / pa->tsc_per_ns);
}

static long inner_for(const struct pagealloc *pa, unsigned long batch)
{
	long n = pa->sample_pages / (long)(batch + 1);

	if (pa->inner)
		return pa->inner;
	return n < 1 ? 1 : n > PA_MMTESTS_INNER ? PA_MMTESTS_INNER : n;
}

static void run_pair(struct pagealloc *pa, unsigned int order, unsigned long batch)
{
	long inner = inner_for(pa, batch);

	/* mmtests builds and loads a fresh module per pair: accumulators start at zero. */
	for (int k = 0; k < pa->nr_cols; k++)
		pa->col[k].acc_alloc = pa->col[k].acc_free = 0;
	for (long i = 0; i < pa->outer; i++)
		for (int k = 0; k < pa->nr_cols; k++) {
			/* Engines swap places each iteration so neither always follows the other.
			 */
			int idx = (i % 2 && k < pa->nr_engines) ? pa->nr_engines - 1 - k : k;

			outer_iteration(pa, &pa->col[idx], order, batch, inner, i);
		}
}

static unsigned long batch_limit(const struct pagealloc *pa, unsigned int order)
{
	return ((unsigned long)pa->batch_mib * 256) >> order; /* (BATCH_SIZE / 4096) >> order */
}

static void run_all(struct pagealloc *pa)
{
	int pairs = 0, done = 0;

	for (unsigned int o = pa->order_min; o <= pa->order_max; o++)
		for (unsigned long b = 1; b < batch_limit(pa, o); b *= 2)
			pairs++;
	for (unsigned int o = pa->order_min; o <= pa->order_max; o++)
		for (unsigned long b = 1; b < batch_limit(pa, o); b *= 2) {
			harness_progress(&pa->h, "pagealloc: order %u batch %lu (%d/%d)", o, b,
					 ++done, pairs);
			run_pair(pa, o, b);
		}
	harness_progress(&pa->h, NULL);
}

static const char *const stat_names[NR_MM_MULTIOP_ROWS] = {"Min", "Amean", "Stddev", "CoeffVar",
							   "Max"};

/* One summary figure of op @name in @ops, scaled by @scale (CoeffVar is a ratio: unscaled). */
static double figure(const struct pa_ops *ops, const char *name, int stat, double scale)
{
	const struct pa_op *op = pa_ops_find(ops, name);
	double row[NR_MM_MULTIOP_ROWS];

	if (!op || op->n == 0)
		return NAN;
	mm_multiops(op->x, op->n, 0, row);
	return stat == MM_COEFFVAR ? row[stat] : row[stat] * scale;
}

/* mmtests' order: the whole Min block, then Amean, ...; the baseline's operations. */
static int fill_table(struct mm_table *t, const struct pa_ops *ops, int nr_cols, double scale)
{
	double v[PA_MAX_COLS];

	for (int s = 0; s < NR_MM_MULTIOP_ROWS; s++)
		for (size_t i = 0; i < ops[0].nr; i++) {
			int any = 0;

			for (int k = 0; k < nr_cols; k++)
				any |= !isnan(v[k] = figure(&ops[k], ops[0].op[i].name, s, scale));
			/* _FilterNaN: an operation without data is not printed. */
			if (any &&
			    mm_table_add(t, stat_names[s], ops[0].op[i].name, MM_CMP_PNDIFF, v))
				return -ENOMEM;
		}
	return 0;
}

static int load_ops(struct pagealloc *pa, struct pa_ops *ops)
{
	for (int k = 0; k < pa->nr_cols; k++) {
		char path[HARNESS_PATH_MAX];
		char *buf = NULL;
		size_t len = 0;
		int r = harness_path(path, pa->col[k].dir, "pagealloc.log");

		if (!r)
			r = input_read(path, &buf, &len);
		if (!r)
			r = pa_extract(buf, len, &ops[k]);
		free(buf);
		if (r) {
			fprintf(stderr, "%s: %s\n", path, input_strerror(r));
			return r;
		}
	}
	return 0;
}

/* The cycles table (printed and written) and the nanoseconds table (written). */
static int write_tables(struct pagealloc *pa, const struct pa_ops *ops)
{
	const char *names[PA_MAX_COLS];
	struct mm_table t;
	int r = 0;

	for (int k = 0; k < pa->nr_cols; k++)
		names[k] = pa->col[k].name;
	for (int ns = 0; ns < 2 && !r; ns++) {
		/* ComparePagealloc: _FieldLength 17, precision 2; the Extract module's 17. */
		if (mm_table_init(&t, names, (size_t)pa->nr_cols, 17, 2, 17))
			return -ENOMEM;
		r = fill_table(&t, ops, pa->nr_cols, ns ? 1 / pa->tsc_per_ns : 1);
		if (!r)
			r = harness_write_table(&t, pa->h.results,
						ns ? "pagealloc-ns" : "pagealloc-cycles");
		if (!r && !ns) {
			printf("pagealloc (TSC cycles per page; ns in pagealloc-ns.txt)\n");
			mm_table_print(&t, stdout);
		}
		mm_table_fini(&t);
	}
	return r;
}

/* mmtests' layout: each engine column a "kernel" with its vmstat record; every column's
 * pagealloc.log split by order and linked as <root>/pagealloc-<column>/noprofile. */
static int write_mmtests(struct pagealloc *pa)
{
	const char *root = pa->h.mmtests_root ? pa->h.mmtests_root : pa->h.results;
	int r = 0;

	for (int k = 0; !r && k < pa->nr_cols; k++) {
		struct mmt_record rec = pa->clock;

		rec.bench = "pagealloc";
		rec.column = pa->col[k].name;
		rec.dir = pa->col[k].dir;
		r = mmt_split_pagealloc(pa->col[k].dir);
		if (!r)
			r = mmt_link(root, "pagealloc", pa->col[k].name, pa->col[k].dir);
		if (!r && k < pa->nr_engines)
			r = mmt_write_record(root, &rec, k);
	}
	return r;
}

static int report(struct pagealloc *pa, double elapsed)
{
	struct pa_ops ops[PA_MAX_COLS];
	struct vmsummary_run runs[PA_MAX_COLS];
	int r;

	memset(ops, 0, sizeof(ops));
	r = load_ops(pa, ops);
	if (!r)
		r = write_tables(pa, ops);
	for (int k = 0; k < pa->nr_cols; k++)
		pa_ops_fini(&ops[k]);
	if (r)
		return r;
	for (int k = 0; k < pa->nr_engines; k++)
		runs[k] = (struct vmsummary_run){pa->col[k].name, pa->col[k].dir, elapsed};
	printf("\npagealloc vmstat summary\n");
	r = vmsummary_write(runs, (size_t)pa->nr_engines, pa->h.results, stdout);
	return r ? r : write_mmtests(pa);
}

static int add_column(struct pagealloc *pa, const char *name, enum col_kind kind)
{
	struct column *c = &pa->col[pa->nr_cols++];
	int r;

	c->name = name;
	c->kind = kind;
	if ((r = harness_path(c->dir, pa->h.results, name)) || (r = harness_mkdir(c->dir)))
		return r;
	c->log = harness_fopen(c->dir, "pagealloc.log", "w");
	return c->log ? 0 : -EIO;
}

static int setup(struct pagealloc *pa)
{
	static const char *const extra[] = {"swap_mib=0", NULL};
	const char *ab_extra[] = {"swap_mib=0", pa->ab, NULL};
	int r;

	for (int m = 0; m < pa->h.nr_modes; m++) {
		struct column *c = &pa->col[pa->nr_cols];

		if ((r = add_column(pa, harness_mode_column(pa->h.modes[m]), COL_ENGINE)))
			return r;
		if ((r = harness_engine(&pa->h, pa->h.modes[m], extra, &c->eng)))
			return r;
		pa->nr_engines++;
	}
	/* --ab: the same engines with one tunable changed, measured in the same turns. */
	for (int m = 0; pa->ab && m < pa->h.nr_modes; m++) {
		struct column *c = &pa->col[pa->nr_cols];

		snprintf(pa->ab_names[m], sizeof(pa->ab_names[m]), "%s-ab",
			 harness_mode_column(pa->h.modes[m]));
		if ((r = add_column(pa, pa->ab_names[m], COL_ENGINE)))
			return r;
		if ((r = harness_engine(&pa->h, pa->h.modes[m], ab_extra, &c->eng)))
			return r;
		pa->nr_engines++;
	}
	if (pa->refs && ((r = add_column(pa, "ref-jemalloc", COL_JEMALLOC)) ||
			 (r = add_column(pa, "ref-mmap", COL_MMAP))))
		return r;
	pa->pages = calloc(batch_limit(pa, pa->order_min) + 1, sizeof(*pa->pages));
	pa->samples = harness_fopen(pa->h.results, "samples.csv", "w");
	if (!pa->pages || !pa->samples)
		return -ENOMEM;
	fputs("column,order,batch,iteration,alloc_cycles,free_cycles,alloc_ns,free_ns\n",
	      pa->samples);
	return 0;
}

static int write_run_info(const struct pagealloc *pa, double elapsed)
{
	FILE *f = harness_fopen(pa->h.results, "run.json", "w");

	if (!f)
		return -EIO;
	fprintf(f, "{\"benchmark\":\"pagealloc\",\"node_mib\":%ld,\"topology\":", pa->h.node_mib);
	out_json_str(f, pa->h.topology ? pa->h.topology : "");
	fprintf(f,
		",\"orders\":[%u,%u],\"batch_mib\":%ld,\"outer\":%ld,\"inner\":%ld,"
		"\"sample_pages\":%ld,\"tsc_per_ns\":%.6f,\"elapsed_s\":%.9f,\"failed\":{",
		pa->order_min, pa->order_max, pa->batch_mib, pa->outer, pa->inner, pa->sample_pages,
		pa->tsc_per_ns, elapsed);
	for (int k = 0; k < pa->nr_cols; k++)
		fprintf(f, "%s\"%s\":%" PRIu64, k ? "," : "", pa->col[k].name, pa->col[k].failed);
	fputs("}}\n", f);
	return fclose(f) ? -EIO : 0;
}

static int teardown(struct pagealloc *pa)
{
	int bad = 0;

	for (int k = 0; k < pa->nr_cols; k++) {
		if (pa->col[k].log)
			bad |= fclose(pa->col[k].log) != 0;
		if (pa->col[k].failed)
			fprintf(stderr, "pagealloc: %s: %" PRIu64 " allocations failed\n",
				pa->col[k].name, pa->col[k].failed);
		bad |= nlru_engine_destroy(pa->col[k].eng) != 0;
		pa->col[k].log = NULL;
		pa->col[k].eng = NULL;
	}
	if (pa->samples)
		bad |= fclose(pa->samples) != 0;
	pa->samples = NULL;
	free(pa->pages);
	return bad ? -EIO : 0;
}

static int measure(struct pagealloc *pa)
{
	double elapsed;
	int r = setup(pa);

	for (int k = 0; !r && k < pa->nr_engines; k++)
		r = harness_dump(pa->col[k].eng, pa->col[k].dir, "before");
	if (r)
		return r;
	pa->tsc_per_ns = tsc_per_ns(100);
	mmt_clock_start(&pa->clock);
	run_all(pa);
	mmt_clock_stop(&pa->clock);
	elapsed = pa->clock.elapsed;
	for (int k = 0; !r && k < pa->nr_engines; k++)
		r = harness_dump(pa->col[k].eng, pa->col[k].dir, "after");
	for (int k = 0; !r && k < pa->nr_cols; k++)
		r = fflush(pa->col[k].log) ? -EIO : 0;
	if (!r)
		r = write_run_info(pa, elapsed);
	if (!r && fflush(pa->samples))
		r = -EIO;
	return r ? r : report(pa, elapsed);
}

static void usage(FILE *to)
{
	fprintf(to,
		"usage: pagealloc [options]\n"
		"  --orders A-B       orders to run (default 0-4)\n"
		"  --batch-mib N      mmtests' BATCH_SIZE: batches 1, 2, 4 ... below (N MiB / 4 KiB)"
		" >> order (default 128)\n"
		"  --outer N          outer iterations, the samples (default 15)\n"
		"  --inner N          inner iterations per sample (default: enough for "
		"--sample-pages pages, at most 10000)\n"
		"  --sample-pages N   pages a sample allocates at the least when --inner is not "
		"given (default 16384)\n"
		"  --exact            mmtests' counts: --outer 15 --inner 10000 --batch-mib 128\n"
		"  --no-refs          no jemalloc and mmap columns\n"
		"  --ab NAME=VALUE    also each mode with this tunable, columns \"4.7-zone-ab\" ...\n"
		"%s",
		harness_usage);
}

static int parse_own(void *arg, const char *opt, const char *val)
{
	struct pagealloc *pa = arg;
	char *end;

	if (strcmp(opt, "--exact") == 0) {
		pa->outer = PA_MMTESTS_OUTER;
		pa->inner = PA_MMTESTS_INNER;
		pa->batch_mib = PA_MMTESTS_BATCH_MIB;
		return 0;
	}
	if (strcmp(opt, "--no-refs") == 0)
		return pa->refs = 0, 0;
	if (!val)
		return -EINVAL;
	if (strcmp(opt, "--ab") == 0)
		return strchr(val, '=') ? (pa->ab = val, 1) : -EINVAL;
	if (strcmp(opt, "--orders") == 0)
		return sscanf(val, "%u-%u", &pa->order_min, &pa->order_max) == 2 &&
				       pa->order_min <= pa->order_max &&
				       pa->order_max < NLRU_MAX_ORDER
			       ? 1
			       : -EINVAL;
	if (strcmp(opt, "--batch-mib") == 0)
		pa->batch_mib = strtol(val, &end, 10);
	else if (strcmp(opt, "--outer") == 0)
		pa->outer = strtol(val, &end, 10);
	else if (strcmp(opt, "--inner") == 0)
		pa->inner = strtol(val, &end, 10);
	else if (strcmp(opt, "--sample-pages") == 0)
		pa->sample_pages = strtol(val, &end, 10);
	else
		return -EINVAL;
	return *end || pa->batch_mib < 1 || pa->outer < 1 || pa->inner < 0 || pa->sample_pages < 1
		       ? -EINVAL
		       : 1;
}

int main(int argc, char **argv)
{
	struct pagealloc pa = {.order_min = 0,
			       .order_max = 4,
			       .batch_mib = PA_MMTESTS_BATCH_MIB,
			       .outer = PA_MMTESTS_OUTER,
			       .sample_pages = 16384,
			       .refs = 1};
	int r, r2;

	/* 128 MiB: the largest batch, 16385 pages or 64 MiB, stays clear of the watermarks. */
	harness_opts_init(&pa.h, 128);
	r = harness_parse_args(&pa.h, argc, argv, parse_own, &pa);
	if (r) {
		usage(r > 0 ? stdout : stderr);
		return r > 0 ? 0 : 2;
	}
	if (harness_results_dir(&pa.h, "pagealloc", pa.results_buf))
		return 1;
	harness_bind_cpu(&pa.h);
	r = measure(&pa);
	r2 = teardown(&pa);
	if (r || r2)
		fprintf(stderr, "pagealloc: %s\n", strerror(-(r ? r : r2)));
	return r || r2 ? 1 : 0;
}
