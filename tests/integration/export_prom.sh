# --prom-textfile: the Prometheus textfile is valid exposition format
# (promtool check metrics), is read by a real node_exporter's textfile
# collector, holds the last interval of the cluster and of each slave and
# the totals of every finished run with the values of the results folder,
# and nothing else is left in its folder. It is written while the run goes
# on, not only at the end.
source "$(dirname "$0")/lib.sh"
source "$HERE/export_lib.sh"

command -v promtool >/dev/null && command -v prometheus-node-exporter >/dev/null ||
	fail "prometheus and prometheus-node-exporter are needed (scripts/install-deps.sh)"

cat > "$TMP/t.vdb" <<VDB
sd=sd1,lun=$TMP/d1.dat,size=16m,threads=4
wd=wd1,sd=sd1,xfersize=4k,rdpct=70,seekpct=100
rd=r1,wd=wd1,iorate=max,elapsed=3,warmup=1,interval=1,forxfersize=(4k,8k)
VDB
mkdir "$TMP/tf"
PROM=$TMP/tf/lockstep.prom

"$LOCKSTEP" run "$TMP/t.vdb" -o "$TMP/out" --local-slaves 2 \
	--prom-textfile "$PROM" > "$TMP/console.txt" 2>&1 &
LPID=$!
PIDS+=("$LPID")
# While the run goes on the file is there and valid (the waits here only
# bound a hang: up to 30 s for a busy machine).
for _ in $(seq 300); do
	[ -s "$PROM" ] && break
	sleep 0.1
done
kill -0 "$LPID" 2>/dev/null || fail "the run ended before the textfile was checked"
[ -s "$PROM" ] || fail "no textfile during the run"
promtool check metrics < "$PROM" || fail "the textfile written during the run is not valid"
set +e
timeout 60 tail --pid="$LPID" -f /dev/null
wait "$LPID"
rc=$?
set -e
cat "$TMP/console.txt"
[ "$rc" -eq 0 ] || fail "lockstep run exited $rc"
promtool check metrics < "$PROM" || fail "promtool refuses the textfile"
[ "$(ls -A "$TMP/tf")" = "lockstep.prom" ] || { ls -la "$TMP/tf"; fail "something else was left beside the textfile"; }
N=$(( 24 + $(tele_points "$TMP/out") ))
grep -q "^export prometheus: $N points sent, 0 dropped" "$TMP/console.txt" ||
	fail "no 'export prometheus: $N points sent, 0 dropped' line"

# node_exporter's own textfile collector reads it.
NPORT=$(free_port)
prometheus-node-exporter --collector.disable-defaults --collector.textfile \
	--collector.textfile.directory="$TMP/tf" \
	--web.listen-address="127.0.0.1:$NPORT" > "$TMP/ne.out" 2>&1 &
PIDS+=("$!")
for _ in $(seq 300); do
	curl -sf "http://127.0.0.1:$NPORT/metrics" > "$TMP/scrape.txt" 2>/dev/null && break
	sleep 0.1
done
grep -q '^lockstep_run_iops{run="r1 xfersize=8k"}' "$TMP/scrape.txt" ||
	{ fail_show "$TMP/ne.out" "node_exporter did not serve the textfile's metrics"; }
grep -q '^node_textfile_scrape_error 0' "$TMP/scrape.txt" || fail "node_exporter reports a textfile error"

python3 - "$TMP/out" "$TMP/scrape.txt" <<'PY' || fail "the textfile's values differ from the results"
import csv, json, re, sys
out, scrape = sys.argv[1], sys.argv[2]
vals = {}
for line in open(scrape):
    m = re.match(r'^(lockstep_\w+)\{(.*)\} (\S+)$', line)
    if m:
        labels = dict(re.findall(r'(\w+)="((?:[^"\\]|\\.)*)"', m.group(2)))
        vals[(m.group(1), labels.get("run"), labels.get("slave"))] = float(m.group(3))
        if "device" in labels:
            vals[(m.group(1), labels.get("slave") or None, labels["device"])] = m.group(3)
def near(a, b):
    return abs(a - b) <= 1e-6 * max(1, abs(b))
s = json.load(open(out + "/summary.json"))
assert len(s["runs"]) == 2
for r in s["runs"]:
    t = r["totals"]
    assert near(vals[("lockstep_run_iops", r["name"], None)], round(t["iops"], 3)), r["name"]
    assert near(vals[("lockstep_run_ops", r["name"], None)], t["ops"]), r["name"]
    assert near(vals[("lockstep_run_p99_seconds", r["name"], None)], round(t["lat_p99_ms"], 6) / 1000), r["name"]
rows = list(csv.DictReader(open(out + "/intervals.csv")))
# The last cluster row (a late row may follow it on a busy machine: the
# slave it lacks came past the grace, and is counted there).
last = [r for r in rows if r["phase"] != "late"][-1]
late = sum(int(r["slaves_reported"]) for r in rows
           if r["phase"] == "late" and (r["run"], r["interval"]) == (last["run"], last["interval"]))
assert near(vals[("lockstep_interval_iops", last["run"], None)], float(last["iops"]))
assert near(vals[("lockstep_interval_ops", last["run"], None)], float(last["ops"]))
assert int(last["slaves_reported"]) + late == 2, (last, late)
assert near(vals[("lockstep_interval_slaves_reported", last["run"], None)], float(last["slaves_reported"]))
for name in ("local-1", "local-2"):
    hl = [r for r in csv.DictReader(open(out + "/hosts/%s.csv" % name))][-1]
    assert near(vals[("lockstep_slave_interval_ops", hl["run"], name)], float(hl["ops"])), name
    assert near(vals[("lockstep_slave_interval_p99_seconds", hl["run"], name)], float(hl["p99_ms"]) / 1000), name
# Telemetry: each slave's host in its last row; each device of each slave
# (and the cluster's "all") in its last row, NaN where unmeasured.
hs = list(csv.DictReader(open(out + "/hoststats.csv")))
for name in ("local-1", "local-2"):
    h = [r for r in hs if r["slave"] == name][-1]
    assert near(vals[("lockstep_host_cpu_user_pct", h["run"], name)], float(h["cpu_user_pct"])), name
ds = list(csv.DictReader(open(out + "/devices.csv")))
for d in {(r["slave"], r["device"]) for r in ds}:
    r = [x for x in ds if (x["slave"], x["device"]) == d][-1]
    got = vals[("lockstep_device_read_iops", r["slave"] or None, r["device"])]
    assert near(float(got), float(r["r_s"])), (d, got, r)
    got = vals[("lockstep_device_read_await_seconds", r["slave"] or None, r["device"])]
    assert (got == "NaN") if not r["r_await_ms"] else near(float(got), float(r["r_await_ms"]) / 1000), (d, got, r)
e = s["export"]["prometheus"]
assert e["sent"] == 24 + len(hs) + len(ds) and e["dropped"] == 0, e
print("ok: the textfile read by node_exporter equals the results")
PY
echo "PASS"
