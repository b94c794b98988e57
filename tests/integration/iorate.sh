# A fixed iorate= is a cluster total: the master splits it over the slaves,
# each slave over its workers, and the run reaches it within 5%, each
# interval within 10% (or one stall and its catch-up within 5%).
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
rows = [r for r in csv.DictReader(open(d + "/intervals.csv")) if r["phase"] == "measure"]
v = [float(r["iops"]) for r in rows]
# Every interval within 10%, except where a stalled interval's I/Os were
# caught up in the next one (the schedule is open-loop: CI saw 965 then
# 1109 IO/s at 1000 in events_degrade): then the pair holds the rate
# within 5%, and no more than one such pair in the run.
stalls = 0
i = 0
while i < len(v):
    if abs(v[i] - 3000) <= 300:
        i += 1
        continue
    pair = v[i:i + 2] if i + 1 < len(v) else v[i - 1:i + 1]
    assert len(pair) == 2 and abs(sum(pair) - 6000) <= 300 and stalls == 0, \
        "interval %s: %.0f IO/s, not caught up (all: %s)" % (rows[i]["interval"], v[i], v)
    stalls += 1
    i += 2
print("ok: %.1f IO/s for 3000 asked" % t["iops"])
PY

# A rate the target cannot reach (one I/O in flight): the run says by how
# much it fell short, on the console and in the summary.
cat > "$TMP/slow.vdb" <<VDB
sd=sd1,lun=$TMP/r.dat,size=32m,threads=2,openflags=(o_direct,o_dsync)
wd=wd1,sd=sd1,xfersize=1m,rdpct=0,seekpct=100
rd=r1,wd=wd1,iorate=10000000,elapsed=2,interval=1
VDB
run_bounded 60 "$LOCKSTEP" run "$TMP/slow.vdb" -o "$TMP/slow" --local-slaves 2 > "$TMP/slow.txt" 2>&1
[ "$rc" -eq 0 ] || { cat "$TMP/slow.txt"; fail "the unreachable-rate run exited $rc"; }
grep -q "^iorate=1e+07 not reached: [0-9.]* IO/s, [0-9.]*% short" "$TMP/slow.txt" || { cat "$TMP/slow.txt"; fail "no shortfall line"; }
python3 - "$TMP/slow" <<'PY'
import json, sys
r = json.load(open(sys.argv[1] + "/summary.json"))["runs"][0]
want = 100.0 * (1e7 - r["totals"]["iops"]) / 1e7
# The JSON carries 6 significant digits.
assert abs(r["iorate_shortfall_pct"] - want) < 1e-3 and want > 90, (r["iorate_shortfall_pct"], want)
PY
echo "PASS"
