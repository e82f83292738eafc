/*
 * compare_print - the layout of the vmstat summary: mmtests' row-oriented monitor table for
 * text, and plain row/column JSON and CSV for scripts.  No percentages: mmtests prints none
 * for monitors.
 */
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "compare.h"

#define HDR_MAX 256

static size_t label_width(const struct cmp_table *t)
{
	size_t w = 0;

	for (size_t r = 0; r < t->nr_rows; r++)
		if (strlen(t->rows[r]->label) > w)
			w = strlen(t->rows[r]->label);
	return w;
}

static void print_header(const struct cmp_table *t, const struct cmp_run *runs, int w, FILE *f)
{
	char l1[HDR_MAX], l2[HDR_MAX];

	for (int line = 0; line < 2; line++) {
		fprintf(f, "%*s", w, "");
		for (size_t k = 0; k < t->nr_runs; k++) {
			compare_split_name(runs[k].name, l1, l2, sizeof(l1));
			fprintf(f, "%12s", line == 0 ? l1 : l2);
		}
		fputc('\n', f);
	}
}

static void print_cell_text(const struct cmp_row *row, const struct cmp_cell *c, FILE *f)
{
	if (!c->ok) {
		fprintf(f, "%12s", "-");
		return;
	}
	/* A row printed in another row's format shows the same value in that format. */
	switch (row->text_fmt ? (enum cmp_fmt)(row->text_fmt - 1) : row->fmt) {
	case CMP_INT:
	case CMP_COST:
		fprintf(f, "%12" PRId64, c->i);
		break;
	case CMP_PCT:
		fprintf(f, "%11" PRId64 "%%", c->i);
		break;
	case CMP_VEL:
		fprintf(f, "%12.3f",
			row->fmt == CMP_VEL || row->fmt == CMP_COST ? c->f : (double)c->i);
		break;
	}
}

static void print_text(const struct cmp_table *t, const struct cmp_run *runs, FILE *f)
{
	int w = (int)label_width(t);

	print_header(t, runs, w, f);
	for (size_t r = 0; r < t->nr_rows; r++) {
		fprintf(f, "%-*s", w, t->rows[r]->label);
		for (size_t k = 0; k < t->nr_runs; k++)
			print_cell_text(t->rows[r], &t->cells[r * t->nr_runs + k], f);
		fputc('\n', f);
	}
}

/*
 * A velocity over an absurdly small elapsed time can overflow to inf, which is neither JSON
 * nor a number a CSV reader takes: JSON gets null (out_json_num, as diff --json), CSV an
 * empty cell.
 */
static void print_cell_raw(const struct cmp_row *row, const struct cmp_cell *c, enum out_fmt fmt,
			   FILE *f)
{
	if (!c->ok) {
		fputs(fmt == OUT_JSON ? "null" : "", f);
		return;
	}
	if (row->fmt != CMP_VEL && row->fmt != CMP_COST)
		fprintf(f, "%" PRId64, c->i);
	else if (fmt == OUT_JSON)
		out_json_num(f, c->f);
	else if (isfinite(c->f))
		fprintf(f, row->fmt == CMP_COST ? "%.6f" : "%.3f", c->f);
}

static const char *fmt_word(enum cmp_fmt fmt)
{
	return fmt == CMP_INT    ? "count"
	       : fmt == CMP_PCT  ? "percent"
	       : fmt == CMP_COST ? "cost"
				 : "per_second";
}

static void print_json(const struct cmp_table *t, const struct cmp_run *runs, FILE *f)
{
	fputs("{\"runs\":[", f);
	for (size_t k = 0; k < t->nr_runs; k++) {
		fputs(k ? ",{\"name\":" : "{\"name\":", f);
		out_json_str(f, runs[k].name);
		fputs(",\"elapsed\":", f);
		out_json_num(f, runs[k].elapsed);
		fprintf(f, ",\"counters_down\":%zu}", t->nr_down[k]);
	}
	fputs("],\"rows\":[", f);
	for (size_t r = 0; r < t->nr_rows; r++) {
		fputs(r ? ",\n{\"label\":" : "\n{\"label\":", f);
		out_json_str(f, t->rows[r]->label);
		fprintf(f, ",\"unit\":\"%s\",\"values\":[", fmt_word(t->rows[r]->fmt));
		for (size_t k = 0; k < t->nr_runs; k++) {
			if (k)
				fputc(',', f);
			print_cell_raw(t->rows[r], &t->cells[r * t->nr_runs + k], OUT_JSON, f);
		}
		fputs("]}", f);
	}
	fputs("]}\n", f);
}

static void print_csv(const struct cmp_table *t, const struct cmp_run *runs, FILE *f)
{
	fputs("row", f);
	for (size_t k = 0; k < t->nr_runs; k++) {
		fputc(',', f);
		out_csv_str(f, runs[k].name);
	}
	fputc('\n', f);
	for (size_t r = 0; r < t->nr_rows; r++) {
		out_csv_str(f, t->rows[r]->label);
		for (size_t k = 0; k < t->nr_runs; k++) {
			fputc(',', f);
			print_cell_raw(t->rows[r], &t->cells[r * t->nr_runs + k], OUT_CSV, f);
		}
		fputc('\n', f);
	}
}

void compare_print(const struct cmp_table *t, const struct cmp_run *runs, enum out_fmt fmt, FILE *f)
{
	if (fmt == OUT_JSON)
		print_json(t, runs, f);
	else if (fmt == OUT_CSV)
		print_csv(t, runs, f);
	else
		print_text(t, runs, f);
}
