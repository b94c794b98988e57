#!/usr/bin/env bash
# A cluster of test hosts on one machine: N network namespaces joined by a
# Linux bridge in the root namespace. The bridge has SUBNET.1 (a master
# binds there), host I has SUBNET.(10+I) on its eth0, a veth whose other end
# is in the bridge. SUBNET is 10.77.0 unless taken (then the next free
# 10.77.K). The namespaces get no default route: they reach the bridge and
# each other, nothing else. Names carry a per-invocation id (prefix + pid),
# so parallel tests do not collide; `down` removes every namespace, veth and
# bridge of the cluster, after ending the processes left inside it.
#
# usage: scripts/netns-cluster.sh COMMAND ...
#   up N [--prefix P] [--subnet A.B.C]
#                          create N hosts (1..200); prints the cluster id
#   down [ID]              remove a cluster; nothing to remove is no error
#   exec [-c ID] I CMD...  run CMD in host I's namespace
#   link [-c ID] I down|up take host I's link down (a pulled cable) or up
#   env [ID]               print the cluster's variables as shell exports
#   list                   clusters on this machine, and whether their owner
#                          (the caller of up, or run) is still running
#   run N [--prefix P] [--subnet A.B.C] -- CMD...
#                          up, run CMD here (the root namespace) with the
#                          variables below, and down when CMD ends, fails or
#                          is interrupted; exits with CMD's status
#
# Without ID (or -c ID), commands use $LOCKSTEP_CLUSTER, or the only cluster.
# Variables (run sets them for CMD; env prints them):
#   LOCKSTEP_CLUSTER    the cluster id
#   LOCKSTEP_BRIDGE_IP  the root namespace's address on the bridge
#   LOCKSTEP_HOSTS      "NS=IP NS=IP ...", host 1 first
#   LOCKSTEP_NETNS      this script, for exec and link from CMD
# Needs root and iproute2. Prefix: 1..4 lower-case letters or digits (Linux
# interface names are at most 15 characters).
set -euo pipefail

SELF=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")
STATE=/run/lockstep-netns
MAX_HOSTS=200

usage() { sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"; }
die() {
	echo "netns-cluster: $*" >&2
	exit 2
}
say() { echo "netns-cluster: $*" >&2; }

need_root() {
	[ "$(id -u)" -eq 0 ] || die "needs root (network namespaces, bridges)"
	command -v ip >/dev/null || die "needs iproute2 (ip)"
	mkdir -p "$STATE"
}

# Names of cluster $1's objects.
br_name() { echo "${1}b"; }
veth_name() { echo "${1}v${2}"; }
ns_name() { echo "${1}-h${2}"; }

# Load cluster $1's state file: sets C_ID, C_N, C_SUBNET.
load() {
	local f=$STATE/$1
	[ -f "$f" ] || die "no cluster '$1' (see: $0 list)"
	C_ID=$1
	C_N=$(sed -n 's/^n=//p' "$f")
	C_SUBNET=$(sed -n 's/^subnet=//p' "$f")
	if ! { [[ $C_N =~ ^[0-9]+$ ]] && [ -n "$C_SUBNET" ]; }; then
		die "state file $f is damaged; '$0 down $1' removes it"
	fi
}

# Pick the cluster: explicit, $LOCKSTEP_CLUSTER, or the only one.
resolve() {
	local want=${1:-${LOCKSTEP_CLUSTER:-}} all
	if [ -n "$want" ]; then
		echo "$want"
		return
	fi
	all=$(list_ids)
	case $(echo "$all" | grep -c .) in
	0) die "no cluster exists" ;;
	1) echo "$all" ;;
	*) die "several clusters exist ($(echo "$all" | tr '\n' ' ')); name one (-c ID or LOCKSTEP_CLUSTER)" ;;
	esac
}

