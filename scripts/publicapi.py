"""Read the public declarations of include/nodelru/*.h, each with the comment above it.

Used by scripts/api-docs.py (the generated reference of docs/api-*.md) and by
tests/abi/symbols.py (the exported symbols against the version scripts).  It understands the
headers as they are written, not C in general:

- a declaration starts at the beginning of a line: `NLRU_API ...;` (a function),
  `struct nlru_x {...};`, `enum nlru_x {...};` or `typedef ...;`;
- its comment is the block comment that ends on the line just above it (forward declarations
  such as `struct nlru_engine;` may stand between);
- functions declared on consecutive lines under one comment form one group, documented
  together (nlru_file_pread and nlru_file_pwrite).
"""
import re

FUNC_NAME = re.compile(r"\b(nlru_\w+)\s*\(")
TYPEDEF_NAME = re.compile(r"\(\s*\*\s*(\w+)\s*\)|(\w+)\s*;\s*(?:/\*.*)?$")
FORWARD = re.compile(r"^(struct|enum)\s+\w+\s*;\s*$")


class Decl:
    """One declaration: kind is 'function', 'struct', 'enum' or 'typedef'."""

    def __init__(self, kind, name, text, line):
        self.kind = kind
        self.name = name  # "nlru_alloc_pages", "struct nlru_config", "nlru_log_fn"
        self.text = text  # as written in the header, comments inside included
        self.line = line  # first line, counted from 1


class Group:
    """Declarations that share one comment (None if there is none)."""

    def __init__(self, header, comment, decls):
        self.header = header
        self.comment = comment
        self.decls = decls

    @property
    def names(self):
        return [d.name for d in self.decls]


def code_part(line):
    """The line without a trailing /* comment */ (a comment opened on it counts too)."""
    i = line.find("/*")
    return line if i < 0 else line[:i]


def comment_text(lines):
    """The text of a block comment, without its markers and leading ' * '."""
    out = []
    for i, line in enumerate(lines):
        s = line.strip()
        if i == 0:
            s = s[2:]
        if s.endswith("*/"):
            s = s[:-2]
        s = s.rstrip()
        if i > 0 and s.startswith("*"):
            s = s[1:]
            if s.startswith(" "):
                s = s[1:]
        elif s.startswith(" "):
            s = s[1:]
        out.append(s.rstrip())
    while out and not out[0].strip():
        out.pop(0)
    while out and not out[-1].strip():
        out.pop()
    return "\n".join(out)


def _statement_end(lines, i):
    """Index of the line that ends the statement starting at line i: a ';' outside braces."""
    depth = 0
    for j in range(i, len(lines)):
        code = code_part(lines[j])
        depth += code.count("{") - code.count("}")
        if ";" in code and depth <= 0:
            return j
    raise ValueError("unterminated declaration at line %d" % (i + 1))


def parse(path, header=None):
    """The groups of declarations of one header, in the header's order."""
    with open(path) as f:
        lines = f.read().split("\n")
    header = header or path
    groups = []
    comment = None  # (text, index of its last line) of the last block comment
    last = None  # the group a following function declaration may join
    i = 0
    while i < len(lines):
        line = lines[i]
        s = line.strip()
        if s.startswith("/*"):
            j = i
            while "*/" not in lines[j]:
                j += 1
            comment = (comment_text(lines[i : j + 1]), j)
            last = None
            i = j + 1
            continue
        if s.startswith("#"):
            while lines[i].rstrip().endswith("\\"):
                i += 1
            comment = last = None
            i += 1
            continue
        if FORWARD.match(s):
            if comment and comment[1] == i - 1:
                comment = (comment[0], i)
            last = None
            i += 1
            continue
        kind = None
        if line.startswith("NLRU_API "):
            kind = "function"
        elif re.match(r"(struct|enum) nlru_\w+ \{", line):
            kind = line.split()[0]
        elif line.startswith("typedef "):
            kind = "typedef"
        if not kind:
            comment = last = None
            i += 1
            continue
        j = _statement_end(lines, i)
        text = "\n".join(lines[i : j + 1])
        if kind == "function":
            name = FUNC_NAME.search(code_part(text)).group(1)
        elif kind in ("struct", "enum"):
            name = " ".join(line.split()[:2])
        else:
            m = TYPEDEF_NAME.search(code_part(text).strip())
            name = m.group(1) or m.group(2)
        decl = Decl(kind, name, text, i + 1)
        if kind == "function" and last is not None and last.decls[-1].kind == "function":
            last.decls.append(decl)
        else:
            attached = comment[0] if comment and comment[1] == i - 1 else None
            last = Group(header, attached, [decl])
            groups.append(last)
        comment = None
        i = j + 1
    return groups


def functions(groups):
    """Names of the NLRU_API functions of some groups."""
    return [d.name for g in groups for d in g.decls if d.kind == "function"]
