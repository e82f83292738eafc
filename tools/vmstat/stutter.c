/*
 * stutter - reader and statistics of stutter latency logs.  Samples stay grouped as
 * (latency, count) so a log of a billion samples costs one entry per line; every statistic is
 * computed on the sorted groups as if they were expanded, with mmtests' index rounding and its
 * calc_lowest_mean off-by-one (t+1 values averaged) kept on purpose.
 */
#include "stutter.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "dump.h"
#include "input.h"

/* clang-format off */
const char *const stutter_stat_names[NR_STUTTER_STATS] = {
	"Min",     "1st-qrtle", "2nd-qrtle",   "3rd-qrtle",   "Max-90%",     "Max-93%",
	"Max-95%", "Max-99%",   "Max",         "Mean",        "Best99%Mean", "Best95%Mean",
	"Best90%Mean", "Best50%Mean", "Best10%Mean", "Best5%Mean", "Best1%Mean",
};
/* clang-format on */

void stutter_fini(struct stutter_samples *s)
{
	free(s->g);
	memset(s, 0, sizeof(*s));
}

static int add_group(struct stutter_samples *s, uint64_t ns, uint64_t count)
{
	if (count > STUTTER_MAX_SAMPLES - s->total)
		return -E2BIG;
	if (s->nr == s->cap) {
		size_t ncap = s->cap ? s->cap * 2 : 1024;
		struct stutter_group *ng = realloc(s->g, ncap * sizeof(*ng));

		if (!ng)
			return -ENOMEM;
		s->g = ng;
		s->cap = ncap;
	}
	s->g[s->nr++] = (struct stutter_group){ns, count};
	s->total += count;
	return 0;
}

/* Splits a line into one or two non-negative integers; the reason in *@why when it cannot. */
static int parse_fields(const char *p, size_t len, int64_t *a, int64_t *b, int *nf,
			const char **why)
{
	const char *sp = p;

	while (sp < p + len && *sp != ' ' && *sp != '\t')
		sp++;
	*nf = sp == p + len ? 1 : 2;
	if (dump_parse_value(p, (size_t)(sp - p), a, why))
		return -EINVAL;
	if (*nf == 2 && dump_parse_value(sp, len - (size_t)(sp - p), b, why))
		return -EINVAL;
	if (*a < 0 || (*nf == 2 && *b < 0)) {
		*why = "negative value";
		return -EINVAL;
	}
	return 0;
}

static int parse_one(struct stutter_samples *s, const char *p, size_t len, const char *path,
		     unsigned int line, const struct vm_diag *diag)
{
	const char *why = "expected '<latency_ns>' or '<count> <latency_ns>'";
	int64_t a = 0, b = 0;
	int nf = 0;

	while (len && (*p == ' ' || *p == '\t')) {
		p++;
		len--;
	}
	while (len && (p[len - 1] == ' ' || p[len - 1] == '\t' || p[len - 1] == '\r'))
		len--;
	if (len == 0 || *p == '#')
		return 0;
	if (parse_fields(p, len, &a, &b, &nf, &why) || (nf == 2 && a == 0)) {
		if (nf == 2 && a == 0)
			why = "a count of 0 samples";
		s->nr_malformed++;
		diag_report(diag, path, line, "%s; line skipped", why);
		return 0;
	}
	return nf == 1 ? add_group(s, (uint64_t)a, 1) : add_group(s, (uint64_t)b, (uint64_t)a);
}

int stutter_parse(struct stutter_samples *s, const char *buf, size_t len, const char *path,
		  const struct vm_diag *diag)
{
	unsigned int line = 0;
	size_t pos = 0, n;
	const char *p;

	while ((p = input_next_line(buf, len, &pos, &n))) {
		int err = parse_one(s, p, n, path, ++line, diag);

		if (err)
			return err;
	}
	return 0;
}

