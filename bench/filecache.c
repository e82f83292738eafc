/*
 * filecache - the engine's page cache against the kernel's, side by side in one run:
 *   read   sequential 1 MiB preads of a file already cached, through the engine (its pages
 *          resident) and straight from the kernel's page cache with pread(2)
 *   copy   a file twice the engine's memory copied through the engine (read one file,
 *          write the other, then close, which writes back), with pread/pwrite through a
 *          buffer, page by page through pinned pages, and with nlru_file_copy_range (page to
 *          page, as cp copies), against `cp` of the same file
 *          (coreutils 9 copies in the kernel with copy_file_range, no byte crossing into
 *          user space), against a user-space read/write loop of 1 MiB through the kernel,
 *          and against a pipelined copy with no cache (below): the floor of the engine's copy
 * Both sides read and write the same files on the same file system; figures are medians of
 * --samples runs.  --only buffered|pinned|copy_range runs that engine copy alone and prints
 * its median as the last field, for A/Bs of two builds of the library (scripts/ab-libs.sh).
 * Usage: filecache [--mib N] [--samples N] [--dir DIR] [--only COPY]
 */
#include <fcntl.h>
#include <pthread.h>
#include <semaphore.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <nodelru/nodelru.h>

#include "bench_util.h"

#define CHUNK (1 << 20)
#define HUGE_PAGE (2ul << 20)

extern char **environ;

static void make_file(const char *path, long mib)
{
	char *buf = malloc(CHUNK);
	int fd = open(path, O_CREAT | O_TRUNC | O_WRONLY, 0600);

	for (long i = 0; fd >= 0 && i < mib; i++) {
		memset(buf, (int)i, CHUNK);
		if (write(fd, buf, CHUNK) != CHUNK)
			break;
	}
	close(fd);
	free(buf);
}

/* MB/s of reading @path sequentially, through the engine or the kernel. */
static double read_mbs(struct nlru_file *f, const char *path, long mib, char *buf)
{
	int fd = f ? -1 : open(path, O_RDONLY);
	double t0 = now_s();

	for (long off = 0; off < mib << 20; off += CHUNK) {
		long n = f ? nlru_file_pread(f, buf, CHUNK, (uint64_t)off)
			   : (long)pread(fd, buf, CHUNK, off);

		if (n != CHUNK)
			break;
	}
	t0 = now_s() - t0;
	if (fd >= 0)
		close(fd);
	return (double)mib * 1.048576 / t0;
}

static double copy_engine_mbs(struct nlru_engine *eng, const char *src, const char *dst, long mib,
			      char *buf)
{
	struct nlru_file *a, *b;
	double t0 = now_s();

	if (nlru_file_open(eng, src, O_RDONLY, 0, 0, &a) ||
	    nlru_file_open(eng, dst, O_RDWR | O_CREAT | O_TRUNC, 0600, 0, &b))
		return 0;
	for (long off = 0; off < mib << 20; off += CHUNK) {
		long n = nlru_file_pread(a, buf, CHUNK, (uint64_t)off);

		if (n <= 0 || nlru_file_pwrite(b, buf, (size_t)n, (uint64_t)off) != n)
			break;
	}
	nlru_file_close(b);
	nlru_file_close(a);
	return (double)mib * 1.048576 / (now_s() - t0);
}

/* The same copy with no buffer: each source page pinned and copied into a pinned page. */
static double copy_pinned_mbs(struct nlru_engine *eng, const char *src, const char *dst, long mib)
{
	struct nlru_file *a, *b;
	double t0 = now_s();

	if (nlru_file_open(eng, src, O_RDONLY, 0, 0, &a) ||
	    nlru_file_open(eng, dst, O_RDWR | O_CREAT | O_TRUNC, 0600, 0, &b))
		return 0;
	for (uint64_t index = 0; index < (uint64_t)mib << 8; index++) {
		void *from, *to;

		if (nlru_file_pin_page(a, index, 0, &from))
			break;
		if (nlru_file_pin_page(b, index, NLRU_PIN_WRITE, &to)) {
			nlru_file_unpin_page(a, index, 0);
			break;
		}
		memcpy(to, from, NLRU_PAGE_SIZE);
		nlru_file_unpin_page(b, index, NLRU_PAGE_SIZE);
		nlru_file_unpin_page(a, index, 0);
	}
	nlru_file_close(b);
	nlru_file_close(a);
	return (double)mib * 1.048576 / (now_s() - t0);
}

