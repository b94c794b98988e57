# The report of a file-system run in a real headless Chromium: a format,
# deletes, then creates and getattrs on tmpfs with two local slaves,
# written with `run --report`; the page loads without a console message
# and each run's Operations table shows summary.json's operations (count,
# rate, mean, p99, max per operation), and its operations panel draws
# each operation's rate per interval as ops.csv has it.
source "$(dirname "$0")/lib.sh"

CHROMIUM=$(command -v chromium || true)
[ -n "$CHROMIUM" ] || fail "chromium is missing (scripts/install-deps.sh installs it)"
source "$HERE/chrome_lib.sh"
FSA=$(mktemp -d /dev/shm/lockstep-reportfs.XXXXXX)
trap 'rm -rf "$FSA"; cleanup' EXIT
source "$HERE/fsrun_lib.sh"
fs_mixed_vdb "$TMP/fs.vdb" "$FSA"
run_bounded 60 "$LOCKSTEP" run "$TMP/fs.vdb" -o "$TMP/fs" --local-slaves 2 \
	--no-history --report > "$TMP/fs.txt" 2>&1
[ "$rc" -eq 0 ] || { fail_show "$TMP/fs.txt" "fs run --report exited $rc"; }
chrome fs 900 --dump-dom "file://$TMP/fs/report.html" > "$TMP/fs-dom.html"
/usr/bin/python3 "$HERE/check_report.py" ops "$TMP/fs-dom.html" "$TMP/fs"
echo "PASS"
