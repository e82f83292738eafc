/*
 * buddyinfo_diff - what changed between two buddyinfo or two pagetypeinfo files of one system:
 * per zone its free pages and largest free order, before and after; the change of the free
 * blocks of each order (per migrate type in pagetypeinfo); and the change of the pageblocks
 * of each type.  Zones, types and pageblock columns are matched by name, so a zone or type
 * one file lacks is flagged rather than compared with zero.
 */
#include "buddyinfo.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "wrap.h"

#define COL 8
#define LABEL 12

struct diff_ctx {
	const struct buddyinfo *b, *a;
	const struct diff_opts *o;
	enum out_fmt fmt;
	FILE *f;
	int first; /* JSON: no zone printed yet */
	int shown; /* text: zones printed */
};

static int free_changed(const struct buddyinfo *bi, const struct bi_free *b,
			const struct bi_free *a)
{
	if (!b || !a || b->capped != a->capped)
		return 1;
	for (int k = 0; k < bi_orders(bi); k++)
		if (b->count[k] != a->count[k])
			return 1;
	return 0;
}

/* AFTER - BEFORE with its sign; "0" when nothing changed. */
static const char *change(char buf[OUT_COUNT_MAX], int64_t before, int64_t after)
{
	return out_change(buf, 0, before, after, before != after);
}

static const char *change_text(char buf[OUT_COUNT_MAX], const struct bi_free *b,
			       const struct bi_free *a, int k)
{
	if (((b->capped | a->capped) >> k) & 1)
		return "?";
	return change(buf, b->count[k], a->count[k]);
}

/* The free lines of one zone with @type in either file: a row of changes, or a flag. */
static void text_free_row(struct diff_ctx *c, const char *type, const struct bi_free *b,
			  const struct bi_free *a)
{
	char buf[OUT_COUNT_MAX];
	int64_t pb = 0, pa = 0;

	fprintf(c->f, "  %-*s", LABEL, type[0] ? type : "blocks");
	if (!b || !a) {
		fprintf(c->f, "only in %s\n", b ? "BEFORE" : "AFTER");
		return;
	}
	for (int k = 0; k < c->a->nr_orders; k++) {
		fprintf(c->f, " %*s", COL - 1, change_text(buf, b, a, k));
		pb = wrap_add(pb, (int64_t)((uint64_t)b->count[k] << k));
		pa = wrap_add(pa, (int64_t)((uint64_t)a->count[k] << k));
	}
	fprintf(c->f, " %*s\n", COL + 3, b->capped | a->capped ? "?" : change(buf, pb, pa));
}

static void json_counts(FILE *f, const char *key, const struct buddyinfo *bi,
			const struct bi_free *r)
{
	fprintf(f, ",\"%s\":", key);
	if (!r) {
		fputs("null", f);
		return;
	}
	fputc('[', f);
	for (int k = 0; k < bi_orders(bi); k++)
		fprintf(f, "%s%" PRId64, k ? "," : "", r->count[k]);
	fputc(']', f);
}

static void json_free_row(struct diff_ctx *c, const char *type, const struct bi_free *b,
			  const struct bi_free *a, int first)
{
	fputs(first ? "{\"type\":" : ",{\"type\":", c->f);
	if (type[0])
		out_json_str(c->f, type);
	else
		fputs("null", c->f);
	json_counts(c->f, "before", c->b, b);
	json_counts(c->f, "after", c->a, a);
	fputs(",\"change\":", c->f);
	if (!b || !a) {
		fputs("null}", c->f);
		return;
	}
	fputc('[', c->f);
	for (int k = 0; k < c->a->nr_orders; k++) {
		if (((b->capped | a->capped) >> k) & 1)
			fprintf(c->f, "%snull", k ? "," : "");
		else
			fprintf(c->f, "%s%" PRId64, k ? "," : "",
				wrap_sub(a->count[k], b->count[k]));
	}
	fputs("]}", c->f);
}

