# Events that go wrong, and ev= lines that are wrong. Every parse error of
# an ev= line is refused with FILE:LINE:COL by `lockstep check` and by
# `lockstep run` before anything starts (no results folder). Then runs on
# this machine: an exec= that hangs past its timeout= is killed with its
# whole process group, recorded timed_out, and the run goes on to its end
# (degraded, exit 4); an until= that never succeeds ends timed_out after
# its polls; an exec= that fails under on_fail=abort aborts the run (exit 2).
source "$(dirname "$0")/lib.sh"

HEAD="sd=sd1,lun=$TMP/x.dat,size=8m,threads=2
wd=wd1,sd=sd1,xfersize=4k
rd=r1,wd=wd1,elapsed=10,interval=1
rd=r2,wd=wd1,elapsed=4,interval=1,forxfersize=(4k,8k)"
HD="hd=default,shell=none
hd=h1
hd=h2
sd=sd1,lun=$TMP/x.dat,size=8m,threads=2
wd=wd1,sd=sd1,xfersize=4k
rd=r1,wd=wd1,elapsed=10,interval=1"

# refused HEAD EV MESSAGE: EV after HEAD is refused with MESSAGE (a regex
# after "FILE:"), by check and by run, and nothing is started.
refused() {
	printf '%s\n%s\n' "$1" "$2" > "$TMP/bad.vdb"
	run_bounded 20 "$LOCKSTEP" check "$TMP/bad.vdb" > "$TMP/out" 2>&1
	[ "$rc" -eq 1 ] || { fail_show "$TMP/out" "check accepted: $2"; }
	grep -qE "^$TMP/bad.vdb:$3" "$TMP/out" || { fail_show "$TMP/out" "check said something else for: $2 (wanted $3)"; }
	run_bounded 20 "$LOCKSTEP" run "$TMP/bad.vdb" -o "$TMP/never" > "$TMP/out" 2>&1
	[ "$rc" -eq 1 ] || { fail_show "$TMP/out" "run accepted: $2"; }
	grep -qE "^$TMP/bad.vdb:$3" "$TMP/out" || { fail_show "$TMP/out" "run said something else for: $2"; }
	[ ! -e "$TMP/never" ] || fail "a results folder for: $2"
}

refused "$HEAD" 'ev=e1,rd=nope,at=1,exec=true' '5:10: rd=nope refers to an undefined rd'
refused "$HEAD" 'ev=e1,after=nope,exec=true' '5:13: after=nope refers to an undefined ev'
refused "$HEAD" 'ev=e1,rd=r1,at=10s,exec=true' "5:16: ev=e1: at=10s is past the end of rd=r1's measured time \\(elapsed=10\\)"
refused "$HEAD" 'ev=e1,rd=r1,at=5,exec=true
ev=e2,after=e1+6s,exec=true' "6:13: ev=e2: starts 11s into rd=r1's measured time at the earliest, past its end"
refused "$HEAD" 'ev=e1,rd=r1,after=e2,exec=true
ev=e2,rd=r1,after=e1,exec=true' '5:19: ev=e1: after=e2 makes a cycle'
refused "$HEAD" 'ev=e1,rd=r1,at="r2 xfersize=16k",exec=true' "5:16: ev=e1: at=r2 xfersize=16k names no measured phase of rd=r1"
refused "$HEAD" 'ev=e1,rd=r2,at="r2 xfersize=8k+5s",exec=true' "5:16: ev=e1: at=5s is past the end of phase r2 xfersize=8k's measured time"
refused "$HEAD" 'ev=e1,rd=r1,at=1,poll=soon,until=true' '5:23: poll=soon is not a duration'
refused "$HEAD" 'ev=e1,rd=r1,at=1,exec=true,timeout=0' '5:36: timeout=0 must be more than 0'
refused "$HEAD" 'ev=e1,rd=r1,at=-1,exec=true' '5:16: at=-1 is not an offset'
refused "$HEAD" 'ev=e1,rd=r1,at=1,after=e1,exec=true' '5:24: ev=e1 has both at= and after='
refused "$HEAD" 'ev=e1,rd=r1,at=1' '5:1: ev=e1 has neither exec= nor until='
refused "$HEAD" 'ev=e1,rd=r1,at=1,exec=true,on_fail=retry' '5:36: on_fail=retry is not abort or continue'
refused "$HEAD" 'ev=e1,rd=r1,at=1,exec=true,rejoin=yes' '5:28: ev=e1: rejoin=yes needs expect_loss='
refused "$HEAD" 'ev=e1,rd=r1,at=1,exec=true,expect_loss=(h1)' '5:40: expect_loss=\(h1\) names hosts, but no hd= is defined'
refused "$HD" 'ev=e1,rd=r1,at=1,exec=true,expect_loss=(h1,h3)' '7:44: expect_loss=h3 refers to an undefined hd'
refused "$HD" 'ev=e1,rd=r1,at=1,exec=true,host=h9' '7:33: host=h9 refers to an undefined hd'
refused "$HEAD" 'ev=../e1,rd=r1,at=1,exec=true' "5:4: ev=../e1: a name may not contain '/'"
refused "$HEAD" 'ev=e1,at=1,exec=true' '5:1: ev=e1 needs rd= to say which of the 2 rds'
refused "$HEAD
ev=e1,rd=r1,at=1,exec=true" 'sd=sd2,lun=/tmp/y' '6:1: sd=sd2 must come before the ev= definitions \(the order is general, hd, sd, wd, rd, probe, ev\)'
echo "ok: every ev= error is refused with FILE:LINE:COL"

