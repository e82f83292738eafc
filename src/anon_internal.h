/*
 * What anon.c (regions, pins, swap-out) and anon_map.c (mapped regions: userfaultfd faults)
 * share: the region object, its slot encoding, the swap cache helpers, and the calls each
 * makes into the other.  Private to those two files.
 */
#ifndef NODELRU_ANON_INTERNAL_H
#define NODELRU_ANON_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "anon.h"
#include "engine.h"
#include "owner.h"
#include "page.h"
#include "spinlock.h"
#include "swap.h"
#include "vmstat.h"

/*
 * A slot: 0 none; tag 1: a resident page (node, pfn); tag 2: a swap slot, with the swap-out's
 * generation in bits 34-63.  The generation tells two swap copies of a page in the same swap
 * slot apart: a fault that read the first, and lost the race to install it, must not take a
 * later copy's slot for its own (the page swapped in, rewritten and swapped out again).
 */
#define SLOT_TAG_MASK 3ull
#define SLOT_PAGE 1ull
#define SLOT_SWAP 2ull
#define SWAP_GEN_SHIFT 34

struct map_region;

struct nlru_region {
	struct owner_head owner; /* OWNER_REGION; owner.id is page->mapping of its pages */
	struct nlru_engine *eng;
	int nid; /* preferred node */
	size_t nr_pages;
	struct spinlock lock; /* protects slots, pinned, and page->private of its pages */
	long pinned;          /* pins outstanding over all pages */
	uint32_t writeback;   /* swap writes of its pages in flight (atomic): destroy waits */
	uint64_t swap_gen;    /* swap-outs so far: the generation of the next swap slot value */
	uint64_t *slots;
	/* Mapped regions only (NULL otherwise): */
	char *uaddr;            /* the range in the program, nr_pages long, fixed for life */
	struct map_region *map; /* its userfaultfd, fault threads and map_lock */
	/*
	 * Pages parked for access sampling (a bitmap, under the region lock; NULL without
	 * sampling): their data is in the parking range that follows the program's, at the same
	 * offset, until their next touch brings them back.
	 */
	uint64_t *parked;
};

static inline bool region_is_mapped(const struct nlru_region *region)
{
	return region->uaddr != NULL;
}

static inline uint32_t swap_slot_of(uint64_t v)
{
	return (uint32_t)(v >> 2);
}

static inline struct page *slot_page(const struct nlru_engine *eng, uint64_t v)
{
	return &NODE_DATA(eng, (int)((v >> 2) & 0x3f))->pages[(uint32_t)(v >> 8)];
}

/* Page @index's address in the program, for a mapped region. */
static inline void *user_address(const struct nlru_region *region, size_t index)
{
	return region->uaddr + (index << PAGE_SHIFT);
}

/* Page @index's place in the parking range. */
static inline void *park_address(const struct nlru_region *region, size_t index)
{
	return region->uaddr + ((region->nr_pages + index) << PAGE_SHIFT);
}

static inline bool map_parked(const struct nlru_region *region, size_t index)
{
	return region->parked && (region->parked[index / 64] >> (index % 64) & 1);
}

/* Where a mapped page's data is now: its user address, or parked.  Region locked. */
static inline void *map_data_address(const struct nlru_region *region, size_t index)
{
	return map_parked(region, index) ? park_address(region, index)
					 : user_address(region, index);
}

/* page->private of an anon page: its pins, and in the swap cache its slot + 1 (bits 32-63). */
#define PINS_MASK 0xffffffffull

static inline uint32_t page_pins(const struct page *page)
{
	return (uint32_t)(page->private & PINS_MASK);
}

/* anon.c: fill a fresh page's data at @data for slot value @v: zeroes, or the swap copy. */
int anon_fault_fill(struct nlru_engine *eng, uint64_t v, void *data);
/*
 * anon.c: install the fresh page @page in slot @index if the slot still holds @v, with one
 * pin if @pin, and count the swap-in.  NLRU_PIN_WRITE in @flags: the page is written (its
 * swap copy is dropped).  Region locked.  False if the slot changed.
 */
bool anon_fault_install(struct nlru_region *region, size_t index, uint64_t v, struct page *page,
			unsigned int flags, bool pin);
/* anon.c: reuse_swap_page(): the page is (about to be) written.  Region locked. */
void anon_dirty_page(struct nlru_engine *eng, struct page *page);
/* anon.c: pin the resident page of slot value @v (no writeback in flight).  Region locked. */
void anon_pin_page(struct nlru_region *region, struct page *page, unsigned int flags);
/*
 * anon.c: the swap-out step for @page of @region, which the caller has locked (map_lock
 * first for a mapped region).  Unlocks the region lock, and sets *@zap when the page's user
 * mapping must now be dropped (a mapped region's page that went to swap).
 */
enum anon_pageout_result anon_pageout_locked(struct nlru_region *region, struct page *page,
					     bool *zap);
/* anon.c: the region half of nlru_region_create() and of destroy. */
int anon_region_alloc(struct nlru_engine *eng, size_t pages, int nid, struct nlru_region **out);
void anon_region_free(struct nlru_region *region);

/* anon_map.c: nlru_region_pin() of a mapped region: the page at its user address. */
int map_pin(struct nlru_region *region, size_t index, unsigned int flags, void **addr);
/* anon_map.c: reclaim's swap-out of a page of a mapped region (anon_pageout()). */
enum anon_pageout_result map_pageout(struct nlru_region *region, struct page *page);
/* anon_map.c: write-protect a dirty mapped page before its swap write.  Region unlocked. */
int map_protect(struct nlru_region *region, size_t index);
/* anon_map.c: take and drop a mapped region's map_lock (around a discard). */
void map_lock(struct nlru_region *region);
void map_unlock(struct nlru_region *region);
/* anon_map.c: drop page @index from the program's mapping (MADV_DONTNEED).  map_lock held. */
void map_zap(struct nlru_region *region, size_t index);
/*
 * anon_map.c: destroy's first step: no fault is served any more, the fault threads are gone
 * and the range is unregistered.  Then its last: unmap the range and free the rest.
 */
void map_region_stop(struct nlru_region *region);
void map_region_free(struct nlru_region *region);

#endif /* NODELRU_ANON_INTERNAL_H */
