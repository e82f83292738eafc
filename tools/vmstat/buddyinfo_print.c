/*
 * buddyinfo_print - show and diff of buddyinfo and pagetypeinfo files.  Zones come in file
 * order (a diff: AFTER's, then those only BEFORE has); a count printed ">N" by the kernel stays
 * ">N", a sum that includes one is a lower bound (">="), and a change from or to one is
 * unknown ("?", null in JSON).
 */
#include "buddyinfo.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "wrap.h"

#define COL 8    /* width of an order's column */
#define LABEL 12 /* width of a row's label */

size_t buddyinfo_zones(const struct buddyinfo *bi, struct bi_zone_key *keys, size_t nr)
{
	for (size_t i = 0; i < bi->nr_free; i++) {
		const struct bi_free *r = &bi->free[i];
		size_t k = 0;

		while (k < nr && !(keys[k].node == r->node && strcmp(keys[k].zone, r->zone) == 0))
			k++;
		if (k == nr)
			keys[nr++] = (struct bi_zone_key){r->node, r->zone};
	}
	return nr;
}

const char *buddyinfo_count_text(char buf[OUT_COUNT_MAX], int64_t v, int capped)
{
	snprintf(buf, OUT_COUNT_MAX, "%s%" PRId64, capped ? ">" : "", v);
	return buf;
}

const char *buddyinfo_sum_text(char buf[OUT_COUNT_MAX], int64_t v, int lower_bound)
{
	snprintf(buf, OUT_COUNT_MAX, "%s%" PRId64, lower_bound ? ">=" : "", v);
	return buf;
}

void buddyinfo_order_header(const struct buddyinfo *bi, const char *label, FILE *f)
{
	fprintf(f, "  %-*s", LABEL, label);
	for (int k = 0; k < bi_orders(bi); k++)
		fprintf(f, " %*d", COL - 1, k);
	fprintf(f, " %*s\n", COL + 3, "pages");
}

/* One row of free blocks per order, with the pages they hold (per order too in buddyinfo). */
static void free_row(const struct buddyinfo *bi, const char *label, const int64_t *count,
		     uint32_t capped, FILE *f)
{
	char buf[OUT_COUNT_MAX];
	int64_t pages = 0;

	fprintf(f, "  %-*s", LABEL, label);
	for (int k = 0; k < bi_orders(bi); k++) {
		fprintf(f, " %*s", COL - 1, buddyinfo_count_text(buf, count[k], (capped >> k) & 1));
		pages = wrap_add(pages, (int64_t)((uint64_t)count[k] << k));
	}
	fprintf(f, " %*s\n", COL + 3, buddyinfo_sum_text(buf, pages, capped != 0));
	if (bi->format != BI_BUDDYINFO)
		return;
	/* buddyinfo's one line per zone has room for the pages of each order too. */
	fprintf(f, "  %-*s", LABEL, "pages");
	for (int k = 0; k < bi_orders(bi); k++)
		fprintf(f, " %*s", COL - 1,
			buddyinfo_sum_text(buf, (int64_t)((uint64_t)count[k] << k),
					   (capped >> k) & 1));
	fputc('\n', f);
}

static void blocks_line(const struct buddyinfo *bi, const char *label, const struct bi_blocks *b,
			FILE *f)
{
	if (!b)
		return;
	fprintf(f, "  %s:", label);
	for (int k = 0; k < bi->nr_types; k++)
		fprintf(f, "%s %s %" PRId64, k ? "," : "", bi->types[k], b->count[k]);
	fputc('\n', f);
}

void buddyinfo_zone_title(int node, const char *zone, const struct bi_zone_sum *s, FILE *f)
{
	char buf[OUT_COUNT_MAX];

	fprintf(f, "Node %d, zone %s: %s free pages, ", node, zone,
		buddyinfo_sum_text(buf, s->pages, s->lower_bound));
	if (s->largest < 0)
		fputs("no free block\n", f);
	else
		fprintf(f, "largest free order %d\n", s->largest);
}

