/*
 * filemap_writeback.c - dirty page cache pages and their writeback (Linux 4.8
 * mm/page-writeback.c: set_page_dirty, clear_page_dirty_for_io, write_cache_pages,
 * balance_dirty_pages; vmscan.c's pageout for the file side).  Runs of consecutive dirty
 * pages go out as one write each to the engine's block device (blkdev.h), under writeback
 * until it ends (end_write); a failed write leaves its pages dirty and the error for fsync.
 * file->lock covers the dirty and writeback transitions; it is dropped for the I/O itself.
 *
 * Dirty pages are written back by the flusher (flusher.c) in the background, by fsync, flush
 * and close, and by kswapd for the dirty pages reclaim meets once their lruvec is marked dirty
 * (PGDAT_DIRTY in 4.8, ZONE_DIRTY in 4.7).  A writer past the dirty limit pauses for the
 * flusher; without one (the flusher tunable at 0) it writes back pages of its own file.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "blkdev.h"
#include "filemap.h"
#include "filemap_internal.h"
#include "lru.h"
#include "owner.h"
#include "page_alloc.h"
#include "page_writeback.h"
#include "pagewait.h"
#include "vmstat.h"

void filemap_inject_write_errors(struct nlru_file *file, int err, int count)
{
	fault_inject_set(&file->inject, err, count);
}

/* Dirty accounting (account_page_dirtied / test_clear_page_writeback); file locked. */
static void account_dirtied(struct nlru_engine *eng, struct page *page, long nr)
{
	struct pglist_data *pgdat = page_pgdat(eng, page);

	mod_page_node_state(pgdat, page, NLRU_NR_FILE_DIRTY, nr);
	mod_zone_page_state(page_zone(pgdat, page), NLRU_NR_ZONE_WRITE_PENDING, nr);
	if (nr > 0)
		mod_page_node_state(pgdat, page, NLRU_NR_DIRTIED, nr);
}

/* Set PG_dirty (set_page_dirty, __mark_inode_dirty for the first); file locked. */
void set_page_dirty(struct nlru_file *file, struct page *page)
{
	CHECK_FULL(&file->eng->log, witness_holds(LOCK_FILE));
	if (!page_test(page, PG_dirty)) {
		page_set(page, PG_dirty);
		account_dirtied(file->eng, page, 1);
		if (!file->nr_dirty++)
			flusher_file_dirtied(file->eng, &file->dirty_link);
	}
}

/* Clear PG_dirty for writeback (clear_page_dirty_for_io); file locked. */
static void clear_page_dirty_for_io(struct nlru_file *file, struct page *page)
{
	struct pglist_data *pgdat = page_pgdat(file->eng, page);

	CHECK_CHEAP(&file->eng->log, page_test(page, PG_dirty) && file->nr_dirty > 0);
	CHECK_FULL(&file->eng->log, witness_holds(LOCK_FILE));
	page_clear(page, PG_dirty);
	mod_page_node_state(pgdat, page, NLRU_NR_FILE_DIRTY, -1);
	if (!--file->nr_dirty)
		flusher_file_cleaned(file->eng, &file->dirty_link);
}

/*
 * Give up on @page's data: clean it without writing it (discard_dirty_pages); file locked and
 * nothing of the file in flight.  Linux's end_page_writeback() after a failed write, with
 * the error recorded in the mapping, leaves a page the same way: clean and uptodate.
 */
void discard_dirty_page(struct nlru_file *file, struct page *page)
{
	CHECK_CHEAP(&file->eng->log, page_test(page, PG_dirty) && !page_test(page, PG_writeback));
	CHECK_FULL(&file->eng->log, witness_holds(LOCK_FILE));
	page_clear(page, PG_dirty);
	account_dirtied(file->eng, page, -1);
	if (!--file->nr_dirty)
		flusher_file_cleaned(file->eng, &file->dirty_link);
}

#define MAX_RUN 64 /* pages per writeback I/O: 256 KiB */

