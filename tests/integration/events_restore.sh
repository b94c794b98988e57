# A fault and its restore as two events, one story: ev=throttle caps the
# blkio group of a daemon slave reading a loop device at a fixed 500 IO/s
# to 100 IO/s, and ev=unthrottle (after=throttle+4s, ends=throttle) lifts
# the cap. The throttle's figures must run through the restore (not stop
# where it starts, which read not_recovered) and say, within one interval
# of the times lockstep stamped on the two events: degraded from the
# interval the cap started in, worst IOPS at the cap, recovered once the
# cap was lifted; the backlog of the open-loop schedule was late, not
# lost. The restore has no figures of its own. The commands print when
# they set and lifted the cap; check_throttle.py (see events_degrade.sh)
# holds the run to those times and lockstep's own stamps, not to this
# machine's clock, so it no longer runs alone.
BLKIO_PREFIX=lsr
source "$(dirname "$0")/blkio_lib.sh"

cat > "$TMP/d.vdb" <<VDB
hd=default,shell=none
hd=h1,system=${HOSTS[0]#*=}
sd=sd1,lun=$LOOP,threads=8,openflags=o_direct
wd=wd1,sd=sd1,xfersize=4k,rdpct=100
rd=r1,wd=wd1,iorate=500,elapsed=22,warmup=1,interval=1
ev=throttle,rd=r1,at=5s,baseline=4s,recover_p99=100000,recover_iops=25,recover_n=3,
   exec="echo $MM $CAP_ON > $CG/$CAP_FILE; date +cap_on=%s%N"
ev=unthrottle,after=throttle+4s,ends=throttle,exec="echo $MM $CAP_OFF > $CG/$CAP_FILE; date +cap_off=%s%N"
VDB

"$LOCKSTEP" check "$TMP/d.vdb" > "$TMP/check.txt" || fail "check refused the file"
grep -q "ends ev=throttle: its recovery window runs through this event" "$TMP/check.txt" ||
	{ fail_show "$TMP/check.txt" "check does not show ends="; }
grep -q "recovery window stops where" "$TMP/check.txt" &&
	{ fail_show "$TMP/check.txt" "check says a window stops where ends= runs it through"; }
# The same pair without ends=: check says the fault's window stops at the
# restore, and how to run it through.
sed 's/,ends=throttle//' "$TMP/d.vdb" > "$TMP/noends.vdb"
"$LOCKSTEP" check "$TMP/noends.vdb" > "$TMP/check2.txt" || fail "check refused the file without ends="
grep -q "ev=throttle's recovery window stops where this event starts (if this restores it, ends=throttle runs the window through)" "$TMP/check2.txt" ||
	{ fail_show "$TMP/check2.txt" "check does not say the window stops at the restore"; }

run_bounded 90 "$LOCKSTEP" run "$TMP/d.vdb" -o "$TMP/out" --listen "$BR" \
	--port "$PORT" --insecure --join-timeout 20 > "$TMP/console" 2> "$TMP/err"
[ "$rc" -eq 0 ] || { cat "$TMP/err" "$TMP/h1.log"; fail "exit $rc, expected 0"; }
grep -q "^Recovery figures" "$TMP/console" || { fail_show "$TMP/console" "no recovery block on the console"; }
grep -q "^  throttle (r1): recovered, judged on the cluster; window .* through unthrottle" "$TMP/console" ||
	{ fail_show "$TMP/console" "the console's recovery block"; }
grep -q "^  throttle (r1): recovered" "$TMP/out/summary.txt" || fail "no recovery block in summary.txt"

python3 "$HERE/check_throttle.py" "$TMP/out" --rate 500 --cap 100 --depth 8 \
	--fault throttle --restore unthrottle --hold 3.9 --recover-iops 0.25 \
	--recover-n 3 ||
	{ cat "$TMP/console" "$TMP/out/events/"*.log; fail "the pair's figures are not where it was injected"; }
python3 - "$TMP/out" <<'PY' || { fail_show "$TMP/console" "the pair's figures"; }
import csv, json, sys
d = sys.argv[1]
s = json.load(open(d + "/summary.json"))
ev = {e["name"]: e for e in s["events"]}
on, off = ev["throttle"], ev["unthrottle"]
ivl = s["runs"][0]["interval_s"]
rec = on["recovery"]
# after=throttle+4s, as lockstep stamped the two: never early (late is the
# master's tick on a busy machine, and not asserted).
held = (int(off["start_ns"]) - int(on["start_ns"])) / 1e9
assert held >= 3.9, held
# The window runs through the restore, to the next event or the end.
assert rec["window_end_s"] >= rec["start_s"] + held + 3 * ivl, rec
ttr = rec["time_to_recover_s"]
# events.csv has the same figures as columns; a figure that did not
# happen is empty there.
e = {r["name"]: r for r in csv.DictReader(open(d + "/events.csv"))}
assert e["throttle"]["recovery"] == "recovered" and e["throttle"]["window_through"] == "unthrottle", e
assert abs(float(e["throttle"]["time_to_recover_s"]) - ttr) < 1e-3, e
assert e["throttle"]["rebuild_s"] == "", e
assert e["unthrottle"]["recovery"] == "restore" and e["unthrottle"]["window_through"] == "throttle", e
assert e["unthrottle"]["io_lost"] == "", e
PY
sed -n '/^Recovery figures/,/^$/p' "$TMP/console"
echo "ok: a throttle and its restore, one story, found where they were injected"
