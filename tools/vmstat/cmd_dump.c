/*
 * cmd_dump - the subcommands that read one or two files: show, diff, zoneinfo.  show and diff
 * also read buddyinfo and pagetypeinfo files, told apart from vmstat dumps by their first line.
 */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cmd.h"
#include "compare.h"
#include "diff.h"
#include "show.h"
#include "zoneinfo.h"

enum { OPT_JSON = 256, OPT_CSV, OPT_ELAPSED, OPT_ALL };

static const struct option fmt_opts[] = {
	{"json", no_argument, NULL, OPT_JSON},
	{"csv", no_argument, NULL, OPT_CSV},
	{"elapsed", required_argument, NULL, OPT_ELAPSED},
	{"all", no_argument, NULL, OPT_ALL},
	{NULL, 0, NULL, 0},
};

/* Options common to show, diff and zoneinfo; diff-only ones are refused elsewhere. */
struct dump_args {
	enum out_fmt fmt;
	struct diff_opts diff;
	int diff_only_seen;
};

static int parse_args(int argc, char **argv, struct dump_args *a)
{
	int c;

	a->fmt = OUT_TEXT;
	a->diff.elapsed = NAN;
	a->diff.all = 0;
	a->diff_only_seen = 0;
	optind = 0;
	while ((c = getopt_long(argc, argv, "", fmt_opts, NULL)) != -1) {
		if (c == OPT_JSON) {
			a->fmt = OUT_JSON;
		} else if (c == OPT_CSV) {
			a->fmt = OUT_CSV;
		} else if (c == OPT_ELAPSED) {
			if (cli_seconds(optarg, "--elapsed", 0, &a->diff.elapsed))
				return EXIT_INPUT;
			a->diff_only_seen = 1;
		} else if (c == OPT_ALL) {
			a->diff.all = a->diff_only_seen = 1;
		} else {
			return EXIT_INPUT;
		}
	}
	return 0;
}

static int want_files(int argc, char **argv, int n, const struct dump_args *a, int diff)
{
	if (argc - optind != n)
		return cli_error("%s: expected %d file argument%s (see --help)", argv[0], n,
				 n > 1 ? "s" : "");
	if (!diff && a->diff_only_seen)
		return cli_error("%s: --elapsed and --all belong to 'diff'", argv[0]);
	return 0;
}

static int show_buddyinfo(const char *path, enum out_fmt fmt)
{
	struct buddyinfo bi;
	int rc = cli_load_buddyinfo(&bi, path);

	if (rc)
		return rc;
	if (buddyinfo_show(&bi, fmt, stdout))
		rc = cli_error("out of memory");
	buddyinfo_fini(&bi);
	return rc;
}

/* Two buddyinfo or two pagetypeinfo files: free blocks, not counters. */
static int diff_buddyinfo(const char *before, const char *after, const struct dump_args *a)
{
	struct buddyinfo b, af;
	const char *why = NULL;
	int rc;

	if (!isnan(a->diff.elapsed))
		return cli_error("diff: --elapsed has no meaning for buddyinfo and pagetypeinfo");
	if ((rc = cli_load_buddyinfo(&b, before)))
		return rc;
	if ((rc = cli_load_buddyinfo(&af, after))) {
		buddyinfo_fini(&b);
		return rc;
	}
	if (buddyinfo_diff(&b, &af, &a->diff, a->fmt, stdout, &why))
		rc = cli_error("diff: %s and %s: %s", before, after, why);
	buddyinfo_fini(&b);
	buddyinfo_fini(&af);
	return rc;
}

int cmd_show(int argc, char **argv)
{
	struct dump_args a;
	struct vm_dump d;
	int rc = parse_args(argc, argv, &a);

	if (rc || (rc = want_files(argc, argv, 1, &a, 0)))
		return rc;
	if (cli_is_buddyinfo(argv[optind]))
		return show_buddyinfo(argv[optind], a.fmt);
	rc = cli_load_dump(&d, argv[optind]);
	if (rc)
		return rc;
	if (show_print(&d, a.fmt, stdout))
		rc = cli_error("out of memory");
	dump_fini(&d);
	return rc;
}

int cmd_diff(int argc, char **argv)
{
	struct vm_dump b, af;
	struct dump_args a;
	int rc = parse_args(argc, argv, &a);

	if (rc || (rc = want_files(argc, argv, 2, &a, 1)))
		return rc;
	if (cli_is_buddyinfo(argv[optind]) || cli_is_buddyinfo(argv[optind + 1]))
		return diff_buddyinfo(argv[optind], argv[optind + 1], &a);
	rc = cli_load_dump(&b, argv[optind]);
	if (rc)
		return rc;
	rc = cli_load_dump(&af, argv[optind + 1]);
	if (rc) {
		dump_fini(&b);
		return rc;
	}
	delta_check_down(&b, &af, &cli_diag, NULL, 0);
	if (diff_print(&b, &af, &a.diff, a.fmt, stdout))
		rc = cli_error("out of memory");
	dump_fini(&b);
	dump_fini(&af);
	return rc;
}

int cmd_zoneinfo(int argc, char **argv)
{
	struct zoneinfo zi;
	struct dump_args a;
	int rc = parse_args(argc, argv, &a);

	if (rc || (rc = want_files(argc, argv, 1, &a, 0)))
		return rc;
	rc = cli_load_zoneinfo(&zi, argv[optind]);
	if (rc)
		return rc;
	zoneinfo_print(&zi, a.fmt, stdout);
	zoneinfo_fini(&zi);
	return EXIT_OK;
}
