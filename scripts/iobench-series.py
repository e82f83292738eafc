#!/usr/bin/env python3
"""Print the I/O benchmarks' rows of several runs beside the node-lru series' own.

The series' figures are those of its cover letters: paralleldd's Amean Elapsd-N and
duration and tiobench's Min rows as v8's letter printed them (1 July 2016), and the vmstat
rows the letter of the version merged into 4.8 reports.  For each row the script prints the
series' zone-based kernel (4.7) and node-lru kernel (4.8), then the engine's zone mode and node
mode over the runs given: the median, and the lowest and highest value in brackets.  The last
column says whether the two modes' ranges overlap (the difference is within the run-to-run
spread) or, for a vmstat row, whether the modes differ in the series' direction.

Usage: iobench-series.py [--json] RESULTS_DIR...
  each RESULTS_DIR a ./run.sh folder (with paralleldd/ and tiobench/) or one benchmark's
  --results folder.
Exit status: 0, or 2 when a folder cannot be read.
"""
import contextlib
import json
import os
import shutil
import statistics
import sys
import tempfile

# paralleldd: Amean Elapsd-N, seconds (v8's letter: mmotm-20160615 against nodelru-v7r17).
PARALLELDD = [
    ("Amean Elapsd-1", 181.57, 179.63), ("Amean Elapsd-3", 188.29, 183.68),
    ("Amean Elapsd-5", 188.02, 181.73), ("Amean Elapsd-7", 186.07, 184.11),
    ("Amean Elapsd-12", 188.16, 183.51), ("Amean Elapsd-16", 189.03, 181.27),
]
PARALLELDD_DURATION = [("User", 1439.23, 1433.37), ("System", 8332.31, 8216.01),
                       ("Elapsed", 3619.80, 3532.69)]
# tiobench: Min rows, MB/s (v8's letter: mmotm-20160623 against nodelru-v8, ext4).
TIOBENCH = [
    ("Min PotentialReadSpeed", 89.65, 90.34),
    ("Min SeqRead-MB/sec-1", 82.68, 83.13), ("Min SeqRead-MB/sec-2", 72.76, 72.15),
    ("Min SeqRead-MB/sec-4", 75.13, 74.23), ("Min SeqRead-MB/sec-8", 64.91, 65.25),
    ("Min SeqRead-MB/sec-16", 62.24, 62.76),
    ("Min RandRead-MB/sec-1", 0.88, 0.95), ("Min RandRead-MB/sec-2", 0.95, 0.94),
    ("Min RandRead-MB/sec-4", 1.43, 1.46), ("Min RandRead-MB/sec-8", 1.61, 1.58),
    ("Min RandRead-MB/sec-16", 1.80, 1.93),
    ("Min SeqWrite-MB/sec-1", 76.41, 78.84), ("Min SeqWrite-MB/sec-2", 74.11, 73.35),
    ("Min SeqWrite-MB/sec-4", 80.05, 78.69), ("Min SeqWrite-MB/sec-8", 72.88, 71.38),
    ("Min SeqWrite-MB/sec-16", 75.91, 75.81),
    ("Min RandWrite-MB/sec-1", 1.18, 1.12), ("Min RandWrite-MB/sec-2", 1.02, 1.02),
    ("Min RandWrite-MB/sec-4", 1.05, 0.99), ("Min RandWrite-MB/sec-8", 0.89, 0.92),
    ("Min RandWrite-MB/sec-16", 0.92, 0.89),
]
# vmstat rows of the merged version's letter: (label, 4.7, 4.8, direction).  The direction is
# what the series showed as a test on (zone, node); "same" for rows it reported alike.
TIOBENCH_VMSTAT = [
    ("Allocation stalls", 24, 67, "node > zone"),
    ("Direct pages scanned", 10969, 30609, "node > zone"),
    ("Kswapd efficiency", 99, 99, "both >= 90"),
    ("Kswapd velocity", 13741, 13782, "same"),
    ("Percentage direct scans", 0, 0, "both <= 1"),
]
PARALLELDD_VMSTAT = [
    ("Swap Outs", 2855, 1029, "zone > node"),
    ("Page reclaim immediate", 771, 1628, "node > zone"),
    ("Kswapd efficiency", 99, 99, "both >= 90"),
    ("DMA32 allocs", 31.4e6, 28.8e6, "zone > node"),
    ("Normal allocs", 46.6e6, 49.2e6, "node > zone"),
    ("DMA32 share (%)", 100 * 31.4 / 78.0, 100 * 28.8 / 78.0, "zone > node"),
    ("Direct pages scanned", 0, 0, "both <= 1"),
    ("Allocation stalls", 0, 0, "both <= 1"),
]
TESTS = {
    "node > zone": lambda z, n: n > z,
    "zone > node": lambda z, n: z > n,
    "both >= 90": lambda z, n: z >= 90 and n >= 90,
    "both <= 1": lambda z, n: z <= 1 and n <= 1,
    "same": None,
}


