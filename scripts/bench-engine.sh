#!/usr/bin/env bash
# Engine benchmark (issue 3), not a test: lockstep with one local slave
# against fio on the same device with the same knobs, interleaved (lockstep,
# fio, lockstep, fio, ...) so that drift hits both alike. For each case it
# prints the medians of IOPS, mean and p99 latency and I/Os per CPU-second,
# and the lockstep/fio ratios (median of the per-pair ratios, with their
# spread) against the targets of issue 3: IOPS >= 1.0x fio and IOPS/CPU-s
# >= 1.2x fio at QD32 (issue 33; 1.15x before), null engine >= fio's null
# engine; and of issue 17 at
# QD1 on zram and on a loop device: IOPS >= 0.95x and IOPS/CPU-s >= 1.0x;
# and of issue 33 at QD1: the per-I/O latency difference lockstep - fio
# (median of the pairs' differences of mean latency) <= +0.5 us, and on
# the null engine at QD1 (qd1-null: no device at all, so the figure is the
# instrument's own cost per I/O) lockstep's cost <= fio's.
#
# usage: scripts/bench-engine.sh [options]
#   --device DEV     block device to use (default /dev/zram0; its disksize is
#                    set to 1G if it is 0; without zram, or with DEV "loop",
#                    a loop device on a 1 GiB tmpfs file is made and removed
#                    at the end)
#   --seconds S      measured seconds per run (default 10)
#   --warmup S       warmup seconds per run (default 2)
#   --repeat N       lockstep/fio pairs per case (default 5, and 7 for the
#                    QD1 cases, whose pairs swing 2x: on a noisy machine
#                    the median of 3 pairs still swings)
#   --quick          smoke run: 3 s measured, 1 s warmup
#   --cases LIST     comma-separated subset of: qd32-read, qd32-mixed,
#                    qd1-read, qd1-zram, qd1-loop, qd1-sqpoll, qd1-null,
#                    null, validate (default all but qd1-read and
#                    qd1-sqpoll). qd1-read runs on --device; qd1-sqpoll is
#                    qd1-zram with a submission-queue polling thread in both
#                    tools (lockstep sqpoll=yes, fio --sqthread_poll=1);
#                    qd1-null is the null engine of both at QD1; qd1-zram
#                    always on /dev/zram0 and qd1-loop always on a loop
#                    device on a tmpfs file, whatever --device says;
#                    validate is qd32-mixed with validate=yes against the
#                    same lockstep without it (tool "plain"): the cost of
#                    data validation
#   --build DIR      where lockstep is (default build)
#   --no-prefill     do not write the device before the runs (by default
#                    every byte of it is written once with random data, so
#                    that reads read stored data: an unwritten zram device
#                    answers reads with zeros at three times the speed)
#   --against DIR    compare with the lockstep built in DIR instead of fio
#                    (tool "base"): the same interleaved pairs, ratios
#                    this build / that build, to show that a change moved
#                    no number (e.g. --against build-before)
#   -o DIR           keep every run's files in DIR (default: removed)
#   -h, --help
#
# CPU is user+system of the whole process tree from /usr/bin/time (the
# master waits for its slave, fio for its job, so children are counted).
# I/Os per CPU-second = IOPS x (warmup + measured seconds) / CPU seconds:
# the warmup runs at the same rate and its CPU is in the total, for both
# tools alike; set-up and tear-down CPU is charged to each tool as it is.
# The prefill and the 70/30 case write to the device: whatever is on it is
# overwritten.
# Latency: lockstep per I/O from submission; fio its total latency (lat,
# with lat_percentiles=1), both directions together.
# On a loop device most of the work is done by the loop driver's kernel
# threads, whose CPU neither tool is charged: IO/CPU-s means little there.
# Other load on the machine moves the numbers: compare pairs, not runs.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$ROOT/build
DEVICE=/dev/zram0
DEVICE_GIVEN=0
MEASURE=10
CUR_CASE=
WARMUP=2
REPEAT=5
REPEAT_GIVEN=0
CASES=qd32-read,qd32-mixed,qd1-zram,qd1-loop,qd1-null,null,validate
KEEP_DIR=
PREFILL=1
AGAINST=

