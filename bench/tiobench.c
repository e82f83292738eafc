/*
 * tiobench - mmtests' tiobench (shellpacks/shellpack-bench-tiobench with
 * configs/config-global-dhp__io-threaded, running tiobench.pl and tiotest 0.3.3;
 * docs/benchmarks.md, "paralleldd and tiobench") on the engine, one reclaim mode after the
 * other in one process, on engines configured alike, on the node-lru series' time scale (the
 * block device model on).
 *
 * Per mode, between the vmstat dumps: the disk's read speed, as hdparm -t measures it, then
 * for each thread count N (1 2 4 8 16) and each iteration one run of tiotest: N threads, each
 * with a file of its own of 1/N of twice the engine's size, run four tests one after the
 * other, every thread of a test started together and the test timed from their start to the
 * last one's end: a sequential write of the file in 4 KiB writes and its fsync, 4000 / N
 * random 4 KiB writes and an fsync, a sequential read of the file, 4000 / N random reads.  All
 * I/O goes through the engine's page cache.  Each run's report is tiobench.pl's; the table is
 * ExtractTiobench's MB/s, then the duration and the vmstat summary.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
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

#define TIO_MAX_ITERATIONS 100
#define TIO_LAT_SLOW1 2.0      /* LATENCY_STAT1 of tiotest.h, seconds */
#define TIO_LAT_SLOW2 10.0     /* LATENCY_STAT2 */
#define HDPARM_CHUNK (2 << 20) /* hdparm -t reads 2 MiB at a time */

struct tio_mode {
	const char *column;
	char dir[HARNESS_PATH_MAX];
	struct mmt_record clock; /* between the vmstat dumps */
	double read_speed;       /* MB/s, hdparm -t's */
};

struct tiobench {
	struct harness_opts h;
	struct iobench_scale scale;
	int min_threads, max_threads, iterations;
	long block;      /* TIOBENCH_BLOCKSIZE */
	long size_mib;   /* 0: twice the engine's memory (TIOBENCH_SIZE) */
	long random_ops; /* tiobench.pl's --random, for all threads together */
	long idle_anon_pct;
	const char *workdir, *dir;
	uint64_t speed_bytes; /* the file hdparm's measure reads */
	int threads[IOB_MAX_THREAD_COUNTS], nr_threads;
	char speed_file[HARNESS_PATH_MAX];
	struct tio_mode run[HARNESS_MAX_MODES];
	char results_buf[HARNESS_PATH_MAX];
};

/* One tiotest thread: its file and, per test, what tiotest counts. */
struct tio_thread {
	const struct tiobench *tb;
	struct nlru_engine *eng;
	int index, iteration;
	char path[HARNESS_PATH_MAX];
	struct nlru_file *file;
	char *buf;
	uint64_t blocks; /* the file's, of tb->block bytes */
	long random_ops; /* per thread */
	struct iobench_gate *start;
	enum tio_test test;
	int err;
	/* per test */
	uint64_t done[NR_TIO_TESTS];
	double lat_sum[NR_TIO_TESTS], lat_max[NR_TIO_TESTS];
	uint64_t slow1[NR_TIO_TESTS], slow2[NR_TIO_TESTS];
	double user[NR_TIO_TESTS], sys[NR_TIO_TESTS];
};

/*
 * tiotest's offsets: rand_r() % (blocks - 1) blocks.  Seeded from the thread, iteration and
 * test, where tiotest seeds from the clock, so that both modes write and read the same blocks.
 */
static unsigned int test_seed(const struct tio_thread *t)
{
	return (unsigned int)(t->index + 1) * 2654435761u ^
	       (unsigned int)(t->iteration + 1) * 40503u ^ (unsigned int)t->test * 97u;
}

static uint64_t random_block(const struct tio_thread *t, unsigned int *seed)
{
	unsigned long rr = (unsigned long)rand_r(seed);

	return t->blocks > 1 ? rr % (t->blocks - 1) : 0;
}

