/* iobench - the parts paralleldd and tiobench share (iobench.h). */
#include "iobench.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

const char *const *iobench_scale_sets(struct iobench_scale *s, long node_mib)
{
	if (s->engine_scale)
		return NULL;
	series_scale_tunables(node_mib, s->buf, s->sets);
	return s->sets;
}

void iobench_print_scale(struct iobench_scale *s, const char *bench, const struct harness_opts *h)
{
	const char *const *sets = iobench_scale_sets(s, h->node_mib);

	if (!sets) {
		printf("%s at the engine's own scale (--engine-scale)", bench);
	} else {
		printf("%s on the node-lru series' time scale:", bench);
		for (; *sets; sets++)
			printf(" %s", *sets);
	}
	harness_print_user_sets(h);
	printf("\n\n");
}

uint64_t iobench_engine_bytes(const struct harness_opts *h, struct nlru_engine *eng)
{
	return (uint64_t)h->node_mib * (uint64_t)nlru_engine_nr_nodes(eng) << 20;
}

/* xorshift64: cheap bytes no file system or cache could compress. */
static void fill_random(uint64_t *buf, size_t words, uint64_t *x)
{
	for (size_t i = 0; i < words; i++) {
		*x ^= *x << 13;
		*x ^= *x >> 7;
		*x ^= *x << 17;
		buf[i] = *x;
	}
}

int iobench_write_file(const char *path, uint64_t bytes)
{
	enum { CHUNK = 1 << 20 };
	uint64_t *buf = malloc(CHUNK), x = 0x9e3779b97f4a7c15ull;
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644), r = 0;

	if (fd < 0 || !buf) {
		r = fd < 0 ? -errno : -ENOMEM;
		goto out;
	}
	for (uint64_t off = 0; !r && off < bytes; off += CHUNK) {
		size_t n = bytes - off < CHUNK ? (size_t)(bytes - off) : CHUNK;

		fill_random(buf, CHUNK / sizeof(*buf), &x);
		if (pwrite(fd, buf, n, (off_t)off) != (ssize_t)n)
			r = -EIO;
	}
	if (!r && fdatasync(fd))
		r = -errno;
out:
	if (fd >= 0)
		close(fd);
	free(buf);
	if (r)
		fprintf(stderr, "%s: %s\n", path, strerror(-r));
	return r;
}

int iobench_write_file_engine(struct nlru_engine *eng, const char *path, uint64_t bytes,
			      size_t block)
{
	size_t words = (block + sizeof(uint64_t) - 1) / sizeof(uint64_t);
	uint64_t *buf = malloc(words * sizeof(uint64_t)), x = 0x9e3779b97f4a7c15ull;
	struct nlru_file *file = NULL;
	int r = buf ? nlru_file_open(eng, path, O_RDWR | O_CREAT | O_TRUNC, 0644, NLRU_NUMA_NO_NODE,
				     &file)
		    : -ENOMEM;

	for (uint64_t off = 0; !r && off < bytes; off += block) {
		size_t n = bytes - off < block ? (size_t)(bytes - off) : block;
		long done;

		fill_random(buf, words, &x);
		done = nlru_file_pwrite(file, buf, n, off);
		if (done != (long)n)
			r = done < 0 ? (int)done : -EIO;
	}
	if (!r)
		r = nlru_file_fsync(file);
	if (file && nlru_file_close(file) && !r)
		r = -EIO;
	free(buf);
	if (r)
		fprintf(stderr, "%s: %s\n", path, strerror(-r));
	return r;
}

int iobench_idle_anon(struct nlru_engine *eng, uint64_t engine_bytes, long pct,
		      struct nlru_region **out)
{
	size_t pages = (size_t)(engine_bytes / 100 * (uint64_t)pct / NLRU_PAGE_SIZE);
	int r;

	*out = NULL;
	if (!pages)
		return 0;
	r = nlru_region_create(eng, pages, NLRU_NUMA_NO_NODE, out);
	for (size_t i = 0; !r && i < pages; i++) {
		void *addr;

		r = nlru_region_pin(*out, i, NLRU_PIN_WRITE, &addr);
		if (!r) {
			memset(addr, (int)(i & 0xff) | 1, 64);
			r = nlru_region_unpin(*out, i);
		}
	}
	if (r) {
		fprintf(stderr, "idle anonymous memory: %s\n", strerror(-r));
		if (*out)
			nlru_region_destroy(*out);
		*out = NULL;
	}
	return r;
}

int iobench_active_file(struct nlru_engine *eng, const char *path, uint64_t engine_bytes, long pct,
			struct nlru_file **out)
{
	enum { CHUNK = 1 << 20 };
	uint64_t bytes = engine_bytes / 100 * (uint64_t)pct;
	char *buf;
	int r;

	*out = NULL;
	if (!bytes)
		return 0;
	buf = malloc(CHUNK);
	r = buf ? iobench_write_file(path, bytes) : -ENOMEM;
	if (!r)
		r = nlru_file_open(eng, path, O_RDONLY, 0, NLRU_NUMA_NO_NODE, out);
	/* Two passes: the second reference moves each page to the active list. */
	for (int pass = 0; !r && pass < 2; pass++)
		for (uint64_t off = 0; !r && off < bytes; off += CHUNK) {
			size_t n = bytes - off < CHUNK ? (size_t)(bytes - off) : CHUNK;
			long got = nlru_file_pread(*out, buf, n, off);

			if (got != (long)n)
				r = got < 0 ? (int)got : -EIO;
		}
	free(buf);
	unlink(path); /* the open file keeps its data; nothing is left behind */
	if (r) {
		fprintf(stderr, "active file cache: %s\n", strerror(-r));
		if (*out)
			nlru_file_close(*out);
		*out = NULL;
	}
	return r;
}

void iobench_thread_cpu(double *user, double *sys)
{
	struct rusage ru;

	if (getrusage(RUSAGE_THREAD, &ru)) {
		*user = *sys = 0;
		return;
	}
	*user = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6;
	*sys = (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

void iobench_gate_init(struct iobench_gate *g)
{
	pthread_mutex_init(&g->lock, NULL);
	pthread_cond_init(&g->cond, NULL);
	g->open = 0;
}

void iobench_gate_wait(struct iobench_gate *g)
{
	pthread_mutex_lock(&g->lock);
	while (!g->open)
		pthread_cond_wait(&g->cond, &g->lock);
	pthread_mutex_unlock(&g->lock);
}

void iobench_gate_open(struct iobench_gate *g)
{
	pthread_mutex_lock(&g->lock);
	g->open = 1;
	pthread_cond_broadcast(&g->cond);
	pthread_mutex_unlock(&g->lock);
}

void iobench_gate_destroy(struct iobench_gate *g)
{
	pthread_cond_destroy(&g->cond);
	pthread_mutex_destroy(&g->lock);
}
