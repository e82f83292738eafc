/*
 * anon_map.c - mapped regions: anonymous regions whose pages the program uses with plain loads
 * and stores at a fixed range of its address space, faulted in through userfaultfd(2).
 *
 * The data of a resident page lives at its user address; the engine page that accounts for
 * it (its frame, on the LRU lists like any region page's) is never touched, so the memory the
 * pages of mapped regions use is the number of their frames, within the engine's memory.  A
 * missing page's first touch stops the touching thread in the kernel and queues a fault
 * message on the region's userfaultfd; one of the region's fault threads allocates a frame
 * (which may reclaim, directly or by waking kswapd, by the mode's rules), reads the swap copy
 * into a buffer of its own, installs the page (UFFDIO_COPY, or UFFDIO_ZEROPAGE for a first
 * read) and wakes the thread.
 *
 * Dirty tracking: a page is writable in the program only while PG_dirty is set.  A page read
 * back from swap keeps its swap copy and is installed write-protected; the program's first
 * write raises a write-protect fault, which marks it dirty, drops the swap copy
 * (reuse_swap_page()) and lifts the protection.  Eviction (anon_pageout_locked()) protects a
 * dirty page, writes it to swap from its user address, and once it is clean in the swap cache
 * puts the swap slot in its place and drops it from the program (MADV_DONTNEED), so that the
 * next touch faults again.  A write during the swap write waits for its end, as a write to a
 * page under writeback does where the device needs stable pages.
 *
 * Access sampling: fault thread 0 parks, every map_sample_ms, up to map_sample_pages pages
 * reclaim found unreferenced (UFFDIO_MOVE to the same offset of a parking range right after
 * the program's); the next touch faults, brings the page back and marks it young, which is
 * what page_referenced() reads.  A parked page is evicted from the parking range.
 *
 * Locking: map_lock (a mutex, the row after owner_table.lock in docs/design.md "Locking")
 * serialises everything that changes a page of the region both in the slot table and in the
 * program's page table: a fault's install and its UFFDIO_COPY, an eviction's protection and its
 * MADV_DONTNEED, a park and an unpark, a pin, a discard.  The region lock nests inside it.  It is
 * never held across an engine allocation (a fault allocates first and installs after, reclaim may
 * take map_lock to evict), nor while sleeping on a page's writeback.
 *
 * Not done: sharing a mapped region with a child (the range is MADV_DONTFORK: a child has
 * none), remapping it (mremap) or unmapping it from the program (the engine unmaps it at
 * destroy), and huge pages.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "anon_internal.h"
#include "kthread.h"
#include "lru.h"
#include "mutex.h"
#include "page_alloc.h"
#include "pagewait.h"
#include "uffd.h"

#define MAP_MAX_THREADS 64
/* A fault that cannot get a page retries for this long before the thread gets SIGBUS. */
#define FAULT_RETRY_MS 10
#define FAULT_RETRIES 300

struct map_thread {
	struct nlru_region *region;
	pthread_t thread;
	void *bounce; /* one page: the swap copy on its way to the program */
	bool started;
};

struct map_region {
	struct mutex lock; /* map_lock, above */
	int uffd;
	int stop;          /* an eventfd: the fault threads exit once it is readable */
	uint64_t features; /* UFFD_F_* granted */
	size_t map_len;    /* bytes mapped: the program's range, and the parking range if any */
	size_t cursor;     /* the next page the sampler looks at (fault thread 0 only) */
	unsigned int nr_threads;
	struct map_thread threads[];
};

void map_lock(struct nlru_region *region)
{
	mutex_lock(&region->map->lock);
}

void map_unlock(struct nlru_region *region)
{
	mutex_unlock(&region->map->lock);
}

