#!/bin/bash
# Vdbench's fileio= pairs and random once, checked on lockstep's own
# record (summary.json) and the trees on disk, two local slaves on tmpfs:
# - fileio=(sequential,delete) on a write fwd: every visit deletes the
#   whole file first (a delete), then creates it (an open and a create)
#   and writes it: deletes = creates = opens, writes = opens x blocks
#   but for those the run's end cut; every file is there after, new
#   (another inode than the format's) when written, whole but for at
#   most a thread's file each; with stopafter= a file part written since
#   its delete is appended to, not deleted: half the visits delete;
# - fileselect=(random,once) on a read fwd: each slave opens each of its
#   files exactly once (reads = opens x blocks), in an order that is not
#   the tree's (the files' access times, when the clock tells them
#   apart), then the fwd is done and the phase ends before its elapsed=
#   (fewer intervals than it asked);
# - fileio=(random,shared) with rdpct= on one file and four threads a
#   slave: no error, opens = closes, every transfer of a visit counted
#   (at most 100 a visit: 1m in 4k blocks, Vdbench's cap).
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/fs_lib.sh"
SHM=$(mktemp -d /dev/shm/lockstep-fsfileio.XXXXXX)
trap 'rm -rf "$SHM"; cleanup' EXIT

# inodes DIR: "path inode size atime_ns" of every file, sorted by path.
inodes() {
	/usr/bin/python3 - "$1" <<'PY'
import os, sys
out = []
for root, dirs, files in os.walk(sys.argv[1]):
    for f in files:
        if f.startswith("vdb_f"):
            p = os.path.join(root, f)
            st = os.stat(p)
            out.append("%s %d %d %d" % (os.path.relpath(p, sys.argv[1]),
                                        st.st_ino, st.st_size,
                                        st.st_atime_ns))
print("\n".join(sorted(out)))
PY
}

# noerrors RUNDIR NAME: no operation of run rd1 failed.
noerrors() {
	/usr/bin/python3 - "$1" <<'PY' || fail_show "$TMP/$2.txt" "$2: errors"
import json, sys
s = json.load(open(sys.argv[1] + "/summary.json"))
r = [r for r in s["runs"] if r["name"] == "rd1"][0]
errs = r["operations"].get("read_write_errors", 0) or 0
for o in r["operations"].values():
    errs += o.get("errors", 0) or 0 if isinstance(o, dict) else 0
assert errs == 0, "%d errors" % errs
PY
}

# go NAME: run NAME (failing unless it exits 0), then the counts of its
# run rd1 in del, cre, opn, cls, rds and wr.
go() {
	run "$1"
	[ "$rc" -eq 0 ] || fail_show "$TMP/$1.txt" "$1: exited $rc"
	del=$(op "$TMP/$1" rd1 delete)
	cre=$(op "$TMP/$1" rd1 create)
	opn=$(op "$TMP/$1" rd1 open)
	cls=$(op "$TMP/$1" rd1 close)
	rds=$(op "$TMP/$1" rd1 read)
	wr=$(op "$TMP/$1" rd1 write)
}

# 1. (sequential,delete): format, look, then rewrite by delete + create.
A1=$SHM/a1
mkdir "$A1"
cat > "$TMP/fmt.vdb" <<VDB
fsd=fsd1,anchor=$A1,depth=1,width=2,files=10,size=64k
fwd=wr,fsd=fsd1,operation=write,xfersize=16k,fileio=(sequential,delete),threads=4
rd=rd1,fwd=wr,fwdrate=max,format=only,elapsed=1,interval=1
VDB
run fmt
[ "$rc" -eq 0 ] || fail_show "$TMP/fmt.txt" "format: exited $rc"
inodes "$A1" > "$TMP/before.txt"
[ "$(wc -l < "$TMP/before.txt")" -eq 40 ] || fail "format made $(wc -l < "$TMP/before.txt") files, not 2 x 20"
sed 's/format=only,elapsed=1/format=no,elapsed=2/' "$TMP/fmt.vdb" > "$TMP/del.vdb"
go del
inodes "$A1" > "$TMP/after.txt"
[ "$del" -gt 0 ] || fail_show "$TMP/del.txt" "(sequential,delete): no delete"
[ "$del" -eq "$cre" ] && [ "$cre" -eq "$opn" ] && [ "$opn" -eq "$cls" ] ||
	fail_show "$TMP/del.txt" "(sequential,delete): $del deletes, $cre creates, $opn opens, $cls closes: not one each a visit"
