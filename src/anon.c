/*
 * anon.c - anonymous regions: the slot table (resident page, swap slot, or nothing), faults,
 * pins, and the unmap-and-swap-out step of reclaim.
 *
 * Locking: region->lock (a spinlock) protects the slots and the pin counts (page->private).
 * It is never held across an allocation or an I/O: a fault allocates first and installs
 * after, and swap-out writes with the page marked PG_writeback, which makes a pin of that
 * page wait, exactly as a write fault waits for writeback in Linux.  Reclaim waits for the
 * region lock (Linux's trylock_page() concerns one page, but this lock covers all of a
 * region's pages; see anon_pageout()); that is safe because no holder allocates or reclaims.
 * The region table's rwlock keeps a region alive while reclaim holds its pages isolated.
 *
 * Not modelled: a swap cache.  A page read back from swap gives its slot up at once and is
 * dirty, so reclaiming it again writes it again (Linux keeps the copy while swap is not
 * tight).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "anon.h"
#include "lru.h"
#include "page_alloc.h"
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

struct nlru_region {
	struct owner_head owner; /* OWNER_REGION; owner.id is page->mapping of its pages */
	struct nlru_engine *eng;
	int nid; /* preferred node */
	size_t nr_pages;
	struct spinlock lock; /* protects slots, pinned, and page->private of its pages */
	long pinned;          /* pins outstanding over all pages */
	uint64_t swap_gen;    /* swap-outs so far: the generation of the next swap slot value */
	uint64_t *slots;
};

static uint64_t make_swap_slot(struct nlru_region *region, uint32_t slot)
{
	return (++region->swap_gen << SWAP_GEN_SHIFT) | ((uint64_t)slot << 2) | SLOT_SWAP;
}

static uint32_t swap_slot_of(uint64_t v)
{
	return (uint32_t)(v >> 2);
}

static uint64_t make_page_slot(const struct page *page, uint32_t pfn)
{
	return ((uint64_t)pfn << 8) | ((uint64_t)page_to_nid(page) << 2) | SLOT_PAGE;
}

static struct page *slot_page(const struct nlru_engine *eng, uint64_t v)
{
	return &NODE_DATA(eng, (int)((v >> 2) & 0x3f))->pages[v >> 8];
}

static void *slot_address(const struct nlru_engine *eng, uint64_t v)
{
	return page_address(NODE_DATA(eng, (int)((v >> 2) & 0x3f)), (uint32_t)(v >> 8));
}

int nlru_region_create(struct nlru_engine *eng, size_t pages, int nid, struct nlru_region **out)
{
	struct nlru_region *region;
	int r;

	if (!eng || !out)
		return -EINVAL;
	if (pages == 0 || pages > UINT32_MAX ||
	    (nid != NLRU_NUMA_NO_NODE && (nid < 0 || nid >= eng->nr_nodes))) {
		log_err(&eng->log,
			"region: %zu pages on node %d is not a region this engine can make", pages,
			nid);
		return -EINVAL;
	}
	region = calloc(1, sizeof(*region));
	if (!region || !(region->slots = calloc(pages, sizeof(uint64_t)))) {
		free(region);
		return -ENOMEM;
	}
	region->eng = eng;
	region->nid = nid;
	region->nr_pages = pages;
	spin_lock_init(&region->lock, LOCK_REGION, &eng->log);
	region->owner.type = OWNER_REGION;
	r = owner_register(&eng->owners, &region->owner, NULL);
	if (r) {
		free(region->slots);
		free(region);
		return r;
	}
	*out = region;
	return 0;
}

/*
 * Give back slot @i's page or swap slot.  Region locked and the table write-locked, so no
 * reclaim pass holds the page isolated: it is on its LRU list.
 */
static void release_slot(struct nlru_region *region, size_t i)
{
	struct nlru_engine *eng = region->eng;
	uint64_t v = region->slots[i];

	if ((v & SLOT_TAG_MASK) == SLOT_SWAP) {
		swap_slot_free(eng->swap, swap_slot_of(v));
	} else if ((v & SLOT_TAG_MASK) == SLOT_PAGE) {
		struct page *page = slot_page(eng, v);

		mod_page_node_state(page_pgdat(eng, page), page, NLRU_NR_ANON_MAPPED, -1);
		lru_release_page(eng, page);
	}
	region->slots[i] = 0;
}

