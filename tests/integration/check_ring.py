#!/usr/bin/env python3
"""check_ring.py DIR RUN ring|sys: the transfers of run RUN (summary.json:
its reads and writes) went through the slaves' io_uring (ring: O_DIRECT)
or through system calls (sys: buffered), as the slaves counted them in
lockstep.log ("phase N (RUN): X file operations through io_uring, Y
through system calls", one line a slave). The other operations of the
phase (opens, closes) may go either way, so the count is at least the
transfers."""
import json
import re
import sys

d, run, mode = sys.argv[1:4]
s = json.load(open(d + "/summary.json"))
r = [x for x in s["runs"] if x["name"] == run]
assert r, ("no run", run)
ops = r[0]["operations"]
transfers = sum(ops.get(k, {}).get("count", 0) for k in ("read", "write"))
assert transfers > 0, ("no transfers in", run)
pat = re.compile(r"phase \d+ \(%s\): (\d+) file operations through "
                 r"io_uring, (\d+) through system calls" % re.escape(run))
ring = calls = lines = 0
for line in open(d + "/lockstep.log", errors="replace"):
    m = pat.search(line)
    if m:
        lines += 1
        ring += int(m.group(1))
        calls += int(m.group(2))
assert lines >= 1, ("no count of the file operations of", run)
got = ring if mode == "ring" else calls
assert got >= transfers, (run, mode, "ring", ring, "calls", calls,
                          "transfers", transfers)
print("ok: %s: %d transfers, %d operations through io_uring, %d through "
      "system calls (%d slaves)" % (run, transfers, ring, calls, lines))
