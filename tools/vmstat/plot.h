/*
 * plot - charts through gnuplot: counters over time from a `watch --csv` recording, and the
 * stutter latency distribution.  Each chart leaves PREFIX.dat (the data), PREFIX.gp (the
 * script) and PREFIX.png / PREFIX.svg; without gnuplot the first two are still written so the
 * chart can be drawn elsewhere.
 */
#ifndef NODELRU_TOOLS_VMSTAT_PLOT_H
#define NODELRU_TOOLS_VMSTAT_PLOT_H

#include <stdint.h>
#include <stdio.h>

#include "diag.h"
#include "dump.h"
#include "stutter.h"

enum plot_fmt { PLOT_PNG = 1, PLOT_SVG = 2, PLOT_BOTH = 3 };

#define PLOT_MAX_SERIES 16

/* A watch recording, decoded: the sample times and every value row. */
struct plot_change {
	uint32_t sample, counter; /* indexes into times[] and names */
	int64_t value;
	int missing; /* the counter was not in this sample (an empty value field); no value */
};

struct plot_rec {
	double *times; /* per sample, seconds since the first */
	size_t nr_samples;
	struct vm_dump names; /* counter name -> index (the value field holds the index) */
	struct plot_change *ch;
	size_t nr_ch, cap_ch;
	unsigned int nr_malformed;
};

void plot_rec_fini(struct plot_rec *r);

/*
 * plot_rec_parse - decode a `watch --csv` recording (see watch.h).  Malformed rows are
 * reported and skipped.  0, -ENOMEM, or -EBADMSG when it holds no sample.
 */
int plot_rec_parse(struct plot_rec *r, const char *buf, size_t len, const char *path,
		   const struct vm_diag *diag);

/*
 * plot_rec_select - pick the counters to draw: @want (NULL-terminated) if given, else the
 * reclaim counters that changed during the recording, else any that changed.  Writes up to
 * PLOT_MAX_SERIES indexes to @sel and returns how many; -ENOENT names a wanted counter the
 * recording lacks (its name is in *@missing).
 */
int plot_rec_select(const struct plot_rec *r, const char *const *want, uint32_t *sel,
		    const char **missing);

/*
 * plot_counters_write - PREFIX.dat (time, then one column per counter: a rate per second for
 * events, the value for state counters) and PREFIX.gp.  An event's rate is taken from the
 * last value read, over the time since, so a counter missing from some samples ('?' there)
 * gets the change of the whole gap spread over the gap, not put on one interval.
 * 0 or -errno of the writes.
 */
int plot_counters_write(const struct plot_rec *r, const uint32_t *sel, int nsel, const char *prefix,
			enum plot_fmt fmt);

/* plot_stutter_write - PREFIX.dat (latency ms, cumulative %) and PREFIX.gp for @s (sorted). */
int plot_stutter_write(const struct stutter_samples *s, const char *prefix, enum plot_fmt fmt);

/* plot_gp_quote - @s as a gnuplot single-quoted string into @buf (@sz bytes). */
void plot_gp_quote(const char *s, char *buf, size_t sz);

/*
 * plot_find_gnuplot - the gnuplot to run: $NLRU_GNUPLOT if set (so a test can name a missing
 * one), else the first executable "gnuplot" on $PATH.  0 and the path in @buf, or -ENOENT.
 */
int plot_find_gnuplot(char *buf, size_t sz);

/* plot_run - run @gnuplot on PREFIX.gp and wait.  0, -ECHILD if it failed, or -errno. */
int plot_run(const char *gnuplot, const char *prefix);

#endif /* NODELRU_TOOLS_VMSTAT_PLOT_H */
