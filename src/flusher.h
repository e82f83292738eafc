/*
 * The flusher: background writeback of dirty page cache pages (Linux 4.8 fs/fs-writeback.c,
 * one per-device writeback worker, wb_workfn).  It keeps the list of files with dirty pages,
 * oldest dirtied first, and writes them back in chunks for three reasons, as Linux does:
 *   background  the engine is over its dirty background threshold (balance_dirty_pages woke it)
 *   vmscan      reclaim scanned without reclaiming enough (wakeup_flusher_threads)
 *   kupdate     every dirty_writeback_centisecs, files dirty for longer than
 *               dirty_expire_centisecs
 * Writers over the dirty limit pause until the flusher has written a chunk.
 */
#ifndef NODELRU_FLUSHER_H
#define NODELRU_FLUSHER_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "mutex.h"
#include "spinlock.h"

struct nlru_engine;

/* A file on the dirty list (an inode on wb->b_dirty), embedded in the file. */
struct dirty_link {
	struct dirty_link *prev, *next; /* NULL when not on the list */
	uint64_t dirtied_when;          /* engine ns when the file went from clean to dirty */
};

struct flusher {
	struct spinlock list_lock; /* protects the list; taken under a file's lock */
	struct dirty_link dirty;   /* list head */
	long nr_dirty_files;
	struct mutex lock;      /* protects what follows */
	pthread_cond_t wake;    /* work arrived, or stop */
	pthread_cond_t written; /* a chunk went out: paused writers look again */
	pthread_t thread;
	bool started, stop;
	bool background;            /* wb_start_background_writeback() pending */
	unsigned long vmscan_pages; /* pages reclaim asked for, not yet written */
	uint64_t chunks_written;    /* what a paused writer waits to see move */
};

void flusher_init(struct flusher *flusher, const struct nlru_log *log);
void flusher_destroy(struct flusher *flusher);

/* The thread, if the flusher tunable asks for it (engine creation and destruction). */
int flusher_start(struct nlru_engine *eng);
void flusher_stop(struct nlru_engine *eng);

/* The file's first page became dirty / it has no dirty page left, or closes.  File locked. */
void flusher_file_dirtied(struct nlru_engine *eng, struct dirty_link *link);
void flusher_file_cleaned(struct nlru_engine *eng, struct dirty_link *link);

/* balance_dirty_pages(): over the background threshold.  A no-op without the thread. */
void wb_start_background_writeback(struct nlru_engine *eng);

/* Reclaim: write about @nr_pages of the oldest dirty pages.  A no-op without the thread. */
void wakeup_flusher_threads(struct nlru_engine *eng, unsigned long nr_pages);

/* A write of dirty pages ended (no lock held): writers paused at the dirty limit look again. */
void flusher_writeback_ended(struct nlru_engine *eng);

/* Is the thread there to clean pages for a paused writer? */
bool flusher_running(struct nlru_engine *eng);

/*
 * A writer over the dirty limit: flusher_progress() before it reads the dirty count, then
 * flusher_wait_written() with that value pauses until a chunk has been written since, or for
 * at most @ms.  True if a chunk was written.
 */
uint64_t flusher_progress(struct nlru_engine *eng);
bool flusher_wait_written(struct nlru_engine *eng, uint64_t seen, long ms);

#endif /* NODELRU_FLUSHER_H */
