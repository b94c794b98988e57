# Helpers of the file-system run tests (fs_run.sh, fs_copymove.sh,
# fs_clean_shared.sh, fs_subsets.sh, fs_validate.sh, fs_format_threads.sh,
# fs_validate_journal.sh), sourced after lib.sh.

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

# op RUNDIR RUN OP [FIELD]: the summary's FIELD (default count) of
# operation OP in run RUN (0 when absent).
op() {
	/usr/bin/python3 - "$@" <<'PY'
import json, sys
s = json.load(open(sys.argv[1] + "/summary.json"))
r = [r for r in s["runs"] if r["name"] == sys.argv[2]]
assert r, "no run %s in %s" % (sys.argv[2], [r["name"] for r in s["runs"]])
f = sys.argv[4] if len(sys.argv) > 4 else "count"
print(r[0]["operations"].get(sys.argv[3], {}).get(f, 0) or 0)
PY
}

# refused NAME WHERE LINE...: the parameter file of LINEs is refused by
# lockstep check at WHERE ("LINE:COL:" and the message's start).
refused() {
	local name=$1 want=$2
	shift 2
	printf '%s\n' "$@" > "$TMP/$name.vdb"
	set +e
	"$LOCKSTEP" check "$TMP/$name.vdb" > "$TMP/$name.txt" 2>&1
	rc=$?
	set -e
	[ "$rc" -ne 0 ] || fail_show "$TMP/$name.txt" "$name: accepted"
	grep -q "$TMP/$name.vdb:$want" "$TMP/$name.txt" ||
		fail_show "$TMP/$name.txt" "$name: not refused at $want"
	echo "ok: $name refused at $want"
}

# val_figures RUNDIR RUN: "written verified mismatches" of summary.json's
# run RUN, whose validation has one fsd, fsd1, adding up to its totals.
val_figures() {
	/usr/bin/python3 - "$@" <<'PY'
import json, sys
s = json.load(open(sys.argv[1] + "/summary.json"))
r = [r for r in s["runs"] if r["name"] == sys.argv[2]][0]
v = r["validation"]
sds = v["sds"]
assert [x["fsd"] for x in sds] == ["fsd1"], sds
assert (sds[0]["written"], sds[0]["verified"], sds[0]["mismatched"]) == (
    v["blocks_written"], v["blocks_verified"], v["mismatches"]), v
print(v["blocks_written"], v["blocks_verified"], v["mismatches"])
PY
}
