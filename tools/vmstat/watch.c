/*
 * watch - the sampling loop and the per-interval report.  The loop owns no timing policy
 * beyond "sleep, read, compare": the sleep and the clock come in through watch_opts so tests
 * drive it without waiting, and a signal only sets a flag the loop polls.
 *
 * Each sample is compared with the last value read of every counter, not with the sample
 * before it.  A counter missing from a sample (an engine rewriting its stats file may be caught
 * half-way) is skipped in the text and recorded as missing in JSON and CSV, so `plot counters`
 * knows; when it comes back its change counts from the value it had, over the time since.
 * Counters never seen before are reported as new.
 */
#include "watch.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "names.h"
#include "wrap.h"

static double mono_now(void *arg)
{
	struct timespec ts;

	(void)arg;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int nap(double seconds, void *arg)
{
	struct timespec ts;

	(void)arg;
	if (seconds <= 0)
		return 0;
	if (seconds > 1e9) /* keep the conversion to time_t defined */
		seconds = 1e9;
	ts.tv_sec = (time_t)seconds;
	ts.tv_nsec = (long)((seconds - (double)ts.tv_sec) * 1e9);
	/* A signal cuts the nap short; the caller then looks at its stop flag. */
	nanosleep(&ts, NULL);
	return 0;
}

/*
 * What the loop keeps between samples: every counter read so far, its last value and the time
 * (seconds since the first sample) that value was read.
 */
struct watch_last {
	struct vm_dump d; /* in order of first appearance; a counter's value is its last read */
	double *when;     /* per counter of d */
	size_t cap;       /* entries of when[] */
};

/* The sample being reported. */
struct report {
	long nr;
	double t, tprev; /* seconds since the first sample: this one, the one before */
	enum out_fmt fmt;
	FILE *f;
	int items; /* counters reported so far in this sample */
};

static int is_event(const char *name)
{
	struct name_info ni;

	names_lookup(name, &ni);
	return ni.kind == VM_EVENT;
}

static void open_sample(const struct report *rp, const struct vm_dump *cur)
{
	FILE *f = rp->f;

	if (rp->fmt == OUT_CSV) {
		if (rp->nr == 0)
			fputs("time,name,value,delta\n", f);
		fprintf(f, "%.3f," WATCH_SAMPLE_MARK ",%ld,\n", rp->t, rp->nr);
	} else if (rp->fmt == OUT_JSON) {
		fprintf(f, "{\"sample\":%ld,\"time\":%.3f,\"counters\":{", rp->nr, rp->t);
	} else if (rp->nr == 0) {
		fprintf(f, "sample 0: %zu counters from %s\n", cur->nr,
			cur->path ? cur->path : "?");
	} else {
		fprintf(f, "sample %ld at %.3f s (+%.3f s):\n", rp->nr, rp->t, rp->t - rp->tprev);
	}
}

static void close_sample(const struct report *rp)
{
	if (rp->fmt == OUT_JSON)
		fputs("}}\n", rp->f);
	else if (rp->fmt == OUT_TEXT && rp->nr > 0 && rp->items == 0)
		fputs("  (no change)\n", rp->f);
	fflush(rp->f);
}

/* Text: counter @c changed from @was, read at @since. */
static void text_changed(const struct report *rp, const struct vm_counter *c, int64_t was,
			 double since)
{
	char d[OUT_COUNT_MAX], v[OUT_COUNT_MAX];
	int ev = is_event(c->name);
	double span = rp->t - since;
	FILE *f = rp->f;

	out_change(d, ev, was, c->value, 1);
	if (ev && span > 0)
		fprintf(f, "  %-36s %16s %14.1f/s", c->name, d,
			wrap_change(1, was, c->value) / span);
	else if (ev)
		fprintf(f, "  %-36s %16s", c->name, d);
	else
		fprintf(f, "  %-36s %16s (%s)", c->name, out_count(v, 0, c->value), d);
	/* Back after missing from a sample or more: the change spans more than this interval. */
	if (since != rp->tprev)
		fprintf(f, " over %.3f s", span);
	fputc('\n', f);
}

/* A CSV row or JSON member: @value NULL for a counter missing from the sample, @delta NULL for
 * one with no earlier value. */
static void machine_line(struct report *rp, const char *name, const char *value, const char *delta)
{
	FILE *f = rp->f;

	if (rp->fmt == OUT_CSV) {
		fprintf(f, "%.3f,", rp->t);
		out_csv_str(f, name);
		fprintf(f, ",%s,%s\n", value ? value : "", delta ? delta : "");
	} else {
		fputs(rp->items ? "," : "", f);
		out_json_str(f, name);
		fprintf(f, ":{\"value\":%s,\"delta\":%s}", value ? value : "null",
			delta ? delta : "null");
	}
	rp->items++;
}

/* Counter @c of the sample; @p is its last value, read at @since (NULL: never seen). */
static void report_counter(struct report *rp, const struct vm_counter *c,
			   const struct vm_counter *p, double since)
{
	char v[OUT_COUNT_MAX], d[OUT_COUNT_MAX];
	int ev = is_event(c->name);

	if (p && p->value == c->value)
		return;
	if (rp->fmt != OUT_TEXT) {
		machine_line(rp, c->name, out_count(v, ev, c->value),
			     p ? out_change(d, ev, p->value, c->value, 0) : NULL);
		return;
	}
	if (rp->nr == 0)
		return;
	if (p)
		text_changed(rp, c, p->value, since);
	else
		fprintf(rp->f, "  %-36s %16s (new)\n", c->name, out_count(v, ev, c->value));
	rp->items++;
}

/* A counter seen for the first time: its entry in @last.  0 or -ENOMEM. */
static int last_add(struct watch_last *last, const struct vm_counter *c)
{
	if (last->d.nr == last->cap) {
		size_t ncap = last->cap ? last->cap * 2 : 256;
		double *nw = realloc(last->when, ncap * sizeof(*nw));

		if (!nw)
			return -ENOMEM;
		last->when = nw;
		last->cap = ncap;
	}
	return dump_add(&last->d, c->name, strlen(c->name), c->value, 0);
}

/* Take @cur's values as the last ones read, at @t.  0 or -ENOMEM. */
static int remember(struct watch_last *last, const struct vm_dump *cur, double t)
{
	for (size_t i = 0; i < cur->nr; i++) {
		const struct vm_counter *c = &cur->v[i], *p = dump_find(&last->d, c->name);
		size_t k = p ? (size_t)(p - last->d.v) : last->d.nr;
		int err = p ? 0 : last_add(last, c);

		if (err)
			return err;
		last->d.v[k].value = c->value;
		last->when[k] = t;
	}
	return 0;
}

/* Report @cur against the last values, then remember it.  0 or -ENOMEM. */
static int report_sample(struct watch_last *last, const struct vm_dump *cur, struct report *rp)
{
	open_sample(rp, cur);
	for (size_t i = 0; i < cur->nr; i++) {
		const struct vm_counter *c = &cur->v[i], *p = dump_find(&last->d, c->name);

		report_counter(rp, c, p, p ? last->when[p - last->d.v] : 0.0);
	}
	for (size_t k = 0; rp->fmt != OUT_TEXT && k < last->d.nr; k++)
		if (!dump_find(cur, last->d.v[k].name))
			machine_line(rp, last->d.v[k].name, NULL, NULL);
	close_sample(rp);
	return remember(last, cur, rp->t);
}

static int sample(const struct watch_opts *o, const struct vm_diag *diag, struct vm_dump *d)
{
	int err = dump_init(d, o->source);

	if (!err)
		err = dump_load(d, o->source, diag);
	if (err)
		dump_fini(d);
	return err;
}

static int stopped(const struct watch_opts *o)
{
	return o->stop && *o->stop;
}

static int done(const struct watch_opts *o, long nr)
{
	return (o->count > 0 && nr >= o->count) || stopped(o);
}

int watch_run(const struct watch_opts *o, const struct vm_diag *diag, FILE *f)
{
	double (*now)(void *) = o->clock_fn ? o->clock_fn : mono_now;
	int (*wait)(double, void *) = o->sleep_fn ? o->sleep_fn : nap;
	struct report rp = {0, 0.0, 0.0, o->fmt, f, 0};
	struct watch_last last = {{0}, NULL, 0};
	struct vm_dump cur;
	double t0;
	int err = sample(o, diag, &cur);

	if (err)
		return err;
	t0 = now(o->arg);
	for (;;) {
		err = report_sample(&last, &cur, &rp);
		dump_fini(&cur);
		/* Nobody reads a full disk or a closed pipe: stop instead of sampling on. */
		if (!err && ferror(f))
			err = -EIO;
		if (err || done(o, rp.nr) || wait(o->interval, o->arg) || stopped(o))
			break;
		err = sample(o, diag, &cur);
		if (err)
			break;
		rp.nr++;
		rp.items = 0;
		rp.tprev = rp.t;
		rp.t = now(o->arg) - t0;
	}
	dump_fini(&last.d);
	free(last.when);
	return err;
}
