#!/bin/sh
# Smoke run of one benchmark at a tiny size: it must finish, print its tables and fill its
# results folder, with each mode's dumps in that mode's layout and mmtests' results layout
# beside them (data/mmtests-layout.txt), read back by nlru-vmstat.  No figure is checked: the
# machine may be busy.  Usage: smoke.sh PROGRAM pagealloc|stutter|paralleldd|tiobench|highalloc
# NLRU_VMSTAT
set -eu
prog=$1
bench=$2
vmstat=$3
layout=$(dirname "$0")/data/mmtests-layout.txt
dir=$(mktemp -d "${TMPDIR:-/tmp}/nlru-smoke-XXXXXX")
trap 'rm -rf "$dir"' EXIT
fail() { echo "smoke $bench: $*" >&2; exit 1; }

case $bench in
pagealloc)
  "$prog" --quiet --mib 16 --orders 0-1 --batch-mib 1 --outer 3 --inner 2 --results "$dir" \
    >"$dir/out.txt"
  rows='^Min      alloc-odr0-1 ^Amean    total-odr1-64 ^Max      free-odr1-1 ^DMA32.allocs
        ^Normal.allocs ^Movable.allocs'
  files='pagealloc-cycles.txt pagealloc-cycles.csv pagealloc-ns.json samples.csv run.json
         ref-jemalloc/pagealloc.log ref-mmap/pagealloc.log 4.7-zone/pagealloc.log' ;;
stutter)
  "$prog" --quiet --mib 16 --iterations 1 --settle-ms 0 --results "$dir" >"$dir/out.txt"
  rows='^Min.........mmap ^Best1%Mean..mmap ^Ops.Write ^Hmean....tput ^Allocation.stalls
        ^Kswapd.efficiency ^Slabs.scanned'
  files='stutter-latency.txt stutter-latency.json stutter-write-speed.csv
         stutter-throughput.json iterations.csv run.json 4.7-zone/mmap-latency.log
         4.8-node/mmap-latency.log' ;;
paralleldd)
  # On the series' time scale, so with the block device model: 16 MiB files read by 1 and 3
  # readers in 64 KiB reads.
  "$prog" --quiet --mib 8 --max-threads 3 --iterations 1 --block 65536 --results "$dir" \
    >"$dir/out.txt"
  rows='^Amean....Elapsd-1 ^Max......Elapsd-3 ^User ^System ^Elapsed ^Kswapd.efficiency
        ^DMA32.allocs ^Sector.Reads'
  files='paralleldd-elapsed.txt paralleldd-elapsed.json paralleldd-duration.csv instances.csv
         run.json 4.7-zone/time-3-3-1 4.8-node/log-1-1-1' ;;
tiobench)
  # A --set overrides the scale's tunable of the same name, and the header says so.
  "$prog" --quiet --mib 8 --max-threads 2 --iterations 1 --size-mib 8 --random 200 \
    --set blkdev_mbs=400 --results "$dir" >"$dir/out.txt"
  grep -q "^tiobench on the node-lru series' time scale: .*, then --set blkdev_mbs=400\$" \
    "$dir/out.txt" || fail "the scale line does not name the --set tunables"
  rows='^Min......PotentialReadSpeed ^Hmean....SeqRead-MB/sec-1 ^Max......RandWrite-MB/sec-2
        ^User ^Elapsed ^Kswapd.efficiency ^Normal.allocs ^Sector.Writes'
  files='tiobench-throughput.txt tiobench-throughput.csv tiobench-duration.json run.json
         4.7-zone/disk-read.speed 4.8-node/tiobench-2-1.log' ;;
highalloc)
  # Order 4 with no pause: a few hundred attempts on an 8 MiB engine.
  "$prog" --quiet --mib 8 --order 4 --delay-ms 0 --results "$dir" >"$dir/out.txt"
  rows='^Success.1 ^Success.3 ^Amean....latency-2 ^Max......latency-3 ^compact_stall-1
        ^pgmigrate_success ^Allocation.stalls'
  files='highalloc-success.txt highalloc-success.json highalloc-latency.csv
         highalloc-compaction.txt run.json 4.7-zone/log.txt 4.8-nocompact/log.txt
         4.7-nocompact/vmstat-after'
  # Compaction 0: no compaction counter moves in its columns.
  awk '/^compact_|^pgmigrate_success/ && ($4 != 0 || $5 != 0) { bad = 1 } END { exit bad }'     "$dir/out.txt" || fail "a compaction counter moved with compaction 0" ;;
*) fail "unknown benchmark" ;;
esac
"$prog" --help | grep -q "^usage: $bench" || fail "--help printed no usage on stdout"

for r in $rows; do
  grep -q "$r" "$dir/out.txt" || fail "no row matching '$r' in the output"
done
for f in $files vmstat-summary.txt vmstat-summary.csv vmstat-summary.json \
    4.7-zone/vmstat-before 4.7-zone/vmstat-after 4.8-node/zoneinfo-before 4.8-node/zoneinfo-after \
    4.7-zone/buddyinfo-before 4.8-node/buddyinfo-after 4.7-zone/pagetypeinfo-after \
    4.8-node/pagetypeinfo-before; do
  [ -s "$dir/$f" ] || fail "$f missing or empty"