usage() { sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"; }
die() {
	echo "bench-engine: $*" >&2
	exit 2
}
say() { echo "bench-engine: $*" >&2; }

while [ $# -gt 0 ]; do
	case $1 in
	--device) DEVICE=${2:?--device wants a path}; DEVICE_GIVEN=1; shift 2 ;;
	--seconds) MEASURE=${2:?}; shift 2 ;;
	--warmup) WARMUP=${2:?}; shift 2 ;;
	--repeat) REPEAT=${2:?}; REPEAT_GIVEN=1; shift 2 ;;
	--quick) MEASURE=3; WARMUP=1; shift ;;
	--cases) CASES=${2:?}; shift 2 ;;
	--build) BUILD=${2:?}; shift 2 ;;
	--no-prefill) PREFILL=0; shift ;;
	--against) AGAINST=${2:?--against wants a build folder}; shift 2 ;;
	-o) KEEP_DIR=${2:?}; shift 2 ;;
	-h | --help) usage; exit 0 ;;
	*) die "unknown argument $1 (try --help)" ;;
	esac
done
[[ $MEASURE =~ ^[1-9][0-9]*$ ]] || die "--seconds wants a whole number > 0"
[[ $WARMUP =~ ^[0-9]+$ ]] || die "--warmup wants a whole number"
[[ $REPEAT =~ ^[1-9][0-9]*$ ]] || die "--repeat wants a whole number > 0"
for c in ${CASES//,/ }; do
	case $c in qd32-read | qd32-mixed | qd1-read | qd1-zram | qd1-loop | qd1-sqpoll | qd1-null | null | validate) ;; *) die "unknown case '$c'" ;; esac
done

LOCKSTEP=$BUILD/lockstep
[ -x "$LOCKSTEP" ] || die "no $LOCKSTEP (build first, or --build DIR)"
OTHER=fio
if [ -n "$AGAINST" ]; then
	OTHER=base
	[ -x "$AGAINST/lockstep" ] || die "no $AGAINST/lockstep (--against DIR)"
fi
[ "$OTHER" = base ] || command -v fio >/dev/null || die "fio is needed"
command -v python3 >/dev/null || die "python3 is needed"
[ -x /usr/bin/time ] || die "/usr/bin/time is needed (apt-get install time)"
command -v taskset >/dev/null || die "taskset is needed (util-linux)"

WORK=$(mktemp -d /tmp/bench-engine.XXXXXX)
TMPFS=
LOOP=
ZRAM_SIZED=
cleanup() {
	local p
	for p in $(jobs -p); do
		kill -TERM "$p" 2>/dev/null || true
	done
	wait 2>/dev/null || true
	if [ -n "$LOOP" ]; then
		losetup -d "$LOOP" 2>/dev/null || say "could not detach $LOOP"
	fi
	if [ -n "$TMPFS" ]; then
		umount "$TMPFS" 2>/dev/null || say "could not unmount $TMPFS"
		rmdir "$TMPFS" 2>/dev/null || true
	fi
	# A zram device we sized is reset (its memory freed) unless in use.
	if [ -n "$ZRAM_SIZED" ]; then
		echo 1 > "/sys/block/$ZRAM_SIZED/reset" 2>/dev/null ||
			say "left /dev/$ZRAM_SIZED sized (in use)"
	fi
	rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# ---- the device --------------------------------------------------------

setup_device() {
	if [ "$DEVICE" = loop ]; then
		setup_loop
		DEVICE=$LOOP
		return
	fi
	if [ $DEVICE_GIVEN -eq 1 ]; then
		[ -b "$DEVICE" ] || [ -f "$DEVICE" ] || die "$DEVICE is not a block device or file"
		return
	fi
	setup_zram "$DEVICE" && return
	say "$DEVICE is not usable; using a loop device on a tmpfs file"
	setup_loop
	DEVICE=$LOOP
}

# A zram device sized 1G if it was 0; fails when $1 is not a zram device.
setup_zram() {
	local name
	name=$(basename "$1")
	[ -b "$1" ] && [ -w "/sys/block/$name/disksize" ] || return 1
	if [ "$(cat "/sys/block/$name/disksize")" = 0 ]; then
		echo 1G > "/sys/block/$name/disksize" || die "cannot size $1"
		ZRAM_SIZED=$name
		say "set $1 disksize to 1G (reset at the end)"
	fi
}

# The loop device on a tmpfs file ($LOOP), made once.
setup_loop() {
	[ -z "$LOOP" ] || return 0
	[ "$(id -u)" -eq 0 ] || die "a loop device needs root"
	TMPFS=$(mktemp -d /tmp/bench-engine-tmpfs.XXXXXX)
	mount -t tmpfs -o size=1100m tmpfs "$TMPFS" || {
		rmdir "$TMPFS"
		TMPFS=
		die "cannot mount a tmpfs"
	}
	dd if=/dev/zero of="$TMPFS/disk" bs=1M count=1024 status=none
	LOOP=$(losetup --find --show "$TMPFS/disk") || die "cannot set up a loop device"
	say "using $LOOP"
}

# Write every byte once with incompressible data: both tools then read what
# a real device would hold (zram keeps it uncompressed, as a disk keeps it).
PREFILLED=" "
prefill_device() {
	local bytes
	[ "$PREFILL" -eq 1 ] || return 0
	case $PREFILLED in *" $DEVICE "*) return 0 ;; esac
	PREFILLED="$PREFILLED$DEVICE "
	if [ -b "$DEVICE" ]; then
		bytes=$(blockdev --getsize64 "$DEVICE")
	else
		bytes=$(stat -c %s "$DEVICE")
	fi
	[ "$bytes" -ge 1048576 ] || die "$DEVICE is smaller than 1 MiB"
	say "prefilling $DEVICE ($((bytes / 1048576)) MiB of random data)"
	dd if=/dev/urandom of="$DEVICE" bs=1M count=$((bytes / 1048576)) \
		oflag=direct conv=notrunc status=none || die "cannot prefill $DEVICE"
}

