# Data validation end to end on a loop device (root), two local slaves
# that each own half of it, the generation maps journaled (journal=):
# - a clean run (format, mixed random I/O, a validate=only pass) exits 0
#   with verified blocks and no mismatch, on the console and in
#   summary.json;
# - a journal emptied, cut to its header, deleted or swapped with the
#   other slave's makes the validate=only run fail, naming the journal;
# - bytes flipped in three written blocks by another process between two
#   runs: the validate=only run finds corruption at exactly those blocks,
#   nowhere else, and exits 4 (degraded, within data_errors=);
# - blocks reverted from an earlier copy of the device (dd of a snapshot
#   region) are lost writes, and a block copied over another is a
#   misdirected write, each at exactly those blocks;
# - a slave killed with SIGKILL in the middle of a write run (its journal
#   has writes in flight) stops the run before its next rd (exit 2: a new
#   cut would give its blocks to a slave without their generations); then
#   damage in two blocks: the next
#   validate=only run reports exactly the two damaged blocks, no false
#   positive from the writes the kill interrupted;
# - data_errors=1 with more mismatches than that on a slave aborts the run
#   (exit 2).
# - per sd: summary.json's validation.sds and the console's per-sd lines
#   sum to the run's totals, and with two sds the damaged blocks are
#   counted at the sd that has them, none at the other.
# The device is never mounted; nothing but the loop image is written.
source "$(dirname "$0")/lib.sh"

if [ "$(id -u)" -ne 0 ] || ! command -v losetup > /dev/null; then
	echo "SKIP: needs root and losetup"
	exit 77
fi
DEV=""
DEV2=""
val_cleanup() {
	cleanup
	[ -n "$DEV" ] && losetup -d "$DEV" 2> /dev/null || true
	[ -n "$DEV2" ] && losetup -d "$DEV2" 2> /dev/null || true
}
trap val_cleanup EXIT

BLK=4096
NBLK=4096 # a 16 MiB device
truncate -s $((BLK * NBLK)) "$TMP/dev.img"
DEV=$(losetup -f --show "$TMP/dev.img") || fail "losetup failed"
J="$TMP/journal"

# vdb NAME DATA_ERRORS RDS...: a parameter file on the loop device.
vdb() {
	local name=$1 de=$2
	shift 2
	{
		echo "validate=yes"
		echo "journal=$J"
		echo "data_errors=$de"
		echo "formatxfersize=64k"
		echo "sd=sd1,lun=$DEV,openflags=o_direct,threads=8"
		echo "wd=wd1,sd=sd1,xfersize=(4k,50,16k,50),rdpct=50"
		printf '%s\n' "$@"
	} > "$TMP/$name.vdb"
}

# run NAME SECS: run it (two local slaves); sets rc, output in NAME.*.
run() {
	run_bounded "$2" "$LOCKSTEP" run "$TMP/$1.vdb" -o "$TMP/out-$1" \
		> "$TMP/$1.txt" 2> "$TMP/$1.err"
}

# mismatches NAME: "offset kind" per logged mismatch, sorted.
mismatches() {
	grep -o 'data validation: sd sd1 offset [0-9]*: [a-z-]*' "$TMP/$1.err" |
		awk '{print $6, $7}' | tr -d ':' | sort -n || true
}

# flip BLOCK [DEVICE]: another process changes one byte in the block's
# data (of $DEV unless DEVICE is given).
flip() {
	local dev=${2:-$DEV}
	dd if="$dev" of="$TMP/b" bs=$BLK skip="$1" count=1 iflag=direct \
		status=none
	python3 - "$TMP/b" <<'PY'
import sys
p = sys.argv[1]
b = bytearray(open(p, 'rb').read())
b[1000] ^= 0x5a  # sector 1's data, past its header
open(p, 'wb').write(b)
PY
	dd if="$TMP/b" of="$dev" bs=$BLK seek="$1" count=1 oflag=direct \
		conv=notrunc status=none
}

json() {
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' \
		"$TMP/out-$1/summary.json" "$2"
}

