#!/usr/bin/env python3
"""Fails when a doc or a comment cites a file the repository does not hold.

Usage: check-refs.py SOURCE_ROOT     check the repository at SOURCE_ROOT
       check-refs.py --self-test     check planted bad references are caught (and good ones not)

What is read: every Markdown file whole, and the comments of C, shell, Python and meson
files (a shell or Python script without an extension counts by its #! line).  What must
hold there:

- No reference to the background documents the project was written from, nor to a
  directory beside the repository: the project explains itself.
- Every path of this repository that is cited exists: a path whose first component is one
  of the repository's top-level directories (src/vmscan.c, tests/unit/, docs/design.md),
  a path relative to the citing file's own directory (data/layout-*.txt beside a test),
  ./ and ../ paths into a directory, a Markdown link's target, a program built from a .c
  file (bench/reclaim), and a bare *.md name.  Globs, {a,b} and <name> placeholders match
  when some file fits.  A bare vmscan.c or run-mmtests.sh is not checked: such names are
  shared with the other projects the docs cite.

Paths of other projects are citations, not references into this tree, and are left alone:
Linux's (mm/vmscan.c, include/linux/mm_inline.h, drivers/base/node.c), mmtests'
(shellpacks/..., bin/lib/MMTests/...), absolute paths (/proc/vmstat), URLs, and build
outputs (build/...), since none of them starts with a directory of this repository or the
citing file's.
"""
import contextlib
import fnmatch
import io
import os
import re
import subprocess
import sys
import tempfile

# The background documents' names, spelt so that this file does not contain them itself.
FORBIDDEN = [
    ("..", "/shared"),
    ("KERNEL-", "RECLAIM"),
    ("MMTESTS-", "SPEC"),
    ("PEERS", ".md"),
    ("STYLE", ".md"),
]
FORBIDDEN_RE = re.compile("|".join(re.escape(a + b) for a, b in FORBIDDEN))

CITED_EXTS = (".md", ".c", ".h", ".sh", ".py")
# Subtrees of Linux that share a first component with this repository (include/).
EXTERNAL_PREFIXES = ("include/linux/", "include/uapi/", "include/asm", "include/trace/",
                     "include/jemalloc/")

# A path-like token: characters of file names, '/', and the glob, placeholder and brace
# forms docs use (api-*.md, test_<name>.c, vmstat-4.{7,8}-before).
NAME = r"(?:[\w.*<>+-]|\{[\w.,*<>+-]*\})"
TOKEN_RE = re.compile(r"(?<![\w.:/<>*{}-])((?:\.{1,2}/)?" + NAME + r"+(?:/" + NAME + r"*)*)")
MD_LINK_RE = re.compile(r"\]\(([^)\s]+)\)")
URL_RE = re.compile(r"\b[a-z][a-z0-9+.-]*://\S+")


def tracked_files(root):
    try:
        out = subprocess.run(["git", "-C", root, "ls-files", "-z"], capture_output=True,
                             check=True).stdout.decode()
        files = [f for f in out.split("\0") if f]
        if files:
            return [f for f in files if os.path.exists(os.path.join(root, f))]
    except (OSError, subprocess.CalledProcessError):
        pass
    files = []
    for d, dirs, names in os.walk(root):
        dirs[:] = [x for x in dirs if not x.startswith((".git", "build"))]
        for n in names:
            files.append(os.path.relpath(os.path.join(d, n), root))
    return files


def script_kind(root, path):
    """'c', 'hash' (shell, Python, meson comments), 'md', or None for files not read."""
    base = os.path.basename(path)
    if base.endswith((".c", ".h")):
        return "c"
    if base.endswith(".md"):
        return "md"
    if base.endswith((".sh", ".py")) or base in ("meson.build", "meson_options.txt"):
        return "hash"
    if "." not in base:
        try:
            with open(os.path.join(root, path), "rb") as f:
                first = f.readline()
        except OSError:
            return None
        if first.startswith(b"#!") and re.search(rb"\b(sh|bash|python3?)\b", first):
            return "hash"
    return None


def c_comments(text):
    """The comments of a C file, each with the line it starts on."""
    out, i, n, line = [], 0, len(text), 1
    while i < n:
        ch = text[i]
        if ch == "\n":
            line += 1
            i += 1
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append((line, text[i:j]))
            line += text.count("\n", i, j)
            i = j
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append((line, text[i:j]))
            i = j
        elif ch in "\"'":
            j = i + 1
            while j < n and text[j] != ch and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            i = j + 1
        else:
            i += 1
    return out


