/*
 * show - a dump read by a person: counters grouped by what they are about, in file order
 * within a group, each with its one-line meaning, and a note where a name is a 4.7 or 6.x
 * spelling of a logical counter (so a reader of a 4.7 dump learns pgscan_kswapd_normal is part
 * of what 4.8 calls pgscan_kswapd).
 */
#include "show.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "map.h"
#include "names.h"

static int name_width(const struct vm_dump *d)
{
	size_t w = 8;

	for (size_t i = 0; i < d->nr; i++)
		if (strlen(d->v[i].name) > w)
			w = strlen(d->v[i].name);
	return (int)(w > 40 ? 40 : w);
}

/* The logical counter @name is a different spelling of, or NULL. */
static const char *alias_of(const char *name)
{
	const struct map_entry *m = map_canonical(name);

	return m && strcmp(m->canon, name) != 0 ? m->canon : NULL;
}

static void text_line(const struct vm_counter *c, const struct name_info *ni, int w, FILE *f)
{
	const char *alias = alias_of(c->name);
	char v[OUT_COUNT_MAX];

	fprintf(f, "  %-*s %16s  %s", w, c->name, out_count(v, ni->kind == VM_EVENT, c->value),
		ni->help ? ni->help : "(unknown to nlru-vmstat)");
	if (ni->era)
		fprintf(f, " (Linux %s)", ni->era);
	if (alias)
		fprintf(f, " [part of %s]", alias);
	fputc('\n', f);
}

static int print_text(const struct vm_dump *d, FILE *f)
{
	struct name_info *ni = calloc(d->nr + 1, sizeof(*ni));
	int w = name_width(d);

	if (!ni)
		return -ENOMEM;
	/* Look every name up once, not once per group. */
	for (size_t i = 0; i < d->nr; i++)
		names_lookup(d->v[i].name, &ni[i]);
	for (int g = 0; g < NR_VM_GROUPS; g++) {
		int header = 0;

		for (size_t i = 0; i < d->nr; i++) {
			if ((int)ni[i].group != g)
				continue;
			if (!header++)
				fprintf(f, "%s:\n", names_group_title((enum vm_group)g));
			text_line(&d->v[i], &ni[i], w, f);
		}
	}
	free(ni);
	return 0;
}

static void print_json(const struct vm_dump *d, FILE *f)
{
	fputs("{\"file\":", f);
	out_json_str(f, d->path ? d->path : "");
	fputs(",\"counters\":[", f);
	for (size_t i = 0; i < d->nr; i++) {
		const struct vm_counter *c = &d->v[i];
		const char *alias = alias_of(c->name);
		struct name_info ni;
		char v[OUT_COUNT_MAX];

		names_lookup(c->name, &ni);
		fputs(i ? ",\n{\"name\":" : "\n{\"name\":", f);
		out_json_str(f, c->name);
		fprintf(f, ",\"value\":%s,\"kind\":\"%s\",\"group\":",
			out_count(v, ni.kind == VM_EVENT, c->value), names_kind_word(ni.kind));
		out_json_str(f, names_group_title(ni.group));
		fputs(",\"help\":", f);
		if (ni.help)
			out_json_str(f, ni.help);
		else
			fputs("null", f);
		fputs(",\"part_of\":", f);
		if (alias)
			out_json_str(f, alias);
		else
			fputs("null", f);
		fputs(",\"linux\":", f);
		if (ni.era)
			out_json_str(f, ni.era);
		else
			fputs("null", f);
		fputc('}', f);
	}
	fputs("]}\n", f);
}

static void print_csv(const struct vm_dump *d, FILE *f)
{
	fputs("name,value,kind,group,help,part_of,linux\n", f);
	for (size_t i = 0; i < d->nr; i++) {
		const struct vm_counter *c = &d->v[i];
		const char *alias = alias_of(c->name);
		struct name_info ni;
		char v[OUT_COUNT_MAX];

		names_lookup(c->name, &ni);
		out_csv_str(f, c->name);
		fprintf(f, ",%s,%s,", out_count(v, ni.kind == VM_EVENT, c->value),
			names_kind_word(ni.kind));
		out_csv_str(f, names_group_title(ni.group));
		fputc(',', f);
		out_csv_str(f, ni.help ? ni.help : "");
		fputc(',', f);
		out_csv_str(f, alias ? alias : "");
		fputc(',', f);
		out_csv_str(f, ni.era ? ni.era : "");
		fputc('\n', f);
	}
}

int show_print(const struct vm_dump *d, enum out_fmt fmt, FILE *f)
{
	if (fmt == OUT_JSON)
		print_json(d, f);
	else if (fmt == OUT_CSV)
		print_csv(d, f);
	else
		return print_text(d, f);
	return 0;
}
