/*
 * filemap_read.c - reads through the page cache and readahead (Linux 4.8 mm/filemap.c's
 * read side: do_generic_file_read, find_get_pages_contig, lock_page for a page in flight;
 * mm/readahead.c: __do_page_cache_readahead, read_pages): nlru_file_pread, the lookups that
 * pins and partial writes use (get_cache_page), and the run of cached pages copy_range reads
 * from (get_read_pages).
 *
 * Locking: the lookups hold file->lock, and take a reference on each page they hand out, so
 * reclaim leaves it alone while it is copied.  A miss puts its new pages in the index locked
 * (PG_locked) and not uptodate, drops file->lock and submits one read for them to the
 * engine's block device; the read's end marks them uptodate and unlocks them.  Whoever finds
 * a page that is not uptodate takes its page lock, so sleeps until the read in flight ends,
 * and reads it again if that read failed.  With the block device model the reader waits only
 * for the pages it needs, not for the rest of the window.
 *
 * Readahead, simplified from Linux's state machine (ondemand_readahead): a reader that asks
 * for the page after the last one it got (file->ra_next) gets a window of READAHEAD_PAGES,
 * anyone else the one page; the first page of a window's second half is marked PG_readahead,
 * and a reader reaching it submits the next window without waiting for it, so a sequential
 * reader keeps the device busy (page_cache_async_readahead).  Nothing is read past the end of
 * the file or the last page a file can have; pages past the end read as zeroes.
 */
#include <errno.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "blkdev.h"
#include "filemap.h"
#include "filemap_internal.h"
#include "lru.h"
#include "page_alloc.h"
#include "pagewait.h"
#include "vmstat.h"

#define READAHEAD_PAGES 32 /* VM_MAX_READAHEAD, 128 KiB */

void filemap_inject_read_errors(struct nlru_file *file, int err, int count)
{
	fault_inject_set(&file->inject_read, err, count);
}

void filemap_set_read_hook(struct nlru_file *file, void (*hook)(void *arg), void *arg)
{
	file->read_hook_arg = arg;
	file->read_hook = hook;
}

/* The bytes of page @i a read of @done bytes filled: the rest of the page is zeroed. */
static size_t page_share(size_t done, int i)
{
	size_t at = (size_t)i * PAGE_SIZE;

	return done > at ? MIN(done - at, (size_t)PAGE_SIZE) : 0;
}

/* Its read filled @page with @have bytes: zero the rest and publish it. */
static void page_read_done(struct nlru_engine *eng, struct page *page, size_t have)
{
	memset((char *)address_of(eng, page) + have, 0, PAGE_SIZE - have);
	set_page_uptodate(page);
}

/*
 * end_io of a read (mpage_end_io): its pages uptodate, or left not uptodate with the error
 * logged for the next reader to read again; unlocked, and the read's references dropped.
 */
static void end_read(struct bio *bio)
{
	struct nlru_file *file = bio->owner;
	struct nlru_engine *eng = file->eng;

	if (bio->err)
		log_err_ratelimited(&eng->log, &eng->read_errors, "read of %s failed: %s",
				    file->path, strerror(bio->err));
	else
		count_vm_events(eng, NLRU_PGPGIN, bio->done / 1024);
	if (file->read_hook)
		file->read_hook(file->read_hook_arg);
	for (int i = 0; i < bio->nr_vecs; i++) {
		struct page *page = virt_to_page(eng, bio->vecs[i].iov_base);

		if (!bio->err)
			page_read_done(eng, page, page_share(bio->done, i));
		__unlock_page(page);
		put_page(page);
	}
	dec_var_and_wake(&file->inflight);
}

/* A bio reading @n pages of the file from page @first on into @pages; NULL without memory. */
static struct bio *read_bio(struct nlru_file *file, uint32_t first, struct page **pages, int n)
{
	struct bio *bio = bio_alloc(n);

	if (!bio)
		return NULL;
	bio->fd = file->fd;
	bio->dio_fd = file->dio_fd;
	bio->pos = (uint64_t)first << PAGE_SHIFT;
	bio->err = fault_injected(&file->inject_read);
	for (int i = 0; i < n; i++)
		bio_add(bio, address_of(file->eng, pages[i]), PAGE_SIZE);
	return bio;
}

