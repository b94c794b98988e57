# The console read by the tools that read Vdbench's (check_console.py:
# HCIBench's RD=/avg_/interval rules, from hcibench_rules.rb, and its
# Graphite feed's header word counts), against summary.json and
# intervals.csv: one rd, a loop of rds, a format pass before a run, a
# curve with a loop, two slaves; fio.json by fio's readers' rules
# (check_fio.py: HCIBench's parseFioResult.rb, fio-plot).
source "$(dirname "$0")/lib.sh"
command -v ruby > /dev/null || { echo "SKIP: no ruby"; exit 77; }
cd "$TMP"

cat > "$TMP/one.vdb" <<VDB
sd=sd1,lun=$TMP/d1.dat,size=16m,threads=4
wd=wd1,sd=sd1,xfersize=4k,rdpct=70,seekpct=100
rd=one,wd=wd1,iorate=max,elapsed=2,warmup=1,interval=1
VDB
cat > "$TMP/multi.vdb" <<VDB
sd=sd1,lun=$TMP/d2.dat,size=16m,threads=4
wd=wd1,sd=sd1,xfersize=4k,rdpct=50,seekpct=100
rd=fmt,wd=wd1,elapsed=2,interval=1,format=yes
rd=loop,wd=wd1,iorate=max,elapsed=2,warmup=1,interval=1,forxfersize=(4k,8k),forthreads=(2,4)
rd=fixed,wd=wd1,iorate=300,elapsed=2,interval=1
VDB
cat > "$TMP/curve.vdb" <<VDB
sd=sd1,lun=$TMP/d3.dat,size=16m,threads=2
wd=wd1,sd=sd1,xfersize=4k,rdpct=70,seekpct=100
rd=c,wd=wd1,iorate=curve,curve=(50,100),elapsed=2,interval=1,forrdpct=(70,100)
VDB

for t in one multi curve; do
	run_bounded 120 "$LOCKSTEP" run "$TMP/$t.vdb" -o "$TMP/$t" --local-slaves 2 > "$TMP/$t.con" 2>&1
	[ "$rc" -eq 0 ] || { fail_show "$TMP/$t.con" "lockstep run $t.vdb exited $rc"; }
	python3 "$HERE/check_console.py" "$TMP/$t.con" "$TMP/$t" || { fail_show "$TMP/$t.con" "$t: the console's readers read it wrong"; }
	python3 "$HERE/check_fio.py" "$TMP/$t" || fail "$t: fio.json read wrong by fio's readers"
done
# The format pass has its avg_ line, so the runs after it keep their place.
grep -q "Starting RD=format_for_fmt" "$TMP/multi.con" || fail "no format_for_ line"
[ "$(grep -c ' avg_' "$TMP/multi.con")" -eq 7 ] || { fail_show "$TMP/multi.con" "not one avg_ line per run (the format pass, fmt, four loops, fixed)"; }
# ParseFlat leaves the format pass out: the six other runs' avg_ rows.
python3 "$HERE/parseflat.py" -i "$TMP/multi/flatfile.html" -c run interval rate -a > "$TMP/avg.csv" || fail "parseflat -a"
[ "$(tail -n +2 "$TMP/avg.csv" | cut -d, -f1 | tr '\n' ' ')" = "fmt loop loop loop loop fixed " ] ||
	{ fail_show "$TMP/avg.csv" "parseflat -a: not the avg_ rows of fmt, the four loops and fixed"; }
grep -q '^ *[0-9:.]* [^ ]* *format_for_fmt ' "$TMP/multi/flatfile.html" || fail "no format_for_fmt rows in flatfile.html"
# Every Starting RD= line has the time of day first.
! grep -v '^[0-9][0-9]:[0-9][0-9]:[0-9][0-9]\.[0-9][0-9][0-9] Starting RD=' "$TMP/multi.con" | grep 'Starting RD=' > /dev/null ||
	fail "a Starting RD= line without the time of day"
echo PASS