static void count_call(struct tio_thread *t, double secs)
{
	enum tio_test k = t->test;

	t->done[k]++;
	t->lat_sum[k] += secs;
	if (secs > t->lat_max[k])
		t->lat_max[k] = secs;
	t->slow1[k] += secs > TIO_LAT_SLOW1;
	t->slow2[k] += secs > TIO_LAT_SLOW2;
}

/* One read or write call of tb->block bytes at block @b, timed as tiotest times it. */
static int timed_io(struct tio_thread *t, uint64_t b, int write)
{
	size_t len = (size_t)t->tb->block;
	uint64_t off = b * len;
	double t0 = now_s();
	long n = write ? nlru_file_pwrite(t->file, t->buf, len, off)
		       : nlru_file_pread(t->file, t->buf, len, off);

	if (n != (long)len)
		return n < 0 ? (int)n : -EIO;
	count_call(t, now_s() - t0);
	return 0;
}

/*
 * The four tests of tiotest.  The file is opened (and truncated) by the write test and stays
 * open until the run ends: tiotest closes and reopens it between tests, which leaves a
 * kernel's page cache as it is, where closing an engine file drops its pages.
 */
static int run_test(struct tio_thread *t)
{
	unsigned int seed = test_seed(t);
	int r = 0;

	switch (t->test) {
	case TIO_WRITE:
		r = nlru_file_open(t->eng, t->path, O_RDWR | O_CREAT | O_TRUNC, 0600,
				   NLRU_NUMA_NO_NODE, &t->file);
		for (uint64_t b = 0; !r && b < t->blocks; b++)
			r = timed_io(t, b, 1);
		return r ? r : nlru_file_fsync(t->file);
	case TIO_RWRITE:
		for (long i = 0; !r && i < t->random_ops; i++)
			r = timed_io(t, random_block(t, &seed), 1);
		return r ? r : nlru_file_fsync(t->file);
	case TIO_READ:
		for (uint64_t b = 0; !r && b < t->blocks; b++)
			r = timed_io(t, b, 0);
		return r;
	case TIO_RREAD:
		for (long i = 0; !r && i < t->random_ops; i++)
			r = timed_io(t, random_block(t, &seed), 0);
		return r;
	default:
		return -EINVAL;
	}
}

static void *thread_main(void *arg)
{
	struct tio_thread *t = arg;
	double u0, s0;

	iobench_gate_wait(t->start);
	if (t->err || (t->test != TIO_WRITE && !t->file))
		return NULL;
	iobench_thread_cpu(&u0, &s0);
	t->err = run_test(t);
	iobench_thread_cpu(&t->user[t->test], &t->sys[t->test]);
	t->user[t->test] -= u0;
	t->sys[t->test] -= s0;
	return NULL;
}

/*
 * One test of every thread: the threads started, released together, joined; the test's time
 * is from the release to the last join, as tiotest's do_test() times it.
 */
static int run_threads(struct tio_thread *th, int nr, enum tio_test test, double *secs)
{
	pthread_t *tid = calloc((size_t)nr, sizeof(*tid));
	struct iobench_gate start;
	int r = tid ? 0 : -ENOMEM, started = 0;
	double t0;

	if (r)
		return r;
	iobench_gate_init(&start);
	for (; !r && started < nr; started++) {
		th[started].test = test;
		th[started].start = &start;
		r = -pthread_create(&tid[started], NULL, thread_main, &th[started]);
	}
	if (r)
		started--;
	t0 = now_s();
	iobench_gate_open(&start);
	for (int i = 0; i < started; i++)
		pthread_join(tid[i], NULL);
	*secs = now_s() - t0;
	iobench_gate_destroy(&start);
	free(tid);
	for (int i = 0; !r && i < nr; i++)
		r = th[i].err;
	return r;
}

/* tiotest -T's figures of one test over every thread. */
static void figures(const struct tio_thread *th, int nr, enum tio_test k, double secs, long block,
		    struct tio_figures *f)
{
	double calls = 0, slow1 = 0, slow2 = 0, max = 0, sum = 0;

