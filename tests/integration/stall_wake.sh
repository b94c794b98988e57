# A device that stops answering must not stop the intervals. A closed-loop
# QD1 writer (iorate=max: nothing but the interval boundary limits its
# wait) runs on a file of an ext4 in a loop file; ev=freeze freezes the
# file system (fsfreeze) for 3 s, so the write in flight blocks, and prints
# when it froze and thawed (freeze_on=, freeze_off= in ns) into its log.
# The worker's wait ends at each interval boundary through the timeout it
# armed in its ring once per interval (slave/engine_uring.c): every
# interval wholly inside the freeze must be in intervals.csv as measured,
# with the slave's report in it, no write, and emitted within one interval
# of its end. A worker that slept through the freeze would send those rows
# only after the thaw, seconds late. Block I/O never goes to the loop
# device: the writes go through the mounted file system.
source "$(dirname "$0")/lib.sh"

trap 'frozen_ext4_down; cleanup' EXIT
frozen_ext4 128m
fallocate -l 32m "$MNT/f.dat"

cat > "$TMP/s.vdb" <<VDB
sd=sd1,lun=$MNT/f.dat,threads=1,openflags=o_direct
wd=wd1,sd=sd1,xfersize=4k,rdpct=0,seekpct=100
rd=r1,wd=wd1,iorate=max,elapsed=10,warmup=0,interval=1
ev=freeze,rd=r1,at=3s,exec="fsfreeze -f $MNT; date +freeze_on=%s%N; sleep 3; fsfreeze -u $MNT; date +freeze_off=%s%N"
VDB

run_bounded 90 "$LOCKSTEP" run "$TMP/s.vdb" -o "$TMP/out" --local-slaves 1 \
	> "$TMP/console" 2> "$TMP/err"
[ "$rc" -eq 0 ] || fail_show "$TMP/err" "lockstep run exited $rc"

/usr/bin/python3 - "$TMP/out" <<'PY' || fail_show "$TMP/console" "intervals stopped while the file system was frozen"
import csv, re, sys
d = sys.argv[1]
log = open(d + "/events/freeze.log", errors="replace").read()
on = int(re.search(r"freeze_on=(\d+)", log).group(1))
off = int(re.search(r"freeze_off=(\d+)", log).group(1))
rows = list(csv.DictReader(open(d + "/intervals.csv")))
inside = [r for r in rows if r["phase"] == "measure" and
          int(r["start_ns"]) >= on and int(r["end_ns"]) <= off]
# 3 s frozen, 1 s intervals: at least two lie wholly inside.
assert len(inside) >= 2, ("intervals inside the freeze", len(inside), on, off)
for r in inside:
    n, length = r["interval"], int(r["end_ns"]) - int(r["start_ns"])
    assert r["slaves_reported"] == "1", (n, "slaves_reported", r["slaves_reported"])
    assert int(r["write_ops"]) == 0, (n, "writes while frozen", r["write_ops"])
    late = int(r["emitted_ns"]) - int(r["end_ns"])
    assert 0 <= late < length, (n, "emitted ns after its end", late)
# And the writer wrote outside the freeze.
assert sum(int(r["write_ops"]) for r in rows if r["phase"] == "measure") > 0
print("ok: %d intervals inside a %.1f s freeze, each reported on time" %
      (len(inside), (off - on) / 1e9))
PY
