#!/usr/bin/env bash
# The main job of nodelru: installs missing Debian packages, builds into build/, then runs on a
# two-node engine an allocation workload on every node, anonymous memory twice the engine
# through swap, and a file twice the engine copied through its page cache (both verified),
# and prints the engine's /proc/vmstat and /proc/zoneinfo dumps.  Extra arguments go to nlru-workload (--set name=value, --topology).
# Safe to run again; needs no terminal.
set -euo pipefail
cd "$(dirname "$0")"

scripts/ensure-deps.sh
[[ -f build/build.ninja ]] || meson setup build >/dev/null
meson compile -C build >/dev/null

if (($# == 0)); then
  set -- --topology "pack:2 numa:1 core:1 pu:1" --set node_mib=64
fi
exec build/tools/nlru-workload "$@"
