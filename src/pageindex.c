/* pageindex.c - the page offset -> slot radix tree of a file (see pageindex.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "pageindex.h"

#define SLOT_MASK (PAGEINDEX_SLOTS - 1)
/* Levels for 32-bit offsets: shifts 0, 6, ..., 30. */
#define MAX_LEVELS ((32 + PAGEINDEX_SHIFT - 1) / PAGEINDEX_SHIFT)
/* Nodes a cache keeps at most: the index of a 1 GiB file, 2 MiB of nodes. */
#define CACHE_MAX 4096

void pageindex_cache_init(struct pageindex_cache *cache, const struct nlru_log *log)
{
	*cache = (struct pageindex_cache){0};
	spin_lock_init(&cache->lock, LOCK_PAGEINDEX_CACHE, log);
}

void pageindex_cache_destroy(struct pageindex_cache *cache)
{
	while (cache->free) {
		struct pageindex_node *node = cache->free;

		cache->free = (struct pageindex_node *)(uintptr_t)node->slots[0];
		free(node);
	}
	cache->nr = 0;
}

/* A zeroed node, from the cache if it has one. */
static struct pageindex_node *node_alloc(struct pageindex *idx)
{
	struct pageindex_cache *cache = idx->cache;
	struct pageindex_node *node;

	spin_lock(&cache->lock);
	node = cache->free;
	if (node) {
		cache->free = (struct pageindex_node *)(uintptr_t)node->slots[0];
		cache->nr--;
	}
	spin_unlock(&cache->lock);
	if (!node)
		return calloc(1, sizeof(*node));
	memset(node, 0, sizeof(*node));
	return node;
}

static void node_free(struct pageindex *idx, struct pageindex_node *node)
{
	struct pageindex_cache *cache = idx->cache;

	spin_lock(&cache->lock);
	if (cache->nr < CACHE_MAX) {
		node->slots[0] = (uintptr_t)cache->free;
		cache->free = node;
		cache->nr++;
		node = NULL;
	}
	spin_unlock(&cache->lock);
	free(node);
}

static struct pageindex_node *child(const struct pageindex_node *node, uint64_t key,
				    unsigned int shift)
{
	return (struct pageindex_node *)(uintptr_t)node->slots[(key >> shift) & SLOT_MASK];
}

/* Offsets a tree whose root is at @shift covers: below 1 << (shift + 6). */
static bool covers(unsigned int shift, uint64_t key)
{
	return (key >> shift >> PAGEINDEX_SHIFT) == 0;
}

void pageindex_init(struct pageindex *idx, struct pageindex_cache *cache)
{
	*idx = (struct pageindex){.cache = cache};
}

static void free_subtree(struct pageindex *idx, struct pageindex_node *node, unsigned int shift)
{
	for (unsigned int i = 0; shift && i < PAGEINDEX_SLOTS; i++)
		if (node->slots[i])
			free_subtree(idx, (struct pageindex_node *)(uintptr_t)node->slots[i],
				     shift - PAGEINDEX_SHIFT);
	node_free(idx, node);
}

void pageindex_destroy(struct pageindex *idx)
{
	if (idx->root)
		free_subtree(idx, idx->root, idx->shift);
	idx->root = NULL;
	idx->shift = 0;
}

uint64_t pageindex_lookup(const struct pageindex *idx, uint32_t key)
{
	const struct pageindex_node *node = idx->root;
	unsigned int shift = idx->shift;

	if (!node || !covers(shift, key))
		return 0;
	for (; shift && node; shift -= PAGEINDEX_SHIFT)
		node = child(node, key, shift);
	return node ? node->slots[key & SLOT_MASK] : 0;
}

/*
 * Free the empty nodes on @key's path, bottom up, then drop top levels whose only child is
 * their first (radix_tree_shrink()): what a delete leaves, or a store that failed half way.
 */
