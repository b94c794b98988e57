# Shared helpers for the integration tests: a private temporary folder that
# is removed on exit, processes killed on exit, and assertions that say what
# failed. Each test script sources this with the lockstep binary as $1.
set -euo pipefail
LOCKSTEP=${1:?usage: $0 path/to/lockstep [path/to/zsend]}
ZSEND=${2:-}
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TMP=$(mktemp -d /tmp/lockstep-test.XXXXXX)
PIDS=()
# Every run records into a history: never the real default one
# (/var/lib/lockstep/history.db for root, ~/.local/share/lockstep/...).
export LOCKSTEP_HISTORY="$TMP/history.db"
export XDG_DATA_HOME="$TMP/xdg"

# KEEP_TMP=1 keeps the temporary folder (results, logs) to look at after.
cleanup() {
	for p in "${PIDS[@]:-}"; do
		[ -n "$p" ] && kill -9 "$p" 2>/dev/null || true
	done
	[ -n "${KEEP_TMP:-}" ] || rm -rf "$TMP"
}
trap cleanup EXIT

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

# fail_show FILE MESSAGE...: the reason first (CI shows a test's first
# lines), then FILE (the console or log that tells why), then the reason.
fail_show() {
	local f=$1
	shift
	echo "FAIL: $*" >&2
	cat "$f" >&2 || true
	fail "$@"
}

# kill_slave MASTER NAME CONSOLE: once the master (a pid in the
# background) has a slave NAME and CONSOLE shows a line of the run, wait
# 2 s (its I/O in full flight) and SIGKILL that slave; then wait for the
# master (bounded) and set rc to its exit status.
kill_slave() {
	local master=$1 name=$2 console=$3 victim=""
	for _ in $(seq 100); do
		# (ps fails while the master has no children yet)
		victim=$(ps -o pid=,args= --ppid "$master" |
			awk -v n="$name" 'index($0, n) {print $1}' | head -1 || true)
		[ -n "$victim" ] && grep -q "^ *[0-9]" "$console" && break
		sleep 0.1
	done
	[ -n "$victim" ] || fail_show "$console" "no slave $name under the master"
	sleep 2
	kill -9 "$victim"
	set +e
	timeout 60 tail --pid="$master" -f /dev/null
	wait "$master"
	rc=$?
	set -e
}

# dump_dom HTML OUT: the DOM a headless Chromium builds from HTML (the
# page's script run) into OUT. Returns 2 when chromium is not installed,
# fails the test when it does not exit 0; its processes are killed.
dump_dom() {
	local chromium prof=$TMP/chr.$$.$RANDOM
	chromium=$(command -v chromium || true)
	[ -n "$chromium" ] || return 2
	# One more try, in a fresh profile, for a browser that hangs past the
	# bound (exit 124; see report_html.sh's chrome()).
	for try in 1 2; do
		run_bounded 90 "$chromium" --headless=new --no-sandbox --disable-gpu \
			--no-first-run --user-data-dir="$prof-$try" \
			--virtual-time-budget=3000 --dump-dom "file://$1" > "$2" 2> "$prof.log"
		for p in $(pgrep -f -- "--user-data-dir=$prof-$try" || true); do
			kill -9 "$p" 2>/dev/null || true
		done
		[ "$rc" -eq 124 ] && [ "$try" -eq 1 ] || break
		echo "dump_dom: chromium hung past 90 s on $1: once more" >&2
	done
	[ "$rc" -eq 0 ] || { tail -20 "$prof.log"; fail "chromium exited $rc on $1"; }
}

# Run a command with a time bound; its exit code is kept in $rc.
run_bounded() {
	local secs=$1
	shift
	set +e
	timeout -k 5 "$secs" "$@"
	rc=$?
	set -e
}

# frozen_ext4 SIZE: an ext4 of SIZE in a loop file mounted at $TMP/mnt
# for file I/O (never block I/O to its device), for tests that freeze
# it (fsfreeze); sets MNT and FLOOP. Skips the test (77) without root,
# fsfreeze or mkfs.ext4. The caller's EXIT trap calls frozen_ext4_down.
frozen_ext4() {
	if [ "$(id -u)" -ne 0 ] || ! command -v fsfreeze > /dev/null ||
		! command -v mkfs.ext4 > /dev/null; then
		echo "SKIP: needs root, fsfreeze and mkfs.ext4"
		exit 77
	fi
	MNT=$TMP/mnt
	truncate -s "$1" "$TMP/fs.img"
	mkfs.ext4 -q -F "$TMP/fs.img"
	FLOOP=$(losetup -f --show "$TMP/fs.img")
	mkdir "$MNT"
	mount "$FLOOP" "$MNT"
}

