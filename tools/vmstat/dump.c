/*
 * dump - parser and container of "name value" dumps (/proc/vmstat, the engine's stats file,
 * /sys/devices/system/node/nodeN/vmstat).
 *
 * The parser is strict about each line and lenient about the file: a bad line is reported with
 * its number and skipped, the rest is kept, and names it has never heard of are kept as they
 * are (new kernels add counters every release).  It never trusts input lengths: the fuzz target
 * in tests/fuzz drives dump_parse() directly.
 */
#include "dump.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "input.h"

int dump_init(struct vm_dump *d, const char *path)
{
	memset(d, 0, sizeof(*d));
	if (path) {
		d->path = strdup(path);
		if (!d->path)
			return -ENOMEM;
	}
	return 0;
}

void dump_fini(struct vm_dump *d)
{
	for (size_t i = 0; i < d->nr; i++)
		free(d->v[i].name);
	free(d->v);
	free(d->index);
	free(d->path);
	memset(d, 0, sizeof(*d));
}

/* FNV-1a: names are short and this is a lookup table, not an attack surface worth more. */
static uint32_t hash_name(const char *s, size_t len)
{
	uint32_t h = 2166136261u;

	for (size_t i = 0; i < len; i++) {
		h ^= (unsigned char)s[i];
		h *= 16777619u;
	}
	return h;
}

static size_t slot_of(const struct vm_dump *d, const char *name, size_t len)
{
	size_t mask = d->index_cap - 1;
	size_t i = hash_name(name, len) & mask;

	while (d->index[i]) {
		const char *n = d->v[d->index[i] - 1].name;

		if (strlen(n) == len && memcmp(n, name, len) == 0)
			break;
		i = (i + 1) & mask;
	}
	return i;
}

static int rehash(struct vm_dump *d, size_t cap)
{
	uint32_t *old = d->index;

	d->index = calloc(cap, sizeof(*d->index));
	if (!d->index) {
		d->index = old;
		return -ENOMEM;
	}
	d->index_cap = cap;
	for (size_t k = 0; k < d->nr; k++) {
		const char *n = d->v[k].name;

		d->index[slot_of(d, n, strlen(n))] = (uint32_t)(k + 1);
	}
	free(old);
	return 0;
}

static int reserve(struct vm_dump *d)
{
	if (d->nr == d->cap) {
		size_t ncap = d->cap ? d->cap * 2 : 256;
		struct vm_counter *nv = realloc(d->v, ncap * sizeof(*nv));

		if (!nv)
			return -ENOMEM;
		d->v = nv;
		d->cap = ncap;
	}
	if ((d->nr + 1) * 2 > d->index_cap)
		return rehash(d, d->index_cap ? d->index_cap * 2 : 512);
	return 0;
}

int dump_add(struct vm_dump *d, const char *name, size_t name_len, int64_t value, unsigned int line)
{
	struct vm_counter *c;
	size_t slot;
	int err;

	if (d->nr >= UINT32_MAX - 1)
		return -ENOMEM;
	err = reserve(d);
	if (err)
		return err;
	slot = slot_of(d, name, name_len);
	if (d->index[slot])
		return -EEXIST;
	c = &d->v[d->nr];
	c->name = strndup(name, name_len);
	if (!c->name)
		return -ENOMEM;
	c->value = value;
	c->line = line;
	d->index[slot] = (uint32_t)(++d->nr);
	return 0;
}

const struct vm_counter *dump_find(const struct vm_dump *d, const char *name)
{
	size_t slot;

	if (!d->index_cap)
		return NULL;
	slot = slot_of(d, name, strlen(name));
	return d->index[slot] ? &d->v[d->index[slot] - 1] : NULL;
}

int dump_get(const struct vm_dump *d, const char *name, int64_t *value)
{
	const struct vm_counter *c = dump_find(d, name);

	if (!c)
		return -ENOENT;
	*value = c->value;
	return 0;
}

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

static int is_name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '-' || c == '.';
}

/*
 * Accepts -2^63 .. 2^64-1.  Values above INT64_MAX are what %lu makes of a negative state
 * counter, so they wrap back to the negative number the kernel held.
 */
