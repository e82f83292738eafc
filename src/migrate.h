/*
 * Page migration (Linux 4.8 mm/migrate.c, one page at a time): an in-use page of a region or
 * of the page cache moves to another page of its zone, so that compaction can empty a block.
 */
#ifndef NODELRU_MIGRATE_H
#define NODELRU_MIGRATE_H

struct nlru_engine;
struct page;

/*
 * migrate_page(): move @page into @newpage, a page the caller allocated (refcount 1) in
 * @page's zone: its data, its place in its region's slot or its file's index, its place on
 * its LRU list and its flags.  @page is then freed.  What may not move now is left alone:
 * -EAGAIN when it is pinned, read, locked, under writeback, isolated by reclaim or freed
 * meanwhile (a pin taken while migration runs waits for the owner's lock, so it finds one
 * page or the other, whole); -EINVAL when it has no owner (a page of nlru_alloc_pages(), a
 * slab page: never migrated); -EXDEV when @newpage is of another zone.  @newpage stays the
 * caller's on failure.  Takes the owner table's read lock, then the owner's and the LRU's.
 * Counts pgmigrate_success or pgmigrate_fail (each call, where Linux counts a page once
 * after the ten passes of migrate_pages()).
 */
int migrate_page(struct nlru_engine *eng, struct page *page, struct page *newpage);

#endif /* NODELRU_MIGRATE_H */
