#!/bin/bash
# fwd=format threads= (Vdbench's format threads, 8 by default): a format
# run by several threads on each slave, checked on lockstep's own record
# (summary.json, its validation figures) and the trees on disk, with two
# local slaves on tmpfs (each its own subtree ANCHOR/local-N):
# - threads=4 with validate=yes: each slave's tree of depth 2 x width 3
#   x 5 files has exactly the files and sizes asked, and the format's
#   mkdirs, creates, writes and write bytes are what is on disk; a
#   read-back pass reading every file once verifies every block the
#   format keyed with 0 mismatches (the keys follow the files' numbers in
#   the walk, whichever thread made them);
# - threads=1 still makes the same tree;
# - without fwd=format the plan says Vdbench's 8 threads an fsd a slave;
# - threads=0 and threads=1000 are refused with FILE:LINE:COLUMN.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/fs_lib.sh"
SHM=$(mktemp -d /dev/shm/lockstep-fsfmtthr.XXXXXX)
trap 'rm -rf "$SHM"; cleanup' EXIT
CHECK="$(dirname "$0")/check_fstree.py"
mkdir -p "$SHM/a" "$SHM/b"

# runs NAME RC < VDB: run the parameter file on stdin as NAME; its exit
# status must be RC.
runs() {
	cat > "$TMP/$1.vdb"
	LAST=$1
	run "$1"
	[ "$rc" -eq "$2" ] || fail_show "$TMP/$1.txt" "exited $rc, not $2"
	return 0
}

# want WHAT GOT EXPECTED
want() {
	[ "$2" = "$3" ] || fail_show "$TMP/$LAST.txt" "$1: $2, want $3"
	echo "ok: $1: $2"
}

# disk TREE XFER: "folders files bytes writes" under TREE, writes the
# writes of XFER bytes that make each file.
disk() {
	/usr/bin/python3 - "$@" <<'PY'
import os, sys
d = n = b = w = 0
x = int(sys.argv[2])
for root, dn, fn in os.walk(sys.argv[1]):
    d += sum(1 for e in dn if e.startswith("vdb."))
    for f in fn:
        if f.startswith("vdb_f"):
            s = os.lstat(os.path.join(root, f)).st_size
            n += 1
            b += s
            w += (s + x - 1) // x
print(d, n, b, w)
PY
}

# figures RUNDIR RUN: "written verified mismatches" of the run.
figures() {
	/usr/bin/python3 - "$@" <<'PY'
import json, sys
s = json.load(open(sys.argv[1] + "/summary.json"))
r = [r for r in s["runs"] if r["name"] == sys.argv[2]][0]
v = r["validation"]
print(v["blocks_written"], v["blocks_verified"], v["mismatches"])
PY
}

SIZES="8192:50,40960:50"

# 1. threads=4, validate=yes: the tree, its counts, and a read-back.
runs four 0 <<VDB
validate=yes
fsd=fa,anchor=$SHM/a,depth=2,width=3,files=5,sizes=(8k,50,40k,50)
fwd=format,threads=4,xfersize=8k
fwd=rd,fsd=fa,operation=read,xfersize=8k,fileio=sequential,fileselect=once,threads=1
rd=r4,fwd=rd,fwdrate=max,format=yes,elapsed=3,interval=1
VDB
R=$TMP/four
for s in local-1 local-2; do
	/usr/bin/python3 "$CHECK" "$SHM/a/$s" 2 3 5 "$SIZES" ||
		fail_show "$TMP/four.txt" "threads=4: the tree of $s"
done
echo "ok: threads=4: both trees exactly as asked"
read -r dirs files bytes writes < <(disk "$SHM/a" 8192)
want "threads=4: folders on disk" "$dirs" 24
want "threads=4: files on disk" "$files" 90
want "threads=4: mkdirs" "$(op "$R" "r4 format" mkdir)" "$dirs"
want "threads=4: creates" "$(op "$R" "r4 format" create)" "$files"
want "threads=4: writes" "$(op "$R" "r4 format" write)" "$writes"
want "threads=4: write bytes" "$(op "$R" "r4 format" write bytes)" "$bytes"
read -r wf _ xf < <(figures "$R" "r4 format")
want "threads=4: blocks the format keyed" "$wf" $((bytes / 4096))
want "threads=4: format mismatches" "$xf" 0
read -r wr vr xr < <(figures "$R" r4)
want "threads=4: read-back blocks verified" "$vr" "$wf"
want "threads=4: read-back mismatches" "$xr" 0
want "threads=4: read-back writes" "$wr" 0

# 2. threads=1: the same tree.
runs one 0 <<VDB
fsd=fb,anchor=$SHM/b,depth=2,width=3,files=5,sizes=(8k,50,40k,50)
fwd=format,threads=1
fwd=rd,fsd=fb,operation=read,xfersize=8k
rd=r1,fwd=rd,fwdrate=max,format=(only),elapsed=1,interval=1
VDB
R=$TMP/one
for s in local-1 local-2; do
	/usr/bin/python3 "$CHECK" "$SHM/b/$s" 2 3 5 "$SIZES" ||
		fail_show "$TMP/one.txt" "threads=1: the tree of $s"
done
read -r dirs files bytes writes < <(disk "$SHM/b" $((128 * 1024)))
want "threads=1: mkdirs" "$(op "$R" "r1 format" mkdir)" "$dirs"
want "threads=1: creates" "$(op "$R" "r1 format" create)" "$files"
want "threads=1: write bytes" "$(op "$R" "r1 format" write bytes)" "$bytes"

# 3. What the plan says: the threads given, or Vdbench's 8.
plan() {
	printf '%s\n' "fsd=fc,anchor=$SHM/a,depth=1,width=2,files=3,size=8k" \
		"$@" "fwd=rd,fsd=fc,operation=read" \
		"rd=r,fwd=rd,format=yes,elapsed=2,interval=1" > "$TMP/plan.vdb"
	"$LOCKSTEP" check "$TMP/plan.vdb" > "$TMP/plan.txt" 2>&1 ||
		fail_show "$TMP/plan.txt" "check refused"
}
plan
grep -q "8 threads an fsd a slave" "$TMP/plan.txt" ||
	fail_show "$TMP/plan.txt" "no fwd=format: not Vdbench's 8 threads"
plan "fwd=format,threads=3"
grep -q "3 threads an fsd a slave" "$TMP/plan.txt" ||
	fail_show "$TMP/plan.txt" "threads=3 not in the plan"
echo "ok: the plan says 8 threads without fwd=format, 3 with threads=3"

# 4. Out of bounds: refused where it is written (fs_lib.sh's refused).
FSD="fsd=fc,anchor=$SHM/a,depth=1,width=2,files=3,size=8k"
refused zero "2:20: threads=0" "$FSD" "fwd=format,threads=0" \
	"fwd=rd,fsd=fc,operation=read" "rd=r,fwd=rd,elapsed=2"
refused many "2:12: fwd=format threads=1000" "$FSD" \
	"fwd=format,threads=1000" "fwd=rd,fsd=fc,operation=read" \
	"rd=r,fwd=rd,elapsed=2"
echo "PASS"
