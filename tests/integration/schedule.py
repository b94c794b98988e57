"""An open-loop rate's schedule, checked on what lockstep recorded.

A fixed iorate= issues I/Os at intended times with exponential gaps (a
Poisson schedule, a random seed per run), and counts each I/O's latency
from its intended start. So, whatever the machine does (a neighbour test,
a CPU hog, a throttled device), by a time t after the phase's start:

- the I/Os completed are never more than the schedule's rate * t, give or
  take its noise (5 standard deviations, sqrt(rate * t), plus the I/Os in
  flight): an open-loop rate does not issue early;
- the I/Os owed (rate * t minus those completed) are explained by the
  latency recorded later: an I/O owed at t completes after t and counts
  at least t minus its intended start as latency, so what is owed is at
  most rate * the highest latency of the intervals after t (for the last
  interval, its own: what the phase's end cut off).

Times are the interval stamps lockstep wrote (start_ns, end_ns), counts
its rows (late rows included), latencies its resp_max_ms: nothing reads
the clock of the machine that ran the test.
"""
import csv
import math


def series(d, run="r1"):
    """The run's warmup and measure intervals in order, each a dict with
    start_ns, end_ns, ops (its late rows' ops added), iops (ops over the
    interval's stamped length) and resp_max_ms (its late rows' too)."""
    out, late = [], {}
    with open(d + "/intervals.csv", newline="") as f:
        for r in csv.DictReader(f):
            if r["run"] != run:
                continue
            if r["phase"] == "late":
                late.setdefault(r["interval"], []).append(r)
            elif r["phase"] in ("warmup", "measure"):
                out.append(r)
    rows = []
    for r in out:
        ls = late.get(r["interval"], [])
        ops = int(r["ops"]) + sum(int(x["ops"]) for x in ls)
        s, e = int(r["start_ns"]), int(r["end_ns"])
        rows.append({"interval": r["interval"], "phase": r["phase"],
                     "start_ns": s, "end_ns": e, "ops": ops,
                     "iops": ops / ((e - s) / 1e9),
                     "resp_max_ms": max([float(r["resp_max_ms"] or 0)] +
                                        [float(x["resp_max_ms"] or 0) for x in ls]),
                     "events": r.get("events", "")})
    return rows


def noise(rate, t, depth):
    """What a Poisson schedule of rate over t seconds may stray by."""
    return 5 * math.sqrt(max(rate * t, 1)) + depth


def check(rows, rate, depth):
    """Assert the two rules above on every interval; returns the I/Os owed
    at each interval's end (negative: ahead, within the noise)."""
    t0 = rows[0]["start_ns"]
    cum, owed = 0, []
    for k, r in enumerate(rows):
        cum += r["ops"]
        t = (r["end_ns"] - t0) / 1e9
        want, slack = rate * t, noise(rate, t, depth)
        assert cum <= want + slack, \
            "by interval %s: %d I/Os, ahead of the schedule's %.0f (+%.0f)" % (
                r["interval"], cum, want, slack)
        late_s = max(x["resp_max_ms"] for x in (rows[k + 1:] or [r])) / 1e3
        assert want - cum <= slack + rate * late_s, \
            "by interval %s: %d I/Os for a schedule of %.0f, %.0f owed, but " \
            "no later I/O was more than %.3f s late" % (
                r["interval"], cum, want, want - cum, late_s)
        owed.append(want - cum)
    return owed
