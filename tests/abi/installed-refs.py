#!/usr/bin/env python3
"""Fails when an installed user document cites something the installation does not hold.

Usage: installed-refs.py DOC_DIR SOURCE_ROOT

The documents a program's author reads from an installed prefix (embedding.md, api-*.md,
tuning.md, kernel-differences.md, preload.md in DOC_DIR) may name installed things only: a Markdown link
must reach a file in DOC_DIR, a path under examples/ must be installed beside them, and no
path may start with a source-only directory of the repository (src/, tests/, jemalloc/,
scripts/, bench/, tools/).  HTML comments (the generator's markers) are not read.  README.md
and CONTRIBUTING.md describe the source tree, so only their links are checked: installed,
they must reach the documents beside them.
"""
import glob
import os
import re
import sys

SOURCE_ONLY = ("src", "tests", "jemalloc", "scripts", "bench", "tools")
TOKEN_RE = re.compile(r"(?<![\w.:/<>*{}$-])((?:" + "|".join(SOURCE_ONLY) + r"|examples)/[\w.*<>+-]*)")
LINK_RE = re.compile(r"\]\(([^)\s]+)\)")


def check_links(name, lineno, line, doc_dir, bad):
    """Every Markdown link of @line reaches a file installed in @doc_dir."""
    for m in LINK_RE.finditer(line):
        target = m.group(1).split("#")[0]
        if not target or "://" in target:
            continue
        if not os.path.exists(os.path.normpath(os.path.join(doc_dir, target))):
            bad.append(f"{name}:{lineno}: link {target} reaches nothing installed")


def check(doc_dir):
    bad = []
    names = ["embedding.md", "tuning.md", "kernel-differences.md", "preload.md"]
    names += sorted(os.path.basename(p) for p in glob.glob(os.path.join(doc_dir, "api-*.md")))
    for name in names:
        path = os.path.join(doc_dir, name)
        if not os.path.exists(path):
            bad.append(f"{name}: not installed")
            continue
        text = re.sub(r"<!--.*?-->", "", open(path, encoding="utf-8").read(), flags=re.S)
        for lineno, line in enumerate(text.splitlines(), 1):
            for m in TOKEN_RE.finditer(line):
                ref = m.group(1)
                if ref.startswith("examples/"):
                    if not glob.glob(os.path.join(doc_dir, ref.rstrip("/"))):
                        bad.append(f"{name}:{lineno}: {ref} is not installed")
                else:
                    bad.append(f"{name}:{lineno}: {ref} is in the source tree only")
            check_links(name, lineno, line, doc_dir, bad)
    for name in ("README.md", "CONTRIBUTING.md"):
        path = os.path.join(doc_dir, name)
        if not os.path.exists(path):
            bad.append(f"{name}: not installed")
            continue
        for lineno, line in enumerate(open(path, encoding="utf-8"), 1):
            check_links(name, lineno, line, doc_dir, bad)
    return bad


def main():
    bad = check(sys.argv[1])
    for b in bad:
        print(b, file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