/* The sums over every zone: one line per type (or the one line of buddyinfo). */
static int show_totals(const struct buddyinfo *bi, FILE *f)
{
	struct bi_free *sum = calloc(bi->nr_free + 1, sizeof(*sum));
	size_t nr = 0;
	int64_t pages = 0;
	int largest = -1, lower = 0;

	if (!sum)
		return -ENOMEM;
	for (size_t i = 0; i < bi->nr_free; i++) {
		const struct bi_free *r = &bi->free[i];
		size_t t = 0;

		while (t < nr && strcmp(sum[t].type, r->type) != 0)
			t++;
		if (t == nr)
			strcpy(sum[nr++].type, r->type);
		for (int k = 0; k < bi_orders(bi); k++) {
			sum[t].count[k] = wrap_add(sum[t].count[k], r->count[k]);
			pages = wrap_add(pages, (int64_t)((uint64_t)r->count[k] << k));
			if (r->count[k] && k > largest)
				largest = k;
		}
		sum[t].capped |= r->capped;
		lower |= r->capped != 0;
	}
	fprintf(f, "\nAll zones: %s%" PRId64 " free pages, ", lower ? ">=" : "", pages);
	if (largest < 0)
		fputs("no free block\n", f);
	else
		fprintf(f, "largest free order %d\n", largest);
	buddyinfo_order_header(bi, bi->format == BI_BUDDYINFO ? "order" : "free blocks", f);
	for (size_t t = 0; t < nr; t++)
		free_row(bi, sum[t].type[0] ? sum[t].type : "blocks", sum[t].count, sum[t].capped,
			 f);
	free(sum);
	return 0;
}

static int show_text(const struct buddyinfo *bi, const struct bi_zone_key *keys, size_t nr, FILE *f)
{
	fprintf(f, "%s of %s: %zu zone%s, orders 0 to %d", buddyinfo_format_name(bi->format),
		bi->path ? bi->path : "-", nr, nr == 1 ? "" : "s", bi->nr_orders - 1);
	if (bi->pageblock_order >= 0)
		fprintf(f, ", pageblock order %d", bi->pageblock_order);
	if (bi->pages_per_block)
		fprintf(f, ", %" PRId64 " pages per block", bi->pages_per_block);
	fputc('\n', f);
	for (size_t z = 0; z < nr; z++) {
		struct bi_zone_sum s;

		buddyinfo_zone_sum(bi, keys[z].node, keys[z].zone, &s);
		fputc('\n', f);
		buddyinfo_zone_title(keys[z].node, keys[z].zone, &s, f);
		buddyinfo_order_header(bi, bi->format == BI_BUDDYINFO ? "order" : "free blocks", f);
		for (size_t i = 0; i < bi->nr_free; i++) {
			const struct bi_free *r = &bi->free[i];

			if (r->node == keys[z].node && strcmp(r->zone, keys[z].zone) == 0)
				free_row(bi, r->type[0] ? r->type : "blocks", r->count, r->capped,
					 f);
		}
		blocks_line(bi, "pageblocks",
			    buddyinfo_find_blocks(bi->blocks, bi->nr_blocks, keys[z].node,
						  keys[z].zone),
			    f);
		blocks_line(
			bi, "mixed pageblocks",
			buddyinfo_find_blocks(bi->mixed, bi->nr_mixed, keys[z].node, keys[z].zone),
			f);
	}
	return show_totals(bi, f);
}

static void json_blocks(const struct buddyinfo *bi, const struct bi_blocks *b, FILE *f)
{
	if (!b) {
		fputs("null", f);
		return;
	}
	fputc('{', f);
	for (int k = 0; k < bi->nr_types; k++) {
		fputs(k ? "," : "", f);
		out_json_str(f, bi->types[k]);
		fprintf(f, ":%" PRId64, b->count[k]);
	}
	fputc('}', f);
}

