/*
 * highalloc - the method of mmtests' stress-highalloc (docs/benchmarks.md, "highalloc") on the
 * engine: how many 2 MiB blocks a fragmenting load leaves to be had, with compaction and
 * without it, in both reclaim modes.
 *
 * Per column, on a fresh engine: a load of three threads fills it and keeps running, one
 * writing then reading a file as large as the engine through its page cache, one writing an
 * anonymous region of half the engine page by page, one holding unmovable order-0 pages of
 * nlru_alloc_pages() (1/16 of the engine), each freed and allocated again in turn at random,
 * as a kernel's own allocations scatter among a build's.  Once everything has been written
 * once, three passes each try order-9 movable blocks for 95 % of the engine, one every 125 ms
 * (--percent, --delay-ms), keeping what they get until the pass ends:
 *   pass 1  while the load runs;
 *   pass 2  just after it stopped, its memory still held;
 *   pass 3  at rest: the region and the file given up (the page cache dropped), as mmtests
 *           kills the builds, deletes the trees and drops the caches; the unmovable pages
 *           stay, as a kernel's own memory does.
 * The columns are the modes with compaction on ("4.7-zone", "4.8-node"), then the modes with
 * compaction 0, a kernel without CONFIG_COMPACTION ("4.7-nocompact", "4.8-nocompact").
 * Reported: the success rate of each pass (mmtests' table), the latency of the attempts, the
 * compaction counters of each pass, and the vmstat summary.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <nodelru/nodelru.h>
#include <nodelru/vmstat.h>

#include "bench_util.h"
#include "harness.h"
#include "mmstat.h"
#include "mmtable.h"
#include "mmtests_results.h"
#include "vmsummary.h"

#define HA_MAX_COLS (2 * HARNESS_MAX_MODES)
#define HA_PASSES 3
#define HA_GFP (NLRU_GFP_HIGHUSER_MOVABLE | NLRU_GFP_NOWARN)
#define HA_BLOCK (64 << 10) /* the file thread's reads and writes */

/* The counters of the compaction table, in its row order. */
static const char *const compact_names[] = {
	"compact_stall",        "compact_fail",     "compact_success",   "compact_migrate_scanned",
	"compact_free_scanned", "compact_isolated", "pgmigrate_success", "compact_daemon_wake",
};
#define HA_NR_COUNTERS (sizeof(compact_names) / sizeof(compact_names[0]))

struct pass_result {
	unsigned long attempts, successes;
	double *lat_us; /* one per attempt */
};

struct column {
	char name[32];
	enum nlru_mode mode;
	int compaction;
	char dir[HARNESS_PATH_MAX];
	struct mmt_record clock;
	struct pass_result pass[HA_PASSES];
	double counters[HA_PASSES][HA_NR_COUNTERS]; /* each pass's */
	double warmup_s;
};

struct highalloc {
	struct harness_opts h;
	unsigned int order;
	long delay_ms;
	long percent; /* of the engine's blocks each pass tries */
	unsigned int seed;
	const char *workdir;
	int nr_cols;
	struct column col[HA_MAX_COLS];
	char results_buf[HARNESS_PATH_MAX];
};

/* The load: its threads, what each has done, and the memory it holds. */
struct load {
	struct nlru_engine *eng;
	size_t region_pages, unmovable_pages;
	uint64_t file_bytes;
	char path[HARNESS_PATH_MAX];
	struct nlru_region *region;
	struct nlru_file *file;
	void **unmovable;
	unsigned int seed;
	atomic_bool stop;
	atomic_int filled; /* threads that have written all of their memory once */
	atomic_int error;  /* the first -errno a thread met */
	pthread_t threads[3];
	int nr_threads;
};

static void load_fail(struct load *l, int r)
{
	int zero = 0;

	atomic_compare_exchange_strong(&l->error, &zero, r);
	atomic_store(&l->stop, true);
}

/* Writes the region page by page, round and round (touched, dirty: swap's to take). */
static void *anon_thread(void *p)
{
	struct load *l = p;

	for (int round = 0; !atomic_load(&l->stop); round++) {
		for (size_t i = 0; i < l->region_pages && !atomic_load(&l->stop); i++) {
			void *addr;
			int r = nlru_region_pin(l->region, i, NLRU_PIN_WRITE, &addr);

			if (r == -ENOMEM)
				continue; /* Linux would OOM-kill; the load goes on */
			if (r) {
				load_fail(l, r);
				return NULL;
			}
			*(volatile uint64_t *)addr = i + (uint64_t)round;
			nlru_region_unpin(l->region, i);
		}
		if (!round)
			atomic_fetch_add(&l->filled, 1);
	}
	return NULL;
}

