#!/bin/bash
# fsd=/fwd= runs end to end (a master and two local slaves), checked on
# lockstep's own record (summary.json, ops.csv) against what the test
# asked and against the trees left on disk, on tmpfs (a folder under
# /dev/shm) and on an ext4 in a 64 MiB loop file the test mounts:
# - format=yes makes, beneath each slave's subtree, exactly Vdbench's
#   tree: depth x width x files files with the sizes Vdbench draws
#   (check_fstree.py, written from Vdbench's rules);
# - a read fwd with rdpct=70 reads 70 +- 2 % of its transfers;
# - deletes then creates: formatted - deletes + creates (from the
#   summary) = the files on disk, per run and in total, and each
#   slave's own (summary.json per_slave) = the files of its subtree;
# - slave_ops.csv: each slave's interval rows add up to ops.csv's
#   intervals (late rows included) and to its per_slave counts, and
#   every row's rate, mbps and latency cells are its sums' within the
#   printed digits, a cluster row's latency its slaves' merged
#   (check_slave_ops.py);
# - on ext4, devices.csv has the loop device under the tree for every
#   slave and measured interval of the fs run phases, and an
#   O_DIRECT write fwd's bytes are at most what the device wrote in
#   each slave's rows (wmbps x span_ns); an fwd's
#   openflags=o_direct opens its files O_DIRECT (512-byte reads fail on
#   4 KiB sectors), fwd=format's a format's (6000-byte files fail),
#   an rd's openflags= replaces it;
# - shared=yes: both slaves on one tree, which is exactly the tree once;
# - format=clean with a foreign file in a slave's tree refuses, exits
#   non-0, names the file, and deletes nothing of that tree;
# - a folder in the tree replaced by a link to a folder outside: the
#   writes go to the rest of the tree, none through the link (the files
#   outside are unchanged, the link stays), and a failed write makes the
#   run exit non-0.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/fs_lib.sh"
SHM=$(mktemp -d /dev/shm/lockstep-fsrun.XXXXXX)
FS_LOOP=
FS_MNT=$TMP/mnt
fs_down() {
	mountpoint -q "$FS_MNT" 2>/dev/null && umount "$FS_MNT" || true
	[ -n "$FS_LOOP" ] && losetup -d "$FS_LOOP" 2>/dev/null || true
	rm -rf "$SHM"
}
trap 'fs_down; cleanup' EXIT
CHECK="/usr/bin/python3 $HERE/check_fstree.py"