/* Is page @first past the end of the file?  Then there is nothing to read (a file growing). */
static bool past_eof(struct nlru_file *file, uint32_t first)
{
	bool past;

	spin_lock(&file->lock);
	past = ((uint64_t)first << PAGE_SHIFT) >= file->size;
	spin_unlock(&file->lock);
	return past;
}

/*
 * Start the read of @n locked pages of the file from @first on, in the cache already; its
 * end unlocks them and drops one reference each, which the caller gives it.  Pages past the
 * end of the file are zeroed at once.  0, or -ENOMEM with the pages unlocked, not uptodate.
 */
static int submit_read(struct nlru_file *file, uint32_t first, struct page **pages, int n)
{
	struct nlru_engine *eng = file->eng;
	struct bio *bio;

	if (past_eof(file, first)) {
		for (int i = 0; i < n; i++) {
			page_read_done(eng, pages[i], 0);
			__unlock_page(pages[i]);
			put_page(pages[i]);
		}
		return 0;
	}
	bio = read_bio(file, first, pages, n);
	if (!bio) {
		for (int i = 0; i < n; i++) {
			__unlock_page(pages[i]);
			put_page(pages[i]);
		}
		log_err(&eng->log, "read of %s: no memory for the request", file->path);
		return -ENOMEM;
	}
	bio->end_io = end_read;
	bio->owner = file;
	__atomic_add_fetch(&file->inflight, 1, __ATOMIC_RELAXED);
	submit_bio(eng->blkdev, bio);
	return 0;
}

/* Read locked @page again, now, in the caller (a read of it failed before).  0 or -errno. */
static int read_page_sync(struct nlru_file *file, struct page *page)
{
	struct bio *bio;
	size_t done;
	int err;

	if (past_eof(file, page->index)) {
		page_read_done(file->eng, page, 0);
		return 0;
	}
	bio = read_bio(file, page->index, &page, 1);
	if (!bio)
		return -ENOMEM;
	err = submit_bio_wait(file->eng->blkdev, bio, &done);
	if (err) {
		log_err_ratelimited(&file->eng->log, &file->eng->read_errors,
				    "read of %s failed: %s", file->path, strerror(err));
		return -err;
	}
	count_vm_events(file->eng, NLRU_PGPGIN, done / 1024);
	page_read_done(file->eng, page, page_share(done, 0));
	return 0;
}

/*
 * Read pages [@first, @first + n) of the file into new cache pages (readahead when n > 1),
 * as Linux does: the pages enter the cache locked and not uptodate before the read, so that
 * nobody caches an older copy of them meanwhile, and whoever looks them up waits for the
 * read (lock_page_uptodate()).  The window stops at a page someone else cached first.  A
 * failed read leaves its pages cached, not uptodate, for the next reader to read again.
 * For a writer (@write) only page @first is the one to be written (write_begin's
 * __GFP_WRITE page); the pages read ahead of it are plain readahead.  Returns once the read
 * is submitted: 0 or -errno.
 */
static int read_into_cache(struct nlru_file *file, uint32_t first, int n, bool write)
{
	struct nlru_engine *eng = file->eng;
	struct page *pages[READAHEAD_PAGES];
	bool activate[READAHEAD_PAGES];
	int added, err = 0;

	if (!alloc_cache_pages(file, pages, 1, write))
		return -ENOMEM;
	n = 1 + alloc_cache_pages(file, pages + 1, n - 1, false);
	/* Fresh pages no one else can see yet: locked at once, as one lock for the witness. */
	witness_lock(LOCK_PAGE, &eng->log);
	for (int i = 0; i < n; i++)
		page_set(pages[i], PG_locked);
	spin_lock(&file->lock);
	for (added = 0; added < n; added++) {
		err = add_to_page_cache(file, pages[added], first + (uint32_t)added,
					write && !added, &activate[added]);
		if (err <= 0)
			break;
	}
	if (added >= 4)
		page_set(pages[added / 2], PG_readahead);
	file->ra_end = first + (uint32_t)added;
	spin_unlock(&file->lock);
	for (int i = added; i < n; i++) {
		page_clear(pages[i], PG_locked);
		free_pages_trusted(eng, pages[i], 0);
	}
	/* The page locks pass to the read, which ends in another thread with the model on. */
	witness_unlock(LOCK_PAGE, &eng->log);
	/* Only a first page that found no room in the index is an error; later ones end the
	 * window, as a page cached by someone else does. */
	if (!added)
		return err < 0 ? err : 0;
	for (int i = 0; i < added; i++)
		get_page(pages[i]); /* the read's */
	err = submit_read(file, first, pages, added);
	for (int i = 0; i < added; i++)
		if (activate[i])
			activate_refault(eng, pages[i]);
	lru_cache_add_pages(eng, pages, added);
	for (int i = 0; i < added; i++)
		put_page(pages[i]);
	return err;
}

