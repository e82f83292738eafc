/*
 * filemap_truncate.c - taking pages and shadow entries out of a file's index other than by
 * reclaim (Linux 4.8 mm/truncate.c: truncate_inode_pages, which Linux runs when the inode is
 * evicted and the engine at close, and invalidate_mapping_pages for one page; the shadow
 * shrinker of mm/workingset.c for the shadow entries, taken file by file here).
 *
 * Locking: truncation runs at close with the owner table write-locked and file->lock held, so
 * no reclaim or writeback holds a page of the file (and no other call on the file may run
 * beside close).  Invalidation isolates its page from the LRU and then drops it through
 * reclaim's own path (filemap_remove_page), with the owner table read-locked.  Shadow
 * trimming read-locks the owner table and only trylocks each file, passing over a busy one,
 * as Linux's shadow_lru_isolate only trylocks the tree_lock.
 *
 * Not done: truncation to a length (ftruncate), hole punching, invalidation of a range.
 * Besides reclaim, only close drops a file's pages; the one-page invalidation is a test hook.
 */
#include "filemap.h"
#include "filemap_internal.h"
#include "lru.h"
#include "owner.h"
#include "page_alloc.h"
#include "vmstat.h"

/* Drop every cached page and shadow: owners write-locked, so reclaim holds none of them. */
void truncate_cache(struct nlru_file *file)
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
		rwlock_rdlock(&eng->owners->lock);
		dropped = filemap_remove_page(eng, page);
		rwlock_unlock(&eng->owners->lock);
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

	rwlock_rdlock(&eng->owners->lock);
	for (uint32_t id = 1; id < eng->owners->capacity && trimmed < nr; id++) {
		struct owner_head *owner = owner_lookup(eng->owners, id);
		struct nlru_file *file = (struct nlru_file *)owner;

		if (!owner || owner->type != OWNER_FILE || !spin_trylock(&file->lock))
			continue;
		trimmed += trim_file(eng, file, nid, nr - trimmed);
		spin_unlock(&file->lock);
	}
	rwlock_unlock(&eng->owners->lock);
	return trimmed;
}
