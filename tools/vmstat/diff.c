/*
 * diff - two dumps of one system.  An event counter's delta is what happened between them; a
 * state counter's delta is only a change of level, so both of its values are shown.  Nothing is
 * filled in: a counter one dump lacks is flagged, and its missing side prints as "-".
 */
#include "diff.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "wrap.h"

static void fill_row(struct diff_row *r, const char *name, const struct vm_counter *b,
		     const struct vm_counter *a)
{
	struct name_info ni;

	names_lookup(name, &ni);
	memset(r, 0, sizeof(*r));
	r->name = name;
	r->kind = ni.kind;
	r->has_before = b != NULL;
	r->has_after = a != NULL;
	r->before = b ? b->value : 0;
	r->after = a ? a->value : 0;
	if (a && b) {
		r->delta = wrap_sub(r->after, r->before);
		r->flag = DIFF_OK;
		if (r->kind == VM_EVENT && wrap_went_down(r->before, r->after))
			r->flag = DIFF_DOWN;
	} else {
		r->flag = a ? DIFF_ONLY_AFTER : DIFF_ONLY_BEFORE;
	}
}

long diff_rows(const struct vm_dump *before, const struct vm_dump *after, struct diff_row **rows)
{
	size_t n = 0;

	*rows = calloc(before->nr + after->nr + 1, sizeof(**rows));
	if (!*rows)
		return -ENOMEM;
	for (size_t i = 0; i < after->nr; i++) {
		const char *name = after->v[i].name;

		fill_row(&(*rows)[n++], name, dump_find(before, name), &after->v[i]);
	}
	for (size_t i = 0; i < before->nr; i++)
		if (!dump_find(after, before->v[i].name))
			fill_row(&(*rows)[n++], before->v[i].name, &before->v[i], NULL);
	return (long)n;
}

static const char *flag_word(enum diff_flag fl)
{
	static const char *const words[] = {"", "went down", "only in BEFORE", "only in AFTER"};

	return words[fl];
}

static const char *flag_key(enum diff_flag fl)
{
	static const char *const keys[] = {"", "down", "only_before", "only_after"};

	return keys[fl];
}

static int visible(const struct diff_row *r, const struct diff_opts *o)
{
	return o->all || r->flag != DIFF_OK || r->delta != 0;
}

/*
 * The three figures of a row as text, "-" for a missing one: event counters unsigned (and a
 * fall as '-' and its size), state counters signed.
 */
struct row_text {
	char before[OUT_COUNT_MAX], after[OUT_COUNT_MAX], delta[OUT_COUNT_MAX];
};

static void row_text(const struct diff_row *r, struct row_text *t)
{
	int ev = r->kind == VM_EVENT;

	snprintf(t->before, sizeof(t->before), "-");
	snprintf(t->after, sizeof(t->after), "-");
	snprintf(t->delta, sizeof(t->delta), "-");
	if (r->has_before)
		out_count(t->before, ev, r->before);
	if (r->has_after)
		out_count(t->after, ev, r->after);
	if (r->has_before && r->has_after)
		out_change(t->delta, ev, r->before, r->after, 0);
}

static double row_rate(const struct diff_row *r, double elapsed)
{
	return wrap_change(r->kind == VM_EVENT, r->before, r->after) / elapsed;
}

static void text_rows(const struct diff_row *rows, long n, enum vm_kind kind,
		      const struct diff_opts *o, FILE *f)
{
	int rates = isfinite(o->elapsed) && o->elapsed > 0 && kind == VM_EVENT;
	int header = 0;

	for (long i = 0; i < n; i++) {
		const struct diff_row *r = &rows[i];
		int both = r->has_before && r->has_after;
		struct row_text t;

		if (r->kind != kind || !visible(r, o))
			continue;
		if (!header++)
			fprintf(f, "%-40s %16s %16s %16s%s\n",
				kind == VM_EVENT ? "events" : "state", "before", "after",
				kind == VM_EVENT ? "delta" : "change",
				rates ? "          per-sec" : "");
		row_text(r, &t);
		fprintf(f, "%-40s %16s %16s %16s", r->name, t.before, t.after, t.delta);
		if (rates && both)
			fprintf(f, " %16.3f", row_rate(r, o->elapsed));
		else if (rates)
			fprintf(f, " %16s", "-");
		if (r->flag != DIFF_OK)
			fprintf(f, "  !! %s", flag_word(r->flag));
		fputc('\n', f);
	}
}

