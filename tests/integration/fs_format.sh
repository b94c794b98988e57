#!/bin/bash
# Vdbench's format= words and fwd=format with fwd= runs, checked on
# lockstep's own record (summary.json) and the trees on disk, with two
# local slaves on tmpfs (each its own subtree ANCHOR/local-N):
# - format=(only,directories): the folders and no file (mkdirs = the
#   folders on disk, no create, no write);
# - fwd=format,xfersize=16k: a format's writes are its bytes / 16k;
# - format=once with forxfersize=(4k,8k): one format, then both runs;
#   format=yes with the same loop: a format before each (Vdbench's);
# - format=(no,complete): no format operation, the run reads the tree
#   without looking at it first (a file removed behind lockstep's back
#   fails its open once, where a run that looks skips it), and a tree
#   without lockstep's marker is refused;
# - format=(only,limited): the format stops at elapsed= with no error,
#   a partial tree whose files and bytes on disk are the creates and
#   write bytes counted.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/fs_lib.sh"
SHM=$(mktemp -d /dev/shm/lockstep-fsformat.XXXXXX)
trap 'rm -rf "$SHM"; cleanup' EXIT
CHECK="$(dirname "$0")/check_fstree.py"
mkdir -p "$SHM/a" "$SHM/b" "$SHM/c/local-1" "$SHM/c/local-2" "$SHM/d"

# count RUNDIR PATTERN: how many runs' names match the regex PATTERN.
count() {
	/usr/bin/python3 - "$@" <<'PY'
import json, re, sys
s = json.load(open(sys.argv[1] + "/summary.json"))
print(sum(1 for r in s["runs"] if re.fullmatch(sys.argv[2], r["name"])))
PY
}

# runs NAME RC < VDB: run the parameter file on stdin as NAME; its exit
# status must be RC ("!0": anything but 0).
runs() {
	cat > "$TMP/$1.vdb"
	LAST=$1
	run "$1"
	if [ "$2" = "!0" ]; then
		[ "$rc" -ne 0 ] || fail_show "$TMP/$1.txt" "exited 0"
	else
		[ "$rc" -eq "$2" ] || fail_show "$TMP/$1.txt" "exited $rc, not $2"
	fi
	return 0
}

# want WHAT GOT EXPECTED
want() {
	[ "$2" = "$3" ] || fail_show "$TMP/$LAST.txt" "$1: $2, want $3"
	echo "ok: $1: $2"
}

runs words 0 <<VDB
fsd=fa,anchor=$SHM/a,depth=2,width=2,files=3,size=8k
fsd=fb,anchor=$SHM/b,depth=1,width=2,files=3,size=64k
fwd=format,xfersize=16k
fwd=rda,fsd=fa,operation=read,xfersize=4k
fwd=rdb,fsd=fb,operation=read,xfersize=4k
rd=dirs,fwd=rda,format=(only,directories),elapsed=1,interval=1
rd=once,fwd=rdb,format=once,forxfersize=(4k,8k),fwdrate=2000,elapsed=1,interval=1
rd=each,fwd=rdb,format=yes,forxfersize=(4k,8k),fwdrate=2000,elapsed=1,interval=1
VDB
R=$TMP/words
# directories: 6 folders a slave, no file.
want "dirs: mkdirs" "$(op "$R" "dirs format=directories" mkdir)" 12
want "dirs: creates" "$(op "$R" "dirs format=directories" create)" 0
want "dirs: writes" "$(op "$R" "dirs format=directories" write)" 0
for s in local-1 local-2; do
	/usr/bin/python3 "$CHECK" "$SHM/a/$s" 2 2 3 8192 --files-present 0 ||
		fail_show "$TMP/words.txt" "dirs: the tree of $s"
done
# once: one format; yes: one before each loop value. 2 slaves x 6
# files x 64k in 16k writes: 48 writes of each format.
want "once: formats" "$(count "$R" 'once.*format')" 1
want "once: runs" "$(count "$R" 'once xfersize=(4k|8k)')" 2
want "each: formats" "$(count "$R" 'each xfersize=(4k|8k) format')" 2
want "each: runs" "$(count "$R" 'each xfersize=(4k|8k)')" 2
for f in "once format" "each xfersize=4k format" "each xfersize=8k format"; do
	want "$f: creates" "$(op "$R" "$f" create)" 12
	want "$f: writes (bytes / 16k)" "$(op "$R" "$f" write)" 48
	want "$f: bytes" "$(op "$R" "$f" write bytes)" $((12 * 65536))
