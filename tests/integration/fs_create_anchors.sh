#!/bin/bash
# create_anchors=yes (Vdbench's general keyword), end to end on tmpfs,
# checked against the folders on disk and lockstep's own record
# (summary.json):
# - two local slaves, an anchor two folders below one that exists: the
#   format makes the anchor and its parent, then exactly 2 x 2 x 3 files
#   (each slave's subtree), counted as 12 creates; the run that follows
#   reads them;
# - the same anchor without create_anchors=yes: refused, naming the
#   anchor, and nothing is made;
# - format=clean with create_anchors=yes on a missing anchor makes
#   nothing;
# - a daemon slave whose --allow is "$TMP/ok/*": an anchor $TMP/ok/made is
#   made, one level deeper ($TMP/ok/deep/a) is refused by --allow and
#   $TMP/ok/deep is not made.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/fs_lib.sh"
SHM=$(mktemp -d /dev/shm/lockstep-fsmk.XXXXXX)
trap 'rm -rf "$SHM"; cleanup' EXIT

files() { find "$1" -type f -name 'vdb_f*.file' | wc -l; }

# refused LOG PATTERN NOTMADE WHAT: the run whose output is LOG failed,
# saying PATTERN, and NOTMADE does not exist.
refused_run() {
	[ "$rc" -ne 0 ] || fail_show "$1" "$4: exited 0"
	grep -q "$2" "$1" || fail_show "$1" "$4: the refusal does not say $2"
	[ ! -e "$3" ] || fail_show "$1" "$4: $3 was made"
}

# 1. Made, formatted and read.
A=$SHM/new/deeper/anchor
cat > "$TMP/made.vdb" <<VDB
create_anchors=yes
fsd=fsd1,anchor=$A,depth=1,width=2,files=3,sizes=4k
fwd=fwd1,fsd=fsd1,operation=read,xfersize=4k,threads=1
rd=rd1,fwd=fwd1,fwdrate=max,format=yes,elapsed=1,interval=1
VDB
run made
[ "$rc" -eq 0 ] || fail_show "$TMP/made.txt" "create_anchors=yes: exited $rc"
[ -d "$A" ] && [ ! -L "$A" ] || fail "create_anchors=yes did not make $A"
[ "$(stat -c %a "$SHM/new" "$SHM/new/deeper" "$A" | sort -u)" = 755 ] ||
	fail "the made folders are not 0755: $(stat -c '%n %a' "$SHM/new" "$SHM/new/deeper" "$A")"
for s in local-1 local-2; do
	n=$(files "$A/$s")
	[ "$n" -eq 6 ] || fail_show "$TMP/made.txt" "$n files in $A/$s, not 2 x 3"
done
# The slaves say what they made: 3 folders in all (both prepare at once,
# so either may have made any of them).
n=$(sed -n "s|.*fsd fsd1: made anchor=$A (\([0-9]*\) folders\{0,1\}, create_anchors=yes)\$|\1|p" \
	"$TMP/made/lockstep.log" | awk '{ s += $1 } END { print s + 0 }')
[ "$n" -eq 3 ] || fail_show "$TMP/made/lockstep.log" "the slaves say they made $n folders, not 3"
got=$(op "$TMP/made" "rd1 format" create)
[ "$got" -eq 12 ] || fail_show "$TMP/made.txt" "the format counted $got creates, not 12"
got=$(op "$TMP/made" rd1 read)
[ "$got" -gt 0 ] || fail_show "$TMP/made.txt" "the run after it read nothing"
echo "ok: create_anchors=yes made $A (3 folders), 12 files formatted and read"

# 2. Without it: refused, nothing made.
B=$SHM/absent/anchor
sed -e '/^create_anchors=yes$/d' -e "s|anchor=$A|anchor=$B|" \
	"$TMP/made.vdb" > "$TMP/none.vdb"
run none
refused_run "$TMP/none.txt" \
	"anchor=$B: No such file or directory (the anchor folder must exist)" \
	"$SHM/absent" "a missing anchor without create_anchors=yes"
echo "ok: without create_anchors=yes a missing anchor is refused and nothing is made"

# 3. A clean makes nothing to clean.
sed -e "s|anchor=$A|anchor=$B|" -e 's/format=yes/format=clean/' \
	"$TMP/made.vdb" > "$TMP/clean.vdb"
run clean
[ ! -e "$SHM/absent" ] || fail_show "$TMP/clean.txt" "format=clean made $SHM/absent"
echo "ok: format=clean with create_anchors=yes made nothing (exit $rc)"

# 4. A daemon's --allow decides, before anything is made.
mkdir "$TMP/ok"
daemon_run() {
	"$LOCKSTEP" run "$TMP/$1.vdb" -o "$TMP/$1" --local-slaves 0 \
		--expect-slaves 1 --join-timeout 20 --insecure \
		> "$TMP/$1.txt" 2> "$TMP/$1.err" &
	local master=$!
	PIDS+=("$master")
	local port
	port=$(master_port "$TMP/$1.err")
	"$LOCKSTEP" slave --daemon --name d1 --allow "$TMP/ok/*" --insecure \
		--master "tcp://127.0.0.1:$port" > "$TMP/$1.d1.log" 2>&1 &
	local slave=$!
	PIDS+=("$slave")
	wait_exit "$master" 90
	kill "$slave" 2>/dev/null || true
}
sed -e "s|anchor=$A|anchor=$TMP/ok/made|" "$TMP/made.vdb" > "$TMP/allowed.vdb"
daemon_run allowed
[ "$rc" -eq 0 ] || fail_show "$TMP/allowed.err" "an allowed anchor: exited $rc"
[ "$(files "$TMP/ok/made/d1")" -eq 6 ] || fail_show "$TMP/allowed.err" "the daemon's tree is not 2 x 3 files"
sed -e "s|anchor=$A|anchor=$TMP/ok/deep/a|" "$TMP/made.vdb" > "$TMP/denied.vdb"
daemon_run denied
refused_run "$TMP/denied.err" \
	"anchor=$TMP/ok/deep/a: .*no --allow glob matches it" \
	"$TMP/ok/deep" "an anchor outside --allow"
echo "ok: a daemon made the anchor its --allow allows, and nothing for one it does not"
echo "PASS"
