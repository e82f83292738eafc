/*
 * cmd_plot - `plot counters RECORDING ...` and `plot stutter|pagealloc|summary|results
 * RESULTS_DIR ...`.  The data file
 * and gnuplot script are always written; gnuplot is then run unless --no-run, and its absence
 * is an error of its own (exit 3) with the command to run later.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cmd.h"
#include "input.h"
#include "plot.h"
#include "stutter.h"

enum { OPT_JSON = 256, OPT_CSV, OPT_PNG, OPT_SVG, OPT_NO_RUN, OPT_COUNTER };

/* clang-format off */
static const struct option opts[] = {
	{"json", no_argument, NULL, OPT_JSON},
	{"csv", no_argument, NULL, OPT_CSV},
	{"png", no_argument, NULL, OPT_PNG},
	{"svg", no_argument, NULL, OPT_SVG},
	{"no-run", no_argument, NULL, OPT_NO_RUN},
	{"counter", required_argument, NULL, OPT_COUNTER},
	{"output", required_argument, NULL, 'o'},
	{NULL, 0, NULL, 0},
};
/* clang-format on */

struct plot_args {
	enum out_fmt fmt;
	int img; /* enum plot_fmt bits; 0 until --png/--svg */
	int no_run;
	const char *prefix;
	const char *want[PLOT_MAX_SERIES + 1];
	int nwant;
};

static int parse_args(int argc, char **argv, struct plot_args *a)
{
	int c;

	memset(a, 0, sizeof(*a));
	optind = 0;
	while ((c = getopt_long(argc, argv, "o:", opts, NULL)) != -1) {
		if (c == OPT_JSON)
			a->fmt = OUT_JSON;
		else if (c == OPT_CSV)
			a->fmt = OUT_CSV;
		else if (c == OPT_PNG)
			a->img |= PLOT_PNG;
		else if (c == OPT_SVG)
			a->img |= PLOT_SVG;
		else if (c == OPT_NO_RUN)
			a->no_run = 1;
		else if (c == 'o')
			a->prefix = optarg;
		else if (c == OPT_COUNTER && a->nwant < PLOT_MAX_SERIES)
			a->want[a->nwant++] = optarg;
		else if (c == OPT_COUNTER)
			return cli_error("plot: at most %d --counter", PLOT_MAX_SERIES);
		else
			return EXIT_INPUT;
	}
	if (!a->img)
		a->img = PLOT_BOTH;
	if (argc - optind != 2)
		return cli_error(
			"plot: expected 'counters RECORDING' or 'stutter|pagealloc|summary|"
			"results RESULTS_DIR'");
	return 0;
}

static int draw(const struct plot_args *a, const char *prefix)
{
	/* With --json or --csv stdout holds that document alone, so the paths go to stderr. */
	FILE *paths = a->fmt == OUT_TEXT ? stdout : stderr;
	char gp[4096];
	int err;

	if (a->no_run) {
		fprintf(stderr, "nlru-vmstat: wrote %s.dat and %s.gp\n", prefix, prefix);
		return EXIT_OK;
	}
	if (plot_find_gnuplot(gp, sizeof(gp))) {
		fprintf(stderr,
			"nlru-vmstat: gnuplot not found (install the Debian package gnuplot-nox); "
			"wrote %s.dat and %s.gp: run 'gnuplot %s.gp' to draw the chart\n",
			prefix, prefix, prefix);
		return EXIT_GNUPLOT;
	}
	err = plot_run(gp, prefix);
	if (err) {
		fprintf(stderr, "nlru-vmstat: %s failed on %s.gp\n", gp, prefix);
		return EXIT_GNUPLOT;
	}
	if (a->img & PLOT_PNG)
		fprintf(paths, "%s.png\n", prefix);
	if (a->img & PLOT_SVG)
		fprintf(paths, "%s.svg\n", prefix);
	return EXIT_OK;
}

