/*
 * mmtests - tests-timestamp reader.  The file interleaves marker lines ("test begin :: ...",
 * "file start :: /proc/vmstat", "file end :: /proc/zoneinfo", "time :: ...") with the raw
 * contents of /proc files; only the two /proc/vmstat copies and the time line matter here.
 * A copy ends at the next marker line, which is how mmtests itself delimits them.
 */
#include "mmtests.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input.h"

enum mm_section { MM_OTHER, MM_BEFORE, MM_AFTER, MM_DONE };

struct mm_parser {
	struct vm_dump *before, *after;
	double *elapsed;
	const struct vm_diag *diag;
	const char *path;
	const char *bench; /* the benchmark to read; NULL: the first */
	enum mm_section sec;
	unsigned int line;
	int tests;   /* "test begin ::" lines seen */
	int in_test; /* inside the benchmark read: from its "test begin" to its "test end" */
	int found;   /* that benchmark's "test begin" was seen */
};

static int starts(const char *s, size_t len, const char *prefix)
{
	size_t n = strlen(prefix);

	return len >= n && memcmp(s, prefix, n) == 0;
}

/* "time :: <bench> <user> user <system> system <elapsed> elapsed": field 7 is %e. */
static void time_line(struct mm_parser *p, const char *s, size_t len)
{
	char text[256], f[9][64];

	if (len >= sizeof(text) || !isnan(*p->elapsed))
		return;
	memcpy(text, s, len);
	text[len] = '\0';
	if (sscanf(text, "%63s %63s %63s %63s %63s %63s %63s %63s %63s", f[0], f[1], f[2], f[3],
		   f[4], f[5], f[6], f[7], f[8]) == 9 &&
	    strcmp(f[8], "elapsed") == 0) {
		char *end;
		double v = strtod(f[7], &end);

		if (*end == '\0' && isfinite(v) && v >= 0)
			*p->elapsed = v;
	}
	if (isnan(*p->elapsed))
		diag_report(p->diag, p->path, p->line,
			    "unreadable 'time ::' line; no elapsed time");
	else if (*p->elapsed == 0)
		diag_report(p->diag, p->path, p->line,
			    "the benchmark took 0.00 s (time's %%e resolution is 0.01 s); the "
			    "velocity rows print '-'");
}

/* Is the first word of @s (@len bytes) @word? */
static int word_is(const char *s, size_t len, const char *word)
{
	size_t n = strlen(word);

	return len >= n && memcmp(s, word, n) == 0 && (len == n || s[n] == ' ' || s[n] == '\t');
}

static void file_marker(struct mm_parser *p, const char *s, size_t len)
{
	int vm = len >= 12 && memcmp(s + len - 12, "/proc/vmstat", 12) == 0;

	if (p->sec == MM_DONE)
		return;
	if (!vm)
		p->sec = MM_OTHER;
	else
		p->sec = starts(s, len, "file start :: ") ? MM_BEFORE : MM_AFTER;
}

/*
 * Marker lines switch sections; returns 1 if @s was one.  mmtests' own patterns are anchored
 * only at the start, so a CR (a file that went through Windows) or blanks after the path must
 * not hide a marker: "/proc/vmstat" is matched at the end of the trimmed line.
 */
static int marker(struct mm_parser *p, const char *s, size_t len)
{
	while (len && (s[len - 1] == '\r' || s[len - 1] == ' ' || s[len - 1] == '\t'))
		len--;
	if (starts(s, len, "test begin :: ")) {
		p->tests++;
		if (p->bench) {
			p->in_test = !p->found && word_is(s + 14, len - 14, p->bench);
			p->found |= p->in_test;
			p->sec = p->in_test ? MM_OTHER : MM_DONE;
			return 1;
		}
		if (p->tests == 2)
			diag_report(p->diag, p->path, p->line,
				    "more than one benchmark; only the first is read (name one "
				    "as NAME=FILE,BENCH)");
		if (p->tests >= 2)
			p->sec = MM_DONE;
		return 1;
	}
	if (starts(s, len, "test end :: ")) {
		if (p->sec != MM_DONE)
			p->sec = p->bench ? MM_DONE : MM_OTHER;
		p->in_test = 0;
		return 1;
	}
	if (starts(s, len, "time :: ")) {
		if (p->bench ? word_is(s + 8, len - 8, p->bench) && p->found : p->tests < 2)
			time_line(p, s, len);
		return 1;
	}
	if (starts(s, len, "file start :: ") || starts(s, len, "file end :: ")) {
		file_marker(p, s, len);
		return 1;
	}
	return 0;
}

static int counter_line(struct mm_parser *p, const char *s, size_t len)
{
	struct vm_dump *d = p->sec == MM_BEFORE ? p->before : p->after;
	const char *name = NULL, *why = NULL;
	size_t nlen = 0;
	int64_t v = 0;
	int r = dump_parse_line(s, len, &name, &nlen, &v, &why);

	if (r < 0) {
		d->nr_malformed++;
		diag_report(p->diag, p->path, p->line, "%s; line skipped", why);
		return 0;
	}
	if (r == 0)
		return 0;
	r = dump_add(d, name, nlen, v, p->line);
	if (r == -EEXIST) {
		d->nr_malformed++;
		diag_report(p->diag, p->path, p->line, "duplicate counter; line skipped");
		return 0;
	}
	return r;
}

int mmtests_extract(const char *buf, size_t len, const char *path, const char *bench,
		    struct vm_dump *before, struct vm_dump *after, double *elapsed,
		    const struct vm_diag *diag)
{
	struct mm_parser p = {before, after, elapsed, diag, path, bench, MM_OTHER, 0, 0, 0, 0};
	size_t pos = 0, n;
	const char *s;

	*elapsed = NAN;
	while ((s = input_next_line(buf, len, &pos, &n))) {
		int err = 0;

		p.line++;
		if (!marker(&p, s, n) && (p.sec == MM_BEFORE || p.sec == MM_AFTER) &&
		    (!bench || p.in_test))
			err = counter_line(&p, s, n);
		if (err)
			return err;
	}
	if (bench && !p.found)
		return -ENOENT;
	return before->nr && after->nr ? 0 : -EBADMSG;
}

/*
 * run-mmtests.sh opens the file with "start :: <epoch>", then "arch ::" and numactl's
 * hardware listing, which can run to hundreds of lines, before the first "test begin ::".
 */
int mmtests_looks_like(const char *buf, size_t len)
{
	size_t pos = 0, n;
	const char *s;

	if (starts(buf, len, "start :: "))
		return 1;
	while ((s = input_next_line(buf, len, &pos, &n)))
		if (starts(s, n, "test begin :: "))
			return 1;
	return 0;
}
