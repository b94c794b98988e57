#!/bin/bash
# operation=copy and operation=move end to end (a master and two local
# slaves, on tmpfs), checked on lockstep's own record (summary.json)
# against the two trees left on disk:
# - a format of both fsds, then moves from dst to src: each move deletes
#   the src file of the same relative name first (a delete) and renames;
#   then copies from src to dst: each deletes an existing dst file first
#   and copies the data;
# - afterwards every src file is there (N per slave), and the dst files
#   on disk = N - moves + copies - the copies' deletes; the move run's
#   deletes = its moves; every file is whole (the sizes Vdbench draws,
#   check_fstree.py) and each dst file has the size of its src file;
# - the copies' bytes are the copy run's written bytes, and its reads
#   read as much.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/fs_lib.sh"
SHM=$(mktemp -d /dev/shm/lockstep-fscm.XXXXXX)
trap 'rm -rf "$SHM"; cleanup' EXIT
CHECK="/usr/bin/python3 $HERE/check_fstree.py"

mkdir "$SHM/src" "$SHM/dst"
cat > "$TMP/cm.vdb" <<VDB
fsd=src,anchor=$SHM/src,depth=1,width=2,files=10,sizes=(4k,50,12k,50)
fsd=dst,anchor=$SHM/dst,depth=1,width=2,files=10,sizes=(4k,50,12k,50)
fwd=cp,fsd=src,target=dst,operation=copy,xfersize=4k,fileselect=random,threads=2
fwd=mv,fsd=dst,target=src,operation=move,fileselect=random,threads=1
rd=rdf,fwd=cp,fwdrate=max,format=only,elapsed=1,interval=1
rd=rdm,fwd=mv,fwdrate=4,format=no,elapsed=2,interval=1
rd=rdc,fwd=cp,fwdrate=8,format=no,elapsed=2,interval=1
VDB
run cm
[ "$rc" -eq 0 ] || fail_show "$TMP/cm.txt" "cm: exited $rc"
made=$(op "$TMP/cm" "rdf format" create)
[ "$made" -eq 80 ] || fail_show "$TMP/cm.txt" "format created $made files, not 2 fsds x 2 slaves x 20"
moves=$(op "$TMP/cm" rdm move)
mdel=$(op "$TMP/cm" rdm delete)
copies=$(op "$TMP/cm" rdc copy)
cdel=$(op "$TMP/cm" rdc delete)
[ "$moves" -gt 0 ] && [ "$copies" -gt 0 ] ||
	fail_show "$TMP/cm.txt" "$moves moves, $copies copies"
[ "$mdel" -eq "$moves" ] ||
	fail_show "$TMP/cm.txt" "$moves moves onto a full src tree, but $mdel deletes"
nsrc=$(find "$SHM/src" -name 'vdb_f*.file' -type f | wc -l)
ndst=$(find "$SHM/dst" -name 'vdb_f*.file' -type f | wc -l)
[ "$nsrc" -eq 40 ] || fail_show "$TMP/cm.txt" "src holds $nsrc files, not 40"
[ "$ndst" -eq $((40 - moves + copies - cdel)) ] ||
	fail_show "$TMP/cm.txt" "dst holds $ndst files, but 40 - $moves moved + $copies copied - $cdel deleted = $((40 - moves + copies - cdel))"
for s in local-1 local-2; do
	$CHECK "$SHM/src/$s" 1 2 10 4096:50,12288:50 ||
		fail_show "$TMP/cm.txt" "src of $s is not Vdbench's tree"
	$CHECK "$SHM/dst/$s" 1 2 10 4096:50,12288:50 --files-present \
		"$(find "$SHM/dst/$s" -name 'vdb_f*.file' | wc -l)" ||
		fail_show "$TMP/cm.txt" "dst of $s holds what the tree has not"
done
/usr/bin/python3 - "$SHM" "$TMP/cm" <<'PY' || fail_show "$TMP/cm.txt" "copied sizes or bytes are wrong"
import json, os, sys
shm, d = sys.argv[1], sys.argv[2]
for root, _, files in os.walk(shm + "/dst"):
    for f in files:
        p = os.path.join(root, f)
        q = p.replace(shm + "/dst", shm + "/src", 1)
        assert os.path.getsize(p) == os.path.getsize(q), (p, q)
s = json.load(open(d + "/summary.json"))
r = [r for r in s["runs"] if r["name"] == "rdc"][0]
o = r["operations"]
cb = o["copy"]["bytes"]
n = o["copy"]["count"]
assert 4096 * n <= cb <= 12288 * n, (cb, n)
assert r["totals"]["write_bytes"] == cb, (r["totals"], cb)
assert r["totals"]["read_bytes"] == cb, (r["totals"], cb)
print("ok: %d copies wrote %d bytes, read as much" % (n, cb))
PY
echo "ok: $moves moves ($mdel deletes), $copies copies ($cdel deletes): src $nsrc, dst $ndst files on disk"
echo "PASS"
