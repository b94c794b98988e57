# Results are never silently lost: a results folder on a full filesystem
# gives a non-zero exit that names the incomplete files and leaves no empty
# summary.json; --require-space refuses such a folder before any I/O; a
# run stopped by SIGTERM reports the rates of the time it measured; and a
# second SIGINT still kills the slaves the master started.
source "$(dirname "$0")/lib.sh"

if [ "$(id -u)" -ne 0 ]; then
	echo "SKIP: needs root (tmpfs mounts)"
	exit 77
fi
MNT="$TMP/mnt"
mkdir -p "$MNT"
cleanup_mnt() {
	umount "$MNT" 2>/dev/null || umount -l "$MNT" 2>/dev/null || true
	cleanup
}
trap cleanup_mnt EXIT

cat > "$TMP/t.vdb" <<VDB
sd=sd1,lun=$TMP/d1.dat,size=8m,threads=2
wd=wd1,sd=sd1,xfersize=4k,rdpct=50
rd=r1,wd=wd1,iorate=max,elapsed=4,interval=1
VDB

# 1. A 200 KiB tmpfs, nearly full: the run goes on, but its files are cut.
mount -t tmpfs -o size=200k tmpfs "$MNT"
dd if=/dev/zero of="$MNT/filler" bs=4k count=46 status=none 2>/dev/null || true
run_bounded 60 "$LOCKSTEP" run "$TMP/t.vdb" -o "$MNT/out" --local-slaves 2 > "$TMP/c1.txt" 2>&1
cat "$TMP/c1.txt"
[ "$rc" -ne 0 ] || fail "results on a full filesystem: exit 0"
[ "$rc" -eq 5 ] || fail "results on a full filesystem: exit $rc, expected 5 (incomplete)"
grep -q "could not be written in full" "$TMP/c1.txt" || fail "the console does not say which file was cut"
grep -q "results in $MNT/out are incomplete: .*\(intervals.csv\|hosts/local-\)" "$TMP/c1.txt" || fail "the console does not name the incomplete files"
grep -q "planned rows" "$TMP/c1.txt" || fail "no warning about the free space before the run"
[ ! -e "$MNT/out/.summary.json.tmp" ] || fail "a temporary summary was left behind"
if [ -e "$MNT/out/summary.json" ]; then
	[ -s "$MNT/out/summary.json" ] || fail "a 0-byte summary.json was left as if complete"
	python3 - "$MNT/out/summary.json" <<'PY' || fail "summary.json does not record the incomplete files"
import json, sys
s = json.load(open(sys.argv[1]))
assert s["status"] == "incomplete" and s["exit_code"] == 5, s["status"]
assert s["incomplete_files"], s["incomplete_files"]
PY
else
	grep -q "summary.json could not be written" "$TMP/c1.txt" || fail "no summary.json and no word about it"
fi
umount "$MNT"

# 2. --require-space refuses that folder before any I/O (exit 1).
mount -t tmpfs -o size=200k tmpfs "$MNT"
run_bounded 60 "$LOCKSTEP" run "$TMP/t.vdb" -o "$MNT/out" --local-slaves 2 --require-space > "$TMP/c2.txt" 2>&1
cat "$TMP/c2.txt"
[ "$rc" -eq 1 ] || fail "--require-space on a tiny filesystem: exit $rc, expected 1"
grep -q "refused (--require-space)" "$TMP/c2.txt" || fail "no --require-space refusal"
grep -q "^Interval\|interval.*i/o" "$TMP/c2.txt" && fail "I/O started although the space was refused"
[ ! -s "$MNT/out/intervals.csv" ] || [ "$(wc -l < "$MNT/out/intervals.csv")" -le 1 ] || fail "rows were written"
umount "$MNT"

# 3. SIGTERM mid-run: the rates are the measured rows' (ops / their time).
sed -i 's/elapsed=4/elapsed=30/' "$TMP/t.vdb"
"$LOCKSTEP" run "$TMP/t.vdb" -o "$TMP/term" --local-slaves 2 > "$TMP/c3.txt" 2>&1 &
master=$!
PIDS+=("$master")
for _ in $(seq 300); do
	n=$(grep -c ",measure," "$TMP/term/intervals.csv" 2>/dev/null || true)
	[ "${n:-0}" -ge 4 ] && break
	sleep 0.1
