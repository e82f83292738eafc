/*
 * flusher.c - background writeback (Linux 4.8 fs/fs-writeback.c: wb_workfn, wb_do_writeback,
 * wb_check_background_flush, wb_check_old_data_flush, wakeup_flusher_threads).
 *
 * One thread per engine, as one device's worker: every file of the engine is on it.  Work is
 * done in chunks of MAX_WRITEBACK_PAGES from the head of the dirty list; the file written is
 * moved to the tail first, so files take turns (Linux's requeue_io).  The list is walked with
 * the owner table read-locked, which keeps its files from being closed under the flusher.
 */
#include <errno.h>
#include <string.h>
#include <time.h>

#include "engine.h"
#include "filemap.h"
#include "flusher.h"
#include "kthread.h"
#include "owner.h"
#include "page_writeback.h"

#define MAX_WRITEBACK_PAGES 1024 /* 4 MiB a chunk, as Linux */
#define NSEC_PER_CENTISEC 10000000ull

void flusher_init(struct flusher *flusher, const struct nlru_log *log)
{
	pthread_condattr_t attr;

	spin_lock_init(&flusher->list_lock, LOCK_FLUSHER_LIST, log);
	flusher->dirty.prev = flusher->dirty.next = &flusher->dirty;
	mutex_init(&flusher->lock, LOCK_FLUSHER, log);
	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&flusher->wake, &attr);
	pthread_cond_init(&flusher->written, &attr);
	pthread_condattr_destroy(&attr);
}

void flusher_destroy(struct flusher *flusher)
{
	pthread_cond_destroy(&flusher->written);
	pthread_cond_destroy(&flusher->wake);
	mutex_destroy(&flusher->lock);
}

static void list_del(struct dirty_link *link)
{
	link->prev->next = link->next;
	link->next->prev = link->prev;
	link->prev = link->next = NULL;
}

static void list_add_tail(struct flusher *flusher, struct dirty_link *link)
{
	link->prev = flusher->dirty.prev;
	link->next = &flusher->dirty;
	flusher->dirty.prev->next = link;
	flusher->dirty.prev = link;
}

void flusher_file_dirtied(struct nlru_engine *eng, struct dirty_link *link)
{
	struct flusher *flusher = eng->flusher;

	spin_lock(&flusher->list_lock);
	if (!link->next) {
		link->dirtied_when = engine_now_ns(eng);
		list_add_tail(flusher, link);
		flusher->nr_dirty_files++;
	}
	spin_unlock(&flusher->list_lock);
}

void flusher_file_cleaned(struct nlru_engine *eng, struct dirty_link *link)
{
	struct flusher *flusher = eng->flusher;

	spin_lock(&flusher->list_lock);
	if (link->next) {
		list_del(link);
		flusher->nr_dirty_files--;
	}
	spin_unlock(&flusher->list_lock);
}

/*
 * The first file on the list dirtied at or before @dirtied_before, moved to the tail so the
 * next chunk goes to another file.  NULL if there is none.  Owners read-locked.
 */
static struct dirty_link *next_file(struct flusher *flusher, uint64_t dirtied_before)
{
	struct dirty_link *link;

	spin_lock(&flusher->list_lock);
	for (link = flusher->dirty.next; link != &flusher->dirty; link = link->next)
		if (link->dirtied_when <= dirtied_before)
			break;
	if (link == &flusher->dirty) {
		link = NULL;
	} else {
		list_del(link);
		list_add_tail(flusher, link);
	}
	spin_unlock(&flusher->list_lock);
	return link;
}

static long dirty_files(struct flusher *flusher)
{
	long n;

	spin_lock(&flusher->list_lock);
	n = flusher->nr_dirty_files;
	spin_unlock(&flusher->list_lock);
	return n;
}

/* A chunk went out: wake the writers paused over the dirty limit. */
static void chunk_written(struct flusher *flusher)
{
	mutex_lock(&flusher->lock);
	flusher->chunks_written++;
	pthread_cond_broadcast(&flusher->written);
	mutex_unlock(&flusher->lock);
}

