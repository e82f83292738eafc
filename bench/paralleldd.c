/*
 * paralleldd - mmtests' paralleldd (shellpacks/shellpack-bench-paralleldd with
 * configs/config-global-dhp__io-paralleldd-read-large; docs/benchmarks.md, "paralleldd and
 * tiobench") on the engine, one reclaim mode after the other in one process, on engines
 * configured alike, on the node-lru series' time scale (the block device model on).
 *
 * A source file twice the engine's size is written once, outside the engines (or, with
 * --source-in-record, by each mode through its engine inside its record, as mmtests' own
 * benchmark writes it between its vmstat dumps).  Per mode,
 * between the vmstat dumps: for each thread count N of the shellpack's list and each
 * iteration, the engine's cache of the file is dropped (the file closed, as drop_caches does)
 * and N readers, threads standing for N dd processes, start together and each read the whole
 * file through the engine's page cache in dd's 512-byte reads, timed one by one.  The table
 * is ExtractParalleldd's Elapsd-N (each dd's elapsed seconds, as Min, Amean, Stddev,
 * CoeffVar and Max), then the duration and the vmstat summary.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <nodelru/nodelru.h>

#include "bench_util.h"
#include "harness.h"
#include "iobench.h"
#include "iobench_log.h"
#include "mmtable.h"
#include "mmtests_results.h"
#include "out.h"
#include "vmsummary.h"

#define PDD_MAX_ITERATIONS 100

struct pdd_mode {
	const char *column;
	char dir[HARNESS_PATH_MAX];
	struct mmt_record clock; /* between the vmstat dumps */
	uint64_t failed_reads;
};

struct paralleldd {
	struct harness_opts h;
	struct iobench_scale scale;
	int min_threads, max_threads, iterations;
	long block;           /* dd's bs: 512 bytes, its default */
	long file_mib;        /* 0: twice the engine's memory (PARALLELDD_SOURCESIZE) */
	long idle_anon_pct;   /* an idle anonymous region of this share of the engine */
	long active_file_pct; /* a file of this share of the engine, cached and active */
	int source_in_record; /* 1: each mode writes the source file through its engine */
	const char *workdir;
	uint64_t file_bytes;
	int threads[IOB_MAX_THREAD_COUNTS], nr_threads;
	char src[HARNESS_PATH_MAX];
	FILE *instances; /* instances.csv */
	struct pdd_mode run[HARNESS_MAX_MODES];
	char results_buf[HARNESS_PATH_MAX];
};

/* One dd: reads the whole file from offset 0 in @block-byte reads. */
struct reader {
	const struct paralleldd *pd;
	struct nlru_file *file;
	struct iobench_gate *start;
	char *buf;
	double elapsed, user, sys;
	uint64_t bytes, reads;
	int err;
};

static void *reader_main(void *arg)
{
	struct reader *rd = arg;
	double t0, u0, s0;

	iobench_gate_wait(rd->start);
	iobench_thread_cpu(&u0, &s0);
	t0 = now_s();
	for (;;) {
		long n = nlru_file_pread(rd->file, rd->buf, (size_t)rd->pd->block, rd->bytes);

		if (n <= 0) {
			rd->err = (int)n;
			break;
		}
		rd->bytes += (uint64_t)n;
		rd->reads++;
	}
	rd->elapsed = now_s() - t0;
	iobench_thread_cpu(&rd->user, &rd->sys);
	rd->user -= u0;
	rd->sys -= s0;
	return NULL;
}

/* dd's report on stderr: records in and out, then bytes, seconds and speed. */
static int write_dd_log(const struct paralleldd *pd, const char *dir, const char *name,
			const struct reader *rd)
{
	FILE *f = harness_fopen(dir, name, "w");
	uint64_t full = rd->bytes / (uint64_t)pd->block;
	int part = rd->bytes % (uint64_t)pd->block != 0, bad;

	if (!f)
		return -EIO;
	fprintf(f,
		"%" PRIu64 "+%d records in\n%" PRIu64 "+%d records out\n%" PRIu64
		" bytes (%.0f MB, %.0f MiB) copied, %.9f s, %.1f MB/s\n",
		full, part, full, part, rd->bytes, (double)rd->bytes / 1e6,
		(double)rd->bytes / (1 << 20), rd->elapsed,
		rd->elapsed > 0 ? (double)rd->bytes / 1e6 / rd->elapsed : 0);
	bad = ferror(f);
	return fclose(f) || bad ? -EIO : 0;
}

