/*
 * Mapped regions: pages used with plain loads and stores, faulted in through userfaultfd,
 * evicted to swap and faulted back intact, in both modes, from several threads at once, with
 * the pages resident in the program never more than the engine's memory.  Where the kernel
 * refuses userfaultfd the tests skip, saying why.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "helpers.h"
#include "mmzone.h"
#include "swap.h"

TestSuite(mapped, .timeout = 120);

#define ENGINE_PAGES 2048 /* an 8 MiB engine */

/* A mapped region of @pages pages, or the test skipped with the kernel's reason. */
static struct nlru_region *mapped_or_skip(struct nlru_engine *eng, size_t pages,
					  unsigned int threads, char **addr)
{
	struct nlru_region *region = NULL;
	int r = nlru_region_create_mapped(eng, pages, 0, threads, (void **)addr, &region);

	if (r == -EPERM || r == -ENOSYS || r == -EOPNOTSUPP) {
		cr_log_warn("userfaultfd unavailable: %s", test_log_last);
		destroy_engine(eng);
		cr_skip_test("userfaultfd unavailable here (%s): %s", strerror(-r), test_log_last);
	}
	cr_assert_eq(r, 0, "create_mapped: %s", test_log_last);
	return region;
}

/* Pages of [@addr, @addr + @pages) the kernel has mapped: what the program holds. */
static size_t resident_pages(const char *addr, size_t pages)
{
	unsigned char *vec = malloc(pages);
	size_t n = 0;

	cr_assert(vec);
	cr_assert_eq(mincore((void *)addr, pages * PAGE_SIZE, vec), 0);
	for (size_t i = 0; i < pages; i++)
		n += vec[i] & 1;
	free(vec);
	return n;
}

/* A stamp over the page: its index and @seed at every 512th byte and in the last word. */
static void stamp(char *page, size_t index, unsigned int seed)
{
	uint64_t v = (uint64_t)index << 32 | seed;

	for (size_t off = 0; off < PAGE_SIZE; off += 512)
		memcpy(page + off, &v, sizeof(v));
	memcpy(page + PAGE_SIZE - sizeof(v), &v, sizeof(v));
}

static bool stamped(const char *page, size_t index, unsigned int seed)
{
	uint64_t v = (uint64_t)index << 32 | seed, got;

	for (size_t off = 0; off < PAGE_SIZE; off += 512) {
		memcpy(&got, page + off, sizeof(got));
		if (got != v)
			return false;
	}
	memcpy(&got, page + PAGE_SIZE - sizeof(v), sizeof(got));
	return got == v;
}

Test(mapped, first_touch_reads_zeroes_and_counts_a_fault)
{
	struct nlru_engine *eng = test_swap_engine(8, 16, false);
	struct nlru_region *region;
	int64_t faults;
	char *mem;

	region = mapped_or_skip(eng, 16, 1, &mem);
	faults = vmstat_value(eng, "pgfault");
	for (size_t i = 0; i < 16; i++)
		cr_expect_eq(mem[i * PAGE_SIZE + 7], 0);
	cr_expect_eq(vmstat_value(eng, "pgfault"), faults + 16);
	cr_expect_eq(vmstat_value(eng, "nr_anon_pages"), 16, "each page holds an engine page");
	for (size_t i = 0; i < 16; i++)
		stamp(mem + i * PAGE_SIZE, i, 1);
	for (size_t i = 0; i < 16; i++)
		cr_expect(stamped(mem + i * PAGE_SIZE, i, 1));
	cr_expect_eq(vmstat_value(eng, "pgmajfault"), 0);
	cr_assert_eq(nlru_region_destroy(region), 0);
	cr_expect_eq(vmstat_value(eng, "nr_anon_pages"), 0);
	destroy_engine(eng);
}

/*
 * Twice the engine's memory, stamped, then read back: every page comes back from swap with
 * its stamp, and the program never holds more pages of the range than the engine has.
 */