void map_zap(struct nlru_region *region, size_t index)
{
	bool parked;

	CHECK_FULL(&region->eng->log, witness_holds(LOCK_REGION_MAP));
	spin_lock(&region->lock);
	parked = map_parked(region, index);
	if (parked)
		region->parked[index / 64] &= ~(1ull << (index % 64));
	spin_unlock(&region->lock);
	madvise(parked ? park_address(region, index) : user_address(region, index), PAGE_SIZE,
		MADV_DONTNEED);
}

int map_protect(struct nlru_region *region, size_t index)
{
	int r = uffd_writeprotect(region->map->uffd, user_address(region, index), true);

	if (r)
		log_err(&region->eng->log, "mapped region: cannot write-protect page %zu: %s",
			index, strerror(-r));
	return r;
}

enum anon_pageout_result map_pageout(struct nlru_region *region, struct page *page)
{
	size_t index = page->index; /* the page leaves the region when it goes to swap */
	enum anon_pageout_result result;
	bool zap;

	map_lock(region);
	spin_lock(&region->lock);
	result = anon_pageout_locked(region, page, &zap);
	if (zap)
		map_zap(region, index);
	map_unlock(region);
	return result;
}

/* Put the page's data at its user address and wake its waiters; map_lock held. */
static int map_install(struct nlru_region *region, size_t index, bool swapped, bool write,
		       bool protect, void *bounce)
{
	void *addr = user_address(region, index);
	int r;

	do {
		if (!swapped && !write) {
			r = uffd_zeropage(region->map->uffd, addr);
		} else {
			if (!swapped)
				memset(bounce, 0, PAGE_SIZE);
			r = uffd_copy(region->map->uffd, addr, bounce, protect);
		}
	} while (r == -EAGAIN);
	if (r)
		log_err(&region->eng->log, "mapped region: cannot install page %zu: %s", index,
			strerror(-r));
	return r;
}

/*
 * do_anonymous_page() / do_swap_page(): a frame for page @index, whose slot held @v, and its
 * data at the user address, with a pin if @pin.  -EAGAIN if the slot changed meanwhile.
 */
static int map_fault_in(struct nlru_region *region, size_t index, uint64_t v, unsigned int flags,
			bool pin, void *bounce)
{
	struct nlru_engine *eng = region->eng;
	bool swapped = (v & SLOT_TAG_MASK) == SLOT_SWAP, installed, protect;
	struct page *page = alloc_pages_node(eng, NLRU_GFP_HIGHUSER_MOVABLE, 0, region->nid);
	int r;

	if (!page)
		return -ENOMEM;
	if (swapped) {
		r = anon_fault_fill(eng, v, bounce);
		if (r) {
			free_pages_trusted(eng, page, 0);
			return r;
		}
	}
	map_lock(region);
	spin_lock(&region->lock);
	installed = anon_fault_install(region, index, v, page, flags, pin);
	/* A clean swap cache page: its first write must be seen, to drop the swap copy. */
	protect = installed && !page_test(page, PG_dirty);
	spin_unlock(&region->lock);
	if (!installed) {
		map_unlock(region);
		free_pages_trusted(eng, page, 0);
		return -EAGAIN;
	}
	map_install(region, index, swapped, flags & NLRU_PIN_WRITE, protect, bounce);
	map_unlock(region);
	lru_cache_add_active_or_unevictable(eng, page);
	return 0;
}

/*
 * Bring parked page @index back to its user address, waking the threads touching it: a clean
 * page by a write-protected copy (UFFDIO_MOVE would leave it writable, and its first write
 * unseen), a dirty one by moving it.  Referenced: it was touched since it was parked.
 * map_lock held, the page not under writeback.
 */