/* The same copy as `cp` makes it through the kernel: copy_file_range, page to page. */
static double copy_range_mbs(struct nlru_engine *eng, const char *src, const char *dst, long mib)
{
	struct nlru_file *a, *b;
	double t0 = now_s();
	long n;

	if (nlru_file_open(eng, src, O_RDONLY, 0, 0, &a) ||
	    nlru_file_open(eng, dst, O_RDWR | O_CREAT | O_TRUNC, 0600, 0, &b))
		return 0;
	n = nlru_file_copy_range(a, 0, b, 0, (size_t)mib << 20);
	nlru_file_close(b);
	nlru_file_close(a);
	return n == mib << 20 ? (double)mib * 1.048576 / (now_s() - t0) : 0;
}

static double copy_loop_mbs(const char *src, const char *dst, long mib, char *buf)
{
	int in = open(src, O_RDONLY), out = open(dst, O_CREAT | O_TRUNC | O_WRONLY, 0600);
	double t0 = now_s();
	ssize_t n;

	while ((n = read(in, buf, CHUNK)) > 0)
		if (write(out, buf, (size_t)n) != n)
			break;
	close(out);
	close(in);
	return (double)mib * 1.048576 / (now_s() - t0);
}

/*
 * The floor of the engine's buffered copy: the same four crossings (file to a page, page to
 * the caller's buffer, buffer to another page, page to the file), with the last done by a
 * second thread as the flusher does, over rings of 1 MiB slots as large as the engine; reads
 * of 128 KiB (the engine's readahead) and writes of 256 KiB (its writeback runs).  No page
 * allocation, index, LRU or reclaim: what the engine takes beyond this is its own overhead.
 */
struct pipeline {
	char *from, *to; /* the rings: source pages and destination pages */
	long slots, chunks;
	int fd_out;
	sem_t full, empty;
	int err;
};

static void *pipeline_writer(void *arg)
{
	struct pipeline *p = arg;

	for (long i = 0; i < p->chunks; i++) {
		char *slot = p->to + (i % p->slots) * CHUNK;

		sem_wait(&p->full);
		for (long off = 0; off < CHUNK && !p->err; off += CHUNK / 4)
			if (pwrite(p->fd_out, slot + off, CHUNK / 4, i * CHUNK + off) != CHUNK / 4)
				p->err = 1;
		sem_post(&p->empty);
	}
	return NULL;
}

/* @len bytes, zeroed, on transparent huge pages where the system gives them. */
static char *huge_ring(size_t len)
{
	char *ring = aligned_alloc(HUGE_PAGE, (len + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1));

	if (ring) {
		madvise(ring, len, MADV_HUGEPAGE);
		memset(ring, 0, len);
	}
	return ring;
}

static double copy_pipelined_mbs(const char *src, const char *dst, long mib, long ring_mib,
				 char *buf)
{
	struct pipeline p = {.slots = ring_mib / 2, .chunks = mib};
	int in = open(src, O_RDONLY);
	double t0 = now_s(), mbs = 0;
	pthread_t writer;

	/* Kept from one sample to the next, as the engine keeps its prefaulted pages: in this VM
	 * memory freshly mapped is slow for a while even once touched.  Huge pages, as the
	 * engine's node memory has. */
	static char *ring_from, *ring_to;

	p.fd_out = open(dst, O_CREAT | O_TRUNC | O_WRONLY, 0600);
	if (!ring_from) {
		ring_from = huge_ring((size_t)p.slots * CHUNK);
		ring_to = huge_ring((size_t)p.slots * CHUNK);
	}
	p.from = ring_from;
	p.to = ring_to;
	if (in < 0 || p.fd_out < 0 || !p.from || !p.to)
		goto out;
	sem_init(&p.full, 0, 0);
	sem_init(&p.empty, 0, (unsigned int)p.slots);
	t0 = now_s();
	if (pthread_create(&writer, NULL, pipeline_writer, &p))
		goto out;
	for (long i = 0; i < p.chunks; i++) {
		char *from = p.from + (i % p.slots) * CHUNK, *to = p.to + (i % p.slots) * CHUNK;

		sem_wait(&p.empty);
		for (long off = 0; off < CHUNK; off += 32 * 4096)
			if (pread(in, from + off, 32 * 4096, i * CHUNK + off) != 32 * 4096)
				p.err = 1;
		memcpy(buf, from, CHUNK);
		memcpy(to, buf, CHUNK);
		sem_post(&p.full);
	}
	pthread_join(writer, NULL);
	close(p.fd_out);
	p.fd_out = -1;
	mbs = p.err ? 0 : (double)mib * 1.048576 / (now_s() - t0);
out:
	if (p.fd_out >= 0)
		close(p.fd_out);
	if (in >= 0)
		close(in);
	return mbs;
}

