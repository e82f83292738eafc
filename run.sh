#!/usr/bin/env bash
# The main job of nodelru: installs missing Debian packages, builds into build/, then runs the
# mmtests benchmarks pagealloc and stutter on the engine in zone mode (Linux 4.7) and node
# mode (Linux 4.8), prints mmtests' comparison tables (zone mode the baseline) with the vmstat
# summary under each, and keeps everything in a results folder, with report.html (the tables
# and charts of both modes) and mmtests' own results layout.  About a minute and a half on 2
# cores.
# Safe to run again; needs no terminal.  ./run.sh --help lists the options; the former main
# job (nlru-workload: allocation, swap and page cache workloads, verified) is ./run.sh --workload.
set -euo pipefail
cd "$(dirname "$0")"

usage() {
  cat <<'EOF'
usage: ./run.sh [options]
  --bench LIST       benchmarks, comma-separated: pagealloc,stutter,paralleldd,tiobench,
                     highalloc (default pagealloc,stutter; paralleldd, tiobench and highalloc
                     take about two minutes each)
  --modes LIST       reclaim modes, the first is the baseline column (default zone,node)
  --mib N            memory per node of every engine, MiB (default 128)
  --topology T       hwloc synthetic topology, e.g. "pack:2 numa:1 core:1 pu:1" (default: the
                     machine's own)
  --set NAME=VALUE   an engine tunable for every engine (repeatable; see build/tools/nlru-tunables)
  --iterations N     stutter: hog + copy rounds per mode (default 5)
  --io-iterations N  paralleldd and tiobench: runs of each thread count (default 3)
  --max-threads N    paralleldd and tiobench: the most threads (default 16, the series')
  --engine-scale     stutter, paralleldd and tiobench at the engine's own scale, not the
                     node-lru series' time scale (docs/benchmarks.md, "The scale rule")
  --outer N          pagealloc: samples per order and batch (default 15)
  --sample-pages N   pagealloc: pages one sample allocates at the least (default 16384)
  --exact            pagealloc with mmtests' own counts (10000 inner iterations: hours here)
  --results DIR      results folder (default results/<date>-<time>)
  --workload [ARGS]  run the former main job, nlru-workload, with ARGS instead
  -h, --help         this text
EOF
}

scripts/ensure-deps.sh
[[ -f build/build.ninja ]] || meson setup build >/dev/null
meson compile -C build >/dev/null

if [[ ${1:-} == --workload ]]; then
  shift
  (($# == 0)) && set -- --topology "pack:2 numa:1 core:1 pu:1" --set node_mib=64
  exec build/tools/nlru-workload "$@"
fi

benches=pagealloc,stutter
results=""
common=() pagealloc_opts=() stutter_opts=() io_opts=()
while (($#)); do
  case $1 in
  -h | --help) usage; exit 0 ;;
  --exact) pagealloc_opts+=(--exact); shift; continue ;;
  --engine-scale) stutter_opts+=(--engine-scale) io_opts+=(--engine-scale); shift; continue ;;
  --bench | --modes | --mib | --topology | --set | --iterations | --outer | --sample-pages | \
    --results | --io-iterations | --max-threads)
    (($# >= 2)) || { echo "run.sh: $1 needs a value" >&2; exit 2; } ;;
  *) echo "run.sh: unknown option '$1'" >&2; usage >&2; exit 2 ;;
  esac
  case $1 in
  --bench) benches=$2 ;;
  --results) results=$2 ;;
  --mib | --modes | --topology | --set) common+=("$1" "$2") ;;
  --iterations) stutter_opts+=("$1" "$2") ;;
  --io-iterations) io_opts+=(--iterations "$2") ;;
  --max-threads) io_opts+=("$1" "$2") ;;
  --outer | --sample-pages) pagealloc_opts+=("$1" "$2") ;;
  esac
  shift 2
done
[[ -n $results ]] || results=results/$(date +%Y%m%d-%H%M%S)
mkdir -p "$results"

# The report goes to the terminal and to report.txt; the programs' progress lines to stderr.
run_bench() {
  local name=$1
  shift
  echo "== $name" >&2
  "build/bench/$name" "${common[@]}" --results "$results/$name" --mmtests-root "$results" "$@" |
    tee -a "$results/report.txt"
  echo | tee -a "$results/report.txt"
}

: >"$results/report.txt"
IFS=, read -ra list <<<"$benches"
for b in "${list[@]}"; do
  case $b in
  pagealloc) run_bench pagealloc "${pagealloc_opts[@]}" ;;
  stutter)
    run_bench stutter "${stutter_opts[@]}"
    scripts/series-table.py "$results/stutter" | tee -a "$results/report.txt"
    ;;
  paralleldd | tiobench) run_bench "$b" "${io_opts[@]}" ;;
  highalloc) run_bench highalloc ;;
  *) echo "run.sh: unknown benchmark '$b'" >&2; exit 2 ;;
  esac
done
# The page of the run: its tables and charts (scripts/report.sh says what it skipped).
scripts/report.sh "$results" build/tools/vmstat/nlru-vmstat ||
  echo "run.sh: report.html not written" >&2
echo "results: $results (report.html: the tables and charts)" >&2