/*
 * One iteration of @nr readers: the file opened fresh (its cache was dropped at the last
 * close), the readers released together, joined, the file closed (its pages dropped).
 */
static int iteration(struct paralleldd *pd, struct nlru_engine *eng, struct pdd_mode *run, int nr,
		     int it)
{
	struct reader *rd = calloc((size_t)nr, sizeof(*rd));
	pthread_t *tid = calloc((size_t)nr, sizeof(*tid));
	struct iobench_gate start;
	struct nlru_file *file;
	int r = rd && tid ? 0 : -ENOMEM, started = 0;

	if (!r)
		r = nlru_file_open(eng, pd->src, O_RDONLY, 0, NLRU_NUMA_NO_NODE, &file);
	if (r) {
		free(rd);
		free(tid);
		return r;
	}
	iobench_gate_init(&start);
	for (; !r && started < nr; started++) {
		rd[started] = (struct reader){.pd = pd, .file = file, .start = &start};
		rd[started].buf = malloc((size_t)pd->block);
		r = rd[started].buf
			    ? -pthread_create(&tid[started], NULL, reader_main, &rd[started])
			    : -ENOMEM;
		if (r)
			free(rd[started].buf);
	}
	if (r)
		started--;
	iobench_gate_open(&start);
	for (int i = 0; i < started; i++)
		pthread_join(tid[i], NULL);
	iobench_gate_destroy(&start);
	if (r)
		fprintf(stderr, "paralleldd: cannot start %d readers: %s\n", nr, strerror(-r));
	for (int i = 0; i < started; i++) {
		char name[64];

		if (!r && rd[i].err) {
			r = rd[i].err;
			run->failed_reads++;
		}
		if (!r && rd[i].bytes != pd->file_bytes)
			r = -EIO;
		snprintf(name, sizeof(name), "time-%d-%d-%d", nr, i + 1, it + 1);
		if (!r)
			r = mmt_write_gnu_time(run->dir, name, rd[i].user, rd[i].sys,
					       rd[i].elapsed);
		snprintf(name, sizeof(name), "log-%d-%d-%d", nr, i + 1, it + 1);
		if (!r)
			r = write_dd_log(pd, run->dir, name, &rd[i]);
		if (!r)
			fprintf(pd->instances, "%s,%d,%d,%d,%.9f,%.6f,%.6f,%.3f\n", run->column, nr,
				it + 1, i + 1, rd[i].elapsed, rd[i].user, rd[i].sys,
				(double)rd[i].bytes / 1e6 / rd[i].elapsed);
		free(rd[i].buf);
	}
	if (nlru_file_close(file) && !r)
		r = -EIO;
	free(rd);
	free(tid);
	return r;
}

static int measure_mode(struct paralleldd *pd, struct nlru_engine *eng, struct pdd_mode *run)
{
	int r = harness_dump(eng, run->dir, "before");

	mmt_clock_start(&run->clock);
	if (!r && pd->source_in_record) {
		harness_progress(&pd->h, "paralleldd: %s writing the %" PRIu64 " MiB source file",
				 run->column, pd->file_bytes >> 20);
		r = iobench_write_file_engine(eng, pd->src, pd->file_bytes, (size_t)pd->block);
	}
	for (int k = 0; !r && k < pd->nr_threads; k++)
		for (int it = 0; !r && it < pd->iterations; it++) {
			harness_progress(&pd->h, "paralleldd: %s %d readers, iteration %d/%d",
					 run->column, pd->threads[k], it + 1, pd->iterations);
			r = iteration(pd, eng, run, pd->threads[k], it);
		}
	mmt_clock_stop(&run->clock);
	if (!r)
		r = harness_dump(eng, run->dir, "after");
	harness_progress(&pd->h, NULL);
	return r;
}

