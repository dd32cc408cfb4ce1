#!/usr/bin/env python3
"""ctest_skips.py JUNIT.xml: lists the tests that ctest did not run to the end.

Reads the JUnit file of `ctest --output-junit` and prints, for every test reported skipped
(SKIP_RETURN_CODE, e.g. exit 77 when a prerequisite is missing) or not run (its program not
found, a failed fixture, disabled), its name, ctest's reason and the last lines of its output
(where the test says what it lacks). Exit 0 if every test ran, 1 if some did not, 2 if the file
cannot be read or names no test at all. Used by scripts/ctest-strict.sh (scripts/test.sh).
"""
import sys
import xml.etree.ElementTree as ET

TAIL = 5  # lines of a skipped test's output shown


def main(argv):
    if len(argv) != 2:
        print("usage: ctest_skips.py JUNIT.xml", file=sys.stderr)
        return 2
    path = argv[1]
    try:
        root = ET.parse(path).getroot()
    except (OSError, ET.ParseError) as e:
        print(f"ctest_skips: {path}: cannot read ctest's JUnit report: {e}", file=sys.stderr)
        return 2
    cases = root.findall(".//testcase")
    if not cases:
        print(f"ctest_skips: {path}: the report names no test (nothing was run)", file=sys.stderr)
        return 2
    bad = []
    for case in cases:
        status = case.get("status", "")
        skipped = case.find("skipped")
        if status in ("run", "fail") and skipped is None:
            continue
        reason = skipped.get("message", "") if skipped is not None else ""
        out = (case.findtext("system-out") or "").strip().splitlines()
        bad.append((case.get("name", "?"), status, reason, out[-TAIL:]))
    if not bad:
        return 0
    print(f"ctest_skips: {len(bad)} of {len(cases)} tests did not run to the end (a skip is not a pass):")
    for name, status, reason, out in bad:
        what = "skipped" if reason.startswith("SKIP_") else "not run"
        print(f"  {name}: {what}" + (f" ({reason})" if reason else ""))
        for line in out:
            print(f"      | {line}")
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
