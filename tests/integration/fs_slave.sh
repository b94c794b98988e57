#!/bin/bash
# File-system phases on a real slave, with tests/tools/fspeer as its
# master, on tmpfs (a folder under /dev/shm) and on an ext4 in a 64 MiB
# loop file this test makes and mounts (skipped without root, mkfs.ext4
# or a loop device). Checked on the slave's own interval messages and on
# the tree left behind: a format makes exactly depth x width x files
# files of the asked size (never sparse) and the folders, counted as
# mkdir/create/write; a run of create, delete, getattr, read and write
# leaves creates - deletes + the formatted files present; a symbolic link
# in the tree (to a file and to a folder outside) is never followed: the
# reads and writes through it fail and are counted as errors, and the
# files outside are unchanged; rdpct=50 reads half the transfers (within
# 2 points); clean removes the tree; an anchor outside
# --allow is refused, naming it; a subdir= is made beneath the anchor.
source "$(dirname "$0")/lib.sh"
FSPEER="$(dirname "$ZSEND")/fspeer"
[ -x "$FSPEER" ] || fail "no fspeer next to $ZSEND"

SHM=$(mktemp -d /dev/shm/lockstep-fs.XXXXXX)
FS_LOOP=
FS_MNT=$TMP/mnt
fs_down() {
	mountpoint -q "$FS_MNT" 2>/dev/null && umount "$FS_MNT" || true
	[ -n "$FS_LOOP" ] && losetup -d "$FS_LOOP" 2>/dev/null || true
	rm -rf "$SHM"
}
trap 'fs_down; cleanup' EXIT

# peer SLAVE-ARGS... -- FSPEER-ARGS...: one slave, one fspeer; $prc.
peer() {
	local sargs=() port=""
	while [ "$1" != "--" ]; do sargs+=("$1"); shift; done
	shift
	: > "$TMP/peer.txt"
	"$FSPEER" "$@" > "$TMP/peer.txt" 2>&1 &
	local ppid=$!
	PIDS+=("$ppid")
	for _ in $(seq 100); do
		port=$(sed -n 's/^port \([0-9]*\)$/\1/p' "$TMP/peer.txt")
		[ -n "$port" ] && break
		sleep 0.1
	done
	[ -n "$port" ] || fail "fspeer said no port"
	"$LOCKSTEP" slave --master "tcp://127.0.0.1:$port" --name fsv \
		--insecure "${sargs[@]}" > "$TMP/slave.txt" 2>&1 &
	local spid=$!
	PIDS+=("$spid")
	set +e
	timeout 90 tail --pid="$ppid" -f /dev/null
	wait "$ppid"
	prc=$?
	timeout 10 tail --pid="$spid" -f /dev/null
	kill "$spid" 2>/dev/null
	wait "$spid"
	set -e
	grep -q "AddressSanitizer\|runtime error" "$TMP/slave.txt" &&
		fail_show "$TMP/slave.txt" "sanitizer report from the slave"
	return 0
}

# field PHASE NAME: a number of fspeer's line for PHASE ("create" etc.
# print COUNT/ERRORS: COUNT; NAME/e: ERRORS).
field() {
	local line
	line=$(grep "^phase $1 status" "$TMP/peer.txt") || { echo 0; return; }
	case $2 in
	*/e) sed -n "s|.* ${2%/e}=[0-9]*/\([0-9]*\).*|\1|p" <<<"$line" | grep . || echo 0 ;;
	*) sed -n "s|.* $2[ =]\([0-9]*\).*|\1|p" <<<"$line" | grep . || echo 0 ;;
	esac
}

D=2 W=3 F=4 SIZE=12288
DIRS=$((W + W * W)) FILES=$((W * W * F))

