/*
 * The engine's owner table: page->mapping is an index into it (0 means none).  An anonymous
 * page's owner is its region, a page cache page's its file (PG_swapbacked tells which).
 */
#ifndef NODELRU_OWNER_H
#define NODELRU_OWNER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mutex.h"

struct nlru_log;

/* Every owner starts with this, so a table entry says what it is. */
enum owner_type { OWNER_REGION = 1, OWNER_FILE };

struct owner_head {
	enum owner_type type;
	uint32_t id; /* its index in the table: page->mapping of its pages */
};

struct owner_table {
	/* read: a reclaim pass over isolated pages; write: owners come and go, pages dropped */
	struct rwlock lock;
	struct owner_head **owners;
	uint32_t capacity;
	const struct nlru_log *log; /* the engine's, for debug checks */
};

/* An empty table whose lock reports to @log (debug builds).  0 or -errno. */
int owner_table_init(struct owner_table *table, const struct nlru_log *log);
void owner_table_destroy(struct owner_table *table);
/* Owners still registered (the engine cannot be destroyed while any is). */
uint32_t owner_table_count(struct owner_table *table);
/*
 * A free id (1 and up) for @owner, stored in owner->id; takes the write lock.  -EBUSY instead
 * if @clash (may be NULL) says an owner already there is the same as @owner: the check and
 * the registration are one step, so that of two racing registrations only one passes.
 */
int owner_register(struct owner_table *table, struct owner_head *owner,
		   bool (*clash)(const struct owner_head *owner, const struct owner_head *other));
/* Whether @clash says an owner registered is the same as @owner; takes the read lock. */
bool owner_clashes(struct owner_table *table, const struct owner_head *owner,
		   bool (*clash)(const struct owner_head *owner, const struct owner_head *other));
/* Forget @id; the caller holds the write lock. */
void owner_unregister(struct owner_table *table, uint32_t id);

/* The owner of @id; the caller holds the lock (read or write). */
static inline struct owner_head *owner_lookup(const struct owner_table *table, uint32_t id)
{
	CHECK_FULL(table->log, witness_holds(LOCK_OWNERS));
	return id < table->capacity ? table->owners[id] : NULL;
}

#endif /* NODELRU_OWNER_H */
