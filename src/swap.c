/*
 * swap.c - the swap file and its slot allocator.
 *
 * Slots are found next-fit in a bitmap under a spinlock (scan_swap_map's cluster logic is not
 * modelled: one file, no SSD clustering).  Pages go to slot * PAGE_SIZE of the file through
 * the engine's block device (blkdev.h): a write is submitted and ends in the caller's end_io,
 * at once or when the device completes it; a read sleeps until it is done.  No lock is held
 * across either.  A write that fails leaves the slot allocated to the caller, who frees it
 * and keeps the page: nothing is lost.
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
#include "inject.h"
#include "swap.h"
#include "vmstat.h"

struct swap_device {
	int fd;
	int dio_fd; /* the same file opened O_DIRECT (blkdev_direct), or -1 */
	uint32_t nr_slots;
	struct spinlock lock; /* protects map, cursor, nr_free */
	uint64_t *map;        /* bit set: slot in use */
	uint32_t cursor;      /* next-fit start: the slot after the last one handed out */
	_Atomic long nr_free;
	struct fault_injection inject;               /* test hook */
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
	r = swap->map ? open_swap_file(path, eng->cfg.blkdev_direct, &eng->log, &swap->fd,
				       &swap->dio_fd, name, sizeof(name))
		      : -ENOMEM;
	if (r) {
		free(swap->map);
		free(swap);
		return r;
	}
	if (ftruncate(swap->fd, (off_t)(pages << PAGE_SHIFT)) < 0) {
		r = -errno;
		log_err(&eng->log, "swap: cannot size the swap file to %llu pages: %s",
			(unsigned long long)pages, strerror(errno));
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
	free(swap);
}

long get_nr_swap_pages(const struct nlru_engine *eng)
{
	return eng->swap ? atomic_load_explicit(&eng->swap->nr_free, memory_order_relaxed) : 0;
}

long total_swap_pages(const struct nlru_engine *eng)
{
	return eng->swap ? (long)eng->swap->nr_slots : 0;
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

void swap_write_failed(struct nlru_engine *eng, int err)
{
	count_vm_event(eng, NLRU_SWAP_WRITE_FAIL);
	log_err_ratelimited(&eng->log, &eng->swap->write_errors,
			    "swap-out failed: %s; the page stays resident and dirty (the "
			    "counter nlru_swap_write_fail counts every failure)",
			    strerror(-err));
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
