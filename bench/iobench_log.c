/*
 * iobench_log - writers and readers of paralleldd's and tiobench's raw files.  The readers
 * find the files by name as the Extract modules glob them (glob(3) sorts names as Perl's glob
 * does) and read only what those modules read.
 */
#include "iobench_log.h"

#include <errno.h>
#include <glob.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"
#include "input.h"
#include "mmstat.h"

static int push(int *out, int cap, int n, int v)
{
	if (n < cap)
		out[n] = v;
	return n + 1;
}

/* seq FIRST STEP LAST, the counts below @min skipped as the shellpack's loop skips them. */
static int seq(int *out, int cap, int n, int first, int step, int last, int min)
{
	for (int v = first; v <= last; v += step)
		if (v >= min)
			n = push(out, cap, n, v);
	return n;
}

static int ends_with(const int *out, int cap, int n, int max)
{
	return n > 0 && n <= cap && out[n - 1] == max;
}

int iob_paralleldd_threads(int min, int max, int *out, int cap)
{
	int n = 0;

	if (min < 1 || max < min)
		return -EINVAL;
	if (max > 32) {
		n = seq(out, cap, n, min, 3, 8, min);
		n = seq(out, cap, n, 12, 9, 32, min);
		n = seq(out, cap, n, 48, 31, max, min);
	} else if (max > 8) {
		n = seq(out, cap, n, min, 2, 8, min);
		n = seq(out, cap, n, 12, 6, max, min);
	} else {
		n = seq(out, cap, n, min, 2, max, min);
	}
	if (!ends_with(out, cap, n, max))
		n = push(out, cap, n, max);
	return n > cap ? cap : n;
}

int iob_tiobench_threads(int min, int max, int *out, int cap)
{
	int n = 0;

	if (min < 1 || max < min)
		return -EINVAL;
	for (long v = min; v <= max; v *= 2)
		n = push(out, cap, n, (int)v);
	if (!ends_with(out, cap, n, max))
		n = push(out, cap, n, max);
	return n > cap ? cap : n;
}

static struct iob_op *ops_get(struct iob_ops *ops, const char *name)
{
	struct iob_op *op;

	for (size_t i = 0; i < ops->nr; i++)
		if (strcmp(ops->op[i].name, name) == 0)
			return &ops->op[i];
	if (strlen(name) >= MM_OP_MAX)
		return NULL;
	if (ops->nr == ops->cap) {
		size_t ncap = ops->cap ? ops->cap * 2 : 16;
		struct iob_op *nop = realloc(ops->op, ncap * sizeof(*nop));

		if (!nop)
			return NULL;
		ops->op = nop;
		ops->cap = ncap;
	}
	op = &ops->op[ops->nr++];
	memset(op, 0, sizeof(*op));
	strcpy(op->name, name);
	return op;
}

int iob_ops_add(struct iob_ops *ops, const char *name, double v)
{
	struct iob_op *op = ops_get(ops, name);

	if (!op)
		return strlen(name) >= MM_OP_MAX ? -EINVAL : -ENOMEM;
	return samples_push(&op->x, &op->n, &op->cap, v);
}

const struct iob_op *iob_ops_find(const struct iob_ops *ops, const char *name)
{
	for (size_t i = 0; i < ops->nr; i++)
		if (strcmp(ops->op[i].name, name) == 0)
			return &ops->op[i];
	return NULL;
}

void iob_ops_fini(struct iob_ops *ops)
{
	for (size_t i = 0; i < ops->nr; i++)
		free(ops->op[i].x);
	free(ops->op);
	memset(ops, 0, sizeof(*ops));
}

int iob_fill_table(struct mm_table *t, const struct iob_ops *ops, size_t nr_cols, int harmonic,
		   enum mm_cmp cmp)
{
	const char *const stat[NR_MM_MULTIOP_ROWS] = {"Min", harmonic ? "Hmean" : "Amean", "Stddev",
						      "CoeffVar", "Max"};
	double row[NR_MM_MULTIOP_ROWS], *v = calloc(nr_cols, sizeof(*v));
	int r = v ? 0 : -ENOMEM;

