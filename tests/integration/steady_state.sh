# The steady-state verdict (SNIA PTS) against a fault injected into one
# slave, and against the run's own record. Two local slaves at iorate=max
# for 10 measured 1 s intervals (5 rounds of 2); ev=stall stops slave
# local-1 (SIGSTOP) 4 s in and lets it go 2 s later, so that local-1 has
# no I/O for about two intervals inside the window:
# - local-1 is named not steady in summary.json, summary.txt and on the
#   console, worst first;
# - the cluster's and local-1's excursions are what the SNIA formulas give
#   on the series lockstep wrote (intervals.csv's measured rows plus their
#   late rows; hosts/local-1.csv), recomputed here;
# - a run with fewer measured intervals than rounds says it was not judged;
# - each run's block in summary.txt says its verdict (after HCIBench's
#   lines).
source "$(dirname "$0")/lib.sh"

cat > "$TMP/s.vdb" <<VDB
sd=sd1,lun=$TMP/d1.dat,size=16m,threads=2
wd=wd1,sd=sd1,xfersize=4k,rdpct=70
rd=r1,wd=wd1,iorate=max,elapsed=10,warmup=0,interval=1
rd=r2,wd=wd1,iorate=max,elapsed=3,interval=1
ev=stall,rd=r1,at=4s,exec="kill -STOP \$(pgrep -P \$PPID -f 'name local-[1]'); date +stop=%s%N; sleep 2; kill -CONT \$(pgrep -P \$PPID -f 'name local-[1]'); date +cont=%s%N"
VDB
run_bounded 90 "$LOCKSTEP" run "$TMP/s.vdb" -o "$TMP/out" --local-slaves 2 \
	--slave-timeout 20 > "$TMP/console" 2> "$TMP/err"
[ "$rc" -eq 0 ] || { cat "$TMP/console" "$TMP/err"; fail "run exited $rc"; }
grep -q "^stop=" "$TMP/out/events/stall.log" && grep -q "^cont=" "$TMP/out/events/stall.log" ||
	{ fail_show "$TMP/out/events/stall.log" "the stall did not stop and continue local-1"; }
grep -q "^Run r1: .*SNIA PTS, 5 rounds of 2 intervals.*slaves not steady: local-1" "$TMP/console" ||
	{ fail_show "$TMP/console" "the console does not name local-1 not steady"; }
grep -q "^Run r2: steady state not judged: fewer measured intervals than rounds" "$TMP/console" ||
	{ fail_show "$TMP/console" "the 3-interval run does not say it was not judged"; }
grep -q "^  r1: .* of 2 slaves not steady" "$TMP/out/summary.txt" || fail "summary.txt has no steady-state line for r1"

python3 - "$TMP/out" <<'PY'
import csv, json, sys
out = sys.argv[1]
s = json.load(open(out + "/summary.json"))
r1 = next(r for r in s["runs"] if r["name"] == "r1")
r2 = next(r for r in s["runs"] if r["name"] == "r2")
st = r1["steady_state"]
assert st["method"] == "SNIA PTS" and st["rounds"] == 5, st
assert st["intervals_per_round"] == 2, st
assert r2["steady_state"]["not_judged"].startswith("fewer measured"), r2

def rounds(ops):
    # ops: {interval (1-based): I/Os}; 10 measured intervals, rounds of 2
    return [ops.get(2 * k + 1, 0) + ops.get(2 * k + 2, 0) for k in range(5)]

def snia(x):
    n = len(x)
    mean = sum(x) / n
    mx = (n - 1) / 2
    slope = sum((i - mx) * (v - mean) for i, v in enumerate(x)) / sum((i - mx) ** 2 for i in range(n))
    return (max(x) - min(x)) / mean * 100, abs(slope) * (n - 1) / mean * 100

def close(a, b):
    return abs(a - b) <= 1e-6 * max(1, abs(b))

# The cluster: measured rows and the late rows after them (the totals').
cl = {}
for row in csv.DictReader(open(out + "/intervals.csv")):
    if row["run"] == "r1" and row["phase"] in ("measure", "late"):
        cl[int(row["interval"])] = cl.get(int(row["interval"]), 0) + int(row["ops"])
d, sl = snia(rounds(cl))
assert close(st["data_excursion_pct"], d) and close(st["slope_excursion_pct"], sl), (st, d, sl)
assert st["steady"] == (d <= 20 and sl <= 10), st

# local-1: its own rows, on time and late.
h = {}
for row in csv.DictReader(open(out + "/hosts/local-1.csv")):
    if row["run"] == "r1" and row["phase"] in ("measure", "late"):
        h[int(row["interval"])] = h.get(int(row["interval"]), 0) + int(row["ops"])
d1, s1 = snia(rounds(h))
bad = {x["slave"]: x for x in st["not_steady"]}
assert "local-1" in bad, st
assert st["slaves_judged"] == 2, st
assert st["slaves_not_steady"] == len(st["not_steady"]) >= 1, st
assert close(bad["local-1"]["data_excursion_pct"], d1), (bad, d1)
assert close(bad["local-1"]["slope_excursion_pct"], s1), (bad, s1)
# The injected stall: about two intervals without I/O, inside the window.
assert d1 > 20, (d1, h)
# summary.txt: each run's HCIBench block says its verdict on a line of its
# own, after HCIBench's lines.
txt = open(out + "/summary.txt").read()
def block(name):
    return txt.split("Run %s (" % name, 1)[1].split("\n\n", 1)[0]
want = "\nsteady state: %s (SNIA PTS: data excursion %.1f%%, limit 20%%; slope excursion %.1f%%, limit 10%%)" % (
    "steady" if st["steady"] else "not steady", st["data_excursion_pct"], st["slope_excursion_pct"])
assert want in block("r1") and "99%tile_LAT = " in block("r1").split(want)[0], (want, block("r1"))
assert "\nsteady state: not judged (fewer measured intervals than rounds (5))" in block("r2"), block("r2")
print("ok: cluster data %.1f%% slope %.1f%% (%s); local-1 data %.1f%% slope %.1f%%, rounds %s"
      % (d, sl, "steady" if st["steady"] else "not steady", d1, s1, rounds(h)))
PY
echo "PASS"
