#!/usr/bin/env bash
# Installs the Debian packages nodelru needs, only those missing, without asking anything.
# Safe to run again; used by ./run.sh and, with --tests (the packages only tests need as
# well), by ./test.sh.
set -euo pipefail

packages=(
  gcc meson ninja-build pkg-config python3
  libhwloc-dev libnuma-dev       # topology and node memory (the library)
  libcriterion-dev               # unit tests
  libjemalloc-dev                # benchmark peer and the embedding library, never the core
  gnuplot-nox                    # nlru-vmstat plot
  clang libclang-rt-14-dev       # the libFuzzer target of the vmstat parser
  clang-format                   # tests/style: the format check (Debian 12's is version 14)
)
if [[ ${1:-} == --tests ]]; then
  # The headless browser that loads the benchmarks' HTML report (tests/bench/report.sh).
  packages+=(chromium)
fi

missing=()
for p in "${packages[@]}"; do
  [[ $p == \#* ]] && continue
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done

if ((${#missing[@]})); then
  if [[ $(id -u) -ne 0 ]]; then
    echo "nodelru: missing packages ${missing[*]}; run as root or install them" >&2
    exit 1
  fi
  echo "nodelru: installing ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq </dev/null >&2
  apt-get install -y -qq --no-install-recommends "${missing[@]}" </dev/null >&2
fi
