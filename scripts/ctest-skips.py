#!/usr/bin/env python3
"""Say how many tests ctest skipped, which, and why.

Usage: ctest-skips.py JUNIT  (the file of ctest --output-junit)

ctest's own summary lists skipped tests among "did not run" without their
reason; a skip that goes unseen is how a test that never runs passes for
years. For each skipped test this prints its name and the lines of its
output that say why: an integration test's "SKIP: ..." line, or a unit
binary's cmocka cases ("[  SKIPPED ] case") and the reasons its cases
printed. Exits 0: skipping is not failing; the count is for the reader.
"""
import re
import sys
import xml.etree.ElementTree as ET


def reasons(out):
    seen, lines = set(), []
    for line in out.splitlines():
        line = line.strip()
        m = re.match(r"\[  SKIPPED \] (\S+)$", line)
        if m:
            line = "case " + m.group(1)
        elif not (line.startswith("SKIP") or "skipped," in line
                  or "skipped:" in line):
            continue
        if line.startswith("[  SKIPPED ]") or line in seen:
            continue
        seen.add(line)
        lines.append(line)
    return lines


def main():
    root = ET.parse(sys.argv[1]).getroot()
    skipped = [tc for tc in root.iter("testcase")
               if tc.get("status") == "notrun"
               or tc.find("skipped") is not None]
    total = len(list(root.iter("testcase")))
    print(f"== {len(skipped)} of {total} test(s) skipped"
          + (":" if skipped else ""))
    for tc in skipped:
        print(f"  {tc.get('name')}")
        out = tc.findtext("system-out") or ""
        for line in reasons(out) or ["(no reason printed)"]:
            print(f"      {line}")


if __name__ == "__main__":
    main()