static void csv_free_row(struct diff_ctx *c, const struct bi_zone_key *z, const char *type,
			 const struct bi_free *b, const struct bi_free *a)
{
	for (int k = 0; k < c->a->nr_orders; k++) {
		int unknown = !b || !a || (((b->capped | a->capped) >> k) & 1);

		fprintf(c->f, "free,%d,", z->node);
		out_csv_str(c->f, z->zone);
		fputc(',', c->f);
		out_csv_str(c->f, type);
		fprintf(c->f, ",%d,", k);
		if (b)
			fprintf(c->f, "%" PRId64, b->count[k]);
		fputc(',', c->f);
		if (a)
			fprintf(c->f, "%" PRId64, a->count[k]);
		fputc(',', c->f);
		if (!unknown)
			fprintf(c->f, "%" PRId64, wrap_sub(a->count[k], b->count[k]));
		fputc('\n', c->f);
	}
}

/* The types of a zone's free lines in either file: AFTER's, then BEFORE's others. */
static size_t zone_types(const struct diff_ctx *c, const struct bi_zone_key *z, const char **types,
			 size_t max)
{
	const struct buddyinfo *files[2] = {c->a, c->b};
	size_t nr = 0;

	for (int f = 0; f < 2; f++)
		for (size_t i = 0; i < files[f]->nr_free; i++) {
			const struct bi_free *r = &files[f]->free[i];
			size_t t = 0;

			if (r->node != z->node || strcmp(r->zone, z->zone) != 0)
				continue;
			while (t < nr && strcmp(types[t], r->type) != 0)
				t++;
			if (t == nr && nr < max)
				types[nr++] = r->type;
		}
	return nr;
}

/* The pageblock columns of a zone, matched by type name; @fn gets each pair. */
static void blocks_pairs(struct diff_ctx *c, const struct bi_zone_key *z,
			 void (*fn)(struct diff_ctx *, const struct bi_zone_key *, const char *,
				    const int64_t *, const int64_t *, int *),
			 int *state)
{
	const struct bi_blocks *bb =
		buddyinfo_find_blocks(c->b->blocks, c->b->nr_blocks, z->node, z->zone);
	const struct bi_blocks *ab =
		buddyinfo_find_blocks(c->a->blocks, c->a->nr_blocks, z->node, z->zone);

	if (!bb && !ab)
		return;
	for (int k = 0; ab && k < c->a->nr_types; k++) {
		int j = bb ? buddyinfo_type_index(c->b, c->a->types[k]) : -1;

		fn(c, z, c->a->types[k], j >= 0 ? &bb->count[j] : NULL, &ab->count[k], state);
	}
	for (int j = 0; bb && j < c->b->nr_types; j++)
		if (!ab || buddyinfo_type_index(c->a, c->b->types[j]) < 0)
			fn(c, z, c->b->types[j], &bb->count[j], NULL, state);
}

static void text_block(struct diff_ctx *c, const struct bi_zone_key *z, const char *type,
		       const int64_t *b, const int64_t *a, int *n)
{
	char buf[OUT_COUNT_MAX];

	(void)z;
	if (b && a && *b == *a && !c->o->all)
		return;
	fprintf(c->f, "%s %s ", (*n)++ ? "," : "  pageblocks:", type);
	if (b && a)
		fprintf(c->f, "%" PRId64 " -> %" PRId64 " (%s)", *b, *a, change(buf, *b, *a));
	else
		fprintf(c->f, "only in %s", b ? "BEFORE" : "AFTER");
}

/* @key and *@v, or null. */
static void json_int(FILE *f, const char *key, const int64_t *v)
{
	fputs(key, f);
	if (v)
		fprintf(f, "%" PRId64, *v);
	else
		fputs("null", f);
}

static void json_block(struct diff_ctx *c, const struct bi_zone_key *z, const char *type,
		       const int64_t *b, const int64_t *a, int *n)
{
	(void)z;
	fputs((*n)++ ? ",{\"type\":" : "{\"type\":", c->f);
	out_json_str(c->f, type);
	json_int(c->f, ",\"before\":", b);
	json_int(c->f, ",\"after\":", a);
	if (b && a)
		fprintf(c->f, ",\"change\":%" PRId64, wrap_sub(*a, *b));
	else
		fputs(",\"change\":null", c->f);
	fputc('}', c->f);
}

