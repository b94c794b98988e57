#!/usr/bin/env bash
# Scale benchmark of the master (issue 5): one master with --engine null and
# N fake slaves (tests/tools/fakeslaves: one DEALER+SUB per fake, all in one
# process, or a few when ulimit -n is too low for one) on this machine. For each N it reports the master's CPU (% of one core,
# and microseconds per slave-interval) during the measured phase, its peak
# RSS, and the emission delay: how long
# after the last slave handed interval k to ZeroMQ the master wrote the
# cluster row for k (intervals.csv emitted_ns minus fakeslaves' send log).
#
# usage: scripts/bench-master.sh [N[,N...]] [SECONDS] [options]
#   N            fake slaves, comma-separated list (default 100,1000)
#   SECONDS      measured seconds per run, after 2 s of warmup (default 20)
#   --build DIR  where lockstep and tests/fakeslaves are (default build)
#   -o DIR       keep every run's files in DIR/<N>/ (default: a temporary
#                folder, removed at the end)
#   --callgrind  instead: run the master under valgrind's callgrind and
#                print its instructions (all its threads, ZeroMQ's I/O
#                thread included) per slave-interval in the steady state:
#                counted from the first measured row of intervals.csv to
#                the last but one. Repeatable where CPU time on a shared
#                machine is not; keep N small (callgrind is ~50x slower:
#                50 slaves keep up; late rows mean they did not)
#   -h, --help
#
# Needs from the master: `lockstep run FILE --local-slaves 0
# --expect-slaves N --port P` (wait for N external slaves on a known port
# pair) and an `emitted_ns` column (CLOCK_REALTIME ns the row was written) in
# intervals.csv. Without emitted_ns the delay columns say n/a.
# Master and fakes share this machine's CPUs: the fakes' own load is part of
# the picture, so compare numbers taken on the same machine.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$ROOT/build
COUNTS=100,1000
SECONDS_MEASURED=20
WARMUP=2
KEEP_DIR=
CALLGRIND=0
WRAP=()

usage() { sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"; }
die() {
	echo "bench-master: $*" >&2
	exit 2
}

pos=()
while [ $# -gt 0 ]; do
	case $1 in
	--build) BUILD=${2:?--build wants a folder}; shift 2 ;;
	-o) KEEP_DIR=${2:?-o wants a folder}; shift 2 ;;
	--callgrind) CALLGRIND=1; shift ;;
	-h | --help) usage; exit 0 ;;
	-*) die "unknown option $1 (try --help)" ;;
	*) pos+=("$1"); shift ;;
	esac