static void json_zone(const struct buddyinfo *bi, const struct bi_zone_key *key, FILE *f)
{
	struct bi_zone_sum s;
	int first = 1;

	buddyinfo_zone_sum(bi, key->node, key->zone, &s);
	fprintf(f, "{\"node\":%d,\"zone\":", key->node);
	out_json_str(f, key->zone);
	fprintf(f, ",\"free_pages\":%" PRId64 ",\"free_pages_lower_bound\":%s", s.pages,
		s.lower_bound ? "true" : "false");
	fputs(",\"largest_free_order\":", f);
	if (s.largest < 0)
		fputs("null", f);
	else
		fprintf(f, "%d", s.largest);
	fputs(",\"free\":[", f);
	for (size_t i = 0; i < bi->nr_free; i++) {
		const struct bi_free *r = &bi->free[i];

		if (r->node != key->node || strcmp(r->zone, key->zone) != 0)
			continue;
		fputs(first ? "{\"type\":" : ",{\"type\":", f);
		first = 0;
		if (r->type[0])
			out_json_str(f, r->type);
		else
			fputs("null", f);
		fputs(",\"blocks\":[", f);
		for (int k = 0; k < bi_orders(bi); k++)
			fprintf(f, "%s%" PRId64, k ? "," : "", r->count[k]);
		fputs("],\"capped_orders\":[", f);
		for (int k = 0, n = 0; k < bi_orders(bi); k++)
			if ((r->capped >> k) & 1)
				fprintf(f, "%s%d", n++ ? "," : "", k);
		fputs("]}", f);
	}
	fputs("],\"pageblocks\":", f);
	json_blocks(bi, buddyinfo_find_blocks(bi->blocks, bi->nr_blocks, key->node, key->zone), f);
	fputs(",\"mixed_pageblocks\":", f);
	json_blocks(bi, buddyinfo_find_blocks(bi->mixed, bi->nr_mixed, key->node, key->zone), f);
	fputc('}', f);
}

static void show_json(const struct buddyinfo *bi, const struct bi_zone_key *keys, size_t nr,
		      FILE *f)
{
	fputs("{\"file\":", f);
	out_json_str(f, bi->path ? bi->path : "");
	fputs(",\"format\":", f);
	out_json_str(f, buddyinfo_format_name(bi->format));
	fprintf(f, ",\"orders\":%d,\"pageblock_order\":", bi->nr_orders);
	if (bi->pageblock_order < 0)
		fputs("null", f);
	else
		fprintf(f, "%d", bi->pageblock_order);
	fputs(",\"pages_per_block\":", f);
	if (!bi->pages_per_block)
		fputs("null", f);
	else
		fprintf(f, "%" PRId64, bi->pages_per_block);
	fputs(",\"zones\":[", f);
	for (size_t z = 0; z < nr; z++) {
		fputs(z ? ",\n" : "\n", f);
		json_zone(bi, &keys[z], f);
	}
	fputs("]}\n", f);
}

static void csv_blocks(const struct buddyinfo *bi, const char *table, const struct bi_blocks *b,
		       FILE *f)
{
	for (int k = 0; b && k < bi->nr_types; k++) {
		fprintf(f, "%s,%d,", table, b->node);
		out_csv_str(f, b->zone);
		fputc(',', f);
		out_csv_str(f, bi->types[k]);
		fprintf(f, ",,%" PRId64 ",0,", b->count[k]);
		if (bi->pages_per_block)
			fprintf(f, "%" PRId64,
				wrap_add(0, (int64_t)((uint64_t)b->count[k] *
						      (uint64_t)bi->pages_per_block)));
		fputc('\n', f);
	}
}

static void show_csv(const struct buddyinfo *bi, FILE *f)
{
	fputs("table,node,zone,type,order,count,capped,pages\n", f);
	for (size_t i = 0; i < bi->nr_free; i++) {
		const struct bi_free *r = &bi->free[i];

		for (int k = 0; k < bi_orders(bi); k++) {
			fprintf(f, "free,%d,", r->node);
			out_csv_str(f, r->zone);
			fputc(',', f);
			out_csv_str(f, r->type);
			fprintf(f, ",%d,%" PRId64 ",%d,%" PRId64 "\n", k, r->count[k],
				(int)((r->capped >> k) & 1), (int64_t)((uint64_t)r->count[k] << k));
		}
	}
	for (size_t i = 0; i < bi->nr_blocks; i++)
		csv_blocks(bi, "pageblocks", &bi->blocks[i], f);
	for (size_t i = 0; i < bi->nr_mixed; i++)
		csv_blocks(bi, "mixed_pageblocks", &bi->mixed[i], f);
}

int buddyinfo_show(const struct buddyinfo *bi, enum out_fmt fmt, FILE *f)
{
	struct bi_zone_key *keys = calloc(bi->nr_free + 1, sizeof(*keys));
	size_t nr;
	int err = 0;

	if (!keys)
		return -ENOMEM;
	nr = buddyinfo_zones(bi, keys, 0);
	if (fmt == OUT_JSON)
		show_json(bi, keys, nr, f);
	else if (fmt == OUT_CSV)
		show_csv(bi, f);
	else
		err = show_text(bi, keys, nr, f);
	free(keys);
	return err;
}