/* Writes the file through the page cache, then reads it back, round and round. */
static void *file_thread(void *p)
{
	struct load *l = p;
	char *buf = calloc(1, HA_BLOCK);

	if (!buf) {
		load_fail(l, -ENOMEM);
		return NULL;
	}
	for (int round = 0; !atomic_load(&l->stop); round++) {
		for (uint64_t off = 0; off < l->file_bytes && !atomic_load(&l->stop);
		     off += HA_BLOCK) {
			long n = round % 2 ? nlru_file_pread(l->file, buf, HA_BLOCK, off)
					   : nlru_file_pwrite(l->file, buf, HA_BLOCK, off);

			if (n == -ENOMEM)
				continue;
			if (n != HA_BLOCK) {
				load_fail(l, n < 0 ? (int)n : -EIO);
				free(buf);
				return NULL;
			}
		}
		if (!round)
			atomic_fetch_add(&l->filled, 1);
	}
	free(buf);
	return NULL;
}

/*
 * Fills its slots with unmovable order-0 pages, then frees one at random and allocates it
 * again, every 50 us: a kernel's own pages, scattered through the engine over time.
 */
static void *unmovable_thread(void *p)
{
	struct load *l = p;
	struct timespec pause = {0, 50 * 1000};
	unsigned int seed = l->seed;
	size_t held = 0;

	while (!atomic_load(&l->stop)) {
		size_t i = held < l->unmovable_pages ? held : (size_t)rand_r(&seed) % held;

		if (i < held) {
			nlru_free_pages(l->eng, l->unmovable[i], 0);
			l->unmovable[i] = NULL;
		}
		if (nlru_alloc_pages(l->eng, NLRU_GFP_KERNEL | NLRU_GFP_NOWARN, 0,
				     NLRU_NUMA_NO_NODE, &l->unmovable[i]) == 0) {
			if (i == held && ++held == l->unmovable_pages)
				atomic_fetch_add(&l->filled, 1);
		} else if (i < held) {
			/* Keep the slots dense: the last one moves into the hole. */
			l->unmovable[i] = l->unmovable[--held];
			l->unmovable[held] = NULL;
		}
		nanosleep(&pause, NULL);
	}
	return NULL;
}

static int load_start(struct load *l, struct highalloc *ha, struct nlru_engine *eng, int col)
{
	size_t pages = (size_t)ha->h.node_mib * (size_t)nlru_engine_nr_nodes(eng) << 8;
	void *(*fn[3])(void *) = {file_thread, anon_thread, unmovable_thread};
	const char *dir = ha->workdir ? ha->workdir : ha->h.results;
	char name[64];
	int r;

	memset(l, 0, sizeof(*l));
	l->eng = eng;
	l->region_pages = pages / 2;
	l->unmovable_pages = pages / 16;
	l->file_bytes = (uint64_t)pages * NLRU_PAGE_SIZE;
	l->seed = ha->seed + (unsigned int)col;
	snprintf(name, sizeof(name), "highalloc-file-%d", col);
	if ((r = harness_path(l->path, dir, name)))
		return r;
	l->unmovable = calloc(l->unmovable_pages, sizeof(*l->unmovable));
	if (!l->unmovable)
		return -ENOMEM;
	r = nlru_region_create(eng, l->region_pages, NLRU_NUMA_NO_NODE, &l->region);
	if (!r)
		r = nlru_file_open(eng, l->path, O_RDWR | O_CREAT | O_TRUNC, 0644,
				   NLRU_NUMA_NO_NODE, &l->file);
	for (int t = 0; !r && t < 3; t++) {
		r = -pthread_create(&l->threads[t], NULL, fn[t], l);
		if (!r)
			l->nr_threads++;
	}
	return r;
}

static int load_stop(struct load *l)
{
	atomic_store(&l->stop, true);
	for (int t = 0; t < l->nr_threads; t++)
		pthread_join(l->threads[t], NULL);
	l->nr_threads = 0;
	return atomic_load(&l->error);
}

