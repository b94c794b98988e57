#!/usr/bin/python3
"""slave_ops.csv against ops.csv and summary.json of one results folder.

Each slave's interval rows (one per operation, on time or late) add up,
over the slaves, to ops.csv's row of that interval plus its late rows:
count, bytes and errors (when both split them). Each (slave, run,
interval, operation) comes once. A slave's measured rows (late ones
included) add up to its summary.json per_slave operations.

The other columns, from what fsops_view (common/fsops.c) makes of the
sums and fsfmt_ops_rows (master/results/fsfmt.c) prints, within the
rounding of the printed digits and nothing more:
- every row (both files): rate = count / the run's interval_s (%.3f),
  mbps = bytes / interval_s / 1048576 (%.4f); a total row's over the
  measured seconds (intervals - warmup_intervals) x interval_s;
- latency (ms, %.6f: whole ns): p50 <= p95 <= p99 <= max, mean <= max,
  one operation: mean = every percentile = max; none: all 0;
- a cluster row is its slaves' on-time rows merged (their histograms
  added): max = the slaves' max; mean x count = the sum of the slaves'
  mean x count (each mean off by 0.5 ns at most); each percentile in a
  histogram bucket (common/hist.c) between the slaves' buckets of it; a
  single slave with the operation: every latency cell equal to its;
- a late row of ops.csv is that slave's late=1 row, cell for cell;
- a total row is the run's measured cluster and late rows merged, as
  above, and summary.json's run operations are its figures;
- a slave's per_slave resp_ms is the count-weighted mean of its
  measured rows' means.
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
summary = json.load(open(d + "/summary.json"))
runs = {r["name"]: r for r in summary["runs"]}

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

n = 0
for run in summary["runs"]:
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

# ---- rates, MB/s and latency ---------------------------------------------
RATE_ULP = 0.5e-3    # %.3f
MBPS_ULP = 0.5e-4    # %.4f
MS_ULP = 0.5e-6      # %.6f: a latency cell is whole ns, its mean within
PCTS = ("p50_ms", "p95_ms", "p99_ms")
LAT = ("resp_ms",) + PCTS + ("max_ms",)


def ns(cell):
    """A latency cell (ms, 6 decimals) as the ns it printed."""
    return int(round(float(cell) * 1e6))


def hist_index(v):
    """common/hist.h hist_index(): HIST_SUB_BITS 7, log-linear."""
    v = min(v, (1 << (35 + 7 + 1)) - 1)
    msb = (v | 1).bit_length() - 1
    shift = msb - 7 if msb > 7 else 0
    return (shift << 7) + (v >> shift)


def near(got, want, ulp, what):
    # The cell is want rounded to its digits: off by half a unit of the
    # last digit, plus the double's own rounding.
    assert abs(got - want) <= ulp + 1e-12 * abs(want), \
        "%s: printed %r, the sums give %r" % (what, got, want)


def interval_s(run):
    assert run in runs, "ops.csv's run %s is not in summary.json" % run
    return float(runs[run]["interval_s"])


def measured_s(run):
    r = runs[run]
    return (r["intervals"] - r["warmup_intervals"]) * float(r["interval_s"])


def check_row(r, secs, what):
    c, b = int(r["count"]), int(r["bytes"])
    near(float(r["rate"]), c / secs, RATE_ULP, what + " rate")
    near(float(r["mbps"]), b / secs / 1048576.0, MBPS_ULP, what + " mbps")
    lat = [ns(r[k]) for k in PCTS + ("max_ms",)]
    mean = float(r["resp_ms"])
    if c == 0:
        assert lat == [0, 0, 0, 0] and mean == 0, (what, r)
        return
    assert lat == sorted(lat), "%s: p50, p95, p99, max %s" % (what, lat)
    assert lat[-1] > 0, (what, r)
    assert mean <= lat[-1] / 1e6 + MS_ULP, "%s: mean %s > max" % (what, mean)
    if c == 1:
        assert [ns(r["resp_ms"])] * 4 == lat, \
            "%s: one operation, yet mean, p50, p95, p99, max %s %s" % (
                what, r["resp_ms"], lat)


def check_merge(whole, parts, what):
    """whole: the row of parts' histograms merged (parts: rows)."""
    C = int(whole["count"])
    assert C == sum(int(p["count"]) for p in parts), (what, C)
    assert int(whole["bytes"]) == sum(int(p["bytes"]) for p in parts), what
    parts = [p for p in parts if int(p["count"])]
    if not parts:
        return
    if len(parts) == 1:
        got = [whole[k] for k in LAT]
        want = [parts[0][k] for k in LAT]
        assert got == want, "%s: one part, latency %s, its %s" % (
            what, got, want)
    assert ns(whole["max_ms"]) == max(ns(p["max_ms"]) for p in parts), \
        "%s: max %s, the parts' %s" % (what, whole["max_ms"],
                                      [p["max_ms"] for p in parts])
    s = sum(float(p["resp_ms"]) * int(p["count"]) for p in parts)
    # |C*mean - sum| <= C*ulp, |sum of parts - sum| <= C*ulp
    assert abs(float(whole["resp_ms"]) * C - s) <= \
        2 * MS_ULP * C + 1e-12 * s, \
        "%s: mean %s x %d = %.6f ms, the parts' means x counts %.6f" % (
            what, whole["resp_ms"], C, float(whole["resp_ms"]) * C, s)
    for k in PCTS:
        b = [hist_index(ns(p[k])) for p in parts]
        w = hist_index(ns(whole[k]))
        assert min(b) <= w <= max(b), \
            "%s: %s %s in bucket %d, the parts' in %s" % (
                what, k, whole[k], w, b)


