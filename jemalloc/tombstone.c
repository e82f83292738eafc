/*
 * tombstone.c - what stands at the index of a destroyed arena until a new arena takes it.
 *
 * jemalloc does not check an index handed to MALLOCX_ARENA(): given that of a destroyed
 * arena, it creates a new arena there with its default hooks and serves the allocation from
 * the operating system, outside the engine and its budget, silently.  So once an arena is
 * destroyed, a tombstone arena is created in its place at once (arenas.create hands out the
 * last destroyed index first): its alloc hook refuses everything, so a use of the old index
 * gets NULL, as an allocator out of memory answers.  The tombstone's own metadata, which
 * jemalloc allocates through the hooks while it creates it, is the only memory it serves,
 * mapped from the operating system and unmapped when the tombstone goes.
 *
 * A tombstone lasts until the next nlru_jemalloc_create(), which destroys one first so that
 * jemalloc hands its index to the new arena: the indexes are reused as they would be without
 * tombstones, and at most one stands per destroyed arena not yet replaced.
 *
 * Another thread's arenas.create between a destroy and its tombstone may take the index
 * first; the tombstone then lands elsewhere, is destroyed again, and that index is left as
 * jemalloc leaves it.
 */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include "arena.h"

#define MAX_TOMBSTONES 4096 /* more than jemalloc's arenas */

static pthread_mutex_t tombstones_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned int tombstones[MAX_TOMBSTONES]; /* the arena indexes they stand at */
static unsigned int nr_tombstones;
/* Set while this thread creates a tombstone: its metadata is the one thing served. */
static __thread bool creating_tombstone;

static void *tombstone_alloc(extent_hooks_t *hooks, void *new_addr, size_t size, size_t alignment,
			     bool *zero, bool *commit, unsigned int arena_ind)
{
	char *p, *start;
	size_t span;

	if (!creating_tombstone || new_addr)
		return NULL; /* a use of a destroyed arena's index */
	if (alignment < NLRU_PAGE_SIZE)
		alignment = NLRU_PAGE_SIZE;
	span = size + alignment;
	p = mmap(NULL, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	start = (char *)(((uintptr_t)p + alignment - 1) & ~(uintptr_t)(alignment - 1));
	if (start > p)
		munmap(p, (size_t)(start - p));
	if (start + size < p + span)
		munmap(start + size, (size_t)(p + span - (start + size)));
	*zero = true;
	*commit = true;
	return start;
}

static bool tombstone_dalloc(extent_hooks_t *hooks, void *addr, size_t size, bool committed,
			     unsigned int arena_ind)
{
	return munmap(addr, size) != 0;
}

static void tombstone_destroy(extent_hooks_t *hooks, void *addr, size_t size, bool committed,
			      unsigned int arena_ind)
{
	munmap(addr, size);
}

static extent_hooks_t tombstone_hooks = {
	.alloc = tombstone_alloc,
	.dalloc = tombstone_dalloc,
	.destroy = tombstone_destroy,
};

static void destroy_arena(unsigned int arena)
{
	char name[64];

	snprintf(name, sizeof(name), "arena.%u.destroy", arena);
	mallctl(name, NULL, NULL, NULL, 0);
}

void tombstone_place(unsigned int destroyed)
{
	extent_hooks_t *hooks = &tombstone_hooks;
	unsigned int arena;
	size_t len = sizeof(arena);
	int r;

	creating_tombstone = true;
	r = mallctl("arenas.create", &arena, &len, &hooks, sizeof(hooks));
	creating_tombstone = false;
	if (r)
		return;
	if (arena != destroyed) {
		destroy_arena(arena); /* another arena took the index first */
		return;
	}
	pthread_mutex_lock(&tombstones_lock);
	if (nr_tombstones < MAX_TOMBSTONES)
		tombstones[nr_tombstones++] = arena;
	else
		destroy_arena(arena);
	pthread_mutex_unlock(&tombstones_lock);
}

void tombstone_clear_one(void)
{
	pthread_mutex_lock(&tombstones_lock);
	if (nr_tombstones)
		destroy_arena(tombstones[--nr_tombstones]);
	pthread_mutex_unlock(&tombstones_lock);
}
