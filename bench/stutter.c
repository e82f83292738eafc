/*
 * stutter - mmtests' stutter (shellpacks/shellpack-bench-stutter; docs/benchmarks.md, "The
 * mmtests method") on the engine, one reclaim mode after the other in one process, on engines
 * configured alike.  Per mode: the write-speed calibration
 * through the engine's page cache; then, while the latency probe (stutter_probe.c) runs, five
 * times: an anonymous hog of three quarters of the engine touched page by page and held,
 * and a copy of a file twice the engine's size through the engine's page cache, synced.
 *
 * The primary figure is the probe's latency, summarised as mmtests does; the write speed,
 * the copy throughput and the vmstat summary follow it.  Deliberate differences from mmtests
 * are listed in docs/benchmarks.md.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <nodelru/nodelru.h>

#include "bench_util.h"
#include "harness.h"
#include "mmstat.h"
#include "mmtable.h"
#include "mmtests_results.h"
#include "out.h"
#include "series_scale.h"
#include "stutter.h"
#include "stutter_probe.h"
#include "vmsummary.h"

#define ST_MAX_ITERATIONS 100
#define MIB (1024.0 * 1024.0)

struct mode_run {
	const char *column;
	char dir[HARNESS_PATH_MAX];
	double elapsed;          /* wall time between the vmstat dumps */
	struct mmt_record clock; /* the same interval, for mmtests' tests-timestamp */
	double calibrate_s;      /* the calibration write, synced */
	double copy_s[ST_MAX_ITERATIONS];
	uint64_t probes, failed_touches, hog_failed;
	struct stutter_stats lat;
};

struct stutter {
	struct harness_opts h;
	int iterations;
	long block;          /* STUTTER_BLOCKSIZE: bytes per read and write */
	long settle_ms;      /* how long the hog is held before the copy (mmtests: 10 s) */
	long calibrate_mib;  /* 0: the copy's size, at most mmtests' 1 GiB */
	long probe_pages;    /* 0: stutter_probe_pages() of the engine */
	const char *workdir; /* where the copied files live; default: the results folder */
	int drop_open_group; /* mmtests' loss of the probe's last, unfinished group */
	int engine_scale;    /* 1: the engine's own tunables, not the series' time scale */
	uint64_t file_bytes; /* DD_FILESIZE: twice the engine's memory */
	size_t hog_pages, probe;
	char src[HARNESS_PATH_MAX], dst[HARNESS_PATH_MAX], cal[HARNESS_PATH_MAX];
	char *buf;
	struct mode_run run[HARNESS_MAX_MODES];
	char results_buf[HARNESS_PATH_MAX];
};

/* Writes @bytes of zeroes to @f in blocks, then syncs: dd ... conv=fdatasync. */
static int write_zeroes(struct stutter *st, struct nlru_file *f, uint64_t bytes)
{
	memset(st->buf, 0, (size_t)st->block);
	for (uint64_t off = 0; off < bytes; off += (uint64_t)st->block) {
		size_t n = bytes - off < (uint64_t)st->block ? (size_t)(bytes - off)
							     : (size_t)st->block;
		long w = nlru_file_pwrite(f, st->buf, n, off);

		if (w != (long)n)
			return w < 0 ? (int)w : -EIO;
	}
	return nlru_file_fsync(f);
}

static int calibrate(struct stutter *st, struct nlru_engine *eng, double *secs)
{
	uint64_t bytes = (uint64_t)st->calibrate_mib << 20;
	double t0 = now_s();
	struct nlru_file *f;
	int r = nlru_file_open(eng, st->cal, O_RDWR | O_CREAT | O_TRUNC, 0644, NLRU_NUMA_NO_NODE,
			       &f);

	if (r)
		return r;
	r = write_zeroes(st, f, bytes);
	if (nlru_file_close(f) && !r)
		r = -EIO;
	*secs = now_s() - t0;
	unlink(st->cal);
	return r;
}