# sds_add_up NAME: in every run, validation.sds sums to the run's totals
# (and the slaves' figures too), and each sd has a console line.
sds_add_up() {
	python3 - "$TMP/out-$1/summary.json" "$TMP/$1.txt" <<'PY' ||
import json, sys
d = json.load(open(sys.argv[1]))
txt = open(sys.argv[2]).read()
for r in d['runs']:
    v = r['validation']
    sds = v['sds']
    assert sds, r['name'] + ': no sds'
    for k, t in (('written', 'blocks_written'),
                 ('verified', 'blocks_verified'),
                 ('mismatched', 'mismatches')):
        got = sum(s[k] for s in sds)
        assert got == v[t], '%s: sds %s sum to %d, not %d' % (r['name'], k, got, v[t])
        per = sum(p['validation'][t] for p in r['per_slave'])
        assert per == v[t], '%s: slaves %s sum to %d, not %d' % (r['name'], t, per, v[t])
    for s in sds:
        line = 'validation %s %s: %d blocks written, %d verified, %d mismatches' % (
            r['name'], s['sd'], s['written'], s['verified'], s['mismatched'])
        assert line in txt, 'no console line: ' + line
PY
		{ fail_show "$TMP/$1.txt" "$1: per-sd validation figures do not add up"; }
}

# ---- a clean run --------------------------------------------------------
vdb clean 50 "rd=rd1,wd=wd1,format=yes,elapsed=2,interval=1" \
	"rd=rd2,wd=wd1,validate=only,interval=1"
run clean 60
[ "$rc" -eq 0 ] || { fail_show "$TMP/clean.err" "clean run exited $rc"; }
grep -q "validation rd2 validate: 0 blocks written, [1-9][0-9]* verified, 0 mismatches" "$TMP/clean.txt" ||
	{ fail_show "$TMP/clean.txt" "the validate pass verified nothing or found mismatches"; }
grep -q "validation rd1: [1-9][0-9]* blocks written, [1-9][0-9]* verified, 0 mismatches" "$TMP/clean.txt" ||
	{ fail_show "$TMP/clean.txt" "the mixed run did not validate"; }
[ "$(json clean "d['runs'][-1]['validation']['blocks_verified']")" -ge "$NBLK" ] ||
	fail "summary.json: the validate pass verified fewer blocks than the device has"
[ "$(json clean "sum(r['validation']['mismatches'] for r in d['runs'])")" -eq 0 ] ||
	fail "summary.json counts mismatches on a clean run"
sds_add_up clean
[ "$(json clean "[s['sd'] for s in d['runs'][-1]['validation']['sds']]")" = "['sd1']" ] ||
	fail "summary.json: validation.sds of the validate pass is not sd1 alone"
[ "$(ls "$J" | sort | tr '\n' ' ')" = "sd1.local-1.jnl sd1.local-2.jnl " ] ||
	fail "journals: $(ls "$J")"

# ---- a tampered journal is never "clean" --------------------------------
# Emptied, cut to its header, deleted, or swapped with the other slave's:
# the validate=only run must not exit 0, and must name the journal.
cp -a "$J" "$TMP/journal.good"
restore() { rm -rf "$J"; cp -a "$TMP/journal.good" "$J"; }
vdb verify 50 "rd=rdv,wd=wd1,validate=only,interval=1"
tampered() { # CASE PATTERN: the run after the tampering fails, saying PATTERN
	run verify 60
	[ "$rc" -ne 0 ] || { fail_show "$TMP/verify.err" "journal $1: the validate=only run exited 0"; }
	grep -q "$2" "$TMP/verify.err" || { fail_show "$TMP/verify.err" "journal $1: no message naming the journal"; }
	echo "ok: journal $1: exit $rc, $(grep -m1 -o "journal $J/[^ ]*" "$TMP/verify.err")"
	restore
}
: > "$J/sd1.local-1.jnl"
tampered emptied "journal $J/sd1.local-1.jnl records no block written by this slave"
truncate -s 160 "$J/sd1.local-2.jnl"
tampered cut "journal $J/sd1.local-2.jnl records no block written by this slave"
rm "$J/sd1.local-1.jnl"
tampered deleted "journal $J/sd1.local-1.jnl records no block written by this slave"
mv "$J/sd1.local-1.jnl" "$TMP/j1"
mv "$J/sd1.local-2.jnl" "$J/sd1.local-1.jnl"
mv "$TMP/j1" "$J/sd1.local-2.jnl"
tampered swapped "journal $J/sd1.local-[12].jnl belongs to slave local-[12], not local-[12]"
# Intact again: the same pass is clean.
run verify 60
[ "$rc" -eq 0 ] || { fail_show "$TMP/verify.err" "the restored journals did not validate clean ($rc)"; }

