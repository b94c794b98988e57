# Two masters on one results folder: the second refuses at once, naming
# the holder (its pid and start), and leaves the first run's folder alone:
# the first completes with every interval in intervals.csv.
source "$(dirname "$0")/lib.sh"

cat > "$TMP/t.vdb" <<VDB
sd=sd1,lun=$TMP/d.dat,size=8m,threads=2
wd=wd1,sd=sd1,xfersize=4k,rdpct=70,seekpct=100
rd=r1,wd=wd1,iorate=500,elapsed=8,interval=1
VDB
"$LOCKSTEP" run "$TMP/t.vdb" -o "$TMP/out" --local-slaves 1 > "$TMP/a.txt" 2>&1 &
A=$!
PIDS+=("$A")
# Until the first master holds the lock (it writes who it is once it has).
for t in $(seq 200); do
	grep -q "^pid $A, run " "$TMP/out/.lock" 2>/dev/null && break
	[ "$t" -lt 200 ] || fail "the first master never locked its folder"
	sleep 0.1
done
run_bounded 20 "$LOCKSTEP" run "$TMP/t.vdb" -o "$TMP/out" --local-slaves 1 > "$TMP/b.txt" 2>&1
cat "$TMP/b.txt"
[ "$rc" -eq 1 ] || fail "the second master exited $rc, not 1"
grep -q "results folder $TMP/out is being written by another lockstep (pid $A, run [0-9a-f-]*, started 20[0-9T:.-]*Z): refused" "$TMP/b.txt" ||
	fail "the refusal does not name the holder"
set +e
wait "$A"
arc=$?
set -e
[ "$arc" -eq 0 ] || { fail_show "$TMP/a.txt" "the first master exited $arc"; }
/usr/bin/python3 - "$TMP/out" <<'PY'
import csv, json, sys
d = sys.argv[1]
s = json.load(open(d + "/summary.json"))
assert s["status"] == "completed" and s["exit_code"] == 0, s
rows = [r for r in csv.DictReader(open(d + "/intervals.csv")) if r["phase"] == "measure"]
seq = [int(r["interval"]) for r in rows]
assert seq == list(range(1, 9)), seq
print("ok: the first run's 8 intervals are whole")
PY
# Free again once the run ended: a third master may write it.
run_bounded 60 "$LOCKSTEP" run "$TMP/t.vdb" -o "$TMP/out" --local-slaves 1 > "$TMP/c.txt" 2>&1
[ "$rc" -eq 0 ] || { fail_show "$TMP/c.txt" "the folder stayed locked after the run: exit $rc"; }
echo "PASS"