list_ids() {
	local f
	[ -d "$STATE" ] || return 0
	for f in "$STATE"/*; do
		[ -f "$f" ] && basename "$f"
	done
	return 0
}

# Is 10.77.K.0/24 free: no address in it here, no route for it?
subnet_free() {
	local net=$1
	! ip -4 -o addr show | grep " inet ${net//./\\.}\." > /dev/null &&
		[ -z "$(ip -4 route show "$net.0/24" 2>/dev/null)" ] &&
		! grep -qx "subnet=$net" "$STATE"/* 2>/dev/null
}

# The cluster being made (or run), its CMD, and whether it is to be kept:
# on_exit removes a cluster that `up` did not finish or that `run` made.
CLUSTER_ID=
KEEP_CLUSTER=0
RUN_CHILD=
on_exit() {
	local rc=$?
	if [ -n "$RUN_CHILD" ] && kill -0 "$RUN_CHILD" 2>/dev/null; then
		kill -TERM "$RUN_CHILD" 2>/dev/null || true
		for _ in $(seq 50); do
			kill -0 "$RUN_CHILD" 2>/dev/null || break
			sleep 0.1
		done
		kill -KILL "$RUN_CHILD" 2>/dev/null || true
	fi
	if [ -n "$CLUSTER_ID" ] && [ "$KEEP_CLUSTER" -eq 0 ]; then
		[ -n "$RAN" ] || say "up did not finish; removing what was made"
		teardown "$CLUSTER_ID"
	fi
	exit "$rc"
}
RAN=
OWNER=$PPID
trap on_exit EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

# Make a cluster; sets CLUSTER_ID as soon as the name is claimed.
cluster_up() {
	local n='' prefix=ls subnet='' id i ns v br k explicit=0
	while [ $# -gt 0 ]; do
		case $1 in
		--prefix) prefix=${2:?--prefix wants a value}; shift 2 ;;
		--subnet) subnet=${2:?--subnet wants A.B.C}; explicit=1; shift 2 ;;
		-*) die "up: unknown option $1" ;;
		*) [ -z "$n" ] || die "up: one N only"; n=$1; shift ;;
		esac
	done
	if ! { [[ $n =~ ^[1-9][0-9]*$ ]] && [ "$n" -le $MAX_HOSTS ]; }; then
		die "up: N must be 1..$MAX_HOSTS, not '$n'"
	fi
	[[ $prefix =~ ^[a-z0-9]{1,4}$ ]] || die "up: prefix must be 1..4 of [a-z0-9], not '$prefix'"
	if [ -n "$subnet" ]; then
		[[ $subnet =~ ^([0-9]{1,3})\.([0-9]{1,3})\.([0-9]{1,3})$ ]] || die "up: --subnet wants A.B.C, not '$subnet'"
	fi
	need_root

	# Pick the id and the subnet and claim them in a state file, under a
	# lock so that parallel `up`s cannot take the same ones.
	exec 9> "$STATE/.lock"
	flock 9
	id=$prefix$$
	if [ -e "$STATE/$id" ] || ip link show "$(br_name "$id")" >/dev/null 2>&1; then
		id=$prefix$((RANDOM % 100000))
		[ ! -e "$STATE/$id" ] || die "up: cannot find a free cluster id"
	fi
	if [ $explicit -eq 1 ]; then
		subnet_free "$subnet" || die "up: subnet $subnet.0/24 is in use here"
	else
		for ((k = 0; k < 256; k++)); do
			subnet=10.77.$k
			subnet_free "$subnet" && break
		done
		[ $k -lt 256 ] || die "up: no free 10.77.K.0/24 subnet"
	fi
	# The owner is who will take the cluster down: `run` itself, or the
	# caller of `up`. `list` shows whether it is still there.
	printf 'n=%s\nsubnet=%s\nowner=%s\n' "$n" "$subnet" "$OWNER" > "$STATE/$id"
	CLUSTER_ID=$id
	flock -u 9
	exec 9>&-

	# From here on a failure (set -e) or a signal ends in on_exit, which
	# removes what was made.
	br=$(br_name "$id")
	ip link add "$br" type bridge
	sysctl -qw "net.ipv6.conf.$br.disable_ipv6=1" || true
	ip addr add "$subnet.1/24" dev "$br"
	ip link set "$br" up
	for ((i = 1; i <= n; i++)); do
		ns=$(ns_name "$id" "$i")
		v=$(veth_name "$id" "$i")
		ip netns add "$ns"
		ip netns exec "$ns" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 \
			net.ipv6.conf.default.disable_ipv6=1 || true
		ip link add "$v" type veth peer name eth0 netns "$ns"
		sysctl -qw "net.ipv6.conf.$v.disable_ipv6=1" || true
		ip link set "$v" master "$br"
		ip link set "$v" up
		ip -n "$ns" link set lo up
		ip -n "$ns" addr add "$subnet.$((10 + i))/24" dev eth0
		ip -n "$ns" link set eth0 up
	done
	say "cluster $id: bridge $br at $subnet.1, hosts $(ns_name "$id" 1)..$(ns_name "$id" "$n") at $subnet.11..$subnet.$((10 + n))"
}

cmd_up() {
	cluster_up "$@"
	KEEP_CLUSTER=1
	echo "$CLUSTER_ID"
}

# End processes left in a namespace: TERM, then KILL after 3 s.
end_ns_pids() {
	local ns=$1 pids t
	pids=$(ip netns pids "$ns" 2>/dev/null || true)
	[ -n "$pids" ] || return 0
	say "ending processes left in $ns: $(echo "$pids" | tr '\n' ' ')"
	# shellcheck disable=SC2086 # one pid per word
	kill -TERM $pids 2>/dev/null || true
	for ((t = 0; t < 30; t++)); do
		pids=$(ip netns pids "$ns" 2>/dev/null || true)
		[ -n "$pids" ] || return 0
		sleep 0.1
	done
	# shellcheck disable=SC2086
	kill -KILL $pids 2>/dev/null || true
}

# Remove everything named after cluster $1, whether or not the state file
# says it exists: a half-made cluster is removed as well as a whole one.
# Says what it did.
teardown() {
	local id=$1 ns l found=0
	[ ! -e "$STATE/$id" ] || found=1
	for ns in $(ip netns list 2>/dev/null | awk '{print $1}' | grep -E "^${id}-h[0-9]+$" || true); do
		end_ns_pids "$ns"
		ip netns del "$ns" 2>/dev/null || true
		found=1
	done
	# Deleting a namespace takes its eth0 and so the veth pair; these are
	# what a failed step may have left in the root namespace.
	for l in $(ip -o link show 2>/dev/null | awk -F': ' '{print $2}' | cut -d@ -f1 |
		grep -E "^${id}(b|v[0-9]+)$" || true); do
		ip link del "$l" 2>/dev/null || true
		found=1
	done
	rm -f "${STATE:?}/$id"
	if [ $found -eq 1 ]; then
		say "cluster $id removed"
	else
		say "cluster $id: nothing to remove"
	fi
}

cmd_down() {
	local id
	[ $# -le 1 ] || die "down: one cluster id at most"
	need_root
	if [ $# -eq 0 ] && [ -z "${LOCKSTEP_CLUSTER:-}" ] && [ -z "$(list_ids)" ]; then
		return 0
	fi
	id=$(resolve "${1:-}")
	[[ $id =~ ^[a-z0-9]{1,4}[0-9]+$ ]] || die "down: '$id' is not a cluster id"
	teardown "$id"
}

# -c ID before the other arguments.
take_cluster_opt() {
	OPT_CLUSTER=
	if [ "${1:-}" = -c ] || [ "${1:-}" = --cluster ]; then
		OPT_CLUSTER=${2:?-c wants a cluster id}
		SHIFT=2
	else
		SHIFT=0
	fi
}

host_index() {
	if ! { [[ $1 =~ ^[1-9][0-9]*$ ]] && [ "$1" -le "$C_N" ]; }; then
		die "host must be 1..$C_N, not '$1'"
	fi
}

cmd_exec() {
	take_cluster_opt "$@"
	shift "$SHIFT"
	[ $# -ge 2 ] || die "usage: exec [-c ID] I CMD..."
	need_root
	local id ns
	id=$(resolve "$OPT_CLUSTER")
	load "$id"
	host_index "$1"
	ns=$(ns_name "$C_ID" "$1")
	shift
	exec ip netns exec "$ns" "$@"
}

cmd_link() {
	take_cluster_opt "$@"
	shift "$SHIFT"
	if ! { [ $# -eq 2 ] && { [ "$2" = up ] || [ "$2" = down ]; }; }; then
		die "usage: link [-c ID] I down|up"
	fi
	need_root
	local id
	id=$(resolve "$OPT_CLUSTER")
	load "$id"
	host_index "$1"
	ip link set "$(veth_name "$C_ID" "$1")" "$2"
}

# The variables, as NAME=VALUE lines.
cluster_vars() {
	local i hosts=
	for ((i = 1; i <= C_N; i++)); do
		hosts+="${hosts:+ }$(ns_name "$C_ID" "$i")=$C_SUBNET.$((10 + i))"
	done
	printf 'LOCKSTEP_CLUSTER=%s\nLOCKSTEP_BRIDGE_IP=%s\nLOCKSTEP_HOSTS=%s\nLOCKSTEP_NETNS=%s\n' \
		"$C_ID" "$C_SUBNET.1" "$hosts" "$SELF"
}

cmd_env() {
	[ $# -le 1 ] || die "usage: env [ID]"
	need_root
	local id
	id=$(resolve "${1:-}")
	load "$id"
	cluster_vars | while IFS='=' read -r k v; do
		printf 'export %s=%q\n' "$k" "$v"
	done
}

cmd_list() {
	local id owner state
	need_root
	for id in $(list_ids); do
		load "$id"
		owner=$(sed -n 's/^owner=//p' "$STATE/$id")
		if [ -n "$owner" ] && kill -0 "$owner" 2>/dev/null; then
			state="in use by pid $owner ($(ps -o comm= -p "$owner" 2>/dev/null || echo '?'))"
		else
			state="owner pid ${owner:-?} gone: stale, '$0 down $id' removes it"
		fi
		printf '%s\t%s hosts\t%s.0/24\t%s\n' "$id" "$C_N" "$C_SUBNET" "$state"
	done
}

cmd_run() {
	local up_args=() rc=0
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		up_args+=("$1")
		shift
	done
	if ! { [ "${1:-}" = -- ] && [ $# -ge 2 ]; }; then
		die "usage: run N [--prefix P] [--subnet A.B.C] -- CMD..."
	fi
	shift
	need_root
	OWNER=$$
	cluster_up "${up_args[@]}"
	load "$CLUSTER_ID"
	RAN=1
	# CMD runs in the background so that a signal to this script is handled
	# at once (on_exit then ends CMD and removes the cluster). It keeps this
	# script's stdin, and Ctrl-C reaches it as usual: a background command
	# would otherwise start with SIGINT ignored.
	exec 3<&0
	while IFS='=' read -r k v; do
		export "$k=$v"
	done < <(cluster_vars)
	if env --default-signal=INT true 2>/dev/null; then
		env --default-signal=INT,QUIT "$@" <&3 3<&- &
	else
		"$@" <&3 3<&- &
	fi
	RUN_CHILD=$!
	wait "$RUN_CHILD" || rc=$?
	RUN_CHILD=
	exit "$rc"
}

[ $# -ge 1 ] || { usage >&2; exit 2; }
cmd=$1
shift
case $cmd in
up) cmd_up "$@" ;;
down) cmd_down "$@" ;;
exec) cmd_exec "$@" ;;
link) cmd_link "$@" ;;
env) cmd_env "$@" ;;
list) cmd_list ;;
run) cmd_run "$@" ;;
-h | --help | help) usage ;;
*) die "unknown command '$cmd' (try --help)" ;;
esac