/* Pass 3's rest: the region and the file given up, the unmovable pages kept. */
static int load_release_movable(struct load *l)
{
	int r = 0;

	if (l->region && nlru_region_destroy(l->region))
		r = -EBUSY;
	l->region = NULL;
	if (l->file && nlru_file_close(l->file) && !r)
		r = -EIO;
	l->file = NULL;
	unlink(l->path);
	return r;
}

static void load_free(struct load *l)
{
	load_release_movable(l);
	for (size_t i = 0; l->unmovable && i < l->unmovable_pages; i++)
		if (l->unmovable[i])
			nlru_free_pages(l->eng, l->unmovable[i], 0);
	free(l->unmovable);
	l->unmovable = NULL;
}

/* One pass: the attempts, one every delay_ms, each block kept until the pass ends. */
static int run_pass(struct highalloc *ha, struct nlru_engine *eng, struct pass_result *p,
		    unsigned long attempts)
{
	struct timespec pause = {ha->delay_ms / 1000, (ha->delay_ms % 1000) * 1000000};
	void **held = calloc(attempts ? attempts : 1, sizeof(*held));
	int err = 0;

	p->lat_us = calloc(attempts ? attempts : 1, sizeof(*p->lat_us));
	if (!held || !p->lat_us) {
		free(held);
		return -ENOMEM;
	}
	p->attempts = attempts;
	for (unsigned long i = 0; i < attempts; i++) {
		uint64_t t0 = now_ns();
		int r = nlru_alloc_pages(eng, HA_GFP, ha->order, NLRU_NUMA_NO_NODE, &held[i]);

		p->lat_us[i] = (double)(now_ns() - t0) / 1e3;
		if (r == 0) {
			p->successes++;
		} else {
			held[i] = NULL;
			if (r != -ENOMEM) {
				err = r;
				break;
			}
		}
		if (ha->delay_ms)
			nanosleep(&pause, NULL);
	}
	for (unsigned long i = 0; i < attempts; i++)
		if (held[i])
			nlru_free_pages(eng, held[i], ha->order);
	free(held);
	return err;
}

static int read_counters(struct nlru_engine *eng, double *v)
{
	struct nlru_vmstat snap = {.size = sizeof(snap), .version = NLRU_VMSTAT_VERSION};
	int r = nlru_vmstat_read(eng, &snap);

	for (size_t i = 0; !r && i < HA_NR_COUNTERS; i++) {
		int64_t x;

		r = nlru_vmstat_get(&snap, compact_names[i], &x);
		v[i] = (double)x;
	}
	return r;
}

/* Loading, the three passes and the rest between, between the vmstat dumps. */
static int measure(struct highalloc *ha, struct nlru_engine *eng, int c)
{
	struct column *col = &ha->col[c];
	struct timespec tick = {0, 10 * 1000 * 1000};
	unsigned long pages =
		(unsigned long)ha->h.node_mib * (unsigned long)nlru_engine_nr_nodes(eng) << 8;
	unsigned long attempts = (pages >> ha->order) * (unsigned long)ha->percent / 100;
	double snap[HA_PASSES + 1][HA_NR_COUNTERS], t0;
	struct load load;
	int r = harness_dump(eng, col->dir, "before"), r2;

	if (r)
		return r;
	mmt_clock_start(&col->clock);
	t0 = now_s();
	harness_progress(&ha->h, "highalloc: %s loading", col->name);
	r = load_start(&load, ha, eng, c);
	while (!r && atomic_load(&load.filled) < 3 && !atomic_load(&load.stop))
		nanosleep(&tick, NULL);
	col->warmup_s = now_s() - t0;
	/* A pass's counters run from the end of the one before (the load's stop is pass 2's,
	 * its release pass 3's). */
	if (!r)
		r = read_counters(eng, snap[0]);
	harness_progress(&ha->h, "highalloc: %s pass 1, under load", col->name);
	if (!r && !atomic_load(&load.stop))
		r = run_pass(ha, eng, &col->pass[0], attempts);
	if (!r)
		r = read_counters(eng, snap[1]);
	r2 = load_stop(&load);
	r = r ? r : r2;
	harness_progress(&ha->h, "highalloc: %s pass 2, load stopped", col->name);
	if (!r)
		r = run_pass(ha, eng, &col->pass[1], attempts);
	if (!r)
		r = read_counters(eng, snap[2]);
	if (!r)
		r = load_release_movable(&load);
	harness_progress(&ha->h, "highalloc: %s pass 3, at rest", col->name);
	if (!r)
		r = run_pass(ha, eng, &col->pass[2], attempts);
	if (!r)
		r = read_counters(eng, snap[3]);
	for (int p = 0; !r && p < HA_PASSES; p++)
		for (size_t i = 0; i < HA_NR_COUNTERS; i++)
			col->counters[p][i] = snap[p + 1][i] - snap[p][i];
	load_free(&load);
	mmt_clock_stop(&col->clock);
	if (!r)
		r = harness_dump(eng, col->dir, "after");
	harness_progress(&ha->h, NULL);
	return r;
}

