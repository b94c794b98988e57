# format=yes writes every sd's working set exactly once, split over the
# slaves and their workers, and reports its rate and duration; a
# seekpct=eof workload makes one pass and ends its phase early.
source "$(dirname "$0")/lib.sh"

cat > "$TMP/f.vdb" <<VDB
sd=sd1,lun=$TMP/f1.dat,size=24m,threads=4,openflags=o_direct
sd=sd2,lun=$TMP/f2.dat,size=8m,threads=4,range=(50,100)
wd=wd1,sd=(sd1,sd2),xfersize=4k,rdpct=100
wd=wd2,sd=sd1,xfersize=64k,rdpct=0,seekpct=eof
rd=r1,wd=wd1,elapsed=2,interval=1,format=yes
rd=r2,wd=wd2,elapsed=60,interval=1
VDB
run_bounded 90 "$LOCKSTEP" run "$TMP/f.vdb" -o "$TMP/out" --local-slaves 2 > "$TMP/console.txt" 2>&1
[ "$rc" -eq 0 ] || { fail_show "$TMP/console.txt" "lockstep run exited $rc"; }
grep -q "^format r1 format: 28.0 MiB written in" "$TMP/console.txt" || { fail_show "$TMP/console.txt" "no format summary line for 24 MiB + half of 8 MiB"; }
python3 - "$TMP/out" <<'PY'
import json, sys
s = json.load(open(sys.argv[1] + "/summary.json"))
runs = {r["name"]: r for r in s["runs"]}
f = runs["r1 format"]
assert f["kind"] == "format", f["kind"]
assert f["totals"]["write_bytes"] == 28 * 2**20, f["totals"]["write_bytes"]
assert f["totals"]["read_ops"] == 0
assert f["duration_s"] > 0 and f["format_mbps"] > 0, f
e = runs["r2"]
assert e["totals"]["write_bytes"] == 24 * 2**20, e["totals"]["write_bytes"]
assert e["intervals"] < 60, "the eof pass did not end the phase: %d intervals" % e["intervals"]
print("ok: format wrote 28 MiB once; the eof pass 24 MiB in %d intervals" % e["intervals"])
PY
echo "PASS"
