/*
 * page_alloc_exact.c - allocations of any whole number of pages at any power-of-two alignment
 * up to the largest block: Linux's alloc_pages_exact() and free_pages_exact(), for callers
 * whose sizes are not powers of two (jemalloc's extents, through libnodelru-jemalloc).
 *
 * An allocation takes one buddy block big enough for the run and its alignment, splits it
 * into independent order-0 pages (split_page) and gives the pages before and after the run
 * straight back, as the largest aligned blocks they make.  Every page of the run is then an
 * allocation of its own, so any page-aligned part of it may be freed on its own and in any
 * order: jemalloc splits and merges extents as it likes, and each piece comes back here with
 * its own size.
 *
 * Runs of a size that is not a power of two would fill barely half of memory that way: a
 * run of 17 pages (a 64 KiB jemalloc extent with its cache-oblivious page) takes a block of
 * 32, and the 15 pages given back make blocks too small for the next one.  So a run with no
 * alignment to keep is first looked for right where the last run of the zone ended
 * (zone->exact_next): those pages are the tail the last run gave back and the free block
 * after it, and when they are all free the runs pack one after the other.  Only when they
 * are not does a run take a block of its own.
 *
 * Locking: none of its own, only the allocator's (page_alloc.c).  A free claims its pages one
 * refcount exchange at a time, as nlru_free_pages() claims a block, and puts back what it
 * claimed if another free of the same pages got there first.
 *
 * Not here: Linux's alloc_contig_range() ("these very pages, please"): a freed run may be
 * handed to anyone at once, so a caller can never ask for the same addresses back.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "current.h"
#include "page_alloc.h"
#include "vmstat.h"

#define MAX_BLOCK_PAGES (1ul << (MAX_ORDER - 1))

static unsigned int order_for(size_t pages)
{
	unsigned int order = 0;

	while ((1ul << order) < pages)
		order++;
	return order;
}

/* The node whose memory holds all of [addr, addr + len), or NULL. */
static struct pglist_data *range_pgdat(const struct nlru_engine *eng, const void *addr, size_t len)
{
	const char *p = addr;

	for (int nid = 0; nid < eng->nr_nodes; nid++) {
		struct pglist_data *pgdat = NODE_DATA(eng, nid);
		size_t bytes = (size_t)pgdat->node_present_pages << PAGE_SHIFT;
		size_t off = (size_t)(p - pgdat->mem);

		if (off < bytes && len <= bytes - off)
			return pgdat;
	}
	return NULL;
}

int nlru_current_node(const struct nlru_engine *eng)
{
	if (!eng)
		return -EINVAL;
	return numa_node_id(eng);
}

int nlru_addr_node(const struct nlru_engine *eng, const void *addr, size_t len)
{
	const struct pglist_data *pgdat;

	if (!eng || !len)
		return -EINVAL;
	pgdat = range_pgdat(eng, addr, len);
	return pgdat ? pgdat->node_id : -EINVAL;
}

/*
 * split_page() for a fresh block of 2^@order pages, keeping pages [@first, @end): each page
 * takes the head's flags (zone, node, slab charge) at order 0; the kept ones are allocated
 * (refcount 1), the others free-to-be (refcount 0, as the buddy lists expect).
 */
static void split_block(struct page *block, unsigned int order, size_t first, size_t end)
{
	uint32_t flags = page_flags(block) & ~PAGE_ORDER_MASK;

	for (size_t i = 0; i < (1ul << order); i++) {
		set_page_flags(&block[i], flags);
		__atomic_store_n(&block[i].refcount, i >= first && i < end, __ATOMIC_RELAXED);
	}
}

/* Give pages [@first, @end) of a split block back, as the largest aligned blocks they make. */
static void free_split_range(struct nlru_engine *eng, struct page *block, size_t first, size_t end)
{
	struct reclaim_state *saved = current_reclaim_state;

	/* Trimming an allocation is not a cache shrinking: no credit to a reclaim pass. */
	current_reclaim_state = NULL;
	while (first < end) {
		unsigned int order = 0;

		while (!(first & ((2ul << order) - 1)) && first + (2ul << order) <= end)
			order++;
		/* Not to the per-CPU lists: the next run may want these pages (exact_next). */
		free_pages_trusted_buddy(eng, &block[first], order);
		first += 1ul << order;
	}
	current_reclaim_state = saved;
}

