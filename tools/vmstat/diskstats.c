/*
 * diskstats - parser of /proc/diskstats lines, the change of each device between two files,
 * and iostat -x's figures from it (sysstat's compute_ext_disk_stats and the columns of its
 * iostat -x).  Strict about each line, lenient about the file, as dump.c: a bad line is
 * reported with its number and skipped.  The fuzz target drives diskstats_parse() directly.
 */
#include "diskstats.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "input.h"

static const char *const keys[DS_NR_FIELDS] = {
	"reads",          "reads_merged",    "sectors_read",    "read_ms",           "writes",
	"writes_merged",  "sectors_written", "write_ms",        "in_flight",         "io_ms",
	"weighted_io_ms", "discards",        "discards_merged", "sectors_discarded", "discard_ms",
	"flushes",        "flush_ms",
};

const char *ds_field_key(enum ds_field f)
{
	return (unsigned int)f < DS_NR_FIELDS ? keys[f] : "";
}

int ds_field_wraps32(enum ds_field f)
{
	return f == DS_READ_MS || f == DS_WRITE_MS || f == DS_IN_FLIGHT || f == DS_IO_MS ||
	       f == DS_WEIGHTED_MS || f == DS_DISCARD_MS || f == DS_FLUSH_MS;
}

const char *ds_layout(int nr_fields)
{
	if (nr_fields >= DS_FIELDS_5_5)
		return "5.5 on";
	if (nr_fields >= DS_FIELDS_4_18)
		return "4.18-5.4";
	return "2.6.25-4.17";
}

int diskstats_init(struct diskstats *ds, const char *path)
{
	memset(ds, 0, sizeof(*ds));
	if (path && !(ds->path = strdup(path)))
		return -ENOMEM;
	return 0;
}

void diskstats_fini(struct diskstats *ds)
{
	free(ds->dev);
	free(ds->path);
	memset(ds, 0, sizeof(*ds));
}

const struct ds_dev *diskstats_find(const struct diskstats *ds, const char *name)
{
	/* A few dozen devices: a hash would not pay. */
	for (size_t i = 0; i < ds->nr; i++)
		if (strcmp(ds->dev[i].name, name) == 0)
			return &ds->dev[i];
	return NULL;
}

int ds_dev_idle(const struct ds_dev *d)
{
	for (int i = 0; i < d->nr_fields; i++)
		if (d->v[i])
			return 0;
	return 1;
}

static int is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/* The next blank-separated word of @s (@len bytes) from *@i on; its length, 0 at the end. */
static size_t next_word(const char *s, size_t len, size_t *i, const char **word)
{
	size_t start;

	while (*i < len && is_blank(s[*i]))
		(*i)++;
	start = *i;
	while (*i < len && !is_blank(s[*i]))
		(*i)++;
	*word = s + start;
	return *i - start;
}

/* An unsigned decimal of @n bytes up to 2^64 - 1.  0, or -EINVAL with the reason. */
static int parse_u64(const char *s, size_t n, uint64_t *out, const char **why)
{
	uint64_t v = 0;

	if (!n) {
		*why = "missing number";
		return -EINVAL;
	}
	for (size_t i = 0; i < n; i++) {
		unsigned int d = (unsigned int)(s[i] - '0');

		if (d > 9) {
			*why = "a statistic is not a number";
			return -EINVAL;
		}
		if (v > (UINT64_MAX - d) / 10) {
			*why = "a statistic is out of range";
			return -EINVAL;
		}
		v = v * 10 + d;
	}
	*out = v;
	return 0;
}

static int parse_u32(const char *s, size_t n, unsigned int *out, const char **why)
{
	uint64_t v;

	if (parse_u64(s, n, &v, why) || v > UINT32_MAX) {
		*why = "the major or minor number is not a number below 2^32";
		return -EINVAL;
	}
	*out = (unsigned int)v;
	return 0;
}

/*
 * One line into @d: 1, 0 for a blank or '#' line, or -EINVAL with the reason in *@why.
 * *@extra is set when the line had more statistics than a 5.5 line (read for the first 17).
 */