def load(path):
    with open(path) as f:
        return json.load(f)


def bench_dir(results, bench):
    sub = os.path.join(results, bench)
    if os.path.isfile(os.path.join(sub, "run.json")):
        return sub
    run = os.path.join(results, "run.json")
    if os.path.isfile(run) and load(run).get("benchmark") == bench:
        return results
    return None


def table_values(path):
    """{ "Stat op": [zone, node] } of a benchmark table's JSON."""
    t = load(path)
    cols = t["columns"]
    out = {}
    for r in t["rows"]:
        key = ("%s %s" % (r["stat"], r["op"])).strip()
        out[key] = dict(zip(cols, r["values"]))
    return out


def vmstat_values(path):
    s = load(path)
    cols = [r["name"] for r in s["runs"]]
    out = {r["label"]: dict(zip(cols, r["values"])) for r in s["rows"]}
    dma32, normal = out.get("DMA32 allocs"), out.get("Normal allocs")
    if dma32 and normal:
        out["DMA32 share (%)"] = {
            c: (100.0 * dma32[c] / (dma32[c] + normal[c])
                if dma32[c] is not None and normal[c] and dma32[c] + normal[c] else None)
            for c in cols}
    return out


def gather(dirs, bench, files):
    """Per file kind, per row, per column: the values of every run."""
    out = {}
    for d in dirs:
        b = bench_dir(d, bench)
        if b is None:
            continue
        for kind, name in files.items():
            path = os.path.join(b, name)
            vals = vmstat_values(path) if kind == "vmstat" else table_values(path)
            for row, cols in vals.items():
                for col, v in cols.items():
                    if v is not None:
                        out.setdefault(kind, {}).setdefault(row, {}).setdefault(col, []).append(v)
    return out


def spread(vs):
    if not vs:
        return None
    return (statistics.median(vs), min(vs), max(vs), len(vs))


def fmt(v):
    if v is None:
        return "-"
    if float(v).is_integer() and abs(v) < 1e5:
        return "%d" % v
    if abs(v) >= 1e5:
        return "%.3g M" % (v / 1e6) if abs(v) >= 1e6 else "%.0f" % v
    return "%.2f" % v if abs(v) < 1000 else "%.0f" % v


def cell(s):
    if s is None:
        return "-"
    med, lo, hi, _ = s
    return "%s [%s-%s]" % (fmt(med), fmt(lo), fmt(hi))


def rows_of(series, values, vmstat):
    for label, s47, s48, *rest in series:
        z = spread(values.get(label, {}).get("4.7-zone", []))
        n = spread(values.get(label, {}).get("4.8-node", []))
        verdict = ""
        if z and n:
            if vmstat:
                test = TESTS[rest[0]]
                verdict = rest[0] + ": " + ("-" if test is None else
                                            "yes" if test(z[0], n[0]) else "NO")
            elif z[3] < 2 or n[3] < 2:
                verdict = "one run"
            else:
                verdict = "overlap" if z[1] <= n[2] and n[1] <= z[2] else "apart"
        yield label, s47, s48, z, n, verdict


