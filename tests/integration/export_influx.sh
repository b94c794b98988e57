# Live export to a real InfluxDB 1.x (Debian's influxd with its own config,
# folders and free ports): every cluster and slave interval arrives as a
# line-protocol point whose fields equal intervals.csv and hosts/*.csv,
# read back over HTTP; then an influxd killed mid-run loses points but not
# the run (exit 0, dropped > 0 in summary.json and on the console). Also
# the --influx and --graphite and --prom-textfile checks against bad input.
source "$(dirname "$0")/lib.sh"
source "$HERE/export_lib.sh"

command -v influxd >/dev/null || fail "influxdb is needed (scripts/install-deps.sh)"

# influxd's files live in memory (/dev/shm): lockstep gives a write
# EXPORT_IO_TIMEOUT_MS (1 s) to be answered, and influxd fsyncs its WAL
# and shard files before it answers; on a busy CI disk one write took
# longer and its points were dropped (seen: 9 sent, 6 dropped). What a
# slow or dead receiver does to the run is run_killed's part, below.
SHM=$(mktemp -d /dev/shm/lockstep-influx.XXXXXX)
cleanup_influx() {
	cleanup
	rm -rf "$SHM" 2>/dev/null || { sleep 0.5; rm -rf "$SHM"; }
}
trap cleanup_influx EXIT

# start_influx DIR: influxd on $IPORT (HTTP), pid in $IPID, database ls.
start_influx() {
	local d=$1 rpc m
	IPORT=$(free_port)
	rpc=$(free_port)
	mkdir -p "$d"
	m=$SHM/$(basename "$d")
	cat > "$d/influxdb.conf" <<CONF
reporting-disabled = true
bind-address = "127.0.0.1:$rpc"
[meta]
  dir = "$m/meta"
[data]
  dir = "$m/data"
  wal-dir = "$m/wal"
  query-log-enabled = false
[monitor]
  store-enabled = false
[http]
  bind-address = "127.0.0.1:$IPORT"
  log-enabled = false
[continuous_queries]
  enabled = false
CONF
	influxd -config "$d/influxdb.conf" > "$d/influxd.out" 2>&1 &
	IPID=$!
	PIDS+=("$IPID")
	for _ in $(seq 150); do
		curl -sf "http://127.0.0.1:$IPORT/ping" >/dev/null 2>&1 && break
		sleep 0.1
	done
	curl -sf -XPOST "http://127.0.0.1:$IPORT/query" \
		--data-urlencode "q=CREATE DATABASE ls" >/dev/null ||
		{ tail "$d/influxd.out"; fail "influxd did not start on $IPORT"; }
}

cat > "$TMP/t.vdb" <<VDB
sd=sd1,lun=$TMP/d1.dat,size=16m,threads=4
wd=wd1,sd=sd1,xfersize=4k,rdpct=70,seekpct=100
rd=r1,wd=wd1,iorate=max,elapsed=4,warmup=1,interval=1,forxfersize=4k
probe=p1,exec="echo depth=3 lag=0.5",every=1s
VDB

# Bad input: refused before anything starts, with the reason.
for bad in "--influx https://127.0.0.1:1/write?db=x" \
	"--influx http://127.0.0.1:1/query?db=x" \
	"--influx http://127.0.0.1:1/write" \
	"--influx http://127.0.0.1:70000/write?db=x" \
	"--graphite 127.0.0.1" "--graphite 127.0.0.1:0" "--graphite h:65536" \
	"--prom-textfile $TMP/nodir/x.prom" "--prom-textfile $TMP/x.txt"; do
	# shellcheck disable=SC2086
	run_bounded 20 "$LOCKSTEP" run "$TMP/t.vdb" -o "$TMP/bad" $bad > "$TMP/bad.txt" 2>&1
	[ "$rc" -eq 1 ] || { fail_show "$TMP/bad.txt" "'$bad' exited $rc, not 1"; }
	[ ! -e "$TMP/bad" ] || fail "'$bad' created the results folder"
	grep -q "^lockstep run: --" "$TMP/bad.txt" || { fail_show "$TMP/bad.txt" "'$bad': no reason given"; }
done

start_influx "$TMP/i1"
run_export "$TMP/out" influx 15 --influx "http://127.0.0.1:$IPORT/write?db=ls"

python3 - "$TMP/out" "$IPORT" <<'PY' || fail "the points in InfluxDB differ from the results"
import csv, json, sys, urllib.parse, urllib.request
out, port = sys.argv[1], sys.argv[2]
def q(s):
    u = "http://127.0.0.1:%s/query?db=ls&epoch=ns&q=%s" % (port, urllib.parse.quote(s))
    r = json.load(urllib.request.urlopen(u, timeout=10))["results"][0]
    if "series" not in r:
        return []
    out = []
    for ser in r["series"]:
        for v in ser["values"]:
            d = dict(zip(ser["columns"], v))
            d.update(ser.get("tags", {}))
            out.append(d)
    return out
rows = [r for r in csv.DictReader(open(out + "/intervals.csv")) if r["phase"] != "late"]
got = {p["time"]: p for p in q('SELECT * FROM lockstep_cluster WHERE run = \'r1 xfersize=4k\'')}
assert len(got) == len(rows) == 5, (len(got), len(rows))
for r in rows:
    p = got[int(r["end_ns"])]
    assert p["phase"] == r["phase"], (p, r)
    assert p["ops"] == int(r["ops"]) and p["bytes"] == int(r["bytes"]), (p, r)
    assert p["slaves_reported"] == int(r["slaves_reported"]), (p, r)
    for f in ("iops", "mbps", "resp_ms", "p95_ms", "p99_ms", "read_pct"):
        assert abs(p[f] - float(r[f])) <= 1e-6 * max(1, abs(float(r[f]))), (f, p[f], r[f])
