/*
 * fault_soak - anonymous, file and page allocation work at once on a two-node engine, for a
 * bounded time, while the swap file's and the file's I/O fail on and off (EIO, ENOSPC,
 * injected through the engine's test hooks).  Every byte is checked: each anonymous page and
 * allocated block on every access, the file through the cache on every read and on disk at
 * the end.  Then the faults stop, everything is written, freed and closed, the engine's LRU
 * and page counters must be back to zero, and destroy must succeed.  In a build with
 * -Ddebug_checks=full the engine's own invariants are checked throughout (debug_log.h).
 * The mode is the default's (NLRU_MODE): the test setups run it in both.
 *
 * Usage: fault_soak [seconds]
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <nodelru/nodelru.h>
#include <nodelru/vmstat.h>

#include "debug_log.h"
#include "engine.h"
#include "filemap.h"
#include "swap.h"

#define NODE_MIB 12
#define ANON_PAGES 9216 /* 36 MiB: 1.5 times the engine */
#define FILE_PAGES 6144 /* 24 MiB: the engine's size */
#define BLOCKS 64       /* allocated blocks held at once */
#define UNKNOWN UINT32_MAX

static atomic_bool stop;
static atomic_long mismatches; /* bytes that did not hold what was last written */
static atomic_long errors;     /* calls that failed where nothing may fail */
static atomic_long refusals;   /* -ENOMEM and injected I/O errors: expected under the soak */
static atomic_long operations;

static void fail(const char *what, long err)
{
	fprintf(stderr, "fault_soak: %s: %s\n", what, strerror((int)-err));
	atomic_fetch_add(&errors, 1);
}

/* The byte @b of page @page at @version: every byte differs from its neighbours'. */
static unsigned char byte_of(size_t page, uint32_t version, size_t b)
{
	return (unsigned char)(page * 131 + version * 17 + b * 7 + (b >> 8));
}

static void fill(unsigned char *p, size_t page, uint32_t version)
{
	for (size_t b = 0; b < 4096; b++)
		p[b] = byte_of(page, version, b);
}

static void check(const unsigned char *p, size_t page, uint32_t version)
{
	long bad = 0;

	for (size_t b = 0; b < 4096; b++)
		bad += p[b] != (version ? byte_of(page, version, b) : 0);
	if (bad) {
		fprintf(stderr, "fault_soak: page %zu: %ld wrong bytes\n", page, bad);
		atomic_fetch_add(&mismatches, bad);
	}
}

struct anon_worker {
	struct nlru_region *region;
	unsigned int seed;
	uint32_t version[ANON_PAGES]; /* 0: never written, zeroes */
};

static void anon_access(struct anon_worker *w, size_t i, bool write)
{
	unsigned char *p;
	int err = nlru_region_pin(w->region, i, write ? NLRU_PIN_WRITE : 0, (void **)&p);

	if (err == -ENOMEM) {
		atomic_fetch_add(&refusals, 1);
		return;
	}
	if (err) {
		fail("region pin", err);
		return;
	}
	check(p, i, w->version[i]);
	if (write)
		fill(p, i, ++w->version[i]);
	if ((err = nlru_region_unpin(w->region, i)))
		fail("region unpin", err);
}

static void *anon_main(void *arg)
{
	struct anon_worker *w = arg;

	while (!atomic_load(&stop)) {
		anon_access(w, (size_t)rand_r(&w->seed) % ANON_PAGES, rand_r(&w->seed) % 2);
		atomic_fetch_add(&operations, 1);
	}
	return NULL;
}

struct file_worker {
	struct nlru_file *file;
	unsigned int seed;
	uint32_t version[FILE_PAGES]; /* 0: zeroes; UNKNOWN: a short write left it mixed */
};

static void file_access(struct file_worker *w, size_t i, bool write)
{
	unsigned char buf[4096];
	long n;

	if (write) {
		fill(buf, i, w->version[i] == UNKNOWN ? 1 : w->version[i] + 1);
		n = nlru_file_pwrite(w->file, buf, sizeof(buf), (uint64_t)i << 12);
		if (n == (long)sizeof(buf))
			w->version[i] = w->version[i] == UNKNOWN ? 1 : w->version[i] + 1;
		else if (n > 0)
			w->version[i] = UNKNOWN;
		else if (n == -ENOMEM || n == -EIO || n == -ENOSPC)
			atomic_fetch_add(&refusals, 1);
		else
			fail("file write", n);
		return;
	}
	n = nlru_file_pread(w->file, buf, sizeof(buf), (uint64_t)i << 12);
	if (n == -ENOMEM || n == -EIO)
		atomic_fetch_add(&refusals, 1);
	else if (n != (long)sizeof(buf))
		fail("file read", n < 0 ? n : -EIO);
	else if (w->version[i] != UNKNOWN)
		check(buf, i, w->version[i]);
}

