/*
 * cli - what every subcommand of nlru-vmstat shares: the exit codes, the stderr reporter for
 * parser diagnostics, loading an input with a clear message, and number arguments.
 */
#ifndef NODELRU_TOOLS_VMSTAT_CLI_H
#define NODELRU_TOOLS_VMSTAT_CLI_H

#include "buddyinfo.h"
#include "diag.h"
#include "dump.h"
#include "out.h"
#include "zoneinfo.h"

enum {
	EXIT_OK = 0,
	EXIT_OUTPUT = 1,  /* the output could not be written (a full disk, a closed pipe) */
	EXIT_INPUT = 2,   /* bad usage, or an input that cannot be read as asked */
	EXIT_GNUPLOT = 3, /* plot: gnuplot is missing or failed (data and script are written) */
};

extern const struct vm_diag cli_diag; /* prints "file:line: warning: ..." to stderr */

/* cli_error - "nlru-vmstat: " + message on stderr; returns EXIT_INPUT for `return cli_error()`. */
int cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* cli_dump_strerror - a message for dump_load()'s errors. */
const char *cli_dump_strerror(int err);

/*
 * cli_load_dump / cli_load_zoneinfo - load or explain why not (and leave nothing to free).
 * 0 or EXIT_INPUT.
 */
int cli_load_dump(struct vm_dump *d, const char *path);
int cli_load_zoneinfo(struct zoneinfo *zi, const char *path);

/*
 * cli_is_buddyinfo - is @path a buddyinfo or pagetypeinfo file?  0 also when it cannot be
 * read: the loader the caller then uses says why.
 */
int cli_is_buddyinfo(const char *path);

/* cli_load_buddyinfo - load a buddyinfo or pagetypeinfo file or explain why not.  0 or EXIT_INPUT.
 */
int cli_load_buddyinfo(struct buddyinfo *bi, const char *path);

/* cli_seconds - a finite number > 0 (or >= 0 with @zero_ok).  0 or EXIT_INPUT. */
int cli_seconds(const char *s, const char *what, int zero_ok, double *out);

#endif /* NODELRU_TOOLS_VMSTAT_CLI_H */
