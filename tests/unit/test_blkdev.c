/*
 * The block device model against its definition, in virtual time: the engine clock is a
 * variable the test moves, so every figure below follows from the parameters alone and no
 * assertion depends on the machine's speed.  A device of 100 MB/s moves 100 bytes a
 * microsecond: 64 KiB take 655.36 us, plus the latency.
 */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "blkdev.h"
#include "helpers.h"
#include "log.h"

#define KIB 1024u
#define XFER_64K_NS 655360ull /* 65536 bytes at 100 bytes/us */
#define LATENCY_NS 1000000ull

static _Atomic uint64_t fake_now;
static struct nlru_log quiet_log = {.fn = test_log};

static uint64_t fake_clock(void *arg)
{
	(void)arg;
	return atomic_load(&fake_now);
}

static struct blkdev *make_device(unsigned int nr_requests)
{
	struct blkdev_params p = {
		.mbs = 100, .latency_us = 1000, .nr_requests = nr_requests, .max_kb = 512};
	struct blkdev *dev;

	atomic_store(&fake_now, 0);
	cr_assert_eq(blkdev_create(&p, fake_clock, NULL, &quiet_log, &dev), 0);
	return dev;
}

static int scratch_file(void)
{
	char path[] = "/tmp/nodelru-blkdev-XXXXXX";
	int fd = mkstemp(path);

	cr_assert_geq(fd, 0);
	unlink(path);
	return fd;
}

/* A completion the test can look at: counts end_io calls and keeps the bio's times. */
struct done {
	_Atomic int calls;
	uint64_t start_ns, done_ns;
	int err;
	size_t bytes;
};

static void note_done(struct bio *bio)
{
	struct done *d = bio->private;

	d->start_ns = bio->start_ns;
	d->done_ns = bio->done_ns;
	d->err = bio->err;
	d->bytes = bio->done;
	atomic_fetch_add(&d->calls, 1);
}

static char buffer[8][64 * KIB];

static void submit_write(struct blkdev *dev, int fd, int buf, uint64_t pos, struct done *d)
{
	struct bio *bio = bio_alloc(1);

	cr_assert_not_null(bio);
	bio->fd = fd;
	bio->write = true;
	bio->pos = pos;
	bio->end_io = note_done;
	bio->private = d;
	bio_add(bio, buffer[buf], sizeof(buffer[buf]));
	submit_bio(dev, bio);
}

static void submit_read(struct blkdev *dev, int fd, int buf, uint64_t pos, struct done *d)
{
	struct bio *bio = bio_alloc(1);

	bio->fd = fd;
	bio->pos = pos;
	bio->end_io = note_done;
	bio->private = d;
	bio_add(bio, buffer[buf], sizeof(buffer[buf]));
	submit_bio(dev, bio);
}

/* Wait (real time, generously) for @d to complete; false if it never does. */
static bool wait_done(struct done *d)
{
	for (int i = 0; i < 10000 && !atomic_load(&d->calls); i++) {
		struct timespec ms = {0, 1000000};

		nanosleep(&ms, NULL);
	}
	return atomic_load(&d->calls) == 1;
}

/* Let the device's thread run a while: what it would do on its own, it has then done. */
static void settle(void)
{
	struct timespec ms20 = {0, 20000000};

	nanosleep(&ms20, NULL);
}

TestSuite(blkdev, .timeout = 60);

Test(blkdev, one_request_takes_its_transfer_plus_latency)
{
	struct blkdev *dev = make_device(128);
	int fd = scratch_file();
	struct done d = {0};

	submit_write(dev, fd, 0, 0, &d);
	settle();
	cr_expect_eq(atomic_load(&d.calls), 0, "completed before its modelled time");
	atomic_store(&fake_now, XFER_64K_NS + LATENCY_NS - 1);
	settle();
	cr_expect_eq(atomic_load(&d.calls), 0, "completed 1 ns early");
	atomic_store(&fake_now, XFER_64K_NS + LATENCY_NS);
	cr_assert(wait_done(&d));
	cr_expect_eq(d.start_ns, 0);
	cr_expect_eq(d.done_ns, XFER_64K_NS + LATENCY_NS);
	cr_expect_eq(d.err, 0);
	cr_expect_eq(d.bytes, 64 * KIB);
	blkdev_destroy(dev);
	close(fd);
}

/*
 * Requests that cannot merge (each a different file) share the transfer channel one after
 * the other at the model's bandwidth, and overlap their latencies: request k starts when
 * request k-1's transfer ends.
 */