/* Writeback ended for @page: the counters, and the data back to dirty on @err.  Locked. */
static void end_page_writeback(struct nlru_file *file, struct page *page, int err)
{
	struct pglist_data *pgdat = page_pgdat(file->eng, page);

	CHECK_CHEAP(&file->eng->log, page_test(page, PG_writeback));
	CHECK_FULL(&file->eng->log, witness_holds(LOCK_FILE));
	clear_bit_unlock_wake(page, PG_writeback); /* fsync may sleep on it */
	mod_page_node_state(pgdat, page, NLRU_NR_WRITEBACK, -1);
	mod_zone_page_state(page_zone(pgdat, page), NLRU_NR_ZONE_WRITE_PENDING, -1);
	if (err) {
		/* Keep the data: dirty again (unless a writer got there first), not counted as
		 * newly dirtied (account_page_redirty); the error waits for fsync or close. */
		if (!page_test(page, PG_dirty)) {
			set_page_dirty(file, page);
			mod_page_node_state(pgdat, page, NLRU_NR_DIRTIED, -1);
		}
		if (!file->wb_err)
			file->wb_err = err;
	} else {
		mod_page_node_state(pgdat, page, NLRU_NR_WRITTEN, 1);
	}
}

/*
 * end_io of a writeback write: each page's end_page_writeback(), and pages written for
 * reclaim while on the LRU to the inactive tail, to be freed soon (rotate_reclaimable_page).
 * A failed write leaves its pages dirty and the error for fsync or close.
 */
static void end_write(struct bio *bio)
{
	struct nlru_file *file = bio->owner;
	struct nlru_engine *eng = file->eng;
	struct page *pages[MAX_RUN];
	int n = bio->nr_vecs;

	for (int i = 0; i < n; i++)
		pages[i] = virt_to_page(eng, bio->vecs[i].iov_base);
	spin_lock(&file->lock);
	for (int i = 0; i < n; i++)
		end_page_writeback(file, pages[i], bio->err);
	if (bio->err)
		file->wb_last_err = bio->err;
	file->wb_failing = bio->err;
	spin_unlock(&file->lock);
	if (bio->err) {
		__atomic_add_fetch(&file->wb_errors, 1, __ATOMIC_RELEASE);
		log_err_ratelimited(
			&eng->log, &eng->write_errors,
			"writeback of %s at offset %llu failed: %s; the pages stay dirty",
			file->path, (unsigned long long)bio->pos, strerror(bio->err));
	} else {
		count_vm_events(eng, NLRU_PGPGOUT, bio->len / 1024);
	}
	for (int i = 0; i < n; i++) {
		if (page_test_clear(pages[i], PG_reclaim) && page_test(pages[i], PG_lru))
			rotate_reclaimable_page(eng, pages[i]);
		put_page(pages[i]);
	}
	/* Ended in another thread: paused writers look again (without a device model the
	 * writer, or the flusher once its chunk is out, tells them). */
	if (eng->blkdev)
		flusher_writeback_ended(eng);
	dec_var_and_wake(&file->inflight);
}

/*
 * Start one write of the pages of @run (consecutive indexes, references held) from the first
 * on that are still dirty and not under writeback, as REQ_SYNC if @sync (fsync, close).
 * Returns how many were submitted in *@done (0: the first was clean or busy), and 0 or
 * -ENOMEM (no request could be had: the pages are dirty again).  The write ends in
 * end_write(), at once without the block device model.
 */