/*
 * Wait for @page's read if one is in flight, and read it again if it failed (Linux's
 * lock_page() and ->readpage() in filemap_read_page()).  0, or -errno with the page still
 * not uptodate.
 */
static int lock_page_uptodate(struct nlru_file *file, struct page *page)
{
	int err = 0;

	if (page_uptodate(page))
		return 0;
	lock_page(page, &file->eng->log);
	if (!page_test(page, PG_uptodate))
		err = read_page_sync(file, page);
	unlock_page(page, &file->eng->log);
	return err;
}

/*
 * How many pages of up to @n to read from @index on: not past the end of the file, nor past
 * the first page cached already.  File locked.
 */
static int readahead_window(struct nlru_file *file, uint32_t index, int n)
{
	uint64_t pages_in_file = (file->size + PAGE_SIZE - 1) >> PAGE_SHIFT;

	/* Nothing is read ahead past the end of the file: a page there is only zeroes. */
	n = index < pages_in_file ? (int)MIN((uint64_t)n, pages_in_file - index) : 1;
	/* Nor past the last page index a file can have: index + n would wrap to page 0. */
	n = (int)MIN((uint64_t)n, (uint64_t)UINT32_MAX - index + 1);
	/* Stop the window at the first page already cached. */
	for (int i = 1; i < n; i++)
		if ((pageindex_lookup(&file->idx, index + (uint32_t)i) & SLOT_TAG_MASK) ==
		    SLOT_PAGE)
			return i;
	return n;
}

/*
 * page_cache_async_readahead(): a reader reached the marked page of a window while the rest
 * of the window may still be in flight; the next window is submitted without waiting for it.
 * A failure here is only a missed prefetch: the reader reads what it needs itself.
 */
static void async_readahead(struct nlru_file *file, struct page *page)
{
	uint32_t start;
	int n = 0;

	if (!page_test(page, PG_readahead) || !page_test_clear(page, PG_readahead))
		return;
	spin_lock(&file->lock);
	start = file->ra_end;
	if (((uint64_t)start << PAGE_SHIFT) < file->size && start > page->index)
		n = readahead_window(file, start, READAHEAD_PAGES);
	spin_unlock(&file->lock);
	if (n)
		read_into_cache(file, start, n, false);
}

/*
 * find_get_page(): page @index of the file with a reference held, reading it in (and ahead)
 * if needed, for a writer if @write.  NULL and *err on failure.
 */
struct page *get_cache_page(struct nlru_file *file, uint32_t index, bool write, int *err)
{
	for (;;) {
		uint64_t v;
		int n;

		spin_lock(&file->lock);
		v = pageindex_lookup(&file->idx, index);
		if ((v & SLOT_TAG_MASK) == SLOT_PAGE) {
			struct page *page = slot_page(file->eng, v);

			get_page(page);
			file->ra_next = index + 1;
			spin_unlock(&file->lock);
			async_readahead(file, page);
			*err = lock_page_uptodate(file, page);
			if (*err) {
				put_page(page);
				return NULL;
			}
			return page;
		}
		/* A miss in order reads a window (page_cache_sync_readahead), else one page. */
		n = readahead_window(file, index, index == file->ra_next ? READAHEAD_PAGES : 1);
		file->ra_next = index + (uint32_t)n;
		spin_unlock(&file->lock);
		*err = read_into_cache(file, index, n, write);
		if (*err)
			return NULL;
	}
}

/*
 * find_get_pages_contig(): references on up to @max cached pages from @index on, stopping at
 * the first that is not cached.  Returns how many.  File locked.
 */
static int find_get_pages(struct nlru_file *file, uint32_t index, int max, struct page **pages)
{
	int got = 0;

	while (got < max) {
		uint64_t v = pageindex_lookup(&file->idx, index + (uint32_t)got);

		if ((v & SLOT_TAG_MASK) != SLOT_PAGE)
			break;
		pages[got] = slot_page(file->eng, v);
		get_page(pages[got++]);
	}
	return got;
}

