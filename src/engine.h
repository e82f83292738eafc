/*
 * struct nlru_engine: the root object.  Everything an engine owns hangs off it; nothing in the
 * library is global, so several engines live in one process side by side (node mode next to
 * zone mode in the benchmarks).
 *
 * Every layer above the memory model includes this header, so it holds in full only what the
 * allocator's inlines read (nodes, CPUs, event counters, the mode); the subsystems above the
 * allocator (owner table, flusher, page index cache, swap, block device, shrinkers) are named
 * by pointer only, and their types stay in their own headers.
 */
#ifndef NODELRU_ENGINE_H
#define NODELRU_ENGINE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include <nodelru/nodelru.h>

#include "cpu.h"
#include "debug.h"
#include "log.h"
#include "mmzone.h"
#include "mutex.h"
#include "page.h"
#include "ratelimit.h"

/* Event counters of one CPU, added to with relaxed atomics (a thread may migrate mid-way). */
struct vm_event_state {
	_Atomic unsigned long event[NR_VM_EVENT_ITEMS];
} __cacheline_aligned;

struct blkdev;
struct flusher;
struct nlru_shrinker;
struct owner_table;
struct pageindex_cache;
struct reclaim_mode;
struct swap_device;
struct topo;

struct nlru_engine {
	struct nlru_config cfg;          /* private copy; cfg.topology points at topology_desc */
	const struct reclaim_mode *mode; /* node (4.8) or zone (4.7): reclaim_mode.h */
	char *topology_desc;
	struct nlru_log log;
	struct topo *topo;
	int nr_nodes;
	int nr_cpus;   /* possible CPUs: size of every per-CPU array */
	int *cpu_node; /* [nr_cpus] node of each CPU, numa_node_id() */
	struct pglist_data *node_data[MAX_NUMNODES];
	struct vm_event_state *vm_events; /* [nr_cpus] */
	long min_free_kbytes;             /* in force: computed or configured */
	long computed_min_free_kbytes;    /* what 0 means: computed from the size at creation */
	atomic_bool membind_warned;       /* "binding refused" is said once per engine */
	bool pcp_rseq;                    /* per-CPU lists use restartable sequences (pcp.c) */
	bool fair_zone_policy; /* mode->fair_zone_policy, beside the fast path's fields */
	/* 3, or 0 when grouping by mobility is off (pgdat->group_by_mobility_disabled) */
	unsigned int migratetype_mask;
	char *swap_path;            /* private copy of cfg.swap_path */
	struct swap_device *swap;   /* NULL: no swap */
	struct blkdev *blkdev;      /* the block device model; NULL: I/O done in the caller */
	struct owner_table *owners; /* regions and files by id (page->mapping) */
	struct flusher *flusher;    /* background writeback of dirty file pages */
	struct pageindex_cache *pageindex_cache; /* free nodes of the files' page indexes */
	struct mutex shrinker_lock;              /* the shrinker list and each one's call count */
	struct mutex sysctl_lock;                /* nlru_tunable_set(): one change at a time */
	pthread_cond_t shrinker_idle;            /* a dead shrinker's last call ended */
	struct nlru_shrinker *shrinkers;         /* registered shrinkers, newest first */
	struct nlru_shrinker *shadow_shrinker;   /* the engine's own (workingset), not the user's */
	struct ratelimit_state alloc_warn_rs;    /* allocation failure reports (show_mem.c) */
	/* congestion_wait() calls: Linux counts none; tests see reclaim's throttle here */
	_Atomic unsigned long congestion_waits;
	/* Messages that repeat as fast as their cause, rate-limited (log.h) */
	struct ratelimit_state read_errors;  /* failed reads of files and swap */
	struct ratelimit_state write_errors; /* failed writebacks of files (swap has its own) */
	struct ratelimit_state bad_frees;    /* refused frees: a buggy caller's loop repeats them */
};

static inline struct pglist_data *NODE_DATA(const struct nlru_engine *eng, int nid)
{
	return eng->node_data[nid];
}

/* The node @page belongs to (Linux's page_pgdat(), with the engine for NODE_DATA). */
static inline struct pglist_data *page_pgdat(const struct nlru_engine *eng, const struct page *page)
{
	return NODE_DATA(eng, page_to_nid(page));
}

/* The CPU this thread runs on now, clamped into the per-CPU arrays. */
static inline int this_cpu(const struct nlru_engine *eng)
{
	int cpu = current_cpu();

	return (unsigned int)cpu < (unsigned int)eng->nr_cpus ? cpu : 0;
}

/* numa_node_id(): the node of the CPU this thread runs on. */
static inline int numa_node_id(const struct nlru_engine *eng)
{
	return eng->cpu_node[this_cpu(eng)];
}

#define NSEC_PER_MSEC 1000000ull

/*
 * A tunable nlru_tunable_set() may change while the engine runs (sysctl.c): read it where it
 * is used, relaxed, as Linux reads its vm sysctls.
 */
#define tunable(eng, name) __atomic_load_n(&(eng)->cfg.name, __ATOMIC_RELAXED)

/* The engine's notion of now, in ns: the config's clock, or CLOCK_MONOTONIC. */
static inline uint64_t engine_now_ns(const struct nlru_engine *eng)
{
	struct timespec ts;

	if (eng->cfg.clock)
		return eng->cfg.clock(eng->cfg.clock_arg);
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* @ns after @start: a deadline for a timed wait on a CLOCK_MONOTONIC condition variable. */
static inline struct timespec timespec_after(struct timespec start, uint64_t ns)
{
	uint64_t nsec = (uint64_t)start.tv_nsec + ns % 1000000000ull;

	start.tv_sec += (time_t)(ns / 1000000000ull + nsec / 1000000000ull);
	start.tv_nsec = (long)(nsec % 1000000000ull);
	return start;
}

/* @ns from now on CLOCK_MONOTONIC. */
static inline struct timespec monotonic_after(uint64_t ns)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return timespec_after(now, ns);
}

#define for_each_online_pgdat(pgdat, eng, nid)                                                     \
	for ((nid) = 0; (nid) < (eng)->nr_nodes && ((pgdat) = (eng)->node_data[nid]); (nid)++)

/* Config handling (config.c): validate a caller's config and copy it. */
int config_copy(struct nlru_config *dst, const struct nlru_config *src, const struct nlru_log *log);
/* The field of tunable @name in @cfg, or NULL if no tunable is called that. */
long *config_tunable_field(struct nlru_config *cfg, const char *name);
/* Why tunable @name does not take @value (out of its range, or a value it refuses), or NULL. */
const char *config_value_refused(const char *name, long value);

#endif /* NODELRU_ENGINE_H */