# counts ANCHOR: formatted, deleted and created files end up on disk.
counts() {
	local a=$1 name=$2
	cat > "$TMP/$name.vdb" <<VDB
fsd=fsd1,anchor=$a,depth=2,width=3,files=4,sizes=(8k,50,16k,50)
fwd=del,fsd=fsd1,operation=delete,fileselect=random,threads=1
fwd=cre,fsd=fsd1,operation=create,fileselect=random,threads=1
rd=rdf,fwd=del,fwdrate=max,format=only,elapsed=1,interval=1
rd=rdd,fwd=del,fwdrate=10,format=no,elapsed=2,interval=1
rd=rdc,fwd=cre,fwdrate=6,format=no,elapsed=2,interval=1
VDB
	run "$name"
	[ "$rc" -eq 0 ] || fail_show "$TMP/$name.txt" "$name: exited $rc"
	local made del cre
	made=$(op "$TMP/$name" "rdf format" create)
	del=$(op "$TMP/$name" rdd delete)
	cre=$(op "$TMP/$name" rdc create)
	[ "$made" -eq 72 ] || fail_show "$TMP/$name.txt" "$name: format created $made files, not 2 x 36"
	[ "$del" -gt 0 ] && [ "$cre" -gt 0 ] ||
		fail_show "$TMP/$name.txt" "$name: $del deletes, $cre creates"
	local present
	present=$(find "$a" -name 'vdb_f*.file' -type f | wc -l)
	[ "$present" -eq $((made - del + cre)) ] ||
		fail_show "$TMP/$name.txt" "$name: $present files on disk, but $made made - $del deleted + $cre created = $((made - del + cre))"
	echo "ok: $name: $made formatted - $del deleted + $cre created = $present on disk"
	# Each slave's own operations (summary.json per_slave) are its
	# subtree's files, and their counts, bytes and rates (over the
	# run's seconds) add up to the cluster's.
	/usr/bin/python3 - "$TMP/$name" "$a" <<'PY' ||
import json, os, sys
s = json.load(open(sys.argv[1] + "/summary.json"))
for r in s["runs"]:
    for op, o in r["operations"].items():
        if isinstance(o, dict):
            n = sum(p["operations"][op]["count"] for p in r["per_slave"])
            assert n == o["count"], (r["name"], op, n, o["count"])
            b = sum(p["operations"][op]["bytes"] for p in r["per_slave"])
            assert b == o["bytes"], (r["name"], op, b, o["bytes"])
            t = sum(p["operations"][op]["rate"] for p in r["per_slave"])
            assert abs(t - o["rate"]) <= 1e-6 * max(1, o["rate"]), \
                (r["name"], op, t, o["rate"])
def own(run, slave, op):
    r = [r for r in s["runs"] if r["name"] == run][0]
    p = [p for p in r["per_slave"] if p["slave"] == slave][0]
    return p["operations"].get(op, {}).get("count", 0)
for slave in ("local-1", "local-2"):
    files = sum(f.startswith("vdb_f") for _, _, fs in
                os.walk(os.path.join(sys.argv[2], slave)) for f in fs)
    want = (own("rdf format", slave, "create") - own("rdd", slave, "delete")
            + own("rdc", slave, "create"))
    assert files == want, (slave, files, want)
    print("ok: %s: its own operations leave %d files in its subtree" %
          (slave, files))
PY
		fail_show "$TMP/$name.txt" "$name: per-slave operations do not match the trees"
	/usr/bin/python3 "$HERE/check_slave_ops.py" "$TMP/$name" ||
		fail_show "$TMP/$name.txt" "$name: slave_ops.csv does not add up"
}

# 1. Format, then a 70/30 mix of random reads and writes.
A1=$SHM/a1
mkdir "$A1"
cat > "$TMP/mix.vdb" <<VDB
fsd=fsd1,anchor=$A1,depth=2,width=3,files=4,sizes=(8k,50,16k,50)
fwd=fwd1,fsd=fsd1,operation=read,rdpct=70,xfersize=4k,fileio=random,fileselect=random,threads=2
rd=rd1,fwd=fwd1,fwdrate=max,format=yes,elapsed=2,interval=1
VDB
run mix
[ "$rc" -eq 0 ] || fail_show "$TMP/mix.txt" "mix: exited $rc"
for s in local-1 local-2; do
	$CHECK "$A1/$s" 2 3 4 8192:50,16384:50 ||
		fail_show "$TMP/mix.txt" "the tree of $s is not Vdbench's"
done
/usr/bin/python3 - "$TMP/mix" <<'PY' || fail_show "$TMP/mix.txt" "mix: the read share or ops.csv is wrong"
import csv, json, sys
d = sys.argv[1]
s = json.load(open(d + "/summary.json"))
r = [r for r in s["runs"] if r["name"] == "rd1"][0]
o = r["operations"]
reads, writes = o["read"]["count"], o["write"]["count"]
assert reads + writes >= 2000, (reads, writes)
pct = 100.0 * reads / (reads + writes)
assert abs(pct - 70) <= 2, "read share %.2f%%, asked 70%%" % pct
assert r["totals"]["read_ops"] == reads and r["totals"]["write_ops"] == writes
# ops.csv: the intervals of each operation add up to its total row (a
# slave's interval that came after its cluster row is a late row; rd1
# has no warmup, so every late row is measured).
rows = [x for x in csv.DictReader(open(d + "/ops.csv")) if x["run"] == "rd1"]
for name in ("read", "write"):
    iv = sum(int(x["count"]) for x in rows
             if x["operation"] == name and x["phase"] in ("measure", "late"))
    tot = [int(x["count"]) for x in rows
           if x["operation"] == name and x["phase"] == "total"]
    assert tot == [o[name]["count"]] and iv == tot[0], (name, iv, tot)