static double copy_cp_mbs(const char *src, const char *dst, long mib)
{
	char *argv[] = {"cp", (char *)src, (char *)dst, NULL};
	double t0 = now_s();
	pid_t pid;
	int status;

	if (posix_spawnp(&pid, "cp", NULL, NULL, argv, environ) || waitpid(pid, &status, 0) < 0)
		return 0;
	return (double)mib * 1.048576 / (now_s() - t0);
}

/* --only: one engine copy, @samples times; prints and returns its median, 0 on failure. */
static double one_copy(const char *which, const char *big, const char *dst, long mib, int samples,
		       char *buf)
{
	struct nlru_engine *eng;
	struct nlru_config cfg;
	double mbs[32];

	nlru_config_init(&cfg);
	cfg.node_mib = mib;
	cfg.prefault = 1;
	if (nlru_engine_create(&cfg, &eng))
		return 0;
	for (int s = 0; s < samples; s++) {
		sync();
		if (strcmp(which, "buffered") == 0)
			mbs[s] = copy_engine_mbs(eng, big, dst, 2 * mib, buf);
		else if (strcmp(which, "pinned") == 0)
			mbs[s] = copy_pinned_mbs(eng, big, dst, 2 * mib);
		else
			mbs[s] = copy_range_mbs(eng, big, dst, 2 * mib);
		unlink(dst);
	}
	nlru_engine_destroy(eng);
	printf("%s, %ld MiB file, engine of %ld MiB, median of %d: %.0f\n", which, 2 * mib, mib,
	       samples, median(mbs, samples));
	return median(mbs, samples);
}

static const char usage[] =
	"usage: filecache [--mib N] [--samples N] [--dir DIR] [--only COPY]\n"
	"  --mib N      engine size in MiB; the copied file is twice that (default 64)\n"
	"  --samples N  runs of each figure, up to 32 (default 5)\n"
	"  --dir DIR    where the files are made (default /tmp)\n"
	"  --only COPY  buffered, pinned or copy_range: that engine copy alone\n";

