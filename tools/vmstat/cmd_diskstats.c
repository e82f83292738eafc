/* cmd_diskstats - the diskstats subcommand: one /proc/diskstats file, or two as iostat -x. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>

#include "cli.h"
#include "cmd.h"
#include "diskstats.h"
#include "input.h"

enum { OPT_JSON = 256, OPT_CSV, OPT_ELAPSED, OPT_ALL };

static const struct option opts[] = {
	{"json", no_argument, NULL, OPT_JSON},
	{"csv", no_argument, NULL, OPT_CSV},
	{"elapsed", required_argument, NULL, OPT_ELAPSED},
	{"all", no_argument, NULL, OPT_ALL},
	{NULL, 0, NULL, 0},
};

/* Load @path or explain why not, leaving nothing to free.  0 or EXIT_INPUT. */
static int load(struct diskstats *ds, const char *path)
{
	int err = diskstats_init(ds, path);

	if (!err)
		err = diskstats_load(ds, path, &cli_diag);
	if (err)
		diskstats_fini(ds);
	if (err == -EMEDIUMTYPE)
		return cli_error("%s: not a diskstats file: its first line does not open with a "
				 "major number (a vmstat dump? use 'nlru-vmstat show')",
				 path);
	if (err == -EBADMSG)
		return cli_error("%s: no 'major minor name statistics...' line could be read",
				 path);
	if (err)
		return cli_error("%s: %s", path, input_strerror(err));
	return 0;
}

int cmd_diskstats(int argc, char **argv)
{
	struct diskstats before, after;
	enum out_fmt fmt = OUT_TEXT;
	double elapsed = NAN;
	int c, all = 0, files, rc;

	optind = 0;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (c == OPT_JSON)
			fmt = OUT_JSON;
		else if (c == OPT_CSV)
			fmt = OUT_CSV;
		else if (c == OPT_ELAPSED && cli_seconds(optarg, "--elapsed", 0, &elapsed))
			return EXIT_INPUT;
		else if (c == OPT_ALL)
			all = 1;
		else if (c != OPT_ELAPSED)
			return EXIT_INPUT;
	}
	files = argc - optind;
	if (files != 1 && files != 2)
		return cli_error("diskstats: expected FILE, or BEFORE and AFTER (see --help)");
	if (files == 1 && !isnan(elapsed))
		return cli_error("diskstats: --elapsed belongs to two files, BEFORE and AFTER");
	rc = load(&before, argv[optind]);
	if (rc)
		return rc;
	if (files == 1) {
		diskstats_print(&before, all, fmt, stdout);
		diskstats_fini(&before);
		return EXIT_OK;
	}
	rc = load(&after, argv[optind + 1]);
	if (rc) {
		diskstats_fini(&before);
		return rc;
	}
	if (diskstats_diff_print(&before, &after, elapsed, all, fmt, stdout))
		rc = cli_error("out of memory");
	diskstats_fini(&before);
	diskstats_fini(&after);
	return rc;
}
