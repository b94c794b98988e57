# The knee of a curve (master/results/knee.c) on a device whose latency
# knee is known: a 64 MiB loop device read by one local slave whose
# master runs in a cgroup v1 blkio group capped at CAP reads a second (the
# local slaves are its children and their io_uring workers inherit the
# group). Below the cap a read waits for the device only; above it reads
# queue behind the throttle up to the threads' depth. The max run
# measures CAP (2050); an ev= line then lowers the cap to TIGHT (1500)
# when the 90% point starts, so that 90%, 95% and 100% (1845 IO/s and
# more) are well over it and fill their queues: the injected knee is at
# or before 80% (1640 IO/s). (A point only a few percent over the cap
# itself, as 100% alone would be, may pass the throttle's bursts without
# queueing on a busy machine: CI saw the 100% point at 0.62 ms.) Checked
# against lockstep's own record:
# - the console's "Curve c: knee at ..." line, summary.json's "curves"
#   and summary.txt's block agree;
# - the knee is what the documented rule (knee.h) gives on the IOPS and
#   response times summary.json recorded for the curve's points,
#   recomputed here, and it lies in the curve's upper part (>= 50%) and
#   before the points run under the tightened cap (<= 80%);
# - a curve stopped by stopcurve= at its first point (any read takes
#   more than 1 us) says it has too few points, and that it was stopped.
source "$(dirname "$0")/lib.sh"
[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root (loop device, cgroup)"; exit 77; }
[ -w /sys/fs/cgroup/blkio/cgroup.procs ] ||
	{ echo "SKIP: needs cgroup v1 blkio under /sys/fs/cgroup/blkio"; exit 77; }
CAP=2050
TIGHT=1500
source "$(dirname "$0")/loop_lib.sh"
cleanup_knee() {
	cleanup
	loop_down
}
trap cleanup_knee EXIT
loop_up /sys/fs/cgroup/blkio/lockstep-knee-$$
echo "$MM $CAP" > "$CG/blkio.throttle.read_iops_device"

cat > "$TMP/k.vdb" <<VDB
sd=sd1,lun=$LOOP,openflags=o_direct,threads=8
wd=wd1,sd=sd1,xfersize=4k,rdpct=100
rd=c,wd=wd1,iorate=curve,curve=(10,30,50,70,80,90,95,100),elapsed=3,warmup=1,interval=1
rd=two,wd=wd1,iorate=curve,curve=(50,100),stopcurve=0.001,elapsed=1,warmup=0,interval=1
ev=tight,rd=c,at="c curve=90%",exec="echo $MM $TIGHT > $CG/blkio.throttle.read_iops_device"
VDB
# The master enters the group before it execs: its local slaves are born
# in it.
run_bounded 120 sh -c 'echo $$ > "$1/cgroup.procs"; shift; exec "$@"' sh "$CG" \
	"$LOCKSTEP" run "$TMP/k.vdb" -o "$TMP/out" --local-slaves 1 \
	> "$TMP/console" 2> "$TMP/err"
[ "$rc" -eq 0 ] || { cat "$TMP/console" "$TMP/err"; fail "run exited $rc"; }
grep "^Curve " "$TMP/console" || true
grep -qE "^Curve c: knee at [0-9.]*% \(c curve=[0-9.]*%: [0-9]* IO/s, resp [0-9.]* ms\): (beyond it response time rises [0-9.]*x faster than IOPS|the curve's most IOPS; beyond it response time rises [0-9.]*x with no more IOPS) \(Kneedle, 8 points" "$TMP/console" ||
	{ fail_show "$TMP/console" "the console has no knee line for curve c"; }
grep -q "^Curve two: no knee: too few points (3 needed) (Kneedle, 1 point, 1 not run, stopped by stopcurve=)" "$TMP/console" ||
	{ fail_show "$TMP/console" "the curve stopped at its first point does not say it has too few points"; }

python3 - "$TMP/out" "$TMP/console" <<'PY'
import json, re, sys
out, console = sys.argv[1], open(sys.argv[2]).read()
s = json.load(open(out + "/summary.json"))
txt = open(out + "/summary.txt").read()
curves = {c["max_run"]: c for c in s["curves"]}
assert set(curves) == {"c curve=max", "two curve=max"}, curves

def knee(pts):
    """knee.h's rule: (pct, iops, resp) in run order -> (pct, bend, rise)."""
    u = [p for p in pts if p[1] > 0 and p[2] > 0]
    if len(u) < 3:
        return "too few"
    xs, m = [], 0
    for p in u:
        m = max(m, p[1])
        xs.append(m)
    ys = [p[2] for p in u]
    x0, xl, lo, hi = xs[0], xs[-1], min(ys), max(ys)
    if not xl > x0:
        return "no rise"
    if hi <= lo * 1.25:
        return "flat"
    y0, y1 = (ys[0] - lo) / (hi - lo), (ys[-1] - lo) / (hi - lo)
    best, at, top = None, None, 0
    for i in range(len(u) - 1):
        # Of the points at the most IOPS only the first (saturation).
        if not xs[i] < xl:
            top += 1
            if top > 1:
                continue
        if i == 0:
            continue
        # In knee.c's order, so that near ties fall the same way.
        d = y0 + (y1 - y0) * ((xs[i] - x0) / (xl - x0)) - (ys[i] - lo) / (hi - lo)
        if best is None or d > best:
            best, at = d, i
    if best is None or best < 0.1:
        return "straight"
    growth = ys[-1] / ys[at]
    if xs[at] < xl:
        rise = (growth - 1) / (xl / xs[at] - 1)
    else:
        rise = float("inf") if growth > 1 else 0
    if not rise > 1:
        return "not steep"
    return (u[at][0], best, rise, growth)

def close(a, b):
    return abs(a - b) <= 1e-9 * max(1, abs(b))

pts = [r for r in s["runs"] if r["kind"] == "curve-point" and r["name"].startswith("c ")]
assert len(pts) == 8, [r["name"] for r in pts]
curve = [(float(re.search(r"curve=([0-9.]+)%", r["name"]).group(1)),
          r["totals"]["iops"], r["totals"]["lat_mean_ms"]) for r in pts]
want = knee(curve)
c = curves["c curve=max"]
assert c["method"] == "kneedle" and c["points"] == 8, c
assert not c["stopped_by_stopcurve"] and c["points_not_run"] == 0, c
assert isinstance(want, tuple), (want, curve)
k = c["knee"]
assert close(k["pct"], want[0]), (k, want, curve)
assert close(k["bend"], want[1]) and close(k["resp_growth"], want[3]), (k, want)
assert k["at_max_iops"] == (want[2] == float("inf")), (k, want)
if k["at_max_iops"]:
    assert k["rise_ratio"] is None, k
    tail = "the curve's most IOPS; beyond it response time rises %.1fx with no more IOPS" % k["resp_growth"]
else:
    assert close(k["rise_ratio"], want[2]), (k, want)
    tail = "beyond it response time rises %.1fx faster than IOPS" % k["rise_ratio"]
run = next(r for r in pts if r["name"] == k["run"])
assert close(k["iops"], run["totals"]["iops"]), (k, run["totals"])
assert close(k["resp_ms"], run["totals"]["lat_mean_ms"]), (k, run["totals"])
assert k["pct"] >= 50, ("the knee is low on the curve", k, curve)
assert k["pct"] <= 80, ("the knee is past the injected one", k, curve)
line = "knee at %g%% (%s: %.0f IO/s, resp %.3f ms): " % (
    k["pct"], k["run"], k["iops"], k["resp_ms"]) + tail
assert "Curve c: " + line in console, (line, console)
assert "  c: " + line in txt, (line, txt)
two = curves["two curve=max"]
assert two["no_knee"].startswith("too few points") and "knee" not in two, two
assert two["stopped_by_stopcurve"] and two["points"] == 1 and two["points_not_run"] == 1, two
assert "  two: no knee: too few points (3 needed) (1 point, 1 not run, stopped by stopcurve=)" in txt, txt
print("ok: knee at %g%% (%.0f IO/s, %.3f ms; bend %.3f, resp x%.1f after) of %s" % (
    k["pct"], k["iops"], k["resp_ms"], k["bend"], k["resp_growth"],
    ", ".join("%g%%: %.0f IO/s %.3f ms" % p for p in curve)))
PY
echo "PASS"
