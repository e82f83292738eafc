#!/usr/bin/env python3
"""Check the exported symbols of the shared libraries against their version scripts.

For each library: the version script names every symbol, with no wildcard, each in one
node; the library exports exactly those symbols at those versions (nm -D --defined-only);
and they are exactly the NLRU_API functions of the library's headers.  Every NLRU_API
function of include/nodelru/ must belong to one library, and the header's version
(NLRU_VERSION_MAJOR.MINOR) is at least the newest node's, so that a program can test for a
node's calls with the version.  A library that was not built
(jemalloc disabled) is checked against its script and headers only.

Usage: symbols.py SOURCE_ROOT NM LIBRARY|- MAP HEADER,... [LIBRARY|- MAP HEADER,...]...
"""
import glob
import os
import re
import subprocess
import sys

SOURCE = sys.argv[1]
sys.path.insert(0, os.path.join(SOURCE, "scripts"))
import publicapi  # noqa: E402

failures = []


def fail(msg):
    failures.append(msg)
    print("symbols: " + msg)


def read_map(path):
    """{symbol: node} of a version script."""
    with open(path) as f:
        text = re.sub(r"/\*.*?\*/", "", f.read(), flags=re.S)
    symbols = {}
    for node, body in re.findall(r"([\w.]+)\s*\{(.*?)\}\s*[\w.\s]*;", text, flags=re.S):
        scope = None
        for item in re.findall(r"[^;\s]+:|[^;\s]+(?=\s*;)", body):
            if item.endswith(":"):
                scope = item[:-1]
                continue
            if scope == "local":
                if item != "*":
                    fail("%s: %s: local names other than '*' (%s)" % (path, node, item))
                continue
            if any(c in item for c in "*?["):
                fail("%s: %s: a pattern (%s) where symbols must be named" % (path, node, item))
            if item in symbols:
                fail("%s: %s is in %s and %s" % (path, item, symbols[item], node))
            symbols[item] = node
    if not symbols:
        fail("%s: no symbols found" % path)
    return symbols


def exported(nm, lib):
    """{symbol: version} of what the library exports, its version node names left out."""
    out = subprocess.run(
        [nm, "-D", "--defined-only", lib], check=True, capture_output=True, text=True
    ).stdout
    symbols = {}
    for line in out.splitlines():
        fields = line.split()
        if len(fields) < 3:
            continue
        kind, name = fields[1], fields[2]
        if kind == "A":  # the version nodes themselves
            continue
        name, _, version = name.partition("@@")
        if not version:
            name, _, version = name.partition("@")
        symbols[name] = version
    return symbols


def header_version():
    """(major, minor) of include/nodelru/nodelru.h."""
    with open(os.path.join(SOURCE, "include", "nodelru", "nodelru.h")) as f:
        text = f.read()
    return tuple(int(re.search(r"#define NLRU_VERSION_%s (\d+)" % part, text).group(1))
                 for part in ("MAJOR", "MINOR"))


def check_version(mapfile, listed):
    """The header's version names no release older than the newest node of @mapfile."""
    nodes = {tuple(map(int, re.search(r"_(\d+)\.(\d+)$", n).groups())) for n in listed.values()}
    if max(nodes) > header_version():
        fail("%s has node version %d.%d, above the header's NLRU_VERSION %d.%d"
             % ((mapfile,) + max(nodes) + header_version()))


def main():
    nm = sys.argv[2]
    args = sys.argv[3:]
    if not args or len(args) % 3:
        print(__doc__)
        return 2
    every_api = {}
    for h in sorted(glob.glob(os.path.join(SOURCE, "include", "nodelru", "*.h"))):
        for name in publicapi.functions(publicapi.parse(h)):
            every_api[name] = os.path.basename(h)
    claimed = set()
    for lib, mapfile, headers in zip(args[0::3], args[1::3], args[2::3]):
        listed = read_map(os.path.join(SOURCE, mapfile))
        check_version(mapfile, listed)
        declared = set()
        for h in headers.split(","):
            declared |= set(publicapi.functions(publicapi.parse(os.path.join(SOURCE, h))))
        claimed |= declared
        for name in sorted(declared - set(listed)):
            fail("%s is declared NLRU_API in %s but missing from %s" % (name, headers, mapfile))
        for name in sorted(set(listed) - declared):
            fail("%s is in %s but no NLRU_API declaration of %s" % (name, mapfile, headers))
        if lib == "-":
            print("symbols: %s: %d symbols, library not built" % (mapfile, len(listed)))
            continue
        got = exported(nm, lib)
        for name in sorted(set(got) | set(listed)):
            if name not in got:
                fail("%s does not export %s (%s)" % (lib, name, mapfile))
            elif name not in listed:
                fail("%s exports %s, which %s does not list" % (lib, name, mapfile))
            elif got[name] != listed[name]:
                fail("%s exports %s at version %r, %s says %s"
                     % (lib, name, got[name], mapfile, listed[name]))
        print("symbols: %s: %d symbols as %s lists" % (os.path.basename(lib), len(got), mapfile))
    for name in sorted(set(every_api) - claimed):
        fail("%s (%s) belongs to no library's version script" % (name, every_api[name]))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
