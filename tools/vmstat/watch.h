/*
 * watch - sample a live source (a running engine's stats file, or /proc/vmstat) every interval
 * and print what changed, as `vmstat 1` does.  The CSV form is the recording `plot counters`
 * reads.
 */
#ifndef NODELRU_TOOLS_VMSTAT_WATCH_H
#define NODELRU_TOOLS_VMSTAT_WATCH_H

#include <signal.h>
#include <stdio.h>

#include "diag.h"
#include "dump.h"
#include "out.h"

/* Name of the marker row that opens every sample of a CSV recording. */
#define WATCH_SAMPLE_MARK "@sample"

struct watch_opts {
	const char *source; /* file re-read at every sample */
	double interval;    /* seconds between samples, >= 0 */
	long count;         /* intervals to report; <= 0 means until *stop is set */
	enum out_fmt fmt;
	const volatile sig_atomic_t *stop; /* set by a signal handler; may be NULL */
	/*
	 * Waits @seconds; returns 0, or nonzero to stop early.  NULL: nanosleep, cut short by a
	 * signal.  Tests pass a function that rewrites the source instead of sleeping.
	 */
	int (*sleep_fn)(double seconds, void *arg);
	double (*clock_fn)(void *arg); /* monotonic seconds; NULL: CLOCK_MONOTONIC */
	void *arg;
};

/*
 * watch_run - sample until o->count intervals are reported or *o->stop is set.  Returns 0,
 * -EIO when @f can no longer be written (ferror(@f) is then set), or the error of reading the
 * source (dump_load's codes).
 */
int watch_run(const struct watch_opts *o, const struct vm_diag *diag, FILE *f);

#endif /* NODELRU_TOOLS_VMSTAT_WATCH_H */
