# A fixed iorate= is a cluster total: the master splits it over the slaves,
# each slave over its workers, and the run reaches it within 5%.
source "$(dirname "$0")/lib.sh"

cat > "$TMP/r.vdb" <<VDB
sd=sd1,lun=$TMP/r.dat,size=32m,threads=8,openflags=o_direct
wd=wd1,sd=sd1,xfersize=4k,rdpct=70,seekpct=100
rd=r1,wd=wd1,iorate=3000,elapsed=4,warmup=1,interval=1
VDB
run_bounded 60 "$LOCKSTEP" run "$TMP/r.vdb" -o "$TMP/out" --local-slaves 2 > "$TMP/console.txt" 2>&1
[ "$rc" -eq 0 ] || { cat "$TMP/console.txt"; fail "lockstep run exited $rc"; }
python3 "$HERE/check_results.py" "$TMP/out" --rdpct 70 --slaves 2
python3 - "$TMP/out" <<'PY'
import csv, json, sys
d = sys.argv[1]
t = json.load(open(d + "/summary.json"))["runs"][0]["totals"]
assert abs(t["iops"] - 3000) <= 150, "run iops %.1f, asked 3000" % t["iops"]
for r in csv.DictReader(open(d + "/intervals.csv")):
    if r["phase"] == "measure":
        assert abs(float(r["iops"]) - 3000) <= 300, "interval %s: %s IO/s" % (r["interval"], r["iops"])
print("ok: %.1f IO/s for 3000 asked" % t["iops"])
PY
echo "PASS"
