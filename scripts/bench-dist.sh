#!/usr/bin/env bash
# Access-distribution benchmark (issue 29), not a test: what a skewed
# random_distribution= costs against uniform random offsets, lockstep
# against itself in interleaved pairs (uniform, skewed, uniform, ...) so
# that drift hits both alike: 4k random reads at QD32 with O_DIRECT, one
# local slave with one worker (the generator's cost per I/O shows most
# there), on zram by default. For each distribution it prints the median
# IOPS and CPU seconds of both, the median of the per-pair IOPS ratios
# (skewed / uniform) with their spread (lowest..highest), and the target:
# the skewed run within 3% of uniform (ratio >= 0.97).
#
# On zram a skewed run reads few distinct blocks again and again, which the
# CPU caches keep: zipf:1.2 is faster than uniform for that reason alone.
# The cost of the draw itself is measured by distributions that pay it in
# full but spread like uniform: pareto:0.5 is exactly uniform (u^1) through
# the same pow() and permutation, zipf:0.01 nearly so (the hottest block
# 1.13 times the coldest over 262,144). --engine null (every I/O completes
# at once: lockstep's own work is all there is) shows the draw's cost as a
# share of lockstep's whole per-I/O work, the worst case of any device.
#
# usage: scripts/bench-dist.sh [options]
#   --device DEV     block device (default /dev/zram0; its disksize is set to
#                    1G if it is 0, and reset at the end)
#   --dists LIST     comma-separated random_distribution= values to compare
#                    with uniform (default pareto:0.5,zipf:0.01,zipf:1.2)
#   --seconds S      measured seconds per run (default 10)
#   --warmup S       warmup seconds per run (default 2)
#   --repeat N       pairs per distribution (default 5)
#   --workers N      I/O threads of the slave (default 1)
#   --engine NAME    io_uring (default) or null
#   --build DIR      where lockstep is (default build)
#   --no-prefill     do not write the device once before the runs (by
#                    default every byte is written with random data: an
#                    unwritten zram device answers reads with zeros, faster)
#   -o DIR           keep every run's files in DIR (default: removed)
#   -h, --help
#
# The prefill overwrites whatever is on the device. Other load on the
# machine moves the numbers: compare pairs, not runs.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$ROOT/build
DEVICE=/dev/zram0
DISTS=pareto:0.5,zipf:0.01,zipf:1.2
MEASURE=10
WARMUP=2
REPEAT=5
WORKERS=1
ENGINE=io_uring
PREFILL=1
KEEP_DIR=

usage() { sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"; }
die() {
	echo "bench-dist: $*" >&2
	exit 2
}
say() { echo "bench-dist: $*" >&2; }

while [ $# -gt 0 ]; do
	case $1 in
	--device) DEVICE=${2:?--device wants a path}; shift 2 ;;
	--dists) DISTS=${2:?}; shift 2 ;;
	--seconds) MEASURE=${2:?}; shift 2 ;;
	--warmup) WARMUP=${2:?}; shift 2 ;;
	--repeat) REPEAT=${2:?}; shift 2 ;;
	--workers) WORKERS=${2:?}; shift 2 ;;
	--engine) ENGINE=${2:?}; shift 2 ;;
	--build) BUILD=${2:?}; shift 2 ;;
	--no-prefill) PREFILL=0; shift ;;
	-o) KEEP_DIR=${2:?}; shift 2 ;;
	-h | --help) usage; exit 0 ;;
	*) die "unknown argument $1 (try --help)" ;;
	esac
done
[[ $MEASURE =~ ^[1-9][0-9]*$ ]] || die "--seconds wants a whole number > 0"
[[ $WARMUP =~ ^[0-9]+$ ]] || die "--warmup wants a whole number"
[[ $REPEAT =~ ^[1-9][0-9]*$ ]] || die "--repeat wants a whole number > 0"
[[ $WORKERS =~ ^[1-9][0-9]*$ ]] || die "--workers wants a whole number > 0"
LOCKSTEP=$BUILD/lockstep
[ -x "$LOCKSTEP" ] || die "no $LOCKSTEP (build first, or --build DIR)"
[ -b "$DEVICE" ] || die "$DEVICE is not a block device"
command -v python3 >/dev/null || die "python3 is needed"
[ -x /usr/bin/time ] || die "/usr/bin/time is needed (apt-get install time)"