print("ok: mix: %d reads, %d writes: %.2f%% read (asked 70)" % (reads, writes, pct))
PY
/usr/bin/python3 "$HERE/check_slave_ops.py" "$TMP/mix" ||
	fail_show "$TMP/mix.txt" "mix: slave_ops.csv does not add up"
# Buffered transfers are system calls (the kernel hands them to io-wq).
/usr/bin/python3 "$HERE/check_ring.py" "$TMP/mix" rd1 sys ||
	fail_show "$TMP/mix.txt" "mix: buffered transfers not system calls"

# 1b. The fs for-loops on the same tree: a run phase per combination of
# forxfersize= and forrdpct= (the last turning fastest), each with every
# transfer of its size (the files are whole multiples of it) and its read
# share.
cat > "$TMP/loops.vdb" <<VDB
fsd=fsd1,anchor=$A1,depth=2,width=3,files=4,sizes=(8k,50,16k,50)
fwd=fwd1,fsd=fsd1,operation=read,xfersize=4k,fileio=random,fileselect=random,threads=2
rd=rd1,fwd=fwd1,fwdrate=max,format=no,elapsed=1,interval=1,forxfersize=(4k,8k),forrdpct=(100,50)
VDB
run loops
[ "$rc" -eq 0 ] || fail_show "$TMP/loops.txt" "loops: exited $rc"
/usr/bin/python3 - "$TMP/loops" <<'PY' || fail_show "$TMP/loops.txt" "loops: a phase's transfers are not its loop values"
import json, sys
s = json.load(open(sys.argv[1] + "/summary.json"))
runs = [r for r in s["runs"] if r["name"].startswith("rd1")]
want = [(4096, 100), (4096, 50), (8192, 100), (8192, 50)]
assert len(runs) == 4, [r["name"] for r in runs]
for r, (xfer, rdpct) in zip(runs, want):
    t = r["totals"]
    n = t["read_ops"] + t["write_ops"]
    assert n >= 500, (r["name"], n)
    assert t["read_bytes"] == xfer * t["read_ops"], (r["name"], t)
    assert t["write_bytes"] == xfer * t["write_ops"], (r["name"], t)
    pct = 100.0 * t["read_ops"] / n
    assert abs(pct - rdpct) <= 2, (r["name"], pct)
    print("ok: %s: %d transfers of %d bytes, %.2f%% read" % (r["name"], n, xfer, pct))
PY

# 2. Counts against the tree, on tmpfs.
mkdir "$SHM/a2"
counts "$SHM/a2" counts_tmpfs

# 3. shared=yes: one tree for both slaves, made once.
A3=$SHM/a3
mkdir "$A3"
cat > "$TMP/shared.vdb" <<VDB
fsd=fsd1,anchor=$A3,depth=2,width=2,files=5,sizes=(4k,30,12k,70),shared=yes
fwd=fwd1,fsd=fsd1,operation=getattr,fileselect=random,threads=1
rd=rd1,fwd=fwd1,fwdrate=max,format=yes,elapsed=1,interval=1
VDB
run shared
[ "$rc" -eq 0 ] || fail_show "$TMP/shared.txt" "shared: exited $rc"
$CHECK "$A3" 2 2 5 4096:30,12288:70 || fail_show "$TMP/shared.txt" "shared: the one tree is not Vdbench's"
made=$(op "$TMP/shared" "rd1 format" create)
[ "$made" -eq 20 ] || fail_show "$TMP/shared.txt" "shared: $made creates for a tree of 20 files"
[ "$(op "$TMP/shared" rd1 getattr)" -gt 0 ] || fail_show "$TMP/shared.txt" "shared: no getattr"
echo "ok: shared=yes: one tree of 20 files made by 2 slaves"

