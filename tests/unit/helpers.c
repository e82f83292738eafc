/* Shared helpers of the unit tests. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/lsan_interface.h>
#else
static int __lsan_do_recoverable_leak_check(void)
{
	return 0;
}
#endif

#include "buddy.h"
#include "helpers.h"
#include "lru.h"
#include "page_alloc.h"
#include "pcp.h"
#include "reclaim_mode.h"
#include "vmscan.h"
#include "vmstat.h"
#include "zonelist.h"

char test_log_last[512];
int test_log_count;
char test_log_debug[512];

void test_log(void *arg, enum nlru_log_level level, const char *msg)
{
	snprintf(test_log_last, sizeof(test_log_last), "%s", msg);
	test_log_count++;
	if (!strncmp(msg, "debug: ", 7) && !test_log_debug[0])
		snprintf(test_log_debug, sizeof(test_log_debug), "%s", msg);
}

void check_debug_counters(void)
{
	cr_assert_eq(debug_check_failures(), 0, "%lu debug checks failed; the first said: %s",
		     debug_check_failures(), test_log_debug);
	cr_assert_eq(witness_violations(), 0, "%lu lock-order violations; the first said: %s",
		     witness_violations(), test_log_debug);
}

/*
 * The unit tests are linked with --wrap=nlru_engine_destroy (tests/unit/meson.build): every
 * engine a test destroys checks, as it goes, that no debug check failed and that the lock
 * order held for as long as the test ran.
 */
int __real_nlru_engine_destroy(struct nlru_engine *eng);
int __wrap_nlru_engine_destroy(struct nlru_engine *eng);

int __wrap_nlru_engine_destroy(struct nlru_engine *eng)
{
	int r = __real_nlru_engine_destroy(eng);

	check_debug_counters();
	return r;
}

int destroy_engine_unchecked(struct nlru_engine *eng)
{
	return __real_nlru_engine_destroy(eng);
}

void run_in_mode(enum nlru_mode mode)
{
	setenv("NLRU_MODE", mode == NLRU_MODE_ZONE ? "zone" : "node", 1);
}

int node_lruvecs(struct nlru_engine *eng, int nid, struct lruvec *out[NLRU_MAX_NR_ZONES])
{
	struct pglist_data *pgdat = NODE_DATA(eng, nid);
	int n = 0;

	for (int zid = 0; zid < MAX_NR_ZONES; zid++) {
		struct lruvec *lruvec = pgdat->node_zones[zid].page_lruvec;

		if (populated_zone(&pgdat->node_zones[zid]) && (!n || out[n - 1] != lruvec))
			out[n++] = lruvec;
	}
	return n;
}

void test_config(struct nlru_config *cfg, long node_mib, const char *topology)
{
	nlru_config_init(cfg);
	cfg->node_mib = node_mib;
	cfg->topology = topology;
	cfg->log = test_log;
	test_log_last[0] = '\0';
	test_log_count = 0;
}

struct nlru_engine *test_engine(long node_mib, const char *topology)
{
	struct nlru_engine *eng = NULL;
	struct nlru_config cfg;
	int r;

	test_config(&cfg, node_mib, topology);
	r = nlru_engine_create(&cfg, &eng);
	cr_assert_eq(r, 0, "engine_create(%ld MiB, %s) = %d: %s", node_mib,
		     topology ? topology : "real", r, test_log_last);
	return eng;
}

void check_free_lists(struct nlru_engine *eng)
{
	for (int nid = 0; nid < eng->nr_nodes; nid++)
		for (int zid = 0; zid < MAX_NR_ZONES; zid++) {
			struct zone *zone = &NODE_DATA(eng, nid)->node_zones[zid];

			spin_lock(&zone->lock);
			int r = zone_check_free_lists(zone, &eng->log);
			spin_unlock(&zone->lock);
			cr_assert_eq(r, 0, "node %d zone %d free lists: %s", nid, zid,
				     test_log_last);
		}
}