	memset(f, 0, sizeof(*f));
	for (int i = 0; i < nr; i++) {
		f->mbytes += (double)th[i].done[k] * (double)block / (1 << 20);
		f->utime += th[i].user[k];
		f->stime += th[i].sys[k];
		calls += (double)th[i].done[k];
		slow1 += (double)th[i].slow1[k];
		slow2 += (double)th[i].slow2[k];
		sum += th[i].lat_sum[k];
		if (th[i].lat_max[k] > max)
			max = th[i].lat_max[k];
	}
	f->time = secs;
	f->avglat = calls > 0 ? sum / calls * 1000 : 0;
	f->maxlat = max * 1000;
	f->pct_gt_2s = calls > 0 ? slow1 * 100 / calls : 0;
	f->pct_gt_10s = calls > 0 ? slow2 * 100 / calls : 0;
}

/* The size tiobench.pl is given, in MB: TIOBENCH_SIZE / 1048576. */
static long size_mb(const struct tiobench *tb, struct nlru_engine *eng)
{
	return tb->size_mib ? tb->size_mib : (long)(2 * iobench_engine_bytes(&tb->h, eng) >> 20);
}

/* One tiobench.pl run of tiotest with @nr threads, its report in tiobench-<nr>-<it>.log. */
static int tiotest(struct tiobench *tb, struct nlru_engine *eng, struct tio_mode *run, int nr,
		   int it)
{
	static const enum tio_test order[] = {TIO_WRITE, TIO_RWRITE, TIO_READ, TIO_RREAD};
	struct tio_thread *th = calloc((size_t)nr, sizeof(*th));
	struct tio_figures fig[NR_TIO_TESTS];
	long size = size_mb(tb, eng), thread_mb = size / nr > 0 ? size / nr : 1;
	long rand_ops = tb->random_ops / nr;
	char name[64];
	FILE *log;
	int r = th ? 0 : -ENOMEM;

	for (int i = 0; !r && i < nr; i++) {
		th[i] = (struct tio_thread){.tb = tb, .eng = eng, .index = i, .iteration = it};
		th[i].blocks = ((uint64_t)thread_mb << 20) / (uint64_t)tb->block;
		th[i].random_ops = rand_ops;
		snprintf(name, sizeof(name), "_%d_tiotest.%d", (int)getpid(), i);
		r = harness_path(th[i].path, tb->dir, name);
		if (!r && !(th[i].buf = malloc((size_t)tb->block)))
			r = -ENOMEM;
	}
	for (int k = 0; !r && k < NR_TIO_TESTS; k++) {
		double secs = 0;

		r = run_threads(th, nr, order[k], &secs);
		figures(th, nr, order[k], secs, tb->block, &fig[order[k]]);
	}
	/* tiotest's cleanup: the files closed and removed. */
	for (int i = 0; th && i < nr; i++) {
		if (th[i].file && nlru_file_close(th[i].file) && !r)
			r = -EIO;
		if (th[i].file)
			unlink(th[i].path);
		free(th[i].buf);
	}
	free(th);
	if (r)
		return r;
	snprintf(name, sizeof(name), "tiobench-%d-%d.log", nr, it + 1);
	if (!(log = harness_fopen(run->dir, name, "w")))
		return -EIO;
	fprintf(log, "Run #1: tiotest -t %d -f %ld -r %ld -b %ld -d %s -T\n", nr, thread_mb,
		rand_ops, tb->block, tb->dir);
	tio_report_write(log, run->column, size, tb->block, nr, fig);
	return fclose(log) ? -EIO : 0;
}

/*
 * hdparm -t: "Timing buffered disk reads", MB/s of a cold sequential read in 2 MiB reads, of
 * a file written for it (half the engine, so no reclaim runs) through the engine's cache.
 */
