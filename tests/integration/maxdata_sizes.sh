# maxdata= as a multiple of the sds' size without size= (Vdbench's rule,
# CollectSlaveStats.getLimit: up to 100 it is that many times the summed
# size of the sds the rd uses, each whole whatever its range=): two files
# of 8 MiB and 4 MiB, no size=, maxdata=2. The slave reports each opened
# target's size in its ready (protocol 14) and the master's limit is
# 2 x 12 MiB. Judged by lockstep's own record, never the wall clock:
# summary.json's run says it ended on maxdata with that limit, the
# measured bytes of intervals.csv reach it, and the phase ended with the
# interval after the one whose bytes passed it (one local slave: no slave
# can be ahead of the merge, so the cut is exact); `lockstep check` says
# the limit is known at the run.
source "$(dirname "$0")/lib.sh"

truncate -s 8m "$TMP/a.dat"
truncate -s 4m "$TMP/b.dat"
cat > "$TMP/m.vdb" <<VDB
sd=sd1,lun=$TMP/a.dat,threads=2,openflags=o_direct
sd=sd2,lun=$TMP/b.dat,threads=2,openflags=o_direct,range=(0,50)
wd=wd1,sd=sd*,xfersize=64k,rdpct=0,seekpct=0
rd=r1,wd=wd1,iorate=100,elapsed=30,interval=1,maxdata=2
VDB
run_bounded 30 "$LOCKSTEP" check "$TMP/m.vdb" > "$TMP/check.txt" 2>&1
[ "$rc" -eq 0 ] || fail_show "$TMP/check.txt" "lockstep check exited $rc"
grep -qF "maxdata=2 (times the sds' size, known at the run)" "$TMP/check.txt" ||
	fail_show "$TMP/check.txt" "check does not say the limit is known at the run"

run_bounded 90 "$LOCKSTEP" run "$TMP/m.vdb" -o "$TMP/out" --local-slaves 1 > "$TMP/console.txt" 2> "$TMP/err.txt"
[ "$rc" -eq 0 ] || fail_show "$TMP/err.txt" "maxdata run exited $rc"
python3 - "$TMP/out" <<'PY' || fail_show "$TMP/console.txt" "the run's record of maxdata=2"
import csv, json, sys
out = sys.argv[1]
limit = 2 * (12 << 20)  # twice 8 MiB + 4 MiB, range= does not count
run = json.load(open(out + "/summary.json"))["runs"][0]
assert run["end"] == "maxdata", run
assert run["maxdata_bytes"] == limit, (run["maxdata_bytes"], limit)
rows = [r for r in csv.DictReader(open(out + "/intervals.csv"))
        if r["run"] == "r1" and r["phase"] == "measure"]
b = [int(r["bytes"]) for r in rows]
n = len(b)
assert n == run["intervals"] == run["maxdata_cut_intervals"] < 30, (n, run)
assert sum(b) == run["totals"]["bytes"] >= limit, (sum(b), run["totals"])
# The first interval whose bytes passed the limit, then one more.
s, c = 0, None
for i, x in enumerate(b):
    s += x
    if s > limit:
        c = i
        break
assert c is not None, b
assert n == c + 2, ("ended %d intervals after the one that passed" % (n - c - 1), b)
print("limit %d, intervals %s: passed in %d, ended after %d" % (limit, b, c + 1, n))
PY
grep -q "^ended on maxdata=25165824 bytes" "$TMP/out/summary.txt" ||
	fail_show "$TMP/out/summary.txt" "summary.txt does not say the run ended on maxdata"
echo "PASS"
