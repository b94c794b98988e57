#!/usr/bin/env bash
# Start-skew benchmark (issue 17): N daemon slaves on M test hosts (network
# namespaces on one bridge, scripts/netns-cluster.sh), a master on the
# bridge with CURVE keys, K one-phase runs in a row. All hosts share this
# machine's kernel clock, so the true clock offset of every slave is 0: the
# offsets the master measures are their own error, and the true start skew
# is the spread of the slaves' first I/Os on their own clocks (reported
# time plus the offset used). For each run it prints the start skew with
# its error bound, the true skew, the largest measured offset and error
# bound (summary.json); then the median and maximum over the runs.
#
# usage: scripts/bench-skew.sh [options]
#   -n N         slaves in all (default 8), spread evenly over the hosts
#   -m M         hosts (network namespaces, default 4)
#   -k K         runs (default 9)
#   --elapsed S  seconds of I/O per run (default 2; the null engine at a
#                low rate, so the runs leave the CPUs to others)
#   --workers W  I/O threads per slave (default 1)
#   --build DIR  where lockstep is (default build)
#   -o DIR       keep every run's results in DIR (default: removed)
#   -h, --help
#
# Needs root and iproute2. The skew depends on the machine's load: state it
# with the numbers.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$ROOT/build
NSLAVES=8
NHOSTS=4
RUNS=9
ELAPSED=2
WORKERS=1
KEEP_DIR=

usage() { sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"; }
die() {
	echo "bench-skew: $*" >&2
	exit 2
}
num() { [[ $2 =~ ^[1-9][0-9]*$ ]] || die "$1 wants a whole number > 0, not '$2'"; }

while [ $# -gt 0 ]; do
	case $1 in
	-n) num -n "${2:-}"; NSLAVES=$2; shift 2 ;;
	-m) num -m "${2:-}"; NHOSTS=$2; shift 2 ;;
	-k) num -k "${2:-}"; RUNS=$2; shift 2 ;;
	--elapsed) num --elapsed "${2:-}"; ELAPSED=$2; shift 2 ;;
	--workers) num --workers "${2:-}"; WORKERS=$2; shift 2 ;;
	--build) BUILD=${2:?--build wants a folder}; shift 2 ;;
	-o) KEEP_DIR=${2:?-o wants a folder}; shift 2 ;;
	-h | --help) usage; exit 0 ;;
	*) die "unknown argument $1 (try --help)" ;;
	esac
done
[ "$NSLAVES" -ge "$NHOSTS" ] || die "-n $NSLAVES slaves cannot fill -m $NHOSTS hosts"
[ "$(id -u)" -eq 0 ] || die "needs root (network namespaces)"
LOCKSTEP=$BUILD/lockstep
[ -x "$LOCKSTEP" ] || die "no $LOCKSTEP (build first, or --build DIR)"
command -v python3 >/dev/null || die "python3 is needed"
NETNS=$ROOT/scripts/netns-cluster.sh

