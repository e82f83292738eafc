/*
 * dump - one /proc/vmstat-style dump: "name value" lines, kept in file order, with a hash index
 * for lookup by name.  The same container holds the per-node and per-zone counters of a
 * zoneinfo file.
 */
#ifndef NODELRU_TOOLS_VMSTAT_DUMP_H
#define NODELRU_TOOLS_VMSTAT_DUMP_H

#include <stddef.h>
#include <stdint.h>

#include "diag.h"

#define DUMP_NAME_MAX 64 /* longest counter name accepted; Linux's longest is ~40 */

struct vm_counter {
	char *name;
	/*
	 * The value as the kernel meant it.  Linux prints with %lu, so a state counter that
	 * drifted below zero prints as 2^64-k; such text parses back to -k here.
	 */
	int64_t value;
	unsigned int line; /* 1-based line in the source, 0 if added by hand */
};

struct vm_dump {
	char *path;           /* where it came from, for messages; may be NULL */
	struct vm_counter *v; /* counters in file order */
	size_t nr, cap;
	uint32_t *index;           /* open addressing: slot holds position + 1, 0 is empty */
	size_t index_cap;          /* power of two, at least twice nr */
	unsigned int nr_malformed; /* lines reported and skipped by dump_parse */
};

/* dump_init - an empty dump; @path is copied (NULL allowed).  0 or -ENOMEM. */
int dump_init(struct vm_dump *d, const char *path);
void dump_fini(struct vm_dump *d);

/* dump_add - append a counter.  0, -EEXIST if @name is already there, -ENOMEM. */
int dump_add(struct vm_dump *d, const char *name, size_t name_len, int64_t value,
	     unsigned int line);

/* dump_find - the counter called @name, or NULL. */
const struct vm_counter *dump_find(const struct vm_dump *d, const char *name);

/* dump_get - 0 and the value in *@value, or -ENOENT. */
int dump_get(const struct vm_dump *d, const char *name, int64_t *value);

/*
 * dump_parse_line - parse one line (without its newline) of @len bytes.
 * Returns 1 and fills *@name, *@name_len and *@value for a counter line, 0 for a blank or '#'
 * comment line, or -EINVAL with a reason in *@why for a malformed one.
 */
int dump_parse_line(const char *s, size_t len, const char **name, size_t *name_len, int64_t *value,
		    const char **why);

/*
 * dump_parse_value - parse the integer in @s (@len bytes, blanks around it allowed) as
 * dump_parse_line parses a value.  0, or -EINVAL with a reason in *@why.
 */
int dump_parse_value(const char *s, size_t len, int64_t *value, const char **why);

/*
 * dump_parse - add every counter of the text @buf (@len bytes, need not be NUL-terminated).
 * Malformed lines and duplicate names are reported through @diag with the line number and
 * skipped (the first of two duplicates is kept).  Returns 0 or -ENOMEM.
 */
int dump_parse(struct vm_dump *d, const char *buf, size_t len, const struct vm_diag *diag);

/*
 * dump_load - read and parse the file @path into an initialised dump.
 * Returns 0; the input_read() errors (-EISDIR, -ENODATA, -EILSEQ, -ENOENT, ...); -EMEDIUMTYPE
 * for a zoneinfo file; -ENOEXEC for a diskstats file (input_is_diskstats); -ENOTSUP for a
 * buddyinfo or pagetypeinfo file; or -EBADMSG when the file held no counter line at all.
 */
int dump_load(struct vm_dump *d, const char *path, const struct vm_diag *diag);

#endif /* NODELRU_TOOLS_VMSTAT_DUMP_H */
