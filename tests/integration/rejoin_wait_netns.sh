# A slave back inside a phase where a rejoin is not safe waits for the
# next phase and the console says why (issue 23): r1 is a seekpct=eof pass
# (one sequential pass over the sd, split between h1 and h2 at the phase's
# start), h2's daemon is killed (expect_loss=(h2),rejoin=yes) and started
# again while h1's half of the pass still runs. h2 must wait ("a
# seekpct=eof pass splits its ranges..."), have no row of r1 after the
# restart, take part in r2 from its first interval, and its loss record
# must say it rejoined r2 at interval 1, at r2's start; the run completes,
# exit 0. Bounds come from lockstep's own stamps.
source "$(dirname "$0")/lib.sh"
start_cluster 2 lsw
PORT=$(free_port_pair "$LOCKSTEP_BRIDGE_IP")
start_insecure_daemons 2
restart_script 2

# h1's half of the pass: 4096 reads of 4 KiB at 250 a second, ~16 s.
cat > "$TMP/w.vdb" <<VDB
$(cluster_hd_lines 2)
sd=sd1,lun=$TMP/shared.dat,size=32m,threads=2
wd=wd1,sd=sd1,xfersize=4k,rdpct=100,seekpct=eof
wd=wd2,sd=sd1,xfersize=4k,rdpct=100
rd=r1,wd=wd1,iorate=500,elapsed=40,interval=1
rd=r2,wd=wd2,iorate=500,elapsed=4,interval=1
ev=kill,rd=r1,at=2s,exec="kill -9 ${DPID[2]}",expect_loss=(h2),rejoin=yes
ev=restart,after=kill+4s,exec="sh $TMP/restart.sh"
VDB

run_bounded 120 "$LOCKSTEP" run "$TMP/w.vdb" -o "$TMP/out" --listen "$BR" \
	--port "$PORT" --insecure --join-timeout 20 > "$TMP/console" 2> "$TMP/err"
[ -s "$TMP/h2.pid" ] && PIDS+=("$(cat "$TMP/h2.pid")")
[ "$rc" -eq 0 ] || { fail_show "$TMP/err" "exit $rc with an expected loss and rejoin, expected 0"; }
[ "$(grep -c "slave h2 waits for the next phase to rejoin: a seekpct=eof pass splits its ranges among the slaves that began it" "$TMP/err")" -eq 1 ] ||
	{ fail_show "$TMP/err" "no (or more than one) line saying why h2 waits"; }
grep -q "slave h2 rejoined phase r1" "$TMP/err" && { fail_show "$TMP/err" "h2 rejoined the eof pass"; }

python3 - "$TMP/out" <<'PY' || { fail_show "$TMP/err" "results"; }
import csv, json, sys
d = sys.argv[1]
s = json.load(open(d + "/summary.json"))
assert s["status"] == "completed" and s["exit_code"] == 0, s["status"]
kill, restart = s["events"]
rs = int(restart["start_ns"])
h2 = [x for x in s["slaves"] if x["name"] == "h2"][0]
(rec,) = h2["loss_records"]
assert rec["back_ns"] >= rs, (rec, rs)
assert rec["rejoined_run"] == "r2" and rec["rejoined_interval"] == 1, rec
rows = [r for r in csv.DictReader(open(d + "/hosts/h2.csv"))]
assert not [r for r in rows if r["run"] == "r1" and int(r["start_ns"]) >= rs], "an r1 row after the restart"
r2 = [r for r in rows if r["run"] == "r2"]
assert r2 and int(r2[0]["interval"]) == 1, r2
# Its rejoin is r2's first interval: the same stamp.
assert int(r2[0]["start_ns"]) == rec["rejoined_ns"], (r2[0], rec)
PY
echo "ok: a slave back inside an eof pass waits for the next phase and says why"