# A run where events go wrong: hang is killed past its timeout, never is
# polled until its timeout, and the run goes on to its end.
cat > "$TMP/r.vdb" <<VDB
sd=sd1,lun=$TMP/x.dat,size=8m,threads=2
wd=wd1,sd=sd1,xfersize=4k
rd=r1,wd=wd1,iorate=500,elapsed=8,interval=1
ev=hang,rd=r1,at=1,exec="echo \$\$ > $TMP/hang.pid; sleep 300 & echo \$! > $TMP/child.pid; wait",timeout=2s
ev=never,rd=r1,at=1,until="false",poll=1s,timeout=3s
VDB
run_bounded 60 "$LOCKSTEP" run "$TMP/r.vdb" -o "$TMP/r" > "$TMP/r.out" 2> "$TMP/r.err"
[ "$rc" -eq 4 ] || { fail_show "$TMP/r.err" "events that went wrong: exit $rc, expected 4 (degraded)"; }
grep -q "event hang timed out after .*exec= still running after timeout=2s: its process group was killed" "$TMP/r.err" ||
	{ fail_show "$TMP/r.err" "no console line for the hung exec"; }
grep -q "event never timed out after .*until= did not succeed within timeout=3s" "$TMP/r.err" ||
	{ fail_show "$TMP/r.err" "no console line for the until that never succeeded"; }
for f in hang.pid child.pid; do
	p=$(cat "$TMP/$f")
	! kill -0 "$p" 2>/dev/null || fail "process $p ($f) outlived its event's timeout"
done
python3 - "$TMP/r" <<'PY' || fail "results of the events that went wrong"
import csv, json, sys
d = sys.argv[1]
s = json.load(open(d + "/summary.json"))
assert s["status"] == "degraded" and s["exit_code"] == 4, s["status"]
ev = {e["name"]: e for e in s["events"]}
h, n = ev["hang"], ev["never"]
assert h["status"] == "timed_out" and "exit_code" not in h, h
assert 1.9 <= h["duration_s"] <= 2.6, h
assert n["status"] == "timed_out" and 3 <= n["polls"] <= 4, n
assert 2.9 <= n["duration_s"] <= 3.6, n
# The run went on to its end: every interval is there.
rows = [r for r in csv.DictReader(open(d + "/intervals.csv")) if r["phase"] == "measure"]
assert len(rows) == 8, len(rows)
e = {r["name"]: r for r in csv.DictReader(open(d + "/events.csv"))}
assert e["hang"]["status"] == "timed_out" and e["never"]["status"] == "timed_out", e
assert e["never"]["kind"] == "until" and e["hang"]["kind"] == "exec", e
PY
grep -c "until= poll" "$TMP/r/events/never.log" | grep -E '^[34]$' > /dev/null || fail "the polls are not in events/never.log"
echo "ok: a hung exec and an until that never succeeds"

# on_fail=abort: a failing exec aborts the run (exit 2); the rows up to
# then are kept.
cat > "$TMP/a.vdb" <<VDB
sd=sd1,lun=$TMP/x.dat,size=8m,threads=2
wd=wd1,sd=sd1,xfersize=4k
rd=r1,wd=wd1,iorate=500,elapsed=20,interval=1
ev=bad,rd=r1,at=2,exec="echo failing; exit 3",on_fail=abort
VDB
run_bounded 60 "$LOCKSTEP" run "$TMP/a.vdb" -o "$TMP/a" > "$TMP/a.out" 2> "$TMP/a.err"
[ "$rc" -eq 2 ] || { fail_show "$TMP/a.err" "on_fail=abort: exit $rc, expected 2"; }
grep -q "event bad failed after .*exec= exited with status 3; aborting the run (on_fail=abort)" "$TMP/a.err" ||
	{ fail_show "$TMP/a.err" "no console line for the failed exec"; }
python3 - "$TMP/a" <<'PY' || fail "results of the aborted run"
import csv, json, sys
d = sys.argv[1]
s = json.load(open(d + "/summary.json"))
assert s["status"] == "aborted", s["status"]
(e,) = s["events"]
assert e["status"] == "failed" and e["exit_code"] == 3, e
rows = [r for r in csv.DictReader(open(d + "/intervals.csv")) if r["phase"] == "measure"]
assert 2 <= len(rows) < 20, len(rows)
PY
grep -q "^failing$" "$TMP/a/events/bad.log" || fail "the exec's output is not in events/bad.log"
echo "ok: on_fail=abort"