static int read_speed(struct tiobench *tb, struct nlru_engine *eng, struct tio_mode *run)
{
	char *buf = malloc(HDPARM_CHUNK);
	struct nlru_file *f;
	double t0;
	FILE *out;
	int r = buf ? nlru_file_open(eng, tb->speed_file, O_RDONLY, 0, NLRU_NUMA_NO_NODE, &f)
		    : -ENOMEM;

	if (r) {
		free(buf);
		return r;
	}
	t0 = now_s();
	for (uint64_t off = 0; !r && off < tb->speed_bytes; off += HDPARM_CHUNK) {
		long n = nlru_file_pread(f, buf, HDPARM_CHUNK, off);

		r = n > 0 ? 0 : n < 0 ? (int)n : -EIO;
	}
	run->read_speed = (double)(tb->speed_bytes >> 20) / (now_s() - t0);
	if (nlru_file_close(f) && !r)
		r = -EIO;
	free(buf);
	if (r || !(out = harness_fopen(run->dir, "disk-read.speed", "w")))
		return r ? r : -EIO;
	fprintf(out, "%.2f\n", run->read_speed);
	return fclose(out) ? -EIO : 0;
}

static int measure_mode(struct tiobench *tb, struct nlru_engine *eng, struct tio_mode *run)
{
	int r = harness_dump(eng, run->dir, "before");

	mmt_clock_start(&run->clock);
	harness_progress(&tb->h, "tiobench: %s disk read speed", run->column);
	if (!r)
		r = read_speed(tb, eng, run);
	for (int k = 0; !r && k < tb->nr_threads; k++)
		for (int it = 0; !r && it < tb->iterations; it++) {
			harness_progress(&tb->h, "tiobench: %s %d threads, iteration %d/%d",
					 run->column, tb->threads[k], it + 1, tb->iterations);
			r = tiotest(tb, eng, run, tb->threads[k], it);
		}
	mmt_clock_stop(&run->clock);
	if (!r)
		r = harness_dump(eng, run->dir, "after");
	harness_progress(&tb->h, NULL);
	return r;
}

static int run_mode(struct tiobench *tb, int m)
{
	enum nlru_mode mode = tb->h.modes[m];
	struct tio_mode *run = &tb->run[m];
	struct nlru_region *idle = NULL;
	struct nlru_engine *eng;
	int r;

	run->column = harness_mode_column(mode);
	if ((r = harness_path(run->dir, tb->h.results, run->column)) ||
	    (r = harness_mkdir(run->dir)))
		return r;
	r = harness_engine(&tb->h, mode, iobench_scale_sets(&tb->scale, tb->h.node_mib), &eng);
	if (r)
		return r;
	if (!tb->speed_bytes) {
		/* Written once, outside the engines, for every mode. */
		tb->speed_bytes = iobench_engine_bytes(&tb->h, eng) / 2;
		r = iobench_write_file(tb->speed_file, tb->speed_bytes);
	}
	if (!r)
		r = iobench_idle_anon(eng, iobench_engine_bytes(&tb->h, eng), tb->idle_anon_pct,
				      &idle);
	if (!r)
		r = measure_mode(tb, eng, run);
	if (idle && nlru_region_destroy(idle) && !r)
		r = -EBUSY;
	if (nlru_engine_destroy(eng) && !r)
		r = -EBUSY;
	return r;
}

static void column_names(const struct tiobench *tb, const char **names)
{
	for (int m = 0; m < tb->h.nr_modes; m++)
		names[m] = tb->run[m].column;
}

/*
 * ExtractTiobench and CompareTiobench: MB/s, Hmean, pdiff on every row, fields of 12 with 2
 * decimals under headers of Extract.pm's 18.
 */
static int throughput_table(struct tiobench *tb)
{
	struct iob_ops ops[HARNESS_MAX_MODES] = {{0}};
	const char *names[HARNESS_MAX_MODES];
	struct mm_table t;
	int r = 0;

	for (int m = 0; !r && m < tb->h.nr_modes; m++)
		if ((r = iob_tiobench_extract(tb->run[m].dir, &ops[m])))
			fprintf(stderr, "%s: no tiobench logs (%s)\n", tb->run[m].dir,
				strerror(-r));
	column_names(tb, names);
	if (!r && mm_table_init(&t, names, (size_t)tb->h.nr_modes, 12, 2, 18))
		r = -ENOMEM;
	if (!r && (r = iob_fill_table(&t, ops, (size_t)tb->h.nr_modes, 1, MM_CMP_PDIFF)))
		mm_table_fini(&t);
	for (int m = 0; m < tb->h.nr_modes; m++)
		iob_ops_fini(&ops[m]);
	return r ? r
		 : harness_emit_table(&t, tb->h.results, "tiobench-throughput",
				      "tiobench Throughput (MB/s)");
}

