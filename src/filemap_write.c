/*
 * filemap_write.c - writes through the page cache and the copy between two files (Linux 4.8
 * mm/filemap.c: generic_perform_write with write_begin/write_end; fs/read_write.c:
 * vfs_copy_file_range, done through the cache as its fallback, do_splice_direct, does):
 * nlru_file_pwrite and nlru_file_copy_range.  Whole pages are written in runs of up to
 * COPY_BATCH, into cached pages where there are some and into fresh pages filled before they
 * enter the index where there are none; a partial page is read in first (get_cache_page).
 * Written pages are dirtied here; filemap_writeback.c writes them back.  Fresh pages to be
 * written are allocated with NLRU_GFP_WRITE (write_begin's __GFP_WRITE), so that they come
 * from nodes (zones) within their dirty limits.
 *
 * Locking: file->lock is taken once for a run's lookup and once for its insertion and
 * dirtying, never across a copy.  A copy into a cached page holds the page lock (PG_locked),
 * so two writers of one page take turns; readers do not take it.  Writers
 * pause at the dirty limit (balance_dirty_pages_ratelimited) between runs, with no lock held.
 *
 * Not done: appends (O_APPEND is refused at open), writes past the file system's largest
 * file or 16 TiB (-EFBIG; one that would end there is cut short, as in Linux; page offsets
 * are 32-bit), and a copy_range shortcut below the cache (reflinks, server-side copies): the
 * source's pages are read into the cache and copied into the destination's.
 */
#include <errno.h>
#include <string.h>

#include "copy_page.h"
#include "filemap_internal.h"
#include "lru.h"
#include "page_alloc.h"

/*
 * generic_write_checks(): a write at or past the largest file the file system allows (and
 * the cache holds) is refused (true); one that would end past it is cut short there (*@len).
 */
static bool past_max_file(const struct nlru_file *file, uint64_t offset, size_t *len)
{
	if (offset >= file->max_bytes)
		return *len != 0;
	*len = (size_t)MIN((uint64_t)*len, file->max_bytes - offset);
	return false;
}

/*
 * Copy @n bytes from @src into cached @page at @offset under the page lock (PG_locked), as
 * Linux's write_begin/write_end hold it: two writers of the same page take
 * turns, so a page written whole by both ends as one writer's, never a mix.  Readers do not
 * take it, as in Linux.  A fresh page, filled before it enters the cache, needs none.
 */
static void write_cached_page(struct nlru_file *file, struct page *page, void *dst, const void *src,
			      size_t n)
{
	lock_page(page, &file->eng->log);
	if (n == PAGE_SIZE) {
		/* All of it: uptodate now, even if a read of it failed before. */
		copy_page_nt(dst, src);
		set_page_uptodate(page);
	} else {
		memcpy(dst, src, n);
	}
	unlock_page(page, &file->eng->log);
}

/* A run of whole pages being written by write_whole_pages(): what it knows of each page. */
struct write_batch {
	int n;                          /* pages in the run, at most COPY_BATCH */
	struct page *pages[COPY_BATCH]; /* each with a reference held, or NULL before it is made */
	bool fresh[COPY_BATCH];         /* not cached at the lookup: a new page of ours */
	bool activate[COPY_BATCH];      /* a fresh page's shadow says to start it active */
	int in[COPY_BATCH]; /* add_to_page_cache()'s answer for a fresh page, 1 for a cached one */
};

/* Take the cached pages of pages [@index, @index + batch->n) and note the missing ones. */
static void find_pages_to_write(struct nlru_file *file, uint32_t index, struct write_batch *batch)
{
	spin_lock(&file->lock);
	for (int i = 0; i < batch->n; i++) {
		uint64_t v = pageindex_lookup(&file->idx, index + (uint32_t)i);

		batch->fresh[i] = (v & SLOT_TAG_MASK) != SLOT_PAGE;
		batch->pages[i] = batch->fresh[i] ? NULL : slot_page(file->eng, v);
		if (batch->pages[i])
			get_page(batch->pages[i]);
	}
	file->ra_next = index + (uint32_t)batch->n;
	spin_unlock(&file->lock);
}

