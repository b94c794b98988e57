# Shared by the live export tests (export_*.sh), sourced after lib.sh: a
# free port, a run of $TMP/t.vdb feeding one sink, and the check of a run
# whose receiver was killed in its middle.

free_port() {
	python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}

# run_export OUT SINK POINTS ARGS...: run $TMP/t.vdb with 2 local slaves
# into OUT with ARGS (the sink's option); it must exit 0 and say on the
# console that SINK sent POINTS points and dropped none. Console in
# OUT.txt.
# tele_points DIR: the telemetry points a run sent, one per row of its
# devices.csv and hoststats.csv (devices: the slaves' and the cluster's)
# and per ok row of its probes.csv.
tele_points() {
	local probes=0
	[ ! -f "$1/probes.csv" ] || probes=$(grep -c ',ok$' "$1/probes.csv" || true)
	echo $(( $(tail -n +2 "$1/devices.csv" | wc -l) + $(tail -n +2 "$1/hoststats.csv" | wc -l) + probes ))
}

# run_export OUT SINK N ARGS...: N interval points, and the telemetry's.
run_export() {
	local out=$1 sink=$2 points=$3
	shift 3
	run_bounded 60 "$LOCKSTEP" run "$TMP/t.vdb" -o "$out" --local-slaves 2 \
		"$@" > "$out.txt" 2>&1
	cat "$out.txt"
	[ "$rc" -eq 0 ] || fail "lockstep run exited $rc"
	[ "$(tail -n +2 "$out/hoststats.csv" | wc -l)" -ge 10 ] ||
		fail "hoststats.csv has fewer rows than the slaves' intervals"
	points=$(( points + $(tele_points "$out") ))
	grep -q "^export $sink: $points points sent, 0 dropped" "$out.txt" ||
		fail "no 'export $sink: $points points sent, 0 dropped' line"
}

# run_killed OUT SINK PID ARGS...: the same run made 6 intervals long, with
# the receiver PID killed once the second interval is on the console (so
# some points were delivered and more are to come): the run still exits 0
# and completes, and SINK's points are partly sent and partly dropped,
# counted on the console and in summary.json (they add up to 6 x 3).
run_killed() {
	local out=$1 sink=$2 pid=$3 lpid start
	shift 3
	sed -i 's/elapsed=4,warmup=1/elapsed=6,warmup=0/' "$TMP/t.vdb"
	start=$(date +%s)
	timeout -k 5 60 "$LOCKSTEP" run "$TMP/t.vdb" -o "$out" --local-slaves 2 \
		"$@" > "$out.txt" 2>&1 &
	lpid=$!
	PIDS+=("$lpid")
	for _ in $(seq 400); do
		grep -Eq '^[0-9:.]+ +2 ' "$out.txt" && break
		sleep 0.1
	done
	kill -9 "$pid"
	set +e
	wait "$lpid"
	rc=$?
	set -e
	cat "$out.txt"
	[ "$rc" -eq 0 ] || fail "a dead $sink receiver made the run exit $rc"
	[ $(( $(date +%s) - start )) -lt 40 ] || fail "a dead $sink receiver slowed the run"
	grep -Eq "^export $sink: [0-9]+ points sent, [1-9][0-9]* dropped" "$out.txt" ||
		fail "no dropped points reported on the console"
	python3 - "$out" "$sink" "$(tele_points "$out")" <<'PY'
import json, sys
d = json.load(open(sys.argv[1] + "/summary.json"))
g = d["export"][sys.argv[2]]
assert d["status"] == "completed", d["status"]
assert g["dropped"] > 0 and g["sent"] > 0, g
assert g["sent"] + g["dropped"] == 6 * 3 + int(sys.argv[3]), g
assert len(d["runs"]) == 1 and d["runs"][0]["intervals"] == 6, d["runs"]
print("ok: receiver killed: %d sent, %d dropped, the run completed" % (g["sent"], g["dropped"]))
PY
}