/*
 * filemap_get_pages(): references on the cached pages holding the file's bytes from @pos up
 * to @limit (at most COPY_BATCH pages, reading them in, and ahead, when the first is not
 * cached), with the end of what there is to read, the lesser of @limit and the file's size,
 * in *@end.  Returns how many: 0 at the end of the file; fewer than there are, with *@err
 * set, when a page cannot be read.
 */
int get_read_pages(struct nlru_file *file, uint64_t pos, uint64_t limit, struct page **pages,
		   uint64_t *end, int *err)
{
	uint32_t index = (uint32_t)(pos >> PAGE_SHIFT);
	int got = 0;

	spin_lock(&file->lock);
	*end = MIN(limit, file->size);
	if (pos < *end) {
		uint64_t want = ((*end - 1) >> PAGE_SHIFT) - index + 1;

		got = find_get_pages(file, index, (int)MIN(want, (uint64_t)COPY_BATCH), pages);
		if (got)
			file->ra_next = index + (uint32_t)got;
	}
	spin_unlock(&file->lock);
	if (pos >= *end)
		return 0;
	/* Pages whose read is in flight are waited for; one that cannot be read ends the run. */
	for (int i = 0; i < got; i++) {
		async_readahead(file, pages[i]);
		*err = lock_page_uptodate(file, pages[i]);
		if (*err) {
			for (int k = i; k < got; k++)
				put_page(pages[k]);
			return i;
		}
	}
	if (!got) {
		/* Not cached: read it in, and ahead. */
		pages[0] = get_cache_page(file, index, false, err);
		got = pages[0] != NULL;
	}
	return got;
}

/*
 * Done with the pages from get_read_pages() that a read of [@pos, @end) went through.  Each
 * counts as an access, except a page the previous read ended in when this one starts where
 * that one stopped: a sequential reader of small pieces marks each page once, not once per
 * piece, as do_generic_file_read() does with file_ra_state's prev_pos (mm/filemap.c).
 * Readers sharing the handle share the position, as tasks sharing a struct file do.
 */
void put_read_pages(struct nlru_file *file, struct page **pages, int n, uint64_t pos, uint64_t end)
{
	uint64_t prev = __atomic_load_n(&file->ra_prev_pos, __ATOMIC_RELAXED);

	for (int i = 0; i < n; i++) {
		uint64_t index = (pos >> PAGE_SHIFT) + (uint64_t)i;
		uint64_t start = i ? index << PAGE_SHIFT : pos;
		uint64_t stop = MIN(end, (index + 1) << PAGE_SHIFT);

		if (start != prev || (prev >> PAGE_SHIFT) != index)
			mark_page_accessed(file->eng, pages[i]);
		/* prev_index stays this page when the read ran to its end, offset 0. */
		prev = index << PAGE_SHIFT | (stop & (PAGE_SIZE - 1));
		put_page(pages[i]);
	}
	if (n)
		__atomic_store_n(&file->ra_prev_pos, prev, __ATOMIC_RELAXED);
}

long nlru_file_pread(struct nlru_file *file, void *buf, size_t len, uint64_t offset)
{
	size_t done = 0;
	int err = 0;

	if (!file)
		return -EINVAL;
	if (!buf && len)
		return log_einval(&file->eng->log, "read of %zu bytes of %s into a NULL buffer",
				  len, file->path);
	if (!file->readable) {
		log_err(&file->eng->log, "read of %s, which is open write-only", file->path);
		return -EBADF;
	}
	len = within_max_file(offset, len);
	while (done < len) {
		const uint64_t from = offset + done;
		uint64_t pos = from, end;
		struct page *pages[COPY_BATCH];
		int got = get_read_pages(file, pos, offset + len, pages, &end, &err);

		for (int i = 0; i < got; i++) {
			size_t in_page = pos & (PAGE_SIZE - 1);
			size_t n = (size_t)MIN((uint64_t)(PAGE_SIZE - in_page), end - pos);

			memcpy((char *)buf + done,
			       (char *)address_of(file->eng, pages[i]) + in_page, n);
			done += n;
			pos += n;
		}
		put_read_pages(file, pages, got, from, end);
		if (!got)
			break;
	}
	return done || !err ? (long)done : err;
}
