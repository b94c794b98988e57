# Hostile peers against a real master with real local slaves on loopback
# (and a real daemon slave): (1) an impostor for a live slave's name, one
# for a local slave's name, a path-traversal name and names with newlines
# and ANSI escapes are refused; the real slaves keep their places and the
# totals are exactly their own. (2) An impostor racing the local slaves
# is refused. A registered peer's implausible
# intervals (2^62 ops, errors no slot could fail, bytes without ops, a
# histogram contradicting its max, CPU past its cores) are each rejected
# and counted, the peer is suspect and the run degraded; its log text
# cannot forge console lines. (3) A flood of one-byte frames and a 100 MB
# frame leave the master's memory, its log and its console bounded and the
# totals exact.
source "$(dirname "$0")/lib.sh"
HOSTILE=${3:?usage: $0 lockstep zsend hostile}

PORT=$(free_port_pair 127.0.0.1)
EP="tcp://127.0.0.1:$PORT"

cat > "$TMP/t.vdb" <<VDB
sd=sd1,lun=$TMP/d1.dat,size=16m,threads=4
wd=wd1,sd=sd1,xfersize=4k,rdpct=70,seekpct=100
rd=r1,wd=wd1,iorate=max,elapsed=8,interval=1
VDB

# start_master DIR ARGS...: the master in the background, its peak memory
# (VmHWM, kB) sampled into DIR.hwm while it runs.
start_master() {
	local out=$1
	shift
	"$LOCKSTEP" run "$TMP/t.vdb" -o "$out" --port "$PORT" --join-timeout 20 --insecure \
		"$@" > "$out.console" 2> "$out.err" &
	MPID=$!
	PIDS+=($MPID)
	( while kill -0 "$MPID" 2>/dev/null; do
		awk '/^VmHWM/{print $2}' "/proc/$MPID/status" 2>/dev/null
		sleep 0.2
	  done | sort -n | tail -1 > "$out.hwm" ) &
	PIDS+=($!)
}

wait_intervals() {
	for _ in $(seq 300); do
		[ -f "$1/intervals.csv" ] && [ "$(($(wc -l < "$1/intervals.csv") - 1))" -ge "$2" ] && return 0
		sleep 0.1
	done
	fail "intervals did not reach $2 in $1"
}

wait_master() {
	set +e
	timeout 90 tail --pid="$MPID" -f /dev/null
	wait "$MPID"
	rc=$?
	set -e
	sleep 0.3 # the memory sampler's last word
}

# No output may hold a line a peer forged or a raw escape character.
no_forgery() {
	for f in "$@"; do
		! grep -aq '^FORGED' "$f" || fail "$f has a forged line"
		! grep -aq $'\x1b' "$f" || fail "$f has a raw escape character"
	done
}

# ---- (1) impostors ------------------------------------------------------
"$LOCKSTEP" slave --daemon --name d1 --allow "$TMP/*" --insecure --master "$EP" > "$TMP/d1.log" 2>&1 &
D1=$!
PIDS+=($D1)
start_master "$TMP/o1" --local-slaves 2 --expect-slaves 1
wait_intervals "$TMP/o1" 2
# All at once: each waits 2 s for a welcome that must not come.
"$HOSTILE" "$EP" hello d1 4242 & h1=$!
"$HOSTILE" "$EP" hello local-1 4243 & h2=$!
"$HOSTILE" "$EP" hello "../../../../../../../../../../tmp/lockstep-trav-$$" 4244 & h3=$!
"$HOSTILE" "$EP" hello $'evil\nFORGED name\x1b[2J' 4245 $'h\nFORGED host\x1b[31m' & h4=$!
set +e
wait $h1; r_live=$?
wait $h2; r_local=$?
wait $h3; r_trav=$?
wait $h4; r_esc=$?
set -e
wait_master
cat "$TMP/o1.console"
[ "$rc" -eq 0 ] || { fail_show "$TMP/o1.err" "(1) exit $rc, expected 0"; }
[ "$r_live" -eq 3 ] || fail "(1) an impostor for live slave d1 was welcomed"
[ "$r_local" -eq 3 ] || fail "(1) an impostor for local-1 was welcomed"
[ "$r_trav" -eq 3 ] || fail "(1) a path-traversal name was welcomed"
[ "$r_esc" -eq 3 ] || fail "(1) a name with control characters was welcomed"
[ ! -e "/tmp/lockstep-trav-$$.csv" ] || fail "(1) a file outside the results folder was written"
grep -q "slave d1 (pid 4242 on hostile) refused: slave d1 is registered and alive" "$TMP/o1.err" ||
	fail "(1) no refusal of the impostor for d1"
