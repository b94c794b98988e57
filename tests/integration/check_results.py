#!/usr/bin/env python3
"""Check a lockstep results folder for exact arithmetic.

For every cluster interval: every slave reported it once (in the cluster row
or, past the merge's grace, in a late row), ops equal the sum of the
per-slave ops, reads + writes equal ops, bytes likewise, and the read share
is within 3 points of the asked rdpct. For the run: totals equal the sum of
the measured intervals and the sum of the per-slave totals. histograms.csv
holds every interval's I/Os: per run, interval, phase and direction its
counts equal intervals.csv's (late rows with late rows), in quarter-octave
buckets, and each row's p99 lies in the bucket where the counts reach 99%.
usage: check_results.py DIR --rdpct P --slaves N [--run NAME]
"""
import argparse
import csv
import glob
import json
import os
import sys


def fail(msg):
    print("FAIL: " + msg, file=sys.stderr)
    sys.exit(1)


def rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def check_histograms(d, cluster):
    """histograms.csv against intervals.csv (sink_histmap.c's promise)."""
    hist = {}
    for h in rows(os.path.join(d, "histograms.csv")):
        lo, hi, n = int(h["lo_ns"]), int(h["hi_ns"]), int(h["count"])
        # Quarter octaves: [0,1) .. [3,4), then a quarter of lo's octave.
        width = 1 if lo < 4 else 1 << (lo.bit_length() - 3)
        if n <= 0 or hi - lo != width or lo % width:
            fail("histograms.csv: bad bucket %s" % h)
        key = (h["run"], h["interval"], "late" if h["phase"] == "late" else "row")
        per = hist.setdefault(key, {})
        per[h["dir"]] = per.get(h["dir"], 0) + n
        per.setdefault("buckets", {})
        per["buckets"][(lo, hi)] = per["buckets"].get((lo, hi), 0) + n
    want = {}
    for r in cluster:
        key = (r["run"], r["interval"], "late" if r["phase"] == "late" else "row")
        w = want.setdefault(key, [0, 0, None])
        w[0] += int(r["read_ops"])
        w[1] += int(r["write_ops"])
        if key[2] == "row" and r["p99_ms"]:
            w[2] = float(r["p99_ms"]) * 1e6
    for key, (reads, writes, p99) in want.items():
        got = hist.pop(key, {})
        for dname, n in (("read", reads), ("write", writes)):
            if got.get(dname, 0) != n:
                fail("histograms.csv: %s: %d %s I/Os, intervals.csv %d"
                     % (key, got.get(dname, 0), dname, n))
        total, below = reads + writes, 0
        if p99 is None or not total:
            continue
        for (lo, hi), c in sorted(got["buckets"].items()):
            if lo <= p99 < hi and not (below <= 0.99 * total + 1 <= below + c + 2):
                fail("histograms.csv: %s: p99 %.0f ns in [%d,%d) holding %d..%d of %d"
                     % (key, p99, lo, hi, below, below + c, total))
            below += c
    if hist:
        fail("histograms.csv: intervals intervals.csv does not have: %s" % sorted(hist)[:3])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--rdpct", type=float, required=True)
    ap.add_argument("--slaves", type=int, required=True)
    ap.add_argument("--status", default="completed")
    ap.add_argument("--degraded", action="store_true",
                    help="slaves may be missing from intervals")
    args = ap.parse_args()

    log = open(os.path.join(args.dir, "lockstep.log"), errors="replace").read()
    for bad in ("Sanitizer", "runtime error:", "exited with status", "dropped a bad frame"):
        if bad in log:
            fail("lockstep.log reports '%s':\n%s" % (bad, log[-3000:]))
    summary = json.load(open(os.path.join(args.dir, "summary.json")))
    if summary["status"] != args.status:
        fail("status %s, expected %s" % (summary["status"], args.status))
    if len(summary["slaves"]) != args.slaves:
        fail("%d slaves in summary, expected %d" % (len(summary["slaves"]), args.slaves))
    cluster = rows(os.path.join(args.dir, "intervals.csv"))
    hosts = {}
    for path in glob.glob(os.path.join(args.dir, "hosts", "*.csv")):
        hosts[os.path.basename(path)[:-4]] = rows(path)
    if len(hosts) != args.slaves:
        fail("%d host files, expected %d" % (len(hosts), args.slaves))
    if not cluster:
        fail("no intervals")

    nint = 0
    for run in summary["runs"]:
        name = run["name"]
        mine = [r for r in cluster if r["run"] == name and not r["phase"].startswith("late")]
        late = [r for r in cluster if r["run"] == name and r["phase"] == "late"]
        if len(mine) != run["intervals"]:
            fail("run %s: %d interval rows, expected %d" % (name, len(mine), run["intervals"]))
        meas = {k: 0 for k in ("ops", "read_ops", "write_ops", "bytes", "read_bytes", "write_bytes")}
        for r in mine:
            nint += 1
            i = r["interval"]
            # Every slave's row of every interval reached the master, once.
            # On a busy machine a slave's row may come past the 500 ms
            # grace: the cluster row then names it missing and the row is
            # written as a `late` row of that interval, its I/Os counted
            # once (checked below). That is the merge working, not a slave
            # gone: count it, and ask that each host file has the interval
            # exactly once.
            nlate = sum(int(x["slaves_reported"]) for x in late if x["interval"] == i)
            if not args.degraded:
                if int(r["slaves_expected"]) != args.slaves or int(r["slaves_reported"]) + nlate != args.slaves:
                    fail("run %s interval %s: slaves %s/%s (+%d late)" % (name, i, r["slaves_reported"], r["slaves_expected"], nlate))
                for h, rs in hosts.items():
                    n = sum(1 for x in rs if x["run"] == name and x["interval"] == i)
                    if n != 1:
                        fail("run %s interval %s: %d rows in hosts/%s.csv, expected 1" % (name, i, n, h))
            for k in ("ops", "read_ops", "write_ops", "bytes", "read_bytes", "write_bytes"):
                total = sum(int(h[k]) for rs in hosts.values() for h in rs
                            if h["run"] == name and h["interval"] == i)
                got = int(r[k]) + sum(int(x[k]) for x in late if x["interval"] == i)
                if total != got:
                    fail("run %s interval %s: cluster %s %s != sum of slaves %d" % (name, i, k, r[k], total))
            if int(r["read_ops"]) + int(r["write_ops"]) != int(r["ops"]):
                fail("interval %s: read_ops + write_ops != ops" % i)
            if int(r["read_bytes"]) + int(r["write_bytes"]) != int(r["bytes"]):
                fail("interval %s: read_bytes + write_bytes != bytes" % i)
            # The interval's I/O: its row's and its late rows' (a slave
            # whose row came past the grace reported it all the same; in
            # CI both slaves of ssh_hosts once did, leaving the row 0).
            n = int(r["ops"]) + sum(int(x["ops"]) for x in late if x["interval"] == i)
            reads = int(r["read_ops"]) + sum(int(x["read_ops"]) for x in late if x["interval"] == i)
            if n == 0:
                fail("interval %s: no I/O" % i)
            # Each I/O is a read with probability rdpct: the share of a
            # small interval strays by chance, so allow 3 points or 4.5
            # standard deviations of a binomial, whichever is more.
            pct = 100.0 * reads / n
            p = args.rdpct / 100.0
            tol = max(3.0, 450.0 * (p * (1 - p) / n) ** 0.5)
            if abs(pct - args.rdpct) > tol:
                fail("interval %s: read %% %.2f of %d I/Os, asked %.0f (+-%.2f)"
                     % (i, pct, n, args.rdpct, tol))
            if r["phase"] == "measure":
                for k in meas:
                    meas[k] += int(r[k]) + sum(int(x[k]) for x in late if x["interval"] == i)
        for k, v in meas.items():
            if run["totals"][k] != v:
                fail("run %s: totals %s %d != sum of measured intervals %d" % (name, k, run["totals"][k], v))
        for k in ("ops", "bytes", "read_ops", "write_ops"):
            s = sum(p["totals"][k] for p in run["per_slave"])
            if s != run["totals"][k]:
                fail("run %s: per-slave %s sum %d != totals %d" % (name, k, s, run["totals"][k]))
        t = run["totals"]
        if not (t["lat_p50_ms"] <= t["lat_p95_ms"] <= t["lat_p99_ms"] <= t["lat_p999_ms"] <= t["lat_max_ms"] * 1.0001):
            fail("run %s: percentiles out of order: %s" % (name, t))
        # Per slave: percentiles from the slave's own histograms, which the
        # master takes only when they match what it received; a slave that
        # stayed to the end always has them.
        for p in run["per_slave"]:
            pt = p["totals"]
            if "percentiles_unknown" in p:
                if not args.degraded:
                    fail("run %s: slave %s has no percentiles: %s" % (name, p["slave"], p["percentiles_unknown"]))
                if pt["lat_p99_ms"] is not None:
                    fail("run %s: slave %s: percentiles unknown but p99 given" % (name, p["slave"]))
                continue
            if pt["ops"] and not (0 < pt["lat_p50_ms"] <= pt["lat_p95_ms"] <= pt["lat_p99_ms"] <= pt["lat_p999_ms"] <= pt["lat_max_ms"] * 1.0001):
                fail("run %s: slave %s: percentiles out of order: %s" % (name, p["slave"], pt))
        # With one slave, its own histograms (sent in phase_end) and the
        # master's merge of its intervals describe the same I/Os: every
        # number of its totals equals the run's.
        if args.slaves == 1 and len(run["per_slave"]) == 1:
            pt = run["per_slave"][0]["totals"]
            for k, v in t.items():
                w = pt[k]
                if v != w and not (isinstance(v, float) and isinstance(w, float)
                                   and abs(v - w) <= 1e-9 * abs(v)):
                    fail("run %s: one slave, but its %s %r != the run's %r" % (name, k, w, v))
    check_histograms(args.dir, cluster)
    print("ok: %d intervals, %d slaves, totals add up" % (nint, args.slaves))


main()
