# Failure-and-rebuild events on two test hosts in network namespaces, each
# with a daemon slave, the master on the bridge. ev=poweroff kills host
# h2's slave (the stand-in for powering it off through its BMC) with
# expect_loss=(h2) and an until= that waits for a marker file a helper
# drops 4 s later (the stand-in for a rebuild), and starts h2's daemon again
# (the host is back: rejoin=yes). The run must complete with
# exit 0 (the loss was expected), and the results must show the timeline:
# the event's row in events.csv, its log, the loss as expected in
# summary.json, the events column of intervals.csv, the marker column on
# the console, when h2 rejoined, and its recovery figures (a fixed rate
# halves when one of two slaves goes; the one back rejoins the phase and
# the rate is whole again: rejoin_netns.sh checks that rejoin in full).
source "$(dirname "$0")/lib.sh"
start_cluster 2 lse
PORT=$(free_port_pair "$LOCKSTEP_BRIDGE_IP")
start_insecure_daemons 2
# What the event starts once h2 is down: the rebuild's marker, then h2's
# daemon again (the namespaces go, with what runs in them, at the end).
cat > "$TMP/back.sh" <<SH
sleep 4
touch "$TMP/rebuilt"
exec "$NETNS" exec -c "$CID" 2 "$LOCKSTEP" slave --daemon --name h2 \
	--allow "$TMP/*" --insecure --master "tcp://$BR:$PORT"
SH