grep -q "slave local-1 (pid 4243 on hostile) refused: that name belongs to a slave this master started" "$TMP/o1.err" ||
	fail "(1) no refusal of the impostor for local-1"
grep -qF 'slave evil\x0aFORGED name\x1b[2J (pid 4245 on h\x0aFORGED host\x1b[31m) refused' "$TMP/o1.err" ||
	{ grep -a refused "$TMP/o1.err"; fail "(1) the refused name is not shown escaped"; }
no_forgery "$TMP/o1.console" "$TMP/o1.err" "$TMP/o1/lockstep.log"
ls "$TMP/o1/hosts" | sort | tr '\n' ' ' | grep -x "d1.csv local-1.csv local-2.csv " > /dev/null ||
	fail "(1) hosts/ holds $(ls "$TMP/o1/hosts")"
python3 - "$TMP/o1" "$D1" <<'PY' || fail "(1) summary"
import json, sys
s = json.load(open(sys.argv[1] + "/summary.json"))
st = {x["name"]: x for x in s["slaves"]}
assert sorted(st) == ["d1", "local-1", "local-2"], sorted(st)
assert st["d1"]["pid"] == int(sys.argv[2]), st["d1"]
for x in st.values():
    assert x["state"] == "finished" and x["rejected_intervals"] == 0, x
PY
# Every slave in every interval (check_results counts a late row, which a
# loaded machine may give, as the slave's report of that interval).
python3 "$HERE/check_results.py" "$TMP/o1" --rdpct 70 --slaves 3
echo "ok (1): impostors refused"

# ---- (2) implausible intervals -----------------------------------------
# An impostor racing the local slaves: its hello waits for the master's
# port and arrives before theirs, under a name the master gives local-1.
"$HOSTILE" "$EP" hello local-1 4246 & hr=$!
sleep 0.2
start_master "$TMP/o2" --local-slaves 2 --expect-slaves 1
"$HOSTILE" "$EP" slave fake1 huge_ops errors bytes hist_max cpu times \
	$'log:hi\nFORGED log\x1b[31m' > "$TMP/fake.log" 2>&1 &
PIDS+=($!)
wait_master
cat "$TMP/o2.console"
[ "$rc" -eq 4 ] || { fail_show "$TMP/o2.err" "(2) exit $rc, expected 4 (degraded)"; }
set +e
wait $hr; r_race=$?
set -e
[ "$r_race" -eq 3 ] || fail "(2) an impostor racing the local slaves was welcomed"
grep -q "slave local-1 (pid 4246 on hostile) refused: that name belongs to a slave this master started" "$TMP/o2.err" ||
	fail "(2) no refusal of the impostor racing local-1"
for why in "ops in 1000000000 ns are more than" "I/O errors in" \
	"write bytes for 0 ops" "contradict its min" "CPU time" \
	"ends at 0 ns, before its start at 18446744073709551615 ns"; do
	grep -q "slave fake1: interval [0-9]* of r1 rejected, not counted: .*$why" "$TMP/o2/lockstep.log" ||
		fail "(2) no rejection saying '$why'"
done
grep -qF 'slave fake1: hi\x0aFORGED log\x1b[31m' "$TMP/o2/lockstep.log" ||
	fail "(2) the slave's log text is not shown escaped"
