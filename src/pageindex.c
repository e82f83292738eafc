/* pageindex.c - the page offset -> slot hash table of a file (see pageindex.h). */
#include <errno.h>
#include <stdlib.h>

#include "pageindex.h"

#define MIN_CAPACITY 64

static uint32_t hash(uint32_t key)
{
	return key * 2654435761u; /* Knuth's multiplicative hash: consecutive pages spread */
}

int pageindex_init(struct pageindex *idx)
{
	*idx = (struct pageindex){0};
	idx->keys = calloc(MIN_CAPACITY, sizeof(*idx->keys));
	idx->values = calloc(MIN_CAPACITY, sizeof(*idx->values));
	if (!idx->keys || !idx->values) {
		pageindex_destroy(idx);
		return -ENOMEM;
	}
	idx->capacity = MIN_CAPACITY;
	return 0;
}

void pageindex_destroy(struct pageindex *idx)
{
	free(idx->keys);
	free(idx->values);
	*idx = (struct pageindex){0};
}

/* Position of @key, or of the empty slot that ends its probe sequence. */
static uint32_t find(const struct pageindex *idx, uint32_t key)
{
	uint32_t mask = idx->capacity - 1, i = hash(key) & mask;

	while (idx->values[i] && !(idx->values[i] != PAGEINDEX_TOMBSTONE && idx->keys[i] == key))
		i = (i + 1) & mask;
	return i;
}

uint64_t pageindex_lookup(const struct pageindex *idx, uint32_t key)
{
	return idx->values[find(idx, key)];
}

/*
 * A zeroed table with every page already written.  A fresh mapping from calloc() is read
 * first by the probes below, which maps the shared zero page, and each first write then
 * replaces it with a TLB shootdown to every CPU the process runs on.  (A malloc() + memset()
 * would not do: compilers turn that pair into calloc().)
 */
static void *zeroed(size_t n, size_t size)
{
	volatile char *p = calloc(n, size);

	for (size_t off = 0; p && off < n * size; off += 4096)
		p[off] = 0;
	return (void *)p;
}

/* Rebuild at @capacity, dropping tombstones. */
static int resize(struct pageindex *idx, uint32_t capacity)
{
	struct pageindex old = *idx;

	idx->keys = zeroed(capacity, sizeof(*idx->keys));
	idx->values = zeroed(capacity, sizeof(*idx->values));
	if (!idx->keys || !idx->values) {
		free(idx->keys);
		free(idx->values);
		*idx = old;
		return -ENOMEM;
	}
	idx->capacity = capacity;
	idx->used = idx->live = 0;
	for (uint32_t i = 0; i < old.capacity; i++) {
		if (old.values[i] && old.values[i] != PAGEINDEX_TOMBSTONE) {
			uint32_t j = find(idx, old.keys[i]);

			idx->keys[j] = old.keys[i];
			idx->values[j] = old.values[i];
			idx->used++;
			idx->live++;
		}
	}
	free(old.keys);
	free(old.values);
	return 0;
}

int pageindex_store(struct pageindex *idx, uint32_t key, uint64_t value)
{
	uint32_t i = find(idx, key);

	if (idx->values[i]) {
		idx->values[i] = value;
		return 0;
	}
	/* Keep probes short: at most half full, counting tombstones. */
	if (2 * (idx->used + 1) > idx->capacity) {
		uint32_t capacity = 2 * (idx->live + 1) > idx->capacity / 2 ? idx->capacity * 2
									      : idx->capacity;
		int r = resize(idx, capacity);

		if (r)
			return r;
		i = find(idx, key);
	}
	idx->keys[i] = key;
	idx->values[i] = value;
	idx->used++;
	idx->live++;
	return 0;
}

void pageindex_delete(struct pageindex *idx, uint32_t key)
{
	uint32_t i = find(idx, key);

	if (!idx->values[i])
		return;
	idx->values[i] = PAGEINDEX_TOMBSTONE;
	idx->live--;
}

uint32_t pageindex_walk(const struct pageindex *idx, uint32_t *cursor, uint32_t *keys,
			uint64_t *values, uint32_t max)
{
	uint32_t n = 0, i = *cursor;

	for (; i < idx->capacity && n < max; i++) {
		if (idx->values[i] && idx->values[i] != PAGEINDEX_TOMBSTONE) {
			keys[n] = idx->keys[i];
			values[n++] = idx->values[i];
		}
	}
	*cursor = i < idx->capacity ? i : 0;
	return n;
}
