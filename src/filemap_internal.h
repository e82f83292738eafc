/*
 * What filemap.c (the cache: reads, writes, pins, open and close) and filemap_writeback.c
 * (dirty pages and their writeback) share: the file object and the page-slot helpers.
 * Private to those two files.
 */
#ifndef NODELRU_FILEMAP_INTERNAL_H
#define NODELRU_FILEMAP_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/uio.h>

#include "engine.h"
#include "flusher.h"
#include "inject.h"
#include "page_alloc.h"
#include "pageindex.h"
#include "spinlock.h"
#include "workingset.h"

#define WALK_BATCH 64 /* index entries a walk takes per hold of the file's lock */

struct nlru_file {
	struct owner_head owner; /* OWNER_FILE; owner.id is page->mapping of its pages */
	struct nlru_engine *eng;
	int fd;
	dev_t dev; /* the file's identity: one engine caches a file through one open only */
	ino_t ino;
	bool writable;
	int nid;
	char *path;
	struct spinlock lock; /* protects idx, size, ra_next, and dirty/writeback of its pages */
	struct pageindex idx;
	uint64_t size;
	uint32_t ra_next;  /* the page a sequential reader reads next */
	uint32_t wb_index; /* where the flusher's next writeback starts (writeback_index) */
	int wb_err;        /* first writeback error not yet reported by fsync (errno) */
	long pins;         /* pinned pages (each pin counted): close waits for none */
	long nr_dirty;     /* PG_dirty pages: the file is on the flusher's list while any */
	struct dirty_link dirty_link;
	bool readable;
	struct fault_injection inject;      /* test hook: fail the next writes */
	struct fault_injection inject_read; /* test hook: fail the next reads */
	void (*read_hook)(void *arg);       /* test hook: a read done, its pages not yet out */
	void *read_hook_arg;
};

static inline uint64_t page_slot(const struct pglist_data *pgdat, uint32_t pfn)
{
	return ((uint64_t)pfn << 8) | ((uint64_t)pgdat->node_id << 2) | SLOT_PAGE;
}

static inline struct page *slot_page(const struct nlru_engine *eng, uint64_t v)
{
	return &NODE_DATA(eng, slot_nid(v))->pages[v >> 8];
}

static inline void *address_of(const struct nlru_engine *eng, struct page *page)
{
	struct pglist_data *pgdat = page_pgdat(eng, page);

	return page_address(pgdat, page_to_pfn(pgdat, page));
}

/* Past the @done bytes a short preadv/pwritev moved: the entries of *@iov left, the first cut. */
static inline int iov_advance(struct iovec **iov, int cnt, size_t done)
{
	while (cnt > 0 && done >= (*iov)->iov_len) {
		done -= (*iov)->iov_len;
		(*iov)++;
		cnt--;
	}
	if (cnt > 0) {
		(*iov)->iov_base = (char *)(*iov)->iov_base + done;
		(*iov)->iov_len -= done;
	}
	return cnt;
}

static inline void get_page(struct page *page)
{
	__atomic_add_fetch(&page->refcount, 1, __ATOMIC_ACQ_REL);
}

static inline void put_page(struct page *page)
{
	__atomic_sub_fetch(&page->refcount, 1, __ATOMIC_ACQ_REL);
}

/* filemap_writeback.c, where each is described. */
void set_page_dirty(struct nlru_file *file, struct page *page);
int writeback_pages(struct nlru_file *file, long nr, long *written);
void balance_dirty_pages_ratelimited(struct nlru_file *file, unsigned long pages);

#endif /* NODELRU_FILEMAP_INTERNAL_H */
