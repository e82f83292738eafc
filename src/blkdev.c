/*
 * blkdev.c - the block device model (blkdev.h): request queue, deadline dispatch, modelled
 * transfer and latency, congestion, and the completion thread that does the real I/O; or,
 * for a direct device, the same queue in front of the real I/O with O_DIRECT, timed by it.
 *
 * Locking: dev->lock (a mutex) protects the queues, the counts, the clock of the transfer
 * channel and the statistics.  It is a leaf: nothing else is taken under it.  The real I/O
 * and every end_io run with no lock held, so an end_io may take a file's or a region's lock,
 * and a submitter may sleep for a free request while it holds the owner table's read lock
 * (reclaim and the flusher do) without stopping the completions it waits for.
 *
 * Seeks are modelled as a rotating disk's one head has them (blkdev_seek_us): a request that
 * does not begin where the previous one ended keeps the channel busy for a seek before its
 * transfer, except a short skip forward in the same file, which costs the time the skipped
 * bytes take to pass under the head (a read around a page already cached).  Not modelled:
 * seek distance otherwise (every seek costs the same), the elevator's sorting by sector and
 * front merges, plugging (bios merge while they wait behind a busy transfer instead), and
 * separate devices for swap and files.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/futex.h>
#include <linux/magic.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>

#include "blkdev.h"
#include "debug.h"
#include "kthread.h"
#include "log.h"
#include "mutex.h"

/* The deadline scheduler's defaults (block/deadline-iosched.c). */
#define FIFO_BATCH 16
#define WRITES_STARVED 2

/* A custom engine clock cannot be slept on: look at it this often (real time). */
#define VIRTUAL_CLOCK_POLL_NS 1000000ull

enum { DIR_READ, DIR_WRITE };
enum { CLASS_ASYNC, CLASS_SYNC };

struct blk_request {
	struct blk_request *next;
	struct bio *first, *last;
	int fd;
	bool write, sync, failed; /* failed: an injected error, never merged, no real I/O */
	uint64_t pos;
	size_t len;
	size_t done; /* bytes the real I/O moved */
	int nr_vecs;
	uint64_t queued_ns, start_ns, done_ns;
};

struct rq_fifo {
	struct blk_request *head, *tail;
};

struct blkdev {
	struct blkdev_params p;
	uint64_t (*clock)(void *arg); /* NULL: CLOCK_MONOTONIC */
	void *clock_arg;
	const struct nlru_log *log;
	struct mutex lock;
	pthread_cond_t work;     /* the completion thread: something queued, or stop */
	pthread_cond_t freed;    /* a request was freed: waiting submitters, congestion waiters */
	struct rq_fifo queue[2]; /* waiting for dispatch, by direction, oldest first */
	struct rq_fifo inflight; /* dispatched, by completion time */
	unsigned int count[2];   /* requests allocated (queued or in flight), by class */
	unsigned int congestion_on, congestion_off;
	atomic_bool write_congested; /* read without the lock by reclaim */
	uint64_t freed_seq;          /* write requests freed below congestion_off */
	uint64_t busy_until;         /* the transfer channel is free from then (engine ns) */
	int head_fd;                 /* the file and the offset where the last dispatched */
	uint64_t head_pos;           /* request left the disk's head (head_move_ns()) */
	int batch_dir;               /* deadline: the direction of the batch in progress */
	unsigned int batching, starved;
	pthread_t thread;
	bool stop;
	struct blkdev_stats stats;
	uint64_t accounted_ns; /* io_ticks, time_in_queue and congested time counted up to here */
};

static uint64_t monotonic_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static uint64_t dev_now(const struct blkdev *dev)
{
	return dev->clock ? dev->clock(dev->clock_arg) : monotonic_ns();
}

static struct timespec ns_to_timespec(uint64_t ns)
{
	return (struct timespec){.tv_sec = (time_t)(ns / 1000000000ull),
				 .tv_nsec = (long)(ns % 1000000000ull)};
}