Test(blkdev, transfers_are_serial_latencies_overlap)
{
	struct blkdev *dev = make_device(128);
	struct done d[4] = {0};
	int fd[4];

	for (int i = 0; i < 4; i++) {
		fd[i] = scratch_file();
		submit_write(dev, fd[i], i, 0, &d[i]);
	}
	atomic_store(&fake_now, 4 * XFER_64K_NS + LATENCY_NS);
	for (int i = 0; i < 4; i++) {
		cr_assert(wait_done(&d[i]), "request %d", i);
		cr_expect_eq(d[i].start_ns, i * XFER_64K_NS, "request %d started at %lu", i,
			     (unsigned long)d[i].start_ns);
		cr_expect_eq(d[i].done_ns, (i + 1) * XFER_64K_NS + LATENCY_NS, "request %d", i);
		close(fd[i]);
	}
	blkdev_destroy(dev);
}

/*
 * With a seek time the device has one head: a request where the last one ended transfers at
 * once, one in another file first seeks, and the next request waits for the seek too (it
 * holds the channel, unlike the latency).
 */
Test(blkdev, a_request_elsewhere_seeks_first)
{
	struct blkdev_params p = {
		.mbs = 100, .latency_us = 1000, .seek_us = 5000, .nr_requests = 128, .max_kb = 64};
	const uint64_t seek = 5000000;
	struct done d[4] = {0};
	int fd = scratch_file(), other = scratch_file();
	struct blkdev *dev;

	atomic_store(&fake_now, 0);
	cr_assert_eq(blkdev_create(&p, fake_clock, NULL, &quiet_log, &dev), 0);
	submit_write(dev, fd, 0, 0, &d[0]);            /* the head starts nowhere: seek */
	submit_write(dev, fd, 1, 64 * KIB, &d[1]);     /* next bytes: none (max_kb: no merge) */
	submit_write(dev, other, 2, 128 * KIB, &d[2]); /* another file: seek */
	submit_write(dev, fd, 3, 512 * KIB, &d[3]);    /* back to the first file: seek */
	atomic_store(&fake_now, UINT64_MAX / 2);
	for (int i = 0; i < 4; i++)
		cr_assert(wait_done(&d[i]), "request %d", i);
	cr_expect_eq(d[0].done_ns, seek + XFER_64K_NS + LATENCY_NS);
	cr_expect_eq(d[1].start_ns, seek + XFER_64K_NS, "sequential: after the first's transfer");
	cr_expect_eq(d[1].done_ns, seek + 2 * XFER_64K_NS + LATENCY_NS, "and no seek");
	cr_expect_eq(d[2].done_ns, 2 * seek + 3 * XFER_64K_NS + LATENCY_NS);
	cr_expect_eq(d[3].done_ns, 3 * seek + 4 * XFER_64K_NS + LATENCY_NS);
	blkdev_destroy(dev);
	close(fd);
	close(other);
}

/*
 * A skip forward in the same file costs the skipped bytes' pass under the head, as a read
 * around a cached page does on a disk; a skip longer than a seek's worth of them, a seek, and
 * so does any move back.
 */
Test(blkdev, a_short_skip_forward_waits_for_the_bytes_not_a_seek)
{
	struct blkdev_params p = {
		.mbs = 100, .latency_us = 1000, .seek_us = 5000, .nr_requests = 128, .max_kb = 64};
	const uint64_t seek = 5000000, skip_4k_ns = 40960; /* 4096 bytes at 100 bytes/us */
	struct done d[4] = {0};
	int fd = scratch_file();
	struct blkdev *dev;

	atomic_store(&fake_now, 0);
	cr_assert_eq(blkdev_create(&p, fake_clock, NULL, &quiet_log, &dev), 0);
	submit_write(dev, fd, 0, 0, &d[0]);                      /* the head starts nowhere */
	submit_write(dev, fd, 1, 68 * KIB, &d[1]);               /* one page on */
	submit_write(dev, fd, 2, 132 * KIB + 1024 * KIB, &d[2]); /* 1 MiB on: 10 ms > a seek */
	submit_write(dev, fd, 3, 64 * KIB, &d[3]);               /* back: a seek */
	atomic_store(&fake_now, UINT64_MAX / 2);
	for (int i = 0; i < 4; i++)
		cr_assert(wait_done(&d[i]), "request %d", i);
	cr_expect_eq(d[1].start_ns, seek + XFER_64K_NS, "after the first's transfer");
	cr_expect_eq(d[1].done_ns, seek + skip_4k_ns + 2 * XFER_64K_NS + LATENCY_NS,
		     "the skipped page's time, not a seek");
	cr_expect_eq(d[2].done_ns, 2 * seek + skip_4k_ns + 3 * XFER_64K_NS + LATENCY_NS,
		     "a seek, not the skipped megabyte's time");
	cr_expect_eq(d[3].done_ns, 3 * seek + skip_4k_ns + 4 * XFER_64K_NS + LATENCY_NS,
		     "back in the same file: a seek");
	blkdev_destroy(dev);
	close(fd);
}

