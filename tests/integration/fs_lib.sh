# Helpers of the fsd=/fwd= integration tests (fs_run.sh, fs_subsets.sh),
# sourced after lib.sh.

# run NAME: lockstep run $TMP/NAME.vdb into $TMP/NAME with two local
# slaves; sets rc; fails on a sanitizer report.
run() {
	set +e
	timeout 120 "$LOCKSTEP" run "$TMP/$1.vdb" -o "$TMP/$1" \
		--local-slaves 2 > "$TMP/$1.txt" 2>&1
	rc=$?
	set -e
	grep -q "AddressSanitizer\|runtime error" "$TMP/$1.txt" &&
		fail_show "$TMP/$1.txt" "sanitizer report"
	return 0
}

# op RUNDIR RUN OP: the summary's count of operation OP in run RUN.
op() {
	/usr/bin/python3 - "$@" <<'PY'
import json, sys
s = json.load(open(sys.argv[1] + "/summary.json"))
r = [r for r in s["runs"] if r["name"] == sys.argv[2]]
assert r, "no run %s in %s" % (sys.argv[2], [r["name"] for r in s["runs"]])
print(r[0]["operations"].get(sys.argv[3], {}).get("count", 0))
PY
}
