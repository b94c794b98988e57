# Target safety, end to end with the real binary on loop devices (root):
# a mounted ext4 (mounted read-only, never rw) and the image file behind
# its loop device, an unmounted ext4, an MBR
# and a GPT partition table and a swap signature are each refused for a
# write run (exit 1, the message names the device, the reason and the
# override, and the device's bytes are unchanged) and allowed for a
# read-only run; force=yes overrides the signature cases only (the console
# and summary.json say what was overwritten), never the mounted one. Then,
# with tests/tools/planpeer acting as a hostile master: a daemon without
# --allow refuses a plan; --allow globs and a symlink out of them; a
# journal= folder outside --allow is refused and never made; a plan
# with each bad field gets an `error` naming it and the slave lives on.
# A FIFO lun returns at once with an error; a file lun that does not fit
# its file system, and a missing lun under /dev, are refused and never
# created. (A mounted partition of the device is only unit-tested: this
# kernel reads no partition tables from loop devices.)
source "$(dirname "$0")/lib.sh"

PLANPEER="$(dirname "$ZSEND")/planpeer"
[ -x "$PLANPEER" ] || fail "no planpeer next to $ZSEND"

LOOPS=()
safety_cleanup() {
	umount "$TMP/mnt" 2>/dev/null || true
	for d in "${LOOPS[@]:-}"; do
		[ -n "$d" ] && losetup -d "$d" 2>/dev/null || true
	done
	cleanup
}
trap safety_cleanup EXIT

# ---- plans from a hostile master (no root needed) -----------------------
mkdir -p "$TMP/ok" "$TMP/out-of-glob"
head -c 1048576 /dev/zero > "$TMP/ok/data"
head -c 1048576 /dev/zero > "$TMP/out-of-glob/secret"
ln -s "$TMP/out-of-glob/secret" "$TMP/ok/link"

# peer MODE ARGS... -- SLAVE-ARGS...: planpeer against one real slave.
peer() {
	local args=() slave_args=() port=""
	while [ "$1" != "--" ]; do args+=("$1"); shift; done
	shift
	slave_args=("$@")
	# Emptied here, not only by the redirection below: that one happens
	# in the child, which a busy machine may not have run yet when the
	# loop reads the file, and the slave would dial the port of the
	# previous peer (seen: "no hello").
	: > "$TMP/peer.txt"
	"$PLANPEER" "${args[@]}" > "$TMP/peer.txt" 2>&1 &
	local ppid=$!
	PIDS+=("$ppid")
	for _ in $(seq 100); do
		port=$(sed -n 's/^port \([0-9]*\)$/\1/p' "$TMP/peer.txt")
		[ -n "$port" ] && break
		sleep 0.1
	done
	[ -n "$port" ] || fail "planpeer said no port"
	"$LOCKSTEP" slave --master "tcp://127.0.0.1:$port" --name victim --insecure \
		"${slave_args[@]}" > "$TMP/slave.txt" 2>&1 &
	local spid=$!
	PIDS+=("$spid")
	set +e
	timeout 60 tail --pid="$ppid" -f /dev/null
	wait "$ppid"
	prc=$?
	# The slave must still be alive to have answered the last plan; it
	# ends on the peer's stop (a daemon is stopped here).
	timeout 5 tail --pid="$spid" -f /dev/null
	kill "$spid" 2>/dev/null
	wait "$spid"
	src=$?
	set -e
}

peer fields "$TMP/ok/data" -- --allow "$TMP/ok/*"
[ "$prc" -eq 0 ] || { cat "$TMP/peer.txt" "$TMP/slave.txt"; fail "a bad plan field was not refused by name (see above)"; }
[ "$src" -lt 128 ] || { fail_show "$TMP/slave.txt" "the slave died of signal $((src - 128)) on bad plans"; }
grep -q "AddressSanitizer\|runtime error" "$TMP/slave.txt" && { fail_show "$TMP/slave.txt" "sanitizer report from the slave"; }
echo "ok: $(grep -c '^ok phase' "$TMP/peer.txt") bad plans refused by field, a good one ready, a go a day away refused"

