/*
 * diskstats_print - the diskstats subcommand's output: one file as read, or two files as
 * iostat -x's figures, each as a text table, JSON or CSV.  A figure that is undefined prints
 * as "-" (null in JSON, an empty field in CSV), never as 0.
 */
#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>

#include "diskstats.h"

/* ---- one file ----------------------------------------------------------------------- */

/* The text table's heading of each field: sectors are shown as MB. */
static const char *const text_heads[DS_NR_FIELDS] = {
	"reads",    "rmerged",  "read_MB",    "read_ms", "writes",   "wmerged",
	"write_MB", "write_ms", "in_flight",  "io_ms",   "wtd_ms",   "discards",
	"dmerged",  "disc_MB",  "discard_ms", "flushes", "flush_ms",
};

static int is_sectors(int i)
{
	return i == DS_READ_SECTORS || i == DS_WRITE_SECTORS || i == DS_DISCARD_SECTORS;
}

static void text_show(const struct diskstats *ds, int all, FILE *f)
{
	size_t hidden = 0;

	if (ds->nr == 0) {
		fputs("no block device\n", f);
		return;
	}
	fprintf(f, "%s: the layout of Linux %s, %d statistics a device\n",
		ds->path ? ds->path : "-", ds_layout(ds->max_fields), ds->max_fields);
	fprintf(f, "%-12s %9s", "device", "maj:min");
	for (int i = 0; i < ds->max_fields; i++)
		fprintf(f, " %11s", text_heads[i]);
	fputc('\n', f);
	for (size_t k = 0; k < ds->nr; k++) {
		const struct ds_dev *d = &ds->dev[k];
		char mm[24];

		if (!all && ds_dev_idle(d)) {
			hidden++;
			continue;
		}
		snprintf(mm, sizeof(mm), "%u:%u", d->major, d->minor);
		fprintf(f, "%-12s %9s", d->name, mm);
		for (int i = 0; i < ds->max_fields; i++) {
			if (i >= d->nr_fields)
				fprintf(f, " %11s", "-");
			else if (is_sectors(i))
				fprintf(f, " %11.1f", (double)d->v[i] / 2048);
			else
				fprintf(f, " %11" PRIu64, d->v[i]);
		}
		fputc('\n', f);
	}
	if (hidden)
		fprintf(f, "(%zu idle device%s not shown: --all shows %s)\n", hidden,
			hidden > 1 ? "s" : "", hidden > 1 ? "them" : "it");
}

static void json_show(const struct diskstats *ds, int all, FILE *f)
{
	int first = 1;

	fputs("{\"file\":", f);
	if (ds->path)
		out_json_str(f, ds->path);
	else
		fputs("null", f);
	fputs(",\"devices\":[", f);
	for (size_t k = 0; k < ds->nr; k++) {
		const struct ds_dev *d = &ds->dev[k];

		if (!all && ds_dev_idle(d))
			continue;
		fputs(first ? "\n{\"name\":" : ",\n{\"name\":", f);
		first = 0;
		out_json_str(f, d->name);
		fprintf(f, ",\"major\":%u,\"minor\":%u,\"statistics\":%d,\"layout\":", d->major,
			d->minor, d->nr_fields);
		out_json_str(f, ds_layout(d->nr_fields));
		for (int i = 0; i < DS_NR_FIELDS; i++) {
			fprintf(f, ",\"%s\":", ds_field_key((enum ds_field)i));
			if (i < d->nr_fields)
				fprintf(f, "%" PRIu64, d->v[i]);
			else
				fputs("null", f);
		}
		fputc('}', f);
	}
	fputs("]}\n", f);
}

static void csv_show(const struct diskstats *ds, int all, FILE *f)
{
	fputs("name,major,minor,statistics", f);
	for (int i = 0; i < DS_NR_FIELDS; i++)
		fprintf(f, ",%s", ds_field_key((enum ds_field)i));
	fputc('\n', f);
	for (size_t k = 0; k < ds->nr; k++) {
		const struct ds_dev *d = &ds->dev[k];

		if (!all && ds_dev_idle(d))
			continue;
		out_csv_str(f, d->name);
		fprintf(f, ",%u,%u,%d", d->major, d->minor, d->nr_fields);
		for (int i = 0; i < DS_NR_FIELDS; i++)
			if (i < d->nr_fields)
				fprintf(f, ",%" PRIu64, d->v[i]);
			else
				fputc(',', f);
		fputc('\n', f);
	}
}

