#!/bin/sh
# The micro-benchmarks' options: --help prints the usage and exits 0; an unknown option, a
# missing value or a number out of range is refused with exit 2 and a line that names it,
# before anything runs.  Usage: options.sh PROGRAM...
set -u
fail() { echo "options: $*" >&2; exit 1; }
out=$(mktemp "${TMPDIR:-/tmp}/nlru-options-XXXXXX")
trap 'rm -f "$out"' EXIT

for prog in "$@"; do
  name=$(basename "$prog")
  "$prog" --help >"$out" 2>&1 || fail "$name --help exited $?"
  grep -q "^usage: $name " "$out" || fail "$name --help printed no usage"
  for args in "--bogus 1:--bogus is not an option" "--samples:--samples needs a value" \
      "--samples 0:--samples takes a number from 1" "--samples 3x:not \"3x\""; do
    "$prog" ${args%%:*} >"$out" 2>&1
    rc=$?
    [ $rc -eq 2 ] || fail "$name ${args%%:*} exited $rc, not 2"
    grep -qF -- "${args#*:}" "$out" || fail "$name ${args%%:*} did not say \"${args#*:}\""
  done
done
# A CPU the machine lacks is in range but cannot be run on: refused, not measured unpinned.
for prog in "$@"; do
  name=$(basename "$prog")
  [ "$name" = alloc_free ] && [ "$(nproc --all)" -lt 1024 ] || continue
  "$prog" --cpu 1023 --samples 1 --max-batch 1 >"$out" 2>&1
  rc=$?
  [ $rc -eq 2 ] || fail "$name --cpu 1023 exited $rc, not 2"
  grep -qF "cannot run on CPU 1023" "$out" || fail "$name --cpu 1023 did not name the CPU"
done
echo "options: $# programs checked"
