#!/usr/bin/env bash
# Runs all of nodelru's tests: installs missing Debian packages, builds into build/, runs
# every suite (unit, slow, stress), then the engine suites again in zone mode (NLRU_MODE=zone),
# and prints one "N passed, N failed" line.
# Safe to run again; needs no terminal.  With CI=true, warnings are errors.
set -euo pipefail
cd "$(dirname "$0")"

scripts/ensure-deps.sh --tests

werror=false
[[ ${CI:-} == true ]] && werror=true
if [[ -f build/build.ninja ]]; then
  meson setup --reconfigure build -Dwerror=$werror >/dev/null
else
  meson setup build -Dwerror=$werror >/dev/null
fi
meson compile -C build
rm -f build/meson-logs/testlog*.json
status=0
meson test -C build --setup full --print-errorlogs </dev/null || status=$?
meson test -C build --setup zone --print-errorlogs </dev/null || status=$?
python3 scripts/count-tests.py build/meson-logs/testlog*.json || status=1
exit $status
