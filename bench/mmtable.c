/*
 * mmtable - layout of mmtests' comparison tables.  The formats are Compare.pm's; two rules of
 * its percentages are kept on purpose: a summary value of -1 (mmtests' "cannot compute", from
 * a harmonic mean over a zero) prints as 0 with 0%, and the baseline column always shows 0%.
 */
#include "mmtable.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "mmstat.h"
#include "out.h"

#define HDR_MAX 256

int mm_table_init(struct mm_table *t, const char *const *cols, size_t nr_cols, int field_len,
		  int precision, int extract_field_len)
{
	memset(t, 0, sizeof(*t));
	t->field_len = field_len;
	t->precision = precision;
	t->header_width = extract_field_len + MM_COMPARE_LENGTH + 4;
	t->cols = calloc(nr_cols, sizeof(*t->cols));
	if (!t->cols)
		return -ENOMEM;
	t->nr_cols = nr_cols;
	for (size_t c = 0; c < nr_cols; c++)
		if (!(t->cols[c] = strdup(cols[c]))) {
			mm_table_fini(t);
			return -ENOMEM;
		}
	return 0;
}

void mm_table_fini(struct mm_table *t)
{
	for (size_t c = 0; c < t->nr_cols; c++)
		free((void *)t->cols[c]);
	for (size_t r = 0; r < t->nr_rows; r++)
		free(t->rows[r].v);
	free(t->cols);
	free(t->rows);
	memset(t, 0, sizeof(*t));
}

void mm_table_plain(struct mm_table *t, int extract_field_len)
{
	t->plain = 1;
	t->header_width = extract_field_len;
}

int mm_table_add(struct mm_table *t, const char *stat, const char *op, enum mm_cmp cmp,
		 const double *v)
{
	struct mm_table_row *row;

	if (strlen(stat) >= MM_STAT_MAX || strlen(op) >= MM_OP_MAX)
		return -EINVAL;
	if (t->nr_rows == t->cap) {
		size_t ncap = t->cap ? t->cap * 2 : 64;
		struct mm_table_row *nr = realloc(t->rows, ncap * sizeof(*nr));

		if (!nr)
			return -ENOMEM;
		t->rows = nr;
		t->cap = ncap;
	}
	row = &t->rows[t->nr_rows];
	row->v = malloc(t->nr_cols * sizeof(*row->v));
	if (!row->v)
		return -ENOMEM;
	memcpy(row->v, v, t->nr_cols * sizeof(*row->v));
	snprintf(row->stat, sizeof(row->stat), "%s", stat);
	snprintf(row->op, sizeof(row->op), "%s", op);
	row->cmp = cmp;
	t->nr_rows++;
	return 0;
}

double mm_table_percent(const struct mm_table *t, size_t r, size_t col)
{
	const struct mm_table_row *row = &t->rows[r];
	double v = row->v[col], base = row->v[0];

	if (col == 0 || v == -1 || base == -1 || isnan(v) || isnan(base))
		return 0;
	return row->cmp == MM_CMP_PDIFF ? mm_pdiff(v, base) : mm_pndiff(v, base);
}

static int widest(const struct mm_table *t, int stat)
{
	size_t w = 0;

	for (size_t r = 0; r < t->nr_rows; r++) {
		size_t len = strlen(stat ? t->rows[r].stat : t->rows[r].op);

		if (len > w)
			w = len;
	}
	return (int)w;
}

static void print_header(const struct mm_table *t, int lead, FILE *f)
{
	char l1[HDR_MAX], l2[HDR_MAX];

	for (int line = 0; line < 2; line++) {
		fprintf(f, "%*s", lead, "");
		for (size_t c = 0; c < t->nr_cols; c++) {
			compare_split_name(t->cols[c], l1, l2, sizeof(l1));
			fprintf(f, "%*s", t->header_width, line == 0 ? l1 : l2);
		}
		fputc('\n', f);
	}
}

static void print_cell(const struct mm_table *t, size_t r, size_t c, FILE *f)
{
	double v = t->rows[r].v[c];

	if (isnan(v)) {
		fprintf(f, "%*s%*s", t->field_len, "-", t->plain ? 0 : MM_COMPARE_LENGTH + 4, "");
		return;
	}
	fprintf(f, "%*.*f", t->field_len, t->precision, v == -1 ? 0.0 : v);
	if (!t->plain)
		fprintf(f, " (%*.2f%%)", MM_COMPARE_LENGTH, mm_table_percent(t, r, c));
}

void mm_table_print(const struct mm_table *t, FILE *f)
{
	int s = widest(t, 1), o = widest(t, 0);

	/* A table of single figures has no statistic column, and no blank before the op. */
	print_header(t, s ? s + 1 + o : o, f);
	for (size_t r = 0; r < t->nr_rows; r++) {
		if (s)
			fprintf(f, "%-*s ", s, t->rows[r].stat);
		fprintf(f, "%-*s", o, t->rows[r].op);
		for (size_t c = 0; c < t->nr_cols; c++)
			print_cell(t, r, c, f);
		fputc('\n', f);
	}
}

void mm_table_print_csv(const struct mm_table *t, FILE *f)
{
	fputs("stat,op,column,value,percent\n", f);
	for (size_t r = 0; r < t->nr_rows; r++)
		for (size_t c = 0; c < t->nr_cols; c++) {
			out_csv_str(f, t->rows[r].stat);
			fputc(',', f);
			out_csv_str(f, t->rows[r].op);
			fputc(',', f);
			out_csv_str(f, t->cols[c]);
			if (isnan(t->rows[r].v[c]))
				fputs(",,\n", f);
			else if (t->plain)
				fprintf(f, ",%.*f,\n", t->precision + 2, t->rows[r].v[c]);
			else
				fprintf(f, ",%.*f,%.2f\n", t->precision + 2, t->rows[r].v[c],
					mm_table_percent(t, r, c));
		}
}

static void print_json_row(const struct mm_table *t, size_t r, FILE *f)
{
	fputs("{\"stat\":", f);
	out_json_str(f, t->rows[r].stat);
	fputs(",\"op\":", f);
	out_json_str(f, t->rows[r].op);
	fputs(",\"values\":[", f);
	for (size_t c = 0; c < t->nr_cols; c++) {
		fputs(c ? "," : "", f);
		out_json_num(f, t->rows[r].v[c]);
	}
	fputs("],\"percent\":[", f);
	for (size_t c = 0; c < t->nr_cols; c++) {
		fputs(c ? "," : "", f);
		out_json_num(f,
			     isnan(t->rows[r].v[c]) || t->plain ? NAN : mm_table_percent(t, r, c));
	}
	fputs("]}", f);
}

void mm_table_print_json(const struct mm_table *t, FILE *f)
{
	fputs("{\"columns\":[", f);
	for (size_t c = 0; c < t->nr_cols; c++) {
		fputs(c ? "," : "", f);
		out_json_str(f, t->cols[c]);
	}
	fputs("],\"rows\":[", f);
	for (size_t r = 0; r < t->nr_rows; r++) {
		fputs(r ? ",\n" : "\n", f);
		print_json_row(t, r, f);
	}
	fputs("]}\n", f);
}
