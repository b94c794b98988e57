# A slave formats its fsds at once (Vdbench runs every anchor's format
# threads side by side), checked against the trees on disk:
# - fsd fa's anchor is on an ext4 in a loop file, frozen (fsfreeze)
#   before the run (shared=yes: no slave subtree, whose mkdir the
#   slave's prepare would block on); fsd fb's is on tmpfs. While fa's
#   format is blocked in the frozen file system, fb's tree is made
#   whole (one after the other, fa first, fb would get nothing until
#   the thaw: the test waits for it at most 60 s, then fails). After the thaw the run ends
#   with both trees whole and the format's creates counted once each.
# - fsd fb's tree (the slave's subtree of its anchor) holds a foreign
#   file: the format of fa goes on or stops, but the run fails naming
#   fsd fb and exits non-zero, the file kept.
# Only file I/O goes through the mounted file system, never block I/O.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/fs_lib.sh"

PID=
SHM=$(mktemp -d /dev/shm/lockstep-fsat.XXXXXX)
together_down() {
	if [ -n "$PID" ]; then
		fsfreeze -u "$MNT" 2> /dev/null || true
		kill "$PID" 2> /dev/null || true
		wait "$PID" 2> /dev/null || true
	fi
	frozen_ext4_down
	rm -rf "$SHM"
	cleanup
}
trap together_down EXIT
frozen_ext4 64m
mkdir "$MNT/a" "$SHM/b"

files() { find "$1" -type f -name 'vdb_f*.file' | wc -l; }

cat > "$TMP/at.vdb" <<VDB
fsd=fa,anchor=$MNT/a,depth=1,width=2,files=3,sizes=4k,shared=yes
fsd=fb,anchor=$SHM/b,depth=1,width=2,files=3,sizes=4k
fwd=f1,fsd=(fa,fb),operation=read,xfersize=4k,threads=1
rd=r1,fwd=f1,fwdrate=max,format=yes,elapsed=1,interval=1
VDB

fsfreeze -f "$MNT"
timeout 120 "$LOCKSTEP" run "$TMP/at.vdb" -o "$TMP/at" --local-slaves 1 \
	> "$TMP/at.txt" 2>&1 &
PID=$!
for _ in $(seq 600); do
	[ "$(files "$SHM/b")" -eq 6 ] && break
	kill -0 "$PID" 2> /dev/null || break
	sleep 0.1
done
nb=$(files "$SHM/b")
na=$(files "$MNT/a")
fsfreeze -u "$MNT"
[ "$nb" -eq 6 ] ||
	fail_show "$TMP/at.txt" "fsd fb has $nb of 6 files while fsd fa's file system is frozen: the fsds are not formatted at once"
[ "$na" -eq 0 ] || fail "fsd fa has $na files in a frozen file system"
set +e
wait "$PID"
rc=$?
set -e
PID=
[ "$rc" -eq 0 ] || fail_show "$TMP/at.txt" "the run exited $rc after the thaw"
[ "$(files "$MNT/a")" -eq 6 ] || fail "fsd fa: $(files "$MNT/a") of 6 files"
[ "$(files "$SHM/b")" -eq 6 ] || fail "fsd fb: $(files "$SHM/b") of 6 files"
n=$(op "$TMP/at" "r1 format" create)
[ "$n" -eq 12 ] || fail_show "$TMP/at.txt" "the format counted $n creates, made 12"
echo "ok: fsd fb formatted (6 files) while fsd fa was frozen; both whole"

# 2. A foreign file in fb's anchor: the run fails, naming fsd fb.
rm -rf "${SHM:?}/b" "$MNT/a"
mkdir "$MNT/a" "$SHM/b" "$SHM/b/local-1"
echo mine > "$SHM/b/local-1/notes.txt"
run_bounded 90 "$LOCKSTEP" run "$TMP/at.vdb" -o "$TMP/fo" --local-slaves 1 \
	> "$TMP/fo.txt" 2>&1
[ "$rc" -ne 0 ] || fail_show "$TMP/fo.txt" "a foreign file in fsd fb's anchor: exited 0"
grep -q "fsd fb" "$TMP/fo.txt" || fail_show "$TMP/fo.txt" "the failure does not name fsd fb"
[ -f "$SHM/b/local-1/notes.txt" ] || fail "the foreign file was removed"
echo "ok: a foreign file in one fsd fails the format, naming it"
echo "PASS"
