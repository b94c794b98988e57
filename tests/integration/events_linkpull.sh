# A link pull that loses no work: two test hosts in network namespaces at
# a fixed 2000 IO/s; ev=pull takes h2's link down for 5 s and up again
# while h2's slave keeps doing its I/O (--slave-timeout 15: it is not
# lost, its rows wait for the link). Those rows arrive after their cluster
# rows were written: intervals.csv has them as `late` rows, and the
# recovery figures must count them: an interval's final value is its
# measure row plus its late rows, as the run totals are; the event did
# not degrade the work done (only its reporting), and io_lost is zero but
# for the noise of the rate's own arrivals.
source "$(dirname "$0")/lib.sh"
start_cluster 2 lsl
BR=$LOCKSTEP_BRIDGE_IP
PORT=$(free_port_pair "$BR")
start_daemons 2

cat > "$TMP/l.vdb" <<VDB
hd=default,shell=none
hd=h1,system=${HOSTS[0]#*=}
hd=h2,system=${HOSTS[1]#*=}
sd=sd1,lun=$TMP/shared.dat,size=16m,threads=4
wd=wd1,sd=sd1,xfersize=4k,rdpct=100
rd=r1,wd=wd1,iorate=2000,elapsed=18,warmup=1,interval=1
ev=pull,rd=r1,at=5s,baseline=5s,
   exec="$NETNS link -c $CID 2 down; sleep 5; $NETNS link -c $CID 2 up"
VDB

run_bounded 90 "$LOCKSTEP" run "$TMP/l.vdb" -o "$TMP/out" --listen "$BR" \
	--port "$PORT" --insecure --join-timeout 20 --slave-timeout 15 \
	> "$TMP/console" 2> "$TMP/err"
[ "$rc" -eq 0 ] || { fail_show "$TMP/err" "exit $rc after a link pull, expected 0"; }
# The slave rode the pull out too: its master timeout (4 x 15 - 2 s) covers
# the pull and TCP's backoff after it (decide_master_timeout()).
! grep -q "no word from the master" "$TMP/h2.log" ||
	{ fail_show "$TMP/h2.log" "h2 stopped its I/O in a pull shorter than --slave-timeout"; }
grep -q "^  pull (r1): not_degraded" "$TMP/console" ||
	{ fail_show "$TMP/console" "the console's recovery block does not say not_degraded"; }

python3 - "$TMP/out" <<'PY' || { fail_show "$TMP/console" "the late rows are not in the figures"; }
import csv, json, sys
d = sys.argv[1]
s = json.load(open(d + "/summary.json"))
assert s["status"] == "completed" and s["exit_code"] == 0, s["status"]
(ev,) = s["events"]
assert ev["status"] == "completed", ev
run = s["runs"][0]
rows = [r for r in csv.DictReader(open(d + "/intervals.csv")) if r["run"] == "r1"]
meas = [r for r in rows if r["phase"] == "measure"]
late = [r for r in rows if r["phase"] == "late"]
# A 5 s cut at 1 s intervals: several of h2's rows came late.
assert len(late) >= 3, len(late)
assert all(r["slaves_reported"] == "1" and r["slaves_expected"] == "0" for r in late), late
warm = {r["interval"] for r in rows if r["phase"] == "warmup"}
final = {}
for r in meas + late:
    if r["interval"] not in warm:
        final[r["interval"]] = final.get(r["interval"], 0) + int(r["ops"])
# Every interval h2 did is in: its held-back ones arrived before the
# phase ended (the master waits for what a phase_end says was done).
h2 = [r for r in csv.DictReader(open(d + "/hosts/h2.csv")) if r["run"] == "r1"]
assert sorted(int(r["interval"]) for r in h2) == list(range(1, len(rows) - len(late) + 1)), h2
# Measure rows plus late rows are the run totals, I/O for I/O.
assert sum(final.values()) == run["totals"]["ops"], (sum(final.values()), run["totals"]["ops"])
rec = ev["recovery"]
ivl = run["interval_s"]
# The reporting dipped (rows written without h2)...
assert min(float(r["iops"]) for r in meas) < 0.75 * rec["baseline_iops"], meas
# ... the work did not: every interval's final value, late rows counted,
# is what the figures read.
assert rec["status"] == "not_degraded", rec
assert rec["time_to_degrade_s"] is None and rec["time_to_recover_s"] is None, rec
assert rec["worst_iops"] >= 0.9 * rec["baseline_iops"], rec
# No work lost: what remains is the noise of the rate's own arrivals. The
# backlog of noise alone is the top of a random walk: under 4 sd sqrt(n)
# but in about 1 run of 15,000, sd the final series' interval-to-interval
# spread (in I/Os), n the window's intervals. Had the late rows been left
# out, it would be h2's half of the 5 pulled intervals (~5,000).
vals = [final[k] for k in sorted(final, key=int)]
mean = sum(vals) / len(vals)
sd = (sum((v - mean) ** 2 for v in vals) / (len(vals) - 1)) ** 0.5
n = (rec["window_end_s"] - rec["start_s"]) / ivl + 1
assert rec["io_lost"] <= 4 * sd * n ** 0.5, (rec, sd, n)
assert 4 * sd * n ** 0.5 < 0.5 * len(late) * mean / 2, (sd, n, late)
assert rec["io_lost_expected"] == 0, rec
PY
sed -n '/^Recovery figures/,/^$/p' "$TMP/console"
echo "ok: a 5 s link pull, late rows in the series, no work lost"