static void *file_main(void *arg)
{
	struct file_worker *w = arg;

	while (!atomic_load(&stop)) {
		size_t i = (size_t)rand_r(&w->seed) % FILE_PAGES;
		int what = rand_r(&w->seed) % 100;

		if (what == 0) {
			long err = nlru_file_fsync(w->file);

			if (err == -EIO || err == -ENOSPC || err == -ENOMEM)
				atomic_fetch_add(&refusals, 1);
			else if (err)
				fail("fsync", err);
		} else {
			file_access(w, i, what < 40);
		}
		atomic_fetch_add(&operations, 1);
	}
	return NULL;
}

struct alloc_worker {
	struct nlru_engine *eng;
	unsigned int seed;
	void *addr[BLOCKS];
	unsigned int order[BLOCKS];
	uint32_t version[BLOCKS];
};

static void release_block(struct alloc_worker *w, int k)
{
	int err;

	for (size_t pg = 0; pg < (1u << w->order[k]); pg++)
		check((unsigned char *)w->addr[k] + (pg << 12), pg, w->version[k]);
	if ((err = nlru_free_pages(w->eng, w->addr[k], w->order[k])))
		fail("free pages", err);
	w->addr[k] = NULL;
}

static void *alloc_main(void *arg)
{
	struct alloc_worker *w = arg;
	uint32_t next_version = 1;

	while (!atomic_load(&stop)) {
		int k = rand_r(&w->seed) % BLOCKS, err;

		if (w->addr[k]) {
			release_block(w, k);
			continue;
		}
		w->order[k] = (unsigned int)(rand_r(&w->seed) % 4);
		err = nlru_alloc_pages(w->eng, NLRU_GFP_KERNEL | NLRU_GFP_NOWARN, w->order[k],
				       rand_r(&w->seed) % 2, &w->addr[k]);
		if (err == -ENOMEM) {
			atomic_fetch_add(&refusals, 1);
			w->addr[k] = NULL;
			continue;
		}
		if (err) {
			fail("alloc pages", err);
			w->addr[k] = NULL;
			continue;
		}
		w->version[k] = next_version++;
		for (size_t pg = 0; pg < (1u << w->order[k]); pg++)
			fill((unsigned char *)w->addr[k] + (pg << 12), pg, w->version[k]);
		atomic_fetch_add(&operations, 1);
	}
	for (int k = 0; k < BLOCKS; k++)
		if (w->addr[k])
			release_block(w, k);
	return NULL;
}

/* Turn faults on and off at random until @seconds have passed. */
static void inject_faults(struct nlru_engine *eng, struct nlru_file *file, int seconds)
{
	struct timespec tick = {0, 50 * 1000 * 1000};
	unsigned int seed = 7;

	for (long t = 0; t < seconds * 20L; t++) {
		int what = rand_r(&seed) % 8, err = rand_r(&seed) % 2 ? EIO : ENOSPC;
		int count = 1 + rand_r(&seed) % 200;

		if (what == 0)
			swap_inject_write_errors(eng->swap, err, count);
		else if (what == 1)
			filemap_inject_write_errors(file, err, count);
		else if (what == 2)
			filemap_inject_read_errors(file, EIO, 1 + count / 20);
		else if (what == 3) {
			swap_inject_write_errors(eng->swap, 0, 0);
			filemap_inject_write_errors(file, 0, 0);
		}
		nanosleep(&tick, NULL);
	}
	swap_inject_write_errors(eng->swap, 0, 0);
	filemap_inject_write_errors(file, 0, 0);
	filemap_inject_read_errors(file, 0, 0);
}

/* The file on disk, read with plain pread(2), against what was written through the cache. */
static void check_file_on_disk(const char *path, const struct file_worker *w)
{
	unsigned char buf[4096];
	int fd = open(path, O_RDONLY);

	if (fd < 0) {
		fail("reopen the file", -errno);
		return;
	}
	for (size_t i = 0; i < FILE_PAGES; i++) {
		ssize_t n = pread(fd, buf, sizeof(buf), (off_t)(i << 12));

		if (n < 0 || (n < (ssize_t)sizeof(buf) && w->version[i]))
			fail("read the file back", n < 0 ? -errno : -EIO);
		else if (n == (ssize_t)sizeof(buf) && w->version[i] != UNKNOWN)
			check(buf, i, w->version[i]);
	}
	close(fd);
}

/* With nothing allocated, every LRU, page cache and writeback counter is back to zero. */
static void check_counters_idle(struct nlru_engine *eng)
{
	static const char *const idle[] = {
		"nr_inactive_anon", "nr_active_anon",   "nr_inactive_file", "nr_active_file",
		"nr_isolated_anon", "nr_isolated_file", "nr_file_pages",    "nr_anon_pages",
		"nr_dirty",         "nr_writeback",     "nr_unevictable",
	};
	struct nlru_vmstat snap = {.size = sizeof(snap), .version = NLRU_VMSTAT_VERSION};
	int64_t v;

	if (nlru_vmstat_read(eng, &snap)) {
		fail("vmstat read", -EIO);
		return;
	}
	for (size_t i = 0; i < sizeof(idle) / sizeof(idle[0]); i++)
		if (nlru_vmstat_get(&snap, idle[i], &v) || v != 0) {
			fprintf(stderr, "fault_soak: %s is %lld with nothing allocated\n", idle[i],
				(long long)v);
			atomic_fetch_add(&errors, 1);
		}
}

