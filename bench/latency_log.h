/*
 * latency_log - the logging rule of mmtests' mmap-latency program (the C source inside
 * shellpacks/shellpack-bench-stutter; docs/benchmarks.md, "The mmtests method"): each
 * probe iteration's time minus the nominal 5 ms sleep, clamped at 0; samples of 5 ms or more
 * are printed alone as "1 <ns>", faster ones averaged in groups of up to 1000 as
 * "<count> <avg_ns>".  Two quirks are kept: a group cut short by a slow sample is printed with
 * that slow sample's latency inside its sum, and a group still open when the probe stops is
 * never printed by mmtests (latency_log_finish() can print it: see there).
 */
#ifndef NODELRU_BENCH_LATENCY_LOG_H
#define NODELRU_BENCH_LATENCY_LOG_H

#include <stdint.h>
#include <stdio.h>

#define LATENCY_DELAY_NS UINT64_C(5000000) /* MSECS_DELAY: the probe's sleep, 5 ms */
#define LATENCY_GROUP 1000                 /* PRINT_THRESHOLD = 5000 / MSECS_DELAY */

struct latency_log {
	FILE *out;
	uint64_t count; /* fast samples in the open group */
	uint64_t sum;   /* their latencies, ns (and a slow one's, just before it is printed) */
	uint64_t slow;  /* samples of LATENCY_DELAY_NS or more, printed alone */
	uint64_t lines; /* lines written */
};

/* latency_log_init - start a log writing to @out. */
void latency_log_init(struct latency_log *l, FILE *out);

/*
 * latency_log_add - one probe iteration that took @loop_ns, sleep included.  Writes a line
 * when a group completes or a slow sample arrives.
 */
void latency_log_add(struct latency_log *l, uint64_t loop_ns);

/*
 * latency_log_finish - the probe stops.  mmtests drops the open group of fast samples; with
 * @flush it is printed like a completed one instead.  A run of mmtests lasts minutes and loses
 * under 1000 of its samples that way; a run here can be shorter than one group, and would lose
 * them all.
 */
void latency_log_finish(struct latency_log *l, int flush);

#endif /* NODELRU_BENCH_LATENCY_LOG_H */
