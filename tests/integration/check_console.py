#!/usr/bin/env python3
"""Read a lockstep console the way Vdbench users' tools read Vdbench's,
and check what they would take against the results folder.

HCIBench (parseVdbResult.rb, get-xls-vdbench.rb): hcibench_rules.rb, a
copy of their rules in Ruby, gives the RD= lines, the avg_ totals and the
interval rows at HCIBench's positions; the n-th RD= line goes with the n-th
avg_ line and the n-th run of summary.json, and each run's interval rows
with its rows in intervals.csv.
HCIBench's live Graphite feed (vdbench_graphite.py): the column titles are
the words after "interval" on the first header line (the date is three
words before it) joined with the second line's words, which must be as
many; a line without letters is a row, and its words from the third on
are the values, one per title.
usage: check_console.py CONSOLE DIR [--vdbench]
  --vdbench: the console of `lockstep vdbench` (Vdbench's 12 columns only)
"""
import csv
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def fail(msg):
    print("FAIL: " + msg, file=sys.stderr)
    sys.exit(1)


def near(a, b, tol, what):
    if abs(float(a) - float(b)) > tol:
        fail("%s: console %s, results %s (tolerance %g)" % (what, a, b, tol))


def graphite(lines, vdbench):
    titles = []
    rows = 0
    for line in lines:
        w = [x.replace("+", "_") for x in line.split()]
        if not titles and len(w) > 4 and w[3] == "interval":
            titles = w[4:]
        elif titles and titles[0] == "i/o" and len(w) > 4 and w[0] == "rate":
            if len(w) != len(titles):
                fail("graphite: header lines of %d and %d words" % (len(titles), len(w)))
            titles = [a + " " + b for a, b in zip(titles, w)]
        if not re.search("[a-zA-Z]", line) and w:
            data = w[2:]
            if len(data) != len(titles):
                fail("graphite: %d values for %d titles in %r" % (len(data), len(titles), line))
            m = dict(zip(titles, data))
            float(m["i/o rate"])
            rows += 1
    want = 12 if vdbench else 15
    if len(titles) < want or titles[:3] != ["i/o rate", "MB/sec 1024**2", "bytes i/o"]:
        fail("graphite: titles %s" % titles)
    if vdbench and len(titles) != 12:
        fail("graphite: %d titles on Vdbench's console" % len(titles))
    return rows


def main():
    console, out = sys.argv[1], sys.argv[2]
    vdbench = "--vdbench" in sys.argv[3:]
    lines = open(console, errors="replace").read().splitlines()
    hci = json.loads(subprocess.check_output(["ruby", os.path.join(HERE, "hcibench_rules.rb"), console]))
    summary = json.load(open(os.path.join(out, "summary.json")))
    runs = summary["runs"]
    if not (len(hci["rds"]) == len(hci["avgs"]) == len(runs)):
        fail("%d RD= lines, %d avg_ lines, %d runs" % (len(hci["rds"]), len(hci["avgs"]), len(runs)))
    for rd, avg, run in zip(hci["rds"], hci["avgs"], runs):
        name = run["name"].split(" ")[0]
        want = "RD=format_for_" + name if run["kind"] == "format" else "RD=" + name
        if rd.split(";")[0] != want:
            fail("Run Def %r for run %r" % (rd, run["name"]))
        t = run["totals"]
        near(avg["iops"], t["iops"], 0.0051, run["name"] + " iops")
        near(avg["mbps"], t["mbps"], 0.0051, run["name"] + " MB/s")
        near(avg["bytes"], t["bytes"] / t["ops"] if t["ops"] else 0, 0.51, run["name"] + " bytes")
        near(avg["readpct"], t["read_pct"], 0.0051, run["name"] + " read%")
        near(avg["resp"], t["lat_mean_ms"], 0.00051, run["name"] + " resp")
        near(avg["rresp"], t["read_lat_mean_ms"], 0.00051, run["name"] + " read resp")
        near(avg["wresp"], t["write_lat_mean_ms"], 0.00051, run["name"] + " write resp")
        near(avg["stddev"], t["lat_stddev_ms"], 0.00051, run["name"] + " stddev")
        near(avg["qd"], t["queue_depth"], 0.051, run["name"] + " queue depth")
    with open(os.path.join(out, "intervals.csv"), newline="") as f:
        csvrows = [r for r in csv.DictReader(f) if r["phase"] != "late"]
    want = []
    for run in runs:
        want += [(run["name"], r) for r in csvrows if r["run"] == run["name"]]
    got = [g for rows in hci["runs"] for g in rows]
    if len(got) != len(want):
        fail("%d interval rows, %d in intervals.csv" % (len(got), len(want)))
    # HCIBench starts a run's rows where the interval number drops (a run
    # of one interval before another's first is taken as one).
    groups = sum(1 for i, (_, w) in enumerate(want)
                 if i == 0 or int(want[i - 1][1]["interval"]) > int(w["interval"]))
    if groups != len(hci["runs"]):
        fail("%d runs of interval rows, %d by HCIBench's rule on intervals.csv" % (len(hci["runs"]), groups))
    n = 0
    for g, (name, w) in zip(got, want):
        what = "%s interval %s" % (name, w["interval"])
        if g["interval"] != int(w["interval"]):
            fail(what + ": numbered %d" % g["interval"])
        near(g["iops"], w["iops"], 0.051, what + " iops")
        near(g["mbps"], w["mbps"], 0.0051, what + " MB/s")
        near(g["resp"], w["resp_ms"], 0.00051, what + " resp")
        near(g["rresp"], w["read_resp_ms"], 0.00051, what + " read resp")
        near(g["wresp"], w["write_resp_ms"], 0.00051, what + " write resp")
        near(g["stddev"], w["resp_stddev_ms"], 0.00051, what + " stddev")
        n += 1
    g = graphite(lines, vdbench)
    if g != n:
        fail("graphite: %d rows sent, %d interval rows" % (g, n))
    print("ok: %d runs and %d interval rows read as HCIBench and its Graphite feed read them" % (len(runs), n))


main()
