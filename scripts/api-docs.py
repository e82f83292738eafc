#!/usr/bin/env python3
"""Write the reference sections of docs/api-*.md from the public headers.

The contract of every public call (what it does, its errors, its threading) is written once,
in the comment above its declaration in include/nodelru/*.h.  The API pages carry the
overview and the examples by hand, and between two markers a reference generated from the
headers:

    <!-- generated from include/nodelru/nodelru.h: do not edit (scripts/api-docs.py --write)
         nlru_alloc_pages nlru_free_pages nlru_drain_pages -->
    ...
    <!-- end of generated part -->

The first marker names the header and the declarations to show, in order: functions,
`struct nlru_x`, `enum nlru_x` and typedefs.  Functions declared together under one comment
(nlru_file_pread and nlru_file_pwrite) are shown together and must be named together.  Each
is shown as its declaration, then its comment as text.  Every NLRU_API function of the
headers must be shown on exactly one page.

Usage (from anywhere in the source tree):
  scripts/api-docs.py --write   rewrite the generated parts of docs/api-*.md after a header
                                 changed (or a marker's list did)
  scripts/api-docs.py --check   exit 1, showing the differences, when a page is not what the
                                 headers give (the 'api_docs' test runs this)
"""
import difflib
import glob
import os
import re
import sys
import textwrap

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import publicapi  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BEGIN = re.compile(
    r"^<!-- generated from (?P<header>\S+): do not edit[^\n]*\n(?P<names>.*?)-->\n",
    re.M | re.S,
)
END = "<!-- end of generated part -->\n"
WIDTH = 96


class Error(Exception):
    pass


# Inline code in a comment: what is already quoted, strings, parameters, calls, members,
# identifiers with an underscore, errno names, NULL, command-line options.
CODE = re.compile(
    r"""(?P<quoted>`[^`]*`)
      | (?P<string>"[^"\n]*")
      | (?P<param>\*?@\w+)
      | (?P<code>
            [A-Za-z_][\w.]*\(\d?\)
          | \b(?:struct|enum)\s+nlru_\w+
          | [A-Za-z_]\w*(?:->|\.)[A-Za-z_]\w*(?:\(\))?
          | [A-Za-z_]\w*_(?:\w|<\w+>)*(?:=[\w|]+)?\*?
          | (?<![\w.])/[a-z]\w*(?:/[\w<>.-]*[\w>])+
          | sizeof\([\w\s]+\)
          | [A-Za-z_]\w*\[\]
          | -E[A-Z]+\b
          | \bNULL\b
          | --[a-z][\w-]*
        )""",
    re.X,
)
ESCAPE = re.compile(r"([\\*_<\[\]`])")
# A wrapped line must not start with what Markdown reads as a list, heading, quote or rule.
BAD_START = re.compile(r"^(?:[-+>#=]|\d+[.)](?:\s|$))")


def inline(text):
    """Plain comment text as Markdown: code in backquotes, the rest escaped."""
    out = []
    pos = 0
    for m in CODE.finditer(text):
        out.append(ESCAPE.sub(r"\\\1", text[pos : m.start()]))
        if m.group("quoted"):
            out.append(m.group(0))
        elif m.group("param"):
            out.append("`%s`" % m.group(0).replace("@", ""))
        else:
            out.append("`%s`" % m.group(0))
        pos = m.end()
    out.append(ESCAPE.sub(r"\\\1", text[pos:]))
    return "".join(out)


def wrap(text, prefix=""):
    lines = textwrap.wrap(
        text,
        WIDTH - len(prefix),
        break_long_words=False,
        break_on_hyphens=False,
    )
    merged = []
    for line in lines:
        if merged and BAD_START.match(line):
            merged[-1] += " " + line
        else:
            merged.append(line)
    return "\n".join(prefix + line if i else line for i, line in enumerate(merged))


def paragraphs(comment):
    """A comment's paragraphs (split at blank lines and before '- ' items), as Markdown."""
    blocks = []
    for block in re.split(r"\n\s*\n", comment):
        item = []
        for line in block.split("\n"):
            if line.startswith("- ") and item:
                blocks.append(item)
                item = []
            item.append(line.strip())
        blocks.append(item)
    out = []
    for item in blocks:
        text = " ".join(item)
        if text.startswith("- "):
            out.append("- " + wrap(inline(text[2:]), "  "))
        else:
            out.append(wrap(inline(text)))
    return "\n\n".join(out)


def describe(group):
    """The comment of a group, without 'nlru_name - ' at the start of a paragraph."""
    text = group.comment or ""
    for name in group.names:
        text = re.sub(
            r"(^|\n\n)%s - (.)" % re.escape(name),
            lambda m: m.group(1) + m.group(2).upper(),
            text,
        )
    return text


