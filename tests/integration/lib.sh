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