/* A bio for the next bytes of a file waiting behind a busy transfer joins that request. */
Test(blkdev, contiguous_bios_merge_while_waiting)
{
	struct blkdev *dev = make_device(128);
	struct blkdev_stats stats;
	int fd = scratch_file(), other = scratch_file();
	struct done first = {0}, d[3] = {0};

	submit_write(dev, other, 7, 0, &first); /* occupies the channel */
	settle();
	for (int i = 0; i < 3; i++)
		submit_write(dev, fd, i, (uint64_t)i * 64 * KIB, &d[i]);
	atomic_store(&fake_now, UINT64_MAX / 2);
	for (int i = 0; i < 3; i++)
		cr_assert(wait_done(&d[i]));
	blkdev_read_stats(dev, &stats);
	cr_expect_eq(stats.merges[1], 2, "merges %lu", stats.merges[1]);
	cr_expect_eq(stats.ios[1], 2, "requests %lu", stats.ios[1]);
	cr_expect_eq(stats.sectors[1], 4 * 128);
	/* The merged request moved 192 KiB after the first's 64 KiB. */
	cr_expect_eq(d[2].start_ns, XFER_64K_NS);
	cr_expect_eq(d[2].done_ns, 4 * XFER_64K_NS + LATENCY_NS);
	blkdev_destroy(dev);
	close(fd);
	close(other);
}

struct submitter {
	struct blkdev *dev;
	int fd;
	struct done d;
	_Atomic bool returned;
};

static void *submit_in_thread(void *arg)
{
	struct submitter *s = arg;

	submit_write(s->dev, s->fd, 5, 0, &s->d);
	atomic_store(&s->returned, true);
	return NULL;
}

/* get_request(): with every request of the pool allocated, a submitter sleeps for one. */
Test(blkdev, submitter_sleeps_while_the_queue_is_full)
{
	struct blkdev *dev = make_device(2);
	struct submitter s = {.dev = dev, .fd = scratch_file()};
	struct done d[2] = {0};
	int fd[2] = {scratch_file(), scratch_file()};
	pthread_t thread;

	submit_write(dev, fd[0], 0, 0, &d[0]);
	submit_write(dev, fd[1], 1, 0, &d[1]);
	pthread_create(&thread, NULL, submit_in_thread, &s);
	settle();
	cr_expect_not(atomic_load(&s.returned), "submitted past a full queue");
	atomic_store(&fake_now, XFER_64K_NS + LATENCY_NS);
	cr_assert(wait_done(&d[0]));
	pthread_join(thread, NULL);
	cr_expect(atomic_load(&s.returned));
	atomic_store(&fake_now, UINT64_MAX / 2);
	cr_assert(wait_done(&s.d));
	blkdev_destroy(dev);
	close(s.fd);
	close(fd[0]);
	close(fd[1]);
}

/*
 * Congestion by blk_queue_congestion_threshold(): 8 requests are congested from the 8th
 * (8 - 8/8 + 1) and clear below 6 (8 - 8/8 - 8/16 - 1).
 */
Test(blkdev, congestion_marks_follow_the_kernel)
{
	struct blkdev *dev = make_device(8);
	struct done d[8] = {0};
	int fd[8];

	for (int i = 0; i < 8; i++) {
		fd[i] = scratch_file();
		cr_expect_not(blkdev_write_congested(dev), "congested at %d requests", i);
		submit_write(dev, fd[i], i, 0, &d[i]);
	}
	cr_expect(blkdev_write_congested(dev));
	/* Complete two: 6 left, not below 6, still congested; one more clears it. */
	atomic_store(&fake_now, 2 * XFER_64K_NS + LATENCY_NS);
	cr_assert(wait_done(&d[1]));
	settle();
	cr_expect(blkdev_write_congested(dev), "cleared at 6 requests");
	atomic_store(&fake_now, 3 * XFER_64K_NS + LATENCY_NS);
	cr_assert(wait_done(&d[2]));
	/* The request leaves the pool just after its end_io: give the thread time. */
	for (int i = 0; i < 10000 && blkdev_write_congested(dev); i++)
		settle();
	cr_expect_not(blkdev_write_congested(dev), "still congested at 5 requests");
	atomic_store(&fake_now, UINT64_MAX / 2);
	for (int i = 0; i < 8; i++) {
		cr_assert(wait_done(&d[i]));
		close(fd[i]);
	}
	blkdev_destroy(dev);
}