peer refuse "$TMP/ok/data" "--allow" -- --daemon
[ "$prc" -eq 0 ] || { cat "$TMP/peer.txt" "$TMP/slave.txt"; fail "a daemon without --allow took a plan"; }
grep -q "accepts no targets" "$TMP/slave.txt" || { fail_show "$TMP/slave.txt" "a daemon without --allow did not say so at start"; }
echo "ok: a daemon without --allow refuses every target and says so"

peer refuse "$TMP/ok/link" "resolves to $TMP/out-of-glob/secret" -- --allow "$TMP/ok/*"
[ "$prc" -eq 0 ] || { cat "$TMP/peer.txt" "$TMP/slave.txt"; fail "a symlink out of the --allow glob was opened"; }
peer refuse "$TMP/out-of-glob/secret" "no --allow glob matches" -- --allow "/nonexistent/*,$TMP/ok/*"
[ "$prc" -eq 0 ] || { cat "$TMP/peer.txt" "$TMP/slave.txt"; fail "a path outside --allow was opened"; }
echo "ok: --allow globs hold, symlinks resolved"
# A dangling symlink inside the glob, pointing out of it: the file to be
# created is never created through it.
ln -s "$TMP/out-of-glob/made" "$TMP/ok/dangle"
peer create "$TMP/ok/dangle" "cannot resolve it" -- --allow "$TMP/ok/*"
[ "$prc" -eq 0 ] || { cat "$TMP/peer.txt" "$TMP/slave.txt"; fail "a file was created through a dangling symlink"; }
[ ! -e "$TMP/out-of-glob/made" ] || fail "the slave created a file outside --allow through a symlink"
echo "ok: no file created through a symlink"
# A plan the slave's decoder refuses still gets an error, for its phase.
peer undecodable "$TMP/ok/data" -- --allow "$TMP/ok/*"
[ "$prc" -eq 0 ] || { cat "$TMP/peer.txt" "$TMP/slave.txt"; fail "an undecodable plan got no error"; }
echo "ok: an undecodable plan gets an error"
# The journal folder obeys --allow like a target: never made outside it.
peer refuse "$TMP/ok/data" "--allow limits where it writes" "$TMP/out-of-glob/jnl" -- --allow "$TMP/ok/*"
[ "$prc" -eq 0 ] || { cat "$TMP/peer.txt" "$TMP/slave.txt"; fail "a journal folder outside --allow was accepted"; }
[ ! -e "$TMP/out-of-glob/jnl" ] || fail "the slave made a journal folder outside --allow"
grep -q "journal=$TMP/out-of-glob/jnl: .*no --allow glob matches" "$TMP/slave.txt" ||
	{ fail_show "$TMP/slave.txt" "the slave did not name the refused journal folder"; }
echo "ok: the journal folder obeys --allow"

# ---- a FIFO lun --------------------------------------------------------
mkfifo "$TMP/fifo"
cat > "$TMP/fifo.vdb" <<VDB
sd=sd1,lun=$TMP/fifo,threads=1
wd=wd1,sd=sd1,xfersize=4k,rdpct=100
rd=r1,wd=wd1,elapsed=1,interval=1
VDB
start=$(date +%s)
run_bounded 30 "$LOCKSTEP" run "$TMP/fifo.vdb" -o "$TMP/out-fifo" --local-slaves 1 > "$TMP/fifo.txt" 2>&1
[ "$rc" -eq 1 ] || { fail_show "$TMP/fifo.txt" "a FIFO lun: exit $rc, expected 1"; }
grep -q "is a FIFO" "$TMP/fifo.txt" || { fail_show "$TMP/fifo.txt" "a FIFO lun: no message saying so"; }
[ $(($(date +%s) - start)) -le 20 ] || fail "a FIFO lun took over 20 s"
grep -q "targets limited to 1 --allow entry" "$TMP/out-fifo/lockstep.log" || { fail_show "$TMP/out-fifo/lockstep.log" "the local slave did not get the lun as its allowlist"; }
echo "ok: a FIFO lun fails at once; launched slaves get the luns as their allowlist"

