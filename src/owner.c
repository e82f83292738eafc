/* owner.c - the table behind page->mapping: ids for regions and files, and the lock that
 * keeps an owner alive while reclaim holds its pages isolated. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "owner.h"

int owner_table_init(struct owner_table *table, const struct nlru_log *log)
{
	pthread_rwlockattr_t attr;
	int r;

	memset(table, 0, sizeof(*table));
	table->log = log;
	/* Writers first: a destroy must not starve behind back-to-back reclaim passes. */
	pthread_rwlockattr_init(&attr);
	pthread_rwlockattr_setkind_np(&attr, PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
	r = rwlock_init(&table->lock, &attr, LOCK_OWNERS, log);
	pthread_rwlockattr_destroy(&attr);
	return -r;
}

void owner_table_destroy(struct owner_table *table)
{
	rwlock_destroy(&table->lock);
	free(table->owners);
}

uint32_t owner_table_count(struct owner_table *table)
{
	uint32_t n = 0;

	rwlock_rdlock(&table->lock);
	for (uint32_t i = 1; i < table->capacity; i++)
		n += table->owners[i] != NULL;
	rwlock_unlock(&table->lock);
	return n;
}

static bool clashes_locked(const struct owner_table *table, const struct owner_head *owner,
			   bool (*clash)(const struct owner_head *, const struct owner_head *))
{
	for (uint32_t i = 1; clash && i < table->capacity; i++)
		if (table->owners[i] && clash(owner, table->owners[i]))
			return true;
	return false;
}

bool owner_clashes(struct owner_table *table, const struct owner_head *owner,
		   bool (*clash)(const struct owner_head *owner, const struct owner_head *other))
{
	bool found;

	rwlock_rdlock(&table->lock);
	found = clashes_locked(table, owner, clash);
	rwlock_unlock(&table->lock);
	return found;
}

int owner_register(struct owner_table *table, struct owner_head *owner,
		   bool (*clash)(const struct owner_head *owner, const struct owner_head *other))
{
	uint32_t i;
	int r = 0;

	rwlock_wrlock(&table->lock);
	if (clashes_locked(table, owner, clash)) {
		rwlock_unlock(&table->lock);
		return -EBUSY;
	}
	for (i = 1; i < table->capacity && table->owners[i]; i++)
		;
	if (i >= table->capacity) {
		uint32_t cap = table->capacity ? table->capacity * 2 : 16;
		struct owner_head **grown = realloc(table->owners, sizeof(*grown) * cap);

		if (grown) {
			memset(grown + table->capacity, 0,
			       sizeof(*grown) * (cap - table->capacity));
			table->owners = grown;
			table->capacity = cap;
			i = i ? i : 1;
		} else {
			r = -ENOMEM;
		}
	}
	if (!r) {
		table->owners[i] = owner;
		owner->id = i;
	}
	rwlock_unlock(&table->lock);
	return r;
}

void owner_unregister(struct owner_table *table, uint32_t id)
{
	if (id < table->capacity)
		table->owners[id] = NULL;
}