/*
 * Sizes follow the first engine: the source file is written once for every mode, or, with
 * --source-in-record, by each mode inside its record.
 */
static int size_from(struct paralleldd *pd, struct nlru_engine *eng)
{
	if (pd->file_bytes)
		return 0;
	pd->file_bytes =
		pd->file_mib ? (uint64_t)pd->file_mib << 20 : 2 * iobench_engine_bytes(&pd->h, eng);
	if (pd->source_in_record)
		return 0;
	harness_progress(&pd->h, "paralleldd: writing the %" PRIu64 " MiB source file",
			 pd->file_bytes >> 20);
	return iobench_write_file(pd->src, pd->file_bytes);
}

static int run_mode(struct paralleldd *pd, int m)
{
	enum nlru_mode mode = pd->h.modes[m];
	struct pdd_mode *run = &pd->run[m];
	struct nlru_region *idle = NULL;
	struct nlru_file *cached = NULL;
	char cached_path[HARNESS_PATH_MAX];
	struct nlru_engine *eng;
	int r;

	run->column = harness_mode_column(mode);
	if ((r = harness_path(run->dir, pd->h.results, run->column)) ||
	    (r = harness_mkdir(run->dir)))
		return r;
	r = harness_engine(&pd->h, mode, iobench_scale_sets(&pd->scale, pd->h.node_mib), &eng);
	if (r)
		return r;
	r = size_from(pd, eng);
	if (!r)
		r = iobench_idle_anon(eng, iobench_engine_bytes(&pd->h, eng), pd->idle_anon_pct,
				      &idle);
	if (!r)
		r = harness_path(cached_path, pd->workdir ? pd->workdir : pd->h.results,
				 "active_file");
	if (!r)
		r = iobench_active_file(eng, cached_path, iobench_engine_bytes(&pd->h, eng),
					pd->active_file_pct, &cached);
	if (!r)
		r = measure_mode(pd, eng, run);
	if (cached && nlru_file_close(cached) && !r)
		r = -EIO;
	if (idle && nlru_region_destroy(idle) && !r)
		r = -EBUSY;
	if (nlru_engine_destroy(eng) && !r)
		r = -EBUSY;
	return r;
}

static void column_names(const struct paralleldd *pd, const char **names)
{
	for (int m = 0; m < pd->h.nr_modes; m++)
		names[m] = pd->run[m].column;
}

/* ExtractParalleldd and CompareParalleldd: Amean, pndiff, fields of 12, 2 decimals. */
static int elapsed_table(struct paralleldd *pd)
{
	struct iob_ops ops[HARNESS_MAX_MODES] = {{0}};
	const char *names[HARNESS_MAX_MODES];
	struct mm_table t;
	int r = 0;

	for (int m = 0; !r && m < pd->h.nr_modes; m++)
		if ((r = iob_paralleldd_extract(pd->run[m].dir, &ops[m])))
			fprintf(stderr, "%s: no dd times (%s)\n", pd->run[m].dir, strerror(-r));
	column_names(pd, names);
	if (!r && mm_table_init(&t, names, (size_t)pd->h.nr_modes, 12, 2, 12))
		r = -ENOMEM;
	if (!r && (r = iob_fill_table(&t, ops, (size_t)pd->h.nr_modes, 0, MM_CMP_PNDIFF)))
		mm_table_fini(&t);
	for (int m = 0; m < pd->h.nr_modes; m++)
		iob_ops_fini(&ops[m]);
	return r ? r
		 : harness_emit_table(&t, pd->h.results, "paralleldd-elapsed",
				      "paralleldd (elapsed seconds of each dd)");
}

static int duration_table(struct paralleldd *pd)
{
	const char *names[HARNESS_MAX_MODES];
	struct mmt_record recs[HARNESS_MAX_MODES];
	struct mm_table t;
	int r;

	column_names(pd, names);
	for (int m = 0; m < pd->h.nr_modes; m++)
		recs[m] = pd->run[m].clock;
	r = mmt_duration_table(&t, names, recs, (size_t)pd->h.nr_modes);
	return r ? r
		 : harness_emit_table(&t, pd->h.results, "paralleldd-duration",
				      "paralleldd duration (CPU and wall seconds)");
}

