/*
 * preload_heap.c - the heap of libnodelru-preload: one mapped region of the engine
 * (nlru_region_create_mapped), whose address range jemalloc's arena takes its extents from.
 *
 * The range is virtual: a page becomes resident when the program first touches it, counts
 * against the engine's memory from then on, and is swapped out by the engine's reclaim like
 * any region page.  So the hooks only hand out and take back address space and drop contents:
 *  - alloc: the next piece of the range never handed out, at the asked alignment (a bump
 *    pointer: jemalloc keeps and reuses what it gets, see dalloc).  Untouched pages read as
 *    zeroes, so every extent is zeroed and committed.  An extent at a fixed address is given
 *    only where the bump pointer stands (jemalloc growing its last extent in place);
 *  - dalloc: refused, so jemalloc keeps the range as "retained" and reuses it; its pages were
 *    dropped before (decommit or purge), so a retained range holds no memory;
 *  - decommit, purge_forced, destroy: the pages are discarded (nlru_region_discard): their
 *    memory or swap slot goes back to the engine and they read as zeroes when touched again;
 *    purge_lazy is not offered, so jemalloc purges with purge_forced;
 *  - commit: nothing to do (a page is committed by touching it); split and merge: any piece
 *    of the range may be split, and neighbours merged.
 *
 * jemalloc's own metadata for the arena (its "base" blocks, asked for 2 MiB-aligned in whole
 * 2 MiB units) is ordinary memory instead, outside the region: jemalloc's fork handlers touch
 * it in the child, which has no copy of the region, and jemalloc reads it under its locks,
 * where waiting for a fault is best avoided.  The hooks tell such "side" memory by its address
 * and serve it with mmap(2) and munmap(2).  (A program's own allocation aligned to 2 MiB or
 * more can land there too: it is then outside the engine's budget, and still correct.)
 *
 * The hooks run in the program's threads, inside jemalloc and under its locks: they take only
 * the heap's own lock (the bump pointer) and the region's, never jemalloc's.
 */
#include <errno.h>
#include <jemalloc/jemalloc.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include "preload.h"

#define SIDE_ALIGN (2ul << 20) /* jemalloc's HUGEPAGE: the alignment of its base blocks */

/* The hooks jemalloc calls, first in the struct so that its pointer is the struct's. */
static struct {
	extent_hooks_t hooks;
	struct preload_heap *heap;
	pthread_mutex_t lock; /* heap->next */
} heap_hooks = {.lock = PTHREAD_MUTEX_INITIALIZER};

static struct preload_heap *hooks_heap(extent_hooks_t *hooks)
{
	return hooks == &heap_hooks.hooks ? heap_hooks.heap : NULL;
}

/* Side memory: @size bytes of ordinary anonymous memory at @alignment (both 2 MiB units). */
static void *side_alloc(size_t size, size_t alignment)
{
	char *p = mmap(NULL, size + alignment, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		       -1, 0);
	uintptr_t start;

	if (p == MAP_FAILED)
		return NULL;
	start = ((uintptr_t)p + alignment - 1) & ~(uintptr_t)(alignment - 1);
	if (start > (uintptr_t)p)
		munmap(p, start - (uintptr_t)p);
	munmap((char *)start + size, (uintptr_t)p + alignment - start);
	return (void *)start;
}

static void *heap_alloc(extent_hooks_t *hooks, void *new_addr, size_t size, size_t alignment,
			bool *zero, bool *commit, unsigned int arena_ind)
{
	struct preload_heap *heap = hooks_heap(hooks);
	uintptr_t base, start;
	void *addr = NULL;

	if (!heap || !size)
		return NULL;
	if (!new_addr && alignment >= SIDE_ALIGN && !(size & (SIDE_ALIGN - 1))) {
		addr = side_alloc(size, alignment);
		if (addr) {
			*zero = true;
			*commit = true;
		}
		return addr;
	}
	if (alignment < NLRU_PAGE_SIZE)
		alignment = NLRU_PAGE_SIZE;
	pthread_mutex_lock(&heap_hooks.lock);
	base = (uintptr_t)heap->base;
	start = (base + heap->next + alignment - 1) & ~(uintptr_t)(alignment - 1);
	if (new_addr && (uintptr_t)new_addr != start)
		start = UINTPTR_MAX; /* not where the bump pointer stands: refused */
	if (start != UINTPTR_MAX && start - base <= heap->size &&
	    size <= heap->size - (start - base)) {
		heap->next = start - base + size;
		addr = (void *)start;
	} else if (!new_addr && !heap->exhausted_said) {
		heap->exhausted_said = true;
		nlru_engine_log(heap->eng, NLRU_LOG_ERROR,
				"preload: the heap's %zu MiB of address space are used up: malloc "
				"of %zu bytes fails (NLRU_PRELOAD_HEAP_MIB sets the size)",
				heap->size >> 20, size);
	}
	pthread_mutex_unlock(&heap_hooks.lock);
	if (addr) {
		*zero = true;
		*commit = true;
	}
	return addr;
}