done
# The device's dumps: empty when the engine runs without the block device.
for f in 4.7-zone/diskstats-before 4.7-zone/diskstats-after 4.8-node/diskstats-before \
    4.8-node/diskstats-after; do
  [ -f "$dir/$f" ] || fail "$f missing"
done
# The tool reads the free-list dumps of both modes.
for col in 4.7-zone 4.8-node; do
  "$vmstat" show "$dir/$col/pagetypeinfo-after" >/dev/null || fail "$col/pagetypeinfo-after unreadable"
  "$vmstat" diff "$dir/$col/buddyinfo-before" "$dir/$col/buddyinfo-after" >/dev/null ||
    fail "$col/buddyinfo-before/-after cannot be diffed"
done
# Zone mode dumps Linux 4.7's names, node mode 4.8's.
grep -q '^pgscan_kswapd_normal ' "$dir/4.7-zone/vmstat-after" || fail "zone mode dump is not 4.7's"
grep -q '^pgscan_kswapd ' "$dir/4.8-node/vmstat-after" || fail "node mode dump is not 4.8's"
# mmtests' layout: every file its scripts read, in the form they read it.
grep "^$bench " "$layout" | while read -r _ path regex; do
  for col in 4.7-zone 4.8-node; do
    f=$dir/$(echo "$path" | sed "s/COL/$col/")
    [ -s "$f" ] || fail "mmtests layout: $f missing or empty"
    grep -Eq -- "$regex" "$f" || fail "mmtests layout: no line of $f matches '$regex'"
  done
done
[ -L "$dir/$bench-4.7-zone/noprofile" ] || fail "$bench-4.7-zone/noprofile is not a symlink"
# Read back with the project's own parser: the same vmstat summary as the run printed
# (highalloc has a column per mode with compaction off too).
set -- "4.7-zone=$dir/tests-timestamp-4.7-zone,$bench" "4.8-node=$dir/tests-timestamp-4.8-node,$bench"
if [ "$bench" = highalloc ]; then
  set -- "$@" "4.7-nocompact=$dir/tests-timestamp-4.7-nocompact,$bench" \
    "4.8-nocompact=$dir/tests-timestamp-4.8-nocompact,$bench"
fi
"$vmstat" compare "$@" >"$dir/readback.txt" ||
  fail "nlru-vmstat could not read the tests-timestamp files back"
diff -u "$dir/vmstat-summary.txt" "$dir/readback.txt" >&2 ||
  fail "the tests-timestamp files give another vmstat summary than the run's"

# A run too short for the probe to finish a group, logged as mmtests logs (the open group
# dropped), has no latency sample: its column prints "-" and the other tables still come.
if [ "$bench" = stutter ]; then
  # On the series' time scale by default (the block device model on), with its rows beside
  # the series' own; --engine-scale runs the engine's own tunables and says so.
  grep -q "^stutter on the node-lru series' time scale: .*blkdev_mbs=" "$dir/out.txt" ||
    fail "the default run does not say it ran on the series' time scale"
  "$(dirname "$0")/../../scripts/series-table.py" "$dir" >"$dir/series.txt" ||
    fail "series-table.py could not read the run"
  for r in '^Allocation.stalls' '^Page.writes.by.reclaim' '^Max.latency'; do
    grep -q "$r" "$dir/series.txt" || fail "series table: no row matching '$r'"
  done
  "$prog" --quiet --mib 16 --iterations 1 --settle-ms 0 --drop-open-group --probe-pages 16 \
    --engine-scale --results "$dir/short" >"$dir/short.txt" 2>/dev/null ||
    fail "a short run failed"
  grep -q "^stutter at the engine's own scale" "$dir/short.txt" ||
    fail "--engine-scale does not say so"
  for r in '^Min.........mmap' '^Ops.Write' '^Allocation.stalls'; do
    grep -q "$r" "$dir/short.txt" || fail "short run: no row matching '$r'"
  done
fi
# The I/O benchmarks run on the series' time scale, with the block device on, unless told.
case $bench in
paralleldd | tiobench)
  grep -q "^$bench on the node-lru series' time scale: .*blkdev_mbs=" "$dir/out.txt" ||
    fail "the default run does not say it ran on the series' time scale"
  [ -s "$dir/4.8-node/diskstats-after" ] || fail "no block device in the default run"
  # The run's rows beside the series' own.
  "$(dirname "$0")/../../scripts/iobench-series.py" "$dir" >"$dir/series.txt" ||
    fail "iobench-series.py could not read the run"
  for r in '^Kswapd.efficiency .* both >= 90' '^Allocation.stalls'; do
    grep -q "$r" "$dir/series.txt" || fail "series table: no row matching '$r'"
  done ;;
esac
# With the block device model the device's dumps count its requests, and nlru-vmstat reads
# them as iostat does.
if [ "$bench" = stutter ]; then
  "$prog" --quiet --mib 16 --iterations 1 --settle-ms 0 --modes node --set blkdev_mbs=400 \
    --results "$dir/device" >/dev/null || fail "a run with the block device failed"
  "$vmstat" diskstats "$dir/device/4.8-node/diskstats-before" \
    "$dir/device/4.8-node/diskstats-after" >"$dir/device.txt" ||
    fail "nlru-vmstat could not read the diskstats dumps"
  grep -q '^nlru0 ' "$dir/device.txt" || fail "no I/O of the device nlru0 in the diskstats dumps"
fi
echo "smoke $bench: ok"
