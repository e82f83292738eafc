/*
 * mmtable - the comparison table of mmtests' compare-kernels.sh (bin/lib/MMTests/Compare.pm
 * and PrintGeneric.pm of bin/lib/MMTests/): rows of (statistic, operation), one column per
 * "kernel", the first column the baseline, every cell "value (percentage)".  Also the same
 * figures as CSV and JSON for scripts.
 *
 * The caller adds rows in the order they are to be printed: mmtests prints every operation
 * of the first statistic, then every operation of the second, and so on.
 */
#ifndef NODELRU_BENCH_MMTABLE_H
#define NODELRU_BENCH_MMTABLE_H

#include <stddef.h>
#include <stdio.h>

#define MM_STAT_MAX 16      /* "Best99%Mean" and the like */
#define MM_OP_MAX 40        /* "total-odr0-16384" and the like */
#define MM_COMPARE_LENGTH 6 /* _CompareLength: the width of the percentage */

enum mm_cmp {
	MM_CMP_PDIFF,  /* higher is better (throughput) */
	MM_CMP_PNDIFF, /* lower is better (time, latency, cycles) */
};

struct mm_table_row {
	char stat[MM_STAT_MAX]; /* "" in a table of single figures: no statistic column */
	char op[MM_OP_MAX];
	enum mm_cmp cmp;
	double *v; /* one per column; NaN where a column has no figure (printed as "-") */
};

struct mm_table {
	/*
	 * Widths of Compare.pm: each value prints as "%{field_len}.{precision}f", each column
	 * header part as "%{header_width}s".  mmtests derives header_width from the Extract
	 * module's field length plus _CompareLength plus 4 (mm_table_init takes that length).
	 */
	int field_len, precision, header_width;
	/*
	 * No percentages: the tables compare-mmtests.pl prints with its compare column hidden, as
	 * it does for every monitor (the duration table, mm_table_plain()).
	 */
	int plain;
	size_t nr_cols;
	const char **cols; /* column names, split over two header lines as mmtests does */
	size_t nr_rows, cap;
	struct mm_table_row *rows;
};

/*
 * mm_table_init - an empty table of @nr_cols columns named @cols (the names are copied).
 * @field_len and @precision are the Compare module's _FieldLength and _Precision;
 * @extract_field_len is the Extract module's _FieldLength.  0 or -ENOMEM.
 */
int mm_table_init(struct mm_table *t, const char *const *cols, size_t nr_cols, int field_len,
		  int precision, int extract_field_len);
void mm_table_fini(struct mm_table *t);

/*
 * mm_table_plain - drop the percentages from an initialised table: each value alone, and each
 * column header part as wide as @extract_field_len, as Compare.pm prints a table without its
 * compare column.
 */
void mm_table_plain(struct mm_table *t, int extract_field_len);

/* mm_table_add - append a row; @v holds nr_cols values.  0, -EINVAL, or -ENOMEM. */
int mm_table_add(struct mm_table *t, const char *stat, const char *op, enum mm_cmp cmp,
		 const double *v);

/* mm_table_percent - the percentage printed beside column @col of row @r against column 0. */
double mm_table_percent(const struct mm_table *t, size_t r, size_t col);

/* mm_table_print - the table as mmtests prints it, byte for byte. */
void mm_table_print(const struct mm_table *t, FILE *f);

/* CSV with a header line: stat,op,column,value,percent; one line per cell. */
void mm_table_print_csv(const struct mm_table *t, FILE *f);

/* JSON: {"columns":[...],"rows":[{"stat","op","values":[...],"percent":[...]}...]}. */
void mm_table_print_json(const struct mm_table *t, FILE *f);

#endif /* NODELRU_BENCH_MMTABLE_H */