def self_test():
    """Three synthetic runs whose medians, ranges and verdicts were worked out by hand."""
    def table(rows):
        return {"columns": ["4.7-zone", "4.8-node"],
                "rows": [{"stat": s, "op": o, "values": v} for s, o, v in rows]}

    def vmstat(rows):
        return {"runs": [{"name": "4.7-zone"}, {"name": "4.8-node"}],
                "rows": [{"label": l, "values": v} for l, v in rows]}

    runs = [  # (zone, node) of Amean Elapsd-1, Elapsd-3, DMA32 and Normal allocs, efficiency
        ((2.0, 5.0), (1.0, 2.5), (300, 50), (700, 950), (99, 95), (4, 30)),
        ((4.0, 6.0), (2.0, 9.0), (100, 50), (900, 950), (95, 96), (None, 10)),
        ((3.0, 4.5), (3.0, 0.5), (200, 50), (800, 950), (89, 97), (24, 20)),
    ]
    top = tempfile.mkdtemp(prefix="iobench-series-")
    failed = []

    def check(what, got, want):
        if got != want:
            failed.append("%s: got %r, want %r" % (what, got, want))

    try:
        dirs = []
        for i, (e1, e3, dma32, normal, eff, stalls) in enumerate(runs):
            d = os.path.join(top, "run%d" % i)
            for bench in ("paralleldd", "tiobench"):
                os.makedirs(os.path.join(d, bench))
                with open(os.path.join(d, bench, "run.json"), "w") as f:
                    json.dump({"benchmark": bench}, f)
            files = {
                "paralleldd/paralleldd-elapsed.json":
                    table([("Amean", "Elapsd-1", e1), ("Amean", "Elapsd-3", e3)]),
                "paralleldd/paralleldd-duration.json": table([("Elapsed", "", (10.0, 12.0))]),
                "paralleldd/vmstat-summary.json":
                    vmstat([("DMA32 allocs", dma32), ("Normal allocs", normal),
                            ("Kswapd efficiency", eff), ("Swap Outs", (0, 0))]),
                "tiobench/tiobench-throughput.json":
                    table([("Min", "SeqRead-MB/sec-1", (80.0, 81.0))]),
                "tiobench/vmstat-summary.json": vmstat([("Allocation stalls", stalls)]),
            }
            for name, content in files.items():
                with open(os.path.join(d, name), "w") as f:
                    json.dump(content, f)
            dirs.append(d)
        pdd = gather(dirs, "paralleldd", {"table": "paralleldd-elapsed.json",
                                          "duration": "paralleldd-duration.json",
                                          "vmstat": "vmstat-summary.json"})
        tio = gather(dirs, "tiobench", {"table": "tiobench-throughput.json",
                                        "vmstat": "vmstat-summary.json"})
        rows = {r[0]: r[3:] for r in rows_of(PARALLELDD, pdd["table"], False)}
        # Elapsd-1: zone 2, 4, 3 -> 3 [2-4]; node 5, 6, 4.5 -> 5 [4.5-6]; 4 < 4.5: apart.
        check("Elapsd-1", rows["Amean Elapsd-1"], ((3.0, 2.0, 4.0, 3), (5.0, 4.5, 6.0, 3), "apart"))
        # Elapsd-3: zone [1-3], node [0.5-9] overlap; node's median is 2.5.
        check("Elapsd-3", rows["Amean Elapsd-3"], ((2.0, 1.0, 3.0, 3), (2.5, 0.5, 9.0, 3), "overlap"))
        check("Elapsd-16 absent", rows["Amean Elapsd-16"], (None, None, ""))
        rows = {r[0]: r[3:] for r in rows_of(PARALLELDD_DURATION, pdd["duration"], False)}
        # The same value in every run: a range of width 0, the modes apart.
        check("Elapsed", rows["Elapsed"], ((10.0, 10.0, 10.0, 3), (12.0, 12.0, 12.0, 3), "apart"))
        rows = {r[0]: r[3:] for r in rows_of(PARALLELDD_VMSTAT, pdd["vmstat"], True)}
        # DMA32 share per run: zone 300/1000, 100/1000, 200/1000 -> 20 [10-30]; node 5 %.
        check("DMA32 share", rows["DMA32 share (%)"],
              ((20.0, 10.0, 30.0, 3), (5.0, 5.0, 5.0, 3), "zone > node: yes"))
        # Efficiency medians 95 (99, 95, 89) and 96 (95, 96, 97): both >= 90 on the medians.
        check("Kswapd efficiency", rows["Kswapd efficiency"],
              ((95, 89, 99, 3), (96, 95, 97, 3), "both >= 90: yes"))
        check("Swap Outs", rows["Swap Outs"][2], "zone > node: NO")
        rows = {r[0]: r[3:] for r in rows_of(TIOBENCH_VMSTAT, tio["vmstat"], True)}
        # A missing figure (None) is left out: zone 4, 24 -> median 14; node 10, 20, 30 -> 20.
        check("Allocation stalls", rows["Allocation stalls"],
              ((14.0, 4, 24, 2), (20, 10, 30, 3), "node > zone: yes"))
        rows = {r[0]: r[3:] for r in rows_of(TIOBENCH, tio["table"], False)}
        check("SeqRead-1", rows["Min SeqRead-MB/sec-1"],
              ((80.0, 80.0, 80.0, 3), (81.0, 81.0, 81.0, 3), "apart"))
        # One run has no spread to compare with.
        one = gather(dirs[:1], "tiobench", {"table": "tiobench-throughput.json"})
        rows = {r[0]: r[3:] for r in rows_of(TIOBENCH, one["table"], False)}
        check("one run", rows["Min SeqRead-MB/sec-1"][2], "one run")
        check("cell", cell(spread([4.5, 6.0, 5.0])), "5 [4.50-6]")
        check("fmt M", fmt(31.4e6), "31.4 M")
        check("fmt k", fmt(291131), "291131")
        check("fmt 2", fmt(2.357), "2.36")
        quiet = open(os.devnull, "w")
        with contextlib.redirect_stdout(quiet), contextlib.redirect_stderr(quiet):
            check("whole run", main(["x", dirs[0], dirs[1]]), 0)
            check("no run in the folder", main(["x", os.path.join(top, "none")]), 2)
            os.remove(os.path.join(dirs[0], "tiobench", "vmstat-summary.json"))
            check("missing file", main(["x", dirs[0]]), 2)
        quiet.close()
    finally:
        shutil.rmtree(top)
    for f in failed:
        print("iobench-series self-test: " + f, file=sys.stderr)
    print("iobench-series self-test: %s" % ("FAILED" if failed else "ok"))
    return 1 if failed else 0