no_forgery "$TMP/o2.console" "$TMP/o2.err" "$TMP/o2/lockstep.log"
python3 - "$TMP/o2" <<'PY' || fail "(2) summary"
import csv, json, sys
d = sys.argv[1]
s = json.load(open(d + "/summary.json"))
assert s["status"] == "degraded", s["status"]
st = {x["name"]: x for x in s["slaves"]}
assert st["fake1"]["state"] == "suspect", st["fake1"]
assert st["fake1"]["rejected_intervals"] == 6, st["fake1"]
for n in ("local-1", "local-2"):
    assert st[n]["state"] == "finished" and st[n]["rejected_intervals"] == 0, st[n]
# The totals are the real slaves' own: their hosts files add up to them.
run = s["runs"][0]
ops = sum(int(r["ops"]) for n in ("local-1", "local-2")
          for r in csv.DictReader(open("%s/hosts/%s.csv" % (d, n)))
          if r["phase"] == "measure")
assert ops == run["totals"]["ops"] > 0, (ops, run["totals"]["ops"])
fake = [r for r in csv.DictReader(open(d + "/hosts/fake1.csv"))]
assert all(int(r["ops"]) == 0 for r in fake), fake
assert len(fake) == run["intervals"] - 6, len(fake)
assert all(int(r["start_ns"]) <= int(r["end_ns"]) for r in fake), fake
# The start skew is the real slaves' (a forged time would be centuries).
assert run["start_skew_ns"] < 10**10, run["start_skew_ns"]
PY
python3 "$HERE/check_results.py" "$TMP/o2" --rdpct 70 --slaves 3 --status degraded --degraded
echo "ok (2): implausible intervals rejected and counted"

# ---- (3) a flood of one-byte frames and a 100 MB frame -----------------
start_master "$TMP/o3" --local-slaves 2
wait_intervals "$TMP/o3" 1
"$HOSTILE" "$EP" flood 4 > "$TMP/flood.out" &
FPID=$!
PIDS+=($FPID)
"$HOSTILE" "$EP" big 100 || true
"$HOSTILE" "$EP" big 100 || true
wait "$FPID" || true
wait_master
[ "$rc" -eq 0 ] || { cat "$TMP/o3.err" | tail -20; fail "(3) exit $rc, expected 0"; }
sent=$(cat "$TMP/flood.out")
base=$(cat "$TMP/o1.hwm")
hwm=$(cat "$TMP/o3.hwm")
echo "flood: $sent one-byte frames; master VmHWM $hwm kB (a normal run: $base kB)"
[ "$sent" -gt 1000 ] || fail "(3) the flood sent only $sent frames"
[ "$hwm" -lt "$((base + 65536))" ] || fail "(3) the master grew to $hwm kB (a normal run: $base kB)"
log=$(stat -c %s "$TMP/o3/lockstep.log")
con=$(($(stat -c %s "$TMP/o3.console") + $(stat -c %s "$TMP/o3.err")))
[ "$log" -lt 200000 ] || fail "(3) lockstep.log is $log bytes"
[ "$con" -lt 200000 ] || fail "(3) the console took $con bytes"
grep -q "similar messages suppressed\|were suppressed" "$TMP/o3/lockstep.log" ||
	fail "(3) the log does not say how many messages it suppressed"
python3 - "$TMP/o3" <<'PY' || fail "(3) totals"
import csv, json, sys
d = sys.argv[1]
s = json.load(open(d + "/summary.json"))
assert s["status"] == "completed", s["status"]
run = s["runs"][0]
# Cluster rows and late rows hold every I/O, and the slaves' own files
# add up to the same.
rows = [r for r in csv.DictReader(open(d + "/intervals.csv")) if r["phase"] != "warmup"]
assert sum(int(r["ops"]) for r in rows) == run["totals"]["ops"] > 0
ops = sum(int(r["ops"]) for n in ("local-1", "local-2")
          for r in csv.DictReader(open("%s/hosts/%s.csv" % (d, n)))
          if r["phase"] == "measure")
assert ops == run["totals"]["ops"], (ops, run["totals"]["ops"])
PY
echo "ok (3): flood and 100 MB frame: memory, log and console bounded"
echo "PASS"