static int run_column(struct highalloc *ha, int c)
{
	struct column *col = &ha->col[c];
	const char *extra[] = {col->compaction ? "compaction=1" : "compaction=0", NULL};
	struct nlru_engine *eng;
	int r;

	if ((r = harness_path(col->dir, ha->h.results, col->name)) || (r = harness_mkdir(col->dir)))
		return r;
	if ((r = harness_engine(&ha->h, col->mode, extra, &eng)))
		return r;
	r = measure(ha, eng, c);
	if (nlru_engine_destroy(eng) && !r)
		r = -EBUSY;
	return r;
}

static double success_pct(const struct pass_result *p)
{
	return p->attempts ? 100.0 * (double)p->successes / (double)p->attempts : NAN;
}

static void col_names(const struct highalloc *ha, const char **names)
{
	for (int c = 0; c < ha->nr_cols; c++)
		names[c] = ha->col[c].name;
}

/* mmtests' stress-highalloc table: "Success N", the percentage of each pass. */
static int success_table(struct highalloc *ha)
{
	const char *names[HA_MAX_COLS];
	double v[HA_MAX_COLS];
	struct mm_table t;
	int r = 0;

	col_names(ha, names);
	if (mm_table_init(&t, names, (size_t)ha->nr_cols, 12, 2, 12))
		return -ENOMEM;
	for (int p = 0; !r && p < HA_PASSES; p++) {
		char op[8];

		snprintf(op, sizeof(op), "%d", p + 1);
		for (int c = 0; c < ha->nr_cols; c++)
			v[c] = success_pct(&ha->col[c].pass[p]);
		r = mm_table_add(&t, "Success", op, MM_CMP_PDIFF, v);
	}
	return r ? (mm_table_fini(&t), r)
		 : harness_emit_table(&t, ha->h.results, "highalloc-success",
				      "highalloc success rate (%)");
}

/* The attempts' latency in us, per pass: Min, Amean, Stddev, CoeffVar, Max. */
static int latency_table(struct highalloc *ha)
{
	static const char *const stats[] = {"Min", "Amean", "Stddev", "CoeffVar", "Max"};
	double rows[HA_MAX_COLS][HA_PASSES][NR_MM_MULTIOP_ROWS];
	const char *names[HA_MAX_COLS];
	double v[HA_MAX_COLS];
	struct mm_table t;
	int r = 0;

	for (int c = 0; c < ha->nr_cols; c++)
		for (int p = 0; p < HA_PASSES; p++)
			mm_multiops(ha->col[c].pass[p].lat_us, ha->col[c].pass[p].attempts, 0,
				    rows[c][p]);
	col_names(ha, names);
	if (mm_table_init(&t, names, (size_t)ha->nr_cols, 12, 2, 12))
		return -ENOMEM;
	for (int s = 0; !r && s < NR_MM_MULTIOP_ROWS; s++)
		for (int p = 0; !r && p < HA_PASSES; p++) {
			char op[16];

			snprintf(op, sizeof(op), "latency-%d", p + 1);
			for (int c = 0; c < ha->nr_cols; c++)
				v[c] = rows[c][p][s];
			r = mm_table_add(&t, stats[s], op, MM_CMP_PNDIFF, v);
		}
	return r ? (mm_table_fini(&t), r)
		 : harness_emit_table(&t, ha->h.results, "highalloc-latency",
				      "highalloc order-9 allocation latency (us)");
}

