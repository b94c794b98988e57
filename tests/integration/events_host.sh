# Events on a host= over ssh: a test host in a network namespace with a
# real sshd, its slave started over ssh as well. ev=mark runs on the host
# with the run's LOCKSTEP_* variables (ssh passes no environment, so the
# remote command sets them); ev=hang runs a remote sleep that outlives its
# timeout=2s: the master kills its ssh, and the remote side, which no
# hang-up reaches (no terminal), must end by itself too (timeout(1) there)
# instead of running for its 300 s.
source "$(dirname "$0")/lib.sh"
start_cluster 1 lse
start_sshd 1

cat > "$TMP/e.vdb" <<VDB
hd=default,user=root,lockstep=$LOCKSTEP
hd=h1,system=${HOSTS[0]#*=}
sd=sd1,lun=$TMP/s.dat,size=8m,threads=2
wd=wd1,sd=sd1,xfersize=4k,rdpct=50
rd=r1,wd=wd1,iorate=500,elapsed=6,interval=1
ev=mark,rd=r1,at=1s,host=h1,
   exec="echo \$LOCKSTEP_EVENT \$LOCKSTEP_RUN \$LOCKSTEP_RUN_ID > $TMP/mark; ip -4 -o addr show scope global >> $TMP/mark"
ev=hang,rd=r1,at=1s,host=h1,timeout=2s,
   exec="echo \$\$ > $TMP/hang.pid; exec sleep 300"
VDB
run_bounded 90 "$LOCKSTEP" run "$TMP/e.vdb" -o "$TMP/out" --listen "$LOCKSTEP_BRIDGE_IP" \
	--ssh "ssh -F $TMP/ssh_config" > "$TMP/console.txt" 2>&1
[ "$rc" -eq 4 ] || { cat "$TMP/console.txt" "$TMP/out/events/"*.log; fail "lockstep run exited $rc, expected 4 (degraded: ev=hang timed out)"; }

# ev=mark ran there, with the variables.
[ -s "$TMP/mark" ] || { cat "$TMP/out/events/"*.log; fail "ev=mark left no mark"; }
read -r ev run id _ < "$TMP/mark"
[ "$ev" = mark ] && [ "$run" = r1 ] || fail "ev=mark saw LOCKSTEP_EVENT=$ev LOCKSTEP_RUN=$run"
grep -q "\"run_id\": *\"$id\"" "$TMP/out/summary.json" || fail "ev=mark saw LOCKSTEP_RUN_ID=$id, not the run's"
grep -q "${HOSTS[0]#*=}/" "$TMP/mark" || fail "ev=mark did not run in the host's namespace: $(cat "$TMP/mark")"

python3 - "$TMP/out" <<'PY'
import json, sys
s = json.load(open(sys.argv[1] + "/summary.json"))
ev = {e["name"]: e for e in s["events"]}
assert ev["mark"]["status"] == "completed" and ev["mark"]["exit_code"] == 0, ev["mark"]
assert ev["hang"]["status"] == "timed_out", ev["hang"]
PY

# The remote sleep ends within its timeout and timeout(1)'s 5 s of grace.
[ -s "$TMP/hang.pid" ] || fail "ev=hang never started"
pid=$(cat "$TMP/hang.pid")
for _ in $(seq 1 100); do
	kill -0 "$pid" 2>/dev/null || break
	sleep 0.1
done
if kill -0 "$pid" 2>/dev/null; then
	ps -o pid,etimes,args -p "$pid" || true
	kill "$pid"
	fail "the remote command of ev=hang outlived its timeout=2s"
fi
echo "PASS"
