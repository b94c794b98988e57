#!/bin/bash
# Journaled file-system data validation (validate=yes, journal= with
# fsd=/fwd=) across two runs: a master and two local slaves on a tmpfs
# tree (a folder under /dev/shm), judged by lockstep's own record (the
# slaves' data validation lines, summary.json, the exit status) against
# what the test injected:
# - run 1 formats and writes at random with the key maps journaled: one
#   journal per fsd and slave, DIR/fsd1.local-N.fsjnl;
# - run 2, a new lockstep run with rd validate=only, replays the journals
#   and reads every file once: it verifies exactly the blocks the
#   journals hold (counted here from the journals' records), 0
#   mismatches, exit 0;
# - one 4 KiB block of one file changed on disk between the runs: the
#   validate=only run reports that block alone (file and offset), counts
#   one mismatch in summary.json and exits non-zero;
# - the two slaves' journals swapped, a journal cut to its header, and a
#   journal replayed against another tree shape are each refused: the
#   run fails naming the journal, never "0 mismatches";
# - a slave killed with SIGKILL while it writes: the next validate=only
#   run forgets the blocks the journal has in flight, says how many, and
#   verifies every other keyed block clean;
# - a keyed file deleted between the runs fails the validate=only run,
#   naming the file;
# - validate=only with format= is refused with FILE:LINE:COLUMN.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/fs_lib.sh"
SHM=$(mktemp -d /dev/shm/lockstep-fsjnl.XXXXXX)
trap 'rm -rf "$SHM"; cleanup' EXIT
J="$SHM/journal"
mkdir "$SHM/a"

# vdb NAME FILES RD...: the tree (FILES files per folder) journaled.
vdb() {
	local name=$1 files=$2
	shift 2
	{
		echo "validate=yes"
		echo "journal=$J"
		echo "fsd=fsd1,anchor=$SHM/a,depth=1,width=2,files=$files,sizes=(16k,50,32k,50)"
		echo "fwd=mix,fsd=fsd1,operation=read,rdpct=50,xfersize=(4k,50,8k,50),fileio=random,fileselect=random,threads=2"
		printf '%s\n' "$@"
	} > "$TMP/$name.vdb"
}

