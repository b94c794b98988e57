# Shared helpers for the integration tests: a private temporary folder that
# is removed on exit, processes killed on exit, and assertions that say what
# failed. Each test script sources this with the lockstep binary as $1.
set -euo pipefail
LOCKSTEP=${1:?usage: $0 path/to/lockstep [path/to/zsend]}
ZSEND=${2:-}
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TMP=$(mktemp -d /tmp/lockstep-test.XXXXXX)
PIDS=()

cleanup() {
	for p in "${PIDS[@]:-}"; do
		[ -n "$p" ] && kill -9 "$p" 2>/dev/null || true
	done
	rm -rf "$TMP"
}
trap cleanup EXIT

fail() {
	echo "FAIL: $*" >&2
	exit 1
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

# free_port_pair ADDR: a port P on ADDR with P+1 free too (a master's
# ROUTER and PUB), for tests whose daemons must know the port before the
# master starts. Fails the test when none is found.
free_port_pair() {
	local port
	port=$(python3 - "$1" <<'PY'
import socket, sys
for _ in range(100):
    a = socket.socket(); a.bind((sys.argv[1], 0)); p = a.getsockname()[1]
    b = socket.socket()
    try:
        b.bind((sys.argv[1], p + 1))
    except OSError:
        continue
    finally:
        a.close(); b.close()
    print(p); break
PY
	)
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

cleanup_cluster() {
	cleanup
	"$NETNS" down "$CID" >/dev/null 2>&1 || true
}

# hello_hex PROTO NAME VERSION: a hello frame in hex as a slave of that
# protocol and lockstep version would send it (engines [null], pid 4242,
# host testhost, one core), hand-encoded so that it stays what an old or
# foreign slave sends whatever this build's encoder does.
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
