#!/bin/bash
# The rd loops of file-system runs, Vdbench's For_loop and RD_entry,
# checked on lockstep's record (summary.json) and the trees on disk with
# two local slaves on tmpfs:
# - forwidth=(2,3) with foroperation=(getattr,read) and format=yes: a
#   run per (width, operation), each doing its operation alone; the
#   width=2 tree is made (before each of its runs: format=yes formats
#   before every loop value, as Vdbench), cleaned (its 2 x 3 files per
#   slave deleted)
#   and the width=3 tree made, which is Vdbench's tree exactly
#   (check_fstree.py) with nothing of the width=2 one left;
# - operations=(getattr,access): one run doing both;
# - fsd count=(1,2): fsds c1 and c2 on anchors n1 and n2, an fwd on c*
#   formats both trees.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/fs_lib.sh"
HERE=$(cd "$(dirname "$0")" && pwd)
CHECK="/usr/bin/python3 $HERE/check_fstree.py"
SHM=$(mktemp -d /dev/shm/lockstep-fsloops.XXXXXX)
trap 'rm -rf "$SHM"; cleanup' EXIT

# 1. forwidth= and foroperation=.
A=$SHM/a
mkdir "$A"
cat > "$TMP/loops.vdb" <<VDB
fsd=fsd1,anchor=$A,depth=1,width=2,files=3,size=8k
fwd=fw,fsd=fsd1,operation=read,xfersize=4k,fileselect=random,threads=2
rd=wl,fwd=fw,fwdrate=max,format=yes,elapsed=2,interval=1,forwidth=(2,3),foroperation=(getattr,read)
VDB
run loops
[ "$rc" -eq 0 ] || fail_show "$TMP/loops.txt" "loops: exited $rc"
for w in 2 3; do
	g=$(op "$TMP/loops" "wl width=$w operation=getattr" getattr)
	r=$(op "$TMP/loops" "wl width=$w operation=getattr" read)
	[ "$g" -gt 0 ] && [ "$r" -eq 0 ] ||
		fail_show "$TMP/loops.txt" "width=$w getattr run: $g getattrs, $r reads"
	g=$(op "$TMP/loops" "wl width=$w operation=read" getattr)
	r=$(op "$TMP/loops" "wl width=$w operation=read" read)
	[ "$r" -gt 0 ] && [ "$g" -eq 0 ] ||
		fail_show "$TMP/loops.txt" "width=$w read run: $r reads, $g getattrs"
	echo "ok: width=$w: the getattr run only getattrs, the read run only reads"
done
d=$(op "$TMP/loops" "wl width=2 operation=read format=clean" delete)
[ "$d" -eq 12 ] ||
	fail_show "$TMP/loops.txt" "the clean of the width=2 trees deleted $d files, not 2 x 6"
for s in local-1 local-2; do
	$CHECK "$A/$s" 1 3 3 8192 ||
		fail_show "$TMP/loops.txt" "the width=3 tree of $s is not Vdbench's"
done
echo "ok: width=2 trees cleaned ($d files), width=3 trees exactly Vdbench's"

# 2. operations=: each fwd runs each operation.
cat > "$TMP/ops.vdb" <<VDB
fsd=fsd1,anchor=$A,depth=1,width=3,files=3,size=8k
fwd=fw,fsd=fsd1,operation=read,threads=2
rd=ops,fwd=fw,fwdrate=max,format=no,elapsed=2,interval=1,operations=(getattr,access)
VDB
run ops
[ "$rc" -eq 0 ] || fail_show "$TMP/ops.txt" "operations=: exited $rc"
g=$(op "$TMP/ops" ops getattr)
c=$(op "$TMP/ops" ops access)
r=$(op "$TMP/ops" ops read)
[ "$g" -gt 0 ] && [ "$c" -gt 0 ] && [ "$r" -eq 0 ] ||
	fail_show "$TMP/ops.txt" "operations=(getattr,access): $g getattrs, $c accesses, $r reads"
echo "ok: operations=(getattr,access): $g getattrs and $c accesses, no read"

# 3. count=(1,2): two fsds, two anchors, two trees.
mkdir "$SHM/n1" "$SHM/n2"
cat > "$TMP/count.vdb" <<VDB
fsd=c,anchor=$SHM/n,depth=1,width=2,files=2,size=4k,count=(1,2)
fwd=cf,fsd=c*,operation=getattr,threads=2
rd=cnt,fwd=cf,fwdrate=max,format=yes,elapsed=1,interval=1
VDB
run count
[ "$rc" -eq 0 ] || fail_show "$TMP/count.txt" "count=: exited $rc"
for n in n1 n2; do
	for s in local-1 local-2; do
		$CHECK "$SHM/$n/$s" 1 2 2 4096 ||
			fail_show "$TMP/count.txt" "count=: the tree of $s on $n is not Vdbench's"
	done
done
[ ! -e "$SHM/n" ] || fail_show "$TMP/count.txt" "count=: the unnumbered anchor was used"
echo "ok: count=(1,2): fsds c1 and c2 made their trees on n1 and n2"
echo "PASS"
