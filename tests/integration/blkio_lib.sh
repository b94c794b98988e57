# Shared by events_degrade.sh and events_restore.sh: one test host in a
# network namespace (prefix $BLKIO_PREFIX, set before sourcing) whose
# daemon slave runs in a blkio cgroup of its own (cgroup v1 blkio, or
# v2's io controller), reading a 64 MiB loop device. Sets BR, PORT, LOOP, MM (its major:minor), CG, CAP_FILE,
# CAP_ON (a 100 IO/s read cap) and CAP_OFF, and cleans up on exit.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
source "$(dirname "${BASH_SOURCE[0]}")/loop_lib.sh"
start_cluster 1 "$BLKIO_PREFIX"
BR=$LOCKSTEP_BRIDGE_IP
PORT=$(free_port_pair "$BR")
if [ -w /sys/fs/cgroup/blkio/cgroup.procs ]; then
	GROUP=/sys/fs/cgroup/blkio/lockstep-events-$$
	CAP_FILE=blkio.throttle.read_iops_device CAP_ON=100 CAP_OFF=0
elif [ -w /sys/fs/cgroup/cgroup.subtree_control ]; then
	echo +io > /sys/fs/cgroup/cgroup.subtree_control ||
		fail "cannot enable the io controller of cgroup v2"
	GROUP=/sys/fs/cgroup/lockstep-events-$$
	CAP_FILE=io.max CAP_ON=riops=100 CAP_OFF=riops=max
else
	fail "neither cgroup v1 blkio nor cgroup v2 is mounted under /sys/fs/cgroup"
fi

cleanup_degrade() {
	cleanup_cluster
	loop_down
}
trap cleanup_degrade EXIT
loop_up "$GROUP"

# The daemon enters the group before it execs, here (ip netns exec
# mounts a /sys of its own, without the cgroup file systems): its workers
# and their io_uring threads are born in it.
sh -c 'echo $$ > "$1/cgroup.procs"; shift; exec "$@"' sh "$CG" \
	"$NETNS" exec -c "$CID" 1 "$LOCKSTEP" slave --daemon --name h1 \
	--allow "$LOOP" --insecure --master "tcp://$BR:$PORT" \
	>> "$TMP/h1.log" 2>&1 &
PIDS+=($!)

