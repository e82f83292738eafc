/*
 * filemap_read.c - reads through the page cache and readahead (Linux 4.8 mm/filemap.c's
 * read side: do_generic_file_read, find_get_pages_contig, lock_page for a page in flight;
 * mm/readahead.c: __do_page_cache_readahead, read_pages): nlru_file_pread, the lookups that
 * pins and partial writes use (get_cache_page), and the run of cached pages copy_range reads
 * from (get_read_pages).
 *
 * Locking: the lookups hold file->lock, and take a reference on each page they hand out, so
 * reclaim leaves it alone while it is copied.  A miss puts its new pages in the index locked
 * (PG_locked) and not uptodate before the read, and drops file->lock for the read itself;
 * whoever finds a page that is not uptodate takes its page lock, so waits for the read in
 * flight, and reads it again if that read failed.
 *
 * Not done: Linux's readahead state machine (ondemand_readahead, async readahead marks).  A
 * reader that asks for the page after the last one it got (file->ra_next) gets a fixed window
 * of READAHEAD_PAGES, anyone else the one page.  Nothing is read past the end of the file
 * or the last page a file can have; pages past the end read as zeroes.
 */
#include <errno.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "filemap.h"
#include "filemap_internal.h"
#include "lru.h"
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

/*
 * preadv() until @iov is full or the file ends: the bytes read, or -errno.  A short read
 * mid-file is not the end of it (it may come before an I/O error): only a read of 0 is.
 */
static ssize_t preadv_full(int fd, struct iovec *iov, int cnt, off_t off)
{
	ssize_t total = 0;

	while (cnt > 0) {
		ssize_t n = preadv(fd, iov, cnt, off + total);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			break;
		total += n;
		cnt = iov_advance(&iov, cnt, (size_t)n);
	}
	return total;
}

/*
 * Read @n pages of the file from @first on into @pages, the pages locked and in the cache
 * already; pages past the end of the file are zero.  Marks them uptodate, or leaves them
 * not uptodate and logs the error.  0 or -errno.
 */
static int read_pages(struct nlru_file *file, uint32_t first, struct page **pages, int n)
{
	struct nlru_engine *eng = file->eng;
	struct iovec iov[READAHEAD_PAGES];
	int err = fault_injected(&file->inject_read);
	uint64_t size;
	ssize_t got = 0;

	for (int i = 0; i < n; i++)
		iov[i] = (struct iovec){address_of(eng, pages[i]), PAGE_SIZE};
	/* iov is consumed by the read: the pages' addresses are taken again below. */
	spin_lock(&file->lock);
	size = file->size;
	spin_unlock(&file->lock);
	/* Past the end of the file (a file being extended) there is nothing to read. */
	if (!err && ((uint64_t)first << PAGE_SHIFT) < size) {
		got = preadv_full(file->fd, iov, n, (off_t)first << PAGE_SHIFT);
		err = got < 0 ? (int)-got : 0;
	}
	if (err) {
		log_err(&eng->log, "read of %s failed: %s", file->path, strerror(err));
		return -err;
	}
	for (int i = 0; i < n; i++) {
		size_t have = (size_t)MAX(
			0, MIN((ssize_t)PAGE_SIZE, got - (ssize_t)i * (ssize_t)PAGE_SIZE));

		memset((char *)address_of(eng, pages[i]) + have, 0, PAGE_SIZE - have);
		set_page_uptodate(pages[i]);
	}
	count_vm_events(eng, NLRU_PGPGIN, (unsigned long)got / 1024);
	return 0;
}

/*
 * Read pages [@first, @first + n) of the file into new cache pages (readahead when n > 1),
 * as Linux does: the pages enter the cache locked and not uptodate before the read, so that
 * nobody caches an older copy of them meanwhile, and whoever looks them up waits for the
 * read (lock_page_uptodate()).  The window stops at a page someone else cached first.  A
 * failed read leaves its pages cached, not uptodate, for the next reader to read again.
 * 0 or -errno.
 */
static int read_into_cache(struct nlru_file *file, uint32_t first, int n, bool write)
{
	struct nlru_engine *eng = file->eng;
	struct page *pages[READAHEAD_PAGES];
	bool activate[READAHEAD_PAGES];
	int added, err = 0;

	n = alloc_cache_pages(file, pages, n);
	if (!n)
		return -ENOMEM;
	/* Fresh pages no one else can see yet: locked at once, as one lock for the witness. */
	witness_lock(LOCK_PAGE, &eng->log);
	for (int i = 0; i < n; i++)
		page_set(pages[i], PG_locked);
	spin_lock(&file->lock);
	for (added = 0; added < n; added++) {
		err = add_to_page_cache(file, pages[added], first + (uint32_t)added, write,
					&activate[added]);
		if (err <= 0)
			break;
	}
	spin_unlock(&file->lock);
	for (int i = added; i < n; i++) {
		page_clear(pages[i], PG_locked);
		free_pages_trusted(eng, pages[i], 0);
	}
	/* Only a first page that found no room in the index is an error; later ones end the
	 * window, as a page cached by someone else does. */
	if (!added) {
		witness_unlock(LOCK_PAGE, &eng->log);
		return err < 0 ? err : 0;
	}
	err = read_pages(file, first, pages, added);
	if (file->read_hook)
		file->read_hook(file->read_hook_arg);
	for (int i = 0; i < added; i++) {
		__unlock_page(pages[i]);
		if (activate[i])
			activate_refault(eng, pages[i]);
	}
	witness_unlock(LOCK_PAGE, &eng->log);
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
		err = read_pages(file, page->index, &page, 1);
	unlock_page(page, &file->eng->log);
	return err;
}

/* How many pages to read for a miss at @index: a readahead window when reading in order. */
static int readahead_window(struct nlru_file *file, uint32_t index)
{
	uint64_t pages_in_file = (file->size + PAGE_SIZE - 1) >> PAGE_SHIFT;
	int n = index == file->ra_next ? READAHEAD_PAGES : 1;

	if (index < pages_in_file)
		n = (int)MIN((uint64_t)n, pages_in_file - index);
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
			*err = lock_page_uptodate(file, page);
			if (*err) {
				put_page(page);
				return NULL;
			}
			return page;
		}
		n = readahead_window(file, index);
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

/* Done with pages from get_read_pages(): each counts as an access, as a read does. */
void put_read_pages(struct nlru_file *file, struct page **pages, int n)
{
	for (int i = 0; i < n; i++) {
		mark_page_accessed(file->eng, pages[i]);
		put_page(pages[i]);
	}
}

long nlru_file_pread(struct nlru_file *file, void *buf, size_t len, uint64_t offset)
{
	size_t done = 0;
	int err = 0;

	if (!file || (!buf && len))
		return -EINVAL;
	if (!file->readable) {
		log_err(&file->eng->log, "read of %s, which is open write-only", file->path);
		return -EBADF;
	}
	len = within_max_file(offset, len);
	while (done < len) {
		uint64_t pos = offset + done, end;
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
		put_read_pages(file, pages, got);
		if (!got)
			break;
	}
	return done || !err ? (long)done : err;
}