enum wb_reason { WB_REASON_BACKGROUND, WB_REASON_VMSCAN, WB_REASON_PERIODIC };

/*
 * wb_writeback(): chunks from the oldest dirty file on, until @nr_pages are written (a
 * negative @nr_pages: no limit), no file dirtied at or before @dirtied_before is left, or,
 * for background work, the engine is back under its background threshold.  A round of files
 * that all fail to write ends it too: their pages stay dirty, for the next try.  Returns the
 * pages written.
 */
static long wb_writeback(struct nlru_engine *eng, enum wb_reason reason, long nr_pages,
			 uint64_t dirtied_before)
{
	struct flusher *flusher = eng->flusher;
	long written = 0, failed = 0;

	while (nr_pages) {
		long chunk =
			nr_pages < 0 ? MAX_WRITEBACK_PAGES : MIN(nr_pages, MAX_WRITEBACK_PAGES);
		struct dirty_link *link;
		long n = 0;

		if (reason == WB_REASON_BACKGROUND && !over_bground_thresh(eng))
			break;
		rwlock_rdlock(&eng->owners->lock);
		link = next_file(flusher, dirtied_before);
		if (link)
			n = filemap_writeback_chunk(link, chunk);
		rwlock_unlock(&eng->owners->lock);
		if (!link)
			break;
		if (n <= 0) {
			if (++failed >= dirty_files(flusher))
				break;
			continue;
		}
		failed = 0;
		written += n;
		if (nr_pages > 0)
			nr_pages = MAX(0, nr_pages - n);
		chunk_written(flusher);
	}
	return written;
}

/*
 * wb_check_old_data_flush(): files dirty for longer than dirty_expire_centisecs.  At most as
 * many pages as were dirty when it started: a file that a writer keeps dirty stays old, and
 * the pass must end all the same.
 */
static long write_expired(struct nlru_engine *eng)
{
	uint64_t expire = (uint64_t)tunable(eng, dirty_expire_centisecs) * NSEC_PER_CENTISEC;
	uint64_t now = engine_now_ns(eng);
	long dirty = (long)global_dirty_pages(eng, false);

	if (now < expire || !dirty)
		return 0;
	return wb_writeback(eng, WB_REASON_PERIODIC, dirty, now - expire);
}

long nlru_flusher_run(struct nlru_engine *eng)
{
	long dirty;

	if (!eng)
		return -EINVAL;
	/* One pass: no more than was dirty at the start, however fast others dirty pages. */
	dirty = (long)global_dirty_pages(eng, false);
	return (dirty ? wb_writeback(eng, WB_REASON_BACKGROUND, dirty, UINT64_MAX) : 0) +
	       write_expired(eng);
}

/* Until work arrives, stop is asked, or the periodic wakeup is due.  Flusher locked. */
static void flusher_sleep(struct nlru_engine *eng, const struct timespec *last_periodic)
{
	struct flusher *flusher = eng->flusher;
	long interval = tunable(eng, dirty_writeback_centisecs);
	struct timespec deadline =
		timespec_after(*last_periodic, (uint64_t)interval * NSEC_PER_CENTISEC);

	if (!interval) {
		while (!flusher->stop && !flusher->background && !flusher->vmscan_pages)
			pthread_cond_wait(&flusher->wake, &flusher->lock.mutex);
		return;
	}
	while (!flusher->stop && !flusher->background && !flusher->vmscan_pages)
		if (pthread_cond_timedwait(&flusher->wake, &flusher->lock.mutex, &deadline) ==
		    ETIMEDOUT)
			break;
}

static bool periodic_due(const struct nlru_engine *eng, struct timespec *last)
{
	long interval = tunable(eng, dirty_writeback_centisecs);
	struct timespec now;
	int64_t elapsed_cs;

	if (!interval)
		return false;
	clock_gettime(CLOCK_MONOTONIC, &now);
	elapsed_cs = (now.tv_sec - last->tv_sec) * 100 + (now.tv_nsec - last->tv_nsec) / 10000000L;
	if (elapsed_cs < interval)
		return false;
	*last = now;
	return true;
}

