# Only the right peers (CURVE): keygen writes 0600 keys and never
# overwrites; keys with loose modes are refused; a slave without keys and a
# master waiting for outside slaves without keys are refused. In a real run
# on loopback with two local slaves (per-run keys) and one outside daemon
# (listed key, bound to its name): a daemon with an unlisted key is refused
# at the handshake, impostors racing the local slaves (one with a listed
# key that may not use the name local-1, one without keys) never register,
# and the run completes with the totals of the three real slaves. A daemon
# facing a master with another key refuses it, keeps waiting, and then
# registers with the right master; so does a daemon whose master's port
# was held first by a plain (NULL-mechanism) ZeroMQ peer, which libzmq
# would never retry after. An --insecure run warns, records it, and its
# local slaves still prove per-run keys: an impostor that reads local-1's
# pid from /proc and races its hello never takes its place.
source "$(dirname "$0")/lib.sh"

K=$TMP/keys
for n in master other ext1 bad any; do
	"$LOCKSTEP" keygen "$K" --name "$n" > "$TMP/keygen.out" || fail "keygen $n"
done
[ "$(stat -c %a "$K/master.key")" = 600 ] || fail "master.key is not mode 600"
[ "$(stat -c %a "$K/master.pub")" = 644 ] || fail "master.pub is not mode 644"
cp "$K/master.key" "$TMP/master.key.before"
run_bounded 10 "$LOCKSTEP" keygen "$K" --name master > "$TMP/kg.txt" 2>&1
[ "$rc" -eq 1 ] || fail "keygen over an existing key exited $rc, expected 1"
grep -q "never overwritten" "$TMP/kg.txt" || { fail_show "$TMP/kg.txt" "keygen did not say why"; }
cmp -s "$K/master.key" "$TMP/master.key.before" || fail "keygen changed an existing key"
{
	echo "# the outside slave, bound to its name; a key for any other name"
	echo "$(cat "$K/ext1.pub") ext1"
	cat "$K/any.pub"
} > "$TMP/authorized"

# ---- loose permissions -------------------------------------------------
cp "$K/ext1.key" "$TMP/loose.key"
chmod 644 "$TMP/loose.key"
run_bounded 10 "$LOCKSTEP" slave --master tcp://127.0.0.1:9 --key "$TMP/loose.key" \
	--master-key "$K/master.pub" > "$TMP/l1.txt" 2>&1
[ "$rc" -eq 1 ] || fail "slave with a 0644 key exited $rc, expected 1"
grep -q "$TMP/loose.key: mode 0644" "$TMP/l1.txt" || { fail_show "$TMP/l1.txt" "no message naming the key file and its mode"; }
grep -qF "$(cat "$K/ext1.key")" "$TMP/l1.txt" && fail "the secret key was printed"
cp "$K/master.key" "$TMP/mloose.key"
chmod 640 "$TMP/mloose.key"
cat > "$TMP/c.vdb" <<VDB
sd=sd1,lun=$TMP/c.dat,size=4m,threads=6
wd=wd1,sd=sd1,xfersize=4k,rdpct=100
rd=r1,wd=wd1,elapsed=3,interval=1
VDB
run_bounded 20 "$LOCKSTEP" run "$TMP/c.vdb" -o "$TMP/never1" --key "$TMP/mloose.key" \
	--authorized-slaves "$TMP/authorized" --local-slaves 0 --expect-slaves 1 > "$TMP/l2.txt" 2>&1
[ "$rc" -eq 1 ] || fail "master with a 0640 key exited $rc, expected 1"
grep -q "$TMP/mloose.key: mode 0640" "$TMP/l2.txt" || { fail_show "$TMP/l2.txt" "no message naming the master's key file and its mode"; }
echo "ok: loose key permissions refused"

# ---- no keys -----------------------------------------------------------
run_bounded 10 "$LOCKSTEP" slave --daemon --master tcp://127.0.0.1:9 > "$TMP/n1.txt" 2>&1
[ "$rc" -eq 1 ] || fail "daemon without keys exited $rc, expected 1"
grep -q "no keys: give --key FILE .* or --insecure" "$TMP/n1.txt" || { fail_show "$TMP/n1.txt" "no message for a daemon without keys"; }
run_bounded 20 "$LOCKSTEP" run "$TMP/c.vdb" -o "$TMP/never2" --listen 0.0.0.0 \
	--local-slaves 0 --expect-slaves 1 > "$TMP/n2.txt" 2>&1
[ "$rc" -eq 1 ] || fail "master off loopback without keys exited $rc, expected 1"
grep -q "give --key FILE and --authorized-slaves FILE .*or --insecure" "$TMP/n2.txt" || { fail_show "$TMP/n2.txt" "no message for a master without keys"; }
grep -q "listening" "$TMP/n2.txt" && fail "the master listened without keys"
echo "ok: no keys, no service"

# A free pair of ports on loopback, kept for every master below: the
# daemons stay up and find each new master there.
PORT=$(free_port_pair 127.0.0.1)
EP="tcp://127.0.0.1:$PORT"

