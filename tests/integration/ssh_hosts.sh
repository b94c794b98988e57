# hd= hosts reached through the system's ssh: two test hosts in network
# namespaces, each with a real sshd; the master starts one slave on each
# through ssh, streams their stderr into lockstep.log prefixed by host, runs
# the phase and stops them.
source "$(dirname "$0")/lib.sh"
if [ ! -x /usr/sbin/sshd ] || ! command -v ssh >/dev/null; then
	echo "SKIP: needs sshd and ssh"
	exit 77
fi
start_cluster 2 lss

ssh-keygen -q -t ed25519 -N "" -f "$TMP/id" >/dev/null
ssh-keygen -q -t ed25519 -N "" -f "$TMP/hostkey" >/dev/null
cp "$TMP/id.pub" "$TMP/authorized_keys"
chmod 600 "$TMP/authorized_keys"
mkdir -p /run/sshd
for i in 1 2; do
	ip=${HOSTS[$((i - 1))]#*=}
	cat > "$TMP/sshd$i.conf" <<CONF
ListenAddress $ip
Port 22
HostKey $TMP/hostkey
AuthorizedKeysFile $TMP/authorized_keys
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
PidFile $TMP/sshd$i.pid
CONF
	"$NETNS" exec -c "$CID" "$i" /usr/sbin/sshd -D -e -f "$TMP/sshd$i.conf" 2> "$TMP/sshd$i.log" &
	PIDS+=($!)
done
cat > "$TMP/ssh_config" <<CONF
Host *
	IdentityFile $TMP/id
	StrictHostKeyChecking no
	UserKnownHostsFile /dev/null
	LogLevel ERROR
CONF
for i in 1 2; do
	ip=${HOSTS[$((i - 1))]#*=}
	for _ in $(seq 50); do
		ssh -F "$TMP/ssh_config" -o BatchMode=yes "root@$ip" true 2>/dev/null && break
		sleep 0.1
	done
done

cat > "$TMP/s.vdb" <<VDB
hd=default,user=root,lockstep=$LOCKSTEP
hd=h1,system=${HOSTS[0]#*=}
hd=h2,system=${HOSTS[1]#*=}
sd=sd1,lun=$TMP/s.dat,size=8m,threads=4
wd=wd1,sd=sd1,xfersize=4k,rdpct=50
rd=r1,wd=wd1,elapsed=3,interval=1
VDB
# No --insecure: the slaves it starts get per-run CURVE keys on ssh's stdin.
run_bounded 90 "$LOCKSTEP" run "$TMP/s.vdb" -o "$TMP/out" --listen "$LOCKSTEP_BRIDGE_IP" \
	--ssh "ssh -F $TMP/ssh_config" > "$TMP/console.txt" 2>&1
[ "$rc" -eq 0 ] || { cat "$TMP/console.txt" "$TMP/out/lockstep.log" "$TMP"/sshd*.log; fail "lockstep run exited $rc"; }
python3 "$HERE/check_results.py" "$TMP/out" --rdpct 50 --slaves 2
python3 - "$TMP/out" <<'PY'
import json, sys
s = json.load(open(sys.argv[1] + "/summary.json"))
names = sorted(x["name"] for x in s["slaves"])
assert names == ["h1", "h2"], names
assert s["authentication"] == "curve" and s["insecure"] is False, s

PY
grep -q "^${HOSTS[0]#*=}: .*h1" "$TMP/out/lockstep.log" ||
	grep -q "^${HOSTS[1]#*=}: .*h2" "$TMP/out/lockstep.log" ||
	{ cat "$TMP/out/lockstep.log"; fail "no slave stderr line prefixed by its host in lockstep.log"; }
! pgrep -f "lockstep slave --master tcp://$LOCKSTEP_BRIDGE_IP" >/dev/null || fail "slaves still running after the run"
echo "PASS"
