# Data validation with dedupratio=2 end to end on a file (two local
# slaves, each owning half of it, journaled):
# - a clean run (format, mixed random I/O of whole 16k dedup units, a
#   validate=only pass) exits 0, verifies blocks and finds no mismatch;
# - the file then holds about half as many distinct 16k units as units
#   (measured by hashing them: between the flipflop's bound, 1.5, less a
#   margin for the partial last period, and 2 plus the same margin);
# - after a rewrite (format=only: every key flips), another process
#   changes the file: a byte in a duplicate block and in a unique block
#   (corrupt), another dedup set's block over a duplicate (misdirected),
#   and a duplicate block back from a copy taken before the rewrite
#   (lost). The validate=only run reports exactly the first four blocks, each with its
#   kind, and exits 4 (degraded, within data_errors=);
# - the same pass without dedupratio= is refused: the journals say they
#   were written with duplicates.
# Only the test's own file is written, never while lockstep runs.
source "$(dirname "$0")/lib.sh"
trap cleanup EXIT

BLK=4096
UNIT=16384
F="$TMP/d.dat"
J="$TMP/journal"

vdb() { # NAME RDS...
	local name=$1
	shift
	{
		echo "validate=yes"
		echo "journal=$J"
		echo "data_errors=50"
		echo "dedupratio=2"
		echo "dedupunit=16k"
		echo "formatxfersize=64k"
		echo "sd=sd1,lun=$F,size=8m,threads=4"
		echo "wd=wd1,sd=sd1,xfersize=(16k,50,32k,50),rdpct=50"
		printf '%s\n' "$@"
	} > "$TMP/$name.vdb"
}

run() { # NAME SECS
	run_bounded "$2" "$LOCKSTEP" run "$TMP/$1.vdb" -o "$TMP/out-$1" \
		> "$TMP/$1.txt" 2> "$TMP/$1.err"
}

mismatches() { # NAME: "offset kind" per logged mismatch, sorted
	grep -o 'data validation: sd sd1 offset [0-9]*: [a-z-]*' "$TMP/$1.err" |
		awk '{print $6, $7}' | tr -d ':' | sort -n || true
}

# ---- a clean run --------------------------------------------------------
vdb clean "rd=rd1,wd=wd1,format=yes,elapsed=2,interval=1" \
	"rd=rd2,wd=wd1,validate=only,interval=1"
run clean 60
[ "$rc" -eq 0 ] || { fail_show "$TMP/clean.err" "clean run exited $rc"; }
grep -q "validation rd2 validate: 0 blocks written, [1-9][0-9]* verified, 0 mismatches" "$TMP/clean.txt" ||
	{ fail_show "$TMP/clean.txt" "the validate pass verified nothing or found mismatches"; }
grep -q "validation rd1: [1-9][0-9]* blocks written, [1-9][0-9]* verified, 0 mismatches" "$TMP/clean.txt" ||
	{ fail_show "$TMP/clean.txt" "the mixed run did not validate"; }

# ---- the dedup ratio the file holds -------------------------------------
ratio=$(/usr/bin/python3 - "$F" $UNIT <<'PY'
import hashlib, sys
d = open(sys.argv[1], 'rb').read()
u = int(sys.argv[2])
units = [d[i:i + u] for i in range(0, len(d), u)]
print('%.3f' % (len(units) / len(set(hashlib.sha1(x).digest() for x in units))))
PY
)
echo "dedup ratio held by the file: $ratio (asked 2)"
/usr/bin/python3 -c "import sys; r = float(sys.argv[1]); sys.exit(not 1.4 <= r <= 2.1)" "$ratio" ||
	fail "the file holds a dedup ratio of $ratio, not about 2"

# ---- damage between two runs --------------------------------------------
cp "$F" "$TMP/before.dat"
vdb rewrite "rd=rdw,wd=wd1,format=only"
run rewrite 60
[ "$rc" -eq 0 ] || { fail_show "$TMP/rewrite.err" "rewrite exited $rc"; }
# Pick the blocks from their headers ("LsVd": a duplicate's, with its set
# at bytes 8..15 and its place in the unit at 20..23; "LsVl": unique's)
# and damage them; print "offset kind" of what must be found.
want=$(/usr/bin/python3 - "$F" "$TMP/before.dat" $BLK <<'PY'
import struct, sys
f, before, B = sys.argv[1], sys.argv[2], int(sys.argv[3])
d = bytearray(open(f, 'rb').read())
old = open(before, 'rb').read()
n = len(d) // B
def hdr(b):
    h = d[b * B:b * B + 32]
    return h[:4], struct.unpack_from('<Q', h, 8)[0], struct.unpack_from('<I', h, 20)[0]
dups = [b for b in range(n) if hdr(b)[0] == b'LsVd']
uniq = [b for b in range(n) if hdr(b)[0] == b'LsVl']
assert len(dups) > 100 and len(uniq) > 100, (len(dups), len(uniq))
want = []
# A byte in a duplicate's data and in a unique block's.
a, u = dups[10], uniq[300]
for b in (a, u):
    d[b * B + 1000] ^= 0x5a
    want.append((b * B, 'corrupt'))
# Another set's block over a duplicate (from the other slave's half).
c = dups[len(dups) // 4]
other = next(x for x in reversed(dups) if hdr(x)[1] != hdr(c)[1])
d[c * B:(c + 1) * B] = d[other * B:(other + 1) * B]
want.append((c * B, 'misdirected'))
# A duplicate back to its content before the rewrite: its key flipped.
l = dups[len(dups) // 2]
assert old[l * B:(l + 1) * B] != d[l * B:(l + 1) * B]
d[l * B:(l + 1) * B] = old[l * B:(l + 1) * B]
want.append((l * B, 'lost'))
open(f, 'r+b').write(d)
for off, k in sorted(want):
    print(off, k)
PY
)
[ "$(echo "$want" | wc -l)" -eq 4 ] || fail "damage script: $want"
vdb verify "rd=rdv,wd=wd1,validate=only,interval=1"
run verify 60
[ "$rc" -eq 4 ] || { fail_show "$TMP/verify.err" "run with damaged blocks exited $rc, expected 4 (degraded)"; }
got=$(mismatches verify)
[ "$got" = "$want" ] || { fail_show "$TMP/verify.err" "found: $got, expected: $want"; }
grep -q "misdirected: expected dedup set [0-9]* sector [0-9]* key [12], found dedup set" "$TMP/verify.err" ||
	{ fail_show "$TMP/verify.err" "the misdirected duplicate's message names no dedup sets"; }
echo "ok: found exactly: $(echo $got)"

# ---- the journals know the pattern they were written with --------------
# The same pass without dedupratio= would check duplicates as unique
# blocks: refused, naming the journal.
grep -v '^dedupratio=' "$TMP/verify.vdb" > "$TMP/nodedup.vdb"
run nodedup 60
[ "$rc" -ne 0 ] || { fail_show "$TMP/nodedup.err" "a pass without dedupratio= over journals written with it exited 0"; }
grep -q "journal $J/sd1.local-[12].jnl was written with dedupratio=, and this run has none" "$TMP/nodedup.err" ||
	{ fail_show "$TMP/nodedup.err" "the refusal does not name the journal and why"; }
echo "PASS"
