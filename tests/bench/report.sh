#!/bin/sh
# The HTML report of a results folder like ./run.sh's: both benchmarks at a tiny size into one
# folder, scripts/report.sh, then the page checked: every chart it shows exists and is not
# empty, and a real headless browser (Debian's chromium) loads it with no broken image and
# takes a screenshot.  Exit 77 (skipped) after the file checks when chromium is not installed
# (./test.sh installs it); without gnuplot the page must say it has no chart.
# Usage: report.sh PAGEALLOC STUTTER NLRU_VMSTAT
set -eu
pagealloc=$1
stutter=$2
vmstat=$3
top=$(cd "$(dirname "$0")/../.." && pwd)
dir=$(mktemp -d "${TMPDIR:-/tmp}/nlru-report-XXXXXX")
trap 'rm -rf "$dir"' EXIT
fail() { echo "report: $*" >&2; exit 1; }

"$pagealloc" --quiet --mib 16 --orders 0-1 --batch-mib 1 --outer 3 --inner 2 \
  --results "$dir/pagealloc" --mmtests-root "$dir" >/dev/null
"$stutter" --quiet --mib 16 --iterations 1 --settle-ms 0 --results "$dir/stutter" \
  --mmtests-root "$dir" >/dev/null
"$top/scripts/report.sh" "$dir" "$vmstat" 2>"$dir/report.log" || fail "report.sh failed: $(cat "$dir/report.log")"
page=$dir/report.html
[ -s "$page" ] || fail "no report.html"
for want in '<h2 id="pagealloc">' '<h2 id="stutter">' 'Ops Write' 'Best1%Mean' \
  'total-odr1-64' 'Kswapd efficiency'; do
  grep -qF "$want" "$page" || fail "report.html has no '$want'"
done

if command -v gnuplot >/dev/null 2>&1; then
  imgs=$(grep -o 'src="charts/[^"]*"' "$page" | sed 's/^src="//; s/"$//')
  n=$(echo "$imgs" | grep -c . || true)
  [ "$n" -ge 5 ] || fail "expected at least 5 charts, found $n"
  for img in $imgs; do
    [ -s "$dir/$img" ] || fail "$img missing or empty"
    head -c 8 "$dir/$img" | od -c | grep -q 'P   N   G' || fail "$img is not a PNG"
    svg=$(echo "$img" | sed 's/\.png$/.svg/')
    grep -q "href=\"$svg\"" "$page" && [ -s "$dir/$svg" ] || fail "$svg not linked or empty"
  done
  echo "report: $n charts, each a PNG linked to its SVG"
else
  grep -q 'gnuplot is not installed' "$page" || fail "no chart and no word why"
  n=0
  echo "report: gnuplot not installed: checked the page says so"
fi

# Without gnuplot: the page still comes, with the tables, no chart and a word why.
mkdir "$dir/nognu"
cp -r "$dir/stutter" "$dir/nognu/"
NLRU_GNUPLOT=/nonexistent/gnuplot "$top/scripts/report.sh" "$dir/nognu" "$vmstat" 2>/dev/null ||
  fail "report.sh failed without gnuplot"
grep -q 'gnuplot is not installed' "$dir/nognu/report.html" && grep -q 'Best1%Mean' "$dir/nognu/report.html" &&
  ! grep -q '<img' "$dir/nognu/report.html" || fail "the page without gnuplot"
echo "report: without gnuplot, the tables and a note"

browser=""
for b in chromium chromium-browser; do
  command -v "$b" >/dev/null 2>&1 && browser=$b && break
done
[ -n "$browser" ] || { echo "report: skipped the browser check: chromium is not installed"; exit 77; }
run_browser() {
  profile=$(mktemp -d "$dir/profile-XXXXXX")
  timeout 120 "$browser" --headless --no-sandbox --disable-gpu --disable-background-networking \
    --disable-component-update --no-first-run --user-data-dir="$profile" \
    --virtual-time-budget=10000 "$@" "file://$page" 2>>"$dir/browser.log"
}
# The page's own script counts the images that did not load into its title.
title=$(run_browser --dump-dom | grep -o '<title>[^<]*</title>') || fail "the browser did not load the page: $(tail -n 3 "$dir/browser.log")"
echo "$title" | grep -q "\[images $n, broken 0\]" || fail "browser: $title (expected $n images, none broken)"
run_browser --window-size=1100,2400 --screenshot="$dir/shot.png" >/dev/null ||
  fail "no screenshot: $(tail -n 3 "$dir/browser.log")"
[ "$(wc -c <"$dir/shot.png")" -gt 20000 ] || fail "the screenshot is too small to show charts"
echo "report: $browser loaded the page ($title), screenshot of $(wc -c <"$dir/shot.png") bytes"