static int map_unpark(struct nlru_region *region, size_t index, struct page *page)
{
	int fd = region->map->uffd, r;
	bool clean;

	spin_lock(&region->lock);
	clean = !page_test(page, PG_dirty);
	spin_unlock(&region->lock);
	if (clean) {
		do
			r = uffd_copy(fd, user_address(region, index), park_address(region, index),
				      true);
		while (r == -EAGAIN);
	} else {
		r = uffd_move(fd, user_address(region, index), park_address(region, index));
	}
	if (r) {
		log_err(&region->eng->log, "mapped region: cannot bring page %zu back: %s", index,
			strerror(-r));
		return r;
	}
	map_zap(region, index); /* the parking copy (clean), or nothing (moved) */
	spin_lock(&region->lock);
	page_set(page, PG_young);
	spin_unlock(&region->lock);
	count_vm_event(region->eng, NLRU_MAP_SAMPLE_HIT);
	return 0;
}

/*
 * A missing-page fault on a page the slot table says is resident: it is parked, or its install
 * woke the thread already and this message is stale, or the program dropped the page itself
 * (MADV_DONTNEED), which leaves zeroes (the zero page goes in if nothing is there).  -EAGAIN
 * when the slot changed or the page's swap write had to end first: look again.
 */
static int map_refault(struct nlru_region *region, size_t index)
{
	struct page *page;
	uint64_t v;
	int r;

	map_lock(region);
	spin_lock(&region->lock);
	v = region->slots[index];
	if ((v & SLOT_TAG_MASK) != SLOT_PAGE) {
		spin_unlock(&region->lock);
		map_unlock(region);
		return -EAGAIN;
	}
	page = slot_page(region->eng, v);
	if (map_parked(region, index)) {
		if (page_test(page, PG_writeback)) {
			/* Its swap write reads the parking copy: it stays until the write ends. */
			get_page(page);
			spin_unlock(&region->lock);
			map_unlock(region);
			wait_on_page_writeback(page);
			put_page(page);
			return -EAGAIN;
		}
		spin_unlock(&region->lock);
		map_unpark(region, index, page);
		map_unlock(region);
		return 0;
	}
	spin_unlock(&region->lock);
	r = uffd_zeropage(region->map->uffd, user_address(region, index));
	if (r == 0) {
		spin_lock(&region->lock);
		page_set(page, PG_dirty);
		spin_unlock(&region->lock);
	} else {
		uffd_wake(region->map->uffd, user_address(region, index));
	}
	map_unlock(region);
	return 0;
}

static void map_missing_fault(struct nlru_region *region, size_t index, bool write, void *bounce)
{
	struct timespec pause = {0, FAULT_RETRY_MS * 1000000L};
	unsigned int tries = 0;

	for (;;) {
		uint64_t v;
		int r;

		spin_lock(&region->lock);
		v = region->slots[index];
		spin_unlock(&region->lock);
		if ((v & SLOT_TAG_MASK) == SLOT_PAGE) {
			if (map_refault(region, index) == 0)
				return;
			continue;
		}
		r = map_fault_in(region, index, v, write ? NLRU_PIN_WRITE : 0, false, bounce);
		if (r == 0)
			return;
		if (r == -EAGAIN)
			continue; /* the slot changed under the fill: look again */
		if (++tries < FAULT_RETRIES) {
			/* Out of memory even after reclaim, or a swap read error: try again. */
			nanosleep(&pause, NULL);
			continue;
		}
		log_err(&region->eng->log,
			"mapped region: page %zu cannot be brought in (%s): the thread touching it "
			"gets SIGBUS",
			index, strerror(-r));
		if (!(region->map->features & UFFD_F_POISON) ||
		    uffd_poison(region->map->uffd, user_address(region, index)))
			tries = 0; /* no way to fail the access: keep trying */
		else
			return;
	}
}