/* @quiet_if_flat: a recording in which no counter changed is no chart, and no error. */
static int plot_counters_to(const struct plot_args *a, const char *rec_path, const char *prefix,
			    int quiet_if_flat)
{
	struct plot_rec r;
	uint32_t sel[PLOT_MAX_SERIES];
	const char *missing = NULL;
	char *buf;
	size_t len;
	int n, err = input_read(rec_path, &buf, &len);

	if (err)
		return cli_error("%s: %s", rec_path, input_strerror(err));
	memset(&r, 0, sizeof(r));
	err = plot_rec_parse(&r, buf, len, rec_path, &cli_diag);
	free(buf);
	if (err) {
		plot_rec_fini(&r);
		return cli_error("%s: %s", rec_path,
				 err == -EBADMSG ? "no "
						   "@sample"
						   " row: not a 'watch --csv' recording"
						 : input_strerror(err));
	}
	n = plot_rec_select(&r, a->nwant ? a->want : NULL, sel, &missing);
	if (n == -ENOENT)
		err = cli_error("%s: no counter '%s' in the recording", rec_path, missing);
	else if (n <= 0 && quiet_if_flat)
		fprintf(stderr, "nlru-vmstat: %s: no counter changed; no chart\n", rec_path);
	else if (n <= 0)
		err = cli_error("%s: no counter changed during the recording; name some with "
				"--counter",
				rec_path);
	else if ((err = plot_counters_write(&r, sel, n, prefix, (enum plot_fmt)a->img)))
		err = cli_error("%s: %s", prefix, input_strerror(err));
	plot_rec_fini(&r);
	if (!err && n <= 0)
		return EXIT_OK;
	return err ? EXIT_INPUT : draw(a, prefix);
}

/* The latency statistics of several columns side by side: mmtests' rows, one column each. */
static void print_stats_columns(const struct plot_series *ser, const struct stutter_stats *st,
				int n, enum out_fmt fmt)
{
	if (fmt == OUT_JSON) {
		fputs("{\"unit\":\"ms\",\"columns\":[", stdout);
		for (int c = 0; c < n; c++) {
			fputs(c ? ",{\"name\":" : "{\"name\":", stdout);
			out_json_str(stdout, ser[c].name);
			printf(",\"samples\":%llu,\"rows\":{", (unsigned long long)st[c].n);
			for (int i = 0; i < NR_STUTTER_STATS; i++) {
				printf("%s\"%s\":", i ? "," : "", stutter_stat_names[i]);
				out_json_num(stdout, st[c].ms[i]);
			}
			fputs("}}", stdout);
		}
		fputs("]}\n", stdout);
		return;
	}
	if (fmt == OUT_CSV) {
		fputs("row,op", stdout);
		for (int c = 0; c < n; c++) {
			fputc(',', stdout);
			out_csv_str(stdout, ser[c].name);
		}
		fputc('\n', stdout);
	} else {
		printf("%-16s", "");
		for (int c = 0; c < n; c++)
			printf("%12s", ser[c].name);
		fputc('\n', stdout);
	}
	for (int i = 0; i < NR_STUTTER_STATS; i++) {
		printf(fmt == OUT_CSV ? "%s,mmap" : "%-11s mmap", stutter_stat_names[i]);
		for (int c = 0; c < n; c++)
			printf(fmt == OUT_CSV ? ",%.4f" : "%12.4f", st[c].ms[i]);
		fputc('\n', stdout);
	}
}

/* Every column of a results folder on one chart; @quiet: no statistics on stdout. */
static int plot_stutter_columns(const struct plot_args *a, const struct plot_column *cols, int n,
				const char *prefix, int quiet)
{
	struct plot_series *ser = calloc((size_t)n, sizeof(*ser));
	struct stutter_stats *st = calloc((size_t)n, sizeof(*st));
	char used[PLOT_PATH_MAX];
	int err = ser && st ? 0 : -ENOMEM, rc = EXIT_OK;

	for (int c = 0; !err && c < n; c++) {
		snprintf(ser[c].name, sizeof(ser[c].name), "%s", cols[c].name);
		for (int i = 0; i < NR_STUTTER_STATS; i++)
			st[c].ms[i] = NAN;
		err = stutter_load_dir(&ser[c].s, cols[c].dir, &cli_diag, used, sizeof(used));
		if (err == -EBADMSG) { /* a column without samples is drawn empty, its rows NaN */
			fprintf(stderr, "nlru-vmstat: %s: no latency sample\n", used);
			err = 0;
		}
		if (!err && ser[c].s.total)
			stutter_stats(&ser[c].s, &st[c]);
	}
	if (err)
		rc = cli_error("%s: %s", used, input_strerror(err));
	else if (!quiet)
		print_stats_columns(ser, st, n, a->fmt);
	if (!rc && (err = plot_stutter_overlay_write(ser, n, prefix, (enum plot_fmt)a->img)))
		rc = cli_error("%s: %s", prefix, input_strerror(err));
	for (int c = 0; ser && c < n; c++)
		stutter_fini(&ser[c].s);
	free(ser);
	free(st);
	return rc ? EXIT_INPUT : draw(a, prefix);
}

