#!/usr/bin/env python3
"""Real programs under a memory budget: sqlite3, python3 and cc1 through libnodelru-preload.so,
against the same programs on glibc's malloc with no budget, and against the kernel's own
reclaim in a memory cgroup of the budget's size.

    scripts/preload-programs.py [--build build] [--runs 3] [--scale 0.3] [--no-cgroup]

For each program: a run on glibc's malloc gives its output, its wall time and its peak
resident set; the budget is half that peak (and an eighth for cc1 too, see below). Then,
each --runs times, in turn: the program on glibc (no budget), through the preload with twice
the peak (the shim's own cost, no pressure), through the preload with the budget (its swap
file in the host's page cache, as an engine's is by default), the same with the swap file's
I/O on the disk itself (NLRU_BLKDEV_DIRECT=1, as the kernel's swap is), and in a memory
cgroup (v1) whose limit is the budget, with a swap file switched on for the cgroup runs
(root only). Every run's output must equal the first; a difference is reported and the
script exits 1, except for the cgroup runs, which the kernel may OOM-kill (their limit
covers the program's code and its own mappings too): those are counted in the table, and
their times left out of its median. Prints a Markdown table of medians (wall seconds, major
faults, and the engine's and the cgroup's swap-ins and swap-outs).

The programs and their workloads are generated here, with fixed seeds:
  sqlite3   an in-memory database: a script that inserts rows of random text, indexes them
            and runs aggregates and sorts (cache_size large, so its page cache is malloc'ed)
  python3   /usr/bin/python3 with PYTHONMALLOC=malloc (its small-object allocator would
            otherwise map its own arenas), building and sorting a large dict of strings
  cc1       gcc's compiler proper on a generated C file of many functions, at -O2 (its
            garbage-collected heap is mmap'ed, not malloc'ed: outside the budget, so half
            its resident set leaves its malloc heap room; a second row gives it an eighth)
"""

import argparse
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time

MIB = 1 << 20


def generate_sql(path, rows):
    import random
    rnd = random.Random(1)
    words = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel",
             "india", "juliett", "kilo", "lima", "mike", "november", "oscar", "papa"]
    with open(path, "w") as f:
        f.write("PRAGMA cache_size = -1000000;\n")
        f.write("CREATE TABLE t (id INTEGER PRIMARY KEY, k INTEGER, name TEXT, body TEXT);\n")
        f.write("BEGIN;\n")
        for i in range(rows):
            name = " ".join(rnd.choice(words) for _ in range(3))
            body = "".join(rnd.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(200))
            f.write(f"INSERT INTO t VALUES ({i}, {rnd.randrange(1000)}, '{name}', '{body}');\n")
        f.write("COMMIT;\n")
        f.write("CREATE INDEX t_name ON t (name, body);\n")
        f.write("SELECT k, count(*), sum(length(body)) FROM t GROUP BY k ORDER BY k LIMIT 20;\n")
        f.write("SELECT name, count(*) FROM t GROUP BY name ORDER BY 2 DESC, 1 LIMIT 20;\n")
        f.write("SELECT id, substr(body, 1, 20) FROM t ORDER BY body LIMIT 20;\n")
        f.write("SELECT count(DISTINCT body) FROM t;\n")


PYTHON_SCRIPT = """
import hashlib, random
rnd = random.Random(2)
d = {}
for i in range(%d):
    d["key%%d-%%d" %% (i, rnd.randrange(10**9))] = [rnd.random() for _ in range(8)]
keys = sorted(d, key=lambda k: (d[k][3], k))
h = hashlib.sha256()
for k in keys[::97]:
    h.update(k.encode())
print(len(d), keys[0], keys[-1], h.hexdigest())
"""


def generate_c(path, functions):
    with open(path, "w") as f:
        f.write("#include <stddef.h>\n")
        for i in range(functions):
            f.write(f"""
static int table{i}[64] = {{ {", ".join(str((i * 7 + j * 13) % 101) for j in range(64))} }};
int f{i}(int x, const int *v, size_t n)
{{
	int s = x;
	for (size_t j = 0; j < n; j++) {{
		s += v[j] * table{i}[j & 63];
		if (s & {1 << (i % 8)})
			s ^= (int)j * {i % 31 + 1};
		else
			s = s * {i % 7 + 3} + table{i}[(j * 5) & 63];
	}}
	switch (s & 7) {{
	case 0: return s + {i};
	case 1: return s - table{i}[3];
	case 2: return s * 3;
	default: return s ^ {i};
	}}
}}
""")


def cc1_path():
    out = subprocess.run(["gcc", "-print-prog-name=cc1"], capture_output=True, text=True)
    path = out.stdout.strip()
    return path if os.path.isabs(path) and os.access(path, os.X_OK) else None