# known JOURNAL...: the blocks the journals hold a key of (their records
# replayed: an intent or done sets a block's generation, a forget clears
# it), after checking each header names fsd1 and its slave.
known() {
	/usr/bin/python3 - "$@" <<'PY'
import struct, sys
total = 0
for path in sys.argv[1:]:
    d = open(path, "rb").read()
    assert d[:8] == b"LSFJNL01", path
    nblocks, nfiles = struct.unpack_from("<QQ", d, 8)
    fsd = d[48:112].split(b"\0")[0].decode()
    slave = d[112:176].split(b"\0")[0].decode()
    assert fsd == "fsd1" and path.endswith("fsd1.%s.fsjnl" % slave), (path, fsd, slave)
    gen = {}
    for (r,) in struct.iter_unpack("<Q", d[176:176 + (len(d) - 176) // 8 * 8]):
        b, g, t = r >> 16, (r >> 8) & 0xff, r & 0xff
        assert b < nblocks and t in (1, 2, 3), (path, r)
        gen[b] = g if t != 3 else 0
    total += sum(1 for g in gen.values() if g)
print(total)
PY
}

# 1. Format and write, journaled.
vdb write 3 "rd=rd1,fwd=mix,fwdrate=max,format=yes,elapsed=2,interval=1"
run write
[ "$rc" -eq 0 ] || fail_show "$TMP/write.txt" "write: exited $rc"
[ "$(ls "$J" | sort | tr '\n' ' ')" = "fsd1.local-1.fsjnl fsd1.local-2.fsjnl " ] ||
	fail "journals: $(ls "$J")"
read -r w _ x < <(val_figures "$TMP/write" rd1)
[ "$w" -gt 0 ] && [ "$x" -eq 0 ] ||
	fail_show "$TMP/write.txt" "write rd1: $w written, $x mismatches"
K=$(known "$J/fsd1.local-1.fsjnl" "$J/fsd1.local-2.fsjnl")
# Every whole block of both trees is keyed (random writes are whole
# blocks): 3 x 16k + 3 x 32k files a folder, whatever the draws, >= 48.
[ "$K" -ge 48 ] || fail "the journals hold $K keyed blocks"
cp -a "$J" "$SHM/journal.good"
restore() { rm -rf "$J"; cp -a "$SHM/journal.good" "$J"; }
echo "ok: run 1 wrote $w blocks; the journals hold $K keys"

# 2. A new run replays the journals and verifies every file: clean.
vdb verify 3 "rd=rv,fwd=mix,validate=only,interval=1"
run verify
[ "$rc" -eq 0 ] || fail_show "$TMP/verify.txt" "verify: exited $rc"
read -r w v x < <(val_figures "$TMP/verify" "rv validate")
[ "$w" -eq 0 ] && [ "$v" -eq "$K" ] && [ "$x" -eq 0 ] ||
	fail_show "$TMP/verify.txt" "verify: $w written, $v verified of $K, $x mismatches"
echo "ok: run 2 verified all $v keyed blocks, 0 mismatches, exit 0"

# 3. One block of one file of local-1 changed behind lockstep's back.
VICTIM=vdb.1_2.dir/vdb_f0002.file
/usr/bin/python3 - "$SHM/a/local-1/$VICTIM" <<'PY'
import sys
with open(sys.argv[1], "r+b") as f:
    f.seek(4096 + 777)  # the file's second 4 KiB block, past its header
    b = f.read(1)
    f.seek(4096 + 777)
    f.write(bytes([b[0] ^ 0x5a]))
PY
run verify
[ "$rc" -ne 0 ] || fail_show "$TMP/verify.txt" "corrupt: exited 0"
got=$(grep -o 'slave local-[12]: data validation: fsd fsd1 file [^ ]* offset [0-9]*: [a-z-]*' \
	"$TMP/verify.txt" | awk '{print $2, $8, $10, $11}' | sort -u)
want="local-1: $VICTIM 4096: corrupt"
[ "$got" = "$want" ] ||
	fail_show "$TMP/verify.txt" "corrupt: reported [$got], expected [$want]"
read -r _ v x < <(val_figures "$TMP/verify" "rv validate")
[ "$x" -eq 1 ] && [ "$v" -eq "$K" ] ||
	fail_show "$TMP/verify.txt" "corrupt: $x mismatches of $v verified (of $K)"
echo "ok: corrupt: exactly [$want] reported, 1 mismatch, exit $rc"
/usr/bin/python3 - "$SHM/a/local-1/$VICTIM" <<'PY'
import sys
with open(sys.argv[1], "r+b") as f:
    f.seek(4096 + 777)
    b = f.read(1)
    f.seek(4096 + 777)
    f.write(bytes([b[0] ^ 0x5a]))
PY

# 4. Journals that cannot be trusted fail the run, naming the journal.
tampered() {
	run verify
	[ "$rc" -ne 0 ] || fail_show "$TMP/verify.txt" "journal $1: exited 0"
	grep -q "$2" "$TMP/verify.txt" ||
		fail_show "$TMP/verify.txt" "journal $1: no message [$2]"
	echo "ok: journal $1: exit $rc, $(grep -m1 -o "$2" "$TMP/verify.txt")"
	restore
}
mv "$J/fsd1.local-1.fsjnl" "$SHM/j1"
mv "$J/fsd1.local-2.fsjnl" "$J/fsd1.local-1.fsjnl"
mv "$SHM/j1" "$J/fsd1.local-2.fsjnl"
tampered swapped "journal $J/fsd1.local-[12].fsjnl belongs to slave local-[12], not local-[12]"
truncate -s 176 "$J/fsd1.local-2.fsjnl"
tampered cut "fsd fsd1: journal $J/fsd1.local-2.fsjnl records no block written by this slave"
vdb verify 4 "rd=rv,fwd=mix,validate=only,interval=1"
tampered shape "journal $J/fsd1.local-[12].fsjnl is of a tree of 6 files"
vdb verify 3 "rd=rv,fwd=mix,validate=only,interval=1"
run verify
[ "$rc" -eq 0 ] || fail_show "$TMP/verify.txt" "restored: exited $rc"
echo "ok: the restored journals verify clean"

# 5. A slave killed (SIGKILL) while it writes: the run stops; the next
# run checks each block its journal has an intent without a done for as
# either content, whole (the write's or the one before; a first write's
# block is forgotten), and verifies the rest, clean: what it verified is
# what the journals know after it.
vdb crash 3 "rd=rdc,fwd=mix,fwdrate=max,format=no,elapsed=15,interval=1"
"$LOCKSTEP" run "$TMP/crash.vdb" -o "$TMP/crash" --local-slaves 2 \
	> "$TMP/crash.txt" 2>&1 &
master=$!
PIDS+=($master)
kill_slave "$master" local-1 "$TMP/crash.txt"
[ "$rc" -ne 0 ] || fail_show "$TMP/crash.txt" "the run that lost a slave exited 0"
inflight=$(/usr/bin/python3 "$HERE/jnl_pending.py" 176 "$J/fsd1.local-1.fsjnl")
vdb verify 3 "rd=rv,fwd=mix,validate=only,interval=1"
run verify
[ "$rc" -eq 0 ] || fail_show "$TMP/verify.txt" "after the kill: exited $rc"
K2=$(known "$J/fsd1.local-1.fsjnl" "$J/fsd1.local-2.fsjnl")
read -r _ v x < <(val_figures "$TMP/verify" "rv validate")
[ "$v" -eq "$K2" ] && [ "$x" -eq 0 ] ||
	fail_show "$TMP/verify.txt" "after the kill: $v verified of $K2, $x mismatches"
if [ "$inflight" -gt 0 ]; then
	grep -q "fsd fsd1: $inflight blocks were being written when journal $J/fsd1.local-1.fsjnl ended" \
		"$TMP/verify.txt" ||
		fail_show "$TMP/verify.txt" "$inflight writes in flight and the slave did not say so"
else
	echo "note: the kill left no write in flight in the journal"
fi
echo "ok: after a kill: $inflight in flight settled, $v verified, 0 mismatches"

# 6. A keyed file deleted behind lockstep's back: the pass verified fewer
# blocks than the journal expects, and says which file is gone.
GONE=vdb.1_1.dir/vdb_f0001.file
rm "$SHM/a/local-2/$GONE"
run verify
[ "$rc" -ne 0 ] || fail_show "$TMP/verify.txt" "gone: exited 0"
grep -q "slave local-2: data validation: fsd fsd1: validate=only verified [0-9]* of the [0-9]* blocks the map expected (file $GONE is gone)" \
	"$TMP/verify.txt" || fail_show "$TMP/verify.txt" "gone: no message naming $GONE"
echo "ok: a deleted file: exit $rc, $GONE named"

# 7. validate=only takes no format=.
vdb bad 3 "rd=rv,fwd=mix,format=yes,validate=only"
set +e
"$LOCKSTEP" check "$TMP/bad.vdb" > "$TMP/bad.txt" 2>&1
rc=$?
set -e
[ "$rc" -ne 0 ] && grep -q "$TMP/bad.vdb:5:[0-9]*: rd=rv: validate=only" "$TMP/bad.txt" ||
	fail_show "$TMP/bad.txt" "validate=only with format= not refused at its place"
echo "ok: validate=only with format= refused"

# 8. An fsd's own journal= (Vdbench's fsd journal=): its journals go to
# its folder, not the general one, and a validate=only run replays them.
O="$SHM/own"
mkdir "$SHM/b"
for name in owrite overify; do
	rd="rd=rd1,fwd=w,fwdrate=max,format=yes,elapsed=2,interval=1"
	[ "$name" = overify ] && rd="rd=rv,fwd=w,validate=only,interval=1"
	cat > "$TMP/$name.vdb" <<VDB
validate=yes
fsd=fsd1,anchor=$SHM/b,depth=1,width=2,files=3,sizes=(16k),journal=$O
fwd=w,fsd=fsd1,operation=write,xfersize=4k,fileio=random,fileselect=random,threads=2
$rd
VDB
	run "$name"
	[ "$rc" -eq 0 ] || fail_show "$TMP/$name.txt" "$name: exited $rc"
done
[ "$(ls "$O" | sort | tr '\n' ' ')" = "fsd1.local-1.fsjnl fsd1.local-2.fsjnl " ] ||
	fail "the fsd's journals: $(ls "$O")"
K3=$(known "$O/fsd1.local-1.fsjnl" "$O/fsd1.local-2.fsjnl")
read -r _ v x < <(val_figures "$TMP/overify" "rv validate")
[ "$K3" -ge 12 ] && [ "$v" -eq "$K3" ] && [ "$x" -eq 0 ] ||
	fail_show "$TMP/overify.txt" "fsd journal=: $v verified of $K3, $x mismatches"
echo "ok: an fsd's journal=: $K3 keys in $O, all verified, 0 mismatches"
echo "PASS"