/* The compaction counters of each pass ("compact_stall-1"), plain figures. */
static int counter_table(struct highalloc *ha)
{
	const char *names[HA_MAX_COLS];
	double v[HA_MAX_COLS];
	struct mm_table t;
	int r = 0;

	col_names(ha, names);
	if (mm_table_init(&t, names, (size_t)ha->nr_cols, 12, 0, 12))
		return -ENOMEM;
	mm_table_plain(&t, 12);
	for (size_t i = 0; !r && i < HA_NR_COUNTERS; i++)
		for (int p = 0; !r && p < HA_PASSES; p++) {
			char op[MM_OP_MAX];

			snprintf(op, sizeof(op), "%s-%d", compact_names[i], p + 1);
			for (int c = 0; c < ha->nr_cols; c++)
				v[c] = ha->col[c].counters[p][i];
			r = mm_table_add(&t, "", op, MM_CMP_PNDIFF, v);
		}
	return r ? (mm_table_fini(&t), r)
		 : harness_emit_table(&t, ha->h.results, "highalloc-compaction",
				      "highalloc compaction, per pass");
}

/*
 * mmtests' layout: each column's record and log.txt, the lines ExtractStresshighalloc
 * reads ("Results Pass 1", "Results Pass 2", "while Rested", each followed by "% Success").
 */
static int write_mmtests(const struct highalloc *ha)
{
	static const char *const heads[HA_PASSES] = {
		"HighAlloc Under Load Test Results Pass 1",
		"HighAlloc Under Load Test Results Pass 2",
		"HighAlloc Test Results while Rested",
	};
	const char *root = ha->h.mmtests_root ? ha->h.mmtests_root : ha->h.results;
	int r = 0;

	for (int c = 0; !r && c < ha->nr_cols; c++) {
		const struct column *col = &ha->col[c];
		struct mmt_record rec = col->clock;
		FILE *f = harness_fopen(col->dir, "log.txt", "w");

		if (!f)
			return -EIO;
		fprintf(f, "HighAlloc Reasonable Stress Test %s\n", col->name);
		for (int p = 0; p < HA_PASSES; p++)
			fprintf(f, "\n%s\n%s\nAttempts: %lu\nSuccesses: %lu\n%% Success: %.2f\n",
				heads[p], "----------------------------------------",
				col->pass[p].attempts, col->pass[p].successes,
				success_pct(&col->pass[p]));
		if (fclose(f))
			return -EIO;
		rec.bench = "highalloc";
		rec.column = col->name;
		rec.dir = col->dir;
		r = mmt_write_record(root, &rec, c);
		if (!r)
			r = mmt_link(root, "highalloc", col->name, col->dir);
	}
	return r;
}

static int report(struct highalloc *ha)
{
	struct vmsummary_run runs[HA_MAX_COLS];
	int r;

	printf("highalloc: order %u, %ld%% of the engine's blocks per pass, one every %ld ms; "
	       "the load: a file as large as the engine, a region of half of it, 1/16 of it "
	       "unmovable",
	       ha->order, ha->percent, ha->delay_ms);
	harness_print_user_sets(&ha->h);
	printf("\n\n");
	r = success_table(ha);
	if (!r)
		r = latency_table(ha);
	if (!r)
		r = counter_table(ha);
	if (r)
		return r;
	for (int c = 0; c < ha->nr_cols; c++) {
		char ns[64];

		/* The elapsed time as tests-timestamp has it (%.9f), so that mmtests' summary
		 * read back from there is this one to the last digit. */
		snprintf(ns, sizeof(ns), "%.9f", ha->col[c].clock.elapsed);
		runs[c] = (struct vmsummary_run){ha->col[c].name, ha->col[c].dir, strtod(ns, NULL)};
	}
	printf("highalloc vmstat summary\n");
	r = vmsummary_write(runs, (size_t)ha->nr_cols, ha->h.results, stdout);
	return r ? r : write_mmtests(ha);
}