/* A write to a write-protected page: it is dirty now (after its swap write, if one is on). */
static void map_wp_fault(struct nlru_region *region, size_t index)
{
	struct nlru_engine *eng = region->eng;
	void *addr = user_address(region, index);

	for (;;) {
		struct page *page;
		uint64_t v;

		map_lock(region);
		spin_lock(&region->lock);
		v = region->slots[index];
		if ((v & SLOT_TAG_MASK) != SLOT_PAGE) {
			/* Evicted meanwhile: the retried write faults the page back in. */
			spin_unlock(&region->lock);
			uffd_wake(region->map->uffd, addr);
			map_unlock(region);
			return;
		}
		page = slot_page(eng, v);
		if (!page_test(page, PG_writeback)) {
			anon_dirty_page(eng, page);
			page_set(page, PG_young);
			spin_unlock(&region->lock);
			uffd_writeprotect(region->map->uffd, addr, false);
			map_unlock(region);
			return;
		}
		get_page(page); /* the write's reference keeps it allocated through the wait */
		spin_unlock(&region->lock);
		map_unlock(region);
		wait_on_page_writeback(page);
		put_page(page);
	}
}

static void map_handle_fault(struct nlru_region *region, const struct uffd_fault *fault,
			     void *bounce)
{
	uintptr_t off = fault->address - (uintptr_t)region->uaddr;
	size_t index = off >> PAGE_SHIFT;

	if (index >= region->nr_pages)
		return;
	count_vm_event(region->eng, NLRU_PGFAULT);
	if (fault->wp)
		map_wp_fault(region, index);
	else
		map_missing_fault(region, index, fault->write, bounce);
}

/*
 * Park resident page @index if it is worth watching: not referenced since reclaim last looked
 * (page_referenced() cleared PG_young), not pinned, not under writeback.  True if parked.
 */
static bool map_park(struct nlru_region *region, size_t index)
{
	struct page *page;
	bool park = false;
	uint64_t v;

	map_lock(region);
	spin_lock(&region->lock);
	v = region->slots[index];
	if ((v & SLOT_TAG_MASK) == SLOT_PAGE && !map_parked(region, index)) {
		page = slot_page(region->eng, v);
		park = !page_test(page, PG_young) && !page_test(page, PG_writeback) &&
		       !page_pins(page);
	}
	if (park)
		region->parked[index / 64] |= 1ull << (index % 64);
	spin_unlock(&region->lock);
	if (park && uffd_move(region->map->uffd, park_address(region, index),
			      user_address(region, index))) {
		/* Nothing there (the program dropped it) or pinned by the kernel: leave it. */
		spin_lock(&region->lock);
		region->parked[index / 64] &= ~(1ull << (index % 64));
		spin_unlock(&region->lock);
		park = false;
	}
	map_unlock(region);
	return park;
}

/*
 * One sampling pass (the young bit of the PTEs, emulated as NUMA hinting faults do it in
 * task_numa_work()): from where the last pass stopped, park up to map_sample_pages pages that
 * reclaim found unreferenced, looking at no more than 16 times that many, so that their next
 * touch faults and marks them referenced again.
 */
static void map_sample(struct nlru_region *region)
{
	struct map_region *map = region->map;
	size_t want = (size_t)region->eng->cfg.map_sample_pages, parked = 0;
	size_t look = MIN(region->nr_pages, want * 16);

	for (size_t i = 0; i < look && parked < want; i++) {
		parked += map_park(region, map->cursor);
		map->cursor = (map->cursor + 1) % region->nr_pages;
	}
	if (parked)
		count_vm_events(region->eng, NLRU_MAP_SAMPLE, parked);
}

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static void *map_fault_thread(void *arg)
{
	struct map_thread *self = arg;
	struct nlru_region *region = self->region;
	struct map_region *map = region->map;
	struct pollfd fds[2] = {{.fd = map->uffd, .events = POLLIN},
				{.fd = map->stop, .events = POLLIN}};
	/* The first thread samples, when the region has a parking range. */
	bool sampler = self == &map->threads[0] && region->parked;
	long interval = region->eng->cfg.map_sample_ms;
	uint64_t next = now_ms() + (uint64_t)interval;

	for (;;) {
		struct uffd_fault fault;
		int r;

		if (sampler && now_ms() >= next) {
			map_sample(region);
			next = now_ms() + (uint64_t)interval;
		}
		r = poll(fds, 2, sampler ? (int)interval : -1);
		if (r <= 0)
			continue;
		if (fds[1].revents)
			return NULL;
		while ((r = uffd_read_fault(map->uffd, &fault)) == 1)
			map_handle_fault(region, &fault, self->bounce);
		if (r < 0 && r != -EINTR) {
			log_err(&region->eng->log, "mapped region: reading faults failed: %s",
				strerror(-r));
			return NULL;
		}
	}
}