start_daemon() { # NAME KEY: a daemon slave trusting master.pub
	"$LOCKSTEP" slave --daemon --name "$1" --allow "$TMP/*" --key "$K/$2.key" \
		--master-key "$K/master.pub" --master "$EP" > "$TMP/$1.log" 2>&1 &
	PIDS+=($!)
}

wait_for() { # PID SECONDS
	set +e
	timeout "$2" tail --pid="$1" -f /dev/null
	wait "$1"
	rc=$?
	set -e
}

# ---- a run with an unlisted daemon and impostors ------------------------
start_daemon ext1 ext1
start_daemon ext2 bad
EXT2=$!
# The hello of engine_refused.sh (engines [null], pid 4242) renamed local-1.
HELLO=$(hello_hex "$PROTO_V" local-1 "$("$LOCKSTEP" version | cut -d" " -f2)")
"$LOCKSTEP" run "$TMP/c.vdb" -o "$TMP/out" --engine null --key "$K/master.key" \
	--authorized-slaves "$TMP/authorized" --port "$PORT" --local-slaves 2 \
	--expect-slaves 1 --join-timeout 20 > "$TMP/out.txt" 2> "$TMP/out.err" &
MPID=$!
PIDS+=($MPID)
# From the master's first instant to its last: a peer with a listed key
# (which may not use the name local-1) and a peer without keys, both
# sending hello as local-1.
(
	while kill -0 "$MPID" 2>/dev/null; do
		"$ZSEND" --curve "$K/master.pub" "$K/any.key" "$K/any.pub" "$EP" "$HELLO" "$HELLO" || true
		"$ZSEND" "$EP" "$HELLO" || true
	done
) > "$TMP/zsend.log" 2>&1 &
IMP=$!
PIDS+=($IMP)
wait_for "$MPID" 60
[ "$rc" -eq 0 ] || { fail_show "$TMP/out.err" "run with impostors exited $rc, expected 0"; }
# The impostors stop with the master: none may talk to the masters below.
timeout 20 tail --pid="$IMP" -f /dev/null || fail "the impostors did not stop"
# Who counted, and that the totals are theirs alone (check_results.py's
# row timing is local_run's business: under load a row's grace can pass).
python3 - "$TMP/out" <<'PY' || fail "summary"
import json, sys
s = json.load(open(sys.argv[1] + "/summary.json"))
assert s["authentication"] == "curve" and s["insecure"] is False, s
names = sorted(x["name"] for x in s["slaves"])
assert names == ["ext1", "local-1", "local-2"], names
assert all(x["pid"] != 4242 for x in s["slaves"]), s["slaves"]
run = s["runs"][0]
assert sorted(p["slave"] for p in run["per_slave"]) == names, run["per_slave"]
assert run["totals"]["ops"] == sum(p["totals"]["ops"] for p in run["per_slave"])
PY
grep -q "slave local-1 (pid 4242 on testhost) refused: the key it proved is not authorized for that name" "$TMP/out/lockstep.log" ||
	{ fail_show "$TMP/out/lockstep.log" "the impostor with a listed key was not refused by name"; }
grep -q "refused a connection from 127.0.0.1: its key is not in --authorized-slaves" "$TMP/out/lockstep.log" ||
	{ fail_show "$TMP/out/lockstep.log" "the unlisted key was not refused at the handshake"; }
grep -q "refused this slave's key" "$TMP/ext2.log" || { fail_show "$TMP/ext2.log" "the unlisted daemon was not told"; }
for f in "$TMP/out/lockstep.log" "$TMP/out.err" "$TMP/out.txt"; do
	for n in master ext1 bad any; do
		! grep -qF "$(cat "$K/$n.key")" "$f" || fail "a secret key in $f"
		! grep -qF "$(cat "$K/$n.pub")" "$f" || fail "a key in $f"
	done
done
kill "$EXT2" 2>/dev/null || true
echo "ok: unlisted key and impostors refused, totals from the real slaves"

# ---- the wrong master, then the right one --------------------------------
: > "$TMP/ext1.log"
"$LOCKSTEP" run "$TMP/c.vdb" -o "$TMP/wrong" --engine null --key "$K/other.key" \
	--authorized-slaves "$TMP/authorized" --port "$PORT" --local-slaves 0 \
	--expect-slaves 1 --join-timeout 4 > "$TMP/wrong.txt" 2> "$TMP/wrong.err" &
MPID=$!
PIDS+=($MPID)
wait_for "$MPID" 30
[ "$rc" -eq 1 ] || { fail_show "$TMP/wrong.err" "the wrong master exited $rc, expected 1"; }
grep -q "did not register" "$TMP/wrong.err" || { fail_show "$TMP/wrong.err" "the wrong master did not fail for lack of slaves"; }
grep -q "the master at $EP did not prove the key in $K/master.pub" "$TMP/ext1.log" ||
	{ fail_show "$TMP/ext1.log" "the daemon did not say the master failed to prove its key"; }
