# A known degradation for a known time: one test host in a network
# namespace runs a daemon slave in a cgroup (v1 blkio) of its own,
# reading a loop device at a fixed 500 IO/s. ev=throttle caps the group's
# reads of that device at 100 IO/s (blkio.throttle.read_iops_device on the
# loop device's major:minor) for 4 s, then lifts the cap. The intervals
# must show it within one interval: the first degraded interval is the one
# the event started in, the throttled ones run at 100 IO/s, and the rate
# is back once the backlog of the open-loop schedule is caught up, one
# interval after the cap was lifted; so must the event's recovery figures.
# 500 and not more: the backlog (1600 I/Os) must drain well inside the
# interval the cap ends in even when the machine is busy (at 1000 IO/s,
# 3200 I/Os took the whole interval and once spilled into the next).
# On a cgroup v2 machine (Debian 12's default) the same cap is io.max's
# riops in a group with the io controller enabled.
BLKIO_PREFIX=lsd
source "$(dirname "$0")/blkio_lib.sh"

# recover_p99=100000: the loop device's p99 wanders between quiet
# intervals on a busy 2-core machine (CI saw 0.35 ms, then 8 ms, then
# 1.5 ms right after the cap: 20x, past the 1000% this test allowed
# before); the injected fault is in IOPS, so the recovery is judged on it.
# recover_iops=25,recover_n=3: on a shared CI machine one quiet interval
# in ten stalls and the open-loop schedule catches up in the next (seen:
# 965 then 1109 IO/s at 1000), which breaks the default run of 10
# intervals within 10% in the 11 the run has left after the cap.
cat > "$TMP/d.vdb" <<VDB
hd=default,shell=none
hd=h1,system=${HOSTS[0]#*=}
sd=sd1,lun=$LOOP,threads=8,openflags=o_direct
wd=wd1,sd=sd1,xfersize=4k,rdpct=100
rd=r1,wd=wd1,iorate=500,elapsed=20,warmup=1,interval=1
ev=throttle,rd=r1,at=3s,baseline=4s,recover_p99=100000,recover_iops=25,recover_n=3,
   exec="echo $MM $CAP_ON > $CG/$CAP_FILE; sleep 4; echo $MM $CAP_OFF > $CG/$CAP_FILE"
VDB

run_bounded 90 "$LOCKSTEP" run "$TMP/d.vdb" -o "$TMP/out" --listen "$BR" \
	--port "$PORT" --insecure --join-timeout 20 > "$TMP/console" 2> "$TMP/err"
[ "$rc" -eq 0 ] || { cat "$TMP/err" "$TMP/h1.log"; fail "exit $rc, expected 0"; }

python3 - "$TMP/out" <<'PY' || { cat "$TMP/console"; fail "the degradation is not where it was injected"; }
import csv, json, sys
d = sys.argv[1]
s = json.load(open(d + "/summary.json"))
assert s["status"] == "completed", s["status"]
(ev,) = s["events"]
assert ev["status"] == "completed" and ev["exit_code"] == 0, ev
t0, t1 = int(ev["start_ns"]), int(ev["end_ns"])
held = (t1 - t0) / 1e9
assert 3.9 <= held <= 4.8, held
rows = [r for r in csv.DictReader(open(d + "/intervals.csv")) if r["phase"] == "measure"]
iops = lambda r: float(r["iops"])
start = lambda r: int(r["start_ns"])
end = lambda r: int(r["end_ns"])
med = lambda v: sorted(v)[len(v) // 2]
# Two cores shared with other work: one interval may stall (an open-loop
# rate catches up in the next), so the levels are medians.
before = [iops(r) for r in rows if end(r) <= t0]
assert len(before) >= 2 and 450 <= med(before) <= 550, before
# Degraded from the interval the event started in (or the next one).
first_low = next(r for r in rows if end(r) > t0 and iops(r) < 450)
assert start(first_low) <= t0 + 1e9 and end(first_low) > t0, (first_low, t0)
# Wholly throttled intervals run at the cap.
inside = [iops(r) for r in rows if start(r) >= t0 and end(r) <= t1]
assert len(inside) >= 3 and all(x <= 115 for x in inside), inside
assert 92 <= med(inside) <= 108, inside
# Back within one interval of the cap's end: the interval holding the end
# catches the backlog up, the next one is at the rate again. A single
# interval strays about 10% on this VM whatever the run does (CI saw 446
# right after the cap and 557 in the quiet tail of one run), so the next
# one must be near the rate (400-600, far from the cap's 100) and, with
# the one after it, at the rate (450-550 on average).
back = [r for r in rows if start(r) >= t1][:2]
assert len(back) == 2 and start(back[0]) - t1 <= 1.0e9, (back, t1)
assert 400 <= iops(back[0]) <= 600, back
assert 450 <= (iops(back[0]) + iops(back[1])) / 2 <= 550, back
assert all(r["events"] == "throttle" for r in rows if start(r) >= t0 and end(r) <= t1)
assert all(r["events"] == "" for r in rows if start(r) > t1)
rec = ev["recovery"]
assert rec is not None, ev
assert 2 <= rec["baseline_intervals"] <= 3 and 450 <= rec["baseline_iops"] <= 550, rec
assert rec["time_to_degrade_s"] is not None and rec["time_to_degrade_s"] <= 1.0, rec
assert 85 <= rec["worst_iops"] <= 115, rec
ttr = rec["time_to_recover_s"]
assert ttr is not None and held - 0.1 <= ttr <= held + 1.0 + 0.1, (ttr, held)
PY
echo "ok: a 4 s blkio throttle to 100 IO/s, found where it was injected"
