#!/bin/bash
# File-system data validation (validate=yes with fsd=/fwd=) end to end: a
# master and two local slaves on a tmpfs tree (a folder under /dev/shm),
# judged by lockstep's own record (the slaves' data validation lines,
# summary.json, the exit status) against what the test injected:
# - clean: format (every block keyed), random reads and writes, then a
#   sequential read pass: blocks written and verified, no mismatch, exit 0;
# - the same, with one byte of a known file changed by another process
#   between the two phases (the read rd's startcmd= on the master), and
#   one file's block copied over another's: lockstep reports a corrupt
#   block and a misdirected one at exactly those files and offsets and
#   nowhere else, counts them in summary.json, and exits 4 (degraded);
# - refused with FILE:LINE:COLUMN: an xfersize that is not whole 4 KiB
#   blocks, operation=copy (journal= runs: fs_validate_journal.sh).
source "$(dirname "$0")/lib.sh"
# fs_lib.sh's refused; its run is replaced by this file's below.
source "$(dirname "$0")/fs_lib.sh"
SHM=$(mktemp -d /dev/shm/lockstep-fsval.XXXXXX)
trap 'rm -rf "$SHM"; cleanup' EXIT

# run NAME: lockstep run $TMP/NAME.vdb (two local slaves) into
# $TMP/NAME, its output in $TMP/NAME.txt; sets rc.
run() {
	run_bounded 120 "$LOCKSTEP" run "$TMP/$1.vdb" -o "$TMP/$1" \
		--local-slaves 2 > "$TMP/$1.txt" 2>&1
	if grep -q "AddressSanitizer\|runtime error" "$TMP/$1.txt"; then
		fail_show "$TMP/$1.txt" "sanitizer report"
	fi
}

# vdb NAME ANCHOR [RD2 EXTRA]: format + mixed random I/O, then reads.
vdb() {
	cat > "$TMP/$1.vdb" <<VDB
validate=yes
fsd=fsd1,anchor=$2,depth=1,width=2,files=3,sizes=(16k,50,32k,50)
fwd=mix,fsd=fsd1,operation=read,rdpct=50,xfersize=(4k,50,8k,50),fileio=random,fileselect=random,threads=2
fwd=rd,fsd=fsd1,operation=read,xfersize=8k,fileio=sequential,fileselect=sequential,threads=1
rd=rd1,fwd=mix,fwdrate=max,format=yes,elapsed=2,interval=1
rd=rd2,fwd=rd,fwdrate=max,format=no,elapsed=2,interval=1${3:-}
VDB
}

# 1. Clean.
mkdir "$SHM/a1"
vdb clean "$SHM/a1"
run clean
[ "$rc" -eq 0 ] || fail_show "$TMP/clean.txt" "clean: exited $rc"
read -r w v x < <(val_figures "$TMP/clean" rd1)
[ "$w" -gt 0 ] && [ "$v" -gt 0 ] && [ "$x" -eq 0 ] ||
	fail_show "$TMP/clean.txt" "clean rd1: $w written, $v verified, $x mismatches"
read -r w2 v2 x2 < <(val_figures "$TMP/clean" rd2)
[ "$w2" -eq 0 ] && [ "$v2" -gt 0 ] && [ "$x2" -eq 0 ] ||
	fail_show "$TMP/clean.txt" "clean rd2: $w2 written, $v2 verified, $x2 mismatches"
# The format keyed every block of both slaves' trees: 3 x 16k + 3 x 32k
# per folder or its mirror, whatever the draws: at least 6 x 4 blocks.
read -r wf _ _ < <(val_figures "$TMP/clean" "rd1 format")
[ "$wf" -ge 48 ] || fail_show "$TMP/clean.txt" "the format keyed $wf blocks"
grep -q "data validation: fsd .* offset" "$TMP/clean.txt" &&
	fail_show "$TMP/clean.txt" "clean: a mismatch reported"
echo "ok: clean: format $wf blocks; rd1 $w written, $v verified; rd2 $v2 verified; no mismatch"

# 2. Between rd1 and rd2, one byte of a known file of local-1 changed,
# and in local-2's tree the first block of one file copied over the
# third block of another (a misdirected write).
mkdir "$SHM/a2"
VICTIM=vdb.1_2.dir/vdb_f0002.file
OFF=$((4096 + 777)) # in the file's second 4 KiB block
MISDIR=vdb.1_1.dir/vdb_f0003.file
cat > "$TMP/flip.py" <<PY
p = "$SHM/a2/local-1/$VICTIM"
with open(p, "r+b") as f:
    f.seek($OFF)
    b = f.read(1)
    f.seek($OFF)
    f.write(bytes([b[0] ^ 0x5a]))
with open("$SHM/a2/local-2/vdb.1_1.dir/vdb_f0001.file", "rb") as f:
    blk = f.read(4096)
with open("$SHM/a2/local-2/$MISDIR", "r+b") as f:
    f.seek(2 * 4096)
    f.write(blk)
PY
vdb corrupt "$SHM/a2" ",startcmd=(\"/usr/bin/python3 $TMP/flip.py\",master)"
run corrupt
[ "$rc" -eq 4 ] || fail_show "$TMP/corrupt.txt" "corrupt: exited $rc, expected 4 (degraded)"
got=$(grep -o 'slave local-[12]: data validation: fsd fsd1 file [^ ]* offset [0-9]*: [a-z-]*' \
	"$TMP/corrupt.txt" | awk '{print $2, $8, $10, $11}' | sort -u)
want="local-1: $VICTIM 4096: corrupt
local-2: $MISDIR 8192: misdirected"
[ "$got" = "$want" ] ||
	fail_show "$TMP/corrupt.txt" "corrupt: reported [$got], expected [$want]"
read -r _ v1 x1 < <(val_figures "$TMP/corrupt" rd1)
read -r _ v2 x2 < <(val_figures "$TMP/corrupt" rd2)
[ "$x1" -eq 0 ] && [ "$x2" -gt 0 ] && [ "$v2" -ge "$x2" ] ||
	fail_show "$TMP/corrupt.txt" "corrupt: mismatches rd1 $x1, rd2 $x2 of $v2"
echo "ok: corrupt: exactly [$(echo $want)] reported ($x2 mismatches), exit 4"

# 3. What it cannot keep exact is refused where it is written
# (fs_lib.sh's refused).
FSD="fsd=fsd1,anchor=$SHM/a1,depth=1,width=2,files=3,size=16k"
refused xfer "3:1:" validate=yes "$FSD" \
	"fwd=f,fsd=fsd1,operation=read,xfersize=6k" "rd=r,fwd=f,elapsed=2"
refused copy "4:1:" validate=yes \
	"$FSD" "fsd=fsd2,anchor=$SHM/a2,depth=1,width=2,files=3,size=16k" \
	"fwd=f,fsd=fsd1,operation=copy,target=fsd2" "rd=r,fwd=f,elapsed=2"
echo "PASS"
