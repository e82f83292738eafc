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

static FILE *open_out(const char *prefix, const char *ext, int *err)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s%s", prefix, ext);
	f = fopen(path, "w");
	*err = f ? 0 : -errno;
	return f;
}

static int close_out(FILE *f)
{
	int bad = ferror(f);

	return (fclose(f) || bad) ? -EIO : 0;
}

/* "set terminal ...; set output 'PREFIX.png'" for one image format. */
static void gp_terminal(FILE *f, const char *prefix, enum plot_fmt one)
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
		gp_terminal(f, prefix, (enum plot_fmt)one);
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

/* One .dat row per sample: carried-forward values, events as a rate over the interval. */
static void counters_data(FILE *f, const struct plot_rec *r, const uint32_t *sel, int nsel)
{
	int64_t cur[PLOT_MAX_SERIES] = {0}, prev[PLOT_MAX_SERIES] = {0};
	int have[PLOT_MAX_SERIES] = {0}, had[PLOT_MAX_SERIES] = {0};
	size_t c = 0;

	fputs("# time", f);
	for (int j = 0; j < nsel; j++)
		fprintf(f, " %s", r->names.v[sel[j]].name);
	fputc('\n', f);
	for (size_t k = 0; k < r->nr_samples; k++) {
		double dt = k ? r->times[k] - r->times[k - 1] : 0;

		for (int j = 0; j < nsel; j++) {
			prev[j] = cur[j];
			had[j] = have[j];
		}
		for (; c < r->nr_ch && r->ch[c].sample == k; c++)
			for (int j = 0; j < nsel; j++)
				if (sel[j] == r->ch[c].counter) {
					cur[j] = r->ch[c].value;
					have[j] = 1;
				}
		fprintf(f, "%.3f", r->times[k]);
		for (int j = 0; j < nsel; j++) {
			struct name_info ni;

			names_lookup(r->names.v[sel[j]].name, &ni);
			if (!have[j] || (ni.kind == VM_EVENT && (!had[j] || dt <= 0)))
				fputs(" ?", f);
			else if (ni.kind == VM_EVENT)
				fprintf(f, " %.3f", (double)wrap_sub(cur[j], prev[j]) / dt);
			else
				fprintf(f, " %lld", (long long)cur[j]);
		}
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
	f = open_out(prefix, ".dat", &err);
	if (!f)
		return err;
	counters_data(f, r, sel, nsel);
	err = close_out(f);
	if (err)
		return err;
	f = open_out(prefix, ".gp", &err);
	if (!f)
		return err;
	counters_script(f, r, sel, nsel, prefix, fmt);
	return close_out(f);
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
		gp_terminal(f, prefix, (enum plot_fmt)one);
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
	f = open_out(prefix, ".dat", &err);
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
	err = close_out(f);
	if (err)
		return err;
	f = open_out(prefix, ".gp", &err);
	if (!f)
		return err;
	stutter_script(f, s, prefix, fmt);
	return close_out(f);
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
