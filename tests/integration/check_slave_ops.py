#!/usr/bin/python3
"""slave_ops.csv against ops.csv and summary.json of one results folder.

Each slave's interval rows (one per operation, on time or late) add up,
over the slaves, to ops.csv's row of that interval plus its late rows:
count, bytes and errors (when both split them). Each (slave, run,
interval, operation) comes once. A slave's measured rows (late ones
included) add up to its summary.json per_slave operations.
usage: check_slave_ops.py RESULTS_DIR
"""
import csv
import json
import sys
from collections import defaultdict

d = sys.argv[1]
srows = list(csv.DictReader(open(d + "/slave_ops.csv")))
orows = list(csv.DictReader(open(d + "/ops.csv")))
assert srows, "slave_ops.csv has no rows"

seen = set()
per_iv = defaultdict(lambda: [0, 0, 0])
for r in srows:
    key = (r["slave"], r["run"], r["interval"], r["operation"])
    assert key not in seen, "twice in slave_ops.csv: %s" % (key,)
    seen.add(key)
    assert r["phase"] in ("warmup", "measure"), r
    assert r["late"] in ("0", "1"), r
    s = per_iv[(r["run"], r["interval"], r["operation"])]
    s[0] += int(r["count"])
    s[1] += int(r["bytes"])
    s[2] += int(r["errors"] or 0)

clu = defaultdict(lambda: [0, 0, 0])
for r in orows:
    if r["phase"] == "total":
        continue
    c = clu[(r["run"], r["interval"], r["operation"])]
    c[0] += int(r["count"])
    c[1] += int(r["bytes"])
    c[2] += int(r["errors"] or 0)

for k in set(per_iv) | set(clu):
    a, b = per_iv.get(k, [0, 0, 0]), clu.get(k, [0, 0, 0])
    assert a == b, "%s: slaves %s, ops.csv %s (count, bytes, errors)" % (k, a, b)

s = json.load(open(d + "/summary.json"))
n = 0
for run in s["runs"]:
    if "operations" not in run:
        continue
    for p in run.get("per_slave", []):
        for op, o in p.get("operations", {}).items():
            if not isinstance(o, dict):
                continue
            got = sum(int(r["count"]) for r in srows
                      if r["run"] == run["name"] and r["slave"] == p["slave"]
                      and r["operation"] == op and r["phase"] == "measure")
            assert got == o["count"], (run["name"], p["slave"], op, got,
                                       o["count"])
            n += 1
print("ok: slave_ops.csv: %d rows add up to ops.csv's %d intervals and "
      "to summary.json's %d per-slave counts" % (len(srows), len(clu), n))
