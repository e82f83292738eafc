/*
 * out - the three output formats every figure-printing subcommand offers, and the escaping
 * rules of the two machine formats.  JSON is RFC 8259; CSV is RFC 4180 with a header line.
 */
#ifndef NODELRU_TOOLS_VMSTAT_OUT_H
#define NODELRU_TOOLS_VMSTAT_OUT_H

#include <stdint.h>
#include <stdio.h>

enum out_fmt { OUT_TEXT, OUT_JSON, OUT_CSV };

/* out_json_str - @s as a JSON string, quotes included. */
void out_json_str(FILE *f, const char *s);

/* out_csv_str - @s as one CSV field, quoted only when it has a comma, quote or newline. */
void out_csv_str(FILE *f, const char *s);

/* out_json_num - a finite double as JSON (shortest round-trip form); null when not finite. */
void out_json_num(FILE *f, double v);

/* Room for out_count() and out_change(): a sign and the 20 digits of 2^64 - 1. */
#define OUT_COUNT_MAX 24

/*
 * out_count - a counter's value as text in @buf: unsigned for an event counter, as the kernel
 * prints it (%lu), so 2^63 and more never shows as negative; signed for a state counter,
 * whose level may have drifted below zero (dump.h).  Returns @buf.
 */
const char *out_count(char buf[OUT_COUNT_MAX], int is_event, int64_t v);

/*
 * out_change - AFTER - BEFORE as text in @buf: for an event counter its growth, unsigned, or
 * '-' and the size of the fall when it went down (wrap_went_down); for a state counter the
 * signed change.  @plus puts a '+' before a growth.  Returns @buf.
 */
const char *out_change(char buf[OUT_COUNT_MAX], int is_event, int64_t before, int64_t after,
		       int plus);

#endif /* NODELRU_TOOLS_VMSTAT_OUT_H */