/* wb_workfn(): the work that came in, then background and periodic writeback. */
static void *flusher_main(void *arg)
{
	struct nlru_engine *eng = arg;
	struct flusher *flusher = eng->flusher;
	struct timespec last_periodic;

	clock_gettime(CLOCK_MONOTONIC, &last_periodic);
	mutex_lock(&flusher->lock);
	while (!flusher->stop) {
		unsigned long vmscan_pages;

		flusher_sleep(eng, &last_periodic);
		if (flusher->stop)
			break;
		vmscan_pages = flusher->vmscan_pages;
		flusher->vmscan_pages = 0;
		flusher->background = false;
		mutex_unlock(&flusher->lock);

		if (vmscan_pages)
			wb_writeback(eng, WB_REASON_VMSCAN, (long)vmscan_pages, UINT64_MAX);
		wb_writeback(eng, WB_REASON_BACKGROUND, -1, UINT64_MAX);
		if (periodic_due(eng, &last_periodic))
			write_expired(eng);

		mutex_lock(&flusher->lock);
	}
	mutex_unlock(&flusher->lock);
	return NULL;
}

int flusher_start(struct nlru_engine *eng)
{
	int r;

	if (!eng->cfg.flusher)
		return 0;
	r = kthread_run(&eng->flusher->thread, flusher_main, eng, "nlru-flusher");
	if (r) {
		log_err(&eng->log, "cannot start the flusher thread: %s", strerror(r));
		return -r;
	}
	eng->flusher->started = true;
	return 0;
}

void flusher_stop(struct nlru_engine *eng)
{
	struct flusher *flusher = eng->flusher;

	if (!flusher->started)
		return;
	mutex_lock(&flusher->lock);
	flusher->stop = true;
	pthread_cond_signal(&flusher->wake);
	mutex_unlock(&flusher->lock);
	pthread_join(flusher->thread, NULL);
	flusher->started = false;
}

bool flusher_running(struct nlru_engine *eng)
{
	return eng->flusher->started;
}

void wb_start_background_writeback(struct nlru_engine *eng)
{
	struct flusher *flusher = eng->flusher;

	if (!flusher->started)
		return;
	mutex_lock(&flusher->lock);
	if (!flusher->background) {
		flusher->background = true;
		pthread_cond_signal(&flusher->wake);
	}
	mutex_unlock(&flusher->lock);
}

void wakeup_flusher_threads(struct nlru_engine *eng, unsigned long nr_pages)
{
	struct flusher *flusher = eng->flusher;

	if (!flusher->started)
		return;
	mutex_lock(&flusher->lock);
	flusher->vmscan_pages += nr_pages;
	pthread_cond_signal(&flusher->wake);
	mutex_unlock(&flusher->lock);
}

void flusher_writeback_ended(struct nlru_engine *eng)
{
	chunk_written(eng->flusher);
}

uint64_t flusher_progress(struct nlru_engine *eng)
{
	uint64_t chunks;

	mutex_lock(&eng->flusher->lock);
	chunks = eng->flusher->chunks_written;
	mutex_unlock(&eng->flusher->lock);
	return chunks;
}

bool flusher_wait_written(struct nlru_engine *eng, uint64_t seen, long ms)
{
	struct flusher *flusher = eng->flusher;
	struct timespec deadline = monotonic_after((uint64_t)ms * 1000000ull);
	bool moved;

	mutex_lock(&flusher->lock);
	while (flusher->chunks_written == seen && !flusher->stop)
		if (pthread_cond_timedwait(&flusher->written, &flusher->lock.mutex, &deadline) ==
		    ETIMEDOUT)
			break;
	moved = flusher->chunks_written != seen;
	mutex_unlock(&flusher->lock);
	return moved;
}
