# lockstep easy: HCIBench's Easy Run, with answers.
# 1. On this machine (no hd=), a 64 MiB loop device capped at 2000 read
#    and 2000 write IO/s (cgroup v1 blkio, which the local slaves inherit:
#    the test's max runs stay light on two shared cores): --print writes
#    the parameter file to stdout and nothing else (no results folder);
#    it says the device's size, its threads= are 8 a core of this machine
#    (nproc) for its one sd shared by the 2 local slaves, the working set
#    asked (50%) is a range= on every wd; lockstep check reads it as 4
#    SLO searches.
# 2. The run: the file printed is the one the results folder keeps
#    (easy.vdb), and the run is what it says: summary.json has four SLO
#    searches (the profiles' rds, with an answer each), every phase warmed
#    up until steady (mode steady), the working set written once first,
#    and the console ends with the table of the four answers, each the
#    answer summary.json gives, and each the injected caps' rate within
#    10% (2000 IO/s for reads or for writes alone, 4000 for 50/50, the
#    reads' 2000 / 0.7 for 70/30).
# 3. Two hd= hosts over real ssh (network namespaces, sshd each): each
#    host's probe answers its cores and its sd's size (an existing 32 MiB
#    file on h1, a file size=8m makes on h2), the threads are 8 a core of
#    the smaller host, each sd running on its own host; a target that is
#    missing with no size= is refused naming the sd and host, and so is a
#    wd= in the cluster file (FILE:LINE:COLUMN).
source "$(dirname "$0")/lib.sh"
source "$HERE/loop_lib.sh"

loop_throttled lockstep-easy
echo "$MM 2000" > "$CG/blkio.throttle.read_iops_device"
echo "$MM 2000" > "$CG/blkio.throttle.write_iops_device"

cat > "$TMP/c.vdb" <<VDB
sd=sd1,lun=$LOOP,openflags=o_direct
VDB
QUICK=(--elapsed 2.5 --warmup-max 5 --interval 0.5 --precision 50 --slo p99:1s --working-set 50)

# ---- 1: --print ------------------------------------------------------
(cd "$TMP" && "$LOCKSTEP" easy "$TMP/c.vdb" --print "${QUICK[@]}") > "$TMP/print.vdb" 2> "$TMP/print.err" ||
	{ fail_show "$TMP/print.err" "easy --print failed"; }
[ ! -e "$TMP/lockstep-output" ] || fail "--print made a results folder"
grep -qxF "* sd=sd1: 64.0 MiB" "$TMP/print.vdb" || { fail_show "$TMP/print.vdb" "no line giving the device's size"; }
[ "$(grep -c "^wd=.*,range=(0,50)$" "$TMP/print.vdb")" -eq 4 ] ||
	{ fail_show "$TMP/print.vdb" "the working set is not range=(0,50) on the 4 wds"; }
want=$((8 * $(nproc)))
[ "$want" -le 256 ] || want=256
[ "$(grep -c "^rd=.*,iorate=slo,slo=p99:1s,sloprecision=50,threads=$want,$" "$TMP/print.vdb")" -eq 4 ] ||
	{ fail_show "$TMP/print.vdb" "not 4 rds of threads=$want (8 a core of $(nproc))"; }
grep -q "^\* this machine: $(nproc) cores, 2 slaves$" "$TMP/print.vdb" ||
	{ fail_show "$TMP/print.vdb" "the file does not say what this machine has"; }
"$LOCKSTEP" check "$TMP/print.vdb" > "$TMP/check.txt" 2>&1 ||
	{ fail_show "$TMP/check.txt" "lockstep check refuses what easy printed"; }
grep -q "valid: 1 sd, 4 wd, 4 rd" "$TMP/check.txt" || { fail_show "$TMP/check.txt" "not 4 rds"; }

# ---- 2: the run --------------------------------------------------------
run_bounded 240 "${IN_CG[@]}" "$LOCKSTEP" easy "$TMP/c.vdb" "${QUICK[@]}" -o "$TMP/out" \
	> "$TMP/console" 2> "$TMP/err"
