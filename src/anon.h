/*
 * Anonymous regions (the engine's vma and page table) and what reclaim needs of them:
 * "was this page referenced through its mapping" and "unmap it and swap it out".
 */
#ifndef NODELRU_ANON_H
#define NODELRU_ANON_H

#include <stddef.h>

struct nlru_engine;
struct nlru_region;
struct page;

/* The engine a region belongs to. */
struct nlru_engine *region_engine(const struct nlru_region *region);
/* Test hook: the swap slot holding page @index, or -1 when the page is not in swap. */
long region_swap_slot(struct nlru_region *region, size_t index);

/* page_referenced() for an anon page: test and clear its young bit. */
/* The page resident in slot @index of @region, or NULL (tests, and what reads it racily). */
struct page *region_page(struct nlru_region *region, size_t index);
/*
 * anon_migrate_page(): migrate_page() for a page of @region: under the region's locks, if
 * @page is still the page of its slot, lru_migrate_page() moves it into @newpage and the slot
 * follows.  Owner table read-locked.  0, -EAGAIN or -EXDEV (lru.h).
 */
int anon_migrate_page(struct nlru_engine *eng, struct nlru_region *region, struct page *page,
		      struct page *newpage);

int anon_page_referenced(struct page *page);

enum anon_pageout_result {
	ANON_SWAPPED,   /* its copy in swap is current and it is unmapped: the caller frees it */
	ANON_WRITEBACK, /* its swap write is in flight: kept, to be freed once the write ends */
	ANON_KEEP,      /* the write failed: try again later */
	ANON_ACTIVATE,  /* pinned, or no swap space: not reclaimable now */
};

/*
 * add_to_swap(), try_to_unmap() and pageout() for an isolated anon page: a clean page in the
 * swap cache is unmapped at once; a dirty one is written to swap (a slot allocated if it has
 * none) and kept under writeback with PG_reclaim, or unmapped at once if the write has ended
 * already (no device model).  Called by reclaim with the region table read-locked and one
 * isolation reference held.
 */
enum anon_pageout_result anon_pageout(struct nlru_engine *eng, struct page *page);

#endif /* NODELRU_ANON_H */
