# A known degradation for a known time: one test host in a network
# namespace runs a daemon slave in a cgroup (v1 blkio) of its own,
# reading a loop device at a fixed 500 IO/s. ev=throttle caps the group's
# reads of that device at 100 IO/s (blkio.throttle.read_iops_device on the
# loop device's major:minor) for 4 s, then lifts the cap; the command
# prints when it set and lifted it (cap_on=, cap_off= in ns, into the
# event's log). check_throttle.py holds the run to those injected times
# and to lockstep's own stamps and counts, not to this machine's clock:
# the open-loop schedule kept (never ahead, what it owed explained by the
# latency recorded), the intervals under the cap at the cap, degraded from
# the interval the cap started in, the backlog caught up before the end,
# and the event's recovery figures what its intervals say. How fast the
# loop device drains the backlog is this machine's speed and is not
# asserted, so it no longer runs alone (RUN_SERIAL) to be fast enough.
# On a cgroup v2 machine (Debian 12's default) the same cap is io.max's
# riops in a group with the io controller enabled.
BLKIO_PREFIX=lsd
source "$(dirname "$0")/blkio_lib.sh"

# recover_p99=100000: the loop device's p99 wanders between quiet
# intervals on a busy 2-core machine (CI saw 0.35 ms, then 8 ms, then
# 1.5 ms right after the cap: 20x, past the 1000% this test allowed
# before); the injected fault is in IOPS, so the recovery is judged on it.
# recover_iops=25,recover_n=3: on a shared CI machine one quiet interval
# in ten stalls and the open-loop schedule catches up in the next (seen:
# 965 then 1109 IO/s at 1000), which breaks the default run of 10
# intervals within 10% in the 11 the run has left after the cap (the
# checker recomputes the figure from the intervals with the same rule).
cat > "$TMP/d.vdb" <<VDB
hd=default,shell=none
hd=h1,system=${HOSTS[0]#*=}
sd=sd1,lun=$LOOP,threads=8,openflags=o_direct
wd=wd1,sd=sd1,xfersize=4k,rdpct=100
rd=r1,wd=wd1,iorate=500,elapsed=20,warmup=1,interval=1
ev=throttle,rd=r1,at=3s,baseline=4s,recover_p99=100000,recover_iops=25,recover_n=3,
   exec="echo $MM $CAP_ON > $CG/$CAP_FILE; date +cap_on=%s%N; sleep 4; echo $MM $CAP_OFF > $CG/$CAP_FILE; date +cap_off=%s%N"
VDB

run_bounded 90 "$LOCKSTEP" run "$TMP/d.vdb" -o "$TMP/out" --listen "$BR" \
	--port "$PORT" --insecure --join-timeout 20 > "$TMP/console" 2> "$TMP/err"
[ "$rc" -eq 0 ] || { cat "$TMP/err" "$TMP/h1.log"; fail "exit $rc, expected 0"; }

python3 "$HERE/check_throttle.py" "$TMP/out" --rate 500 --cap 100 --depth 8 \
	--fault throttle --hold 4 --recover-iops 0.25 --recover-n 3 ||
	{ cat "$TMP/console" "$TMP/out/events/throttle.log"; fail "the degradation is not where it was injected"; }
echo "ok: a 4 s blkio throttle to 100 IO/s, found where it was injected"