static void prune(struct pageindex *idx, uint32_t key)
{
	struct pageindex_node *path[MAX_LEVELS];
	unsigned int depth = 0;

	if (idx->root && covers(idx->shift, key)) {
		struct pageindex_node *node = idx->root;

		for (unsigned int shift = idx->shift;; shift -= PAGEINDEX_SHIFT) {
			path[depth++] = node;
			if (!shift || !(node = child(node, key, shift)))
				break;
		}
	}
	while (depth && !path[depth - 1]->count) {
		node_free(idx, path[--depth]);
		if (depth) {
			unsigned int shift = idx->shift - (depth - 1) * PAGEINDEX_SHIFT;

			path[depth - 1]->slots[(key >> shift) & SLOT_MASK] = 0;
			path[depth - 1]->count--;
		} else {
			idx->root = NULL;
			idx->shift = 0;
		}
	}
	while (idx->root && idx->shift && idx->root->count == 1 && idx->root->slots[0]) {
		struct pageindex_node *top = idx->root;

		idx->root = (struct pageindex_node *)(uintptr_t)top->slots[0];
		idx->shift -= PAGEINDEX_SHIFT;
		node_free(idx, top);
	}
}

int pageindex_store(struct pageindex *idx, uint32_t key, uint64_t value)
{
	struct pageindex_node *node;
	unsigned int shift;

	if (!idx->root && !(idx->root = node_alloc(idx)))
		return -ENOMEM;
	/* Grow: the old root becomes the first child of a new one (radix_tree_extend()). */
	while (!covers(idx->shift, key)) {
		struct pageindex_node *top = node_alloc(idx);

		if (!top)
			goto nomem;
		top->slots[0] = (uintptr_t)idx->root;
		top->count = 1;
		idx->root = top;
		idx->shift += PAGEINDEX_SHIFT;
	}
	node = idx->root;
	for (shift = idx->shift; shift; shift -= PAGEINDEX_SHIFT) {
		uint64_t *slot = &node->slots[(key >> shift) & SLOT_MASK];

		if (!*slot) {
			struct pageindex_node *fresh = node_alloc(idx);

			if (!fresh)
				goto nomem;
			*slot = (uintptr_t)fresh;
			node->count++;
		}
		node = (struct pageindex_node *)(uintptr_t)*slot;
	}
	node->count += !node->slots[key & SLOT_MASK];
	node->slots[key & SLOT_MASK] = value;
	return 0;
nomem:
	prune(idx, key);
	return -ENOMEM;
}

void pageindex_delete(struct pageindex *idx, uint32_t key)
{
	struct pageindex_node *leaf = idx->root;
	unsigned int shift = idx->shift;

	if (!leaf || !covers(shift, key))
		return;
	for (; shift && leaf; shift -= PAGEINDEX_SHIFT)
		leaf = child(leaf, key, shift);
	if (!leaf || !leaf->slots[key & SLOT_MASK])
		return;
	leaf->slots[key & SLOT_MASK] = 0;
	if (!--leaf->count)
		prune(idx, key);
}

/*
 * The first leaf under @node (at @shift, covering offsets from @base) that covers offset
 * @from or comes after it, with its first offset in *@leaf_base; NULL if there is none.
 */
static const struct pageindex_node *leaf_from(const struct pageindex_node *node, unsigned int shift,
					      uint64_t base, uint64_t from, uint64_t *leaf_base)
{
	if (!shift) {
		*leaf_base = base;
		return node;
	}
	for (uint64_t i = from > base ? (from - base) >> shift : 0; i < PAGEINDEX_SLOTS; i++) {
		const struct pageindex_node *leaf;

		if (node->slots[i] &&
		    (leaf = leaf_from((const struct pageindex_node *)(uintptr_t)node->slots[i],
				      shift - PAGEINDEX_SHIFT, base + (i << shift), from,
				      leaf_base)))
			return leaf;
	}
	return NULL;
}

uint32_t pageindex_walk(const struct pageindex *idx, uint32_t *cursor, uint32_t *keys,
			uint64_t *values, uint32_t max)
{
	uint64_t from = *cursor, base;
	uint32_t n = 0;

	while (n < max) {
		const struct pageindex_node *leaf = NULL;
		uint64_t i;

		if (idx->root && covers(idx->shift, from))
			leaf = leaf_from(idx->root, idx->shift, 0, from, &base);
		if (!leaf) {
			from = 0;
			break;
		}
		for (i = from > base ? from - base : 0; i < PAGEINDEX_SLOTS && n < max; i++) {
			if (leaf->slots[i]) {
				keys[n] = (uint32_t)(base + i);
				values[n++] = leaf->slots[i];
			}
		}
		from = base + i;
	}
	*cursor = covers(32 - PAGEINDEX_SHIFT, from) ? (uint32_t)from : 0;
	return n;
}
