#!/usr/bin/env python3
"""Fails when a file of src/ includes a header of a higher layer.

Usage: check-layers.py SOURCE_ROOT     check SOURCE_ROOT/src against tests/style/layers.txt
       check-layers.py --self-test     check that planted violations are caught

The layer table is tests/style/layers.txt: each `layer NAME FILE...` line names one layer,
lowest first, and the files in it (a name without .c or .h stands for both).  A file may
include the headers of its own layer and of the layers below.  An include of a higher layer
fails the check unless an `upcall FILE HEADER why...` line allows that one include, and says
why the lower file calls up.  docs/design.md draws the same layers.

Only `#include "..."` lines of src/*.c and src/*.h are read; an included name that is not a
file of src/ (a generated header such as nlru_config.h) is not checked.  The check also
fails when a file of src/ is missing from the table (a new file must be given its layer),
when the table names a file src/ does not hold, and when an upcall line allows an include
that no longer exists or is not upward, so the table cannot go stale.
"""
import os
import re
import sys
import tempfile

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def parse_table(path):
    """Returns ({file: (layer index, layer name)}, {(file, header): reason}, the names the
    table lists, with the files each stands for, and errors)."""
    layers, upcalls, errors = {}, {}, []
    names, listed = [], []
    with open(path, encoding='utf-8') as f:
        for lineno, line in enumerate(f, 1):
            line = line.split('#', 1)[0].strip()
            if not line:
                continue
            words = line.split()
            where = '%s:%d' % (os.path.basename(path), lineno)
            if words[0] == 'layer' and len(words) >= 3:
                names.append(words[1])
                for name in words[2:]:
                    files = [name] if name.endswith(('.c', '.h')) else [name + '.c', name + '.h']
                    listed.append((name, files))
                    for file in files:
                        if file in layers:
                            errors.append('%s: %s is in two layers' % (where, file))
                        layers[file] = (len(names) - 1, words[1])
            elif words[0] == 'upcall' and len(words) >= 4:
                upcalls[(words[1], words[2])] = ' '.join(words[3:])
            else:
                errors.append('%s: expected "layer NAME FILE..." or "upcall FILE HEADER why"'
                              % where)
    return layers, upcalls, listed, errors


def check(root, table):
    """Returns the list of problems found in root/src against the table."""
    src = os.path.join(root, 'src')
    layers, upcalls, listed, problems = parse_table(table)
    files = sorted(f for f in os.listdir(src) if f.endswith(('.c', '.h')))
    present = set(files)
    for name, stands_for in listed:
        # A bare name stands for a .c and a .h, of which one may be absent.
        if not present.intersection(stands_for):
            problems.append('%s names %s, which is not in src/' % (os.path.basename(table), name))
    used = set()
    for file in files:
        if file not in layers:
            problems.append('src/%s is in no layer: add it to %s' %
                            (file, os.path.basename(table)))
            continue
        level, name = layers[file]
        with open(os.path.join(src, file), encoding='utf-8') as f:
            text = f.read()
        for header in INCLUDE.findall(text):
            if header not in present or header not in layers:
                continue
            hlevel, hname = layers[header]
            if hlevel <= level:
                continue
            if (file, header) in upcalls:
                used.add((file, header))
                continue
            problems.append('src/%s (layer %s) includes %s (layer %s, higher)' %
                            (file, name, header, hname))
    for (file, header) in sorted(set(upcalls) - used):
        problems.append('%s: upcall %s -> %s: no such upward include' %
                        (os.path.basename(table), file, header))
    return problems


def self_test():
    """Plants violations in a small tree and checks each is reported, and a clean tree not."""
    table = '''# test table
layer low a b.h
layer high c
upcall a.c c.h the test's allowed call up
'''
    tree = {
        'a.c': '#include "a.h"\n#include "b.h"\n#include "c.h"\n#include "gen.h"\n',
        'a.h': '#include <stdio.h>\n',
        'b.h': '',
        'c.c': '#include "c.h"\n#include "a.h"\n',
        'c.h': '#include "b.h"\n',
    }
    cases = [
        ('clean tree', {}, []),
        ('low header includes high', {'b.h': '#include "c.h"\n'},
         ['src/b.h (layer low) includes c.h (layer high, higher)']),
        ('unlisted file', {'d.c': ''}, ['src/d.c is in no layer: add it to layers.txt']),
        ('table names a missing file', {'c.c': None, 'c.h': None, 'a.c': '#include "a.h"\n'},
         ['layers.txt names c, which is not in src/',
          'layers.txt: upcall a.c -> c.h: no such upward include']),
        ('stale upcall', {'a.c': '#include "a.h"\n'},
         ['layers.txt: upcall a.c -> c.h: no such upward include']),
    ]
    failed = 0
    for what, change, want in cases:
        with tempfile.TemporaryDirectory() as root:
            os.mkdir(os.path.join(root, 'src'))
            files = dict(tree, **change)
            for name, text in files.items():
                if text is None:
                    continue
                with open(os.path.join(root, 'src', name), 'w', encoding='utf-8') as f:
                    f.write(text)
            path = os.path.join(root, 'layers.txt')
            with open(path, 'w', encoding='utf-8') as f:
                f.write(table)
            got = check(root, path)
        if got != want:
            failed += 1
            print('check-layers self-test: %s: got %s, want %s' % (what, got, want))
    if failed:
        return 1
    print('check-layers self-test: %d cases pass' % len(cases))
    return 0


def main(argv):
    if len(argv) == 2 and argv[1] == '--self-test':
        return self_test()
    if len(argv) != 2:
        print(__doc__.strip().split('\n\n')[1], file=sys.stderr)
        return 2
    table = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'layers.txt')
    problems = check(argv[1], table)
    for problem in problems:
        print('check-layers: ' + problem)
    if problems:
        print('check-layers: the layers are drawn in docs/design.md ("Layers of src/")')
        return 1
    print('check-layers: every include of src/ goes down or sideways (tests/style/layers.txt)')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