right_master() { # OUT: the master with the right key, for ext1 alone
	"$LOCKSTEP" run "$TMP/c.vdb" -o "$TMP/$1" --engine null --key "$K/master.key" \
		--authorized-slaves "$TMP/authorized" --port "$PORT" --local-slaves 0 \
		--expect-slaves 1 --join-timeout 20 > "$TMP/$1.txt" 2> "$TMP/$1.err" &
	MPID=$!
	PIDS+=($MPID)
	wait_for "$MPID" 60
	[ "$rc" -eq 0 ] || { cat "$TMP/$1.err" "$TMP/ext1.log"; fail "the right master ($1) exited $rc, expected 0"; }
}
right_master right
# What this part is about is who registered (the timing of the rows is
# local_run's business: on a loaded machine a lone daemon's first interval
# may come after its row's grace).
python3 - "$TMP/right" <<'PY' || fail "the right master's summary"
import json, sys
s = json.load(open(sys.argv[1] + "/summary.json"))
assert [x["name"] for x in s["slaves"]] == ["ext1"], s["slaves"]
assert s["runs"][0]["totals"]["ops"] > 0, s["runs"][0]["totals"]
PY
echo "ok: wrong master refused, right master served"

# ---- a plain ZeroMQ peer on the port, then the right master --------------
# libzmq gives up on a connection whose handshake met another mechanism;
# the daemon must open a new socket and find the master that comes next.
HOSTILE=${3:?curve_auth.sh needs the hostile tool}
: > "$TMP/ext1.log"
run_bounded 20 "$HOSTILE" "$EP" squat 3
[ "$rc" -eq 0 ] || fail "the plain peer could not hold the port ($rc)"
grep -q "did not prove the key in $K/master.pub" "$TMP/ext1.log" ||
	{ fail_show "$TMP/ext1.log" "the daemon did not meet the plain peer"; }
right_master after
grep -q "slave ext1 registered" "$TMP/after.err" || { fail_show "$TMP/after.err" "ext1 did not register after the plain peer"; }
echo "ok: a daemon that met a plain peer registers with the right master"

# ---- --insecure: warned, recorded, and local slaves still prove keys -----
# The local slaves get keys over their pipe and a CURVE port of their own:
# an impostor that reads local-1's pid from /proc and races its hello on
# the plain port, and a plain hello as local-1, are both refused.
"$LOCKSTEP" run "$TMP/c.vdb" -o "$TMP/ins" --engine null --insecure --port "$PORT" \
	--local-slaves 2 > "$TMP/ins.txt" 2> "$TMP/ins.err" &
MPID=$!
PIDS+=($MPID)
"$HOSTILE" "$EP" race local-1 "$MPID" > "$TMP/race.log" 2>&1 &
RACE=$!
PIDS+=($RACE)
(
	while kill -0 "$MPID" 2>/dev/null; do
		"$ZSEND" "$EP" "$HELLO" || true
	done
) > "$TMP/zsend2.log" 2>&1 &
IMP=$!
PIDS+=($IMP)
wait_for "$RACE" 60
race_rc=$rc
wait_for "$MPID" 60
[ "$rc" -eq 0 ] || { fail_show "$TMP/ins.err" "the --insecure run exited $rc, expected 0"; }
[ "$race_rc" -eq 3 ] || { cat "$TMP/race.log" "$TMP/ins.err"; fail "the impostor racing local-1 with its pid exited $race_rc (0: it took local-1's place)"; }
grep -q "racing local-1, pid" "$TMP/race.log" || { fail_show "$TMP/race.log" "the impostor never found local-1's pid"; }
timeout 20 tail --pid="$IMP" -f /dev/null || fail "the impostor did not stop"
grep -q "warning: --insecure: no authentication" "$TMP/ins.err" || { fail_show "$TMP/ins.err" "no --insecure warning"; }
grep -q "slave local-1 (pid [0-9]* on [^)]*) refused: that name belongs to a slave this master started" "$TMP/ins/lockstep.log" ||
	{ fail_show "$TMP/ins/lockstep.log" "the impostors were not refused by name"; }
python3 - "$TMP/ins" <<'PY' || fail "the --insecure summary"
import json, sys
s = json.load(open(sys.argv[1] + "/summary.json"))
assert s["authentication"] == "none" and s["insecure"] is True, s
assert sorted(x["name"] for x in s["slaves"]) == ["local-1", "local-2"], s["slaves"]
assert all(x["pid"] != 4242 for x in s["slaves"]), s["slaves"]
assert all(x["host"] != "hostile" for x in s["slaves"]), s["slaves"]
PY
grep -q "^insecure: --insecure, no authentication" "$TMP/ins/summary.txt" || { fail_show "$TMP/ins/summary.txt" "summary.txt does not say insecure"; }
grep -q "run .* completed (insecure: no authentication); results in" "$TMP/ins.err" || { tail -3 "$TMP/ins.err"; fail "the final line does not say insecure"; }
echo "ok: --insecure recorded, local slaves keyed, impostors refused"
echo "PASS"
