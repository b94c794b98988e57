#!/usr/bin/env bash
# A first cluster run on one machine (needs root): two test hosts made of
# network namespaces (scripts/netns-cluster.sh), a CURVE key pair for the
# master and for each host, a `lockstep slave --daemon` in each host that
# may open only /tmp/lockstep-cluster/*, and a master on the bridge running
# examples/cluster.vdb. Everything it made is removed at the end, except the
# results folder (lockstep-output/) and the two 128 MiB files.
#
# usage: scripts/cluster-demo.sh [BUILD_DIR]   (default build)
set -euo pipefail
cd "$(dirname "$0")/.."
LOCKSTEP=$(realpath "${1:-build}")/lockstep
[ -x "$LOCKSTEP" ] || { echo "cluster-demo: build first (no $LOCKSTEP)" >&2; exit 2; }
[ "$(id -u)" -eq 0 ] || { echo "cluster-demo: needs root (network namespaces)" >&2; exit 2; }

keys=$(mktemp -d /tmp/lockstep-keys.XXXXXX)
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
	wait 2>/dev/null || true
	scripts/netns-cluster.sh down "$cid" >/dev/null 2>&1 || true
	rm -rf "$keys"
}
cid=$(scripts/netns-cluster.sh up 2 --prefix demo 2>/dev/null | tail -1)
trap cleanup EXIT
eval "$(scripts/netns-cluster.sh env "$cid")"
mkdir -p /tmp/lockstep-cluster

# One key pair for the master, one per host; the master admits each
# host's public key under that host's name only.
"$LOCKSTEP" keygen "$keys" --name master >/dev/null
for h in h1 h2; do
	"$LOCKSTEP" keygen "$keys" --name "$h" >/dev/null
	echo "$(cat "$keys/$h.pub") $h" >> "$keys/authorized"
done

# A port pair the master will take on the bridge (ROUTER on P, PUB on P+1).
port=$(/usr/bin/python3 scripts/free-port-pair.py "$LOCKSTEP_BRIDGE_IP")

for i in 1 2; do
	scripts/netns-cluster.sh exec -c "$cid" "$i" "$LOCKSTEP" slave --daemon \
		--name "h$i" --allow '/tmp/lockstep-cluster/*' \
		--key "$keys/h$i.key" --master-key "$keys/master.pub" \
		--master "tcp://$LOCKSTEP_BRIDGE_IP:$port" 2> "$keys/h$i.log" &
	pids+=($!)
done

"$LOCKSTEP" run examples/cluster.vdb --listen "$LOCKSTEP_BRIDGE_IP" \
	--port "$port" --key "$keys/master.key" \
	--authorized-slaves "$keys/authorized"