	for (int s = 0; !r && s < NR_MM_MULTIOP_ROWS; s++)
		for (size_t i = 0; !r && i < ops[0].nr; i++) {
			for (size_t c = 0; c < nr_cols; c++) {
				const struct iob_op *op = iob_ops_find(&ops[c], ops[0].op[i].name);

				v[c] = NAN;
				if (op && op->n) {
					mm_multiops(op->x, op->n, harmonic, row);
					v[c] = row[s];
				}
			}
			r = mm_table_add(t, stat[s], ops[0].op[i].name, cmp, v);
		}
	free(v);
	return r;
}

/* The files matching <dir>/<pattern>, sorted by name.  0, -ENOENT for none, or -errno. */
static int find(const char *dir, const char *pattern, glob_t *g)
{
	char path[4096];
	int r;

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, pattern) >= sizeof(path))
		return -ENAMETOOLONG;
	r = glob(path, 0, NULL, g);
	if (r == GLOB_NOMATCH)
		return -ENOENT;
	return r ? -ENOMEM : 0;
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/*
 * The thread counts of the files matching <dir>/<pattern>: field @from_end of each name split
 * at '-' (1 the last), as the Extract modules take it, ascending.  How many, or -errno.
 */
static int thread_counts(const char *dir, const char *pattern, int from_end, int *out, int cap)
{
	glob_t g;
	int n = 0, r = find(dir, pattern, &g);

	if (r)
		return r;
	for (size_t i = 0; i < g.gl_pathc && n < cap; i++) {
		const char *p = g.gl_pathv[i] + strlen(g.gl_pathv[i]);
		int k = 0;

		while (p > g.gl_pathv[i] && k < from_end)
			if (*--p == '-')
				k++;
		if (k == from_end)
			out[n++] = atoi(p + 1);
	}
	globfree(&g);
	qsort(out, (size_t)n, sizeof(*out), cmp_int);
	return n;
}

static int read_file(const char *path, char **buf, size_t *len)
{
	int r = input_read(path, buf, len);

	if (r)
		fprintf(stderr, "%s: %s\n", path, input_strerror(r));
	return r;
}

double iob_time_elapsed(const char *line)
{
	char field[3][64];
	double part[3];
	int n = 0;

	if (!strstr(line, "elapsed") ||
	    sscanf(line, "%63s %63s %63s", field[0], field[1], field[2]) != 3)
		return NAN;
	/* "[H:]M:S" with "elapsed" after the seconds, which Perl's numeric reading drops. */
	for (char *p = field[2]; n < 3; n++) {
		part[n] = strtod(p, &p);
		if (*p != ':')
			break;
		p++;
	}
	if (n == 2)
		return part[0] * 3600 + part[1] * 60 + part[2];
	return n == 1 ? part[0] * 60 + part[1] : NAN;
}

int iob_paralleldd_extract(const char *dir, struct iob_ops *ops)
{
	int clients[IOB_MAX_THREAD_COUNTS];
	int n = thread_counts(dir, "time-*-1-1", 3, clients, IOB_MAX_THREAD_COUNTS), r = 0;

	memset(ops, 0, sizeof(*ops));
	if (n < 0)
		return n;
	for (int c = 0; !r && c < n; c++) {
		char pattern[64], name[MM_OP_MAX];
		glob_t g;

		snprintf(pattern, sizeof(pattern), "time-%d-*", clients[c]);
		snprintf(name, sizeof(name), "Elapsd-%d", clients[c]);
		if ((r = find(dir, pattern, &g)))
			break;
		for (size_t i = 0; !r && i < g.gl_pathc; i++) {
			char *buf = NULL, *save = NULL;
			size_t len = 0;

			if ((r = read_file(g.gl_pathv[i], &buf, &len)))
				break;
			for (char *l = strtok_r(buf, "\n", &save); !r && l;
			     l = strtok_r(NULL, "\n", &save)) {
				double s = iob_time_elapsed(l);

				if (!isnan(s))
					r = iob_ops_add(ops, name, s);
			}
			free(buf);
		}
		globfree(&g);
	}
	if (r)
		iob_ops_fini(ops);
	return r;
}