/*
 * The deadline rules: a read batch in progress goes on before writes queued meanwhile, and
 * the writes follow it.
 */
Test(blkdev, a_read_batch_goes_before_queued_writes)
{
	struct blkdev *dev = make_device(128);
	struct done w[2] = {0}, r[2] = {0};
	int fd[4];

	for (int i = 0; i < 4; i++)
		fd[i] = scratch_file();
	submit_read(dev, fd[0], 0, 0, &r[0]); /* on the channel */
	settle();
	submit_write(dev, fd[1], 1, 0, &w[0]);
	submit_write(dev, fd[2], 2, 0, &w[1]);
	submit_read(dev, fd[3], 3, 0, &r[1]);
	atomic_store(&fake_now, UINT64_MAX / 2);
	cr_assert(wait_done(&r[1]));
	cr_assert(wait_done(&w[1]));
	cr_expect_eq(r[1].start_ns, XFER_64K_NS, "read started at %lu",
		     (unsigned long)r[1].start_ns);
	cr_expect_eq(w[0].start_ns, 2 * XFER_64K_NS);
	cr_expect_eq(w[1].start_ns, 3 * XFER_64K_NS);
	cr_expect_eq(r[1].bytes, 0, "read past the end of an empty file");
	blkdev_destroy(dev);
	for (int i = 0; i < 4; i++)
		close(fd[i]);
}

/* The data is real: written through the device, read back through it (on the real clock). */
Test(blkdev, data_goes_to_the_file_and_back)
{
	struct blkdev_params p = {.mbs = 100, .latency_us = 1000, .nr_requests = 4, .max_kb = 512};
	int fd = scratch_file();
	struct blkdev *dev;
	struct bio *bio;
	size_t done;

	cr_assert_eq(blkdev_create(&p, NULL, NULL, &quiet_log, &dev), 0);
	memset(buffer[0], 0x5a, sizeof(buffer[0]));
	memset(buffer[1], 0, sizeof(buffer[1]));
	bio = bio_alloc(1);
	bio->fd = fd;
	bio->write = true;
	bio_add(bio, buffer[0], sizeof(buffer[0]));
	cr_assert_eq(submit_bio_wait(dev, bio, &done), 0);
	cr_expect_eq(done, sizeof(buffer[0]));
	bio = bio_alloc(1);
	bio->fd = fd;
	bio_add(bio, buffer[1], sizeof(buffer[1]));
	cr_assert_eq(submit_bio_wait(dev, bio, &done), 0);
	cr_expect_eq(done, sizeof(buffer[1]));
	cr_expect_eq(memcmp(buffer[0], buffer[1], sizeof(buffer[0])), 0);
	blkdev_destroy(dev);
	close(fd);
}

/* Without a model the I/O happens in the caller, end_io included. */
Test(blkdev, no_device_completes_in_the_caller)
{
	int fd = scratch_file();
	struct done d = {0};

	submit_write(NULL, fd, 0, 4096, &d);
	cr_expect_eq(atomic_load(&d.calls), 1);
	cr_expect_eq(d.err, 0);
	cr_expect_eq(lseek(fd, 0, SEEK_END), 4096 + 64 * KIB);
	close(fd);
}

/* An injected error is not merged, does no I/O, and reaches end_io. */
Test(blkdev, injected_error_reaches_end_io)
{
	struct blkdev *dev = make_device(4);
	int fd = scratch_file();
	struct done d = {0};
	struct bio *bio = bio_alloc(1);

	bio->fd = fd;
	bio->write = true;
	bio->err = ENOSPC;
	bio->end_io = note_done;
	bio->private = &d;
	bio_add(bio, buffer[0], 4096);
	submit_bio(dev, bio);
	atomic_store(&fake_now, UINT64_MAX / 2);
	cr_assert(wait_done(&d));
	cr_expect_eq(d.err, ENOSPC);
	cr_expect_eq(lseek(fd, 0, SEEK_END), 0);
	blkdev_destroy(dev);
	close(fd);
}

static void *complete_later(void *arg)
{
	(void)arg;
	settle();
	atomic_store(&fake_now, UINT64_MAX / 2);
	return NULL;
}

