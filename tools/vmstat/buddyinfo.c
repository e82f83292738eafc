/*
 * buddyinfo - parser of /proc/buddyinfo and /proc/pagetypeinfo.  A line is split into
 * blank-separated words and matched against the forms of the two files:
 *
 *	Node 0, zone      DMA      1      0 ...                 buddyinfo
 *	Page block order: 9                                     pagetypeinfo, once per node
 *	Pages per block:  512
 *	Free pages count per migrate type at order  0  1 ...  the free table's header
 *	Node    0, zone      DMA, type    Unmovable  0 ...  its lines (">100000" since v5.6)
 *	Number of blocks type     Unmovable  Movable ...     the pageblock table's header
 *	Node 0, zone      DMA            1            7 ...  its lines
 *	Number of mixed blocks    Unmovable ...              CONFIG_PAGE_OWNER's table
 *
 * Which table a "Node" line belongs to is the last header seen.  The types are the names the
 * file prints, so "Reserve" (2.6.24 to 3.x), "CMA" and "Isolate" need nothing of their own.
 */
#include "buddyinfo.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "input.h"

#define MAX_WORDS 40
#define LINE_MAX_BYTES 1024

enum bi_table { TABLE_NONE, TABLE_FREE, TABLE_BLOCKS, TABLE_MIXED };

struct bi_parser {
	struct buddyinfo *bi;
	enum bi_table table;
	unsigned int line;
	char text[LINE_MAX_BYTES + 1];
	char *w[MAX_WORDS];
	int nr_words;
};

int buddyinfo_init(struct buddyinfo *bi, const char *path)
{
	memset(bi, 0, sizeof(*bi));
	bi->pageblock_order = -1;
	if (path) {
		bi->path = strdup(path);
		if (!bi->path)
			return -ENOMEM;
	}
	return 0;
}

void buddyinfo_fini(struct buddyinfo *bi)
{
	free(bi->free);
	free(bi->blocks);
	free(bi->mixed);
	free(bi->path);
	memset(bi, 0, sizeof(*bi));
}

const char *buddyinfo_format_name(enum bi_format format)
{
	return format == BI_BUDDYINFO ? "buddyinfo" : "pagetypeinfo";
}