void check_pages_accounted(struct nlru_engine *eng, long allocated)
{
	long free = 0, on_pcp = 0, managed = 0;

	for (int nid = 0; nid < eng->nr_nodes; nid++)
		for (int zid = 0; zid < MAX_NR_ZONES; zid++) {
			struct zone *zone = &NODE_DATA(eng, nid)->node_zones[zid];

			managed += zone->managed_pages;
			free += zone_page_state(zone, NLRU_NR_FREE_PAGES);
			for (int mt = 0; zone->pageset[0] && mt < MIGRATE_PCPTYPES; mt++)
				for (int cpu = 0; cpu < eng->nr_cpus; cpu++)
					on_pcp += pcp_count(&zone->pageset[mt][cpu]);
		}
	if (allocated >= 0)
		cr_assert_eq(free + on_pcp + allocated, managed,
			     "free %ld + per-CPU %ld + allocated %ld != managed %ld", free, on_pcp,
			     allocated, managed);
}

void count_free_blocks(struct nlru_engine *eng, unsigned long blocks[NLRU_MAX_ORDER])
{
	memset(blocks, 0, sizeof(unsigned long) * NLRU_MAX_ORDER);
	for (int nid = 0; nid < eng->nr_nodes; nid++)
		for (int zid = 0; zid < MAX_NR_ZONES; zid++)
			for (int o = 0; o < NLRU_MAX_ORDER; o++)
				blocks[o] +=
					NODE_DATA(eng, nid)->node_zones[zid].free_area[o].nr_free;
}

void check_no_leaks(void)
{
	cr_assert_eq(__lsan_do_recoverable_leak_check(), 0,
		     "LeakSanitizer found leaks (its report is on stderr)");
}

void destroy_engine(struct nlru_engine *eng)
{
	/* Every test ends here: the LRU lists and their counters must agree. */
	check_lru_invariants(eng, false);
	cr_assert_eq(nlru_engine_destroy(eng), 0, "destroy: %s", test_log_last);
	check_no_leaks();
}

struct nlru_engine *test_swap_engine(long node_mib, long swap_mib, bool kswapd)
{
	struct nlru_engine *eng = NULL;
	struct nlru_config cfg;

	test_config(&cfg, node_mib, NULL);
	cfg.swap_mib = swap_mib;
	cfg.kswapd = kswapd;
	cr_assert_eq(nlru_engine_create(&cfg, &eng), 0, "engine_create: %s", test_log_last);
	return eng;
}

int64_t vmstat_value(struct nlru_engine *eng, const char *name)
{
	struct nlru_vmstat snap = {.size = sizeof(snap), .version = NLRU_VMSTAT_VERSION};
	int64_t v = -1;

	cr_assert_eq(nlru_vmstat_read(eng, &snap), 0);
	cr_assert_eq(nlru_vmstat_get(&snap, name, &v), 0, "no counter %s", name);
	return v;
}

/* Walk @lruvec's lists: flags, sizes, and the per-zone sizes of the pages on them. */
static void check_lruvec_lists(struct lruvec *lruvec)
{
	struct pglist_data *pgdat = lruvec->pgdat;

	for (int lru = 0; lru < NR_LRU_LISTS; lru++) {
		long per_zone[MAX_NR_ZONES] = {0}, total = 0;
		uint32_t pfn;

		pfnlist_for_each(pfn, &lruvec->lists[lru], pgdat->pages) {
			struct page *page = &pgdat->pages[pfn];

			cr_assert(page_test(page, PG_lru),
				  "node %d pfn %u on list %d without PG_lru", pgdat->node_id, pfn,
				  lru);
			cr_assert_eq((int)page_lru(page), lru, "pfn %u on list %d belongs on %d",
				     pfn, lru, (int)page_lru(page));
			cr_assert_eq(page_lruvec(pgdat, page), lruvec,
				     "pfn %u of zone %d is on another zone's lists", pfn,
				     (int)page_zonenum(page));
			per_zone[page_zonenum(page)]++;
			total++;
		}
		cr_assert_eq((long)lruvec_lru_size(lruvec, (enum lru_list)lru), total,
			     "node %d list %d: counter %lu, walked %ld", pgdat->node_id, lru,
			     lruvec_lru_size(lruvec, (enum lru_list)lru), total);
		for (int zid = 0; zid < MAX_NR_ZONES; zid++) {
			if (lruvec->zone && zid != lruvec->zone->zone_idx)
				continue;
			cr_assert_eq((long)zone_lru_size(pgdat, zid, (enum lru_list)lru),
				     per_zone[zid],
				     "node %d zone %d list %d: counter %lu, walked %ld",
				     pgdat->node_id, zid, lru,
				     zone_lru_size(pgdat, zid, (enum lru_list)lru), per_zone[zid]);
		}
	}
}

