# streams=, stride= and maxdata= (Vdbench's) end to end: `lockstep check`
# echoes them in text and --json; a run with streams= and one with
# stride= complete with I/O on two slaves; streams=4 with seekpct=eof
# writes a zeroed file whole (every stream one pass, the one record
# outside lockstep); and a maxdata= run ends early by lockstep's own
# record: summary.json's run says it ended on maxdata, its measured
# bytes are at least the limit and it has fewer intervals than elapsed=
# asked (never the wall clock); maxdata= as a multiple of sds without
# size= is maxdata_sizes.sh's. Every stream's and stride's offset is
# held by tests/test_workload.c, where each one is seen.
source "$(dirname "$0")/lib.sh"

truncate -s 16m "$TMP/d1.dat"
cat > "$TMP/t.vdb" <<VDB
* integration: independent sequential streams and skip-sequential I/O
sd=sd1,lun=$TMP/d1.dat,size=16m,threads=8,openflags=o_direct
wd=wd1,sd=sd1,xfersize=64k,rdpct=0,streams=4
wd=wd2,sd=sd1,xfersize=4k,rdpct=50,stride=(4k,64k)
rd=r1,wd=wd1,iorate=max,elapsed=2,interval=1
rd=r2,wd=wd2,iorate=max,elapsed=2,interval=1
VDB
run_bounded 30 "$LOCKSTEP" check "$TMP/t.vdb" > "$TMP/check.txt" 2>&1
[ "$rc" -eq 0 ] || fail_show "$TMP/check.txt" "lockstep check exited $rc"
for want in "seekpct=0 skew=100 range=(0,100) streams=4" \
	"seekpct=100 skew=100 range=(0,100) stride=(4k,64k)"; do
	grep -qF "$want" "$TMP/check.txt" || fail_show "$TMP/check.txt" "check does not say $want"
done
run_bounded 30 "$LOCKSTEP" check --json "$TMP/t.vdb" > "$TMP/check.json" 2>&1
python3 - "$TMP/check.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
w1, w2 = d["phases"][0]["wds"][0], d["phases"][1]["wds"][0]
assert w1["streams"] == 4 and w1["seekpct"] == 0, w1
assert w1["stride_max"] == 0, w1
assert (w2["stride_min"], w2["stride_max"]) == (4096, 65536), w2
assert w2["streams"] == 0, w2
PY

run_bounded 60 "$LOCKSTEP" run "$TMP/t.vdb" -o "$TMP/out" --local-slaves 2 > "$TMP/console.txt" 2> "$TMP/stderr.txt"
[ "$rc" -eq 0 ] || fail_show "$TMP/stderr.txt" "lockstep run exited $rc"
python3 - "$TMP/out/summary.json" <<'PY'
import json, sys
runs = json.load(open(sys.argv[1]))["runs"]
assert [r["name"] for r in runs] == ["r1", "r2"], runs
for r in runs:
    assert r["totals"]["ops"] > 0, r["name"]
    assert "end" not in r, r  # no maxdata=: nothing to say
PY

# streams=4 with seekpct=eof: each stream one pass over its quarter, so
# the zeroed file is written whole and the phase ends by itself.
truncate -s 16m "$TMP/d2.dat"
cat > "$TMP/e.vdb" <<VDB
sd=sd1,lun=$TMP/d2.dat,size=16m,threads=8,openflags=o_direct
wd=wd1,sd=sd1,xfersize=64k,rdpct=0,streams=4,seekpct=eof
rd=r1,wd=wd1,iorate=max,elapsed=60,interval=1
VDB
run_bounded 120 "$LOCKSTEP" run "$TMP/e.vdb" -o "$TMP/e" --local-slaves 2 > "$TMP/e.txt" 2>&1
[ "$rc" -eq 0 ] || fail_show "$TMP/e.txt" "streams eof run exited $rc"
python3 - "$TMP/d2.dat" "$TMP/e/summary.json" <<'PY'
import json, sys
data = open(sys.argv[1], "rb").read()
blank = [i for i in range(0, len(data), 65536) if not data[i : i + 65536].strip(b"\0")]
assert not blank, ("64k blocks never written", blank[:8])
run = json.load(open(sys.argv[2]))["runs"][0]
assert run["totals"]["write_bytes"] == 16 << 20, run["totals"]
PY

# maxdata=1m: the phase ends with the interval after the one that passed
# it, long before elapsed=30, and the run's record says so.
cat > "$TMP/m.vdb" <<VDB
sd=sd1,lun=$TMP/d1.dat,size=16m,threads=4,openflags=o_direct
wd=wd1,sd=sd1,xfersize=64k,rdpct=0,seekpct=0
rd=r1,wd=wd1,iorate=max,elapsed=30,interval=1,maxdata=1m
VDB
run_bounded 120 "$LOCKSTEP" run "$TMP/m.vdb" -o "$TMP/m" --local-slaves 2 > "$TMP/m.txt" 2>&1
[ "$rc" -eq 0 ] || fail_show "$TMP/m.txt" "maxdata run exited $rc"
python3 - "$TMP/m/summary.json" <<'PY'
import json, sys
run = json.load(open(sys.argv[1]))["runs"][0]
assert run["end"] == "maxdata", run
assert run["maxdata_bytes"] == 1 << 20, run
assert run["totals"]["bytes"] >= run["maxdata_bytes"], run["totals"]
assert run["intervals"] == run["maxdata_cut_intervals"] < 30, run
PY
grep -q "^ended on maxdata=1048576 bytes" "$TMP/m/summary.txt" ||
	fail_show "$TMP/m/summary.txt" "summary.txt does not say the run ended on maxdata"
grep -q "reached maxdata=1048576 bytes" "$TMP/m.txt" ||
	fail_show "$TMP/m.txt" "the console does not say maxdata was reached"

# maxdata=2 without size= (the slaves' sizes): maxdata_sizes.sh.
echo "PASS"
