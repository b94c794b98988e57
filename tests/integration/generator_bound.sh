# The generator bottleneck warning (master/results/genwarn.c) against
# runs whose generator is busy or quiet by construction:
# - busy: 8 local slaves on this host with the null engine at iorate=max,
#   16 I/Os in flight each and one worker a core each (the default): 8
#   spinning workers a core, so about 7 of them a core wait for a CPU
#   whatever else runs on the machine. The host is warned about (console,
#   summary.json, summary.txt), with its 8 slaves and its I/Os in flight
#   (128; over the budget of 32 a core on fewer than 4 cores), and the
#   figures of the warning are what the run's own record gives:
#   the mean and highest share of the cores are the sums of the slaves'
#   cpu_pct in hosts/ (on time), and intervals.csv's cpu_pct_busiest_slave
#   is the highest of them in each row;
# - quiet: 2 local slaves at iorate=200 with one I/O in flight each, on a
#   64 MiB loop device whose reads a blkio cgroup (v1, the slaves inherit
#   it) caps at 100 IO/s: the device, not the generator, sets the pace,
#   and its latency is the device's queue. No warning, and
#   generator_bound is false; the schedule lag is reported over as many
#   I/Os as its measured rows completed (+- those in flight at an
#   interval's end). (On a /tmp file, whose reads take microseconds, a
#   fixed rate's latency is mostly the workers' wake-up lag, 55-110 us
#   here, and a busy machine earns that run the schedule-lag warning,
#   rightly: its latency measured lockstep.)
# The exit code is 0 in both: a warning does not change it.
source "$(dirname "$0")/lib.sh"
source "$HERE/loop_lib.sh"

loop_throttled lockstep-genquiet
echo "$MM 100" > "$CG/blkio.throttle.read_iops_device"

cat > "$TMP/busy.vdb" <<VDB
sd=sd1,lun=$TMP/busy.dat,size=16m,threads=128
wd=wd1,sd=sd1,xfersize=4k,rdpct=70
rd=r1,wd=wd1,iorate=max,elapsed=6,warmup=1,interval=1
VDB
cat > "$TMP/quiet.vdb" <<VDB
sd=sd1,lun=$LOOP,threads=2,openflags=o_direct
wd=wd1,sd=sd1,xfersize=4k,rdpct=100
rd=r1,wd=wd1,iorate=200,elapsed=6,warmup=1,interval=1
VDB

run_bounded 60 "$LOCKSTEP" run "$TMP/busy.vdb" -o "$TMP/busy" --local-slaves 8 \
	--engine null --slave-timeout 20 > "$TMP/busy.con" 2> "$TMP/busy.err"
[ "$rc" -eq 0 ] || { cat "$TMP/busy.con" "$TMP/busy.err"; fail "busy run exited $rc, expected 0"; }
grep -q "^Run r1: WARNING generator-bound: host .*: its 8 slaves used .* waited for a CPU" "$TMP/busy.con" ||
	{ fail_show "$TMP/busy.con" "the busy run's console has no generator warning"; }
grep -q "^generator warnings" "$TMP/busy/summary.txt" &&
	grep -q "^  r1: host .* (8 slaves, .*cpu" "$TMP/busy/summary.txt" ||
	{ fail_show "$TMP/busy/summary.txt" "summary.txt has no generator warning"; }
# The warning line is no run, total or row to the console's readers.
python3 "$HERE/check_console.py" "$TMP/busy.con" "$TMP/busy" ||
	{ fail_show "$TMP/busy.con" "the console's readers read the busy run wrong"; }

run_bounded 60 "${IN_CG[@]}" "$LOCKSTEP" run "$TMP/quiet.vdb" -o "$TMP/quiet" --local-slaves 2 \
	--slave-timeout 20 > "$TMP/quiet.con" 2> "$TMP/quiet.err"
