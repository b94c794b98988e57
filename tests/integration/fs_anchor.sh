#!/bin/bash
# fsd= anchors on ext4: the anchor tests (tests/test_anchor.c: format
# makes exactly the tree with real data, restart completes it, clean
# refuses a foreign entry and leaves everything, a symbolic link pointing
# outside is never followed and is named) run again with their anchors on
# an ext4 in a 64 MiB loop file that this test makes, mounts, and on exit
# unmounts and detaches. Only normal file I/O touches the mounted file
# system. SKIP (77) without root, mkfs.ext4 or a loop device.
source "$(dirname "$0")/lib.sh"
ANCHOR_TEST=$(dirname "$LOCKSTEP")/tests/test_anchor
[ -x "$ANCHOR_TEST" ] || fail "no $ANCHOR_TEST (build test_anchor)"
if [ "$(id -u)" -ne 0 ] || ! command -v mkfs.ext4 >/dev/null; then
	echo "SKIP: needs root and mkfs.ext4"
	exit 77
fi
FS_LOOP=
FS_MNT=$TMP/mnt
fs_down() {
	mountpoint -q "$FS_MNT" 2>/dev/null && umount "$FS_MNT" || true
	[ -n "$FS_LOOP" ] && losetup -d "$FS_LOOP" 2>/dev/null || true
}
trap 'fs_down; cleanup' EXIT

truncate -s 64m "$TMP/ext4.img"
FS_LOOP=$(losetup -f --show "$TMP/ext4.img") || {
	echo "SKIP: no loop device"
	exit 77
}
timeout 60 mkfs.ext4 -q -F "$FS_LOOP" || fail "mkfs.ext4 $FS_LOOP"
mkdir "$FS_MNT"
timeout 30 mount -t ext4 "$FS_LOOP" "$FS_MNT" || fail "mount $FS_LOOP"
[ "$(stat -f -c %T "$FS_MNT")" = ext2/ext3 ] ||
	fail "$FS_MNT is $(stat -f -c %T "$FS_MNT"), not ext4"

LS_ANCHOR_DIR=$FS_MNT timeout 60 "$ANCHOR_TEST" >"$TMP/anchor.log" 2>&1 ||
	fail_show "$TMP/anchor.log" "test_anchor failed on ext4"
grep -q 'PASSED.*11 test' "$TMP/anchor.log" ||
	fail_show "$TMP/anchor.log" "test_anchor did not pass its 11 tests"
# Each test removed its folders: the file system holds only lost+found.
left=$(find "$FS_MNT" -mindepth 1 -maxdepth 1 ! -name lost+found | head -3)
[ -z "$left" ] || fail "left on ext4: $left"
echo "PASS: fsd= anchors on ext4 (format, restart, clean, shared clean, links)"
