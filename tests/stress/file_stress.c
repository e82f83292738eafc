/*
 * file_stress - threads copy files larger than the engine through its page cache while
 * another thread keeps an anonymous region busy and kswapd reclaims; every copy must match
 * its source.  Plain main() (exit 0 pass, 1 fail) so it runs under ThreadSanitizer.
 *
 * Usage: file_stress [copiers] [MiB per file]
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <nodelru/nodelru.h>

#include "debug_log.h"

static atomic_long errors;
static atomic_bool done;
static char dir[] = "/tmp/nlru-file-stress-XXXXXX";

struct copier {
	struct nlru_engine *eng;
	char src[256], dst[256];
	long mib;
};

static void fail(const char *what)
{
	fprintf(stderr, "file_stress: %s\n", what);
	atomic_fetch_add(&errors, 1);
}

static void make_source(struct copier *c, int seed)
{
	char buf[4096];
	int fd = open(c->src, O_CREAT | O_TRUNC | O_WRONLY, 0600);

	for (long off = 0; fd >= 0 && off < c->mib << 20; off += (long)sizeof(buf)) {
		for (size_t i = 0; i < sizeof(buf); i++)
			buf[i] = (char)((off + (long)i) * 31 + seed + (off >> 12));
		if (write(fd, buf, sizeof(buf)) != (ssize_t)sizeof(buf))
			fail("cannot write the source");
	}
	if (fd >= 0)
		close(fd);
}

static void *copier_main(void *arg)
{
	struct copier *c = arg;
	struct nlru_file *a, *b;
	static _Thread_local char buf[50000];
	uint64_t off = 0;
	long n;

	if (nlru_file_open(c->eng, c->src, O_RDONLY, 0, NLRU_NUMA_NO_NODE, &a) ||
	    nlru_file_open(c->eng, c->dst, O_RDWR | O_CREAT | O_TRUNC, 0600, NLRU_NUMA_NO_NODE,
			   &b)) {
		fail("open");
		return NULL;
	}
	while ((n = nlru_file_pread(a, buf, sizeof(buf), off)) > 0) {
		if (nlru_file_pwrite(b, buf, (size_t)n, off) != n)
			fail("write");
		off += (uint64_t)n;
	}
	if (n < 0 || nlru_file_close(b) || nlru_file_close(a))
		fail("read or close");
	return NULL;
}

static void *hog_main(void *arg)
{
	struct nlru_engine *eng = arg;
	struct nlru_region *r;
	uint64_t *p;

	if (nlru_region_create(eng, 1024, NLRU_NUMA_NO_NODE, &r))
		return NULL;
	for (size_t i = 0; !atomic_load(&done); i = (i + 1) % 1024) {
		if (nlru_region_pin(r, i, NLRU_PIN_WRITE, (void **)&p))
			continue;
		if (p[0] && p[0] != i + 1)
			fail("anon page changed");
		p[0] = i + 1;
		nlru_region_unpin(r, i);
	}
	nlru_region_destroy(r);
	return NULL;
}

static bool same_files(const char *x, const char *y)
{
	char a[4096], b[4096];
	int fa = open(x, O_RDONLY), fb = open(y, O_RDONLY);
	ssize_t na, nb;
	bool same = fa >= 0 && fb >= 0;

	while (same && (na = read(fa, a, sizeof(a))) > 0) {
		nb = read(fb, b, sizeof(b));
		same = na == nb && memcmp(a, b, (size_t)na) == 0;
	}
	same = same && read(fb, b, 1) == 0;
	close(fa);
	close(fb);
	return same;
}

int main(int argc, char **argv)
{
	int copiers = argc > 1 ? atoi(argv[1]) : 2;
	long mib = argc > 2 ? atol(argv[2]) : 12;
	struct copier *c = calloc((size_t)copiers, sizeof(*c));
	pthread_t *tid = calloc((size_t)copiers, sizeof(*tid)), hog;
	struct nlru_engine *eng;
	struct nlru_config cfg;

	if (!c || !tid || !mkdtemp(dir))
		return 1;
	nlru_config_init(&cfg);
	cfg.node_mib = 8;
	cfg.swap_mib = 32;
	cfg.log = debug_log;
	if (nlru_engine_create(&cfg, &eng))
		return 1;
	pthread_create(&hog, NULL, hog_main, eng);
	for (int i = 0; i < copiers; i++) {
		c[i].eng = eng;
		c[i].mib = mib;
		snprintf(c[i].src, sizeof(c[i].src), "%s/src%d", dir, i);
		snprintf(c[i].dst, sizeof(c[i].dst), "%s/dst%d", dir, i);
		make_source(&c[i], i);
		pthread_create(&tid[i], NULL, copier_main, &c[i]);
	}
	for (int i = 0; i < copiers; i++)
		pthread_join(tid[i], NULL);
	atomic_store(&done, true);
	pthread_join(hog, NULL);
	for (int i = 0; i < copiers; i++) {
		if (!same_files(c[i].src, c[i].dst))
			fail("a copy differs from its source");
		unlink(c[i].src);
		unlink(c[i].dst);
	}
	rmdir(dir);
	if (nlru_engine_destroy(eng))
		fail("destroy");
	if (debug_log_reports())
		fail("debug checks failed (above)");
	printf("file_stress: %d copies of %ld MiB through an 8 MiB engine, %ld errors\n", copiers,
	       mib, atomic_load(&errors));
	free(c);
	free(tid);
	return atomic_load(&errors) ? 1 : 0;
}