static const char *const latency_files[] = {STUTTER_FILE, STUTTER_MMTESTS_FILE, NULL};

static int plot_counters(const struct plot_args *a, const char *rec_path)
{
	return plot_counters_to(a, rec_path, a->prefix ? a->prefix : "nlru-counters", 0);
}

/* The name of a counters recording in a column's folder (`watch --csv` of its engine). */
#define RECORDING_FILE "counters.csv"

/*
 * A folder holding a latency log: its one distribution.  A results folder: every column it
 * holds (each mode's folder, or each under stutter/ in ./run.sh's folder) on the same axes.
 */
static int plot_stutter(const struct plot_args *a, const char *dir)
{
	struct plot_column cols[PLOT_MAX_SERIES];
	struct stutter_samples s;
	struct stutter_stats st;
	char used[4096], prefix[4096];
	int n = plot_find_columns(dir, "stutter", latency_files, cols), err;

	snprintf(prefix, sizeof(prefix), "%s", a->prefix ? a->prefix : "nlru-stutter");
	if (n > 0 && strcmp(cols[0].dir, dir) != 0)
		return plot_stutter_columns(a, cols, n, prefix, 0);
	memset(&s, 0, sizeof(s));
	err = stutter_load_dir(&s, dir, &cli_diag, used, sizeof(used));
	if (err == -ENOENT)
		err = cli_error("%s: neither %s nor %s found, here or in a column's folder", dir,
				STUTTER_FILE, STUTTER_MMTESTS_FILE);
	else if (err == -EBADMSG)
		err = cli_error("%s: no latency sample", used);
	else if (err)
		err = cli_error("%s: %s", used, input_strerror(err));
	if (err) {
		stutter_fini(&s);
		return EXIT_INPUT;
	}
	stutter_stats(&s, &st);
	stutter_print(&st, a->fmt, stdout);
	err = plot_stutter_write(&s, prefix, (enum plot_fmt)a->img);
	stutter_fini(&s);
	if (err)
		return cli_error("%s: %s", prefix, input_strerror(err));
	return draw(a, prefix);
}

/* The worse of two exit statuses: an input error over a gnuplot one over success. */
static int worse(int rc, int r)
{
	return rc == EXIT_INPUT || r == EXIT_INPUT ? EXIT_INPUT : rc ? rc : r;
}

/* One chart per order: cycles per page against the batch, every column a line. */
static int plot_pagealloc(const struct plot_args *a, const char *dir, const char *prefix)
{
	struct plot_pagealloc *pa = malloc(sizeof(*pa));
	char path[PLOT_PATH_MAX], one[PLOT_PATH_MAX + 32];
	char *buf = NULL;
	size_t len;
	int err = pa ? 0 : -ENOMEM, rc = EXIT_OK;

	if (!pa)
		return cli_error("plot: %s", strerror(-err));
	if (!plot_find_file(dir, "pagealloc", "pagealloc-cycles.csv", path, sizeof(path))) {
		free(pa);
		return cli_error("%s: no pagealloc-cycles.csv, here or in pagealloc/", dir);
	}
	err = input_read(path, &buf, &len);
	if (!err)
		err = plot_pagealloc_load(pa, buf, len);
	free(buf);
	if (err) {
		free(pa);
		return cli_error("%s: %s", path,
				 err == -EBADMSG ? "no Amean row of a total-odr operation"
						 : input_strerror(err));
	}
	for (unsigned int o = 0; o < PLOT_PA_ORDERS; o++) {
		if (!pa->has_order[o])
			continue;
		snprintf(one, sizeof(one), "%s-order%u", prefix, o);
		err = plot_pagealloc_write(pa, o, one, (enum plot_fmt)a->img);
		rc = worse(rc, err ? cli_error("%s: %s", one, input_strerror(err)) : draw(a, one));
	}
	free(pa);
	return rc;
}

/* The benchmarks' folders in ./run.sh's results folder. */
static const char *const run_benches[] = {"pagealloc", "stutter", "paralleldd", "tiobench"};
#define NR_RUN_BENCHES (int)(sizeof(run_benches) / sizeof(run_benches[0]))

