# The field method of a host failure (issue 23): one steady phase at a
# fixed iorate= on two test hosts in network namespaces, each with a daemon
# slave. ev=kill kills h2's daemon (expect_loss=(h2),rejoin=yes, the
# stand-in for powering the host off); ev=restart, 9 s after it, starts
# h2's daemon again (the host is powered on). --slave-timeout 5: on two
# cores shared with another test, the survivor h1 must not be judged lost
# for a stall of its heartbeat (3 s allows 1.75 s of it); the loss of h2
# is judged 5 s after the kill, and h1 runs alone 4 s before the restart. The restarted daemon must
# rejoin the running phase at an interval boundary, its intervals numbered
# in the phase's sequence, with its share of the rate, and the run must end
# completed, exit 0. Every check compares lockstep's own stamps (events,
# intervals.csv, hosts/h2.csv, summary.json) with each other, with bounds
# from the interval (2 s: on a busy 2-core machine a restarted daemon and
# its plan have taken 3.6 s, which 2 intervals must hold); none is against
# this machine's clock.
source "$(dirname "$0")/lib.sh"
start_cluster 2 lsr
PORT=$(free_port_pair "$LOCKSTEP_BRIDGE_IP")
start_insecure_daemons 2
restart_script 2

cat > "$TMP/r.vdb" <<VDB
$(cluster_hd_lines 2)
sd=sd1,lun=$TMP/shared.dat,size=16m,threads=4
wd=wd1,sd=sd1,xfersize=4k,rdpct=100
rd=r1,wd=wd1,iorate=2000,elapsed=40,warmup=2,interval=2
ev=kill,rd=r1,at=6s,exec="kill -9 ${DPID[2]}",expect_loss=(h2),rejoin=yes,baseline=6s,
   recover_n=5,recover_p99=100000
ev=restart,after=kill+9s,ends=kill,exec="sh $TMP/restart.sh"
VDB

run_bounded 120 "$LOCKSTEP" run "$TMP/r.vdb" -o "$TMP/out" --listen "$BR" \
	--port "$PORT" --insecure --join-timeout 20 --slave-timeout 5 > "$TMP/console" 2> "$TMP/err"
[ -s "$TMP/h2.pid" ] && PIDS+=("$(cat "$TMP/h2.pid")")
[ "$rc" -eq 0 ] || { fail_show "$TMP/err" "exit $rc with an expected loss and rejoin, expected 0"; }
grep -q "slave h2 lost: .*expected by event kill" "$TMP/err" ||
	{ fail_show "$TMP/err" "the loss is not logged as expected"; }
line=$(grep -E "slave h2 rejoined phase r1 at interval [0-9]+ \([0-9:.]+\)" "$TMP/err") ||
	{ fail_show "$TMP/err" "no console line for h2's rejoin"; }
grep -q "waits for the next phase" "$TMP/err" && { fail_show "$TMP/err" "h2 was told to wait"; }
grep -qE "slave h2 was lost at .* and rejoined at .* \(phase r1, interval [0-9]+\)" "$TMP/console" "$TMP/err" ||
	{ fail_show "$TMP/err" "the end of the run does not say h2 rejoined r1"; }

python3 - "$TMP/out" "$line" <<'PY' || { fail_show "$TMP/err" "results"; }
import csv, json, re, sys
d, line = sys.argv[1], sys.argv[2]
I = 2_000_000_000  # interval=2
s = json.load(open(d + "/summary.json"))
assert s["status"] == "completed" and s["exit_code"] == 0, s["status"]
kill, restart = s["events"]
assert kill["name"] == "kill" and restart["name"] == "restart", s["events"]
assert kill["status"] == "completed" and restart["status"] == "completed", s["events"]
(loss,) = kill["expected_losses"]
assert loss["slave"] == "h2" and loss["rejoined"] is True, loss
h2 = [x for x in s["slaves"] if x["name"] == "h2"][0]
assert h2["losses"] == 1 and h2["loss_expected_by"] == "kill", h2
(rec,) = h2["loss_records"]
assert rec["rejoined_run"] == "r1", rec
assert rec["lost_ns"] < rec["back_ns"] <= rec["rejoined_ns"], rec
assert h2["rejoined_at"] == rec["rejoined_at"], (h2, rec)
# The event's record of the loss tells the same rejoin as the slave's.
assert loss["rejoined_at"] == rec["rejoined_at"], (loss, rec)
assert loss["rejoined_interval"] == rec["rejoined_interval"], (loss, rec)
assert loss["back_at"] <= loss["rejoined_at"], loss
k = rec["rejoined_interval"]
assert line.split("at interval ")[1].split(" ")[0] == str(k), (line, k)

rows = list(csv.DictReader(open(d + "/intervals.csv")))
meas = [r for r in rows if r["phase"] == "measure" and r["run"] == "r1"]
# A loaded machine may deliver a slave's interval after its cluster row
# (a late row): an interval's I/O and reports are its row's plus its late
# rows'.
late = [r for r in rows if r["phase"] == "late" and r["run"] == "r1"]
def total(r, key):
    return float(r[key]) + sum(float(x[key]) for x in late if x["interval"] == r["interval"])