static void json_opt(FILE *f, int ok, const char *v)
{
	fputs(ok ? v : "null", f);
}

static void json_rows(const struct diff_row *rows, long n, const struct diff_opts *o, FILE *f)
{
	int rates = isfinite(o->elapsed) && o->elapsed > 0;
	int first = 1;

	fputs("{\"elapsed\":", f);
	out_json_num(f, rates ? o->elapsed : NAN);
	fputs(",\"counters\":[", f);
	for (long i = 0; i < n; i++) {
		const struct diff_row *r = &rows[i];
		int both = r->has_before && r->has_after;
		struct row_text t;

		if (!visible(r, o))
			continue;
		row_text(r, &t);
		fputs(first ? "\n{\"name\":" : ",\n{\"name\":", f);
		first = 0;
		out_json_str(f, r->name);
		fprintf(f, ",\"kind\":\"%s\",\"before\":", names_kind_word(r->kind));
		json_opt(f, r->has_before, t.before);
		fputs(",\"after\":", f);
		json_opt(f, r->has_after, t.after);
		fputs(",\"delta\":", f);
		json_opt(f, both, t.delta);
		fputs(",\"per_second\":", f);
		out_json_num(f,
			     both && rates && r->kind == VM_EVENT ? row_rate(r, o->elapsed) : NAN);
		fputs(",\"flag\":", f);
		if (r->flag == DIFF_OK)
			fputs("null", f);
		else
			out_json_str(f, flag_key(r->flag));
		fputc('}', f);
	}
	fputs("]}\n", f);
}

static void csv_opt(FILE *f, int ok, const char *v)
{
	fputs(ok ? v : "", f);
}

static void csv_rows(const struct diff_row *rows, long n, const struct diff_opts *o, FILE *f)
{
	int rates = isfinite(o->elapsed) && o->elapsed > 0;

	fputs("name,kind,before,after,delta,per_second,flag\n", f);
	for (long i = 0; i < n; i++) {
		const struct diff_row *r = &rows[i];
		int both = r->has_before && r->has_after;
		struct row_text t;

		if (!visible(r, o))
			continue;
		row_text(r, &t);
		out_csv_str(f, r->name);
		fprintf(f, ",%s,", names_kind_word(r->kind));
		csv_opt(f, r->has_before, t.before);
		fputc(',', f);
		csv_opt(f, r->has_after, t.after);
		fputc(',', f);
		csv_opt(f, both, t.delta);
		fputc(',', f);
		if (both && rates && r->kind == VM_EVENT)
			fprintf(f, "%.3f", row_rate(r, o->elapsed));
		fprintf(f, ",%s\n", flag_key(r->flag));
	}
}

int diff_print(const struct vm_dump *before, const struct vm_dump *after, const struct diff_opts *o,
	       enum out_fmt fmt, FILE *f)
{
	struct diff_row *rows;
	long n = diff_rows(before, after, &rows);

	if (n < 0)
		return (int)n;
	if (fmt == OUT_JSON) {
		json_rows(rows, n, o, f);
	} else if (fmt == OUT_CSV) {
		csv_rows(rows, n, o, f);
	} else {
		text_rows(rows, n, VM_EVENT, o, f);
		text_rows(rows, n, VM_STATE, o, f);
	}
	free(rows);
	return 0;
}