static int write_run_info(const struct highalloc *ha)
{
	FILE *f = harness_fopen(ha->h.results, "run.json", "w");

	if (!f)
		return -EIO;
	fprintf(f,
		"{\"benchmark\":\"highalloc\",\"node_mib\":%ld,\"order\":%u,\"delay_ms\":%ld,"
		"\"percent\":%ld,\"seed\":%u,\"columns\":[",
		ha->h.node_mib, ha->order, ha->delay_ms, ha->percent, ha->seed);
	for (int c = 0; c < ha->nr_cols; c++) {
		const struct column *col = &ha->col[c];

		fprintf(f,
			"%s{\"column\":\"%s\",\"compaction\":%d,\"loading_s\":%.3f,"
			"\"elapsed_s\":%.3f,\"passes\":[",
			c ? "," : "", col->name, col->compaction, col->warmup_s,
			col->clock.elapsed);
		for (int p = 0; p < HA_PASSES; p++)
			fprintf(f, "%s{\"attempts\":%lu,\"successes\":%lu}", p ? "," : "",
				col->pass[p].attempts, col->pass[p].successes);
		fputs("]}", f);
	}
	fputs("]}\n", f);
	return fclose(f) ? -EIO : 0;
}

static void usage(FILE *to)
{
	fprintf(to,
		"usage: highalloc [options]\n"
		"  --order N      order of the blocks tried (default 9: 2 MiB)\n"
		"  --delay-ms N   pause after each attempt (default 125, as mmtests)\n"
		"  --percent N    share of the engine's blocks each pass tries (default 95)\n"
		"  --seed N       seed of the unmovable pages' churn (default 1)\n"
		"  --dir DIR      where the load's file is written (default: the results folder)\n"
		"%s",
		harness_usage);
}

static int parse_own(void *arg, const char *opt, const char *val)
{
	struct highalloc *ha = arg;
	char *end;
	long v;

	if (!val)
		return -EINVAL;
	if (strcmp(opt, "--dir") == 0)
		return ha->workdir = val, 1;
	v = strtol(val, &end, 10);
	if (*end || v < 0)
		return -EINVAL;
	if (strcmp(opt, "--order") == 0 && v >= 1 && v < NLRU_MAX_ORDER)
		ha->order = (unsigned int)v;
	else if (strcmp(opt, "--delay-ms") == 0 && v <= 10000)
		ha->delay_ms = v;
	else if (strcmp(opt, "--percent") == 0 && v >= 1 && v <= 100)
		ha->percent = v;
	else if (strcmp(opt, "--seed") == 0 && v <= 0x7fffffff)
		ha->seed = (unsigned int)v;
	else
		return -EINVAL;
	return 1;
}

int main(int argc, char **argv)
{
	/* mmtests' config-global-dhp__stress-highalloc-performance: HIGHALLOC_PERCENTAGE=95 and
	 * HIGHALLOC_ALLOC_RATE=16 MB/s, which its script makes a 125 ms delay for 2 MiB. */
	static struct highalloc ha = {.order = 9, .delay_ms = 125, .percent = 95, .seed = 1};
	int r;

	harness_opts_init(&ha.h, 128);
	ha.h.cpu = -1; /* the load's threads must not share the allocating thread's CPU */
	r = harness_parse_args(&ha.h, argc, argv, parse_own, &ha);
	if (r) {
		usage(r > 0 ? stdout : stderr);
		return r > 0 ? 0 : 2;
	}
	if (harness_results_dir(&ha.h, "highalloc", ha.results_buf) ||
	    (ha.workdir && harness_mkdir(ha.workdir)))
		return 1;
	harness_bind_cpu(&ha.h);
	/* Compaction on in every mode, then off in every mode. */
	for (int off = 0; off < 2; off++)
		for (int m = 0; m < ha.h.nr_modes; m++) {
			struct column *col = &ha.col[ha.nr_cols++];

			col->mode = ha.h.modes[m];
			col->compaction = !off;
			/* "4.7-nocompact": the version names the mode. */
			if (off)
				snprintf(col->name, sizeof(col->name), "%s-nocompact",
					 col->mode == NLRU_MODE_ZONE ? "4.7" : "4.8");
			else
				snprintf(col->name, sizeof(col->name), "%s",
					 harness_mode_column(col->mode));
		}
	for (int c = 0; !r && c < ha.nr_cols; c++)
		r = run_column(&ha, c);
	if (!r)
		r = report(&ha);
	if (!r)
		r = write_run_info(&ha);
	for (int c = 0; c < ha.nr_cols; c++)
		for (int p = 0; p < HA_PASSES; p++)
			free(ha.col[c].pass[p].lat_us);
	if (r)
		fprintf(stderr, "highalloc: %s\n", strerror(-r));
	return r ? 1 : 0;
}