# Someone else's I/O on the device spoils the numbers: say so.
warn_if_busy() {
	local users
	users=$(find /proc/[0-9]*/fd -lname "$(readlink -f "$DEVICE")" 2>/dev/null |
		cut -d/ -f3 | sort -u | tr '\n' ' ' || true)
	[ -z "$users" ] || say "warning: $DEVICE is open by pid $users- results may be disturbed"
}

# ---- one run of each tool ------------------------------------------------

# Case knobs: rdpct, queue depth, engine (io_uring|null).
case_knobs() {
	case $1 in
	qd32-read) echo "100 32 io_uring" ;;
	qd32-mixed) echo "70 32 io_uring" ;;
	qd1-read | qd1-zram | qd1-loop | qd1-sqpoll) echo "100 1 io_uring" ;;
	qd1-null) echo "100 1 null" ;;
	null) echo "100 32 null" ;;
	validate) echo "70 32 io_uring" ;;
	esac
}

# Result line: iops lat_mean_ms lat_p99_ms cpu_s.
run_lockstep() {
	local dir=$1 rdpct=$2 qd=$3 engine=$4 pin=() bin=${BIN:-$LOCKSTEP}
	[ "$engine" = null ] && pin=(taskset -c 0)
	if [ "$CUR_CASE" = validate ] && [ -z "${PLAIN:-}" ]; then
		echo "validate=yes" > "$dir/bench.vdb"
	else
		: > "$dir/bench.vdb"
	fi
	local sq=
	[ "$CUR_CASE" = qd1-sqpoll ] && sq=,sqpoll=yes
	cat >> "$dir/bench.vdb" <<VDB
* bench-engine: one local slave, same knobs as the fio run beside it
sd=sd1,lun=$DEVICE,threads=$qd,openflags=o_direct$sq
wd=wd1,sd=sd1,xfersize=4k,rdpct=$rdpct,seekpct=100
rd=r1,wd=wd1,iorate=max,elapsed=$MEASURE,warmup=$WARMUP,interval=1
VDB
	if ! "${pin[@]}" /usr/bin/time -f '%U %S' -o "$dir/time.txt" \
		"$bin" run "$dir/bench.vdb" --local-slaves 1 --workers 1 \
		--engine "$engine" -o "$dir/out" > "$dir/console.txt" 2>&1; then
		say "lockstep failed in $dir:"
		tail -n 5 "$dir/console.txt" >&2
		return 1
	fi
	python3 - "$dir" <<'PY'
import json, sys
d = sys.argv[1]
t = json.load(open(f"{d}/out/summary.json"))["runs"][0]["totals"]
u, s = (float(x) for x in open(f"{d}/time.txt").read().split()[-2:])
print(t["iops"], t["lat_mean_ms"], t["lat_p99_ms"], u + s)
PY
}

