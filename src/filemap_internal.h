/*
 * What the page cache's files share: the file object, the page-slot helpers, and the calls
 * one part of the cache makes into another.  filemap.c opens and closes files and puts pages
 * in their index; filemap_read.c reads (and reads ahead); filemap_write.c writes and copies;
 * filemap_truncate.c drops pages and shadow entries; filemap_writeback.c writes dirty pages
 * back.  Private to those five files.
 */
#ifndef NODELRU_FILEMAP_INTERNAL_H
#define NODELRU_FILEMAP_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/uio.h>

#include "debug.h"
#include "engine.h"
#include "flusher.h"
#include "inject.h"
#include "mmzone.h"
#include "owner.h"
#include "page.h"
#include "pageindex.h"
#include "spinlock.h"
#include "workingset.h"

#define WALK_BATCH 64 /* index entries a walk takes per hold of the file's lock */
/* Pages copied per lookup: one hold of the file's lock for a run of cached pages. */
#define COPY_BATCH 16
/* Page offsets are 32-bit: files of up to 16 TiB (Linux's s_maxbytes). */
#define MAX_FILE_BYTES (((uint64_t)UINT32_MAX + 1) << PAGE_SHIFT)

struct nlru_file {
	struct owner_head owner; /* OWNER_FILE; owner.id is page->mapping of its pages */
	struct nlru_engine *eng;
	int fd;
	int dio_fd; /* the same file opened O_DIRECT (blkdev_direct), or -1 */
	dev_t dev;  /* the file's identity: one engine caches a file through one open only */
	ino_t ino;
	bool writable;
	int nid;
	char *path;
	struct spinlock lock; /* protects idx, size, ra_next, and dirty/writeback of its pages */
	struct pageindex idx;
	uint64_t size;
	uint64_t
		max_bytes; /* the file system's largest file, at most MAX_FILE_BYTES (s_maxbytes) */
	uint32_t ra_next;  /* the page a sequential reader reads next */
	uint32_t ra_end;   /* the page after the last readahead window (file_ra_state's end) */
	uint64_t ra_prev_pos; /* where the last read ended (file_ra_state's prev_pos; atomic) */
	uint32_t wb_index;    /* where the flusher's next writeback starts (writeback_index) */
	int wb_err;           /* first writeback error not yet reported by fsync (errno) */
	int wb_last_err;    /* the latest writeback error (errno), for a flush that saw it happen */
	int wb_failing;     /* errno of the latest write if it failed, 0 once one succeeded */
	long pins;          /* pinned pages (each pin counted): close waits for none */
	uint32_t inflight;  /* bios of this file not yet ended (atomic): close waits for none */
	uint32_t wb_errors; /* writes that failed so far (atomic): a flush compares before/after */
	long nr_dirty;      /* PG_dirty pages: the file is on the flusher's list while any */
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

/* What of a read of @len bytes at @offset lies below the largest file the cache holds. */
static inline size_t within_max_file(uint64_t offset, size_t len)
{
	return (size_t)MIN((uint64_t)len, offset < MAX_FILE_BYTES ? MAX_FILE_BYTES - offset : 0);
}

static inline bool page_uptodate(const struct page *page)
{
	return __atomic_load_n(&page->flags, __ATOMIC_ACQUIRE) & (1u << PG_uptodate);
}

/* The page's contents are in: whoever sees PG_uptodate sees them too. */
static inline void set_page_uptodate(struct page *page)
{
	__atomic_fetch_or(&page->flags, 1u << PG_uptodate, __ATOMIC_RELEASE);
}

/* filemap.c, where each is described. */
int add_to_page_cache(struct nlru_file *file, struct page *page, uint32_t index, bool write,
		      bool *activate);
void activate_refault(struct nlru_engine *eng, struct page *page);
int alloc_cache_pages(struct nlru_file *file, struct page **pages, int n, bool write);

/* filemap_read.c, where each is described. */
struct page *get_cache_page(struct nlru_file *file, uint32_t index, bool write, int *err);
int get_read_pages(struct nlru_file *file, uint64_t pos, uint64_t limit, struct page **pages,
		   uint64_t *end, int *err);
void put_read_pages(struct nlru_file *file, struct page **pages, int n, uint64_t pos, uint64_t end);

/* filemap_truncate.c, where it is described. */
void truncate_cache(struct nlru_file *file);

/* filemap_writeback.c, where each is described. */
void set_page_dirty(struct nlru_file *file, struct page *page);
void discard_dirty_page(struct nlru_file *file, struct page *page);
int writeback_pages(struct nlru_file *file, long nr, long *written);
int balance_dirty_pages_ratelimited(struct nlru_file *file, unsigned long pages);
int dirty_share_error(struct nlru_file *file);

#endif /* NODELRU_FILEMAP_INTERNAL_H */