# 4. format=clean refuses a tree holding what lockstep did not make.
echo foreign > "$A1/local-2/vdb.1_1.dir/notes.txt"
cat > "$TMP/clean.vdb" <<VDB
fsd=fsd1,anchor=$A1,depth=2,width=3,files=4,sizes=(8k,50,16k,50)
fwd=fwd1,fsd=fsd1,operation=getattr,threads=1
rd=rd1,fwd=fwd1,fwdrate=max,format=clean,elapsed=1,interval=1
VDB
run clean
[ "$rc" -ne 0 ] || fail_show "$TMP/clean.txt" "clean with a foreign file exited 0"
grep -q "notes.txt" "$TMP/clean.txt" || fail_show "$TMP/clean.txt" "clean's error does not name the foreign file"
[ "$(cat "$A1/local-2/vdb.1_1.dir/notes.txt")" = foreign ] || fail "clean touched the foreign file"
rm "$A1/local-2/vdb.1_1.dir/notes.txt"
$CHECK "$A1/local-2" 2 3 4 8192:50,16384:50 || fail_show "$TMP/clean.txt" "clean deleted part of the tree with the foreign file"
echo "ok: format=clean refused a foreign file and deleted nothing of its tree"

# 5. A link out of the tree is not followed.
A5=$SHM/a5
OUTSIDE=$SHM/outside
mkdir "$A5" "$OUTSIDE"
cat > "$TMP/link.vdb" <<VDB
fsd=fsd1,anchor=$A5,depth=1,width=2,files=3,sizes=8k
fwd=fwd1,fsd=fsd1,operation=write,xfersize=4k,fileio=random,fileselect=random,threads=1
VDB
cp "$TMP/link.vdb" "$TMP/link2.vdb"
echo "rd=rdf,fwd=fwd1,fwdrate=max,format=only,elapsed=1,interval=1" >> "$TMP/link.vdb"
echo "rd=rd1,fwd=fwd1,fwdrate=200,format=no,elapsed=2,interval=1" >> "$TMP/link2.vdb"
# Format first, then swap one folder of each slave for a link outside.
run link
[ "$rc" -eq 0 ] || fail_show "$TMP/link.txt" "link: format exited $rc"
for s in local-1 local-2; do
	mkdir "$OUTSIDE/$s"
	for f in 1 2 3; do
		printf 'outside %s %s\n' "$s" "$f" > "$OUTSIDE/$s/vdb_f000$f.file"
	done
	rm -rf "$A5/$s/vdb.1_2.dir"
	ln -s "$OUTSIDE/$s" "$A5/$s/vdb.1_2.dir"
