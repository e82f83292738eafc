/*
 * filemap.c - the page cache of real files: reads and writes through engine pages on the
 * file LRU lists, sequential readahead, copy_file_range, pinned pages, open and close, and
 * the parts of reclaim that drop a page cache page or its shadow (Linux 4.8 mm/filemap.c,
 * the file side of vmscan.c's __remove_mapping).  Dirty pages and their writeback are in
 * filemap_writeback.c.
 *
 * Locking: file->lock protects the page index, the file size and the dirty/writeback
 * transitions of its pages.  It is never held across I/O or an engine allocation.  A reader
 * or writer holds a page with a temporary reference while it copies, so reclaim, which wants
 * the index's reference and its own only, leaves the page alone.  A page being read in is
 * locked (PG_locked) from before its read until it is uptodate.  The owner table's rwlock
 * keeps the file alive while reclaim holds its pages isolated, as for regions.
 *
 * Pinned pages (nlru_file_pin_page) hold a reference for as long as they are pinned and count
 * their pins in page->private, which page cache pages do not otherwise use.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include "copy_page.h"
#include "filemap.h"
#include "filemap_internal.h"
#include "lru.h"
#include "vmstat.h"

#define READAHEAD_PAGES 32 /* VM_MAX_READAHEAD, 128 KiB */
/* What nlru_file_open() takes beside the access mode. */
#define OPEN_FLAGS (O_CREAT | O_TRUNC | O_EXCL | O_CLOEXEC)
/* Page offsets are 32-bit: files of up to 16 TiB (Linux's s_maxbytes). */
#define MAX_FILE_BYTES (((uint64_t)UINT32_MAX + 1) << PAGE_SHIFT)

/* A write of @len bytes at @offset would end past the largest file the cache holds. */
static bool past_max_file(uint64_t offset, size_t len)
{
	return offset > MAX_FILE_BYTES || len > MAX_FILE_BYTES - offset;
}