void tio_rate_of(const struct tio_figures *f, struct tio_rate *out)
{
	double cpur;

	out->rate = f->time > 0 ? f->mbytes / f->time : 0;
	out->cpu = f->time > 0 ? 100 * (f->utime + f->stime) / f->time : 0;
	cpur = out->cpu / 100;
	out->cpueff = out->rate / (cpur == 0 ? 0.01 : cpur);
}

/* Perl's format fields.  Text: cut to @w, placed left (<), centred (|) or right (>). */
static void text_field(FILE *f, int w, char how, const char *s)
{
	int len = (int)strlen(s), pad;

	if (len > w)
		len = w;
	pad = w - len;
	if (how == '|')
		fprintf(f, "%*s%.*s%*s", pad / 2, "", len, s, pad - pad / 2, "");
	else if (how == '>')
		fprintf(f, "%*s%.*s", pad, "", len, s);
	else
		fprintf(f, "%.*s%*s", len, s, pad, "");
}

/* A number as text, as Perl makes one of it (%.15g). */
static void number_text(FILE *f, int w, char how, double v)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "%.15g", v);
	text_field(f, w, how, buf);
}

/* A numeric field @#.## of width @w: the number right-aligned, or '#'s when it is too wide. */
static void numeric_field(FILE *f, int w, int prec, double v)
{
	char buf[64];
	int n = snprintf(buf, sizeof(buf), "%*.*f", w, prec, v);

	if (n > w)
		for (int i = 0; i < w; i++)
			fputc('#', f);
	else
		fputs(buf, f);
}

/*
 * One line of tiobench.pl's report formats:
 * @<<<<<<<<<<<<<<<<<<<<<<<<<<< @||||| @|||| @>>  @##.## @>>>>% @####.### @#######.##  @#.#####
 * @#.##### @#### with the trailing spaces Perl's write drops dropped.
 */
static void report_line(FILE *out, const char *identifier, long size_mb, long block, int threads,
			const struct tio_figures *fig)
{
	struct tio_rate r;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return;
	tio_rate_of(fig, &r);
	text_field(f, 28, '<', identifier);
	fputc(' ', f);
	number_text(f, 6, '|', (double)size_mb);
	fputc(' ', f);
	number_text(f, 5, '|', (double)block);
	fputc(' ', f);
	number_text(f, 3, '>', threads);
	fputs("  ", f);
	numeric_field(f, 6, 2, r.rate);
	fputc(' ', f);
	number_text(f, 5, '>', r.cpu);
	fputs("% ", f);
	numeric_field(f, 9, 3, fig->avglat);
	fputc(' ', f);
	numeric_field(f, 11, 2, fig->maxlat);
	fputs("  ", f);
	numeric_field(f, 8, 5, fig->pct_gt_2s);
	fputc(' ', f);
	numeric_field(f, 8, 5, fig->pct_gt_10s);
	fputc(' ', f);
	numeric_field(f, 5, 0, r.cpueff);
	if (fclose(f) == 0) {
		while (len && buf[len - 1] == ' ')
			len--;
		fprintf(out, "%.*s\n", (int)len, buf);
	}
	free(buf);
}

static const char *const titles[NR_TIO_TESTS] = {
	[TIO_READ] = "Sequential Reads",
	[TIO_RREAD] = "Random Reads",
	[TIO_WRITE] = "Sequential Writes",
	[TIO_RWRITE] = "Random Writes",
};

void tio_report_write(FILE *f, const char *identifier, long size_mb, long block, int threads,
		      const struct tio_figures fig[NR_TIO_TESTS])
{
	static const enum tio_test order[] = {TIO_READ, TIO_RREAD, TIO_WRITE, TIO_RWRITE};

	fputs("\n"
	      "Unit information\n"
	      "================\n"
	      "File size = megabytes\n"
	      "Blk Size  = bytes\n"
	      "Rate      = megabytes per second\n"
	      "CPU%      = percentage of CPU used during the test\n"
	      "Latency   = milliseconds\n"
	      "Lat%      = percent of requests that took longer than X seconds\n"
	      "CPU Eff   = Rate divided by CPU% - throughput per cpu load\n",
	      f);
	for (int i = 0; i < NR_TIO_TESTS; i++) {
		fprintf(f, "\n%s\n", titles[order[i]]);
		report_line(f, identifier, size_mb, block, threads, &fig[order[i]]);
	}
}

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

