/* cli - shared plumbing of the subcommands: messages, loading with explanations, numbers. */
#include "cli.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "input.h"

static void print_diag(void *arg, const char *path, unsigned int line, const char *msg)
{
	(void)arg;
	if (line)
		fprintf(stderr, "%s:%u: warning: %s\n", path ? path : "-", line, msg);
	else
		fprintf(stderr, "%s: warning: %s\n", path ? path : "-", msg);
}

const struct vm_diag cli_diag = {print_diag, NULL};

int cli_error(const char *fmt, ...)
{
	va_list ap;

	fputs("nlru-vmstat: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return EXIT_INPUT;
}

const char *cli_dump_strerror(int err)
{
	if (err == -EMEDIUMTYPE)
		return "a zoneinfo file, not a vmstat dump (use 'nlru-vmstat zoneinfo')";
	if (err == -ENOEXEC)
		return "a diskstats file, not a vmstat dump (use 'nlru-vmstat diskstats')";
	if (err == -ENOTSUP)
		return "a buddyinfo or pagetypeinfo file, not a vmstat dump (only 'nlru-vmstat show' "
		       "and 'diff' read it)";
	if (err == -EBADMSG)
		return "no 'name value' counter line found";
	return input_strerror(err);
}

int cli_load_dump(struct vm_dump *d, const char *path)
{
	int err = dump_init(d, path);

	if (!err)
		err = dump_load(d, path, &cli_diag);
	if (err) {
		dump_fini(d);
		return cli_error("%s: %s", path, cli_dump_strerror(err));
	}
	return 0;
}

int cli_load_zoneinfo(struct zoneinfo *zi, const char *path)
{
	int err = zoneinfo_init(zi, path);

	if (!err)
		err = zoneinfo_load(zi, path, &cli_diag);
	if (err)
		zoneinfo_fini(zi);
	if (err == -EMEDIUMTYPE)
		return cli_error(
			"%s: not a zoneinfo file: it does not open with 'Node N, zone NAME' "
			"(a vmstat dump? use 'nlru-vmstat show')",
			path);
	if (err == -EBADMSG)
		return cli_error("%s: no 'Node N, zone NAME' block found", path);
	if (err)
		return cli_error("%s: %s", path, input_strerror(err));
	return 0;
}

int cli_is_buddyinfo(const char *path)
{
	char *buf;
	size_t len;
	int is;

	if (input_read(path, &buf, &len))
		return 0;
	is = input_is_buddyinfo(buf, len) || input_is_pagetypeinfo(buf, len);
	free(buf);
	return is;
}

int cli_load_buddyinfo(struct buddyinfo *bi, const char *path)
{
	int err = buddyinfo_init(bi, path);

	if (!err)
		err = buddyinfo_load(bi, path);
	if (err == -EMEDIUMTYPE)
		cli_error("%s: not a buddyinfo or pagetypeinfo file: it opens with neither "
			  "'Node N, zone NAME' and counts nor 'Page block order'",
			  path);
	else if (err == -EBADMSG && bi->error_line)
		cli_error("%s:%u: malformed %s: %s", path, bi->error_line,
			  buddyinfo_format_name(bi->format), bi->error);
	else if (err == -EBADMSG)
		cli_error("%s: malformed %s: %s", path, buddyinfo_format_name(bi->format),
			  bi->error);
	else if (err)
		cli_error("%s: %s", path, input_strerror(err));
	if (err) {
		buddyinfo_fini(bi);
		return EXIT_INPUT;
	}
	return 0;
}

int cli_seconds(const char *s, const char *what, int zero_ok, double *out)
{
	char *end;
	double v = strtod(s, &end);

	if (end == s || *end || !isfinite(v) || v < 0 || (!zero_ok && v == 0))
		return cli_error("%s: '%s' is not a number of seconds%s", what, s,
				 zero_ok ? "" : " greater than 0");
	*out = v;
	return 0;
}