WORK=$(mktemp -d /tmp/bench-dist.XXXXXX)
ZRAM_SIZED=
cleanup() {
	if [ -n "$ZRAM_SIZED" ]; then
		echo 1 > "/sys/block/$ZRAM_SIZED/reset" 2>/dev/null ||
			say "left /dev/$ZRAM_SIZED sized (in use)"
	fi
	if [ -n "$KEEP_DIR" ]; then
		mkdir -p "$KEEP_DIR" && cp -r "$WORK"/. "$KEEP_DIR"/
	fi
	rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

name=$(basename "$DEVICE")
[ "$ENGINE" = null ] && PREFILL=0 # nothing is read
if [[ $name == zram* ]] && [ "$(cat "/sys/block/$name/disksize")" = 0 ]; then
	echo 1G > "/sys/block/$name/disksize" || die "could not size $DEVICE"
	ZRAM_SIZED=$name
fi
if [ "$PREFILL" = 1 ]; then
	say "writing $DEVICE once with random data"
	dd if=/dev/urandom of="$DEVICE" bs=1M oflag=direct status=none 2>/dev/null ||
		true # dd stops at the end of the device with ENOSPC
fi

# Result line: iops cpu_s.
run() {
	local dir=$1 dist=$2
	mkdir -p "$dir"
	cat > "$dir/bench.vdb" <<VDB
* bench-dist: uniform against a skewed random_distribution=
sd=sd1,lun=$DEVICE,threads=32,openflags=o_direct
wd=wd1,sd=sd1,xfersize=4k,rdpct=100,seekpct=100,random_distribution=$dist
rd=r1,wd=wd1,iorate=max,elapsed=$MEASURE,warmup=$WARMUP,interval=1
VDB
	if ! /usr/bin/time -f '%U %S' -o "$dir/time.txt" "$LOCKSTEP" run \
		"$dir/bench.vdb" --local-slaves 1 --workers "$WORKERS" \
		--engine "$ENGINE" --no-history -o "$dir/out" > "$dir/console.txt" 2>&1; then
		say "lockstep failed in $dir:"
		tail -n 5 "$dir/console.txt" >&2
		return 1
	fi
	python3 - "$dir" <<'PY'
import json, sys
d = sys.argv[1]
t = json.load(open(f"{d}/out/summary.json"))["runs"][0]["totals"]
u, s = (float(x) for x in open(f"{d}/time.txt").read().split()[-2:])
print(t["iops"], u + s)
PY
}

echo "engine $ENGINE, device $DEVICE, 4k random read, QD32, O_DIRECT, 1 slave, $WORKERS worker(s), ${MEASURE}s + ${WARMUP}s warmup, $REPEAT pairs"
status=0
for dist in ${DISTS//,/ }; do
	: > "$WORK/rows"
	for i in $(seq "$REPEAT"); do
		u=$(run "$WORK/$dist-$i/uniform" random) || exit 1
		s=$(run "$WORK/$dist-$i/skewed" "$dist") || exit 1
		echo "$u $s" >> "$WORK/rows"
		say "$dist pair $i: uniform $u, skewed $s (iops cpu_s)"
	done
	python3 - "$dist" "$WORK/rows" <<'PY' || status=1
import statistics as st, sys
dist, rows = sys.argv[1], [list(map(float, l.split())) for l in open(sys.argv[2])]
ratio = sorted(s / u for u, _, s, _ in rows)
med = st.median(ratio)
print(f"{'uniform':<12} iops {st.median(r[0] for r in rows):>12,.0f}  cpu_s {st.median(r[1] for r in rows):6.2f}")
print(f"{dist:<12} iops {st.median(r[2] for r in rows):>12,.0f}  cpu_s {st.median(r[3] for r in rows):6.2f}")
ok = med >= 0.97
print(f"{dist:<12} ratio median {med:.4f} (spread {ratio[0]:.4f}..{ratio[-1]:.4f}) "
      f"target >= 0.97: {'met' if ok else 'MISSED'}")
# I/Os per CPU-second of the whole run (warmup included for both): less
# moved by other load on the machine, which starves one run of a pair.
eff = sorted((s * t_s) / (u * t_u) for u, t_u, s, t_s in
             ((r[0], 1 / r[1], r[2], 1 / r[3]) for r in rows))
print(f"{dist:<12} IO/CPU-s ratio median {st.median(eff):.4f} "
      f"(spread {eff[0]:.4f}..{eff[-1]:.4f})")
sys.exit(0 if ok else 1)
PY
done
exit $status
