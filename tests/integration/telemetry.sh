# Device and host telemetry (slave/telemetry.c, master/results/
# sink_telemetry.c) against faults whose effect is known:
# - a device that is slow by construction: loop device UPPER stacked on
#   loop device LOWER, whose reads a blkio cgroup (v1) caps at 200 IO/s.
#   The loop driver issues UPPER's I/O to LOWER in the issuer's cgroup,
#   so each of UPPER's requests waits out the throttle while it is in
#   flight: UPPER's await is most of the latency the slaves measure
#   (the rest is io_uring's and the CPU's) and its %util is ~100. (A throttle on the target itself would not show in its
#   await: the kernel throttles a bio before it becomes a request, so
#   that device's await stays at its service time and only the gap to
#   the slaves' latency shows the queue above it.) Two slaves on this
#   host read UPPER: each reports it, the cluster row counts it once, and
#   its IOPS are the slaves' within 2% over the measured window (an
#   interval may differ more: see below);
# - a CPU hog of two busy loops (this machine's two cores) during a second
#   run: the host's CPU is 85% busy or more, and busier than in the
#   quiet run (unless a neighbour kept that one busy too);
# - the same throttle on the target itself (above.vdb): the slaves keep
#   8 I/Os in flight (threads=8), the device's queue holds ~0.02: the generator
#   warning "queue above the device" names the host; the stacked runs
#   (the queue in the upper device) are not warned about;
# - nic=lo: the master's and slaves' messages cross lo, so its packets
#   per second are above 0;
# - a file on a tmpfs has no block device: a warning, once over two runs,
#   the run goes on and exits 0, and devices.csv has no device row.
source "$(dirname "$0")/lib.sh"
source "$HERE/loop_lib.sh"

loop_throttled lockstep-tele
UPPER=$(losetup -f --show "$LOOP")
SHM=$TMP/tmpfs
mkdir "$SHM"
mount -t tmpfs -o size=16m lockstep-tele "$SHM"
trap 'umount "$SHM" 2>/dev/null || true; cleanup; losetup -d "$UPPER" 2>/dev/null || true; loop_down' EXIT
echo "$MM 200" > "$CG/blkio.throttle.read_iops_device"

cat > "$TMP/slow.vdb" <<VDB
nic=lo
sd=sd1,lun=$UPPER,threads=8,openflags=o_direct
wd=wd1,sd=sd1,xfersize=4k,rdpct=100
rd=r1,wd=wd1,iorate=max,elapsed=8,warmup=2,interval=1
VDB

sed "s|lun=$UPPER|lun=$LOOP|" "$TMP/slow.vdb" > "$TMP/above.vdb"

run_tele() { # NAME [VDB]: a run by two local slaves in the group
	run_bounded 90 "${IN_CG[@]}" "$LOCKSTEP" run "$TMP/${2:-slow}.vdb" -o "$TMP/$1" \
		--local-slaves 2 --slave-timeout 20 > "$TMP/$1.con" 2> "$TMP/$1.err"
	[ "$rc" -eq 0 ] || { cat "$TMP/$1.con" "$TMP/$1.err"; fail "run $1 exited $rc, expected 0"; }
}
run_tele quiet
for _ in 1 2; do
	sh -c 'while :; do :; done' &
	PIDS+=($!)
done
run_tele hog
for p in "${PIDS[@]}"; do kill -9 "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done
run_tele above above

/usr/bin/python3 - "$TMP/quiet" "$TMP/hog" "$(basename "$UPPER")" "$TMP/above" <<'PY'
import csv, json, sys
quiet, hog, dev, above = sys.argv[1:]

def rows(d, name):
    return list(csv.DictReader(open(d + "/" + name)))

def check_devices(d, tol, util):
    iv = {int(r["interval"]): r for r in rows(d, "intervals.csv")
          if r["phase"] == "measure"}
    devs = rows(d, "devices.csv")
    cl = {int(r["interval"]): r for r in devs
          if r["host"] == "cluster" and r["phase"] == "measure"}
    per = [r for r in devs if r["host"] != "cluster"]
    assert {r["device"] for r in per} == {dev}, {r["device"] for r in per}
    assert {r["slave"] for r in per} == {"local-1", "local-2"}, per[:2]
    assert all(r["device"] == "all" for r in cl.values())
    app, devr, lats, aws, utils = [], [], [], [], []
    for k, r in sorted(iv.items()):
        if r["slaves_reported"] != r["slaves_expected"]:
            continue
        c = cl[k]
        a = float(r["iops"])
        x = float(c["r_s"]) + float(c["w_s"])
        # Counted once: two slaves sampling one device do not double it.
        assert abs(x - a) <= tol * a, (k, "device", x, "slaves", a)
        if not c["r_await_ms"]:
            # No read finished in the interval (seen once beside a
            # loaded test): the device and the slaves agree on none.
            assert a == 0 and x == 0, (k, "no await", a, x)
            continue
        lat = float(r["read_resp_ms"])
        aw = float(c["r_await_ms"])
        # The device's wait is inside the slaves' latency, most of it:
        # what is not is io_uring's and the CPU's (the hog's) share.
        assert 0.5 * lat <= aw <= 1.05 * lat, (k, "await", aw, "app", lat)
        lats.append(lat)
        aws.append(aw)
        utils.append(float(c["util_pct"]))
        app.append(a)
        devr.append(x)
    assert len(app) >= 4, len(app)
    ma, md = sum(app) / len(app), sum(devr) / len(devr)
    assert abs(md - ma) <= 0.02 * ma, ("window", md, ma)
    assert sum(aws) >= 0.7 * sum(lats), ("window await", aws, lats)
    assert sum(utils) / len(utils) >= util, ("util", utils)
    s = json.load(open(d + "/summary.json"))
    t = s["runs"][0]["telemetry"]
    assert t["device_util_pct_max"] >= 90, t
    # summary.json's are the mean of every measured cluster row's (a
    # slave's late interval leaves its row to the other's sample of the
    # device), not only of those above: the 3 decimals' rounding apart.
    allr = [float(c["r_s"]) + float(c["w_s"]) for c in cl.values()
            if c["r_s"]]
    assert t["device_intervals"] == len(allr), (t, len(allr))
    mall = sum(allr) / len(allr)
    assert abs(t["device_iops"] - mall) <= 1e-3 + 1e-12 * mall, (t, mall)
    return iv

