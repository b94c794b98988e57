# A hole the master learns of from phase_end: two fake slaves (the
# protocol's slave side, no I/O); the first keeps its interval 4 back and
# sends it 2 s after its phase_end, as a slave's spool re-sends an
# interval a dropped connection lost. The phase_end says 7 intervals were
# done; the master holds 6: it waits for the seventh (up to
# --slave-timeout) instead of closing the phase on a hole. The interval is
# a late row in intervals.csv and hosts/fake-00001.csv, and in the totals.
source "$(dirname "$0")/lib.sh"
FAKES=${4:?phase_drain.sh needs the fakeslaves tool}

cat > "$TMP/d.vdb" <<VDB
sd=sd1,lun=$TMP/unused.dat,size=1m,threads=2
wd=wd1,sd=sd1,xfersize=4k,rdpct=70
rd=r1,wd=wd1,iorate=max,elapsed=6,warmup=1,interval=1
VDB
"$LOCKSTEP" run "$TMP/d.vdb" -o "$TMP/out" --engine null --local-slaves 0 \
	--expect-slaves 2 --join-timeout 20 --slave-timeout 20 --insecure \
	> "$TMP/console" 2> "$TMP/err" &
master=$!
PIDS+=("$master")
port=$(master_port "$TMP/err")
"$FAKES" --master "tcp://127.0.0.1:$port" -n 2 --hold 3 --timeout 60 \
	> "$TMP/fakes.log" 2>&1 &
PIDS+=($!)
wait_exit "$master" 90
[ "$rc" -eq 0 ] || { fail_show "$TMP/err" "exit $rc, expected 0"; }
grep -q "phase r1: waiting up to 20 s for intervals 1 slaves did" "$TMP/err" ||
	{ fail_show "$TMP/err" "the master did not say it waits for the held interval"; }
grep -q "slave fake-00001: interval 4 arrived after its cluster line" "$TMP/err" ||
	{ fail_show "$TMP/err" "the held interval was not taken as a late one"; }

python3 - "$TMP/out" <<'PY' || { fail_show "$TMP/err" "the held interval is not in the results"; }
import csv, json, sys
d = sys.argv[1]
s = json.load(open(d + "/summary.json"))
assert s["status"] == "completed" and s["exit_code"] == 0, s["status"]
run = s["runs"][0]
rows = list(csv.DictReader(open(d + "/intervals.csv")))
late = [r for r in rows if r["phase"] == "late"]
assert [(r["interval"], r["slaves_reported"]) for r in late] == [("4", "1")], late
meas = [r for r in rows if r["phase"] == "measure"]
assert sum(int(r["ops"]) for r in meas + late) == run["totals"]["ops"], run
h = list(csv.DictReader(open(d + "/hosts/fake-00001.csv")))
assert sorted(int(r["interval"]) for r in h) == list(range(1, 8)), h
PY
echo "ok: the master waited for an interval phase_end said was done"