static int parse_line(const char *s, size_t len, struct ds_dev *d, int *extra, const char **why)
{
	const char *w;
	size_t i = 0, n;
	int nr = 0;

	memset(d, 0, sizeof(*d));
	n = next_word(s, len, &i, &w);
	if (!n || w[0] == '#')
		return 0;
	if (parse_u32(w, n, &d->major, why))
		return -EINVAL;
	n = next_word(s, len, &i, &w);
	if (parse_u32(w, n, &d->minor, why))
		return -EINVAL;
	n = next_word(s, len, &i, &w);
	if (!n) {
		*why = "no device name (expected 'major minor name' and the statistics)";
		return -EINVAL;
	}
	if (n > DS_NAME_MAX) {
		*why = "device name too long";
		return -EINVAL;
	}
	memcpy(d->name, w, n);
	while ((n = next_word(s, len, &i, &w))) {
		uint64_t v;

		if (parse_u64(w, n, &v, why))
			return -EINVAL;
		if (nr < DS_NR_FIELDS)
			d->v[nr] = v;
		nr++;
	}
	if (nr == 4) {
		*why = "4 statistics: a partition line of a kernel before 2.6.25, not read";
		return -EINVAL;
	}
	if (nr != DS_FIELDS_2_6_25 && nr != DS_FIELDS_4_18 && nr < DS_FIELDS_5_5) {
		*why = "expected 11, 15 or 17 statistics after the name";
		return -EINVAL;
	}
	*extra = nr > DS_FIELDS_5_5;
	d->nr_fields = nr > DS_FIELDS_5_5 ? DS_FIELDS_5_5 : nr;
	return 1;
}

static int add_dev(struct diskstats *ds, const struct ds_dev *d)
{
	if (ds->nr == ds->cap) {
		size_t cap = ds->cap ? 2 * ds->cap : 32;
		struct ds_dev *grown = realloc(ds->dev, cap * sizeof(*grown));

		if (!grown)
			return -ENOMEM;
		ds->dev = grown;
		ds->cap = cap;
	}
	ds->dev[ds->nr++] = *d;
	if (d->nr_fields > ds->max_fields)
		ds->max_fields = d->nr_fields;
	return 0;
}

int diskstats_parse(struct diskstats *ds, const char *buf, size_t len, const struct vm_diag *diag)
{
	unsigned int line = 0;
	int extra_reported = 0;
	size_t pos = 0, n;
	const char *s;

	while ((s = input_next_line(buf, len, &pos, &n))) {
		const struct ds_dev *first;
		const char *why = NULL;
		struct ds_dev d;
		int extra = 0, r = parse_line(s, n, &d, &extra, &why);

		line++;
		if (r < 0) {
			ds->nr_malformed++;
			diag_report(diag, ds->path, line, "%s; line skipped", why);
			continue;
		}
		if (r == 0)
			continue;
		if ((first = diskstats_find(ds, d.name))) {
			ds->nr_malformed++;
			diag_report(
				diag, ds->path, line,
				"a second line for device '%s' (first at line %u); line skipped",
				d.name, first->line);
			continue;
		}
		if (extra && !extra_reported++)
			diag_report(diag, ds->path, line,
				    "more statistics than Linux 5.5's 17 (a later kernel?): the "
				    "first 17 are read");
		d.line = line;
		if (add_dev(ds, &d))
			return -ENOMEM;
	}
	return 0;
}

int diskstats_load(struct diskstats *ds, const char *path, const struct vm_diag *diag)
{
	char *buf;
	size_t len;
	int err = input_read(path, &buf, &len);

	if (err == -ENODATA)
		return 0;
	if (err)
		return err;
	if (!input_is_diskstats(buf, len)) {
		free(buf);
		return -EMEDIUMTYPE;
	}
	err = diskstats_parse(ds, buf, len, diag);
	free(buf);
	if (!err && ds->nr == 0)
		err = -EBADMSG;
	return err;
}

/* AFTER - BEFORE of field @f: 0, or -1 for a count that went down. */
static int field_change(enum ds_field f, uint64_t before, uint64_t after, uint64_t *change)
{
	if (f == DS_IN_FLIGHT) {
		*change = after; /* a level, not a count */
		return 0;
	}
	if (after >= before) {
		*change = after - before;
		return 0;
	}
	if (ds_field_wraps32(f) && before <= UINT32_MAX) {
		*change = (uint32_t)(after - before);
		return 0;
	}
	return -1;
}

