# Parameter files are read safely: a FIFO (as the file or an include) is
# refused at once, an included file that is not a parameter file has none
# of its text printed, interval counts that do not fit are FILE:LINE:COLUMN
# errors, and a UTF-8 byte-order mark is accepted.
source "$(dirname "$0")/lib.sh"

SD="sd=sd1,lun=$TMP/d.dat,size=1m"

# 1. FIFOs: refused promptly (a reader would wait for a writer forever).
mkfifo "$TMP/fifo.vdb"
run_bounded 10 "$LOCKSTEP" run "$TMP/fifo.vdb" -o "$TMP/never" > "$TMP/o.txt" 2>&1
[ "$rc" -eq 1 ] || { fail_show "$TMP/o.txt" "FIFO parameter file: exit $rc, expected 1"; }
grep -q "fifo.vdb: cannot read: not a regular file" "$TMP/o.txt" || { fail_show "$TMP/o.txt" "FIFO parameter file not named"; }
printf '%s\ninclude=fifo.vdb\nwd=wd1,sd=sd1\nrd=r1,wd=wd1,elapsed=1\n' "$SD" > "$TMP/inc.vdb"
run_bounded 10 "$LOCKSTEP" run "$TMP/inc.vdb" -o "$TMP/never" > "$TMP/o.txt" 2>&1
[ "$rc" -eq 1 ] || { fail_show "$TMP/o.txt" "FIFO include: exit $rc, expected 1"; }
grep -q "^$TMP/inc.vdb:2:9: include=fifo.vdb: cannot read .*: not a regular file" "$TMP/o.txt" || { fail_show "$TMP/o.txt" "FIFO include: no FILE:LINE:COLUMN error"; }
[ ! -e "$TMP/never" ] || fail "a results folder was created"

# 2. An include of a file that is not a parameter file prints none of it.
printf 'root:$6$TOPSECRET-8f3a:19000:0:99999:7:::\ndaemon:*:19000:0:99999:7:::\n' > "$TMP/secret"
chmod 600 "$TMP/secret"
printf '%s\ninclude=secret\nwd=wd1,sd=sd1\nrd=r1,wd=wd1,elapsed=1\n' "$SD" > "$TMP/leak.vdb"
run_bounded 10 "$LOCKSTEP" run "$TMP/leak.vdb" -o "$TMP/never" > "$TMP/o.txt" 2>&1
[ "$rc" -eq 1 ] || { fail_show "$TMP/o.txt" "include=secret: exit $rc, expected 1"; }
grep -q "TOPSECRET\|root\|daemon" "$TMP/o.txt" && { fail_show "$TMP/o.txt" "the included file's text was printed"; }
grep -q "^$TMP/secret:1:[0-9]*: not a parameter file" "$TMP/o.txt" || { fail_show "$TMP/o.txt" "no error for the included file"; }
run_bounded 10 "$LOCKSTEP" check "$TMP/leak.vdb" > "$TMP/o.txt" 2>&1
grep -q "TOPSECRET" "$TMP/o.txt" && fail "lockstep check printed the included file"
if [ -r /etc/shadow ]; then
	printf '%s\ninclude=/etc/shadow\nwd=wd1,sd=sd1\nrd=r1,wd=wd1,elapsed=1\n' "$SD" > "$TMP/shadow.vdb"
	run_bounded 10 "$LOCKSTEP" run "$TMP/shadow.vdb" -o "$TMP/never" > "$TMP/o.txt" 2>&1
	[ "$rc" -eq 1 ] || fail "include=/etc/shadow: exit $rc, expected 1"
	python3 - "$TMP/o.txt" <<'PY' || fail "a line of /etc/shadow was printed"
import sys
out = open(sys.argv[1]).read()
for line in open("/etc/shadow"):
    user = line.split(":")[0]
    if user and (line.strip() in out or user + ":" in out or "'" + user + "'" in out):
        print("printed: %s" % user)
        sys.exit(1)
PY
fi

# 3. elapsed= that does not fit in an interval count: refused, not wrapped.
printf '%s\nwd=wd1,sd=sd1\nrd=r1,wd=wd1,elapsed=4294967298,interval=1\n' "$SD" > "$TMP/e.vdb"
run_bounded 20 "$LOCKSTEP" run "$TMP/e.vdb" -o "$TMP/never" > "$TMP/o.txt" 2>&1
[ "$rc" -eq 1 ] || { fail_show "$TMP/o.txt" "elapsed=4294967298: exit $rc, expected 1"; }
grep -q "^$TMP/e.vdb:3:[0-9]*: elapsed=.* at most 1000000 fit in a run" "$TMP/o.txt" || { fail_show "$TMP/o.txt" "no FILE:LINE:COLUMN range error"; }
grep -q "completed" "$TMP/o.txt" && fail "the run said completed"
printf '%s\nwd=wd1,sd=sd1\nrd=r1,wd=wd1,elapsed=2,interval=1\n' "$SD" > "$TMP/ov.vdb"
run_bounded 20 "$LOCKSTEP" run "$TMP/ov.vdb" -e 4294967298 -o "$TMP/never" > "$TMP/o.txt" 2>&1
[ "$rc" -eq 1 ] || { fail_show "$TMP/o.txt" "-e 4294967298: exit $rc, expected 1"; }

# 4. A byte-order mark at the start of the file (and of an include).
printf '\xef\xbb\xbf%s\ninclude=bom2.vdb\nrd=r1,wd=wd1,elapsed=1,interval=1\n' "$SD" > "$TMP/bom.vdb"
printf '\xef\xbb\xbfwd=wd1,sd=sd1\n' > "$TMP/bom2.vdb"
run_bounded 20 "$LOCKSTEP" check "$TMP/bom.vdb" > "$TMP/o.txt" 2>&1
[ "$rc" -eq 0 ] || { fail_show "$TMP/o.txt" "a file with a byte-order mark: exit $rc"; }
run_bounded 60 "$LOCKSTEP" run "$TMP/bom.vdb" -o "$TMP/bom" --local-slaves 1 > "$TMP/o.txt" 2>&1
[ "$rc" -eq 0 ] || { fail_show "$TMP/o.txt" "a run of a file with a byte-order mark: exit $rc"; }
echo "PASS"