/* Give the pages of [@addr, @addr + @size) back to the engine; they read as zeroes after. */
static void heap_discard(struct preload_heap *heap, void *addr, size_t size)
{
	size_t first = (size_t)((char *)addr - heap->base) / NLRU_PAGE_SIZE;

	for (size_t i = 0; i < size / NLRU_PAGE_SIZE; i++) {
		int r = nlru_region_discard(heap->region, first + i);

		if (r)
			nlru_engine_log(heap->eng, NLRU_LOG_ERROR,
					"preload: page %zu of the heap could not be discarded: %s",
					first + i, strerror(-r));
	}
}

static bool heap_owns_range(struct preload_heap *heap, void *addr, size_t size)
{
	return heap && preload_heap_owns(heap, addr) && size <= heap->size &&
	       (size_t)((char *)addr - heap->base) <= heap->size - size;
}

static bool heap_dalloc(extent_hooks_t *hooks, void *addr, size_t size, bool committed,
			unsigned int arena_ind)
{
	struct preload_heap *heap = hooks_heap(hooks);

	if (heap && !preload_heap_owns(heap, addr))
		return munmap(addr, size) != 0; /* side memory */
	return true; /* kept, as "retained": the range is reused, its pages were dropped */
}

static void heap_destroy(extent_hooks_t *hooks, void *addr, size_t size, bool committed,
			 unsigned int arena_ind)
{
	struct preload_heap *heap = hooks_heap(hooks);

	if (heap_owns_range(heap, addr, size))
		heap_discard(heap, addr, size);
	else if (heap)
		munmap(addr, size);
}

static bool heap_commit(extent_hooks_t *hooks, void *addr, size_t size, size_t offset,
			size_t length, unsigned int arena_ind)
{
	return !hooks_heap(hooks); /* a page is committed by touching it, side memory too */
}

/* decommit and purge_forced alike: the pages' contents go, and their memory with them. */
static bool heap_drop(extent_hooks_t *hooks, void *addr, size_t size, size_t offset, size_t length,
		      unsigned int arena_ind)
{
	struct preload_heap *heap = hooks_heap(hooks);

	if (!heap || offset > size || length > size - offset)
		return true;
	if (!heap_owns_range(heap, addr, size))
		return madvise((char *)addr + offset, length, MADV_DONTNEED) != 0;
	heap_discard(heap, (char *)addr + offset, length);
	return false;
}

static bool heap_split(extent_hooks_t *hooks, void *addr, size_t size, size_t size_a, size_t size_b,
		       bool committed, unsigned int arena_ind)
{
	return !hooks_heap(hooks);
}

/* Neighbours merge when both are the region's, or both side memory (one mapping or not). */
static bool heap_merge(extent_hooks_t *hooks, void *addr_a, size_t size_a, void *addr_b,
		       size_t size_b, bool committed, unsigned int arena_ind)
{
	struct preload_heap *heap = hooks_heap(hooks);

	return !heap || (char *)addr_a + size_a != addr_b ||
	       preload_heap_owns(heap, addr_a) != preload_heap_owns(heap, addr_b);
}

int preload_heap_create(struct preload_heap *heap, struct nlru_engine *eng, size_t bytes,
			unsigned int fault_threads, long decay_ms)
{
	size_t pages = (bytes + NLRU_PAGE_SIZE - 1) / NLRU_PAGE_SIZE, len = sizeof(unsigned int);
	extent_hooks_t *hooks = &heap_hooks.hooks;
	ssize_t decay = decay_ms;
	void *base;
	char name[64];
	int r;

	*heap = (struct preload_heap){.eng = eng};
	r = nlru_region_create_mapped(eng, pages, NLRU_NUMA_NO_NODE, fault_threads, &base,
				      &heap->region);
	if (r)
		return r; /* the engine said why */
	heap->base = base;
	heap->size = pages * NLRU_PAGE_SIZE;
	heap_hooks.heap = heap;
	heap_hooks.hooks = (extent_hooks_t){
		.alloc = heap_alloc,
		.dalloc = heap_dalloc,
		.destroy = heap_destroy,
		.commit = heap_commit,
		.decommit = heap_drop,
		.purge_forced = heap_drop,
		.split = heap_split,
		.merge = heap_merge,
	};
	r = mallctl("arenas.create", &heap->arena, &len, &hooks, sizeof(hooks));
	if (r) {
		nlru_engine_log(eng, NLRU_LOG_ERROR, "preload: jemalloc's arenas.create failed: %s",
				strerror(r));
		heap_hooks.heap = NULL;
		nlru_region_destroy(heap->region);
		*heap = (struct preload_heap){.eng = eng};
		return -ENOMEM;
	}
	snprintf(name, sizeof(name), "arena.%u.dirty_decay_ms", heap->arena);
	r = mallctl(name, NULL, NULL, &decay, sizeof(decay));
	if (r)
		nlru_engine_log(eng, NLRU_LOG_WARN, "preload: dirty_decay_ms %ld refused (%s)",
				decay_ms, strerror(r));
	return 0;
}
