/*
 * filemap_writeback.c - dirty page cache pages and their writeback (Linux 4.8
 * mm/page-writeback.c: set_page_dirty, clear_page_dirty_for_io, write_cache_pages,
 * balance_dirty_pages; vmscan.c's pageout for the file side).  Runs of consecutive dirty
 * pages go out with one pwritev each; a failed write leaves its pages dirty and the error
 * for fsync.  file->lock covers the dirty and writeback transitions; it is dropped for the
 * I/O itself.
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

#include "filemap.h"
#include "filemap_internal.h"
#include "lru.h"
#include "owner.h"
#include "page_writeback.h"
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

	page_clear(page, PG_dirty);
	mod_page_node_state(pgdat, page, NLRU_NR_FILE_DIRTY, -1);
	if (!--file->nr_dirty)
		flusher_file_cleaned(file->eng, &file->dirty_link);
}

#define MAX_RUN 64 /* pages per writeback I/O: 256 KiB */

/* pwritev() until everything is written: 0, or the errno of the call that failed. */
static int pwritev_all(int fd, struct iovec *iov, int cnt, off_t off)
{
	while (cnt > 0) {
		ssize_t n = pwritev(fd, iov, cnt, off);

		if (n < 0)
			return errno;
		if (n == 0)
			return EIO;
		off += n;
		/* A short write: skip what went, and retry the rest to learn why it stopped. */
		cnt = iov_advance(&iov, cnt, (size_t)n);
	}
	return 0;
}

