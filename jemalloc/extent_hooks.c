/*
 * extent_hooks.c - where a nodelru arena's memory comes from: jemalloc's extent hooks on the
 * engine's page-exact allocator.
 *
 * Every extent is a run of independent engine pages (nlru_alloc_pages_exact), so any
 * page-aligned piece of it can go back on its own: jemalloc may split extents and merge
 * neighbours freely, and whatever it finally lets go, dalloc frees page for page.  Hence:
 *  - alloc: a run of the asked size and alignment, always committed, zeroed when asked; an
 *    extent at a fixed address (in-place growth) is refused, as is one above the largest
 *    engine block (4 MiB), and one jemalloc asks for uncommitted (see below);
 *  - dalloc and destroy: the pages go back to the engine; dalloc always succeeds for our own
 *    memory, so jemalloc never keeps an extent "retained" that it has no use for;
 *  - split: always allowed; merge: allowed when both halves are on one node;
 *  - commit: memory is always committed, nothing to do;
 *  - decommit, purge_lazy, purge_forced: not provided (jemalloc's "opt out").  Giving pages
 *    back on decommit would need the same addresses back on commit, which a page allocator
 *    shared with reclaim cannot promise; and with dalloc always succeeding, jemalloc goes
 *    straight from dirty to dalloc, so memory still flows back.
 *
 * Retained memory.  With opt.retain (jemalloc's default on Linux) jemalloc grows an arena by
 * asking for an uncommitted extent larger than it needs (the next page-size class, and at
 * first steps of 2 MiB and more), commits the part it uses and keeps the rest as "retained"
 * address space, which no purge, decay or shrinker hands back.  Those pages cannot go back to
 * the engine while jemalloc keeps their addresses: the engine could hand them to this very
 * arena as a new extent, and jemalloc would hold the same addresses twice.  So the alloc hook
 * refuses an uncommitted extent, and jemalloc asks again for a committed one of the size it
 * needs (ecache_alloc_grow() falls back to extent_alloc_wrapper()): an arena holds no
 * retained memory whatever opt.retain says.
 *
 * Foreign memory (an address that is not the engine's, a call for another arena) is refused
 * with a message through the engine's log and counted; nothing is touched.
 *
 * No hook allocates with malloc, none calls mallctl: jemalloc holds its own locks around
 * them.  The alloc hook may reclaim in the engine, so it marks the thread (extent_hook_depth)
 * for the purge shrinker to stay out.
 */
#include <errno.h>
#include <string.h>

#include "arena.h"

#define MAX_EXTENT (NLRU_PAGE_SIZE << (NLRU_MAX_ORDER - 1))

__thread int extent_hook_depth;

static struct nlru_jemalloc *hooks_owner(extent_hooks_t *hooks, unsigned int arena_ind)
{
	struct nlru_jemalloc *je = (struct nlru_jemalloc *)hooks;

	if (!je || je->magic != NLRU_JEMALLOC_MAGIC)
		return NULL;
	if (je->arena != ARENA_UNKNOWN && je->arena != arena_ind) {
		atomic_fetch_add_explicit(&je->refused, 1, memory_order_relaxed);
		nlru_engine_log(je->eng, NLRU_LOG_ERROR,
				"jemalloc arena %u: hooks called for arena %u refused", je->arena,
				arena_ind);
		return NULL;
	}
	return je;
}

/* True, and said in the log, when [@addr, @addr + @size) is not memory of the engine. */
static bool foreign(struct nlru_jemalloc *je, const char *hook, const void *addr, size_t size)
{
	if (nlru_addr_node(je->eng, addr, size) >= 0)
		return false;
	atomic_fetch_add_explicit(&je->refused, 1, memory_order_relaxed);
	nlru_engine_log(je->eng, NLRU_LOG_ERROR,
			"jemalloc arena %u: %s of %p + %zu refused: not memory of this engine",
			je->arena, hook, addr, size);
	return true;
}

