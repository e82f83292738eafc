/*
 * swap.c - the swap file and its slot allocator.
 *
 * Slots are found next-fit in a bitmap under a spinlock (scan_swap_map's cluster logic is not
 * modelled: one file, no SSD clustering).  Pages go to slot * PAGE_SIZE of the file through
 * the engine's block device (blkdev.h): a write is submitted and ends in the caller's end_io,
 * at once or when the device completes it; a read sleeps until it is done.  No lock is held
 * across either.  A write that fails leaves the slot allocated to the caller, who keeps the
 * page and hands the slot to swap_write_failed(): nothing is lost.
 *
 * The file's blocks are reserved when it is opened (fallocate), as swapon refuses a file with
 * holes, so a full disk is found at creation and not in the middle of reclaim.  What can still
 * fail is the disk itself, and two rules keep a failing one from costing reclaim its time:
 *  - a slot whose write met EIO (a bad block) is retired for good, a bad-slot map kept at
 *    run time where Linux reads one from the swap header at swapon (swap_header.info.badpages,
 *    mm/swapfile.c); every other error gives the slot back;
 *  - SWAP_FAILING_WRITES failures in a row with no success between make swap count as full
 *    (get_nr_swap_pages() is 0) for a back-off that doubles from SWAP_BACKOFF_MIN_NS up to
 *    SWAP_BACKOFF_MAX_NS while the failures go on, so reclaim and should_reclaim_retry() stop
 *    counting anonymous pages as reclaimable instead of writing thousands of pages that fail.
 *    When the back-off ends, swap is tried again; one write that succeeds ends the episode.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "blkdev.h"
#include "engine.h"
#include "inject.h"
#include "swap.h"
#include "vmstat.h"

/* Failed swap writes in a row that make swap count as full: one reclaim batch's worth. */
#define SWAP_FAILING_WRITES SWAP_CLUSTER_MAX
/* How long swap counts as full after that: from 100 ms, doubling while it keeps failing. */
#define SWAP_BACKOFF_MIN_NS (100 * NSEC_PER_MSEC)
#define SWAP_BACKOFF_MAX_NS (5000 * NSEC_PER_MSEC)

struct swap_device {
	int fd;
	int dio_fd; /* the same file opened O_DIRECT (blkdev_direct), or -1 */
	uint32_t nr_slots;
	struct spinlock lock; /* protects map, cursor, nr_free */
	uint64_t *map;        /* bit set: slot in use (or retired) */
	uint64_t *bad;        /* bit set: slot retired after a write to it failed with EIO */
	uint32_t cursor;      /* next-fit start: the slot after the last one handed out */
	_Atomic long nr_free;
	_Atomic long nr_bad;
	_Atomic int failed_in_a_row;    /* failed writes since the last one that succeeded */
	_Atomic uint64_t failing_until; /* engine_now_ns() swap counts as full until; 0: not */
	_Atomic uint64_t backoff_ns;    /* the next failing period, 0 before the first */
	struct fault_injection inject;  /* test hook */
	void (*read_hook)(void *arg, uint32_t slot); /* test hook: a page was read from @slot */
	void *read_hook_arg;
	const struct nlru_log *log;          /* the engine's, for debug checks */
	struct ratelimit_state write_errors; /* swap-out failures logged: printk_ratelimited() */
};

/*
 * Open or create the swap file into *@fd; its name (for messages) into @name.  With @direct,
 * open it again with O_DIRECT into *@dio_fd, or refuse it (blkdev_open_direct()).
 */