/*
 * Field @k (from 0) of @line split as Perl's split(/\s+/) splits it (a line that starts with
 * whitespace has an empty first field), into @buf.  0, or -ENOENT when there is no such field.
 */
static int split_field(const char *line, size_t len, int k, char *buf, size_t sz)
{
	size_t i = 0;

	for (int field = 0;; field++) {
		size_t start = i, n;

		while (i < len && !is_space(line[i]))
			i++;
		if (field == k) {
			n = i - start < sz - 1 ? i - start : sz - 1;
			memcpy(buf, line + start, n);
			buf[n] = '\0';
			return 0;
		}
		while (i < len && is_space(line[i]))
			i++;
		if (i == len)
			return -ENOENT;
	}
}

void tio_report_rates(const char *buf, size_t len, double rate[NR_TIO_TESTS])
{
	const char *s = buf, *end = buf + len;
	int reading = -1;

	for (int i = 0; i < NR_TIO_TESTS; i++)
		rate[i] = NAN;
	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		size_t l = nl ? (size_t)(nl - s) : (size_t)(end - s);
		char field[64];

		if (reading >= 0) {
			/* A missing field reads as Perl's undef: 0. */
			if (split_field(s, l, 4, field, sizeof(field)))
				field[0] = '\0';
			rate[reading] = strchr(field, '#') ? -1 : strtod(field, NULL);
			reading = -1;
		} else {
			for (int i = 0; i < NR_TIO_TESTS; i++)
				if (l == strlen(titles[i]) && memcmp(s, titles[i], l) == 0)
					reading = i;
		}
		s = nl ? nl + 1 : end;
	}
}

int iob_tiobench_extract(const char *dir, struct iob_ops *ops)
{
	static const enum tio_test order[] = {TIO_READ, TIO_RREAD, TIO_WRITE, TIO_RWRITE};
	static const char *const names[NR_TIO_TESTS] = {[TIO_READ] = "SeqRead",
							[TIO_RREAD] = "RandRead",
							[TIO_WRITE] = "SeqWrite",
							[TIO_RWRITE] = "RandWrite"};
	int clients[IOB_MAX_THREAD_COUNTS];
	int n = thread_counts(dir, "tiobench-*-1.log", 2, clients, IOB_MAX_THREAD_COUNTS), r;
	double speed = -1;
	char path[4096], *buf = NULL;
	size_t len = 0;

	memset(ops, 0, sizeof(*ops));
	if (n < 0)
		return n;
	snprintf(path, sizeof(path), "%s/disk-read.speed", dir);
	if (input_read(path, &buf, &len) == 0)
		speed = strtod(buf, NULL);
	free(buf);
	r = iob_ops_add(ops, "PotentialReadSpeed", speed);
	/* Every operation in mmtests' order first, the samples after. */
	for (int t = 0; !r && t < NR_TIO_TESTS; t++)
		for (int c = 0; !r && c < n; c++) {
			char name[MM_OP_MAX];

			snprintf(name, sizeof(name), "%s-MB/sec-%d", names[order[t]], clients[c]);
			r = ops_get(ops, name) ? 0 : -ENOMEM;
		}
	for (int c = 0; !r && c < n; c++) {
		char pattern[64];
		glob_t g;

		snprintf(pattern, sizeof(pattern), "tiobench-%d-*.log", clients[c]);
		if ((r = find(dir, pattern, &g)))
			break;
		for (size_t i = 0; !r && i < g.gl_pathc; i++) {
			double rate[NR_TIO_TESTS];

			if ((r = read_file(g.gl_pathv[i], &buf, &len)))
				break;
			tio_report_rates(buf, len, rate);
			free(buf);
			for (int t = 0; !r && t < NR_TIO_TESTS; t++) {
				char name[MM_OP_MAX];

				if (isnan(rate[t]))
					continue;
				snprintf(name, sizeof(name), "%s-MB/sec-%d", names[t], clients[c]);
				r = iob_ops_add(ops, name, rate[t]);
			}
		}
		globfree(&g);
	}
	if (r)
		iob_ops_fini(ops);
	return r;
}
