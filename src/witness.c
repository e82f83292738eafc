/*
 * witness.c - the lock-order checker of full debug builds (witness.h): the rank of each lock
 * class, the locks each thread holds, and the reports.
 */
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>

#include "log.h"
#include "witness.h"

/* docs/design.md's "Locking" table: a row is a rank, the first row rank 1. */
static const struct {
	const char *name;
	unsigned int rank;
} classes[NR_LOCK_CLASSES] = {
	[LOCK_NONE] = {"(unchecked)", 0},
	[LOCK_PAGE] = {"PG_locked", 1},
	[LOCK_OWNERS] = {"owner_table.lock", 2},
	[LOCK_REGION_MAP] = {"map_region.lock", 3},
	[LOCK_REGION] = {"nlru_region.lock", 4},
	[LOCK_FILE] = {"nlru_file.lock", 5},
	[LOCK_PAGEINDEX_CACHE] = {"pageindex_cache.lock", 6},
	[LOCK_FLUSHER_LIST] = {"flusher.list_lock", 6},
	[LOCK_LRU] = {"lruvec.lru_lock", 7},
	[LOCK_PCP] = {"per_cpu_pages.lock", 8},
	[LOCK_ZONE] = {"zone.lock", 9},
	[LOCK_SWAP] = {"swap_device.lock", 10},
	[LOCK_KSWAPD] = {"kswapd_state.lock", 11},
	[LOCK_FLUSHER] = {"flusher.lock", 11},
	[LOCK_BLKDEV] = {"blkdev.lock", 11},
	[LOCK_SHRINKERS] = {"shrinker_lock", 11},
};

STATIC_ASSERT(NR_LOCK_CLASSES <= 32, "reported pairs are a 32-bit mask per class");

/* Far more than the deepest nesting the table allows (about six). */
#define WITNESS_DEPTH 16

struct held_lock {
	enum lock_class cls;
	const char *file;
	int line;
};

/* The locks this thread holds, in the order it took them. */
static __thread struct {
	int depth;
	int lost; /* taken past WITNESS_DEPTH: not on the stack, so their release is not either */
	struct held_lock held[WITNESS_DEPTH];
} thread_locks;

static _Atomic unsigned long violations;
/* Bit b of reported[a]: "b taken under a" was logged; reported_unheld: releases of a class. */
static _Atomic uint32_t reported[NR_LOCK_CLASSES];
static _Atomic uint32_t reported_unheld;
static atomic_bool reported_depth;

unsigned int lock_class_rank(enum lock_class cls)
{
	return classes[cls].rank;
}

const char *lock_class_name(enum lock_class cls)
{
	return classes[cls].name;
}

/* First time for this pair of classes?  Then the caller logs it. */
static bool first_report(_Atomic uint32_t *mask, enum lock_class cls)
{
	uint32_t bit = 1u << cls;

	return !(atomic_fetch_or_explicit(mask, bit, memory_order_relaxed) & bit);
}

static void report_order(const struct nlru_log *log, const struct held_lock *held,
			 enum lock_class cls, const char *file, int line)
{
	const char *why = held->cls == cls ? "another lock of the same class"
			  : classes[held->cls].rank == classes[cls].rank
				  ? "which shares its rank: neither is taken under the other"
				  : "which nests inside it";

	if (!first_report(&reported[held->cls], cls))
		return;
	log_err(log, "debug: lock order: %s taken at %s:%d while holding %s (taken at %s:%d), %s",
		classes[cls].name, debug_source_path(file), line, classes[held->cls].name,
		debug_source_path(held->file), held->line, why);
}

static void push(enum lock_class cls, const struct nlru_log *log, const char *file, int line)
{
	if (thread_locks.depth == WITNESS_DEPTH) {
		thread_locks.lost++;
		atomic_fetch_add_explicit(&violations, 1, memory_order_relaxed);
		if (!atomic_exchange_explicit(&reported_depth, true, memory_order_relaxed))
			log_err(log,
				"debug: lock order: more than %d locks held at once (%s taken at %s:%d)",
				WITNESS_DEPTH, classes[cls].name, debug_source_path(file), line);
		return;
	}
	thread_locks.held[thread_locks.depth++] = (struct held_lock){cls, file, line};
}

void witness_lock_at(enum lock_class cls, const struct nlru_log *log, const char *file, int line)
{
	bool violated = false;

	for (int i = 0; i < thread_locks.depth; i++) {
		const struct held_lock *held = &thread_locks.held[i];

		if (classes[held->cls].rank >= classes[cls].rank) {
			violated = true;
			report_order(log, held, cls, file, line);
		}
	}
	if (violated)
		atomic_fetch_add_explicit(&violations, 1, memory_order_relaxed);
	push(cls, log, file, line);
}

void witness_trylocked_at(enum lock_class cls, const struct nlru_log *log, const char *file,
			  int line)
{
	push(cls, log, file, line);
}

void witness_unlock_at(enum lock_class cls, const struct nlru_log *log, const char *file, int line)
{
	/* The latest of its class: locks are mostly released in the reverse order. */
	for (int i = thread_locks.depth - 1; i >= 0; i--) {
		if (thread_locks.held[i].cls != cls)
			continue;
		memmove(&thread_locks.held[i], &thread_locks.held[i + 1],
			sizeof(thread_locks.held[0]) * (size_t)(thread_locks.depth - i - 1));
		thread_locks.depth--;
		return;
	}
	if (thread_locks.lost) {
		thread_locks.lost--;
		return;
	}
	atomic_fetch_add_explicit(&violations, 1, memory_order_relaxed);
	if (first_report(&reported_unheld, cls))
		log_err(log,
			"debug: lock order: %s released at %s:%d, which this thread does not hold",
			classes[cls].name, debug_source_path(file), line);
}

bool witness_owner(enum lock_class cls)
{
	for (int i = 0; i < thread_locks.depth; i++)
		if (thread_locks.held[i].cls == cls)
			return true;
	return false;
}

unsigned int witness_max_rank(void)
{
	unsigned int rank = 0;

	for (int i = 0; i < thread_locks.depth; i++)
		rank = MAX(rank, classes[thread_locks.held[i].cls].rank);
	return rank;
}

unsigned long witness_violations(void)
{
	return atomic_load_explicit(&violations, memory_order_relaxed);
}

void witness_reset_counters(void)
{
	atomic_store_explicit(&violations, 0, memory_order_relaxed);
}