/*
 * Copy page i of the run from @src[i]: into a new page for a missing one, which needs no
 * lock before it is in the index, and under the page lock into a cached one.  Out of memory,
 * the run ends before the page that got none.  Returns the pages filled: 0 if the first got
 * none.
 */
static int fill_pages_to_write(struct nlru_file *file, const char *const *src,
			       struct write_batch *batch)
{
	struct page **pages = batch->pages;

	for (int i = 0; i < batch->n; i++) {
		if (batch->fresh[i] && !alloc_cache_pages(file, &pages[i], 1, true)) {
			/* Out of memory: write what we have, or fail on the first page. */
			for (int k = i; k < batch->n; k++)
				if (pages[k])
					put_page(pages[k]);
			batch->n = i;
			break;
		}
		if (batch->fresh[i]) {
			copy_page_nt(address_of(file->eng, pages[i]), src[i]);
			page_set(pages[i], PG_uptodate);
		} else {
			write_cached_page(file, pages[i], address_of(file->eng, pages[i]), src[i],
					  PAGE_SIZE);
		}
	}
	return batch->n;
}

/*
 * Put the run's fresh pages in the index and dirty every page it holds, in one hold of the
 * file's lock, and grow the file over what was written.  Returns the pages written: past a
 * page the index had no room for, the write ends short.
 */
static int add_pages_written(struct nlru_file *file, uint32_t index, struct write_batch *batch)
{
	int written = batch->n;

	spin_lock(&file->lock);
	for (int i = 0; i < batch->n; i++) {
		/* Fresh pages past the short end are not added, while pages cached already keep
		 * what was copied into them. */
		batch->in[i] = !batch->fresh[i] ? 1
			       : written < i    ? -ENOMEM
						: add_to_page_cache(file, batch->pages[i],
								    index + (uint32_t)i, true,
								    &batch->activate[i]);
		if (batch->in[i] < 0)
			written = MIN(written, i);
		else if (batch->in[i])
			set_page_dirty(file, batch->pages[i]);
	}
	file->size = MAX(file->size, ((uint64_t)index + (uint64_t)written) << PAGE_SHIFT);
	spin_unlock(&file->lock);
	return written;
}

/* The fresh pages now in the index go on the LRU, active if their shadow said so. */
static void lru_add_pages_written(struct nlru_engine *eng, struct write_batch *batch)
{
	struct page *added[COPY_BATCH];

	for (int i = 0; i < batch->n; i++) {
		added[i] = batch->fresh[i] && batch->in[i] > 0 ? batch->pages[i] : NULL;
		if (added[i] && batch->activate[i])
			activate_refault(eng, batch->pages[i]);
	}
	lru_cache_add_pages(eng, added, batch->n);
}

static int write_whole_pages(struct nlru_file *file, uint32_t index, const char *const *src, int nr,
			     int *err);

/*
 * Done with the run's pages: the written ones lose our reference (a write is no access for
 * the LRU: 4.8's generic_perform_write() and grab_cache_page_write_begin() in mm/filemap.c
 * never mark a page accessed, so pages only written stay inactive), fresh ones left out of
 * the index are freed, and a page another writer cached first is written
 * into theirs, as a write of that page alone would.  Returns @written, or less if that write
 * failed.
 */
static int put_pages_written(struct nlru_file *file, uint32_t index, const char *const *src,
			     struct write_batch *batch, int written, int *err)
{
	for (int i = 0; i < batch->n; i++) {
		if (batch->in[i] < 0) {
			free_pages_trusted(file->eng, batch->pages[i], 0);
			continue;
		}
		if (!batch->in[i]) {
			free_pages_trusted(file->eng, batch->pages[i], 0);
			if (written > i &&
			    write_whole_pages(file, index + (uint32_t)i, &src[i], 1, err) != 1)
				written = i;
			continue;
		}
		put_page(batch->pages[i]);
	}
	return written;
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
	struct write_batch batch = {.n = MIN(nr, COPY_BATCH)};
	int written;

