#!/bin/sh
# Fails when a C file of the repository differs from what clang-format 14 makes of it with the
# repository's .clang-format.  Other clang-format versions format a few constructs differently,
# so with no clang-format 14 the check is skipped (exit 77), never guessed.
# Usage: check-format.sh SOURCE_ROOT
set -eu
cd "$1"
fmt=$(command -v clang-format-14 || command -v clang-format || true)
if [ -z "$fmt" ] || ! "$fmt" --version | grep -q 'version 14\.'; then
	echo "check-format: clang-format 14 not found; skipped"
	exit 77
fi
files=$(git ls-files '*.c' '*.h' 2>/dev/null || find . -name '*.[ch]' -not -path './build*')
# shellcheck disable=SC2086
if ! "$fmt" --dry-run --Werror $files; then
	echo "check-format: run clang-format -i on the files above"
	exit 1
fi
echo "check-format: $(echo "$files" | wc -w) files formatted"