/* congestion_wait() returns when a write request is freed below the off mark. */
Test(blkdev, congestion_wait_wakes_on_a_completion)
{
	struct blkdev *dev = make_device(128);
	int fd = scratch_file();
	struct done d = {0};
	pthread_t thread;

	cr_expect_not(blkdev_congestion_wait(dev, 1000000), "woken with nothing in flight");
	submit_write(dev, fd, 0, 0, &d);
	pthread_create(&thread, NULL, complete_later, NULL);
	cr_expect(blkdev_congestion_wait(dev, 60ull * 1000000000), "not woken");
	cr_expect(wait_done(&d));
	pthread_join(thread, NULL);
	blkdev_destroy(dev);
	close(fd);
}

struct congestion_waiter {
	struct blkdev *dev;
	_Atomic bool returned;
	bool woken;
};

static void *wait_for_congestion(void *arg)
{
	struct congestion_waiter *w = arg;

	w->woken = blkdev_congestion_wait(w->dev, 60ull * 1000000000);
	atomic_store(&w->returned, true);
	return NULL;
}

/*
 * With the queue full, congestion_wait() sleeps through the completions that leave it at or
 * above the off mark (6 of 8) and wakes on the one that takes it below, as only
 * __freed_request() below the mark calls clear_wb_congested(): how long reclaim waits on a
 * full queue is how long the queue takes to drain to the mark.
 */
Test(blkdev, congestion_wait_sleeps_until_the_queue_drains_below_the_mark)
{
	struct blkdev *dev = make_device(8);
	struct congestion_waiter w = {.dev = dev};
	struct done d[8] = {0};
	pthread_t thread;
	int fd[8];

	for (int i = 0; i < 8; i++) {
		fd[i] = scratch_file();
		submit_write(dev, fd[i], i, 0, &d[i]);
	}
	pthread_create(&thread, NULL, wait_for_congestion, &w);
	settle();
	/* Two complete: 6 in flight, not below the mark. */
	atomic_store(&fake_now, 2 * XFER_64K_NS + LATENCY_NS);
	cr_assert(wait_done(&d[1]));
	settle();
	cr_expect_not(atomic_load(&w.returned), "woken at 7 or 6 requests in flight");
	/* The third takes the queue to 5. */
	atomic_store(&fake_now, 3 * XFER_64K_NS + LATENCY_NS);
	cr_assert(wait_done(&d[2]));
	pthread_join(thread, NULL);
	cr_expect(w.woken, "the wait timed out instead of being woken");
	atomic_store(&fake_now, UINT64_MAX / 2);
	for (int i = 0; i < 8; i++) {
		cr_assert(wait_done(&d[i]));
		close(fd[i]);
	}
	blkdev_destroy(dev);
}

/*
 * A direct device keeps no modelled time: with the engine clock standing still its requests
 * still complete, when their real I/O ends.  A piece O_DIRECT cannot take (here at an
 * unaligned address) goes through the buffered descriptor, and the data is the same.
 */
Test(blkdev, a_direct_device_completes_when_the_io_ends)
{
	struct blkdev_params p = {.direct = true, .nr_requests = 4, .max_kb = 512};
	char path[] = "/tmp/nodelru-blkdev-XXXXXX";
	int fd = mkstemp(path), dio_fd;
	static char aligned[2][16384] __attribute__((aligned(4096)));
	struct blkdev *dev;
	struct bio *bio;
	size_t done;

	cr_assert_geq(fd, 0);
	unlink(path);
	if (blkdev_open_direct(fd, true, path, &quiet_log, &dio_fd)) {
		close(fd);
		cr_skip_test("no O_DIRECT under /tmp: %s", test_log_last);
	}
	atomic_store(&fake_now, 0);
	cr_assert_eq(blkdev_create(&p, fake_clock, NULL, &quiet_log, &dev), 0);
	memset(aligned[0], 0x3c, sizeof(aligned[0]));
	bio = bio_alloc(2);
	bio->fd = fd;
	bio->dio_fd = dio_fd;
	bio->write = true;
	bio_add(bio, aligned[0], 8192);
	bio_add(bio, aligned[0] + 8192, 1000); /* a partial last page */
	cr_assert_eq(submit_bio_wait(dev, bio, &done), 0);
	cr_expect_eq(done, 8192 + 1000);
	cr_expect_eq(lseek(fd, 0, SEEK_END), 8192 + 1000, "the file grew past the bio");
	bio = bio_alloc(1);
	bio->fd = fd;
	bio->dio_fd = dio_fd;
	bio_add(bio, aligned[1] + 1, 12288); /* unaligned memory: buffered */
	cr_assert_eq(submit_bio_wait(dev, bio, &done), 0);
	cr_expect_eq(done, 8192 + 1000, "a read to the end of the file");
	cr_expect_eq(memcmp(aligned[0], aligned[1] + 1, 8192 + 1000), 0);
	blkdev_destroy(dev);
	close(dio_fd);
	close(fd);
}