/* ---- bios and the real I/O ---------------------------------------------------------- */

/* A file system in memory: its "direct" I/O is a copy, no disk's.  Then why, in @why. */
static bool in_memory(const struct statfs *fs, char *why, size_t size)
{
	if (fs->f_type != TMPFS_MAGIC && fs->f_type != RAMFS_MAGIC)
		return false;
	snprintf(why, size, "it is on %s, in memory: its direct I/O would be a copy, not a disk's",
		 fs->f_type == TMPFS_MAGIC ? "tmpfs" : "ramfs");
	return true;
}

int blkdev_direct_precheck(const char *path, const char *what, const struct nlru_log *log)
{
	char dir[4096], why[160], *slash;
	struct statfs fs;
	int r = statfs(path, &fs);

	if (r < 0 && errno == ENOENT) {
		snprintf(dir, sizeof(dir), "%s", path);
		/* The folder of a file still to be created: "/" for "/name", "." for "name". */
		slash = strrchr(dir, '/');
		if (slash == dir)
			dir[1] = '\0';
		else if (slash)
			*slash = '\0';
		r = statfs(slash ? dir : ".", &fs);
	}
	if (r == 0 && in_memory(&fs, why, sizeof(why))) {
		log_err(log, "%s: blkdev_direct needs a file on a disk, and %s", what, why);
		return -EINVAL;
	}
	return 0;
}

/* Why the file of @fd cannot be used with O_DIRECT by the engine, or NULL if it can. */
static const char *direct_refusal(int fd, char *why, size_t size)
{
	struct statfs fs;

	if (fstatfs(fd, &fs) == 0 && in_memory(&fs, why, size))
		return why;
#ifdef STATX_DIOALIGN
	struct statx sx;

	if (statx(fd, "", AT_EMPTY_PATH, STATX_DIOALIGN, &sx) == 0 &&
	    (sx.stx_mask & STATX_DIOALIGN)) {
		if (!sx.stx_dio_offset_align) {
			snprintf(why, size, "its file system does no direct I/O");
			return why;
		}
		if (sx.stx_dio_offset_align > DIO_ALIGN || sx.stx_dio_mem_align > DIO_ALIGN) {
			snprintf(
				why, size,
				"its direct I/O needs offsets aligned to %u bytes and memory to %u, "
				"more than the engine's %u",
				sx.stx_dio_offset_align, sx.stx_dio_mem_align, DIO_ALIGN);
			return why;
		}
	}
#endif
	return NULL;
}