static int write_run(struct nlru_file *file, struct page **run, int n, int *done, bool sync)
{
	struct nlru_engine *eng = file->eng;
	uint64_t off = (uint64_t)run[0]->index << PAGE_SHIFT;
	struct bio *bio = bio_alloc(n);
	int k;

	spin_lock(&file->lock);
	for (k = 0; bio && k < n && page_test(run[k], PG_dirty) && !page_test(run[k], PG_writeback);
	     k++) {
		struct pglist_data *pgdat = page_pgdat(eng, run[k]);
		uint64_t pos = off + ((uint64_t)k << PAGE_SHIFT);

		clear_page_dirty_for_io(file, run[k]);
		page_set(run[k], PG_writeback);
		mod_page_node_state(pgdat, run[k], NLRU_NR_WRITEBACK, 1);
		get_page(run[k]); /* the write's */
		/* Never extend the file past its size with the tail of the last page. */
		bio_add(bio, address_of(eng, run[k]),
			pos < file->size ? (size_t)MIN((uint64_t)PAGE_SIZE, file->size - pos) : 0);
	}
	spin_unlock(&file->lock);
	*done = k;
	if (!bio) {
		log_err(&eng->log, "writeback of %s: no memory for the request", file->path);
		return -ENOMEM;
	}
	if (!k) {
		free(bio);
		return 0;
	}
	bio->fd = file->fd;
	bio->dio_fd = file->dio_fd;
	bio->write = true;
	bio->sync = sync;
	bio->pos = off;
	bio->err = fault_injected(&file->inject);
	bio->end_io = end_write;
	bio->owner = file;
	__atomic_add_fetch(&file->inflight, 1, __ATOMIC_RELAXED);
	submit_bio(eng->blkdev, bio);
	return 0;
}

/* write_one_page(): start the write of one dirty page (reclaim's pageout).  Reference held. */
static int write_one_page(struct nlru_file *file, struct page *page)
{
	int done;

	return write_run(file, &page, 1, &done, false);
}

/* Add a referenced @page to the growing list *@pages of *@n; false if it cannot grow. */
static bool list_page(struct page ***pages, long *n, long *cap, struct page *page)
{
	if (*n == *cap) {
		long grown_cap = *cap ? 2 * *cap : 256;
		struct page **grown = realloc(*pages, sizeof(**pages) * (size_t)grown_cap);

		if (!grown)
			return false;
		*pages = grown;
		*cap = grown_cap;
	}
	get_page(page);
	(*pages)[(*n)++] = page;
	return true;
}

/*
 * The pages a writeback is to write, referenced, in *@out (malloc'ed), in file order:
 *  - @nr >= 0 (WB_SYNC_NONE, range_cyclic): up to @nr dirty pages from wb_index on, wrapping
 *    round to the start of the file, and wb_index moved past the last;
 *  - @nr < 0 (WB_SYNC_ALL): every dirty page and every page in flight, to be waited for.
 * Returns the count, or -ENOMEM (nothing referenced) when the list cannot be had.  The lock
 * is dropped between batches, so that readers and writers are not held up by a walk of a
 * whole index; the walk resumes at the offset where it stopped.
 */
static long collect_dirty(struct nlru_file *file, long nr, struct page ***out)
{
	uint32_t keys[WALK_BATCH], start, cursor;
	uint64_t values[WALK_BATCH];
	bool cyclic = nr >= 0, wrapped = false;
	struct page **pages = NULL;
	long n = 0, cap = 0;

	spin_lock(&file->lock);
	start = cursor = cyclic ? file->wb_index : 0;
	nr = cyclic ? MIN(nr, file->nr_dirty) : LONG_MAX;
	while (n < nr) {
		uint32_t got = pageindex_walk(&file->idx, &cursor, keys, values, WALK_BATCH);

		for (uint32_t i = 0; i < got && n < nr; i++) {
			struct page *page;

			if (wrapped && keys[i] >= start) {
				nr = n; /* round the whole file */
				break;
			}
			if ((values[i] & SLOT_TAG_MASK) != SLOT_PAGE)
				continue;
			page = slot_page(file->eng, values[i]);
			if (!page_test(page, PG_dirty) &&
			    (cyclic || !page_test(page, PG_writeback)))
				continue;
			if (!list_page(&pages, &n, &cap, page)) {
				/* A flush that skipped pages would report them written. */
				spin_unlock(&file->lock);
				while (n)
					put_page(pages[--n]);
				free(pages);
				*out = NULL;
				return -ENOMEM;
			}
			if (cyclic)
				file->wb_index = keys[i] + 1;
		}
		if (!cursor && (!cyclic || wrapped || !start))
			break;
		wrapped |= !cursor;
		spin_unlock(&file->lock);
		spin_lock(&file->lock);
	}
	spin_unlock(&file->lock);
	*out = pages;
	return n;
}