# 4 blocks a file; the end cuts at most the visit of each of 2 x 2 threads.
[ "$wr" -le $((4 * opn)) ] && [ "$wr" -ge $((4 * opn - 4 * 4)) ] ||
	fail_show "$TMP/del.txt" "(sequential,delete): $wr writes for $opn visits of 4 blocks"
noerrors "$TMP/del" del
/usr/bin/python3 - "$TMP/before.txt" "$TMP/after.txt" "$cre" <<'PY' || fail_show "$TMP/del.txt" "(sequential,delete): the tree after is wrong"
import sys
before = dict((l.split()[0], l.split()[1:]) for l in open(sys.argv[1]) if l.strip())
after = dict((l.split()[0], l.split()[1:]) for l in open(sys.argv[2]) if l.strip())
creates = int(sys.argv[3])
assert sorted(before) == sorted(after), "files missing or added: %s" % (
    set(before) ^ set(after))
new = [p for p in after if after[p][0] != before[p][0]]
assert 0 < len(new) <= creates, "%d files new, %d creates" % (len(new), creates)
# Visited in order, round and round: every file was made anew.
assert creates < 40 or len(new) == 40, "%d creates, %d files new" % (
    creates, len(new))
part = [p for p in after if int(after[p][1]) != 65536]
for s in ("local-1", "local-2"):
    n = len([p for p in part if p.startswith(s + "/")])
    assert n <= 2, "%s: %d files not whole: %s" % (s, n, part)
print("ok: (sequential,delete): %d creates, %d of 40 files new, %d cut" % (
    creates, len(new), len(part)))
PY
echo "ok: (sequential,delete): $del deletes = $cre creates = $opn opens, $wr writes"

# 1b. With stopafter=2 (of 4 blocks) a visit deletes only a whole file:
# a file's visits alternate delete + 2 writes, 2 appended writes.
sed 's/threads=4/threads=4,stopafter=2/' "$TMP/del.vdb" > "$TMP/dsa.vdb"
go dsa
[ "$del" -eq "$cre" ] || fail_show "$TMP/dsa.txt" "stopafter: $del deletes, $cre creates"
# Per file ceil(visits / 2) deletes: between opens/2 and (opens+40)/2.
[ $((2 * del)) -ge "$opn" ] && [ $((2 * del)) -le $((opn + 40)) ] ||
	fail_show "$TMP/dsa.txt" "stopafter: $del deletes for $opn visits (half of them, per file)"
[ "$wr" -le $((2 * opn)) ] && [ "$wr" -ge $((2 * opn - 2 * 4)) ] ||
	fail_show "$TMP/dsa.txt" "stopafter: $wr writes for $opn visits of 2"
echo "ok: (sequential,delete) with stopafter=2: $del deletes for $opn visits"

