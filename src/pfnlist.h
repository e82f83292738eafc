/*
 * Doubly linked lists of pages threaded through their descriptors by node-local page frame
 * numbers (32 bits each) instead of pointers, which keeps struct page at 32 bytes.
 *
 * A list is not circular: the head holds the first and last pfn and PFN_NIL ends both ways.
 * Deleting needs the head, so callers always know which list a page is on (buddy order, LRU
 * flags, or the per-CPU list they hold).  Add at the head, take from either end, as the
 * kernel's list_add / lru_to_page do.  The caller holds the lock that protects the list.
 * The head's two words are written with relaxed atomic stores (plain moves on x86) so that
 * pfnlist_empty() may be asked without the lock, as Linux's list_empty() is by the watermark
 * checks: the answer may be stale, never torn.
 */
#ifndef NODELRU_PFNLIST_H
#define NODELRU_PFNLIST_H

#include <stdbool.h>
#include <stdint.h>

#include "page.h"

#define PFN_NIL UINT32_MAX

struct pfnlist {
	uint32_t first; /* head: most recently added */
	uint32_t last;  /* tail: oldest */
};

static inline void pfnlist_set_first(struct pfnlist *list, uint32_t pfn)
{
	__atomic_store_n(&list->first, pfn, __ATOMIC_RELAXED);
}

static inline void pfnlist_set_last(struct pfnlist *list, uint32_t pfn)
{
	__atomic_store_n(&list->last, pfn, __ATOMIC_RELAXED);
}

static inline void pfnlist_init(struct pfnlist *list)
{
	pfnlist_set_first(list, PFN_NIL);
	pfnlist_set_last(list, PFN_NIL);
}

/* Lock-free callers get an answer that may be stale. */
static inline bool pfnlist_empty(const struct pfnlist *list)
{
	return __atomic_load_n(&list->first, __ATOMIC_RELAXED) == PFN_NIL;
}

/* Insert @pfn at the head of @list; @base is the node's descriptor array. */
static inline void pfnlist_add(struct pfnlist *list, struct page *base, uint32_t pfn)
{
	struct page *page = &base[pfn];

	page->prev = PFN_NIL;
	page->next = list->first;
	if (list->first != PFN_NIL)
		base[list->first].prev = pfn;
	else
		pfnlist_set_last(list, pfn);
	pfnlist_set_first(list, pfn);
}

static inline void pfnlist_add_tail(struct pfnlist *list, struct page *base, uint32_t pfn)
{
	struct page *page = &base[pfn];

	page->next = PFN_NIL;
	page->prev = list->last;
	if (list->last != PFN_NIL)
		base[list->last].next = pfn;
	else
		pfnlist_set_first(list, pfn);
	pfnlist_set_last(list, pfn);
}

/* Put @new where @old is on @list (Linux's list_replace()); @old leaves it unlinked. */
static inline void pfnlist_replace(struct pfnlist *list, struct page *base, uint32_t old,
				   uint32_t new)
{
	struct page *o = &base[old], *n = &base[new];

	n->prev = o->prev;
	n->next = o->next;
	if (o->prev != PFN_NIL)
		base[o->prev].next = new;
	else
		pfnlist_set_first(list, new);
	if (o->next != PFN_NIL)
		base[o->next].prev = new;
	else
		pfnlist_set_last(list, new);
	o->next = o->prev = PFN_NIL;
}

static inline void pfnlist_del(struct pfnlist *list, struct page *base, uint32_t pfn)
{
	struct page *page = &base[pfn];

	if (page->prev != PFN_NIL)
		base[page->prev].next = page->next;
	else
		pfnlist_set_first(list, page->next);
	if (page->next != PFN_NIL)
		base[page->next].prev = page->prev;
	else
		pfnlist_set_last(list, page->prev);
	page->next = page->prev = PFN_NIL;
}

/* Remove and return the head (PFN_NIL when empty). */
static inline uint32_t pfnlist_pop(struct pfnlist *list, struct page *base)
{
	uint32_t pfn = list->first;

	if (pfn != PFN_NIL)
		pfnlist_del(list, base, pfn);
	return pfn;
}

/* Remove and return the tail (PFN_NIL when empty). */
static inline uint32_t pfnlist_pop_tail(struct pfnlist *list, struct page *base)
{
	uint32_t pfn = list->last;

	if (pfn != PFN_NIL)
		pfnlist_del(list, base, pfn);
	return pfn;
}

#define pfnlist_for_each(pfn, list, base)                                                          \
	for ((pfn) = (list)->first; (pfn) != PFN_NIL; (pfn) = (base)[pfn].next)

#endif /* NODELRU_PFNLIST_H */
