# An event's log is capped: ev=flood writes 20,000,000 bytes ("x" lines),
# past the 16 MiB (16,777,216 bytes) its events/NAME.log keeps. The
# master relays the output: the log holds exactly the first 16,777,216
# bytes of it plus the master's own notes, the 3,222,784 bytes after them
# are counted in summary.json (log_dropped_bytes) and in a note, the
# command still runs to its end (completed, exit 0), and the console says
# once that the cap was passed. ev=small's 6 bytes are kept whole, and its
# until= output too. The free-space check counts every event's log at its
# cap. Checked against what the test injected, byte for byte.
source "$(dirname "$0")/lib.sh"

cat > "$TMP/e.vdb" <<VDB
sd=sd1,lun=$TMP/x.dat,size=8m,threads=2
wd=wd1,sd=sd1,xfersize=4k
rd=r1,wd=wd1,iorate=200,elapsed=6,interval=1
ev=flood,rd=r1,at=1s,exec="yes x | head -c 20000000"
ev=small,rd=r1,at=1s,exec="echo hello",until="echo polled; true",poll=1s
VDB
run_bounded 60 "$LOCKSTEP" run "$TMP/e.vdb" -o "$TMP/out" > "$TMP/console" 2> "$TMP/err"
[ "$rc" -eq 0 ] || { fail_show "$TMP/err" "exit $rc, expected 0"; }
[ "$(grep -c "event flood: its output passed 16 MiB" "$TMP/err")" -eq 1 ] ||
	{ fail_show "$TMP/err" "the console does not say once that flood's output passed the cap"; }
grep -q "event small: its output passed" "$TMP/err" && fail "small's 6 bytes passed the cap?"

/usr/bin/python3 - "$TMP/out" <<'PY' || fail "the capped log"
import json, sys
d = sys.argv[1]
s = json.load(open(d + "/summary.json"))
ev = {e["name"]: e for e in s["events"]}
f, sm = ev["flood"], ev["small"]
assert f["status"] == "completed" and f["exit_code"] == 0, f
assert f["log_bytes"] == 16777216 and f["log_dropped_bytes"] == 20000000 - 16777216, f
assert sm["log_dropped_bytes"] == 0 and sm["log_bytes"] == len("hello\n") + len("polled\n"), sm
log = open(d + "/events/flood.log", "rb").read()
# The master's notes are lines of their own, "== HH:MM:SS.mmm lockstep: ...".
body = b"".join(l for l in log.splitlines(True) if not l.startswith(b"== "))
assert body == b"x\n" * (16777216 // 2), len(body)
assert b"output past 16 MiB not kept: 3222784 bytes dropped" in log, log[-300:]
small = open(d + "/events/small.log", "rb").read()
assert b"hello\n" in small and b"polled\n" in small, small
PY
echo "ok: event logs are capped and the rest counted"
