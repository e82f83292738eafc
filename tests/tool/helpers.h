/*
 * helpers - shared by the nlru-vmstat tests: fixture paths, capture of parser diagnostics and
 * of printed output (open_memstream, no fork), and scratch folders under /tmp.
 */
#ifndef NODELRU_TESTS_TOOL_HELPERS_H
#define NODELRU_TESTS_TOOL_HELPERS_H

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "diag.h"
#include "dump.h"

#ifndef TOOL_DATA_DIR
#error "TOOL_DATA_DIR must name tests/tool/data"
#endif

#define DATA(name) TOOL_DATA_DIR "/" name

/* Every diagnostic of a parse, as "line: message\n" lines. */
struct diag_log {
	char text[16384];
	unsigned int count;
};

static inline void diag_log_fn(void *arg, const char *path, unsigned int line, const char *msg)
{
	struct diag_log *log = arg;
	size_t used = strlen(log->text);

	(void)path;
	log->count++;
	snprintf(log->text + used, sizeof(log->text) - used, "%u: %s\n", line, msg);
}

static inline struct vm_diag diag_for(struct diag_log *log)
{
	memset(log, 0, sizeof(*log));
	return (struct vm_diag){diag_log_fn, log};
}

/* Output capture: fclose() then use buf. */
struct capture {
	char *buf;
	size_t len;
	FILE *f;
};

static inline void capture_open(struct capture *c)
{
	c->buf = NULL;
	c->len = 0;
	c->f = open_memstream(&c->buf, &c->len);
	cr_assert_not_null(c->f);
}

static inline const char *capture_close(struct capture *c)
{
	fclose(c->f);
	c->f = NULL;
	return c->buf;
}

/* A dump parsed from a string. */
static inline void dump_from(struct vm_dump *d, const char *text, const struct vm_diag *diag)
{
	cr_assert_eq(dump_init(d, "test"), 0);
	cr_assert_eq(dump_parse(d, text, strlen(text), diag), 0);
}

/* A fresh scratch folder; its path is written to @dir (64 bytes). */
static inline void scratch_dir(char *dir)
{
	snprintf(dir, 64, "/tmp/nlru-vmstat-test-XXXXXX");
	cr_assert_not_null(mkdtemp(dir));
}

static inline void write_file(const char *path, const char *text, size_t len)
{
	FILE *f = fopen(path, "w");

	cr_assert_not_null(f, "cannot write %s", path);
	cr_assert_eq(fwrite(text, 1, len, f), len);
	cr_assert_eq(fclose(f), 0);
}

/* rm -r of a scratch folder holding only plain files. */
static inline void scratch_remove(const char *dir, const char *const *names)
{
	char path[256];

	for (; *names; names++) {
		snprintf(path, sizeof(path), "%s/%s", dir, *names);
		unlink(path);
	}
	rmdir(dir);
}

#endif /* NODELRU_TESTS_TOOL_HELPERS_H */