/* Create @path as a file of @size bytes of zeroes (a hole). */
static int truncate_new(const char *path, off_t size)
{
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);

	if (fd < 0 || ftruncate(fd, size)) {
		fail("create the file", -errno);
		return -1;
	}
	close(fd);
	return 0;
}

/* Whether the soak did what it is for: swap-outs, some failed, and file pages written back. */
static bool what_was_tested(struct nlru_engine *eng)
{
	static const char *const needed[] = {"pswpout", "pswpin", "nlru_swap_write_fail",
					     "nr_written", "pgalloc_normal"};
	struct nlru_vmstat snap = {.size = sizeof(snap), .version = NLRU_VMSTAT_VERSION};
	bool all = true;
	int64_t v;

	nlru_vmstat_read(eng, &snap);
	for (size_t i = 0; i < sizeof(needed) / sizeof(needed[0]); i++) {
		v = 0;
		nlru_vmstat_get(&snap, needed[i], &v);
		printf("fault_soak: %s %lld\n", needed[i], (long long)v);
		if (v <= 0) {
			fprintf(stderr, "fault_soak: %s is 0: the soak did not test it\n",
				needed[i]);
			all = false;
		}
	}
	return all;
}

int main(int argc, char **argv)
{
	int seconds = argc > 1 ? atoi(argv[1]) : 30;
	static struct anon_worker anon = {.seed = 3};
	static struct file_worker file = {.seed = 5};
	static struct alloc_worker alloc = {.seed = 11};
	char dir[] = "/tmp/nlru-fault-soak-XXXXXX", path[64];
	struct nlru_engine *eng;
	struct nlru_config cfg;
	pthread_t tid[3];
	bool tested;
	long err;

	if (!mkdtemp(dir))
		return 1;
	/* The file has its full size from the start: every page reads whole, zeroes at first. */
	snprintf(path, sizeof(path), "%s/file", dir);
	if (truncate_new(path, (off_t)FILE_PAGES << 12))
		return 1;
	nlru_config_init(&cfg);
	cfg.topology = "pack:2 numa:1 core:1 pu:1";
	cfg.node_mib = NODE_MIB;
	cfg.swap_mib = 2 * ANON_PAGES / 256;
	cfg.log = debug_log;
	if ((err = nlru_engine_create(&cfg, &eng))) {
		fail("engine create", err);
		return 1;
	}
	alloc.eng = eng;
	if ((err = nlru_region_create(eng, ANON_PAGES, NLRU_NUMA_NO_NODE, &anon.region)) ||
	    (err = nlru_file_open(eng, path, O_RDWR, 0, NLRU_NUMA_NO_NODE, &file.file))) {
		fail("region or file", err);
		return 1;
	}
	pthread_create(&tid[0], NULL, anon_main, &anon);
	pthread_create(&tid[1], NULL, file_main, &file);
	pthread_create(&tid[2], NULL, alloc_main, &alloc);
	inject_faults(eng, file.file, seconds);
	atomic_store(&stop, true);
	for (int i = 0; i < 3; i++)
		pthread_join(tid[i], NULL);

	/* Faults off: everything must come back and go out. */
	for (size_t i = 0; i < ANON_PAGES; i++)
		anon_access(&anon, i, false);
	for (size_t i = 0; i < FILE_PAGES; i++)
		file_access(&file, i, false);
	/* One fsync may report an error the soak's faults left; the next must succeed. */
	nlru_file_fsync(file.file);
	if ((err = nlru_file_fsync(file.file)))
		fail("fsync with the faults off", err);
	if ((err = nlru_file_close(file.file)))
		fail("file close", err);
	check_file_on_disk(path, &file);
	if ((err = nlru_region_destroy(anon.region)))
		fail("region destroy", err);
	check_counters_idle(eng);
	tested = what_was_tested(eng);
	if ((err = nlru_engine_destroy(eng)))
		fail("engine destroy", err);
	unlink(path);
	rmdir(dir);
	printf("fault_soak: %d s, %ld operations, %ld wrong bytes, %ld refusals (expected), "
	       "%ld errors, %ld debug reports\n",
	       seconds, atomic_load(&operations), atomic_load(&mismatches), atomic_load(&refusals),
	       atomic_load(&errors), debug_log_reports());
	return atomic_load(&mismatches) || atomic_load(&errors) || debug_log_reports() || !tested;
}