/* cp <source> <dest>; sync.  Through the engine's page cache both ways. */
static int copy_file(struct stutter *st, struct nlru_engine *eng, double *secs)
{
	double t0 = now_s();
	struct nlru_file *in, *out;
	int r = nlru_file_open(eng, st->src, O_RDONLY, 0, NLRU_NUMA_NO_NODE, &in);

	if (r)
		return r;
	r = nlru_file_open(eng, st->dst, O_RDWR | O_CREAT | O_TRUNC, 0644, NLRU_NUMA_NO_NODE, &out);
	if (r) {
		nlru_file_close(in);
		return r;
	}
	for (uint64_t off = 0; !r && off < st->file_bytes;) {
		long n = nlru_file_pread(in, st->buf, (size_t)st->block, off);

		if (n <= 0)
			r = n < 0 ? (int)n : -EIO;
		else if (nlru_file_pwrite(out, st->buf, (size_t)n, off) != n)
			r = -EIO;
		off += n > 0 ? (uint64_t)n : 0;
	}
	if (!r)
		r = nlru_file_fsync(out);
	if (nlru_file_close(out) && !r)
		r = -EIO;
	if (nlru_file_close(in) && !r)
		r = -EIO;
	*secs = now_s() - t0;
	return r;
}

/* The memhog: every page written once through the engine, then held (left resident). */
static int hog_start(struct stutter *st, struct nlru_engine *eng, struct nlru_region **out,
		     uint64_t *failed)
{
	int r = nlru_region_create(eng, st->hog_pages, NLRU_NUMA_NO_NODE, out);

	for (size_t i = 0; !r && i < st->hog_pages; i++) {
		void *addr;

		if (nlru_region_pin(*out, i, NLRU_PIN_WRITE, &addr)) {
			/* Linux would OOM-kill the hog and mmtests restart it; count it instead. */
			(*failed)++;
			continue;
		}
		*(volatile unsigned long *)addr = (unsigned long)addr;
		nlru_region_unpin(*out, i);
	}
	return r;
}

static int iterate(struct stutter *st, struct nlru_engine *eng, struct mode_run *run, int it)
{
	struct timespec settle = {st->settle_ms / 1000, (st->settle_ms % 1000) * 1000000};
	struct nlru_region *hog;
	int r;

	harness_progress(&st->h, "stutter: %s iteration %d/%d: hog", run->column, it + 1,
			 st->iterations);
	r = hog_start(st, eng, &hog, &run->hog_failed);
	if (r)
		return r;
	nanosleep(&settle, NULL);
	harness_progress(&st->h, "stutter: %s iteration %d/%d: copy", run->column, it + 1,
			 st->iterations);
	r = copy_file(st, eng, &run->copy_s[it]);
	if (nlru_region_destroy(hog) && !r)
		r = -EBUSY;
	return r;
}

/* Calibration, then the iterations under the probe; between the vmstat dumps. */
static int measure_mode(struct stutter *st, struct nlru_engine *eng, struct mode_run *run)
{
	struct stutter_probe probe;
	FILE *log = harness_fopen(run->dir, "mmap-latency.log", "w");
	int r = log ? 0 : -EIO, r2;

	if (!r)
		r = harness_dump(eng, run->dir, "before");
	mmt_clock_start(&run->clock);
	harness_progress(&st->h, "stutter: %s calibration", run->column);
	if (!r)
		r = calibrate(st, eng, &run->calibrate_s);
	if (!r)
		r = stutter_probe_start(&probe, eng, st->probe, log, !st->drop_open_group);
	if (r) {
		if (log)
			fclose(log);
		return r;
	}
	for (int it = 0; !r && it < st->iterations; it++)
		r = iterate(st, eng, run, it);
	r2 = stutter_probe_stop(&probe);
	run->probes = probe.iterations;
	run->failed_touches = probe.failed_touches;
	mmt_clock_stop(&run->clock);
	run->elapsed = run->clock.elapsed;
	if (!r)
		r = r2 ? r2 : harness_dump(eng, run->dir, "after");
	if (fclose(log) && !r)
		r = -EIO;
	harness_progress(&st->h, NULL);
	return r;
}

