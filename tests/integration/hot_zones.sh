# Vdbench's hotband= and fio's zoned random_distribution= end to end:
# `lockstep check` echoes them in text and --json; a run with two hot
# bands sharing an sd by skew= and a zoned wd completes with I/O on two
# slaves; and the shape of their writes on zeroed files, the one record
# outside lockstep: a hot band's writes land only in its band, the
# hottest write record (one percent of the band past its start, Vdbench's
# rule) written; zoned:90/5:10/5 writes only the first 10% of the range,
# both zones. The shares of every draw are held by tests/test_hotband.c,
# tests/test_dist.c and tests/test_workload.c, which see each offset.
source "$(dirname "$0")/lib.sh"

truncate -s 16m "$TMP/d1.dat"
cat > "$TMP/t.vdb" <<VDB
* integration: hot bands shared by skew, and fio's zones
sd=sd1,lun=$TMP/d1.dat,size=16m,threads=8,openflags=o_direct
wd=hot1,sd=sd1,xfersize=4k,hotband=(10,20),skew=40
wd=hot2,sd=sd1,xfersize=4k,rdpct=50,hotband=(60,70),skew=40
wd=z,sd=sd1,xfersize=4k,rdpct=50,random_distribution=zoned:50/5:30/15:20/
rd=r1,wd=(hot1,hot2,z),iorate=max,elapsed=2,interval=1
VDB
run_bounded 30 "$LOCKSTEP" check "$TMP/t.vdb" > "$TMP/check.txt" 2>&1
[ "$rc" -eq 0 ] || fail_show "$TMP/check.txt" "lockstep check exited $rc"
for want in "skew=40 range=(0,100) hotband=(10,20)" \
	"skew=40 range=(0,100) hotband=(60,70)" \
	"skew=20 range=(0,100) random_distribution=zoned:50/5:30/15:20/80"; do
	grep -qF "$want" "$TMP/check.txt" || fail_show "$TMP/check.txt" "check does not say $want"
done
run_bounded 30 "$LOCKSTEP" check --json "$TMP/t.vdb" > "$TMP/check.json" 2>&1
python3 - "$TMP/check.json" <<'PY'
import json, sys
wds = json.load(open(sys.argv[1]))["phases"][0]["wds"]
h1, h2, z = wds
assert h1["random_distribution"] == "hotband" and h1["hotband"] == [10, 20], h1
assert h2["hotband"] == [60, 70] and h2["skew"] == 40, h2
assert z["random_distribution"] == "zoned:50/5:30/15:20/80", z
assert "hotband" not in z, z
PY

run_bounded 60 "$LOCKSTEP" run "$TMP/t.vdb" -o "$TMP/out" --local-slaves 2 > "$TMP/console.txt" 2> "$TMP/stderr.txt"
[ "$rc" -eq 0 ] || fail_show "$TMP/stderr.txt" "lockstep run exited $rc"
python3 - "$TMP/out/summary.json" <<'PY'
import json, sys
run = json.load(open(sys.argv[1]))["runs"][0]
assert run["totals"]["ops"] > 0 and run["totals"]["write_bytes"] > 0, run["totals"]
PY

# Writes on zeroed files: where they land is their shape.
truncate -s 16m "$TMP/d2.dat" "$TMP/d3.dat"
cat > "$TMP/w.vdb" <<VDB
sd=sd1,lun=$TMP/d2.dat,size=16m,threads=8,openflags=o_direct
sd=sd2,lun=$TMP/d3.dat,size=16m,threads=8,openflags=o_direct
wd=hot,sd=sd1,xfersize=4k,rdpct=0,hotband=(40,60)
wd=z,sd=sd2,xfersize=4k,rdpct=0,random_distribution=zoned:90/5:10/5
rd=r1,wd=(hot,z),iorate=max,elapsed=2,interval=1
VDB
run_bounded 60 "$LOCKSTEP" run "$TMP/w.vdb" -o "$TMP/w" --local-slaves 2 > "$TMP/w.txt" 2>&1
[ "$rc" -eq 0 ] || fail_show "$TMP/w.txt" "write run exited $rc"
python3 - "$TMP/d2.dat" "$TMP/d3.dat" <<'PY'
import sys
size, blk = 16 << 20, 4096
def written(path):
    data = open(path, "rb").read()
    return [i // blk for i in range(0, len(data), blk) if data[i : i + blk].strip(b"\0")]
# hotband=(40,60): parts per billion of the whole sd, ends on whole 4k.
lo = -(-(size * 400000000 // 10**9) // blk) * blk
hi = size * 600000000 // 10**9 // blk * blk
n = (hi - lo) // 10**6 * 10**6 // blk   # Vdbench's records of the band
w = written(sys.argv[1])
assert w, "the hot band run wrote nothing"
outside = [b for b in w if not lo <= b * blk < hi]
assert not outside, ("hot band writes outside the band", outside[:8])
hottest = lo // blk + n // 100
assert hottest in w, ("the hottest write record was not written", hottest)
# zoned:90/5:10/5 on 4096 blocks: zones [0, 204) and [204, 409).
w = written(sys.argv[2])
assert w and max(w) < 4096 * 10 // 100, ("zoned writes past 10%", max(w))
assert any(b < 204 for b in w) and any(b >= 204 for b in w), "a zone got no writes"
PY
echo "PASS"