int stutter_load_dir(struct stutter_samples *s, const char *dir, const struct vm_diag *diag,
		     char *used, size_t sz)
{
	static const char *const names[] = {STUTTER_FILE, STUTTER_MMTESTS_FILE};
	char *buf = NULL;
	size_t len = 0;
	int err = -ENOENT;

	for (size_t i = 0; i < 2 && err == -ENOENT; i++) {
		snprintf(used, sz, "%s/%s", dir, names[i]);
		err = input_read(used, &buf, &len);
	}
	if (err)
		return err;
	err = stutter_parse(s, buf, len, used, diag);
	free(buf);
	if (!err && s->total == 0)
		err = -EBADMSG;
	return err;
}

static int cmp_group(const void *x, const void *y)
{
	const struct stutter_group *a = x, *b = y;

	return (a->ns > b->ns) - (a->ns < b->ns);
}

uint64_t stutter_at(const struct stutter_samples *s, uint64_t i)
{
	for (size_t k = 0; k < s->nr; k++) {
		if (i < s->g[k].count)
			return s->g[k].ns;
		i -= s->g[k].count;
	}
	return s->nr ? s->g[s->nr - 1].ns : 0;
}

/* Mean of the @m smallest samples, in ns. */
static double mean_lowest(const struct stutter_samples *s, uint64_t m)
{
	double sum = 0;
	uint64_t left = m;

	for (size_t k = 0; k < s->nr && left; k++) {
		uint64_t c = s->g[k].count < left ? s->g[k].count : left;

		sum += (double)s->g[k].ns * (double)c;
		left -= c;
	}
	return sum / (double)m;
}

/* mmtests' calc_lowest_mean: t = int(n*P/100); mean of s[0..t], t+1 values (an upstream bug
 * until 2019, kept for parity), or of all values when t is 0. */
static double best_mean(const struct stutter_samples *s, unsigned int pct)
{
	uint64_t t = (uint64_t)((double)s->total * pct / 100.0);

	if (t == 0 || t + 1 > s->total)
		return mean_lowest(s, s->total);
	return mean_lowest(s, t + 1);
}

int stutter_stats(struct stutter_samples *s, struct stutter_stats *st)
{
	static const double q[] = {0.25, 0.50, 0.75, 0.90, 0.93, 0.95, 0.99};
	static const unsigned int best[] = {99, 95, 90, 50, 10, 5, 1};
	uint64_t last;

	if (s->total == 0)
		return -ENODATA;
	qsort(s->g, s->nr, sizeof(*s->g), cmp_group);
	last = s->total - 1;
	st->n = s->total;
	st->ms[ST_MIN] = (double)s->g[0].ns / 1e6;
	for (int i = 0; i < 7; i++)
		st->ms[ST_Q1 + i] =
			(double)stutter_at(s, (uint64_t)((double)last * q[i] + 0.5)) / 1e6;
	st->ms[ST_MAX] = (double)s->g[s->nr - 1].ns / 1e6;
	st->ms[ST_MEAN] = mean_lowest(s, s->total) / 1e6;
	for (int i = 0; i < 7; i++)
		st->ms[ST_B99 + i] = best_mean(s, best[i]) / 1e6;
	return 0;
}

void stutter_print(const struct stutter_stats *st, enum out_fmt fmt, FILE *f)
{
	if (fmt == OUT_JSON) {
		fprintf(f, "{\"unit\":\"ms\",\"samples\":%llu,\"rows\":{",
			(unsigned long long)st->n);
		for (int i = 0; i < NR_STUTTER_STATS; i++) {
			fprintf(f, "%s\"%s\":", i ? "," : "", stutter_stat_names[i]);
			out_json_num(f, st->ms[i]);
		}
		fputs("}}\n", f);
		return;
	}
	if (fmt == OUT_CSV)
		fputs("row,op,ms\n", f);
	for (int i = 0; i < NR_STUTTER_STATS; i++) {
		if (fmt == OUT_CSV)
			fprintf(f, "%s,mmap,%.4f\n", stutter_stat_names[i], st->ms[i]);
		else
			fprintf(f, "%-11s mmap%12.4f\n", stutter_stat_names[i], st->ms[i]);
	}
}
