# What Vdbench users' tools parse: the "Starting RD=" line before each run
# in Vdbench's shape, flatfile.html (Vdbench's layout, read by ParseFlat's
# rules: one row per interval of every run, equal to intervals.csv, one
# avg_ row per run equal to summary.json, filters on requested columns),
# per-run file names without spaces or '=' (named in summary.json's
# "files"), and the progress line with ETA of a long phase: on a terminal
# only, never in a pipe.
source "$(dirname "$0")/lib.sh"

cat > "$TMP/t.vdb" <<VDB
sd=sd1,lun=$TMP/d1.dat,size=16m,threads=4
wd=wd1,sd=sd1,xfersize=4k,rdpct=50,seekpct=100
rd=loop1,wd=wd1,iorate=max,elapsed=2,warmup=1,interval=1,forxfersize=(4k,8k),forrdpct=70
rd=fixed,wd=wd1,iorate=500,elapsed=2,interval=1
VDB

run_bounded 60 "$LOCKSTEP" run "$TMP/t.vdb" -o "$TMP/out" --local-slaves 2 > "$TMP/console.txt" 2> "$TMP/stderr.txt"
cat "$TMP/console.txt"
[ "$rc" -eq 0 ] || { fail_show "$TMP/stderr.txt" "lockstep run exited $rc"; }

# The header line, exactly, right before each run's column header.
# The time of day first, as Vdbench (HCIBench drops the first two words).
diff - <(grep ' Starting RD=' "$TMP/console.txt" | sed -n 's/^[0-9][0-9]:[0-9][0-9]:[0-9][0-9]\.[0-9][0-9][0-9] //p') <<'WANT' || fail "Starting RD= lines differ"
Starting RD=loop1; I/O rate: Uncontrolled MAX; elapsed=2 warmup=1; For loops: xfersize=4k rdpct=70
Starting RD=loop1; I/O rate: Uncontrolled MAX; elapsed=2 warmup=1; For loops: xfersize=8k rdpct=70
Starting RD=fixed; I/O rate: 500; elapsed=2 warmup=0; For loops: None
WANT
awk '/ Starting RD=/ { getline n; if (n !~ /interval +i\/o +MB\/sec/) bad = 1 } END { exit bad }' \
	"$TMP/console.txt" || fail "a Starting RD= line is not followed by the column header"

# File names: no spaces, no '=', and summary.json names them.
for f in loop1_xfersize-4k_rdpct-70.hgrm loop1_xfersize-8k_rdpct-70.hgrm fixed.hgrm flatfile.html; do
	[ -s "$TMP/out/$f" ] || { ls "$TMP/out"; fail "no $f"; }
done
! find "$TMP/out" -name '* *' -o -name '*=*' | grep . > /dev/null || fail "a file name with a space or '='"

# flatfile.html through ParseFlat's rules (parseflat.py): every interval
# row, the avg_ rows with -a, a -f filter on a requested column.
PF="python3 $HERE/parseflat.py -i $TMP/out/flatfile.html"
$PF -o "$TMP/rows.csv" -c run interval reqrate rate MB/sec read% resp resp_max xfersize threads || fail "parseflat of the interval rows"
$PF -o "$TMP/avg.csv" -c run interval rate MB/sec resp resp_std queue_depth -a || fail "parseflat -a"
$PF -o "$TMP/8k.csv" -c run interval xfersize -f xfersize 8192 run LOOP1 || fail "parseflat -f"
! $PF -c run bogus > /dev/null 2>&1 || fail "parseflat took an unknown column"
python3 - "$TMP" <<'PY' || fail "flatfile.html or summary.json files differ"
import csv, json, sys
tmp = sys.argv[1]
out = tmp + "/out"
s = json.load(open(out + "/summary.json"))
names = [(r["name"], r["files"]["hgrm"]) for r in s["runs"]]
assert names == [("loop1 xfersize=4k rdpct=70", "loop1_xfersize-4k_rdpct-70.hgrm"),
                 ("loop1 xfersize=8k rdpct=70", "loop1_xfersize-8k_rdpct-70.hgrm"),
                 ("fixed", "fixed.hgrm")], names