cat > "$TMP/e.vdb" <<VDB
hd=default,shell=none
hd=h1,system=${HOSTS[0]#*=}
hd=h2,system=${HOSTS[1]#*=}
sd=sd1,lun=$TMP/shared.dat,size=16m,threads=4
wd=wd1,sd=sd1,xfersize=4k,rdpct=100
rd=r1,wd=wd1,iorate=2000,elapsed=16,warmup=1,interval=1
ev=poweroff,rd=r1,at=5s,exec="kill -9 ${DPID[2]}; sh $TMP/back.sh >> $TMP/h2.log 2>&1 &",
   until="test -f $TMP/rebuilt",poll=1s,timeout=30s,expect_loss=(h2),rejoin=yes,baseline=5s
VDB

# The timeline, before anything runs.
"$LOCKSTEP" check "$TMP/e.vdb" > "$TMP/check.txt" || fail "check refused the file"
grep -q "poweroff: at 5s into phase r1's measured time" "$TMP/check.txt" ||
	{ fail_show "$TMP/check.txt" "check shows no timeline"; }
"$LOCKSTEP" check --json "$TMP/e.vdb" | python3 -c '
import json, sys
t = json.load(sys.stdin)["timeline"]
assert len(t) == 1 and t[0]["name"] == "poweroff" and t[0]["at_s"] == 5, t
assert t[0]["expect_loss"] == ["h2"] and t[0]["earliest_s"] == 6, t
assert t[0]["rejoin"] is True, t
' || fail "check --json timeline"

run_bounded 90 "$LOCKSTEP" run "$TMP/e.vdb" -o "$TMP/out" --listen "$BR" \
	--port "$PORT" --insecure --join-timeout 20 > "$TMP/console" 2> "$TMP/err"
[ "$rc" -eq 0 ] || { fail_show "$TMP/err" "exit $rc with an expected loss, expected 0"; }
grep -q "event poweroff started" "$TMP/err" || fail "no console line at the event's start"
grep -q "event poweroff ended after" "$TMP/err" || fail "no console line at the event's end"
grep -q "slave h2 lost: .*expected by event poweroff" "$TMP/err" ||
	{ fail_show "$TMP/err" "the loss is not logged as expected"; }
grep -qE " events$" "$TMP/console" && grep -qE " active$" "$TMP/console" ||
	fail "no events column on the console"
# A row with 1 of 2 slaves seen and 1 event active (digits only, so that
# HCIBench's interval pattern still takes it), and the console as
# HCIBench reads it with a lost slave and an event.
grep -qE " 1 +2 +1$" "$TMP/console" || { fail_show "$TMP/console" "no marker on the console"; }
python3 "$HERE/check_console.py" "$TMP/console" "$TMP/out" || { fail_show "$TMP/console" "the console's readers read it wrong"; }
python3 "$HERE/check_fio.py" "$TMP/out" || fail "fio.json of a run with a lost slave read wrong"
# hosts/*.csv have intervals.csv's columns, events included.
[ "$(head -1 "$TMP/out/hosts/h1.csv")" = "$(head -1 "$TMP/out/intervals.csv")" ] || fail "hosts/h1.csv's columns are not intervals.csv's"
# By the column's name: other columns follow it (cpu_pct_busiest_slave).
python3 -c '
import csv, sys
sys.exit(0 if any(r["events"] == "poweroff" for r in csv.DictReader(open(sys.argv[1]))) else 1)
' "$TMP/out/hosts/h1.csv" || { fail_show "$TMP/out/hosts/h1.csv" "no event in hosts/h1.csv's events column"; }
grep -q "kill -9" "$TMP/out/events/poweroff.log" || fail "events/poweroff.log"
grep -q "slave h2 is back, .* after it was lost (event poweroff expected it back)" "$TMP/err" ||
	{ fail_show "$TMP/err" "no console line for h2's return"; }

python3 - "$TMP/out" <<'PY' || fail "results"
import csv, json, sys
d = sys.argv[1]
s = json.load(open(d + "/summary.json"))
assert s["status"] == "completed" and s["exit_code"] == 0, s["status"]
st = {x["name"]: x for x in s["slaves"]}
assert st["h2"]["losses"] == 1 and st["h2"]["loss_expected_by"] == "poweroff", st["h2"]
assert st["h2"]["rejoined_at"] > st["h2"]["lost_at"], st["h2"]
assert st["h1"]["state"] == "finished", st["h1"]
(ev,) = s["events"]
assert ev["status"] == "completed" and ev["kind"] == "exec+until", ev
assert ev["exit_code"] == 0 and ev["polls"] >= 3, ev
(loss,) = ev["expected_losses"]
assert loss["slave"] == "h2" and loss["rejoined"] is True, loss
assert loss["rejoined_at"] > loss["lost_at"], loss
# The rebuild (until= success) came 4 s after the start, polled every 1 s.
assert 3.5 <= ev["duration_s"] <= 6.5, ev["duration_s"]
# Planned 5 s into the measured time (after 1 s of warmup).
run = s["runs"][0]
start = int(ev["start_ns"])
# It starts at that instant or after it, in the interval that begins
# there: the master's loop starts it, and on a busy 2-core machine that
# loop can run 0.4 s late (seen: a row written 0.9 s after its interval's
# end, with 0.5 s of grace), which broke a bound of 200 ms.
assert 0 <= start - int(ev["planned_ns"]) < 1_000_000_000, ev
rows = list(csv.DictReader(open(d + "/intervals.csv")))
meas = [r for r in rows if r["phase"] == "measure"]
assert len(meas) == 16, len(meas)
active = [r for r in meas if "poweroff" in r["events"]]
# Active from the interval it started in to the one it ended in.
assert 4 <= len(active) <= 8, [r["interval"] for r in active]
assert int(active[0]["start_ns"]) <= start < int(active[0]["end_ns"]), active[0]
assert all(r["events"] == "" for r in meas if int(r["end_ns"]) <= start)
# Before: both slaves, the full rate; after the loss: h1 alone, half;
# once h2 rejoined the phase, both again at the full rate.
before = [float(r["iops"]) for r in meas if int(r["end_ns"]) <= start]
alone = [float(r["iops"]) for r in meas if r["slaves_expected"] == "1"]
after = [float(r["iops"]) for r in meas[-3:]]
# Medians: on two shared cores one interval may stall and the open-loop
# schedule catch up in the next.
med = lambda v: sorted(v)[len(v) // 2]
assert 1800 < med(before) < 2200, before
assert len(alone) >= 2 and 850 < med(alone) < 1150, alone
assert 1800 < med(after) < 2200, after
# A loaded machine may deliver an interval after its row (a late row).
late = lambda r: sum(int(x["slaves_reported"]) for x in rows
                     if x["phase"] == "late" and x["interval"] == r["interval"])
assert all(int(r["slaves_reported"]) + late(r) == 2 for r in meas[-3:]), meas[-3:]
e = list(csv.DictReader(open(d + "/events.csv")))
assert e[0]["name"] == "poweroff" and e[0]["status"] == "completed", e
assert int(e[0]["start_ns"]) == int(ev["start_ns"]) and e[0]["log"] == "events/poweroff.log", e
rec = ev["recovery"]
assert rec is not None, ev
assert 1700 < rec["baseline_iops"] < 2300, rec
assert 500 < rec["worst_iops"] < 1300, rec
assert rec["time_to_degrade_s"] is not None and rec["time_to_degrade_s"] <= 2, rec
# Whole again for fewer rows than recover_n=10 (the phase ends first).
assert rec["time_to_recover_s"] is None, rec
assert 3.5 <= rec["rebuild_s"] <= 6.5, rec
assert rec["io_lost"] > 5 * 700, rec
PY
echo "ok: an expected loss, its timeline and its figures"
