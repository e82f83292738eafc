/*
 * harness - what pagealloc and stutter share around their measured loops: the engine options
 * both take (size, topology, modes, tunables), one engine per reclaim mode configured alike,
 * the results folder and its files, the before/after dumps, and the progress line.
 */
#ifndef NODELRU_BENCH_HARNESS_H
#define NODELRU_BENCH_HARNESS_H

#include <stdio.h>

#include <nodelru/nodelru.h>

#include "mmtable.h"

#define HARNESS_MAX_SETS 32
#define HARNESS_MAX_MODES 2
#define HARNESS_PATH_MAX 4096

struct harness_opts {
	long node_mib;        /* memory per node; the node_mib tunable */
	const char *topology; /* NULL or "": the machine's; else an hwloc synthetic string */
	const char *sets[HARNESS_MAX_SETS]; /* "name=value" tunables, applied in order */
	int nr_sets;
	enum nlru_mode modes[HARNESS_MAX_MODES]; /* in column order: the first is the baseline */
	int nr_modes;
	const char *results;      /* the results folder of this benchmark */
	const char *mmtests_root; /* where mmtests' layout goes (mmtests_results.h); NULL:
				     the results folder */
	int cpu;                  /* CPU the measuring thread is bound to; -1: not bound;
				     HARNESS_CPU_FIRST: the first one the process may use */
	int quiet;                /* no progress line even on a terminal */
};

/* harness_opts_init - defaults: @node_mib, the real topology, zone then node, no folder. */
void harness_opts_init(struct harness_opts *o, long node_mib);

/*
 * harness_parse_opt - take argv[*i] (and its value argv[*i + 1]) if it is a harness option:
 * --mib N, --topology T, --set name=value, --modes zone,node, --results DIR, --mmtests-root DIR,
 * --cpu C, --quiet.
 * Returns 1 and advances *@i past the value when taken, 0 when the option is not one of these,
 * -EINVAL (with a message on stderr) when its value is missing or bad.
 */
int harness_parse_opt(struct harness_opts *o, int argc, char **argv, int *i);

/*
 * A program's own options: take @opt (and @val, its next argument, NULL at the end).
 * Returns 0 when it took @opt alone, 1 when it took @val too, -EINVAL when @opt is not one of
 * its options or @val is bad.
 */
typedef int (*harness_own_opt_fn)(void *arg, const char *opt, const char *val);

/*
 * harness_parse_args - every argument of argv[1..]: the harness options, and the others
 * through @own.  0; 1 for --help (or -h), the rest unread; or -EINVAL after a message on
 * stderr naming the bad option.
 */
int harness_parse_args(struct harness_opts *o, int argc, char **argv, harness_own_opt_fn own,
		       void *arg);

/* One line per harness option, for a program's usage text. */
extern const char harness_usage[];

/*
 * harness_engine - an engine in @mode from @o, with @extra ("name=value" pairs, NULL-ended,
 * applied before the user's --set) and prefault on.  0, or the -errno of nlru_config_set or
 * nlru_engine_create after a message on stderr.
 */
int harness_engine(const struct harness_opts *o, enum nlru_mode mode, const char *const *extra,
		   struct nlru_engine **out);

/* harness_mode_column - the column name of a mode in every table: "4.7-zone" or "4.8-node". */
const char *harness_mode_column(enum nlru_mode mode);

#define HARNESS_CPU_FIRST (-2)

/* harness_bind_cpu - bind the calling thread to o->cpu (nothing when it is -1). */
void harness_bind_cpu(const struct harness_opts *o);

/*
 * ", then --set name=value ..." of the user's --set tunables, to stdout after a line that
 * names the scale they override; nothing without --set.
 */
void harness_print_user_sets(const struct harness_opts *h);

/*
 * harness_results_dir - make o->results (mkdir -p), or when it is NULL a new folder
 * "$TMPDIR/nlru-<bench>-XXXXXX" kept in @buf (HARNESS_PATH_MAX bytes) and named on stderr.
 * 0 or -errno after a message.
 */
int harness_results_dir(struct harness_opts *o, const char *bench, char *buf);

/* harness_mkdir - mkdir -p.  0 or -errno. */
int harness_mkdir(const char *path);

/* harness_path - "<dir>/<name>" in @buf (HARNESS_PATH_MAX bytes); -ENAMETOOLONG. */
int harness_path(char *buf, const char *dir, const char *name);

/* harness_fopen - fopen of "<dir>/<name>"; NULL after a message on stderr. */
FILE *harness_fopen(const char *dir, const char *name, const char *mode);

/*
 * harness_dump - write the engine's /proc/vmstat, /proc/zoneinfo, /proc/diskstats (empty
 * without the block device), /proc/buddyinfo and /proc/pagetypeinfo dumps to
 * "<dir>/vmstat-<when>", "<dir>/zoneinfo-<when>", "<dir>/diskstats-<when>",
 * "<dir>/buddyinfo-<when>" and "<dir>/pagetypeinfo-<when>".  0 or -EIO.
 */
int harness_dump(struct nlru_engine *eng, const char *dir, const char *when);

/* harness_write_table - the table as <dir>/<base>.txt, .csv and .json.  0 or -EIO. */
int harness_write_table(const struct mm_table *t, const char *dir, const char *base);
/* Print @t under @title and keep it as harness_write_table() does; frees @t.  0 or -EIO. */
int harness_emit_table(struct mm_table *t, const char *dir, const char *base, const char *title);

/*
 * harness_progress - a progress line on stderr, redrawn in place, only when stderr is a
 * terminal and not quiet; a NULL @fmt clears it.
 */
void harness_progress(const struct harness_opts *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif /* NODELRU_BENCH_HARNESS_H */
