/*
 * plot_results - charts of a benchmark results folder (./run.sh's, or one benchmark's):
 * every column (reclaim mode, reference allocator) the folder holds on the same axes.  The
 * data come from the files the benchmarks write: each column's latency log, the pagealloc
 * table as CSV (pagealloc-cycles.csv) and the vmstat summary as CSV (vmstat-summary.csv).
 */
#include "plot.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "input.h"

static int is_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static int is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static int has_one(const char *dir, const char *const *files)
{
	char path[PLOT_PATH_MAX];

	for (; *files; files++) {
		snprintf(path, sizeof(path), "%s/%s", dir, *files);
		if (is_file(path))
			return 1;
	}
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct plot_column *)a)->name, ((const struct plot_column *)b)->name);
}

/* The subfolders of @dir that hold one of @files, in @cols from @n on.  Returns the new n. */
static int scan(const char *dir, const char *const *files, struct plot_column *cols, int n)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int first = n;

	if (!d)
		return n;
	while ((e = readdir(d)) && n < PLOT_MAX_SERIES) {
		struct plot_column *c = &cols[n];

		/* mmtests' <bench>-<column>/noprofile links lead to the same folders. */
		if (e->d_name[0] == '.' || strlen(e->d_name) >= sizeof(c->name))
			continue;
		snprintf(c->dir, sizeof(c->dir), "%s/%s", dir, e->d_name);
		if (!is_dir(c->dir) || !has_one(c->dir, files))
			continue;
		snprintf(c->name, sizeof(c->name), "%s", e->d_name);
		n++;
	}
	closedir(d);
	qsort(cols + first, (size_t)(n - first), sizeof(*cols), by_name);
	return n;
}

int plot_find_columns(const char *dir, const char *bench, const char *const *files,
		      struct plot_column *cols)
{
	char sub[PLOT_PATH_MAX];
	const char *base;
	int n;

	if (has_one(dir, files)) {
		base = strrchr(dir, '/');
		base = base && base[1] ? base + 1 : dir;
		snprintf(cols[0].name, sizeof(cols[0].name), "%s", base);
		snprintf(cols[0].dir, sizeof(cols[0].dir), "%s", dir);
		return 1;
	}
	n = scan(dir, files, cols, 0);
	if (n == 0) {
		snprintf(sub, sizeof(sub), "%s/%s", dir, bench);
		n = scan(sub, files, cols, 0);
	}
	return n;
}

const char *plot_find_file(const char *dir, const char *bench, const char *file, char *buf,
			   size_t sz)
{
	snprintf(buf, sz, "%s/%s", dir, file);
	if (is_file(buf))
		return buf;
	snprintf(buf, sz, "%s/%s/%s", dir, bench, file);
	return is_file(buf) ? buf : NULL;
}

/* Every image format asked for, one after the other, through @body. */
#define EACH_FORMAT(f, prefix, fmt, one)                                                           \
	for (int one = PLOT_PNG; one <= PLOT_SVG; one <<= 1)                                       \
		if ((fmt)&one && (plot_gp_terminal(f, prefix, (enum plot_fmt)one), 1))

int plot_stutter_overlay_write(const struct plot_series *ser, int n, const char *prefix,
			       enum plot_fmt fmt)
{
	char dat[PLOT_PATH_MAX + 64], path[PLOT_PATH_MAX], title[160];
	int err, logx = 1;
	FILE *f = plot_open_out(prefix, ".dat", &err);

	if (!f)
		return err;
	fputs("# latency_ms cumulative_percent; one block per column, in the order of the script\n",
	      f);
	for (int i = 0; i < n; i++) {
		const struct stutter_samples *s = &ser[i].s;
		uint64_t cum = 0;

		fprintf(f, "%s# %s\n", i ? "\n\n" : "", ser[i].name);
		if (s->nr && s->g[0].ns == 0)
			logx = 0; /* a log axis cannot hold the zero latencies the probe clamps to
				   */
		for (size_t k = 0; k < s->nr; k++) {
			cum += s->g[k].count;
			if (k + 1 < s->nr && s->g[k + 1].ns == s->g[k].ns)
				continue;
			fprintf(f, "%.6f %.6f\n", (double)s->g[k].ns / 1e6,
				100.0 * (double)cum / (double)s->total);
		}
		if (!s->nr)
			fputs("? ?\n", f);
	}
	if ((err = plot_close_out(f)))
		return err;
	if (!(f = plot_open_out(prefix, ".gp", &err)))
		return err;
	snprintf(path, sizeof(path), "%s.dat", prefix);
	plot_gp_quote(path, dat, sizeof(dat));
	EACH_FORMAT(f, prefix, fmt, one)
	{
		fputs("set title 'stutter: mmap latency distribution'\n"
		      "set xlabel 'latency (ms)'\nset ylabel 'samples at or below (%)'\n"
		      "set yrange [0:100]\nset grid\nset key bottom right\n",
		      f);
		if (logx)
			fputs("set logscale x\n", f);
		fputs("plot ", f);
		for (int i = 0; i < n; i++) {
			plot_gp_quote(ser[i].name, title, sizeof(title));
			fprintf(f, "%s%s index %d using 1:2 with steps linewidth 2 title %s",
				i ? ", \\\n     " : "", dat, i, title);
		}
		fputs("\nset output\n", f);
	}
	return plot_close_out(f);
}