int diskstats_print(const struct diskstats *ds, int all, enum out_fmt fmt, FILE *f)
{
	if (fmt == OUT_JSON)
		json_show(ds, all, f);
	else if (fmt == OUT_CSV)
		csv_show(ds, all, f);
	else
		text_show(ds, all, f);
	return 0;
}

/* ---- two files: iostat -x ------------------------------------------------------------ */

/* The figures in iostat -x's order (sysstat 12: -m), with their heading and JSON/CSV key. */
enum col_group { COL_RW, COL_DISCARD, COL_FLUSH, COL_BOTH };

struct column {
	const char *head, *key;
	enum col_group group;
	size_t offset;
};

#define COL(h, k, g, m)                                                                            \
	{                                                                                          \
		h, k, g, offsetof(struct ds_iostat, m)                                             \
	}

static const struct column columns[] = {
	COL("r/s", "r_s", COL_RW, r_s),
	COL("rMB/s", "rMB_s", COL_RW, rmb_s),
	COL("rrqm/s", "rrqm_s", COL_RW, rrqm_s),
	COL("%rrqm", "rrqm_pct", COL_RW, rrqm_pct),
	COL("r_await", "r_await", COL_RW, r_await),
	COL("rareq-sz", "rareq_sz", COL_RW, rareq_sz),
	COL("w/s", "w_s", COL_RW, w_s),
	COL("wMB/s", "wMB_s", COL_RW, wmb_s),
	COL("wrqm/s", "wrqm_s", COL_RW, wrqm_s),
	COL("%wrqm", "wrqm_pct", COL_RW, wrqm_pct),
	COL("w_await", "w_await", COL_RW, w_await),
	COL("wareq-sz", "wareq_sz", COL_RW, wareq_sz),
	COL("d/s", "d_s", COL_DISCARD, d_s),
	COL("dMB/s", "dMB_s", COL_DISCARD, dmb_s),
	COL("drqm/s", "drqm_s", COL_DISCARD, drqm_s),
	COL("%drqm", "drqm_pct", COL_DISCARD, drqm_pct),
	COL("d_await", "d_await", COL_DISCARD, d_await),
	COL("dareq-sz", "dareq_sz", COL_DISCARD, dareq_sz),
	COL("f/s", "f_s", COL_FLUSH, f_s),
	COL("f_await", "f_await", COL_FLUSH, f_await),
	COL("aqu-sz", "aqu_sz", COL_RW, aqu_sz),
	COL("%util", "util", COL_RW, util),
	/* Not among iostat 12's columns: iostat 11's await and avgrq-sz (here in kB). */
	COL("await", "await", COL_BOTH, await),
	COL("areq-sz", "areq_sz", COL_BOTH, areq_sz),
};

#define NR_COLUMNS (sizeof(columns) / sizeof(columns[0]))

static double column_value(const struct ds_iostat *s, const struct column *c)
{
	return *(const double *)((const char *)s + c->offset);
}

static const char *flag_word(enum ds_flag fl)
{
	static const char *const words[] = {"", "went down", "only in BEFORE", "only in AFTER"};

	return words[fl];
}

static const char *flag_key(enum ds_flag fl)
{
	static const char *const words[] = {"", "down", "only_before", "only_after"};

	return words[fl];
}

/* The text table shows discard and flush columns when some device has them in both files. */
static int most_fields(const struct ds_delta *rows, long n)
{
	int most = DS_FIELDS_2_6_25;

	for (long i = 0; i < n; i++)
		if (rows[i].nr_fields > most)
			most = rows[i].nr_fields;
	return most;
}

static int text_column(const struct column *c, int fields)
{
	return c->group == COL_RW || (c->group == COL_DISCARD && fields >= DS_FIELDS_4_18) ||
	       (c->group == COL_FLUSH && fields >= DS_FIELDS_5_5);
}