static int fail(struct bi_parser *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int fail(struct bi_parser *p, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(p->bi->error, sizeof(p->bi->error), fmt, ap);
	va_end(ap);
	p->bi->error_line = p->line;
	return -EBADMSG;
}

/* Split the line into words; -EBADMSG for a line too long or with too many words. */
static int split(struct bi_parser *p, const char *s, size_t n)
{
	char *save = NULL;

	if (n > LINE_MAX_BYTES)
		return fail(p, "line longer than %d bytes", LINE_MAX_BYTES);
	memcpy(p->text, s, n);
	p->text[n] = '\0';
	p->nr_words = 0;
	for (char *t = strtok_r(p->text, " \t\r\f\v", &save); t;
	     t = strtok_r(NULL, " \t\r\f\v", &save)) {
		if (p->nr_words == MAX_WORDS)
			return fail(p, "more than %d words", MAX_WORDS);
		p->w[p->nr_words++] = t;
	}
	return 0;
}

/* A count as the kernel prints it with %lu, or ">N" when capped (*@capped set). */
static int parse_count(struct bi_parser *p, const char *s, int64_t *v, int *capped)
{
	uint64_t x = 0;

	*capped = *s == '>';
	if (*capped)
		s++;
	if (!*s)
		return fail(p, "'%s' is not a count", s - *capped);
	for (const char *c = s; *c; c++) {
		if (*c < '0' || *c > '9')
			return fail(p, "'%s' is not a count", s - *capped);
		if (x > (UINT64_MAX - (uint64_t)(*c - '0')) / 10)
			return fail(p, "count '%s' out of range", s);
		x = x * 10 + (uint64_t)(*c - '0');
	}
	if (x > INT64_MAX)
		return fail(p, "count '%s' out of range", s);
	*v = (int64_t)x;
	return 0;
}

/* A name word into @dst, without the comma pagetypeinfo's free table puts after the zone. */
static int take_name(struct bi_parser *p, char *dst, const char *word, int comma, const char *what)
{
	size_t n = strlen(word);

	if (comma) {
		if (n < 2 || word[n - 1] != ',')
			return fail(p, "expected '%s,' after 'zone', found '%s'", what, word);
		n--;
	}
	if (n >= BI_NAME_MAX)
		return fail(p, "%s name '%s' too long", what, word);
	memcpy(dst, word, n);
	dst[n] = '\0';
	return 0;
}

/* "Node N, zone NAME[,]": fills *@node and @zone; the words that follow start at w[4]. */
static int parse_node_zone(struct bi_parser *p, int *node, char *zone, int comma)
{
	char *end;
	long id;

	if (p->nr_words < 4 || strcmp(p->w[0], "Node") != 0 || strcmp(p->w[2], "zone") != 0)
		return fail(p, "expected 'Node N, zone NAME'");
	id = strtol(p->w[1], &end, 10);
	if (end == p->w[1] || strcmp(end, ",") != 0 || id < 0 || id > 65535)
		return fail(p, "'%s' is not a node number and a comma", p->w[1]);
	*node = (int)id;
	return take_name(p, zone, p->w[3], comma, "zone");
}

static int grow(void **v, size_t nr, size_t size)
{
	void *n = realloc(*v, (nr + 1) * size);

	if (!n)
		return -ENOMEM;
	*v = n;
	return 0;
}

/* The counts of a free line, from word @first on: the table's number of orders of them. */
static int parse_free_counts(struct bi_parser *p, struct bi_free *row, int first)
{
	int n = p->nr_words - first;

	if (p->bi->nr_orders == 0) {
		if (n < 1 || n > BI_MAX_ORDERS)
			return fail(p, "%d orders: expected 1 to %d", n, BI_MAX_ORDERS);
		p->bi->nr_orders = n;
	}
	if (n != p->bi->nr_orders)
		return fail(p, "%d counts where the table has %d orders", n, p->bi->nr_orders);
	for (int k = 0; k < n; k++) {
		int capped, err = parse_count(p, p->w[first + k], &row->count[k], &capped);

		if (err)
			return err;
		row->capped |= (uint32_t)capped << k;
	}
	return 0;
}

static int zone_free_lines(const struct buddyinfo *bi, int node, const char *zone)
{
	int n = 0;

	for (size_t i = 0; i < bi->nr_free; i++)
		n += bi->free[i].node == node && strcmp(bi->free[i].zone, zone) == 0;
	return n;
}

static int add_free(struct bi_parser *p, int pagetype)
{
	struct buddyinfo *bi = p->bi;
	struct bi_free row;
	int err;

	memset(&row, 0, sizeof(row));
	row.line = p->line;
	err = parse_node_zone(p, &row.node, row.zone, pagetype);
	if (!err && pagetype) {
		if (p->nr_words < 6 || strcmp(p->w[4], "type") != 0)
			return fail(p, "expected 'type NAME' after the zone");
		err = take_name(p, row.type, p->w[5], 0, "migrate type");
	}
	if (!err)
		err = parse_free_counts(p, &row, pagetype ? 6 : 4);
	if (err)
		return err;
	if (buddyinfo_find_free(bi, row.node, row.zone, row.type))
		return fail(p, "node %d, zone %s%s%s printed twice", row.node, row.zone,
			    pagetype ? ", type " : "", row.type);
	if (zone_free_lines(bi, row.node, row.zone) == BI_MAX_TYPES)
		return fail(p, "more than %d migrate types in node %d, zone %s", BI_MAX_TYPES,
			    row.node, row.zone);
	if (grow((void **)&bi->free, bi->nr_free, sizeof(row)))
		return -ENOMEM;
	bi->free[bi->nr_free++] = row;
	return 0;
}

static int add_blocks(struct bi_parser *p, struct bi_blocks **rows, size_t *nr)
{
	struct bi_blocks row;
	int err, n;

	memset(&row, 0, sizeof(row));
	row.line = p->line;
	err = parse_node_zone(p, &row.node, row.zone, 0);
	if (err)
		return err;
	n = p->nr_words - 4;
	if (n != p->bi->nr_types)
		return fail(p, "%d counts where the table has %d types", n, p->bi->nr_types);
	for (int k = 0; k < n; k++) {
		int capped;

		if ((err = parse_count(p, p->w[4 + k], &row.count[k], &capped)))
			return err;
		if (capped)
			return fail(p, "a pageblock count is never capped: '%s'", p->w[4 + k]);
	}
	if (buddyinfo_find_blocks(*rows, *nr, row.node, row.zone))
		return fail(p, "node %d, zone %s printed twice in one table", row.node, row.zone);
	if (grow((void **)rows, *nr, sizeof(row)))
		return -ENOMEM;
	(*rows)[(*nr)++] = row;
	return 0;
}

/* The type names of a pageblock table's header, from word @first on; the same every time. */
static int parse_types(struct bi_parser *p, int first)
{
	struct buddyinfo *bi = p->bi;
	int n = p->nr_words - first;
	char name[BI_NAME_MAX];

	if (n < 1 || n > BI_MAX_TYPES)
		return fail(p, "%d migrate types: expected 1 to %d", n, BI_MAX_TYPES);
	if (bi->nr_types && n != bi->nr_types)
		return fail(p, "%d migrate types where an earlier table has %d", n, bi->nr_types);
	for (int k = 0; k < n; k++) {
		int err = take_name(p, name, p->w[first + k], 0, "migrate type");

		if (err)
			return err;
		if (bi->nr_types && strcmp(bi->types[k], name) != 0)
			return fail(p, "migrate type '%s' where an earlier table has '%s'", name,
				    bi->types[k]);
		strcpy(bi->types[k], name);
	}
	bi->nr_types = n;
	return 0;
}

/* "Free pages count per migrate type at order 0 1 ... N": orders 0 to N, in order. */
static int parse_orders(struct bi_parser *p)
{
	int n = p->nr_words - 8;

	if (n < 1 || n > BI_MAX_ORDERS)
		return fail(p, "%d orders: expected 1 to %d", n, BI_MAX_ORDERS);
	for (int k = 0; k < n; k++) {
		char want[12];

		snprintf(want, sizeof(want), "%d", k);
		if (strcmp(p->w[8 + k], want) != 0)
			return fail(p, "order '%s' where %d belongs", p->w[8 + k], k);
	}
	if (p->bi->nr_orders && p->bi->nr_orders != n)
		return fail(p, "%d orders where an earlier table has %d", n, p->bi->nr_orders);
	p->bi->nr_orders = n;
	return 0;
}

static int words_are(const struct bi_parser *p, const char *const *words, int n)
{
	if (p->nr_words < n)
		return 0;
	for (int k = 0; k < n; k++)
		if (strcmp(p->w[k], words[k]) != 0)
			return 0;
	return 1;
}

/* "Page block order: N" and "Pages per block: N": the same in every node's section. */
static int parse_pageblock(struct bi_parser *p, int order)
{
	int64_t v;
	int capped, err;

	if (p->nr_words != 4)
		return fail(p, "expected one number after '%s %s %s'", p->w[0], p->w[1], p->w[2]);
	if ((err = parse_count(p, p->w[3], &v, &capped)))
		return err;
	if (capped || (order && v > 30) || (!order && v < 1))
		return fail(p, "'%s' is no pageblock %s", p->w[3], order ? "order" : "size");
	if (order) {
		if (p->bi->pageblock_order >= 0 && p->bi->pageblock_order != (int)v)
			return fail(p, "pageblock order %d where an earlier section has %d", (int)v,
				    p->bi->pageblock_order);
		p->bi->pageblock_order = (int)v;
	} else {
		p->bi->pages_per_block = v;
	}
	return 0;
}

static int parse_pagetypeinfo_line(struct bi_parser *p)
{
	static const char *const order_w[] = {"Page", "block", "order:"};
	static const char *const size_w[] = {"Pages", "per", "block:"};
	static const char *const free_w[] = {"Free",    "pages", "count", "per",
					     "migrate", "type",  "at",    "order"};
	static const char *const blocks_w[] = {"Number", "of", "blocks", "type"};
	static const char *const mixed_w[] = {"Number", "of", "mixed", "blocks"};

	if (words_are(p, order_w, 3))
		return parse_pageblock(p, 1);
	if (words_are(p, size_w, 3))
		return parse_pageblock(p, 0);
	if (words_are(p, free_w, 8)) {
		p->table = TABLE_FREE;
		return parse_orders(p);
	}
	if (words_are(p, blocks_w, 4)) {
		p->table = TABLE_BLOCKS;
		return parse_types(p, 4);
	}
	if (words_are(p, mixed_w, 4)) {
		p->table = TABLE_MIXED;
		return parse_types(p, 4);
	}
	if (p->nr_words && strcmp(p->w[0], "Node") == 0) {
		if (p->table == TABLE_FREE)
			return add_free(p, 1);
		if (p->table == TABLE_BLOCKS)
			return add_blocks(p, &p->bi->blocks, &p->bi->nr_blocks);
		if (p->table == TABLE_MIXED)
			return add_blocks(p, &p->bi->mixed, &p->bi->nr_mixed);
		return fail(p, "a zone line before any table's header");
	}
	return fail(p, "not a line of /proc/pagetypeinfo");
}

int buddyinfo_parse(struct buddyinfo *bi, enum bi_format format, const char *buf, size_t len)
{
	struct bi_parser *p = calloc(1, sizeof(*p));
	size_t pos = 0, n;
	const char *s;
	int err = 0;

	if (!p)
		return -ENOMEM;
	p->bi = bi;
	bi->format = format;
	while (!err && (s = input_next_line(buf, len, &pos, &n))) {
		p->line++;
		err = split(p, s, n);
		if (err || p->nr_words == 0)
			continue;
		if (format == BI_BUDDYINFO)
			err = add_free(p, 0);
		else
			err = parse_pagetypeinfo_line(p);
	}
	if (!err && bi->nr_free == 0) {
		p->line = 0;
		err = fail(p, "no 'Node N, zone NAME' line of free blocks");
	}
	free(p);
	return err;
}

int buddyinfo_load(struct buddyinfo *bi, const char *path)
{
	enum bi_format format;
	char *buf;
	size_t len;
	int err = input_read(path, &buf, &len);

	if (err)
		return err;
	if (input_is_buddyinfo(buf, len)) {
		format = BI_BUDDYINFO;
	} else if (input_is_pagetypeinfo(buf, len)) {
		format = BI_PAGETYPEINFO;
	} else {
		free(buf);
		return -EMEDIUMTYPE;
	}
	err = buddyinfo_parse(bi, format, buf, len);
	free(buf);
	return err;
}

const struct bi_free *buddyinfo_find_free(const struct buddyinfo *bi, int node, const char *zone,
					  const char *type)
{
	for (size_t i = 0; i < bi->nr_free; i++) {
		const struct bi_free *r = &bi->free[i];

		if (r->node == node && strcmp(r->zone, zone) == 0 && strcmp(r->type, type) == 0)
			return r;
	}
	return NULL;
}

const struct bi_blocks *buddyinfo_find_blocks(const struct bi_blocks *rows, size_t nr, int node,
					      const char *zone)
{
	for (size_t i = 0; i < nr; i++)
		if (rows[i].node == node && strcmp(rows[i].zone, zone) == 0)
			return &rows[i];
	return NULL;
}

int buddyinfo_type_index(const struct buddyinfo *bi, const char *type)
{
	for (int k = 0; k < bi->nr_types; k++)
		if (strcmp(bi->types[k], type) == 0)
			return k;
	return -1;
}

void buddyinfo_zone_sum(const struct buddyinfo *bi, int node, const char *zone,
			struct bi_zone_sum *sum)
{
	memset(sum, 0, sizeof(*sum));
	sum->largest = -1;
	for (size_t i = 0; i < bi->nr_free; i++) {
		const struct bi_free *r = &bi->free[i];

		if (r->node != node || strcmp(r->zone, zone) != 0)
			continue;
		for (int k = 0; k < bi_orders(bi); k++) {
			/* Wraps rather than overflows on a crafted count (wrap.h's rule). */
			sum->pages = (int64_t)((uint64_t)sum->pages + ((uint64_t)r->count[k] << k));
			if (r->count[k] && k > sum->largest)
				sum->largest = k;
		}
		sum->lower_bound |= r->capped != 0;
	}
}