rows = list(csv.DictReader(open(tmp + "/rows.csv")))
want = [r for r in csv.DictReader(open(out + "/intervals.csv")) if r["phase"] != "late"]
assert len(rows) == len(want) == 3 + 3 + 2, (len(rows), len(want))
for f, c in zip(rows, want):
    assert f["run"] == c["run"].split(" ")[0] and f["interval"] == c["interval"], (f, c)
    assert f["xfersize"] == ("8192" if "8k" in c["run"] else "4096"), f
    assert f["threads"] == "4", f
    for a, b, tol in (("rate", "iops", 0.00051), ("MB/sec", "mbps", 0.00051),
                      ("read%", "read_pct", 0.00051), ("resp", "resp_ms", 0.000051),
                      ("resp_max", "resp_max_ms", 0.000051)):
        assert abs(float(f[a]) - float(c[b])) <= tol, (a, f[a], c[b])
    assert f["reqrate"] == ("500" if c["run"] == "fixed" else "max"), f
avg = list(csv.DictReader(open(tmp + "/avg.csv")))
assert [a["interval"] for a in avg] == ["avg_2-3", "avg_2-3", "avg_1-2"], avg
for a, r in zip(avg, s["runs"]):
    t = r["totals"]
    for k, j in (("rate", "iops"), ("MB/sec", "mbps"), ("resp", "lat_mean_ms"),
                 ("resp_std", "lat_stddev_ms"), ("queue_depth", "queue_depth")):
        assert abs(float(a[k]) - t[j]) <= 0.000051, (k, a[k], t[j])
k8 = list(csv.DictReader(open(tmp + "/8k.csv")))
assert [(r["run"], r["interval"]) for r in k8] == [("loop1", "1"), ("loop1", "2"), ("loop1", "3")], k8
print("ok: flatfile.html read by ParseFlat's rules: %d rows, %d avg_ rows, -f" % (len(rows), len(avg)))
PY

# Progress line: a phase over 60 s on a terminal shows "% done, ETA"; the
# same run in a pipe does not. Both are interrupted (SIGINT, through
# timeout, which passes it on) once an interval row is written, after
# which the line is due: a fixed 6 s was not always enough on a busy
# machine to start the run and write its first row.
cat > "$TMP/long.vdb" <<VDB
sd=sd1,lun=$TMP/d1.dat,size=16m,threads=2
wd=wd1,sd=sd1,xfersize=4k,rdpct=100
rd=long,wd=wd1,iorate=200,elapsed=120,interval=1
VDB
# interrupt_when PID CMD...: SIGINT to PID once CMD succeeds (30 s at
# most, then the timeout below does it), and wait for PID.
interrupt_when() {
	local pid=$1
	shift
	for _ in $(seq 300); do
		"$@" && break
		sleep 0.1
	done
	sleep 0.2
	kill -INT "$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
}
rows_written() {
	[ -f "$1/intervals.csv" ] && [ "$(wc -l < "$1/intervals.csv")" -ge 2 ]
}
set +e
timeout -k 5 -s INT 40 script -qfec "$LOCKSTEP run $TMP/long.vdb -o $TMP/tty --local-slaves 1" \
	/dev/null > "$TMP/tty.txt" 2>&1 &
interrupt_when $! grep -q "ETA" "$TMP/tty.txt"
{
	timeout -k 5 -s INT 40 "$LOCKSTEP" run "$TMP/long.vdb" -o "$TMP/pipe" \
		--local-slaves 1 2>&1 &
	echo $! > "$TMP/pipe.pid"
	wait $!
} | cat > "$TMP/pipe.txt" &
piped=$!
for _ in $(seq 100); do
	[ -s "$TMP/pipe.pid" ] && break
	sleep 0.1
done
interrupt_when "$(cat "$TMP/pipe.pid")" rows_written "$TMP/pipe"
wait "$piped"
set -e
grep -q "run long: [0-9]*% done, ETA [0-9]*m[0-9]*s" "$TMP/tty.txt" ||
	{ cat -v "$TMP/tty.txt"; fail "no progress line on a terminal"; }
grep -q "ETA" "$TMP/pipe.txt" && { fail_show "$TMP/pipe.txt" "a progress line in a pipe"; }
grep -q "ETA" "$TMP/pipe/lockstep.log" && fail "a progress line in the log"
grep -q " Starting RD=long" "$TMP/pipe.txt" || fail "the piped run did not start"
echo "PASS"
