# A slave whose hello does not list the run's engine is refused at
# registration with an error naming the slave, the engine and the engines
# it has; the run then fails as for any refused slave (it never registers).
# The hello is hand-encoded (lib.sh's hello_hex: "nullonly" with
# engines=[null], this protocol and version), sent by zsend as a raw frame,
# to a master that takes plain connections (--insecure).
source "$(dirname "$0")/lib.sh"

cat > "$TMP/e.vdb" <<VDB
sd=sd1,lun=$TMP/e.dat,size=1m,threads=1
wd=wd1,sd=sd1,xfersize=4k,rdpct=100
rd=r1,wd=wd1,elapsed=1,interval=1
VDB
HELLO=$(hello_hex "$PROTO_V" nullonly "$("$LOCKSTEP" version | cut -d" " -f2)")

"$LOCKSTEP" run "$TMP/e.vdb" -o "$TMP/out" --engine io_uring --local-slaves 0 \
	--expect-slaves 1 --join-timeout 4 --insecure > "$TMP/e.txt" 2> "$TMP/e.err" &
PIDS+=($!)
master=$!
port=$(master_port "$TMP/e.err")
"$ZSEND" "tcp://127.0.0.1:$port" "$HELLO" || fail "zsend failed"
wait_exit "$master" 30
[ "$rc" -eq 1 ] || { fail_show "$TMP/e.err" "run with a slave lacking the engine exited $rc, expected 1"; }
grep -q "slave nullonly (pid 4242 on testhost) refused: it has no engine io_uring (it has: null)" "$TMP/e.err" || { fail_show "$TMP/e.err" "no error naming the slave, the engine and its engines"; }
grep -q "did not register" "$TMP/e.err" || { fail_show "$TMP/e.err" "the run did not fail as for a refused slave"; }
echo "PASS"
