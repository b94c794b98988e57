#!/bin/bash
# fwdrate=curve runs Vdbench's curve on file-system runs (RD_entry's
# insertCurveRuns and set_iorate): a max run, then one run per curve=
# point at its share of the max run's requested operations' rate
# (ReqstdOps), rounded up as Vdbench does. Two local slaves on tmpfs, a
# read fwd of 1 MiB files in 1 MiB transfers (threads=4: 2 per slave),
# checked on lockstep's own record (summary.json, the console):
# - each point's "iorate" is its percentage of the max run's recorded
#   requested_rate, up to 10 (100 above 1000) ops/s, the console's
#   "Starting RD=" line gives that rate, and the point's requested
#   operations over its elapsed time make that rate within 2 turns of
#   each slave's thread;
# - stopcurve= applies as in Vdbench: a curve whose first point's
#   response time is over it (any read takes more than 1 us) runs no
#   other point, and summary.json's curve says it was stopped.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/fs_lib.sh"
SHM=$(mktemp -d /dev/shm/lockstep-fscurve.XXXXXX)
trap 'rm -rf "$SHM"; cleanup' EXIT

cat > "$TMP/curve.vdb" <<VDB
fsd=fsd1,anchor=$SHM,depth=1,width=2,files=8,size=1m
fwd=rd,fsd=fsd1,operation=read,xfersize=1m,fileio=sequential,fileselect=random,threads=4
rd=cv,fwd=rd,fwdrate=curve,curve=(10,20),format=yes,elapsed=3,interval=1
rd=st,fwd=rd,fwdrate=curve,curve=(10,20),stopcurve=0.001,format=no,elapsed=1,interval=1
VDB
run curve
[ "$rc" -eq 0 ] || fail_show "$TMP/curve.txt" "exited $rc"
grep -q "^.*st curve=10%: response time .* ms is above stopcurve=0.001 ms" \
	"$TMP/curve.txt" || fail_show "$TMP/curve.txt" "stopcurve= not applied"
/usr/bin/python3 - "$TMP/curve" "$TMP/curve.txt" <<'PY' ||
import json, math, re, sys
s = json.load(open(sys.argv[1] + "/summary.json"))
console = open(sys.argv[2]).read()
runs = {r["name"]: r for r in s["runs"]}
SLAVES, THREADS = 2, 2  # threads=4 over two slaves

def curve_rate(m, pct):
    r = m * pct / 100
    step = 100 if r > 1000 else 10
    return math.ceil(r / step - 1e-9) * step

mx = runs["cv curve=max"]
assert mx["kind"] == "curve-max" and mx["iorate"] == 0, mx["kind"]
m = mx["operations"]["requested_rate"]
n = mx["operations"]["requested_count"]
assert m > 0 and abs(n / mx["elapsed_s"] - m) <= 1e-6 * m, (n, m)
starts = re.findall(r"Starting RD=cv; I/O rate: ([^;]+);", console)
assert starts[0] == "Uncontrolled curve", starts
for i, pct in enumerate((10, 20)):
    r = runs["cv curve=%d%%" % pct]
    want = curve_rate(m, pct)
    assert r["kind"] == "curve-point" and r["curve_pct"] == pct, r["kind"]
    assert abs(r["iorate"] - want) < 1e-6, (pct, r["iorate"], want)
    assert starts[1 + i] == "%g" % want, (starts, want)
    got = r["operations"]["requested_count"]
    reads = r["operations"]["read"]["count"]
    slack = 2 * SLAVES * THREADS
    assert got == reads, (got, reads)
    assert abs(got - want * r["elapsed_s"]) <= slack, \
        "curve=%d%%: %d operations over %g s, want %g/s (%d%% of %g) +- %d" % (
            pct, got, r["elapsed_s"], want, pct, m, slack)
    print("ok: curve=%d%%: fwdrate %g (%d%% of %.1f), %d operations in %g s"
          % (pct, want, pct, m, got, r["elapsed_s"]))
assert "st curve=10%" in runs and "st curve=20%" not in runs, list(runs)
c = {x["max_run"]: x for x in s["curves"]}
assert c["st curve=max"]["stopped_by_stopcurve"], c["st curve=max"]
assert c["st curve=max"]["points_not_run"] == 1, c["st curve=max"]
assert not c["cv curve=max"]["stopped_by_stopcurve"], c["cv curve=max"]
print("ok: stopcurve= stopped st after its 10% point")
PY
	fail_show "$TMP/curve.txt" "fwdrate=curve ran the wrong rates"
echo "PASS"
