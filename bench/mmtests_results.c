/* mmtests_results - mmtests' results layout beside the benchmarks' own files. */
#include "mmtests_results.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <nodelru/nodelru.h>

#include "bench_util.h"
#include "harness.h"
#include "input.h"

static double cpu_s(const struct timeval *tv)
{
	return (double)tv->tv_sec + (double)tv->tv_usec / 1e6;
}

/* The clock fields hold the start values until mmt_clock_stop turns them into intervals. */
void mmt_clock_start(struct mmt_record *r)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	r->begin = time(NULL);
	r->elapsed = now_s();
	r->user = cpu_s(&ru.ru_utime);
	r->sys = cpu_s(&ru.ru_stime);
}

void mmt_clock_stop(struct mmt_record *r)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	r->end = time(NULL);
	r->elapsed = now_s() - r->elapsed;
	r->user = cpu_s(&ru.ru_utime) - r->user;
	r->sys = cpu_s(&ru.ru_stime) - r->sys;
}

/* Appends the file <dir>/<name> to @out; a missing file is an error. */
static int append_file(FILE *out, const char *dir, const char *name)
{
	char path[HARNESS_PATH_MAX];
	char *buf = NULL;
	size_t len = 0;
	int r = harness_path(path, dir, name);

	if (!r)
		r = input_read(path, &buf, &len);
	if (r) {
		fprintf(stderr, "%s: %s\n", path, input_strerror(r));
		return r;
	}
	fwrite(buf, 1, len, out);
	if (len && buf[len - 1] != '\n')
		fputc('\n', out);
	free(buf);
	return 0;
}

static int line_starts(const char *s, const char *end, const char *prefix, const char *word)
{
	size_t p = strlen(prefix), w = strlen(word);

	return (size_t)(end - s) > p + w && memcmp(s, prefix, p) == 0 &&
	       memcmp(s + p, word, w) == 0 && (s[p + w] == ' ' || s[p + w] == '\n');
}

/*
 * Writes @old (@len bytes) to @out without the record of @bench: from its "test begin ::"
 * line through its "time ::" line.
 */
static void copy_without(FILE *out, const char *old, size_t len, const char *bench)
{
	const char *s = old, *end = old + len;
	int skipping = 0;

	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		const char *next = nl ? nl + 1 : end;

		if (line_starts(s, end, "test begin :: ", bench))
			skipping = 1;
		if (!skipping)
			fwrite(s, 1, (size_t)(next - s), out);
		if (skipping && line_starts(s, end, "time :: ", bench))
			skipping = 0;
		s = next;
	}
}

int mmt_write_record(const char *root, const struct mmt_record *r, int index)
{
	char name[256], path[HARNESS_PATH_MAX], tmp[HARNESS_PATH_MAX];
	char *old = NULL;
	size_t len = 0;
	struct utsname u;
	FILE *f;
	int e;

	snprintf(name, sizeof(name), "tests-timestamp-%s", r->column);
	if (harness_path(path, root, name) || harness_path(tmp, root, ".tests-timestamp.tmp"))
		return -ENAMETOOLONG;
	if ((e = harness_mkdir(root))) {
		fprintf(stderr, "%s: %s\n", root, strerror(-e));
		return e;
	}
	e = input_read(path, &old, &len);
	if (e && e != -ENOENT) {
		fprintf(stderr, "%s: %s\n", path, input_strerror(e));
		return e;
	}
	if (!(f = fopen(tmp, "w"))) {
		e = -errno;
		fprintf(stderr, "%s: %s\n", tmp, strerror(-e));
		free(old);
		return e;
	}
	if (old) {
		copy_without(f, old, len, r->bench);
	} else {
		fprintf(f, "start :: %lld\n", (long long)r->begin + index);
		fprintf(f, "arch :: %s\n", uname(&u) == 0 ? u.machine : "unknown");
	}
	free(old);
	fprintf(f, "test begin :: %s %lld\n", r->bench, (long long)r->begin);
	e = 0;
	fputs("file start :: /proc/vmstat\n", f);
	e = e ? e : append_file(f, r->dir, "vmstat-before");
	fputs("file start :: /proc/zoneinfo\n", f);
	e = e ? e : append_file(f, r->dir, "zoneinfo-before");
	fputs("file end :: /proc/vmstat\n", f);
	e = e ? e : append_file(f, r->dir, "vmstat-after");
	fputs("file end :: /proc/zoneinfo\n", f);
	e = e ? e : append_file(f, r->dir, "zoneinfo-after");
	fprintf(f, "test end :: %s %lld\n", r->bench, (long long)r->end);
	fprintf(f, "time :: %s %.9f user %.9f system %.9f elapsed\n", r->bench, r->user, r->sys,
		r->elapsed);
	if (ferror(f))
		e = e ? e : -EIO;
	if (fclose(f))
		e = e ? e : -EIO;
	if (!e && rename(tmp, path))
		e = -errno;
	if (e) {
		fprintf(stderr, "%s: %s\n", path, strerror(-e));
		unlink(tmp);
	}
	return e;
}

