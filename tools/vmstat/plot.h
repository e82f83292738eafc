/*
 * plot - charts through gnuplot: counters over time from a `watch --csv` recording, the
 * stutter latency distribution, and the charts of a benchmark results folder with every column
 * (reclaim mode, reference) on the same axes.  Each chart leaves PREFIX.dat (the data), PREFIX.gp
 * (the script) and PREFIX.png / PREFIX.svg; without gnuplot the first two are still written so the
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

/* ---- charts of a results folder (plot_results.c) ---- */

#define PLOT_PATH_MAX 4096
#define PLOT_PA_ORDERS 11
#define PLOT_PA_BATCHES 32

/* One column of a results folder: a reclaim mode's or a reference's own folder. */
struct plot_column {
	char name[64]; /* the folder's name: "4.7-zone", "ref-jemalloc" */
	char dir[PLOT_PATH_MAX];
};

/*
 * plot_find_columns - the columns of the results folder @dir that hold one of @files
 * (NULL-ended): @dir itself if it holds one (a column's own folder), else its subfolders
 * that do (a benchmark's results folder), else those of @dir/@bench (./run.sh's results
 * folder).  Up to PLOT_MAX_SERIES in @cols, sorted by name.  Returns how many.
 */
int plot_find_columns(const char *dir, const char *bench, const char *const *files,
		      struct plot_column *cols);

/* plot_find_file - @dir/@file, else @dir/@bench/@file, into @buf; NULL when neither exists. */
const char *plot_find_file(const char *dir, const char *bench, const char *file, char *buf,
			   size_t sz);

/* One column's latency samples, sorted (stutter_stats ran on them). */
struct plot_series {
	char name[64];
	struct stutter_samples s;
};

/*
 * plot_stutter_overlay_write - PREFIX.dat (one block of latency ms and cumulative % per
 * column) and PREFIX.gp drawing every column's distribution on the same axes.
 */
int plot_stutter_overlay_write(const struct plot_series *ser, int n, const char *prefix,
			       enum plot_fmt fmt);

/* The Amean of total-odr<order>-<batch> per column, from a pagealloc-cycles.csv. */
struct plot_pagealloc {
	char cols[PLOT_MAX_SERIES][64];
	int nr_cols;
	unsigned long batches[PLOT_PA_BATCHES];
	int nr_batches;
	int has_order[PLOT_PA_ORDERS];
	double v[PLOT_PA_ORDERS][PLOT_PA_BATCHES][PLOT_MAX_SERIES]; /* NAN: no figure */
};

/* plot_pagealloc_load - read @csv (@len bytes).  0, -ENOMEM, or -EBADMSG (no Amean row). */
int plot_pagealloc_load(struct plot_pagealloc *pa, const char *csv, size_t len);

/*
 * plot_pagealloc_write - PREFIX.dat and PREFIX.gp: TSC cycles per page (alloc + free) against
 * the batch size for @order, every column a line, both axes logarithmic.
 */
int plot_pagealloc_write(const struct plot_pagealloc *pa, unsigned int order, const char *prefix,
			 enum plot_fmt fmt);

/*
 * plot_summary_write - PREFIX.dat and PREFIX.gp: the reclaim and allocation rows of a
 * vmstat-summary.csv (@csv, @len bytes) as bars, one per column, on a logarithmic axis.
 * 0, -errno, or -EBADMSG when @csv is not a vmstat summary.
 */
int plot_summary_write(const char *csv, size_t len, const char *title, const char *prefix,
		       enum plot_fmt fmt);

/* Shared by the chart writers: PREFIX<ext> for writing, its checked close, the terminal. */
FILE *plot_open_out(const char *prefix, const char *ext, int *err);
int plot_close_out(FILE *f);
void plot_gp_terminal(FILE *f, const char *prefix, enum plot_fmt one);

#endif /* NODELRU_TOOLS_VMSTAT_PLOT_H */
