/*
 * The swap device (Linux's swap_info_struct): a real file with a slot allocator.  Anonymous
 * pages are written to a slot with pwrite and read back with pread.
 */
#ifndef NODELRU_SWAP_H
#define NODELRU_SWAP_H

#include <stdbool.h>
#include <stdint.h>

struct nlru_engine;
struct swap_device;

/* Most slots a swap file has: slot numbers are 32-bit. */
#define SWAP_MAX_PAGES ((uint64_t)UINT32_MAX - 1)

/* The swap file's pages: @swap_mib, or (-1) twice @engine_pages up to the largest file. */
uint64_t swap_pages_wanted(long swap_mib, uint64_t engine_pages);

/* Open (or create) the swap file of @pages slots.  -errno with a message on failure. */
int swap_open(struct nlru_engine *eng, const char *path, uint64_t pages, struct swap_device **out);
void swap_close(struct swap_device *swap);

/*
 * Free slots: Linux's nr_swap_pages; 0 when there is no swap device, and while swap counts as
 * full after a run of failed writes (swap.c).
 */
long get_nr_swap_pages(const struct nlru_engine *eng);
/* Usable slots: the file's, less those retired as bad (Linux's total_swap_pages). */
long total_swap_pages(const struct nlru_engine *eng);
/* True while swap counts as full after a run of failed writes. */
bool swap_is_backing_off(const struct nlru_engine *eng);

/* get_swap_page(): a free slot, or -ENOSPC when the device is full. */
int swap_slot_alloc(struct swap_device *swap, uint32_t *slot);
void swap_slot_free(struct swap_device *swap, uint32_t slot);

struct bio;

/*
 * Start the write of one page to @slot; @end_io runs when it ends, with @private and @owner
 * in the bio and bio->err set if it failed (at once without a device model).  0, or -ENOMEM
 * when no bio could be had (nothing was started).
 */
int swap_submit_write(struct nlru_engine *eng, uint32_t slot, void *data,
		      void (*end_io)(struct bio *bio), void *private, void *owner);
/* Read one page; sleeps until it is in.  0 or -errno (a short read is -EIO); counts nothing. */
int swap_readpage(struct nlru_engine *eng, uint32_t slot, void *data);

/*
 * A swap-out's write to @slot (-1: none was allocated) failed with -@err: count it
 * (nlru_swap_write_fail) and log it, at most 10 messages every 5 s as Linux's
 * printk_ratelimited(): a device that fails every write would otherwise log once for each
 * page reclaim tries.  The slot is retired after -EIO (nlru_swap_bad_slot), freed otherwise;
 * a run of failures makes swap count as full for a while (swap.c).
 */
void swap_write_failed(struct nlru_engine *eng, long slot, int err);
/* A swap-out's write succeeded: a run of failures is over. */
void swap_write_succeeded(struct nlru_engine *eng);

/* Test hook: fail the next @count writes with @err (EIO, ENOSPC, ...). */
void swap_inject_write_errors(struct swap_device *swap, int err, int count);
/* Test hook: the next slot allocation searches from @slot on. */
void swap_set_cursor(struct swap_device *swap, uint32_t slot);
/* Test hook: call @hook after each successful read, before the page is installed. */
void swap_set_read_hook(struct swap_device *swap, void (*hook)(void *arg, uint32_t slot),
			void *arg);

#endif /* NODELRU_SWAP_H */