[ "$rc" -eq 0 ] || { cat "$TMP/quiet.con" "$TMP/quiet.err"; fail "quiet run exited $rc, expected 0"; }
if grep -q "generator-bound" "$TMP/quiet.con"; then
	cat "$TMP/quiet.con"
	fail "the quiet run was warned about"
fi
if grep -q "^generator warnings" "$TMP/quiet/summary.txt"; then
	cat "$TMP/quiet/summary.txt"
	fail "the quiet run's summary.txt has a generator warning"
fi

python3 - "$TMP/busy" "$TMP/quiet" <<'PY'
import csv, glob, json, os, sys
busy, quiet = sys.argv[1], sys.argv[2]

def close(a, b, tol):
    return abs(a - b) <= tol

# The busy run.
s = json.load(open(busy + "/summary.json"))
assert s["exit_code"] == 0, s["exit_code"]
assert s["generator_bound"] is True, s.get("generator_bound")
hosts = {x["host"] for x in s["slaves"]}
cores = {x["cores"] for x in s["slaves"]}
assert len(hosts) == 1 and len(cores) == 1, (hosts, cores)
host, cores = hosts.pop(), cores.pop()
r = s["runs"][0]
ws = r["generator_warnings"]
assert r["generator_hosts_warned"] == 1 and len(ws) == 1, ws
w = ws[0]
assert w["host"] == host and w["slaves"] == 8 and w["cores"] == cores, w
# 8 slaves x 16 in flight; over 32 a core below 4 cores.
assert w["inflight"] == 128, w
assert close(w["inflight_per_core"], 128 / cores, 1e-9), w
assert ("inflight" in w["warnings"]) == (128 > 32 * cores), (w, cores)
assert "cpu" in w["warnings"], w

rows = list(csv.DictReader(open(busy + "/intervals.csv")))
assert list(rows[0].keys())[-2:] == ["events", "cpu_pct_busiest_slave"], rows[0].keys()
measured = [x for x in rows if x["phase"] == "measure"]
late = {int(x["interval"]) for x in rows if x["phase"] == "late"}
assert len(measured) == 6, len(measured)
# The intervals the host reported on time (all 8 late: not counted).
assert w["intervals"] == sum(int(x["slaves_reported"]) > 0 for x in measured), w
assert 2 * w["intervals_over_limit"] >= w["intervals"], w
# Each slave runs a worker a core (up to its 16 slots): with 8 workers a
# core spinning, 7 wait; never more than the slaves' workers.
workers = 8 * min(cores, 16)
assert w["runq_per_core_mean"] <= workers / cores * 1.25, w
if (workers - cores) / cores >= 3:
    assert w["runq_per_core_mean"] > 1.0, w
else:
    assert w["runq_per_core_mean"] > 0, w
assert w["runq_per_core_max"] >= w["runq_per_core_mean"], w
assert r["host_runq_per_core_max"] == w["runq_per_core_max"], r
assert r["host_cpu_pct_max"] == w["cpu_pct_max"], r

# Each slave's own rows: cpu_pct of its cores (all on one host).
per = {}
for f in glob.glob(busy + "/hosts/*.csv"):
    name = os.path.basename(f)[:-4]
    for x in csv.DictReader(open(f)):
        if x["phase"] in ("warmup", "measure"):
            per.setdefault(int(x["interval"]), {})[name] = float(x["cpu_pct"])
            assert x["cpu_pct_busiest_slave"] == x["cpu_pct"], x
for x in rows:
    if x["phase"] not in ("warmup", "measure"):
        continue
    k = int(x["interval"])
    cell = float(x["cpu_pct_busiest_slave"])
    vals = per[k].values()
    if k in late:
        assert any(close(cell, v, 0.006) for v in vals), (k, cell, per[k])
    else:
        assert close(cell, max(vals), 0.006), (k, cell, per[k])
    assert cell + 0.006 >= float(x["cpu_pct"]), x  # max >= the average
