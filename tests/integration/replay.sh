# replay= end to end: a generated blkparse trace (with events that are
# not records: other actions, a flush, a message, another device, the
# closing summary), a generated fio iolog v3 and blktrace binary per-CPU
# files of the same records are replayed on a file, timed (on two slaves)
# and as fast as possible, and lockstep's own record
# of what it issued (LOCKSTEP_IOTRACE, slave/iotrace.h) is held against
# the trace: every record issued exactly once with its offset, size and
# direction, each worker in trace order; in timed mode every intended
# time is the record's time from the phase's start, to the nanosecond,
# and the gaps between issue stamps are the trace's gaps (5 to 20 ms)
# within 1 ms at the median and for 3 in 4 I/Os (lockstep's own stamps,
# no wall clock: a neighbour that stalls a slave shifts a few; when the
# stamps say more than 1 in 4 I/Os went out over 0.5 ms late, a starved
# host, the gaps are said not judged, the exact schedule still held). The
# run's totals count every record and it ends with the trace, before
# elapsed=. Then the refusals at FILE:LINE:COLUMN and of a blktrace
# file of another version.
source "$(dirname "$0")/lib.sh"

truncate -s 16m "$TMP/d1.dat"
/usr/bin/python3 - "$TMP" <<'PY'
import random, sys
tmp = sys.argv[1]
rnd = random.Random(29)
offs = rnd.sample(range(0, (16 << 20) // 4096 - 16), 60)
t = 0.0
recs = []  # (time_s, offset, len, write)
for i, o in enumerate(offs):
    t += rnd.uniform(0.005, 0.020) if i else 0.0
    recs.append((t, o * 4096, 4096 * rnd.choice([1, 2, 4, 16]), rnd.random() < 0.5))
with open(tmp + "/t.blkparse", "w") as f:
    seq = 1
    for tm, off, ln, w in recs:
        rw = "W" if w else "R"
        sec = off // 512
        base = 100.0 + tm
        f.write("  8,16   1 %8d %5d.%09d  4242  A  %s %d + %d <- (8,17) %d\n"
                % (seq, int(base), round((base % 1) * 1e9), rw, sec, ln // 512, sec))
        f.write("  8,16   1 %8d %5d.%09d  4242  Q  %s %d + %d [fio]\n"
                % (seq + 1, int(base), round((base % 1) * 1e9), rw + "S", sec, ln // 512))
        f.write("  8,16   1 %8d %5d.%09d  4242  G  %s %d + %d [fio]\n"
                % (seq + 2, int(base), round((base % 1) * 1e9), rw, sec, ln // 512))
        f.write("  8,16   0 %8d %5d.%09d  4242  D  %s %d + %d [fio]\n"
                % (seq + 3, int(base), round((base % 1) * 1e9 + 1000), rw, sec, ln // 512))
        f.write("  8,16   0 %8d %5d.%09d     0  C  %s %d + %d [0]\n"
                % (seq + 4, int(base), round((base % 1) * 1e9 + 90000), rw, sec, ln // 512))
        seq += 5
    f.write("  8,16   0 %8d   100.000000001  4242  Q FWS [fio]\n" % seq)
    f.write("  8,16   0        0   100.000000002     0  m   N cfq4242 insert_request\n")
    f.write("  8,32   0        1   100.000000000  4243  Q   W 0 + 8 [other]\n")
    f.write("\nCPU0 (8,16):\n Reads Queued:  30, 120KiB\t Writes Queued: 30, 120KiB\n")
    f.write("Total (8,16):\n Reads Queued:  30, 120KiB\n")
with open(tmp + "/t.iolog", "w") as f:
    f.write("fio version 3 iolog\n0 /dev/sdz add\n0 /dev/sdz open\n")
    for tm, off, ln, w in recs:
        f.write("%d /dev/sdz %s %d %d\n" % (round(tm * 1000), "write" if w else "read", off, ln))
    f.write("%d /dev/sdz close\n" % round(recs[-1][0] * 1000))
import struct
cpus = [open(tmp + "/t.blktrace.%d" % c, "wb") for c in (0, 1)]
def ev(f, t_ns, sector, nbytes, action, pdu=b"", magic=0x65617407):
    f.write(struct.pack("<IIQQIIIIIHH", magic, 1, t_ns, sector, nbytes, action,
                        4242, (8 << 20) | 16, 0, 0, len(pdu)) + pdu)
ev(cpus[0], 5, 0, 0, 1 << 26, b"fio\0")  # a notify: the process name
for i, (tm, off, ln, w) in enumerate(recs):
    t_ns = 7000 + round(tm * 1e9)
    cat = (2 if w else 1) | 8
    ev(cpus[i % 2], t_ns, off // 512, ln, 1 | (cat << 16))          # Q
    ev(cpus[i % 2], t_ns + 900, off // 512, ln, 7 | (cat << 16))    # D
    ev(cpus[1 - i % 2], t_ns + 80000, off // 512, ln, 8 | (cat << 16))  # C
for f in cpus:
    f.close()
with open(tmp + "/old.blktrace.0", "wb") as f:
    ev(f, 1, 0, 4096, 1 | (2 << 16), magic=0x65617406)
with open(tmp + "/expect.csv", "w") as f:
    for tm, off, ln, w in recs:
        f.write("%d,%d,%d,%d\n" % (round(tm * 1e9), off, ln, int(w)))
PY

# Each run's check: lockstep's record of what it issued against the trace.
check() { # OUTDIR IOTRACEDIR MODE MSROUND
	/usr/bin/python3 - "$TMP/expect.csv" "$@" <<'PY'
import glob, json, statistics, sys
expect, out, itdir, mode, ms = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5] == "ms"
recs = [tuple(int(x) for x in l.split(",")) for l in open(expect)]
if ms:  # the iolog's times are whole milliseconds
    recs = [(round(t / 1e6) * 1000000, o, n, w) for t, o, n, w in recs]
key = {(o, n, w): t for t, o, n, w in recs}
order = {(o, n, w): i for i, (t, o, n, w) in enumerate(recs)}
issued = []
files = glob.glob(itdir + "/iotrace.*.csv")
assert files, "no iotrace files"
for fn in files:
    rows = [tuple(int(x) for x in l.split(",")) for l in open(fn)]
    idx = [order[(off, ln, w)] for _, _, _, w, off, ln in rows]
    assert idx == sorted(idx), (fn, "a worker did not issue in trace order", idx)
    issued += rows
got = sorted((off, ln, w) for _, _, _, w, off, ln in issued)
want = sorted(key)
assert got == want, ("issued I/Os differ from the trace",
                     set(got) ^ set(want), len(got), len(want))
run = json.load(open(out + "/summary.json"))["runs"][0]
assert run["totals"]["ops"] == len(recs), run["totals"]
assert run["totals"]["write_ops"] == sum(w for *_, w in recs), run["totals"]
assert run["intervals"] < 10, ("the phase did not end with its trace", run["intervals"])
if mode == "timed":
    # intended = the slave's start + the record's time, to the
    # nanosecond within a worker; the slaves' starts within 1 ms.
    starts = set()
    for fn in files:
        rows = [tuple(int(x) for x in l.split(",")) for l in open(fn)]
        base = {r[1] - key[(r[4], r[5], r[3])] for r in rows}
        assert len(base) <= 1, (fn, "intended times are not the trace's", base)
        starts |= base
    assert max(starts) - min(starts) < 1000000, ("slave starts", starts)
    rows = sorted(issued, key=lambda r: key[(r[4], r[5], r[3])])
    late = sorted(r[0] - r[1] for r in rows)
    ontime = sum(x <= 500000 for x in late)
    if ontime < 0.75 * len(late):
        # lockstep's own stamps say its workers ran late (a starved
        # host): the issue gaps then measure the host, not the schedule.
        print("timed: issue gaps not judged: %d/%d I/Os issued within 0.5 ms of their time by lockstep's own stamps (a starved host)"
              % (ontime, len(late)))
        sys.exit(0)
    gaps_t = [key[(b[4], b[5], b[3])] - key[(a[4], a[5], a[3])] for a, b in zip(rows, rows[1:])]
    gaps_i = [b[0] - a[0] for a, b in zip(rows, rows[1:])]
    err = sorted(abs(i - t) for i, t in zip(gaps_i, gaps_t))
    within = sum(e <= 1000000 for e in err)
    assert statistics.median(err) <= 1000000, ("median gap error (ns)", statistics.median(err))
    assert within >= 0.75 * len(err), ("gaps off by more than 1 ms", err[-10:])
    print("timed: median gap error %.0f us, %d/%d within 1 ms" %
          (statistics.median(err) / 1000, within, len(err)))
PY
}

cat > "$TMP/t.vdb" <<VDB
* integration: replay of a blkparse trace, timed, on two slaves
sd=sd1,lun=$TMP/d1.dat,size=16m,threads=16,openflags=o_direct
wd=wd1,sd=sd1,replay=t.blkparse,replay_device="8,16"
rd=r1,wd=wd1,iorate=max,elapsed=10,interval=1
VDB
run_bounded 30 "$LOCKSTEP" check "$TMP/t.vdb" > "$TMP/check.txt" 2>&1
[ "$rc" -eq 0 ] || fail_show "$TMP/check.txt" "lockstep check exited $rc"
grep -qF "replay=$TMP/t.blkparse replay_device=8,16 replay_mode=timed (60 records over" "$TMP/check.txt" ||
	fail_show "$TMP/check.txt" "check does not describe the replay"

mkdir "$TMP/it1"
LOCKSTEP_IOTRACE="$TMP/it1" run_bounded 90 "$LOCKSTEP" run "$TMP/t.vdb" -o "$TMP/o1" --local-slaves 2 > "$TMP/o1.txt" 2>&1
[ "$rc" -eq 0 ] || fail_show "$TMP/o1.txt" "timed blkparse replay exited $rc"
check "$TMP/o1" "$TMP/it1" timed ns || fail_show "$TMP/o1.txt" "timed blkparse replay is not the trace"

# As fast as possible: the same records, each worker in trace order.
sed -e 's/replay_device="8,16"/replay_device=8:16,replay_mode=afap/' "$TMP/t.vdb" > "$TMP/a.vdb"
mkdir "$TMP/it2"
LOCKSTEP_IOTRACE="$TMP/it2" run_bounded 90 "$LOCKSTEP" run "$TMP/a.vdb" -o "$TMP/o2" --local-slaves 2 > "$TMP/o2.txt" 2>&1
[ "$rc" -eq 0 ] || fail_show "$TMP/o2.txt" "afap replay exited $rc"
check "$TMP/o2" "$TMP/it2" afap ns || fail_show "$TMP/o2.txt" "afap replay is not the trace"

# fio iolog v3, timed, on one slave.
cat > "$TMP/f.vdb" <<VDB
sd=sd1,lun=$TMP/d1.dat,size=16m,threads=16
wd=wd1,sd=sd1,replay=$TMP/t.iolog
rd=r1,wd=wd1,elapsed=10,interval=1
VDB
mkdir "$TMP/it3"
LOCKSTEP_IOTRACE="$TMP/it3" run_bounded 90 "$LOCKSTEP" run "$TMP/f.vdb" -o "$TMP/o3" --local-slaves 1 > "$TMP/o3.txt" 2>&1
[ "$rc" -eq 0 ] || fail_show "$TMP/o3.txt" "timed iolog replay exited $rc"
check "$TMP/o3" "$TMP/it3" timed ms || fail_show "$TMP/o3.txt" "timed iolog replay is not the trace"

# blktrace's binary per-CPU files, timed, on one slave.
sed -e "s|replay=$TMP/t.iolog|replay=t.blktrace.1,replay_device=8:16|" "$TMP/f.vdb" > "$TMP/k.vdb"
mkdir "$TMP/it4"
LOCKSTEP_IOTRACE="$TMP/it4" run_bounded 90 "$LOCKSTEP" run "$TMP/k.vdb" -o "$TMP/o4" --local-slaves 1 > "$TMP/o4.txt" 2>&1
[ "$rc" -eq 0 ] || fail_show "$TMP/o4.txt" "timed blktrace replay exited $rc"
check "$TMP/o4" "$TMP/it4" timed ns || fail_show "$TMP/o4.txt" "timed blktrace replay is not the trace"

# Refusals where they are written.
refused() { # FILE WANT
	run_bounded 30 "$LOCKSTEP" check "$1" > "$TMP/r.txt" 2>&1
	[ "$rc" -ne 0 ] || fail "$1 was accepted"
	grep -qF "$2" "$TMP/r.txt" || fail_show "$TMP/r.txt" "no '$2'"
}
sed -e 's/replay_device="8,16"/replay_device="8,16",rdpct=50/' "$TMP/t.vdb" > "$TMP/b1.vdb"
refused "$TMP/b1.vdb" "b1.vdb:3:54: wd=wd1: rdpct= has no meaning with replay="
sed -e 's/iorate=max/iorate=100/' "$TMP/t.vdb" > "$TMP/b2.vdb"
refused "$TMP/b2.vdb" "b2.vdb:4:14: rd=r1: wd=wd1 replays a trace"
sed -e '1a validate=yes' "$TMP/t.vdb" > "$TMP/b3.vdb"
refused "$TMP/b3.vdb" "b3.vdb:4:15: wd=wd1: replay= with validate=yes is not supported"
sed -e 's/size=16m/size=1m/' "$TMP/t.vdb" > "$TMP/b4.vdb"
refused "$TMP/b4.vdb" "past the end of sd=sd1 (size=1048576)"
sed -e 's/replay_device="8,16"/replay_device=8:0/' "$TMP/t.vdb" > "$TMP/b5.vdb"
refused "$TMP/b5.vdb" "b5.vdb:3:33: wd=wd1: replay_device=8:0 is not in"
sed -e "s|replay=t.blkparse|replay=old.blktrace.0|" "$TMP/t.vdb" > "$TMP/b6.vdb"
refused "$TMP/b6.vdb" "old.blktrace.0: byte 0: blktrace version 6 (lockstep reads version 7): convert it with blkparse"

# A daemon reads only the traces its --allow names: the master names the
# file, and an error quoting a line of it would go back to the master.
"$LOCKSTEP" run "$TMP/t.vdb" -o "$TMP/o5" --local-slaves 0 --expect-slaves 1 \
	--join-timeout 20 --insecure > "$TMP/o5.txt" 2> "$TMP/o5.err" &
master=$!
PIDS+=("$master")
port=$(master_port "$TMP/o5.err")
"$LOCKSTEP" slave --daemon --name d1 --allow "$TMP/*.dat" --insecure \
	--master "tcp://127.0.0.1:$port" > "$TMP/d1.log" 2>&1 &
PIDS+=($!)
wait_exit "$master" 60
[ "$rc" -ne 0 ] || fail_show "$TMP/o5.err" "a replay of a trace outside --allow exited 0"
grep -q "replay of wd wd1: .*t.blkparse.*this slave's --allow limits what it reads" "$TMP/o5.err" ||
	fail_show "$TMP/o5.err" "the daemon did not refuse the trace outside its --allow"
echo "ok: a daemon refused a trace its --allow does not name"
echo "PASS"