/* Zone mode keeps each node item per zone too: the node counter is their sum. */
static void check_zone_copies(struct pglist_data *pgdat)
{
	for (int i = NLRU_NR_ISOLATED_ANON; i < NR_VM_NODE_STAT_ITEMS; i++) {
		long sum = 0;

		for (int zid = 0; zid < MAX_NR_ZONES; zid++)
			sum += zone_node_page_state(&pgdat->node_zones[zid], i);
		cr_assert_eq(sum, node_page_state(pgdat, i),
			     "node %d %s: zones add up to %ld, node %ld", pgdat->node_id,
			     nlru_node_stat_name(i), sum, node_page_state(pgdat, i));
	}
}

void check_lru_invariants(struct nlru_engine *eng, bool only_anon_allocated)
{
	long anon = 0, isolated = 0;

	for (int nid = 0; nid < eng->nr_nodes; nid++) {
		struct pglist_data *pgdat = NODE_DATA(eng, nid);
		bool zone_mode = nlru_engine_mode(eng) == NLRU_MODE_ZONE;

		for (int zid = 0; zid < MAX_NR_ZONES; zid++) {
			struct lruvec *lruvec =
				zone_mode ? &pgdat->node_zones[zid].zm->lruvec : &pgdat->lruvec;

			if (!zone_mode && zid)
				break;
			spin_lock(&lruvec->lru_lock);
			check_lruvec_lists(lruvec);
			spin_unlock(&lruvec->lru_lock);
		}
		if (zone_mode)
			check_zone_copies(pgdat);
		anon += node_page_state(pgdat, NLRU_NR_ANON_MAPPED);
		isolated += node_page_state(pgdat, NLRU_NR_ISOLATED_ANON) +
			    node_page_state(pgdat, NLRU_NR_ISOLATED_FILE);
	}
	cr_assert_leq(vmstat_value(eng, "pgsteal_kswapd"), vmstat_value(eng, "pgscan_kswapd"));
	cr_assert_leq(vmstat_value(eng, "pgsteal_direct"), vmstat_value(eng, "pgscan_direct"));
	/* Isolated pages are still mapped anon pages: in use + isolated is all of anon. */
	cr_assert_leq(isolated, anon);
	if (only_anon_allocated)
		check_pages_accounted(eng, (anon - isolated) + isolated);
}

static char test_folder[] = "/tmp/nlru-test-XXXXXX";
static bool test_folder_made;

const char *test_dir(void)
{
	if (!test_folder_made)
		cr_assert(test_folder_made = mkdtemp(test_folder) != NULL);
	return test_folder;
}

const char *test_path(const char *name)
{
	static char path[4][256];
	static int next;
	char *p = path[next++ % 4];

	snprintf(p, 256, "%s/%s", test_dir(), name);
	return p;
}