# frozen_ext4_down: thawed, every process with a file open in it killed
# (a run's slave outlives its master by a moment), unmounted, detached.
frozen_ext4_down() {
	local fd t p
	[ -n "${MNT:-}" ] || return 0
	fsfreeze -u "$MNT" 2> /dev/null || true
	for _ in 1 2 3 4 5 6 7 8 9 10; do
		mountpoint -q "$MNT" || break
		for fd in /proc/[0-9]*/fd/*; do
			t=$(readlink "$fd" 2> /dev/null) || continue
			case $t in "$MNT"/*)
				p=${fd#/proc/}
				kill -9 "${p%%/*}" 2> /dev/null || true
				;;
			esac
		done
		umount "$MNT" 2> /dev/null || sleep 0.5
	done
	[ -z "${FLOOP:-}" ] || losetup -d "$FLOOP" 2> /dev/null || true
}

# free_port_pair ADDR: a port P on ADDR with P+1 free too (a master's
# ROUTER and PUB), for tests whose daemons must know the port before the
# master starts. Fails the test when none is found.
free_port_pair() {
	local port
	port=$(python3 "$HERE/../../scripts/free-port-pair.py" "$1" || true)
	[ -n "$port" ] || fail "no free port pair on $1"
	echo "$port"
}

NETNS="$HERE/../../scripts/netns-cluster.sh"

# start_cluster N PREFIX: N test hosts in network namespaces joined by a
# bridge (the test is skipped without root). Sets CID, HOSTS ("NS=IP"
# words, host 1 first) and the LOCKSTEP_* variables of netns-cluster.sh,
# and removes the cluster, with everything left running in it, on exit.
start_cluster() {
	if [ "$(id -u)" -ne 0 ] || ! ip netns list >/dev/null 2>&1; then
		echo "SKIP: needs root and network namespaces"
		exit 77
	fi
	CID=$("$NETNS" up "$1" --prefix "$2" 2>/dev/null | tail -1)
	[ -n "$CID" ] || fail "could not build the test cluster"
	eval "$("$NETNS" env "$CID")"
	trap cleanup_cluster EXIT
	read -r -a HOSTS <<< "$LOCKSTEP_HOSTS"
}

# start_insecure_daemons N: on the cluster start_cluster built, a daemon
# slave hI (--insecure, opening only what is under $TMP) in each host I of
# 1..N, connecting to the master that is to listen on the bridge, port
# $PORT (free_port_pair) and logging to $TMP/hI.log. Sets BR (the bridge
# address) and DPID[I]; the pids are killed on exit.
declare -A DPID
start_insecure_daemons() {
	BR=$LOCKSTEP_BRIDGE_IP
	for ((i = 1; i <= $1; i++)); do
		"$NETNS" exec -c "$CID" "$i" "$LOCKSTEP" slave --daemon --name "h$i" \
			--allow "$TMP/*" --insecure --master "tcp://$BR:$PORT" \
			>> "$TMP/h$i.log" 2>&1 &
		DPID[$i]=$!
		PIDS+=($!)
	done
}

# restart_script I: $TMP/restart.sh, what an ev= runs to start hI's daemon
# again (as start_insecure_daemons did), in the background; its pid goes
# to $TMP/hI.pid for the cleanup (the namespaces go with what runs in them
# at the end). cluster_hd_lines N: the hd= lines of hosts h1..hN.
restart_script() {
	cat > "$TMP/restart.sh" <<SH
"$NETNS" exec -c "$CID" $1 "$LOCKSTEP" slave --daemon --name h$1 \
	--allow "$TMP/*" --insecure --master "tcp://$BR:$PORT" >> "$TMP/h$1.log" 2>&1 &
echo \$! > "$TMP/h$1.pid"
SH
}
cluster_hd_lines() {
	echo "hd=default,shell=none"
	for ((i = 1; i <= $1; i++)); do
		echo "hd=h$i,system=${HOSTS[$((i - 1))]#*=}"
	done
}

cleanup_cluster() {
	cleanup
	"$NETNS" down "$CID" >/dev/null 2>&1 || true
}

# hello_hex PROTO NAME VERSION: a hello frame in hex as a slave of that
# protocol and lockstep version would send it (engines [null], pid 4242,
# host testhost, one core), hand-encoded so that it stays what an old or
# foreign slave sends whatever this build's encoder does.
# The protocol version this source speaks (proto/proto.h), for frames a
# test writes itself.
PROTO_V=$(sed -n 's/^#define PROTO_VERSION \([0-9]*\)$/\1/p' "$HERE/../../proto/proto.h")

hello_hex() {
	python3 - "$@" <<'PY'
import sys
def s(x):
    b = x.encode()
    return (bytes([0xa0 + len(b)]) if len(b) < 32 else bytes([0xd9, len(b)])) + b
proto, name, ver = int(sys.argv[1]), sys.argv[2], sys.argv[3]
f = bytes([0x89]) + s("v") + bytes([proto]) + s("t") + s("hello")
f += s("id") + s("0f0e0d0c-0b0a-4908-8706-050403020100")
f += s("nm") + s(name) + s("h") + s("testhost")
f += s("pid") + bytes([0xcd, 0x10, 0x92]) + s("c") + bytes([1])
f += s("ver") + s(ver) + s("e") + bytes([0x91]) + s("null")
print(f.hex())
PY
}

# start_sshd N [CONFIG_LINE...]: a real sshd on each of the first N hosts
# of start_cluster, root logging in with a key made here; $TMP/ssh_config
# (with the extra lines given) reaches them: ssh -F "$TMP/ssh_config".
# Returns once each answers. The test is skipped without sshd and ssh.
start_sshd() {
	local n=$1 i ip
	shift
	if [ ! -x /usr/sbin/sshd ] || ! command -v ssh >/dev/null; then
		echo "SKIP: needs sshd and ssh"
		exit 77
	fi
	ssh-keygen -q -t ed25519 -N "" -f "$TMP/id" >/dev/null
	ssh-keygen -q -t ed25519 -N "" -f "$TMP/hostkey" >/dev/null
	cp "$TMP/id.pub" "$TMP/authorized_keys"
	chmod 600 "$TMP/authorized_keys"
	mkdir -p /run/sshd
	for i in $(seq "$n"); do
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
	{
		printf 'Host *\n\tIdentityFile %s\n\tStrictHostKeyChecking no\n' "$TMP/id"
		printf '\tUserKnownHostsFile /dev/null\n\tLogLevel ERROR\n'
		for i in "$@"; do printf '\t%s\n' "$i"; done
	} > "$TMP/ssh_config"
	# Up to 15 s each (it only bounds a hang: a busy machine can take
	# seconds to start sshd), and a test without its sshd says so here.
	for i in $(seq "$n"); do
		ip=${HOSTS[$((i - 1))]#*=}
		for t in $(seq 150); do
			ssh -F "$TMP/ssh_config" -o BatchMode=yes "root@$ip" true 2>/dev/null && break
			[ "$t" -lt 150 ] || { fail_show "$TMP/sshd$i.log" "sshd on host $i ($ip) did not answer"; }
			sleep 0.1
		done
	done
}

# master_port ERRFILE: the port a master on 127.0.0.1 says it listens on in
# its stderr, waiting up to 10 s; fails the test without one.
master_port() {
	local port=""
	for _ in $(seq 100); do
		port=$(sed -n 's/.*listening on tcp:\/\/127.0.0.1:\([0-9]*\).*/\1/p' "$1" | head -1)
		[ -n "$port" ] && break
		sleep 0.1
	done
	[ -n "$port" ] || fail "master did not say its port"
	echo "$port"
}

# wait_exit PID SECS: wait for a background process to end, at most SECS
# seconds; its exit code is kept in $rc.
wait_exit() {
	set +e
	timeout "$2" tail --pid="$1" -f /dev/null
	wait "$1"
	rc=$?
	set -e
}

# Daemon slaves h1..hN, one in each of the cluster's first N hosts, that
# may use $TMP/* and connect to the master at $BR:$PORT; their pids in
# DPID[i] (and PIDS, killed on exit), their output in $TMP/hI.log.
declare -gA DPID
start_daemons() {
	local i
	for i in $(seq 1 "$1"); do
		"$NETNS" exec -c "$CID" "$i" "$LOCKSTEP" slave --daemon \
			--name "h$i" --allow "$TMP/*" --insecure \
			--master "tcp://$BR:$PORT" >> "$TMP/h$i.log" 2>&1 &
		DPID[$i]=$!
		PIDS+=($!)
	done
}
