/*
 * The page allocator: per-CPU order-0 lists in front of the zones' buddy lists, the zonelist
 * walk with watermarks (fast path), and the 4.8 slow path that wakes kswapd, retries at the
 * min watermark and reclaims directly.
 */
#ifndef NODELRU_PAGE_ALLOC_H
#define NODELRU_PAGE_ALLOC_H

struct nlru_engine;
struct page;
struct zone;

/* Allocate 2^order pages; NULL when none could be had.  gfp, order and nid are valid. */
struct page *alloc_pages_node(struct nlru_engine *eng, unsigned int gfp, unsigned int order,
			      int nid);
/*
 * Free a block the engine itself allocated (no ownership checks).  Its owner fields (private,
 * mapping, index) are cleared, the allocator relies on that, and no one holds it but the
 * caller: its refcount is 0, or 1 for a page the caller allocated and never gave out, whose
 * reference this drops.
 */
void free_pages_trusted(struct nlru_engine *eng, struct page *page, unsigned int order);
/* The same, straight to the buddy lists at order 0 too: pages no one used, such as a trim. */
void free_pages_trusted_buddy(struct nlru_engine *eng, struct page *page, unsigned int order);

/* virt_to_page(): the descriptor of the engine page holding @addr, or NULL. */
struct page *virt_to_page(struct nlru_engine *eng, const void *addr);

/* drain_all_pages(): every CPU's lists of every zone back to the buddy allocator. */
void drain_all_pages(struct nlru_engine *eng);
/* drain_local_pages(): this CPU's lists of @zone only. */
void drain_local_pages(struct nlru_engine *eng, struct zone *zone);

/* Creation and teardown of a zone's per-CPU lists. */
int zone_pcp_init(struct nlru_engine *eng, struct zone *zone);
void zone_pcp_destroy(const struct nlru_engine *eng, struct zone *zone);
/*
 * pageset_set_high_and_batch() for every CPU's lists of @zone, as writing
 * vm.percpu_pagelist_fraction does: each list is drained and given the new sizes.  0, or
 * -ENOMEM with the lists changed so far keeping their new sizes.
 */
int zone_pcp_update(struct nlru_engine *eng, struct zone *zone);

/*
 * A page-exact run of @pages order-0 pages taken right after the last one a zone handed out,
 * when those pages are free (page_alloc_exact.c says why); NULL when no zone has them.
 */
struct page *alloc_exact_next(struct nlru_engine *eng, unsigned int gfp, int nid, uint32_t pages);

#endif /* NODELRU_PAGE_ALLOC_H */