static void region_release(struct nlru_region *region)
{
	for (size_t i = 0; i < region->nr_pages; i++)
		release_slot(region, i);
}

int nlru_region_destroy(struct nlru_region *region)
{
	struct nlru_engine *eng;

	if (!region)
		return -EINVAL;
	eng = region->eng;
	rwlock_wrlock(&eng->owners.lock);
	spin_lock(&region->lock);
	if (region->pinned) {
		spin_unlock(&region->lock);
		rwlock_unlock(&eng->owners.lock);
		log_err(&eng->log, "region destroy: %ld pins are still held", region->pinned);
		return -EBUSY;
	}
	region_release(region);
	spin_unlock(&region->lock);
	owner_unregister(&eng->owners, region->owner.id);
	rwlock_unlock(&eng->owners.lock);
	free(region->slots);
	free(region);
	return 0;
}

/* Pin a resident page: region locked.  False when it is being written out (caller waits). */
static bool pin_resident(struct nlru_region *region, uint64_t v, unsigned int flags, void **addr)
{
	struct page *page = slot_page(region->eng, v);

	if (page_test(page, PG_writeback))
		return false;
	__atomic_add_fetch(&page->refcount, 1, __ATOMIC_ACQ_REL);
	page->private += 1;
	region->pinned++;
	page_set(page, PG_young);
	if (flags & NLRU_PIN_WRITE)
		page_set(page, PG_dirty);
	*addr = slot_address(region->eng, v);
	return true;
}

/* Fill a fresh page for slot value @v: zeroes, or the swap copy.  No lock held. */
static int fault_fill(struct nlru_engine *eng, uint64_t v, void *data)
{
	int r;

	if ((v & SLOT_TAG_MASK) != SLOT_SWAP) {
		memset(data, 0, PAGE_SIZE);
		return 0;
	}
	r = swap_readpage(eng, swap_slot_of(v), data);
	if (r)
		log_err(&eng->log, "swap-in of slot %u failed: %s (the data stays in swap)",
			swap_slot_of(v), strerror(-r));
	return r;
}

/* Install @page for slot @index if the slot still holds @v; region locked. */
static bool fault_install(struct nlru_region *region, size_t index, uint64_t v, struct page *page,
			  unsigned int flags)
{
	struct nlru_engine *eng = region->eng;
	struct pglist_data *pgdat = page_pgdat(eng, page);

	if (region->slots[index] != v)
		return false;
	page->mapping = region->owner.id;
	page->index = (uint32_t)index;
	page->private = 1; /* one pin */
	page_set(page, PG_swapbacked);
	page_set(page, PG_young);
	page_set(page, PG_dirty); /* anon memory has no clean copy anywhere once the slot goes */
	__atomic_store_n(&page->refcount, 2, __ATOMIC_RELEASE); /* the mapping and the pin */
	region->slots[index] = make_page_slot(page, page_to_pfn(pgdat, page));
	region->pinned++;
	mod_page_node_state(pgdat, page, NLRU_NR_ANON_MAPPED, 1);
	if ((v & SLOT_TAG_MASK) == SLOT_SWAP) {
		swap_slot_free(eng->swap, swap_slot_of(v));
		count_vm_event(eng, NLRU_PGMAJFAULT);
		/* Counted here, not at the read: a read that lost the race to install is no
		 * swap-in. */
		count_vm_event(eng, NLRU_PSWPIN);
		count_vm_events(eng, NLRU_PGPGIN, PAGE_SIZE / 1024);
	}
	(void)flags;
	return true;
}

