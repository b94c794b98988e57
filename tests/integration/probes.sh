# Probes (probe= lines) sampled by the master during a run, checked
# against lockstep's own stamps (probes.csv, intervals.csv, events.csv) and
# what the commands printed, never against this machine's speed:
# (a) a probe reading a file that an ev= changes shows the change as a
#     step; every sample's interval is the intervals.csv row holding its
#     time_ns, and the step's is the change's or a later one within what
#     every= and timeout= allow;
# (b) a probe that hangs is killed with its process group at its timeout,
#     recorded as timeout, and the run goes on and exits 0;
# (c) an ev= with until=probe:lvl==0 ends at the stamped time of the first
#     sample that reads 0;
# and an output that is not a number is recorded unparsed, said once.
source "$(dirname "$0")/lib.sh"

LEVEL=$TMP/level
echo 5 > "$LEVEL"
# The step probe says when it read (ns since BASE s, exact as a double)
# before and after reading the file.
BASE=$(date +%s)
cat > "$TMP/step.sh" <<SH
a=\$(( \$(date +%s%N) - ${BASE}000000000 ))
v=\$(cat "$LEVEL")
b=\$(( \$(date +%s%N) - ${BASE}000000000 ))
echo "a=\$a v=\$v"
echo "b=\$b"
SH
# The change: its times recorded around the write, by the command itself.
# The new level is renamed into place: a probe reading while '>' has
# emptied the file would read nothing (an unparsed sample, once in CI).
cat > "$TMP/fix.sh" <<SH
date +%s%N > "$TMP/t0"
echo 0 > "$LEVEL.new"
mv "$LEVEL.new" "$LEVEL"
date +%s%N > "$TMP/t1"
SH
# The hang: the shell and a background child, both in its process group.
cat > "$TMP/hang.sh" <<'SH'
sleep 1000.4711 &
sleep 1000.4712
SH

cat > "$TMP/p.vdb" <<VDB
sd=sd1,lun=$TMP/x.dat,size=8m,threads=2
wd=wd1,sd=sd1,xfersize=4k
rd=r1,wd=wd1,iorate=100,elapsed=8,interval=1
probe=step,exec="sh $TMP/step.sh",every=0.2s,timeout=1s
probe=lvl,exec="cat $LEVEL",every=0.2s,timeout=1s
probe=hang,exec="sh $TMP/hang.sh",every=1s,timeout=0.5s
probe=words,exec="echo HEALTH_OK",every=1s
ev=fail,at=1s,exec="echo 7 > $LEVEL",until=probe:lvl==0
ev=fix,at=4s,exec="sh $TMP/fix.sh"
VDB

"$LOCKSTEP" check "$TMP/p.vdb" > "$TMP/check" 2>&1 || fail_show "$TMP/check" "check refused the file"
grep -q "until: probe:lvl==0 (each sample of probe=lvl, every 0.2s)" "$TMP/check" ||
	fail_show "$TMP/check" "check does not show the until=probe:"
grep -q "  hang: exec: sh $TMP/hang.sh" "$TMP/check" ||
	fail_show "$TMP/check" "check does not list the probes"

run_bounded 90 "$LOCKSTEP" run "$TMP/p.vdb" -o "$TMP/out" > "$TMP/console" 2> "$TMP/err"
[ "$rc" -eq 0 ] || fail_show "$TMP/err" "exit $rc, expected 0"
# The hang's processes were killed with their group: none is left.
left=$(pgrep -f "sleep 1000.471[12]" || true)
if [ -n "$left" ]; then
	for p in $left; do kill -9 "$p" 2>/dev/null || true; done
	fail "the hanging probe's processes outlived the run: $left"
fi
[ "$(grep -c "probe words: sample .*: unparsed" "$TMP/err")" -eq 1 ] ||
	fail_show "$TMP/err" "the unparsed sample is not said once"
[ "$(grep -c "probe hang: sample .*: timeout" "$TMP/err")" -eq 1 ] ||
	fail_show "$TMP/err" "the timed-out sample is not said once"

/usr/bin/python3 - "$TMP/out" "$TMP" "$BASE" <<'PY' || fail "probes.csv, events.csv and intervals.csv disagree"
import csv, json, math, sys
d, tmp, base = sys.argv[1], sys.argv[2], int(sys.argv[3])
t0 = int(open(tmp + "/t0").read())
t1 = int(open(tmp + "/t1").read())
rows = list(csv.DictReader(open(d + "/probes.csv")))
assert list(rows[0].keys()) == ["time_ns", "run", "interval", "probe", "key",
                               "value", "status"], rows[0].keys()
