# openflags= on an rd and on a wd, and priority= (Vdbench's), end to end:
# `lockstep check` shows which openflags= open each sd and whose they are
# (text and --json) and the rate each wd gets beside a fixed-rate one;
# a run opens the file target with O_SYNC from the rd, then with O_DSYNC
# from a wd, as the slave read them back from the kernel (F_GETFL) and
# wrote them to lockstep.log (lockstep's own record, not /proc while it
# runs); the priority run follows the rd's rate, split 100 + 300 (the
# schedule, on lockstep's interval stamps and counts). A clash of two
# wds' openflags= on one sd is refused at FILE:LINE:COLUMN.
source "$(dirname "$0")/lib.sh"

truncate -s 16m "$TMP/d1.dat"
cat > "$TMP/t.vdb" <<VDB
sd=sd1,lun=$TMP/d1.dat,size=16m,threads=4
wd=wd1,sd=sd1,xfersize=4k,rdpct=50
wd=wd2,sd=sd1,xfersize=4k,rdpct=0,openflags=o_dsync
wd=fix,sd=sd1,xfersize=4k,rdpct=50,iorate=100,priority=1
wd=rest,sd=sd1,xfersize=4k,rdpct=50,priority=2
rd=r1,wd=wd1,iorate=max,elapsed=2,interval=1,openflags=o_sync
rd=r2,wd=wd2,iorate=max,elapsed=2,interval=1
rd=r3,wd=(fix,rest),iorate=400,elapsed=3,interval=1
VDB
run_bounded 30 "$LOCKSTEP" check "$TMP/t.vdb" > "$TMP/check.txt" 2> "$TMP/check.err"
[ "$rc" -eq 0 ] || fail_show "$TMP/check.err" "lockstep check exited $rc"
for want in "openflags: sd1=o_sync(rd)" "openflags: sd1=o_dsync(wd=wd2)" \
	"fix: sd=(sd1) xfersize=4k rdpct=50 seekpct=100 skew=25 range=(0,100) iorate=100 priority=1" \
	"rest: sd=(sd1) xfersize=4k rdpct=50 seekpct=100 skew=75 range=(0,100) priority=2"; do
	grep -qF "$want" "$TMP/check.txt" || fail_show "$TMP/check.txt" "check does not say $want"
done
grep -qF "t.vdb:5:37: warning: rd=r3: priority= orders Vdbench's queued I/O" "$TMP/check.err" ||
	fail_show "$TMP/check.err" "no warning that a backlog is not served by priority"
run_bounded 30 "$LOCKSTEP" check --json "$TMP/t.vdb" > "$TMP/check.json" 2> /dev/null
python3 - "$TMP/check.json" <<'PY'
import json, sys
ph = json.load(open(sys.argv[1]))["phases"]
assert ph[0]["openflags"] == {"sd1": {"openflags": ["o_sync"], "from": "rd"}}, ph[0]
assert ph[1]["openflags"] == {"sd1": {"openflags": ["o_dsync"], "from": "wd",
                                      "wd": "wd2"}}, ph[1]
assert ph[2]["openflags"]["sd1"]["from"] == "sd", ph[2]
assert ph[2]["openflags"]["sd1"]["openflags"] == [], ph[2]
w = {x["name"]: x for x in ph[2]["wds"]}
assert (w["fix"]["skew"], w["fix"]["iorate"], w["fix"]["priority"]) == (25, 100, 1), w
assert (w["rest"]["skew"], w["rest"]["priority"]) == (75, 2), w
assert ph[2]["iorate"] == 400, ph[2]
PY

run_bounded 90 "$LOCKSTEP" run "$TMP/t.vdb" -o "$TMP/out" --local-slaves 1 > "$TMP/console.txt" 2>&1
[ "$rc" -eq 0 ] || fail_show "$TMP/console.txt" "lockstep run exited $rc"
# One line per phase with openflags=: r1 and r2, not r3 (none); the ones
# the master relayed from the slave (a launched slave's own stderr is in
# lockstep.log too, a daemon's is not).
grep -F "INFO slave local-1: sd sd1: $TMP/d1.dat opened" "$TMP/out/lockstep.log" > "$TMP/opened.txt" ||
	fail_show "$TMP/out/lockstep.log" "the slave did not say how it opened sd1"
python3 - "$TMP/opened.txt" <<'PY'
import sys
lines = [l.rstrip("\n") for l in open(sys.argv[1])]
ends = [l.split(" opened ")[1] for l in lines]
assert ends == ["O_RDWR|O_SYNC", "O_RDWR|O_DSYNC"], lines
PY
python3 - "$TMP/out" "$HERE" <<'PY'
import json, sys
d = sys.argv[1]
sys.path.insert(0, sys.argv[2])
import schedule
runs = {r["name"]: r for r in json.load(open(d + "/summary.json"))["runs"]}
for n in ("r1", "r2", "r3"):
    assert runs[n]["totals"]["ops"] > 0, runs[n]
assert runs["r3"]["iorate"] == 400, runs["r3"]["iorate"]
schedule.check(schedule.series(d, "r3"), 400, 4)
PY

# Two wds of one rd that open one sd differently: refused where it is said.
cat > "$TMP/bad.vdb" <<VDB
sd=sd1,lun=$TMP/d1.dat,size=16m
wd=w1,sd=sd1,openflags=o_direct
wd=w2,sd=sd1,openflags=o_sync
rd=r1,wd=(w1,w2)
VDB
run_bounded 30 "$LOCKSTEP" check "$TMP/bad.vdb" > "$TMP/bad.txt" 2>&1
[ "$rc" -ne 0 ] || fail_show "$TMP/bad.txt" "a clash of openflags= was accepted"
grep -qF "bad.vdb:3:14: wd=w2 and wd=w1 of rd=r1 give sd=sd1 different openflags=" "$TMP/bad.txt" ||
	fail_show "$TMP/bad.txt" "the clash is not refused at its FILE:LINE:COLUMN"
echo "PASS"