/* do_anonymous_page / do_swap_page: a new page for @index, installed and pinned. */
static int fault_in(struct nlru_region *region, size_t index, uint64_t v, unsigned int flags,
		    void **addr)
{
	struct nlru_engine *eng = region->eng;
	struct page *page = alloc_pages_node(eng, NLRU_GFP_HIGHUSER_MOVABLE, 0, region->nid);
	struct pglist_data *pgdat;
	bool installed = false;
	int r;

	if (!page)
		return -ENOMEM;
	pgdat = page_pgdat(eng, page);
	r = fault_fill(eng, v, page_address(pgdat, page_to_pfn(pgdat, page)));
	if (!r) {
		spin_lock(&region->lock);
		installed = fault_install(region, index, v, page, flags);
		spin_unlock(&region->lock);
	}
	if (r || !installed) {
		/* Failed, or another thread faulted the same page in first: give ours back. */
		free_pages_trusted(eng, page, 0);
		return r ? r : -EAGAIN;
	}
	count_vm_event(eng, NLRU_PGFAULT);
	lru_cache_add_active_or_unevictable(eng, page);
	*addr = page_address(pgdat, page_to_pfn(pgdat, page));
	return 0;
}

long region_swap_slot(struct nlru_region *region, size_t index)
{
	uint64_t v;

	spin_lock(&region->lock);
	v = region->slots[index];
	spin_unlock(&region->lock);
	return (v & SLOT_TAG_MASK) == SLOT_SWAP ? (long)swap_slot_of(v) : -1;
}

static bool bad_index(struct nlru_region *region, size_t index)
{
	if (index < region->nr_pages)
		return false;
	log_err(&region->eng->log, "region: page %zu is past its end (%zu pages)", index,
		region->nr_pages);
	return true;
}

int nlru_region_pin(struct nlru_region *region, size_t index, unsigned int flags, void **addr)
{
	int r;

	if (!region || !addr || bad_index(region, index))
		return -EINVAL;
	if (flags & ~NLRU_PIN_WRITE) {
		log_err(&region->eng->log, "region: pin of page %zu with unknown flags %#x", index,
			flags);
		return -EINVAL;
	}
	for (;;) {
		uint64_t v;

		spin_lock(&region->lock);
		v = region->slots[index];
		if ((v & SLOT_TAG_MASK) == SLOT_PAGE) {
			bool pinned = pin_resident(region, v, flags, addr);

			spin_unlock(&region->lock);
			if (pinned)
				return 0;
			sched_yield(); /* under writeback: wait for reclaim to finish with it */
			continue;
		}
		spin_unlock(&region->lock);
		r = fault_in(region, index, v, flags, addr);
		if (r != -EAGAIN)
			return r;
	}
}

int nlru_region_unpin(struct nlru_region *region, size_t index)
{
	int r = -EINVAL;

	if (!region || bad_index(region, index))
		return -EINVAL;
	spin_lock(&region->lock);
	if ((region->slots[index] & SLOT_TAG_MASK) == SLOT_PAGE) {
		struct page *page = slot_page(region->eng, region->slots[index]);

		if (page->private > 0) {
			page->private -= 1;
			region->pinned--;
			__atomic_sub_fetch(&page->refcount, 1, __ATOMIC_ACQ_REL);
			r = 0;
		}
	}
	spin_unlock(&region->lock);
	if (r)
		log_err(&region->eng->log, "region: unpin of page %zu, which is not pinned", index);
	return r;
}

static int mark_page(struct nlru_region *region, size_t index, enum pageflags flag)
{
	int r = -ENOENT;

	if (!region || bad_index(region, index))
		return -EINVAL;
	spin_lock(&region->lock);
	if ((region->slots[index] & SLOT_TAG_MASK) == SLOT_PAGE) {
		page_set(slot_page(region->eng, region->slots[index]), flag);
		r = 0;
	}
	spin_unlock(&region->lock);
	return r;
}

int nlru_region_mark_accessed(struct nlru_region *region, size_t index)
{
	return mark_page(region, index, PG_young);
}

int nlru_region_mark_dirty(struct nlru_region *region, size_t index)
{
	return mark_page(region, index, PG_dirty);
}

int nlru_region_discard(struct nlru_region *region, size_t index)
{
	struct nlru_engine *eng;
	uint64_t v;
	int r = 0;

	if (!region || bad_index(region, index))
		return -EINVAL;
	eng = region->eng;
	rwlock_wrlock(&eng->owners.lock);
	spin_lock(&region->lock);
	v = region->slots[index];
	if ((v & SLOT_TAG_MASK) == SLOT_PAGE && slot_page(eng, v)->private)
		r = -EBUSY;
	else
		release_slot(region, index);
	spin_unlock(&region->lock);
	rwlock_unlock(&eng->owners.lock);
	if (r)
		log_err(&eng->log, "region: page %zu is pinned and cannot be discarded", index);
	return r;
}