# run_on ROOT LABEL: every check on one file system.
run_on() {
	local root=$1 label=$2 a=$1/anchor out=$1/outside present
	mkdir -p "$a" "$out/d"
	# Format, then a run; the tree left must match the counts.
	peer --allow "$root/*" -- -a "$a" -d $D -w $W -f $F -z $SIZE -n 10 -m 200 \
		format=yes run:create*2,delete,getattr,read,write*2 run:rw50*2
	[ "$prc" -eq 0 ] || fail_show "$TMP/peer.txt" "$label: format + run failed"
	# rdpct=50: the transfers read within 2 points of half.
	r=$(field 3 reads) w=$(field 3 writes)
	[ $((r + w)) -ge 2000 ] || fail_show "$TMP/peer.txt" "$label: too few mixed transfers ($r + $w)"
	[ $((r * 1000 / (r + w))) -ge 480 ] && [ $((r * 1000 / (r + w))) -le 520 ] ||
		fail_show "$TMP/peer.txt" "$label: rdpct=50 read $r of $((r + w)) transfers"
	[ "$(field 1 mkdir)" -eq $DIRS ] || fail_show "$TMP/peer.txt" "$label: format made $(field 1 mkdir) folders, not $DIRS"
	[ "$(field 1 create)" -eq $FILES ] || fail_show "$TMP/peer.txt" "$label: format created $(field 1 create) files, not $FILES"
	[ "$(field 1 wbytes)" -eq $((FILES * SIZE)) ] || fail_show "$TMP/peer.txt" "$label: format wrote $(field 1 wbytes) bytes"
	[ "$(field 1 errors)" -eq 0 ] || fail_show "$TMP/peer.txt" "$label: format errors"
	creates=$(field 2 create) deletes=$(field 2 delete)
	present=$(find "$a" -type f -name 'vdb_f*.file' | wc -l)
	[ "$creates" -gt 0 ] && [ "$deletes" -gt 0 ] || fail_show "$TMP/peer.txt" "$label: no creates or deletes"
	[ $((FILES + creates - deletes)) -eq "$present" ] ||
		fail_show "$TMP/peer.txt" "$label: $FILES + $creates creates - $deletes deletes != $present files present"
	[ "$(field 2 reads)" -gt 0 ] && [ "$(field 2 getattr)" -gt 0 ] || fail_show "$TMP/peer.txt" "$label: no reads or getattrs"
	[ "$(find "$a" -type d -name 'vdb.*.dir' | wc -l)" -eq $DIRS ] || fail "$label: folders changed"
	echo "ok $label: format made $DIRS folders and $FILES files of $SIZE bytes; run: $creates creates - $deletes deletes, $present files present; rdpct=50: $r reads, $w writes"

	# Format again: exactly the tree, each file its size, not sparse.
	peer --allow "$root/*" -- -a "$a" -d $D -w $W -f $F -z $SIZE -n 10 -m 200 format=yes
	[ "$prc" -eq 0 ] || fail_show "$TMP/peer.txt" "$label: second format failed"
	[ "$(find "$a" -type f -name 'vdb_f*.file' -size ${SIZE}c | wc -l)" -eq $FILES ] ||
		fail "$label: the format left $(find "$a" -type f -name 'vdb_f*.file' -size ${SIZE}c | wc -l) files of $SIZE bytes, not $FILES"
	[ "$(find "$a" -type f -name 'vdb_f*.file' | wc -l)" -eq $FILES ] || fail "$label: extra files"
	for f in $(find "$a" -type f -name 'vdb_f*.file' | head -3); do
		[ $(($(stat -c '%b * %B' "$f"))) -ge $SIZE ] || fail "$label: $f is sparse"
	done
	[ "$(field 1 delete)" -eq $present ] || fail_show "$TMP/peer.txt" "$label: the format's clean deleted $(field 1 delete), not $present"

	# Links: a file and a folder of the tree point outside.
	echo secret > "$out/victim"
	mkdir -p "$out/d/vdb.2_1.dir"
	echo secret2 > "$out/d/vdb.2_1.dir/vdb_f0001.file"
	touch -d '2001-01-01' "$out/victim" "$out/d/vdb.2_1.dir/vdb_f0001.file"
	before=$(stat -c '%s %Y %X' "$out/victim" "$out/d/vdb.2_1.dir/vdb_f0001.file" | tr '\n' ' ')
	rm "$a/vdb.1_1.dir/vdb.2_1.dir/vdb_f0001.file"
	ln -s "$out/victim" "$a/vdb.1_1.dir/vdb.2_1.dir/vdb_f0001.file"
	mv "$a/vdb.1_2.dir" "$root/moved"
	ln -s "$out/d" "$a/vdb.1_2.dir"
	peer --allow "$root/*" -- -a "$a" -d $D -w $W -f $F -z $SIZE -n 6 -m 200 \
		run:read,write,getattr,setattr,rw50
	[ "$prc" -eq 0 ] || fail_show "$TMP/peer.txt" "$label: run with links failed"
	[ "$(field 1 errors)" -gt 0 ] || fail_show "$TMP/peer.txt" "$label: no error through the link"
	[ "$(field 1 open/e)" -gt 0 ] || fail_show "$TMP/peer.txt" "$label: no failed open through the link"
	after=$(stat -c '%s %Y %X' "$out/victim" "$out/d/vdb.2_1.dir/vdb_f0001.file" | tr '\n' ' ')
	[ "$before" = "$after" ] || fail "$label: a file outside the anchor changed ($before -> $after)"
	[ "$(cat "$out/victim")" = secret ] && [ "$(cat "$out/d/vdb.2_1.dir/vdb_f0001.file")" = secret2 ] ||
		fail "$label: the data outside the anchor changed"
	[ -L "$a/vdb.1_1.dir/vdb.2_1.dir/vdb_f0001.file" ] || fail "$label: the link is gone"
	echo "ok $label: links not followed: $(field 1 errors) operations failed, nothing outside changed"
	rm "$a/vdb.1_2.dir" "$a/vdb.1_1.dir/vdb.2_1.dir/vdb_f0001.file"
	mv "$root/moved" "$a/vdb.1_2.dir"

	# Restart completes the file removed; clean then removes it all.
	peer --allow "$root/*" -- -a "$a" -d $D -w $W -f $F -z $SIZE -n 10 -m 200 \
		format=restart format=clean
	[ "$prc" -eq 0 ] || fail_show "$TMP/peer.txt" "$label: restart + clean failed"
	[ "$(field 1 create)" -eq 1 ] || fail_show "$TMP/peer.txt" "$label: restart created $(field 1 create) files, not 1"
	[ "$(field 2 delete)" -eq $FILES ] && [ "$(field 2 rmdir)" -eq $DIRS ] ||
		fail_show "$TMP/peer.txt" "$label: clean removed $(field 2 delete) files and $(field 2 rmdir) folders"
	[ -z "$(ls -A "$a")" ] || fail "$label: clean left $(ls -A "$a")"
	echo "ok $label: restart made the missing file, clean removed the tree"

	# Each slave its own subtree: subdir= is made beneath the anchor.
	peer --allow "$root/*" -- -a "$a" -s fsv -d 1 -w 2 -f 2 -z 4096 -n 10 -m 200 \
		format=yes run:getattr format=clean
	[ "$prc" -eq 0 ] || fail_show "$TMP/peer.txt" "$label: subdir phases failed"
	[ -d "$a/fsv" ] && [ -z "$(ls -A "$a/fsv")" ] || fail "$label: subdir fsv not made, or not cleaned"
	rmdir "$a/fsv"
	echo "ok $label: subdir made beneath the anchor and cleaned"
}

