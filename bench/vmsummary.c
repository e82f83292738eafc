/* vmsummary - loads the dumps with nlru-vmstat's reader and prints its compare table. */
#include "vmsummary.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "dump.h"
#include "harness.h"
#include "input.h"
#include "out.h"

#define VMSUMMARY_MAX_RUNS 8

static void diag_stderr(void *arg, const char *path, unsigned int line, const char *msg)
{
	fprintf(stderr, "%s:%u: %s\n", path ? path : "?", line, msg);
}

static int load(struct vm_dump *d, const char *dir, const char *name, const struct vm_diag *diag)
{
	char path[HARNESS_PATH_MAX];
	int r = harness_path(path, dir, name);

	if (!r)
		r = dump_init(d, path);
	if (!r)
		r = dump_load(d, path, diag);
	if (r)
		fprintf(stderr, "%s: %s\n", path, input_strerror(r));
	return r;
}

static int write_formats(const struct cmp_table *t, const struct cmp_run *runs, const char *dir)
{
	static const enum out_fmt fmts[] = {OUT_TEXT, OUT_CSV, OUT_JSON};
	static const char *const names[] = {"vmstat-summary.txt", "vmstat-summary.csv",
					    "vmstat-summary.json"};

	for (int k = 0; k < 3; k++) {
		FILE *f = harness_fopen(dir, names[k], "w");
		int bad;

		if (!f)
			return -EIO;
		compare_print(t, runs, fmts[k], f);
		bad = ferror(f);
		if (fclose(f) || bad)
			return -EIO;
	}
	return 0;
}

int vmsummary_write(const struct vmsummary_run *runs, size_t n, const char *dir, FILE *out)
{
	struct vm_dump before[VMSUMMARY_MAX_RUNS], after[VMSUMMARY_MAX_RUNS];
	struct cmp_run cr[VMSUMMARY_MAX_RUNS];
	struct vm_diag diag = {diag_stderr, NULL};
	struct cmp_table t;
	size_t loaded = 0;
	int r = n > VMSUMMARY_MAX_RUNS || n == 0 ? -EINVAL : 0;

	memset(before, 0, sizeof(before));
	memset(after, 0, sizeof(after));
	for (; !r && loaded < n; loaded++) {
		r = load(&before[loaded], runs[loaded].dir, "vmstat-before", &diag);
		if (!r)
			r = load(&after[loaded], runs[loaded].dir, "vmstat-after", &diag);
		cr[loaded] = (struct cmp_run){runs[loaded].column, &before[loaded], &after[loaded],
					      runs[loaded].elapsed};
	}
	if (!r)
		r = compare_build(cr, n, 0, &diag, &t);
	if (!r) {
		compare_print(&t, cr, OUT_TEXT, out);
		r = write_formats(&t, cr, dir);
		compare_free(&t);
	}
	for (size_t k = 0; k < n; k++) {
		dump_fini(&before[k]);
		dump_fini(&after[k]);
	}
	return r;
}