void test_remove_dir(void)
{
	DIR *d;
	struct dirent *e;
	char path[512];

	if (!test_folder_made || !(d = opendir(test_folder)))
		return;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.') {
			snprintf(path, sizeof(path), "%s/%s", test_folder, e->d_name);
			unlink(path);
		}
	closedir(d);
	rmdir(test_folder);
}

_Atomic uint64_t test_fake_now;

uint64_t test_fake_clock(void *arg)
{
	(void)arg;
	return atomic_load(&test_fake_now);
}

/* The byte at @pos of a file make_file() wrote with @seed. */
unsigned char byte_at(uint64_t pos, unsigned int seed)
{
	return (unsigned char)((pos * 2654435761u) >> 13 ^ (pos >> 12) ^ seed);
}

/* A real file of @bytes written with plain write(2). */
void make_file(const char *path, uint64_t bytes, unsigned int seed)
{
	static unsigned char buf[1 << 16];
	int fd = open(path, O_CREAT | O_TRUNC | O_WRONLY, 0600);

	cr_assert(fd >= 0);
	for (uint64_t off = 0; off < bytes; off += sizeof(buf)) {
		size_t n = (size_t)MIN((uint64_t)sizeof(buf), bytes - off);

		for (size_t i = 0; i < n; i++)
			buf[i] = byte_at(off + i, seed);
		cr_assert_eq(write(fd, buf, n), (ssize_t)n);
	}
	close(fd);
}

uint64_t file_size(const char *path)
{
	struct stat st;

	cr_assert_eq(stat(path, &st), 0, "%s", path);
	return (uint64_t)st.st_size;
}

/* Compare two real files byte for byte. */
void expect_same_files(const char *a, const char *b)
{
	static unsigned char x[1 << 16], y[1 << 16];
	int fa = open(a, O_RDONLY), fb = open(b, O_RDONLY);
	ssize_t na, nb;
	uint64_t off = 0;

	cr_assert(fa >= 0 && fb >= 0);
	do {
		na = read(fa, x, sizeof(x));
		nb = read(fb, y, sizeof(y));
		cr_assert_eq(na, nb, "sizes differ at %llu", (unsigned long long)off);
		cr_assert_eq(memcmp(x, y, (size_t)MAX(na, 0)), 0, "contents differ near %llu",
			     (unsigned long long)off);
		off += (uint64_t)MAX(na, 0);
	} while (na > 0);
	close(fa);
	close(fb);
}

/* Copy @src to @dst through the engine in chunks of @chunk bytes (read A, write B). */
void copy_through(struct nlru_engine *eng, const char *src, const char *dst, size_t chunk)
{
	struct nlru_file *a, *b;
	char *buf = malloc(chunk);
	uint64_t off = 0;
	long n;

	cr_assert_eq(nlru_file_open(eng, src, O_RDONLY, 0, 0, &a), 0);
	cr_assert_eq(nlru_file_open(eng, dst, O_RDWR | O_CREAT | O_TRUNC, 0600, 0, &b), 0);
	while ((n = nlru_file_pread(a, buf, chunk, off)) > 0) {
		cr_assert_eq(nlru_file_pwrite(b, buf, (size_t)n, off), n, "%s", test_log_last);
		off += (uint64_t)n;
	}
	cr_assert_eq(n, 0, "read error %ld: %s", n, test_log_last);
	cr_assert_eq(nlru_file_close(b), 0, "%s", test_log_last);
	cr_assert_eq(nlru_file_close(a), 0);
	free(buf);
}

void reclaim_pass(struct nlru_engine *eng, unsigned int gfp)
{
	struct scan_control sc = {
		.nr_to_reclaim = SWAP_CLUSTER_MAX,
		.gfp_mask = gfp,
		.reclaim_idx = ZONE_NORMAL,
		.priority = 0,
		.may_writepage = 1,
		.may_unmap = 1,
		.may_swap = 1,
		.ignore_unreclaimable = 1,
	};

	eng->mode->shrink_zones(eng, node_zonelist(NODE_DATA(eng, 0), gfp), &sc);
}
