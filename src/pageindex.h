/*
 * A file's page index (Linux's radix tree, mapping->page_tree): page offset -> slot, where a
 * slot is a resident page or a shadow entry left by an evicted one.  An open-addressing hash
 * table with linear probing and tombstones; the caller holds the file's lock.
 */
#ifndef NODELRU_PAGEINDEX_H
#define NODELRU_PAGEINDEX_H

#include <stdbool.h>
#include <stdint.h>

struct pageindex {
	uint32_t *keys;   /* page offsets */
	uint64_t *values; /* 0: empty, PAGEINDEX_TOMBSTONE: deleted, else the caller's slot */
	uint32_t capacity; /* a power of two */
	uint32_t used;     /* live entries plus tombstones */
	uint32_t live;
};

#define PAGEINDEX_TOMBSTONE UINT64_MAX

int pageindex_init(struct pageindex *idx);
void pageindex_destroy(struct pageindex *idx);
/* The slot of @key, or 0. */
uint64_t pageindex_lookup(const struct pageindex *idx, uint32_t key);
/* Set @key's slot (@value != 0).  -ENOMEM if the table cannot grow. */
int pageindex_store(struct pageindex *idx, uint32_t key, uint64_t value);
void pageindex_delete(struct pageindex *idx, uint32_t key);
/*
 * Visit up to @max live entries from position *@cursor on; returns how many were written to
 * @keys/@values.  *@cursor advances; it is 0 again once the table has been walked.
 */
uint32_t pageindex_walk(const struct pageindex *idx, uint32_t *cursor, uint32_t *keys,
			uint64_t *values, uint32_t max);

#endif /* NODELRU_PAGEINDEX_H */