done
[ ${#pos[@]} -le 2 ] || die "too many arguments (try --help)"
[ ${#pos[@]} -ge 1 ] && COUNTS=${pos[0]}
[ ${#pos[@]} -ge 2 ] && SECONDS_MEASURED=${pos[1]}
[[ $COUNTS =~ ^[0-9]+(,[0-9]+)*$ ]] || die "N must be a number or a comma-separated list, not '$COUNTS'"
[[ $SECONDS_MEASURED =~ ^[1-9][0-9]*$ ]] || die "SECONDS must be a whole number > 0, not '$SECONDS_MEASURED'"

LOCKSTEP=$BUILD/lockstep
FAKES=$BUILD/tests/fakeslaves
[ -x "$LOCKSTEP" ] || die "no $LOCKSTEP (build first, or --build DIR)"
[ -x "$FAKES" ] || die "no $FAKES (cmake --build $BUILD --target fakeslaves)"
[ -x /usr/bin/time ] || die "/usr/bin/time is needed (apt-get install time)"
command -v python3 >/dev/null || die "python3 is needed"
"$LOCKSTEP" run --help 2>&1 | grep -- '--expect-slaves' > /dev/null ||
	die "this lockstep has no 'run --expect-slaves N': the master cannot wait for external slaves yet"

WORK=$(mktemp -d /tmp/bench-master.XXXXXX)
MASTER_PID=
TIME_PID=
# The master is our time(1)'s child: kill it only while it still is.
kill_master() {
	if [ -n "$MASTER_PID" ] &&
		[ "$(awk '{print $4}' "/proc/$MASTER_PID/stat" 2>/dev/null)" = "$TIME_PID" ]; then
		kill -9 "$MASTER_PID" 2>/dev/null || true
	fi
}
# Kill what is left of our own processes only: the master, and background
# jobs not yet reaped.
cleanup() {
	local p
	kill_master
	for p in $(jobs -p); do
		kill -9 "$p" 2>/dev/null || true
	done
	wait 2>/dev/null || true
	rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# A ROUTER port P with P+1 free too, on loopback. The master binds them a
# moment later; a rare race with another program is retried by the caller.
pick_ports() {
	python3 "$ROOT/scripts/free-port-pair.py" 127.0.0.1
}

# Sample the master's CPU ticks and memory until it exits.
SAMPLER=$WORK/sampler.py
cat > "$SAMPLER" <<'PY'
import sys, time
pid, out = sys.argv[1], sys.argv[2]
with open(out, "w") as f:
    f.write("real_ns,utime,stime,rss_kb,hwm_kb\n")
    while True:
        try:
            with open(f"/proc/{pid}/stat") as s:
                st = s.read().rsplit(")", 1)[1].split()
            rss = hwm = 0
            with open(f"/proc/{pid}/status") as s:
                for line in s:
                    if line.startswith("VmRSS:"):
                        rss = int(line.split()[1])
                    elif line.startswith("VmHWM:"):
                        hwm = int(line.split()[1])
        except (OSError, IndexError):
            break
        if st[0] == "Z":
            break
        f.write(f"{time.time_ns()},{st[11]},{st[12]},{rss},{hwm}\n")
        f.flush()
        time.sleep(0.1)
PY

# Turn one run's files into a table row: slaves cpu p50 p99 max rss rows.
ANALYZE=$WORK/analyze.py
cat > "$ANALYZE" <<'PY'
import csv, glob, math, os, sys
d, n, tck = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])

def rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))

iv = rows(os.path.join(d, "out", "intervals.csv"))
meas = [r for r in iv if r.get("phase") == "measure"]
if not meas:
    sys.exit("no measured interval in intervals.csv")
complete = sum(1 for r in meas if int(r["slaves_reported"]) == n)

# CPU over the measured window, from the sampler's ticks.
t0 = min(int(r["start_ns"]) for r in meas)
t1 = max(int(r["end_ns"]) for r in meas)
smp = [(int(r["real_ns"]), int(r["utime"]), int(r["stime"]))
       for r in rows(os.path.join(d, "samples.csv"))]
inside = [s for s in smp if t0 <= s[0] <= t1]
cpu = us = usr_sys = "n/a"
if len(inside) >= 2 and inside[-1][0] > inside[0][0]:
    secs = (inside[-1][0] - inside[0][0]) / 1e9
    usr = (inside[-1][1] - inside[0][1]) / tck / secs
    sys_ = (inside[-1][2] - inside[0][2]) / tck / secs
    frac = usr + sys_
    cpu = f"{100.0 * frac:.1f}"
    # CPU per slave-interval: the intervals are 1 s, so n arrive a second.
    us = f"{frac * 1e6 / n:.1f}"
    # The same, split: user (lockstep, libzmq, msgpack) / system (the
    # kernel's side of the sockets and the timers).
    usr_sys = f"{usr * 1e6 / n:.1f}/{sys_ * 1e6 / n:.1f}"

# When the last fake slave sent each interval (all fakeslaves processes).
last, count = {}, {}
for path in glob.glob(os.path.join(d, "sends-*.csv")):
    for r in rows(path):
        k = int(r["seq"])
        last[k] = max(last.get(k, 0), int(r["last_send_ns"]))
        count[k] = count.get(k, 0) + int(r["slaves"])
last = {k: v for k, v in last.items() if count[k] == n}

def pct(xs, p):
    return xs[max(0, math.ceil(p / 100 * len(xs)) - 1)]

# How late the fakes themselves were: last send minus the interval's end.
# Large values mean this machine was too busy to play N slaves on time.
lag = sorted((last[int(r["interval"]) - 1] - int(r["end_ns"])) / 1e6
             for r in meas if int(r["interval"]) - 1 in last)
lag = f"{lag[-1]:.1f}" if lag else "n/a"

# Emission delay: emitted_ns of row k minus the last send of interval k,
# over the rows every slave made in time (the others were emitted by the
# grace deadline, not by the last message).
delay = ["n/a"] * 3
if "emitted_ns" in iv[0]:
    ds = sorted((int(r["emitted_ns"]) - last[int(r["interval"]) - 1]) / 1e6
                for r in meas if int(r["interval"]) - 1 in last and
                int(r["slaves_reported"]) == n)
    if ds:
        delay = [f"{pct(ds, 50):.2f}", f"{pct(ds, 99):.2f}", f"{ds[-1]:.2f}"]

rss = "n/a"
with open(os.path.join(d, "time.txt")) as f:
    for line in f:
        if "Maximum resident set size" in line:
            rss = f"{int(line.split(':')[1]) / 1024:.1f}"
print(n, cpu, us, usr_sys, *delay, rss, f"{complete}/{len(meas)}", lag)
PY

# Run the master with N fakes; leave its files in $1. Returns non-zero when
# the run did not produce results.
run_one() {
	local dir=$1 n=$2 port tpid mpid spid deadline rc hard per nfakes i share p
	local fpids=()

	mkdir -p "$dir"
	cat > "$dir/bench.vdb" <<VDB
* bench-master: $n fake slaves, null engine; the fakes do no I/O
sd=sd1,lun=$dir/unused.dat,size=1m,threads=$n
wd=wd1,sd=sd1,xfersize=4k,rdpct=70,seekpct=100
rd=bench,wd=wd1,iorate=max,elapsed=$SECONDS_MEASURED,warmup=$WARMUP,interval=1
VDB
	# Descriptors: a fake slave holds 4 (two mailboxes, two TCP), the master
	# 3 per slave (two TCP, one CSV). Raise the soft limit to the hard one;
	# where even that is too low for one fakeslaves process, split the fakes
	# over several (unique name prefixes, send logs merged).
	ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
	hard=$(ulimit -n)
	per=$n
	if [ "$hard" != unlimited ]; then
		per=$(((hard - 256) / 4))
		[ $((3 * n + 256)) -le "$hard" ] ||
			echo "bench-master: ulimit -n is $hard; the master needs about $((3 * n + 256)) for $n slaves" >&2
	fi
	[ "$per" -ge 1 ] || { echo "bench-master: ulimit -n $hard is too low" >&2; return 1; }
	nfakes=$(((n + per - 1) / per))
	for _ in 1 2 3; do
		port=$(pick_ports)
		rm -rf "$dir/out"
		/usr/bin/time -v -o "$dir/time.txt" "${WRAP[@]}" "$LOCKSTEP" run "$dir/bench.vdb" \
			--local-slaves 0 --expect-slaves "$n" --engine null \
			--insecure --port "$port" --join-timeout 120 -o "$dir/out" \
			> "$dir/console.txt" 2> "$dir/master.err" &
		tpid=$!
		TIME_PID=$tpid
		mpid=
		for _ in $(seq 100); do
			mpid=$(cat "/proc/$tpid/task/$tpid/children" 2>/dev/null || true)
			mpid=${mpid%% *}
			[ -n "$mpid" ] && break
			kill -0 "$tpid" 2>/dev/null || break
			sleep 0.05
		done
		[ -n "$mpid" ] || { wait "$tpid" || true; cat "$dir/master.err" >&2; return 1; }
		MASTER_PID=$mpid
		python3 "$SAMPLER" "$mpid" "$dir/samples.csv" &
		spid=$!
		sleep 0.3
		if ! kill -0 "$mpid" 2>/dev/null && grep -q "cannot bind" "$dir/master.err"; then
			wait "$tpid" || true
			echo "bench-master: port $port was taken; trying another" >&2
			continue
		fi
		break
	done
	if ! kill -0 "$tpid" 2>/dev/null; then
		wait "$tpid" || true
		echo "bench-master: the master did not start:" >&2
		tail -n 5 "$dir/master.err" >&2
		return 1
	fi
	for ((i = 0; i < nfakes; i++)); do
		share=$((n / nfakes + (i < n % nfakes ? 1 : 0)))
		"$FAKES" --master "tcp://127.0.0.1:$port" -n "$share" \
			--prefix "fake$i" --send-log "$dir/sends-$i.csv" \
			--timeout $((SECONDS_MEASURED + WARMUP + 240)) \
			2> "$dir/fakes-$i.err" &
		fpids+=("$!")
	done

	deadline=$((SECONDS + 120 + WARMUP + SECONDS_MEASURED + 60))
	local rows phase=0
	while kill -0 "$tpid" 2>/dev/null; do
		if [ "$SECONDS" -gt "$deadline" ]; then
			echo "bench-master: master still running after the deadline: killed" >&2
			kill_master
			break
		fi
		# Under callgrind: count from the first measured row to the
		# last but one (the steady state, no start-up or shutdown).
		if [ "$CALLGRIND" -eq 1 ] && [ "$phase" -lt 2 ] &&
			[ -f "$dir/out/intervals.csv" ]; then
			# Cluster rows only: a late row is one slave's.
			rows=$(grep -c -E '^[^,]*,[^,]*,(warmup|measure),' \
				"$dir/out/intervals.csv" || true)
			if [ "$phase" -eq 0 ] && [ "$rows" -ge "$WARMUP" ]; then
				callgrind_control -z "$mpid" > /dev/null 2>&1
				echo "$rows" > "$dir/cg-rows"
				phase=1
			elif [ "$phase" -eq 1 ] &&
				[ "$rows" -ge $((WARMUP + SECONDS_MEASURED - 1)) ]; then
				callgrind_control -d "$mpid" > /dev/null 2>&1
				echo "$rows" >> "$dir/cg-rows"
				phase=2
			fi
		fi
		sleep 0.2
	done
	rc=0
	wait "$tpid" || rc=$?
	MASTER_PID=
	# The fakes leave on the master's stop; those never welcomed need a
	# TERM (they then write their send log), the stubborn a KILL.
	deadline=$((SECONDS + 15))
	for p in "${fpids[@]}"; do
		while kill -0 "$p" 2>/dev/null && [ "$SECONDS" -lt "$deadline" ]; do
			sleep 0.2
		done
		kill -TERM "$p" 2>/dev/null || true
	done
	deadline=$((SECONDS + 5))
	for p in "${fpids[@]}"; do
		while kill -0 "$p" 2>/dev/null && [ "$SECONDS" -lt "$deadline" ]; do
			sleep 0.2
		done
		kill -KILL "$p" 2>/dev/null || true
		wait "$p" 2>/dev/null || true
	done
	wait "$spid" 2>/dev/null || true
	cat "$dir"/fakes-*.err | sed 's/^/  /' >&2
	if [ "$rc" -ne 0 ] && [ "$rc" -ne 4 ]; then
		echo "bench-master: master exited $rc with $n slaves:" >&2
		tail -n 5 "$dir/master.err" >&2
		return 1
	fi
	[ "$rc" -eq 4 ] && echo "bench-master: master reports a degraded run with $n slaves (see $dir/out/lockstep.log)" >&2
	return 0
}

# Instructions per slave-interval of $1 slaves under callgrind: counters
# zeroed once the warmup rows are written, dumped SECONDS - 1 rows later.
callgrind_row() {
	local n=$1 d=$WORK/$1 ir r0 r1 f
	command -v callgrind_control >/dev/null || die "valgrind is needed for --callgrind"
	WRAP=(valgrind -q --tool=callgrind --callgrind-out-file="$d/callgrind.out")
	mkdir -p "$d"
	echo "bench-master: $n slaves under callgrind, ${SECONDS_MEASURED}s ..." >&2
	run_one "$d" "$n" || return 1
	WRAP=()
	{ read -r r0 && read -r r1; } < "$d/cg-rows" || return 1
	f=$(ls "$d"/callgrind.out.* 2>/dev/null | head -1)
	[ -n "$f" ] || return 1
	ir=$(sed -n 's/^totals: *\([0-9]*\).*/\1/p' "$f")
	[ -n "$ir" ] && [ "$r1" -gt "$r0" ] || return 1
	if [ -n "$KEEP_DIR" ]; then
		mkdir -p "$KEEP_DIR"
		cp "$f" "$KEEP_DIR/callgrind-$n.out"
	fi
	echo "$n $((r1 - r0)) $ir $((ir / (n * (r1 - r0))))"
}

if [ "$CALLGRIND" -eq 1 ]; then
	IFS=, read -r -a counts <<< "$COUNTS"
	printf '\n%7s %9s %16s %22s\n' slaves intervals "Ir" \
		"Ir per slave-interval"
	for n in "${counts[@]}"; do
		row=$(callgrind_row "$n") || row="$n failed failed n/a"
		# shellcheck disable=SC2086 # four words
		printf '%7s %9s %16s %22s\n' $row
	done
	exit 0
fi

tck=$(getconf CLK_TCK)
results=()
IFS=, read -r -a counts <<< "$COUNTS"
for n in "${counts[@]}"; do
	[ "$n" -ge 1 ] || die "N must be >= 1"
	dir=$WORK/$n
	echo "bench-master: $n slaves, ${WARMUP}s warmup + ${SECONDS_MEASURED}s measured ..." >&2
	if run_one "$dir" "$n" && row=$(python3 "$ANALYZE" "$dir" "$n" "$tck"); then
		results+=("$row")
	else
		results+=("$n n/a n/a n/a n/a n/a n/a n/a failed n/a")
	fi
	if [ -n "$KEEP_DIR" ]; then
		mkdir -p "$KEEP_DIR"
		rm -rf "${KEEP_DIR:?}/$n"
		cp -r "$dir" "$KEEP_DIR/$n"
	fi
done

echo
printf '%7s %13s %13s %13s %13s %13s %13s %9s %9s %13s\n' slaves "master CPU %" \
	"us/slave-iv" "usr/sys us" "delay p50 ms" "delay p99 ms" "delay max ms" "RSS MiB" \
	complete "send lag ms"
for r in "${results[@]}"; do
	# shellcheck disable=SC2086 # the row is ten words on purpose
	printf '%7s %13s %13s %13s %13s %13s %13s %9s %9s %13s\n' $r
done
echo
echo "master CPU %: of one core, over the measured intervals; us/slave-iv: the"
echo "same CPU in microseconds per slave-interval (one interval of one slave:"
echo "receiving, checking, merging and acknowledging it); usr/sys us: the same"
echo "split into user time and the kernel's. delay: intervals.csv"
echo "emitted_ns minus the last fake slave's send of that interval, over the"
echo "complete intervals (every slave in time). send lag: worst time from an"
echo "interval's end to the last fake's send; if large, this machine was too"
echo "busy to play the slaves on time and the other numbers suffer."
[ -z "$KEEP_DIR" ] || echo "files kept in $KEEP_DIR"