[ "$rc" -eq 0 ] || { cat "$TMP/console"; fail_show "$TMP/err" "easy exited $rc"; }
# The printed file, first on the console, is the one kept.
head -n "$(wc -l < "$TMP/out/easy.vdb")" "$TMP/console" | cmp -s - "$TMP/out/easy.vdb" ||
	{ fail_show "$TMP/console" "the console does not start with the kept easy.vdb"; }
diff <(sed 1d "$TMP/print.vdb") <(sed 1d "$TMP/out/easy.vdb") > "$TMP/diff" ||
	{ fail_show "$TMP/diff" "--print and the run wrote different files"; }
grep -q "lockstep easy: the parameter file is $TMP/out/easy.vdb" "$TMP/err" ||
	{ fail_show "$TMP/err" "no line saying where the file is kept"; }
"$LOCKSTEP" check "$TMP/out/easy.vdb" > /dev/null || fail "the kept file does not check"

python3 - "$TMP/out" "$TMP/console" <<'PY' || { fail_show "$TMP/console" "results"; }
import json, re, sys
out, console = sys.argv[1], sys.argv[2]
s = json.load(open(out + "/summary.json"))
names = ["r4k_70read_rand", "r4k_100read_rand", "r8k_50read_rand", "r256k_0read_seq"]
slo = s["slo"]
assert [x["rd"] for x in slo] == names, [x.get("rd") for x in slo]
for x in slo:
    assert x["statistic"] == "p99" and x["target_ms"] == 1000, x
    assert x["answer_iops"] and x["answer_iops"] > 0, x
runs = s["runs"]
fmt = [r for r in runs if r.get("kind") == "format"]
assert len(fmt) == 1 and fmt[0]["name"].startswith("r4k_70read_rand"), [r["name"] for r in fmt]
measured = [r for r in runs if r.get("kind") != "format" and not r.get("skipped")]
assert measured and all(r["warmup"]["mode"] == "steady" for r in measured), \
    [(r["name"], r.get("warmup")) for r in measured]
# The console's table: one row per rd, its answer summary.json's.
text = open(console).read()
head = "SLO answers: the highest cluster rate that met each objective\n"
assert text.count(head) == 1, text[-2000:]
rows = text.split(head)[1].splitlines()[1:5]
byname = {r["name"]: r for r in runs}
for name, row, x in zip(names, rows, slo):
    f = row.split()
    assert f[0] == name and f[1] == x["objective"], (row, x["objective"])
    assert int(f[2].replace(",", "")) == round(x["answer_iops"]), (row, x["answer_iops"])
    # The rest of the row is what the answering step measured: the step
    # that met the objective at the highest rate, and that run's totals.
    met = [st for st in x["steps"] if st["met"]]
    st = max(met, key=lambda st: st["rate"])
    tot = byname[st["run"]]["totals"]
    assert f[3] == "%.1f" % tot["iops"] and f[4] == "%.2f" % tot["mbps"], (row, tot["iops"], tot["mbps"])
    dec = len(f[6].split(".")[1]) if "." in f[6] else 0
    assert f[5] == "p99" and abs(float(f[6]) - st["value_ms"]) <= 0.5 * 10 ** -dec + 1e-9, (row, st)
    assert f[7] == ({True: "yes", False: "NO"}[st["steady"]] if "steady" in st else "not"), (row, st)
# The injected caps are the answers (p99:1s holds at any rate the caps
# let through): 2000 reads and 2000 writes a second, so a 70/30 mix is
# held by its reads at 2000 / 0.7, a 50/50 one reaches both caps.
caps = [2000 / 0.7, 2000, 4000, 2000]
for x, cap in zip(slo, caps):
    assert 0.9 * cap <= x["answer_iops"] <= 1.1 * cap, (x["rd"], x["answer_iops"], cap)
