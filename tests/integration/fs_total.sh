#!/bin/bash
# The file-system size keywords in Vdbench's forms, end to end (a master
# and two local slaves on tmpfs), checked against the trees on disk
# (check_fstree.py, find) and lockstep's own record (summary.json):
# - rd fortotal=(50%,100%) with format=yes on an fsd with
#   totalsize=(160k,1) (Vdbench's (size,divisor), the whole tree of 40
#   files of 4k a slave): the 50% format creates and writes Vdbench's
#   subset of 80k (20 files a slave), the 100% one cleans it and makes
#   every file; the tree left is the whole tree;
# - fortotal=50% with format=only leaves exactly Vdbench's 80k subset in
#   each subtree: its files and bytes on disk are the format's creates and
#   write bytes;
# - fsd totalsize=(1m,2) is 512k: 16 files of 32k a slave, Vdbench's
#   subset, and workingsetsize=(64k,1) picks 2 of them.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/fs_lib.sh"
HERE=$(cd "$(dirname "$0")" && pwd)
CHECK="/usr/bin/python3 $HERE/check_fstree.py"
SHM=$(mktemp -d /dev/shm/lockstep-fstotal.XXXXXX)
trap 'rm -rf "$SHM"; cleanup' EXIT

# ok NAME: run NAME, which must exit 0.
ok() {
	run "$1"
	[ "$rc" -eq 0 ] || fail_show "$TMP/$1.txt" "$1: exited $rc"
}

# files TREE / bytes TREE: the files under TREE and their bytes.
files() { find "$1" -type f -name 'vdb_f*.file' | wc -l; }
bytes() { find "$1" -type f -name 'vdb_f*.file' -printf '%s\n' | awk '{ s += $1 } END { print s + 0 }'; }

# subset RUN TREE WIDTH SIZE TOTAL N: each slave's subtree of TREE
# (depth 1, WIDTH folders of 20 files of SIZE) holds exactly Vdbench's
# TOTAL-byte subset, N files; sets sum to the bytes on disk of both.
subset() {
	local s n
	sum=0
	for s in local-1 local-2; do
		$CHECK "$2/$s" 1 "$3" 20 "$4" --totalsize "$5" ||
			fail_show "$TMP/$1.txt" "$1: the files of $s are not Vdbench's $5-byte subset"
		n=$(files "$2/$s")
		[ "$n" -eq "$6" ] || fail_show "$TMP/$1.txt" "$1: $n files in $s, not $6"
		sum=$((sum + $(bytes "$2/$s")))
	done
	[ "$sum" -eq $((2 * $5)) ] ||
		fail_show "$TMP/$1.txt" "$1: $sum bytes on disk, not 2 x $5"
}

# expect RUNDIR RUN OP FIELD WANT
expect() {
	local got
	got=$(op "$1" "$2" "$3" "$4")
	[ "$got" -eq "$5" ] ||
		fail_show "$1.txt" "$2: $3 $4 is $got, not $5"
}

A=$SHM/a
mkdir "$A"
FSD="fsd=fsd1,anchor=$A,depth=1,width=2,files=20,sizes=4k,totalsize=(160k,1)"

# 1. fortotal=(50%,100%), format=yes.
cat > "$TMP/pct.vdb" <<VDB
$FSD
fwd=fwd1,fsd=fsd1,operation=read,xfersize=4k,threads=2
rd=rd1,fwd=fwd1,fwdrate=max,format=yes,elapsed=1,interval=1,fortotal=(50%,100%)
VDB
ok pct
expect "$TMP/pct" "rd1 totalsize=50% format" create count 40
expect "$TMP/pct" "rd1 totalsize=50% format" write bytes $((40 * 4096))
expect "$TMP/pct" "rd1 totalsize=100% format" delete count 40
expect "$TMP/pct" "rd1 totalsize=100% format" create count 80
expect "$TMP/pct" "rd1 totalsize=100% format" write bytes $((80 * 4096))
for s in local-1 local-2; do
	$CHECK "$A/$s" 1 2 20 4096 ||
		fail_show "$TMP/pct.txt" "fortotal=100%: the tree of $s is not Vdbench's whole tree"
done
echo "ok: fortotal=(50%,100%): 2 x 20 files of 4k formatted, then cleaned and 2 x 40"

# 2. fortotal=50%, format=only: the 80k subset on disk.
cat > "$TMP/half.vdb" <<VDB
$FSD
fwd=fwd1,fsd=fsd1,operation=read,xfersize=4k,threads=2
rd=rd1,fwd=fwd1,fwdrate=max,format=only,elapsed=1,interval=1,fortotal=50%
VDB
ok half
subset half "$A" 2 4096 81920 20
expect "$TMP/half" "rd1 totalsize=50% format" create count 40
expect "$TMP/half" "rd1 totalsize=50% format" write bytes "$sum"
echo "ok: fortotal=50%: Vdbench's subset of 20 of 40 files in each subtree, $sum bytes"

# 3. fsd totalsize=(1m,2) = 512k of a 640k tree (20 files of 32k).
B=$SHM/b
mkdir "$B"
cat > "$TMP/div.vdb" <<VDB
fsd=fsd1,anchor=$B,depth=1,width=1,files=20,sizes=32k,totalsize=(1m,2),workingsetsize=(64k,1)
fwd=fwd1,fsd=fsd1,operation=read,xfersize=4k,threads=2
rd=rd1,fwd=fwd1,fwdrate=max,format=only,elapsed=1,interval=1
VDB
ok div
subset div "$B" 1 32768 524288 16
for s in local-1 local-2; do
	w=$($CHECK "$B/$s" 1 1 20 32768 --totalsize 524288 --print-wss 65536 | wc -l)
	[ "$w" -eq 2 ] || fail "workingsetsize=(64k,1): Vdbench's set of $s is $w files, not 2"
done
expect "$TMP/div" "rd1 format" create count 32
expect "$TMP/div" "rd1 format" write bytes "$sum"
echo "ok: totalsize=(1m,2): 16 files of 32k (512k) in each subtree"
echo "PASS"
