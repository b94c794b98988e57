# The SLO search (iorate=slo) against a device whose capacity the test
# sets: a local slave reads a 64 MiB loop device with O_DIRECT from inside
# a cgroup v1 blkio group capped at CAP reads a second
# (blkio.throttle.read_iops_device). Below the cap the device answers in
# a few ms (deterministic arrivals: no queue forms); at the cap the 1024
# I/Os in flight of the max run wait 1024 / CAP = 2 s each (Little's
# law), and a fixed rate above it queues without bound (lockstep measures
# latency from each I/O's open-loop schedule). The objective p99<=1s is
# met up to about the cap and broken at it. It is that high because a
# loaded 2-core machine stalls the slave or the throttle's dispatch for
# 100-550 ms now and then (seen with p99<=100ms and 128 threads: steps at
# 70% of the cap failed), which is 1% of a 5 s step's I/O; 1 s leaves 2x
# above such stalls and 2x below the max run. The search must land within
# 10% of CAP. The test checks:
# - the answer (summary.json slo[0].answer_iops) is within 10% of CAP,
#   the bracket is within the stated precision, the search said "found";
# - every step in summary.json agrees with the run lockstep wrote for it
#   (runs[]: its iorate, its measured IOPS) and with the objective (met
#   <=> value <= target and the rate reached), the bracket replayed from
#   the steps is the one reported, and the steps are at most the planned;
# - the console has a line per step and the answer; summary.txt the block.
source "$(dirname "$0")/lib.sh"

CAP=500
LOOP=
if [ ! -w /sys/fs/cgroup/blkio/cgroup.procs ]; then
	echo "SKIP: cgroup v1 blkio is not mounted writable under /sys/fs/cgroup/blkio"
	exit 77
fi
source "$(dirname "$0")/loop_lib.sh"
cleanup_slo() {
	cleanup
	loop_down
}
trap cleanup_slo EXIT
loop_up /sys/fs/cgroup/blkio/lockstep-slo-$$
echo "$MM $CAP" > "$CG/blkio.throttle.read_iops_device"

cat > "$TMP/s.vdb" <<VDB
sd=sd1,lun=$LOOP,threads=1024,openflags=o_direct
wd=wd1,sd=sd1,xfersize=4k,rdpct=100
rd=r1,wd=wd1,iorate=slo,slo=p99:1s,sloprecision=5,distribution=deterministic,elapsed=5,warmup=1,interval=1
VDB
# The shell that execs lockstep enters the group first: the master's
# local slave, its workers and their io_uring threads are born in it.
run_bounded 150 sh -c 'echo $$ > "$1/cgroup.procs"; shift; exec "$@"' sh "$CG" \
	"$LOCKSTEP" run "$TMP/s.vdb" -o "$TMP/out" --local-slaves 1 \
	> "$TMP/console" 2> "$TMP/err"
[ "$rc" -eq 0 ] || { cat "$TMP/console" "$TMP/err"; fail "run exited $rc"; }
grep "^SLO " "$TMP/console"
grep -q "^SLO p99<=1s: max run at .* IO/s: p99 .* ms over" "$TMP/console" ||
	fail "the console has no line for the max run"
grep -q "^SLO p99<=1s: step 1 at .* IO/s: p99 .* ms \(meets\|over\|short\)" "$TMP/console" ||
	fail "the console has no line for step 1"
grep -q "^SLO p99<=1s: max rate .* IO/s (bracket .*, precision 5%, [0-9]* steps)" "$TMP/console" ||
	fail "the console does not give the answer"
grep -q "^SLO search" "$TMP/out/summary.txt" || fail "summary.txt has no SLO block"

python3 - "$TMP/out" "$CAP" <<'PY'
import json, sys
out, cap = sys.argv[1], float(sys.argv[2])
s = json.load(open(out + "/summary.json"))
runs = {r["name"]: r for r in s["runs"]}
assert len(s["slo"]) == 1, s["slo"]
q = s["slo"][0]
assert q["objective"] == "p99<=1s" and q["target_ms"] == 1000, q
assert q["end"] == "found", q
steps = q["steps"]
assert steps[0]["run"] == "r1 slo=max" and "step" not in steps[0], steps[0]
assert 1 <= q["steps_run"] == len(steps) - 1 <= q["steps_planned"] == 7, q
# Every step is the run lockstep wrote for it.
lo, hi = 0, steps[0]["iops"]
for st in steps:
    r = runs[st["run"]]
    assert r["kind"] == ("slo-max" if st is steps[0] else "slo-step"), r
    assert abs(st["iops"] - r["totals"]["iops"]) <= 1e-6 * max(1, r["totals"]["iops"]), (st, r)
    # p99 over all I/O: the run's own p99 from the same merged histogram.
    assert abs(st["value_ms"] - r["totals"]["lat_p99_ms"]) <= 1e-6 * r["totals"]["lat_p99_ms"], (st, r["totals"])
    ss = r["steady_state"]
    assert st.get("steady") == ss.get("steady") and st.get("steady_not_judged") == ss.get("not_judged"), (st, ss)
    if st is steps[0]:
        assert r["iorate"] == 0 and st["rate"] == st["iops"], (st, r)
        assert not st["met"], st
        continue
    assert r["iorate"] == st["rate"] and r["slo_step"] == st["step"], (st, r)
    assert lo < st["rate"] < hi, ("a step outside its bracket", st, lo, hi)
    reached = st["iops"] >= st["rate"] * (1 - q["short_tolerance_pct"] / 100)
    want = reached and st["value_ms"] <= q["target_ms"]
    assert st["met"] == want, st
    assert st["verdict"] == ("meets" if want else "over" if reached else "short of its rate"), st
    if st["met"]:
        lo = st["rate"]
    else:
        hi = st["rate"]
assert q["bracket"] == [lo, hi], (q["bracket"], lo, hi)
assert q["answer_iops"] == lo and hi - lo <= q["precision_pct"] / 100 * q["max_iops"], q
# The throttle: the max run is held to it, the answer lands near it.
assert abs(q["max_iops"] - cap) <= 0.1 * cap, ("max run", q["max_iops"], cap)
assert abs(q["answer_iops"] - cap) <= 0.1 * cap, ("answer", q["answer_iops"], cap)
print("ok: answer %.0f IO/s for a cap of %.0f (bracket %.0f..%.0f, max %.0f, %d steps: %s)"
      % (q["answer_iops"], cap, lo, hi, q["max_iops"], q["steps_run"],
         ", ".join("%.0f:%.3gms:%s" % (x["rate"], x["value_ms"], x["verdict"]) for x in steps)))
PY

# report.html: the answer on the search's max run, as a browser draws it,
# the same line the console gave.
run_bounded 60 "$LOCKSTEP" report "$TMP/out" > "$TMP/rep" 2>&1
[ "$rc" -eq 0 ] || fail_show "$TMP/rep" "lockstep report exited $rc"
if dump_dom "$TMP/out/report.html" "$TMP/dom.html"; then
	said=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["slo"][0]["said"])' "$TMP/out/summary.json")
	grep -qxF "$said" "$TMP/console" || fail "summary.json's answer is not the console's: $said"
	said=$(python3 -c 'import html,sys; print(html.escape(sys.argv[1], quote=False))' "$said")
	grep -qF "class=\"badge slo\" data-end=\"found\">$said<" "$TMP/dom.html" ||
		fail "report.html has no badge with the SLO answer: $said"
	echo "ok: report.html gives the SLO answer"
else
	echo "no chromium: report.html's answer not checked"
fi
