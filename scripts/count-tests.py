#!/usr/bin/env python3
"""Sum test results over meson test logs and print the plain 'N passed, N failed' line.

Each TAP test (the Criterion suites) counts its subtests; any other test counts as one.
A test that failed without a failing subtest (a crash, a timeout) counts as one failure.
Usage: count-tests.py TESTLOG.json... ; exit status 1 if anything failed.
"""
import json
import re
import sys

TAP_RESULT = re.compile(r"^(not ok|ok)\b(.*)$")


def count(path):
    passed = failed = skipped = 0
    with open(path) as log:
        for line in log:
            test = json.loads(line)
            ok = test["result"] in ("OK", "EXPECTEDFAIL", "SKIP")
            sub_pass = sub_fail = sub_skip = 0
            for out in (test.get("stdout") or "").splitlines():
                m = TAP_RESULT.match(out)
                if not m:
                    continue
                if m.group(1) == "not ok":
                    sub_fail += 1
                elif "# SKIP" in m.group(2).upper():
                    sub_skip += 1
                else:
                    sub_pass += 1
            if sub_pass + sub_fail + sub_skip == 0:
                if test["result"] == "SKIP":
                    sub_skip = 1
                elif ok:
                    sub_pass = 1
            if not ok and sub_fail == 0:
                sub_fail = 1
            passed += sub_pass
            failed += sub_fail
            skipped += sub_skip
    return passed, failed, skipped


def main():
    totals = [0, 0, 0]
    for path in sys.argv[1:]:
        for i, n in enumerate(count(path)):
            totals[i] += n
    print(f"{totals[0]} passed, {totals[1]} failed, {totals[2]} skipped")
    return 1 if totals[1] else 0


if __name__ == "__main__":
    sys.exit(main())