# ---- corruption: bytes flipped between two runs -------------------------
vdb verify 50 "rd=rdv,wd=wd1,validate=only,interval=1"
flip 100
flip 2100
flip 4000
run verify 60
[ "$rc" -eq 4 ] || { fail_show "$TMP/verify.err" "run with corrupted blocks exited $rc, expected 4 (degraded)"; }
want=$(printf '%s corrupt\n' $((100 * BLK)) $((2100 * BLK)) $((4000 * BLK)))
got=$(mismatches verify)
[ "$got" = "$want" ] || { fail_show "$TMP/verify.err" "corruption found at: $got, expected: $want"; }
[ "$(json verify "d['runs'][0]['validation']['mismatches']")" -eq 3 ] ||
	fail "summary.json does not count the 3 corrupted blocks"
[ "$(json verify "[(s['sd'], s['written'], s['mismatched']) for s in d['runs'][0]['validation']['sds']]")" = "[('sd1', 0, 3)]" ] ||
	fail "summary.json: validation.sds does not count the 3 corrupted blocks at sd1"
sds_add_up verify

# ---- lost and misdirected writes ---------------------------------------
dd if="$DEV" of="$TMP/snap.img" bs=1M iflag=direct status=none
vdb rewrite 50 "rd=rdw,wd=wd1,format=only"
run rewrite 60
[ "$rc" -eq 0 ] || { fail_show "$TMP/rewrite.err" "rewrite exited $rc"; }
# Blocks 500-503 go back to the snapshot: the rewrite of them is lost.
dd if="$TMP/snap.img" of="$DEV" bs=$BLK skip=500 seek=500 count=4 \
	oflag=direct conv=notrunc status=none
# Block 1000's data lands on block 1001 (and on 3001, the other slave's).
dd if="$DEV" of="$DEV" bs=$BLK skip=1000 seek=1001 count=1 iflag=direct \
	oflag=direct conv=notrunc status=none
dd if="$DEV" of="$DEV" bs=$BLK skip=1000 seek=3001 count=1 iflag=direct \
	oflag=direct conv=notrunc status=none
run verify 60
[ "$rc" -eq 4 ] || { fail_show "$TMP/verify.err" "run with lost writes exited $rc, expected 4"; }
want=$( (printf '%s lost\n' $((500 * BLK)) $((501 * BLK)) $((502 * BLK)) $((503 * BLK))
	printf '%s misdirected\n' $((1001 * BLK)) $((3001 * BLK))) | sort -n)
got=$(mismatches verify)
[ "$got" = "$want" ] || { fail_show "$TMP/verify.err" "found: $got, expected: $want"; }

# ---- a slave killed with writes in flight -------------------------------
vdb rewrite 50 "rd=rdw,wd=wd1,format=only"
run rewrite 60 # every block good again
[ "$rc" -eq 0 ] || { fail_show "$TMP/rewrite.err" "rewrite exited $rc"; }
vdb crash 100000 "rd=rdc,wd=wd1,elapsed=6,interval=1" \
	"rd=rdd,wd=wd1,elapsed=2,interval=1"
"$LOCKSTEP" run "$TMP/crash.vdb" -o "$TMP/out-crash" > "$TMP/crash.txt" \
	2> "$TMP/crash.err" &
master=$!
PIDS+=($master)
kill_slave "$master" local-1 "$TMP/crash.txt"
# The next rd would cut the sd anew: it is not run, the run is aborted.
[ "$rc" -eq 2 ] || { fail_show "$TMP/crash.err" "run that lost a slave exited $rc, expected 2"; }
grep -q "slave local-1 is gone, so its part of the sds has no owner" "$TMP/crash.err" ||
	{ fail_show "$TMP/crash.err" "the loss of local-1 did not stop the validated run"; }