static int duration_table(struct tiobench *tb)
{
	const char *names[HARNESS_MAX_MODES];
	struct mmt_record recs[HARNESS_MAX_MODES];
	struct mm_table t;
	int r;

	column_names(tb, names);
	for (int m = 0; m < tb->h.nr_modes; m++)
		recs[m] = tb->run[m].clock;
	r = mmt_duration_table(&t, names, recs, (size_t)tb->h.nr_modes);
	return r ? r
		 : harness_emit_table(&t, tb->h.results, "tiobench-duration",
				      "tiobench duration (CPU and wall seconds)");
}

static int write_run_info(const struct tiobench *tb)
{
	FILE *f = harness_fopen(tb->h.results, "run.json", "w");

	if (!f)
		return -EIO;
	fprintf(f, "{\"benchmark\":\"tiobench\",\"node_mib\":%ld,\"topology\":", tb->h.node_mib);
	out_json_str(f, tb->h.topology ? tb->h.topology : "");
	fprintf(f,
		",\"engine_scale\":%d,\"size_mib\":%ld,\"block_bytes\":%ld,\"random_ops\":%ld,"
		"\"iterations\":%d,\"idle_anon_pct\":%ld,\"read_speed_mib\":%" PRIu64
		",\"threads\":[",
		tb->scale.engine_scale, tb->size_mib, tb->block, tb->random_ops, tb->iterations,
		tb->idle_anon_pct, tb->speed_bytes >> 20);
	for (int k = 0; k < tb->nr_threads; k++)
		fprintf(f, "%s%d", k ? "," : "", tb->threads[k]);
	fputs("],\"modes\":[", f);
	for (int m = 0; m < tb->h.nr_modes; m++)
		fprintf(f,
			"%s{\"column\":\"%s\",\"elapsed_s\":%.9f,\"user_s\":%.6f,"
			"\"system_s\":%.6f,\"read_speed_mbs\":%.3f}",
			m ? "," : "", tb->run[m].column, tb->run[m].clock.elapsed,
			tb->run[m].clock.user, tb->run[m].clock.sys, tb->run[m].read_speed);
	fputs("]}\n", f);
	return fclose(f) ? -EIO : 0;
}

static int write_mmtests(const struct tiobench *tb)
{
	const char *root = tb->h.mmtests_root ? tb->h.mmtests_root : tb->h.results;
	int r = 0;

	for (int m = 0; !r && m < tb->h.nr_modes; m++) {
		struct mmt_record rec = tb->run[m].clock;

		rec.bench = "tiobench";
		rec.column = tb->run[m].column;
		rec.dir = tb->run[m].dir;
		r = mmt_write_record(root, &rec, m);
		if (!r)
			r = mmt_link(root, "tiobench", tb->run[m].column, tb->run[m].dir);
	}
	return r;
}

static int report(struct tiobench *tb)
{
	struct vmsummary_run runs[HARNESS_MAX_MODES];
	int r;

	iobench_print_scale(&tb->scale, "tiobench", &tb->h);
	r = throughput_table(tb);
	if (!r)
		r = duration_table(tb);
	if (!r)
		r = write_run_info(tb);
	if (r)
		return r;
	for (int m = 0; m < tb->h.nr_modes; m++)
		runs[m] = (struct vmsummary_run){tb->run[m].column, tb->run[m].dir,
						 tb->run[m].clock.elapsed};
	printf("tiobench vmstat summary\n");
	r = vmsummary_write(runs, (size_t)tb->h.nr_modes, tb->h.results, stdout);
	return r ? r : write_mmtests(tb);
}

