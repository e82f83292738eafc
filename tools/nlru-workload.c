/*
 * nlru-workload - create an engine, run a short allocation workload on every node, and print
 * the engine's /proc/vmstat and /proc/zoneinfo dumps.  The main job until the benchmarks.
 *
 * Usage: nlru-workload [--set name=value]... [--topology DESC] [--pages N]
 * Each node is filled until the allocator says -ENOMEM (or N allocations), so the dumps show
 * the fast path, the fallback to other nodes and zones, and the slow path's counters.  Then an
 * anonymous region twice the engine's size is written and read back on every node, which
 * drives kswapd, direct reclaim and the swap file, and a file twice the engine's size is
 * copied through its page cache; any mismatch fails the run.
 * Uses only the public API, like any embedder.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <nodelru/nodelru.h>
#include <nodelru/vmstat.h>

static void log_stderr(void *arg, enum nlru_log_level level, const char *msg)
{
	static const char *const names[] = {"error", "warning", "info", "debug"};

	fprintf(stderr, "nodelru %s: %s\n", names[level], msg);
}

static void usage(void)
{
	struct nlru_tunable_info info;

	fprintf(stderr, "usage: nlru-workload [--topology DESC] [--pages N] [--set name=value]...\n"
			"tunables:\n");
	for (unsigned int i = 0; nlru_tunable_info(i, &info) == 0; i++)
		fprintf(stderr, "  %-28s %s (default %ld)\n", info.name, info.help, info.def);
}

static int parse_args(int argc, char **argv, struct nlru_config *cfg, long *pages)
{
	for (int i = 1; i < argc; i++) {
		char *value = i + 1 < argc ? argv[i + 1] : NULL;
		char *eq;

		if (strcmp(argv[i], "--topology") == 0 && value) {
			cfg->topology = value;
		} else if (strcmp(argv[i], "--pages") == 0 && value) {
			*pages = strtol(value, NULL, 0);
		} else if (strcmp(argv[i], "--set") == 0 && value && (eq = strchr(value, '='))) {
			*eq = '\0';
			if (nlru_config_set(cfg, value, eq + 1))
				return -EINVAL;
		} else {
			usage();
			return -EINVAL;
		}
		i++;
	}
	return 0;
}

/* Allocate @pages order-0 pages on @nid (mixing in some order-2 blocks), touch, free. */
static int node_workload(struct nlru_engine *eng, int nid, long pages)
{
	struct nlru_vmstat snap = {.size = sizeof(snap), .version = NLRU_VMSTAT_VERSION};
	void **addr;

	/* Never more allocations than the engine has pages. */
	nlru_vmstat_read(eng, &snap);
	if (pages > snap.zone[NLRU_NR_FREE_PAGES] + 1)
		pages = snap.zone[NLRU_NR_FREE_PAGES] + 1;
	addr = calloc((size_t)pages, sizeof(void *));
	long n = 0;
	int r = 0;

	if (!addr)
		return -ENOMEM;
	for (; n < pages; n++) {
		unsigned int order = n % 16 == 15 ? 2 : 0;

		r = nlru_alloc_pages(eng, NLRU_GFP_HIGHUSER_MOVABLE, order, nid, &addr[n]);
		if (r)
			break;
		memset(addr[n], (int)n, NLRU_PAGE_SIZE << order);
	}
	for (long i = 0; i < n; i++)
		nlru_free_pages(eng, addr[i], i % 16 == 15 ? 2 : 0);
	free(addr);
	return r == -ENOMEM ? 0 : r;
}

/* Write a distinct word into every page of a region of 2x the engine, then check them all. */
static int anon_workload(struct nlru_engine *eng, int nid, size_t pages)
{
	struct nlru_region *region;
	long bad = 0;
	int r = nlru_region_create(eng, pages, nid, &region);

	for (size_t pass = 0; !r && pass < 2; pass++) {
		for (size_t i = 0; i < pages && !r; i++) {
			uint64_t *p;

			r = nlru_region_pin(region, i, pass ? 0 : NLRU_PIN_WRITE, (void **)&p);
			if (r)
				break;
			if (pass)
				bad += p[i % 512] != (i * 2654435761u ^ (uint64_t)nid);
			else
				p[i % 512] = i * 2654435761u ^ (uint64_t)nid;
			nlru_region_unpin(region, i);
		}
	}
	if (!r)
		r = nlru_region_destroy(region);
	if (bad) {
		fprintf(stderr, "nlru-workload: %ld pages came back from swap changed\n", bad);
		return -EIO;
	}
	return r;
}

