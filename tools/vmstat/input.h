/*
 * input - read a whole text file (a /proc file, a dump, a recording) into memory, refusing what
 * cannot be a text dump: directories, empty files, binary files.
 */
#ifndef NODELRU_TOOLS_VMSTAT_INPUT_H
#define NODELRU_TOOLS_VMSTAT_INPUT_H

#include <stddef.h>

/* Largest file read; /proc/vmstat is ~10 KiB and a long watch recording a few MiB. */
#define INPUT_MAX_BYTES (256u << 20)

/*
 * input_read - read @path into a NUL-terminated heap buffer (*@buf, *@len without the NUL).
 * Returns 0, or: -EISDIR for a directory, -ENODATA for an empty file, -EILSEQ for a binary
 * file (a NUL byte or a control character other than tab, CR, LF, FF and VT), -EFBIG past
 * INPUT_MAX_BYTES, -ENOMEM, or the -errno of open/read.  *@buf is NULL on error.
 */
int input_read(const char *path, char **buf, size_t *len);

/* input_is_binary - the binary-file test of input_read, on a buffer. */
int input_is_binary(const char *buf, size_t len);

/*
 * input_next_line - the line of @buf that starts at *@pos, its length without the newline in
 * *@line_len, and *@pos moved past it; NULL once *@pos reaches @len.  A last line without a
 * newline is still a line.
 */
const char *input_next_line(const char *buf, size_t len, size_t *pos, size_t *line_len);

/*
 * input_is_zoneinfo - does @buf's first line that is not blank open with "Node " as
 * /proc/zoneinfo's "Node 0, zone      DMA" does, with nothing after the zone's name (unlike
 * buddyinfo)?  The one test by which dump_load refuses a zoneinfo file and zoneinfo_load
 * refuses anything else, before either parses a line.
 */
int input_is_zoneinfo(const char *buf, size_t len);

/*
 * input_is_buddyinfo - does @buf's first line that is not blank open with "Node " and go on
 * past the zone's name, as /proc/buddyinfo's "Node 0, zone      DMA      1      0 ..." does?
 * input_is_pagetypeinfo - does it open with "Page block order" (2.6.24 and later) or "Free
 * pages count per migrate type" (the table a section starts with)?
 */
int input_is_buddyinfo(const char *buf, size_t len);
int input_is_pagetypeinfo(const char *buf, size_t len);

/*
 * input_is_diskstats - does @buf's first line that is neither blank nor a '#' comment open,
 * after blanks, with a digit, as /proc/diskstats' "   8       0 sda ..." does?  A vmstat dump
 * opens with a counter name and a zoneinfo with "Node".
 */
int input_is_diskstats(const char *buf, size_t len);

/* input_strerror - a message for the codes above ("is a directory", "empty file", ...). */
const char *input_strerror(int err);

#endif /* NODELRU_TOOLS_VMSTAT_INPUT_H */