static void integrity_through_swap(bool kswapd)
{
	size_t pages = 2 * ENGINE_PAGES, most = 0;
	struct nlru_engine *eng = test_swap_engine(8, 32, kswapd);
	struct nlru_region *region;
	char *mem;

	region = mapped_or_skip(eng, pages, 2, &mem);
	for (unsigned int pass = 1; pass <= 2; pass++) {
		for (size_t i = 0; i < pages; i++) {
			stamp(mem + i * PAGE_SIZE, i, pass);
			if (i % 256 == 0)
				most = MAX(most, resident_pages(mem, pages));
		}
		for (size_t i = 0; i < pages; i++) {
			cr_assert(stamped(mem + i * PAGE_SIZE, i, pass), "page %zu pass %u", i,
				  pass);
			if (i % 256 == 0)
				most = MAX(most, resident_pages(mem, pages));
		}
	}
	cr_expect_leq(most, ENGINE_PAGES, "the program held %zu pages", most);
	cr_expect_gt(vmstat_value(eng, "pswpout"), 0);
	cr_expect_gt(vmstat_value(eng, "pgmajfault"), 0);
	cr_expect_eq(vmstat_value(eng, "pgmajfault"), vmstat_value(eng, "pswpin"));
	cr_expect_leq(vmstat_value(eng, "nr_anon_pages"), ENGINE_PAGES);
	cr_assert_eq(nlru_region_destroy(region), 0);
	cr_expect_eq(vmstat_value(eng, "nr_anon_pages"), 0);
	cr_expect_eq(get_nr_swap_pages(eng), total_swap_pages(eng), "every slot freed");
	destroy_engine(eng);
}

Test(mapped, pages_come_back_from_swap_intact_node_mode)
{
	run_in_mode(NLRU_MODE_NODE);
	integrity_through_swap(false);
}

Test(mapped, pages_come_back_from_swap_intact_zone_mode)
{
	run_in_mode(NLRU_MODE_ZONE);
	integrity_through_swap(false);
}

Test(mapped, pages_come_back_from_swap_intact_with_kswapd)
{
	integrity_through_swap(true);
}

/* A page read back from swap and not written goes back without a second write. */
Test(mapped, a_clean_page_returns_to_swap_without_a_write)
{
	size_t pages = 2 * ENGINE_PAGES;
	struct nlru_engine *eng = test_swap_engine(8, 32, false);
	struct nlru_region *region;
	int64_t written;
	volatile char sink = 0;
	char *mem;

	region = mapped_or_skip(eng, pages, 1, &mem);
	for (size_t i = 0; i < pages; i++)
		stamp(mem + i * PAGE_SIZE, i, 3);
	for (size_t i = 0; i < pages; i++)
		sink += mem[i * PAGE_SIZE];
	written = vmstat_value(eng, "pswpout");
	for (size_t i = 0; i < pages; i++)
		cr_assert(stamped(mem + i * PAGE_SIZE, i, 3), "page %zu", i);
	cr_expect_lt(vmstat_value(eng, "pswpout") - written, (int64_t)pages / 4,
		     "read-only passes write little: %ld",
		     (long)(vmstat_value(eng, "pswpout") - written));
	(void)sink;
	cr_assert_eq(nlru_region_destroy(region), 0);
	destroy_engine(eng);
}

struct hammer {
	char *mem;
	size_t pages;
	unsigned int id, nr;
	atomic_int *bad;
};

/*
 * Each thread owns the pages i with i % nr == id, and also reads every page: its own it
 * stamps and checks, others' it only touches, racing their faults and evictions.
 */
static void *hammer_main(void *arg)
{
	struct hammer *h = arg;
	volatile char sink = 0;

	for (unsigned int pass = 1; pass <= 3; pass++) {
		for (size_t i = h->id; i < h->pages; i += h->nr)
			stamp(h->mem + i * PAGE_SIZE, i, pass * 16 + h->id);
		for (size_t i = 0; i < h->pages; i += 3)
			sink += h->mem[i * PAGE_SIZE + 8];
		for (size_t i = h->id; i < h->pages; i += h->nr)
			if (!stamped(h->mem + i * PAGE_SIZE, i, pass * 16 + h->id))
				atomic_fetch_add(h->bad, 1);
	}
	(void)sink;
	return NULL;
}