def prototype(decl):
    """A function declaration on as few lines as fit, without NLRU_API."""
    code = publicapi.code_part(decl.text)
    trailing = decl.text[len(code) :].strip()
    code = re.sub(r"\s+", " ", code).strip()
    code = code.replace("NLRU_API ", "", 1)
    code = code.replace("( ", "(").replace(" )", ")")
    if len(code) > WIDTH:
        open_at = code.index("(") + 1
        lines, line = [], code[:open_at]
        for part in re.findall(r"[^,]+,?", code[open_at:]):
            part = part.strip()
            if len(line) + 1 + len(part) > WIDTH and line.strip():
                lines.append(line.rstrip())
                line = " " * open_at + part
            else:
                line += ("" if line.endswith("(") else " ") + part
        lines.append(line)
        code = "\n".join(lines)
    return code + (" " + trailing if trailing else "")


def render(group):
    names = ", ".join("`%s`" % n for n in group.names)
    code = []
    for decl in group.decls:
        code.append(prototype(decl) if decl.kind == "function" else decl.text)
    text = "### %s\n\n```c\n%s\n```\n" % (names, "\n".join(code))
    desc = describe(group)
    if desc:
        text += "\n" + paragraphs(desc) + "\n"
    return text


def generate(header, names, page):
    path = os.path.join(ROOT, header)
    if not os.path.isfile(path):
        raise Error("%s: no header %s" % (page, header))
    by_name = {}
    for group in publicapi.parse(path, header):
        for name in group.names:
            by_name[name] = group
    wanted = []
    for name in names:
        if name not in by_name:
            raise Error("%s: %s declares no %s" % (page, header, name))
        wanted.append(name)
    parts = []
    done = set()
    for name in wanted:
        group = by_name[name]
        if id(group) in done:
            continue
        missing = [n for n in group.names if n not in wanted]
        if missing:
            raise Error(
                "%s: %s is declared under one comment with %s: name them together"
                % (page, name, ", ".join(missing))
            )
        done.add(id(group))
        parts.append(render(group))
    return "\n".join(parts)


def marker_names(text):
    """The names of a marker: 'struct nlru_x' and 'enum nlru_x' are one name each."""
    words = text.split()
    names = []
    i = 0
    while i < len(words):
        if words[i] in ("struct", "enum") and i + 1 < len(words):
            names.append(words[i] + " " + words[i + 1])
            i += 2
        else:
            names.append(words[i])
            i += 1
    return names


def remake(page, text, shown):
    """The page with every generated part made anew; adds what it shows to @shown."""
    out = []
    pos = 0
    for m in BEGIN.finditer(text):
        end = text.find(END, m.end())
        if end < 0:
            raise Error("%s: a generated part with no '%s'" % (page, END.strip()))
        names = marker_names(m.group("names"))
        for name in names:
            if name in shown:
                raise Error("%s: %s is also shown in %s" % (page, name, shown[name]))
            shown[name] = page
        out.append(text[pos : m.end()])
        out.append("\n" + generate(m.group("header"), names, page) + "\n")
        pos = end
    out.append(text[pos:])
    return "".join(out)


def main(argv):
    if len(argv) != 2 or argv[1] not in ("--write", "--check"):
        print(__doc__.strip())
        return 0 if len(argv) == 2 and argv[1] in ("-h", "--help") else 2
    pages = sorted(glob.glob(os.path.join(ROOT, "docs", "api-*.md")))
    shown = {}
    status = 0
    remade = {}
    try:
        for path in pages:
            with open(path) as f:
                old = f.read()
            remade[path] = (old, remake(os.path.relpath(path, ROOT), old, shown))
    except Error as e:
        print("api-docs: %s" % e, file=sys.stderr)
        return 1
    for path, (old, new) in remade.items():
        if old == new:
            continue
        rel = os.path.relpath(path, ROOT)
        if argv[1] == "--write":
            with open(path, "w") as f:
                f.write(new)
            print("api-docs: wrote %s" % rel)
        else:
            sys.stdout.writelines(
                difflib.unified_diff(
                    old.splitlines(True), new.splitlines(True), rel, rel + " (from the headers)"
                )
            )
            print(
                "api-docs: %s differs from the headers: change the header comment, then run"
                " scripts/api-docs.py --write" % rel,
                file=sys.stderr,
            )
            status = 1
    for h in sorted(glob.glob(os.path.join(ROOT, "include", "nodelru", "*.h"))):
        for name in publicapi.functions(publicapi.parse(h)):
            if name not in shown:
                print(
                    "api-docs: %s is declared in %s but shown on no docs/api-*.md page:"
                    " name it in a page's marker" % (name, os.path.relpath(h, ROOT)),
                    file=sys.stderr,
                )
                status = 1
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