/*
 * Submit, in runs of consecutive pages, those of @pages[0..@n) (file order, referenced) that
 * are dirty and not under writeback, up to @budget of them (all for a negative @budget).
 * Returns how many were submitted.
 */
static long submit_runs(struct nlru_file *file, struct page **pages, long n, long budget, bool sync)
{
	long i = 0, submitted = 0;

	while (i < n && budget != 0) {
		long len = 1;
		int done;

		if (page_test(pages[i], PG_writeback) || !page_test(pages[i], PG_dirty)) {
			i++;
			continue;
		}
		while (i + len < n && len < MAX_RUN && (budget < 0 || len < budget) &&
		       pages[i + len]->index == pages[i]->index + len)
			len++;
		if (write_run(file, pages + i, (int)len, &done, sync))
			break;
		submitted += done;
		if (budget > 0)
			budget = MAX(0, budget - done);
		/* A page that turned clean or busy ends the run early: go on after it. */
		i += MAX(done, 1);
	}
	return submitted;
}

/*
 * Move the pages under writeback now (another writer's) to the front of @pages, keeping file
 * order within each part; returns how many.
 */
static long others_in_flight(struct page **pages, long n)
{
	long busy = 0;

	for (long i = 0; i < n; i++) {
		struct page *page = pages[i];

		if (!page_test(page, PG_writeback))
			continue;
		memmove(pages + busy + 1, pages + busy, sizeof(*pages) * (size_t)(i - busy));
		pages[busy++] = page;
	}
	return busy;
}

static void wait_on_writeback(struct page **pages, long n)
{
	for (long i = 0; i < n; i++)
		wait_on_page_writeback(pages[i]);
}

/*
 * Write back up to @nr dirty pages of the file (WB_SYNC_NONE), or for a negative @nr all of
 * them and wait for the writes to end (WB_SYNC_ALL, filemap_write_and_wait).  Returns 0, or
 * the error of a write that failed meanwhile (known at once without the block device model,
 * and to a WB_SYNC_ALL caller always), and the pages submitted in *@written if not NULL.
 */
int writeback_pages(struct nlru_file *file, long nr, long *written)
{
	uint32_t errors = __atomic_load_n(&file->wb_errors, __ATOMIC_ACQUIRE);
	struct page **pages = NULL;
	long n = collect_dirty(file, nr, &pages), ok;
	int err = 0;

	if (n < 0) {
		log_err(&file->eng->log, "writeback of %s: no memory to list its dirty pages",
			file->path);
		if (written)
			*written = 0;
		return (int)n;
	}
	if (nr >= 0) {
		ok = submit_runs(file, pages, n, nr, false);
	} else {
		/* Pages another writer had in flight, and dirtied again meanwhile, go after it. */
		long busy = others_in_flight(pages, n);

		ok = submit_runs(file, pages + busy, n - busy, -1, true);
		wait_on_writeback(pages, n);
		ok += submit_runs(file, pages, busy, -1, true);
		wait_on_writeback(pages, busy);
	}
	for (long i = 0; i < n; i++)
		put_page(pages[i]);
	free(pages);
	if (written)
		*written = ok;
	if (__atomic_load_n(&file->wb_errors, __ATOMIC_ACQUIRE) != errors) {
		spin_lock(&file->lock);
		err = -file->wb_last_err;
		spin_unlock(&file->lock);
	}
	return err;
}

long filemap_writeback_chunk(struct dirty_link *link, long nr)
{
	struct nlru_file *file =
		(struct nlru_file *)((char *)link - offsetof(struct nlru_file, dirty_link));
	long written = 0;
	int err = writeback_pages(file, nr, &written);

	return written || !err ? written : err;
}

/* The longest a writer over the dirty limit waits for the flusher: MAX_PAUSE, HZ/5. */
#define MAX_PAUSE_MS 200
/* Pages a writer dirties between two looks at the dirty limits: see below. */
#define RATELIMIT_PAGES 32