# 2. (random,once): each slave reads each of its 20 files once.
A2=$SHM/a2
mkdir "$A2"
sed "s|$A1|$A2|" "$TMP/fmt.vdb" > "$TMP/fmt2.vdb"
run fmt2
[ "$rc" -eq 0 ] || fail_show "$TMP/fmt2.txt" "format: exited $rc"
cat > "$TMP/once.vdb" <<VDB
fsd=fsd1,anchor=$A2,depth=1,width=2,files=10,size=64k
fwd=rd,fsd=fsd1,operation=read,xfersize=16k,fileselect=(random,once),threads=4
rd=rd1,fwd=rd,fwdrate=max,format=no,elapsed=30,interval=1
VDB
inodes "$A2" > "$TMP/once0.txt"
go once
[ "$opn" -eq 40 ] || fail_show "$TMP/once.txt" "(random,once): $opn opens, not 2 slaves x 20 files"
[ "$rds" -eq $((4 * 40)) ] || fail_show "$TMP/once.txt" "(random,once): $rds reads, not 40 files x 4 blocks"
inodes "$A2" > "$TMP/once1.txt"
noerrors "$TMP/once" once
/usr/bin/python3 - "$TMP/once" "$TMP/once0.txt" "$TMP/once1.txt" <<'PY' || fail_show "$TMP/once.txt" "(random,once): not once each, in random order, then done"
import json, sys
s = json.load(open(sys.argv[1] + "/summary.json"))
r = [r for r in s["runs"] if r["name"] == "rd1"][0]
n = r.get("intervals")
assert n is not None and n < 30, "the phase ran %s of its 30 intervals" % n
t0 = dict((l.split()[0], int(l.split()[3])) for l in open(sys.argv[2]) if l.strip())
t1 = dict((l.split()[0], int(l.split()[3])) for l in open(sys.argv[3]) if l.strip())
for sl in ("local-1", "local-2"):
    files = sorted(p for p in t1 if p.startswith(sl + "/"))
    assert len(files) == 20
    read = [p for p in files if t1[p] != t0[p]]
    if len(read) < 20 or len(set(t1[p] for p in files)) < 20:
        # A coarse clock (tmpfs stamps at the tick) or no atime:
        # test_fsplan checks the order.
        print("note: %s: %d of 20 access times moved, %d distinct; order not checked" % (
            sl, len(read), len(set(t1[p] for p in files))))
        continue
    order = sorted(files, key=lambda p: t1[p])
    inorder = sum(1 for a, b in zip(order, order[1:]) if files.index(b) == files.index(a) + 1)
    assert inorder < 12, "%s: read in the tree's order (%d of 19 in turn)" % (sl, inorder)
    print("ok: %s: 20 files read in random order (%d of 19 in turn)" % (sl, inorder))
print("ok: the phase ended after %d of its 30 intervals" % n)
PY
echo "ok: (random,once): $opn opens, $rds reads"

# 3. (random,shared): four threads a slave on one 1m file, 50% writes.
A3=$SHM/a3
mkdir "$A3"
cat > "$TMP/shared.vdb" <<VDB
fsd=fsd1,anchor=$A3,depth=1,width=1,files=1,size=1m
fwd=rw,fsd=fsd1,operation=read,rdpct=50,xfersize=4k,fileio=(random,shared),threads=8
rd=rd1,fwd=rw,fwdrate=max,format=yes,elapsed=2,interval=1
VDB
go shared
[ "$opn" -gt 0 ] && [ "$opn" -eq "$cls" ] ||
	fail_show "$TMP/shared.txt" "shared: $opn opens, $cls closes"
[ "$rds" -gt 0 ] && [ "$wr" -gt 0 ] || fail_show "$TMP/shared.txt" "shared: $rds reads, $wr writes"
# 100 transfers a visit, but for the visits the end cut (8 threads).
[ $((rds + wr)) -le $((100 * opn)) ] && [ $((rds + wr)) -gt $((100 * (opn - 8))) ] ||
	fail_show "$TMP/shared.txt" "shared: $((rds + wr)) transfers for $opn visits of 100"
noerrors "$TMP/shared" shared
[ "$(stat -c %s "$A3/local-1/vdb.1_1.dir/vdb_f0001.file")" -eq 1048576 ] ||
	fail "shared: the file is not 1m"
echo "ok: (random,shared): $opn visits of one file, $rds reads, $wr writes, no error"
echo "PASS"
