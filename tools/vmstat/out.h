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

#endif /* NODELRU_TOOLS_VMSTAT_OUT_H */
