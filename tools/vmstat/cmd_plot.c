/*
 * cmd_plot - `plot counters RECORDING ...` and `plot stutter RESULTS_DIR ...`.  The data file
 * and gnuplot script are always written; gnuplot is then run unless --no-run, and its absence
 * is an error of its own (exit 3) with the command to run later.
 */
#include <errno.h>
#include <getopt.h>
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
		return cli_error("plot: expected 'counters RECORDING' or 'stutter RESULTS_DIR'");
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

static int plot_counters(const struct plot_args *a, const char *rec_path)
{
	struct plot_rec r;
	uint32_t sel[PLOT_MAX_SERIES];
	const char *missing = NULL, *prefix = a->prefix ? a->prefix : "nlru-counters";
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
	else if (n <= 0)
		err = cli_error("%s: no counter changed during the recording; name some with "
				"--counter",
				rec_path);
	else if ((err = plot_counters_write(&r, sel, n, prefix, (enum plot_fmt)a->img)))
		err = cli_error("%s: %s", prefix, input_strerror(err));
	plot_rec_fini(&r);
	return err ? EXIT_INPUT : draw(a, prefix);
}

static int plot_stutter(const struct plot_args *a, const char *dir)
{
	struct stutter_samples s;
	struct stutter_stats st;
	char used[4096], prefix[4096];
	int err;

	memset(&s, 0, sizeof(s));
	err = stutter_load_dir(&s, dir, &cli_diag, used, sizeof(used));
	if (err == -ENOENT)
		err = cli_error("%s: neither %s nor %s found", dir, STUTTER_FILE,
				STUTTER_MMTESTS_FILE);
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
	snprintf(prefix, sizeof(prefix), "%s", a->prefix ? a->prefix : "nlru-stutter");
	err = plot_stutter_write(&s, prefix, (enum plot_fmt)a->img);
	stutter_fini(&s);
	if (err)
		return cli_error("%s: %s", prefix, input_strerror(err));
	return draw(a, prefix);
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
	return cli_error("plot: unknown chart '%s' (counters or stutter)", argv[optind]);
}
