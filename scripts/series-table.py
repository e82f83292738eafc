#!/usr/bin/env python3
"""Print a stutter run's rows beside the node-lru series' own.

The series' figures are its stutter results as its cover letter reports them (the
zone-based kernel against the node-LRU series, mmtests' stutter): the reference the
engine's zone mode (4.7) and node mode (4.8) are compared with.  The script reads the run's
vmstat-summary.json and stutter-latency.json, prints one table, then says for each row
whether the two modes differ in the series' direction.

Usage: series-table.py STUTTER_RESULTS_DIR [--json]
Exit status: 0, or 2 when the results cannot be read.
"""
import json
import os
import sys

# The series' rows: (label, 4.7, 4.8, unit).
SERIES = [
    ("Allocation stalls", 2603, 1, "count"),
    ("Direct pages scanned", 216787, 2, "count"),
    ("Kswapd efficiency", 81, 99, "percent"),
    ("Page writes by reclaim", 6215049, 0, "count"),
    ("Max latency (ms)", 1440, 121, "ms"),
]

# What the series showed, as a test on (zone, node): node mode no worse, or strictly better.
DIRECTION = {
    "Allocation stalls": ("node <= zone", lambda z, n: n <= z),
    "Direct pages scanned": ("node <= zone", lambda z, n: n <= z),
    "Kswapd efficiency": ("node >= zone", lambda z, n: n >= z),
    "Page writes by reclaim": ("zone > node", lambda z, n: z > n),
    "Max latency (ms)": ("node < zone", lambda z, n: n < z),
}


def load(path):
    with open(path) as f:
        return json.load(f)


def run_values(results):
    """The run's values of the series' rows, one list per row, in column order."""
    summary = load(os.path.join(results, "vmstat-summary.json"))
    latency = load(os.path.join(results, "stutter-latency.json"))
    columns = [r["name"] for r in summary["runs"]]
    rows = {r["label"]: r["values"] for r in summary["rows"]}
    values = {}
    for label, _, _, _ in SERIES:
        if label == "Max latency (ms)":
            row = next(r for r in latency["rows"] if r["stat"] == "Max")
            values[label] = row["values"]
        elif label == "Kswapd efficiency":
            values[label] = [None if v is None else round(v) for v in rows[label]]
        else:
            values[label] = rows[label]
    return columns, values


def cell(value, unit):
    if value is None:
        return "-"
    if unit == "percent":
        return "%d%%" % value
    if unit == "ms":
        return "%.2f" % value
    return "%d" % value


def main(argv):
    if len(argv) < 2 or argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if len(argv) >= 2 else 2
    try:
        columns, values = run_values(argv[1])
    except (OSError, KeyError, StopIteration, ValueError) as e:
        print("series-table: cannot read %s: %s" % (argv[1], e), file=sys.stderr)
        return 2
    if "--json" in argv[2:]:
        out = {"columns": ["series 4.7", "series 4.8"] + columns, "rows": []}
        for label, s47, s48, unit in SERIES:
            out["rows"].append({"label": label, "unit": unit,
                                "values": [s47, s48] + values[label]})
        print(json.dumps(out))
        return 0
    heads = ["series 4.7", "series 4.8"] + columns
    print("stutter against the node-lru series")
    print("%-24s" % "" + "".join("%12s" % h for h in heads) + "   series' direction")
    zone = columns.index("4.7-zone") if "4.7-zone" in columns else None
    node = columns.index("4.8-node") if "4.8-node" in columns else None
    for label, s47, s48, unit in SERIES:
        vals = values[label]
        line = "%-24s" % label + "".join("%12s" % cell(v, unit) for v in [s47, s48] + vals)
        if zone is not None and node is not None and None not in (vals[zone], vals[node]):
            what, test = DIRECTION[label]
            line += "   %s: %s" % (what, "yes" if test(vals[zone], vals[node]) else "NO")
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