# The validate case's other side: the same lockstep without validate=yes.
run_plain() {
	PLAIN=1 run_lockstep "$@"
}

# The same run with the lockstep of --against DIR.
run_base() {
	BIN=$AGAINST/lockstep run_lockstep "$@"
}

run_fio() {
	local dir=$1 rdpct=$2 qd=$3 engine=$4 args pin=()
	args=(--name=bench --direct=1 --bs=4k --iodepth="$qd" --numjobs=1
		--time_based --runtime="$MEASURE" --lat_percentiles=1
		--unified_rw_reporting=both --output-format=json
		--output="$dir/fio.json")
	[ "$WARMUP" -eq 0 ] || args+=(--ramp_time="$WARMUP")
	if [ "$rdpct" -eq 100 ]; then
		args+=(--rw=randread)
	else
		args+=(--rw=randrw --rwmixread="$rdpct")
	fi
	if [ "$engine" = null ]; then
		args+=(--ioengine=null --size=1g)
		pin=(taskset -c 0)
	else
		local sq=0
		[ "$CUR_CASE" = qd1-sqpoll ] && sq=1
		args+=(--ioengine=io_uring --filename="$DEVICE" --hipri=0
			--fixedbufs --registerfiles --sqthread_poll=$sq)
	fi
	if ! "${pin[@]}" /usr/bin/time -f '%U %S' -o "$dir/time.txt" fio "${args[@]}" \
		> "$dir/fio.out" 2>&1; then
		say "fio failed in $dir:"
		tail -n 5 "$dir/fio.out" >&2
		return 1
	fi
	python3 - "$dir" <<'PY'
import json, sys
d = sys.argv[1]
j = json.load(open(f"{d}/fio.json"))["jobs"][0]
m = j.get("mixed") or j["read"]
lat = m["lat_ns"]
p99 = lat.get("percentile", {}).get("99.000000", 0)
u, s = (float(x) for x in open(f"{d}/time.txt").read().split()[-2:])
print(m["iops"], lat["mean"] / 1e6, p99 / 1e6, u + s)
PY
}

# ---- the report ------------------------------------------------------------

REPORT=$WORK/report.py
cat > "$REPORT" <<'PY'
import statistics as st, sys
# argv: case, seconds-with-warmup, the other tool's name (fio or base), then
# lines "tool iops mean p99 cpu" on stdin
case, secs, other = sys.argv[1], float(sys.argv[2]), sys.argv[3]
runs = {"lockstep": [], other: []}
for line in sys.stdin:
    tool, *v = line.split()
    runs[tool].append([float(x) for x in v] if v[0] != "fail" else None)

def per_cpu(r):
    return r[0] * secs / r[3] if r and r[3] > 0 else float("nan")

def med(xs):
    xs = [x for x in xs if x == x]
    return st.median(xs) if xs else float("nan")

rows = []
for tool in ("lockstep", other):
    ok = [r for r in runs[tool] if r]
    rows.append((tool, len(ok), med([r[0] for r in ok]), med([r[1] for r in ok]),
                 med([r[2] for r in ok]), med([per_cpu(r) for r in ok])))
pairs = [(a, b) for a, b in zip(runs["lockstep"], runs[other]) if a and b]
ri = med([a[0] / b[0] for a, b in pairs if b[0] > 0])
rc = med([per_cpu(a) / per_cpu(b) for a, b in pairs])
for tool, n, iops, mean, p99, pc in rows:
    print(f"{case:<11} {tool:<9} {n:>4} {iops:>12,.0f} {mean * 1000:>10.1f} "
          f"{p99 * 1000:>10.1f} {pc:>13,.0f}")
targets = {"qd32-read": (1.0, 1.2), "qd32-mixed": (1.0, 1.2), "null": (1.0, None),
           "qd1-read": (0.95, 1.0), "qd1-zram": (0.95, 1.0), "qd1-loop": (0.95, 1.0),
           "qd1-sqpoll": (0.95, 1.0), "qd1-null": (1.0, 1.0)}
