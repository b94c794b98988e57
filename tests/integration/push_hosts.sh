# Deploying over ssh to hosts in network namespaces, each with a real sshd
# (as ssh_hosts.sh), and a third host with no sshd (unreachable).
# `lockstep hosts` reports each host: h1 has no binary, h2 an old one (a
# script that says lockstep 0.0.1), h3 is unreachable, named with ssh's
# reason; with the binaries in place it shows the kernel, io_uring, the
# clock offset, the cores and the targets, a FIFO refused by target safety.
# `lockstep run --push` copies the master's binary to h1 and replaces h2's,
# names h3 with the reason and does not start the run; with
# --on-slave-loss continue it runs on h1 and h2 with the pushed binaries
# and exits 4 (degraded), not 0. lockstep=/bin/true is not ready (no
# version line), a host's escape sequences are shown escaped, and a
# system= that looks like an ssh option is a host name (after "--").
# The namespaces share this file system:
# every path is under $TMP.
source "$(dirname "$0")/lib.sh"
start_cluster 3 lsp
# Host 3 has no sshd. One connection per host, reused: the test does
# about twenty ssh calls.
start_sshd 2 "ControlMaster auto" "ControlPath $TMP/mux-%h" "ControlPersist 60"
SSH="ssh -F $TMP/ssh_config"
MINE=$("$LOCKSTEP" version)
IP1=${HOSTS[0]#*=} IP2=${HOSTS[1]#*=} IP3=${HOSTS[2]#*=}
mkdir -p "$TMP/h2"
printf '#!/bin/sh\necho "lockstep 0.0.1"\n' > "$TMP/h2/lockstep"
chmod 755 "$TMP/h2/lockstep"
mkfifo "$TMP/fifo"

cat > "$TMP/hosts.vdb" <<VDB
hd=default,user=root
hd=h1,system=$IP1,lockstep=$TMP/h1/bin/lockstep
hd=h2,system=$IP2,lockstep=$TMP/h2/lockstep
hd=h3,system=$IP3,lockstep=$TMP/h3/lockstep
sd=sd1,lun=$TMP/s.dat,size=4m,threads=2
sd=sd2,lun=$TMP/fifo,size=4m,threads=2
wd=wd1,sd=sd1,xfersize=4k,rdpct=50
wd=wd2,sd=sd2,xfersize=4k,rdpct=50
rd=r1,wd=wd*,elapsed=1,interval=1
VDB

# ---- hosts before: missing, old, unreachable -----------------------------
run_bounded 60 "$LOCKSTEP" hosts "$TMP/hosts.vdb" --ssh "$SSH" > "$TMP/h.out" 2>&1
cat "$TMP/h.out"
[ "$rc" -eq 1 ] || fail "lockstep hosts exited $rc with broken hosts, expected 1"
grep -q "^hd=h1 (root@$IP1): ssh ok, kernel $(uname -r), clock [-+][0-9.]* ms" "$TMP/h.out" || fail "h1: no ssh, kernel and clock line"
grep -q "^  lockstep: $TMP/h1/bin/lockstep missing" "$TMP/h.out" || fail "h1: binary not reported missing"
grep -q "^  lockstep: $TMP/h2/lockstep is 0.0.1, not this version" "$TMP/h.out" || fail "h2: old version not reported"
grep -q "^hd=h3 (root@$IP3): UNREACHABLE: .*$IP3" "$TMP/h.out" || fail "h3: not reported unreachable with ssh's reason"

# ---- push refused by h3: h1 and h2 get the binary, the run does not start --
# The same hosts, without the FIFO (the run would refuse it).
grep -v "sd2\|wd2" "$TMP/hosts.vdb" | sed 's/wd=wd\*/wd=wd1/' > "$TMP/push3.vdb"
run_bounded 120 "$LOCKSTEP" run "$TMP/push3.vdb" -o "$TMP/o3" --listen "$LOCKSTEP_BRIDGE_IP" \
	--ssh "$SSH" --push > "$TMP/p3.out" 2>&1
cat "$TMP/p3.out"
[ "$rc" -eq 1 ] || fail "run --push with an unreachable host exited $rc, expected 1"
grep -q "push hd=h1 (root@$IP1): $TMP/h1/bin/lockstep is missing.*; copying" "$TMP/p3.out" || fail "h1: no copy announced"
grep -q "push hd=h1 (root@$IP1): $TMP/h1/bin/lockstep is ${MINE} now" "$TMP/p3.out" || fail "h1: not checked after the copy"
grep -q "push hd=h2 (root@$IP2): $TMP/h2/lockstep is lockstep 0.0.1; copying" "$TMP/p3.out" || fail "h2: old version not replaced"
grep -q "push hd=h3 (root@$IP3) failed: ssh: connect to host $IP3 port 22: Connection refused" "$TMP/p3.out" || fail "h3: failure not named with the reason"
grep -q "the run does not start" "$TMP/p3.out" || fail "no word that the run does not start"
grep -q "started slave" "$TMP/p3.out" "$TMP"/o3/lockstep.log 2>/dev/null && fail "slaves were started"
[ "$("$TMP/h1/bin/lockstep" version)" = "$MINE" ] || fail "h1's copy does not say $MINE"
[ "$("$TMP/h2/lockstep" version)" = "$MINE" ] || fail "h2's copy does not say $MINE"
cmp -s "$TMP/h1/bin/lockstep" "$LOCKSTEP" || fail "h1's copy is not the master's binary"
ls "$TMP/h1/bin" | grep push > /dev/null && fail "a temporary file was left on h1"

# ---- continue: the run goes on without h3 ---------------------------------
run_bounded 120 "$LOCKSTEP" run "$TMP/push3.vdb" -o "$TMP/oc" --listen "$LOCKSTEP_BRIDGE_IP" \
	--ssh "$SSH" --push --on-slave-loss continue > "$TMP/pc.out" 2>&1
# Complete for h1 and h2, not for the file's three hosts: degraded (4).
[ "$rc" -eq 4 ] || { fail_show "$TMP/pc.out" "run --push --on-slave-loss continue without h3 exited $rc, expected 4"; }
grep -q "push hd=h1 (root@$IP1): $TMP/h1/bin/lockstep is $MINE already" "$TMP/pc.out" ||
	{ fail_show "$TMP/pc.out" "h1: not up to date on the second push"; }
grep -q "push hd=h3 .*failed: .*left out of the run" "$TMP/pc.out" || { fail_show "$TMP/pc.out" "h3 not left out by name"; }
python3 - "$TMP/oc" <<'PY' || fail "summary of the run without h3"
import json, sys
s = json.load(open(sys.argv[1] + "/summary.json"))
names = sorted(x["name"] for x in s["slaves"])
assert names == ["h1", "h2"], names
assert s["runs"][0]["totals"]["ops"] > 0, s["runs"][0]["totals"]
PY

# ---- hosts after: both ready; targets with sizes and verdicts ------------
printf 'x%.0s' $(seq 4096) > "$TMP/s.dat"
run_bounded 60 "$LOCKSTEP" hosts "$TMP/hosts.vdb" --ssh "$SSH" > "$TMP/h2.out" 2>&1
cat "$TMP/h2.out"
grep -q "^  lockstep: $TMP/h1/bin/lockstep is ${MINE#lockstep } (this version)" "$TMP/h2.out" || fail "h1 not ready after push"
grep -q "^  io_uring: " "$TMP/h2.out" || fail "no io_uring line"
[ "$(grep -c "^  cores: $(nproc)$" "$TMP/h2.out")" -eq 2 ] || fail "no cores line for each host"
grep -q "^  target $TMP/s.dat: file 4.0 KiB, ok" "$TMP/h2.out" || fail "no size and verdict for the file target"
grep -q "^  target $TMP/fifo: fifo, REFUSED: " "$TMP/h2.out" || fail "the FIFO target is not refused"

# ---- not lockstep, hostile output, a system= that looks like an option ---
# /bin/true prints no version: not ready. A "lockstep" that prints escape
# sequences and a forged line: shown escaped. system=-oProxyCommand=...
# reaches ssh after "--", as a host name, so the command never runs.
printf '#!/bin/sh\nprintf "lockstep \\033[2J0.0.2\\nhd=h9 (root@x): ready\\n"\n' > "$TMP/esc.sh"
chmod 755 "$TMP/esc.sh"
printf '#!/bin/sh\ntouch %s/pwned\n' "$TMP" > "$TMP/pwn.sh"
chmod 755 "$TMP/pwn.sh"
cat > "$TMP/odd.vdb" <<VDB
hd=default,user=root
hd=h1,system=$IP1,lockstep=/bin/true
hd=h2,system=$IP2,lockstep=$TMP/esc.sh
hd=h4,system=-oProxyCommand=$TMP/pwn.sh
sd=sd1,lun=$TMP/s.dat,size=4m,threads=2
wd=wd1,sd=sd1,xfersize=4k,rdpct=50
rd=r1,wd=wd1,elapsed=1,interval=1
VDB
run_bounded 60 "$LOCKSTEP" hosts "$TMP/odd.vdb" --ssh "$SSH" > "$TMP/h3.out" 2>&1
cat -v "$TMP/h3.out"
[ "$rc" -eq 1 ] || fail "lockstep hosts with /bin/true as lockstep exited $rc, expected 1"
grep -q "^  lockstep: /bin/true printed no version line" "$TMP/h3.out" || fail "h1: /bin/true not reported as no lockstep"
! grep -q $'\x1b' "$TMP/h3.out" || fail "a raw escape character from a host reached the output"
! grep -q "^hd=h9" "$TMP/h3.out" || fail "a host forged a line of its own"
grep -qF '\x1b[2J' "$TMP/h3.out" || fail "the host's escape sequence is not shown escaped"
[ ! -e "$TMP/pwned" ] || fail "system= was taken by ssh as an option (its ProxyCommand ran)"
echo "PASS"