/* The source file, written once with plain write(2) and shared by every mode. */
static int make_source(struct stutter *st)
{
	int fd = open(st->src, O_WRONLY | O_CREAT | O_TRUNC, 0644), r = 0;

	if (fd < 0)
		return -errno;
	memset(st->buf, 0, (size_t)st->block);
	for (uint64_t off = 0; !r && off < st->file_bytes; off += (uint64_t)st->block)
		if (pwrite(fd, st->buf, (size_t)st->block, (off_t)off) != st->block)
			r = -EIO;
	if (!r && fdatasync(fd))
		r = -errno;
	close(fd);
	return r;
}

/* Sizes follow the engine: the first engine made fixes them for every mode. */
static int size_from(struct stutter *st, struct nlru_engine *eng)
{
	uint64_t bytes = (uint64_t)st->h.node_mib * (uint64_t)nlru_engine_nr_nodes(eng) << 20;
	uint64_t hog = (bytes * 3 / 4) & ~(uint64_t)((1 << 20) - 1);

	if (st->file_bytes)
		return 0;
	st->file_bytes = 2 * bytes;
	st->hog_pages = (size_t)(hog / NLRU_PAGE_SIZE);
	st->probe = st->probe_pages ? (size_t)st->probe_pages
				    : stutter_probe_pages((size_t)(bytes / NLRU_PAGE_SIZE));
	if (!st->calibrate_mib)
		st->calibrate_mib =
			st->file_bytes >> 20 < 1024 ? (long)(st->file_bytes >> 20) : 1024;
	harness_progress(&st->h, "stutter: writing the %" PRIu64 " MiB source file",
			 st->file_bytes >> 20);
	return make_source(st);
}

/* The series' time scale (series_scale.h) unless --engine-scale; the user's --set comes after. */
static const char *const *series_sets(struct stutter *st)
{
	static char buf[SERIES_SCALE_SETS][48];
	static const char *sets[SERIES_SCALE_SETS + 1];

	if (st->engine_scale)
		return NULL;
	series_scale_tunables(st->h.node_mib, buf, sets);
	return sets;
}

static int run_mode(struct stutter *st, int m)
{
	enum nlru_mode mode = st->h.modes[m];
	struct mode_run *run = &st->run[m];
	struct nlru_engine *eng;
	int r;

	run->column = harness_mode_column(mode);
	if ((r = harness_path(run->dir, st->h.results, run->column)) ||
	    (r = harness_mkdir(run->dir)))
		return r;
	if ((r = harness_engine(&st->h, mode, series_sets(st), &eng)))
		return r;
	r = size_from(st, eng);
	if (!r)
		r = measure_mode(st, eng, run);
	if (nlru_engine_destroy(eng) && !r)
		r = -EBUSY;
	return r;
}

static void column_names(const struct stutter *st, const char **names)
{
	for (int m = 0; m < st->h.nr_modes; m++)
		names[m] = st->run[m].column;
}

/* The main table: mmap latency in ms, rows of mmtests' SummariseVariabletime.pm. */
static int latency_table(struct stutter *st)
{
	const char *names[HARNESS_MAX_MODES];
	double v[HARNESS_MAX_MODES];
	struct mm_table t;
	int r = 0;

	for (int m = 0; !r && m < st->h.nr_modes; m++) {
		struct stutter_samples s = {0};
		char used[HARNESS_PATH_MAX];

		r = stutter_load_dir(&s, st->run[m].dir, NULL, used, sizeof(used));
		if (!r)
			r = stutter_stats(&s, &st->run[m].lat);
		/* A mode with no sample (a short run whose open group was dropped) prints "-"
		 * in its column; the other tables need no latency and still come. */
		if (r == -ENODATA) {
			fprintf(stderr, "%s: no latency samples\n", st->run[m].dir);
			for (int row = 0; row < NR_STUTTER_STATS; row++)
				st->run[m].lat.ms[row] = NAN;
			r = 0;
		} else if (r) {
			fprintf(stderr, "%s: latency samples unreadable (%s)\n", st->run[m].dir,
				strerror(-r));
		}
		stutter_fini(&s);
	}
	column_names(st, names);
	/* CompareStutter: _FieldLength 12 (default), _Precision 4; ExtractStutter's 12. */
	if (r || mm_table_init(&t, names, (size_t)st->h.nr_modes, 12, 4, 12))
		return r ? r : -ENOMEM;
	for (int row = 0; !r && row < NR_STUTTER_STATS; row++) {
		for (int m = 0; m < st->h.nr_modes; m++)
			v[m] = st->run[m].lat.ms[row];
		r = mm_table_add(&t, stutter_stat_names[row], "mmap", MM_CMP_PNDIFF, v);
	}
	return r ? (mm_table_fini(&t), r)
		 : harness_emit_table(&t, st->h.results, "stutter-latency",
				      "stutter (mmap latency, ms)");
}