static int write_run_info(const struct paralleldd *pd)
{
	FILE *f = harness_fopen(pd->h.results, "run.json", "w");

	if (!f)
		return -EIO;
	fprintf(f, "{\"benchmark\":\"paralleldd\",\"node_mib\":%ld,\"topology\":", pd->h.node_mib);
	out_json_str(f, pd->h.topology ? pd->h.topology : "");
	fprintf(f,
		",\"engine_scale\":%d,\"file_mib\":%" PRIu64 ",\"block_bytes\":%ld,"
		"\"iterations\":%d,\"idle_anon_pct\":%ld,\"active_file_pct\":%ld,\"source_in_record\":%d,\"threads\":[",
		pd->scale.engine_scale, pd->file_bytes >> 20, pd->block, pd->iterations,
		pd->idle_anon_pct, pd->active_file_pct, pd->source_in_record);
	for (int k = 0; k < pd->nr_threads; k++)
		fprintf(f, "%s%d", k ? "," : "", pd->threads[k]);
	fputs("],\"modes\":[", f);
	for (int m = 0; m < pd->h.nr_modes; m++)
		fprintf(f,
			"%s{\"column\":\"%s\",\"elapsed_s\":%.9f,\"user_s\":%.6f,"
			"\"system_s\":%.6f,\"failed_reads\":%" PRIu64 "}",
			m ? "," : "", pd->run[m].column, pd->run[m].clock.elapsed,
			pd->run[m].clock.user, pd->run[m].clock.sys, pd->run[m].failed_reads);
	fputs("]}\n", f);
	return fclose(f) ? -EIO : 0;
}

/* Each mode a "kernel" of mmtests: its vmstat record, and its time-* files linked. */
static int write_mmtests(const struct paralleldd *pd)
{
	const char *root = pd->h.mmtests_root ? pd->h.mmtests_root : pd->h.results;
	int r = 0;

	for (int m = 0; !r && m < pd->h.nr_modes; m++) {
		struct mmt_record rec = pd->run[m].clock;

		rec.bench = "paralleldd";
		rec.column = pd->run[m].column;
		rec.dir = pd->run[m].dir;
		r = mmt_write_record(root, &rec, m);
		if (!r)
			r = mmt_link(root, "paralleldd", pd->run[m].column, pd->run[m].dir);
	}
	return r;
}

static int report(struct paralleldd *pd)
{
	struct vmsummary_run runs[HARNESS_MAX_MODES];
	int r;

	iobench_print_scale(&pd->scale, "paralleldd", &pd->h);
	r = elapsed_table(pd);
	if (!r)
		r = duration_table(pd);
	if (!r)
		r = write_run_info(pd);
	if (r)
		return r;
	for (int m = 0; m < pd->h.nr_modes; m++)
		runs[m] = (struct vmsummary_run){pd->run[m].column, pd->run[m].dir,
						 pd->run[m].clock.elapsed};
	printf("paralleldd vmstat summary\n");
	r = vmsummary_write(runs, (size_t)pd->h.nr_modes, pd->h.results, stdout);
	return r ? r : write_mmtests(pd);
}

static void usage(FILE *to)
{
	fprintf(to,
		"usage: paralleldd [options]\n"
		"  --min-threads N    fewest readers (default 1)\n"
		"  --max-threads N    most readers: the shellpack's list from min to N (default 16,\n"
		"                     the node-lru series' machine: 1 3 5 7 12 16)\n"
		"  --iterations N     runs of each reader count (default 3)\n"
		"  --block N          bytes per read, dd's bs (default 512)\n"
		"  --file-mib N       the source file (default: twice the engine's memory)\n"
		"  --idle-anon-pct N  an anonymous region of N %% of the engine, written once before\n"
		"                     the run and left idle, as other programs' memory (default 0)\n"
		"  --active-file-pct N  a file of N %% of the engine read twice before the run, its\n"
		"                     pages on the active list as a used machine's cache (default 0)\n"
		"  --dir DIR          where the source file is written (default: the results folder)\n"
		"  --source-in-record each mode writes the source file through its engine in --block\n"
		"                     writes and syncs it inside its record, as mmtests does (default:\n"
		"                     written once with write(2) before the modes, outside them)\n"
		"  --engine-scale     the engine's own tunables; by default the series' time scale\n"
		"                     (dma32_pct, watermark_scale_factor, blkdev_mbs: docs/benchmarks.md)\n"
		"%s",
		harness_usage);
}

