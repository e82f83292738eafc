/*
 * diskstats - /proc/diskstats of Linux and of nodelru (nlru_diskstats_dump), and the figures
 * iostat -x computes from two of them.
 *
 * Each line is "major minor name" and the device's statistics, as many as the kernel has
 * (block/genhd.c diskstats_show over its history):
 *   11  Linux 2.6.25 to 4.17, and the engine (4.8's line): reads, reads merged, sectors read,
 *       ms reading, the same four for writes, I/Os in flight, ms with I/O in flight, and that
 *       time weighted by the I/Os in flight;
 *   15  Linux 4.18 to 5.4: and discards, discards merged, sectors discarded, ms discarding;
 *   17  Linux 5.5 on: and flush requests, ms flushing.
 * Partition lines of kernels before 2.6.25 had 4 statistics counted another way: not read.
 * The millisecond fields and in-flight are printed with %u by every version, so they wrap at
 * 2^32; the counts are unsigned longs.
 */
#ifndef NODELRU_TOOLS_VMSTAT_DISKSTATS_H
#define NODELRU_TOOLS_VMSTAT_DISKSTATS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "diag.h"
#include "out.h"

enum ds_field {
	DS_READS,
	DS_READ_MERGES,
	DS_READ_SECTORS,
	DS_READ_MS,
	DS_WRITES,
	DS_WRITE_MERGES,
	DS_WRITE_SECTORS,
	DS_WRITE_MS,
	DS_IN_FLIGHT,
	DS_IO_MS,
	DS_WEIGHTED_MS,
	DS_DISCARDS, /* 4.18 on */
	DS_DISCARD_MERGES,
	DS_DISCARD_SECTORS,
	DS_DISCARD_MS,
	DS_FLUSHES, /* 5.5 on */
	DS_FLUSH_MS,
	DS_NR_FIELDS
};

/* The statistics a line of each layout has. */
#define DS_FIELDS_2_6_25 11
#define DS_FIELDS_4_18 15
#define DS_FIELDS_5_5 17

#define DS_NAME_MAX 64 /* longest device name accepted; Linux's BDEVNAME_SIZE is 32 */

struct ds_dev {
	char name[DS_NAME_MAX + 1];
	unsigned int major, minor;
	int nr_fields; /* 11, 15 or 17 */
	uint64_t v[DS_NR_FIELDS];
	unsigned int line;
};

struct diskstats {
	char *path; /* for messages; may be NULL */
	struct ds_dev *dev;
	size_t nr, cap;
	int max_fields;            /* the most statistics any line had */
	unsigned int nr_malformed; /* lines reported and skipped */
};

/* ds_field_key - "reads", "sectors_read", ...: the field's JSON key and CSV column. */
const char *ds_field_key(enum ds_field f);

/* ds_field_wraps32 - printed with %u by the kernel: a millisecond field or in-flight. */
int ds_field_wraps32(enum ds_field f);

/* ds_layout - "2.6.25-4.17", "4.18-5.4" or "5.5 on" for 11, 15 or 17 statistics. */
const char *ds_layout(int nr_fields);

/* diskstats_init - nothing read yet; @path is copied (NULL allowed).  0 or -ENOMEM. */
int diskstats_init(struct diskstats *ds, const char *path);
void diskstats_fini(struct diskstats *ds);

/*
 * diskstats_parse - add every device line of @buf (@len bytes).  A malformed line, a layout
 * this reader does not know and a second line of one device name are reported through @diag
 * with their line number and skipped; a line with more than 17 statistics (a later kernel's)
 * is read for its first 17, reported once.  0 or -ENOMEM.
 */
int diskstats_parse(struct diskstats *ds, const char *buf, size_t len, const struct vm_diag *diag);

/*
 * diskstats_load - read and parse the file @path.  An empty file is no device: the engine
 * writes one when it has no block device, and a machine without disks has one.  Returns 0;
 * the input_read() errors but -ENODATA; -EMEDIUMTYPE for a file whose first line does not
 * open with a major number (a vmstat dump, a zoneinfo); -EBADMSG when no line could be read.
 */
int diskstats_load(struct diskstats *ds, const char *path, const struct vm_diag *diag);

/* diskstats_find - the device named @name, or NULL. */
const struct ds_dev *diskstats_find(const struct diskstats *ds, const char *name);

/* ds_dev_idle - every statistic of the device is 0. */
int ds_dev_idle(const struct ds_dev *d);

enum ds_flag {
	DS_OK,
	DS_DOWN,        /* a count went down: a reboot between the files, or the two swapped */
	DS_ONLY_BEFORE, /* the device is missing from AFTER */
	DS_ONLY_AFTER,  /* the device is missing from BEFORE */
};

/* What one device did between two files. */
struct ds_delta {
	const char *name;
	const struct ds_dev *before, *after; /* NULL for the missing side */
	int nr_fields;                       /* the statistics both have */
	uint64_t d[DS_NR_FIELDS];            /* AFTER - BEFORE; in_flight is AFTER's level */
	enum ds_flag flag;
};

/*
 * ds_deltas - one per device of either file: AFTER's order, then those only BEFORE has.
 * The millisecond fields wrap at 2^32 (10 -> 2^32 - 5 ... 5 is 10 ms); a count that went
 * down flags the device DS_DOWN.  *@out is malloc'd; names point into the files.  Returns
 * the count or -ENOMEM.
 */
long ds_deltas(const struct diskstats *before, const struct diskstats *after,
	       struct ds_delta **out);

/* ds_delta_idle - no I/O between the files and none in flight. */
int ds_delta_idle(const struct ds_delta *d);

/*
 * The figures of iostat -x (sysstat 12, with -m for MB) over an interval: NAN where they are
 * undefined (no I/O of that kind for an average; no interval for a rate).  MB is 2^20 bytes,
 * kB 2^10, as iostat's; %util is capped at 100 as iostat shows it.
 */
struct ds_iostat {
	double r_s, rmb_s, rrqm_s, rrqm_pct, r_await, rareq_sz;
	double w_s, wmb_s, wrqm_s, wrqm_pct, w_await, wareq_sz;
	double d_s, dmb_s, drqm_s, drqm_pct, d_await, dareq_sz;
	double f_s, f_await;
	double aqu_sz, util;
	double await,
		areq_sz; /* reads, writes and discards together: iostat 11's await, avgrq-sz */
};

/* ds_iostat - the figures of @d over @elapsed seconds (NAN or <= 0: unknown). */
void ds_iostat(const struct ds_delta *d, double elapsed, struct ds_iostat *out);

/*
 * diskstats_print - one file, a line per device: the counts as read, sectors as MB in the text
 * table.  Idle devices are left out unless @all.  Returns 0.
 */
int diskstats_print(const struct diskstats *ds, int all, enum out_fmt fmt, FILE *f);

/*
 * diskstats_diff_print - two files: per device iostat -x's figures over @elapsed seconds (NAN:
 * unknown, rates and %util left out), and in JSON and CSV every field's change too.  Idle
 * devices are left out unless @all.  Returns 0 or -ENOMEM.
 */
int diskstats_diff_print(const struct diskstats *before, const struct diskstats *after,
			 double elapsed, int all, enum out_fmt fmt, FILE *f);

#endif /* NODELRU_TOOLS_VMSTAT_DISKSTATS_H */