static void usage(FILE *to)
{
	fprintf(to,
		"usage: tiobench [options]\n"
		"  --min-threads N    fewest threads (default 1)\n"
		"  --max-threads N    most threads: min, doubling, and N (default 16: 1 2 4 8 16)\n"
		"  --iterations N     runs of each thread count (default 3)\n"
		"  --size-mib N       all threads' files together (default: twice the engine's "
		"memory)\n"
		"  --block N          bytes per read and write (default 4096)\n"
		"  --random N         random reads, and writes, of all threads (default 4000)\n"
		"  --idle-anon-pct N  an anonymous region of N %% of the engine, written once before\n"
		"                     the run and left idle, as other programs' memory (default 0)\n"
		"  --dir DIR          where the files are written (default: the results folder)\n"
		"  --engine-scale     the engine's own tunables; by default the series' time scale\n"
		"                     (dma32_pct, watermark_scale_factor, blkdev_mbs: docs/benchmarks.md)\n"
		"%s",
		harness_usage);
}

static int parse_own(void *arg, const char *opt, const char *val)
{
	struct tiobench *tb = arg;
	char *end;
	long v;

	if (strcmp(opt, "--engine-scale") == 0)
		return tb->scale.engine_scale = 1, 0;
	if (!val)
		return -EINVAL;
	if (strcmp(opt, "--dir") == 0)
		return tb->workdir = val, 1;
	v = strtol(val, &end, 10);
	if (*end || v < 0)
		return -EINVAL;
	if (strcmp(opt, "--min-threads") == 0 && v >= 1 && v <= 1024)
		tb->min_threads = (int)v;
	else if (strcmp(opt, "--max-threads") == 0 && v >= 1 && v <= 1024)
		tb->max_threads = (int)v;
	else if (strcmp(opt, "--iterations") == 0 && v >= 1 && v <= TIO_MAX_ITERATIONS)
		tb->iterations = (int)v;
	else if (strcmp(opt, "--size-mib") == 0 && v >= 1)
		tb->size_mib = v;
	else if (strcmp(opt, "--block") == 0 && v >= 512 && v <= (16l << 20))
		tb->block = v;
	else if (strcmp(opt, "--random") == 0 && v >= 1)
		tb->random_ops = v;
	else if (strcmp(opt, "--idle-anon-pct") == 0 && v <= 90)
		tb->idle_anon_pct = v;
	else
		return -EINVAL;
	return 1;
}

int main(int argc, char **argv)
{
	static struct tiobench tb = {.min_threads = 1,
				     .max_threads = 16,
				     .iterations = 3,
				     .block = 4096,
				     .random_ops = 4000};
	int r;

	/* 128 MiB: 256 MiB of files per run, 15 runs per mode. */
	harness_opts_init(&tb.h, 128);
	tb.h.cpu = -1; /* the threads spread over every CPU */
	r = harness_parse_args(&tb.h, argc, argv, parse_own, &tb);
	if (!r && (tb.nr_threads = iob_tiobench_threads(tb.min_threads, tb.max_threads, tb.threads,
							IOB_MAX_THREAD_COUNTS)) < 0) {
		fprintf(stderr, "tiobench: --min-threads above --max-threads\n");
		r = -EINVAL;
	}
	if (r) {
		usage(r > 0 ? stdout : stderr);
		return r > 0 ? 0 : 2;
	}
	if (harness_results_dir(&tb.h, "tiobench", tb.results_buf))
		return 1;
	tb.dir = tb.workdir ? tb.workdir : tb.h.results;
	if (harness_mkdir(tb.dir) || harness_path(tb.speed_file, tb.dir, "disk-read-file"))
		return 1;
	harness_bind_cpu(&tb.h);
	for (int m = 0; !r && m < tb.h.nr_modes; m++)
		r = run_mode(&tb, m);
	unlink(tb.speed_file);
	if (!r)
		r = report(&tb);
	if (r)
		fprintf(stderr, "tiobench: %s\n", strerror(-r));
	return r ? 1 : 0;
}
