/*
 * migrate.c - page migration: find a page's owner by page->mapping and have it move the page
 * (anon_migrate_page(), filemap_migrate_page()), both through lru_migrate_page().
 *
 * Linux isolates the page from its LRU list, unmaps it, copies it and puts the new page back
 * at the head of a list.  Here the owner's lock and the LRU lock are held across the copy
 * instead: a page no one else references cannot gain a reference while both are held (a pin
 * or a read needs the owner's lock, reclaim's isolation the LRU's), so the copy is never torn,
 * and the new page takes the old one's place on its list, its age kept.  The locks are held
 * for one 4 KiB copy.
 */
#include <errno.h>

#include "anon.h"
#include "filemap.h"
#include "migrate.h"
#include "owner.h"
#include "page_alloc.h"
#include "vmstat.h"

int migrate_page(struct nlru_engine *eng, struct page *page, struct page *newpage)
{
	uint32_t id = page_mapping_id(page);
	struct owner_head *owner;
	int r;

	if (!id)
		return -EINVAL;
	/* The table's lock keeps the owner alive; the owner then checks the page is its own. */
	rwlock_rdlock(&eng->owners->lock);
	owner = owner_lookup(eng->owners, id);
	if (!owner)
		r = -EAGAIN;
	else if (owner->type == OWNER_REGION)
		r = anon_migrate_page(eng, (struct nlru_region *)owner, page, newpage);
	else
		r = filemap_migrate_page(eng, (struct nlru_file *)owner, page, newpage);
	rwlock_unlock(&eng->owners->lock);
	if (r) {
		count_vm_event(eng, NLRU_PGMIGRATE_FAIL);
		return r;
	}
	count_vm_event(eng, NLRU_PGMIGRATE_SUCCESS);
	free_pages_trusted(eng, page, 0);
	return 0;
}