/* Copy a file of @bytes through the page cache and compare the copy with its source. */
static int file_workload(struct nlru_engine *eng, uint64_t bytes)
{
	char dir[] = "/tmp/nlru-workload-XXXXXX", src[64], dst[64];
	static char buf[1 << 16], back[1 << 16];
	struct nlru_file *a = NULL, *b = NULL;
	int r = 0, fd;
	long n;

	if (!mkdtemp(dir))
		return -errno;
	snprintf(src, sizeof(src), "%s/src", dir);
	snprintf(dst, sizeof(dst), "%s/dst", dir);
	fd = open(src, O_CREAT | O_WRONLY | O_TRUNC, 0600);
	for (uint64_t off = 0; fd >= 0 && off < bytes; off += sizeof(buf)) {
		for (size_t i = 0; i < sizeof(buf); i++)
			buf[i] = (char)((off + i) * 131 >> 7);
		if (write(fd, buf, sizeof(buf)) != (ssize_t)sizeof(buf))
			r = -EIO;
	}
	if (fd >= 0)
		close(fd);
	if (!r)
		r = nlru_file_open(eng, src, O_RDONLY, 0, NLRU_NUMA_NO_NODE, &a);
	if (!r)
		r = nlru_file_open(eng, dst, O_RDWR | O_CREAT | O_TRUNC, 0600, NLRU_NUMA_NO_NODE,
				   &b);
	for (uint64_t off = 0; !r && (n = nlru_file_pread(a, buf, sizeof(buf), off)) > 0;
	     off += (uint64_t)n)
		if (nlru_file_pwrite(b, buf, (size_t)n, off) != n)
			r = -EIO;
	if (b && nlru_file_close(b) && !r)
		r = -EIO;
	if (a)
		nlru_file_close(a);
	/* The copy as the kernel sees it, against the source. */
	int fs = open(src, O_RDONLY), fdst = open(dst, O_RDONLY);
	while (!r && (n = read(fs, buf, sizeof(buf))) > 0)
		if (read(fdst, back, (size_t)n) != n || memcmp(buf, back, (size_t)n))
			r = -EIO;
	close(fs);
	close(fdst);
	unlink(src);
	unlink(dst);
	rmdir(dir);
	if (r == -EIO)
		fprintf(stderr, "nlru-workload: the file copy through the page cache differs\n");
	return r;
}

int main(int argc, char **argv)
{
	struct nlru_engine *eng;
	struct nlru_config cfg;
	long pages = 1L << 30;
	int r;

	nlru_config_init(&cfg);
	cfg.log = log_stderr;
	if (parse_args(argc, argv, &cfg, &pages))
		return 2;
	r = nlru_engine_create(&cfg, &eng);
	if (r) {
		fprintf(stderr, "nlru-workload: cannot create the engine: %s\n", strerror(-r));
		return 1;
	}
	for (int nid = 0; nid < nlru_engine_nr_nodes(eng) && !r; nid++)
		r = node_workload(eng, nid, pages);
	for (int nid = 0; nid < nlru_engine_nr_nodes(eng) && !r; nid++)
		r = anon_workload(eng, nid,
				  2 * (size_t)cfg.node_mib * 256 *
					  (size_t)nlru_engine_nr_nodes(eng));
	if (!r)
		r = file_workload(eng, 2 * ((uint64_t)cfg.node_mib << 20) *
					       (uint64_t)nlru_engine_nr_nodes(eng));
	if (!r) {
		printf("# /proc/vmstat\n");
		r = nlru_vmstat_dump(eng, stdout);
		printf("# /proc/zoneinfo\n");
		r = r ? r : nlru_zoneinfo_dump(eng, stdout);
	}
	if (nlru_engine_destroy(eng) && !r)
		r = -EBUSY;
	if (r)
		fprintf(stderr, "nlru-workload: %s\n", strerror(-r));
	return r ? 1 : 0;
}