# ---- files that would be created -----------------------------------------
# No room: a 100 TiB lun in $TMP is refused before a byte is written.
cat > "$TMP/big.vdb" <<VDB
sd=sd1,lun=$TMP/big.dat,size=100t,threads=1
wd=wd1,sd=sd1,xfersize=4k,rdpct=100
rd=r1,wd=wd1,elapsed=1,interval=1
VDB
run_bounded 30 "$LOCKSTEP" run "$TMP/big.vdb" -o "$TMP/out-big" --local-slaves 1 > "$TMP/big.txt" 2>&1
[ "$rc" -eq 1 ] || { fail_show "$TMP/big.txt" "a lun larger than its file system: exit $rc, expected 1"; }
grep -q "its file system has [0-9]* available" "$TMP/big.txt" || { fail_show "$TMP/big.txt" "no message saying the file system has no room"; }
[ ! -e "$TMP/big.dat" ] || fail "the lun that does not fit was created"
# Never under /dev: a missing lun there is not created.
DEVLUN="/dev/lockstep-test-$$"
cat > "$TMP/dev.vdb" <<VDB
sd=sd1,lun=$DEVLUN,size=1m,threads=1
wd=wd1,sd=sd1,xfersize=4k,rdpct=100
rd=r1,wd=wd1,elapsed=1,interval=1
VDB
run_bounded 30 "$LOCKSTEP" run "$TMP/dev.vdb" -o "$TMP/out-dev" --local-slaves 1 > "$TMP/dev.txt" 2>&1
[ ! -e "$DEVLUN" ] || { rm -f "$DEVLUN"; fail "a file was created under /dev"; }
[ "$rc" -eq 1 ] || { fail_show "$TMP/dev.txt" "a missing lun under /dev: exit $rc, expected 1"; }
grep -q "creates files only outside /dev" "$TMP/dev.txt" || { fail_show "$TMP/dev.txt" "no message saying files are not created under /dev"; }
echo "ok: a lun without room and a missing lun under /dev are refused and never created"

# ---- loop devices ------------------------------------------------------
if [ "$(id -u)" -ne 0 ] || ! command -v losetup > /dev/null; then
	echo "SKIP (loop devices): needs root and losetup"
	echo "PASS"
	exit 0
fi
for tool in mkfs.ext4 sfdisk mkswap; do
	command -v "$tool" > /dev/null || fail "$tool is missing (scripts/install-deps.sh installs it)"
done