/* The vmstat summary as bars: of the folder, or of each benchmark of ./run.sh's folder. */
static int plot_summary(const struct plot_args *a, const char *dir, const char *prefix)
{
	char path[PLOT_PATH_MAX], one[PLOT_PATH_MAX + 32], title[96];
	int rc = EXIT_OK, found = 0;

	for (int b = 0; b <= NR_RUN_BENCHES && found >= 0; b++) {
		const char *bench = b ? run_benches[b - 1] : "";
		char *buf;
		size_t len;
		int err;

		snprintf(path, sizeof(path), "%s%s%s/vmstat-summary.csv", dir, b ? "/" : "", bench);
		if (input_read(path, &buf, &len))
			continue;
		found = b ? found + 1 : -1; /* the folder's own summary stands alone */
		snprintf(one, sizeof(one), "%s%s%s", prefix, b ? "-" : "", bench);
		snprintf(title, sizeof(title), "%s%svmstat summary", bench, b ? " " : "");
		err = plot_summary_write(buf, len, title, one, (enum plot_fmt)a->img);
		free(buf);
		rc = worse(rc, err ? cli_error("%s: %s", path,
					       err == -EBADMSG ? "not a vmstat summary"
							       : input_strerror(err))
				   : draw(a, one));
	}
	return found ? rc
		     : cli_error("%s: no vmstat-summary.csv, here or in a benchmark's folder", dir);
}

/* Every chart a results folder allows: PREFIX-stutter, PREFIX-pagealloc-order<N>, ... */
static int plot_results(const struct plot_args *a, const char *dir)
{
	const char *base = a->prefix ? a->prefix : "nlru-results";
	struct plot_column cols[PLOT_MAX_SERIES];
	char prefix[PLOT_PATH_MAX + 32], path[PLOT_PATH_MAX];
	int n = plot_find_columns(dir, "stutter", latency_files, cols), rc = EXIT_OK, any = 0;

	if (n > 0) {
		snprintf(prefix, sizeof(prefix), "%s-stutter", base);
		rc = worse(rc, plot_stutter_columns(a, cols, n, prefix, 1));
		any = 1;
	}
	if (plot_find_file(dir, "pagealloc", "pagealloc-cycles.csv", path, sizeof(path))) {
		snprintf(prefix, sizeof(prefix), "%s-pagealloc", base);
		rc = worse(rc, plot_pagealloc(a, dir, prefix));
		any = 1;
	}
	snprintf(prefix, sizeof(prefix), "%s-summary", base);
	for (int b = 0; b < NR_RUN_BENCHES; b++)
		if (plot_find_file(dir, run_benches[b], "vmstat-summary.csv", path, sizeof(path))) {
			rc = worse(rc, plot_summary(a, dir, prefix));
			any = 1;
			break;
		}
	/* Counters over time, where a column's folder holds a recording of them. */
	for (int b = 0; b < 2; b++) {
		static const char *const benches[] = {"pagealloc", "stutter"};
		static const char *const rec[] = {RECORDING_FILE, NULL};
		int nr = plot_find_columns(dir, benches[b], rec, cols);

		for (int c = 0; c < nr; c++) {
			snprintf(path, sizeof(path), "%s/%s", cols[c].dir, RECORDING_FILE);
			snprintf(prefix, sizeof(prefix), "%s-counters-%.63s", base, cols[c].name);
			rc = worse(rc, plot_counters_to(a, path, prefix, 1));
		}
		if (nr == 1 && strcmp(cols[0].dir, dir) == 0)
			break; /* the folder's own recording: found from either benchmark */
	}
	return any ? rc : cli_error("%s: not a results folder of the benchmarks", dir);
}

int cmd_plot(int argc, char **argv)
{
	struct plot_args a;
	int rc = parse_args(argc, argv, &a);

	if (rc)
		return rc;
	if (strcmp(argv[optind], "counters") == 0)
		return plot_counters(&a, argv[optind + 1]);
	if (strcmp(argv[optind], "stutter") == 0)
		return plot_stutter(&a, argv[optind + 1]);
	if (strcmp(argv[optind], "pagealloc") == 0)
		return plot_pagealloc(&a, argv[optind + 1], a.prefix ? a.prefix : "nlru-pagealloc");
	if (strcmp(argv[optind], "summary") == 0)
		return plot_summary(&a, argv[optind + 1], a.prefix ? a.prefix : "nlru-summary");
	if (strcmp(argv[optind], "results") == 0)
		return plot_results(&a, argv[optind + 1]);
	return cli_error("plot: unknown chart '%s' (counters, stutter, pagealloc, summary or "
			 "results)",
			 argv[optind]);
}