for name in ("local-1", "local-2"):
    hr = [r for r in csv.DictReader(open(out + "/hosts/%s.csv" % name))]
    pts = {p["time"]: p for p in q("SELECT * FROM lockstep_slave WHERE slave = '%s'" % name)}
    assert len(pts) == len(hr) == 5, (name, len(pts), len(hr))
    for r in hr:
        p = pts[int(r["end_ns"])]
        assert p["ops"] == int(r["ops"]) and abs(p["p99_ms"] - float(r["p99_ms"])) < 1e-6, (p, r)
        assert p["run"] == "r1 xfersize=4k" and p["host"], p
# Telemetry: each hoststats.csv row is a lockstep_host point, each
# devices.csv row a lockstep_device point (the cluster's: host cluster).
hs = list(csv.DictReader(open(out + "/hoststats.csv")))
pts = {(p["slave"], p["time"]): p for p in q("SELECT * FROM lockstep_host")}
assert len(pts) == len(hs) >= 10, (len(pts), len(hs))
for r in hs:
    p = pts[(r["slave"], int(r["end_ns"]))]
    for f in ("cpu_user_pct", "cpu_idle_pct", "slave_cpu_pct"):
        assert abs(p[f] - float(r[f])) < 0.006, (f, p, r)
ds = list(csv.DictReader(open(out + "/devices.csv")))
pts = {(p["slave"], p["device"], p["time"]): p
       for p in q("SELECT * FROM lockstep_device")}
assert len(pts) == len(ds), (len(pts), len(ds))
for r in ds:
    p = pts[(r["slave"] or "cluster", r["device"], int(r["end_ns"]))]
    assert abs(p["read_iops"] - float(r["r_s"])) < 0.0006, (p, r)
    assert abs(p["util_pct"] - float(r["util_pct"])) < 0.006, (p, r)
pr = [r for r in csv.DictReader(open(out + "/probes.csv")) if r["status"] == "ok"]
pts = {(p["key"], p["time"]): p for p in q("SELECT * FROM lockstep_probe WHERE probe = 'p1'")}
assert len(pts) == len(pr) >= 4, (len(pts), len(pr))
for r in pr:
    assert pts[(r["key"], int(r["time_ns"]))]["value"] == float(r["value"]), r
tele = len(hs) + len(ds) + len(pr)
s = json.load(open(out + "/summary.json"))["export"]["influx"]
assert s["sent"] == 15 + tele and s["dropped"] == 0, s
print("ok: 15 interval and %d telemetry points in InfluxDB equal the results" % tele)
PY

# A file-system run (create and getattr on tmpfs): every operation of
# every cluster interval is a lockstep_op point (tag operation) whose
# fields equal ops.csv's row.
FSA=$(mktemp -d /dev/shm/lockstep-expfs.XXXXXX)
trap 'rm -rf "$FSA"; cleanup_influx' EXIT
source "$HERE/fsrun_lib.sh"
fs_mixed_vdb "$TMP/fs.vdb" "$FSA" ",warmup=1"
run_bounded 60 "$LOCKSTEP" run "$TMP/fs.vdb" -o "$TMP/fsout" --local-slaves 2 \
	--no-history --influx "http://127.0.0.1:$IPORT/write?db=ls" > "$TMP/fsout.txt" 2>&1
[ "$rc" -eq 0 ] || fail_show "$TMP/fsout.txt" "fs run exited $rc"
grep -q "^export influx: [0-9]* points sent, 0 dropped" "$TMP/fsout.txt" ||
	fail_show "$TMP/fsout.txt" "fs run: points dropped"
python3 - "$TMP/fsout" "$IPORT" <<'PY' || fail "the operations in InfluxDB differ from ops.csv"
import csv, json, sys, urllib.parse, urllib.request
out, port = sys.argv[1], sys.argv[2]
u = "http://127.0.0.1:%s/query?db=ls&epoch=ns&q=%s" % (
    port, urllib.parse.quote("SELECT * FROM lockstep_op"))
r = json.load(urllib.request.urlopen(u, timeout=10))["results"][0]
got = {}
for ser in r.get("series", []):
    for v in ser["values"]:
        d = dict(zip(ser["columns"], v))
        got[(d["run"], d["operation"], d["time"])] = d
rows = [r for r in csv.DictReader(open(out + "/ops.csv"))
        if r["phase"] in ("warmup", "measure")]
ops = {r["operation"] for r in rows if r["run"] == "rc"}
assert {"create", "getattr"} <= ops, ops
assert len(got) == len(rows) > 0, (len(got), len(rows))
for r in rows:
    p = got[(r["run"], r["operation"], int(r["end_ns"]))]
    assert p["phase"] == r["phase"], (p, r)
    assert p["ops"] == int(r["count"]) and p["bytes"] == int(r["bytes"]), (p, r)
    assert (p["errors"] is None) == (r["errors"] == ""), (p, r)
    if r["errors"]:
        assert p["errors"] == int(r["errors"]), (p, r)
    for f, c in (("rate", "rate"), ("mbps", "mbps"), ("resp_ms", "resp_ms"),
                 ("p50_ms", "p50_ms"), ("p95_ms", "p95_ms"),
                 ("p99_ms", "p99_ms"), ("max_ms", "max_ms")):
        assert abs(p[f] - float(r[c])) <= 1e-6 * max(1, abs(float(r[c]))), (f, p[f], r[c])
print("ok: %d operation points in InfluxDB equal ops.csv (%s)" % (len(rows), ",".join(sorted(ops))))
PY

# influxd killed in the middle of a run.
start_influx "$TMP/i2"
run_killed "$TMP/out2" influx "$IPID" --influx "http://127.0.0.1:$IPORT/write?db=ls"
echo "PASS"
