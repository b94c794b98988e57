#!/bin/bash
# bench-fs.sh: lockstep's file-system operations against fio's, in the same
# run, interleaved (lockstep, fio, lockstep, fio, ...) so that drift hits
# both alike. Two cases, one thread each, on one folder of N files:
#   stat    lockstep fwd operation=getattr, fileselect=random, against
#           fio --ioengine=filestat (a stat() per I/O, files in turn);
#   create  lockstep fwd operation=create of 4 KiB files (create, one
#           4 KiB write, close: Vdbench's create writes the file) against
#           fio --ioengine=psync --create_on_open=1 writing one 4 KiB block
#           per new file (no time_based: each file made once).
# For each case it prints each tool's operations per second (medians over
# the runs) and the lockstep/fio ratio (median of the per-pair ratios,
# with their spread).
#
# usage: scripts/bench-fs.sh [--build DIR] [--dir DIR] [--files N]
#                            [--seconds S] [--repeat N] [--cases LIST]
#   --build DIR   where lockstep is (default build)
#   --dir DIR     an empty folder on the file system to test (default a new
#                 folder under /dev/shm, tmpfs); everything made in it is
#                 removed after each run
#   --files N     files in the folder (default 200000: more than either
#                 tool creates in --seconds, so neither wraps around)
#   --seconds S   measured seconds of the stat and create runs (default 3)
#   --repeat N    lockstep/fio pairs per case (default 5)
#   --cases LIST  stat,create (default both)
# Other load on the machine moves the numbers: compare pairs, not runs.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$ROOT/build
DIR=
FILES=200000
SECONDS_=3
REPEAT=5
CASES=stat,create

usage() { sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"; }
die() {
	echo "bench-fs: $*" >&2
	exit 2
}
while [ $# -gt 0 ]; do
	case $1 in
	--build) BUILD=$2; shift 2 ;;
	--dir) DIR=$2; shift 2 ;;
	--files) FILES=$2; shift 2 ;;
	--seconds) SECONDS_=$2; shift 2 ;;
	--repeat) REPEAT=$2; shift 2 ;;
	--cases) CASES=$2; shift 2 ;;
	-h | --help) usage; exit 0 ;;
	*) die "unknown option $1 (see --help)" ;;
	esac
done
LOCKSTEP=$BUILD/lockstep
[ -x "$LOCKSTEP" ] || die "no $LOCKSTEP (build first, or --build DIR)"
command -v fio > /dev/null || die "no fio on PATH (apt-get install fio)"
[[ $FILES =~ ^[0-9]+$ ]] && [ "$FILES" -ge 100 ] || die "--files: a number of at least 100"
[[ $SECONDS_ =~ ^[0-9]+$ ]] && [ "$SECONDS_" -ge 1 ] || die "--seconds: a whole number of at least 1"
[[ $REPEAT =~ ^[0-9]+$ ]] && [ "$REPEAT" -ge 1 ] || die "--repeat: a number of at least 1"
WORK=$(mktemp -d /tmp/bench-fs.XXXXXX)
OWN_DIR=0
if [ -z "$DIR" ]; then
	DIR=$(mktemp -d /dev/shm/bench-fs.XXXXXX)
	OWN_DIR=1
fi
[ -d "$DIR" ] || die "--dir $DIR: not a folder"
[ -z "$(ls -A "$DIR")" ] || die "--dir $DIR: not empty"
cleanup() {
	find "$DIR" -mindepth 1 -delete 2> /dev/null || true
	[ "$OWN_DIR" -eq 0 ] || rmdir "$DIR" 2> /dev/null || true
	rm -rf "$WORK"
}
trap cleanup EXIT
export LOCKSTEP_HISTORY=$WORK/history.db
empty() { find "$DIR" -mindepth 1 -delete; }

# lockstep_run CASE: prints its operations per second.
lockstep_run() {
	local fwd op
	case $1 in
	stat) op=getattr ;;
	create) op=create ;;
	esac
	cat > "$WORK/ls.vdb" <<VDB
fsd=fsd1,anchor=$DIR,depth=1,width=1,files=$FILES,sizes=4k
fwd=fwd1,fsd=fsd1,operation=$op,fileselect=random,threads=1
fwd=del,fsd=fsd1,operation=delete,fileselect=once,threads=2
rd=prep,fwd=fwd1,fwdrate=max,format=only,elapsed=1,interval=1
VDB
	[ "$1" = create ] &&
		echo "rd=gone,fwd=del,fwdrate=max,format=no,elapsed=600,interval=1" >> "$WORK/ls.vdb"
	echo "rd=measure,fwd=fwd1,fwdrate=max,format=no,elapsed=$SECONDS_,interval=1" >> "$WORK/ls.vdb"
	rm -rf "$WORK/ls"
	"$LOCKSTEP" run "$WORK/ls.vdb" -o "$WORK/ls" --local-slaves 1 \
		> "$WORK/ls.txt" 2>&1 || { cat "$WORK/ls.txt" >&2; die "lockstep run failed"; }
	/usr/bin/python3 - "$WORK/ls/summary.json" "$op" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
r = [r for r in s["runs"] if r["name"] == "measure"][0]
print("%.1f" % r["operations"][sys.argv[2]]["rate"])
PY
	empty
}

# fio_run CASE: prints its operations per second.
fio_run() {
	local args
	case $1 in
	stat)
		# The files exist first (fio lays them out), then stat() each.
		args=(--ioengine=filestat --time_based --runtime="$SECONDS_") ;;
	create)
		args=(--ioengine=psync --rw=write --bs=4k --create_on_open=1
			--openfiles=1 --file_service_type=sequential
			--runtime="$SECONDS_") ;;
	esac
	fio --name=bench --directory="$DIR" --nrfiles="$FILES" --filesize=4k \
		"${args[@]}" --output-format=json > "$WORK/fio.json" 2> "$WORK/fio.err" ||
		{ cat "$WORK/fio.err" >&2; die "fio failed"; }
	/usr/bin/python3 - "$WORK/fio.json" "$1" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
d = j["read"] if sys.argv[2] == "stat" else j["write"]
print("%.1f" % d["iops"])
PY
	empty
}

IFS=, read -r -a cases <<< "$CASES"
echo "bench-fs: $FILES files of 4 KiB in $DIR, ${SECONDS_} s measured, $REPEAT pairs per case"
for c in "${cases[@]}"; do
	[ "$c" = stat ] || [ "$c" = create ] || die "unknown case $c"
	: > "$WORK/$c.pairs"
	for i in $(seq "$REPEAT"); do
		l=$(lockstep_run "$c")
		f=$(fio_run "$c")
		echo "bench-fs: $c pair $i: lockstep $l/s, fio $f/s"
		echo "$l $f" >> "$WORK/$c.pairs"
	done
	/usr/bin/python3 - "$c" "$WORK/$c.pairs" <<'PY'
import statistics as st, sys
pairs = [tuple(map(float, l.split())) for l in open(sys.argv[2])]
r = [l / f for l, f in pairs if f > 0]
print("%-7s lockstep %10.0f ops/s  fio %10.0f ops/s  ratio lockstep/fio, median of %d pairs: %.3f (pairs %.3f-%.3f)" % (
    sys.argv[1], st.median(l for l, _ in pairs), st.median(f for _, f in pairs),
    len(r), st.median(r), min(r), max(r)))
PY
done