static void threads_through_swap(void)
{
	size_t pages = 3 * ENGINE_PAGES / 2;
	struct nlru_engine *eng = test_swap_engine(8, 32, true);
	struct nlru_region *region;
	struct hammer h[4];
	pthread_t t[4];
	atomic_int bad = 0;
	char *mem;

	region = mapped_or_skip(eng, pages, 2, &mem);
	for (unsigned int i = 0; i < 4; i++) {
		h[i] = (struct hammer){mem, pages, i, 4, &bad};
		cr_assert_eq(pthread_create(&t[i], NULL, hammer_main, &h[i]), 0);
	}
	for (unsigned int i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	cr_expect_eq(atomic_load(&bad), 0, "%d pages lost their stamp", atomic_load(&bad));
	cr_expect_gt(vmstat_value(eng, "pswpout"), 0);
	cr_assert_eq(nlru_region_destroy(region), 0);
	cr_expect_eq(get_nr_swap_pages(eng), total_swap_pages(eng));
	destroy_engine(eng);
}

Test(mapped, threads_racing_faults_and_eviction_keep_every_stamp_node_mode)
{
	run_in_mode(NLRU_MODE_NODE);
	threads_through_swap();
}

Test(mapped, threads_racing_faults_and_eviction_keep_every_stamp_zone_mode)
{
	run_in_mode(NLRU_MODE_ZONE);
	threads_through_swap();
}

/* A pin hands out the page's address in the range; a discard leaves zeroes. */
Test(mapped, pin_discard_and_destroy)
{
	struct nlru_engine *eng = test_swap_engine(8, 16, false);
	struct nlru_region *region;
	char *mem, *p;

	region = mapped_or_skip(eng, 4, 1, &mem);
	cr_assert_eq(nlru_region_pin(region, 2, NLRU_PIN_WRITE, (void **)&p), 0);
	cr_expect_eq(p, mem + 2 * PAGE_SIZE);
	strcpy(p, "pinned");
	cr_expect_str_eq(mem + 2 * PAGE_SIZE, "pinned");
	cr_expect_eq(nlru_region_discard(region, 2), -EBUSY);
	cr_expect_eq(nlru_region_destroy(region), -EBUSY, "a pin is held");
	cr_assert_eq(nlru_region_unpin(region, 2), 0);
	cr_assert_eq(nlru_region_discard(region, 2), 0);
	cr_expect_eq(mem[2 * PAGE_SIZE], 0, "discarded: zeroes");
	strcpy(mem + 3 * PAGE_SIZE, "touched");
	cr_assert_eq(nlru_region_pin(region, 3, 0, (void **)&p), 0);
	cr_expect_str_eq(p, "touched");
	cr_assert_eq(nlru_region_unpin(region, 3), 0);
	cr_assert_eq(nlru_region_destroy(region), 0);
	cr_expect_eq(vmstat_value(eng, "nr_anon_pages"), 0);
	destroy_engine(eng);
}

/* With userfaultfd(2) denied (a seccomp filter, as container runtimes set), creation fails. */
Test(mapped, a_denied_userfaultfd_is_refused_with_a_reason)
{
	pid_t pid = fork();
	int status;

	cr_assert_geq(pid, 0);
	if (pid == 0) {
		struct sock_filter code[] = {
			BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
			BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_userfaultfd, 0, 1),
			BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS),
			BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		};
		struct sock_fprog prog = {sizeof(code) / sizeof(code[0]), code};
		struct nlru_engine *eng = test_swap_engine(8, 16, false);
		struct nlru_region *region = NULL;
		void *addr = NULL;
		int r;

		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
		    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog))
			_exit(77);
		r = nlru_region_create_mapped(eng, 4, 0, 1, &addr, &region);
		_exit(r == -ENOSYS && region == NULL && strstr(test_log_last, "userfaultfd") ? 0
											     : 1);
	}
	cr_assert_eq(waitpid(pid, &status, 0), pid);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 77)
		cr_skip_test("no seccomp filter could be installed");
	cr_expect(WIFEXITED(status) && WEXITSTATUS(status) == 0, "status %#x", status);
}

