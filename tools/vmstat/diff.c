/*
 * diff - two dumps of one system.  An event counter's delta is what happened between them; a
 * state counter's delta is only a change of level, so both of its values are shown.  Nothing is
 * filled in: a counter one dump lacks is flagged, and its missing side prints as "-".
 */
#include "diff.h"

#include <errno.h>
#include <inttypes.h>
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

static void text_num(FILE *f, int ok, int64_t v)
{
	if (ok)
		fprintf(f, " %16" PRId64, v);
	else
		fprintf(f, " %16s", "-");
}

static void text_rows(const struct diff_row *rows, long n, enum vm_kind kind,
		      const struct diff_opts *o, FILE *f)
{
	int rates = isfinite(o->elapsed) && o->elapsed > 0 && kind == VM_EVENT;
	int header = 0;

	for (long i = 0; i < n; i++) {
		const struct diff_row *r = &rows[i];
		int both = r->has_before && r->has_after;

		if (r->kind != kind || !visible(r, o))
			continue;
		if (!header++)
			fprintf(f, "%-40s %16s %16s %16s%s\n",
				kind == VM_EVENT ? "events" : "state", "before", "after",
				kind == VM_EVENT ? "delta" : "change",
				rates ? "          per-sec" : "");
		fprintf(f, "%-40s", r->name);
		text_num(f, r->has_before, r->before);
		text_num(f, r->has_after, r->after);
		text_num(f, both, r->delta);
		if (rates && both)
			fprintf(f, " %16.3f", (double)r->delta / o->elapsed);
		else if (rates)
			fprintf(f, " %16s", "-");
		if (r->flag != DIFF_OK)
			fprintf(f, "  !! %s", flag_word(r->flag));
		fputc('\n', f);
	}
}

static void json_opt(FILE *f, int ok, int64_t v)
{
	if (ok)
		fprintf(f, "%" PRId64, v);
	else
		fputs("null", f);
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

		if (!visible(r, o))
			continue;
		fputs(first ? "\n{\"name\":" : ",\n{\"name\":", f);
		first = 0;
		out_json_str(f, r->name);
		fprintf(f, ",\"kind\":\"%s\",\"before\":", names_kind_word(r->kind));
		json_opt(f, r->has_before, r->before);
		fputs(",\"after\":", f);
		json_opt(f, r->has_after, r->after);
		fputs(",\"delta\":", f);
		json_opt(f, both, r->delta);
		fputs(",\"per_second\":", f);
		out_json_num(f, both && rates && r->kind == VM_EVENT ? (double)r->delta / o->elapsed
								     : NAN);
		fputs(",\"flag\":", f);
		if (r->flag == DIFF_OK)
			fputs("null", f);
		else
			out_json_str(f, flag_key(r->flag));
		fputc('}', f);
	}
	fputs("]}\n", f);
}

static void csv_opt(FILE *f, int ok, int64_t v)
{
	if (ok)
		fprintf(f, "%" PRId64, v);
}

static void csv_rows(const struct diff_row *rows, long n, const struct diff_opts *o, FILE *f)
{
	int rates = isfinite(o->elapsed) && o->elapsed > 0;

	fputs("name,kind,before,after,delta,per_second,flag\n", f);
	for (long i = 0; i < n; i++) {
		const struct diff_row *r = &rows[i];
		int both = r->has_before && r->has_after;

		if (!visible(r, o))
			continue;
		out_csv_str(f, r->name);
		fprintf(f, ",%s,", names_kind_word(r->kind));
		csv_opt(f, r->has_before, r->before);
		fputc(',', f);
		csv_opt(f, r->has_after, r->after);
		fputc(',', f);
		csv_opt(f, both, r->delta);
		fputc(',', f);
		if (both && rates && r->kind == VM_EVENT)
			fprintf(f, "%.3f", (double)r->delta / o->elapsed);
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
