/*
 * plot_rec - decoding of a `watch --csv` recording: "time,name,value,delta" rows, each sample
 * opened by a "@sample" row, the first sample complete and later ones holding only the
 * counters that changed, or, with an empty value, those missing from the sample.  Values are
 * carried forward between the rows that mention them.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "input.h"
#include "names.h"
#include "plot.h"
#include "watch.h"

void plot_rec_fini(struct plot_rec *r)
{
	free(r->times);
	free(r->ch);
	dump_fini(&r->names);
	memset(r, 0, sizeof(*r));
}

static void bad_row(struct plot_rec *r, const char *path, unsigned int line,
		    const struct vm_diag *diag, const char *why)
{
	r->nr_malformed++;
	diag_report(diag, path, line, "%s; row skipped", why);
}

static int add_sample(struct plot_rec *r, double t)
{
	double *nt;

	if (r->nr_samples >= UINT32_MAX - 1)
		return -E2BIG;
	nt = realloc(r->times, (r->nr_samples + 1) * sizeof(*nt));
	if (!nt)
		return -ENOMEM;
	r->times = nt;
	r->times[r->nr_samples++] = t;
	return 0;
}

static int add_change(struct plot_rec *r, const char *name, size_t nlen, int64_t value, int missing)
{
	char tmp[DUMP_NAME_MAX + 1];
	int64_t idx;

	memcpy(tmp, name, nlen);
	tmp[nlen] = '\0';
	if (dump_get(&r->names, tmp, &idx)) {
		int err = dump_add(&r->names, tmp, nlen, (int64_t)r->names.nr, 0);

		if (err)
			return err;
		idx = (int64_t)r->names.nr - 1;
	}
	if (r->nr_ch == r->cap_ch) {
		size_t ncap = r->cap_ch ? r->cap_ch * 2 : 1024;
		struct plot_change *nc = realloc(r->ch, ncap * sizeof(*nc));

		if (!nc)
			return -ENOMEM;
		r->ch = nc;
		r->cap_ch = ncap;
	}
	r->ch[r->nr_ch++] =
		(struct plot_change){(uint32_t)(r->nr_samples - 1), (uint32_t)idx, value, missing};
	return 0;
}

/* Field @i (0-based) of a comma-separated row; no quoting, as names hold no commas. */
static int field(const char *s, size_t len, int i, const char **f, size_t *flen)
{
	const char *end = s + len;

	for (; i > 0; i--) {
		const char *c = memchr(s, ',', (size_t)(end - s));

		if (!c)
			return -EINVAL;
		s = c + 1;
	}
	*f = s;
	{
		const char *c = memchr(s, ',', (size_t)(end - s));

		*flen = (size_t)((c ? c : end) - s);
	}
	return 0;
}

static int parse_time(const char *s, size_t len, double *t)
{
	char tmp[40], *end;

	if (len == 0 || len >= sizeof(tmp))
		return -EINVAL;
	memcpy(tmp, s, len);
	tmp[len] = '\0';
	*t = strtod(tmp, &end);
	return (*end || !isfinite(*t) || *t < 0) ? -EINVAL : 0;
}

static int parse_row(struct plot_rec *r, const char *s, size_t len, const char *path,
		     unsigned int line, const struct vm_diag *diag)
{
	const char *ft, *fn, *fv, *why = "bad value";
	size_t lt, ln, lv;
	double t;
	int64_t v = 0;

	if (len && s[len - 1] == '\r')
		len--;
	if (len == 0 || (line == 1 && len >= 5 && memcmp(s, "time,", 5) == 0))
		return 0;
	/* An empty value is a counter missing from that sample (watch.c). */
	if (field(s, len, 0, &ft, &lt) || field(s, len, 1, &fn, &ln) ||
	    field(s, len, 2, &fv, &lv) || parse_time(ft, lt, &t) || ln == 0 || ln > DUMP_NAME_MAX ||
	    (lv && dump_parse_value(fv, lv, &v, &why))) {
		bad_row(r, path, line, diag, "expected 'time,name,value,delta'");
		return 0;
	}
	if (ln == strlen(WATCH_SAMPLE_MARK) && memcmp(fn, WATCH_SAMPLE_MARK, ln) == 0)
		return add_sample(r, t);
	if (r->nr_samples == 0) {
		bad_row(r, path, line, diag,
			"counter row before the first " WATCH_SAMPLE_MARK " row");
		return 0;
	}
	return add_change(r, fn, ln, v, lv == 0);
}

int plot_rec_parse(struct plot_rec *r, const char *buf, size_t len, const char *path,
		   const struct vm_diag *diag)
{
	unsigned int line = 0;
	size_t pos = 0, n;
	const char *s;
	int err = dump_init(&r->names, NULL);

	while (!err && (s = input_next_line(buf, len, &pos, &n)))
		err = parse_row(r, s, n, path, ++line, diag);
	if (!err && r->nr_samples == 0)
		err = -EBADMSG;
	return err;
}

/* Which counters changed after the first sample: a malloc'd flag per counter, or NULL. */
static unsigned char *changed_map(const struct plot_rec *r)
{
	unsigned char *chg = calloc(r->names.nr + 1, 1);

	if (!chg)
		return NULL;
	for (size_t i = 0; i < r->nr_ch; i++)
		if (r->ch[i].sample > 0 && !r->ch[i].missing)
			chg[r->ch[i].counter] = 1;
	return chg;
}

/* clang-format off */
static const char *const preferred[] = {
	"pgscan_kswapd", "pgscan_direct", "pgsteal_kswapd", "pgsteal_direct",
	"pgscan_kswapd_normal", "pgscan_direct_normal", "pgsteal_kswapd_normal",
	"pgsteal_direct_normal", "allocstall", "allocstall_normal", "allocstall_dma32",
	"pgrefill", "nr_free_pages", "nr_inactive_file", "nr_active_file", "nr_inactive_anon",
	"nr_active_anon", NULL,
};
/* clang-format on */

/* Counters drawn when none is named and no preferred one changed. */
#define PLOT_AUTO_SERIES 8

static int select_list(const struct plot_rec *r, const char *const *list, const unsigned char *chg,
		       uint32_t *sel, const char **missing)
{
	int n = 0;

	for (; *list && n < PLOT_MAX_SERIES; list++) {
		int64_t idx;

		if (dump_get(&r->names, *list, &idx)) {
			if (missing) {
				*missing = *list;
				return -ENOENT;
			}
			continue;
		}
		if (!chg || chg[idx])
			sel[n++] = (uint32_t)idx;
	}
	return n;
}

int plot_rec_select(const struct plot_rec *r, const char *const *want, uint32_t *sel,
		    const char **missing)
{
	unsigned char *chg;
	int n;

	if (want && *want)
		return select_list(r, want, NULL, sel, missing);
	chg = changed_map(r);
	if (!chg)
		return -ENOMEM;
	n = select_list(r, preferred, chg, sel, NULL);
	if (n == 0)
		for (uint32_t c = 0; c < r->names.nr && n < PLOT_AUTO_SERIES; c++)
			if (chg[c])
				sel[n++] = c;
	free(chg);
	return n;
}