t = targets.get(case) if other == "fio" else None
spread = lambda xs: f"{min(xs):.3f}-{max(xs):.3f}" if xs else "n/a"
ris = [a[0] / b[0] for a, b in pairs if b[0] > 0]
rcs = [x for x in (per_cpu(a) / per_cpu(b) for a, b in pairs) if x == x]
def verdict(x, want):
    if want is None or x != x:
        return ""
    return " (target >= %.2f: %s)" % (want, "met" if x >= want else "NOT met")
# The per-I/O latency difference, lockstep - the other, in us: the median
# of the pairs' differences of mean latency (issue 33: <= +0.5 us at QD1).
dls = [(a[1] - b[1]) * 1000 for a, b in pairs]
dl = med(dls)
dspread = f"{min(dls):+.2f} to {max(dls):+.2f}" if dls else "n/a"
dverdict = ""
if other == "fio" and case.startswith("qd1") and dl == dl:
    dverdict = " (target <= +0.50: %s)" % ("met" if dl <= 0.5 else "NOT met")
print(f"{case:<11} ratio lockstep/{other}, median of {len(pairs)} pairs: "
      f"IOPS {ri:.3f}{verdict(ri, t[0] if t else None)}, "
      f"IOPS/CPU-s {rc:.3f}{verdict(rc, t[1] if t else None)}; "
      f"pairs {spread(ris)} and {spread(rcs)}; "
      f"mean latency lockstep-{other} {dl:+.2f} us{dverdict}, pairs {dspread}")
PY

# The device of a case: qd1-zram and qd1-loop bring their own.
MAIN_DEVICE=
case_device() {
	case $1 in
	qd1-zram)
		setup_zram /dev/zram0 || die "qd1-zram needs /dev/zram0 (modprobe zram)"
		DEVICE=/dev/zram0 ;;
	qd1-loop) setup_loop; DEVICE=$LOOP ;;
	qd1-sqpoll)
		setup_zram /dev/zram0 || die "qd1-sqpoll needs /dev/zram0 (modprobe zram)"
		DEVICE=/dev/zram0 ;;
	*)
		if [ -z "$MAIN_DEVICE" ]; then
			setup_device
			MAIN_DEVICE=$DEVICE
		fi
		DEVICE=$MAIN_DEVICE ;;
	esac
	prefill_device
}

say "${WARMUP}s warmup + ${MEASURE}s measured; $REPEAT pairs per case (7 for QD1 cases unless --repeat)"
results=$WORK/results.txt
: > "$results"
for c in ${CASES//,/ }; do
	read -r rdpct qd engine <<< "$(case_knobs "$c")"
	case_device "$c"
	say "$c on $DEVICE"
	CUR_CASE=$c
	other=$OTHER
	[ "$c" = validate ] && other=plain
	: > "$WORK/$c.lines"
	n=$REPEAT
	case $c in qd1-*) [ "$REPEAT_GIVEN" -eq 1 ] || n=7 ;; esac
	for ((k = 1; k <= n; k++)); do
		warn_if_busy
		for tool in lockstep $other; do
			dir=$WORK/$c/$k-$tool
			mkdir -p "$dir"
			say "$c: $tool run $k of $n"
			if line=$("run_$tool" "$dir" "$rdpct" "$qd" "$engine"); then
				echo "$tool $line" >> "$WORK/$c.lines"
			else
				echo "$tool fail" >> "$WORK/$c.lines"
			fi
		done
	done
	python3 "$REPORT" "$c" $((MEASURE + WARMUP)) "$other" < "$WORK/$c.lines" >> "$results"
done

echo
printf '%-11s %-9s %4s %12s %10s %10s %13s\n' case tool runs IOPS \
	"mean us" "p99 us" "IO/CPU-s"
grep -v ratio "$results"
echo
grep ratio "$results"
echo
echo "medians over the runs; IO/CPU-s = IOPS x (warmup + measured s) / (user + sys CPU s)"
if [ -n "$KEEP_DIR" ]; then
	mkdir -p "$KEEP_DIR"
	cp -r "$WORK"/. "$KEEP_DIR"/
	echo "files kept in $KEEP_DIR"
fi
