# concatenatesds=yes (Vdbench's sd concatenation) end to end, asserted on
# lockstep's own record and on the files it wrote:
# - `lockstep check` says concatenatesds=yes and the wd's threads, and
#   refuses at FILE:LINE:COLUMN wd threads= without concatenation, sd
#   threads= with it, a wd without threads= and validate=yes with it;
# - a seekpct=eof write pass over three zeroed files of different sizes,
#   concatenated, on two slaves, writes every block of every file and
#   writes exactly their summed size (summary.json's bytes): each block
#   once, sd1 then sd2 then sd3 with nothing skipped or repeated;
# - random 4k writes over three sparse files whose sizes are not
#   multiples of the transfer: no file grows (no I/O past an sd's end),
#   no error, and each file's written blocks (its data extents) match its
#   share of the space within 4 binomial sigmas of the run's own count of
#   writes (summary.json), less the expected repeats.
# Each offset's mapping (boundaries, straddles, range=) is held by
# tests/test_concat.c, where every I/O is seen.
source "$(dirname "$0")/lib.sh"

# ---- check: echoed, and the refusals -----------------------------------
cat > "$TMP/c.vdb" <<VDB
concatenatesds=yes
sd=sd1,lun=$TMP/c1.dat,size=1m
sd=sd2,lun=$TMP/c2.dat,size=3m
wd=wd1,sd=(sd2,sd1),xfersize=64k,threads=6,seekpct=eof
rd=r1,wd=wd1,iorate=max,elapsed=2,interval=1
VDB
run_bounded 30 "$LOCKSTEP" check "$TMP/c.vdb" > "$TMP/check.txt" 2>&1
[ "$rc" -eq 0 ] || fail_show "$TMP/check.txt" "lockstep check exited $rc"
for want in "concatenatesds=yes" "sd=(sd2,sd1)" "threads=6 (concatenated)" \
	"threads: sd1=0 sd2=6"; do
	grep -qF "$want" "$TMP/check.txt" || fail_show "$TMP/check.txt" "check does not say $want"
done

refused() { # FILE WANT: lockstep check refuses FILE saying WANT
	run_bounded 30 "$LOCKSTEP" check "$1" > "$TMP/r.txt" 2>&1
	[ "$rc" -ne 0 ] || fail_show "$TMP/r.txt" "check accepted $1"
	grep -qF "$2" "$TMP/r.txt" || fail_show "$TMP/r.txt" "check does not say $2"
}
printf 'sd=sd1,lun=%s/x\nwd=wd1,sd=sd1,threads=4\nrd=r1,wd=wd1\n' "$TMP" > "$TMP/e1.vdb"
refused "$TMP/e1.vdb" "e1.vdb:2:15: wd threads= is only for sd concatenation"
printf 'concatenatesds=yes\nsd=sd1,lun=%s/x,threads=4\nwd=wd1,sd=sd1,threads=4\nrd=r1,wd=wd1\n' "$TMP" > "$TMP/e2.vdb"
refused "$TMP/e2.vdb" "e2.vdb:2:"
refused "$TMP/e2.vdb" "sd threads= is not supported with concatenatesds=yes"
printf 'concatenatesds=yes\nsd=sd1,lun=%s/x\nwd=wd1,sd=sd1\nrd=r1,wd=wd1\n' "$TMP" > "$TMP/e3.vdb"
refused "$TMP/e3.vdb" "e3.vdb:3:1: wd=wd1: for sd concatenation each wd needs threads="
printf 'concatenatesds=yes\nvalidate=yes\nsd=sd1,lun=%s/x\nwd=wd1,sd=sd1,threads=2\nrd=r1,wd=wd1\n' "$TMP" > "$TMP/e4.vdb"
refused "$TMP/e4.vdb" "e4.vdb:2:10: validate=yes with concatenatesds=yes"