/* Splits a CSV line of plain fields (no quotes: the benchmarks' labels have no commas). */
static int csv_fields(char *line, char **fld, int max)
{
	int n = 0;

	for (char *p = line; n < max;) {
		fld[n++] = p;
		p = strchr(p, ',');
		if (!p)
			break;
		*p++ = '\0';
	}
	return n;
}

int plot_pagealloc_load(struct plot_pagealloc *pa, const char *csv, size_t len)
{
	char *buf = malloc(len + 1), *line, *save = NULL;

	if (!buf)
		return -ENOMEM;
	memcpy(buf, csv, len);
	buf[len] = '\0';
	memset(pa, 0, sizeof(*pa));
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *fld[6], *end;
		unsigned int order;
		unsigned long batch;
		int col = -1, b = -1;
		double v;

		if (csv_fields(line, fld, 6) != 5 || strcmp(fld[0], "Amean") != 0 ||
		    sscanf(fld[1], "total-odr%u-%lu", &order, &batch) != 2 ||
		    order >= PLOT_PA_ORDERS)
			continue;
		v = strtod(fld[3], &end);
		if (*end || end == fld[3])
			v = NAN;
		for (int k = 0; k < pa->nr_cols; k++)
			if (strcmp(pa->cols[k], fld[2]) == 0)
				col = k;
		if (col < 0 && pa->nr_cols < PLOT_MAX_SERIES) {
			col = pa->nr_cols++;
			snprintf(pa->cols[col], sizeof(pa->cols[col]), "%s", fld[2]);
		}
		for (int k = 0; k < pa->nr_batches; k++)
			if (pa->batches[k] == batch)
				b = k;
		if (b < 0 && pa->nr_batches < PLOT_PA_BATCHES) {
			b = pa->nr_batches++;
			pa->batches[b] = batch;
			for (int o = 0; o < PLOT_PA_ORDERS; o++)
				for (int k = 0; k < PLOT_MAX_SERIES; k++)
					pa->v[o][b][k] = NAN;
		}
		if (col < 0 || b < 0)
			continue;
		pa->v[order][b][col] = v;
		pa->has_order[order] = 1;
	}
	free(buf);
	return pa->nr_cols ? 0 : -EBADMSG;
}

int plot_pagealloc_write(const struct plot_pagealloc *pa, unsigned int order, const char *prefix,
			 enum plot_fmt fmt)
{
	char dat[PLOT_PATH_MAX + 64], path[PLOT_PATH_MAX], title[160];
	int err;
	FILE *f = plot_open_out(prefix, ".dat", &err);

	if (!f)
		return err;
	fputs("# batch", f);
	for (int k = 0; k < pa->nr_cols; k++)
		fprintf(f, " %s", pa->cols[k]);
	fputs("  (Amean of alloc + free, TSC cycles per page)\n", f);
	for (int b = 0; b < pa->nr_batches; b++) {
		int any = 0;

		for (int k = 0; k < pa->nr_cols; k++)
			any |= !isnan(pa->v[order][b][k]);
		if (!any)
			continue;
		fprintf(f, "%lu", pa->batches[b]);
		for (int k = 0; k < pa->nr_cols; k++)
			if (isnan(pa->v[order][b][k]))
				fputs(" ?", f);
			else
				fprintf(f, " %.4f", pa->v[order][b][k]);
		fputc('\n', f);
	}
	if ((err = plot_close_out(f)))
		return err;
	if (!(f = plot_open_out(prefix, ".gp", &err)))
		return err;
	snprintf(path, sizeof(path), "%s.dat", prefix);
	plot_gp_quote(path, dat, sizeof(dat));
	EACH_FORMAT(f, prefix, fmt, one)
	{
		fprintf(f,
			"set title 'pagealloc: order %u, alloc + free per page'\n"
			"set xlabel 'batch (pages of this order)'\n"
			"set ylabel 'TSC cycles per page (Amean)'\n"
			"set logscale x 2\nset logscale y\nset grid\nset key outside right\n"
			"set datafile missing '?'\n",
			order);
		fputs("plot ", f);
		for (int k = 0; k < pa->nr_cols; k++) {
			plot_gp_quote(pa->cols[k], title, sizeof(title));
			fprintf(f, "%s%s using 1:%d with linespoints linewidth 2 title %s",
				k ? ", \\\n     " : "", dat, k + 2, title);
		}
		fputs("\nset output\n", f);
	}
	return plot_close_out(f);
}

