/*
 * /proc/diskstats: real kernels' files of the three layouts (data/real/, files ending in
 * .diskstats), a pair of this layout's 17 statistics around a 64 MiB direct write and read back
 * (diskstats-6.18-before/-after), the engine's own pair from a stutter run with the block
 * device model (engine-node-diskstats-before/-after), malformed lines, and iostat -x's figures
 * checked against a hand computation.
 */
#include <errno.h>
#include <math.h>

#include "diskstats.h"
#include "dump.h"
#include "helpers.h"

TestSuite(diskstats, .timeout = 10);

static void load(struct diskstats *ds, const char *path, struct diag_log *log)
{
	struct vm_diag diag = diag_for(log);

	cr_assert_eq(diskstats_init(ds, path), 0);
	cr_assert_eq(diskstats_load(ds, path, &diag), 0, "%s", path);
}

static void parse(struct diskstats *ds, const char *text, struct diag_log *log)
{
	struct vm_diag diag = diag_for(log);

	cr_assert_eq(diskstats_init(ds, "test"), 0);
	cr_assert_eq(diskstats_parse(ds, text, strlen(text), &diag), 0);
}

static const struct ds_dev *dev(const struct diskstats *ds, const char *name)
{
	const struct ds_dev *d = diskstats_find(ds, name);

	cr_assert_not_null(d, "no device %s", name);
	return d;
}

Test(diskstats, real_kernels_of_each_layout)
{
	static const struct {
		const char *file, *device;
		int fields;
		size_t devices;
		uint64_t writes, weighted;
	} files[] = {
		{"linux-3.2.0-ubuntu-x86_64.diskstats", "sda", 11, 28, 54627, 3189744},
		{"linux-4.1.25-armv7-normalonly.diskstats", "sda1", 11, 13, 12698, 10504730},
		{"linux-4.18.0-80-rhel8-x86_64.diskstats", "sda3", 15, 5, 29477, 15119},
		{"linux-5.10ish-x86_64.diskstats", "dm-0", 17, 6, 3126, 32368},
	};

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		char path[256];
		struct diag_log log;
		struct diskstats ds;
		const struct ds_dev *d;

		snprintf(path, sizeof(path), "%s", DATA("real/"));
		strncat(path, files[i].file, sizeof(path) - strlen(path) - 1);
		load(&ds, path, &log);
		cr_expect_eq(log.count, 0, "%s: %s", path, log.text);
		cr_expect_eq(ds.nr, files[i].devices, "%s", path);
		cr_expect_eq(ds.max_fields, files[i].fields, "%s", path);
		d = dev(&ds, files[i].device);
		cr_expect_eq(d->nr_fields, files[i].fields);
		cr_expect_eq(d->v[DS_WRITES], files[i].writes, "%s", path);
		cr_expect_eq(d->v[DS_WEIGHTED_MS], files[i].weighted, "%s", path);
		diskstats_fini(&ds);
	}
}

Test(diskstats, the_live_file)
{
	struct diag_log log;
	struct diskstats ds;

	if (access("/proc/diskstats", R_OK) != 0)
		cr_skip_test("no /proc/diskstats here");
	cr_assert_eq(diskstats_init(&ds, "/proc/diskstats"), 0);
	{
		struct vm_diag diag = diag_for(&log);

		cr_assert_eq(diskstats_load(&ds, "/proc/diskstats", &diag), 0);
	}
	cr_expect_eq(log.count, 0, "%s", log.text);
	cr_expect(ds.max_fields == 11 || ds.max_fields == 15 || ds.max_fields == 17);
	diskstats_fini(&ds);
}