# ---- a sequential pass: every block once, in order ----------------------
truncate -s 1m "$TMP/s1.dat"
truncate -s 3m "$TMP/s2.dat"
truncate -s 2m "$TMP/s3.dat"
cat > "$TMP/s.vdb" <<VDB
concatenatesds=yes
sd=sd1,lun=$TMP/s1.dat,size=1m,openflags=o_direct
sd=sd2,lun=$TMP/s2.dat,size=3m,openflags=o_direct
sd=sd3,lun=$TMP/s3.dat,size=2m,openflags=o_direct
wd=wd1,sd=(sd1,sd2,sd3),xfersize=64k,rdpct=0,seekpct=eof,threads=4
rd=r1,wd=wd1,iorate=max,elapsed=60,interval=1
VDB
run_bounded 120 "$LOCKSTEP" run "$TMP/s.vdb" -o "$TMP/s" --local-slaves 2 > "$TMP/s.txt" 2>&1
[ "$rc" -eq 0 ] || fail_show "$TMP/s.txt" "sequential concatenated run exited $rc"
/usr/bin/python3 - "$TMP" <<'PY'
import json, sys
tmp = sys.argv[1]
t = json.load(open(tmp + "/s/summary.json"))["runs"][0]["totals"]
sizes = {"s1.dat": 1 << 20, "s2.dat": 3 << 20, "s3.dat": 2 << 20}
assert t["errors"] == 0, t
# Each block written once: the pass's bytes are the space's size.
assert t["write_bytes"] == sum(sizes.values()), t
for name, size in sizes.items():
    d = open(tmp + "/" + name, "rb").read()
    assert len(d) == size, (name, len(d))
    zero = [i for i in range(0, size, 4096) if d[i:i + 4096] == bytes(4096)]
    assert not zero, (name, "unwritten 4k blocks at", zero[:5])
PY

# ---- random writes: each sd's share, none past an end -------------------
# Sparse files of 64m+4k, 192m+8k and 128m+12k: not multiples of 64k nor
# of each other. Written 4k blocks are the files' data extents.
for f in r1:67112960 r2:201334784 r3:134230016; do
	truncate -s "${f#*:}" "$TMP/${f%%:*}.dat"
done
cat > "$TMP/r.vdb" <<VDB
concatenatesds=yes
sd=sd1,lun=$TMP/r1.dat,openflags=o_direct
sd=sd2,lun=$TMP/r2.dat,openflags=o_direct
sd=sd3,lun=$TMP/r3.dat,openflags=o_direct
wd=wd1,sd=(sd1,sd2,sd3),xfersize=4k,rdpct=0,seekpct=100,threads=4
rd=r1,wd=wd1,iorate=1500,elapsed=3,interval=1
VDB
run_bounded 60 "$LOCKSTEP" run "$TMP/r.vdb" -o "$TMP/r" --local-slaves 2 > "$TMP/r.txt" 2>&1
[ "$rc" -eq 0 ] || fail_show "$TMP/r.txt" "random concatenated run exited $rc"
/usr/bin/python3 - "$TMP" <<'PY'
import json, math, os, sys
tmp = sys.argv[1]
run = json.load(open(tmp + "/r/summary.json"))["runs"][0]
t = run["totals"]
assert t["errors"] == 0, t
sizes = {"r1.dat": 67112960, "r2.dat": 201334784, "r3.dat": 134230016}
space = sum(sizes.values())
n = t["write_ops"]
assert n > 1000, t
# In flight at the phase's end: written, not counted (threads=4 a slave).
slack = 8

def written(path):
    """4k blocks holding data: the file's data extents."""
    fd = os.open(path, os.O_RDONLY)
    end, off, blocks = os.fstat(fd).st_size, 0, 0
    try:
        while off < end:
            try:
                data = os.lseek(fd, off, os.SEEK_DATA)
            except OSError:
                break
            hole = os.lseek(fd, data, os.SEEK_HOLE)
            blocks += (hole - data) // 4096
            off = hole
    finally:
        os.close(fd)
    return blocks

for name, size in sizes.items():
    assert os.path.getsize(tmp + "/" + name) == size, (name, "grew")
    p = size / space
    blocks = size // 4096
    # Distinct blocks hit by n*p uniform writes over `blocks` blocks.
    expect = blocks * (1 - math.exp(-n * p / blocks))
    sigma = math.sqrt(n * p * (1 - p))
    got = written(tmp + "/" + name)
    assert abs(got - expect) <= 4 * sigma + slack, \
        (name, "written blocks", got, "expected", expect, "sigma", sigma, "n", n)
PY
echo "PASS"
