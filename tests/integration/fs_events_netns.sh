# A failure run on a file-system workload (issue 32): two test hosts in
# network namespaces, each a daemon slave, run fwd=getattr and
# fwd=delete at a fixed fwdrate= (skew 90/10, each slave its half) on its
# own subtree of one anchor. Neither reads or writes: every figure here is
# of the file-system operations, so a series that counted reads and
# writes only would be 0.
# ev=kill kills h2's daemon by pid mid-phase (expect_loss=(h2),
# rejoin=yes); ev=restart starts it again 9 s later (ends=kill). Checked on
# lockstep's own record against what was injected, bounds from the
# interval (2 s; see rejoin_netns.sh for why 2 intervals hold a restart):
# - the event's stamped start is its planned one (at=6s), h2's rows stop
#   within an interval of it and its loss is stamped after it;
# - the recovery figures count operations: a baseline at the planned rate,
#   the survivors' at half, io_lost about h2's share from the kill to its
#   rejoin, explained by the loss, and the fwdrate= line short by as
#   much (of the requested operations); the console says ops/s. Recovery is
#   judged on 3 intervals within 25% (recover_iops=25) and IOPS alone: on
#   two shared cores a stalled interval and its catch-up are +-15% of the
#   rate, and a p99 jumps 10x (seen: 0.17 ms, then 1.5 ms);
# - the restarted daemon rejoins the running fs phase (its tree is on
#   disk, no format): its rows run from its first one to the phase's end,
#   numbered and stamped as the cluster's, and the cluster's getattr
#   counts (ops.csv) are back at the planned rate, so the merged totals
#   hold its operations (the run's total is the sum of the intervals');
# - the rejoiner's state is what is on disk: no operation failed (a
#   delete or getattr of a file the killed process had deleted would fail
#   with ENOENT), it deleted at its share again, and the files left are
#   the formatted ones less the deletes counted, but for the killed
#   process's last deletes it never reported (at most 2 intervals of its
#   share).
source "$(dirname "$0")/lib.sh"
start_cluster 2 lsf
PORT=$(free_port_pair "$LOCKSTEP_BRIDGE_IP")
start_insecure_daemons 2
restart_script 2
mkdir "$TMP/fs"

cat > "$TMP/f.vdb" <<VDB
$(cluster_hd_lines 2)
fsd=fsd1,anchor=$TMP/fs,depth=1,width=5,files=500,sizes=4k
fwd=get,fsd=fsd1,operation=getattr,fileselect=random,threads=4,skew=90
fwd=del,fsd=fsd1,operation=delete,fileselect=random,threads=2,skew=10
rd=r1,fwd=(get,del),fwdrate=1000,format=yes,elapsed=40,warmup=2,interval=2
ev=kill,rd=r1,at=6s,exec="kill -9 ${DPID[2]}",expect_loss=(h2),rejoin=yes,baseline=6s,
   recover_n=3,recover_iops=25,recover_p99=100000
ev=restart,after=kill+9s,ends=kill,exec="sh $TMP/restart.sh"
VDB

run_bounded 150 "$LOCKSTEP" run "$TMP/f.vdb" -o "$TMP/out" --listen "$BR" \
	--port "$PORT" --insecure --join-timeout 20 --slave-timeout 5 > "$TMP/console" 2> "$TMP/err"
[ -s "$TMP/h2.pid" ] && PIDS+=("$(cat "$TMP/h2.pid")")
[ "$rc" -eq 0 ] || { fail_show "$TMP/err" "exit $rc with an expected loss and rejoin, expected 0"; }
grep -q "slave h2 lost: .*expected by event kill" "$TMP/err" ||
	{ fail_show "$TMP/err" "the loss is not logged as expected"; }
grep -q "waits for the next phase" "$TMP/err" && { fail_show "$TMP/err" "h2 was told to wait"; }
line=$(grep -E "slave h2 rejoined phase r1 at interval [0-9]+ \([0-9:.]+\)" "$TMP/err") ||
	{ fail_show "$TMP/err" "no console line for h2's rejoin"; }
grep -qE "^    baseline [0-9.]+ ops/s \(survivors [0-9.]+\)" "$TMP/console" ||
	{ fail_show "$TMP/console" "the recovery block does not count ops/s"; }