def hash_comments(text):
    """'#' comments of shell, Python and meson: a '#' outside quotes, at the start of a line
    or after a blank ($# and ${#x} are not comments).  Python docstrings count too."""
    out = []
    for no, raw in enumerate(text.split("\n"), 1):
        quote = None
        for k, ch in enumerate(raw):
            if quote:
                if ch == quote:
                    quote = None
            elif ch in "\"'":
                quote = ch
            elif ch == "#" and (k == 0 or raw[k - 1] in " \t"):
                out.append((no, raw[k:]))
                break
    for m in re.finditer(r'"""(.*?)"""', text, re.S):
        out.append((text.count("\n", 0, m.start()) + 1, m.group(1)))
    return out


class Tree:
    def __init__(self, root):
        self.root = root
        self.files = set(tracked_files(root))
        self.dirs = set()
        for f in self.files:
            parts = f.split("/")[:-1]
            for k in range(1, len(parts) + 1):
                self.dirs.add("/".join(parts[:k]))
        self.top_dirs = {d for d in self.dirs if "/" not in d}
        self.basenames = {os.path.basename(f) for f in self.files}

    def exists(self, path):
        m = re.search(r"\{([^{}]*)\}", path)
        if m:
            return all(self.exists(path[:m.start()] + alt + path[m.end():])
                       for alt in m.group(1).split(","))
        path = os.path.normpath(path).replace(os.sep, "/")
        if path in ("", "."):
            return True
        if any(c in path for c in "*<"):
            pattern = re.sub(r"<[^>/]*>", "*", path)
            return any(fnmatch.fnmatchcase(x, pattern) for x in self.files | self.dirs)
        return path in self.files or path in self.dirs


def clean(token):
    token = token.rstrip(".,;:'`\"")
    while token.endswith(")") and token.count(")") > token.count("("):
        token = token[:-1]
    return token


def path_exists(tree, path):
    """A file or directory of the tree, or a program built from PATH.c (bench/reclaim)."""
    if tree.exists(path):
        return True
    base = os.path.basename(path)
    return bool(base) and "." not in base and tree.exists(path + ".c")


def check_token(tree, citing, token):
    """None when @token is fine or not ours to check, else why it is wrong."""
    token = clean(token)
    if not token or token.startswith("/") or "//" in token:
        return None
    here = os.path.dirname(citing)
    if token.startswith(("./", "../")):
        # A command (./gen) is not a citation; a cited file or a path into a directory is.
        resolved = os.path.normpath(os.path.join(here, token)).replace(os.sep, "/")
        rest = token.lstrip("./")
        if not token.endswith(CITED_EXTS) and "/" not in rest.rstrip("/") and \
                not token.endswith("/"):
            return None
        if path_exists(tree, resolved) or path_exists(tree, os.path.normpath(token)):
            return None
        return "no such file or directory"
    first = token.split("/")[0]
    if "/" in token:
        if re.search(r"[<*{]", first):
            return None
        if first in tree.top_dirs and not token.startswith(EXTERNAL_PREFIXES):
            return None if path_exists(tree, token) else "no such file or directory"
        if here and tree.exists(os.path.join(here, first)):
            if path_exists(tree, os.path.join(here, token)):
                return None
            return "no such file or directory"
        return None
    if token.endswith(".md") and re.match(r"^[\w.*<>+-]+\.md$", token):
        if tree.exists(os.path.join(here, token)) or any(
                fnmatch.fnmatchcase(b, re.sub(r"<[^>]*>", "*", token)) for b in tree.basenames):
            return None
        return "no such Markdown file"
    return None


def check_text(tree, citing, lineno, text, errors):
    for m in FORBIDDEN_RE.finditer(text):
        errors.append((citing, lineno + text.count("\n", 0, m.start()),
                       m.group(0), "cites a document outside the repository"))
    text_no_urls = URL_RE.sub(" ", text)
    for m in TOKEN_RE.finditer(text_no_urls):
        token = clean(m.group(1))
        if FORBIDDEN_RE.search(token):
            continue
        if "/" not in token and not token.endswith(CITED_EXTS):
            continue
        why = check_token(tree, citing, token)
        if why:
            errors.append((citing, lineno + text_no_urls.count("\n", 0, m.start()),
                           clean(token), why))
    for m in MD_LINK_RE.finditer(text):
        target = m.group(1).split("#")[0]
        if not target or re.match(r"^[a-z][a-z0-9+.-]*:", target):
            continue
        here = os.path.dirname(citing)
        if not tree.exists(os.path.join(here, target)):
            errors.append((citing, lineno + text.count("\n", 0, m.start()), target,
                           "link to a missing file"))


