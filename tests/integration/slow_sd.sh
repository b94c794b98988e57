# The slow sd, named: two sds on two 64 MiB loop devices, each run by
# both of two local slaves (16 of its 32 threads on each), read at
# iorate=max for 10 measured 1 s intervals. The master, and with it its
# local slaves and their io_uring workers, runs in a cgroup v1 blkio
# group that caps sd1's device at 100 read IO/s and sd2's at 300 (as
# slow_host.sh caps its hosts: with more I/Os in flight than a cap lets
# through in one of the throttle's slices every I/O waits its turn, and
# its latency is the cap's, 32 / 100 s against 32 / 300 s, not this busy
# machine's). Asserted on what lockstep wrote:
# - sd1, and only sd1, is named on the console, in summary.txt and in
#   summary.json's slow_sds, by latency (median at least twice the
#   other's) and by I/O share (a third of sd2's I/Os with as many
#   threads);
# - its I/O share is what the kernel's counters of the two devices say
#   (devices.csv), within the sampling's difference;
# - it was judged in each measured interval where a slave's row was on
#   time (most of them), and flagged at least in half of them;
# - neither slave is named a slow host (each runs both sds);
# - report.html (--report) shows sd1's badge, and no other sd's.
source "$(dirname "$0")/lib.sh"
[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root (loop devices, cgroup)"; exit 77; }
[ -w /sys/fs/cgroup/blkio/cgroup.procs ] ||
	{ echo "SKIP: needs cgroup v1 blkio under /sys/fs/cgroup/blkio"; exit 77; }
source "$(dirname "$0")/loop_lib.sh"
trap 'cleanup; loop_down' EXIT
loop_up /sys/fs/cgroup/blkio/lockstep-slowsd-$$
loop_second
echo "$MM 100" > "$CG/blkio.throttle.read_iops_device"
echo "$MM2 300" > "$CG/blkio.throttle.read_iops_device"

cat > "$TMP/s.vdb" <<VDB
sd=sd1,lun=$LOOP,threads=32,openflags=o_direct
sd=sd2,lun=$LOOP2,threads=32,openflags=o_direct
wd=wd1,sd=sd*,xfersize=4k,rdpct=100
rd=r1,wd=wd1,iorate=max,elapsed=10,warmup=1,interval=1
VDB

run_bounded 90 sh -c 'echo $$ > "$1/cgroup.procs"; shift; exec "$@"' sh "$CG" \
	"$LOCKSTEP" run "$TMP/s.vdb" -o "$TMP/out" --local-slaves 2 --report \
	> "$TMP/console" 2> "$TMP/err"
[ "$rc" -eq 0 ] || { cat "$TMP/err"; fail_show "$TMP/console" "exit $rc, expected 0"; }
grep -qE "^Run r1: slow sd sd1: p99 [0-9.]+x the others, median [0-9.]+x.* \(p[<=][0-9.]+\) in [0-9]+ of [0-9]+ intervals$" "$TMP/console" ||
	fail_show "$TMP/console" "the console does not name sd1 a slow sd"
! grep -qE "slow sd sd2|Run r1: slow host" "$TMP/console" ||
	fail_show "$TMP/console" "the console names sd2 a slow sd, or a slow host"
grep -q "^  r1: sd1: p99 " "$TMP/out/summary.txt" ||
	fail_show "$TMP/out/summary.txt" "summary.txt does not name sd1"

DEV1=$(basename "$LOOP") DEV2=$(basename "$LOOP2")
python3 - "$TMP/out" "$DEV1" "$DEV2" <<'PY' || fail_show "$TMP/console" "the slow sd's figures"
import csv, json, sys
out = sys.argv[1]
s = json.load(open(out + "/summary.json"))
run = next(r for r in s["runs"] if r["name"] == "r1")
ss = run["slow_sds"]
assert ss["alpha"] == 0.001 and ss["effect_ratio"] == 1.2, ss
assert ss["sds_judged"] == 2 and ss["sds_flagged"] == 1, ss
(d,) = ss["sds"]
assert d["sd"] == "sd1" and d["latency"] and d["io_share"], d
assert d["p"] <= ss["alpha"] and d["median_ratio"] >= 2, d
assert d["p99_ratio"] >= 1.2 and d["io_share_ratio"] <= 1 / 1.2, d
assert d["median_ms"] > d["others_median_ms"], d

def close(a, b, rel=1e-6):
    return abs(a - b) <= rel * max(abs(a), abs(b)) + 1e-9

for k in ("p99", "median"):
    assert close(d[k + "_ratio"], d[k + "_ms"] / d["others_" + k + "_ms"], 1e-4), (k, d)
# Both slaves ran both sds and are not named.
sh = run["slow_hosts"]
assert sh.get("slaves_judged") == 2 and sh["slaves_flagged"] == 0, sh
# Every measured interval judged, sd1 in each and flagged in most: the
# cap holds it at a third of sd2's rate throughout.
# An interval is judged from the slaves' rows on time (written before its
# cluster row, by lockstep's emitted_ns stamps); a stall of this machine
# can make both late, and then there is nothing to judge.
cluster = {int(r["interval"]): int(r["emitted_ns"])
           for r in csv.DictReader(open(out + "/intervals.csv"))
           if r["run"] == "r1" and r["phase"] == "measure"}
on_time = set()
for name in ("local-1", "local-2"):
    for r in csv.DictReader(open("%s/hosts/%s.csv" % (out, name))):
        i = int(r["interval"]) if r["run"] == "r1" and r["phase"] == "measure" else 0
        if i in cluster and int(r["emitted_ns"]) <= cluster[i]:
            on_time.add(i)
assert ss["intervals_judged"] == len(on_time) == d["intervals_judged"], (ss, d, sorted(on_time))
assert len(on_time) >= len(cluster) // 2, (sorted(on_time), sorted(cluster))
assert 2 * d["intervals_flagged"] >= d["intervals_judged"], d
# Its I/O share is what the devices' own counters say (devices.csv: the
# kernel's completed reads of sd1's device over half of both devices',
# as one slave sampled them), within the sampling's difference.
dev = {}
for r in csv.DictReader(open(out + "/devices.csv")):
    if r["run"] == "r1" and r["phase"] == "measure" and r["slave"] == "local-1":
        dev[r["device"]] = dev.get(r["device"], 0) + float(r["r_s"])
a, b = dev[sys.argv[2]], dev[sys.argv[3]]
share = a / ((a + b) / 2)
assert abs(d["io_share_ratio"] - share) < 0.15, (d["io_share_ratio"], share, dev)
print("ok: sd1 p99 %.2f ms vs %.2f ms (%.2fx), median %.2fx, I/O share %.2fx, p %.3g, flagged in %d of %d intervals"
      % (d["p99_ms"], d["others_p99_ms"], d["p99_ratio"], d["median_ratio"],
         d["io_share_ratio"], d["p"], d["intervals_flagged"], d["intervals_judged"]))
PY
sed -n '/^Run r1: slow sd/p' "$TMP/console"

if dump_dom "$TMP/out/report.html" "$TMP/dom.html"; then
	grep -qE 'class="badge slow-sd">slow sd sd1: p99 [0-9.]+x the others' "$TMP/dom.html" ||
		fail "report.html has no slow-sd badge for sd1"
	! grep -qE 'slow-sd">slow sd sd2|slow-host">' "$TMP/dom.html" ||
		fail "report.html has a slow-sd badge for sd2, or a slow-host badge"
	echo "ok: report.html's badge names sd1"
else
	echo "no chromium: report.html's badge not checked"
fi
echo "PASS"
