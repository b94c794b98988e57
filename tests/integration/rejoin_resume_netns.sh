# A cut longer than the slave timeout and shorter than the master timeout
# (issue 23): h2's link goes down for 4 s (ev=cut, expect_loss=(h2),
# rejoin=yes) and up again (ev=heal). The master marks h2 lost after 3 s;
# h2, the same process, keeps running its phase (its master timeout is
# 10 s) and, once the link is back, its intervals flow again: the first of
# them puts it back in the phase (no new plan), and the merge waits for it
# again from the next row. The run ends completed, exit 0, every interval
# of h2 is counted once (on time or late), and the rows after its rejoin
# expect and get both slaves. Bounds come from lockstep's own stamps.
source "$(dirname "$0")/lib.sh"
start_cluster 2 lsq
PORT=$(free_port_pair "$LOCKSTEP_BRIDGE_IP")
start_insecure_daemons 2

cat > "$TMP/q.vdb" <<VDB
$(cluster_hd_lines 2)
sd=sd1,lun=$TMP/shared.dat,size=16m,threads=4
wd=wd1,sd=sd1,xfersize=4k,rdpct=100
rd=r1,wd=wd1,iorate=2000,elapsed=26,warmup=1,interval=1
ev=cut,rd=r1,at=4s,exec="$NETNS link -c $CID 2 down",expect_loss=(h2),rejoin=yes,baseline=3s
ev=heal,after=cut+4s,exec="$NETNS link -c $CID 2 up",baseline=3s
VDB

run_bounded 120 "$LOCKSTEP" run "$TMP/q.vdb" -o "$TMP/out" --listen "$BR" \
	--port "$PORT" --insecure --join-timeout 20 > "$TMP/console" 2> "$TMP/err"
"$NETNS" link -c "$CID" 2 up >/dev/null 2>&1 || true
[ "$rc" -eq 0 ] || { fail_show "$TMP/err" "exit $rc with an expected loss and rejoin, expected 0"; }
grep -q "slave h2 lost: .*expected by event cut" "$TMP/err" ||
	{ fail_show "$TMP/err" "the loss is not logged as expected"; }
grep -q "slave h2 is back; it may rejoin the running phase" "$TMP/err" ||
	{ fail_show "$TMP/err" "h2's return is not said"; }
grep -qE "slave h2 rejoined phase r1 at interval [0-9]+ \([0-9:.]+\)" "$TMP/err" ||
	{ fail_show "$TMP/err" "no console line for h2's rejoin"; }

python3 - "$TMP/out" <<'PY' || { fail_show "$TMP/err" "results"; }
import csv, json, sys
d = sys.argv[1]
I = 1_000_000_000  # interval=1
s = json.load(open(d + "/summary.json"))
assert s["status"] == "completed" and s["exit_code"] == 0, s["status"]
cut, heal = s["events"]
h2 = [x for x in s["slaves"] if x["name"] == "h2"][0]
(rec,) = h2["loss_records"]
assert rec["rejoined_run"] == "r1", rec
# Back once its frames came through the healed link; rejoined from the
# next row to emit then, whose deadline (its end + 0.5 s of grace) had not
# passed, or had just passed on a late loop: within 2 intervals.
assert int(heal["start_ns"]) <= rec["back_ns"] <= rec["rejoined_ns"] + 2 * I, (heal, rec)
k = rec["rejoined_interval"]
rows = list(csv.DictReader(open(d + "/intervals.csv")))
cluster = [r for r in rows if r["run"] == "r1" and r["phase"] != "late"]
assert len(cluster) == 27, len(cluster)
# Its rejoin is a row's start: the one of its number.
row = [r for r in cluster if int(r["interval"]) == k][0]
assert int(row["start_ns"]) == rec["rejoined_ns"], (row, rec)
# The same process never stopped: every interval of h2 arrived once.
h2rows = [int(r["interval"]) for r in csv.DictReader(open(d + "/hosts/h2.csv"))
          if r["run"] == "r1"]
assert sorted(h2rows) == list(range(1, 28)), h2rows
# While it was lost the rows did not wait for it; from its rejoin on they
# expect both slaves again, and (late rows added) have both.
lost = [r for r in cluster if r["slaves_expected"] == "1"]
assert lost, "no row without h2"
after = [r for r in cluster if int(r["interval"]) >= k]
assert after and all(r["slaves_expected"] == "2" for r in after), \
    [(r["interval"], r["slaves_expected"]) for r in after]
for r in after:
    late = sum(int(x["slaves_reported"]) for x in rows
               if x["phase"] == "late" and x["interval"] == r["interval"])
    assert int(r["slaves_reported"]) + late == 2, (r["interval"], r["slaves_reported"], late)
PY
echo "ok: the same process back after a cut rejoins its phase"
