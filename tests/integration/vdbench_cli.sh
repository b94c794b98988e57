# `lockstep vdbench` and the binary run as `vdbench`: Vdbench's command
# line, console and output files. Each example file: quick.vdb runs (its
# luns moved into the test's folder) and its console and files are read
# by HCIBench's and ParseFlat's rules; cluster.vdb and failure-rebuild.vdb
# need their hosts, so they are checked with -s (Vdbench's simulate).
# -v and -j run with validation (and a journal in the current folder);
# options lockstep does not do are refused by name.
source "$(dirname "$0")/lib.sh"
command -v ruby > /dev/null || { echo "SKIP: no ruby"; exit 77; }
cd "$TMP"
EX="$HERE/../../examples"

sed "s|/tmp/lockstep-quick/|$TMP/|; s|size=256m|size=16m|" "$EX/quick.vdb" > "$TMP/quick.vdb"
run_bounded 90 "$LOCKSTEP" vdbench -f "$TMP/quick.vdb" -o "$TMP/q" -e 2 -w 1 -i 1 > "$TMP/q.con" 2>&1
[ "$rc" -eq 0 ] || { fail_show "$TMP/q.con" "lockstep vdbench -f quick.vdb exited $rc"; }
for f in flatfile.html summary.html totals.html parmfile.html summary.json fio.json; do
	[ -s "$TMP/q/$f" ] || { ls "$TMP/q"; fail "no $f in the output folder"; }
done
cmp -s "$TMP/quick.vdb" "$TMP/q/parmfile.html" || fail "parmfile.html is not the parameter file"
python3 "$HERE/check_console.py" "$TMP/q.con" "$TMP/q" --vdbench || { fail_show "$TMP/q.con" "Vdbench's console read wrong"; }
python3 "$HERE/check_console.py" "$TMP/q/summary.html" "$TMP/q" --vdbench || fail "summary.html read wrong"
[ "$(grep -c ' avg_' "$TMP/q/totals.html")" -eq 1 ] || fail "totals.html has not the run's avg_ line"
python3 "$HERE/parseflat.py" -i "$TMP/q/flatfile.html" -c run interval rate -a > /dev/null || fail "parseflat -a of flatfile.html"
for ex in cluster failure-rebuild; do
	run_bounded 30 "$LOCKSTEP" vdbench -f "$EX/$ex.vdb" -s > "$TMP/$ex.txt" 2>&1
	[ "$rc" -eq 0 ] || { fail_show "$TMP/$ex.txt" "lockstep vdbench -f $ex.vdb -s exited $rc"; }
	grep -q "planned time" "$TMP/$ex.txt" || fail "$ex.vdb -s printed no plan"
done

# The binary under the name vdbench, as a tool runs it.
ln -s "$LOCKSTEP" "$TMP/vdbench"
run_bounded 90 "$TMP/vdbench" -f "$TMP/quick.vdb" -o "$TMP/v" -e 1 -w 0 -i 1 > "$TMP/v.con" 2>&1
[ "$rc" -eq 0 ] || { fail_show "$TMP/v.con" "./vdbench -f quick.vdb exited $rc"; }
python3 "$HERE/check_console.py" "$TMP/v.con" "$TMP/v" --vdbench || fail "./vdbench's console read wrong"

# -v: validate=yes; -j: and a journal in the current folder.
cat > "$TMP/val.vdb" <<VDB
sd=sd1,lun=$TMP/val.dat,size=8m,threads=4
wd=wd1,sd=sd1,xfersize=4k,rdpct=50,seekpct=100
rd=r1,wd=wd1,iorate=max,elapsed=2,interval=1
VDB
run_bounded 90 "$LOCKSTEP" vdbench -f "$TMP/val.vdb" -o "$TMP/val" -v > "$TMP/val.con" 2>&1
[ "$rc" -eq 0 ] || { fail_show "$TMP/val.con" "-v exited $rc"; }
python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]
assert r["validation"]["mode"] == "yes" and r["validation"]["blocks_written"] > 0, r["validation"]' "$TMP/val/summary.json" || fail "-v: the run was not validated"
run_bounded 90 "$LOCKSTEP" vdbench -f "$TMP/val.vdb" -o "$TMP/jnl" -j > "$TMP/jnl.con" 2>&1
[ "$rc" -eq 0 ] || { fail_show "$TMP/jnl.con" "-j exited $rc"; }
ls "$TMP"/*.jnl > /dev/null 2>&1 || { ls "$TMP"; fail "-j: no journal in the current folder"; }
! ls /tmp/lockstep-vdbench.* > /dev/null 2>&1 || fail "a temporary folder was left behind"

# Refused by name, exit 1, nothing run.
for bad in "-vr" "-c" "-x" "-o $TMP/r+"; do
	run_bounded 20 "$LOCKSTEP" vdbench -f "$TMP/val.vdb" $bad > "$TMP/bad.txt" 2>&1
	[ "$rc" -eq 1 ] || { fail_show "$TMP/bad.txt" "vdbench $bad exited $rc"; }
	grep -q -- "${bad%% *}" "$TMP/bad.txt" || { fail_show "$TMP/bad.txt" "vdbench $bad: the refusal does not name it"; }
done
echo PASS