Test(diskstats, malformed_lines_are_reported_and_skipped)
{
	struct diag_log log;
	struct diskstats ds;

	parse(&ds,
	      "   8       0 sda 1 2 3 4 5 6 7 8 9 10 11\n"
	      "\n"
	      "# a comment\n"
	      "   8       1 sda1 1 2 3 4\n"
	      "   8       2 sda2 1 2 3 4 5 6 7 8 9 10 11 12\n"
	      "   8       3 sda3 1 2 x 4 5 6 7 8 9 10 11\n"
	      "   8       4 sda4 18446744073709551616 2 3 4 5 6 7 8 9 10 11\n"
	      "   x       5 sda5 1 2 3 4 5 6 7 8 9 10 11\n"
	      "   8       6\n"
	      "   8       0 sda 9 9 9 9 9 9 9 9 9 9 9\n"
	      "   8      16 sdb 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19\n"
	      "   8      32 sdc 18446744073709551615 2 3 4 5 6 7 8 9 10 11 12 13 14 15\n",
	      &log);
	cr_expect_eq(ds.nr, 3, "%s", log.text);
	cr_expect_eq(ds.nr_malformed, 7);
	cr_expect(strstr(log.text, "4: 4 statistics: a partition line of a kernel before 2.6.25"),
		  "%s", log.text);
	cr_expect(strstr(log.text, "5: expected 11, 15 or 17 statistics"), "%s", log.text);
	cr_expect(strstr(log.text, "6: a statistic is not a number"), "%s", log.text);
	cr_expect(strstr(log.text, "7: a statistic is out of range"), "%s", log.text);
	cr_expect(strstr(log.text, "8: the major or minor number"), "%s", log.text);
	cr_expect(strstr(log.text, "9: no device name"), "%s", log.text);
	cr_expect(strstr(log.text, "10: a second line for device 'sda' (first at line 1)"), "%s",
		  log.text);
	cr_expect(strstr(log.text, "11: more statistics than Linux 5.5's 17"), "%s", log.text);
	cr_expect_eq(dev(&ds, "sda")->v[DS_READS], 1, "the first line of a device is kept");
	cr_expect_eq(dev(&ds, "sdb")->nr_fields, 17);
	cr_expect_eq(dev(&ds, "sdb")->v[DS_FLUSH_MS], 17);
	cr_expect_eq(dev(&ds, "sdc")->v[DS_READS], UINT64_MAX);
	cr_expect_eq(dev(&ds, "sdc")->nr_fields, 15);
	diskstats_fini(&ds);
}

Test(diskstats, files_that_are_not_diskstats)
{
	static const char *const others[] = {DATA("vmstat-4.8-after"), DATA("zoneinfo-4.8")};
	char dir[64], path[128];
	struct diskstats ds;
	struct vm_dump d;

	for (size_t i = 0; i < 2; i++) {
		cr_assert_eq(diskstats_init(&ds, others[i]), 0);
		cr_expect_eq(diskstats_load(&ds, others[i], NULL), -EMEDIUMTYPE, "%s", others[i]);
		diskstats_fini(&ds);
	}
	/* And the other way round: a diskstats file is no vmstat dump. */
	cr_assert_eq(dump_init(&d, "x"), 0);
	cr_expect_eq(dump_load(&d, DATA("diskstats-6.18-after"), NULL), -ENOEXEC);
	dump_fini(&d);
	/* An empty file is a machine, or an engine, without a block device. */
	scratch_dir(dir);
	snprintf(path, sizeof(path), "%s/empty", dir);
	write_file(path, "", 0);
	cr_assert_eq(diskstats_init(&ds, path), 0);
	cr_expect_eq(diskstats_load(&ds, path, NULL), 0);
	cr_expect_eq(ds.nr, 0);
	diskstats_fini(&ds);
	snprintf(path, sizeof(path), "%s/bad", dir);
	write_file(path, "1 2\n", 4);
	cr_assert_eq(diskstats_init(&ds, path), 0);
	cr_expect_eq(diskstats_load(&ds, path, NULL), -EBADMSG);
	diskstats_fini(&ds);
	scratch_remove(dir, (const char *const[]){"empty", "bad", NULL});
}

static long deltas(const char *before, const char *after, struct diskstats *b, struct diskstats *a,
		   struct ds_delta **rows)
{
	struct diag_log log;
	long n;

	load(b, before, &log);
	cr_expect_eq(log.count, 0, "%s", log.text);
	load(a, after, &log);
	cr_expect_eq(log.count, 0, "%s", log.text);
	n = ds_deltas(b, a, rows);
	cr_assert_geq(n, 0);
	return n;
}