# --allow: an anchor outside it is refused, named, and left alone.
mkdir -p "$SHM/ok" "$SHM/no"
peer --allow "$SHM/ok/*" -- -a "$SHM/no" refuse:"anchor=$SHM/no"
[ "$prc" -eq 0 ] || fail_show "$TMP/peer.txt" "an anchor outside --allow was not refused by name"
[ -z "$(ls -A "$SHM/no")" ] || fail "the refused anchor was written"
grep -q "limits what it opens" "$TMP/peer.txt" || fail_show "$TMP/peer.txt" "the refusal does not say --allow"
echo "ok: an anchor outside --allow is refused"

run_on "$SHM/ok" tmpfs

if [ "$(id -u)" -ne 0 ] || ! command -v mkfs.ext4 >/dev/null; then
	echo "PASS (tmpfs only: ext4 needs root and mkfs.ext4)"
	exit 0
fi
truncate -s 64m "$TMP/ext4.img"
FS_LOOP=$(losetup -f --show "$TMP/ext4.img") || {
	echo "PASS (tmpfs only: no loop device)"
	exit 0
}
timeout 60 mkfs.ext4 -q -F "$FS_LOOP" || fail "mkfs.ext4 $FS_LOOP"
mkdir "$FS_MNT"
timeout 30 mount -t ext4 "$FS_LOOP" "$FS_MNT" || fail "mount $FS_LOOP"
run_on "$FS_MNT" ext4
echo "PASS: file-system phases on tmpfs and ext4"
