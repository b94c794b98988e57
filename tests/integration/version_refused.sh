# Slaves of another lockstep are refused with a message naming both
# versions and the fix (--push), not as bad frames: a hello of protocol 4
# from lockstep 0.1.0 (what the last release sends; the decoder reads "v"
# first and names the peer's version) and a hello of this protocol from
# lockstep 0.0.1. Neither registers, so the run fails as for any missing
# slave.
source "$(dirname "$0")/lib.sh"

cat > "$TMP/v.vdb" <<VDB
sd=sd1,lun=$TMP/v.dat,size=1m,threads=1
wd=wd1,sd=sd1,xfersize=4k,rdpct=100
rd=r1,wd=wd1,elapsed=1,interval=1
VDB
MINE=$("$LOCKSTEP" version | cut -d" " -f2)
[[ "$MINE" =~ ^[0-9]+\.[0-9]+\.[0-9]+ ]] || fail "lockstep version printed '$MINE'"
OLDPROTO=$(hello_hex 4 old1 0.1.0)
OLDVER=$(hello_hex "$PROTO_V" old2 0.0.1)

"$LOCKSTEP" run "$TMP/v.vdb" -o "$TMP/out" --engine null --local-slaves 0 \
	--expect-slaves 1 --join-timeout 4 --insecure > "$TMP/v.txt" 2> "$TMP/v.err" &
PIDS+=($!)
master=$!
port=$(master_port "$TMP/v.err")
"$ZSEND" "tcp://127.0.0.1:$port" "$OLDPROTO" || fail "zsend failed"
"$ZSEND" "tcp://127.0.0.1:$port" "$OLDVER" || fail "zsend failed"
wait_exit "$master" 30
[ "$rc" -eq 1 ] || { fail_show "$TMP/v.err" "run with only mismatched slaves exited $rc, expected 1"; }
grep -qF "refused a peer: protocol version 4 not supported (this lockstep speaks 20), from lockstep 0.1.0; this master is lockstep $MINE: run the same version on every host (\`lockstep run FILE --push\`" "$TMP/v.err" ||
	{ fail_show "$TMP/v.err" "no clear refusal of the protocol 4 slave"; }
grep -qF "slave old2 (pid 4242 on testhost) refused: it runs lockstep 0.0.1, this master lockstep $MINE: run the same version on every host (\`lockstep run FILE --push\`" "$TMP/v.err" ||
	{ fail_show "$TMP/v.err" "no clear refusal of the lockstep 0.0.1 slave"; }
grep -q "dropped a bad frame" "$TMP/v.err" && { fail_show "$TMP/v.err" "a version mismatch was reported as a bad frame"; }
grep -q "did not register" "$TMP/v.err" || { fail_show "$TMP/v.err" "the run did not fail as for a missing slave"; }
echo "PASS"
