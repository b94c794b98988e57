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

# The hosts' p99 of the format run set so that the per-host p99 charts'
# shared log range starts just under a decade (0.0147 / 1.5 = 0.0098):
# uPlot stepped such a range's ticks forever ("Invalid array length"
# after 30 s, the chart blank, seen in CI). The range is whole decades.
/usr/bin/python3 - "$TMP/fs/hosts" <<'PY'
import csv, sys
for name, p99 in (("local-1", "0.019900"), ("local-2", "0.014700")):
    path = "%s/%s.csv" % (sys.argv[1], name)
    rows = list(csv.DictReader(open(path)))
    n = 0
    for r in rows:
        if r["run"] == "rd format" and r["phase"] == "measure":
            r["p99_ms"] = p99
            n += 1
    assert n == 1, (path, n)
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
        w.writeheader()
        w.writerows(rows)
PY
run_bounded 30 "$LOCKSTEP" report "$TMP/fs" -o "$TMP/dec.html" > "$TMP/dec.txt" 2>&1
[ "$rc" -eq 0 ] || fail_show "$TMP/dec.txt" "report of the edited folder exited $rc"
chrome dec 900 --dump-dom "file://$TMP/dec.html" > "$TMP/dec-dom.html"
/usr/bin/python3 - "$TMP/dec-dom.html" <<'PY'
import re, sys
dom = open(sys.argv[1]).read()
grid = re.search(r'<div class="host-grid" data-run="rd format".*?'
                 r'(?=<div class="host-overlay")', dom, re.S)
assert grid, "no per-host grid for rd format"
got = re.findall(r'id="h\d+-\d+-p99"[^>]*data-y-range="([^"]*)"', grid.group(0))
got += re.findall(r'data-y-range="([^"]*)"[^>]*id="h\d+-\d+-p99"', grid.group(0))
assert got == ["0.001,0.1"] * 2, got
PY
echo "PASS"