static int open_swap_file(const char *path, bool direct, const struct nlru_log *log, int *fd,
			  int *dio_fd, char *name, size_t size)
{
	char what[4200];
	int err;

	snprintf(name, size, "%s/nodelru-swap-XXXXXX",
		 getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (path && *path)
		snprintf(name, size, "%s", path);
	snprintf(what, sizeof(what), "swap file %s (swap_path, or $TMPDIR)", name);
	err = direct ? blkdev_direct_precheck(name, what, log) : 0;
	if (err)
		return err;
	/* errno is read before logging: the log callback may change it. */
	if (path && *path) {
		*fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
		if (*fd < 0) {
			err = errno;
			log_err(log, "swap: cannot open %s: %s", path, strerror(err));
			return -err;
		}
	} else {
		*fd = mkostemp(name, O_CLOEXEC);
		if (*fd < 0) {
			err = errno;
			log_err(log, "swap: cannot create %s: %s", name, strerror(err));
			return -err;
		}
		/* A private swap file: gone from the directory now, freed when the engine closes
		 * it (and its O_DIRECT descriptor). */
		unlink(name);
	}
	if (!direct)
		return 0;
	err = blkdev_open_direct(*fd, true, what, log, dio_fd);
	if (err) {
		close(*fd);
		*fd = -1;
	}
	return err;
}

/*
 * Give the swap file exactly @pages pages with every block allocated, as swapon wants a file
 * without holes (mm/swapfile.c, setup_swap_extents()): a disk too small is refused now, -ENOSPC
 * with a message, not met later by reclaim.  A file system that cannot reserve blocks
 * (EOPNOTSUPP) gets a sparse file and a warning.
 */
static int reserve_swap_file(int fd, uint64_t pages, const char *name, const struct nlru_log *log)
{
	off_t size = (off_t)(pages << PAGE_SHIFT);
	int err;

	err = size ? posix_fallocate(fd, 0, size) : 0;
	if (err == EOPNOTSUPP || err == EINVAL) {
		log_warn(log,
			 "swap: the file system of %s cannot reserve its blocks (%s); it is "
			 "sparse, and a full disk will make swap-outs fail",
			 name, strerror(err));
		err = 0;
	} else if (err) {
		log_err(log,
			"swap: cannot reserve %llu MiB for the swap file %s: %s (swap_mib sets "
			"its size, swap_path or $TMPDIR its place)",
			(unsigned long long)(pages >> (20 - PAGE_SHIFT)), name, strerror(err));
		return -err;
	}
	/* A swap_path file larger than wanted is cut to size. */
	if (ftruncate(fd, size) < 0) {
		err = errno;
		log_err(log, "swap: cannot size the swap file %s to %llu pages: %s", name,
			(unsigned long long)pages, strerror(err));
		return -err;
	}
	return 0;
}

STATIC_ASSERT((uint64_t)NLRU_SWAP_MIB_MAX << (20 - PAGE_SHIFT) <= SWAP_MAX_PAGES,
	      "the largest swap_mib fits the 32-bit slot numbers");

uint64_t swap_pages_wanted(long swap_mib, uint64_t engine_pages)
{
	/* Capped, so that the default never makes a big engine fail to create. */
	if (swap_mib < 0)
		return MIN(2 * engine_pages, (uint64_t)NLRU_SWAP_MIB_MAX << (20 - PAGE_SHIFT));
	return (uint64_t)swap_mib << (20 - PAGE_SHIFT);
}

int swap_open(struct nlru_engine *eng, const char *path, uint64_t pages, struct swap_device **out)
{
	struct swap_device *swap;
	char name[4096];
	int r;

	if (pages > SWAP_MAX_PAGES) {
		log_err(&eng->log, "swap: %llu pages is more than a swap file can index",
			(unsigned long long)pages);
		return -EINVAL;
	}
	swap = calloc(1, sizeof(*swap));
	if (!swap)
		return -ENOMEM;
	swap->nr_slots = (uint32_t)pages;
	swap->dio_fd = -1;
	swap->log = &eng->log;
	swap->map = calloc((pages + 63) / 64 + 1, sizeof(uint64_t));
	swap->bad = calloc((pages + 63) / 64 + 1, sizeof(uint64_t));
	r = swap->map && swap->bad ? open_swap_file(path, eng->cfg.blkdev_direct, &eng->log,
						    &swap->fd, &swap->dio_fd, name, sizeof(name))
				   : -ENOMEM;
	if (r) {
		free(swap->map);
		free(swap->bad);
		free(swap);
		return r;
	}
	r = reserve_swap_file(swap->fd, pages, name, &eng->log);
	if (r) {
		swap_close(swap);
		return r;
	}
	spin_lock_init(&swap->lock, LOCK_SWAP, &eng->log);
	if (pages % 64)
		swap->map[pages / 64] = ~0ull << (pages % 64);
	atomic_init(&swap->nr_free, (long)pages);
	*out = swap;
	return 0;
}

void swap_close(struct swap_device *swap)
{
	if (!swap)
		return;
	close(swap->fd);
	if (swap->dio_fd >= 0)
		close(swap->dio_fd);
	free(swap->map);
	free(swap->bad);
	free(swap);
}

/*
 * True while swap counts as full after a run of failed writes.  The first caller after the
 * back-off ends it, so that swap is tried again.
 */
static bool swap_backing_off(const struct nlru_engine *eng, struct swap_device *swap)
{
	uint64_t until = atomic_load_explicit(&swap->failing_until, memory_order_relaxed);

	if (likely(!until))
		return false;
	if (engine_now_ns(eng) < until)
		return true;
	atomic_compare_exchange_strong(&swap->failing_until, &until, 0);
	return false;
}

long get_nr_swap_pages(const struct nlru_engine *eng)
{
	if (!eng->swap || swap_backing_off(eng, eng->swap))
		return 0;
	return atomic_load_explicit(&eng->swap->nr_free, memory_order_relaxed);
}

long total_swap_pages(const struct nlru_engine *eng)
{
	if (!eng->swap)
		return 0;
	return (long)eng->swap->nr_slots -
	       atomic_load_explicit(&eng->swap->nr_bad, memory_order_relaxed);
}

bool swap_is_backing_off(const struct nlru_engine *eng)
{
	return eng->swap && swap_backing_off(eng, eng->swap);
}

static uint32_t map_words(const struct swap_device *swap)
{
	return (swap->nr_slots + 63) / 64;
}

int swap_slot_alloc(struct swap_device *swap, uint32_t *slot)
{
	uint32_t words = map_words(swap);
	int r = -ENOSPC;

	spin_lock(&swap->lock);
	/*
	 * Next fit from the slot after the last one handed out, as scan_swap_map() goes on
	 * from cluster_next: a slot given back at once (its write failed) is not the next one
	 * taken, so one failing slot cannot stop every swap-out.  The bits past nr_slots are
	 * set at open and never free; the cursor's word is looked at again last, whole.
	 */
	for (uint32_t n = 0; n <= words; n++) {
		uint32_t w = (swap->cursor / 64 + n) % words;
		uint64_t bits = swap->map[w];

		if (n == 0)
			bits |= (1ull << (swap->cursor % 64)) - 1;
		if (bits == ~0ull)
			continue;
		int bit = __builtin_ctzll(~bits);
		swap->map[w] |= 1ull << bit;
		*slot = w * 64 + (uint32_t)bit;
		swap->cursor = *slot + 1 < swap->nr_slots ? *slot + 1 : 0;
		atomic_fetch_sub_explicit(&swap->nr_free, 1, memory_order_relaxed);
		r = 0;
		break;
	}
	spin_unlock(&swap->lock);
	return r;
}

void swap_slot_free(struct swap_device *swap, uint32_t slot)
{
	spin_lock(&swap->lock);
	/* A slot given back twice would be handed to two pages. */
	if (!CHECK_CHEAP(swap->log,
			 slot < swap->nr_slots && (swap->map[slot / 64] & (1ull << (slot % 64))))) {
		spin_unlock(&swap->lock);
		return;
	}
	swap->map[slot / 64] &= ~(1ull << (slot % 64));
	spin_unlock(&swap->lock);
	atomic_fetch_add_explicit(&swap->nr_free, 1, memory_order_relaxed);
}

/* Retire @slot, allocated to the caller, for good: its bit in map stays set. */
static void swap_slot_retire(struct swap_device *swap, uint32_t slot)
{
	spin_lock(&swap->lock);
	if (CHECK_CHEAP(swap->log, slot < swap->nr_slots &&
					   (swap->map[slot / 64] & (1ull << (slot % 64))) &&
					   !(swap->bad[slot / 64] & (1ull << (slot % 64)))))
		swap->bad[slot / 64] |= 1ull << (slot % 64);
	spin_unlock(&swap->lock);
	atomic_fetch_add_explicit(&swap->nr_bad, 1, memory_order_relaxed);
}

void swap_set_cursor(struct swap_device *swap, uint32_t slot)
{
	spin_lock(&swap->lock);
	swap->cursor = slot < swap->nr_slots ? slot : 0;
	spin_unlock(&swap->lock);
}

void swap_inject_write_errors(struct swap_device *swap, int err, int count)
{
	fault_inject_set(&swap->inject, err, count);
}

int swap_submit_write(struct nlru_engine *eng, uint32_t slot, void *data,
		      void (*end_io)(struct bio *bio), void *private, void *owner)
{
	struct bio *bio = bio_alloc(1);

	if (!bio)
		return -ENOMEM;
	bio->fd = eng->swap->fd;
	bio->dio_fd = eng->swap->dio_fd;
	bio->write = true;
	bio->pos = (uint64_t)slot << PAGE_SHIFT;
	bio->err = fault_injected(&eng->swap->inject);
	bio->end_io = end_io;
	bio->private = private;
	bio->owner = owner;
	bio_add(bio, data, PAGE_SIZE);
	submit_bio(eng->blkdev, bio);
	return 0;
}

void swap_set_read_hook(struct swap_device *swap, void (*hook)(void *arg, uint32_t slot), void *arg)
{
	swap->read_hook_arg = arg;
	swap->read_hook = hook;
}

void swap_write_failed(struct nlru_engine *eng, long slot, int err)
{
	struct swap_device *swap = eng->swap;
	uint64_t backoff;

	count_vm_event(eng, NLRU_SWAP_WRITE_FAIL);
	log_err_ratelimited(&eng->log, &swap->write_errors,
			    "swap-out failed: %s; the page stays resident and dirty (the "
			    "counter nlru_swap_write_fail counts every failure)",
			    strerror(-err));
	if (slot >= 0 && err == -EIO) {
		swap_slot_retire(swap, (uint32_t)slot);
		count_vm_event(eng, NLRU_SWAP_BAD_SLOT);
	} else if (slot >= 0) {
		swap_slot_free(swap, (uint32_t)slot);
	}
	/* Not the disk's failure: no bio could be had. */
	if (err == -ENOMEM)
		return;
	if (atomic_fetch_add(&swap->failed_in_a_row, 1) + 1 < (int)SWAP_FAILING_WRITES)
		return;
	/* Already backing off: the writes that were in flight when it began. */
	if (atomic_load(&swap->failing_until))
		return;
	backoff = atomic_load(&swap->backoff_ns);
	backoff = backoff ? MIN(2 * backoff, SWAP_BACKOFF_MAX_NS) : SWAP_BACKOFF_MIN_NS;
	atomic_store(&swap->backoff_ns, backoff);
	atomic_store(&swap->failing_until, engine_now_ns(eng) + backoff);
	if (backoff == SWAP_BACKOFF_MIN_NS)
		log_warn(&eng->log,
			 "swap: %d writes in a row failed (the last: %s); swap counts as full, "
			 "tried again after %llu ms, then after twice as long while it fails",
			 (int)SWAP_FAILING_WRITES, strerror(-err),
			 (unsigned long long)(backoff / NSEC_PER_MSEC));
}

void swap_write_succeeded(struct nlru_engine *eng)
{
	struct swap_device *swap = eng->swap;

	if (likely(!atomic_load_explicit(&swap->failed_in_a_row, memory_order_relaxed)))
		return;
	atomic_store(&swap->failed_in_a_row, 0);
	if (atomic_exchange(&swap->backoff_ns, 0))
		log_info(&eng->log, "swap: writes succeed again");
}

int swap_readpage(struct nlru_engine *eng, uint32_t slot, void *data)
{
	struct bio *bio = bio_alloc(1);
	size_t done;
	int err;

	if (!bio)
		return -ENOMEM;
	bio->fd = eng->swap->fd;
	bio->dio_fd = eng->swap->dio_fd;
	bio->pos = (uint64_t)slot << PAGE_SHIFT;
	bio_add(bio, data, PAGE_SIZE);
	err = submit_bio_wait(eng->blkdev, bio, &done);
	if (err)
		return -err;
	if (done != PAGE_SIZE)
		return -EIO;
	if (eng->swap->read_hook)
		eng->swap->read_hook(eng->swap->read_hook_arg, slot);
	return 0;
}