# loop NAME [CMD...]: a 16 MiB image, CMD run on the image file (so that
# no partition re-read is asked of a kernel that cannot do it), then a
# loop device over it, in $DEV.
loop() {
	local img="$TMP/$1.img"
	shift
	truncate -s 16M "$img"
	[ $# -eq 0 ] || "$@" "$img" > /dev/null 2>&1 || fail "$* failed"
	DEV=$(losetup -f --show "$img") || fail "losetup failed"
	LOOPS+=("$DEV")
}
mbr() { echo 'label: dos
,8M,83' | sfdisk -q "$1"; }
gpt() { echo 'label: gpt
,8M' | sfdisk -q "$1"; }
sum() { md5sum < "$1" | cut -d' ' -f1; }

# run_on DEV RDPCT FORCE OUT: one short run on DEV; exit code in $rc.
run_on() {
	local force=""
	[ "$3" = yes ] && force=",force=yes"
	cat > "$TMP/l.vdb" <<VDB
sd=sd1,lun=$1,threads=2$force
wd=wd1,sd=sd1,xfersize=4k,rdpct=$2
rd=r1,wd=wd1,elapsed=1,interval=1
VDB
	rm -rf "$TMP/$4"
	run_bounded 60 "$LOCKSTEP" run "$TMP/l.vdb" -o "$TMP/$4" --local-slaves 1 > "$TMP/$4.txt" 2>&1
}

# check NAME DEV WHAT SIGNATURE: refused for writes (named, unchanged),
# allowed for reads; with force=yes, SIGNATURE "" means still refused.
check() {
	local name=$1 dev=$2 what=$3 sig=$4 before
	before=$(sum "$dev")
	run_on "$dev" 0 no "$name-w"
	[ "$rc" -eq 1 ] || { fail_show "$TMP/$name-w.txt" "$name: a write run exited $rc, expected 1"; }
	grep "$dev" "$TMP/$name-w.txt" | grep "$what" > /dev/null || { fail_show "$TMP/$name-w.txt" "$name: the refusal does not name $dev and '$what'"; }
	if [ -n "$sig" ]; then
		grep -q "force=yes on its sd overwrites it" "$TMP/$name-w.txt" || { fail_show "$TMP/$name-w.txt" "$name: the refusal does not name the override"; }
	fi
	[ "$(sum "$dev")" = "$before" ] || fail "$name: the refused write run changed $dev"
	run_on "$dev" 100 no "$name-r"
	[ "$rc" -eq 0 ] || { fail_show "$TMP/$name-r.txt" "$name: a read-only run exited $rc, expected 0"; }
	[ "$(sum "$dev")" = "$before" ] || fail "$name: the read-only run changed $dev"
	run_on "$dev" 0 yes "$name-f"
	if [ -z "$sig" ]; then
		[ "$rc" -eq 1 ] || { fail_show "$TMP/$name-f.txt" "$name: force=yes wrote to it (exit $rc)"; }
		[ "$(sum "$dev")" = "$before" ] || fail "$name: force=yes changed $dev"
		echo "ok: $name refused for writes (force=yes too), read-only allowed"
		return
	fi
	[ "$rc" -eq 0 ] || { fail_show "$TMP/$name-f.txt" "$name: force=yes run exited $rc, expected 0"; }
	grep -q "sd1 on slave local-1: force=yes: overwriting an\? $sig signature on $dev" "$TMP/$name-f.txt" || { fail_show "$TMP/$name-f.txt" "$name: the console does not say force=yes overwrote $sig"; }
	python3 - "$TMP/$name-f/summary.json" "$dev" "$sig" <<'PY' || fail "$name: summary.json does not record force=yes"
import json, sys
s = json.load(open(sys.argv[1]))
f = s["forced"]
assert f == [{"slave": "local-1", "sd": "sd1", "lun": sys.argv[2],
              "signature": sys.argv[3]}], f
PY
	echo "ok: $name refused for writes, read-only allowed, force=yes overwrote $sig and said so"
}

loop ext4m mkfs.ext4 -q -F
mkdir -p "$TMP/mnt"
mount -o ro "$DEV" "$TMP/mnt"
check mounted "$DEV" "mounted on $TMP/mnt" ""
# The image file under the mounted loop device: never written either.
check backing "$TMP/ext4m.img" "backs loop device $(basename "$DEV"), mounted on $TMP/mnt" ""
umount "$TMP/mnt"

# A partition of the device mounted: partx adds the partition (this kernel
# may not scan tables by itself); mkfs writes the partition before any
# mount, the mount is read-only from the start.
if command -v partx > /dev/null; then
	loop part mbr
	partx -a "$DEV" 2> /dev/null || true
	if [ -b "${DEV}p1" ]; then
		mkfs.ext4 -q -F "${DEV}p1" > /dev/null 2>&1 || fail "mkfs on ${DEV}p1"
		mount -o ro "${DEV}p1" "$TMP/mnt"
		check partmounted "$DEV" "its partition $(basename "$DEV")p1 is mounted on $TMP/mnt" ""
		umount "$TMP/mnt"
		partx -d "$DEV" 2> /dev/null || true
	else
		echo "SKIP (a mounted partition): the kernel made no ${DEV}p1"
	fi
fi

loop ext4 mkfs.ext4 -q -F
check ext4 "$DEV" "holds an ext4 filesystem" ext4

loop mbr mbr
check mbr "$DEV" "holds a dos partition table" dos

loop gpt gpt
check gpt "$DEV" "holds a gpt partition table" gpt

loop swap mkswap
check swap "$DEV" "holds a swap" swap

echo "PASS"
