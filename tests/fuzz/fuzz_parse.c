/*
 * libFuzzer target of nlru-vmstat's parsers.  Every input goes through each reader the tool
 * has (vmstat dump, zoneinfo, buddyinfo, pagetypeinfo, diskstats, stutter log, watch recording,
 * mmtests tests-timestamp) and
 * then through the formatters that walk what was parsed, so a parser bug that leaves a bad
 * structure shows up as a crash or a sanitizer report.  Built only by tests/fuzz/fuzz.sh with
 * clang, never by meson.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "buddyinfo.h"
#include "compare.h"
#include "diff.h"
#include "diskstats.h"
#include "dump.h"
#include "input.h"
#include "mmtests.h"
#include "plot.h"
#include "show.h"
#include "stutter.h"
#include "zoneinfo.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static FILE *sink(void)
{
	static FILE *f;

	if (!f)
		f = fopen("/dev/null", "w");
	return f;
}

static void count_diag(void *arg, const char *path, unsigned int line, const char *msg)
{
	(void)path;
	(void)line;
	(void)msg;
	++*(unsigned long *)arg;
}

static void fuzz_dump(const char *buf, size_t len, const struct vm_diag *diag)
{
	struct vm_dump d;
	struct cmp_run run;
	struct cmp_table t;
	struct diff_opts o = {1.5, 1};

	if (dump_init(&d, "fuzz"))
		return;
	if (dump_parse(&d, buf, len, diag) == 0) {
		show_print(&d, OUT_TEXT, sink());
		show_print(&d, OUT_JSON, sink());
		diff_print(&d, &d, &o, OUT_CSV, sink());
		run = (struct cmp_run){"fuzz-run", &d, &d, 2.0};
		if (compare_build(&run, 1, 1, diag, &t) == 0) {
			compare_print(&t, &run, OUT_TEXT, sink());
			compare_free(&t);
		}
	}
	dump_fini(&d);
}

static void fuzz_zoneinfo(const char *buf, size_t len, const struct vm_diag *diag)
{
	struct zoneinfo zi;

	if (zoneinfo_init(&zi, "fuzz"))
		return;
	if (zoneinfo_parse(&zi, buf, len, diag) == 0) {
		zoneinfo_print(&zi, OUT_TEXT, sink());
		zoneinfo_print(&zi, OUT_CSV, sink());
	}
	zoneinfo_fini(&zi);
}

static void fuzz_buddyinfo(const char *buf, size_t len, enum bi_format format)
{
	struct diff_opts o = {NAN, 1};
	struct buddyinfo bi;
	const char *why;

	if (buddyinfo_init(&bi, "fuzz"))
		return;
	if (buddyinfo_parse(&bi, format, buf, len) == 0) {
		buddyinfo_show(&bi, OUT_TEXT, sink());
		buddyinfo_show(&bi, OUT_JSON, sink());
		buddyinfo_show(&bi, OUT_CSV, sink());
		buddyinfo_diff(&bi, &bi, &o, OUT_TEXT, sink(), &why);
		buddyinfo_diff(&bi, &bi, &o, OUT_JSON, sink(), &why);
	}
	buddyinfo_fini(&bi);
}

static void fuzz_diskstats(const char *buf, size_t len, const struct vm_diag *diag)
{
	struct diskstats ds;

	if (diskstats_init(&ds, "fuzz"))
		return;
	if (diskstats_parse(&ds, buf, len, diag) == 0) {
		diskstats_print(&ds, 1, OUT_TEXT, sink());
		diskstats_print(&ds, 0, OUT_JSON, sink());
		diskstats_diff_print(&ds, &ds, 1.5, 1, OUT_CSV, sink());
		diskstats_diff_print(&ds, &ds, NAN, 0, OUT_TEXT, sink());
	}
	diskstats_fini(&ds);
}

static void fuzz_stutter(const char *buf, size_t len, const struct vm_diag *diag)
{
	struct stutter_samples s;
	struct stutter_stats st;

	memset(&s, 0, sizeof(s));
	if (stutter_parse(&s, buf, len, "fuzz", diag) == 0 && stutter_stats(&s, &st) == 0)
		stutter_print(&st, OUT_JSON, sink());
	stutter_fini(&s);
}

static void fuzz_recording(const char *buf, size_t len, const struct vm_diag *diag)
{
	uint32_t sel[PLOT_MAX_SERIES];
	struct plot_rec r;

	memset(&r, 0, sizeof(r));
	if (plot_rec_parse(&r, buf, len, "fuzz", diag) == 0)
		plot_rec_select(&r, NULL, sel, NULL);
	plot_rec_fini(&r);
}

static void fuzz_mmtests(const char *buf, size_t len, const struct vm_diag *diag)
{
	struct vm_dump b, a;
	double elapsed;

	if (dump_init(&b, "fuzz") == 0 && dump_init(&a, "fuzz") == 0)
		mmtests_extract(buf, len, "fuzz", NULL, &b, &a, &elapsed, diag);
	dump_fini(&b);
	dump_fini(&a);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned long reports = 0;
	struct vm_diag diag = {count_diag, &reports};
	const char *buf = (const char *)data;

	input_is_binary(buf, size);
	fuzz_dump(buf, size, &diag);
	fuzz_zoneinfo(buf, size, &diag);
	fuzz_buddyinfo(buf, size, BI_BUDDYINFO);
	fuzz_buddyinfo(buf, size, BI_PAGETYPEINFO);
	fuzz_diskstats(buf, size, &diag);
	fuzz_stutter(buf, size, &diag);
	fuzz_recording(buf, size, &diag);
	fuzz_mmtests(buf, size, &diag);
	return 0;
}