/*
 * stuttercalibrate: "Write", MB/s of the calibration write, as mmtests prints it: the
 * statistic "Ops" of SummariseSingleops, CompareStuttercalibrate's precision 4 and its pndiff,
 * so a faster write shows as a negative percentage.
 */
static int write_speed_table(struct stutter *st)
{
	const char *names[HARNESS_MAX_MODES];
	double v[HARNESS_MAX_MODES];
	struct mm_table t;
	int r;

	column_names(st, names);
	/* The Extract module's field length is Extract.pm's 18 for DATA_MBYTES_PER_SECOND. */
	if (mm_table_init(&t, names, (size_t)st->h.nr_modes, 12, 4, 18))
		return -ENOMEM;
	for (int m = 0; m < st->h.nr_modes; m++)
		v[m] = st->run[m].calibrate_s > 0
			       ? (double)st->calibrate_mib / st->run[m].calibrate_s
			       : NAN;
	r = mm_table_add(&t, "Ops", "Write", MM_CMP_PNDIFF, v);
	return r ? (mm_table_fini(&t), r)
		 : harness_emit_table(&t, st->h.results, "stutter-write-speed",
				      "stutter estimated write speed (MB/s)");
}

/*
 * stutterthroughput: per iteration file MiB / (seconds + 1), mmtests' "+1" kept; precision 4
 * and pndiff on every row, as CompareStutterthroughput compares.
 */
static int throughput_table(struct stutter *st)
{
	static const char *const stats[] = {"Min", "Hmean", "Stddev", "CoeffVar", "Max"};
	double rows[HARNESS_MAX_MODES][NR_MM_MULTIOP_ROWS], tput[ST_MAX_ITERATIONS];
	const char *names[HARNESS_MAX_MODES];
	double v[HARNESS_MAX_MODES];
	struct mm_table t;
	int r = 0;

	for (int m = 0; m < st->h.nr_modes; m++) {
		for (int it = 0; it < st->iterations; it++)
			tput[it] = (double)(st->file_bytes >> 20) / (st->run[m].copy_s[it] + 1);
		mm_multiops(tput, (size_t)st->iterations, 1, rows[m]);
	}
	column_names(st, names);
	if (mm_table_init(&t, names, (size_t)st->h.nr_modes, 12, 4, 18))
		return -ENOMEM;
	for (int s = 0; !r && s < NR_MM_MULTIOP_ROWS; s++) {
		for (int m = 0; m < st->h.nr_modes; m++)
			v[m] = rows[m][s];
		r = mm_table_add(&t, stats[s], "tput", MM_CMP_PNDIFF, v);
	}
	return r ? (mm_table_fini(&t), r)
		 : harness_emit_table(&t, st->h.results, "stutter-throughput",
				      "stutter parallel write throughput (MB/s)");
}

