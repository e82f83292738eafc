/*
 * filemap.c - the page cache's files and their index: open and close, flush and fsync,
 * pinned pages, and the two ends of a cached page's life, its insertion into the index and
 * its removal by reclaim leaving a shadow entry (Linux 4.8 mm/filemap.c:
 * __add_to_page_cache_locked, and __delete_from_page_cache for vmscan.c's __remove_mapping).
 * The rest of the cache: reads and readahead in filemap_read.c, writes and copy_range in
 * filemap_write.c, truncation, invalidation and shadow trimming in filemap_truncate.c, dirty
 * pages and their writeback in filemap_writeback.c.
 *
 * Locking: file->lock protects the page index, the file size and the dirty/writeback
 * transitions of its pages.  It is never held across I/O or an engine allocation.  A reader
 * or writer holds a page with a temporary reference while it copies, so reclaim, which wants
 * the index's reference and its own only, leaves the page alone.  A page being read in is
 * locked (PG_locked) from before its read until it is uptodate.  The owner table's rwlock
 * keeps the file alive while reclaim holds its pages isolated, as for regions; close takes
 * it for writing, so that no reclaim or writeback of the file is in flight when it goes.
 *
 * Pinned pages (nlru_file_pin_page) hold a reference for as long as they are pinned and count
 * their pins in page->private, which page cache pages do not otherwise use.
 *
 * Not done: one cache shared by several opens of a file (a second open of it in the same
 * engine is refused, since two caches would write back over each other), files other than
 * regular ones, and open flags writeback could not honour (O_APPEND, O_DIRECT, O_SYNC), which
 * are refused rather than half kept.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "blkdev.h"
#include "filemap.h"
#include "filemap_internal.h"
#include "lru.h"
#include "owner.h"
#include "page_alloc.h"
#include "pagewait.h"
#include "vmstat.h"

/* What nlru_file_open() takes beside the access mode. */
#define OPEN_FLAGS (O_CREAT | O_TRUNC | O_EXCL | O_CLOEXEC)

/*
 * Put @page in the index at @index unless someone else did first; file locked.  Returns 1
 * if it went in, 0 if another page is there, -ENOMEM if the index could not grow; and in
 * *activate whether a shadow says it should start active.  A page cached to be written
 * (@write: Linux's __GFP_WRITE) is no refault: its old contents are not what is wanted.
 */
int add_to_page_cache(struct nlru_file *file, struct page *page, uint32_t index, bool write,
		      bool *activate)
{
	struct nlru_engine *eng = file->eng;
	struct pglist_data *pgdat = page_pgdat(eng, page);
	uint64_t v = pageindex_lookup(&file->idx, index);

	CHECK_FULL(&eng->log, witness_holds(LOCK_FILE));
	/* A fresh page: the caller's alone, owned by no one yet. */
	CHECK_CHEAP(&eng->log,
		    !page->mapping && __atomic_load_n(&page->refcount, __ATOMIC_RELAXED) == 1);
	*activate = false;
	if ((v & SLOT_TAG_MASK) == SLOT_PAGE)
		return 0;
	if (pageindex_store(&file->idx, index, page_slot(pgdat, page_to_pfn(pgdat, page))))
		return -ENOMEM;
	if ((v & SLOT_TAG_MASK) == SLOT_SHADOW) {
		*activate = !write && workingset_refault(eng, v);
		workingset_shadow_gone(eng, v);
	}
	set_page_mapping(page, file->owner.id);
	set_page_index(page, index);
	/* The index's reference and the caller's. */
	__atomic_store_n(&page->refcount, 2, __ATOMIC_RELEASE);
	mod_page_node_state(pgdat, page, NLRU_NR_FILE_PAGES, 1);
	return 1;
}

/* A page whose shadow says it was evicted recently starts active (workingset_refault). */
void activate_refault(struct nlru_engine *eng, struct page *page)
{
	page_set(page, PG_active);
	workingset_activation(page_lruvec(page_pgdat(eng, page), page));
}

/*
 * Fresh pages for the cache, or fewer than asked when memory runs out.  Pages about to be
 * written into (@write) are asked for with NLRU_GFP_WRITE, as grab_cache_page_write_begin()
 * adds __GFP_WRITE to the mapping's gfp mask, so that they spread over the nodes (zones)
 * within their dirty limits; pages read in, readahead included, are not.
 */
