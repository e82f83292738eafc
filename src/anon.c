/*
 * anon.c - anonymous regions: the slot table (resident page, swap slot, or nothing), faults,
 * pins, the swap cache, and the swap-out step of reclaim.
 *
 * Locking: region->lock (a spinlock) protects the slots, the pin counts and swap cache slots
 * (page->private).  It is never held across an allocation or an I/O: a fault allocates
 * first and installs after, and a swap-out submits its write with the page marked
 * PG_writeback, which makes a pin of that page sleep until the write ends, as a write fault
 * waits for writeback in Linux when the device needs stable pages.  Reclaim waits for the
 * region lock (Linux's trylock_page() concerns one page, but this lock covers all of a
 * region's pages; see anon_pageout()); that is safe because no holder allocates or reclaims.
 * The region table's rwlock keeps a region alive while reclaim holds its pages isolated;
 * region->writeback keeps it alive while swap writes of its pages are in flight.
 *
 * The swap cache, as far as it matters here: a page written to swap keeps its slot
 * (PG_swapcache, the slot in page->private) until reclaim finds it clean and frees it, which
 * needs no second write; a page read back from swap for reading keeps its slot too, unless
 * swap is more than half full (vm_swap_full()).  A write pin gives the slot up, the copy in
 * it being stale from then on (reuse_swap_page()).  Not modelled: swap readahead, and
 * sharing a swap slot between regions.
 *
 * Mapped regions (anon_map.c) are regions too: their faults install pages through
 * anon_fault_install(), and their swap-out is anon_pageout_locked() with the region's
 * map_lock held, writing the page from the program's address and then dropping it there.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "anon_internal.h"
#include "blkdev.h"
#include "lru.h"
#include "owner.h"
#include "page_alloc.h"
#include "pagewait.h"
#include "swap.h"
#include "vmstat.h"

static uint64_t make_swap_slot(struct nlru_region *region, uint32_t slot)
{
	return (++region->swap_gen << SWAP_GEN_SHIFT) | ((uint64_t)slot << 2) | SLOT_SWAP;
}

static uint64_t make_page_slot(const struct page *page, uint32_t pfn)
{
	return ((uint64_t)pfn << 8) | ((uint64_t)page_to_nid(page) << 2) | SLOT_PAGE;
}

static void *slot_address(const struct nlru_engine *eng, uint64_t v)
{
	return page_address(NODE_DATA(eng, (int)((v >> 2) & 0x3f)), (uint32_t)(v >> 8));
}

static void *slot_address_of(const struct nlru_engine *eng, struct page *page)
{
	struct pglist_data *pgdat = page_pgdat(eng, page);

	return page_address(pgdat, page_to_pfn(pgdat, page));
}

static uint32_t page_swap_slot(const struct page *page)
{
	return (uint32_t)(page->private >> 32) - 1;
}

/* add_to_swap_cache(): the page keeps @slot.  Counted in nr_file_pages, as 4.8 does. */
static void add_to_swap_cache(struct nlru_engine *eng, struct page *page, uint32_t slot)
{
	page->private = (page->private & PINS_MASK) | ((uint64_t)slot + 1) << 32;
	page_set(page, PG_swapcache);
	mod_page_node_state(page_pgdat(eng, page), page, NLRU_NR_FILE_PAGES, 1);
}

/* delete_from_swap_cache(): the page's slot, which the caller frees or hands on. */
static uint32_t delete_from_swap_cache(struct nlru_engine *eng, struct page *page)
{
	uint32_t slot = page_swap_slot(page);

	page->private &= PINS_MASK;
	page_clear(page, PG_swapcache);
	mod_page_node_state(page_pgdat(eng, page), page, NLRU_NR_FILE_PAGES, -1);
	return slot;
}

/* vm_swap_full(): more than half of swap in use; then swap-ins give their slots up. */
static bool vm_swap_full(const struct nlru_engine *eng)
{
	return get_nr_swap_pages(eng) * 2 < total_swap_pages(eng);
}

int anon_region_alloc(struct nlru_engine *eng, size_t pages, int nid, struct nlru_region **out)
{
	struct nlru_region *region;
	int r;

	if (!eng)
		return -EINVAL;
	if (!out)
		return log_einval(&eng->log, "region: create needs somewhere to put the handle "
					     "(out is NULL)");
	if (pages == 0 || pages > UINT32_MAX)
		return log_einval(&eng->log, "region: %zu pages: a region has 1 to %u pages", pages,
				  UINT32_MAX);
	if (nid != NLRU_NUMA_NO_NODE && (nid < 0 || nid >= eng->nr_nodes))
		return log_einval(&eng->log,
				  "region: node %d does not exist (the engine has %d; "
				  "NLRU_NUMA_NO_NODE places pages anywhere)",
				  nid, eng->nr_nodes);
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
	r = owner_register(eng->owners, &region->owner, NULL);
	if (r) {
		free(region->slots);
		free(region);
		return r;
	}
	*out = region;
	return 0;
}