def host_rows(d):
    h = [r for r in rows(d, "hoststats.csv") if r["phase"] == "measure"]
    assert {r["slave"] for r in h} == {"local-1", "local-2"}, h[:2]
    assert all(r["nic"] == "lo" for r in h), h[:2]
    assert all(float(r["rx_pps"]) > 0 for r in h), h[:2]
    for r in h:
        for c in ("cpu_user_pct", "cpu_sys_pct", "cpu_iowait_pct",
                  "cpu_steal_pct", "cpu_idle_pct", "psi_io_some_pct"):
            assert 0 <= float(r[c]) <= 100, (c, r)
    return h

check_devices(quiet, 0.25, 70)
# A worker that waits for a CPU (the hog's, or a neighbour's: CI runs two
# tests at once) reaps, so counts, the I/Os the device completed meanwhile
# in a later interval: the same I/Os, shifted, so an interval may differ
# (25% still catches a device counted twice); the window's totals agree
# within 2%. The device idles while they wait: %util drops below 100.
check_devices(hog, 0.25, 50)
q, hg = host_rows(quiet), host_rows(hog)
def busy(rows):
    return sum(float(r["cpu_user_pct"]) + float(r["cpu_sys_pct"])
               for r in rows) / len(rows)
uq, uh = busy(q), busy(hg)
# Two busy loops fill this machine's two cores, whatever else runs; the
# quiet run is quieter unless a neighbouring test (CI runs two at once)
# kept the cores busy through it too.
assert uh >= 85, ("host CPU with the hog", uh)
assert uh > uq + 5 or uq >= 80, ("host CPU with the hog", uh, "without", uq)
sh = json.load(open(hog + "/summary.json"))["runs"][0]["telemetry"]
assert sh["host_cpu_busy_pct_max"] >= 85, sh
# The queue above the device: the same throttle on the target itself
# holds the I/Os before they reach its queue, and the host is warned;
# below a stacked device it is in that device's queue: no warning.
def queue_warned(d):
    s = json.load(open(d + "/summary.json"))
    return [w for w in s["runs"][0].get("generator_warnings", [])
            if "queue_above_device" in w["warnings"]]
assert not queue_warned(quiet) and not queue_warned(hog), "stacked: warned"
(w,) = queue_warned(above)
assert w["inflight_mean"] >= 7.5 and w["device_queue_mean"] < 0.5 * w["inflight_mean"], w
assert w["intervals_queue_above_device"] * 2 >= w["intervals_with_devices"] >= 4, w
print("telemetry: device IOPS = slaves' IOPS, await = latency, util ~100%%; "
      "host CPU %.0f%% quiet, %.0f%% with the hog" % (uq, uh))
PY
[ $? -eq 0 ] || fail "telemetry figures wrong (above)"
grep -q "WARNING generator-bound: host .*: its slaves kept .* I/Os in flight and its devices held .* the I/Os waited above the devices" "$TMP/above.con" ||
	fail_show "$TMP/above.con" "no queue-above-device warning on the console"

# A target on a tmpfs of the test's own: said once, the run goes on.
cat > "$TMP/shm.vdb" <<VDB
sd=sd1,lun=$SHM/t.dat,size=4m,threads=2
wd=wd1,sd=sd1,xfersize=4k,rdpct=50
rd=r1,wd=wd1,iorate=100,elapsed=2,interval=1,forthreads=(2,4)
VDB
run_bounded 60 "$LOCKSTEP" run "$TMP/shm.vdb" -o "$TMP/shm" --local-slaves 1 \
	--slave-timeout 20 > "$TMP/shm.con" 2> "$TMP/shm.err"
[ "$rc" -eq 0 ] || { cat "$TMP/shm.con" "$TMP/shm.err"; fail "tmpfs run exited $rc, expected 0"; }
n=$(grep -c "WARN slave local-1: telemetry: .* file system without a block device" "$TMP/shm/lockstep.log" || true)
[ "$n" -eq 1 ] ||
	fail_show "$TMP/shm/lockstep.log" "$n warnings about the target without a block device over two runs, expected 1"
[ "$(wc -l < "$TMP/shm/devices.csv")" -eq 1 ] ||
	fail_show "$TMP/shm/devices.csv" "devices.csv has rows for a target on tmpfs"
echo "PASS: telemetry"