def late_key(r):
    return (r["run"], r["interval"], r["operation"], r["start_ns"],
            r["end_ns"], r["count"], r["rate"], r["bytes"], r["mbps"],
            r["errors"]) + tuple(r[k] for k in LAT)


nrows = 0
for r in srows:
    check_row(r, interval_s(r["run"]), "slave_ops.csv %s %s interval %s %s" %
              (r["slave"], r["run"], r["interval"], r["operation"]))
    nrows += 1
for r in orows:
    secs = measured_s(r["run"]) if r["phase"] == "total" else \
        interval_s(r["run"])
    if secs > 0:
        check_row(r, secs, "ops.csv %s interval %s %s %s" % (
            r["run"], r["interval"], r["phase"], r["operation"]))
        nrows += 1

# A cluster row: its slaves' on-time rows merged.
ontime = defaultdict(list)
for r in srows:
    if r["late"] == "0":
        ontime[(r["run"], r["interval"], r["operation"])].append(r)
nmerge = 0
for r in orows:
    if r["phase"] in ("warmup", "measure"):
        k = (r["run"], r["interval"], r["operation"])
        check_merge(r, ontime.pop(k, []), "ops.csv %s interval %s %s" % k)
        nmerge += 1
assert not [k for k, v in ontime.items() if any(int(x["count"]) for x in v)], \
    "on-time slave rows without a cluster row: %s" % sorted(ontime)

# A late row: that slave's late interval, cell for cell.
late_o = sorted(late_key(r) for r in orows if r["phase"] == "late")
late_s = sorted(late_key(r) for r in srows if r["late"] == "1")
assert late_o == late_s, "ops.csv's late rows %s, slave_ops.csv's %s" % (
    late_o, late_s)

# A total row: the measured intervals merged, late ones included; and
# summary.json's operations its figures.
ntot = 0
for name, run in runs.items():
    tot = {r["operation"]: r for r in orows
           if r["run"] == name and r["phase"] == "total"}
    if not tot:
        continue
    for op, t in tot.items():
        parts = [r for r in orows if r["run"] == name and
                 r["operation"] == op and r["phase"] == "measure"]
        parts += [r for r in srows if r["run"] == name and
                  r["operation"] == op and r["late"] == "1" and
                  r["phase"] == "measure"]
        check_merge(t, parts, "ops.csv %s total %s" % (name, op))
        j = run["operations"][op]
        assert j["count"] == int(t["count"]) and j["bytes"] == int(t["bytes"])
        for k in ("rate",) + LAT:
            near(float(t[k]), j[k], RATE_ULP if k == "rate" else MS_ULP,
                 "%s total %s %s: ops.csv against summary.json" % (
                     name, op, k))
        ntot += 1
    for p in run.get("per_slave", []):
        for op, o in p.get("operations", {}).items():
            if not isinstance(o, dict) or not o["count"]:
                continue
            mine = [r for r in srows if r["run"] == name and
                    r["slave"] == p["slave"] and r["operation"] == op and
                    r["phase"] == "measure"]
            s = sum(float(r["resp_ms"]) * int(r["count"]) for r in mine)
            assert abs(o["resp_ms"] * o["count"] - s) <= \
                MS_ULP * o["count"] + 1e-9 * s, \
                "%s %s %s: per_slave resp_ms %r, its rows' mean %r" % (
                    name, p["slave"], op, o["resp_ms"], s / o["count"])
print("ok: slave_ops.csv, ops.csv: %d rows' rate, mbps and latency, %d "
      "cluster rows merged of their slaves', %d late rows, %d total rows" %
      (nrows, nmerge, len(late_o), ntot))