int nlru_region_create(struct nlru_engine *eng, size_t pages, int nid, struct nlru_region **out)
{
	return anon_region_alloc(eng, pages, nid, out);
}

/*
 * Give back slot @i's page or swap slot.  Region locked and the table write-locked, so no
 * reclaim pass holds the page isolated: it is on its LRU list, and no swap write of it is in
 * flight (wait_for_swap_writes()).
 */
static void release_slot(struct nlru_region *region, size_t i)
{
	struct nlru_engine *eng = region->eng;
	uint64_t v = region->slots[i];

	CHECK_FULL(&eng->log, witness_holds(LOCK_REGION) && witness_holds(LOCK_OWNERS));
	if ((v & SLOT_TAG_MASK) == SLOT_SWAP) {
		swap_slot_free(eng->swap, swap_slot_of(v));
	} else if ((v & SLOT_TAG_MASK) == SLOT_PAGE) {
		struct page *page = slot_page(eng, v);

		if (page_test(page, PG_swapcache))
			swap_slot_free(eng->swap, delete_from_swap_cache(eng, page));
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

/*
 * Sleep until no swap write of the region's pages is in flight.  The caller holds the table's
 * write lock, so reclaim, which holds its read lock to start one, starts no more; the writes'
 * completions take no lock the caller holds.
 */
static void wait_for_swap_writes(struct nlru_region *region)
{
	wait_var_zero(&region->writeback);
}

int nlru_region_destroy(struct nlru_region *region)
{
	struct nlru_engine *eng;

	if (!region)
		return -EINVAL;
	eng = region->eng;
	if (region_is_mapped(region)) {
		long pinned;

		/* Refused before the fault threads stop, so that a refusal changes nothing. */
		spin_lock(&region->lock);
		pinned = region->pinned;
		spin_unlock(&region->lock);
		if (pinned) {
			log_err(&eng->log, "region destroy: %ld pin%s still held", pinned,
				pinned == 1 ? " is" : "s are");
			return -EBUSY;
		}
		map_region_stop(region);
	}
	rwlock_wrlock(&eng->owners->lock);
	wait_for_swap_writes(region);
	spin_lock(&region->lock);
	if (region->pinned) {
		long pinned = region->pinned;

		spin_unlock(&region->lock);
		rwlock_unlock(&eng->owners->lock);
		log_err(&eng->log, "region destroy: %ld pin%s still held", pinned,
			pinned == 1 ? " is" : "s are");
		return -EBUSY;
	}
	region_release(region);
	spin_unlock(&region->lock);
	owner_unregister(eng->owners, region->owner.id);
	rwlock_unlock(&eng->owners->lock);
	anon_region_free(region);
	return 0;
}

void anon_region_free(struct nlru_region *region)
{
	if (region_is_mapped(region))
		map_region_free(region);
	free(region->slots);
	free(region);
}

/*
 * Pin a resident page: region locked.  NULL when it is being written out: the caller sleeps
 * on the returned page's writeback (*@busy) and looks again.  A write pin makes the page's
 * swap copy stale: the slot goes (reuse_swap_page()).
 */
static bool pin_resident(struct nlru_region *region, uint64_t v, unsigned int flags, void **addr,
			 struct page **busy)
{
	struct nlru_engine *eng = region->eng;
	struct page *page = slot_page(eng, v);

	CHECK_FULL(&eng->log, witness_holds(LOCK_REGION));
	if (page_test(page, PG_writeback)) {
		*busy = page;
		return false;
	}
	anon_pin_page(region, page, flags);
	*addr = slot_address(eng, v);
	return true;
}

void anon_dirty_page(struct nlru_engine *eng, struct page *page)
{
	page_set(page, PG_dirty);
	if (page_test(page, PG_swapcache))
		swap_slot_free(eng->swap, delete_from_swap_cache(eng, page));
}

void anon_pin_page(struct nlru_region *region, struct page *page, unsigned int flags)
{
	CHECK_FULL(&region->eng->log, witness_holds(LOCK_REGION));
	__atomic_add_fetch(&page->refcount, 1, __ATOMIC_ACQ_REL);
	page->private += 1;
	region->pinned++;
	page_set(page, PG_young);
	if (flags & NLRU_PIN_WRITE)
		anon_dirty_page(region->eng, page);
}

int anon_fault_fill(struct nlru_engine *eng, uint64_t v, void *data)
{
	int r;

	if ((v & SLOT_TAG_MASK) != SLOT_SWAP) {
		memset(data, 0, PAGE_SIZE);
		return 0;
	}
	r = swap_readpage(eng, swap_slot_of(v), data);
	if (r)
		log_err_ratelimited(&eng->log, &eng->read_errors,
				    "swap-in of slot %u failed: %s (the data stays in swap)",
				    swap_slot_of(v), strerror(-r));
	return r;
}

bool anon_fault_install(struct nlru_region *region, size_t index, uint64_t v, struct page *page,
			unsigned int flags, bool pin)
{
	struct nlru_engine *eng = region->eng;
	struct pglist_data *pgdat = page_pgdat(eng, page);

	CHECK_FULL(&eng->log, witness_holds(LOCK_REGION));
	if (region->slots[index] != v)
		return false;
	set_page_mapping(page, region->owner.id);
	set_page_index(page, (uint32_t)index);
	page->private = pin; /* its pins */
	page_set(page, PG_swapbacked);
	page_set(page, PG_young);
	/* The mapping's reference, and the pin's. */
	__atomic_store_n(&page->refcount, 1u + pin, __ATOMIC_RELEASE);
	region->slots[index] = make_page_slot(page, page_to_pfn(pgdat, page));
	region->pinned += pin;
	mod_page_node_state(pgdat, page, NLRU_NR_ANON_MAPPED, 1);
	if ((v & SLOT_TAG_MASK) != SLOT_SWAP) {
		page_set(page, PG_dirty); /* a new page has no copy anywhere */
		return true;
	}
	/* do_swap_page(): a read keeps the swap copy unless swap is tight; a write spoils it. */
	if ((flags & NLRU_PIN_WRITE) || vm_swap_full(eng)) {
		swap_slot_free(eng->swap, swap_slot_of(v));
		page_set(page, PG_dirty);
	} else {
		add_to_swap_cache(eng, page, swap_slot_of(v));
	}
	count_vm_event(eng, NLRU_PGMAJFAULT);
	/* Counted here, not at the read: a read that lost the race to install is no swap-in. */
	count_vm_event(eng, NLRU_PSWPIN);
	count_vm_events(eng, NLRU_PGPGIN, PAGE_SIZE / 1024);
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
	r = anon_fault_fill(eng, v, page_address(pgdat, page_to_pfn(pgdat, page)));
	if (!r) {
		spin_lock(&region->lock);
		installed = anon_fault_install(region, index, v, page, flags, true);
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

struct page *region_page(struct nlru_region *region, size_t index)
{
	uint64_t v;

	spin_lock(&region->lock);
	v = region->slots[index];
	spin_unlock(&region->lock);
	return (v & SLOT_TAG_MASK) == SLOT_PAGE ? slot_page(region->eng, v) : NULL;
}

int anon_migrate_page(struct nlru_engine *eng, struct nlru_region *region, struct page *page,
		      struct page *newpage)
{
	struct pglist_data *pgdat = page_pgdat(eng, page);
	uint32_t index = page_index(page);
	int r = -EAGAIN;

	CHECK_FULL(&eng->log, witness_holds(LOCK_OWNERS));
	/* A mapped region's page changes with map_lock held (anon_map.c). */
	if (region_is_mapped(region))
		map_lock(region);
	spin_lock(&region->lock);
	/* Still this region's page at that index: the page was not freed and reused meanwhile. */
	if (index < region->nr_pages &&
	    region->slots[index] == make_page_slot(page, page_to_pfn(pgdat, page))) {
		/* A mapped region's data is at its user address: its frame holds none. */
		r = lru_migrate_page(eng, page, newpage, !region_is_mapped(region));
		if (!r)
			region->slots[index] = make_page_slot(newpage, page_to_pfn(pgdat, newpage));
	}
	spin_unlock(&region->lock);
	if (region_is_mapped(region))
		map_unlock(region);
	return r;
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

	if (!region || bad_index(region, index))
		return -EINVAL;
	if (!addr)
		return log_einval(
			&region->eng->log,
			"region: pin of page %zu needs somewhere to put its address (addr is "
			"NULL)",
			index);
	if (flags & ~NLRU_PIN_WRITE) {
		log_err(&region->eng->log, "region: pin of page %zu with unknown flags %#x", index,
			flags);
		return -EINVAL;
	}
	if (region_is_mapped(region))
		return map_pin(region, index, flags, addr);
	for (;;) {
		uint64_t v;

		spin_lock(&region->lock);
		v = region->slots[index];
		if ((v & SLOT_TAG_MASK) == SLOT_PAGE) {
			struct page *busy = NULL;
			bool pinned = pin_resident(region, v, flags, addr, &busy);

			/* The write's reference keeps the page from being freed under the wait. */
			if (busy)
				get_page(busy);
			spin_unlock(&region->lock);
			if (pinned)
				return 0;
			wait_on_page_writeback(busy);
			put_page(busy);
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

		if (page_pins(page) > 0) {
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
	rwlock_wrlock(&eng->owners->lock);
	if (region_is_mapped(region))
		map_lock(region);
	wait_for_swap_writes(region);
	spin_lock(&region->lock);
	v = region->slots[index];
	if ((v & SLOT_TAG_MASK) == SLOT_PAGE && page_pins(slot_page(eng, v)))
		r = -EBUSY;
	else
		release_slot(region, index);
	spin_unlock(&region->lock);
	if (region_is_mapped(region)) {
		/* Its next touch faults and finds an empty slot: zeroes. */
		if (!r)
			map_zap(region, index);
		map_unlock(region);
	}
	rwlock_unlock(&eng->owners->lock);
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

/* end_page_writeback()'s counters: back down, and NR_WRITTEN if the write went through. */
static void anon_end_writeback(struct nlru_engine *eng, struct page *page, bool written)
{
	struct pglist_data *pgdat = page_pgdat(eng, page);

	CHECK_CHEAP(&eng->log, page_test(page, PG_writeback));
	mod_page_node_state(pgdat, page, NLRU_NR_WRITEBACK, -1);
	mod_zone_page_state(page_zone(pgdat, page), NLRU_NR_ZONE_WRITE_PENDING, -1);
	if (written)
		mod_page_node_state(pgdat, page, NLRU_NR_WRITTEN, 1);
}

/*
 * end_swap_bio_write(): the swap write of @bio->private ended.  A failed write leaves the page
 * dirty, out of the swap cache (its slot is not used again for it) and not marked for
 * immediate reclaim; a page written for reclaim goes to the inactive tail, to be freed by the
 * next pass without another write.  Runs with no lock held.
 */
static void end_swap_write(struct bio *bio)
{
	struct nlru_region *region = bio->owner;
	struct nlru_engine *eng = region->eng;
	struct page *page = bio->private;
	bool rotate = false;
	long slot = -1;

	spin_lock(&region->lock);
	anon_end_writeback(eng, page, !bio->err);
	if (bio->err) {
		page_set(page, PG_dirty);
		page_clear(page, PG_reclaim);
		if (page_test(page, PG_swapcache))
			slot = delete_from_swap_cache(eng, page);
	} else {
		rotate = page_test_clear(page, PG_reclaim);
	}
	spin_unlock(&region->lock);
	/* Counted when written, so that pswpout and nr_written agree (4.8 counts pswpout when
	 * the write is submitted, and nr_written for failed writes too). */
	if (!bio->err) {
		count_vm_event(eng, NLRU_PSWPOUT);
		count_vm_events(eng, NLRU_PGPGOUT, PAGE_SIZE / 1024);
	}
	clear_bit_unlock_wake(page, PG_writeback);
	if (bio->err)
		swap_write_failed(eng, slot, -bio->err);
	else
		swap_write_succeeded(eng);
	if (rotate && page_test(page, PG_lru))
		rotate_reclaimable_page(eng, page);
	put_page(page);
	/* The last touch of the region: destroy may free it once this reads 0. */
	dec_var_and_wake(&region->writeback);
}

/* __remove_mapping() of a clean swap cache page: the slot takes its place.  Region locked. */
static void drop_swapped_page(struct nlru_region *region, struct page *page)
{
	struct nlru_engine *eng = region->eng;
	uint32_t index = page->index;

	CHECK_FULL(&eng->log, witness_holds(LOCK_REGION));
	region->slots[index] = make_swap_slot(region, delete_from_swap_cache(eng, page));
	page_clear(page, PG_swapbacked);
	page_clear(page, PG_reclaim);
	set_page_mapping(page, 0);
	set_page_index(page, 0);
	mod_page_node_state(page_pgdat(eng, page), page, NLRU_NR_ANON_MAPPED, -1);
	/* Drop the mapping's and reclaim's references: the caller frees the page. */
	__atomic_store_n(&page->refcount, 0, __ATOMIC_RELEASE);
}

/* A page reclaim may free now: only the mapping and reclaim hold it, and swap has its data. */
static bool swapped_and_clean(const struct page *page)
{
	return __atomic_load_n(&page->refcount, __ATOMIC_ACQUIRE) == 2 &&
	       page_test(page, PG_swapcache) && !page_test(page, PG_dirty) &&
	       !page_test(page, PG_writeback);
}

/*
 * add_to_swap() and pageout() for a dirty page: a slot if it has none, then the write, with
 * the page clean and under writeback while it is in flight.  Region locked on entry, unlocked
 * on return.  False if swap is full.
 */
static bool swap_writepage_locked(struct nlru_region *region, struct page *page)
{
	struct nlru_engine *eng = region->eng;
	uint32_t slot;
	void *data;

	if (!page_test(page, PG_swapcache)) {
		if (swap_slot_alloc(eng->swap, &slot)) {
			spin_unlock(&region->lock);
			return false;
		}
		add_to_swap_cache(eng, page, slot);
	}
	slot = page_swap_slot(page);
	page_clear(page, PG_dirty); /* clear_page_dirty_for_io() */
	page_set(page, PG_reclaim);
	anon_set_writeback(eng, page);
	__atomic_add_fetch(&region->writeback, 1, __ATOMIC_RELAXED);
	get_page(page); /* the write's, dropped at its end */
	/* A mapped page is written from where the program's data is: its user address, which
	 * the caller write-protected, or its place in the parking range. */
	data = region_is_mapped(region) ? map_data_address(region, page->index)
					: slot_address_of(eng, page);
	spin_unlock(&region->lock);
	if (swap_submit_write(eng, slot, data, end_swap_write, page, region)) {
		struct bio failed = {.err = ENOMEM, .private = page, .owner = region};

		end_swap_write(&failed);
	}
	return true;
}

enum anon_pageout_result anon_pageout(struct nlru_engine *eng, struct page *page)
{
	struct nlru_region *region = (struct nlru_region *)owner_lookup(eng->owners, page->mapping);
	bool zap;

	/* Reclaim found the page by its mapping: the owner must be its region, alive. */
	if (!CHECK_CHEAP(&eng->log, region && region->owner.type == OWNER_REGION))
		return ANON_KEEP;
	if (region_is_mapped(region))
		return map_pageout(region, page);
	/*
	 * Not a trylock: Linux's trylock_page() fails only when this very page is busy, but the
	 * region lock covers all its pages.  A trylock failed for every page of a region whose
	 * holder was descheduled, and whole reclaim passes under load found nothing to take.
	 */
	spin_lock(&region->lock);
	return anon_pageout_locked(region, page, &zap);
}

enum anon_pageout_result anon_pageout_locked(struct nlru_region *region, struct page *page,
					     bool *zap)
{
	struct nlru_engine *eng = region->eng;
	enum anon_pageout_result result = ANON_KEEP;

	*zap = false;
	/* Pinned pages stay: the mapping and reclaim hold the only references otherwise. */
	if (__atomic_load_n(&page->refcount, __ATOMIC_ACQUIRE) != 2) {
		spin_unlock(&region->lock);
		return ANON_ACTIVATE;
	}
	if (!page_test(page, PG_dirty) && page_test(page, PG_swapcache)) {
		drop_swapped_page(region, page); /* its copy in swap is current */
		spin_unlock(&region->lock);
		*zap = true;
		return ANON_SWAPPED;
	}
	if (region_is_mapped(region) && !map_parked(region, page->index)) {
		/* try_to_unmap()'s part: the program may read the page, but no longer write it. */
		int r;

		spin_unlock(&region->lock);
		r = map_protect(region, page->index);
		spin_lock(&region->lock);
		if (r) {
			spin_unlock(&region->lock);
			return ANON_KEEP;
		}
	}
	if (!swap_writepage_locked(region, page)) {
		count_vm_event(eng, NLRU_SWAP_FULL);
		return ANON_ACTIVATE; /* add_to_swap() failed: Linux activates too */
	}
	/* pageout() counts every page reclaim writes, anon or file: mmtests' "Page writes". */
	mod_page_node_state(page_pgdat(eng, page), page, NLRU_NR_VMSCAN_WRITE, 1);
	/* A write that ended already (no device model): free the page now, as 4.8 does. */
	spin_lock(&region->lock);
	if (swapped_and_clean(page)) {
		drop_swapped_page(region, page);
		result = ANON_SWAPPED;
		*zap = true;
	} else if (page_test(page, PG_writeback)) {
		result = ANON_WRITEBACK;
	}
	spin_unlock(&region->lock);
	return result;
}
