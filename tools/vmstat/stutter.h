/*
 * stutter - latency samples of the stutter benchmark and mmtests' statistics of them
 * (ExtractStutter.pm and SummariseVariabletime.pm of bin/lib/MMTests/).  Input format, one
 * sample group per line:
 *
 *     <latency_ns>            one sample
 *     <count> <latency_ns>    count samples of that latency (mmtests' mmap-latency.log)
 *
 * Blank lines and lines starting with '#' are skipped.  Values are nanoseconds; statistics are
 * in milliseconds, as mmtests reports them.
 */
#ifndef NODELRU_TOOLS_VMSTAT_STUTTER_H
#define NODELRU_TOOLS_VMSTAT_STUTTER_H

#include <stdint.h>
#include <stdio.h>

#include "diag.h"
#include "out.h"

/* File names looked for in a results folder, in this order. */
#define STUTTER_FILE "stutter-latency.log"
#define STUTTER_MMTESTS_FILE "mmap-latency.log"

#define STUTTER_MAX_SAMPLES (UINT64_C(1) << 40)

struct stutter_group {
	uint64_t ns;    /* latency of each sample in the group */
	uint64_t count; /* samples in the group, >= 1 */
};

struct stutter_samples {
	struct stutter_group *g; /* sorted by ns once stutter_stats() ran */
	size_t nr, cap;
	uint64_t total;            /* Σ count, <= STUTTER_MAX_SAMPLES */
	unsigned int nr_malformed; /* lines reported and skipped */
};

void stutter_fini(struct stutter_samples *s);

/* stutter_parse - add the samples of @buf.  0, -ENOMEM, or -E2BIG past STUTTER_MAX_SAMPLES. */
int stutter_parse(struct stutter_samples *s, const char *buf, size_t len, const char *path,
		  const struct vm_diag *diag);

/*
 * stutter_load_dir - read STUTTER_FILE, else STUTTER_MMTESTS_FILE, from the folder @dir; the
 * path used is written to @used (@sz bytes).  input_read()'s errors; -ENOENT when the folder
 * has neither file; -EBADMSG when the file has no sample.
 */
int stutter_load_dir(struct stutter_samples *s, const char *dir, const struct vm_diag *diag,
		     char *used, size_t sz);

/* clang-format off */
enum {
	ST_MIN, ST_Q1, ST_Q2, ST_Q3, ST_P90, ST_P93, ST_P95, ST_P99, ST_MAX, ST_MEAN,
	ST_B99, ST_B95, ST_B90, ST_B50, ST_B10, ST_B5, ST_B1, NR_STUTTER_STATS
};
/* clang-format on */

struct stutter_stats {
	uint64_t n;
	double ms[NR_STUTTER_STATS];
};

extern const char *const stutter_stat_names[NR_STUTTER_STATS];

/* stutter_stats - sort @s and compute every row.  -ENODATA when there is no sample. */
int stutter_stats(struct stutter_samples *s, struct stutter_stats *st);

/* stutter_at - the sample at index @i of the sorted, expanded sample list, in ns. */
uint64_t stutter_at(const struct stutter_samples *s, uint64_t i);

/* stutter_print - the rows in mmtests' stutter layout (one column, no percentage). */
void stutter_print(const struct stutter_stats *st, enum out_fmt fmt, FILE *f);

#endif /* NODELRU_TOOLS_VMSTAT_STUTTER_H */