def check(root):
    tree = Tree(root)
    errors = []
    for path in sorted(tree.files):
        kind = script_kind(root, path)
        if not kind:
            continue
        with open(os.path.join(root, path), encoding="utf-8", errors="replace") as f:
            text = f.read()
        if kind == "md":
            parts = [(1, text)]
        elif kind == "c":
            parts = c_comments(text)
        else:
            parts = hash_comments(text)
        for lineno, part in parts:
            check_text(tree, path, lineno, part, errors)
    seen = set()
    for path, lineno, token, why in errors:
        if (path, lineno, token) not in seen:
            seen.add((path, lineno, token))
            print(f"{path}:{lineno}: {token}: {why}")
    return len(seen)


def self_test():
    """Plant good and bad references in a small tree and check each is judged right."""
    bad_name = FORBIDDEN[1][0] + FORBIDDEN[1][1] + ".md"
    shared = FORBIDDEN[0][0] + FORBIDDEN[0][1] + "/docs/x.md"
    tree = {
        "README.md": "See [design](docs/design.md) and CONTRIBUTING.md.\n",
        "CONTRIBUTING.md": "Run `tests/unit/` suites; Linux's mm/vmscan.c, mmtests'\n"
                           "shellpacks/shellpack-bench-stutter, include/linux/mm_inline.h.\n",
        "docs/design.md": "Read [api](api-engine.md), `src/lru.c`, `api-*.md`, /proc/vmstat.\n",
        "docs/api-engine.md": "x\n",
        "src/lru.c": "/* See docs/design.md and the 4.8 balance_pgdat in mm/vmscan.c. */\n"
                     "static const char *s = \"src/missing.c\"; /* strings are not comments */\n",
        "tests/unit/test_lru.c": "/* data/x.txt beside it, tests/unit/test_<name>.c */\n",
        "tests/unit/data/x.txt": "x\n",
        "tests/unit/meson.build": "# test_lru.c, one per concern\n",
        "run.sh": "#!/bin/sh\necho $# ${#x}  # docs/design.md\n",
    }
    planted = {
        "docs/bad1.md": ("See src/kswapd_zone.c for it.\n", "src/kswapd_zone.c"),
        "docs/bad2.md": ("Read [x](kernel.md).\n", "kernel.md"),
        "docs/bad3.md": ("As " + bad_name + " says.\n", bad_name.split(".")[0]),
        "docs/bad4.md": ("In " + shared + ".\n", FORBIDDEN[0][0] + FORBIDDEN[0][1]),
        "src/bad5.c": ("/* tests/unit/test_nothing.c checks it */\nint x;\n",
                       "tests/unit/test_nothing.c"),
        "src/bad6.h": ("// see docs/nothing.md\n", "docs/nothing.md"),
        "tests/bad7.sh": ("#!/bin/sh\n# bench/nothing.c\n", "bench/nothing.c"),
        "scripts/bad8.py": ('"' * 3 + "Reads tools/none/x.c." + '"' * 3 + "\n", "tools/none/x.c"),
        "tests/unit/bad9.c": ("/* data/y.txt */\n", "data/y.txt"),
        "docs/bad10.md": ("Also ghost.md.\n", "ghost.md"),
        "tests/bad11/meson.build": ("# see ../../src/gone.c\n", "../../src/gone.c"),
    }
    failures = 0
    with tempfile.TemporaryDirectory() as d:
        def write(rel, text):
            os.makedirs(os.path.join(d, os.path.dirname(rel)), exist_ok=True)
            with open(os.path.join(d, rel), "w") as f:
                f.write(text)

        for rel, text in tree.items():
            write(rel, text)
        os.makedirs(os.path.join(d, "scripts"), exist_ok=True)
        os.makedirs(os.path.join(d, "bench"), exist_ok=True)
        os.makedirs(os.path.join(d, "tools"), exist_ok=True)
        write("scripts/ok.py", "x = 1\n")
        write("bench/ok.c", "int y;\n")
        write("tools/ok.c", "int z;\n")
        print("self-test: a clean tree")
        if check(d) != 0:
            print("self-test: FAIL: the clean tree was reported")
            failures += 1
        for rel, (text, token) in planted.items():
            write(rel, text)
            buf = io.StringIO()
            with contextlib.redirect_stdout(buf):
                n = check(d)
            os.remove(os.path.join(d, rel))
            if n != 1 or token not in buf.getvalue():
                print(f"self-test: FAIL: {rel}: expected one report of {token!r}, got:\n"
                      + buf.getvalue())
                failures += 1
            else:
                print("self-test: caught " + buf.getvalue().strip())
    print(f"self-test: {len(planted)} planted references, {failures} failures")
    return 1 if failures else 0


def main(argv):
    if len(argv) == 2 and argv[1] == "--self-test":
        return self_test()
    if len(argv) != 2:
        print(__doc__.split("\n\n")[0], file=sys.stderr)
        return 2
    n = check(argv[1])
    if n:
        print(f"check-refs: {n} references to files the repository does not hold")
        return 1
    print("check-refs: every cited file exists")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