static int write_run_info(const struct stutter *st)
{
	FILE *f = harness_fopen(st->h.results, "run.json", "w");
	FILE *csv = harness_fopen(st->h.results, "iterations.csv", "w");

	if (!f || !csv) {
		if (f)
			fclose(f);
		return -EIO;
	}
	fprintf(f, "{\"benchmark\":\"stutter\",\"node_mib\":%ld,\"topology\":", st->h.node_mib);
	out_json_str(f, st->h.topology ? st->h.topology : "");
	fprintf(f,
		",\"iterations\":%d,\"file_mib\":%" PRIu64 ",\"hog_pages\":%zu,"
		"\"probe_pages\":%zu,\"block_bytes\":%ld,\"settle_ms\":%ld,\"calibrate_mib\":%ld,"
		"\"modes\":[",
		st->iterations, st->file_bytes >> 20, st->hog_pages, st->probe, st->block,
		st->settle_ms, st->calibrate_mib);
	fputs("column,iteration,copy_s,copy_mbs,tput_mbs\n", csv);
	for (int m = 0; m < st->h.nr_modes; m++) {
		const struct mode_run *run = &st->run[m];

		fprintf(f,
			"%s{\"column\":\"%s\",\"elapsed_s\":%.9f,\"calibrate_s\":%.9f,"
			"\"probes\":%" PRIu64 ",\"latency_samples\":%" PRIu64
			",\"failed_probe_touches\":%" PRIu64 ",\"failed_hog_touches\":%" PRIu64 "}",
			m ? "," : "", run->column, run->elapsed, run->calibrate_s, run->probes,
			run->lat.n, run->failed_touches, run->hog_failed);
		for (int it = 0; it < st->iterations; it++)
			fprintf(csv, "%s,%d,%.9f,%.4f,%.4f\n", run->column, it, run->copy_s[it],
				(double)(st->file_bytes >> 20) / run->copy_s[it],
				(double)(st->file_bytes >> 20) / (run->copy_s[it] + 1));
	}
	fputs("]}\n", f);
	return (fclose(f) | fclose(csv)) ? -EIO : 0;
}

/*
 * mmtests' layout per mode: its vmstat record, and beside its mmap-latency.log the files of
 * the stutter shellpack that the Extract modules read.  calibrate.time holds the time of
 * mmtests' 1 GiB at the speed measured (the calibration writes calibrate_mib), so that
 * ExtractStuttercalibrate's 1024 / seconds is the speed of the table.
 */
static int write_mmtests(const struct stutter *st)
{
	const char *root = st->h.mmtests_root ? st->h.mmtests_root : st->h.results;
	int r = 0;

	for (int m = 0; !r && m < st->h.nr_modes; m++) {
		const struct mode_run *run = &st->run[m];
		struct mmt_record rec = run->clock;
		char name[32];

		rec.bench = "stutter";
		rec.column = run->column;
		rec.dir = run->dir;
		r = mmt_write_record(root, &rec, m);
		if (!r)
			r = mmt_link(root, "stutter", run->column, run->dir);
		if (!r)
			r = mmt_write_time(run->dir, "calibrate.time",
					   run->calibrate_s * 1024.0 / (double)st->calibrate_mib);
		for (int it = 0; !r && it < st->iterations; it++) {
			snprintf(name, sizeof(name), "time.%d", it + 1);
			r = mmt_write_time(run->dir, name, run->copy_s[it]);
		}
		if (!r)
			r = mmt_write_u64(run->dir, "dd.filesize", st->file_bytes);
		if (!r)
			r = mmt_write_u64(run->dir, "dd.blocksize", (uint64_t)st->block);
	}
	return r;
}

/* Which scale the engines ran at, above the tables. */
static void print_scale(struct stutter *st)
{
	const char *const *sets = series_sets(st);

	if (!sets) {
		printf("stutter at the engine's own scale (--engine-scale)");
	} else {
		printf("stutter on the node-lru series' time scale:");
		for (; *sets; sets++)
			printf(" %s", *sets);
	}
	harness_print_user_sets(&st->h);
	printf("\n\n");
}

static int report(struct stutter *st)
{
	struct vmsummary_run runs[HARNESS_MAX_MODES];
	int r;

	print_scale(st);
	r = latency_table(st);

	if (!r)
		r = write_speed_table(st);
	if (!r)
		r = throughput_table(st);
	if (!r)
		r = write_run_info(st);
	if (r)
		return r;
	for (int m = 0; m < st->h.nr_modes; m++)
		runs[m] = (struct vmsummary_run){st->run[m].column, st->run[m].dir,
						 st->run[m].elapsed};
	printf("stutter vmstat summary\n");
	r = vmsummary_write(runs, (size_t)st->h.nr_modes, st->h.results, stdout);
	return r ? r : write_mmtests(st);
}