static void csv_block(struct diff_ctx *c, const struct bi_zone_key *z, const char *type,
		      const int64_t *b, const int64_t *a, int *n)
{
	(void)n;
	fprintf(c->f, "pageblocks,%d,", z->node);
	out_csv_str(c->f, z->zone);
	fputc(',', c->f);
	out_csv_str(c->f, type);
	fputs(",,", c->f);
	if (b)
		fprintf(c->f, "%" PRId64, *b);
	fputc(',', c->f);
	if (a)
		fprintf(c->f, "%" PRId64, *a);
	fputc(',', c->f);
	if (b && a)
		fprintf(c->f, "%" PRId64, wrap_sub(*a, *b));
	fputc('\n', c->f);
}

static int blocks_changed(struct diff_ctx *c, const struct bi_zone_key *z)
{
	const struct bi_blocks *bb =
		buddyinfo_find_blocks(c->b->blocks, c->b->nr_blocks, z->node, z->zone);
	const struct bi_blocks *ab =
		buddyinfo_find_blocks(c->a->blocks, c->a->nr_blocks, z->node, z->zone);

	if (!bb != !ab || (ab && c->a->nr_types != c->b->nr_types))
		return 1;
	for (int k = 0; ab && k < c->a->nr_types; k++) {
		int j = buddyinfo_type_index(c->b, c->a->types[k]);

		if (j < 0 || bb->count[j] != ab->count[k])
			return 1;
	}
	return 0;
}

static const char *order_text(char buf[12], int order)
{
	if (order < 0)
		return "none";
	snprintf(buf, 12, "%d", order);
	return buf;
}

static void text_zone(struct diff_ctx *c, const struct bi_zone_key *z, const char **types,
		      size_t nr_types, const struct bi_zone_sum *sb, const struct bi_zone_sum *sa)
{
	char b1[OUT_COUNT_MAX], b2[OUT_COUNT_MAX], b3[OUT_COUNT_MAX], o1[12], o2[12];
	int n = 0;

	fprintf(c->f, "\nNode %d, zone %s: ", z->node, z->zone);
	if (sb->largest == -2 || sa->largest == -2) {
		fprintf(c->f, "only in %s\n", sa->largest == -2 ? "BEFORE" : "AFTER");
		return;
	}
	fprintf(c->f, "%s -> %s free pages (%s), largest free order %s -> %s\n",
		buddyinfo_sum_text(b1, sb->pages, sb->lower_bound),
		buddyinfo_sum_text(b2, sa->pages, sa->lower_bound),
		sb->lower_bound || sa->lower_bound ? "?" : change(b3, sb->pages, sa->pages),
		order_text(o1, sb->largest), order_text(o2, sa->largest));
	buddyinfo_order_header(c->a, c->a->format == BI_BUDDYINFO ? "order" : "free blocks", c->f);
	for (size_t t = 0; t < nr_types; t++) {
		const struct bi_free *b = buddyinfo_find_free(c->b, z->node, z->zone, types[t]);
		const struct bi_free *a = buddyinfo_find_free(c->a, z->node, z->zone, types[t]);

		if (c->o->all || free_changed(c->a, b, a))
			text_free_row(c, types[t], b, a);
	}
	blocks_pairs(c, z, text_block, &n);
	if (n)
		fputc('\n', c->f);
}

/* A zone's free pages and largest order in one file: null where it has none. */
static void json_side(FILE *f, const char *side, const struct bi_zone_sum *s)
{
	fprintf(f, ",\"free_pages_%s\":", side);
	if (s->largest == -2)
		fputs("null", f);
	else
		fprintf(f, "%" PRId64, s->pages);
	fprintf(f, ",\"largest_free_order_%s\":", side);
	if (s->largest < 0)
		fputs("null", f);
	else
		fprintf(f, "%d", s->largest);
}

static void json_zone(struct diff_ctx *c, const struct bi_zone_key *z, const char **types,
		      size_t nr_types, const struct bi_zone_sum *sb, const struct bi_zone_sum *sa)
{
	int n = 0;

	fprintf(c->f, "%s{\"node\":%d,\"zone\":", c->first ? "\n" : ",\n", z->node);
	c->first = 0;
	out_json_str(c->f, z->zone);
	fputs(",\"only_in\":", c->f);
	if (sb->largest == -2 || sa->largest == -2)
		out_json_str(c->f, sa->largest == -2 ? "before" : "after");
	else
		fputs("null", c->f);
	json_side(c->f, "before", sb);
	json_side(c->f, "after", sa);
	fprintf(c->f, ",\"free_pages_lower_bound\":%s,\"free\":[",
		sb->lower_bound || sa->lower_bound ? "true" : "false");
	for (size_t t = 0; t < nr_types; t++)
		json_free_row(c, types[t], buddyinfo_find_free(c->b, z->node, z->zone, types[t]),
			      buddyinfo_find_free(c->a, z->node, z->zone, types[t]), t == 0);
	fputs("],\"pageblocks\":[", c->f);
	blocks_pairs(c, z, json_block, &n);
	fputs("]}", c->f);
}

