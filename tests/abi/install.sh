#!/bin/sh
# Install the build into a scratch prefix and use it as docs/embedding.md says, with nothing
# in LD_LIBRARY_PATH: the installed tools run (their rpath finds the library), and
# tests/abi/embed.c (and the kvcache and slabcache examples) build with pkg-config and the documented
# -Wl,-rpath and run.  Usage: install.sh BUILD_DIR SOURCE_DIR
set -eu
build=$1
src=$2
option() {
	meson introspect "$build" --buildoptions | python3 -c '
import json, sys
print(next(o["value"] for o in json.load(sys.stdin) if o["name"] == sys.argv[1]))' "$1"
}
# A sanitizer build's library needs its runtime loaded first: not for a plain program.
if [ "$(option b_sanitize)" != none ]; then
	echo "install.sh: skipped in a sanitizer build"
	exit 77
fi
dest=$(mktemp -d /tmp/nlru-install-XXXXXX)
trap 'rm -rf "$dest"' EXIT
meson install -C "$build" --destdir "$dest" --quiet >/dev/null
prefix=$(option prefix)
libdir=$(option libdir)
root=$dest$prefix
unset LD_LIBRARY_PATH
# nodelru.pc is in <prefix>/<libdir>/pkgconfig, where docs/embedding.md says it is.
test -f "$root/$libdir/pkgconfig/nodelru.pc"
export PKG_CONFIG_PATH=$root/$libdir/pkgconfig
export PKG_CONFIG_SYSROOT_DIR=$dest
test -f "$root/include/nodelru/nodelru.h"
# pkg-config's version is the header's, which names the newest symbol version node.
header_version=$(sed -n 's/^#define NLRU_VERSION_\(MAJOR\|MINOR\|PATCH\) //p' \
	"$root/include/nodelru/nodelru.h" | paste -sd.)
if [ "$(pkg-config --modversion nodelru)" != "$header_version" ]; then
	echo "install.sh: nodelru.pc says $(pkg-config --modversion nodelru), nodelru.h $header_version" >&2
	exit 1
fi
test -f "$root/share/doc/nodelru/design.md"
test -f "$root/share/doc/nodelru/embedding.md"
# The user documents cite only what is installed.
python3 "$src/tests/abi/installed-refs.py" "$root/share/doc/nodelru"
# The installed tools find the installed library by themselves.
"$root/bin/nlru-tunables" >/dev/null
"$root/bin/nlru-workload" --pages 256 >/dev/null
# The documented build line, rpath included, makes a program that runs as it is.
# shellcheck disable=SC2046 # pkg-config output is a list of flags
cc -std=gnu11 -o "$dest/embed" "$src/tests/abi/embed.c" $(pkg-config --cflags --libs nodelru) \
	-Wl,-rpath,"$(pkg-config --variable=libdir nodelru)"
"$dest/embed"
# The slab allocator example, from the installed files alone (a small run).
test -f "$root/share/doc/nodelru/examples/slabcache.c"
# shellcheck disable=SC2046 # pkg-config output is a list of flags
cc -std=gnu11 -o "$dest/slabcache" "$root/share/doc/nodelru/examples/slabcache.c" $(pkg-config --cflags --libs nodelru) \
	-lpthread -Wl,-rpath,"$(pkg-config --variable=libdir nodelru)"
"$dest/slabcache" 2 20000 >/dev/null
# The jemalloc library, when built: its header and pkg-config file, and the example built
# against them alone (a small run: 2 threads, 1024 keys).
if [ -f "$root/$libdir/pkgconfig/nodelru-jemalloc.pc" ]; then
	test -f "$root/include/nodelru/jemalloc.h"
	test -f "$root/share/doc/nodelru/examples/kvcache.c"
	# shellcheck disable=SC2046 # pkg-config output is a list of flags
	cc -std=gnu11 -o "$dest/kvcache" "$src/examples/kvcache.c" \
		$(pkg-config --cflags --libs nodelru-jemalloc) \
		-Wl,-rpath,"$(pkg-config --variable=libdir nodelru-jemalloc)"
	"$dest/kvcache" 2 1024 1000 >/dev/null
	echo "install: nodelru-jemalloc ok"
fi