static void usage(FILE *to)
{
	fprintf(to,
		"usage: stutter [options]\n"
		"  --iterations N     hog + copy rounds per mode (default 5)\n"
		"  --block-kib N      read/write size of the copy (default 2048)\n"
		"  --settle-ms N      how long the hog is held before each copy (default 1000)\n"
		"  --calibrate-mib N  size of the write-speed calibration (default: the copy's, at "
		"most 1024)\n"
		"  --probe-pages N    pages the latency probe maps (default: 1/32 of the engine, "
		"16 to 32768)\n"
		"  --dir DIR          where the copied files are written (default: the results "
		"folder)\n"
		"  --drop-open-group  log as mmtests does: the probe's last group of fast samples, "
		"unfinished at the stop, is lost\n"
		"  --engine-scale     the engine's own tunables; by default the series' time scale: "
		"dma32_pct, watermark_scale_factor and blkdev_mbs set as docs/benchmarks.md says\n"
		"%s",
		harness_usage);
}

static int parse_own(void *arg, const char *opt, const char *val)
{
	struct stutter *st = arg;
	char *end;
	long v;

	if (strcmp(opt, "--drop-open-group") == 0)
		return st->drop_open_group = 1, 0;
	if (strcmp(opt, "--engine-scale") == 0)
		return st->engine_scale = 1, 0;
	if (!val)
		return -EINVAL;
	if (strcmp(opt, "--dir") == 0)
		return st->workdir = val, 1;
	v = strtol(val, &end, 10);
	if (*end || v < 0)
		return -EINVAL;
	if (strcmp(opt, "--iterations") == 0 && v >= 1 && v <= ST_MAX_ITERATIONS)
		st->iterations = (int)v;
	else if (strcmp(opt, "--block-kib") == 0 && v >= 4 && v <= 65536)
		st->block = v << 10;
	else if (strcmp(opt, "--settle-ms") == 0)
		st->settle_ms = v;
	else if (strcmp(opt, "--calibrate-mib") == 0 && v >= 1)
		st->calibrate_mib = v;
	else if (strcmp(opt, "--probe-pages") == 0 && v >= 1)
		st->probe_pages = v;
	else
		return -EINVAL;
	return 1;
}

static int file_paths(struct stutter *st)
{
	const char *dir = st->workdir ? st->workdir : st->h.results;
	int r = harness_mkdir(dir);

	if (!r)
		r = harness_path(st->src, dir, "stutter-source-file");
	if (!r)
		r = harness_path(st->dst, dir, "ddfile");
	if (!r)
		r = harness_path(st->cal, dir, "calibrate-ddfile");
	return r;
}

int main(int argc, char **argv)
{
	static struct stutter st = {.iterations = 5, .block = 2l << 20, .settle_ms = 1000};
	int r;

	/* 128 MiB: a 256 MiB copy and a 96 MiB hog per iteration, a 1024-page probe. */
	harness_opts_init(&st.h, 128);
	st.h.cpu = -1; /* the probe thread must not share the copier's CPU by inheritance */
	r = harness_parse_args(&st.h, argc, argv, parse_own, &st);
	if (r) {
		usage(r > 0 ? stdout : stderr);
		return r > 0 ? 0 : 2;
	}
	if (harness_results_dir(&st.h, "stutter", st.results_buf) || file_paths(&st))
		return 1;
	harness_bind_cpu(&st.h);
	st.buf = malloc((size_t)st.block);
	r = st.buf ? 0 : -ENOMEM;
	for (int m = 0; !r && m < st.h.nr_modes; m++)
		r = run_mode(&st, m);
	unlink(st.src);
	unlink(st.dst);
	if (!r)
		r = report(&st);
	free(st.buf);
	if (r)
		fprintf(stderr, "stutter: %s\n", strerror(-r));
	return r ? 1 : 0;
}