def rusage_of(cmd, env, stdin=None, cgroup=None):
    """Run @cmd (in @cgroup if given), measured alone through wait4(): its output, stderr,
    wall time, peak resident set and exit status."""
    pre = None
    if cgroup:
        def pre():
            with open(os.path.join(cgroup, "cgroup.procs"), "w") as f:
                f.write(str(os.getpid()))
    out_f = tempfile.TemporaryFile()
    err_f = tempfile.TemporaryFile()
    inp = open(stdin, "rb") if stdin else open(os.devnull, "rb")
    t0 = time.monotonic()
    p = subprocess.Popen(cmd, env=env, stdin=inp, stdout=out_f, stderr=err_f, preexec_fn=pre)
    try:
        _, status, usage = os.wait4(p.pid, 0)
    except BaseException:
        p.kill()  # interrupted: the program goes too, so its cgroup can be removed
        p.wait()
        raise
    wall = time.monotonic() - t0
    inp.close()
    out_f.seek(0)
    err_f.seek(0)
    return {"out": out_f.read(), "err": err_f.read().decode(errors="replace"), "wall": wall,
            "rss": usage.ru_maxrss * 1024, "status": os.waitstatus_to_exitcode(status)}


def vmstat(path):
    values = {}
    try:
        with open(path) as f:
            for line in f:
                name, _, value = line.partition(" ")
                values[name] = int(value)
    except OSError:
        pass
    return values


class Cgroup:
    """A memory cgroup (v1) with a limit, and a swap file for its runs."""

    def __init__(self, limit_mib, swap_mib, workdir):
        self.path = None
        self.swap = None
        base = None
        with open("/proc/self/cgroup") as f:
            for line in f:
                parts = line.strip().split(":", 2)
                if parts[1] == "memory":
                    base = "/sys/fs/cgroup/memory" + parts[2]
        if not base or not os.path.isdir(base):
            raise OSError("no memory cgroup (v1) here")
        self.path = os.path.join(base, "nlru-preload-%d" % os.getpid())
        os.mkdir(self.path)
        with open(os.path.join(self.path, "memory.limit_in_bytes"), "w") as f:
            f.write(str(limit_mib * MIB))
        if swap_mib:
            self.swap = os.path.join(workdir, "swapfile")
            subprocess.run(["fallocate", "-l", "%dM" % swap_mib, self.swap], check=True)
            os.chmod(self.swap, 0o600)
            subprocess.run(["mkswap", self.swap], check=True, capture_output=True)
            subprocess.run(["swapon", self.swap], check=True, capture_output=True)

    def majflt(self):
        with open(os.path.join(self.path, "memory.stat")) as f:
            for line in f:
                if line.startswith("pgmajfault "):
                    return int(line.split()[1])
        return 0

    def close(self):
        if self.swap:
            subprocess.run(["swapoff", self.swap], capture_output=True)
            os.unlink(self.swap)
        if self.path:
            os.rmdir(self.path)