int main(int argc, char **argv)
{
	const char *only = NULL;
	long mib = 64, nsamples = 5;
	const char *dir = "/tmp";
	const struct bench_opt opts[] = {
		{"--mib", &mib, NULL, 16, 65536},
		{"--samples", &nsamples, NULL, 1, 32},
		{.name = "--dir", .str = &dir},
		{.name = "--only", .str = &only},
		{NULL},
	};
	char src[512], dst[512], big[512];
	double eng_read[32], kern_read[32], eng_copy[32], pin_copy[32], cp_copy[32], loop_copy[32];
	double floor_copy[32], range_copy[32];
	struct nlru_engine *eng, *small;
	struct nlru_config cfg;
	struct nlru_file *f;
	int samples, r = bench_parse_opts(argc, argv, opts, usage);
	char *buf;

	if (r)
		return r > 0 ? 0 : 2;
	samples = (int)nsamples;
	if (only && strcmp(only, "buffered") && strcmp(only, "pinned") &&
	    strcmp(only, "copy_range")) {
		fprintf(stderr, "filecache: --only takes buffered, pinned or copy_range\n");
		return 2;
	}
	buf = malloc(CHUNK);
	if (!buf)
		return 1;
	snprintf(src, sizeof(src), "%s/nlru-fc-src", dir);
	snprintf(big, sizeof(big), "%s/nlru-fc-big", dir);
	snprintf(dst, sizeof(dst), "%s/nlru-fc-dst", dir);
	make_file(big, 2 * mib);
	if (only) {
		double mbs = one_copy(only, big, dst, mib, samples, buf);

		unlink(big);
		return mbs > 0 ? 0 : 1;
	}
	make_file(src, mib);

	/* read: an engine four times the file, the file read once to cache it everywhere */
	nlru_config_init(&cfg);
	cfg.node_mib = 4 * mib;
	cfg.prefault = 1;
	if (nlru_engine_create(&cfg, &eng) || nlru_file_open(eng, src, O_RDONLY, 0, 0, &f))
		return 1;
	read_mbs(f, src, mib, buf);
	read_mbs(NULL, src, mib, buf);
	for (int s = 0; s < samples; s++) {
		eng_read[s] = read_mbs(f, src, mib, buf);
		kern_read[s] = read_mbs(NULL, src, mib, buf);
	}
	nlru_file_close(f);
	nlru_engine_destroy(eng);

	/* copy: an engine half the file */
	cfg.node_mib = mib;
	if (nlru_engine_create(&cfg, &small))
		return 1;
	/*
	 * Each copy starts with the kernel's dirty pages on disk (sync, untimed): otherwise the
	 * kernel's own writeback of the copies before it, at the disk's pace, throttles whichever
	 * copy comes next.
	 */
	for (int s = 0; s < samples; s++) {
		sync();
		eng_copy[s] = copy_engine_mbs(small, big, dst, 2 * mib, buf);
		unlink(dst);
		sync();
		pin_copy[s] = copy_pinned_mbs(small, big, dst, 2 * mib);
		unlink(dst);
		sync();
		range_copy[s] = copy_range_mbs(small, big, dst, 2 * mib);
		unlink(dst);
		sync();
		cp_copy[s] = copy_cp_mbs(big, dst, 2 * mib);
		unlink(dst);
		sync();
		loop_copy[s] = copy_loop_mbs(big, dst, 2 * mib, buf);
		unlink(dst);
		sync();
		floor_copy[s] = copy_pipelined_mbs(big, dst, 2 * mib, mib, buf);
		unlink(dst);
	}
	nlru_engine_destroy(small);
	unlink(src);
	unlink(big);

	printf("# median of %d samples; files in %s\n", samples, dir);
	printf("cached read, %3ld MiB   engine %8.0f MB/s   kernel pread %8.0f MB/s   %5.0f%%\n",
	       mib, median(eng_read, samples), median(kern_read, samples),
	       100 * median(eng_read, samples) / median(kern_read, samples));
	printf("copy, %4ld MiB file    engine %8.0f MB/s   cp           %8.0f MB/s   %5.0f%%"
	       "  (engine of %ld MiB)\n",
	       2 * mib, median(eng_copy, samples), median(cp_copy, samples),
	       100 * median(eng_copy, samples) / median(cp_copy, samples), mib);
	printf("                                           read/write   %8.0f MB/s   %5.0f%%\n",
	       median(loop_copy, samples),
	       100 * median(eng_copy, samples) / median(loop_copy, samples));
	printf("copy, pinned pages     engine %8.0f MB/s   cp           %8.0f MB/s   %5.0f%%\n",
	       median(pin_copy, samples), median(cp_copy, samples),
	       100 * median(pin_copy, samples) / median(cp_copy, samples));
	printf("copy, copy_range       engine %8.0f MB/s   cp           %8.0f MB/s   %5.0f%%\n",
	       median(range_copy, samples), median(cp_copy, samples),
	       100 * median(range_copy, samples) / median(cp_copy, samples));
	printf("copy, no cache         floor  %8.0f MB/s   cp           %8.0f MB/s   %5.0f%%"
	       "  (two threads, the engine's crossings)\n",
	       median(floor_copy, samples), median(cp_copy, samples),
	       100 * median(floor_copy, samples) / median(cp_copy, samples));
	free(buf);
	return 0;
}
