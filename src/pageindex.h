/*
 * A file's page index (Linux 4.8's radix tree, mapping->page_tree): page offset -> slot, where
 * a slot is a resident page or a shadow entry left by an evicted one.  A radix tree of
 * 64-slot nodes, as Linux's: consecutive pages share a leaf, so a file read or written in
 * order touches its index in order, and walks come out in offset order.  Empty nodes are
 * freed and the tree is as tall as its largest offset needs.  The caller holds the file's lock.
 */
#ifndef NODELRU_PAGEINDEX_H
#define NODELRU_PAGEINDEX_H

#include <stdint.h>

#include "spinlock.h"

struct nlru_log;

#define PAGEINDEX_SHIFT 6 /* RADIX_TREE_MAP_SHIFT */
#define PAGEINDEX_SLOTS (1u << PAGEINDEX_SHIFT)

/* A node: leaves hold the caller's slots, inner nodes their children (0 when absent). */
struct pageindex_node {
	uint64_t slots[PAGEINDEX_SLOTS];
	uint32_t count; /* slots in use */
};

/*
 * Nodes given back, kept for the next index to grow (Linux's radix_tree_node_cachep): one per
 * engine.  Files come and go with their indexes, and a node from malloc that went back to the
 * system with the heap's top would cost page faults to grow again.
 */
struct pageindex_cache {
	struct spinlock lock;
	struct pageindex_node *free; /* linked through slots[0] */
	uint32_t nr;
};

struct pageindex {
	struct pageindex_node *root; /* NULL when empty */
	unsigned int shift;          /* the root covers offsets below 1 << (shift + 6) */
	struct pageindex_cache *cache;
};

/* An empty cache whose lock reports to @log (debug builds). */
void pageindex_cache_init(struct pageindex_cache *cache, const struct nlru_log *log);
/* Free the nodes kept: every index using the cache is destroyed. */
void pageindex_cache_destroy(struct pageindex_cache *cache);

/* An empty index, taking its nodes from @cache and giving them back to it. */
void pageindex_init(struct pageindex *idx, struct pageindex_cache *cache);
void pageindex_destroy(struct pageindex *idx);
/* The slot of @key, or 0. */
uint64_t pageindex_lookup(const struct pageindex *idx, uint32_t key);
/* Set @key's slot (@value != 0).  -ENOMEM if a node cannot be had; then nothing changed. */
int pageindex_store(struct pageindex *idx, uint32_t key, uint64_t value);
void pageindex_delete(struct pageindex *idx, uint32_t key);
/*
 * Up to @max entries in offset order from offset *@cursor on, written to @keys/@values;
 * returns how many.  *@cursor moves past the last one returned, and is 0 again once the end
 * of the index has been reached.  Entries may be stored and deleted between calls.
 */
uint32_t pageindex_walk(const struct pageindex *idx, uint32_t *cursor, uint32_t *keys,
			uint64_t *values, uint32_t max);

#endif /* NODELRU_PAGEINDEX_H */
