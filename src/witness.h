/*
 * witness.h - the lock order of docs/design.md ("Locking") checked as locks are taken, in
 * builds with -Ddebug_checks=full (jemalloc's witness.h).
 *
 * Every lock of the engine belongs to a class below, listed in the order the classes nest:
 * a lock is only ever taken while holding locks of classes above it in the list.  Classes
 * on one row of the design's table share a rank (lock_class_rank()): neither is taken under
 * the other, nor is a second lock of a rank taken under the first (two zone locks, two
 * files' locks), which the table allows nowhere.
 *
 * Each thread keeps the locks it holds on a small stack.  Taking a lock whose rank is not
 * below every rank held is a violation: counted (witness_violations()) and logged through
 * the engine's log callback once per pair of classes, as "debug: lock order: ...", with
 * where each lock was taken.  It never aborts, and the lock is taken all the same.  A
 * trylock cannot deadlock, so a successful one is pushed without the order check; what is
 * taken under it is checked as usual.
 *
 * Below the full level every call here compiles to nothing and the locks carry no class.
 * Nothing here runs inside the per-CPU lists' restartable sequences (pcp.h): their lock is
 * checked where it is taken and released with a plain store or outside a sequence.
 */
#ifndef NODELRU_WITNESS_H
#define NODELRU_WITNESS_H

#include <stdbool.h>

#include "debug.h"

struct nlru_log;

/* Lock classes in the order they nest; docs/design.md's "Locking" table, row by row. */
enum lock_class {
	LOCK_NONE,            /* not a class: an unchecked lock */
	LOCK_PAGE,            /* PG_locked: a page being read in or written into */
	LOCK_OWNERS,          /* owner_table.lock */
	LOCK_REGION_MAP,      /* map_region.lock: a mapped region's page moves */
	LOCK_REGION,          /* nlru_region.lock */
	LOCK_FILE,            /* nlru_file.lock */
	LOCK_PAGEINDEX_CACHE, /* pageindex_cache.lock (a leaf under a file's lock) */
	LOCK_FLUSHER_LIST,    /* flusher.list_lock (a leaf under a file's lock) */
	LOCK_LRU,             /* lruvec.lru_lock */
	LOCK_PCP,             /* per_cpu_pages.lock */
	LOCK_ZONE,            /* zone.lock */
	LOCK_SWAP,            /* swap_device.lock */
	LOCK_KSWAPD,          /* kswapd_state.lock (a leaf) */
	LOCK_FLUSHER,         /* flusher.lock (a leaf) */
	LOCK_BLKDEV,          /* blkdev.lock: the block device model's queues (a leaf) */
	LOCK_SHRINKERS,       /* engine.shrinker_lock: the shrinker list (a leaf) */
	NR_LOCK_CLASSES
};

/* What a lock carries in full builds: its class, and the log its engine reports to. */
struct lock_witness {
	enum lock_class cls;
	const struct nlru_log *log;
};

unsigned int lock_class_rank(enum lock_class cls);
const char *lock_class_name(enum lock_class cls);

/* The checks themselves (witness.c); call them through the wrappers below. */
void witness_lock_at(enum lock_class cls, const struct nlru_log *log, const char *file, int line);
void witness_trylocked_at(enum lock_class cls, const struct nlru_log *log, const char *file,
			  int line);
void witness_unlock_at(enum lock_class cls, const struct nlru_log *log, const char *file, int line);
bool witness_owner(enum lock_class cls);
unsigned int witness_max_rank(void);

/* Lock-order violations seen in this process, and debug_reset_counters()'s part of them. */
unsigned long witness_violations(void);
void witness_reset_counters(void);

/* About to take a lock of @cls (check the order, then hold it); before blocking on it. */
#define witness_lock(cls, log) witness_lock_(cls, log, __FILE__, __LINE__)
/* Took a lock of @cls with a trylock: hold it, no order check. */
#define witness_trylocked(cls, log) witness_trylocked_(cls, log, __FILE__, __LINE__)
/* Released a lock of @cls. */
#define witness_unlock(cls, log) witness_unlock_(cls, log, __FILE__, __LINE__)

static inline void witness_lock_(enum lock_class cls, const struct nlru_log *log, const char *file,
				 int line)
{
	if (NLRU_DEBUG >= 2 && cls != LOCK_NONE)
		witness_lock_at(cls, log, file, line);
}

static inline void witness_trylocked_(enum lock_class cls, const struct nlru_log *log,
				      const char *file, int line)
{
	if (NLRU_DEBUG >= 2 && cls != LOCK_NONE)
		witness_trylocked_at(cls, log, file, line);
}

static inline void witness_unlock_(enum lock_class cls, const struct nlru_log *log,
				   const char *file, int line)
{
	if (NLRU_DEBUG >= 2 && cls != LOCK_NONE)
		witness_unlock_at(cls, log, file, line);
}

/*
 * For CHECK_FULL(): this thread holds a lock of @cls (not which one: the class is what the
 * witness knows).  True below the full level.
 */
static inline bool witness_holds(enum lock_class cls)
{
	return NLRU_DEBUG < 2 || witness_owner(cls);
}

/*
 * For CHECK_FULL(): this thread may take a lock of @cls now, in order.  An allocation that may
 * reclaim asks it of LOCK_OWNERS, the first lock reclaim takes.  True below the full level.
 */
static inline bool witness_may_take(enum lock_class cls)
{
	return NLRU_DEBUG < 2 || witness_max_rank() < lock_class_rank(cls);
}

#endif /* NODELRU_WITNESS_H */
