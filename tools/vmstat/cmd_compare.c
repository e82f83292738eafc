/*
 * cmd_compare - `compare NAME=BEFORE,AFTER[,SECONDS] ...` (or NAME=TESTS_TIMESTAMP, an mmtests
 * result file holding both dumps and the time): loads every run's pair of dumps and prints the
 * mmtests vmstat summary.  A path cannot contain ',' in this syntax.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cmd.h"
#include "compare.h"
#include "input.h"
#include "mmtests.h"

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

/* Is @path an mmtests tests-timestamp file?  Unreadable files are left to the loaders. */
static int is_mmtests_file(const char *path)
{
	char *buf;
	size_t len;
	int yes;

	if (input_read(path, &buf, &len))
		return 0;
	yes = mmtests_looks_like(buf, len);
	free(buf);
	return yes;
}

static int load_mmtests(const char *path, const char *bench, struct run_arg *r)
{
	char *buf;
	size_t len;
	int err = input_read(path, &buf, &len);

	if (err)
		return cli_error("%s: %s", path, input_strerror(err));
	if (!mmtests_looks_like(buf, len)) {
		free(buf);
		return cli_error("compare: %s is not an mmtests tests-timestamp file; give "
				 "NAME=BEFORE,AFTER[,SECONDS]",
				 path);
	}
	err = dump_init(&r->before, path);
	if (!err)
		err = dump_init(&r->after, path);
	if (!err)
		err = mmtests_extract(buf, len, path, bench, &r->before, &r->after, &r->run.elapsed,
				      &cli_diag);
	free(buf);
	if (err) {
		dump_fini(&r->before);
		dump_fini(&r->after);
		if (err == -ENOENT)
			return cli_error("%s: no benchmark '%s' in the file", path, bench);
		return cli_error("%s: %s", path,
				 err == -EBADMSG
					 ? "no /proc/vmstat copies before and after the test"
					 : strerror(-err));
	}
	return 0;
}

static int load_pair(const char *b, const char *a, struct run_arg *r)
{
	if (cli_load_dump(&r->before, b))
		return EXIT_INPUT;
	if (cli_load_dump(&r->after, a)) {
		dump_fini(&r->before);
		return EXIT_INPUT;
	}
	return 0;
}

/*
 * "NAME=BEFORE,AFTER[,SECONDS]", "NAME=TESTS_TIMESTAMP" or "NAME=TESTS_TIMESTAMP,BENCH" (told
 * from BEFORE,AFTER by the first file's contents); @spec is modified in place.
 */
static int parse_spec(char *spec, struct run_arg *r)
{
	char *eq = strchr(spec, '='), *b, *a, *s;
	int rc;

	if (!eq || eq == spec || eq[1] == '\0')
		return cli_error("compare: '%s' is not NAME=BEFORE,AFTER[,SECONDS]", spec);
	*eq = '\0';
	b = eq + 1;
	a = strchr(b, ',');
	r->run.elapsed = NAN;
	r->run.name = spec;
	if (!a) {
		rc = load_mmtests(b, NULL, r);
	} else if (*a = '\0', is_mmtests_file(b)) {
		if (a[1] == '\0' || strchr(a + 1, ','))
			return cli_error("compare: run '%s' needs NAME=TESTS_TIMESTAMP,BENCH",
					 spec);
		rc = load_mmtests(b, a + 1, r);
	} else {
		*a = ',';
		if (a == b || a[1] == '\0' || a[1] == ',')
			return cli_error("compare: run '%s' needs BEFORE,AFTER", spec);
		*a++ = '\0';
		s = strchr(a, ',');
		if (s) {
			*s++ = '\0';
			if (cli_seconds(s, "compare", 1, &r->run.elapsed))
				return EXIT_INPUT;
			/* As a tests-timestamp's 0.00: the run is compared, without rates. */
			if (r->run.elapsed == 0)
				diag_report(&cli_diag, "compare", 0,
					    "run '%s': SECONDS is 0; its velocity rows print '-'",
					    spec);
		}
		rc = load_pair(b, a, r);
	}
	if (rc)
		return rc;
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
