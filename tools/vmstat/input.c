/*
 * input - whole-file reads for the tool.  /proc files report size 0 to stat(), so the size is
 * never trusted: the file is read until EOF into a growing buffer.
 *
 * Does not parse anything (it only tells a zoneinfo, buddyinfo, pagetypeinfo or diskstats file
 * by its first line); dump.c, zoneinfo.c, buddyinfo.c and diskstats.c do.
 */
#include "input.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int input_is_binary(const char *buf, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)buf[i];

		if (c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != '\v')
			return 1;
		if (c == 0x7f)
			return 1;
	}
	return 0;
}

static int grow(char **buf, size_t *cap, size_t need)
{
	size_t ncap = *cap ? *cap : 16384;
	char *nbuf;

	while (ncap < need)
		ncap *= 2;
	if (ncap == *cap)
		return 0;
	nbuf = realloc(*buf, ncap);
	if (!nbuf)
		return -ENOMEM;
	*buf = nbuf;
	*cap = ncap;
	return 0;
}

static int read_all(int fd, char **buf, size_t *len)
{
	size_t cap = 0, n = 0;
	int err;

	for (;;) {
		ssize_t r;

		err = grow(buf, &cap, n + 4096 + 1);
		if (err)
			return err;
		r = read(fd, *buf + n, cap - n - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		if (r == 0)
			break;
		n += (size_t)r;
		if (n > INPUT_MAX_BYTES)
			return -EFBIG;
	}
	(*buf)[n] = '\0';
	*len = n;
	return 0;
}

static int check_text(const char *buf, size_t len)
{
	if (len == 0)
		return -ENODATA;
	if (input_is_binary(buf, len))
		return -EILSEQ;
	return 0;
}

int input_read(const char *path, char **buf, size_t *len)
{
	struct stat st;
	int fd, err;

	*buf = NULL;
	*len = 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	/* read() on a directory fails with EISDIR anyway, but not on every filesystem. */
	if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
		close(fd);
		return -EISDIR;
	}
	err = read_all(fd, buf, len);
	close(fd);
	if (!err)
		err = check_text(*buf, *len);
	if (err) {
		free(*buf);
		*buf = NULL;
		*len = 0;
	}
	return err;
}

/* The first line of @buf that is not blank, without its leading blanks; NULL if none. */
static const char *first_line(const char *buf, size_t len, size_t *n)
{
	size_t pos = 0;
	const char *s;

	while ((s = input_next_line(buf, len, &pos, n))) {
		while (*n && (*s == ' ' || *s == '\t' || *s == '\r')) {
			s++;
			(*n)--;
		}
		if (*n)
			return s;
	}
	return NULL;
}

static int starts_with(const char *s, size_t n, const char *prefix)
{
	size_t k = strlen(prefix);

	return n >= k && memcmp(s, prefix, k) == 0;
}

int input_is_buddyinfo(const char *buf, size_t len)
{
	size_t n, i = 0;
	const char *s = first_line(buf, len, &n);
	int words = 0;

	if (!s || !starts_with(s, n, "Node "))
		return 0;
	/* "Node", "0,", "zone", the name, then the counts: zoneinfo's header stops at the name. */
	while (i < n) {
		while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r'))
			i++;
		if (i < n)
			words++;
		while (i < n && s[i] != ' ' && s[i] != '\t' && s[i] != '\r')
			i++;
	}
	return words > 4;
}

int input_is_pagetypeinfo(const char *buf, size_t len)
{
	size_t n;
	const char *s = first_line(buf, len, &n);

	return s && (starts_with(s, n, "Page block order") ||
		     starts_with(s, n, "Free pages count per migrate type"));
}

int input_is_zoneinfo(const char *buf, size_t len)
{
	size_t n;
	const char *s = first_line(buf, len, &n);

	return s && starts_with(s, n, "Node ") && !input_is_buddyinfo(buf, len);
}

int input_is_diskstats(const char *buf, size_t len)
{
	size_t pos = 0, n;
	const char *s;

	while ((s = input_next_line(buf, len, &pos, &n))) {
		size_t i = 0;

		while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r'))
			i++;
		if (i == n || s[i] == '#')
			continue;
		return s[i] >= '0' && s[i] <= '9';
	}
	return 0;
}

const char *input_strerror(int err)
{
	switch (err) {
	case -EISDIR:
		return "is a directory, not a dump";
	case -ENODATA:
		return "empty file";
	case -EILSEQ:
		return "binary file, not a text dump";
	case -EFBIG:
		return "file too large";
	default:
		return strerror(-err);
	}
}

const char *input_next_line(const char *buf, size_t len, size_t *pos, size_t *line_len)
{
	const char *start = buf + *pos;
	const char *nl;

	if (*pos >= len)
		return NULL;
	nl = memchr(start, '\n', len - *pos);
	*line_len = nl ? (size_t)(nl - start) : len - *pos;
	*pos += *line_len + 1;
	return start;
}