done
[ "${n:-0}" -ge 4 ] || fail "the run did not get going"
kill -TERM "$master"
set +e
timeout 60 tail --pid="$master" -f /dev/null
wait "$master"
rc=$?
set -e
[ "$rc" -eq 2 ] || { fail_show "$TMP/c3.txt" "SIGTERM: exit $rc, expected 2"; }
python3 - "$TMP/term" <<'PY' || fail "an aborted run's rates are not its measured rows'"
import csv, json, sys
d = sys.argv[1]
run = json.load(open(d + "/summary.json"))["runs"][0]
rows = [r for r in csv.DictReader(open(d + "/intervals.csv")) if r["run"] == "r1"]
measured = [r for r in rows if r["phase"] == "measure"]
ops = sum(int(r["ops"]) for r in rows if r["phase"] in ("measure", "late"))
secs = len(measured) * 1.0
t = run["totals"]
assert t["ops"] == ops, (t["ops"], ops)
assert run["intervals"] == len(measured), (run["intervals"], len(measured))
assert abs(t["iops"] - ops / secs) <= 1e-6 * t["iops"], (t["iops"], ops / secs)
assert 0 < run["duration_s"] < 25, run["duration_s"]
print("ok: %d rows, %d ops, %.1f IOPS over %.0f s measured" % (len(measured), ops, t["iops"], secs))
PY

# 4. A second SIGINT: the master leaves at once, and no slave survives it.
"$LOCKSTEP" run "$TMP/t.vdb" -o "$TMP/int2" --local-slaves 2 > "$TMP/c4.txt" 2>&1 &
master=$!
PIDS+=("$master")
for _ in $(seq 300); do
	n=$(grep -c ",measure," "$TMP/int2/intervals.csv" 2>/dev/null || true)
	[ "${n:-0}" -ge 2 ] && break
	sleep 0.1
done
slaves=$(pgrep -P "$master" || true)
[ "$(echo "$slaves" | wc -w)" -eq 2 ] || fail "expected 2 slave processes, found: $slaves"
# Stopped, the slaves cannot obey the first signal's abort: the master
# waits for them, and the second signal must kill them itself. (Signals
# sent back to back would merge into one: the second goes once the first
# has left the master's pending set, so its handler has run, however long
# a busy machine takes to schedule the master; a fixed 0.5 s assumed it.)
kill -STOP $slaves
kill -INT "$master"
for _ in $(seq 100); do
	pnd=$(awk '/^ShdPnd:/ {print $2}' "/proc/$master/status" 2>/dev/null || true)
	[ -n "$pnd" ] && [ $((16#$pnd & 2)) -eq 0 ] && break
	sleep 0.1
done
kill -INT "$master"
set +e
timeout 10 tail --pid="$master" -f /dev/null
wait "$master"
rc=$?
set -e
[ "$rc" -eq 2 ] || { kill -9 $slaves 2>/dev/null; fail_show "$TMP/c4.txt" "second SIGINT: exit $rc, expected 2"; }
grep -q "second signal: slaves killed" "$TMP/c4.txt" || { kill -9 $slaves 2>/dev/null; fail_show "$TMP/c4.txt" "the second SIGINT was not seen as one"; }
alive() {
	local st
	st=$(awk '{print $3}' "/proc/$1/stat" 2>/dev/null || true)
	[ -n "$st" ] && [ "$st" != Z ]
}
# gone_within TENTHS PIDS...: every pid ended within TENTHS tenths of a
# second; the ones still alive are in $left.
gone_within() {
	local tenths=$1
	shift
	for _ in $(seq "$tenths"); do
		left=""
		for p in "$@"; do
			alive "$p" && left="$left $p"
		done
		[ -z "$left" ] && return 0
		sleep 0.1
	done
	return 1
}
gone_within 30 $slaves || { ps -o pid,stat,args -p ${left// /,} || true; kill -9 $left 2>/dev/null; fail "slaves outlived a second SIGINT:$left"; }
echo "ok: no slave outlived a second SIGINT"

# 5. A master killed outright (SIGKILL: no handler runs): the slaves it
# started read EOF on the pipe it handed their keys through and stop at
# once, not after their 10 s --master-timeout.
cat > "$TMP/long.vdb" <<VDB
sd=sd1,lun=$TMP/d1.dat,size=8m,threads=2
wd=wd1,sd=sd1,xfersize=4k,rdpct=50
rd=r1,wd=wd1,iorate=max,elapsed=60,interval=1
VDB
"$LOCKSTEP" run "$TMP/long.vdb" -o "$TMP/kill9" --local-slaves 2 > "$TMP/c5.txt" 2>&1 &
master=$!
PIDS+=("$master")
for _ in $(seq 300); do
	n=$(grep -c ",measure," "$TMP/kill9/intervals.csv" 2>/dev/null || true)
	[ "${n:-0}" -ge 2 ] && break
	sleep 0.1
done
slaves=$(pgrep -P "$master" || true)
[ "$(echo "$slaves" | wc -w)" -eq 2 ] || fail "expected 2 slave processes, found: $slaves"
kill -9 "$master"
gone_within 30 $slaves || { ps -o pid,stat,args -p ${left// /,} || true; kill -9 $left 2>/dev/null; fail "slaves ran on for 3 s after their master was killed:$left"; }
echo "ok: slaves stop within 3 s of their master's death"
echo "PASS"