int map_pin(struct nlru_region *region, size_t index, unsigned int flags, void **addr)
{
	void *bounce = NULL;

	for (;;) {
		uint64_t v;
		int r;

		map_lock(region);
		spin_lock(&region->lock);
		v = region->slots[index];
		if ((v & SLOT_TAG_MASK) == SLOT_PAGE) {
			struct page *page = slot_page(region->eng, v);
			bool unprotect;

			if (page_test(page, PG_writeback)) {
				get_page(page);
				spin_unlock(&region->lock);
				map_unlock(region);
				wait_on_page_writeback(page);
				put_page(page);
				continue;
			}
			if (map_parked(region, index)) {
				spin_unlock(&region->lock);
				r = map_unpark(region, index, page);
				map_unlock(region);
				if (r) {
					free(bounce);
					return r;
				}
				continue;
			}
			unprotect = (flags & NLRU_PIN_WRITE) && !page_test(page, PG_dirty);
			anon_pin_page(region, page, flags);
			spin_unlock(&region->lock);
			if (unprotect)
				uffd_writeprotect(region->map->uffd, user_address(region, index),
						  false);
			map_unlock(region);
			free(bounce);
			*addr = user_address(region, index);
			return 0;
		}
		spin_unlock(&region->lock);
		map_unlock(region);
		if (!bounce && !(bounce = aligned_alloc(PAGE_SIZE, PAGE_SIZE)))
			return -ENOMEM;
		r = map_fault_in(region, index, v, flags, true, bounce);
		if (r == -EAGAIN)
			continue;
		free(bounce);
		if (r)
			return r;
		count_vm_event(region->eng, NLRU_PGFAULT);
		*addr = user_address(region, index);
		return 0;
	}
}

static void map_threads_stop(struct map_region *map)
{
	uint64_t one = 1;

	if (write(map->stop, &one, sizeof(one)) != sizeof(one))
		return; /* cannot happen: an eventfd counter far from its limit */
	for (unsigned int i = 0; i < map->nr_threads; i++) {
		if (map->threads[i].started)
			pthread_join(map->threads[i].thread, NULL);
		map->threads[i].started = false;
	}
}

void map_region_stop(struct nlru_region *region)
{
	map_threads_stop(region->map);
	uffd_unregister(region->map->uffd, region->uaddr, region->map->map_len);
}

static void map_free_buffers(struct map_region *map)
{
	for (unsigned int i = 0; i < map->nr_threads; i++)
		free(map->threads[i].bounce);
	free(map);
}

void map_region_free(struct nlru_region *region)
{
	struct map_region *map = region->map;

	munmap(region->uaddr, map->map_len);
	free(region->parked);
	region->parked = NULL;
	close(map->uffd);
	close(map->stop);
	mutex_destroy(&map->lock);
	map_free_buffers(map);
	region->uaddr = NULL;
	region->map = NULL;
}

static struct map_region *map_alloc(unsigned int threads)
{
	struct map_region *map = calloc(1, sizeof(*map) + threads * sizeof(map->threads[0]));

	if (!map)
		return NULL;
	map->uffd = -1;
	map->stop = -1;
	map->nr_threads = threads;
	for (unsigned int i = 0; i < threads; i++) {
		map->threads[i].bounce = aligned_alloc(PAGE_SIZE, PAGE_SIZE);
		if (!map->threads[i].bounce) {
			map_free_buffers(map);
			return NULL;
		}
	}
	return map;
}

