/*
 * cmd_compare - `compare NAME=BEFORE,AFTER[,SECONDS] ...`: loads every run's pair of dumps and
 * prints the mmtests vmstat summary.  A path cannot contain ',' in this syntax.
 */
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cmd.h"
#include "compare.h"

enum { OPT_JSON = 256, OPT_CSV, OPT_EXTENDED };

static const struct option opts[] = {
    {"json", no_argument, NULL, OPT_JSON},
    {"csv", no_argument, NULL, OPT_CSV},
    {"extended", no_argument, NULL, OPT_EXTENDED},
    {NULL, 0, NULL, 0},
};

struct run_arg {
	struct cmp_run run;
	struct vm_dump before, after;
	int loaded;
};

/* "NAME=BEFORE,AFTER[,SECONDS]"; @spec is modified in place. */
static int parse_spec(char *spec, struct run_arg *r)
{
	char *eq = strchr(spec, '='), *b, *a, *s;

	if (!eq || eq == spec)
		return cli_error("compare: '%s' is not NAME=BEFORE,AFTER[,SECONDS]", spec);
	*eq = '\0';
	b = eq + 1;
	a = strchr(b, ',');
	if (!a || a == b || a[1] == '\0' || a[1] == ',')
		return cli_error("compare: run '%s' needs BEFORE,AFTER", spec);
	*a++ = '\0';
	s = strchr(a, ',');
	r->run.elapsed = NAN;
	if (s) {
		*s++ = '\0';
		if (cli_seconds(s, "compare", 0, &r->run.elapsed))
			return EXIT_INPUT;
	}
	r->run.name = spec;
	if (cli_load_dump(&r->before, b))
		return EXIT_INPUT;
	if (cli_load_dump(&r->after, a)) {
		dump_fini(&r->before);
		return EXIT_INPUT;
	}
	r->loaded = 1;
	r->run.before = &r->before;
	r->run.after = &r->after;
	return 0;
}

static int run_compare(struct run_arg *ra, size_t n, int extended, enum out_fmt fmt)
{
	struct cmp_run *runs = calloc(n, sizeof(*runs));
	struct cmp_table t;
	int rc = EXIT_OK;

	if (!runs)
		return cli_error("out of memory");
	for (size_t i = 0; i < n; i++)
		runs[i] = ra[i].run;
	if (compare_build(runs, n, extended, &cli_diag, &t)) {
		free(runs);
		return cli_error("out of memory");
	}
	compare_print(&t, runs, fmt, stdout);
	compare_free(&t);
	free(runs);
	return rc;
}

int cmd_compare(int argc, char **argv)
{
	enum out_fmt fmt = OUT_TEXT;
	struct run_arg *ra;
	int c, extended = 0, rc = EXIT_OK;
	size_t n;

	optind = 0;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (c == OPT_JSON)
			fmt = OUT_JSON;
		else if (c == OPT_CSV)
			fmt = OUT_CSV;
		else if (c == OPT_EXTENDED)
			extended = 1;
		else
			return EXIT_INPUT;
	}
	if (optind >= argc)
		return cli_error("compare: expected NAME=BEFORE,AFTER[,SECONDS] ... (see --help)");
	n = (size_t)(argc - optind);
	ra = calloc(n, sizeof(*ra));
	if (!ra)
		return cli_error("out of memory");
	for (size_t i = 0; i < n && !rc; i++)
		rc = parse_spec(argv[optind + (int)i], &ra[i]);
	if (!rc)
		rc = run_compare(ra, n, extended, fmt);
	for (size_t i = 0; i < n; i++) {
		if (ra[i].loaded) {
			dump_fini(&ra[i].before);
			dump_fini(&ra[i].after);
		}
	}
	free(ra);
	return rc;
}
