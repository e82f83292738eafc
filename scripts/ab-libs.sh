#!/usr/bin/env bash
# ab-libs.sh - is a change faster?  Runs one benchmark command against two builds of
# libnodelru in turn (old, new, old, new, ...), so that the VM's drifts in speed hit both
# alike, and prints each build's median, their ratio and how many rounds the new one won.
# The command must print its figure (higher is better) as the last field of its last line,
# as `filecache --only` does.  The builds are picked with LD_LIBRARY_PATH, which outranks
# the programs' RUNPATH.
#
# Usage: scripts/ab-libs.sh OLD_LIBDIR NEW_LIBDIR ROUNDS -- COMMAND [ARGS...]
# Example, the working tree against HEAD:
#   git worktree add /tmp/ab-old HEAD && meson setup /tmp/ab-old/b /tmp/ab-old --buildtype=release
#   ninja -C /tmp/ab-old/b && ninja -C build-rel
#   scripts/ab-libs.sh /tmp/ab-old/b/src build-rel/src 10 -- \
#     build-rel/bench/filecache --only copy_range --samples 3
set -euo pipefail

if [[ $# -lt 5 || $4 != -- ]]; then
  sed -n '2,15p' "$0" >&2
  exit 2
fi
old=$(realpath "$1") new=$(realpath "$2") rounds=$3
shift 4
for dir in "$old" "$new"; do
  if ! compgen -G "$dir/libnodelru.so*" >/dev/null; then
    echo "ab-libs.sh: no libnodelru.so in $dir" >&2
    exit 2
  fi
done

figure() { LD_LIBRARY_PATH="$1" "${@:2}" | tail -n 1 | awk '{print $NF}'; }

for ((r = 1; r <= rounds; r++)); do
  a=$(figure "$old" "$@")
  b=$(figure "$new" "$@")
  echo "round $r: old $a new $b" >&2
  echo "$a $b"
done | python3 -c '
import statistics, sys
pairs = [tuple(map(float, line.split())) for line in sys.stdin]
old = statistics.median(p[0] for p in pairs)
new = statistics.median(p[1] for p in pairs)
wins = sum(b > a for a, b in pairs)
print("old median %.0f  new median %.0f  new/old %.3f  new won %d of %d rounds"
      % (old, new, new / old, wins, len(pairs)))'
