/*
 * nlru-vmstat - read, diff, compare and plot vmstat and zoneinfo dumps of nodelru and of Linux
 * 4.7, 4.8 and 6.x, and read /proc/diskstats as iostat -x does.  This file only dispatches; each
 * subcommand lives in cmd_*.c and the work in the library files they call.  docs/vmstat-tool.md is
 * the user guide.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <nodelru/nodelru.h>

#include "cli.h"
#include "cmd.h"

static const char usage[] =
	"usage: nlru-vmstat COMMAND [ARGS] [--json|--csv]\n"
	"\n"
	"  show FILE                            a dump, grouped, with the meaning of each counter\n"
	"  diff BEFORE AFTER [--elapsed S] [--all]\n"
	"                                       event deltas (and rates), state before/after\n"
	"  compare NAME=BEFORE,AFTER[,S] ...    the mmtests vmstat summary, first run as baseline\n"
	"          NAME=TESTS_TIMESTAMP ...     (or runs read from mmtests tests-timestamp files)\n"
	"          [--extended]                 (also pgrefill, pgskip and workingset rows)\n"
	"  zoneinfo FILE                        per node and zone: free, watermarks, sizes, LRUs\n"
	"  diskstats FILE [--all]               /proc/diskstats: each device's counts\n"
	"  diskstats BEFORE AFTER [--elapsed S] [--all]\n"
	"                                       iostat -x: MB/s, IOPS, request size, await, %util\n"
	"  watch [SOURCE] [--interval S] [--count N]\n"
	"                                       print changing counters of SOURCE (/proc/vmstat)\n"
	"  plot counters RECORDING [--counter NAME]... [-o PREFIX] [--png|--svg] [--no-run]\n"
	"  plot stutter RESULTS_DIR [-o PREFIX] [--png|--svg] [--no-run]\n"
	"\n"
	"Exit status: 0 done (warnings go to stderr), 1 the output could not be written,\n"
	"2 bad usage or unreadable input, 3 gnuplot missing or failed.  See docs/vmstat-tool.md.\n";

struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
};

static const struct command commands[] = {
	{"show", cmd_show},           {"diff", cmd_diff},   {"compare", cmd_compare},
	{"zoneinfo", cmd_zoneinfo},   {"watch", cmd_watch}, {"plot", cmd_plot},
	{"diskstats", cmd_diskstats},
};

/*
 * A full disk or a closed pipe often shows only when stdout is flushed at exit, so it is
 * flushed and closed here and checked, as coreutils' close_stdout does: `show x > /dev/full`
 * must not succeed.  A command that already failed keeps its own status.
 */
static int close_stdout(int rc)
{
	int bad = ferror(stdout);

	errno = 0;
	if (fclose(stdout) == 0 && !bad)
		return rc;
	fprintf(stderr, "nlru-vmstat: error writing the output%s%s\n", errno ? ": " : "",
		errno ? strerror(errno) : "");
	return rc == EXIT_OK ? EXIT_OUTPUT : rc;
}

static int run(int argc, char **argv)
{
	if (argc < 2) {
		fputs(usage, stderr);
		return EXIT_INPUT;
	}
	if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0 ||
	    strcmp(argv[1], "help") == 0) {
		fputs(usage, stdout);
		return EXIT_OK;
	}
	if (strcmp(argv[1], "--version") == 0) {
		printf("nlru-vmstat %d.%d.%d\n", NLRU_VERSION_MAJOR, NLRU_VERSION_MINOR,
		       NLRU_VERSION_PATCH);
		return EXIT_OK;
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (strcmp(argv[1], commands[i].name) == 0)
			return commands[i].fn(argc - 1, argv + 1);
	fprintf(stderr, "nlru-vmstat: unknown command '%s'\n%s", argv[1], usage);
	return EXIT_INPUT;
}

int main(int argc, char **argv)
{
	return close_stdout(run(argc, argv));
}