host_pct = [sum(per[int(x["interval"])].values()) for x in measured]
if not late:
    assert close(w["cpu_pct_max"], max(host_pct), 0.05), (w, host_pct)
    assert close(w["cpu_pct_mean"], sum(host_pct) / len(host_pct), 0.05), (w, host_pct)
top = max(max(per[int(x["interval"])].values()) for x in measured)
assert close(r["cpu_pct_busiest_slave"], top, 0.006), (r["cpu_pct_busiest_slave"], top)
print("ok busy: host %s, %d cores: CPU mean %.1f%% max %.1f%%, workers waiting a core mean %.2f max %.2f, "
      "over a limit in %d of %d intervals, %d in flight (%s), busiest slave %.2f%%%s"
      % (host, cores, w["cpu_pct_mean"], w["cpu_pct_max"], w["runq_per_core_mean"],
         w["runq_per_core_max"], w["intervals_over_limit"], w["intervals"], w["inflight"],
         ",".join(w["warnings"]), r["cpu_pct_busiest_slave"],
         "; late rows in %s" % sorted(late) if late else ""))

# The quiet run.
q = json.load(open(quiet + "/summary.json"))
assert q["exit_code"] == 0, q["exit_code"]
assert q["generator_bound"] is False, q.get("generator_bound")
qr = q["runs"][0]
assert qr["generator_warnings"] == [] and qr["generator_hosts_warned"] == 0, qr
# Its fixed rate's schedule lag is measured and reported: one lag per
# I/O issued on the schedule in the measured intervals, so about the
# I/Os its slaves' measured rows (on time) completed: an I/O issued near
# an interval's end may complete in the next (2 in flight a slave).
ops, rows = 0, 0
for path in glob.glob(quiet + "/hosts/*.csv"):
    for row in csv.DictReader(open(path)):
        if row["run"] == "r1" and row["phase"] == "measure":
            ops += int(row["ops"])
            rows += 1
assert rows and abs(qr["scheduled_ios"] - ops) <= 2 * rows + 2, (qr["scheduled_ios"], ops, rows)
# Its slots were busy (the device's queue) whenever an I/O came due, so
# lockstep was never late with a slot free.
assert qr["host_schedule_lag_mean_us_max"] < 100, qr["host_schedule_lag_mean_us_max"]
print("ok quiet: no warning; its host's highest interval: CPU %.1f%%, workers waiting a core %.3f; busiest slave %.2f%%; %d scheduled I/Os (%d completed in %d rows), schedule lag %.1f us (%.0f%% of the latency)"
      % (qr["host_cpu_pct_max"], qr["host_runq_per_core_max"], qr["cpu_pct_busiest_slave"],
         qr["scheduled_ios"], ops, rows, qr["host_schedule_lag_mean_us_max"], qr["host_schedule_lag_pct_max"]))
PY

# report.html: a badge for the busy run's host, none for the quiet run,
# as a browser draws them.
for run in busy quiet; do
	run_bounded 60 "$LOCKSTEP" report "$TMP/$run" > "$TMP/$run.rep" 2>&1
	[ "$rc" -eq 0 ] || fail_show "$TMP/$run.rep" "lockstep report $run exited $rc"
done
if dump_dom "$TMP/busy/report.html" "$TMP/busy.dom"; then
	dump_dom "$TMP/quiet/report.html" "$TMP/quiet.dom"
	grep -qE 'class="badge generator-bound">generator-bound: host [^ ]+ \(8 slaves, [0-9]+ cores\): CPU [0-9]+% of its cores' "$TMP/busy.dom" ||
		fail "the busy run's report.html has no generator-bound badge"
	! grep -q 'class="badge generator-bound"' "$TMP/quiet.dom" ||
		fail "the quiet run's report.html has a generator-bound badge"
	echo "ok: report.html's generator badge on the busy run only"
else
	echo "no chromium: report.html's badge not checked"
fi
echo "PASS"