/* A zone's sums, largest -2 when the file does not have the zone. */
static void zone_sum(const struct buddyinfo *bi, const struct bi_zone_key *z, struct bi_zone_sum *s)
{
	buddyinfo_zone_sum(bi, z->node, z->zone, s);
	for (size_t i = 0; i < bi->nr_free; i++)
		if (bi->free[i].node == z->node && strcmp(bi->free[i].zone, z->zone) == 0)
			return;
	s->largest = -2;
}

static void one_zone(struct diff_ctx *c, const struct bi_zone_key *z)
{
	const char *types[2 * BI_MAX_TYPES + 2];
	size_t nr_types = zone_types(c, z, types, sizeof(types) / sizeof(types[0]));
	struct bi_zone_sum sb, sa;
	int changed = c->o->all;

	zone_sum(c->b, z, &sb);
	zone_sum(c->a, z, &sa);
	for (size_t t = 0; t < nr_types && !changed; t++)
		changed = free_changed(c->a, buddyinfo_find_free(c->b, z->node, z->zone, types[t]),
				       buddyinfo_find_free(c->a, z->node, z->zone, types[t]));
	changed = changed || blocks_changed(c, z);
	if (c->fmt == OUT_CSV) {
		for (size_t t = 0; t < nr_types; t++)
			csv_free_row(c, z, types[t],
				     buddyinfo_find_free(c->b, z->node, z->zone, types[t]),
				     buddyinfo_find_free(c->a, z->node, z->zone, types[t]));
		blocks_pairs(c, z, csv_block, NULL);
	} else if (c->fmt == OUT_JSON) {
		json_zone(c, z, types, nr_types, &sb, &sa);
	} else if (changed) {
		text_zone(c, z, types, nr_types, &sb, &sa);
		c->shown++;
	}
}

int buddyinfo_diff(const struct buddyinfo *before, const struct buddyinfo *after,
		   const struct diff_opts *o, enum out_fmt fmt, FILE *f, const char **why)
{
	struct diff_ctx c = {before, after, o, fmt, f, 1, 0};
	struct bi_zone_key *keys;
	size_t nr;

	if (before->format != after->format) {
		*why = "one file is a buddyinfo, the other a pagetypeinfo";
		return -EINVAL;
	}
	if (before->nr_orders != after->nr_orders) {
		*why = "the two files have different numbers of orders";
		return -EINVAL;
	}
	keys = calloc(before->nr_free + after->nr_free + 1, sizeof(*keys));
	if (!keys) {
		*why = "out of memory";
		return -ENOMEM;
	}
	nr = buddyinfo_zones(before, keys, buddyinfo_zones(after, keys, 0));
	if (fmt == OUT_JSON) {
		fputs("{\"before\":", f);
		out_json_str(f, before->path ? before->path : "");
		fputs(",\"after\":", f);
		out_json_str(f, after->path ? after->path : "");
		fputs(",\"format\":", f);
		out_json_str(f, buddyinfo_format_name(after->format));
		fputs(",\"zones\":[", f);
	} else if (fmt == OUT_CSV) {
		fputs("table,node,zone,type,order,before,after,change\n", f);
	} else {
		fprintf(f, "%s: change from %s to %s\n", buddyinfo_format_name(after->format),
			before->path ? before->path : "BEFORE",
			after->path ? after->path : "AFTER");
	}
	for (size_t z = 0; z < nr; z++)
		one_zone(&c, &keys[z]);
	if (fmt == OUT_JSON)
		fputs("]}\n", f);
	else if (fmt == OUT_TEXT && !c.shown)
		fputs("no change\n", f);
	free(keys);
	return 0;
}