/* Writeback ended for @page: the counters, and the data back to dirty on @err.  Locked. */
static void end_page_writeback(struct nlru_file *file, struct page *page, int err)
{
	struct pglist_data *pgdat = page_pgdat(file->eng, page);

	page_clear(page, PG_writeback);
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
 * Write back, with one pwritev, the pages of @run (consecutive indexes, references held)
 * from the first on that are still dirty and not under writeback.  Returns how many were
 * written in *@done (0: the first was clean or busy), and 0 or -errno; failed pages are
 * dirty again.
 */
static int write_run(struct nlru_file *file, struct page **run, int n, int *done)
{
	struct nlru_engine *eng = file->eng;
	uint64_t off = (uint64_t)run[0]->index << PAGE_SHIFT;
	struct iovec iov[MAX_RUN];
	size_t len = 0;
	int k, err;

	spin_lock(&file->lock);
	for (k = 0; k < n && page_test(run[k], PG_dirty) && !page_test(run[k], PG_writeback); k++) {
		struct pglist_data *pgdat = page_pgdat(eng, run[k]);
		uint64_t pos = off + ((uint64_t)k << PAGE_SHIFT);

		clear_page_dirty_for_io(file, run[k]);
		page_set(run[k], PG_writeback);
		mod_page_node_state(pgdat, run[k], NLRU_NR_WRITEBACK, 1);
		/* Never extend the file past its size with the tail of the last page. */
		iov[k] = (struct iovec){
			address_of(eng, run[k]),
			pos < file->size ? (size_t)MIN((uint64_t)PAGE_SIZE, file->size - pos) : 0};
		len += iov[k].iov_len;
	}
	spin_unlock(&file->lock);
	*done = k;
	if (!k)
		return 0;

	err = fault_injected(&file->inject);
	if (!err)
		err = pwritev_all(file->fd, iov, k, (off_t)off);

	spin_lock(&file->lock);
	for (int i = 0; i < k; i++)
		end_page_writeback(file, run[i], err);
	spin_unlock(&file->lock);
	if (err) {
		log_err(&eng->log,
			"writeback of %s at offset %llu failed: %s; the pages stay dirty",
			file->path, (unsigned long long)off, strerror(err));
		return -err;
	}
	count_vm_events(eng, NLRU_PGPGOUT, len / 1024);
	/* Written for reclaim while on the LRU: to the inactive tail, to be freed soon. */
	for (int i = 0; i < k; i++)
		if (page_test_clear(run[i], PG_reclaim) && page_test(run[i], PG_lru))
			rotate_reclaimable_page(eng, run[i]);
	return 0;
}

/* write_one_page(): one dirty page, synchronously (reclaim's pageout).  Reference held. */
static int write_one_page(struct nlru_file *file, struct page *page)
{
	int done;

	return write_run(file, &page, 1, &done);
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
 * Write back up to @nr dirty pages of the file (all of them for a negative @nr) in file
 * order, runs of consecutive pages in one I/O each.  Returns 0 or the first error, and the
 * pages written in *@written if not NULL.
 */
int writeback_pages(struct nlru_file *file, long nr, long *written)
{
	struct page **pages = NULL;
	long n = collect_dirty(file, nr, &pages), i, ok = 0;
	int err = 0;

	if (n < 0) {
		log_err(&file->eng->log, "writeback of %s: no memory to list its dirty pages",
			file->path);
		if (written)
			*written = 0;
		return (int)n;
	}
	/*
	 * Pages another writer (the flusher, kswapd, a flush) has in flight: a flush of the
	 * whole file (WB_SYNC_ALL) goes round them and comes back for them at the end, so both
	 * write at once, and then waits for them; a partial writeback (WB_SYNC_NONE) leaves them
	 * to that writer.
	 */
	for (int pass = 0; pass < 2 && n; pass++) {
		long deferred = 0;

		for (i = 0; i < n;) {
			long len = 1;
			int done, r;

			if (page_test(pages[i], PG_writeback)) {
				if (nr >= 0) {
					put_page(pages[i++]);
					continue;
				}
				if (pass == 0) {
					pages[deferred++] = pages[i++];
					continue;
				}
				while (page_test(pages[i], PG_writeback))
					sched_yield();
			}
			while (i + len < n && len < MAX_RUN && len < (nr < 0 ? MAX_RUN : nr) &&
			       pages[i + len]->index == pages[i]->index + len)
				len++;
			r = nr != 0 ? write_run(file, pages + i, (int)len, &done) : 0;
			if (nr < 0 && !r && !done && page_test(pages[i], PG_writeback)) {
				/* Another writer took it meanwhile: its write must end first. */
				if (pass == 0)
					pages[deferred++] = pages[i++];
				continue;
			}
			err = err ? err : r;
			ok += nr != 0 && !r ? done : 0;
			/* A page that turned clean or busy ends the run early: go on after it. */
			done = nr != 0 ? MAX(done, 1) : (int)len;
			if (nr > 0)
				nr = MAX(0, nr - done);
			for (long k = i; k < i + done; k++)
				put_page(pages[k]);
			i += done;
		}
		n = deferred;
	}
	free(pages);
	if (written)
		*written = ok;
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

/*
 * balance_dirty_pages(): past the background threshold, start the flusher; past the dirty
 * limit, pause until the flusher brings the engine back under it.  Linux also paces writers
 * between the two thresholds (the dirty ratelimit); the engine lets them run freely there.
 * A writer with no flusher, or whose flusher wrote nothing for MAX_PAUSE_MS (its writes
 * failing), cleans pages of its own file down to the background threshold instead.
 */
static void balance_dirty_pages(struct nlru_file *file)
{
	struct nlru_engine *eng = file->eng;
	unsigned long background, limit, dirty;

	for (;;) {
		uint64_t progress = flusher_running(eng) ? flusher_progress(eng) : 0;

		global_dirty_limits(eng, &background, &limit);
		dirty = global_dirty_pages(eng, true);
		if (dirty <= background)
			return;
		wb_start_background_writeback(eng);
		if (dirty <= limit)
			return;
		if (!flusher_running(eng) || !flusher_wait_written(eng, progress, MAX_PAUSE_MS))
			break;
	}
	writeback_pages(file, (long)(dirty - background), NULL);
}

/*
 * balance_dirty_pages_ratelimited(): a writer looks at the dirty limits once per
 * RATELIMIT_PAGES pages it dirties, not on every page (Linux: a task's nr_dirtied_pause,
 * 32 pages to begin with), so it may pass a limit by that much before it pauses.
 */
#define RATELIMIT_PAGES 32
static _Thread_local unsigned long dirtied_since_check;

void balance_dirty_pages_ratelimited(struct nlru_file *file, unsigned long pages)
{
	dirtied_since_check += pages;
	if (dirtied_since_check < RATELIMIT_PAGES)
		return;
	dirtied_since_check = 0;
	balance_dirty_pages(file);
}

int filemap_pageout(struct nlru_engine *eng, struct page *page)
{
	struct nlru_file *file = (struct nlru_file *)owner_lookup(eng->owners, page->mapping);

	return write_one_page(file, page);
}
