/*
 * watch - the sampling loop and the per-interval report.  The loop owns no timing policy
 * beyond "sleep, read, compare": the sleep and the clock come in through watch_opts so tests
 * drive it without waiting, and a signal only sets a flag the loop polls.
 *
 * Counters that vanish from the source between two samples are ignored for that interval (an
 * engine rewriting its stats file may be caught half-way); counters that appear are reported
 * as new.
 */
#include "watch.h"

#include <errno.h>
#include <math.h>
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

static int is_event(const char *name)
{
	struct name_info ni;

	names_lookup(name, &ni);
	return ni.kind == VM_EVENT;
}

static void text_changed(const struct vm_counter *c, const struct vm_counter *p, double dt, FILE *f)
{
	char d[OUT_COUNT_MAX], v[OUT_COUNT_MAX];
	int ev = is_event(c->name);

	out_change(d, ev, p->value, c->value, 1);
	if (ev && dt > 0)
		fprintf(f, "  %-36s %16s %14.1f/s\n", c->name, d,
			wrap_change(1, p->value, c->value) / dt);
	else if (ev)
		fprintf(f, "  %-36s %16s\n", c->name, d);
	else
		fprintf(f, "  %-36s %16s (%s)\n", c->name, out_count(v, 0, c->value), d);
}

static void emit_text(const struct vm_dump *prev, const struct vm_dump *cur, long nr, double t,
		      double dt, FILE *f)
{
	int changed = 0;

	if (!prev) {
		fprintf(f, "sample 0: %zu counters from %s\n", cur->nr,
			cur->path ? cur->path : "?");
		return;
	}
	fprintf(f, "sample %ld at %.3f s (+%.3f s):\n", nr, t, dt);
	for (size_t i = 0; i < cur->nr; i++) {
		const struct vm_counter *c = &cur->v[i], *p = dump_find(prev, c->name);

		if (!p) {
			char v[OUT_COUNT_MAX];

			fprintf(f, "  %-36s %16s (new)\n", c->name,
				out_count(v, is_event(c->name), c->value));
			changed++;
		} else if (p->value != c->value) {
			text_changed(c, p, dt, f);
			changed++;
		}
	}
	if (!changed)
		fputs("  (no change)\n", f);
}

static void emit_csv(const struct vm_dump *prev, const struct vm_dump *cur, long nr, double t,
		     FILE *f)
{
	if (!prev)
		fputs("time,name,value,delta\n", f);
	fprintf(f, "%.3f," WATCH_SAMPLE_MARK ",%ld,\n", t, nr);
	for (size_t i = 0; i < cur->nr; i++) {
		const struct vm_counter *c = &cur->v[i];
		const struct vm_counter *p = prev ? dump_find(prev, c->name) : NULL;
		char v[OUT_COUNT_MAX], d[OUT_COUNT_MAX];
		int ev;

		if (prev && p && p->value == c->value)
			continue;
		ev = is_event(c->name);
		fprintf(f, "%.3f,", t);
		out_csv_str(f, c->name);
		fprintf(f, ",%s,%s\n", out_count(v, ev, c->value),
			p ? out_change(d, ev, p->value, c->value, 0) : "");
	}
}

static void emit_json(const struct vm_dump *prev, const struct vm_dump *cur, long nr, double t,
		      FILE *f)
{
	int first = 1;

	fprintf(f, "{\"sample\":%ld,\"time\":%.3f,\"counters\":{", nr, t);
	for (size_t i = 0; i < cur->nr; i++) {
		const struct vm_counter *c = &cur->v[i];
		const struct vm_counter *p = prev ? dump_find(prev, c->name) : NULL;
		char v[OUT_COUNT_MAX], d[OUT_COUNT_MAX];
		int ev;

		if (prev && p && p->value == c->value)
			continue;
		ev = is_event(c->name);
		fputs(first ? "" : ",", f);
		first = 0;
		out_json_str(f, c->name);
		fprintf(f, ":{\"value\":%s,\"delta\":%s}", out_count(v, ev, c->value),
			p ? out_change(d, ev, p->value, c->value, 0) : "null");
	}
	fputs("}}\n", f);
}

void watch_emit(const struct vm_dump *prev, const struct vm_dump *cur, long nr, double t, double dt,
		enum out_fmt fmt, FILE *f)
{
	if (fmt == OUT_CSV)
		emit_csv(prev, cur, nr, t, f);
	else if (fmt == OUT_JSON)
		emit_json(prev, cur, nr, t, f);
	else
		emit_text(prev, cur, nr, t, dt, f);
	fflush(f);
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

int watch_run(const struct watch_opts *o, const struct vm_diag *diag, FILE *f)
{
	double (*now)(void *) = o->clock_fn ? o->clock_fn : mono_now;
	int (*wait)(double, void *) = o->sleep_fn ? o->sleep_fn : nap;
	struct vm_dump prev, cur;
	double t0, tprev;
	int err = sample(o, diag, &prev);

	if (err)
		return err;
	t0 = tprev = now(o->arg);
	watch_emit(NULL, &prev, 0, 0.0, 0.0, o->fmt, f);
	for (long nr = 1; (o->count <= 0 || nr <= o->count) && !stopped(o); nr++) {
		double t;

		if (wait(o->interval, o->arg) || stopped(o))
			break;
		err = sample(o, diag, &cur);
		if (err)
			break;
		t = now(o->arg);
		watch_emit(&prev, &cur, nr, t - t0, t - tprev, o->fmt, f);
		dump_fini(&prev);
		prev = cur;
		tprev = t;
		/* Nobody reads a full disk or a closed pipe: stop instead of sampling on. */
		if (ferror(f)) {
			err = -EIO;
			break;
		}
	}
	dump_fini(&prev);
	return err;
}