static void fill_delta(struct ds_delta *r, const char *name, const struct ds_dev *b,
		       const struct ds_dev *a)
{
	memset(r, 0, sizeof(*r));
	r->name = name;
	r->before = b;
	r->after = a;
	if (!a || !b) {
		r->flag = a ? DS_ONLY_AFTER : DS_ONLY_BEFORE;
		return;
	}
	r->nr_fields = a->nr_fields < b->nr_fields ? a->nr_fields : b->nr_fields;
	for (int i = 0; i < r->nr_fields; i++)
		if (field_change((enum ds_field)i, b->v[i], a->v[i], &r->d[i]))
			r->flag = DS_DOWN;
}

long ds_deltas(const struct diskstats *before, const struct diskstats *after, struct ds_delta **out)
{
	size_t n = 0;

	*out = calloc(before->nr + after->nr + 1, sizeof(**out));
	if (!*out)
		return -ENOMEM;
	for (size_t i = 0; i < after->nr; i++)
		fill_delta(&(*out)[n++], after->dev[i].name,
			   diskstats_find(before, after->dev[i].name), &after->dev[i]);
	for (size_t i = 0; i < before->nr; i++)
		if (!diskstats_find(after, before->dev[i].name))
			fill_delta(&(*out)[n++], before->dev[i].name, &before->dev[i], NULL);
	return (long)n;
}

int ds_delta_idle(const struct ds_delta *d)
{
	if (d->flag != DS_OK)
		return 0;
	for (int i = 0; i < d->nr_fields; i++)
		if (d->d[i])
			return 0;
	return 1;
}

static double ratio(double num, double den)
{
	return den > 0 ? num / den : NAN;
}

/* One direction's six figures: ios, merges, sectors and ms are its four fields. */
static void direction(const uint64_t *d, int present, double secs, double *ios_s, double *mb_s,
		      double *rqm_s, double *rqm_pct, double *await, double *areq_sz)
{
	double ios = (double)d[0], merges = (double)d[1], sectors = (double)d[2];

	if (!present) {
		*ios_s = *mb_s = *rqm_s = *rqm_pct = *await = *areq_sz = NAN;
		return;
	}
	*ios_s = ratio(ios, secs);
	*mb_s = ratio(sectors / 2048, secs);
	*rqm_s = ratio(merges, secs);
	*rqm_pct = ratio(100 * merges, merges + ios);
	*await = ratio((double)d[3], ios);
	*areq_sz = ratio(sectors / 2, ios);
}

void ds_iostat(const struct ds_delta *d, double elapsed, struct ds_iostat *o)
{
	double secs = isfinite(elapsed) && elapsed > 0 ? elapsed : NAN;
	int ok = d->flag == DS_OK, discards = ok && d->nr_fields >= DS_FIELDS_4_18;
	double ios, ms, sectors;

	direction(d->d + DS_READS, ok, secs, &o->r_s, &o->rmb_s, &o->rrqm_s, &o->rrqm_pct,
		  &o->r_await, &o->rareq_sz);
	direction(d->d + DS_WRITES, ok, secs, &o->w_s, &o->wmb_s, &o->wrqm_s, &o->wrqm_pct,
		  &o->w_await, &o->wareq_sz);
	direction(d->d + DS_DISCARDS, discards, secs, &o->d_s, &o->dmb_s, &o->drqm_s, &o->drqm_pct,
		  &o->d_await, &o->dareq_sz);
	if (ok && d->nr_fields >= DS_FIELDS_5_5) {
		o->f_s = ratio((double)d->d[DS_FLUSHES], secs);
		o->f_await = ratio((double)d->d[DS_FLUSH_MS], (double)d->d[DS_FLUSHES]);
	} else {
		o->f_s = o->f_await = NAN;
	}
	if (!ok) {
		o->aqu_sz = o->util = o->await = o->areq_sz = NAN;
		return;
	}
	o->aqu_sz = ratio((double)d->d[DS_WEIGHTED_MS], secs * 1000);
	o->util = ratio(100 * (double)d->d[DS_IO_MS], secs * 1000);
	if (o->util > 100)
		o->util = 100;
	ios = (double)(d->d[DS_READS] + d->d[DS_WRITES]);
	ms = (double)(d->d[DS_READ_MS] + d->d[DS_WRITE_MS]);
	sectors = (double)(d->d[DS_READ_SECTORS] + d->d[DS_WRITE_SECTORS]);
	if (discards) {
		ios += (double)d->d[DS_DISCARDS];
		ms += (double)d->d[DS_DISCARD_MS];
		sectors += (double)d->d[DS_DISCARD_SECTORS];
	}
	o->await = ratio(ms, ios);
	o->areq_sz = ratio(sectors / 2, ios);
}
