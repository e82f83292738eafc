/*
 * filecache - the engine's page cache against the kernel's, side by side in one run:
 *   read   sequential 1 MiB preads of a file already cached, through the engine (its pages
 *          resident) and straight from the kernel's page cache with pread(2)
 *   copy   a file twice the engine's memory copied through the engine (read one file,
 *          write the other, then close, which writes back), with pread/pwrite through a
 *          buffer and page by page through pinned pages, against `cp` of the same file
 *          (coreutils 9 copies in the kernel with copy_file_range, no byte crossing into
 *          user space) and against a user-space read/write loop of 1 MiB through the kernel
 * Both sides read and write the same files on the same file system; figures are medians of
 * --samples runs.  Usage: filecache [--mib N] [--samples N] [--dir DIR]
 */
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <nodelru/nodelru.h>

#include "bench_util.h"

#define CHUNK (1 << 20)

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

static double copy_engine_mbs(struct nlru_engine *eng, const char *src, const char *dst,
			      long mib, char *buf)
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
static double copy_pinned_mbs(struct nlru_engine *eng, const char *src, const char *dst,
			      long mib)
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

int main(int argc, char **argv)
{
	long mib = 64;
	int samples = 5;
	const char *dir = "/tmp";
	char src[512], dst[512], big[512];
	double eng_read[32], kern_read[32], eng_copy[32], pin_copy[32], cp_copy[32], loop_copy[32];
	struct nlru_engine *eng, *small;
	struct nlru_config cfg;
	struct nlru_file *f;
	char *buf = malloc(CHUNK);

	for (int i = 1; i + 1 < argc; i += 2) {
		if (strcmp(argv[i], "--mib") == 0)
			mib = atol(argv[i + 1]);
		else if (strcmp(argv[i], "--samples") == 0)
			samples = atoi(argv[i + 1]);
		else if (strcmp(argv[i], "--dir") == 0)
			dir = argv[i + 1];
	}
	if (samples < 1 || samples > 32)
		samples = 5;
	snprintf(src, sizeof(src), "%s/nlru-fc-src", dir);
	snprintf(big, sizeof(big), "%s/nlru-fc-big", dir);
	snprintf(dst, sizeof(dst), "%s/nlru-fc-dst", dir);
	make_file(src, mib);
	make_file(big, 2 * mib);

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
	for (int s = 0; s < samples; s++) {
		eng_copy[s] = copy_engine_mbs(small, big, dst, 2 * mib, buf);
		unlink(dst);
		pin_copy[s] = copy_pinned_mbs(small, big, dst, 2 * mib);
		unlink(dst);
		cp_copy[s] = copy_cp_mbs(big, dst, 2 * mib);
		unlink(dst);
		loop_copy[s] = copy_loop_mbs(big, dst, 2 * mib, buf);
		unlink(dst);
	}
	nlru_engine_destroy(small);
	unlink(src);
	unlink(big);

	printf("# median of %d samples; files in %s\n", samples, dir);
	printf("cached read, %3ld MiB   engine %8.0f MB/s   kernel pread %8.0f MB/s   %5.0f%%\n", mib,
	       median(eng_read, samples), median(kern_read, samples),
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
	free(buf);
	return 0;
}
