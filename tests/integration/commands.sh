# startcmd= and endcmd= (Vdbench's) end to end, judged by lockstep's own
# record (summary.json's "commands" and "runs", commands/*.log) and by
# what the commands themselves wrote, never the wall clock: (A) with local
# slaves, the general commands run on the master before the first run and
# after the last, the rd's startcmd= runs on a slave (its output reaches
# the master's log) and ends before the run's first interval starts, its
# endcmd= (master) starts after the run's last interval ended, a failing
# command is said and recorded and the run goes on (exit 0), $output is
# the results folder, the targets console and summary show the output
# there, and `lockstep check` lists them (text and --json). (B) A daemon
# started without --allow-commands refuses an rd's slave-scope command:
# the run stops with exit 1 naming the slave and host, and nothing ran.
# (C) One started with --allow-commands exec runs it without a shell and
# its output reaches the master's log.
source "$(dirname "$0")/lib.sh"

truncate -s 16m "$TMP/d.dat"
cat > "$TMP/t.vdb" <<VDB
startcmd=("echo general-start \$(date +%s%N) \$output >> $TMP/marks; echo general-start-out",master)
endcmd=("echo general-end \$(date +%s%N) >> $TMP/marks; echo general-end-out; printf 'esc\\033[31mred\\n'",console)
sd=sd1,lun=$TMP/d.dat,size=16m,threads=4
wd=wd1,sd=sd1,xfersize=4k,rdpct=50
rd=r1,wd=wd1,iorate=max,elapsed=3,interval=1,
  startcmd=("echo r1-start \$(date +%s%N) >> $TMP/marks; echo r1-start-out from a slave","exit 3"),
  endcmd=("echo r1-end \$(date +%s%N) >> $TMP/marks; echo r1-end-out \$LOCKSTEP_RUN_ID",master,summary)
VDB
run_bounded 30 "$LOCKSTEP" check "$TMP/t.vdb" > "$TMP/check.txt" 2>&1
[ "$rc" -eq 0 ] || fail_show "$TMP/check.txt" "lockstep check exited $rc"
for want in "commands:" "  startcmd (on the master, target log):" \
	"  r1 startcmd (on one slave of each host, which needs --allow-commands, target log):" \
	"      exit 3" "  r1 endcmd (on the master, around each run, target summary):"; do
	grep -qxF -- "$want" "$TMP/check.txt" || fail_show "$TMP/check.txt" "check does not say: $want"
done
run_bounded 30 "$LOCKSTEP" check --json "$TMP/t.vdb" > "$TMP/check.json" 2>&1
python3 - "$TMP/check.json" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))["commands"]
assert [(x["rd"], x["keyword"], x["scope"], x["target"]) for x in c] == [
    ("", "startcmd", "master", "log"), ("r1", "startcmd", "slave", "log"),
    ("r1", "endcmd", "master", "summary"), ("", "endcmd", "master", "console")], c
assert c[1]["commands"][1] == "exit 3", c[1]
PY

run_bounded 90 "$LOCKSTEP" run "$TMP/t.vdb" -o "$TMP/a" --local-slaves 2 > "$TMP/a.console" 2> "$TMP/a.err"
[ "$rc" -eq 0 ] || fail_show "$TMP/a.err" "run with commands exited $rc"
grep -qF "startcmd of run r1 on " "$TMP/a.err" && grep -qF "exit 3: exit 3 (the run goes on" "$TMP/a.err" ||
	fail_show "$TMP/a.err" "the failed startcmd is not said"
grep -qF "Cmd: master: general-end-out" "$TMP/a.err" || fail_show "$TMP/a.err" "target console: no output on the console"
# A command's output reaches the terminal escaped: no control character.
grep -qF 'Cmd: master: esc\x1b[31mred' "$TMP/a.err" || fail_show "$TMP/a.err" "target console: the escape is not shown escaped"
if grep -q $'\x1b' "$TMP/a.err" "$TMP/a/summary.txt"; then
	fail "a command's control character reached the console or summary.txt"
fi
ID=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["run_id"])' "$TMP/a/summary.json")
grep -qxF "    Cmd: r1-end-out $ID" "$TMP/a/summary.txt" || fail_show "$TMP/a/summary.txt" "target summary: no output (with LOCKSTEP_RUN_ID) in summary.txt"
python3 - "$TMP/a" "$TMP/marks" <<'PY'
import json, sys
out, marks = sys.argv[1], sys.argv[2]
s = json.load(open(out + "/summary.json"))
cmds, runs = s["commands"], s["runs"]
assert len(runs) == 1 and runs[0]["totals"]["ops"] > 0, runs
r = runs[0]
first = r["start_ns"]
last_end = r["start_ns"] + r["intervals"] * int(round(r["interval_s"] * 1e9))
got = [(c["keyword"], c["run"], c["scope"], c["status"]) for c in cmds]
assert got == [("startcmd", "", "master", "ok"), ("startcmd", "r1", "slave", "ok"),
               ("startcmd", "r1", "slave", "exit 3"), ("endcmd", "r1", "master", "ok"),
               ("endcmd", "", "master", "ok")], got
gs, s1, s2, e1, ge = cmds
for c in cmds:
    assert c["start_ns"] <= c["end_ns"], c
