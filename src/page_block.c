/*
 * page_block.c - what an allocator built on nlru_alloc_pages() asks of a block from an address
 * inside it: its head and order (Linux's virt_to_head_page() and compound_order()), and a word
 * of its own kept in the head page's descriptor (the slab allocator's page->private /
 * page->slab_cache), so that a free(ptr) finds its slab without a table of its own.
 *
 * A block carries no pointer from its tail pages to its head, as Linux's compound pages do:
 * the buddy allocator aligns every block to its size within its zone, so the head is the
 * first page, at some order's alignment below the address, that is allocated with an order
 * that reaches the address.  At most MAX_ORDER descriptors are read, and the 32-byte
 * descriptor does not grow.  The word lives in page->private, which an allocated block of
 * nlru_alloc_pages() does not otherwise use; nlru_free_pages() clears it.
 */
#include <errno.h>

#include "engine.h"
#include "mmzone.h"
#include "page.h"
#include "page_alloc.h"

/* The head page of the allocated block @addr lies in, or NULL (and *@why says why not). */
static struct page *block_head(struct nlru_engine *eng, const void *addr, const char **why)
{
	struct page *page = virt_to_page(eng, addr);
	struct pglist_data *pgdat;
	struct zone *zone;
	uint32_t pfn, zone_pfn;

	*why = "not memory of this engine";
	if (!page)
		return NULL;
	pgdat = page_pgdat(eng, page);
	pfn = page_to_pfn(pgdat, page);
	zone = &pgdat->node_zones[page_zonenum(page)];
	zone_pfn = pfn - zone->zone_start_pfn;
	for (unsigned int order = 0; order < MAX_ORDER; order++) {
		uint32_t head_pfn = zone->zone_start_pfn + (zone_pfn & ~((1u << order) - 1));
		struct page *head = &pgdat->pages[head_pfn];

		if (__atomic_load_n(&head->refcount, __ATOMIC_ACQUIRE) < 1)
			continue;
		/* An allocated head below @addr: the block either reaches it or nothing does. */
		if (pfn - head_pfn >= 1u << page_order(head))
			break;
		if (page_owned(head)) {
			*why = "a page of a region or a file, which the engine owns";
			return NULL;
		}
		return head;
	}
	*why = "not inside an allocated block (free, or never allocated)";
	return NULL;
}

int nlru_page_head(struct nlru_engine *eng, const void *addr, void **head, unsigned int *order)
{
	const char *why;
	struct page *page;

	if (!eng)
		return -EINVAL;
	if (!head || !order)
		return log_einval(&eng->log, "page_head: %s is NULL", !head ? "head" : "order");
	page = block_head(eng, addr, &why);
	if (!page)
		return log_einval(&eng->log, "page_head %p: %s", addr, why);
	*head = page_address(page_pgdat(eng, page), page_to_pfn(page_pgdat(eng, page), page));
	*order = page_order(page);
	return 0;
}

int nlru_page_set_private(struct nlru_engine *eng, const void *addr, uint64_t word)
{
	const char *why;
	struct page *page;

	if (!eng)
		return -EINVAL;
	page = block_head(eng, addr, &why);
	if (!page)
		return log_einval(&eng->log, "page_set_private %p: %s", addr, why);
	__atomic_store_n(&page->private, word, __ATOMIC_RELAXED);
	return 0;
}

int nlru_page_private(struct nlru_engine *eng, const void *addr, uint64_t *word)
{
	const char *why;
	struct page *page;

	if (!eng)
		return -EINVAL;
	if (!word)
		return log_einval(&eng->log, "page_private: word is NULL");
	page = block_head(eng, addr, &why);
	if (!page)
		return log_einval(&eng->log, "page_private %p: %s", addr, why);
	*word = __atomic_load_n(&page->private, __ATOMIC_RELAXED);
	return 0;
}
