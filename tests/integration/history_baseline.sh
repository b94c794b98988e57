# Nightly baselines end to end: two real runs into a fresh history, then a
# slower night (a fixed lower iorate in the included rate file stands in
# for slower storage: the parameter file itself, and so its hash, is the
# same) judged against --baseline median:2 exits 3 and writes
# compare.json and compare.txt; a quiet night exits 0; `lockstep compare`,
# `history list` and `history changes` read the same history; a corrupt
# history.db gives a clear error, leaves the results folder complete and
# the exit code as it was.
source "$(dirname "$0")/lib.sh"

H="$TMP/history.db"
cat > "$TMP/night.vdb" <<VDB
sd=sd1,lun=$TMP/n.dat,size=16m,threads=4
wd=wd1,sd=sd1,xfersize=4k,rdpct=70,seekpct=100
include=rate.vdb
VDB
rate() {
	echo "rd=r1,wd=wd1,iorate=$1,elapsed=4,interval=1" > "$TMP/rate.vdb"
}
# p99 on a shared 2-core machine moves more than 10% from run to run for
# no reason: this test judges throughput only, which the rate pins.
TH="iops=-10%,mbps=-10%"
night() { # night NAME [options]: one run, its console in $TMP/NAME.txt
	local name=$1
	shift
	run_bounded 60 "$LOCKSTEP" run "$TMP/night.vdb" -o "$TMP/out/$name" \
		--local-slaves 2 "$@" > "$TMP/$name.txt" 2>&1
}

rate 2000
night n1 --history "$H"
[ "$rc" -eq 0 ] || { cat "$TMP/n1.txt"; fail "night 1 exited $rc"; }
grep -q "history: run recorded as id 1 in $H" "$TMP/n1.txt" || { cat "$TMP/n1.txt"; fail "night 1 not recorded"; }
# LOCKSTEP_HISTORY chooses the history as --history does.
LOCKSTEP_HISTORY="$H" night n2
[ "$rc" -eq 0 ] || { cat "$TMP/n2.txt"; fail "night 2 exited $rc"; }
grep -q "recorded as id 2" "$TMP/n2.txt" || { cat "$TMP/n2.txt"; fail "night 2 not recorded"; }

# The slow night: 1200 IO/s where the baseline did 2000.
rate 1200
night slow --history "$H" --baseline median:2 --threshold "$TH"
[ "$rc" -eq 3 ] || { cat "$TMP/slow.txt"; fail "the slow night exited $rc, not 3"; }
grep -q "^verdict: REGRESSION" "$TMP/slow.txt" || fail "no verdict on the console"
grep -q "baseline:  median of 2 runs (history ids 2 1)" "$TMP/slow.txt" || { cat "$TMP/slow.txt"; fail "wrong baseline"; }
cmp -s <(sed -n '/^baseline:/,$p' "$TMP/slow.txt") "$TMP/out/slow/compare.txt" || fail "compare.txt is not the console's table"
python3 - "$TMP/out/slow" <<'PY'
import json, sys
d = sys.argv[1]
c = json.load(open(d + "/compare.json"))
assert c["regression"] is True and c["verdict"] == "regression", c
assert c["test"] == "mann-whitney-u", c
r = c["runs"][0]
assert r["name"] == "r1" and r["verdict"] == "regression", r
m = r["metrics"]["iops"]
assert m["verdict"] == "regression" and m["p_value"] < 0.05, m
assert abs(m["delta_pct"] + 40) < 5, m
assert c["conditions"] == [], c["conditions"]
# The results folder is complete and says how the run went (exit 0).
s = json.load(open(d + "/summary.json"))
assert s["status"] == "completed" and s["exit_code"] == 0, s
print("ok: iops %.0f -> %.0f (%.1f%%), p=%.4f" % (m["baseline"], m["candidate"], m["delta_pct"], m["p_value"]))
PY
# The slow night is recorded too, with its own status.
"$LOCKSTEP" history --history "$H" > "$TMP/list.txt"
[ "$(grep -c ' night.vdb  *completed' "$TMP/list.txt")" -eq 3 ] || { cat "$TMP/list.txt"; fail "history list"; }
head -2 "$TMP/list.txt" | tail -1 | grep -q "^.\{20\}  *3 " || { cat "$TMP/list.txt"; fail "not newest first"; }
"$LOCKSTEP" history list --history "$H" --json --last 2 | python3 -c '
import json, sys
l = json.load(sys.stdin)
assert [r["id"] for r in l] == [3, 2], l
assert l[0]["runs"][0]["intervals"] == 4, l'

