/*
 * struct page: one 32-byte descriptor per 4 KiB page, kept in a dense array beside the node's
 * memory and never inside the pages themselves, so a user's data can never corrupt the
 * allocator and a page's memory can be handed out whole.
 *
 * Linux's struct page is 64 bytes; ours is 32 because list links are 32-bit node-local page
 * frame numbers (pfnlist.h) and the owner is a 32-bit id instead of a pointer.
 *
 * Locking: a free page belongs to its zone (buddy, under zone->lock) or to one per-CPU list
 * (under that list's lock); an allocated page belongs to its owner.  Flag bits that more than
 * one thread may change at once use the atomic read-modify-write helpers; the "__" helpers
 * are for pages the caller holds exclusively.  Every access to flags is at least a relaxed
 * atomic, because the buddy allocator reads the flags of a neighbouring page (is it a free
 * buddy?) that may at that moment be another thread's freshly allocated page: the answer is
 * "no" either way, as in Linux, but the read must not be a data race.
 */
#ifndef NODELRU_PAGE_H
#define NODELRU_PAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "debug.h"
#include "witness.h"

/* Page flag bits, named as Linux's enum pageflags. */
enum pageflags {
	PG_locked,
	PG_referenced,
	PG_uptodate,
	PG_dirty,
	PG_lru,
	PG_active,
	PG_slab,
	PG_writeback,
	PG_swapcache,
	PG_reclaim,
	PG_swapbacked,
	PG_unevictable,
	PG_mlocked,
	PG_buddy, /* free, heading a buddy block of page_order() (Linux keeps this in _mapcount) */
	PG_young, /* accessed through its mapping since reclaim last looked: the PTE young bit */
	PG_slab_reclaimable, /* with PG_slab: charged to nr_slab_reclaimable (else unreclaimable) */
	PG_waiters,   /* someone sleeps on this page's PG_locked or PG_writeback (pagewait.h) */
	PG_readahead, /* a reader reaching it starts reading the next window (async readahead) */
	NR_PAGEFLAGS
};

#define PAGE_NODE_SHIFT 18 /* bits 18..23: node id, fixed at engine creation */
#define PAGE_NODE_MASK (0x3fu << PAGE_NODE_SHIFT)
#define PAGE_ORDER_SHIFT 24 /* bits 24..27: order of a buddy block or of an allocation */
#define PAGE_ORDER_MASK (0xfu << PAGE_ORDER_SHIFT)
#define PAGE_ZONE_SHIFT 28 /* bits 28..29: zone index, fixed at engine creation */
#define PAGE_ZONE_MASK (0x3u << PAGE_ZONE_SHIFT)
/*
 * bits 30..31: on a free block's head (PG_buddy), the migrate type of the free list it is on
 * (Linux finds that list through page->lru; a pfn list needs its head to unlink a block).
 */
#define PAGE_FREE_MT_SHIFT 30
#define PAGE_FREE_MT_MASK (0x3u << PAGE_FREE_MT_SHIFT)

STATIC_ASSERT(NR_PAGEFLAGS <= PAGE_NODE_SHIFT, "page flags overlap the node field");

struct page {
	uint32_t flags;   /* enum pageflags bits, order and zone fields */
	int32_t refcount; /* 1 for the head of an allocated block; 0 when free and for tails */
	uint32_t next;    /* pfnlist links (buddy, per-CPU or LRU list) */
	uint32_t prev;
	uint64_t private; /* the owner's word: swap entry, slab cookie, ... */
	uint32_t mapping; /* owner id (anon region, file), 0 for none */
	uint32_t index;   /* page offset within the owner */
};

STATIC_ASSERT(sizeof(struct page) == 32, "struct page must stay 32 bytes");
/* The layout docs/design.md gives, which the flags' bit helpers and the lists rely on. */
STATIC_ASSERT(offsetof(struct page, flags) == 0 && offsetof(struct page, refcount) == 4 &&
		      offsetof(struct page, next) == 8 && offsetof(struct page, prev) == 12 &&
		      offsetof(struct page, private) == 16 &&
		      offsetof(struct page, mapping) == 24 && offsetof(struct page, index) == 28,
	      "struct page's fields are where docs/design.md says");
STATIC_ASSERT((PAGE_NODE_MASK & PAGE_ORDER_MASK) == 0 && (PAGE_ORDER_MASK & PAGE_ZONE_MASK) == 0 &&
		      (PAGE_NODE_MASK & PAGE_ZONE_MASK) == 0 &&
		      (PAGE_FREE_MT_MASK & (PAGE_NODE_MASK | PAGE_ORDER_MASK | PAGE_ZONE_MASK)) ==
			      0,
	      "the node, order, zone and free-list fields of page->flags do not overlap");

static inline bool page_test(const struct page *page, enum pageflags bit)
{
	return __atomic_load_n(&page->flags, __ATOMIC_RELAXED) & (1u << bit);
}