	find_pages_to_write(file, index, &batch);
	if (!fill_pages_to_write(file, src, &batch)) {
		*err = -ENOMEM;
		return 0;
	}
	written = add_pages_written(file, index, &batch);
	lru_add_pages_written(file->eng, &batch);
	written = put_pages_written(file, index, src, &batch, written, err);
	if (!written)
		*err = -ENOMEM;
	return written;
}

long nlru_file_pwrite(struct nlru_file *file, const void *buf, size_t len, uint64_t offset)
{
	size_t done = 0;
	int err = 0;

	if (!file)
		return -EINVAL;
	if (!buf && len)
		return log_einval(&file->eng->log, "write of %zu bytes to %s from a NULL buffer",
				  len, file->path);
	if (!file->writable) {
		log_err(&file->eng->log, "write to %s, which is open read-only", file->path);
		return -EBADF;
	}
	if (past_max_file(file, offset, &len)) {
		log_err(&file->eng->log,
			"write to %s at %llu: files there end at %llu bytes (the file system's "
			"limit, and at most 16 TiB, what the cache holds)",
			file->path, (unsigned long long)offset,
			(unsigned long long)file->max_bytes);
		return -EFBIG;
	}
	err = len ? dirty_share_error(file) : 0;
	if (err)
		return err;
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
			err = balance_dirty_pages_ratelimited(file, (unsigned long)pages);
			if (err)
				break;
			continue;
		}
		/* Part of a page: the rest of it is read in first. */
		page = get_cache_page(file, index, true, &err);
		if (!page)
			break;
		write_cached_page(file, page, (char *)address_of(file->eng, page) + in_page, src,
				  n);
		spin_lock(&file->lock);
		set_page_dirty(file, page);
		file->size = MAX(file->size, pos + n);
		spin_unlock(&file->lock);
		put_page(page);
		done += n;
		/* Within the loop, so that one large write pauses at the dirty limit too. */
		err = balance_dirty_pages_ratelimited(file, 1);
		if (err)
			break;
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

	if (!in || !out) {
		if (in || out)
			log_err(&(in ? in : out)->eng->log, "copy_range: the %s file is NULL",
				in ? "destination" : "source");
		return -EINVAL;
	}
	if (!in->readable)
		return bad_copy(in, out, -EBADF, "the source is open write-only");
	if (!out->writable)
		return bad_copy(in, out, -EBADF, "the destination is open read-only");
	if (in->eng != out->eng)
		return bad_copy(in, out, -EXDEV, "the files are in different engines");
	if (in == out && in_offset < out_offset + len && out_offset < in_offset + len)
		return bad_copy(in, out, -EINVAL, "the ranges overlap");
	if (past_max_file(out, out_offset, &len))
		return bad_copy(in, out, -EFBIG,
				"past the largest file the destination's file system allows "
				"(and at most 16 TiB, what the cache holds)");
	len = within_max_file(in_offset, len);
	err = len ? dirty_share_error(out) : 0;
	if (err)
		return err;
	while (done < len) {
		uint64_t pos = in_offset + done, end;
		struct page *pages[COPY_BATCH];
		const char *srcs[COPY_BATCH];
		int got = get_read_pages(in, pos, in_offset + len, pages, &end, &err), i = 0, berr;
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
			berr = balance_dirty_pages_ratelimited(out, (unsigned long)i);
			err = berr ? berr : err;
			stop = i < whole || berr;
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
		put_read_pages(in, pages, got, pos, end);
		if (stop)
			break;
	}
	return done || !err ? (long)done : err;
}
