#!/usr/bin/env python3
"""Read a lockstep fio.json the way fio's consumers read fio's, and check
what they take against summary.json.
HCIBench's parseFioResult.rb: for each of "jobs", jobname; iops = read +
write iops; throughput = (read + write bw) / 1024 MB/s; read and write
lat_ns mean / 1e6 ms; lat_ns percentile "95.000000" / 1e6 when present.
fio-plot (fiolib/jsonparsing.py): the root is "client_stats" when present
(else "jobs"); "All clients" jobs are set apart; from every other job
"job options" iodepth numjobs bs rw (iodepth and numjobs as ints), the
mode's bw iops iops_stddev lat_ns mean and stddev, latency_ms/us/ns,
usr_cpu, sys_cpu, hostname; per host the jobs' iops are summed.
usage: check_fio.py DIR
"""
import json
import os
import sys


def fail(msg):
    print("FAIL: " + msg, file=sys.stderr)
    sys.exit(1)


def near(a, b, tol, what):
    if abs(a - b) > tol:
        fail("%s: fio.json %r, summary.json %r" % (what, a, b))


def main():
    d = sys.argv[1]
    fio = json.load(open(os.path.join(d, "fio.json")))
    runs = json.load(open(os.path.join(d, "summary.json")))["runs"]
    if not fio["fio version"]:
        fail("no fio version")
    jobs = fio["jobs"]
    if [j["jobname"] for j in jobs] != [r["name"] for r in runs]:
        fail("jobs %s, runs %s" % ([j["jobname"] for j in jobs], [r["name"] for r in runs]))
    for j, r in zip(jobs, runs):
        t = r["totals"]
        name = r["name"]
        near(j["read"]["iops"] + j["write"]["iops"], t["iops"], 0.01, name + " iops")
        near((j["read"]["bw"] + j["write"]["bw"]) / 1024, t["mbps"], 0.001, name + " MB/s")
        for mode, key in (("read", "read_lat_mean_ms"), ("write", "write_lat_mean_ms")):
            lat = j[mode]["lat_ns"]
            near(lat["mean"] / 1e6, t[key], 1e-6, name + " " + mode + " latency")
            if j[mode]["total_ios"]:
                p = lat["percentile"]
                p95 = p["95.000000"] / 1e6
                if not (lat["min"] <= p["1.000000"] <= p95 * 1e6 <= p["99.990000"] <= lat["max"] * 1.01):
                    fail(name + " " + mode + ": percentiles out of order: %s" % p)
                if lat["N"] != j[mode]["total_ios"]:
                    fail(name + ": N %d, total_ios %d" % (lat["N"], j[mode]["total_ios"]))
        near(j["read"]["total_ios"] + j["write"]["total_ios"], t["ops"], 0, name + " ops")
        share = sum(j["latency_ns"].values()) + sum(j["latency_us"].values()) + sum(j["latency_ms"].values())
        if t["ops"]:
            near(share, 100, 0.01, name + " latency_ns/us/ms shares")
    root = "client_stats" if "client_stats" in fio else "jobs"
    hosts = {}
    allc = []
    for job in fio[root]:
        if job["jobname"] == "All clients":
            allc.append(job)
            continue
        o = {**job["job options"], **fio["global options"]}
        int(o["iodepth"]), int(o["numjobs"])
        o["bs"], o["rw"]
        for mode in ("read", "write"):
            job[mode]["bw"], job[mode]["iops"], job[mode]["iops_stddev"]
            job[mode]["lat_ns"]["mean"], job[mode]["lat_ns"]["stddev"]
        job["latency_ms"], job["latency_us"], job["latency_ns"], job["usr_cpu"], job["sys_cpu"]
        hosts.setdefault((job["jobname"], job.get("hostname")), []).append(job)
    if len(allc) != len(runs):
        fail("%d 'All clients' jobs for %d runs" % (len(allc), len(runs)))
    for r in runs:
        mine = {h: js for (n, h), js in hosts.items() if n == r["name"]}
        want = {s["slave"]: s["totals"] for s in r["per_slave"]}
        if set(mine) != set(want):
            fail("%s: hosts %s, per_slave %s" % (r["name"], sorted(mine), sorted(want)))
        for h, js in mine.items():
            iops = sum(j["read"]["iops"] + j["write"]["iops"] for j in js)
            near(iops, want[h]["iops"], 0.01, "%s %s iops" % (r["name"], h))
    print("ok: fio.json: %d jobs, %d client jobs, read as HCIBench and fio-plot read fio's" % (len(jobs), sum(len(v) for v in hosts.values())))


main()
