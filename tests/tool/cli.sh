#!/bin/sh
# Command-line checks of nlru-vmstat: exit codes and messages for good and bad input.
# usage: cli.sh NLRU_VMSTAT DATA_DIR     (prints TAP-less "ok"/"not ok" lines; exit 1 on failure)
set -u
bin=$1
data=$2
tmp=$(mktemp -d /tmp/nlru-vmstat-cli-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fails=0

# expect STATUS GREP_PATTERN(stderr or stdout, '' for none) -- command...
expect() {
	want=$1 pat=$2
	shift 2
	"$@" >"$tmp/out" 2>"$tmp/err"
	got=$?
	if [ "$got" -ne "$want" ]; then
		echo "not ok: exit $got, want $want: $*"; cat "$tmp/err"; fails=$((fails + 1)); return
	fi
	if [ -n "$pat" ] && ! grep -q -- "$pat" "$tmp/out" "$tmp/err"; then
		echo "not ok: no '$pat' in the output of: $*"; cat "$tmp/out" "$tmp/err"
		fails=$((fails + 1)); return
	fi
	echo "ok: $*"
}

: >"$tmp/empty"
printf 'nr_free_pages 1\n\000\001\002' >"$tmp/binary"
printf 'pgfault 10\npgfault oops\nweird_new 3\n' >"$tmp/malformed"

expect 0 'reclaim:' "$bin" show "$data/vmstat-4.8-after"
expect 0 'pgscan_kswapd' "$bin" show --json "$data/vmstat-4.8-after"
expect 0 'name,value,kind' "$bin" show --csv /proc/vmstat
expect 2 'empty file' "$bin" show "$tmp/empty"
expect 2 'binary file' "$bin" show "$tmp/binary"
expect 2 'is a directory' "$bin" show "$tmp"
expect 2 'No such file' "$bin" show "$tmp/missing"
expect 2 'zoneinfo file' "$bin" show "$data/zoneinfo-4.8"
expect 0 'malformed:2: warning' "$bin" show "$tmp/malformed"
expect 0 'weird_new' "$bin" show "$tmp/malformed"
expect 0 'per-sec' "$bin" diff "$data/vmstat-4.8-before" "$data/vmstat-4.8-after" --elapsed 100
expect 0 'went down' "$bin" diff "$data/vmstat-4.8-after" "$data/vmstat-4.8-before"
expect 2 'expected 2 file' "$bin" diff "$data/vmstat-4.8-before"
expect 2 'not a number of seconds' "$bin" diff "$data/vmstat-4.8-before" "$data/vmstat-4.8-after" --elapsed x
expect 2 'empty file' "$bin" diff "$data/vmstat-4.8-before" "$tmp/empty"
expect 0 'Kswapd efficiency                  98%' "$bin" compare \
	"a=$data/vmstat-4.7-before,$data/vmstat-4.7-after,100" \
	"b=$data/vmstat-4.8-before,$data/vmstat-4.8-after,100"
expect 0 'Workingset refaults' "$bin" compare --extended "a=$data/vmstat-6.x-before,$data/vmstat-6.x-after"
expect 0 '"label":"Kswapd velocity"' "$bin" compare --json "a=$data/vmstat-4.7-before,$data/vmstat-4.7-after,100"
expect 0 'Kswapd velocity                200.000' "$bin" compare "mm=$data/tests-timestamp-4.8"
expect 2 'not an mmtests tests-timestamp' "$bin" compare "a=$data/vmstat-4.7-before"
# A benchmark named: the one of that name, or a refusal when the file has none.
expect 0 'Kswapd velocity                200.000' "$bin" compare "mm=$data/tests-timestamp-4.8,stutter"
expect 2 "no benchmark 'pagealloc' in the file" "$bin" compare "mm=$data/tests-timestamp-4.8,pagealloc"
# What run-mmtests.sh writes first: start, arch and numactl lines, then the first test.
{ printf 'start :: 1469499990\narch :: x86_64\navailable: 1 nodes (0)\n'
  sed -n '/^test begin ::/,$p' "$data/tests-timestamp-4.8"; } >"$tmp/ts-real"
expect 0 'Kswapd velocity                200.000' "$bin" compare "mm=$tmp/ts-real"
# SECONDS of 0 (here or in a tests-timestamp's 0.00): compared, velocities '-', one warning.
expect 0 "SECONDS is 0; its velocity rows print '-'" "$bin" compare \
	"a=$data/vmstat-4.8-before,$data/vmstat-4.8-after,0"
expect 0 'Kswapd velocity                      -' "$bin" compare \
	"a=$data/vmstat-4.8-before,$data/vmstat-4.8-after,0"
sed 's/ 100.00 elapsed$/ 0.00 elapsed/' "$data/tests-timestamp-4.8" >"$tmp/ts-zero"
expect 0 'the benchmark took 0.00 s' "$bin" compare "mm=$tmp/ts-zero"
expect 2 'not a number of seconds' "$bin" compare "a=$data/vmstat-4.8-before,$data/vmstat-4.8-after,-1"
expect 2 'NAME=BEFORE,AFTER' "$bin" compare "$data/vmstat-4.7-before"
expect 2 'needs BEFORE,AFTER' "$bin" compare "a=$data/vmstat-4.7-before,"
expect 2 'is a directory' "$bin" compare "a=$tmp,$data/vmstat-4.7-after"
expect 0 'Node 0' "$bin" zoneinfo /proc/zoneinfo
expect 0 'node,zone,free' "$bin" zoneinfo --csv "$data/zoneinfo-4.7"
expect 2 'vmstat dump' "$bin" zoneinfo "$data/vmstat-4.8-after"
# ... and with that one message only, not a warning per line of the dump first.
"$bin" zoneinfo "$data/vmstat-4.8-after" 2>"$tmp/err" >/dev/null
if [ "$(wc -l <"$tmp/err")" -eq 1 ]; then
	echo "ok: zoneinfo on a vmstat dump says so once"
else
	echo "not ok: zoneinfo on a vmstat dump: $(wc -l <"$tmp/err") lines on stderr"
	head -3 "$tmp/err"; fails=$((fails + 1))
fi
expect 2 'binary file' "$bin" zoneinfo "$tmp/binary"
expect 0 '@sample,2,' "$bin" watch --csv --interval 0 --count 2 /proc/vmstat
expect 0 'sample 1 at' "$bin" watch --interval 0 --count 1
expect 2 'whole number' "$bin" watch --count 0
expect 2 'No such file' "$bin" watch --count 1 "$tmp/missing"
# watch runs until interrupted: SIGINT ends it cleanly with status 0.
"$bin" watch --interval 0.05 /proc/vmstat >"$tmp/watch.out" 2>&1 &
pid=$!
# The handler is in place before the first sample is printed; wait (bounded) for the second.
n=0
while ! grep -q 'sample 1 at' "$tmp/watch.out" 2>/dev/null && [ $n -lt 200 ]; do
	sleep 0.05
	n=$((n + 1))
done
kill -INT "$pid"
if wait "$pid" && grep -q 'sample 1 at' "$tmp/watch.out"; then
	echo "ok: watch stops on SIGINT with status 0"
else
	echo "not ok: watch after SIGINT"; cat "$tmp/watch.out"; fails=$((fails + 1))
fi

# Output that cannot be written (a full disk) fails with status 1 and says so, whether it
# fails mid-way (show's ~10 KiB) or only when stdout is closed (--version); watch stops.
if [ -w /dev/full ]; then
	for args in "show $data/vmstat-4.8-after" "--version" "compare mm=$data/tests-timestamp-4.8" \
		"watch --interval 0 $data/vmstat-4.8-after"; do
		# shellcheck disable=SC2086 # $args is split on purpose
		timeout 10 "$bin" $args >/dev/full 2>"$tmp/err"
		got=$?
		if [ "$got" -eq 1 ] && grep -q 'error writing the output' "$tmp/err"; then
			echo "ok: $args > /dev/full"
		else
			echo "not ok: $args > /dev/full: exit $got"; cat "$tmp/err"; fails=$((fails + 1))
		fi
	done
fi

# diskstats: one file, two files over an interval, and what is not a diskstats file.
expect 0 'the layout of Linux 5.5 on, 17 statistics' "$bin" diskstats "$data/diskstats-6.18-after"
expect 0 'name,major,minor,statistics' "$bin" diskstats --csv /proc/diskstats
expect 0 '"r_s":128.5' "$bin" diskstats --json --elapsed 2 \
	"$data/engine-node-diskstats-before" "$data/engine-node-diskstats-after"
expect 0 '%util' "$bin" diskstats "$data/diskstats-6.18-before" "$data/diskstats-6.18-after" \
	--elapsed 1.324795
expect 0 'went down' "$bin" diskstats "$data/diskstats-6.18-after" "$data/diskstats-6.18-before"
expect 0 'no block device' "$bin" diskstats "$tmp/empty"
expect 2 'not a diskstats file' "$bin" diskstats "$data/vmstat-4.8-after"
expect 2 '--elapsed belongs to two files' "$bin" diskstats --elapsed 1 "$data/diskstats-6.18-after"
expect 2 'expected FILE, or BEFORE and AFTER' "$bin" diskstats
expect 2 'binary file' "$bin" diskstats "$tmp/binary"
expect 2 "a diskstats file, not a vmstat dump" "$bin" show "$data/diskstats-6.18-after"

# buddyinfo and pagetypeinfo: show and diff tell them by their first line.
printf 'Node 0, zone      DMA      1      2 \nNode 0, zone   Normal      1    two \n' >"$tmp/bad-buddyinfo"
printf 'Page block order: 9\nNode 0, zone DMA 1\n' >"$tmp/bad-pagetypeinfo"
expect 0 'largest free order 10' "$bin" show "$data/buddyinfo-4.8-before"
expect 0 'pageblocks: Unmovable 310' "$bin" show "$data/pagetypeinfo-4.8-before"
expect 0 '"capped_orders":\[0\]' "$bin" show --json "$data/pagetypeinfo-6.x-capped"
expect 0 'table,node,zone,type,order,count' "$bin" show --csv "$data/real/linux-6.18.44-x86_64.buddyinfo"
expect 0 'Reclaimable     +396' "$bin" diff "$data/pagetypeinfo-4.8-before" "$data/pagetypeinfo-4.8-after"
expect 0 'Node 0, zone Normal: 236883 -> 162180' "$bin" diff "$data/buddyinfo-4.8-before" "$data/buddyinfo-4.8-after"
expect 2 "bad-buddyinfo:2: malformed buddyinfo: 'two' is not a count" "$bin" show "$tmp/bad-buddyinfo"
expect 2 "bad-pagetypeinfo:2: malformed pagetypeinfo: a zone line before any table" "$bin" show "$tmp/bad-pagetypeinfo"
expect 2 'malformed buddyinfo' "$bin" diff "$data/buddyinfo-4.8-before" "$tmp/bad-buddyinfo"
expect 2 'one file is a buddyinfo, the other a pagetypeinfo' "$bin" diff \
	"$data/buddyinfo-4.8-before" "$data/pagetypeinfo-4.8-after"
expect 2 'not a buddyinfo or pagetypeinfo file' "$bin" diff "$data/buddyinfo-4.8-before" \
	"$data/vmstat-4.8-after"
expect 2 '--elapsed has no meaning' "$bin" diff --elapsed 5 "$data/buddyinfo-4.8-before" \
	"$data/buddyinfo-4.8-after"
expect 2 'a buddyinfo or pagetypeinfo file, not a vmstat dump' "$bin" compare \
	"a=$data/buddyinfo-4.8-before,$data/buddyinfo-4.8-after"
expect 2 'not a zoneinfo file' "$bin" zoneinfo "$data/buddyinfo-4.8-before"
expect 0 'largest free order' "$bin" show /proc/buddyinfo
if [ -r /proc/pagetypeinfo ]; then
	expect 0 'pageblocks:' "$bin" show /proc/pagetypeinfo
fi

expect 2 'unknown command' "$bin" frobnicate
expect 0 'usage' "$bin" --help

if [ "$fails" -ne 0 ]; then
	echo "$fails check(s) failed"
	exit 1
fi
