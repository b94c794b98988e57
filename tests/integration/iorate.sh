# A fixed iorate= is a cluster total: the master splits it over the slaves,
# each slave over its workers, and the run follows the schedule: never
# ahead of it, behind only by what the recorded latencies explain, within
# the noise of a Poisson schedule (checked on lockstep's interval stamps
# and counts, not on this machine's clock, so a neighbour test or a CPU
# hog that stalls it for a tenth of a second cannot fail it).
source "$(dirname "$0")/lib.sh"

cat > "$TMP/r.vdb" <<VDB
sd=sd1,lun=$TMP/r.dat,size=32m,threads=8,openflags=o_direct
wd=wd1,sd=sd1,xfersize=4k,rdpct=70,seekpct=100
rd=r1,wd=wd1,iorate=3000,elapsed=4,warmup=1,interval=1
VDB
run_bounded 60 "$LOCKSTEP" run "$TMP/r.vdb" -o "$TMP/out" --local-slaves 2 > "$TMP/console.txt" 2>&1
[ "$rc" -eq 0 ] || { fail_show "$TMP/console.txt" "lockstep run exited $rc"; }
python3 "$HERE/check_results.py" "$TMP/out" --rdpct 70 --slaves 2
python3 - "$TMP/out" 3000 8 "$HERE" <<'PY'
import json, math, sys
d, rate, depth = sys.argv[1], float(sys.argv[2]), int(sys.argv[3])
sys.path.insert(0, sys.argv[4])
import schedule
run = json.load(open(d + "/summary.json"))["runs"][0]
assert run["iorate"] == rate, run["iorate"]
# Never ahead of the schedule, behind only by what the recorded latencies
# explain (schedule.py): on lockstep's stamps and counts, not on this
# machine's clock.
rows = schedule.series(d)
owed = schedule.check(rows, rate, depth)
# The run's figure: the measured intervals' I/O over their stamped time,
# the split over 2 slaves and their workers adding up to the cluster's
# rate (not twice it, not half). It is the schedule's count between the
# warmup's end and the phase's end, so within the noise at both ends, plus
# what was owed at the warmup's end (caught up in the measure), minus what
# the last interval's latency says the phase's end cut off.
meas = [r for r in rows if r["phase"] == "measure"]
secs = (meas[-1]["end_ns"] - meas[0]["start_ns"]) / 1e9
tw = (meas[0]["start_ns"] - rows[0]["start_ns"]) / 1e9
owed_w = owed[len(rows) - len(meas) - 1]
ops = run["totals"]["ops"]
assert ops == sum(r["ops"] for r in meas), ops
noise = 5 * math.sqrt(rate * (tw + secs)) + 5 * math.sqrt(rate * tw) + 2 * depth
cut = rate * meas[-1]["resp_max_ms"] / 1e3
assert rate * secs - noise - cut <= ops <= rate * secs + noise + max(owed_w, 0), \
    (ops, secs, owed_w, cut)
print("ok: %.1f IO/s for %.0f asked; owed at each interval's end %s" % (
    run["totals"]["iops"], rate, ["%.0f" % a for a in owed]))
PY

# A rate the target cannot reach (one I/O in flight): the run says by how
# much it fell short, on the console and in the summary.
cat > "$TMP/slow.vdb" <<VDB
sd=sd1,lun=$TMP/r.dat,size=32m,threads=2,openflags=(o_direct,o_dsync)
wd=wd1,sd=sd1,xfersize=1m,rdpct=0,seekpct=100
rd=r1,wd=wd1,iorate=10000000,elapsed=2,interval=1
VDB
run_bounded 60 "$LOCKSTEP" run "$TMP/slow.vdb" -o "$TMP/slow" --local-slaves 2 > "$TMP/slow.txt" 2>&1
[ "$rc" -eq 0 ] || { fail_show "$TMP/slow.txt" "the unreachable-rate run exited $rc"; }
grep -q "^iorate=1e+07 not reached: [0-9.]* IO/s, [0-9.]*% short" "$TMP/slow.txt" || { fail_show "$TMP/slow.txt" "no shortfall line"; }
python3 - "$TMP/slow" <<'PY'
import json, sys
r = json.load(open(sys.argv[1] + "/summary.json"))["runs"][0]
want = 100.0 * (1e7 - r["totals"]["iops"]) / 1e7
# The JSON carries 6 significant digits.
assert abs(r["iorate_shortfall_pct"] - want) < 1e-3 and want > 90, (r["iorate_shortfall_pct"], want)
PY
echo "PASS"