grep -qE "^    operations lost [0-9]+ " "$TMP/console" ||
	{ fail_show "$TMP/console" "the recovery block does not count operations lost"; }
short=$(grep -oE "^fwdrate=1000 not reached: [0-9.]+ ops/s, [0-9.]+% short" "$TMP/console") ||
	{ fail_show "$TMP/console" "no fwdrate= line for h2's share not done"; }

left=$(find "$TMP/fs" -name 'vdb_f*.file' -type f | wc -l)
/usr/bin/python3 - "$TMP/out" "$line" "$left" "$short" <<'PY' || { fail_show "$TMP/err" "results"; }
import csv, json, sys
d, line, left, short = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
I = 2_000_000_000  # interval=2
RATE = 1000        # fwdrate=: 900 getattrs and 100 deletes a second
GET = 900
s = json.load(open(d + "/summary.json"))
assert s["status"] == "completed" and s["exit_code"] == 0, s["status"]
kill, restart = s["events"]
assert kill["name"] == "kill" and restart["name"] == "restart", s["events"]
assert kill["status"] == "completed" and restart["status"] == "completed", s["events"]
ks, kp = int(kill["start_ns"]), int(kill["planned_ns"])
# The event started when planned (the runner's own stamps), the kill in it.
assert 0 <= ks - kp <= I, (ks, kp)
(loss,) = kill["expected_losses"]
assert loss["slave"] == "h2" and loss["rejoined"] is True, loss
h2 = [x for x in s["slaves"] if x["name"] == "h2"][0]
(rec,) = h2["loss_records"]
assert rec["rejoined_run"] == "r1", rec
assert ks <= rec["lost_ns"] < rec["back_ns"] <= rec["rejoined_ns"], (ks, rec)
assert loss["rejoined_interval"] == rec["rejoined_interval"], (loss, rec)
k = rec["rejoined_interval"]
assert line.split("at interval ")[1].split(" ")[0] == str(k), (line, k)
run = [r for r in s["runs"] if r["name"] == "r1"][0]

# h2's rows: the killed daemon's up to the kill, then the restarted one's
# to the phase's end, in the phase's numbering and stamps.
rows = list(csv.DictReader(open(d + "/intervals.csv")))
by_iv = {int(r["interval"]): r for r in rows if r["run"] == "r1" and r["phase"] == "measure"}
last = max(int(r["interval"]) for r in rows if r["run"] == "r1")
# (A late row is written when it came: in the order of the numbers here.)
h2rows = sorted((r for r in csv.DictReader(open(d + "/hosts/h2.csv")) if r["run"] == "r1"),
                key=lambda r: int(r["interval"]))
ivs = [int(r["interval"]) for r in h2rows]
assert len(set(ivs)) == len(ivs), ivs
before = [r for r in h2rows if int(r["end_ns"]) <= ks + I]
back = [r for r in h2rows if int(r["start_ns"]) >= ks + I]
assert before and back and len(before) + len(back) == len(h2rows), (ivs, ks)
# Its rows stop within an interval of the kill: it was reporting until then.
assert ks - 2 * I <= int(before[-1]["end_ns"]) <= ks + I, (before[-1], ks)
f = int(back[0]["interval"])
assert [int(r["interval"]) for r in back] == list(range(f, last + 1)), ([r["interval"] for r in back], last)
for r in back:
    c = by_iv.get(int(r["interval"]))
    if c:
        assert (r["start_ns"], r["end_ns"]) == (c["start_ns"], c["end_ns"]), (r, c)
rs = int(restart["start_ns"])
assert 0 <= int(back[0]["start_ns"]) - rs <= 2 * I, (back[0]["start_ns"], rs)
assert abs(int(back[0]["start_ns"]) - rec["rejoined_ns"]) <= I, (back[0], rec)

