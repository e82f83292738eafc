/*
 * The engine's block device: the one disk that reads, writeback and swap share, as a model of
 * its speed, in front of the real files.
 *
 * The engine's "disk" is the host's page cache, which runs at memory speed; a kernel's runs
 * at a disk's.  Reclaim's behaviour depends on that speed (pages stay under writeback while
 * their write is in flight, dirty pages reach the tail of the LRU when writeback cannot keep
 * up, reclaim waits for a congested device), so the engine can put a model of a disk between
 * its I/O and the files:
 *
 *   - I/O is submitted as bios (Linux's struct bio) and returns at once; a request queue
 *     merges a bio into a waiting request for the next bytes of the same file, as the
 *     elevator's back-merge does, up to max_kb;
 *   - one transfer runs at a time at the modelled bandwidth, and each request completes a
 *     fixed latency after its transfer (so requests in flight overlap their latencies, as a
 *     queue of depth > 1 does);
 *   - requests are dispatched by the deadline scheduler's batching: one direction at a
 *     time in batches of fifo_batch, reads first, writes served after writes_starved read
 *     batches (its expiry times are not modelled);
 *   - each direction has nr_requests requests; a submitter finding none free sleeps until
 *     one is (get_request()), and the device is congested from 7/8 of them until it falls
 *     below 13/16 (blk_queue_congestion_threshold()), which congestion_wait() and
 *     wait_iff_congested() wait on;
 *   - a completion thread (the disk's interrupt) ends each request at its modelled time,
 *     calling the bios' end_io; the real pread/pwrite happen in that thread, before.
 *
 * With the model off (bandwidth 0, the default for embedders) there is no queue and no
 * thread: submit_bio() does the real I/O and calls end_io in the caller, which is what the
 * engine did before the model existed.
 *
 * A direct device (blkdev_direct) has the same queue, merging, request pools, congestion and
 * dispatch, but no modelled time: its thread does each request's real I/O, with O_DIRECT
 * where the bio gives a descriptor for it (dio_fd), and ends the request when that I/O ends,
 * one request at a time.  What O_DIRECT cannot do (a piece that is not a multiple of
 * DIO_ALIGN at an aligned offset and address: a file's partial last page) goes through the
 * bio's buffered descriptor, so a write never extends a file past what the bio holds.
 *
 * Times are the engine's clock (the config's clock callback), so tests can run the model in
 * virtual time.
 */
#ifndef NODELRU_BLKDEV_H
#define NODELRU_BLKDEV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/uio.h>

struct nlru_log;
struct blkdev;

/* The model's parameters (tunables blkdev_*). */
struct blkdev_params {
	bool direct;              /* real I/O, its own time: mbs and latency_us unused */
	unsigned long mbs;        /* bandwidth, 10^6 bytes/s; 0: no model */
	unsigned long latency_us; /* added to every request after its transfer */
	unsigned long seek_us;    /* most a request pays to move the head (head_move_ns()) */
	unsigned int nr_requests; /* per direction (/sys/block/X/queue/nr_requests) */
	unsigned int max_kb;      /* largest request merging makes (max_sectors_kb) */
};

/*
 * One I/O: pages of one file at consecutive offsets.  The submitter fills it in; end_io is
 * called once, with no lock held, in the completing thread (the device's, or the
 * submitter's with the model off), and the bio is freed after it returns.
 */
struct bio {
	struct bio *next; /* in its request */
	int fd;
	int dio_fd; /* the same file opened O_DIRECT, for a direct device; -1 (bio_alloc): none */
	bool write;
	bool sync;    /* a read, or a write someone waits for (fsync): REQ_SYNC */
	uint64_t pos; /* byte offset in the file */
	size_t len;   /* bytes in vecs */
	int err;      /* errno: set before submission to fail it (fault injection), or by the I/O */
	size_t done;  /* bytes transferred; a read short of len met the end of the file */
	uint64_t start_ns, done_ns; /* the model's transfer start and completion, engine ns */
	void (*end_io)(struct bio *bio);
	void *private; /* two words for the submitter's end_io */
	void *owner;
	int nr_vecs, max_vecs;
	struct iovec vecs[];
};

