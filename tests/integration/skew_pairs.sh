# A wd's rate split over (slave, sd) pairs, as Vdbench's HandleSkew.
# spreadWgSkew splits it over its WG_entries: two daemon slaves, host=
# gives d1 two of the wd's three sds and d2 one, the rd runs a fixed
# iorate=150 over 8 measured 1 s intervals. Each pair gets 50 IO/s, so
# d1 does 2/3 of the I/Os and d2 1/3 (an even split over the slaves gave
# them half each). Judged by lockstep's own record: the per-slave CSVs
# (hosts/d1.csv, hosts/d2.csv) over the measured intervals; the tolerance
# is five standard deviations of d1's share of the counted I/Os (open-loop
# Poisson arrivals: a binomial share of the total), never the wall clock.
source "$(dirname "$0")/lib.sh"

for f in a b c; do truncate -s 8m "$TMP/$f.dat"; done
PORT=$(free_port_pair 127.0.0.1)
for d in d1 d2; do
	"$LOCKSTEP" slave --daemon --name "$d" --allow "$TMP/*" --insecure \
		--master "tcp://127.0.0.1:$PORT" > "$TMP/$d.log" 2>&1 &
	PIDS+=($!)
	eval "PID_$d=$!"
done
cat > "$TMP/s.vdb" <<VDB
hd=default,shell=none
hd=d1,system=127.0.0.1
hd=d2,system=127.0.0.1
sd=sd1,lun=$TMP/a.dat,threads=2,host=d1
sd=sd2,lun=$TMP/b.dat,threads=2,host=d1
sd=sd3,lun=$TMP/c.dat,threads=2,host=d2
wd=wd1,sd=sd*,xfersize=4k,rdpct=100
rd=r1,wd=wd1,iorate=150,elapsed=8,interval=1
VDB
run_bounded 90 "$LOCKSTEP" run "$TMP/s.vdb" -o "$TMP/out" --port "$PORT" --insecure \
	--join-timeout 20 > "$TMP/console.txt" 2> "$TMP/err.txt"
[ "$rc" -eq 0 ] || fail_show "$TMP/err.txt" "run exited $rc"
python3 - "$TMP/out" <<'PY' || fail_show "$TMP/console.txt" "the slaves' shares of the rate"
import csv, math, sys
out = sys.argv[1]
ops = {}
for d in ("d1", "d2"):
    rows = [r for r in csv.DictReader(open("%s/hosts/%s.csv" % (out, d)))
            if r["run"] == "r1" and r["phase"] == "measure"]
    assert len(rows) >= 6, (d, len(rows))
    ops[d] = sum(int(r["ops"]) for r in rows)
n = ops["d1"] + ops["d2"]
share = ops["d1"] / n
tol = 5 * math.sqrt((2 / 3) * (1 / 3) / n)
print("d1 %d, d2 %d I/Os: d1's share %.3f (want 0.667 +- %.3f)" % (ops["d1"], ops["d2"], share, tol))
assert abs(share - 2 / 3) <= tol, (ops, share, tol)
PY
for d in d1 d2; do
	eval "p=\$PID_$d"
	kill "$p"
	wait_exit "$p" 20
done
echo "PASS"
