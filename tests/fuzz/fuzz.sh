#!/bin/sh
# Fuzz the parsers of nlru-vmstat with libFuzzer for at most SECONDS seconds.
#
#   tests/fuzz/fuzz.sh SECONDS
#
# Builds tests/fuzz/fuzz_parse.c and the tool's library sources with
# clang -fsanitize=fuzzer,address,undefined into $FUZZ_BUILD_DIR (default: a new folder under
# /tmp), seeds the corpus with the files of tests/tool/data (the real dumps included), and runs until the time is up.  Exit 0 when
# nothing crashed and no sanitizer complained; otherwise libFuzzer's non-zero status, with the
# crashing input saved in the build folder.  Needs the Debian packages clang and
# libclang-rt-14-dev (scripts/ensure-deps.sh installs them).
set -eu

secs=${1:-}
case $secs in
'' | *[!0-9]*)
	echo "usage: $0 SECONDS" >&2
	exit 2
	;;
esac

root=$(cd "$(dirname "$0")/../.." && pwd)
cc=${CLANG:-clang}
if ! command -v "$cc" >/dev/null 2>&1; then
	echo "fuzz.sh: $cc not found (Debian packages: clang libclang-rt-14-dev)" >&2
	exit 2
fi
if [ -n "${FUZZ_BUILD_DIR:-}" ]; then
	out=$FUZZ_BUILD_DIR
else
	# A folder of our own for this run, removed on the way out whatever happens.
	out=$(mktemp -d /tmp/nlru-vmstat-fuzz-XXXXXX)
	trap 'rm -rf "$out"' EXIT
fi
mkdir -p "$out/corpus"

# Everything of the tool except its command-line layer (main.c, cli.c, cmd_*.c).
srcs=""
for f in "$root"/tools/vmstat/*.c; do
	case $(basename "$f") in
	main.c | cli.c | cmd_*.c) ;;
	*) srcs="$srcs $f" ;;
	esac
done

# shellcheck disable=SC2086 # $srcs is a list of paths without blanks
"$cc" -std=gnu11 -g -O1 -D_GNU_SOURCE \
	-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
	-I"$root/include" -I"$root/tools/vmstat" \
	"$root/tests/fuzz/fuzz_parse.c" $srcs -lm -o "$out/fuzz_parse"

find "$root/tests/tool/data" -type f -exec cp {} "$out/corpus/" \;
echo "fuzz.sh: fuzzing for $secs s in $out" >&2
"$out/fuzz_parse" -max_total_time="$secs" -max_len=16384 -timeout=10 -rss_limit_mb=2048 \
	-artifact_prefix="$out/" -print_final_stats=1 "$out/corpus"