struct nlru_engine *region_engine(const struct nlru_region *region)
{
	return region->eng;
}

int anon_page_referenced(struct page *page)
{
	return page_test_clear(page, PG_young);
}

/* set_page_writeback(): a swap-out counts as writeback as a file page's write does. */
static void anon_set_writeback(struct nlru_engine *eng, struct page *page)
{
	struct pglist_data *pgdat = page_pgdat(eng, page);

	page_set(page, PG_writeback);
	mod_page_node_state(pgdat, page, NLRU_NR_WRITEBACK, 1);
	mod_zone_page_state(page_zone(pgdat, page), NLRU_NR_ZONE_WRITE_PENDING, 1);
}

/* end_page_writeback(): the counters back down, and NR_WRITTEN if the write went through. */
static void anon_end_writeback(struct nlru_engine *eng, struct page *page, bool written)
{
	struct pglist_data *pgdat = page_pgdat(eng, page);

	page_clear(page, PG_writeback);
	mod_page_node_state(pgdat, page, NLRU_NR_WRITEBACK, -1);
	mod_zone_page_state(page_zone(pgdat, page), NLRU_NR_ZONE_WRITE_PENDING, -1);
	if (written)
		mod_page_node_state(pgdat, page, NLRU_NR_WRITTEN, 1);
}

/* Finish a swap-out: region locked.  The slot now names the swap copy; the page is free. */
static void swapped_out(struct nlru_region *region, struct page *page, uint32_t slot)
{
	struct nlru_engine *eng = region->eng;

	region->slots[page->index] = make_swap_slot(region, slot);
	anon_end_writeback(eng, page, true);
	page_clear(page, PG_dirty);
	page_clear(page, PG_swapbacked);
	page->mapping = 0;
	page->index = 0;
	mod_page_node_state(page_pgdat(eng, page), page, NLRU_NR_ANON_MAPPED, -1);
	/* Drop the mapping's and reclaim's references: the caller frees the page. */
	__atomic_store_n(&page->refcount, 0, __ATOMIC_RELEASE);
}

enum anon_pageout_result anon_pageout(struct nlru_engine *eng, struct page *page)
{
	struct nlru_region *region =
		(struct nlru_region *)owner_lookup(&eng->owners, page->mapping);
	uint32_t slot;
	int r;

	/*
	 * Not a trylock: Linux's trylock_page() fails only when this very page is busy, but the
	 * region lock covers all its pages.  A trylock failed for every page of a region whose
	 * holder was descheduled, and whole reclaim passes under load found nothing to take.
	 * The lock is short, and nobody allocates or reclaims while holding it.
	 */
	spin_lock(&region->lock);
	/* Pinned pages stay: the mapping and reclaim hold the only references otherwise. */
	if (__atomic_load_n(&page->refcount, __ATOMIC_ACQUIRE) != 2) {
		spin_unlock(&region->lock);
		return ANON_ACTIVATE;
	}
	if (swap_slot_alloc(eng->swap, &slot)) {
		spin_unlock(&region->lock);
		count_vm_event(eng, NLRU_SWAP_FULL);
		return ANON_ACTIVATE; /* swap is full: Linux activates too */
	}
	anon_set_writeback(eng, page);
	spin_unlock(&region->lock);

	r = swap_writepage(
		eng, slot,
		page_address(page_pgdat(eng, page), page_to_pfn(page_pgdat(eng, page), page)));

	spin_lock(&region->lock);
	if (r) {
		anon_end_writeback(eng, page, false);
		spin_unlock(&region->lock);
		swap_slot_free(eng->swap, slot);
		swap_write_failed(eng, r);
		return ANON_KEEP;
	}
	swapped_out(region, page, slot);
	spin_unlock(&region->lock);
	/* pageout() counts every page reclaim writes, anon or file: mmtests' "Page writes". */
	mod_page_node_state(page_pgdat(eng, page), page, NLRU_NR_VMSCAN_WRITE, 1);
	return ANON_SWAPPED;
}
