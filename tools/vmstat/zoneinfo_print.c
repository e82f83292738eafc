/*
 * zoneinfo_print - the per-node, per-zone summary: free pages against the watermarks, the
 * zone's size three ways (managed, present, spanned) and its LRU lists.  Fields a kernel does
 * not print (zone LRU sizes before 4.8 are named differently, 6.x adds "boost") are looked up
 * under every spelling; what is still missing prints as "-".
 */
#include <inttypes.h>

#include "zoneinfo.h"

static const char *const zone_cols[] = {"free",    "min",     "low",    "high",
					"managed", "present", "spanned"};
static const char *const lru_short[ZI_NR_LRU] = {"inact_anon", "act_anon", "inact_file", "act_file",
						 "unevict"};

#define NR_ZONE_COLS (sizeof(zone_cols) / sizeof(zone_cols[0]))

static void text_val(FILE *f, int ok, int64_t v)
{
	if (ok)
		fprintf(f, " %11" PRId64, v);
	else
		fprintf(f, " %11s", "-");
}

static void text_node(const struct zoneinfo *zi, const struct zi_node *n, FILE *f)
{
	int64_t act, inact;

	fprintf(f, "Node %d  LRU pages%s:", n->id, n->has_stats ? "" : " (sum of zones)");
	for (int l = 0; l < ZI_NR_LRU; l++) {
		int64_t v;

		if (zoneinfo_node_lru(zi, n, l, &v) == 0)
			fprintf(f, " %s %" PRId64, zoneinfo_lru_names[l], v);
		else
			fprintf(f, " %s -", zoneinfo_lru_names[l]);
	}
	if (zoneinfo_node_unsplit(zi, n, &act, &inact) == 0)
		fprintf(f,
			"; lists not split by type (before 2.6.28): active %" PRId64
			" inactive %" PRId64,
			act, inact);
	fprintf(f, "\n  %-8s", "zone");
	for (size_t c = 0; c < NR_ZONE_COLS; c++)
		fprintf(f, " %11s", zone_cols[c]);
	for (int l = 0; l < ZI_NR_LRU; l++)
		fprintf(f, " %11s", lru_short[l]);
	fputc('\n', f);
}

static void text_zone(const struct zi_zone *z, FILE *f)
{
	fprintf(f, "  %-8s", z->name);
	for (size_t c = 0; c < NR_ZONE_COLS; c++) {
		int64_t v;
		int ok = dump_get(&z->fields, zone_cols[c], &v) == 0;

		text_val(f, ok, v);
	}
	for (int l = 0; l < ZI_NR_LRU; l++) {
		int64_t v;
		int ok = zoneinfo_zone_lru(z, l, &v) == 0;

		text_val(f, ok, v);
	}
	fputc('\n', f);
}

static void print_text(const struct zoneinfo *zi, FILE *f)
{
	for (size_t n = 0; n < zi->nr_nodes; n++) {
		text_node(zi, &zi->nodes[n], f);
		for (size_t z = 0; z < zi->nr_zones; z++)
			if (zi->zones[z].node == zi->nodes[n].id)
				text_zone(&zi->zones[z], f);
	}
}

static void json_val(FILE *f, int ok, int64_t v)
{
	if (ok)
		fprintf(f, "%" PRId64, v);
	else
		fputs("null", f);
}

static void json_zone(const struct zi_zone *z, FILE *f)
{
	fputs("{\"zone\":", f);
	out_json_str(f, z->name);
	for (size_t c = 0; c < NR_ZONE_COLS; c++) {
		int64_t v;
		int ok = dump_get(&z->fields, zone_cols[c], &v) == 0;

		fprintf(f, ",\"%s\":", zone_cols[c]);
		json_val(f, ok, v);
	}
	fputs(",\"lru\":{", f);
	for (int l = 0; l < ZI_NR_LRU; l++) {
		int64_t v;
		int ok = zoneinfo_zone_lru(z, l, &v) == 0;

		fprintf(f, "%s\"%s\":", l ? "," : "", zoneinfo_lru_names[l]);
		json_val(f, ok, v);
	}
	fputs("}}", f);
}

static void json_node(const struct zoneinfo *zi, const struct zi_node *n, FILE *f)
{
	int first = 1;

	fprintf(f, "{\"node\":%d,\"lru_from_zones\":%s,\"lru\":{", n->id,
		n->has_stats ? "false" : "true");
	for (int l = 0; l < ZI_NR_LRU; l++) {
		int64_t v;
		int ok = zoneinfo_node_lru(zi, n, l, &v) == 0;

		fprintf(f, "%s\"%s\":", l ? "," : "", zoneinfo_lru_names[l]);
		json_val(f, ok, v);
	}
	fputs("},\"zones\":[", f);
	for (size_t z = 0; z < zi->nr_zones; z++) {
		if (zi->zones[z].node != n->id)
			continue;
		if (!first)
			fputc(',', f);
		first = 0;
		json_zone(&zi->zones[z], f);
	}
	fputs("]}", f);
}

static void print_json(const struct zoneinfo *zi, FILE *f)
{
	fputs("{\"file\":", f);
	out_json_str(f, zi->path ? zi->path : "");
	fputs(",\"nodes\":[", f);
	for (size_t n = 0; n < zi->nr_nodes; n++) {
		fputs(n ? ",\n" : "\n", f);
		json_node(zi, &zi->nodes[n], f);
	}
	fputs("]}\n", f);
}

/* @err is the lookup's result; the value is read only after the lookup has filled it. */
static void csv_val(FILE *f, int err, const int64_t *v)
{
	fputc(',', f);
	if (!err)
		fprintf(f, "%" PRId64, *v);
}

/* One row per zone, and one per node (zone column empty) carrying only the node's LRU sizes. */
static void print_csv(const struct zoneinfo *zi, FILE *f)
{
	fputs("node,zone", f);
	for (size_t c = 0; c < NR_ZONE_COLS; c++)
		fprintf(f, ",%s", zone_cols[c]);
	for (int l = 0; l < ZI_NR_LRU; l++)
		fprintf(f, ",%s", zoneinfo_lru_names[l]);
	fputc('\n', f);
	for (size_t n = 0; n < zi->nr_nodes; n++) {
		const struct zi_node *nd = &zi->nodes[n];
		int64_t v;

		fprintf(f, "%d,", nd->id);
		for (size_t c = 0; c < NR_ZONE_COLS; c++)
			fputc(',', f);
		for (int l = 0; l < ZI_NR_LRU; l++)
			csv_val(f, zoneinfo_node_lru(zi, nd, l, &v), &v);
		fputc('\n', f);
		for (size_t z = 0; z < zi->nr_zones; z++) {
			const struct zi_zone *zz = &zi->zones[z];

			if (zz->node != nd->id)
				continue;
			fprintf(f, "%d,", nd->id);
			out_csv_str(f, zz->name);
			for (size_t c = 0; c < NR_ZONE_COLS; c++)
				csv_val(f, dump_get(&zz->fields, zone_cols[c], &v), &v);
			for (int l = 0; l < ZI_NR_LRU; l++)
				csv_val(f, zoneinfo_zone_lru(zz, l, &v), &v);
			fputc('\n', f);
		}
	}
}

void zoneinfo_print(const struct zoneinfo *zi, enum out_fmt fmt, FILE *f)
{
	if (fmt == OUT_JSON)
		print_json(zi, f);
	else if (fmt == OUT_CSV)
		print_csv(zi, f);
	else
		print_text(zi, f);
}
