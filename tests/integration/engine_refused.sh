# A slave whose hello does not list the run's engine is refused at
# registration with an error naming the slave, the engine and the engines
# it has; the run then fails as for any refused slave (it never registers).
# The hello is hand-encoded (proto_encode of a hello from "nullonly" with
# engines=[null], protocol version 5), sent by zsend as a raw frame, to a
# master that takes plain connections (--insecure).
source "$(dirname "$0")/lib.sh"

cat > "$TMP/e.vdb" <<VDB
sd=sd1,lun=$TMP/e.dat,size=1m,threads=1
wd=wd1,sd=sd1,xfersize=4k,rdpct=100
rd=r1,wd=wd1,elapsed=1,interval=1
VDB
HELLO=89a17605a174a568656c6c6fa26964d92430663065306430632d306230612d343930382d383730362d303530343033303230313030a26e6da86e756c6c6f6e6c79a168a874657374686f7374a3706964cd1092a16301a3766572a5302e312e30a16591a46e756c6c

"$LOCKSTEP" run "$TMP/e.vdb" -o "$TMP/out" --engine io_uring --local-slaves 0 \
	--expect-slaves 1 --join-timeout 4 --insecure > "$TMP/e.txt" 2> "$TMP/e.err" &
PIDS+=($!)
master=$!
port=""
for _ in $(seq 100); do
	port=$(sed -n 's/.*listening on tcp:\/\/127.0.0.1:\([0-9]*\).*/\1/p' "$TMP/e.err" | head -1)
	[ -n "$port" ] && break
	sleep 0.1
done
[ -n "$port" ] || fail "master did not say its port"
"$ZSEND" "tcp://127.0.0.1:$port" "$HELLO" || fail "zsend failed"
set +e
timeout 30 tail --pid=$master -f /dev/null
wait $master
rc=$?
set -e
[ "$rc" -eq 1 ] || { cat "$TMP/e.err"; fail "run with a slave lacking the engine exited $rc, expected 1"; }
grep -q "slave nullonly (pid 4242 on testhost) refused: it has no engine io_uring (it has: null)" "$TMP/e.err" || { cat "$TMP/e.err"; fail "no error naming the slave, the engine and its engines"; }
grep -q "did not register" "$TMP/e.err" || { cat "$TMP/e.err"; fail "the run did not fail as for a refused slave"; }
echo "PASS"
