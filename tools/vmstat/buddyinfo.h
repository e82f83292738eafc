/*
 * buddyinfo - /proc/buddyinfo and /proc/pagetypeinfo of Linux 2.6.24 to 6.x and the engine's
 * dumps of them: free blocks per order of each zone, per migrate type, and the pageblocks of
 * each type.  Both formats are rigid tables (frag_show_print, pagetypeinfo_showfree_print and
 * pagetypeinfo_showblockcount_print in mm/vmstat.c), so a line that fits none of their forms
 * makes the whole file malformed rather than being skipped.
 */
#ifndef NODELRU_TOOLS_VMSTAT_BUDDYINFO_H
#define NODELRU_TOOLS_VMSTAT_BUDDYINFO_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "diff.h"
#include "out.h"

#define BI_MAX_ORDERS 16 /* orders a table may have: 11 on x86_64, up to 14 on arm64 */
#define BI_MAX_TYPES 8   /* migrate type columns: 4.8 has 4 to 6, 6.x up to 6 */
#define BI_NAME_MAX 16   /* zone and migrate type names: "DMA32", "Reclaimable" */

enum bi_format { BI_BUDDYINFO, BI_PAGETYPEINFO };

/*
 * One line of free blocks per order: a buddyinfo zone (type ""), or one migrate type of a
 * zone in pagetypeinfo's first table.
 */
struct bi_free {
	int node;
	char zone[BI_NAME_MAX];
	char type[BI_NAME_MAX];
	int64_t count[BI_MAX_ORDERS]; /* free blocks of each order */
	/*
	 * Bit k: count[k] was printed ">N", a lower bound.  Kernels since v5.6
	 * (pagetypeinfo_showfree_print) stop counting a list at 100000 blocks.
	 */
	uint32_t capped;
	unsigned int line;
};

/* One zone's line of a pageblock table: "Number of blocks type" or "... mixed blocks". */
struct bi_blocks {
	int node;
	char zone[BI_NAME_MAX];
	int64_t count[BI_MAX_TYPES]; /* in the order of struct buddyinfo's types[] */
	unsigned int line;
};

struct buddyinfo {
	char *path;
	enum bi_format format;
	int nr_orders;       /* columns of the free tables */
	int pageblock_order; /* pagetypeinfo's "Page block order"; -1 if not printed */
	int64_t pages_per_block;
	int nr_types; /* columns of the pageblock tables */
	char types[BI_MAX_TYPES][BI_NAME_MAX];
	struct bi_free *free; /* in file order */
	size_t nr_free;
	struct bi_blocks *blocks, *mixed; /* pagetypeinfo only */
	size_t nr_blocks, nr_mixed;
	/* Why the file was refused (-EBADMSG), and on which line (0: the whole file). */
	char error[160];
	unsigned int error_line;
};

/* The free tables' columns, bounded as the parser bounds them, so that every loop is too. */
static inline int bi_orders(const struct buddyinfo *bi)
{
	return bi->nr_orders < BI_MAX_ORDERS ? bi->nr_orders : BI_MAX_ORDERS;
}

/* buddyinfo_init - empty, @path copied for messages.  0 or -ENOMEM. */
int buddyinfo_init(struct buddyinfo *bi, const char *path);
void buddyinfo_fini(struct buddyinfo *bi);

/*
 * buddyinfo_parse - parse @len bytes of @buf as @format.  Returns 0, -ENOMEM, or -EBADMSG with
 * bi->error and bi->error_line saying what is wrong: a line of no known form, a count that is
 * no number, a line with another number of columns than its table, a zone (or a zone's type)
 * printed twice, more than BI_MAX_TYPES types in a zone, or no zone line at all.
 */
int buddyinfo_parse(struct buddyinfo *bi, enum bi_format format, const char *buf, size_t len);

/*
 * buddyinfo_load - read @path, tell its format (input_is_buddyinfo, input_is_pagetypeinfo) and
 * parse it.  Returns 0, the input_read() errors, -EMEDIUMTYPE when the file is neither format,
 * or buddyinfo_parse()'s errors.
 */
int buddyinfo_load(struct buddyinfo *bi, const char *path);

/* buddyinfo_format_name - "buddyinfo" or "pagetypeinfo". */
const char *buddyinfo_format_name(enum bi_format format);

/*
 * A zone's free memory: the pages of its free blocks (over every type in pagetypeinfo), and
 * the largest order with a free block (-1 if none).  *@lower_bound is set when a count was
 * capped, so the pages are at least that many.
 */
struct bi_zone_sum {
	int64_t pages;
	int largest;
	int lower_bound;
};

/* buddyinfo_zone_sum - the sum over the free lines of node @node, zone @zone. */
void buddyinfo_zone_sum(const struct buddyinfo *bi, int node, const char *zone,
			struct bi_zone_sum *sum);

/* buddyinfo_find_free - the free line of @node, @zone and @type ("" in buddyinfo), or NULL. */
const struct bi_free *buddyinfo_find_free(const struct buddyinfo *bi, int node, const char *zone,
					  const char *type);

/* buddyinfo_find_blocks - the pageblock line of @node and @zone in @rows, or NULL. */
const struct bi_blocks *buddyinfo_find_blocks(const struct bi_blocks *rows, size_t nr, int node,
					      const char *zone);

/* buddyinfo_type_index - @type's column in bi->types, or -1. */
int buddyinfo_type_index(const struct buddyinfo *bi, const char *type);

/* The printers' shared pieces (buddyinfo_print.c), for buddyinfo_diff.c. */
struct bi_zone_key {
	int node;
	const char *zone;
};

/* buddyinfo_zones - append @bi's zones not in @keys[0..@nr) in file order; the new count. */
size_t buddyinfo_zones(const struct buddyinfo *bi, struct bi_zone_key *keys, size_t nr);
/* A count, ">N" when capped; a sum, ">=N" when it is a lower bound.  Return @buf. */
const char *buddyinfo_count_text(char buf[OUT_COUNT_MAX], int64_t v, int capped);
const char *buddyinfo_sum_text(char buf[OUT_COUNT_MAX], int64_t v, int lower_bound);
/* The header of a table of orders, under a label. */
void buddyinfo_order_header(const struct buddyinfo *bi, const char *label, FILE *f);
/* "Node N, zone NAME: P free pages, largest free order K". */
void buddyinfo_zone_title(int node, const char *zone, const struct bi_zone_sum *s, FILE *f);

/*
 * buddyinfo_show - one file read by a person: per node and zone, its free pages and largest
 * free order, the free blocks (and pages) of each order, per migrate type in pagetypeinfo,
 * and the pageblocks of each type; then the totals.  Text, JSON or CSV.  0 or -ENOMEM.
 */
int buddyinfo_show(const struct buddyinfo *bi, enum out_fmt fmt, FILE *f);

/*
 * buddyinfo_diff - what changed from @before to @after, two files of the same format and
 * orders: per zone, its free pages and largest order before and after, the change of free
 * blocks of each order (per type in pagetypeinfo) and of the pageblocks of each type.  Only
 * what changed, unless o->all.  Returns 0, or -EINVAL with a reason in *@why when the two
 * cannot be compared (another format, another number of orders).
 */
int buddyinfo_diff(const struct buddyinfo *before, const struct buddyinfo *after,
		   const struct diff_opts *o, enum out_fmt fmt, FILE *f, const char **why);

#endif /* NODELRU_TOOLS_VMSTAT_BUDDYINFO_H */