/* What of a read of @len bytes at @offset lies below the largest file the cache holds. */
static size_t within_max_file(uint64_t offset, size_t len)
{
	return (size_t)MIN((uint64_t)len, offset < MAX_FILE_BYTES ? MAX_FILE_BYTES - offset : 0);
}

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
 * Put @page in the index at @index unless someone else did first; file locked.  Returns 1
 * if it went in, 0 if another page is there, -ENOMEM if the index could not grow; and in
 * *activate whether a shadow says it should start active.  A page cached to be written
 * (@write: Linux's __GFP_WRITE) is no refault: its old contents are not what is wanted.
 */
static int add_to_page_cache(struct nlru_file *file, struct page *page, uint32_t index, bool write,
			     bool *activate)
{
	struct nlru_engine *eng = file->eng;
	struct pglist_data *pgdat = page_pgdat(eng, page);
	uint64_t v = pageindex_lookup(&file->idx, index);

	*activate = false;
	if ((v & SLOT_TAG_MASK) == SLOT_PAGE)
		return 0;
	if (pageindex_store(&file->idx, index, page_slot(pgdat, page_to_pfn(pgdat, page))))
		return -ENOMEM;
	if ((v & SLOT_TAG_MASK) == SLOT_SHADOW) {
		*activate = !write && workingset_refault(eng, v);
		workingset_shadow_gone(eng, v);
	}
	page->mapping = file->owner.id;
	page->index = index;
	/* The index's reference and the caller's. */
	__atomic_store_n(&page->refcount, 2, __ATOMIC_RELEASE);
	mod_page_node_state(pgdat, page, NLRU_NR_FILE_PAGES, 1);
	return 1;
}

/* A page whose shadow says it was evicted recently starts active (workingset_refault). */
static void activate_refault(struct nlru_engine *eng, struct page *page)
{
	page_set(page, PG_active);
	workingset_activation(page_lruvec(page_pgdat(eng, page), page));
}

/* Fresh pages for the cache, or fewer than asked when memory runs out. */
static int alloc_cache_pages(struct nlru_file *file, struct page **pages, int n)
{
	int got;

	for (got = 0; got < n; got++) {
		pages[got] = alloc_pages_node(file->eng, NLRU_GFP_HIGHUSER_MOVABLE, 0, file->nid);
		if (!pages[got])
			break;
	}
	return got;
}

static bool page_uptodate(const struct page *page)
{
	return __atomic_load_n(&page->flags, __ATOMIC_ACQUIRE) & (1u << PG_uptodate);
}

/* The page's contents are in: whoever sees PG_uptodate sees them too. */
static void set_page_uptodate(struct page *page)
{
	__atomic_fetch_or(&page->flags, 1u << PG_uptodate, __ATOMIC_RELEASE);
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
	if (!added)
		return err < 0 ? err : 0;
	err = read_pages(file, first, pages, added);
	if (file->read_hook)
		file->read_hook(file->read_hook_arg);
	for (int i = 0; i < added; i++) {
		bit_spin_unlock(&pages[i]->flags, PG_locked);
		if (activate[i])
			activate_refault(eng, pages[i]);
	}
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
	bit_spin_lock(&page->flags, PG_locked);
	if (!page_test(page, PG_uptodate))
		err = read_pages(file, page->index, &page, 1);
	bit_spin_unlock(&page->flags, PG_locked);
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
static struct page *get_cache_page(struct nlru_file *file, uint32_t index, bool write, int *err)
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

/* Pages copied per lookup: one hold of the file's lock for a run of cached pages. */
#define COPY_BATCH 16

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
static int get_read_pages(struct nlru_file *file, uint64_t pos, uint64_t limit, struct page **pages,
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
static void put_read_pages(struct nlru_file *file, struct page **pages, int n)
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

/*
 * Copy @n bytes from @src into cached @page at @offset under the page lock (PG_locked as a bit
 * spinlock), as Linux's write_begin/write_end hold it: two writers of the same page take
 * turns, so a page written whole by both ends as one writer's, never a mix.  Readers do not
 * take it, as in Linux.  A fresh page, filled before it enters the cache, needs none.
 */
static void write_cached_page(struct page *page, void *dst, const void *src, size_t n)
{
	bit_spin_lock(&page->flags, PG_locked);
	if (n == PAGE_SIZE) {
		/* All of it: uptodate now, even if a read of it failed before. */
		copy_page_nt(dst, src);
		set_page_uptodate(page);
	} else {
		memcpy(dst, src, n);
	}
	bit_spin_unlock(&page->flags, PG_locked);
}

/*
 * Write @nr whole pages at page @index on (at most COPY_BATCH), page i from @src[i]: cached
 * pages are overwritten, missing ones are new pages filled before they enter the cache, all
 * in one hold of the file's lock for the lookup and one for the insertion and dirtying.
 * Returns the pages written, or 0 and *@err.
 */
static int write_whole_pages(struct nlru_file *file, uint32_t index, const char *const *src, int nr,
			     int *err)
{
	struct nlru_engine *eng = file->eng;
	struct page *pages[COPY_BATCH], *added[COPY_BATCH];
	bool fresh[COPY_BATCH], activate[COPY_BATCH];
	int in[COPY_BATCH]; /* add_to_page_cache()'s answer for a fresh page, 1 for a cached one */
	int n = MIN(nr, COPY_BATCH), written;

	spin_lock(&file->lock);
	for (int i = 0; i < n; i++) {
		uint64_t v = pageindex_lookup(&file->idx, index + (uint32_t)i);

		fresh[i] = (v & SLOT_TAG_MASK) != SLOT_PAGE;
		pages[i] = fresh[i] ? NULL : slot_page(eng, v);
		if (pages[i])
			get_page(pages[i]);
	}
	file->ra_next = index + (uint32_t)n;
	spin_unlock(&file->lock);
	for (int i = 0; i < n; i++) {
		if (fresh[i] && !alloc_cache_pages(file, &pages[i], 1)) {
			/* Out of memory: write what we have, or fail on the first page. */
			for (int k = i; k < n; k++)
				if (pages[k])
					put_page(pages[k]);
			n = i;
			if (!n) {
				*err = -ENOMEM;
				return 0;
			}
			break;
		}
		if (fresh[i]) {
			copy_page_nt(address_of(eng, pages[i]), src[i]);
			page_set(pages[i], PG_uptodate);
		} else {
			write_cached_page(pages[i], address_of(eng, pages[i]), src[i], PAGE_SIZE);
		}
	}
	written = n;
	spin_lock(&file->lock);
	for (int i = 0; i < n; i++) {
		/* Past a page the index had no room for, the write ends short: fresh pages are
		 * not added, while pages cached already keep what was copied into them. */
		in[i] = !fresh[i]     ? 1
			: written < i ? -ENOMEM
				      : add_to_page_cache(file, pages[i], index + (uint32_t)i, true,
							  &activate[i]);
		if (in[i] < 0)
			written = MIN(written, i);
		else if (in[i])
			set_page_dirty(file, pages[i]);
	}
	file->size = MAX(file->size, ((uint64_t)index + (uint64_t)written) << PAGE_SHIFT);
	spin_unlock(&file->lock);
	for (int i = 0; i < n; i++) {
		added[i] = fresh[i] && in[i] > 0 ? pages[i] : NULL;
		if (added[i] && activate[i])
			activate_refault(eng, pages[i]);
	}
	lru_cache_add_pages(eng, added, n);
	for (int i = 0; i < n; i++) {
		if (in[i] < 0) {
			free_pages_trusted(eng, pages[i], 0);
			continue;
		}
		if (!in[i]) {
			/* Another writer cached this page first: write into theirs, as a write
			 * of that page alone would. */
			free_pages_trusted(eng, pages[i], 0);
			if (written > i &&
			    write_whole_pages(file, index + (uint32_t)i, &src[i], 1, err) != 1)
				written = i;
			continue;
		}
		mark_page_accessed(eng, pages[i]);
		put_page(pages[i]);
	}
	if (!written)
		*err = -ENOMEM;
	return written;
}

long nlru_file_pwrite(struct nlru_file *file, const void *buf, size_t len, uint64_t offset)
{
	size_t done = 0;
	int err = 0;

	if (!file || (!buf && len))
		return -EINVAL;
	if (!file->writable) {
		log_err(&file->eng->log, "write to %s, which is open read-only", file->path);
		return -EBADF;
	}
	if (past_max_file(offset, len)) {
		log_err(&file->eng->log,
			"write to %s past 16 TiB, the largest file the cache holds", file->path);
		return -EFBIG;
	}
	while (done < len) {
		uint64_t pos = offset + done;
		uint32_t index = (uint32_t)(pos >> PAGE_SHIFT);
		size_t in_page = pos & (PAGE_SIZE - 1), n = MIN(PAGE_SIZE - in_page, len - done);
		const char *src = (const char *)buf + done;
		struct page *page;

		if (n == PAGE_SIZE) {
			const char *srcs[COPY_BATCH];
			int nr = (int)MIN((len - done) >> PAGE_SHIFT, (size_t)COPY_BATCH), pages;

			for (int i = 0; i < nr; i++)
				srcs[i] = src + (size_t)i * PAGE_SIZE;
			pages = write_whole_pages(file, index, srcs, nr, &err);
			if (!pages)
				break;
			done += (size_t)pages << PAGE_SHIFT;
			balance_dirty_pages_ratelimited(file, (unsigned long)pages);
			continue;
		}
		/* Part of a page: the rest of it is read in first. */
		page = get_cache_page(file, index, true, &err);
		if (!page)
			break;
		write_cached_page(page, (char *)address_of(file->eng, page) + in_page, src, n);
		spin_lock(&file->lock);
		set_page_dirty(file, page);
		file->size = MAX(file->size, pos + n);
		spin_unlock(&file->lock);
		mark_page_accessed(file->eng, page);
		put_page(page);
		done += n;
		/* Within the loop, so that one large write pauses at the dirty limit too. */
		balance_dirty_pages_ratelimited(file, 1);
	}
	return done || !err ? (long)done : err;
}

/* Why a copy between two files is refused, logged; returns @err. */
static long bad_copy(struct nlru_file *in, struct nlru_file *out, long err, const char *why)
{
	log_err(&in->eng->log, "copy from %s to %s refused: %s", in->path, out->path, why);
	return err;
}

long nlru_file_copy_range(struct nlru_file *in, uint64_t in_offset, struct nlru_file *out,
			  uint64_t out_offset, size_t len)
{
	size_t done = 0;
	int err = 0;

	if (!in || !out)
		return -EINVAL;
	if (!in->readable)
		return bad_copy(in, out, -EBADF, "the source is open write-only");
	if (!out->writable)
		return bad_copy(in, out, -EBADF, "the destination is open read-only");
	if (in->eng != out->eng)
		return bad_copy(in, out, -EXDEV, "the files are in different engines");
	if (in == out && in_offset < out_offset + len && out_offset < in_offset + len)
		return bad_copy(in, out, -EINVAL, "the ranges overlap");
	if (past_max_file(out_offset, len))
		return bad_copy(in, out, -EFBIG, "past 16 TiB, the largest file the cache holds");
	len = within_max_file(in_offset, len);
	while (done < len) {
		uint64_t pos = in_offset + done, end;
		struct page *pages[COPY_BATCH];
		const char *srcs[COPY_BATCH];
		int got = get_read_pages(in, pos, in_offset + len, pages, &end, &err), i = 0;
		bool stop = !got;

		for (int k = 0; k < got; k++)
			srcs[k] = (const char *)address_of(in->eng, pages[k]);
		/* Both sides at a page boundary: the whole pages go as one run, as pwrite's do. */
		if (got && !((pos | (out_offset + done)) & (PAGE_SIZE - 1))) {
			int whole = (int)MIN((uint64_t)got, (end - pos) >> PAGE_SHIFT);

			i = whole ? write_whole_pages(out,
						      (uint32_t)((out_offset + done) >> PAGE_SHIFT),
						      srcs, whole, &err)
				  : 0;
			done += (size_t)i << PAGE_SHIFT;
			balance_dirty_pages_ratelimited(out, (unsigned long)i);
			stop = i < whole;
		}
		/* Otherwise, and for a last page cut by the end of the file, through pwrite. */
		for (; i < got && !stop; i++) {
			size_t in_page = (in_offset + done) & (PAGE_SIZE - 1);
			size_t n = (size_t)MIN((uint64_t)(PAGE_SIZE - in_page),
					       end - (in_offset + done));
			long r = nlru_file_pwrite(out, srcs[i] + in_page, n, out_offset + done);

			if (r < 0)
				err = (int)r;
			else
				done += (size_t)r;
			stop = r != (long)n;
		}
		put_read_pages(in, pages, got);
		if (stop)
			break;
	}
	return done || !err ? (long)done : err;
}

/* Says why a pin or unpin is refused; returns @err. */
static int bad_pin(struct nlru_file *file, int err, const char *why, uint64_t index)
{
	log_err(&file->eng->log, "pin of page %llu of %s refused: %s", (unsigned long long)index,
		file->path, why);
	return err;
}

int nlru_file_pin_page(struct nlru_file *file, uint64_t index, unsigned int flags, void **addr)
{
	bool write = flags & NLRU_PIN_WRITE;
	struct page *page;
	int err = 0;

	if (!file || !addr)
		return -EINVAL;
	if (flags & ~NLRU_PIN_WRITE)
		return bad_pin(file, -EINVAL, "unknown flags", index);
	if (index > UINT32_MAX)
		return bad_pin(file, -EINVAL, "index past 2^32 - 1", index);
	if (write ? !file->writable : !file->readable)
		return bad_pin(file, -EBADF, write ? "open read-only" : "open write-only", index);
	page = get_cache_page(file, (uint32_t)index, write, &err);
	if (!page)
		return err;
	/* The reference get_cache_page() took stays, so reclaim leaves the page alone. */
	spin_lock(&file->lock);
	page->private += 1;
	file->pins++;
	spin_unlock(&file->lock);
	mark_page_accessed(file->eng, page);
	*addr = address_of(file->eng, page);
	return 0;
}

int nlru_file_unpin_page(struct nlru_file *file, uint64_t index, size_t written_end)
{
	struct page *page = NULL;
	uint64_t v;

	if (!file)
		return -EINVAL;
	if (written_end > PAGE_SIZE)
		return bad_pin(file, -EINVAL, "written_end is past the page", index);
	if (written_end && !file->writable)
		return bad_pin(file, -EBADF, "written, but open read-only", index);
	spin_lock(&file->lock);
	v = index <= UINT32_MAX ? pageindex_lookup(&file->idx, (uint32_t)index) : 0;
	if ((v & SLOT_TAG_MASK) == SLOT_PAGE)
		page = slot_page(file->eng, v);
	if (!page || !page->private) {
		spin_unlock(&file->lock);
		return bad_pin(file, -EINVAL, "unpin of a page that is not pinned", index);
	}
	if (written_end) {
		set_page_dirty(file, page);
		file->size = MAX(file->size, (index << PAGE_SHIFT) + written_end);
	}
	page->private -= 1;
	file->pins--;
	spin_unlock(&file->lock);
	put_page(page);
	if (written_end)
		balance_dirty_pages_ratelimited(file, 1);
	return 0;
}

int nlru_file_flush(struct nlru_file *file)
{
	if (!file)
		return -EINVAL;
	return writeback_pages(file, -1, NULL) ? -EIO : 0;
}

int nlru_file_fsync(struct nlru_file *file)
{
	int err;

	if (!file)
		return -EINVAL;
	err = nlru_file_flush(file);
	if (!err && fdatasync(file->fd) < 0)
		err = -errno;
	/* A write error is reported once, like errseq_t: then it is the caller's. */
	spin_lock(&file->lock);
	if (!err && file->wb_err)
		err = -file->wb_err;
	file->wb_err = 0;
	spin_unlock(&file->lock);
	return err;
}

/* Two opens of one file (owner_register()'s clash test). */
static bool same_file(const struct owner_head *owner, const struct owner_head *other)
{
	const struct nlru_file *a = (const struct nlru_file *)owner,
			       *b = (const struct nlru_file *)other;

	return other->type == OWNER_FILE && a->dev == b->dev && a->ino == b->ino;
}

int nlru_file_open(struct nlru_engine *eng, const char *path, int flags, unsigned int mode, int nid,
		   struct nlru_file **out)
{
	struct nlru_file *file;
	struct stat st;
	int r;

	if (!eng || !path || !out ||
	    (nid != NLRU_NUMA_NO_NODE && (nid < 0 || nid >= eng->nr_nodes)))
		return -EINVAL;
	/*
	 * Flags the cache could not honour are refused before anything is opened or created:
	 * writeback writes at each page's own offset (not with O_APPEND), through the kernel's
	 * page cache (not with O_DIRECT), and when the engine chooses (not per write, O_SYNC).
	 */
	if ((flags & O_ACCMODE) == O_ACCMODE || (flags & ~(O_ACCMODE | OPEN_FLAGS))) {
		log_err(&eng->log,
			"open of %s: flags %#x are not O_RDONLY, O_WRONLY or O_RDWR with "
			"O_CREAT, O_TRUNC, O_EXCL or O_CLOEXEC",
			path, (unsigned int)flags);
		return -EINVAL;
	}
	file = calloc(1, sizeof(*file));
	if (file)
		file->fd = -1;
	if (!file || !(file->path = strdup(path))) {
		free(file);
		return -ENOMEM;
	}
	pageindex_init(&file->idx, &eng->pageindex_cache);
	file->owner.type = OWNER_FILE;
	/* A file open here already is refused before open(2) could truncate it under that open;
	 * the registration below checks again, for a racing open. */
	if (stat(path, &st) == 0) {
		file->dev = st.st_dev;
		file->ino = st.st_ino;
		if (owner_clashes(&eng->owners, &file->owner, same_file)) {
			r = -EBUSY;
			goto busy;
		}
	}
	/*
	 * The cache reads partial pages before writing them: a write-only file is opened for
	 * reading too, as the kernel reads its own page cache whatever the opener's mode.
	 * Without blocking, so that a FIFO is refused rather than waited on for a writer.
	 */
	file->fd =
		open(path,
		     (flags & ~O_ACCMODE) | ((flags & O_ACCMODE) == O_RDONLY ? O_RDONLY : O_RDWR) |
			     O_CLOEXEC | O_NONBLOCK,
		     mode);
	if (file->fd < 0 || fstat(file->fd, &st) < 0) {
		r = -errno;
		log_err(&eng->log, "open of %s failed: %s", path, strerror(-r));
		goto err;
	}
	if (!S_ISREG(st.st_mode)) {
		r = S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL;
		log_err(&eng->log, "open of %s: it is %s", path,
			S_ISDIR(st.st_mode) ? "a directory" : "not a regular file");
		goto err;
	}
	if (fcntl(file->fd, F_SETFL, fcntl(file->fd, F_GETFL) & ~O_NONBLOCK) < 0) {
		r = -errno;
		log_err(&eng->log, "open of %s failed: %s", path, strerror(-r));
		goto err;
	}
	file->eng = eng;
	file->nid = nid;
	file->writable = (flags & O_ACCMODE) != O_RDONLY;
	file->readable = (flags & O_ACCMODE) != O_WRONLY;
	file->size = (uint64_t)st.st_size;
	file->dev = st.st_dev;
	file->ino = st.st_ino;
	file->ra_next = UINT32_MAX;
	spin_lock_init(&file->lock);
	r = owner_register(&eng->owners, &file->owner, same_file);
	if (r)
		goto busy;
	*out = file;
	return 0;
busy:
	if (r == -EBUSY)
		log_err(&eng->log,
			"open of %s: the file is open in this engine already; share that "
			"handle (two would cache the file twice, and each lose the other's "
			"writes)",
			path);
err:
	if (file->fd >= 0)
		close(file->fd);
	pageindex_destroy(&file->idx);
	free(file->path);
	free(file);
	return r;
}

/* Drop every cached page and shadow: owners write-locked, so reclaim holds none of them. */
static void truncate_cache(struct nlru_file *file)
{
	struct nlru_engine *eng = file->eng;
	uint32_t keys[WALK_BATCH], cursor = 0;
	uint64_t values[WALK_BATCH];

	do {
		uint32_t got = pageindex_walk(&file->idx, &cursor, keys, values, WALK_BATCH);

		for (uint32_t i = 0; i < got; i++) {
			struct page *page;

			if ((values[i] & SLOT_TAG_MASK) == SLOT_SHADOW) {
				workingset_shadow_gone(eng, values[i]);
				continue;
			}
			page = slot_page(eng, values[i]);
			mod_page_node_state(page_pgdat(eng, page), page, NLRU_NR_FILE_PAGES, -1);
			lru_release_page(eng, page);
		}
	} while (cursor);
}

/* Pins left on @file?  Says so through the log. */
static bool file_pinned(struct nlru_file *file)
{
	long pins;

	spin_lock(&file->lock);
	pins = file->pins;
	spin_unlock(&file->lock);
	if (pins)
		log_err(&file->eng->log, "close of %s: %ld pinned page(s); unpin them first",
			file->path, pins);
	return pins != 0;
}

int nlru_file_close(struct nlru_file *file)
{
	struct nlru_engine *eng;

	if (!file)
		return -EINVAL;
	eng = file->eng;
	if (file_pinned(file))
		return -EBUSY;
	for (int tries = 0;; tries++) {
		if (writeback_pages(file, -1, NULL)) {
			log_err(&eng->log,
				"close of %s: dirty pages could not be written; the file "
				"stays open with them",
				file->path);
			return -EIO;
		}
		/* With the owners write-locked, no writeback of the file is in flight any more. */
		pthread_rwlock_wrlock(&eng->owners.lock);
		spin_lock(&file->lock);
		/* A pin may have come in during the writeback: check again where it cannot. */
		if (file->pins) {
			spin_unlock(&file->lock);
			pthread_rwlock_unlock(&eng->owners.lock);
			file_pinned(file);
			return -EBUSY;
		}
		if (!file->nr_dirty)
			break;
		/* Dirty again: a write another writer had in flight failed, or a writer raced. */
		spin_unlock(&file->lock);
		pthread_rwlock_unlock(&eng->owners.lock);
		if (tries == 8) {
			log_err(&eng->log,
				"close of %s: pages keep being dirtied; close races a "
				"writer",
				file->path);
			return -EBUSY;
		}
	}
	truncate_cache(file);
	flusher_file_cleaned(eng, &file->dirty_link);
	spin_unlock(&file->lock);
	owner_unregister(&eng->owners, file->owner.id);
	pthread_rwlock_unlock(&eng->owners.lock);
	close(file->fd);
	pageindex_destroy(&file->idx);
	free(file->path);
	free(file);
	return 0;
}

bool filemap_remove_page(struct nlru_engine *eng, struct page *page)
{
	struct nlru_file *file = (struct nlru_file *)owner_lookup(&eng->owners, page->mapping);
	struct pglist_data *pgdat = page_pgdat(eng, page);
	bool removed = false;

	/* Waited for, as 4.8 waits for tree_lock: a trylock would fail for all of a busy file. */
	spin_lock(&file->lock);
	/* __remove_mapping(): only the index and reclaim may hold it, and it must be clean. */
	if (__atomic_load_n(&page->refcount, __ATOMIC_ACQUIRE) == 2 && !page_test(page, PG_dirty) &&
	    !page_test(page, PG_writeback) &&
	    pageindex_store(&file->idx, page->index,
			    workingset_eviction(page_lruvec(pgdat, page), page)) == 0) {
		mod_page_node_state(pgdat, page, NLRU_NR_FILE_PAGES, -1);
		page->mapping = 0;
		page->index = 0;
		__atomic_store_n(&page->refcount, 0, __ATOMIC_RELEASE);
		removed = true;
	}
	spin_unlock(&file->lock);
	return removed;
}

bool filemap_invalidate_page(struct nlru_file *file, uint32_t index)
{
	struct nlru_engine *eng = file->eng;
	struct page *page = NULL;
	bool dropped = false;
	uint64_t v;

	spin_lock(&file->lock);
	v = pageindex_lookup(&file->idx, index);
	if ((v & SLOT_TAG_MASK) == SLOT_PAGE) {
		page = slot_page(eng, v);
		get_page(page); /* in place of reclaim's isolation reference */
	}
	spin_unlock(&file->lock);
	if (!page)
		return false;
	if (isolate_lru_page(eng, page) == 0) {
		pthread_rwlock_rdlock(&eng->owners.lock);
		dropped = filemap_remove_page(eng, page);
		pthread_rwlock_unlock(&eng->owners.lock);
		if (dropped)
			free_pages_trusted(eng, page, 0);
		else
			putback_lru_page(eng, page);
	}
	if (!dropped)
		put_page(page);
	return dropped;
}

/* Forget shadows of node @nid in @file until @nr are gone; file locked. */
static unsigned long trim_file(struct nlru_engine *eng, struct nlru_file *file, int nid,
			       unsigned long nr)
{
	uint32_t keys[WALK_BATCH], cursor = 0;
	uint64_t values[WALK_BATCH];
	unsigned long trimmed = 0;

	do {
		uint32_t got = pageindex_walk(&file->idx, &cursor, keys, values, WALK_BATCH);

		for (uint32_t i = 0; i < got && trimmed < nr; i++) {
			if ((values[i] & SLOT_TAG_MASK) != SLOT_SHADOW ||
			    slot_nid(values[i]) != nid)
				continue;
			pageindex_delete(&file->idx, keys[i]);
			workingset_shadow_gone(eng, values[i]);
			trimmed++;
		}
	} while (cursor && trimmed < nr);
	return trimmed;
}

unsigned long filemap_trim_shadows(struct nlru_engine *eng, int nid, unsigned long nr)
{
	unsigned long trimmed = 0;

	pthread_rwlock_rdlock(&eng->owners.lock);
	for (uint32_t id = 1; id < eng->owners.capacity && trimmed < nr; id++) {
		struct owner_head *owner = owner_lookup(&eng->owners, id);
		struct nlru_file *file = (struct nlru_file *)owner;

		if (!owner || owner->type != OWNER_FILE || !spin_trylock(&file->lock))
			continue;
		trimmed += trim_file(eng, file, nid, nr - trimmed);
		spin_unlock(&file->lock);
	}
	pthread_rwlock_unlock(&eng->owners.lock);
	return trimmed;
}

int filemap_close_all(struct nlru_engine *eng)
{
	for (;;) {
		struct nlru_file *file = NULL;
		int r;

		pthread_rwlock_rdlock(&eng->owners.lock);
		for (uint32_t id = 1; id < eng->owners.capacity && !file; id++) {
			struct owner_head *owner = owner_lookup(&eng->owners, id);

			if (owner && owner->type == OWNER_FILE)
				file = (struct nlru_file *)owner;
		}
		pthread_rwlock_unlock(&eng->owners.lock);
		if (!file)
			return 0;
		log_warn(&eng->log, "destroy: closing %s, which was left open", file->path);
		r = nlru_file_close(file);
		if (r)
			return r;
	}
}
