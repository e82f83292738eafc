/*
 * plot - data files and gnuplot scripts, and the one place the tool runs another program.
 * The scripts are plain text kept next to the images, so a reader can restyle a chart without
 * this tool.  Paths are quoted for gnuplot's single-quoted strings ('' stands for ').
 */
#include "plot.h"

#include <errno.h>
#include <math.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "names.h"
#include "wrap.h"

extern char **environ;

void plot_gp_quote(const char *s, char *buf, size_t sz)
{
	size_t n = 0;

	if (sz < 3)
		return;
	buf[n++] = '\'';
	for (; *s && n + 3 < sz; s++) {
		if (*s == '\'')
			buf[n++] = '\'';
		buf[n++] = *s;
	}
	buf[n++] = '\'';
	buf[n] = '\0';
}

FILE *plot_open_out(const char *prefix, const char *ext, int *err)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s%s", prefix, ext);
	f = fopen(path, "w");
	*err = f ? 0 : -errno;
	return f;
}

int plot_close_out(FILE *f)
{
	int bad = ferror(f);

	return (fclose(f) || bad) ? -EIO : 0;
}

/* "set terminal ...; set output 'PREFIX.png'" for one image format. */
void plot_gp_terminal(FILE *f, const char *prefix, enum plot_fmt one)
{
	char q[4200], path[4096];

	snprintf(path, sizeof(path), "%s%s", prefix, one == PLOT_PNG ? ".png" : ".svg");
	plot_gp_quote(path, q, sizeof(q));
	fprintf(f, "set terminal %s size 1200,800 noenhanced\nset output %s\n",
		one == PLOT_PNG ? "pngcairo" : "svg", q);
}

static void gp_panel(FILE *f, const struct plot_rec *r, const uint32_t *sel, int nsel,
		     enum vm_kind kind, const char *dat, const char *title)
{
	int first = 1;

	fprintf(f, "set title '%s'\nplot ", title);
	for (int j = 0; j < nsel; j++) {
		struct name_info ni;
		char q[200];

		names_lookup(r->names.v[sel[j]].name, &ni);
		if (ni.kind != kind)
			continue;
		plot_gp_quote(r->names.v[sel[j]].name, q, sizeof(q));
		fprintf(f, "%s%s using 1:%d with linespoints pointsize 0.6 title %s",
			first ? "" : ", ", first ? dat : "''", j + 2, q);
		first = 0;
	}
	fputc('\n', f);
}

static int count_kind(const struct plot_rec *r, const uint32_t *sel, int nsel, enum vm_kind k)
{
	int n = 0;

	for (int j = 0; j < nsel; j++) {
		struct name_info ni;

		names_lookup(r->names.v[sel[j]].name, &ni);
		n += ni.kind == k;
	}
	return n;
}

static void counters_script(FILE *f, const struct plot_rec *r, const uint32_t *sel, int nsel,
			    const char *prefix, enum plot_fmt fmt)
{
	int nev = count_kind(r, sel, nsel, VM_EVENT), nst = nsel - nev;
	char dat[4200], path[4096];

	snprintf(path, sizeof(path), "%s.dat", prefix);
	plot_gp_quote(path, dat, sizeof(dat));
	for (int one = PLOT_PNG; one <= PLOT_SVG; one <<= 1) {
		if (!(fmt & one))
			continue;
		plot_gp_terminal(f, prefix, (enum plot_fmt)one);
		fputs("set datafile missing '?'\nset key outside right\nset xlabel 'seconds'\n"
		      "set grid\n",
		      f);
		fprintf(f, "set multiplot layout %d,1\n", (nev > 0) + (nst > 0));
		if (nev)
			gp_panel(f, r, sel, nsel, VM_EVENT, dat, "event counters (per second)");
		if (nst)
			gp_panel(f, r, sel, nsel, VM_STATE, dat, "state counters (value)");
		fputs("unset multiplot\nset output\n", f);
	}
}

/* One series of the chart: the last value read, and when. */
struct series {
	int ev;       /* an event counter: drawn as a rate */
	int seen;     /* a value has been read */
	int64_t last; /* that value */
	double when;  /* its sample time */
};

/* The rows of sample @k (from *@c on) that name a drawn counter, by series; NULL if none. */
static void sample_rows(const struct plot_rec *r, size_t k, size_t *c, const uint32_t *sel,
			int nsel, const struct plot_change **row)
{
	for (int j = 0; j < nsel; j++)
		row[j] = NULL;
	for (; *c < r->nr_ch && r->ch[*c].sample == k; (*c)++)
		for (int j = 0; j < nsel; j++)
			if (sel[j] == r->ch[*c].counter)
				row[j] = &r->ch[*c];
}

/*
 * One cell at time @t.  No row: the value is unchanged.  A missing row: '?', and the last value
 * stays, so the next rate covers the whole gap; the change is never put on one interval.
 */