/* The summary's rows drawn as bars: the reclaim and allocation counts the modes differ by. */
static const char *const summary_rows[] = {
	"Allocation stalls",
	"Direct pages scanned",
	"Kswapd pages scanned",
	"Direct pages reclaimed",
	"Kswapd pages reclaimed",
	"DMA32 allocs",
	"Normal allocs",
	"Minor Faults",
	"Swap Outs",
	"Slabs scanned",
	NULL,
};

int plot_summary_write(const char *csv, size_t len, const char *title, const char *prefix,
		       enum plot_fmt fmt)
{
	char *buf = malloc(len + 1), *line, *save = NULL, *fld[PLOT_MAX_SERIES + 1];
	char dat[PLOT_PATH_MAX + 64], path[PLOT_PATH_MAX], q[200];
	int ncols = 0, rows = 0, err;
	FILE *f;

	if (!buf)
		return -ENOMEM;
	memcpy(buf, csv, len);
	buf[len] = '\0';
	if (!(f = plot_open_out(prefix, ".dat", &err))) {
		free(buf);
		return err;
	}
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		int n = csv_fields(line, fld, PLOT_MAX_SERIES + 1), want = 0, nonzero = 0;

		if (!ncols) {
			if (strcmp(fld[0], "row") != 0)
				break;
			ncols = n - 1;
			/* The header row that the script's columnhead() titles come from. */
			fputs("\"row\"", f);
			for (int k = 1; k < n; k++)
				fprintf(f, " \"%s\"", fld[k]);
			fputc('\n', f);
			continue;
		}
		for (const char *const *r = summary_rows; *r; r++)
			want |= strcmp(*r, fld[0]) == 0;
		for (int k = 1; k < n; k++)
			nonzero |= fld[k][0] && strtod(fld[k], NULL) > 0;
		if (!want || !nonzero || n != ncols + 1)
			continue;
		/* A bar of 0 or an absent counter ('-') has no height on a log axis. */
		fprintf(f, "\"%s\"", fld[0]);
		for (int k = 1; k < n; k++)
			fprintf(f, " %s", fld[k][0] && strtod(fld[k], NULL) > 0 ? fld[k] : "?");
		fputc('\n', f);
		rows++;
	}
	free(buf);
	if ((err = plot_close_out(f)))
		return err;
	if (!ncols)
		return -EBADMSG;
	if (!(f = plot_open_out(prefix, ".gp", &err)))
		return err;
	snprintf(path, sizeof(path), "%s.dat", prefix);
	plot_gp_quote(path, dat, sizeof(dat));
	EACH_FORMAT(f, prefix, fmt, one)
	{
		plot_gp_quote(title, q, sizeof(q));
		fprintf(f,
			"set title %s\nset style data histograms\n"
			"set style histogram clustered gap 1\nset style fill solid 0.8 border -1\n"
			"set logscale y\nset yrange [1:*]\nset grid ytics\nset key outside right\n"
			"set xtics rotate by -30 scale 0\nset datafile missing '?'\n"
			"set ylabel 'pages or events (log scale)'\n",
			q);
		if (!rows)
			fputs("set label 1 'no reclaim or allocation counts to draw' at graph 0.5, "
			      "0.5 center\nplot [0:1] [1:10] 0 notitle\n",
			      f);
		else
			for (int k = 0; k < ncols; k++)
				fprintf(f, "%s%s using %d:xtic(1) title columnhead(%d)",
					k ? ", \\\n     " : "plot ", dat, k + 2, k + 2);
		fputs("\nset output\n", f);
	}
	return plot_close_out(f);
}
