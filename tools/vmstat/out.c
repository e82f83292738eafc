/* out - escaping for JSON and CSV.  Layout of each table lives with its subcommand. */
#include "out.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "wrap.h"

void out_json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", f);
		else if (c == '\t')
			fputs("\\t", f);
		else if (c < 0x20 || c == 0x7f)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

void out_csv_str(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

void out_json_num(FILE *f, double v)
{
	if (!isfinite(v)) {
		fputs("null", f);
		return;
	}
	if (v == floor(v) && fabs(v) < 9007199254740992.0) {
		fprintf(f, "%.0f", v);
		return;
	}
	/* The shortest %g that reads back to the same double, so 0.1 stays 0.1. */
	for (int prec = 15; prec <= 17; prec++) {
		char buf[40];

		snprintf(buf, sizeof(buf), "%.*g", prec, v);
		if (prec == 17 || strtod(buf, NULL) == v) {
			fputs(buf, f);
			return;
		}
	}
}

const char *out_count(char buf[OUT_COUNT_MAX], int is_event, int64_t v)
{
	if (is_event)
		snprintf(buf, OUT_COUNT_MAX, "%" PRIu64, (uint64_t)v);
	else
		snprintf(buf, OUT_COUNT_MAX, "%" PRId64, v);
	return buf;
}

const char *out_change(char buf[OUT_COUNT_MAX], int is_event, int64_t before, int64_t after,
		       int plus)
{
	int64_t d = wrap_sub(after, before);

	if (!is_event)
		snprintf(buf, OUT_COUNT_MAX, plus ? "%+" PRId64 : "%" PRId64, d);
	else if (wrap_went_down(before, after))
		snprintf(buf, OUT_COUNT_MAX, "-%" PRIu64, (uint64_t)before - (uint64_t)after);
	else
		snprintf(buf, OUT_COUNT_MAX, plus ? "+%" PRIu64 : "%" PRIu64, (uint64_t)d);
	return buf;
}