done
sum_before=$(cat "$OUTSIDE"/*/* | md5sum)
run link2
[ "$(cat "$OUTSIDE"/*/* | md5sum)" = "$sum_before" ] || fail "a write went through the link to outside the anchor"
read -r errs writes < <(/usr/bin/python3 -c "
import json,sys; s=json.load(open('$TMP/link2/summary.json'))
t=[r for r in s['runs'] if r['name']=='rd1'][0]['totals']
print(t['errors'], t['write_ops'])")
[ "$writes" -gt 0 ] || fail_show "$TMP/link2.txt" "no write in the tree with a link"
# A run with failed writes is incomplete: it must not exit 0.
[ "$errs" -eq 0 ] || [ "$rc" -ne 0 ] || fail_show "$TMP/link2.txt" "a run with $errs failed writes exited 0"
for s in local-1 local-2; do
	[ -L "$A5/$s/vdb.1_2.dir" ] || fail "the link in $s's tree was replaced"
done
echo "ok: the link was not followed: $writes writes in the tree, $errs failed, the files outside unchanged"

# 6. The same counts on ext4 in a loop file.
if command -v mkfs.ext4 > /dev/null && [ "$(id -u)" -eq 0 ]; then
	truncate -s 64m "$TMP/ext4.img"
	mkfs.ext4 -q -F -b 4096 "$TMP/ext4.img"
	FS_LOOP=$(losetup -f --show --sector-size 4096 "$TMP/ext4.img")
	mkdir "$FS_MNT"
	mount "$FS_LOOP" "$FS_MNT"
	mkdir "$FS_MNT/a"
	counts "$FS_MNT/a" counts_ext4
	for s in local-1 local-2; do
		$CHECK "$FS_MNT/a/$s" 2 3 4 8192:50,16384:50 \
			--files-present "$(find "$FS_MNT/a/$s" -name 'vdb_f*.file' | wc -l)" ||
			fail "ext4: the tree of $s holds a name Vdbench's has not"
	done
	# Device telemetry in fs phases: every slave's measured interval of
	# the run phases has a devices.csv row of the loop device under the
	# tree (whatever it wrote: ext4 may write back later).
	/usr/bin/python3 - "$TMP/counts_ext4" "$(basename "$FS_LOOP")" <<'PY' ||
import csv, json, sys
d, dev = sys.argv[1], sys.argv[2]
s = json.load(open(d + "/summary.json"))
rows = list(csv.DictReader(open(d + "/devices.csv")))
n = 0
for run in ("rdd", "rdc"):
    ivs = sorted({int(r["interval"]) for r in csv.DictReader(open(d + "/ops.csv"))
                  if r["run"] == run and r["phase"] == "measure"})
    assert ivs, run
    for slave in ("local-1", "local-2"):
        got = {int(r["interval"]) for r in rows
               if r["run"] == run and r["slave"] == slave and r["device"] == dev}
        assert got == set(ivs), (run, slave, sorted(got), ivs)
        n += len(got)
print("ok: ext4: %d device rows of %s in the fs run phases" % (n, dev))
PY
		fail_show "$TMP/counts_ext4.txt" "ext4: no device telemetry in the fs phases"
	# What O_DIRECT writes reach the device: over the run, the loop
	# device's bytes written in each slave's rows (wmbps x span_ns, the
	# span its rates are over) are at least the bytes both slaves wrote
	# (ops.csv, every interval: rdw has no warmup), within the rounding
	# of wmbps' 4 decimals. Both slaves run on this host with the same
	# interval boundaries and sample the device after each: a write
	# counted in an interval was on the device by its sample.
	mkdir "$FS_MNT/dw"
	cat > "$TMP/dw.vdb" <<VDB
fsd=fsd1,anchor=$FS_MNT/dw,depth=1,width=2,files=4,sizes=16k
fwd=dw,fsd=fsd1,operation=write,xfersize=4k,fileio=random,fileselect=random,threads=1,openflags=o_direct
rd=rdw,fwd=dw,fwdrate=max,format=yes,elapsed=2,interval=1
VDB
	run dw
	[ "$rc" -eq 0 ] || fail_show "$TMP/dw.txt" "dw: exited $rc"
	/usr/bin/python3 "$HERE/check_slave_ops.py" "$TMP/dw" ||
		fail_show "$TMP/dw.txt" "dw: slave_ops.csv does not add up"
	# O_DIRECT transfers go through the ring.
	/usr/bin/python3 "$HERE/check_ring.py" "$TMP/dw" rdw ring ||
		fail_show "$TMP/dw.txt" "dw: O_DIRECT transfers not through io_uring"
	/usr/bin/python3 - "$TMP/dw" "$(basename "$FS_LOOP")" <<'PY' ||
import csv, json, sys
d, dev = sys.argv[1], sys.argv[2]
s = json.load(open(d + "/summary.json"))
run = [r for r in s["runs"] if r["name"] == "rdw"][0]
assert run["warmup_intervals"] == 0, run["warmup_intervals"]
ops = [r for r in csv.DictReader(open(d + "/ops.csv"))
       if r["run"] == "rdw" and r["operation"] == "write"]
wrote = sum(int(r["bytes"]) for r in ops if r["phase"] != "total")
tot = [int(r["bytes"]) for r in ops if r["phase"] == "total"]
assert tot == [wrote] == [run["operations"]["write"]["bytes"]], (tot, wrote)
assert wrote >= 100 * 4096, wrote
ivs = {r["interval"] for r in ops if r["phase"] == "measure"}
rows = [r for r in csv.DictReader(open(d + "/devices.csv"))
        if r["run"] == "rdw" and r["device"] == dev]
for slave in ("local-1", "local-2"):
    mine = [r for r in rows if r["slave"] == slave]
    assert {r["interval"] for r in mine} == ivs, (slave, mine, ivs)
    # wmbps = sectors x 512 / 1048576 / span: printed to 4 decimals
    got = sum(float(r["wmbps"]) * 1048576 * int(r["span_ns"]) / 1e9
              for r in mine)
    slack = sum(0.5e-4 * 1048576 * int(r["span_ns"]) / 1e9 for r in mine)
    assert got + slack >= wrote, \
        "%s: the device wrote %.0f bytes (+- %.0f), the slaves %d through " \
        "O_DIRECT" % (slave, got, slack, wrote)
    # The host's figures are over the same two samples as the device's.
    host = {r["interval"]: int(r["span_ns"])
            for r in csv.DictReader(open(d + "/hoststats.csv"))
            if r["run"] == "rdw" and r["slave"] == slave}
    for r in mine:
        assert host[r["interval"]] == int(r["span_ns"]), \
            (slave, r["interval"], host, r["span_ns"])
    nominal = sum(float(r["wmbps"]) * 1048576 * float(run["interval_s"])
                  for r in mine)
    print("ok: dw: %s's rows of %s: %.0f bytes written (+- %.0f; x the "
          "interval's seconds %.0f), the slaves' O_DIRECT writes %d" %
          (slave, dev, got, slack, nominal, wrote))
PY
		fail_show "$TMP/dw.txt" "dw: the device wrote less than the O_DIRECT writes"
	# An fwd's openflags= open its files, an rd's replaces it: on the
	# loop device's 4 KiB sectors O_DIRECT reads of 512 bytes fail
	# (EINVAL), buffered or O_SYNC ones do not; judged on summary.json's
	# read errors.
	for v in fwd rd; do
		rdo=
		[ "$v" = rd ] && rdo=",openflags=o_sync"
		cat > "$TMP/of_$v.vdb" <<VDB
fsd=fsd1,anchor=$FS_MNT/a,depth=2,width=3,files=4,sizes=(8k,50,16k,50)
fwd=dio,fsd=fsd1,operation=read,xfersize=512,fileio=random,fileselect=random,threads=1,openflags=o_direct
rd=rd1,fwd=dio,fwdrate=100,format=no,elapsed=1,interval=1$rdo
VDB
		run "of_$v"
		errs=$(/usr/bin/python3 -c "import json; r=json.load(open('$TMP/of_$v/summary.json'))['runs'][0]['totals']; print(r['errors'], r['read_ops'])")
		read -r e n <<< "$errs"
		if [ "$v" = fwd ]; then
			[ "$e" -gt 0 ] && [ "$rc" -ne 0 ] ||
				fail_show "$TMP/of_$v.txt" "fwd openflags=o_direct: $e read errors, exit $rc"
		else
			[ "$e" -eq 0 ] && [ "$n" -gt 0 ] && [ "$rc" -eq 0 ] ||
				fail_show "$TMP/of_$v.txt" "rd openflags=o_sync over the fwd's: $e errors of $n reads, exit $rc"
		fi
		echo "ok: openflags= of the $v: $e read errors, $n reads, exit $rc"
	done
	# A format opens its files with fwd=format's openflags= (an rd's
	# over it): 6000-byte files cannot be written O_DIRECT on 4 KiB
	# sectors, with O_SYNC they are.
	for v in fwd rd; do
		rdo=
		[ "$v" = rd ] && rdo=",openflags=o_sync"
		mkdir -p "$FS_MNT/f_$v"
		cat > "$TMP/fo_$v.vdb" <<VDB
fsd=fsd1,anchor=$FS_MNT/f_$v,depth=1,width=2,files=2,sizes=(6000)
fwd=format,openflags=o_direct
fwd=r,fsd=fsd1,operation=read
rd=rd1,fwd=r,fwdrate=max,format=only,elapsed=2,interval=1$rdo
VDB
		run "fo_$v"
		n=$(find "$FS_MNT/f_$v" -name 'vdb_f*.file' -size 6000c | wc -l)
		if [ "$v" = fwd ]; then
			[ "$rc" -ne 0 ] && grep -q "Invalid argument" "$TMP/fo_$v.txt" ||
				fail_show "$TMP/fo_$v.txt" "fwd=format openflags=o_direct: exit $rc, no EINVAL"
		else
			[ "$rc" -eq 0 ] && [ "$n" -eq 8 ] ||
				fail_show "$TMP/fo_$v.txt" "rd openflags=o_sync over fwd=format's: exit $rc, $n whole files of 8"
		fi
		echo "ok: a format's openflags= of the $v: exit $rc, $n whole files"
	done
else
	echo "ext4 part skipped: needs root and mkfs.ext4"
fi
echo "PASS"
