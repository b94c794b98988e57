#!/bin/bash
# fsd totalsize=/workingsetsize= and fwd stopafter= end to end (a master
# and two local slaves on tmpfs), checked against the trees on disk and
# lockstep's own record (summary.json):
# - totalsize= formats exactly the files of Vdbench's rule in each
#   slave's subtree, every folder and no other file (check_fstree.py
#   --totalsize, written from Vdbench's createUsedList);
# - workingsetsize= writes touch exactly the files of Vdbench's working
#   set (check_fstree.py --print-wss): only their mtimes change;
# - stopafter=25% (of 48k files read 4k at a time): each open of a
#   file reads 3 blocks, where a read of the whole file reads 12;
#   stopafter=5 goes on where the file's last visit stopped: 5, 5, 2
#   (reads against opens, the one file a thread may leave at the phase's
#   end allowed for).
source "$(dirname "$0")/lib.sh"
SHM=$(mktemp -d /dev/shm/lockstep-fssub.XXXXXX)
trap 'rm -rf "$SHM"; cleanup' EXIT
CHECK="/usr/bin/python3 $HERE/check_fstree.py"

source "$HERE/fs_lib.sh"

# ok NAME: run NAME, which must exit 0.
ok() {
	run "$1"
	[ "$rc" -eq 0 ] || fail_show "$TMP/$1.txt" "$1: exited $rc"
}

# mtimes TREE: "name mtime_ns" of every file under TREE, sorted.
mtimes() {
	(cd "$1" && find . -name 'vdb_f*.file' -printf '%P %T@\n' | sort)
}

# 1. totalsize=40k of 40 files of 4k: 10 files; wss=12k: 3 of them.
A1=$SHM/a1
mkdir "$A1"
FSD="fsd=fsd1,anchor=$A1,depth=1,width=2,files=20,sizes=4k,totalsize=40k,workingsetsize=12k"
cat > "$TMP/fmt.vdb" <<VDB
$FSD
fwd=fwd1,fsd=fsd1,operation=write,xfersize=4k,fileio=random,fileselect=random,threads=2
rd=rd1,fwd=fwd1,fwdrate=max,format=only,elapsed=1,interval=1
VDB
ok fmt
for s in local-1 local-2; do
	$CHECK "$A1/$s" 1 2 20 4096 --totalsize 40960 ||
		fail_show "$TMP/fmt.txt" "totalsize=: the files of $s are not Vdbench's subset"
	mtimes "$A1/$s" > "$TMP/before.$s"
done
made=$(op "$TMP/fmt" "rd1 format" create)
[ "$made" -eq 20 ] || fail_show "$TMP/fmt.txt" "totalsize=: the format created $made files, not 2 x 10"
echo "ok: totalsize=40k formatted Vdbench's 10 of 40 files in each subtree"

cat > "$TMP/wss.vdb" <<VDB
$FSD
fwd=fwd1,fsd=fsd1,operation=write,xfersize=4k,fileio=random,fileselect=random,threads=2
rd=rd1,fwd=fwd1,fwdrate=400,format=no,elapsed=2,interval=1
VDB
ok wss
writes=$(op "$TMP/wss" rd1 write)
[ "$writes" -ge 100 ] || fail_show "$TMP/wss.txt" "wss: $writes writes"
for s in local-1 local-2; do
	$CHECK "$A1/$s" 1 2 20 4096 --totalsize 40960 --print-wss 12288 |
		sort > "$TMP/wss.$s"
	[ "$(wc -l < "$TMP/wss.$s")" -eq 3 ] || fail "wss: Vdbench's set of $s is not 3 files"
	mtimes "$A1/$s" > "$TMP/after.$s"
	# The files whose mtime changed: exactly the working set.
	join "$TMP/before.$s" "$TMP/after.$s" |
		awk '$2 != $3 { print $1 }' | sort > "$TMP/touched.$s"
	diff "$TMP/wss.$s" "$TMP/touched.$s" > "$TMP/wss.diff" ||
		fail_show "$TMP/wss.diff" "wss: $s wrote other files than Vdbench's working set (< the set, > written)"
	$CHECK "$A1/$s" 1 2 20 4096 --totalsize 40960 > /dev/null ||
		fail "wss: the tree of $s changed"
done
echo "ok: workingsetsize=12k: $writes writes, to exactly Vdbench's 3 files in each subtree"

# 2. stopafter=: sequential reads of 48k files (12 blocks of 4k), 480
# transfers a second (fwdrate= paces transfers: 40 or more opens).
A2=$SHM/a2
mkdir "$A2"
cat > "$TMP/stop.vdb" <<VDB
fsd=fsd1,anchor=$A2,depth=1,width=1,files=4,sizes=48k
fwd=whole,fsd=fsd1,operation=read,xfersize=4k,threads=2
fwd=s5,fsd=fsd1,operation=read,xfersize=4k,stopafter=5,threads=2
fwd=sp,fsd=fsd1,operation=read,xfersize=4k,stopafter=25%,threads=2
rd=rw,fwd=whole,fwdrate=480,format=yes,elapsed=2,interval=1
rd=r5,fwd=s5,fwdrate=480,format=no,elapsed=2,interval=1
rd=rp,fwd=sp,fwdrate=480,format=no,elapsed=2,interval=1
VDB
ok stop
# reads RUN LOW HIGH: LOW <= reads - PER x opens <= HIGH, PER the mean.
check_reads() {
	local r=$1 per=$2 lo=$3 hi=$4 opens reads
	opens=$(op "$TMP/stop" "$r" open)
	reads=$(op "$TMP/stop" "$r" read)
	[ "$opens" -ge 40 ] || fail_show "$TMP/stop.txt" "$r: $opens opens"
	[ "$reads" -ge $((per * opens + lo)) ] && [ "$reads" -le $((per * opens + hi)) ] ||
		fail_show "$TMP/stop.txt" "$r: $reads reads for $opens opens, not $per each ($lo..$hi)"
	echo "ok: $r: $reads reads in $opens opens: $per per file"
}
# Each slave's thread may leave its last file part read (at most a file's
# blocks fewer).
check_reads rw 12 -24 0
check_reads rp 3 -6 0
# stopafter=5 goes on where a file stopped: 5, 5, then the last 2 and
# back to the start (Vdbench's append), 4 a visit on average; each of a
# slave's 4 files may end its cycle 1 or 2 blocks ahead. Starting each
# visit from 0 would read 5 a visit.
check_reads r5 4 -10 16
echo "PASS"
