#!/usr/bin/env bash
# Writes RESULTS/report.html: a page of a benchmark results folder (./run.sh's, or one
# benchmark program's --results folder) with its comparison tables and charts that put every
# column (reclaim mode, reference allocator) on the same axes, drawn by
# `nlru-vmstat plot results` into RESULTS/charts/ as PNG (shown) and SVG (linked).
# Without gnuplot the page holds the tables and says why it has no chart; it never fails the
# run for that.  Usage: scripts/report.sh RESULTS [NLRU_VMSTAT]
set -euo pipefail
dir=${1:?usage: scripts/report.sh RESULTS [NLRU_VMSTAT]}
tool=${2:-$(dirname "$0")/../build/tools/vmstat/nlru-vmstat}
[[ -d $dir ]] || { echo "report: $dir is not a folder" >&2; exit 2; }

html() { sed -e 's/&/\&amp;/g' -e 's/</\&lt;/g' -e 's/>/\&gt;/g'; }

# The benchmarks' folders: ./run.sh's pagealloc/, stutter/, paralleldd/ and tiobench/, or the
# folder itself.
benches=()
for b in pagealloc stutter paralleldd tiobench; do
  [[ -f $dir/$b/run.json ]] && benches+=("$b:$b/")
done
if ((${#benches[@]} == 0)) && [[ -f $dir/run.json ]]; then
  b=$(sed -n 's/.*"benchmark":"\([a-z]*\)".*/\1/p' "$dir/run.json")
  benches+=("$b:")
fi

charts=$dir/charts
skipped=""
rm -rf "$charts"
mkdir -p "$charts"
# The gnuplot nlru-vmstat runs: $NLRU_GNUPLOT when set, else the first on PATH.
if { [[ -n ${NLRU_GNUPLOT:-} ]] && [[ ! -x $NLRU_GNUPLOT ]]; } ||
  { [[ -z ${NLRU_GNUPLOT:-} ]] && ! command -v gnuplot >/dev/null 2>&1; }; then
  skipped="no charts: gnuplot is not installed (Debian package gnuplot-nox)"
elif ! "$tool" plot results "$dir" -o "$charts/chart" >"$charts/images.txt" 2>"$charts/plot.log"; then
  skipped="no charts: nlru-vmstat plot failed ($(tail -n 1 "$charts/plot.log" | html))"
fi

# <img> of charts/chart-<name>.png linked to its SVG, when it was drawn.
chart() {
  local name=$1 alt=$2
  [[ -s $charts/chart-$name.png ]] || return 0
  printf '<figure><a href="charts/chart-%s.svg"><img src="charts/chart-%s.png" alt="%s" width="900"></a><figcaption>%s</figcaption></figure>\n' \
    "$name" "$name" "$alt" "$alt"
}

# A table file as preformatted text, in a <details> that is open unless it is long.
table() {
  local file=$1 title=$2 open=open
  [[ -s $dir/$file ]] || return 0
  (($(wc -l <"$dir/$file") > 100)) && open=""
  printf '<details %s><summary>%s <small>(%s)</small></summary>\n<pre>' "$open" "$title" "$file"
  html <"$dir/$file"
  printf '</pre></details>\n'
}

{
  cat <<'HEAD'
<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>nodelru benchmarks: zone mode (4.7) against node mode (4.8)</title>
<style>
body { font-family: sans-serif; margin: 2em; max-width: 1000px; }
pre { font-size: 12px; background: #f6f6f6; padding: 0.5em; overflow-x: auto; }
figure { margin: 1em 0; } img { max-width: 100%; border: 1px solid #ddd; }
summary { cursor: pointer; font-weight: bold; } .note { color: #a40; }
</style></head><body>
<h1>nodelru benchmarks: zone mode (4.7) against node mode (4.8)</h1>
HEAD
  printf '<p>Results folder <code>%s</code>, page written %s. The tables are mmtests&apos; (zone mode the baseline column; a positive percentage is better than the baseline, but in the write-speed and throughput tables, which mmtests compares the other way); the folder is also in mmtests&apos; own results layout.</p>\n' \
    "$(basename "$(cd "$dir" && pwd)" | html)" "$(date '+%Y-%m-%d %H:%M')"
  [[ -n $skipped ]] && printf '<p class="note">%s</p>\n' "$skipped"
  [[ -s $dir/report.txt ]] && printf '<p><a href="report.txt">report.txt</a>: everything the run printed.</p>\n'
  for entry in "${benches[@]}"; do
    b=${entry%%:*} p=${entry#*:}
    printf '<h2 id="%s">%s</h2>\n' "$b" "$b"
    case $b in
    pagealloc)
      for o in 0 1 2 3 4 5 6 7 8 9 10; do
        chart "pagealloc-order$o" "pagealloc order $o: TSC cycles per page (alloc + free, Amean) against the batch size, every column"
      done
      table "${p}pagealloc-cycles.txt" "pagealloc, TSC cycles per page"
      table "${p}vmstat-summary.txt" "pagealloc vmstat summary"
      chart "summary-pagealloc" "pagealloc vmstat summary, reclaim and allocation rows" ;;
    stutter)
      chart "stutter" "stutter: distribution of the mmap latency, every mode (log scale)"
      table "${p}stutter-latency.txt" "stutter, mmap latency (ms)"
      table "${p}stutter-write-speed.txt" "stutter estimated write speed (MB/s)"
      table "${p}stutter-throughput.txt" "stutter parallel write throughput (MB/s)"
      table "${p}vmstat-summary.txt" "stutter vmstat summary"
      chart "summary-stutter" "stutter vmstat summary, reclaim and allocation rows" ;;
    paralleldd)
      table "${p}paralleldd-elapsed.txt" "paralleldd, elapsed seconds of each dd"
      table "${p}paralleldd-duration.txt" "paralleldd duration"
      table "${p}vmstat-summary.txt" "paralleldd vmstat summary"
      chart "summary-paralleldd" "paralleldd vmstat summary, reclaim and allocation rows" ;;
    tiobench)
      table "${p}tiobench-throughput.txt" "tiobench throughput (MB/s)"
      table "${p}tiobench-duration.txt" "tiobench duration"
      table "${p}vmstat-summary.txt" "tiobench vmstat summary"
      chart "summary-tiobench" "tiobench vmstat summary, reclaim and allocation rows" ;;
    esac
  done
  # A single benchmark's folder: its summary chart has no benchmark suffix.
  chart "summary" "vmstat summary, reclaim and allocation rows"
  # Counters over time, from the columns whose folder holds a recording (counters.csv).
  for png in "$charts"/chart-counters-*.png; do
    [[ -s $png ]] || continue
    name=${png##*/chart-}
    name=${name%.png}
    [[ -n ${counters_head:-} ]] || { printf '<h2 id="counters">counters over time</h2>\n'; counters_head=1; }
    chart "$name" "${name#counters-}: counters over time (events as rates, levels as values)"
  done
  cat <<'TAIL'
<script>
/* Counts the charts that did not load: the page's title ends with it (a check reads it). */
window.addEventListener("load", function () {
  var broken = 0;
  for (var i = 0; i < document.images.length; i++)
    if (!document.images[i].complete || document.images[i].naturalWidth === 0) broken++;
  document.title += " [images " + document.images.length + ", broken " + broken + "]";
});
</script>
</body></html>
TAIL
} >"$dir/report.html"
echo "report: $dir/report.html${skipped:+ ($skipped)}" >&2
