# Cache hits (rhpct=, whpct=, hitarea=) and random_distribution= end to
# end: `lockstep check` echoes them, a run with them and their for-loops
# completes with I/O in every phase, and the written file itself shows where
# the writes went (the one record outside lockstep): with whpct=100 only the
# hit area (the first hitarea= bytes) is written, with whpct=0 never the hit
# area. The shares themselves (rhpct% of reads in the hit area within a
# binomial bound, zipf's skew) are held by tests/test_workload.c and
# tests/test_dist.c, where every offset is seen.
source "$(dirname "$0")/lib.sh"

# Zeroed files (not created by lockstep, which would fill them with random
# data), so that whatever is not zero afterwards was written by the run.
for f in d1 d2; do
	truncate -s 16m "$TMP/$f.dat"
done

cat > "$TMP/t.vdb" <<VDB
* integration: cache hits and skewed random offsets
sd=sd1,lun=$TMP/d1.dat,size=16m,threads=8,openflags=o_direct,hitarea=1m
wd=wd1,sd=sd1,xfersize=4k,rdpct=70,rhpct=80,whpct=20,random_distribution=zipf:1.2
rd=r1,wd=wd1,iorate=max,elapsed=2,interval=1,forrhpct=(0,80),forhitarea=(64k,1m)
VDB
run_bounded 30 "$LOCKSTEP" check "$TMP/t.vdb" > "$TMP/check.txt" 2>&1
[ "$rc" -eq 0 ] || fail_show "$TMP/check.txt" "lockstep check exited $rc"
for want in "hitarea=1m" "rhpct=80 whpct=20 random_distribution=zipf:1.2" \
	"rhpct=0 hitarea=64k" "rhpct=80 hitarea=1m"; do
	grep -qF "$want" "$TMP/check.txt" || fail_show "$TMP/check.txt" "check does not say $want"
done
run_bounded 30 "$LOCKSTEP" check --json "$TMP/t.vdb" > "$TMP/check.json" 2>&1
python3 - "$TMP/check.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["sds"][0]["hitarea"] == 1 << 20, d["sds"][0]
wds = [w for ph in d["phases"] for w in ph["wds"]]
assert len(wds) == 4, wds
assert all(w["random_distribution"] == "zipf:1.2" for w in wds), wds
assert sorted({w["rhpct"] for w in wds}) == [0, 80], wds
assert all(w["whpct"] == 20 for w in wds), wds
PY

run_bounded 60 "$LOCKSTEP" run "$TMP/t.vdb" -o "$TMP/out" --local-slaves 2 > "$TMP/console.txt" 2> "$TMP/stderr.txt"
[ "$rc" -eq 0 ] || fail_show "$TMP/stderr.txt" "lockstep run exited $rc"
python3 - "$TMP/out/summary.json" <<'PY'
import json, sys
runs = json.load(open(sys.argv[1]))["runs"]
names = [r["name"] for r in runs]
assert names == ["r1 rhpct=0 hitarea=64k", "r1 rhpct=0 hitarea=1m",
                 "r1 rhpct=80 hitarea=64k", "r1 rhpct=80 hitarea=1m"], names
for r in runs:
    assert r["totals"]["ops"] > 0, r["name"]
PY

# Where the writes went, from the file: whpct=100 writes only the hit
# area; whpct=0 (the hit area kept by rhpct=) never writes it.
check_written() { # FILE EXPECT: "hit" (only [0, 1m) written) or "miss"
	python3 - "$1" "$2" <<'PY'
import sys
data = open(sys.argv[1], "rb").read()
hit, miss = data[: 1 << 20], data[1 << 20 :]
hit_w = any(hit[i : i + 4096].strip(b"\0") for i in range(0, len(hit), 4096))
miss_w = any(miss[i : i + 4096].strip(b"\0") for i in range(0, len(miss), 4096))
if sys.argv[2] == "hit":
    assert hit_w and not miss_w, ("hit area written", hit_w, "miss area written", miss_w)
else:
    assert miss_w and not hit_w, ("hit area written", hit_w, "miss area written", miss_w)
PY
}
for case in "100 hit" "0 miss"; do
	set -- $case
	rm -rf "$TMP/w" && truncate -s 0 "$TMP/d2.dat" && truncate -s 16m "$TMP/d2.dat"
	cat > "$TMP/w.vdb" <<VDB
sd=sd1,lun=$TMP/d2.dat,size=16m,threads=4,openflags=o_direct,hitarea=1m
wd=wd1,sd=sd1,xfersize=(4k,50,64k,50),rdpct=0,whpct=$1,rhpct=50,random_distribution=pareto:0.2
rd=r1,wd=wd1,iorate=max,elapsed=1,interval=1
VDB
	run_bounded 60 "$LOCKSTEP" run "$TMP/w.vdb" -o "$TMP/w" --local-slaves 2 > "$TMP/w.txt" 2>&1
	[ "$rc" -eq 0 ] || fail_show "$TMP/w.txt" "whpct=$1 run exited $rc"
	check_written "$TMP/d2.dat" "$2" || fail "whpct=$1: the writes went outside the $2 area"
done

# A hit area too small for the transfers is refused before any I/O.
sed -i 's/hitarea=1m/hitarea=128k/' "$TMP/w.vdb"
run_bounded 60 "$LOCKSTEP" run "$TMP/w.vdb" -o "$TMP/bad" --local-slaves 1 > "$TMP/bad.txt" 2>&1
[ "$rc" -ne 0 ] || fail "a 128k hit area with 64k transfers was accepted"
grep -q "hitarea of 131072 bytes is less than 4 times the largest xfersize" "$TMP/bad.txt" ||
	fail_show "$TMP/bad.txt" "no reason for refusing the hit area"
echo "PASS"
