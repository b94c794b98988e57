#!/usr/bin/env bash
# The floor under the master's cost per slave-interval (issue 17): what
# ZeroMQ and the kernel alone charge a ROUTER receiving one frame a second
# from each of N peers on this machine, with the master's wait-then-drain
# loop and its ack cadence, and nothing of lockstep's work
# (tests/tools/zmqfloor.c). With --with-master each round also runs
# `scripts/bench-master.sh N SECONDS` with the same build, interleaved, so
# the master's own work shows as the difference of the two medians.
#
# usage: scripts/bench-transport.sh [options]
#   -n N           peers (default 1000)
#   --size BYTES   bytes per frame (default 2800: an interval of the
#                  master bench's fakes, 2 x ~650 buckets, as measured
#                  on loopback)
#   --ack-every S  the sink sends each peer a frame every S s, as the
#                  master's acks (default 4; 0: never)
#   --burst K      each peer sends K frames at once every K s, as a slave
#                  that held K intervals back would (default 1)
#   --seconds S    measured seconds per run after 2 s (default 10)
#   --rounds K     runs (pairs with --with-master), default 5
#   --with-master  interleave scripts/bench-master.sh runs
#   --build DIR    where lockstep and tests/zmqfloor are (default build)
#   -h, --help
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$ROOT/build
N=1000
SIZE=2800
ACK=4
BURST=1
SECS=10
ROUNDS=5
WITH_MASTER=0

usage() { sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"; }
die() {
	echo "bench-transport: $*" >&2
	exit 2
}
num() { [[ $2 =~ ^[0-9]+$ ]] || die "$1 wants a whole number, not '$2'"; }

while [ $# -gt 0 ]; do
	case $1 in
	-n) num -n "${2:-}"; N=$2; shift 2 ;;
	--size) num --size "${2:-}"; SIZE=$2; shift 2 ;;
	--ack-every) num --ack-every "${2:-}"; ACK=$2; shift 2 ;;
	--burst) num --burst "${2:-}"; BURST=$2; shift 2 ;;
	--seconds) num --seconds "${2:-}"; SECS=$2; shift 2 ;;
	--rounds) num --rounds "${2:-}"; ROUNDS=$2; shift 2 ;;
	--with-master) WITH_MASTER=1; shift ;;
	--build) BUILD=${2:?--build wants a folder}; shift 2 ;;
	-h | --help) usage; exit 0 ;;
	*) die "unknown argument $1 (try --help)" ;;
	esac
done
if [ "$N" -lt 1 ] || [ "$SECS" -lt 1 ] || [ "$ROUNDS" -lt 1 ]; then
	die "-n, --seconds and --rounds must be at least 1"
fi
FLOOR=$BUILD/tests/zmqfloor
[ -x "$FLOOR" ] || die "no $FLOOR (cmake --build $BUILD --target zmqfloor)"

WORK=$(mktemp -d /tmp/bench-transport.XXXXXX)
cleanup() {
	local p
	for p in $(jobs -p); do
		kill -9 "$p" 2>/dev/null || true
	done
	wait 2>/dev/null || true
	rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# One sink run: prints "cpu_us usr_us sys_us" per frame.
floor_run() {
	local out=$WORK/sink.out port=""
	"$FLOOR" sink --seconds $((SECS + 2)) --warmup 2 --ack-every "$ACK" \
		>"$out" 2>&1 &
	local sink=$!
	for _ in $(seq 100); do
		port=$(awk '$1 == "port" {print $2}' "$out")
		[ -n "$port" ] && break
		sleep 0.05
	done
	[ -n "$port" ] || die "the sink did not start: $(cat "$out")"
	"$FLOOR" send --to "tcp://127.0.0.1:$port" -n "$N" --size "$SIZE" \
		--seconds $((SECS + 4)) --burst "$BURST" &
	local sender=$!
	if ! wait "$sender"; then
		kill "$sink" 2>/dev/null || true
		die "the sender failed (ulimit -n is $(ulimit -n); $N peers need more)"
	fi
	wait "$sink" || die "the sink failed: $(cat "$out")"
	awk '$1 == "frames" {
		if ($2 < '"$N"' * '"$SECS"' * 0.5) { print "short"; exit }
		print $4, $6, $8 }' "$out"
}

master_run() {
	"$ROOT/scripts/bench-master.sh" "$N" "$SECS" --build "$BUILD" 2>&1 |
		awk '$1 == "'"$N"'" && NF > 8 { split($4, a, "/"); print $3, a[1], a[2] }'
}

echo "bench-transport: $N peers, $SIZE-byte frames ($BURST at a time), acks every $ACK s, $SECS s x $ROUNDS rounds"
: >"$WORK/floor"
: >"$WORK/master"
for r in $(seq "$ROUNDS"); do
	f=$(floor_run)
	[ "$f" = short ] && die "the sink got too few frames: this machine could not play $N peers"
	echo "$f" >>"$WORK/floor"
	line="  round $r: floor $f"
	if [ "$WITH_MASTER" = 1 ]; then
		m=$(master_run)
		[ -n "$m" ] || die "bench-master.sh gave no row"
		echo "$m" >>"$WORK/master"
		line="$line   master $m"
	fi
	echo "$line (us per frame: total usr sys)"
done

python3 - "$WORK/floor" "$WORK/master" <<'PY'
import statistics, sys

def load(p):
    with open(p) as f:
        return [list(map(float, l.split())) for l in f if l.strip()]

def show(name, rows):
    tot = [r[0] for r in rows]
    usr = statistics.median(r[1] for r in rows)
    sys_ = statistics.median(r[2] for r in rows)
    print(f"{name:>7}: median {statistics.median(tot):6.1f} us per slave-interval "
          f"(spread {min(tot):.1f}-{max(tot):.1f}; usr {usr:.1f}, sys {sys_:.1f})")
    return statistics.median(tot)

fl = load(sys.argv[1])
ms = load(sys.argv[2])
f = show("floor", fl)
if ms:
    m = show("master", ms)
    print(f"lockstep's own work above ZeroMQ and the kernel: {m - f:.1f} us "
          f"({(m - f) / m * 100:.0f}% of the master's cost)")
PY
