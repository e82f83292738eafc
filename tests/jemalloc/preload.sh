#!/bin/sh
# libnodelru-preload.so under an unmodified program (preload_target): its output equals a run
# on glibc's malloc although its 48 MiB do not fit the engine's 16 MiB, the engine swapped to
# make it fit, and a run killed mid-way leaves no swap file behind.  Exit 77 (skip) where the
# kernel refuses userfaultfd, with the reason.
#
#	preload.sh LIBNODELRU_PRELOAD_SO PRELOAD_TARGET
set -eu
lib=$1
target=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
mkdir "$dir/tmp"

"$target" 48 >"$dir/plain"
status=0
TMPDIR="$dir/tmp" NLRU_NODE_MIB=16 NLRU_PRELOAD_VMSTAT="$dir/vmstat" LD_PRELOAD="$lib" \
  "$target" 48 >"$dir/managed" 2>"$dir/err" || status=$?
if grep -q unmanaged "$dir/err"; then
  echo "SKIP: $(cat "$dir/err")"
  exit 77
fi
if [ "$status" -ne 0 ]; then
  echo "FAIL: the program under the preload exited with $status"
  cat "$dir/err"
  exit 1
fi
if ! cmp -s "$dir/plain" "$dir/managed"; then
  echo "FAIL: the output differs"
  diff "$dir/plain" "$dir/managed" || true
  exit 1
fi
value() { awk -v k="$1" '$1 == k { print $2 }' "$dir/vmstat"; }
for counter in pswpout pgmajfault; do
  if [ "$(value $counter)" -le 0 ]; then
    echo "FAIL: $counter is $(value $counter): the program's heap never left the 16 MiB"
    exit 1
  fi
done
echo "ok: same output; pswpout $(value pswpout), pgmajfault $(value pgmajfault)"

# Killed while it swaps: the swap file was unlinked when it was opened.
TMPDIR="$dir/tmp" NLRU_NODE_MIB=16 LD_PRELOAD="$lib" "$target" 48 >/dev/null 2>&1 &
pid=$!
sleep 0.5
kill -9 "$pid" 2>/dev/null || true
wait "$pid" 2>/dev/null || true
if [ -n "$(ls -A "$dir/tmp")" ]; then
  echo "FAIL: a killed run left $(ls -A "$dir/tmp") behind"
  exit 1
fi
echo "ok: a killed run left nothing in TMPDIR"