static void text_diff(const struct ds_delta *rows, long n, double elapsed, int all, FILE *f)
{
	int fields = most_fields(rows, n), header = 0;
	long hidden = 0;

	if (isfinite(elapsed) && elapsed > 0)
		fprintf(f, "interval: %g s\n", elapsed);
	else
		fputs("interval: unknown (--elapsed SECONDS gives the rates, aqu-sz and %util)\n",
		      f);
	for (long i = 0; i < n; i++) {
		const struct ds_delta *r = &rows[i];
		struct ds_iostat s;

		if (!all && ds_delta_idle(r)) {
			hidden++;
			continue;
		}
		if (!header++) {
			fprintf(f, "%-12s", "Device");
			for (size_t k = 0; k < NR_COLUMNS; k++)
				if (text_column(&columns[k], fields))
					fprintf(f, " %8s", columns[k].head);
			fputc('\n', f);
		}
		ds_iostat(r, elapsed, &s);
		fprintf(f, "%-12s", r->name);
		for (size_t k = 0; k < NR_COLUMNS; k++) {
			double v = column_value(&s, &columns[k]);

			if (!text_column(&columns[k], fields))
				continue;
			if (isfinite(v))
				fprintf(f, " %8.2f", v);
			else
				fprintf(f, " %8s", "-");
		}
		if (r->flag != DS_OK)
			fprintf(f, "  !! %s", flag_word(r->flag));
		fputc('\n', f);
	}
	if (!header)
		fputs(n ? "no I/O between the two files\n" : "no block device\n", f);
	if (hidden)
		fprintf(f, "(%ld idle device%s not shown: --all shows %s)\n", hidden,
			hidden > 1 ? "s" : "", hidden > 1 ? "them" : "it");
}

static const struct ds_dev *either(const struct ds_delta *r)
{
	return r->after ? r->after : r->before;
}

static void json_diff(const struct ds_delta *rows, long n, double elapsed, int all, FILE *f)
{
	int first = 1;

	fputs("{\"elapsed\":", f);
	out_json_num(f, isfinite(elapsed) && elapsed > 0 ? elapsed : NAN);
	fputs(",\"devices\":[", f);
	for (long i = 0; i < n; i++) {
		const struct ds_delta *r = &rows[i];
		struct ds_iostat s;

		if (!all && ds_delta_idle(r))
			continue;
		ds_iostat(r, elapsed, &s);
		fputs(first ? "\n{\"name\":" : ",\n{\"name\":", f);
		first = 0;
		out_json_str(f, r->name);
		fprintf(f, ",\"major\":%u,\"minor\":%u,\"flag\":", either(r)->major,
			either(r)->minor);
		if (r->flag == DS_OK)
			fputs("null", f);
		else
			out_json_str(f, flag_key(r->flag));
		fputs(",\"delta\":{", f);
		for (int k = 0; k < DS_NR_FIELDS; k++) {
			fprintf(f, "%s\"%s\":", k ? "," : "", ds_field_key((enum ds_field)k));
			if (k < r->nr_fields && r->flag == DS_OK)
				fprintf(f, "%" PRIu64, r->d[k]);
			else
				fputs("null", f);
		}
		fputs("},\"iostat\":{", f);
		for (size_t k = 0; k < NR_COLUMNS; k++) {
			fprintf(f, "%s\"%s\":", k ? "," : "", columns[k].key);
			out_json_num(f, column_value(&s, &columns[k]));
		}
		fputs("}}", f);
	}
	fputs("]}\n", f);
}

static void csv_diff(const struct ds_delta *rows, long n, double elapsed, int all, FILE *f)
{
	fputs("name,major,minor,flag", f);
	for (int k = 0; k < DS_NR_FIELDS; k++)
		fprintf(f, ",%s", ds_field_key((enum ds_field)k));
	for (size_t k = 0; k < NR_COLUMNS; k++)
		fprintf(f, ",%s", columns[k].key);
	fputc('\n', f);
	for (long i = 0; i < n; i++) {
		const struct ds_delta *r = &rows[i];
		struct ds_iostat s;

		if (!all && ds_delta_idle(r))
			continue;
		ds_iostat(r, elapsed, &s);
		out_csv_str(f, r->name);
		fprintf(f, ",%u,%u,%s", either(r)->major, either(r)->minor, flag_key(r->flag));
		for (int k = 0; k < DS_NR_FIELDS; k++)
			if (k < r->nr_fields && r->flag == DS_OK)
				fprintf(f, ",%" PRIu64, r->d[k]);
			else
				fputc(',', f);
		for (size_t k = 0; k < NR_COLUMNS; k++) {
			double v = column_value(&s, &columns[k]);

			if (isfinite(v))
				fprintf(f, ",%.3f", v);
			else
				fputc(',', f);
		}
		fputc('\n', f);
	}
}

int diskstats_diff_print(const struct diskstats *before, const struct diskstats *after,
			 double elapsed, int all, enum out_fmt fmt, FILE *f)
{
	struct ds_delta *rows;
	long n = ds_deltas(before, after, &rows);

	if (n < 0)
		return (int)n;
	if (fmt == OUT_JSON)
		json_diff(rows, n, elapsed, all, f);
	else if (fmt == OUT_CSV)
		csv_diff(rows, n, elapsed, all, f);
	else
		text_diff(rows, n, elapsed, all, f);
	free(rows);
	return 0;
}