/* The range, its userfaultfd and the fault threads.  -errno, logged, with nothing left. */
static int map_setup(struct nlru_region *region, struct map_region *map)
{
	struct nlru_engine *eng = region->eng;
	size_t len = region->nr_pages << PAGE_SHIFT;
	void *mem;
	int r;

	r = uffd_open(&eng->log, UFFD_F_WP, UFFD_F_POISON | UFFD_F_MOVE, &map->uffd,
		      &map->features);
	if (r)
		return r;
	/* Access sampling parks pages in a second range, as long, right after the program's. */
	if (eng->cfg.map_sample_pages && (map->features & UFFD_F_MOVE)) {
		region->parked = calloc((region->nr_pages + 63) / 64, sizeof(uint64_t));
		if (!region->parked) {
			close(map->uffd);
			return -ENOMEM;
		}
		len *= 2;
	}
	map->map_len = len;
	map->stop = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	mem = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
		   -1, 0);
	if (map->stop < 0 || mem == MAP_FAILED) {
		r = -errno;
		log_err(&eng->log, "mapped region: cannot map %zu pages: %s", region->nr_pages,
			strerror(errno));
		goto fail;
	}
	/* Pages come one at a time through faults; a child process gets no copy of them. */
	madvise(mem, len, MADV_NOHUGEPAGE);
	madvise(mem, len, MADV_DONTFORK);
	r = uffd_register(map->uffd, mem, len, true, true);
	if (r) {
		log_err(&eng->log, "mapped region: userfaultfd refused the range: %s",
			strerror(-r));
		goto fail;
	}
	mutex_init(&map->lock, LOCK_REGION_MAP, &eng->log);
	region->uaddr = mem;
	region->map = map;
	for (unsigned int i = 0; i < map->nr_threads; i++) {
		map->threads[i].region = region;
		r = kthread_run(&map->threads[i].thread, map_fault_thread, &map->threads[i],
				"nlru-fault%u", i);
		if (r) {
			log_err(&eng->log, "mapped region: cannot start a fault thread: %s",
				strerror(r));
			map_threads_stop(map);
			mutex_destroy(&map->lock);
			region->uaddr = NULL;
			region->map = NULL;
			r = -r;
			goto fail;
		}
		map->threads[i].started = true;
	}
	return 0;
fail:
	if (mem != MAP_FAILED)
		munmap(mem, len);
	if (map->stop >= 0)
		close(map->stop);
	close(map->uffd);
	free(region->parked);
	region->parked = NULL;
	return r;
}

int nlru_region_create_mapped(struct nlru_engine *eng, size_t pages, int nid,
			      unsigned int fault_threads, void **addr, struct nlru_region **out)
{
	struct nlru_region *region;
	struct map_region *map;
	int r;

	if (!eng)
		return -EINVAL;
	if (!addr || !out)
		return log_einval(&eng->log, "mapped region: create needs somewhere to put the "
					     "address and the handle (addr or out is NULL)");
	if (fault_threads > MAP_MAX_THREADS)
		return log_einval(&eng->log, "mapped region: %u fault threads, more than %d",
				  fault_threads, MAP_MAX_THREADS);
	if (sysconf(_SC_PAGESIZE) != PAGE_SIZE) {
		log_err(&eng->log,
			"mapped region: the system's pages are %ld bytes, the engine's %lu",
			sysconf(_SC_PAGESIZE), (unsigned long)PAGE_SIZE);
		return -EOPNOTSUPP;
	}
	r = anon_region_alloc(eng, pages, nid, &region);
	if (r)
		return r;
	map = map_alloc(fault_threads ? fault_threads : 1);
	r = map ? map_setup(region, map) : -ENOMEM;
	if (r) {
		if (map)
			map_free_buffers(map);
		nlru_region_destroy(region); /* not mapped yet: an empty plain region */
		return r;
	}
	*addr = region->uaddr;
	*out = region;
	return 0;
}