static inline void page_set(struct page *page, enum pageflags bit)
{
	__atomic_fetch_or(&page->flags, 1u << bit, __ATOMIC_RELAXED);
}

static inline void page_clear(struct page *page, enum pageflags bit)
{
	__atomic_fetch_and(&page->flags, ~(1u << bit), __ATOMIC_RELAXED);
}

/* TestClearPageReferenced and friends. */
static inline bool page_test_clear(struct page *page, enum pageflags bit)
{
	return __atomic_fetch_and(&page->flags, ~(1u << bit), __ATOMIC_RELAXED) & (1u << bit);
}

static inline uint32_t page_flags(const struct page *page)
{
	return __atomic_load_n(&page->flags, __ATOMIC_RELAXED);
}

static inline void set_page_flags(struct page *page, uint32_t flags)
{
	__atomic_store_n(&page->flags, flags, __ATOMIC_RELAXED);
}

static inline void __page_set(struct page *page, enum pageflags bit)
{
	set_page_flags(page, page_flags(page) | (1u << bit));
}

static inline void __page_clear(struct page *page, enum pageflags bit)
{
	set_page_flags(page, page_flags(page) & ~(1u << bit));
}

/* A reference on an allocated page: its owner frees it only once the count says it is alone. */
static inline void get_page(struct page *page)
{
	__atomic_add_fetch(&page->refcount, 1, __ATOMIC_ACQ_REL);
}

static inline void put_page(struct page *page)
{
	__atomic_sub_fetch(&page->refcount, 1, __ATOMIC_ACQ_REL);
}

static inline unsigned int page_order(const struct page *page)
{
	return (page_flags(page) & PAGE_ORDER_MASK) >> PAGE_ORDER_SHIFT;
}

static inline void set_page_order(struct page *page, unsigned int order)
{
	set_page_flags(page, (page_flags(page) & ~PAGE_ORDER_MASK) | (order << PAGE_ORDER_SHIFT));
}

/*
 * page->mapping is written under its owner's lock but read without one by compaction's
 * migrate scanner and migrate_page(), as Linux reads page_mapping() under RCU: every access
 * is a relaxed atomic, and the owner's lock then says whether the page is still its own.
 */
static inline uint32_t page_mapping_id(const struct page *page)
{
	return __atomic_load_n(&page->mapping, __ATOMIC_RELAXED);
}

static inline void set_page_mapping(struct page *page, uint32_t id)
{
	__atomic_store_n(&page->mapping, id, __ATOMIC_RELAXED);
}

/* page->index is read with page->mapping, unlocked, by migrate_page(): the same rule. */
static inline uint32_t page_index(const struct page *page)
{
	return __atomic_load_n(&page->index, __ATOMIC_RELAXED);
}

static inline void set_page_index(struct page *page, uint32_t index)
{
	__atomic_store_n(&page->index, index, __ATOMIC_RELAXED);
}

/* A page of a region or a file (it has an owner, or sits on an LRU list): its owner frees it. */
static inline bool page_owned(const struct page *page)
{
	return page_mapping_id(page) || (page_flags(page) & (1u << PG_lru));
}

static inline unsigned int page_zonenum(const struct page *page)
{
	return (page_flags(page) & PAGE_ZONE_MASK) >> PAGE_ZONE_SHIFT;
}

static inline int page_to_nid(const struct page *page)
{
	return (int)((page_flags(page) & PAGE_NODE_MASK) >> PAGE_NODE_SHIFT);
}

/* Reset a descriptor to "free, not on any list" in node @nid, zone @zid (engine creation). */
static inline void page_init(struct page *page, int nid, unsigned int zid)
{
	*page = (struct page){
		.flags = ((uint32_t)nid << PAGE_NODE_SHIFT) | (zid << PAGE_ZONE_SHIFT),
		.next = UINT32_MAX,
		.prev = UINT32_MAX,
	};
}

/* PG_locked taken and released, sleeping while another holds it (pagewait.c). */
void __lock_page(struct page *page);
void __unlock_page(struct page *page);

/*
 * lock_page(): PG_locked, held for a whole read with the block device model, so a waiter
 * sleeps; checked as LOCK_PAGE in the lock order (full debug builds, which report to @log).
 * unlock_page() releases it and wakes the waiters.
 */
#define lock_page(page, log) lock_page_at(page, log, __FILE__, __LINE__)
#define unlock_page(page, log) unlock_page_at(page, log, __FILE__, __LINE__)

static inline void lock_page_at(struct page *page, const struct nlru_log *log, const char *file,
				int line)
{
	witness_lock_(LOCK_PAGE, log, file, line);
	__lock_page(page);
}

static inline void unlock_page_at(struct page *page, const struct nlru_log *log, const char *file,
				  int line)
{
	__unlock_page(page);
	witness_unlock_(LOCK_PAGE, log, file, line);
}

#endif /* NODELRU_PAGE_H */