/*
 * The alignment O_DIRECT gets from the engine: pages are 4 KiB aligned and I/O starts at page
 * offsets.  A file whose file system needs more is refused at open (filemap.c, swap.c).
 */
#define DIO_ALIGN 4096u

/*
 * For a direct device: open the file of @fd again with O_DIRECT into *@dio_fd (read-write if
 * @writable, else read-only), through /proc/self/fd so that it is the same file even when
 * unlinked or renamed.  Refused with -EINVAL, logged with @what (a file's path, "swap file
 * ..."): a file on tmpfs or ramfs, whose "direct" I/O is a copy in memory (tmpfs takes O_DIRECT
 * since Linux 6.6, and refuses it before); a file system that refuses O_DIRECT; one that needs
 * more alignment than DIO_ALIGN (statx's STATX_DIOALIGN, where the kernel reports it).
 * Otherwise 0, or the -errno of the open, logged.
 */
int blkdev_open_direct(int fd, bool writable, const char *what, const struct nlru_log *log,
		       int *dio_fd);

/*
 * For a direct device, before a file is opened (and perhaps created or truncated): -EINVAL,
 * logged with @what, if @path, or the folder it is to be created in, is on tmpfs or ramfs.
 * Otherwise 0; blkdev_open_direct() checks the rest once the file is open.
 */
int blkdev_direct_precheck(const char *path, const char *what, const struct nlru_log *log);

/* A bio for up to @nr_vecs pieces, zeroed but dio_fd -1; NULL when out of memory. */
struct bio *bio_alloc(int nr_vecs);
void bio_add(struct bio *bio, void *addr, size_t len);

/* Queue @bio on @dev, or with @dev NULL do it now and call end_io.  May sleep for a request. */
void submit_bio(struct blkdev *dev, struct bio *bio);

/* Submit @bio and sleep until it completes; its end_io must be NULL.  Returns its err. */
int submit_bio_wait(struct blkdev *dev, struct bio *bio, size_t *done);

/* The device and its completion thread.  -errno with a message. */
int blkdev_create(const struct blkdev_params *params, uint64_t (*clock)(void *arg), void *clock_arg,
		  const struct nlru_log *log, struct blkdev **out);
/* Stop the thread after completing everything queued, at once (no modelled wait), then free. */
void blkdev_destroy(struct blkdev *dev);

/* bdi_write_congested(): asynchronous writes are congested. */
bool blkdev_write_congested(const struct blkdev *dev);

/*
 * congestion_wait(BLK_RW_ASYNC, HZ/10): sleep until a write request completes with the device
 * below its congestion-off mark, or for @timeout_ns of real time.  Returns true if woken.
 */
bool blkdev_congestion_wait(struct blkdev *dev, uint64_t timeout_ns);

/*
 * What the device did, as /proc/diskstats counts it (block/genhd.c diskstats_show and
 * part_round_stats() of v4.8): times are summed in engine nanoseconds here and printed in
 * milliseconds, so no fraction of a millisecond is lost between two updates.
 */
struct blkdev_stats {
	unsigned long ios[2];       /* requests completed: [0] reads, [1] writes */
	unsigned long merges[2];    /* bios merged into a waiting request */
	unsigned long sectors[2];   /* 512-byte sectors transferred */
	uint64_t ticks_ns[2];       /* time from queueing to completion, summed */
	unsigned long in_flight;    /* requests allocated now (queued or dispatched) */
	uint64_t io_ticks_ns;       /* time the device had requests in flight */
	uint64_t time_in_queue_ns;  /* in_flight integrated over time */
	unsigned long submit_waits; /* submitters that slept for a free request */
	uint64_t congested_ns;      /* time with writes congested */
};

void blkdev_read_stats(struct blkdev *dev, struct blkdev_stats *stats);

/*
 * One /proc/diskstats line for the device, named @name, in 4.8's format (4.7's is the same):
 * major 254, minor 0, then reads, reads merged, sectors read, ms reading, the same four for
 * writes, I/Os in flight, ms with I/O in flight, weighted ms.  The millisecond fields and
 * in-flight wrap at 2^32 as the kernel's %u does.
 */
void blkdev_print_diskstats(struct blkdev *dev, const char *name, FILE *out);

#endif /* NODELRU_BLKDEV_H */
