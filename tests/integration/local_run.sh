# A real master and 3 real local slaves over ZeroMQ on temporary files for a
# few seconds; the results folder must add up exactly.
source "$(dirname "$0")/lib.sh"

cat > "$TMP/t.vdb" <<VDB
* integration: 3 local slaves, two files, 70% read random
sd=sd1,lun=$TMP/d1.dat,size=32m,threads=6,openflags=o_direct
sd=sd2,lun=$TMP/d2.dat,size=32m,threads=3
wd=wd1,sd=(sd1,sd2),xfersize=4k,rdpct=70,seekpct=100
rd=r1,wd=wd1,iorate=max,elapsed=3,warmup=1,interval=1
VDB

run_bounded 60 "$LOCKSTEP" run "$TMP/t.vdb" -o "$TMP/out" --local-slaves 3 > "$TMP/console.txt" 2> "$TMP/stderr.txt"
cat "$TMP/console.txt"
[ "$rc" -eq 0 ] || { fail_show "$TMP/stderr.txt" "lockstep run exited $rc"; }
grep -q "avg_2-4" "$TMP/console.txt" || fail "no avg_2-4 line"
for k in "IOPS = " "THROUGHPUT = " "LATENCY = " "R_LATENCY = " "W_LATENCY = " "95%tile_LAT = " "99%tile_LAT = "; do
	grep -q "^$k" "$TMP/console.txt" || fail "no '$k' line in the summary"
done
for f in summary.json summary.txt intervals.csv lockstep.log t.vdb r1.hgrm; do
	[ -s "$TMP/out/$f" ] || fail "results folder lacks $f"
done
python3 "$HERE/check_results.py" "$TMP/out" --rdpct 70 --slaves 3
# The merged distribution holds every measured I/O; the start skew of
# three local slaves is small.
python3 - "$TMP/out" <<'PY'
import json, re, sys
d = sys.argv[1]
run = json.load(open(d + "/summary.json"))["runs"][0]
hgrm = open(d + "/r1.hgrm").read()
total = int(re.search(r"Total count\s*=\s*(\d+)", hgrm).group(1))
assert total == run["totals"]["ops"], (total, run["totals"]["ops"])
mx = float(re.search(r"#\[Max\s*=\s*([0-9.]+)", hgrm).group(1))
assert abs(mx - run["totals"]["lat_max_ms"]) < 0.001, (mx, run["totals"]["lat_max_ms"])
assert 0 <= run["start_skew_ns"] < 50e6, run["start_skew_ns"]
# The skew's error bound: the clock bounds of the earliest and the latest
# slave, each under 2 ms (below), so under 4 ms in all.
assert 0 <= run["start_skew_bound_ns"] < 4e6, run["start_skew_bound_ns"]
# Local slaves share the master's clock: the true offset is 0, so it must
# lie within the error bound, and the bound (half the best ping's round
# trip over loopback) must be small. A pong read late (after a batching
# sleep, say) inflates both.
for s in json.load(open(d + "/summary.json"))["slaves"]:
    off, err = s["clock_offset_ns"], s["clock_error_ns"]
    assert abs(off) <= err, (s["name"], off, err)
    assert err < 2e6, (s["name"], "clock error %d ns" % err)
    # Over loopback the clock datagrams answer, and agree with the pings.
    assert s["clock_source"] == "datagrams", (s["name"], s["clock_source"])
print("ok: hgrm holds %d I/Os; start skew %.3f ms" % (total, run["start_skew_ns"] / 1e6))
PY
grep -q "^Run r1: start skew [0-9.]* ms ± [0-9.]* ms over 3 slaves" "$TMP/console.txt" || fail "no start skew line"
grep -q "start skew [0-9.]* ms ± [0-9.]* ms)" "$TMP/out/summary.txt" || fail "no start skew in summary.txt"

# Overrides: -e 2 -w 0 -i 1 gives exactly 2 intervals, all measured.
run_bounded 60 "$LOCKSTEP" run "$TMP/t.vdb" -o "$TMP/out2" --local-slaves 2 -e 2 -w 0 -i 1 > "$TMP/console2.txt" 2>&1
[ "$rc" -eq 0 ] || { fail_show "$TMP/console2.txt" "run with overrides exited $rc"; }
python3 "$HERE/check_results.py" "$TMP/out2" --rdpct 70 --slaves 2
grep -q "avg_1-2" "$TMP/console2.txt" || fail "overrides not applied (no avg_1-2)"

# One slave: its percentiles, which come from its own histograms, equal the
# run's, which come from the master's merge (check_results compares them).
run_bounded 60 "$LOCKSTEP" run "$TMP/t.vdb" -o "$TMP/out3" --local-slaves 1 -e 2 -w 0 -i 1 > "$TMP/console3.txt" 2>&1
[ "$rc" -eq 0 ] || { fail_show "$TMP/console3.txt" "run with one slave exited $rc"; }
python3 "$HERE/check_results.py" "$TMP/out3" --rdpct 70 --slaves 1

# The reporting threads run ahead of the workers: in a running slave, the
# main (session) thread and ZeroMQ's I/O thread sit 5 nice steps above the
# nice value the slave started with, and its workers at that value.
base=$(nice)
run_bounded 60 nice -n 3 "$LOCKSTEP" run "$TMP/t.vdb" -o "$TMP/out4" --local-slaves 1 -e 4 -w 0 -i 1 > "$TMP/console4.txt" 2>&1 &
seen=
for _ in $(seq 1 100); do
	sleep 0.1
	for p in $(pgrep -f -- "^lockstep slave .*--allow-path $TMP/" || true); do
		[ "$(awk '{print $19}' "/proc/$p/stat" 2>/dev/null)" = $((base + 3 - 5)) ] || continue
		io=$(grep -l "^ZMQbg/IO" /proc/"$p"/task/*/comm 2>/dev/null | head -1)
		[ -n "$io" ] || continue
		[ "$(awk '{print $19}' "${io%comm}stat")" = $((base + 3 - 5)) ] || continue
		# A worker: a thread at the starting value.
		for t in /proc/"$p"/task/*; do
			[ "$(awk '{print $19}' "$t/stat" 2>/dev/null)" = $((base + 3)) ] && seen=$p
		done
	done
	[ -n "$seen" ] && break
done
wait $! || true
[ -n "$seen" ] || { fail_show "$TMP/console4.txt" "no slave with its session at nice $((base + 3 - 5)) and a worker at $((base + 3))"; }
echo "PASS"