static const struct ds_delta *row(const struct ds_delta *rows, long n, const char *name)
{
	for (long i = 0; i < n; i++)
		if (strcmp(rows[i].name, name) == 0)
			return &rows[i];
	cr_assert_fail("no row %s", name);
	return NULL;
}

#define NEAR(got, want)                                                                            \
	cr_expect(fabs((got) - (want)) < 1e-9, "%s: %.12g, not %.12g", #got, got, want)

/*
 * vda between the two 6.18 files (17 statistics):
 *   reads    203038 - 202523    = 515     sectors 8467722 - 8336626     = 131096   ms 86
 *   writes   103499 - 103357    = 142     sectors 104820856 - 104687624 = 133232   ms 114
 *   discards 67130 - 67111      = 19      sectors 100508360 - 100505536 = 2824     ms 9
 *   flushes  0, io_ms 98844 - 98684 = 160, weighted 522453 - 522245 = 208; merges 0.
 * Over 2 s: r/s 257.5, rMB/s 131096 / 2048 / 2 = 32.005859375, rareq-sz 131096 / 2 / 515,
 * r_await 86 / 515; w/s 71, wareq-sz 133232 / 2 / 142; d/s 9.5; f/s 0 and no f_await;
 * aqu-sz 208 / 2000 = 0.104; %util 160 / 2000 = 8%; await (86 + 114 + 9) / (515 + 142 + 19).
 */
Test(diskstats, iostat_figures_of_a_real_pair)
{
	struct diskstats b, a;
	struct ds_delta *rows;
	long n = deltas(DATA("diskstats-6.18-before"), DATA("diskstats-6.18-after"), &b, &a, &rows);
	const struct ds_delta *vda = row(rows, n, "vda");
	struct ds_iostat s;

	cr_expect_eq(n, 10);
	cr_expect(ds_delta_idle(row(rows, n, "loop0")));
	cr_expect_eq(vda->flag, DS_OK);
	cr_expect_eq(vda->nr_fields, 17);
	cr_expect_eq(vda->d[DS_READ_SECTORS], 131096);
	ds_iostat(vda, 2.0, &s);
	NEAR(s.r_s, 257.5);
	NEAR(s.rmb_s, 32.005859375);
	NEAR(s.rrqm_s, 0.0);
	NEAR(s.rrqm_pct, 0.0);
	NEAR(s.r_await, 86.0 / 515);
	NEAR(s.rareq_sz, 131096.0 / 2 / 515);
	NEAR(s.w_s, 71.0);
	NEAR(s.wmb_s, 133232.0 / 2048 / 2);
	NEAR(s.w_await, 114.0 / 142);
	NEAR(s.wareq_sz, 133232.0 / 2 / 142);
	NEAR(s.d_s, 9.5);
	NEAR(s.dareq_sz, 2824.0 / 2 / 19);
	NEAR(s.f_s, 0.0);
	cr_expect(isnan(s.f_await), "an average of no flush");
	NEAR(s.aqu_sz, 0.104);
	NEAR(s.util, 8.0);
	NEAR(s.await, 209.0 / 676);
	NEAR(s.areq_sz, (131096.0 + 133232 + 2824) / 2 / 676);
	/* No interval: the averages stand, the rates do not. */
	ds_iostat(vda, NAN, &s);
	cr_expect(isnan(s.r_s) && isnan(s.wmb_s) && isnan(s.util) && isnan(s.aqu_sz));
	NEAR(s.r_await, 86.0 / 515);
	free(rows);
	diskstats_fini(&b);
	diskstats_fini(&a);
}

/*
 * The engine's line (4.8's 11 statistics) from a stutter run at 200 MB/s: 257 reads of
 * 65536 sectors (readahead's 128 KiB windows), 155 writes of 131072 sectors with 152 bios
 * merged into them, busy 605 ms of 723.
 */
Test(diskstats, the_engines_pair)
{
	struct diskstats b, a;
	struct ds_delta *rows;
	long n = deltas(DATA("engine-node-diskstats-before"), DATA("engine-node-diskstats-after"),
			&b, &a, &rows);
	struct ds_iostat s;

	cr_assert_eq(n, 1);
	cr_expect_str_eq(rows[0].name, "nlru0");
	cr_expect_eq(rows[0].nr_fields, 11);
	cr_expect_eq(a.dev[0].major, 254);
	ds_iostat(&rows[0], 0.723017790, &s);
	NEAR(s.rareq_sz, 65536.0 / 2 / 257);
	NEAR(s.wrqm_pct, 100.0 * 152 / (152 + 155));
	NEAR(s.util, 100.0 * 605 / 723.017790);
	cr_expect(isnan(s.d_s) && isnan(s.f_s), "4.8 counts no discard and no flush");
	free(rows);
	diskstats_fini(&b);
	diskstats_fini(&a);
}

Test(diskstats, wraps_resets_and_devices_in_one_file)
{
	struct diskstats b, a;
	struct ds_delta *rows;
	struct diag_log log;
	struct ds_iostat s;
	long n;

	parse(&b,
	      "8 0 sda 10 0 80 4294967290 0 0 0 0 0 4294967295 4294967295\n"
	      "8 16 sdb 100 0 800 10 0 0 0 0 0 10 10\n"
	      "8 32 sdc 1 0 8 1 0 0 0 0 0 1 1\n",
	      &log);
	parse(&a,
	      "8 0 sda 12 0 96 4 0 0 0 0 1 9 9\n"
	      "8 16 sdb 50 0 400 5 0 0 0 0 0 5 5\n"
	      "8 48 sdd 1 0 8 1 0 0 0 0 0 1 1\n",
	      &log);
	n = ds_deltas(&b, &a, &rows);
	cr_assert_eq(n, 4);
	/* ms fields are %u: 4294967290 -> 4 is 10 ms. */
	cr_expect_eq(rows[0].flag, DS_OK);
	cr_expect_eq(rows[0].d[DS_READ_MS], 10);
	cr_expect_eq(rows[0].d[DS_IO_MS], 10);
	cr_expect_eq(rows[0].d[DS_IN_FLIGHT], 1, "in flight is AFTER's level");
	ds_iostat(&rows[0], 1.0, &s);
	NEAR(s.r_await, 5.0);
	NEAR(s.util, 1.0);
	/* A count that went down: a reboot, or the files swapped; no figure. */
	cr_expect_eq(rows[1].flag, DS_DOWN);
	ds_iostat(&rows[1], 1.0, &s);
	cr_expect(isnan(s.r_s) && isnan(s.util));
	cr_expect_str_eq(rows[2].name, "sdd");
	cr_expect_eq(rows[2].flag, DS_ONLY_AFTER);
	cr_expect_str_eq(rows[3].name, "sdc");
	cr_expect_eq(rows[3].flag, DS_ONLY_BEFORE);
	free(rows);
	diskstats_fini(&b);
	diskstats_fini(&a);
}

static const char *print_show(const char *path, int all, enum out_fmt fmt, struct capture *c)
{
	struct diskstats ds;
	struct diag_log log;

	load(&ds, path, &log);
	capture_open(c);
	cr_assert_eq(diskstats_print(&ds, all, fmt, c->f), 0);
	diskstats_fini(&ds);
	return capture_close(c);
}

Test(diskstats, show_text_json_csv)
{
	struct capture c;
	const char *out;

	out = print_show(DATA("real/linux-4.18.0-80-rhel8-x86_64.diskstats"), 0, OUT_TEXT, &c);
	cr_expect(strstr(out, "the layout of Linux 4.18-5.4, 15 statistics a device"), "%s", out);
	cr_expect(strstr(out, "discard_ms"), "%s", out);
	cr_expect_null(strstr(out, "flush_ms"), "%s", out);
	cr_expect(strstr(out, "sda3               8:3        8378           2       408.2"), "%s",
		  out);
	free(c.buf);
	out = print_show(DATA("diskstats-6.18-after"), 0, OUT_TEXT, &c);
	cr_expect_null(strstr(out, "loop0"), "%s", out);
	cr_expect(strstr(out, "(9 idle devices not shown: --all shows them)"), "%s", out);
	free(c.buf);
	out = print_show(DATA("diskstats-6.18-after"), 1, OUT_TEXT, &c);
	cr_expect(strstr(out, "loop0"), "%s", out);
	free(c.buf);
	out = print_show(DATA("engine-node-diskstats-after"), 0, OUT_JSON, &c);
	cr_expect(strstr(out, "{\"name\":\"nlru0\",\"major\":254,\"minor\":0,\"statistics\":11,"
			      "\"layout\":\"2.6.25-4.17\",\"reads\":257,"),
		  "%s", out);
	cr_expect(strstr(out, "\"weighted_io_ms\":1458,\"discards\":null,"), "%s", out);
	free(c.buf);
	out = print_show(DATA("engine-node-diskstats-after"), 0, OUT_CSV, &c);
	cr_expect(strstr(out, "name,major,minor,statistics,reads,reads_merged,sectors_read,"), "%s",
		  out);
	cr_expect(strstr(out, "\nnlru0,254,0,11,257,0,65536,283,155,152,131072,1165,0,605,1458,,,,"
			      ",,\n"),
		  "%s", out);
	free(c.buf);
}

static const char *print_diff(const char *before, const char *after, double elapsed,
			      enum out_fmt fmt, struct capture *c)
{
	struct diskstats b, a;
	struct diag_log log;

	load(&b, before, &log);
	load(&a, after, &log);
	capture_open(c);
	cr_assert_eq(diskstats_diff_print(&b, &a, elapsed, 0, fmt, c->f), 0);
	diskstats_fini(&b);
	diskstats_fini(&a);
	return capture_close(c);
}

Test(diskstats, diff_text_json_csv)
{
	struct capture c;
	const char *out;

	out = print_diff(DATA("diskstats-6.18-before"), DATA("diskstats-6.18-after"), 2.0, OUT_TEXT,
			 &c);
	cr_expect(strstr(out, "interval: 2 s\nDevice            r/s    rMB/s   rrqm/s    %rrqm  "
			      "r_await rareq-sz      w/s"),
		  "%s", out);
	cr_expect(strstr(out, "f_await   aqu-sz    %util\nvda            257.50    32.01"), "%s",
		  out);
	cr_expect(strstr(out, "     0.00        -     0.10     8.00\n"), "%s", out);
	free(c.buf);
	out = print_diff(DATA("engine-node-diskstats-before"), DATA("engine-node-diskstats-after"),
			 NAN, OUT_TEXT, &c);
	cr_expect(strstr(out, "interval: unknown"), "%s", out);
	cr_expect_null(strstr(out, "d_await"), "no discard column for 4.8's layout: %s", out);
	cr_expect(strstr(out, "nlru0               -        -"), "%s", out);
	free(c.buf);
	out = print_diff(DATA("engine-node-diskstats-before"), DATA("engine-node-diskstats-after"),
			 2.0, OUT_JSON, &c);
	cr_expect(strstr(out, "{\"elapsed\":2,\"devices\":[\n{\"name\":\"nlru0\",\"major\":254,"
			      "\"minor\":0,\"flag\":null,\"delta\":{\"reads\":257,"),
		  "%s", out);
	cr_expect(strstr(out, "\"flushes\":null,\"flush_ms\":null},\"iostat\":{\"r_s\":128.5,"),
		  "%s", out);
	cr_expect(strstr(out, "\"d_s\":null"), "%s", out);
	free(c.buf);
	out = print_diff(DATA("engine-node-diskstats-before"), DATA("engine-node-diskstats-after"),
			 2.0, OUT_CSV, &c);
	cr_expect(strstr(out, "name,major,minor,flag,reads,"), "%s", out);
	cr_expect(strstr(out, ",aqu_sz,util,await,areq_sz\nnlru0,254,0,,257,0,65536,"), "%s", out);
	free(c.buf);
}
