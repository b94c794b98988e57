# warmup=steady against a device whose rate the test changes: a local
# slave (it inherits the master's blkio cgroup, v1) reads a loop device
# capped by blkio.throttle.read_iops_device, at a fixed 200 IO/s with
# fixed gaps (distribution=deterministic: no arrival noise, and an
# open-loop schedule that catches up what a busy machine delays, so that
# a quiet device is steady even at a load average of 14).
# 1. Settles: capped at 50 IO/s, then at 1000 IO/s once lockstep wrote two
#    warmup rows (the test records when, date +%s%N: the master's clock
#    is this machine's CLOCK_REALTIME). The rate goes from 50 to 200 after
#    a catch-up; with rounds of 2 intervals the judged window is 10
#    intervals and none holding a capped interval is steady, and the
#    window starts one interval past the judgment, so intervals.csv's
#    first measured row must start at least 10 intervals after the
#    change; the warmup rows must be what summary.json's warmup says, and
#    the measured window (10 rows) steady by the run's own verdict. An
#    event at=3s is 3 s into the measured time wherever the warmup ended:
#    it starts at the first measured row's start + 3 s (no earlier, and
#    within 2 intervals after), not at the planned maximum's (40 s, past
#    the phase's end, where it would never run).
# 2. Never settles: the cap alternates 1000 / 50 IO/s every 2 s, so each
#    window of 5 one-interval rounds holds whole intervals of both: the
#    warmup runs to its maximum (12 intervals), says so, and the run is
#    marked not steady.
source "$(dirname "$0")/lib.sh"
source "$HERE/loop_lib.sh"

if [ "$(id -u)" -ne 0 ]; then
	echo "SKIP: needs root (a loop device and a blkio cgroup)"
	exit 77
fi
if [ ! -w /sys/fs/cgroup/blkio/cgroup.procs ]; then
	echo "SKIP: needs cgroup v1 blkio under /sys/fs/cgroup/blkio"
	exit 77
fi
TOGGLE=
cleanup_warmup() {
	[ -n "$TOGGLE" ] && kill "$TOGGLE" 2>/dev/null || true
	cleanup
	loop_down
}
trap cleanup_warmup EXIT
loop_up /sys/fs/cgroup/blkio/lockstep-warmup-$$
cap() { echo "$MM $1" > "$CG/blkio.throttle.read_iops_device"; }

# run NAME WARMUP ELAPSED [EV]: lockstep in the cgroup, in the background
# (its local slave is born in the group); sets LPID.
run() {
	cat > "$TMP/$1.vdb" <<VDB
sd=sd1,lun=$LOOP,threads=4,openflags=o_direct
wd=wd1,sd=sd1,xfersize=4k,rdpct=100
rd=$1,wd=wd1,iorate=200,distribution=deterministic,elapsed=$3,warmup=$2,
   interval=1
${4:-}
VDB
	timeout -k 5 60 sh -c 'echo $$ > "$1/cgroup.procs"; shift; exec "$@"' \
		sh "$CG" "$LOCKSTEP" run "$TMP/$1.vdb" -o "$TMP/$1" \
		--local-slaves 1 > "$TMP/$1.console" 2> "$TMP/$1.err" &
	LPID=$!
	PIDS+=($LPID)
}

# rows NAME: the run's rows in intervals.csv so far.
rows() {
	local n
	n=$(grep -c "^$1," "$TMP/$1/intervals.csv" 2>/dev/null) || true
	echo "${n:-0}"
}

finish() {
	set +e
	wait "$LPID"
	rc=$?
	set -e
	[ "$rc" -eq 0 ] || { cat "$TMP/$1.console" "$TMP/$1.err"; fail "$1: exit $rc"; }
}

# ---- 1: settles after the change --------------------------------------
cap 50
run settle "(steady,40,2)" 10 'ev=mark,rd=settle,at=3s,exec="true"'
for _ in $(seq 300); do
	[ "$(rows settle)" -ge 2 ] && break
	kill -0 "$LPID" 2>/dev/null || break
	sleep 0.1