static void *extent_alloc(extent_hooks_t *hooks, void *new_addr, size_t size, size_t alignment,
			  bool *zero, bool *commit, unsigned int arena_ind)
{
	struct nlru_jemalloc *je = hooks_owner(hooks, arena_ind);
	void *addr;
	int r;

	/* In-place growth, or retained memory (above): jemalloc asks again, committed. */
	if (!je || new_addr || !*commit)
		return NULL;
	if (size > MAX_EXTENT || alignment > MAX_EXTENT) {
		atomic_fetch_add_explicit(&je->extents_failed, 1, memory_order_relaxed);
		nlru_engine_log(
			je->eng, NLRU_LOG_INFO,
			"jemalloc arena %u: an extent of %zu bytes (alignment %zu) is above "
			"the largest engine block, %lu: the allocation fails",
			je->arena, size, alignment, MAX_EXTENT);
		return NULL;
	}
	extent_hook_depth++;
	r = nlru_alloc_pages_exact(je->eng, je->gfp | (*zero ? NLRU_GFP_ZERO : 0), size, alignment,
				   je->nid, &addr);
	extent_hook_depth--;
	if (r) {
		/* Said once per arena: under pressure this can happen often, and is counted. */
		if (!atomic_fetch_add_explicit(&je->extents_failed, 1, memory_order_relaxed))
			nlru_engine_log(
				je->eng, NLRU_LOG_INFO,
				"jemalloc arena %u: no engine run of %zu bytes (alignment %zu): "
				"%s; the allocation fails (the arena's own freed pages may be "
				"in the way: nlru_jemalloc_purge() gives them back)",
				je->arena, size, alignment, strerror(-r));
		atomic_store_explicit(&je->alloc_error, r, memory_order_relaxed);
		return NULL;
	}
	atomic_fetch_add_explicit(&je->extents_alloc, 1, memory_order_relaxed);
	atomic_fetch_add_explicit(&je->pages, (long)(size / NLRU_PAGE_SIZE), memory_order_relaxed);
	*commit = true;
	return addr;
}

/* The pages of an extent go back to the engine; false if the engine refused them. */
static bool extent_release(struct nlru_jemalloc *je, const char *hook, void *addr, size_t size)
{
	int r;

	extent_hook_depth++;
	r = nlru_free_pages_exact(je->eng, addr, size);
	extent_hook_depth--;
	if (r) {
		atomic_fetch_add_explicit(&je->refused, 1, memory_order_relaxed);
		nlru_engine_log(je->eng, NLRU_LOG_ERROR,
				"jemalloc arena %u: %s of %p + %zu: the engine refused the pages; "
				"jemalloc keeps them",
				je->arena, hook, addr, size);
		return false;
	}
	atomic_fetch_sub_explicit(&je->pages, (long)(size / NLRU_PAGE_SIZE), memory_order_relaxed);
	atomic_fetch_add_explicit(&je->pages_returned, size / NLRU_PAGE_SIZE, memory_order_relaxed);
	return true;
}

static bool extent_dalloc(extent_hooks_t *hooks, void *addr, size_t size, bool committed,
			  unsigned int arena_ind)
{
	struct nlru_jemalloc *je = hooks_owner(hooks, arena_ind);

	/* false is success; true makes jemalloc keep the extent, which is always safe. */
	return !je || !extent_release(je, "dalloc", addr, size);
}

static void extent_destroy(extent_hooks_t *hooks, void *addr, size_t size, bool committed,
			   unsigned int arena_ind)
{
	struct nlru_jemalloc *je = hooks_owner(hooks, arena_ind);

	if (je)
		extent_release(je, "destroy", addr, size);
}

static bool extent_commit(extent_hooks_t *hooks, void *addr, size_t size, size_t offset,
			  size_t length, unsigned int arena_ind)
{
	struct nlru_jemalloc *je = hooks_owner(hooks, arena_ind);

	return !je || foreign(je, "commit", addr, size);
}

static bool extent_split(extent_hooks_t *hooks, void *addr, size_t size, size_t size_a,
			 size_t size_b, bool committed, unsigned int arena_ind)
{
	struct nlru_jemalloc *je = hooks_owner(hooks, arena_ind);

	return !je || foreign(je, "split", addr, size);
}

static bool extent_merge(extent_hooks_t *hooks, void *addr_a, size_t size_a, void *addr_b,
			 size_t size_b, bool committed, unsigned int arena_ind)
{
	struct nlru_jemalloc *je = hooks_owner(hooks, arena_ind);

	if (!je || foreign(je, "merge", addr_a, size_a) || foreign(je, "merge", addr_b, size_b))
		return true;
	/* Runs of two nodes may be neighbours in the address space, but nothing frees both. */
	return (char *)addr_a + size_a != addr_b ||
	       nlru_addr_node(je->eng, addr_a, size_a + size_b) < 0;
}

void extent_hooks_init(struct nlru_jemalloc *je)
{
	je->hooks = (extent_hooks_t){
		.alloc = extent_alloc,
		.dalloc = extent_dalloc,
		.destroy = extent_destroy,
		.commit = extent_commit,
		.split = extent_split,
		.merge = extent_merge,
	};
}