/* A program killed while its pages are in swap leaves no swap file behind. */
Test(mapped, a_killed_program_leaves_no_swap_file)
{
	char dir[] = "/tmp/nlru-mapped-XXXXXX";
	int ready[2], status;
	char byte;
	pid_t pid;

	cr_assert_not_null(mkdtemp(dir));
	cr_assert_eq(pipe(ready), 0);
	pid = fork();
	cr_assert_geq(pid, 0);
	if (pid == 0) {
		struct nlru_engine *eng;
		struct nlru_region *region = NULL;
		char *mem;

		setenv("TMPDIR", dir, 1);
		eng = test_swap_engine(8, 32, true);
		if (nlru_region_create_mapped(eng, 2 * ENGINE_PAGES, 0, 1, (void **)&mem, &region))
			_exit(77);
		for (size_t i = 0; i < 2 * ENGINE_PAGES; i++)
			stamp(mem + i * PAGE_SIZE, i, 5);
		byte = vmstat_value(eng, "pswpout") > 0 ? 'y' : 'n';
		if (write(ready[1], &byte, 1) != 1)
			_exit(1);
		for (;;)
			for (size_t i = 0; i < 2 * ENGINE_PAGES; i++)
				stamp(mem + i * PAGE_SIZE, i, 6);
	}
	close(ready[1]);
	if (read(ready[0], &byte, 1) != 1) {
		waitpid(pid, &status, 0);
		cr_skip_test("userfaultfd unavailable to the child (status %#x)", status);
	}
	cr_expect_eq(byte, 'y', "the child's pages went to swap");
	kill(pid, SIGKILL);
	cr_assert_eq(waitpid(pid, &status, 0), pid);
	cr_expect(WIFSIGNALED(status));
	cr_expect_eq(rmdir(dir), 0, "%s is empty: %s", dir, strerror(errno));
}

/*
 * An LRU-friendly trace: a hot set read over and over between writes of pages never used
 * again.  Refaults of the hot set (pgmajfault: the cold pages are never read back) with
 * sampling on and off.
 */
static int64_t hot_set_refaults(long sample_pages, int64_t *sampled)
{
	size_t hot = 384, cold = 6 * ENGINE_PAGES;
	struct nlru_region *region = NULL;
	struct nlru_engine *eng = NULL;
	struct nlru_config cfg;
	volatile char sink = 0;
	int64_t refaults;
	char *mem;
	int r;

	test_config(&cfg, 8, NULL);
	cfg.swap_mib = 64;
	cfg.kswapd = 0;
	cfg.map_sample_pages = sample_pages;
	cfg.map_sample_ms = 1;
	cr_assert_eq(nlru_engine_create(&cfg, &eng), 0, "%s", test_log_last);
	r = nlru_region_create_mapped(eng, hot + cold, 0, 1, (void **)&mem, &region);
	if (r == -EPERM || r == -ENOSYS || r == -EOPNOTSUPP) {
		destroy_engine(eng);
		cr_skip_test("userfaultfd unavailable here: %s", test_log_last);
	}
	cr_assert_eq(r, 0, "%s", test_log_last);
	for (size_t i = 0; i < hot; i++)
		stamp(mem + i * PAGE_SIZE, i, 7);
	for (size_t c = 0; c < cold; c++) {
		stamp(mem + (hot + c) * PAGE_SIZE, hot + c, 7);
		sink += mem[(c % hot) * PAGE_SIZE];
	}
	for (size_t i = 0; i < hot; i++)
		cr_assert(stamped(mem + i * PAGE_SIZE, i, 7), "hot page %zu", i);
	refaults = vmstat_value(eng, "pgmajfault");
	*sampled = vmstat_value(eng, "nlru_map_sample");
	(void)sink;
	cr_assert_eq(nlru_region_destroy(region), 0);
	destroy_engine(eng);
	return refaults;
}

Test(mapped, sampling_keeps_a_hot_set_resident)
{
	int64_t sampled_off, sampled_on;
	int64_t off = hot_set_refaults(0, &sampled_off);
	int64_t on = hot_set_refaults(256, &sampled_on);

	cr_log_info("hot set refaults: %ld without sampling, %ld with (%ld pages sampled)",
		    (long)off, (long)on, (long)sampled_on);
	cr_expect_eq(sampled_off, 0);
	cr_expect_gt(sampled_on, 0);
	/* Sampling runs every map_sample_ms of wall time, so how many passes fit the trace, and by
	 * how much refaults fall (2-6 times here), follows the machine's speed: the test asks only
	 * that they fall. */
	cr_expect_lt(on, off, "refaults: %ld with sampling, %ld without", (long)on, (long)off);
}