/*
 * A file's share of the dirty limit: half of it.  Linux gives each backing device a share of
 * the limit in proportion to the writes it completed lately (wb_dirty_limits, __wb_calc_thresh),
 * so a device that completes none, a full or failing disk, soon has almost none; the engine's
 * files share one block device, and a file whose writes fail is held to a fixed share instead,
 * so that the other half of the limit stays for files whose writes go through.
 */
static unsigned long file_dirty_share(struct nlru_engine *eng)
{
	unsigned long background, limit;

	global_dirty_limits(eng, &background, &limit);
	return limit / 2;
}

/* The file's latest write failed and it holds more than its share of dirty pages: the errno. */
static int over_share_and_failing(struct nlru_file *file)
{
	unsigned long share = file_dirty_share(file->eng);
	int err;

	spin_lock(&file->lock);
	err = file->nr_dirty > 0 && (unsigned long)file->nr_dirty > share ? file->wb_failing : 0;
	spin_unlock(&file->lock);
	return err;
}

/*
 * May a writer dirty more pages of @file?  Not while the file's writes fail (a full disk, a
 * file past the file system's limit, a bad sector) and it already holds more than its share
 * of the dirty limit: its pages can be neither written nor freed, and more of them would take
 * the memory every other user of the engine needs.  The writer tries a write of its own pages
 * first, and gets the error that write met (-ENOSPC, -EIO, ...) if it failed again, as a
 * writer to a full disk in Linux gets it from write().  Returns 0 or that -errno.
 */
int dirty_share_error(struct nlru_file *file)
{
	if (!over_share_and_failing(file))
		return 0;
	writeback_pages(file, RATELIMIT_PAGES, NULL);
	return -over_share_and_failing(file);
}

/*
 * balance_dirty_pages(): past the background threshold, start the flusher; past the dirty
 * limit, pause until the flusher brings the engine back under it.  Linux also paces writers
 * between the two thresholds (the dirty ratelimit); the engine lets them run freely there.
 * A writer with no flusher, or whose flusher wrote nothing for MAX_PAUSE_MS (its writes
 * failing), cleans pages of its own file down to the background threshold instead; if those
 * writes fail too and the file is over its share of the limit, the writer gets their error
 * (dirty_share_error()), not leave to go on dirtying pages that cannot be cleaned.
 */
static int balance_dirty_pages(struct nlru_file *file)
{
	struct nlru_engine *eng = file->eng;
	unsigned long background, limit, dirty;

	for (;;) {
		uint64_t progress = flusher_running(eng) ? flusher_progress(eng) : 0;

		global_dirty_limits(eng, &background, &limit);
		dirty = global_dirty_pages(eng, true);
		if (dirty <= background)
			return 0;
		wb_start_background_writeback(eng);
		if (dirty <= limit)
			return 0;
		if (!flusher_running(eng) || !flusher_wait_written(eng, progress, MAX_PAUSE_MS))
			break;
	}
	writeback_pages(file, (long)(dirty - background), NULL);
	return -over_share_and_failing(file);
}

/*
 * balance_dirty_pages_ratelimited(): a writer looks at the dirty limits once per
 * RATELIMIT_PAGES pages it dirties, not on every page (Linux: a task's nr_dirtied_pause,
 * 32 pages to begin with), so it may pass a limit by that much before it pauses.  Returns 0,
 * or the error of the file's failing writes when the writer is to stop (balance_dirty_pages).
 */
static _Thread_local unsigned long dirtied_since_check;

int balance_dirty_pages_ratelimited(struct nlru_file *file, unsigned long pages)
{
	dirtied_since_check += pages;
	if (dirtied_since_check < RATELIMIT_PAGES)
		return 0;
	dirtied_since_check = 0;
	return balance_dirty_pages(file);
}

int filemap_pageout(struct nlru_engine *eng, struct page *page)
{
	struct nlru_file *file = (struct nlru_file *)owner_lookup(eng->owners, page->mapping);

	if (!CHECK_CHEAP(&eng->log, file && file->owner.type == OWNER_FILE))
		return -EIO;
	/* pageout(): to the inactive tail when the write ends, unless it ended already. */
	page_set(page, PG_reclaim);
	return write_one_page(file, page);
}
