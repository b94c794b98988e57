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

cleanup_cluster() {
	cleanup
	"$NETNS" down "$CID" >/dev/null 2>&1 || true
}