/*
 * One try with a block of 2^@order pages: keep the first @align_pages-aligned run of @pages
 * in it.  -EAGAIN when the block's place in the address space leaves no room for that run.
 */
static int alloc_aligned_run(struct nlru_engine *eng, unsigned int gfp, unsigned int order,
			     size_t pages, size_t align_pages, int nid, void **addr)
{
	struct pglist_data *pgdat;
	struct page *block;
	char *mem;
	size_t first, end;
	int r = nlru_alloc_pages(eng, gfp & ~NLRU_GFP_ZERO, order, nid, (void **)&mem);

	if (r)
		return r;
	pgdat = range_pgdat(eng, mem, PAGE_SIZE);
	block = &pgdat->pages[(mem - pgdat->mem) >> PAGE_SHIFT];
	first = ((-(uintptr_t)mem) >> PAGE_SHIFT) & (align_pages - 1);
	end = first + pages;
	if (end > (1ul << order))
		first = end = 0; /* no room: keep nothing, give the whole block back */
	split_block(block, order, first, end);
	free_split_range(eng, block, 0, first);
	free_split_range(eng, block, end, 1ul << order);
	if (first == end)
		return -EAGAIN;
	/* The next run of the zone is looked for right after this one. */
	__atomic_store_n(&page_zone(pgdat, block)->exact_next,
			 page_to_pfn(pgdat, block) + (uint32_t)end, __ATOMIC_RELAXED);
	*addr = mem + (first << PAGE_SHIFT);
	if (gfp & NLRU_GFP_ZERO)
		memset(*addr, 0, pages << PAGE_SHIFT);
	return 0;
}

static int bad_exact_alloc(struct nlru_engine *eng, size_t size, size_t align)
{
	if (!size)
		log_err(&eng->log, "alloc_exact: size 0");
	else if (size > MAX_BLOCK_PAGES << PAGE_SHIFT)
		log_err(&eng->log, "alloc_exact: %zu bytes is more than the largest block, %lu",
			size, MAX_BLOCK_PAGES << PAGE_SHIFT);
	else
		log_err(&eng->log,
			"alloc_exact: alignment %zu is not a power of two of at most %lu bytes",
			align, MAX_BLOCK_PAGES << PAGE_SHIFT);
	return -EINVAL;
}

int nlru_alloc_pages_exact(struct nlru_engine *eng, unsigned int gfp, size_t size, size_t align,
			   int nid, void **addr)
{
	size_t pages, align_pages;
	unsigned int order;
	int r;

	if (!eng)
		return -EINVAL;
	if (!addr)
		return log_einval(&eng->log, "alloc_exact: addr is NULL");
	if (!size || size > MAX_BLOCK_PAGES << PAGE_SHIFT || (align & (align - 1)) ||
	    align > MAX_BLOCK_PAGES << PAGE_SHIFT)
		return bad_exact_alloc(eng, size, align);
	pages = DIV_ROUND_UP(size, PAGE_SIZE);
	align_pages = align > PAGE_SIZE ? align >> PAGE_SHIFT : 1;
	if (align_pages == 1 && (pages & (pages - 1))) {
		struct page *run =
			alloc_exact_next(eng, gfp & ~NLRU_GFP_ZERO, nid, (uint32_t)pages);

		if (run) {
			struct pglist_data *pgdat = page_pgdat(eng, run);

			*addr = page_address(pgdat, page_to_pfn(pgdat, run));
			if (gfp & NLRU_GFP_ZERO)
				memset(*addr, 0, pages << PAGE_SHIFT);
			return 0;
		}
	}
	order = order_for(MAX(pages, align_pages));
	/*
	 * Blocks are aligned within their zone; the zone's start decides whether that makes them
	 * aligned in memory.  If not, a block twice as big always holds an aligned run.
	 */
	r = alloc_aligned_run(eng, gfp, order, pages, align_pages, nid, addr);
	if (r == -EAGAIN && order + 1 < MAX_ORDER)
		r = alloc_aligned_run(eng, gfp, order + 1, pages, align_pages, nid, addr);
	return r == -EAGAIN ? -ENOMEM : r;
}

