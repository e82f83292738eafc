/*
 * iobench - what the I/O benchmarks paralleldd and tiobench share around their loops: the
 * node-lru series' time scale (series_scale.h) unless --engine-scale, the files written once
 * outside the measured intervals (or through an engine), the optional idle anonymous memory
 * and active file cache standing for the rest of a used machine, the per-thread CPU
 * clock, and the way a table is printed and kept.
 */
#ifndef NODELRU_BENCH_IOBENCH_H
#define NODELRU_BENCH_IOBENCH_H

#include <pthread.h>
#include <stdint.h>

#include <nodelru/nodelru.h>

#include "harness.h"
#include "mmtable.h"
#include "series_scale.h"

struct iobench_scale {
	int engine_scale; /* 1: the engine's own tunables */
	char buf[SERIES_SCALE_SETS][48];
	const char *sets[SERIES_SCALE_SETS + 1];
};

/* The tunables of the series' time scale for @node_mib, or NULL at the engine's own scale. */
const char *const *iobench_scale_sets(struct iobench_scale *s, long node_mib);

/*
 * "<bench> on the node-lru series' time scale: name=value ...", or at the engine's own, then
 * the --set tunables of @h, which are applied after the scale's and override them.
 */
void iobench_print_scale(struct iobench_scale *s, const char *bench, const struct harness_opts *h);

/* The engine's memory, every node's, in bytes. */
uint64_t iobench_engine_bytes(const struct harness_opts *h, struct nlru_engine *eng);

/*
 * iobench_write_file - @path of @bytes, written with plain write(2) (not through an engine)
 * and synced: pseudo-random bytes, as mmtests' create_random_file writes its source files.
 * 0 or -errno.
 */
int iobench_write_file(const char *path, uint64_t bytes);

/*
 * iobench_write_file_engine - the same file written through @eng's page cache in @block-byte
 * writes, then fsync'ed and closed, as mmtests' create_random_file appends with dd and syncs
 * inside the benchmark's record.  0 or -errno.
 */
int iobench_write_file_engine(struct nlru_engine *eng, const char *path, uint64_t bytes,
			      size_t block);

/*
 * The rest of the system's memory, for experiments: an anonymous region of @pct percent of
 * the engine, every page written once, then left alone while the benchmark runs.  NULL in
 * *@out for 0.  0 or -errno.
 */
int iobench_idle_anon(struct nlru_engine *eng, uint64_t engine_bytes, long pct,
		      struct nlru_region **out);

/*
 * The rest of the system's page cache, for experiments: a file of @pct percent of the engine
 * at @path, written outside the engine, opened in @eng and read through twice, so that its
 * pages stand on the active file list as a used machine's cached files do.  The file is
 * unlinked at once (the open file keeps it) and closed by the caller.  NULL in *@out for 0.
 * 0 or -errno.
 */
int iobench_active_file(struct nlru_engine *eng, const char *path, uint64_t engine_bytes, long pct,
			struct nlru_file **out);

/* The calling thread's CPU seconds so far, user and system (RUSAGE_THREAD). */
void iobench_thread_cpu(double *user, double *sys);

/*
 * A start line for threads standing for processes started together: each waits at it until
 * it opens, so that a thread that could not be started delays none of them.
 */
struct iobench_gate {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int open;
};

void iobench_gate_init(struct iobench_gate *g);
void iobench_gate_wait(struct iobench_gate *g);
void iobench_gate_open(struct iobench_gate *g);
void iobench_gate_destroy(struct iobench_gate *g);

#endif /* NODELRU_BENCH_IOBENCH_H */