done
for s in local-1 local-2; do
	/usr/bin/python3 "$CHECK" "$SHM/b/$s" 1 2 3 65536 ||
		fail_show "$TMP/words.txt" "the tree of $s"
done

# complete: the tree as formatted, not looked at. One file goes behind
# lockstep's back: the complete run's read fails its open once (the
# entry is then known gone); a run that looks skips it.
rm "$SHM/b/local-1/vdb.1_1.dir/vdb_f0002.file"
# The failed open makes the run degraded (exit 4), and nothing else.
runs complete 4 <<VDB
fsd=fb,anchor=$SHM/b,depth=1,width=2,files=3,size=64k
fwd=rdb,fsd=fb,operation=read,xfersize=4k
rd=comp,fwd=rdb,format=(no,complete),fwdrate=2000,elapsed=1,interval=1
rd=look,fwd=rdb,format=no,fwdrate=2000,elapsed=1,interval=1
VDB
grep -q "run comp: 1 I/O errors (within data_errors)" "$TMP/complete.txt" ||
	fail_show "$TMP/complete.txt" "no 1 error in comp"
R=$TMP/complete
for o in create mkdir write delete; do
	want "complete: ${o}s" "$(op "$R" comp $o)" 0
done
[ "$(op "$R" comp read)" -gt 0 ] || fail_show "$TMP/complete.txt" "complete: no read"
want "complete: failed opens" "$(op "$R" comp open errors)" 1
want "look: failed opens" "$(op "$R" look open errors)" 0

# complete on a tree lockstep did not format: refused, naming the fsd.
runs nomark "!0" <<VDB
fsd=fc,anchor=$SHM/c,depth=1,width=2,files=3,size=64k
fwd=rdc,fsd=fc,operation=read,xfersize=4k
rd=comp,fwd=rdc,format=(no,complete),elapsed=1,interval=1
VDB
grep -q "fsd fc: format=(no,complete) takes the tree at $SHM/c/local-[12] as formatted, but it holds no .lockstep-anchor" "$TMP/nomark.txt" ||
	fail_show "$TMP/nomark.txt" "no refusal naming the marker"
echo "ok: complete refuses a tree without the marker"

# limited: 2 x 200 files of 8m in 1k writes (3.2 GB) is far from done
# when elapsed=1 stops it.
runs limited 0 <<VDB
fsd=fd,anchor=$SHM/d,depth=1,width=4,files=50,size=8m
fwd=format,xfersize=1k
fwd=rdd,fsd=fd,operation=read,xfersize=4k
rd=lim,fwd=rdd,format=(only,limited),elapsed=1,interval=1
VDB
grep -q "format=limited: the format stopped at elapsed=" "$TMP/limited.txt" ||
	fail_show "$TMP/limited.txt" "no line saying the format stopped"
R=$TMP/limited
cre=$(op "$R" "lim format=limited" create)
bytes=$(op "$R" "lim format=limited" write bytes)
dirs=$(op "$R" "lim format=limited" mkdir)
read -r ondisk ondisk_bytes ondisk_dirs < <(/usr/bin/python3 - "$SHM/d" <<'PY'
import os, sys
n = b = d = 0
for root, dn, fn in os.walk(sys.argv[1]):
    d += sum(1 for x in dn if x.startswith("vdb."))
    for f in fn:
        if f.startswith("vdb_f"):
            n += 1
            b += os.lstat(os.path.join(root, f)).st_size
print(n, b, d)
PY
)
[ "$cre" -gt 0 ] && [ "$cre" -lt 400 ] ||
	fail_show "$TMP/limited.txt" "limited: $cre creates, not a partial tree of 400"
want "limited: files on disk = creates" "$ondisk" "$cre"
want "limited: bytes on disk = write bytes" "$ondisk_bytes" "$bytes"
want "limited: folders on disk = mkdirs" "$ondisk_dirs" "$dirs"
echo "PASS"