def main(argv):
    if "--self-test" in argv[1:]:
        return self_test()
    args = [a for a in argv[1:] if a != "--json"]
    if not args or args[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if args else 2
    for d in args:
        if bench_dir(d, "paralleldd") is None and bench_dir(d, "tiobench") is None:
            print("iobench-series: %s holds no paralleldd or tiobench run" % d, file=sys.stderr)
            return 2
    try:
        pdd = gather(args, "paralleldd", {"table": "paralleldd-elapsed.json",
                                          "duration": "paralleldd-duration.json",
                                          "vmstat": "vmstat-summary.json"})
        tio = gather(args, "tiobench", {"table": "tiobench-throughput.json",
                                        "vmstat": "vmstat-summary.json"})
    except (OSError, KeyError, ValueError) as e:
        print("iobench-series: cannot read the runs: %s" % e, file=sys.stderr)
        return 2
    sections = [
        ("paralleldd (s)", PARALLELDD, pdd.get("table", {}), False),
        ("paralleldd duration (s)", PARALLELDD_DURATION, pdd.get("duration", {}), False),
        ("paralleldd vmstat", PARALLELDD_VMSTAT, pdd.get("vmstat", {}), True),
        ("tiobench (MB/s)", TIOBENCH, tio.get("table", {}), False),
        ("tiobench vmstat", TIOBENCH_VMSTAT, tio.get("vmstat", {}), True),
    ]
    if "--json" in argv:
        out = []
        for title, series, values, vm in sections:
            for label, s47, s48, z, n, verdict in rows_of(series, values, vm):
                out.append({"section": title, "row": label, "series": [s47, s48],
                            "zone": z and list(z), "node": n and list(n), "verdict": verdict})
        print(json.dumps(out))
        return 0
    runs = max((len(c) for _, _, v, _ in sections for r in v.values() for c in r.values()),
               default=0)
    print("the node-lru series against the engine: median [lowest-highest] of %d runs" % runs)
    for title, series, values, vm in sections:
        print("\n%-24s %12s %12s %26s %26s   %s" % (title, "series 4.7", "series 4.8",
                                                  "engine 4.7-zone", "engine 4.8-node",
                                                  "series' direction" if vm else "modes"))
        for label, s47, s48, z, n, verdict in rows_of(series, values, vm):
            print("%-24s %12s %12s %26s %26s   %s" % (label, fmt(s47), fmt(s48), cell(z),
                                                      cell(n), verdict))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
