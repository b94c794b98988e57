#!/bin/bash
# What a slave's telemetry costs it: the CPU time of one sample (8 block
# devices' stat files, /proc/stat, /proc/pressure/*, an interface's four
# counters) measured by tests/tools/telebench over many samples, repeated
# ROUNDS times; the median and the spread, and what that is of one core
# at one sample a second (the default interval).
# usage: scripts/bench-telemetry.sh [BUILD_DIR] [ROUNDS] [SAMPLES]
set -euo pipefail
BUILD=${1:-build}
ROUNDS=${2:-7}
SAMPLES=${3:-20000}
TB=$BUILD/tests/telebench
[ -x "$TB" ] || { echo "build $TB first (cmake --build $BUILD)" >&2; exit 2; }
[ "$(id -u)" -eq 0 ] || { echo "needs root (loop devices)" >&2; exit 2; }
TMP=$(mktemp -d)
LOOPS=()
cleanup() {
	for l in "${LOOPS[@]:-}"; do [ -n "$l" ] && losetup -d "$l" 2>/dev/null || true; done
	rm -rf "$TMP"
}
trap cleanup EXIT
for i in 1 2 3 4 5 6 7 8; do
	truncate -s 16m "$TMP/d$i.img"
	LOOPS+=("$(losetup -f --show "$TMP/d$i.img")")
done
res=()
for _ in $(seq "$ROUNDS"); do
	line=$("$TB" "$SAMPLES" lo "${LOOPS[@]}")
	echo "$line"
	res+=("$(echo "$line" | awk '{print $NF}')")
done
printf '%s\n' "${res[@]}" | sort -n | awk '
	{ v[NR] = $1 }
	END {
		m = v[int((NR + 1) / 2)]
		printf "median %.2f us per sample (spread %.2f..%.2f): %.4f%% of a core at 1 sample/s\n",
			m, v[1], v[NR], m / 1e6 * 100
	}'
