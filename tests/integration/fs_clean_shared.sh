#!/bin/bash
# format=clean of a shared=yes tree, end to end: a master and two local
# slaves on one anchor (tmpfs). Each slave removes its own files and the
# folders it can; the one ranked first waits for the other's files and
# removes the folders left and the marker last:
# - with a foreign file in the tree both refuse, the run exits non-0
#   naming the file, and nothing is removed (the same entries after);
# - without it the anchor holds nothing afterwards, and the summary's
#   deletes are the tree's files.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/fs_lib.sh"
SHM=$(mktemp -d /dev/shm/lockstep-fscs.XXXXXX)
trap 'rm -rf "$SHM"; cleanup' EXIT

A=$SHM/a
mkdir "$A"
for name in fmt clean; do
	fmt=only
	[ "$name" = clean ] && fmt=clean
	cat > "$TMP/$name.vdb" <<VDB
fsd=fsd1,anchor=$A,depth=2,width=3,files=5,sizes=(4k,50,8k,50),shared=yes
fwd=fwd1,fsd=fsd1,operation=getattr,threads=2
rd=rd1,fwd=fwd1,fwdrate=max,format=$fmt,elapsed=1,interval=1
VDB
done
run fmt
[ "$rc" -eq 0 ] || fail_show "$TMP/fmt.txt" "format: exited $rc"
n=$(find "$A" -name 'vdb_f*.file' | wc -l)
[ "$n" -eq 45 ] || fail_show "$TMP/fmt.txt" "format made $n files, not 45"

# A foreign file: refused by both, nothing removed.
echo foreign > "$A/vdb.1_2.dir/vdb.2_3.dir/notes.txt"
before=$(cd "$A" && find . | sort | md5sum)
run clean
[ "$rc" -ne 0 ] || fail_show "$TMP/clean.txt" "clean with a foreign file exited 0"
grep -q "notes.txt" "$TMP/clean.txt" || fail_show "$TMP/clean.txt" "the refusal does not name the foreign file"
[ "$(cd "$A" && find . | sort | md5sum)" = "$before" ] ||
	fail_show "$TMP/clean.txt" "a refused clean removed something"
echo "ok: a foreign file refused the shared clean, nothing removed"

rm "$A/vdb.1_2.dir/vdb.2_3.dir/notes.txt"
rm -rf "$TMP/clean"
run clean
[ "$rc" -eq 0 ] || fail_show "$TMP/clean.txt" "clean: exited $rc"
left=$(find "$A" -mindepth 1 | wc -l)
[ "$left" -eq 0 ] || fail_show "$TMP/clean.txt" "the anchor holds $left entries after the clean: $(find "$A" -mindepth 1 | head -5)"
del=$(/usr/bin/python3 -c "
import json; s=json.load(open('$TMP/clean/summary.json'))
r=[r for r in s['runs'] if r['name'].startswith('rd1')][0]
print(r['operations'].get('delete', {}).get('count', 0))")
[ "$del" -eq 45 ] || fail_show "$TMP/clean.txt" "the clean counted $del deletes for 45 files"
echo "ok: two slaves cleaned the shared tree: $del deletes, nothing left"
echo PASS