static int parse_value(const char *s, size_t len, int64_t *out, const char **why)
{
	int neg = len && s[0] == '-';
	uint64_t v = 0;
	size_t i = (size_t)neg;

	if (i == len) {
		*why = "value is not a number";
		return -EINVAL;
	}
	for (; i < len; i++) {
		unsigned d = (unsigned)(s[i] - '0');

		if (d > 9) {
			*why = "value is not a number";
			return -EINVAL;
		}
		if (v > (UINT64_MAX - d) / 10 || (neg && v * 10 + d > (uint64_t)INT64_MAX + 1)) {
			*why = "value out of range";
			return -EINVAL;
		}
		v = v * 10 + d;
	}
	*out = neg ? (int64_t)(0 - v) : (int64_t)v;
	return 0;
}

int dump_parse_value(const char *s, size_t len, int64_t *value, const char **why)
{
	while (len && is_space(*s)) {
		s++;
		len--;
	}
	while (len && is_space(s[len - 1]))
		len--;
	return parse_value(s, len, value, why);
}

/* The line is not NUL-terminated: strspn() would read past its end. */
static bool all_digits(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (s[i] < '0' || s[i] > '9')
			return false;
	return true;
}

int dump_parse_line(const char *s, size_t len, const char **name, size_t *name_len, int64_t *value,
		    const char **why)
{
	size_t i = 0, n0, v0;

	while (i < len && is_space(s[i]))
		i++;
	if (i == len || s[i] == '#')
		return 0;
	n0 = i;
	while (i < len && is_name_char(s[i]))
		i++;
	if (i == n0 || (i < len && !is_space(s[i]))) {
		*why = "bad counter name (expected 'name value')";
		return -EINVAL;
	}
	if (i - n0 > DUMP_NAME_MAX) {
		*why = "counter name too long";
		return -EINVAL;
	}
	*name = s + n0;
	*name_len = i - n0;
	while (i < len && is_space(s[i]))
		i++;
	v0 = i;
	while (i < len && !is_space(s[i]))
		i++;
	if (v0 == i) {
		/* Some 4.14-4.19 kernels print a per-node value whose name is missing. */
		*why = all_digits(*name, *name_len)
			       ? "a value without a counter name (expected 'name value')"
			       : "no value (expected 'name value')";
		return -EINVAL;
	}
	if (parse_value(s + v0, i - v0, value, why))
		return -EINVAL;
	while (i < len && is_space(s[i]))
		i++;
	if (i != len) {
		*why = "trailing text after the value (expected 'name value')";
		return -EINVAL;
	}
	return 1;
}

static int parse_one(struct vm_dump *d, const char *s, size_t len, unsigned int line,
		     const struct vm_diag *diag)
{
	const char *name = NULL, *why = NULL;
	size_t nlen = 0;
	int64_t value = 0;
	int r = dump_parse_line(s, len, &name, &nlen, &value, &why);

	if (r < 0) {
		d->nr_malformed++;
		diag_report(diag, d->path, line, "%s; line skipped", why);
		return 0;
	}
	if (r == 0)
		return 0;
	r = dump_add(d, name, nlen, value, line);
	if (r == -EEXIST) {
		const struct vm_counter *first = NULL;
		char tmp[DUMP_NAME_MAX + 1];

		memcpy(tmp, name, nlen);
		tmp[nlen] = '\0';
		first = dump_find(d, tmp);
		d->nr_malformed++;
		diag_report(diag, d->path, line,
			    "duplicate counter '%s' (first at line %u); line skipped", tmp,
			    first ? first->line : 0);
		return 0;
	}
	return r;
}

int dump_parse(struct vm_dump *d, const char *buf, size_t len, const struct vm_diag *diag)
{
	unsigned int line = 0;
	size_t pos = 0, n;
	const char *s;

	while ((s = input_next_line(buf, len, &pos, &n))) {
		int err = parse_one(d, s, n, ++line, diag);

		if (err)
			return err;
	}
	return 0;
}

int dump_load(struct vm_dump *d, const char *path, const struct vm_diag *diag)
{
	char *buf;
	size_t len;
	int err = input_read(path, &buf, &len);

	if (err)
		return err;
	/* A zoneinfo file's indented "name value" lines would parse as counters. */
	if (input_is_zoneinfo(buf, len)) {
		free(buf);
		return -EMEDIUMTYPE;
	}
	/* A diskstats line would be a malformed line: the file is refused as a whole. */
	if (input_is_diskstats(buf, len)) {
		free(buf);
		return -ENOEXEC;
	}
	/* So would every line of these two tables. */
	if (input_is_buddyinfo(buf, len) || input_is_pagetypeinfo(buf, len)) {
		free(buf);
		return -ENOTSUP;
	}
	err = dump_parse(d, buf, len, diag);
	free(buf);
	if (!err && d->nr == 0)
		err = -EBADMSG;
	return err;
}