int alloc_cache_pages(struct nlru_file *file, struct page **pages, int n, bool write)
{
	unsigned int gfp = NLRU_GFP_HIGHUSER_MOVABLE | (write ? NLRU_GFP_WRITE : 0);
	int got;

	for (got = 0; got < n; got++) {
		/* Pages past the first are readahead's, which may come short without a word
		 * (page_cache_alloc_readahead()'s __GFP_NOWARN). */
		pages[got] = alloc_pages_node(file->eng, gfp | (got ? NLRU_GFP_NOWARN : 0), 0,
					      file->nid);
		if (!pages[got])
			break;
	}
	return got;
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

	if (!file)
		return -EINVAL;
	if (!addr)
		return bad_pin(file, -EINVAL, "addr is NULL", index);
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
	/* The page is written already: a failing disk's error waits for fsync, not unpin. */
	if (written_end)
		(void)balance_dirty_pages_ratelimited(file, 1);
	return 0;
}

int nlru_file_flush(struct nlru_file *file)
{
	if (!file)
		return -EINVAL;
	/* The error the writes met (-ENOSPC, -EFBIG, -EIO, ...), not always -EIO. */
	return writeback_pages(file, -1, NULL);
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

/*
 * Flags the cache could not honour are refused before anything is opened or created:
 * writeback writes at each page's own offset (not with O_APPEND), through the kernel's page
 * cache (not with O_DIRECT), and when the engine chooses (not per write, O_SYNC).  True if
 * @flags are ones nlru_file_open() takes; says why not through the log.
 */
static bool open_flags_supported(struct nlru_engine *eng, const char *path, int flags)
{
	if ((flags & O_ACCMODE) == O_ACCMODE || (flags & ~(O_ACCMODE | OPEN_FLAGS))) {
		log_err(&eng->log,
			"open of %s: flags %#x are not O_RDONLY, O_WRONLY or O_RDWR with "
			"O_CREAT, O_TRUNC, O_EXCL or O_CLOEXEC",
			path, (unsigned int)flags);
		return false;
	}
	return true;
}

/* A file object for @path with an empty index and nothing opened yet, or NULL. */
static struct nlru_file *file_alloc(struct nlru_engine *eng, const char *path)
{
	struct nlru_file *file = calloc(1, sizeof(*file));

	if (file)
		file->fd = file->dio_fd = -1;
	if (!file || !(file->path = strdup(path))) {
		free(file);
		return NULL;
	}
	pageindex_init(&file->idx, eng->pageindex_cache);
	file->owner.type = OWNER_FILE;
	return file;
}

/* Frees what file_alloc() made and closes the file if it was opened; its index is empty. */
static void file_free(struct nlru_file *file)
{
	if (file->fd >= 0)
		close(file->fd);
	if (file->dio_fd >= 0)
		close(file->dio_fd);
	pageindex_destroy(&file->idx);
	free(file->path);
	free(file);
}

static void log_open_already(struct nlru_engine *eng, const char *path)
{
	log_err(&eng->log,
		"open of %s: the file is open in this engine already; share that "
		"handle (two would cache the file twice, and each lose the other's "
		"writes)",
		path);
}

/*
 * A file open here already is refused before open(2) could truncate it under that open:
 * -EBUSY, logged, or 0.  owner_register() checks again, for a racing open.
 */
static int refuse_if_open_already(struct nlru_engine *eng, struct nlru_file *file, const char *path)
{
	struct stat st;

	if (stat(path, &st) == 0) {
		file->dev = st.st_dev;
		file->ino = st.st_ino;
		if (owner_clashes(eng->owners, &file->owner, same_file)) {
			log_open_already(eng, path);
			return -EBUSY;
		}
	}
	return 0;
}

/*
 * open(2) @path into file->fd and fstat() it into *@st, refusing anything but a regular file.
 * The cache reads partial pages before writing them: a write-only file is opened for reading
 * too, as the kernel reads its own page cache whatever the opener's mode.  Without blocking,
 * so that a FIFO is refused rather than waited on for a writer.  0 or -errno, logged.
 */
static int open_regular_file(struct nlru_engine *eng, struct nlru_file *file, const char *path,
			     int flags, unsigned int mode, struct stat *st)
{
	int r;

	file->fd =
		open(path,
		     (flags & ~O_ACCMODE) | ((flags & O_ACCMODE) == O_RDONLY ? O_RDONLY : O_RDWR) |
			     O_CLOEXEC | O_NONBLOCK,
		     mode);
	if (file->fd < 0 || fstat(file->fd, st) < 0) {
		r = -errno;
		log_err(&eng->log, "open of %s failed: %s", path, strerror(-r));
		return r;
	}
	if (!S_ISREG(st->st_mode)) {
		log_err(&eng->log, "open of %s: it is %s", path,
			S_ISDIR(st->st_mode) ? "a directory" : "not a regular file");
		return S_ISDIR(st->st_mode) ? -EISDIR : -EINVAL;
	}
	if (fcntl(file->fd, F_SETFL, fcntl(file->fd, F_GETFL) & ~O_NONBLOCK) < 0) {
		r = -errno;
		log_err(&eng->log, "open of %s failed: %s", path, strerror(-r));
		return r;
	}
	return 0;
}

/*
 * The largest size the file system lets @fd's file have (Linux's s_maxbytes: 2^44 - 4096 on
 * ext4, 2^63 - 1 on XFS or tmpfs), and no more than the cache holds.  No call tells it, but
 * lseek() refuses an offset past it (vfs_setpos() in fs/read_write.c: -EINVAL) and takes any
 * up to it, so a binary search finds it; the file's offset is unused (I/O is positioned).
 */
static uint64_t file_max_bytes(int fd)
{
	uint64_t lo = 0, hi = MAX_FILE_BYTES; /* lseek takes lo; hi is the most asked for */

	if (lseek(fd, (off_t)hi, SEEK_SET) == (off_t)hi)
		return hi;
	while (hi - lo > 1) {
		uint64_t mid = lo + (hi - lo) / 2;

		if (lseek(fd, (off_t)mid, SEEK_SET) == (off_t)mid)
			lo = mid;
		else
			hi = mid;
	}
	lseek(fd, 0, SEEK_SET);
	return lo;
}

/* The state of a file just opened with @flags, whose fstat() is @st. */
static void file_init(struct nlru_file *file, struct nlru_engine *eng, int nid, int flags,
		      const struct stat *st)
{
	file->eng = eng;
	file->nid = nid;
	file->writable = (flags & O_ACCMODE) != O_RDONLY;
	file->readable = (flags & O_ACCMODE) != O_WRONLY;
	file->size = (uint64_t)st->st_size;
	file->dev = st->st_dev;
	file->ino = st->st_ino;
	file->max_bytes = file_max_bytes(file->fd);
	file->ra_next = UINT32_MAX;
	file->ra_prev_pos = UINT64_MAX;
	spin_lock_init(&file->lock, LOCK_FILE, &eng->log);
}

int nlru_file_open(struct nlru_engine *eng, const char *path, int flags, unsigned int mode, int nid,
		   struct nlru_file **out)
{
	struct nlru_file *file;
	struct stat st;
	int r;

	if (!eng)
		return -EINVAL;
	if (!path || !out)
		return log_einval(&eng->log,
				  "file open: needs a path and somewhere to put the "
				  "handle (%s is NULL)",
				  !path ? "path" : "out");
	if (nid != NLRU_NUMA_NO_NODE && (nid < 0 || nid >= eng->nr_nodes))
		return log_einval(&eng->log,
				  "file open of %s: node %d does not exist (the engine "
				  "has %d)",
				  path, nid, eng->nr_nodes);
	if (!open_flags_supported(eng, path, flags))
		return -EINVAL;
	file = file_alloc(eng, path);
	if (!file)
		return -ENOMEM;
	r = refuse_if_open_already(eng, file, path);
	if (!r && eng->cfg.blkdev_direct)
		r = blkdev_direct_precheck(path, path, &eng->log);
	if (!r)
		r = open_regular_file(eng, file, path, flags, mode, &st);
	if (!r && eng->cfg.blkdev_direct)
		r = blkdev_open_direct(file->fd, (flags & O_ACCMODE) != O_RDONLY, path, &eng->log,
				       &file->dio_fd);
	if (!r) {
		file_init(file, eng, nid, flags, &st);
		r = owner_register(eng->owners, &file->owner, same_file);
		if (r == -EBUSY)
			log_open_already(eng, path);
	}
	if (r) {
		file_free(file);
		return r;
	}
	*out = file;
	return 0;
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
		/* With the owners write-locked, no writeback of the file starts any more; what is
		 * in flight (and any read) ends without that lock. */
		rwlock_wrlock(&eng->owners->lock);
		wait_var_zero(&file->inflight);
		spin_lock(&file->lock);
		/* A pin may have come in during the writeback: check again where it cannot. */
		if (file->pins) {
			spin_unlock(&file->lock);
			rwlock_unlock(&eng->owners->lock);
			file_pinned(file);
			return -EBUSY;
		}
		if (!file->nr_dirty)
			break;
		/* Dirty again: a write another writer had in flight failed, or a writer raced. */
		spin_unlock(&file->lock);
		rwlock_unlock(&eng->owners->lock);
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
	owner_unregister(eng->owners, file->owner.id);
	rwlock_unlock(&eng->owners->lock);
	file_free(file);
	return 0;
}

long nlru_file_discard(struct nlru_file *file)
{
	struct nlru_engine *eng;
	uint32_t keys[WALK_BATCH], cursor = 0;
	uint64_t values[WALK_BATCH];
	long discarded = 0;

	if (!file)
		return -EINVAL;
	eng = file->eng;
	/* With the owners write-locked no writeback of the file starts: wait for those that
	 * did, so that every dirty page is dirty and none is under writeback. */
	rwlock_wrlock(&eng->owners->lock);
	wait_var_zero(&file->inflight);
	spin_lock(&file->lock);
	do {
		uint32_t got = pageindex_walk(&file->idx, &cursor, keys, values, WALK_BATCH);

		for (uint32_t i = 0; i < got; i++) {
			struct page *page;

			if ((values[i] & SLOT_TAG_MASK) != SLOT_PAGE)
				continue;
			page = slot_page(eng, values[i]);
			if (!page_test(page, PG_dirty))
				continue;
			discard_dirty_page(file, page);
			discarded++;
		}
	} while (cursor);
	/* The data is lost: the next fsync says so, once, if no error is pending already. */
	if (discarded && !file->wb_err)
		file->wb_err = file->wb_failing ? file->wb_failing : EIO;
	file->wb_failing = 0;
	spin_unlock(&file->lock);
	rwlock_unlock(&eng->owners->lock);
	if (discarded)
		log_warn(&eng->log,
			 "discard of %s: %ld dirty page(s) given up, their data not written",
			 file->path, discarded);
	return discarded;
}

bool filemap_remove_page(struct nlru_engine *eng, struct page *page)
{
	struct nlru_file *file = (struct nlru_file *)owner_lookup(eng->owners, page->mapping);
	struct pglist_data *pgdat = page_pgdat(eng, page);
	bool removed = false;

	/* Reclaim found the page by its mapping: the owner must be its file, open. */
	if (!CHECK_CHEAP(&eng->log, file && file->owner.type == OWNER_FILE))
		return false;
	/* Waited for, as 4.8 waits for tree_lock: a trylock would fail for all of a busy file. */
	spin_lock(&file->lock);
	/* __remove_mapping(): only the index and reclaim may hold it, and it must be clean. */
	if (__atomic_load_n(&page->refcount, __ATOMIC_ACQUIRE) == 2 && !page_test(page, PG_dirty) &&
	    !page_test(page, PG_writeback) &&
	    pageindex_store(&file->idx, page->index,
			    workingset_eviction(page_lruvec(pgdat, page), page)) == 0) {
		mod_page_node_state(pgdat, page, NLRU_NR_FILE_PAGES, -1);
		set_page_mapping(page, 0);
		set_page_index(page, 0);
		__atomic_store_n(&page->refcount, 0, __ATOMIC_RELEASE);
		removed = true;
	}
	spin_unlock(&file->lock);
	return removed;
}

int filemap_close_all(struct nlru_engine *eng)
{
	for (;;) {
		struct nlru_file *file = NULL;
		int r;

		rwlock_rdlock(&eng->owners->lock);
		for (uint32_t id = 1; id < eng->owners->capacity && !file; id++) {
			struct owner_head *owner = owner_lookup(eng->owners, id);

			if (owner && owner->type == OWNER_FILE)
				file = (struct nlru_file *)owner;
		}
		rwlock_unlock(&eng->owners->lock);
		if (!file)
			return 0;
		log_warn(&eng->log, "destroy: closing %s, which was left open", file->path);
		r = nlru_file_close(file);
		if (r)
			return r;
	}
}

int filemap_migrate_page(struct nlru_engine *eng, struct nlru_file *file, struct page *page,
			 struct page *newpage)
{
	struct pglist_data *pgdat = page_pgdat(eng, page);
	uint32_t index = page_index(page);
	int r = -EAGAIN;

	CHECK_FULL(&eng->log, witness_holds(LOCK_OWNERS));
	spin_lock(&file->lock);
	if (pageindex_lookup(&file->idx, index) == page_slot(pgdat, page_to_pfn(pgdat, page))) {
		r = lru_migrate_page(eng, page, newpage, true);
		/* The index has its node already: replacing an entry allocates nothing. */
		if (!r) {
			int stored = pageindex_store(&file->idx, index,
						     page_slot(pgdat, page_to_pfn(pgdat, newpage)));

			CHECK_CHEAP(&eng->log, stored == 0);
		}
	}
	spin_unlock(&file->lock);
	return r;
}

struct page *filemap_cached_page(struct nlru_file *file, uint32_t index)
{
	uint64_t v;

	spin_lock(&file->lock);
	v = pageindex_lookup(&file->idx, index);
	spin_unlock(&file->lock);
	return (v & SLOT_TAG_MASK) == SLOT_PAGE ? slot_page(file->eng, v) : NULL;
}
