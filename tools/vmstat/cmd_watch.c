/*
 * cmd_watch - `watch [SOURCE] [--interval S] [--count N]`.  SIGINT and SIGTERM end the loop
 * cleanly (exit 0) after the sample in progress; the handler only sets a flag.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cmd.h"
#include "input.h"
#include "watch.h"

enum { OPT_JSON = 256, OPT_CSV, OPT_INTERVAL, OPT_COUNT };

static const struct option opts[] = {
	{"json", no_argument, NULL, OPT_JSON},
	{"csv", no_argument, NULL, OPT_CSV},
	{"interval", required_argument, NULL, OPT_INTERVAL},
	{"count", required_argument, NULL, OPT_COUNT},
	{NULL, 0, NULL, 0},
};

static volatile sig_atomic_t stop_flag;

static void on_signal(int sig)
{
	(void)sig;
	stop_flag = 1;
}

static void catch_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	/* No SA_RESTART: the nap must return at once so the loop sees the flag. */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

static int parse_count(const char *s, long *out)
{
	char *end;
	long v = strtol(s, &end, 10);

	if (end == s || *end || v < 1)
		return cli_error("watch: --count '%s' is not a whole number of 1 or more", s);
	*out = v;
	return 0;
}

int cmd_watch(int argc, char **argv)
{
	struct watch_opts o = {"/proc/vmstat", 1.0, 0, OUT_TEXT, &stop_flag, NULL, NULL, NULL};
	int c, err;

	optind = 0;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (c == OPT_JSON)
			o.fmt = OUT_JSON;
		else if (c == OPT_CSV)
			o.fmt = OUT_CSV;
		else if (c == OPT_INTERVAL && !cli_seconds(optarg, "--interval", 1, &o.interval))
			continue;
		else if (c == OPT_COUNT && !parse_count(optarg, &o.count))
			continue;
		else
			return EXIT_INPUT;
	}
	if (argc - optind > 1)
		return cli_error("watch: expected at most one SOURCE");
	if (argc - optind == 1)
		o.source = argv[optind];
	catch_signals();
	err = watch_run(&o, &cli_diag, stdout);
	if (ferror(stdout))
		return EXIT_OUTPUT; /* main() says so when it closes stdout */
	if (err)
		return cli_error("%s: %s", o.source, cli_dump_strerror(err));
	return EXIT_OK;
}