# In order, each waited for: general start, r1's start commands, the run,
# r1's end, general end.
assert gs["end_ns"] <= s1["start_ns"] <= s1["end_ns"] <= s2["start_ns"], cmds
assert s2["end_ns"] <= first, (s2, first)
assert e1["start_ns"] >= last_end, (e1, last_end)
assert ge["start_ns"] >= e1["end_ns"], (ge, e1)
# One slave of the host ran r1's: a local slave, named.
assert s1["slave"].startswith("local-") and s1["slave"] == s2["slave"], s1
assert gs["host"] == "master" and gs["slave"] == "", gs
assert s1["log"] == "commands/r1.startcmd.log" and gs["log"] == "commands/startcmd.log", cmds
# What the commands wrote when they acted, inside lockstep's stamps.
m = {}
for line in open(marks):
    w = line.split()
    m[w[0]] = w[1:]
assert m["general-start"][1] == out, m  # $output is the results folder
def inside(name, c):
    t = int(m[name][0])
    assert c["start_ns"] <= t <= c["end_ns"], (name, t, c)
    return t
inside("general-start", gs)
assert inside("r1-start", s1) < first
assert inside("r1-end", e1) > last_end
inside("general-end", ge)
# The slave's output reached the master's log.
log = open(out + "/commands/r1.startcmd.log").read()
assert "r1-start-out from a slave\n" in log, log
assert "exit 3 after" in log, log
assert "general-start-out" in open(out + "/commands/startcmd.log").read()
PY

# ---- (B) a daemon without --allow-commands refuses ----------------------
PORT=$(free_port_pair 127.0.0.1)
"$LOCKSTEP" slave --daemon --name d1 --allow "$TMP/*" --insecure \
	--master "tcp://127.0.0.1:$PORT" > "$TMP/d1.log" 2>&1 &
D1=$!
PIDS+=($D1)
cat > "$TMP/d.vdb" <<VDB
hd=default,shell=none
hd=d1,system=127.0.0.1
sd=sd1,lun=$TMP/d.dat,size=16m,threads=4
wd=wd1,sd=sd1,xfersize=4k,rdpct=50
rd=r1,wd=wd1,iorate=max,elapsed=2,interval=1,startcmd=("touch $TMP/refused","echo never")
VDB
run_bounded 90 "$LOCKSTEP" run "$TMP/d.vdb" -o "$TMP/b" --port "$PORT" --insecure \
	--join-timeout 20 > "$TMP/b.console" 2> "$TMP/b.err"
[ "$rc" -eq 1 ] || fail_show "$TMP/b.err" "a refused command: exit $rc, expected 1"
grep -qF "startcmd of rd=r1: slave d1 on host d1 refused it: this slave was started without --allow-commands" "$TMP/b.err" ||
	fail_show "$TMP/b.err" "the refusal does not name the slave and its host"
[ ! -e "$TMP/refused" ] || fail "a refused command ran"
python3 - "$TMP/b/summary.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
c = s["commands"]
# The first refused, the list stopped there, no run started.
assert [(x["status"], x["host"], x["slave"]) for x in c] == [("refused", "d1", "d1")], c
assert "--allow-commands" in c[0]["why"], c
assert all(not r.get("start_ns") for r in s["runs"]), s["runs"]
PY
kill "$D1"
wait_exit "$D1" 20

# ---- (C) with --allow-commands exec it runs them, without a shell -------
PORT=$(free_port_pair 127.0.0.1)
"$LOCKSTEP" slave --daemon --name d1 --allow "$TMP/*" --insecure --allow-commands exec \
	--master "tcp://127.0.0.1:$PORT" > "$TMP/d2.log" 2>&1 &
D2=$!
PIDS+=($D2)
sed -i 's|startcmd=.*|startcmd=("touch '"$TMP"'/ran","echo daemon-says hi"),endcmd=("echo daemon-end")|' "$TMP/d.vdb"
run_bounded 90 "$LOCKSTEP" run "$TMP/d.vdb" -o "$TMP/c" --port "$PORT" --insecure \
	--join-timeout 20 > "$TMP/c.console" 2> "$TMP/c.err"
[ "$rc" -eq 0 ] || fail_show "$TMP/c.err" "run on a daemon with --allow-commands exited $rc"
[ -e "$TMP/ran" ] || fail "the daemon did not run the command"
grep -qF "daemon-says hi" "$TMP/c/commands/r1.startcmd.log" || fail_show "$TMP/c/commands/r1.startcmd.log" "the daemon's output is not in the master's log"
grep -qF "daemon-end" "$TMP/c/commands/r1.endcmd.log" || fail "the endcmd's output is not in the master's log"
python3 - "$TMP/c/summary.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
c = s["commands"]
assert [(x["keyword"], x["status"], x["slave"]) for x in c] == [
    ("startcmd", "ok", "d1"), ("startcmd", "ok", "d1"), ("endcmd", "ok", "d1")], c
r = s["runs"][0]
assert c[1]["end_ns"] <= r["start_ns"] < c[2]["start_ns"], (c, r)
PY
kill "$D2"
wait_exit "$D2" 20
echo "PASS"