static int parse_own(void *arg, const char *opt, const char *val)
{
	struct paralleldd *pd = arg;
	char *end;
	long v;

	if (strcmp(opt, "--engine-scale") == 0)
		return pd->scale.engine_scale = 1, 0;
	if (strcmp(opt, "--source-in-record") == 0)
		return pd->source_in_record = 1, 0;
	if (!val)
		return -EINVAL;
	if (strcmp(opt, "--dir") == 0)
		return pd->workdir = val, 1;
	v = strtol(val, &end, 10);
	if (*end || v < 0)
		return -EINVAL;
	if (strcmp(opt, "--min-threads") == 0 && v >= 1 && v <= 1024)
		pd->min_threads = (int)v;
	else if (strcmp(opt, "--max-threads") == 0 && v >= 1 && v <= 1024)
		pd->max_threads = (int)v;
	else if (strcmp(opt, "--iterations") == 0 && v >= 1 && v <= PDD_MAX_ITERATIONS)
		pd->iterations = (int)v;
	else if (strcmp(opt, "--block") == 0 && v >= 1 && v <= (64l << 20))
		pd->block = v;
	else if (strcmp(opt, "--file-mib") == 0 && v >= 1)
		pd->file_mib = v;
	else if (strcmp(opt, "--idle-anon-pct") == 0 && v <= 90)
		pd->idle_anon_pct = v;
	else if (strcmp(opt, "--active-file-pct") == 0 && v <= 90)
		pd->active_file_pct = v;
	else
		return -EINVAL;
	return 1;
}

int main(int argc, char **argv)
{
	static struct paralleldd pd = {
		.min_threads = 1, .max_threads = 16, .iterations = 3, .block = 512};
	const char *dir;
	int r;

	/* 128 MiB: a 256 MiB source file, read 3 times by each of 1 3 5 7 12 16 readers. */
	harness_opts_init(&pd.h, 128);
	pd.h.cpu = -1; /* the readers spread over every CPU, as dd processes do */
	r = harness_parse_args(&pd.h, argc, argv, parse_own, &pd);
	if (!r && (pd.nr_threads = iob_paralleldd_threads(pd.min_threads, pd.max_threads,
							  pd.threads, IOB_MAX_THREAD_COUNTS)) < 0) {
		fprintf(stderr, "paralleldd: --min-threads above --max-threads\n");
		r = -EINVAL;
	}
	if (r) {
		usage(r > 0 ? stdout : stderr);
		return r > 0 ? 0 : 2;
	}
	if (harness_results_dir(&pd.h, "paralleldd", pd.results_buf))
		return 1;
	dir = pd.workdir ? pd.workdir : pd.h.results;
	if (harness_mkdir(dir) || harness_path(pd.src, dir, "source_file"))
		return 1;
	pd.instances = harness_fopen(pd.h.results, "instances.csv", "w");
	if (!pd.instances)
		return 1;
	fputs("column,threads,iteration,instance,elapsed_s,user_s,system_s,mb_s\n", pd.instances);
	harness_bind_cpu(&pd.h);
	for (int m = 0; !r && m < pd.h.nr_modes; m++)
		r = run_mode(&pd, m);
	unlink(pd.src);
	if (fclose(pd.instances) && !r)
		r = -EIO;
	if (!r)
		r = report(&pd);
	if (r)
		fprintf(stderr, "paralleldd: %s\n", strerror(-r));
	return r ? 1 : 0;
}