assert len(meas) == 20, len(meas)
by_iv = {int(r["interval"]): r for r in rows if r["run"] == "r1"}
rs = int(restart["start_ns"])

# h2's own rows: the ones of its daemon before the kill, then (a gap) the
# restarted one's, in the same phase, numbered in the phase's sequence.
h2rows = [r for r in csv.DictReader(open(d + "/hosts/h2.csv")) if r["run"] == "r1"]
ivs = [int(r["interval"]) for r in h2rows]
assert ivs == sorted(ivs) and len(set(ivs)) == len(ivs), ivs
back = [r for r in h2rows if int(r["start_ns"]) >= rs]
assert back, ("no h2 row after the restart", ivs, rs)
first = back[0]
f = int(first["interval"])
# Its rows from the first one back run to the phase's end without a gap.
assert [int(r["interval"]) for r in back] == list(range(f, 22)), [r["interval"] for r in back]
# Each of its rows is the cluster row of the same number: same stamps.
for r in back:
    c = by_iv[int(r["interval"])]
    assert (r["start_ns"], r["end_ns"]) == (c["start_ns"], c["end_ns"]), (r, c)
# It reports again within 2 intervals of the restart's stamped start.
assert 0 <= int(first["start_ns"]) - rs <= 2 * I, (first["start_ns"], rs)
# Its recorded rejoin matches its first row within one interval.
assert abs(int(first["start_ns"]) - rec["rejoined_ns"]) <= I, (first, rec)
assert abs(f - k) <= 1, (f, k)
# Before the kill: both slaves at the planned 2000; while it was away, h1
# alone at its share (the survivor's plan is unchanged: half); from the
# rejoin on, both again, and the cluster rows back at the planned rate.
ks = int(kill["start_ns"])
med = lambda v: sorted(v)[len(v) // 2]
before = [total(r, "iops") for r in meas if int(r["end_ns"]) <= ks]
alone = [total(r, "iops") for r in meas if r["slaves_expected"] == "1"]
assert len(alone) >= 2, [(r["interval"], r["slaves_expected"]) for r in meas]
assert 1800 < med(before) < 2200, before
assert 850 < med(alone) < 1150, alone
after = [r for r in meas if int(r["interval"]) > f]
assert len(after) >= 8, len(after)
assert all(r["slaves_expected"] == "2" and total(r, "slaves_reported") == 2 for r in after), \
    [(r["interval"], r["slaves_reported"], r["slaves_expected"]) for r in after]
# On two shared cores an interval may stall and the open-loop schedule
# catch up in the next (seen: 970 then 3210): the mean over every row after
# the rejoin holds both, and the median is a typical row.
iops = [total(r, "iops") for r in after]
assert 1800 <= sum(iops) / len(iops) <= 2200, iops
assert 1800 <= med(iops) <= 2200, iops
# The recovery figures of the kill, whose window runs through the restart
# (ends=kill) to the phase's end: against the truth the run stamped. The
# cluster is down to h1 from the kill's interval or the next; h1 never
# missed its share (the survivors recover at once); the whole cluster is
# back in the interval h2 rejoined at, the first of 5 good ones.
# recover_p99=100000 judges IOPS alone: on two shared cores one interval's
# p99 jumps 30x.
fig = kill["recovery"]
assert fig["status"] == "recovered" and fig["judged_on"] == "cluster", fig
assert fig["window_through"] == "restart", fig
assert 1800 <= fig["baseline_iops"] <= 2200, fig
assert 850 <= fig["baseline_survivors_iops"] <= 1150, fig
assert fig["time_to_degrade_s"] is not None and fig["time_to_degrade_s"] <= I / 1e9, fig
assert fig["time_to_recover_survivors_s"] is not None and fig["time_to_recover_survivors_s"] <= I / 1e9, fig
back_s = (rec["rejoined_ns"] - ks) / 1e9
assert fig["time_to_recover_s"] is not None, fig
assert abs(fig["time_to_recover_s"] - back_s) <= I / 1e9, (fig, back_s)
# What h2 did not do while it was away is lost, and its loss explains it:
# its share (half the rate) from the kill to its rejoin, give or take an
# interval of it.
share = fig["baseline_iops"] - fig["baseline_survivors_iops"]
assert abs(fig["io_lost"] - share * back_s) <= 1.5 * share * I / 1e9, (fig, share * back_s)
assert fig["io_lost_expected"] >= 0.8 * fig["io_lost"], fig
# The run's per-slave totals count what the restarted daemon did.
(run,) = s["runs"]
p2 = [p for p in run["per_slave"] if p["slave"] == "h2"][0]
assert p2["totals"]["ops"] > 0, p2
PY
echo "ok: a restarted daemon rejoins the running phase at its share"