print("ok: 4 searches, answers %s IO/s (caps %s)" % (", ".join("%.0f" % x["answer_iops"] for x in slo),
      ", ".join("%.0f" % c for c in caps)))
PY

# ---- 3: hd= hosts over ssh (--print) -----------------------------------
loop_down
start_cluster 2 lse
start_sshd 2
head -c $((32 << 20)) /dev/zero > "$TMP/h1.dat"
cat > "$TMP/hosts.vdb" <<VDB
hd=default,user=root,lockstep=$LOCKSTEP
hd=h1,system=${HOSTS[0]#*=}
hd=h2,system=${HOSTS[1]#*=}
sd=sd1,host=h1,lun=$TMP/h1.dat
sd=sd2,host=h2,lun=$TMP/h2.dat,size=8m
VDB
run_bounded 90 "$LOCKSTEP" easy "$TMP/hosts.vdb" --print --ssh "ssh -F $TMP/ssh_config" \
	> "$TMP/hosts.out" 2> "$TMP/hosts.err"
[ "$rc" -eq 0 ] || { fail_show "$TMP/hosts.err" "easy --print over ssh exited $rc"; }
for want_line in "* hd=h1: $(nproc) cores, 1 slave" "* hd=h2: $(nproc) cores, 1 slave" \
	"* sd=sd1: 32.0 MiB" "* sd=sd2: 8.0 MiB"; do
	grep -qxF "$want_line" "$TMP/hosts.out" || { fail_show "$TMP/hosts.out" "no line '$want_line'"; }
done
[ "$(grep -c ",threads=$want,$" "$TMP/hosts.out")" -eq 4 ] ||
	{ fail_show "$TMP/hosts.out" "threads= is not 8 a core of a host for its own sd"; }
[ ! -e "$TMP/h2.dat" ] || fail "--print made h2's target"

# An option's value the language refuses: said, nothing printed.
run_bounded 30 "$LOCKSTEP" easy "$TMP/hosts.vdb" --print --slo p99:banana \
	--ssh "ssh -F $TMP/ssh_config" > "$TMP/slo.out" 2> "$TMP/slo.err"
[ "$rc" -eq 1 ] || { fail_show "$TMP/slo.err" "--slo p99:banana: exit $rc, expected 1"; }
grep -q "lockstep easy: .*slo=p99:banana: banana is not a latency" "$TMP/slo.err" ||
	{ fail_show "$TMP/slo.err" "the bad --slo is not named"; }
[ ! -s "$TMP/slo.out" ] || fail "a refused file was printed"
sed -i 's/,size=8m//' "$TMP/hosts.vdb"
run_bounded 90 "$LOCKSTEP" easy "$TMP/hosts.vdb" --print --ssh "ssh -F $TMP/ssh_config" \
	> "$TMP/miss.out" 2> "$TMP/miss.err"
[ "$rc" -eq 1 ] || { fail_show "$TMP/miss.err" "a missing target without size=: exit $rc, expected 1"; }
grep -qF "lockstep easy: sd=sd2 on hd=h2: $TMP/h2.dat is missing (give size= to have a file made)" "$TMP/miss.err" ||
	{ fail_show "$TMP/miss.err" "the missing target is not named with its host"; }
[ ! -s "$TMP/miss.out" ] || fail "a refused file was printed"

printf 'sd=sd1,lun=%s\nwd=wd1,sd=sd1\n' "$TMP/h1.dat" > "$TMP/wd.vdb"
run_bounded 30 "$LOCKSTEP" easy "$TMP/wd.vdb" --print > "$TMP/wd.out" 2> "$TMP/wd.err"
[ "$rc" -eq 1 ] || fail "a wd= in the cluster file: exit $rc, expected 1"
grep -qF "$TMP/wd.vdb:2:1: wd= in a cluster file: lockstep easy writes the workloads" "$TMP/wd.err" ||
	{ fail_show "$TMP/wd.err" "the wd= is not refused at its place"; }
echo "PASS"
