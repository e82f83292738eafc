/*
 * libnodelru-preload internals: the heap (preload_heap.c), a jemalloc arena whose extents are
 * carved out of one mapped region of the engine, and the malloc family that serves a program
 * from it (preload.c).
 *
 * Like the rest of jemalloc/, this is an embedder of the engine: public headers only.
 */
#ifndef NODELRU_PRELOAD_H
#define NODELRU_PRELOAD_H

#include <stdbool.h>
#include <stddef.h>

#include <nodelru/nodelru.h>

struct preload_heap {
	struct nlru_engine *eng;
	struct nlru_region *region;
	char *base;          /* the region's first byte */
	size_t size;         /* its length in bytes */
	unsigned int arena;  /* jemalloc's index of the arena on it */
	size_t next;         /* offset of the first byte never handed to jemalloc (under lock) */
	bool exhausted_said; /* "the heap is full" is logged once */
};

/*
 * Make the heap: a mapped region of @bytes (rounded up to pages) with @fault_threads fault
 * threads, and a jemalloc arena on it whose unused pages go back to the engine after
 * @decay_ms.  0, or -errno with the reason logged through the engine.
 */
int preload_heap_create(struct preload_heap *heap, struct nlru_engine *eng, size_t bytes,
			unsigned int fault_threads, long decay_ms);

/* True when @p is an address of the heap: memory jemalloc's arena on it handed out. */
static inline bool preload_heap_owns(const struct preload_heap *heap, const void *p)
{
	return (size_t)((const char *)p - heap->base) < heap->size;
}

#endif /* NODELRU_PRELOAD_H */