ivs = [r for r in csv.DictReader(open(d + "/intervals.csv"))
       if r["phase"] in ("warmup", "measure")]
I = 1e9
every, timeout = 0.2e9, 1e9

def row_of(t):
    for r in ivs:
        if int(r["start_ns"]) <= t < int(r["end_ns"]):
            return r
    return None

# Every sample: its run and interval are the intervals.csv row holding
# its time_ns (or empty when none does), the first at the run's start.
first = min(int(r["time_ns"]) for r in rows)
assert first >= int(ivs[0]["start_ns"]), (first, ivs[0])
for r in rows:
    iv = row_of(int(r["time_ns"]))
    if iv is None:
        assert r["run"] == "" and r["interval"] == "", r
    else:
        assert r["run"] == iv["run"] and r["interval"] == iv["interval"], (r, iv)
    assert (r["value"] != "") == (r["status"] == "ok"), r

# (a) the step: samples are one time_ns with keys a, v, b.
step = {}
for r in rows:
    if r["probe"] == "step":
        assert r["status"] == "ok", r
        step.setdefault(int(r["time_ns"]), {})[r["key"]] = float(r["value"])
samples = sorted(step.items())
assert all(set(s) == {"a", "v", "b"} for _, s in samples), samples
for t, s in samples:
    a, b = base * 10**9 + s["a"], base * 10**9 + s["b"]
    assert a <= b <= t, (a, b, t)          # stamped when it finished
    if a > t1:
        assert s["v"] == 0, (t, s)         # read after the write
    if b < t0:
        assert s["v"] != 0, (t, s)         # read before it
vals = [s["v"] for _, s in samples]
k = vals.index(0)
assert k > 0 and all(v != 0 for v in vals[:k]) and all(v == 0 for v in vals[k:]), vals
step_t = samples[k][0]
step_iv = int(row_of(step_t)["interval"])
change_iv = int(row_of(t0)["interval"])
# The sample running at the change ends within its timeout; the next
# starts every= after it began (or when it ended) and ends within its own.
slack = math.ceil((every + 2 * timeout) / I)
assert change_iv <= step_iv <= change_iv + slack, (change_iv, step_iv, slack)
print("step: change in interval %d, seen in interval %d" % (change_iv, step_iv))

# (b) the hang: every sample a timeout, nothing else; the run went on.
hang = [r for r in rows if r["probe"] == "hang"]
assert len(hang) >= 3 and all(r["status"] == "timeout" and r["key"] == ""
                              and r["value"] == "" for r in hang), hang
log = open(d + "/probes/hang.log").read()
assert log.count("still running after timeout=0.5s: its process group killed") == len(hang), log
s = json.load(open(d + "/summary.json"))
assert s["exit_code"] == 0 and s["status"] == "completed", s["status"]
pr = {p["name"]: p for p in s["probes"]}
assert pr["hang"]["samples"] == pr["hang"]["failures"] == len(hang), pr["hang"]
assert pr["words"]["unparsed"] == pr["words"]["samples"] > 0, pr["words"]
assert all(r["status"] == "unparsed" for r in rows if r["probe"] == "words")
assert pr["step"]["ok"] == len(samples) and pr["step"]["last"]["v"] == 0, pr["step"]
assert pr["lvl"]["last"] == {"value": 0}, pr["lvl"]

# (c) the event ends at the first lvl sample reading 0 after it began.
ev = {r["name"]: r for r in csv.DictReader(open(d + "/events.csv"))}
fail = ev["fail"]
assert fail["status"] == "completed", fail
start, end = int(fail["start_ns"]), int(fail["end_ns"])
zeros = sorted(int(r["time_ns"]) for r in rows if r["probe"] == "lvl"
               and r["status"] == "ok" and float(r["value"]) == 0
               and int(r["time_ns"]) > start)
assert zeros and end == zeros[0], (end, zeros[:3])
assert int(ev["fix"]["start_ns"]) <= t0 and end > t1, (ev["fix"], t0, end)
js = {e["name"]: e for e in s["events"]}["fail"]
assert js["end_ns"] == end, js
rb = fail["rebuild_s"]
assert rb != "" and abs(float(rb) - (end - start) / 1e9) < 2e-3, (rb, start, end)
PY
echo "ok: probes sampled, placed, timed out and ended an event by lockstep's stamps"