int blkdev_open_direct(int fd, bool writable, const char *what, const struct nlru_log *log,
		       int *dio_fd)
{
	char path[64], why[160];
	int err;

	*dio_fd = -1;
	if (direct_refusal(fd, why, sizeof(why))) {
		log_err(log, "%s: blkdev_direct needs a file on a disk, and %s", what, why);
		return -EINVAL;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	*dio_fd = open(path, (writable ? O_RDWR : O_RDONLY) | O_DIRECT | O_CLOEXEC);
	if (*dio_fd >= 0)
		return 0;
	err = errno; /* before logging: the log callback may change it */
	if (err == EINVAL)
		log_err(log,
			"%s: blkdev_direct needs a file on a disk, and its file system refuses "
			"O_DIRECT",
			what);
	else
		log_err(log, "%s: cannot open it again with O_DIRECT through %s: %s", what, path,
			strerror(err));
	return -err;
}

struct bio *bio_alloc(int nr_vecs)
{
	struct bio *bio = calloc(1, sizeof(*bio) + sizeof(struct iovec) * (size_t)nr_vecs);

	if (bio) {
		bio->max_vecs = nr_vecs;
		bio->dio_fd = -1;
	}
	return bio;
}

void bio_add(struct bio *bio, void *addr, size_t len)
{
	bio->vecs[bio->nr_vecs++] = (struct iovec){addr, len};
	bio->len += len;
}

/* Skip @n bytes of *@iov (@cnt entries); returns the entries left. */
static int iov_skip(struct iovec **iov, int cnt, size_t n)
{
	while (cnt > 0 && n >= (*iov)->iov_len) {
		n -= (*iov)->iov_len;
		(*iov)++;
		cnt--;
	}
	if (cnt > 0 && n) {
		(*iov)->iov_base = (char *)(*iov)->iov_base + n;
		(*iov)->iov_len -= n;
	}
	return cnt;
}

static bool dio_aligned(const struct iovec *v)
{
	return v->iov_len && !(v->iov_len % DIO_ALIGN) && !((uintptr_t)v->iov_base % DIO_ALIGN);
}

/*
 * The real transfer of @cnt pieces at @pos: 0 or errno, and the bytes moved in *@done.  A
 * write goes on after a short count until all is written or an error says why it stopped; a
 * read goes on until the pieces are full or the file ends (a short read mid-file may come
 * before an error).
 *
 * With an O_DIRECT descriptor @dio_fd (else -1), the leading pieces O_DIRECT takes, aligned in
 * length and address at an aligned offset, go through it, and through the buffered @fd from
 * the first piece it does not on: a partial last page, or what follows a short transfer that
 * ended unaligned (a read meeting the end of the file).  The host's kernel keeps the two
 * coherent: a direct read writes back the buffered pages of its range first, and a direct
 * write drops them.
 */
static int do_rw(int dio_fd, int fd, bool write, struct iovec *iov, int cnt, uint64_t pos,
		 size_t *done)
{
	*done = 0;
	while ((cnt = iov_skip(&iov, cnt, 0)) > 0) {
		bool direct = dio_fd >= 0 && !((pos + *done) % DIO_ALIGN);
		int chunk = 0;
		ssize_t n;

		while (direct && chunk < MIN(cnt, IOV_MAX) && dio_aligned(&iov[chunk]))
			chunk++;
		if (!chunk) {
			direct = false;
			chunk = MIN(cnt, IOV_MAX);
		}
		n = write ? pwritev(direct ? dio_fd : fd, iov, chunk, (off_t)(pos + *done))
			  : preadv(direct ? dio_fd : fd, iov, chunk, (off_t)(pos + *done));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return errno;
		if (n == 0)
			return write ? EIO : 0;
		*done += (size_t)n;
		cnt = iov_skip(&iov, cnt, (size_t)n);
	}
	return 0;
}

/* Do @rq's real I/O, one call for all its bios, and give each bio its share.  No lock. */
static void request_io(struct blk_request *rq)
{
	struct iovec stack[128], *iov = stack;
	size_t done = 0, at = 0;
	int cnt = 0, err;

	if (rq->failed)
		return;
	if (rq->nr_vecs > (int)ARRAY_SIZE(stack))
		iov = malloc(sizeof(*iov) * (size_t)rq->nr_vecs);
	if (!iov) {
		err = ENOMEM;
	} else {
		for (struct bio *bio = rq->first; bio; bio = bio->next) {
			memcpy(iov + cnt, bio->vecs, sizeof(*iov) * (size_t)bio->nr_vecs);
			cnt += bio->nr_vecs;
		}
		err = do_rw(rq->first->dio_fd, rq->fd, rq->write, iov, cnt, rq->pos, &done);
	}
	if (iov != stack)
		free(iov);
	rq->done = done;
	for (struct bio *bio = rq->first; bio; bio = bio->next) {
		bio->err = err;
		bio->done = done > at ? MIN(done - at, bio->len) : 0;
		at += bio->len;
	}
}

static void end_bios(struct bio *bio)
{
	while (bio) {
		struct bio *next = bio->next;

		if (bio->end_io)
			bio->end_io(bio);
		free(bio);
		bio = next;
	}
}

/* ---- the queue ---------------------------------------------------------------------- */

static void fifo_push(struct rq_fifo *fifo, struct blk_request *rq)
{
	rq->next = NULL;
	if (fifo->tail)
		fifo->tail->next = rq;
	else
		fifo->head = rq;
	fifo->tail = rq;
}

static struct blk_request *fifo_pop(struct rq_fifo *fifo)
{
	struct blk_request *rq = fifo->head;

	if (rq) {
		fifo->head = rq->next;
		if (!fifo->head)
			fifo->tail = NULL;
	}
	return rq;
}

/* Count the time since the last change of the device's state.  Locked. */
static void account(struct blkdev *dev, uint64_t now)
{
	uint64_t delta = now > dev->accounted_ns ? now - dev->accounted_ns : 0;
	unsigned long in_flight = dev->count[CLASS_ASYNC] + dev->count[CLASS_SYNC];

	if (in_flight) {
		dev->stats.io_ticks_ns += delta;
		dev->stats.time_in_queue_ns += in_flight * delta;
	}
	if (atomic_load_explicit(&dev->write_congested, memory_order_relaxed))
		dev->stats.congested_ns += delta;
	dev->accounted_ns = MAX(dev->accounted_ns, now);
}

/* elv_merge()'s back merge: the next bytes of the same file, waiting in the same direction. */
static bool try_merge(struct blkdev *dev, struct bio *bio)
{
	struct blk_request *rq = dev->queue[bio->write ? DIR_WRITE : DIR_READ].tail;

	if (!rq || rq->failed || bio->err || rq->fd != bio->fd || rq->pos + rq->len != bio->pos ||
	    rq->len + bio->len > (size_t)dev->p.max_kb << 10)
		return false;
	rq->last->next = bio;
	rq->last = bio;
	rq->len += bio->len;
	rq->nr_vecs += bio->nr_vecs;
	dev->stats.merges[bio->write]++;
	return true;
}

static struct blk_request *new_request(struct bio *bio, uint64_t now)
{
	struct blk_request *rq = calloc(1, sizeof(*rq));

	if (!rq)
		return NULL;
	*rq = (struct blk_request){
		.first = bio,
		.last = bio,
		.fd = bio->fd,
		.write = bio->write,
		.sync = bio->sync || !bio->write,
		.failed = bio->err != 0,
		.pos = bio->pos,
		.len = bio->len,
		.nr_vecs = bio->nr_vecs,
		.queued_ns = now,
	};
	return rq;
}

/* The submitter's side of an I/O done at once: no model, or no memory for a request. */
static void submit_now(struct bio *bio)
{
	struct blk_request rq = {
		.first = bio,
		.fd = bio->fd,
		.write = bio->write,
		.failed = bio->err != 0,
		.pos = bio->pos,
		.len = bio->len,
		.nr_vecs = bio->nr_vecs,
	};

	request_io(&rq);
	end_bios(bio);
}

void submit_bio(struct blkdev *dev, struct bio *bio)
{
	struct blk_request *rq;
	int class;

	bio->next = NULL;
	if (!dev) {
		submit_now(bio);
		return;
	}
	mutex_lock(&dev->lock);
	if (try_merge(dev, bio)) {
		mutex_unlock(&dev->lock);
		return;
	}
	class = bio->sync || !bio->write ? CLASS_SYNC : CLASS_ASYNC;
	/* get_request(): sleep until this direction's pool has a request. */
	if (dev->count[class] >= dev->p.nr_requests) {
		dev->stats.submit_waits++;
		while (dev->count[class] >= dev->p.nr_requests && !dev->stop)
			pthread_cond_wait(&dev->freed, &dev->lock.mutex);
	}
	rq = new_request(bio, dev_now(dev));
	if (!rq) {
		mutex_unlock(&dev->lock);
		submit_now(bio);
		return;
	}
	account(dev, rq->queued_ns);
	dev->count[class]++;
	if (class == CLASS_ASYNC && dev->count[class] >= dev->congestion_on)
		atomic_store(&dev->write_congested, true);
	fifo_push(&dev->queue[rq->write ? DIR_WRITE : DIR_READ], rq);
	pthread_cond_signal(&dev->work);
	mutex_unlock(&dev->lock);
}

struct bio_wait {
	uint32_t done; /* a futex: 0 until the bio completed */
	int err;
	size_t bytes;
};

static void bio_wait_end_io(struct bio *bio)
{
	struct bio_wait *wait = bio->private;

	wait->err = bio->err;
	wait->bytes = bio->done;
	__atomic_store_n(&wait->done, 1, __ATOMIC_RELEASE);
	syscall(SYS_futex, &wait->done, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

int submit_bio_wait(struct blkdev *dev, struct bio *bio, size_t *done)
{
	struct bio_wait wait = {0};

	bio->end_io = bio_wait_end_io;
	bio->private = &wait;
	bio->sync = true;
	submit_bio(dev, bio);
	while (!__atomic_load_n(&wait.done, __ATOMIC_ACQUIRE))
		syscall(SYS_futex, &wait.done, FUTEX_WAIT_PRIVATE, 0, NULL, NULL, 0);
	if (done)
		*done = wait.bytes;
	return wait.err;
}

/* ---- dispatch and completion: the device's thread ----------------------------------- */

/* deadline_dispatch_requests(): the direction of the next request, batches of FIFO_BATCH. */
static struct blk_request *pick_request(struct blkdev *dev)
{
	bool reads = dev->queue[DIR_READ].head, writes = dev->queue[DIR_WRITE].head;
	int dir;

	if (dev->batching < FIFO_BATCH && dev->queue[dev->batch_dir].head) {
		dir = dev->batch_dir;
	} else if (reads && !(writes && dev->starved++ >= WRITES_STARVED)) {
		dir = DIR_READ;
		dev->batching = 0;
	} else if (writes) {
		dir = DIR_WRITE;
		dev->starved = 0;
		dev->batching = 0;
	} else {
		return NULL;
	}
	dev->batch_dir = dir;
	dev->batching++;
	return fifo_pop(&dev->queue[dir]);
}

/* The times of @rq and its bios: when its transfer started and when it completes. */
static void set_times(struct blk_request *rq, uint64_t start_ns, uint64_t done_ns)
{
	rq->start_ns = start_ns;
	rq->done_ns = done_ns;
	for (struct bio *bio = rq->first; bio; bio = bio->next) {
		bio->start_ns = start_ns;
		bio->done_ns = done_ns;
	}
}

/*
 * What @rq pays before its transfer for where the head is: nothing where the last request
 * ended; a forward skip in the same file, the time its bytes take to pass under the head, up
 * to a seek (a disk waits for a sector a few KiB on, it does not seek to it); anywhere else,
 * a seek, while nothing else runs.  Locked.
 */
static uint64_t head_move_ns(const struct blkdev *dev, const struct blk_request *rq)
{
	uint64_t seek = (uint64_t)dev->p.seek_us * 1000;

	if (rq->fd == dev->head_fd && rq->pos >= dev->head_pos)
		return MIN(seek, (rq->pos - dev->head_pos) * 1000 / dev->p.mbs);
	return seek;
}

/*
 * Give @rq its modelled times and put it in flight.  A direct device's request goes in flight
 * once its real I/O has ended (direct_done()).  Locked.
 */
static void dispatch(struct blkdev *dev, struct blk_request *rq, uint64_t now)
{
	uint64_t busy; /* how long the request holds the channel: its seek and transfer */

	if (dev->p.direct) {
		set_times(rq, now, now);
		return;
	}
	busy = (uint64_t)rq->len * 1000 / dev->p.mbs + head_move_ns(dev, rq);
	dev->head_fd = rq->fd;
	dev->head_pos = rq->pos + rq->len;

	/* When the channel freed, or the request came: a clock that jumped changes nothing. */
	rq->start_ns = MAX(rq->queued_ns, dev->busy_until);
	dev->busy_until = rq->start_ns + busy;
	rq->done_ns = dev->busy_until + (uint64_t)dev->p.latency_us * 1000;
	if (dev->stop) /* draining: no modelled wait */
		rq->done_ns = rq->start_ns;
	set_times(rq, rq->start_ns, rq->done_ns);
	/* A constant latency keeps completion order the dispatch order. */
	fifo_push(&dev->inflight, rq);
}

/* A direct device's request whose real I/O just ended: it completes now.  Locked. */
static void direct_done(struct blkdev *dev, struct blk_request *rq)
{
	set_times(rq, rq->start_ns, MAX(rq->start_ns, dev_now(dev)));
	fifo_push(&dev->inflight, rq);
}

/* A completed request leaves its pool: wake submitters, and congestion waiters.  Locked. */
static void free_request(struct blkdev *dev, struct blk_request *rq, uint64_t now)
{
	int class = rq->sync ? CLASS_SYNC : CLASS_ASYNC;

	account(dev, now);
	dev->stats.ios[rq->write]++;
	/* blk_account_io_completion() counts the bytes done: none for a failed request. */
	dev->stats.sectors[rq->write] += rq->done >> 9;
	dev->stats.ticks_ns[rq->write] += now - MIN(now, rq->queued_ns);
	dev->count[class]--;
	if (class == CLASS_ASYNC && dev->count[class] < dev->congestion_off) {
		atomic_store(&dev->write_congested, false);
		dev->freed_seq++; /* clear_wb_congested() wakes congestion_wait() */
	}
	pthread_cond_broadcast(&dev->freed);
	free(rq);
}

/* Sleep until @when (engine ns) or until signalled.  Locked. */
static void wait_until(struct blkdev *dev, uint64_t when, uint64_t now)
{
	struct timespec ts;

	if (when == UINT64_MAX) {
		pthread_cond_wait(&dev->work, &dev->lock.mutex);
		return;
	}
	/* The engine's default clock is CLOCK_MONOTONIC, which the condition variable uses. */
	ts = ns_to_timespec(dev->clock ? monotonic_ns() + MIN(when - now, VIRTUAL_CLOCK_POLL_NS)
				       : when);
	pthread_cond_timedwait(&dev->work, &dev->lock.mutex, &ts);
}

static void *blkdev_thread(void *arg)
{
	struct blkdev *dev = arg;

	mutex_lock(&dev->lock);
	for (;;) {
		uint64_t now = dev_now(dev), next = UINT64_MAX;
		struct blk_request *rq = dev->inflight.head;

		if (rq && (rq->done_ns <= now || dev->stop)) {
			fifo_pop(&dev->inflight);
			mutex_unlock(&dev->lock);
			end_bios(rq->first);
			mutex_lock(&dev->lock);
			free_request(dev, rq, now);
			continue;
		}
		if (dev->busy_until <= now || dev->stop) {
			rq = pick_request(dev);
			if (rq) {
				dispatch(dev, rq, now);
				mutex_unlock(&dev->lock);
				request_io(rq);
				mutex_lock(&dev->lock);
				if (dev->p.direct)
					direct_done(dev, rq);
				continue;
			}
		}
		if (dev->stop && !dev->inflight.head)
			break;
		if (dev->inflight.head)
			next = dev->inflight.head->done_ns;
		if (dev->queue[DIR_READ].head || dev->queue[DIR_WRITE].head)
			next = MIN(next, dev->busy_until);
		wait_until(dev, next, now);
	}
	mutex_unlock(&dev->lock);
	return NULL;
}

/* ---- the device --------------------------------------------------------------------- */

/* blk_queue_congestion_threshold(): on at 7/8 of the requests, off below 13/16. */
static void set_congestion_marks(struct blkdev *dev)
{
	long nr = dev->p.nr_requests;

	dev->congestion_on = (unsigned int)MIN(nr, nr - nr / 8 + 1);
	dev->congestion_off = (unsigned int)MAX(1, nr - nr / 8 - nr / 16 - 1);
}

int blkdev_create(const struct blkdev_params *params, uint64_t (*clock)(void *arg), void *clock_arg,
		  const struct nlru_log *log, struct blkdev **out)
{
	struct blkdev *dev;
	pthread_condattr_t attr;
	int r;

	if ((!params->mbs && !params->direct) || !params->nr_requests || params->max_kb < 4) {
		log_err(log, "block device: %lu MB/s, %u requests, %u KiB requests is no device",
			params->mbs, params->nr_requests, params->max_kb);
		return -EINVAL;
	}
	dev = calloc(1, sizeof(*dev));
	if (!dev)
		return -ENOMEM;
	dev->p = *params;
	dev->head_fd = -1; /* the first request seeks */
	dev->clock = clock;
	dev->clock_arg = clock_arg;
	dev->log = log;
	set_congestion_marks(dev);
	mutex_init(&dev->lock, LOCK_BLKDEV, log);
	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&dev->work, &attr);
	pthread_cond_init(&dev->freed, &attr);
	pthread_condattr_destroy(&attr);
	dev->accounted_ns = dev_now(dev);
	r = kthread_run(&dev->thread, blkdev_thread, dev, "nlru-blkdev");
	if (r) {
		log_err(log, "block device: cannot start its thread: %s", strerror(r));
		pthread_cond_destroy(&dev->work);
		pthread_cond_destroy(&dev->freed);
		mutex_destroy(&dev->lock);
		free(dev);
		return -r;
	}
	*out = dev;
	return 0;
}

void blkdev_destroy(struct blkdev *dev)
{
	if (!dev)
		return;
	mutex_lock(&dev->lock);
	dev->stop = true;
	pthread_cond_broadcast(&dev->work);
	pthread_cond_broadcast(&dev->freed);
	mutex_unlock(&dev->lock);
	pthread_join(dev->thread, NULL);
	pthread_cond_destroy(&dev->work);
	pthread_cond_destroy(&dev->freed);
	mutex_destroy(&dev->lock);
	free(dev);
}

bool blkdev_write_congested(const struct blkdev *dev)
{
	return dev && atomic_load_explicit(&dev->write_congested, memory_order_relaxed);
}

bool blkdev_congestion_wait(struct blkdev *dev, uint64_t timeout_ns)
{
	struct timespec deadline = ns_to_timespec(monotonic_ns() + timeout_ns);
	uint64_t seq;
	bool woken;

	mutex_lock(&dev->lock);
	seq = dev->freed_seq;
	while (dev->freed_seq == seq && !dev->stop)
		if (pthread_cond_timedwait(&dev->freed, &dev->lock.mutex, &deadline) == ETIMEDOUT)
			break;
	woken = dev->freed_seq != seq;
	mutex_unlock(&dev->lock);
	return woken;
}

void blkdev_read_stats(struct blkdev *dev, struct blkdev_stats *stats)
{
	mutex_lock(&dev->lock);
	account(dev, dev_now(dev));
	*stats = dev->stats;
	stats->in_flight = dev->count[CLASS_ASYNC] + dev->count[CLASS_SYNC];
	mutex_unlock(&dev->lock);
}

/* jiffies_to_msecs(): an unsigned int, so the kernel's millisecond fields wrap at 2^32. */
static unsigned int ns_to_ms32(uint64_t ns)
{
	return (unsigned int)(ns / 1000000);
}

void blkdev_print_diskstats(struct blkdev *dev, const char *name, FILE *out)
{
	struct blkdev_stats s;

	blkdev_read_stats(dev, &s);
	/* diskstats_show()'s "%4d %7d %s %lu %lu %lu %u %lu %lu %lu %u %u %u %u\n". */
	fprintf(out, "%4d %7d %s %lu %lu %lu %u %lu %lu %lu %u %u %u %u\n", 254, 0, name, s.ios[0],
		s.merges[0], s.sectors[0], ns_to_ms32(s.ticks_ns[0]), s.ios[1], s.merges[1],
		s.sectors[1], ns_to_ms32(s.ticks_ns[1]), (unsigned int)s.in_flight,
		ns_to_ms32(s.io_ticks_ns), ns_to_ms32(s.time_in_queue_ns));
}