/* The path of @to relative to the folder @from; both absolute, as realpath gives them. */
static int relative_path(const char *from, const char *to, char *buf, size_t sz)
{
	size_t i = 0, common = 0, n = 0;
	const char *rest;
	int w;

	/* The longest common prefix that ends at a component boundary of both paths. */
	for (;; i++) {
		int fb = from[i] == '/' || !from[i], tb = to[i] == '/' || !to[i];

		if (fb && tb)
			common = i;
		if (!from[i] || !to[i] || from[i] != to[i])
			break;
	}
	buf[0] = '\0';
	for (const char *p = from + common; *p; p++)
		if (*p != '/' && (p == from || p[-1] == '/')) {
			w = snprintf(buf + n, sz - n, "../");
			if (w < 0 || (size_t)w >= sz - n)
				return -ENAMETOOLONG;
			n += (size_t)w;
		}
	for (rest = to + common; *rest == '/'; rest++)
		;
	w = snprintf(buf + n, sz - n, "%s", rest);
	if (w < 0 || (size_t)w >= sz - n)
		return -ENAMETOOLONG;
	if (!buf[0])
		snprintf(buf, sz, ".");
	return 0;
}

int mmt_link(const char *root, const char *bench, const char *column, const char *dir)
{
	char name[256], top[HARNESS_PATH_MAX], link[HARNESS_PATH_MAX];
	char from[PATH_MAX], to[PATH_MAX], rel[HARNESS_PATH_MAX];
	int r;

	snprintf(name, sizeof(name), "%s-%s", bench, column);
	if ((r = harness_path(top, root, name)) || (r = harness_path(link, top, "noprofile")))
		return r;
	if ((r = harness_mkdir(top)))
		goto fail;
	if (!realpath(top, from) || !realpath(dir, to)) {
		r = -errno;
		goto fail;
	}
	if ((r = relative_path(from, to, rel, sizeof(rel))))
		goto fail;
	if (unlink(link) && errno != ENOENT) {
		r = -errno;
		goto fail;
	}
	if (symlink(rel, link)) {
		r = -errno;
		goto fail;
	}
	return 0;
fail:
	fprintf(stderr, "%s: %s\n", link, strerror(-r));
	return r;
}

int mmt_write_time(const char *dir, const char *name, double elapsed)
{
	return mmt_write_gnu_time(dir, name, 0, 0, elapsed);
}

int mmt_write_gnu_time(const char *dir, const char *name, double user, double sys, double elapsed)
{
	FILE *f = harness_fopen(dir, name, "w");
	char cpu[16] = "?";
	long minutes;
	int bad;

	if (!f)
		return -EIO;
	if (!(elapsed >= 0))
		elapsed = 0;
	if (elapsed > 0 && (user > 0 || sys > 0))
		snprintf(cpu, sizeof(cpu), "%.0f", (user + sys) * 100 / elapsed);
	minutes = (long)(elapsed / 60);
	fprintf(f,
		"%.2fuser %.2fsystem %ld:%012.9felapsed %s%%CPU (0avgtext+0avgdata "
		"0maxresident)k\n0inputs+0outputs (0major+0minor)pagefaults 0swaps\n",
		user, sys, minutes, elapsed - 60.0 * (double)minutes, cpu);
	bad = ferror(f);
	return fclose(f) || bad ? -EIO : 0;
}

int mmt_duration_table(struct mm_table *t, const char *const *cols, const struct mmt_record *recs,
		       size_t n)
{
	static const char *const rows[] = {"User", "System", "Elapsed"};
	double v[3][8];
	int r = n > 8 ? -EINVAL : 0;

	/* CompareCputime: field 12, precision 2; the monitor's own field of 12 heads the columns.
	 */
	if (r || mm_table_init(t, cols, n, 12, 2, 12))
		return r ? r : -ENOMEM;
	mm_table_plain(t, 12);
	for (size_t k = 0; k < n; k++) {
		v[0][k] = recs[k].user;
		v[1][k] = recs[k].sys;
		v[2][k] = recs[k].elapsed;
	}
	for (int i = 0; !r && i < 3; i++)
		r = mm_table_add(t, rows[i], "", MM_CMP_PNDIFF, v[i]);
	if (r)
		mm_table_fini(t);
	return r;
}

int mmt_write_u64(const char *dir, const char *name, uint64_t v)
{
	FILE *f = harness_fopen(dir, name, "w");
	int bad;

	if (!f)
		return -EIO;
	fprintf(f, "%" PRIu64 "\n", v);
	bad = ferror(f);
	return fclose(f) || bad ? -EIO : 0;
}

int mmt_split_pagealloc(const char *dir)
{
	char path[HARNESS_PATH_MAX], name[64];
	FILE *in, *out[2][NLRU_MAX_ORDER] = {{NULL}};
	char line[256];
	int r = 0;

	if ((r = harness_path(path, dir, "pagealloc.log")))
		return r;
	if (!(in = fopen(path, "r"))) {
		r = -errno;
		fprintf(stderr, "%s: %s\n", path, strerror(-r));
		return r;
	}
	while (!r && fgets(line, sizeof(line), in)) {
		unsigned int order;
		unsigned long batch;
		unsigned long long v[2];

		if (sscanf(line, "order %u batch %lu alloc %llu free %llu", &order, &batch, &v[0],
			   &v[1]) != 4 ||
		    order >= NLRU_MAX_ORDER)
			continue;
		for (int k = 0; !r && k < 2; k++) {
			if (!out[k][order]) {
				snprintf(name, sizeof(name), "%s-%u", k ? "free" : "alloc", order);
				if (!(out[k][order] = harness_fopen(dir, name, "w")))
					r = -EIO;
			}
			if (!r)
				fprintf(out[k][order], "%lu %llu\n", batch, v[k]);
		}
	}
	fclose(in);
	for (int k = 0; k < 2; k++)
		for (unsigned int o = 0; o < NLRU_MAX_ORDER; o++)
			if (out[k][o] && (fclose(out[k][o]) && !r))
				r = -EIO;
	return r;
}
