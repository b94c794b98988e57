# Each sd keeps its share of a fixed rate: one local slave, two sds on two
# 64 MiB loop devices with 4 threads each, one wd over both, read at
# iorate=200 for 8 measured 1 s intervals. The master, and with it its
# local slave and its io_uring workers, runs in a cgroup v1 blkio group
# that caps sd1's device at 150 read IO/s (as slow_sd.sh throttles), more
# than its 100/s share but less than the whole 200/s: sd1 is the slower
# device, its slots stay busy longer. Each target of a worker has its own
# open-loop schedule at its share (slave/tsched.h, Vdbench's WG_entry), so
# from the kernel's own counters of the two devices (devices.csv, written
# by lockstep), each device did 50 % of the reads +- 10 points over the
# measured intervals. One schedule per worker, whose arrivals went to the
# slot freed last, gave the faster sd2 most of the rate instead.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/loop_lib.sh"
loop_throttled lockstep-sdrate
loop_second
echo "$MM 150" > "$CG/blkio.throttle.read_iops_device"

cat > "$TMP/r.vdb" <<VDB
sd=sd1,lun=$LOOP,threads=4,openflags=o_direct
sd=sd2,lun=$LOOP2,threads=4,openflags=o_direct
wd=wd1,sd=sd*,xfersize=4k,rdpct=100
rd=r1,wd=wd1,iorate=200,elapsed=8,warmup=2,interval=1
VDB

run_bounded 90 "${IN_CG[@]}" "$LOCKSTEP" run "$TMP/r.vdb" -o "$TMP/out" \
	--local-slaves 1 > "$TMP/console" 2> "$TMP/err"
[ "$rc" -eq 0 ] || { cat "$TMP/err"; fail_show "$TMP/console" "exit $rc, expected 0"; }

DEV1=$(basename "$LOOP") DEV2=$(basename "$LOOP2")
python3 - "$TMP/out" "$DEV1" "$DEV2" <<'PY' || fail_show "$TMP/console" "the sds' shares of the rate"
import csv, sys
out, d1, d2 = sys.argv[1:4]
dev = {d1: [], d2: []}
for r in csv.DictReader(open(out + "/devices.csv")):
    if r["run"] == "r1" and r["phase"] == "measure" and r["device"] in dev:
        dev[r["device"]].append(float(r["r_s"]))
a, b = sum(dev[d1]), sum(dev[d2])
n = len(dev[d1])
assert n >= 6 and len(dev[d2]) == n, dev
print("per interval: sd1 %s, sd2 %s reads/s" %
      (" ".join("%.0f" % x for x in dev[d1]),
       " ".join("%.0f" % x for x in dev[d2])))
share = a / (a + b)
print("sd1 (capped at 150/s) did %.1f %% of %.0f reads/s, sd2 %.1f %%"
      % (100 * share, (a + b) / n, 100 * (1 - share)))
assert abs(share - 0.5) <= 0.10, (share, dev)
PY
echo "PASS"
