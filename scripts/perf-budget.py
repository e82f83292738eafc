#!/usr/bin/env python3
"""perf-budget.py - where a filecache copy's CPU time goes, per thread, in ms per copy.

Reads `perf script -F tid,ip,sym` output of a `perf record -g -F HZ` run of
`filecache --only COPY --samples N` built with frame pointers, and sorts each sample of the
copying thread, the flusher and kswapd into: the kernel's read into engine pages (`preadv`),
the kernel's write out of them (`pwritev`), the engine's own copies of page data (samples
whose leaf is one of the copying functions below), and everything else the engine does, by
the API call or thread loop it happened under.  Samples outside the three threads' work (engine
creation, the benchmark's own setup) are left out.

Usage:
  meson setup /tmp/fp --buildtype=release -Dc_args=-fno-omit-frame-pointer && ninja -C /tmp/fp
  perf record -g -F 4000 -o /tmp/copy.data /tmp/fp/bench/filecache --only copy_range --samples 15
  perf script -i /tmp/copy.data -F tid,ip,sym | scripts/perf-budget.py --copies 15 --hz 4000
"""
import argparse
import collections
import sys

COPIERS = {"copy_engine_mbs", "copy_pinned_mbs", "copy_range_mbs"}
THREADS = {"flusher_main": "flusher", "kswapd_main": "kswapd"}
# Functions whose own samples are the copy of page data between engine pages and buffers.
DATA_COPIES = {"nlru_file_pread", "write_whole_pages", "copy_page_nt", "__memmove_avx_unaligned_erms",
               "__memcpy_avx_unaligned_erms", "__memmove_evex_unaligned_erms"}


def stacks(stream):
    """Each sample's frames, leaf first."""
    frames = []
    for line in stream:
        fields = line.split()
        if not fields:
            if frames:
                yield frames
            frames = []
        elif len(fields) >= 2 and not line[0].isspace():
            frames = []  # the sample's header line: its tid
        elif len(fields) >= 2:
            frames.append(fields[1])
    if frames:
        yield frames


def classify(frames):
    """(thread, category) of one sample, or None if it is none of the copy's work."""
    thread = next((THREADS[f] for f in frames if f in THREADS), None)
    if thread is None:
        if not COPIERS.intersection(frames):
            return None
        thread = "copier"
    if "preadv64" in frames:
        return thread, "kernel read (preadv)"
    if "pwritev64" in frames:
        return thread, "kernel write (pwritev)"
    if frames[0] in DATA_COPIES:
        return thread, "engine's data copies"
    # The engine's own work, named by the call it happened under.
    for i, frame in enumerate(frames):
        if frame in COPIERS or frame in THREADS:
            under = frames[i - 1] if i > 0 else frame
            return thread, "engine: " + under
    return thread, "engine: other"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--copies", type=int, required=True, help="copies in the recording")
    parser.add_argument("--hz", type=float, default=4000, help="perf record -F")
    args = parser.parse_args()
    ms = 1000 / args.hz / args.copies
    per_thread = collections.Counter()
    per_category = collections.Counter()
    for frames in stacks(sys.stdin):
        kind = classify(frames)
        if kind:
            per_thread[kind[0]] += 1
            per_category[kind] += 1
    print(f"# CPU ms per copy, {args.copies} copies at {args.hz:.0f} Hz")
    for thread, n in per_thread.most_common():
        print(f"{thread:8} {n * ms:6.1f}")
        for (t, category), m in per_category.most_common():
            if t == thread and m * ms >= 0.1:
                print(f"    {category:40} {m * ms:6.1f}")
    print(f"{'total':8} {sum(per_thread.values()) * ms:6.1f}")


if __name__ == "__main__":
    main()
