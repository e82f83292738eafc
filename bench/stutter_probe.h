/*
 * stutter_probe - the mmap-latency program of mmtests' stutter (its C source is inside
 * shellpacks/shellpack-bench-stutter) on the engine: a thread that every 5 ms creates an anonymous
 * region, writes every page of it through the engine (one first-touch fault per page), destroys it,
 * and logs the iteration's time minus the 5 ms sleep by latency_log's grouping rule.
 */
#ifndef NODELRU_BENCH_STUTTER_PROBE_H
#define NODELRU_BENCH_STUTTER_PROBE_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <nodelru/nodelru.h>

#include "latency_log.h"

#define PROBE_FULL_SCALE_PAGES 32768 /* mmtests' NR_MAP_PAGES: 128 MiB */
#define PROBE_ENGINE_SHARE 32        /* the probe maps 1/32 of the engine's pages */
#define PROBE_MIN_PAGES 16

struct stutter_probe {
	struct nlru_engine *eng;
	size_t pages;
	FILE *out; /* mmap-latency.log */
	struct latency_log log;
	pthread_t thread;
	atomic_int stop;
	int flush_open_group; /* latency_log_finish()'s @flush */
	/* Written by the probe thread, read after stutter_probe_stop(). */
	uint64_t iterations;
	uint64_t failed_touches; /* pins that found no memory: that iteration stopped early */
	int err;                 /* a region that could not be created: the probe ended */
};

/*
 * stutter_probe_pages - the probe's size for an engine of @engine_pages pages: one
 * PROBE_ENGINE_SHARE-th of it, at least PROBE_MIN_PAGES, at most mmtests' 32768 (reached by
 * an engine of 4 GiB, the full scale).
 */
size_t stutter_probe_pages(size_t engine_pages);

/*
 * stutter_probe_start - start the thread.  @flush_open_group: log the group of fast samples
 * still open at the stop (mmtests drops it).  0 or -errno of pthread_create.
 */
int stutter_probe_start(struct stutter_probe *p, struct nlru_engine *eng, size_t pages, FILE *out,
			int flush_open_group);

/*
 * stutter_probe_stop - ask the thread to end (mmtests' SIGTERM), wait for it, and close the
 * log's open group as stutter_probe_start() was told.  Returns p->err.
 */
int stutter_probe_stop(struct stutter_probe *p);

#endif /* NODELRU_BENCH_STUTTER_PROBE_H */