/* Why page @page cannot be freed as part of an exact run, or NULL if it can. */
static const char *exact_page_refusal(const struct page *page)
{
	int ref = __atomic_load_n(&page->refcount, __ATOMIC_ACQUIRE);
	uint32_t flags = page_flags(page);

	if (ref == 0)
		return "is not allocated (a double free, or inside a larger block)";
	if (flags & PAGE_ORDER_MASK)
		return "heads a block of a higher order: free it with nlru_free_pages()";
	if (page_owned(page))
		return "belongs to a region or a file";
	if (ref != 1)
		return "is still in use";
	return NULL;
}

static int bad_exact_free(struct nlru_engine *eng, const void *addr, size_t size,
			  const void *page_addr, const char *why)
{
	count_vm_event(eng, NLRU_BAD_FREE);
	if (page_addr)
		log_err_ratelimited(&eng->log, &eng->bad_frees,
				    "free_exact %p + %zu refused: page %p %s", addr, size,
				    page_addr, why);
	else
		log_err_ratelimited(&eng->log, &eng->bad_frees, "free_exact %p + %zu refused: %s",
				    addr, size, why);
	return -EINVAL;
}

/* Checks every page of the run, then claims them all (refcount 1 -> 0) or none. */
static int claim_run(struct nlru_engine *eng, struct pglist_data *pgdat, uint32_t pfn, size_t pages,
		     const void *addr, size_t size)
{
	for (size_t i = 0; i < pages; i++) {
		const char *why = exact_page_refusal(&pgdat->pages[pfn + i]);

		if (why)
			return bad_exact_free(eng, addr, size,
					      page_address(pgdat, pfn + (uint32_t)i), why);
	}
	for (size_t i = 0; i < pages; i++) {
		int one = 1;

		if (__atomic_compare_exchange_n(&pgdat->pages[pfn + i].refcount, &one, 0, false,
						__ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
			continue;
		/* Another free of the same page won the race: undo ours. */
		while (i--)
			__atomic_store_n(&pgdat->pages[pfn + i].refcount, 1, __ATOMIC_RELEASE);
		return bad_exact_free(eng, addr, size, NULL, "freed twice at the same time");
	}
	return 0;
}

int nlru_free_pages_exact(struct nlru_engine *eng, void *addr, size_t size)
{
	struct pglist_data *pgdat;
	uint32_t pfn;
	size_t pages;
	int r;

	if (!eng)
		return -EINVAL;
	if (!size)
		return bad_exact_free(eng, addr, size, NULL, "size 0");
	/* Rounded without overflow: a size near SIZE_MAX must not wrap to 0 pages. */
	pages = size / PAGE_SIZE + (size % PAGE_SIZE != 0);
	if (pages > (SIZE_MAX >> PAGE_SHIFT))
		return bad_exact_free(eng, addr, size, NULL, "larger than any node");
	pgdat = range_pgdat(eng, addr, pages << PAGE_SHIFT);
	if (!pgdat)
		return bad_exact_free(eng, addr, size, NULL,
				      "not memory of this engine (or not of one node)");
	if ((uintptr_t)addr & (PAGE_SIZE - 1))
		return bad_exact_free(eng, addr, size, NULL, "not the start of a page");
	pfn = (uint32_t)(((char *)addr - pgdat->mem) >> PAGE_SHIFT);
	r = claim_run(eng, pgdat, pfn, pages, addr, size);
	if (r)
		return r;
	for (size_t i = 0; i < pages; i++) {
		pgdat->pages[pfn + i].private = 0; /* the caller's word (nlru_page_set_private()) */
		free_pages_trusted(eng, &pgdat->pages[pfn + i], 0);
	}
	return 0;
}