def main():
    # A SIGTERM unwinds as an exception, so the cgroup and the swap file are taken down.
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(128 + signum))
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default="build")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--scale", type=float, default=0.3,
                    help="workload size factor (1: sqlite3 113 MiB, python3 354, cc1 332)")
    ap.add_argument("--no-cgroup", action="store_true")
    args = ap.parse_args()

    preload = os.path.abspath(os.path.join(args.build, "jemalloc", "libnodelru-preload.so"))
    if not os.path.exists(preload):
        sys.exit("no %s: build first" % preload)
    work = tempfile.mkdtemp(prefix="nlru-preload-")
    programs = []
    if shutil.which("sqlite3"):
        generate_sql(os.path.join(work, "load.sql"), int(150000 * args.scale))
        programs.append(("sqlite3", ["sqlite3", ":memory:"], os.path.join(work, "load.sql"), {},
                         0.5))
    else:
        print("sqlite3: not installed (apt-get install sqlite3); left out", file=sys.stderr)
    with open(os.path.join(work, "dict.py"), "w") as f:
        f.write(PYTHON_SCRIPT % int(600000 * args.scale))
    programs.append(("python3", ["/usr/bin/python3", os.path.join(work, "dict.py")], None,
                     {"PYTHONMALLOC": "malloc"}, 0.5))
    cc1 = cc1_path()
    if cc1:
        generate_c(os.path.join(work, "big.c"), int(4000 * args.scale))
        cc1_cmd = [cc1, "-quiet", "-O2", os.path.join(work, "big.c"), "-o", "-"]
        programs.append(("cc1", cc1_cmd, None, {}, 0.5))
        # Its malloc heap is a small part of its resident set: a budget that binds too.
        programs.append(("cc1, budget 1/8", cc1_cmd, None, {}, 0.125))
    else:
        print("cc1: gcc -print-prog-name=cc1 found none; left out", file=sys.stderr)

    rows = []
    failed = False
    try:
        for name, cmd, stdin, extra, fraction in programs:
            env = dict(os.environ, **extra)
            for k in [k for k in env if k.startswith("NLRU_")] + ["LD_PRELOAD"]:
                env.pop(k, None)
            first = rusage_of(cmd, env, stdin)
            if first["status"]:
                sys.exit("%s failed on glibc: %s" % (name, first["err"]))
            budget = max(4, (int(first["rss"] * fraction) + MIB - 1) // MIB)
            roomy = max(4, 2 * ((first["rss"] + MIB - 1) // MIB))
            cg = None
            if not args.no_cgroup:
                try:
                    cg = Cgroup(budget, 4 * budget, work)
                except (OSError, subprocess.CalledProcessError) as e:
                    print("%s: cgroup anchor left out: %s" % (name, e), file=sys.stderr)
            results = {k: [] for k in ("glibc", "roomy", "budget", "disk", "cgroup")}
            try:
                for _ in range(args.runs):
                    results["glibc"].append(rusage_of(cmd, env, stdin))
                    for kind, mib, direct in (("roomy", roomy, "0"), ("budget", budget, "0"),
                                              ("disk", budget, "1")):
                        stat = os.path.join(work, "vmstat-%s" % kind)
                        r = rusage_of(cmd, dict(env, LD_PRELOAD=preload, NLRU_NODE_MIB=str(mib),
                                                NLRU_BLKDEV_DIRECT=direct,
                                                NLRU_PRELOAD_VMSTAT=stat), stdin)
                        r["vmstat"] = vmstat(stat)
                        results[kind].append(r)
                    if cg:
                        # The cgroup's swap file is the machine's only one: the global
                        # swap counters are the cgroup's.
                        before, swap_before = cg.majflt(), vmstat("/proc/vmstat")
                        r = rusage_of(cmd, env, stdin, cgroup=cg.path)
                        swap_after = vmstat("/proc/vmstat")
                        r["cg_majflt"] = cg.majflt() - before
                        r["vmstat"] = {k: swap_after.get(k, 0) - swap_before.get(k, 0)
                                       for k in ("pswpin", "pswpout")}
                        results["cgroup"].append(r)
            finally:
                if cg:
                    cg.close()
            for kind, rs in results.items():
                for r in rs:
                    if r["status"] or r["out"] != first["out"]:
                        # The anchor may be OOM-killed: its limit covers the whole program.
                        failed |= kind != "cgroup"
                        print("%s %s: exit %d, output %s\n%s" % (
                            name, kind, r["status"],
                            "same" if r["out"] == first["out"] else "DIFFERENT",
                            r["err"][-2000:]), file=sys.stderr)
            rows.append((name, first, budget, roomy, results))
    finally:
        shutil.rmtree(work, ignore_errors=True)

    med = statistics.median
    print("| program | peak RSS MiB | budget MiB | glibc s | preload, 2x peak s | preload, budget s "
          "| preload, budget, swap on disk s | cgroup, budget s | swap-ins / swap-outs: engine "
          "| swap-ins / swap-outs: cgroup | major faults: preload / cgroup "
          "| same output under the preload |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |")
    for name, first, budget, roomy, res in rows:
        def wall(kind):
            if not res[kind]:
                return "-"
            done = [r["wall"] for r in res[kind] if not r["status"]]
            return "%.2f" % med(done) if done else "killed"
        b = res["budget"]
        swin = med(r["vmstat"].get("pswpin", 0) for r in b)
        swout = med(r["vmstat"].get("pswpout", 0) for r in b)
        maj = med(r["vmstat"].get("pgmajfault", 0) for r in b)
        cg = res["cgroup"]
        cgmaj = "%d" % med(r["cg_majflt"] for r in cg) if cg else "-"
        cgswap = "%d / %d" % (med(r["vmstat"]["pswpin"] for r in cg),
                              med(r["vmstat"]["pswpout"] for r in cg)) if cg else "-"
        same = all(r["out"] == first["out"] and not r["status"]
                   for kind in ("glibc", "roomy", "budget", "disk") for r in res[kind])
        killed = sum(1 for r in cg if r["status"])
        if killed:
            cgmaj += " (%d of %d killed)" % (killed, len(cg))
        print("| %s | %.0f | %d | %s | %s | %s | %s | %s | %d / %d | %s | %d / %s | %s |" % (
            name, first["rss"] / MIB, budget, wall("glibc"), wall("roomy"), wall("budget"),
            wall("disk"), wall("cgroup"), swin, swout, cgswap, maj, cgmaj,
            "yes" if same else "NO"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