WORK=$(mktemp -d /tmp/bench-skew.XXXXXX)
CID=
PIDS=()
cleanup() {
	local p
	for p in "${PIDS[@]:-}"; do
		[ -n "$p" ] && kill -9 "$p" 2>/dev/null || true
	done
	wait 2>/dev/null || true
	[ -z "$CID" ] || "$NETNS" down "$CID" >/dev/null 2>&1 || true
	rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

CID=$("$NETNS" up "$NHOSTS" --prefix bsk 2>/dev/null | tail -1)
[ -n "$CID" ] || die "could not build the cluster"
eval "$("$NETNS" env "$CID")"
read -r -a HOSTS <<< "$LOCKSTEP_HOSTS"
BR=$LOCKSTEP_BRIDGE_IP

PORT=$(python3 "$ROOT/scripts/free-port-pair.py" "$BR" || true)
[ -n "$PORT" ] || die "no free port pair on $BR"

# Keys, the slaves' names (hd= rules: HD, or HD-1..HD-N) and the file.
K=$WORK/keys
mkdir "$K"
"$LOCKSTEP" keygen "$K" --name master > /dev/null
: > "$K/authorized"
VDB=$WORK/skew.vdb
echo "hd=default,shell=none" > "$VDB"
declare -a NAMES HOSTOF
for ((h = 1; h <= NHOSTS; h++)); do
	per=$((NSLAVES / NHOSTS + (h <= NSLAVES % NHOSTS ? 1 : 0)))
	echo "hd=h$h,system=${HOSTS[h - 1]#*=},slaves=$per" >> "$VDB"
	for ((j = 1; j <= per; j++)); do
		name=h$h
		[ "$per" -le 1 ] || name=h$h-$j
		NAMES+=("$name")
		HOSTOF+=("$h")
		"$LOCKSTEP" keygen "$K" --name "$name" > /dev/null
		echo "$(cat "$K/$name.pub") $name" >> "$K/authorized"
	done
done
dd if=/dev/zero of="$WORK/lun.dat" bs=1M count=1 status=none
cat >> "$VDB" <<VDB
sd=sd1,lun=$WORK/lun.dat,size=1m,threads=$((NSLAVES * WORKERS))
wd=wd1,sd=sd1,xfersize=4k,rdpct=100,seekpct=100
rd=skew,wd=wd1,iorate=$((NSLAVES * 500)),elapsed=$ELAPSED,interval=1
VDB

for i in "${!NAMES[@]}"; do
	name=${NAMES[i]}
	"$NETNS" exec -c "$CID" "${HOSTOF[i]}" "$LOCKSTEP" slave --daemon \
		--name "$name" --allow "$WORK/*" --workers "$WORKERS" \
		--key "$K/$name.key" --master-key "$K/master.pub" \
		--master "tcp://$BR:$PORT" > "$WORK/$name.log" 2>&1 &
	PIDS+=($!)
done

echo "bench-skew: $NSLAVES slaves on $NHOSTS hosts, $RUNS runs of ${ELAPSED}s ..." >&2
for ((r = 1; r <= RUNS; r++)); do
	out=$WORK/run$r
	rc=0
	timeout -k 5 $((ELAPSED + 90)) "$LOCKSTEP" run "$VDB" -o "$out" \
		--listen "$BR" --port "$PORT" --key "$K/master.key" \
		--authorized-slaves "$K/authorized" --engine null \
		--join-timeout 30 > "$out.console" 2> "$out.err" || rc=$?
	[ "$rc" -eq 0 ] || {
		tail -n 5 "$out.err" >&2
		die "run $r: the master exited $rc"
	}
done

python3 - "$WORK" "$RUNS" <<'PY'
import json, statistics, sys
work, runs = sys.argv[1], int(sys.argv[2])
skews, bounds, truth, offs, errs = [], [], [], [], []
print(f"{'run':>4} {'skew ms':>9} {'± ms':>7} {'true skew ms':>13} "
      f"{'max |offset| us':>16} {'max bound us':>13}")
for r in range(1, runs + 1):
    with open(f"{work}/run{r}/summary.json") as f:
        run = json.load(f)["runs"][0]
    skew = run["start_skew_ns"] / 1e6
    bound = run.get("start_skew_bound_ns", 0) / 1e6
    # One kernel clock: a first I/O on the slave's clock is the truth, the
    # master-clock time it was reported as plus the offset used for it.
    ps = [s for s in run["per_slave"] if s.get("first_io_ns")]
    true = [s["first_io_ns"] + s["clock_offset_ns"] for s in ps]
    o = [abs(s["clock_offset_ns"]) / 1e3 for s in ps]
    e = [s["clock_error_ns"] / 1e3 for s in ps]
    t = (max(true) - min(true)) / 1e6 if true else float("nan")
    skews.append(skew)
    bounds.append(bound)
    truth.append(t)
    offs += o
    errs += e
    print(f"{r:>4} {skew:>9.3f} {bound:>7.3f} {t:>13.3f} {max(o):>16.1f} {max(e):>13.1f}")
med = statistics.median
print()
print(f"start skew as reported: median {med(skews):.3f} ms ± {med(bounds):.3f} ms (median bound), "
      f"max {max(skews):.3f} ms over {runs} runs")
print(f"true start skew (one kernel clock): median {med(truth):.3f} ms, max {max(truth):.3f} ms")
print(f"offset error vs truth (0): median |offset| {med(offs):.1f} us, "
      f"max {max(offs):.1f} us over {len(offs)} slave-runs; "
      f"error bound median {med(errs):.1f} us, max {max(errs):.1f} us")
PY
if [ -n "$KEEP_DIR" ]; then
	mkdir -p "$KEEP_DIR"
	cp -r "$WORK"/run* "$KEEP_DIR"/
	echo "files kept in $KEEP_DIR"
fi