# lockstep compare on folders, ids and relative specs: exit 3 and 0.
set +e
"$LOCKSTEP" compare "$TMP/out/n1" "$TMP/out/slow" --threshold "$TH" > "$TMP/cmp.txt"
c1=$?
"$LOCKSTEP" compare 3 1 --history "$H" --threshold "$TH" --json > "$TMP/cmp.json"
c2=$?
"$LOCKSTEP" compare 1 99 --history "$H" 2> "$TMP/cmp.err"
c3=$?
"$LOCKSTEP" compare "$TMP/nothing" 1 --history "$H" 2> "$TMP/cmp2.err"
c4=$?
set -e
[ "$c1" -eq 3 ] || { cat "$TMP/cmp.txt"; fail "compare n1 slow exited $c1"; }
grep -q "Mann-Whitney U" "$TMP/cmp.txt" || fail "the test is not named"
[ "$c2" -eq 0 ] || fail "an improvement exited $c2"
python3 -c 'import json,sys; c=json.load(open(sys.argv[1])); assert c["verdict"]=="improvement", c' "$TMP/cmp.json"
[ "$c3" -eq 1 ] && grep -q "no run with id 99" "$TMP/cmp.err" || fail "unknown id: exit $c3"
[ "$c4" -eq 1 ] && grep -q "summary.json" "$TMP/cmp2.err" || fail "missing folder: exit $c4"

# A quiet night, back at the usual rate: no regression, exit 0.
rate 2000
night quiet --history "$H" --baseline median:2 --threshold "$TH"
[ "$rc" -eq 0 ] || { cat "$TMP/quiet.txt"; fail "the quiet night exited $rc"; }
grep -q "^verdict: " "$TMP/quiet.txt" && ! grep -q "REGRESSION" "$TMP/quiet.txt" || fail "quiet verdict"
[ -s "$TMP/out/quiet/compare.json" ] || fail "no compare.json on a quiet night"

# A corrupt history: a clear error, the folder complete, exit unchanged.
head -c 100 "$H" > "$TMP/bad.db"
head -c 20000 /dev/urandom >> "$TMP/bad.db"
cp "$TMP/bad.db" "$TMP/bad.orig"
night corrupt --history "$TMP/bad.db" --baseline last
[ "$rc" -eq 0 ] || { cat "$TMP/corrupt.txt"; fail "a corrupt history changed the exit code to $rc"; }
grep -q "error: history $TMP/bad.db: .*malformed\|error: history $TMP/bad.db: .*not a database" "$TMP/corrupt.txt" || { cat "$TMP/corrupt.txt"; fail "no clear error for the corrupt history"; }
grep -q "results folder $TMP/out/corrupt is complete" "$TMP/corrupt.txt" || fail "the error does not say the results are safe"
for f in summary.json summary.txt intervals.csv night.vdb lockstep.log r1.hgrm; do
	[ -s "$TMP/out/corrupt/$f" ] || fail "results folder lacks $f"
done
python3 -c 'import json,sys; s=json.load(open(sys.argv[1])); assert s["incomplete_files"]==[] and s["exit_code"]==0, s' "$TMP/out/corrupt/summary.json"
cmp -s "$TMP/bad.db" "$TMP/bad.orig" || fail "the corrupt history was modified"
# By default the history is beside the results folder; --no-history
# writes none; a bad baseline spec is refused before the run.
night dflt
[ "$rc" -eq 0 ] && [ -s "$TMP/out/history.db" ] || fail "default history: exit $rc, or no $TMP/out/history.db"
rm -f "$TMP/out/history.db"
night none --no-history
[ "$rc" -eq 0 ] && [ ! -e "$TMP/out/history.db" ] || fail "--no-history: exit $rc or a history written"
night badspec --history "$H" --baseline median:x
[ "$rc" -eq 1 ] && grep -q "median:x' is no baseline" "$TMP/badspec.txt" && [ ! -e "$TMP/out/badspec" ] || fail "bad spec: exit $rc"

# Import rebuilds a history from the folders; change points read it.
"$LOCKSTEP" history import "$TMP/out/n1" "$TMP/out/n2" "$TMP/out/slow" --history "$TMP/re.db" > "$TMP/import.txt"
[ "$(grep -c 'recorded as id' "$TMP/import.txt")" -eq 3 ] || { cat "$TMP/import.txt"; fail "import"; }
"$LOCKSTEP" history import "$TMP/out/n1" --history "$TMP/re.db" | grep -q "already recorded as id 1" || fail "import twice"
"$LOCKSTEP" history changes --history "$H" > "$TMP/changes.txt"
grep -q "E-divisive means" "$TMP/changes.txt" || { cat "$TMP/changes.txt"; fail "history changes"; }
echo "PASS"
