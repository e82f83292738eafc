/* The page cache (Linux mm/filemap.c, page-writeback.c): what reclaim and the engine need. */
#ifndef NODELRU_FILEMAP_H
#define NODELRU_FILEMAP_H

#include <stdbool.h>
#include <stdint.h>

struct nlru_engine;
struct nlru_file;
struct page;

/*
 * Reclaim, with the owner table read-locked and the page isolated: drop a clean, unused page
 * cache page, leaving a shadow entry.  True if the page is now free to be freed.
 */
bool filemap_remove_page(struct nlru_engine *eng, struct page *page);

/* Reclaim (kswapd): start the write of a dirty page cache page, PG_reclaim set.  0 or -errno. */
int filemap_pageout(struct nlru_engine *eng, struct page *page);

/*
 * The flusher, with the owner table read-locked: write back up to @nr dirty pages of the file
 * on its dirty list at @link.  Returns the pages written, or -errno if writing failed and none
 * went.
 */
struct dirty_link;
long filemap_writeback_chunk(struct dirty_link *link, long nr);

/* The shadow shrinker: forget up to @nr shadow entries of node @nid.  Returns how many. */
unsigned long filemap_trim_shadows(struct nlru_engine *eng, int nid, unsigned long nr);

/* Test hook: fail the next @count writebacks of @file with @err (EIO, ENOSPC, ...). */
void filemap_inject_write_errors(struct nlru_file *file, int err, int count);
/* Test hook: fail the next @count reads of @file with @err. */
void filemap_inject_read_errors(struct nlru_file *file, int err, int count);
/* Test hook: call @hook(@arg) after each readahead read, before its pages are unlocked. */
void filemap_set_read_hook(struct nlru_file *file, void (*hook)(void *arg), void *arg);
/*
 * Test hook, invalidate_mapping_pages() for one page: drop page @index of @file from the
 * cache if it is clean and unused, leaving a shadow entry.  True if it was dropped.
 */
bool filemap_invalidate_page(struct nlru_file *file, uint32_t index);

/*
 * migrate_page() for a page cache page of @file: under the file's lock, if @page is still the
 * page at its index, lru_migrate_page() moves it into @newpage and the index follows.  Owner
 * table read-locked.  0, -EAGAIN or -EXDEV (lru.h).
 */
int filemap_migrate_page(struct nlru_engine *eng, struct nlru_file *file, struct page *page,
			 struct page *newpage);
/* Test hook: the page cached at @index of @file, or NULL (it may go at any time). */
struct page *filemap_cached_page(struct nlru_file *file, uint32_t index);

/*
 * Engine destruction: flush and close files left open.  -EIO naming a file whose pages could
 * not be written, -EBUSY naming one with pinned pages.
 */
int filemap_close_all(struct nlru_engine *eng);

#endif /* NODELRU_FILEMAP_H */