# The cluster's getattrs per interval (ops.csv, late rows added): at the
# planned rate before the kill, half while h2 was away, the whole rate
# again after its rejoin; and the run's total is every interval's.
allops = list(csv.DictReader(open(d + "/ops.csv")))
mean = lambda v: sum(v) / len(v)
for opname, want in (("getattr", GET), ("delete", RATE - GET)):
    ops = [r for r in allops if r["run"] == "r1" and r["operation"] == opname]
    cnt = {}
    for r in ops:
        if r["phase"] == "measure" or (r["phase"] == "late" and int(r["interval"]) in by_iv):
            cnt[int(r["interval"])] = cnt.get(int(r["interval"]), 0) + int(r["count"])
    tot = [r for r in ops if r["phase"] == "total"]
    assert tot and int(tot[0]["count"]) == sum(cnt.values()), (opname, tot, sum(cnt.values()))
    assert run["operations"][opname]["count"] == int(tot[0]["count"]), run["operations"]
    assert run["operations"][opname]["errors"] == 0, run["operations"]
    rate = lambda iv: cnt[iv] / (I / 1e9)
    pre = [rate(i) for i in cnt if int(by_iv[i]["end_ns"]) <= ks]
    alone = [rate(i) for i in cnt if by_iv[i]["slaves_expected"] == "1"]
    after = [rate(i) for i in cnt if i > f]
    assert len(pre) >= 2 and len(alone) >= 2 and len(after) >= 8, (opname, pre, alone, after)
    # Means: the schedule is open loop, so a stalled interval (seen: 59
    # getattrs in 2 s) is caught up in the next (1560).
    assert 0.85 * want < mean(pre) < 1.15 * want, (opname, pre)
    assert 0.40 * want < mean(alone) < 0.60 * want, (opname, alone)
    assert 0.85 * want <= mean(after) <= 1.15 * want, (opname, after)
    assert all(by_iv[i]["slaves_expected"] == "2" for i in cnt if i > f), f

# The files left: formatted less deleted (warmup's deletes are the run's
# too), less the killed process's unreported last ones.
fmt = [r for r in s["runs"] if r["name"] != "r1"]
assert len(fmt) == 1 and fmt[0]["operations"]["create"]["count"] == 5000, fmt
deleted = sum(int(r["count"]) for r in allops if r["run"] == "r1" and
              r["operation"] == "delete" and r["phase"] in ("warmup", "measure", "late"))
unreported = 5000 - deleted - left
assert 0 <= unreported <= 2 * (RATE - GET) / 2 * (I / 1e9), (deleted, left, unreported)

# The recovery figures, of the operations: no read or write was done.
assert run["operations"].get("read", {}).get("count", 0) == 0, run["operations"]
fig = kill["recovery"]
assert fig["counts"] == "operations", fig
assert fig["status"] == "recovered" and fig["judged_on"] == "cluster", fig
assert fig["window_through"] == "restart", fig
assert 0.9 * RATE <= fig["baseline_iops"] <= 1.1 * RATE, fig
assert 0.42 * RATE <= fig["baseline_survivors_iops"] <= 0.58 * RATE, fig
assert fig["worst_iops"] < 0.6 * fig["baseline_iops"], fig
assert fig["time_to_degrade_s"] is not None and fig["time_to_degrade_s"] <= I / 1e9, fig
back_s = (rec["rejoined_ns"] - ks) / 1e9
assert fig["time_to_recover_s"] is not None, fig
assert abs(fig["time_to_recover_s"] - back_s) <= I / 1e9, (fig, back_s)
share = fig["baseline_iops"] - fig["baseline_survivors_iops"]
assert fig["io_lost"] > 0, fig
assert abs(fig["io_lost"] - share * back_s) <= 1.5 * share * I / 1e9, (fig, share * back_s)
assert fig["io_lost_expected"] >= 0.8 * fig["io_lost"], fig
# The fwdrate= line and summary.json: short by what was lost, of the
# requested operations (getattr and delete), not of reads and writes.
pct = float(short.split(", ")[1].split("%")[0])
assert abs(pct - run["iorate_shortfall_pct"]) < 0.1, (short, run["iorate_shortfall_pct"])
lost_pct = 100 * fig["io_lost"] / (RATE * run["elapsed_s"])
assert abs(pct - lost_pct) <= 100 * I / 1e9 / run["elapsed_s"], (pct, lost_pct)
print("deleted %d, %d files left, %d unreported; baseline %.0f ops/s, io_lost %.0f, "
      "h2 away %.1f s, recovered after %.1f s" % (deleted, left, unreported, fig["baseline_iops"],
      fig["io_lost"], back_s, fig["time_to_recover_s"]))
PY
sed -n '/^Recovery figures/,/^$/p' "$TMP/console"
echo "ok: a failure run on a getattr workload: figures of its operations, and a rejoin of the fs phase"