static void series_cell(FILE *f, struct series *s, const struct plot_change *row, double t)
{
	int64_t v = row ? row->value : s->last;

	if ((row && row->missing) || (!row && !s->seen)) {
		fputs(" ?", f);
		return;
	}
	if (!s->ev)
		fprintf(f, " %lld", (long long)v);
	else if (s->seen && t > s->when)
		fprintf(f, " %.3f", wrap_change(1, s->last, v) / (t - s->when));
	else
		fputs(" ?", f);
	*s = (struct series){s->ev, 1, v, t};
}

/* One .dat row per sample: state values, events as a rate since the last value read. */
static void counters_data(FILE *f, const struct plot_rec *r, const uint32_t *sel, int nsel)
{
	struct series s[PLOT_MAX_SERIES];
	const struct plot_change *row[PLOT_MAX_SERIES];
	size_t c = 0;

	fputs("# time", f);
	for (int j = 0; j < nsel; j++) {
		struct name_info ni;

		names_lookup(r->names.v[sel[j]].name, &ni);
		s[j] = (struct series){ni.kind == VM_EVENT, 0, 0, 0.0};
		fprintf(f, " %s", r->names.v[sel[j]].name);
	}
	fputc('\n', f);
	for (size_t k = 0; k < r->nr_samples; k++) {
		sample_rows(r, k, &c, sel, nsel, row);
		fprintf(f, "%.3f", r->times[k]);
		for (int j = 0; j < nsel; j++)
			series_cell(f, &s[j], row[j], r->times[k]);
		fputc('\n', f);
	}
}

int plot_counters_write(const struct plot_rec *r, const uint32_t *sel, int nsel, const char *prefix,
			enum plot_fmt fmt)
{
	int err;
	FILE *f;

	if (nsel <= 0 || nsel > PLOT_MAX_SERIES)
		return -EINVAL;
	f = plot_open_out(prefix, ".dat", &err);
	if (!f)
		return err;
	counters_data(f, r, sel, nsel);
	err = plot_close_out(f);
	if (err)
		return err;
	f = plot_open_out(prefix, ".gp", &err);
	if (!f)
		return err;
	counters_script(f, r, sel, nsel, prefix, fmt);
	return plot_close_out(f);
}

static void stutter_script(FILE *f, const struct stutter_samples *s, const char *prefix,
			   enum plot_fmt fmt)
{
	char dat[4200], path[4096];

	snprintf(path, sizeof(path), "%s.dat", prefix);
	plot_gp_quote(path, dat, sizeof(dat));
	for (int one = PLOT_PNG; one <= PLOT_SVG; one <<= 1) {
		if (!(fmt & one))
			continue;
		plot_gp_terminal(f, prefix, (enum plot_fmt)one);
		fprintf(f, "set title 'stutter: mmap latency distribution, %llu samples'\n",
			(unsigned long long)s->total);
		fputs("set xlabel 'latency (ms)'\nset ylabel 'samples at or below (%)'\n"
		      "set yrange [0:100]\nset grid\nset key off\n",
		      f);
		/* A log axis cannot hold the zero latencies the probe clamps to. */
		if (s->nr && s->g[0].ns > 0)
			fputs("set logscale x\n", f);
		fprintf(f, "plot %s using 1:2 with steps\nset output\n", dat);
	}
}

int plot_stutter_write(const struct stutter_samples *s, const char *prefix, enum plot_fmt fmt)
{
	uint64_t cum = 0;
	int err;
	FILE *f;

	if (!s->total)
		return -EINVAL;
	f = plot_open_out(prefix, ".dat", &err);
	if (!f)
		return err;
	fputs("# latency_ms cumulative_percent\n", f);
	for (size_t k = 0; k < s->nr; k++) {
		cum += s->g[k].count;
		if (k + 1 < s->nr && s->g[k + 1].ns == s->g[k].ns)
			continue;
		fprintf(f, "%.6f %.6f\n", (double)s->g[k].ns / 1e6,
			100.0 * (double)cum / (double)s->total);
	}
	err = plot_close_out(f);
	if (err)
		return err;
	f = plot_open_out(prefix, ".gp", &err);
	if (!f)
		return err;
	stutter_script(f, s, prefix, fmt);
	return plot_close_out(f);
}

int plot_find_gnuplot(char *buf, size_t sz)
{
	const char *env = getenv("NLRU_GNUPLOT"), *path = getenv("PATH");

	if (env) {
		snprintf(buf, sz, "%s", env);
		return access(buf, X_OK) == 0 ? 0 : -ENOENT;
	}
	while (path && *path) {
		size_t n = strcspn(path, ":");

		snprintf(buf, sz, "%.*s/gnuplot", (int)n, path);
		if (n && access(buf, X_OK) == 0)
			return 0;
		path += n + (path[n] == ':');
	}
	return -ENOENT;
}

int plot_run(const char *gnuplot, const char *prefix)
{
	char script[4096];
	char *argv[3];
	pid_t pid;
	int status, err;

	snprintf(script, sizeof(script), "%s.gp", prefix);
	argv[0] = (char *)gnuplot;
	argv[1] = script;
	argv[2] = NULL;
	err = posix_spawn(&pid, gnuplot, NULL, NULL, argv, environ);
	if (err)
		return -err;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return (WIFEXITED(status) && WEXITSTATUS(status) == 0) ? 0 : -ECHILD;
}