done
[ "$(rows settle)" -ge 2 ] || { fail_show "$TMP/settle.err" "settle: no two rows in 30 s"; }
cap 1000
CHANGE=$(date +%s%N)
finish settle
grep -q "^Run settle: steady after [0-9]* intervals of warmup (data .*%, slope .*%); measuring 10 intervals from interval [0-9]*$" "$TMP/settle.console" ||
	{ fail_show "$TMP/settle.console" "settle: no console line saying when the warmup ended"; }

python3 - "$TMP/settle" "$CHANGE" <<'PY'
import csv, json, sys
out, change = sys.argv[1], int(sys.argv[2])
rows = [r for r in csv.DictReader(open(out + "/intervals.csv")) if r["run"] == "settle"]
warm = [r for r in rows if r["phase"] == "warmup"]
meas = [r for r in rows if r["phase"] == "measure"]
s = json.load(open(out + "/summary.json"))
run = s["runs"][0]
w = run["warmup"]
interval_ns = 1_000_000_000
assert w["mode"] == "steady" and not w["reached_max"], w
assert w["intervals_per_round"] == 2 and w["max_intervals"] == 40, w
assert w["intervals"] == len(warm), (w, len(warm))
assert len(meas) == 10, len(meas)
# Rows in order: every warmup row before every measured one.
assert [r["phase"] for r in rows if r["phase"] != "late"] == ["warmup"] * len(warm) + ["measure"] * 10
first = int(meas[0]["start_ns"])
# The judged window (10 intervals, 5 rounds of 2) lies after the change.
assert first >= change + 10 * interval_ns, (first - change) / 1e9
assert w["steady_at"] < w["intervals"] <= 40, w
st = run["steady_state"]
assert st["steady"] is True and "warmup_reached_max" not in st, st
ev = [e for e in s["events"] if e["name"] == "mark"]
assert len(ev) == 1 and ev[0]["status"] == "completed", ev
ev_late = (ev[0]["start_ns"] - (first + 3 * interval_ns)) / 1e9
assert ev[0]["planned_ns"] == first + 3 * interval_ns, (ev[0], first)
assert 0 <= ev_late <= 2, ev_late
print("ok: cap changed at %.3f s, warmup %d intervals (steady at %d), first measured row %.3f s after the change, measured data %.1f%% slope %.1f%%, event at=3s started %.3f s after its time"
      % ((change - int(rows[0]["start_ns"])) / 1e9, w["intervals"], w["steady_at"],
         (first - change) / 1e9, st["data_excursion_pct"], st["slope_excursion_pct"], ev_late))
PY

# ---- 2: never settles: the maximum --------------------------------------
cap 50
(
	while :; do
		cap 1000
		sleep 2
		cap 50
		sleep 2
	done
) &
TOGGLE=$!
run nosettle "(steady,12)" 5
finish nosettle
kill "$TOGGLE" 2>/dev/null || true
TOGGLE=
grep -q "^Run nosettle: NOT STEADY after the maximum warmup of 12 intervals" "$TMP/nosettle.console" ||
	{ fail_show "$TMP/nosettle.console" "nosettle: no console line saying the maximum was reached"; }
grep -q "^Run nosettle: NOT STEADY (its warmup reached the maximum)" "$TMP/nosettle.console" ||
	{ fail_show "$TMP/nosettle.console" "nosettle: the run's verdict is not marked"; }
python3 - "$TMP/nosettle" <<'PY'
import csv, json, sys
out = sys.argv[1]
rows = [r for r in csv.DictReader(open(out + "/intervals.csv")) if r["run"] == "nosettle"]
warm = [r for r in rows if r["phase"] == "warmup"]
meas = [r for r in rows if r["phase"] == "measure"]
run = json.load(open(out + "/summary.json"))["runs"][0]
w = run["warmup"]
assert w["mode"] == "steady" and w["reached_max"] is True, w
assert w["steady_at"] is None and w["intervals"] == 12 == len(warm), (w, len(warm))
assert len(meas) == 5, len(meas)
st = run["steady_state"]
assert st["steady"] is False and st["warmup_reached_max"] is True, st
print("ok: never steady: %d warmup rows (the maximum), %d measured, marked not steady" % (len(warm), len(meas)))
PY
echo "PASS"
