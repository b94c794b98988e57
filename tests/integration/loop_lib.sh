# A 64 MiB loop device on a file under $TMP and an empty cgroup for a
# test that throttles it (blkio_lib.sh, warmup_steady.sh, knee.sh, slo_search.sh,
# easy.sh, generator_bound.sh): loop_up CGDIR
# sets LOOP, MM (its major:minor) and CG; loop_down (from the test's EXIT
# trap) detaches the device and removes the group once its processes are
# gone. loop_second sets LOOP2 and MM2: a second such device, which
# loop_down detaches too. Sourced after lib.sh.
LOOP=
LOOP2=
CG=
loop_up() {
	CG=$1
	truncate -s 64m "$TMP/disk.img"
	LOOP=$(losetup -f --show "$TMP/disk.img")
	MM=$(lsblk -ndo MAJ:MIN "$LOOP" | tr -d ' ')
	mkdir "$CG"
}
loop_second() {
	truncate -s 64m "$TMP/disk2.img"
	LOOP2=$(losetup -f --show "$TMP/disk2.img") || fail "no second loop device"
	MM2=$(lsblk -ndo MAJ:MIN "$LOOP2" | tr -d ' ')
}
loop_down() {
	[ -n "$LOOP" ] && losetup -d "$LOOP" 2>/dev/null || true
	[ -n "$LOOP2" ] && losetup -d "$LOOP2" 2>/dev/null || true
	for _ in 1 2 3 4 5 6 7 8 9 10; do
		[ -n "$CG" ] && [ -d "$CG" ] || break
		rmdir "$CG" 2>/dev/null || sleep 0.2
	done
}

# loop_throttled NAME: a test that runs lockstep on a throttled loop
# device: SKIP (77) without root and cgroup v1 blkio; else loop_up on
# /sys/fs/cgroup/blkio/NAME-PID, loop_down on EXIT, and IN_CG, a command
# prefix that starts a command in the group ("${IN_CG[@]}" CMD...: its
# local slaves are born there too).
loop_throttled() {
	if [ "$(id -u)" -ne 0 ] || [ ! -w /sys/fs/cgroup/blkio/cgroup.procs ]; then
		echo "SKIP: needs root and cgroup v1 blkio (a throttled loop device)"
		exit 77
	fi
	trap 'cleanup; loop_down' EXIT
	loop_up "/sys/fs/cgroup/blkio/$1-$$"
	IN_CG=(sh -c 'echo $$ > "$1/cgroup.procs"; shift; exec "$@"' sh "$CG")
}
