#!/bin/bash
# fwdrate= paces what Vdbench's FwgThread takes a permit for, checked on
# lockstep's own record (summary.json) with two local slaves on tmpfs:
# - a read fwd and a write fwd of 64 KiB files in 4 KiB sequential
#   transfers (16 a file) at fwdrate=N move N transfers a second, not N
#   files: count = N x elapsed (the run's stamped elapsed) within 2 turns
#   of each slave's thread, and the opens are the transfers / 16 (plus at
#   most the file each thread holds at the end);
# - a create fwd at fwdrate=N makes N files a second, each its 16 writes
#   (a create's open, writes and close are one turn), less the writes of
#   a create the end of the run cut;
# - a file shorter than its size is read to its end only: with one
#   slave's files emptied, that slave counts opens and no reads.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/fs_lib.sh"
SHM=$(mktemp -d /dev/shm/lockstep-fsrate.XXXXXX)
trap 'rm -rf "$SHM"; cleanup' EXIT

cat > "$TMP/rate.vdb" <<VDB
fsd=fsd1,anchor=$SHM,depth=1,width=2,files=20,size=64k
fwd=rd,fsd=fsd1,operation=read,xfersize=4k,fileio=sequential,fileselect=random,threads=2
fwd=wr,fsd=fsd1,operation=write,xfersize=4k,fileio=sequential,fileselect=random,threads=2
fwd=del,fsd=fsd1,operation=delete,fileselect=sequential,threads=1
fwd=cre,fsd=fsd1,operation=create,xfersize=4k,fileselect=sequential,threads=1
rd=rdr,fwd=rd,fwdrate=200,format=yes,elapsed=4,interval=1
rd=rdw,fwd=wr,fwdrate=100,format=no,elapsed=3,interval=1
rd=rdd,fwd=del,fwdrate=max,format=no,elapsed=1,interval=1
rd=rdc,fwd=cre,fwdrate=10,format=no,elapsed=3,interval=1
VDB
run rate
[ "$rc" -eq 0 ] || fail_show "$TMP/rate.txt" "exited $rc"
/usr/bin/python3 - "$TMP/rate" <<'PY' || fail_show "$TMP/rate.txt" "fwdrate= paced the wrong unit"
import json, sys
s = json.load(open(sys.argv[1] + "/summary.json"))
runs = {r["name"]: r for r in s["runs"]}
SLAVES, BLOCKS = 2, 16

def within(name, op, rate, threads):
    r = runs[name]
    n = r["operations"][op]["count"]
    want = rate * r["elapsed_s"]
    slack = 2 * SLAVES * threads
    assert abs(n - want) <= slack, \
        "%s: %d %ss at fwdrate=%d over %g s, want %g +- %d" % (
            name, n, op, rate, r["elapsed_s"], want, slack)
    return r, n

for name, op, rate in (("rdr", "read", 200), ("rdw", "write", 100)):
    r, n = within(name, op, rate, 2)
    opens = r["operations"]["open"]["count"]
    lo, hi = n / BLOCKS, n / BLOCKS + SLAVES * 2 + SLAVES
    assert lo <= opens <= hi, "%s: %d opens for %d %ss of %d a file" % (
        name, opens, n, op, BLOCKS)
    print("ok: %s: %d %ss at fwdrate=%d over %g s, %d opens" % (
        name, n, op, rate, r["elapsed_s"], opens))
r, cre = within("rdc", "create", 10, 1)
w = r["operations"]["write"]["count"]
assert BLOCKS * (cre - SLAVES) <= w <= BLOCKS * cre, \
    "%d creates wrote %d blocks, not %d each" % (cre, w, BLOCKS)
print("ok: rdc: %d creates at fwdrate=10, %d writes" % (cre, w))
PY

# A file shorter than its size (a create the end of a run cut) is read to
# its end only: local-1's files all emptied, its reads are none (a read
# that moves nothing is no read), local-2's are paced as before.
find "$SHM/local-1" -name 'vdb_f*.file' -type f -exec truncate -s 0 {} +
cat > "$TMP/empty.vdb" <<VDB
fsd=fsd1,anchor=$SHM,depth=1,width=2,files=20,size=64k
fwd=rd,fsd=fsd1,operation=read,xfersize=4k,fileio=sequential,fileselect=sequential,threads=2
rd=rde,fwd=rd,fwdrate=200,format=no,elapsed=2,interval=1
VDB
run empty
[ "$rc" -eq 0 ] || fail_show "$TMP/empty.txt" "empty: exited $rc"
/usr/bin/python3 - "$TMP/empty" <<'PY' || fail_show "$TMP/empty.txt" "reads of empty files were counted"
import json, sys
s = json.load(open(sys.argv[1] + "/summary.json"))
r = s["runs"][0]
own = {p["slave"]: p["operations"] for p in r["per_slave"]}
e, f = own["local-1"], own["local-2"]
assert e["open"]["count"] > 0 and e.get("read", {}).get("count", 0) == 0, e
assert f["read"]["count"] > 0 and f["read"]["bytes"] == 4096 * f["read"]["count"], f
print("ok: empty files: %d opens, no reads; local-2: %d reads of 4096 bytes" %
      (e["open"]["count"], f["read"]["count"]))
PY
echo "PASS"