# What local-1's journal says the kill left in flight: blocks whose
# intent record has no completion (8-byte records after a 160-byte
# header: block << 16 | generation << 8 | type, 1 intent, 2 done, 3
# forget). Almost always some; a kill between two batches of writes may
# leave none, and the slave must then say nothing of the kind.
inflight=$(/usr/bin/python3 "$HERE/jnl_pending.py" 160 "$J/sd1.local-1.jnl")
flip 10
flip 3500
run verify 60
[ "$rc" -eq 4 ] || { fail_show "$TMP/verify.err" "validate after the kill exited $rc, expected 4"; }
want=$(printf '%s corrupt\n' $((10 * BLK)) $((3500 * BLK)))
got=$(mismatches verify)
[ "$got" = "$want" ] || { fail_show "$TMP/verify.err" "after the kill found: $got, expected only: $want"; }
if [ "$inflight" -gt 0 ]; then
	grep -q "sd sd1: $inflight blocks were being written when the journal ended" "$TMP/verify.err" ||
		{ fail_show "$TMP/verify.err" "the journal ended with $inflight writes in flight and the slave did not say so"; }
else
	echo "note: the kill left no write in flight in the journal"
	! grep -q "blocks were being written when the journal ended" "$TMP/verify.err" ||
		fail "the slave speaks of writes in flight its journal does not have"
fi

# ---- data_errors= decides: more mismatches than it allows abort ---------
# (counted per slave, as I/O errors are: local-1 now has blocks 10 and 20)
flip 20
vdb strict 1 "rd=rdv,wd=wd1,validate=only,interval=1"
run strict 60
[ "$rc" -eq 2 ] || { fail_show "$TMP/strict.err" "2 mismatches on a slave with data_errors=1 exited $rc, expected 2"; }
grep -q "more than data_errors=1" "$TMP/strict.err" ||
	fail "the abort does not name data_errors="

# ---- per sd: damage is counted at the sd that has it --------------------
truncate -s $((BLK * 1024)) "$TMP/dev2.img"
DEV2=$(losetup -f --show "$TMP/dev2.img") || fail "losetup failed"
# two NAME RDS...: sd1 and sd2 (a second loop device) in one wd.
two() {
	local name=$1
	shift
	{
		echo "validate=yes"
		echo "journal=$TMP/journal2"
		echo "data_errors=50"
		echo "formatxfersize=64k"
		echo "sd=sd1,lun=$DEV,openflags=o_direct,threads=8"
		echo "sd=sd2,lun=$DEV2,openflags=o_direct,threads=8"
		echo "wd=wd2,sd=(sd1,sd2),xfersize=4k,rdpct=50"
		printf '%s\n' "$@"
	} > "$TMP/$name.vdb"
}
two twof "rd=rdf,wd=wd2,format=only"
run twof 60
[ "$rc" -eq 0 ] || { fail_show "$TMP/twof.err" "format of two sds exited $rc"; }
[ "$(json twof "[(s['sd'], s['written'] > 0) for s in d['runs'][0]['validation']['sds']]")" = "[('sd1', True), ('sd2', True)]" ] ||
	fail "summary.json: the format of two sds did not count written blocks at each"
flip 100 "$DEV2"
flip 900 "$DEV2"
two twov "rd=rdv,wd=wd2,validate=only,interval=1"
run twov 60
[ "$rc" -eq 4 ] || { fail_show "$TMP/twov.err" "two sds with damage on sd2 exited $rc, expected 4"; }
# (the validate pass reads every block of both: 4096 and 1024)
[ "$(json twov "[(s['sd'], s['verified'], s['mismatched']) for s in d['runs'][0]['validation']['sds']]")" = "[('sd1', 4096, 0), ('sd2', 1024, 2)]" ] ||
	{ fail_show "$TMP/twov.txt" "summary.json: the 2 damaged blocks are not counted at sd2 alone"; }
grep -q "validation rdv validate sd2: 0 blocks written, 1024 verified, 2 mismatches" "$TMP/twov.txt" ||
	{ fail_show "$TMP/twov.txt" "the console does not count the damage at sd2"; }
sds_add_up twof
sds_add_up twov
echo "PASS"
