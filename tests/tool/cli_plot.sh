#!/bin/sh
# plot end to end: a watch recording and a generated stutter log drawn by gnuplot (PNG and SVG),
# and the message when gnuplot is missing.  Exit 77 (skip) when gnuplot is not installed.
set -u
bin=$1
data=$2
tmp=$(mktemp -d /tmp/nlru-vmstat-plot-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "not ok: $*"; exit 1; }

# Build a two-sample recording by hand from two single-sample ones: sample 0 full, sample 1 changed.
{
	echo "time,name,value,delta"
	echo "0.000,@sample,0,"
	sed 's/^\([^ ]*\) \(.*\)$/0.000,\1,\2,/' "$data/vmstat-4.8-before"
	echo "10.000,@sample,1,"
	sed 's/^\([^ ]*\) \(.*\)$/10.000,\1,\2,/' "$data/vmstat-4.8-after"
} >"$tmp/rec2.csv"

# Without gnuplot: data and script are written, exit 3, and the message says what to install.
NLRU_GNUPLOT=/nonexistent/gnuplot "$bin" plot counters "$tmp/rec2.csv" -o "$tmp/nognu" 2>"$tmp/err"
[ $? -eq 3 ] || fail "missing gnuplot must exit 3"
grep -q 'gnuplot-nox' "$tmp/err" || fail "missing gnuplot message: $(cat "$tmp/err")"
[ -s "$tmp/nognu.gp" ] && [ -s "$tmp/nognu.dat" ] || fail "data and script without gnuplot"
echo "ok: message without gnuplot"

# A stutter results folder with a generated log, one latency in ns per line.
mkdir "$tmp/results"
i=1
while [ $i -le 200 ]; do echo $((i * 250000)); i=$((i + 1)); done >"$tmp/results/stutter-latency.log"
"$bin" plot stutter "$tmp/results" --no-run -o "$tmp/st" >"$tmp/stats" || fail "stutter --no-run"
grep -q '^Max         mmap     50.0000$' "$tmp/stats" || fail "stutter stats: $(cat "$tmp/stats")"
echo "ok: stutter statistics"

# With --json or --csv stdout is that document alone; the image paths go to stderr.  A stand-in
# gnuplot that succeeds lets this run without the real one.
printf '#!/bin/sh\nexit 0\n' >"$tmp/fake-gnuplot"
chmod +x "$tmp/fake-gnuplot"
NLRU_GNUPLOT="$tmp/fake-gnuplot" "$bin" plot stutter "$tmp/results" --json -o "$tmp/sj" \
	>"$tmp/sj.out" 2>"$tmp/sj.err" || fail "stutter --json"
[ "$(wc -l <"$tmp/sj.out")" -eq 1 ] && grep -q '^{"unit":"ms",.*}}$' "$tmp/sj.out" ||
	fail "stutter --json stdout is not one JSON document: $(cat "$tmp/sj.out")"
grep -q 'sj.png' "$tmp/sj.err" || fail "stutter --json: image paths not on stderr"
NLRU_GNUPLOT="$tmp/fake-gnuplot" "$bin" plot stutter "$tmp/results" --csv -o "$tmp/sc" \
	>"$tmp/sc.out" 2>/dev/null || fail "stutter --csv"
! grep -v '^[^,]*,[^,]*,[^,]*$' "$tmp/sc.out" || fail "stutter --csv stdout holds other lines"
echo "ok: stutter --json and --csv keep stdout to the document"

# A results folder with two modes (as a benchmark writes it: one folder per column), a
# pagealloc table and a vmstat summary: every column on the same axes.
mkdir -p "$tmp/run/4.7-zone" "$tmp/run/4.8-node"
printf '1000 250000\n1 7000000\n' >"$tmp/run/4.7-zone/mmap-latency.log"
printf '1000 200000\n1 9000000\n' >"$tmp/run/4.8-node/mmap-latency.log"
{
	echo "stat,op,column,value,percent"
	for col in 4.7-zone 4.8-node ref-mmap; do
		for b in 1 2 4; do
			echo "Amean,total-odr0-$b,$col,$((b * 100)).0000,0.00"
			echo "Amean,total-odr1-$b,$col,$((b * 150)).0000,0.00"
			echo "Min,total-odr1-$b,$col,1.0000,0.00"
		done
	done
} >"$tmp/run/pagealloc-cycles.csv"
printf 'row,4.7-zone,4.8-node\nAllocation stalls,10,20\nKswapd efficiency,100,100\n' \
	>"$tmp/run/vmstat-summary.csv"
NLRU_GNUPLOT="$tmp/fake-gnuplot" "$bin" plot stutter "$tmp/run" -o "$tmp/ov" >"$tmp/ov.out" ||
	fail "plot stutter of a results folder"
grep -q '^ *4.7-zone *4.8-node$' "$tmp/ov.out" && grep -q '^Max         mmap      7.0000      9.0000$' "$tmp/ov.out" ||
	fail "overlay statistics: $(cat "$tmp/ov.out")"
[ "$(grep -c "index [01] using 1:2 with steps" "$tmp/ov.gp")" -eq 4 ] ||
	fail "the overlay script does not draw both modes (PNG and SVG): $(cat "$tmp/ov.gp")"
cp "$tmp/rec2.csv" "$tmp/run/4.8-node/counters.csv"
NLRU_GNUPLOT="$tmp/fake-gnuplot" "$bin" plot results "$tmp/run" -o "$tmp/all" >"$tmp/all.out" ||
	fail "plot results"
for chart in stutter pagealloc-order0 pagealloc-order1 summary counters-4.8-node; do
	[ -s "$tmp/all-$chart.dat" ] && [ -s "$tmp/all-$chart.gp" ] || fail "plot results: no $chart"
	grep -q "all-$chart.png" "$tmp/all.out" || fail "plot results: $chart not listed"
done
grep -q '^4 400.0000 400.0000 400.0000$' "$tmp/all-pagealloc-order0.dat" ||
	fail "pagealloc data: $(cat "$tmp/all-pagealloc-order0.dat")"
grep -q '^"Allocation stalls" 10 20$' "$tmp/all-summary.dat" && ! grep -q efficiency "$tmp/all-summary.dat" ||
	fail "summary bars: $(cat "$tmp/all-summary.dat")"
echo "ok: a results folder's columns on the same axes"

command -v gnuplot >/dev/null 2>&1 || { echo "gnuplot not installed: skipping the drawing"; exit 77; }
"$bin" plot counters "$tmp/rec2.csv" -o "$tmp/counters" >"$tmp/out" || fail "plot counters"
for ext in png svg; do
	[ -s "$tmp/counters.$ext" ] || fail "no counters.$ext"
done
head -c 8 "$tmp/counters.png" | od -c | grep -q 'P   N   G' || fail "counters.png is not a PNG"
grep -q '<svg' "$tmp/counters.svg" || fail "counters.svg is not SVG"
echo "ok: counters chart"
"$bin" plot stutter "$tmp/results" -o "$tmp/stutter" >/dev/null || fail "plot stutter"
[ -s "$tmp/stutter.png" ] && [ -s "$tmp/stutter.svg" ] || fail "no stutter charts"
echo "ok: stutter chart"
"$bin" plot results "$tmp/run" -o "$tmp/drawn" >/dev/null || fail "plot results, drawn"
for chart in stutter pagealloc-order0 pagealloc-order1 summary; do
	[ -s "$tmp/drawn-$chart.png" ] && [ -s "$tmp/drawn-$chart.svg" ] || fail "no $chart chart"
done
echo "ok: results charts"
