# lockstep report in a real headless Chromium: a real short run (a max run
# and a curve) written with `run --report`, a baseline overlaid with
# `lockstep report --baseline`, and a hostile copy of the folder. The page
# must load without a console message, every chart must show its series
# (the page's own canvas check, read back from the DOM, and a screenshot),
# and the totals tables must show summary.json's numbers; a folder with
# devices.csv, hoststats.csv and probes.csv of known numbers must show them
# in its Devices, Hosts and Probes panels, one without them no panel.
source "$(dirname "$0")/lib.sh"

CHROMIUM=$(command -v chromium || true)
[ -n "$CHROMIUM" ] || fail "chromium is missing (scripts/install-deps.sh installs it)"
PY=/usr/bin/python3
"$PY" -c 'import PIL' 2>/dev/null ||
	fail "python3-pil is missing (scripts/install-deps.sh installs it)"
command -v pdftoppm > /dev/null && command -v pdfinfo > /dev/null ||
	fail "poppler-utils is missing (scripts/install-deps.sh installs it)"
CHECK="$HERE/check_report.py"

source "$HERE/chrome_lib.sh"

# keep_shot PNG NAME: a screenshot kept as a test artifact in the build
# folder (test-artifacts/report/NAME.png), one per kind of run, for a
# person to look at: the page as a customer would get it.
ARTIFACTS="$(cd "$(dirname "$LOCKSTEP")" && pwd)/test-artifacts/report"
mkdir -p "$ARTIFACTS"
keep_shot() {
	cp "$1" "$ARTIFACTS/$2.png" || fail "could not keep $1 as $2.png"
}

cat > "$TMP/t.vdb" <<VDB
sd=sd1,lun=$TMP/d1.dat,size=16m,threads=4
wd=wd1,sd=sd1,xfersize=4k,rdpct=70
rd=run1,wd=wd1,iorate=max,elapsed=3,warmup=1,interval=1
rd=c1,wd=wd1,iorate=curve,curve=(50,100),elapsed=2,interval=1
VDB
run_bounded 90 "$LOCKSTEP" run "$TMP/t.vdb" -o "$TMP/out" --workers 1 \
	--report > "$TMP/console.txt" 2>&1
[ "$rc" -eq 0 ] || { fail_show "$TMP/console.txt" "lockstep run --report exited $rc"; }
grep -q "report: $TMP/out/report.html" "$TMP/console.txt" ||
	fail "run --report did not say where the report is"
[ -s "$TMP/out/report.html" ] || fail "run --report wrote no report.html"
# Self-contained: nothing is loaded from anywhere.
if grep -Eqi '(src|href)="(https?:)?//' "$TMP/out/report.html"; then
	fail "report.html refers to the network"
fi

# The page: 4 runs (run1, the curve's max and its two points), each with
# 3 cluster, 2 per-host and 1 distribution chart, and the curve's chart.
# Scrollbars are hidden, so the layout depends on the window's width only:
# the DOM's rectangles are those of a screenshot as tall as the page.
chrome dom 900 --dump-dom "file://$TMP/out/report.html" > "$TMP/dom.html"
"$PY" "$CHECK" dom "$TMP/dom.html" "$TMP/out" --charts 25 --curves 1
# The page opens with its summary (status, each run's key figures, losses,
# the curve with its max run apart, within the first 900 px), latency on a
# log axis, legends with values, no debug text, a print stylesheet.
"$PY" "$CHECK" summary "$TMP/dom.html" "$TMP/out" "$TMP/out/report.html" \
	--first-screen 900
# Whatever devices.csv, hoststats.csv and probes.csv the run wrote (none on
# a host without them) is drawn as it is, and no panel without them.
"$PY" "$CHECK" telemetry "$TMP/dom.html" "$TMP/out"
# One screenshot holds the page: the Devices and Hosts panels of every
# run make it taller than the charts alone (Chromium takes 24000 px).
height=$(grep -o 'data-height="[0-9]*"' "$TMP/dom.html" | grep -o '[0-9]*')
[ -n "$height" ] && [ "$height" -le 24000 ] || fail "page height '$height'"
(cd "$TMP" && chrome shot "$height" --screenshot="$TMP/shot.png" \
	"file://$TMP/out/report.html" > /dev/null)
"$PY" "$CHECK" shot "$TMP/shot.png" "$TMP/dom.html"
keep_shot "$TMP/shot.png" steady-and-curve

# A baseline: another short run, overlaid, with a delta for every total.
sed -e '/^rd=c1/d' -e 's/elapsed=3/elapsed=2/' "$TMP/t.vdb" > "$TMP/b.vdb"
run_bounded 60 "$LOCKSTEP" run "$TMP/b.vdb" -o "$TMP/base" --workers 1 \
	> "$TMP/base.txt" 2>&1
[ "$rc" -eq 0 ] || { fail_show "$TMP/base.txt" "baseline run exited $rc"; }
run_bounded 30 "$LOCKSTEP" report "$TMP/out" -o "$TMP/cmp.html" \
	--baseline "$TMP/base"
[ "$rc" -eq 0 ] || fail "lockstep report --baseline exited $rc"
chrome cmp 900 --dump-dom "file://$TMP/cmp.html" > "$TMP/cmp-dom.html"
"$PY" "$CHECK" dom "$TMP/cmp-dom.html" "$TMP/out" --baseline "$TMP/base" \
	--charts 25 --curves 1
"$PY" "$CHECK" summary "$TMP/cmp-dom.html" "$TMP/out" "$TMP/cmp.html" --compare
grep -q 'id="compare-verdicts"' "$TMP/cmp-dom.html" ||
	fail "no place for compare verdicts with --baseline"
# The verdicts are lockstep compare's, made for this baseline.
grep -q 'Verdict: ' "$TMP/cmp-dom.html" && grep -q '<h3>Run run1: ' "$TMP/cmp-dom.html" ||
	fail "no compare verdicts with --baseline"
cheight=$(grep -o 'data-height="[0-9]*"' "$TMP/cmp-dom.html" | grep -o '[0-9]*')
[ -n "$cheight" ] && [ "$cheight" -le 24000 ] || fail "compare page height '$cheight'"
(cd "$TMP" && chrome cmpshot "$cheight" --screenshot="$TMP/cmp.png" \
	"file://$TMP/cmp.html" > /dev/null)
"$PY" "$CHECK" shot "$TMP/cmp.png" "$TMP/cmp-dom.html"
keep_shot "$TMP/cmp.png" compare

# A baseline named in the history (both runs are in $TMP/history.db):
# `last` is the baseline run's folder; a median has no folder to draw.
run_bounded 30 "$LOCKSTEP" report "$TMP/out" -o "$TMP/last.html" \
	--baseline last
[ "$rc" -eq 0 ] || fail "lockstep report --baseline last exited $rc"
grep -qF "\"$TMP/base\"" "$TMP/last.html" ||
	fail "--baseline last did not draw the last run ($TMP/base)"
grep -q '"compare_now":' "$TMP/last.html" || fail "--baseline last: no compare"
run_bounded 30 "$LOCKSTEP" report "$TMP/out" -o "$TMP/med.html" \
	--baseline median:2 2> "$TMP/med.err"
[ "$rc" -eq 1 ] && grep -q "median of runs has no folder" "$TMP/med.err" ||
	fail "--baseline median:2: exit $rc, $(cat "$TMP/med.err")"
[ ! -e "$TMP/med.html" ] || fail "a refused report left a file"

# An event's recovery figures (injected into a copy of the folder, so the
# page is checked against known numbers): its degraded and recovered spans
# are shaded where the figures put them, in the DOM and in a screenshot,
# and its figures are listed under the chart. The short runs above are
# too short to be judged steady (and their curve to have a knee): the
# copy also gets a run not steady, one steady and a knee on the curve,
# each of which the page must show.
cp -r "$TMP/out" "$TMP/rec"
# An older folder has no telemetry, a run without block devices an empty
# devices.csv, one without a named NIC or probes a header only: no panel
# and no word about them.
rm -f "$TMP/rec/devices.csv" "$TMP/rec/probes.csv"
: > "$TMP/rec/devices.csv"
[ ! -e "$TMP/out/hoststats.csv" ] || head -1 "$TMP/out/hoststats.csv" > "$TMP/rec/hoststats.csv"
"$PY" - "$TMP/rec/summary.json" <<'PY'
import json, sys
p = sys.argv[1]
s = json.load(open(p))
r = s["runs"][0]
s["events"] = [{"name": "pull", "run": r["name"], "status": "completed",
                "start": r["start_ns"] + 1500 * 10**6,
                "recovery": {"status": "recovered", "judged_on": "cluster",
                             "start_s": 0.5, "window_end_s": 3.0,
                             "window_through": "restore",
                             "time_to_degrade_s": 0.5,
                             "time_to_recover_s": 1.5,
                             "time_to_recover_survivors_s": 1.0,
                             "worst_iops": 12.5, "io_lost": 1234,
                             "io_delayed": 567, "baseline_iops": 1000.0,
                             "baseline_p99_us": 250.0,
                             "worst_p99_us": 4800000.0,
                             "rebuild_s": 2.25}}]
lim = {"method": "SNIA PTS", "metric": "iops", "rounds": 5,
       "intervals_per_round": 1, "data_excursion_limit_pct": 20,
       "slope_excursion_limit_pct": 10, "slaves_judged": 1}
r["steady_state"] = dict(lim, steady=False, data_excursion_pct=34.5,
                         slope_excursion_pct=12.25, slaves_not_steady=1,
                         not_steady=[{"slave": "local-1", "steady": False,
                                      "data_excursion_pct": 34.5,
                                      "slope_excursion_pct": 12.25}])
s["runs"][1]["steady_state"] = dict(lim, steady=True, data_excursion_pct=3.5,
                                    slope_excursion_pct=1.0,
                                    slaves_not_steady=0, not_steady=[])
pt = next(x for x in s["runs"] if x["kind"] == "curve-point")
s["curves"] = [{"max_run": "c1 curve=max", "method": "kneedle", "points": 2,
                "points_not_run": 0, "points_not_raising_iops": 0,
                "stopped_by_stopcurve": False,
                "knee": {"run": pt["name"], "pct": 50,
                         "iops": pt["totals"]["iops"],
                         "resp_ms": pt["totals"]["lat_mean_ms"],
                         "bend": 0.5, "rise_ratio": 3.25}}]
json.dump(s, open(p, "w"))
PY
run_bounded 30 "$LOCKSTEP" report "$TMP/rec" > "$TMP/rec.txt" 2>&1
[ "$rc" -eq 0 ] || { fail_show "$TMP/rec.txt" "report of the recovery folder exited $rc"; }
chrome rec 900 --dump-dom "file://$TMP/rec/report.html" > "$TMP/rec-dom.html"
"$PY" "$CHECK" dom "$TMP/rec-dom.html" "$TMP/rec" --charts 25 --curves 1 \
	--not-steady 1 --knees 1
"$PY" "$CHECK" telemetry "$TMP/rec-dom.html" "$TMP/rec"
if grep -E 'class="panel |<li>(devices|hoststats|probes)\.csv' "$TMP/rec-dom.html"; then
	fail "a folder without telemetry rows has a panel or a word about them"
fi
rheight=$(grep -o 'data-height="[0-9]*"' "$TMP/rec-dom.html" | grep -o '[0-9]*')
(cd "$TMP" && chrome recshot "$rheight" --screenshot="$TMP/rec.png" \
	"file://$TMP/rec/report.html" > /dev/null)
"$PY" "$CHECK" recovery "$TMP/rec-dom.html" "$TMP/rec.png"
keep_shot "$TMP/rec.png" failure-and-curve
# A failure run: its recovery table (the figures above) next to a chart
# with the spans shaded, at the top with the curve and its knee.
"$PY" "$CHECK" summary "$TMP/rec-dom.html" "$TMP/rec" "$TMP/rec/report.html" \
	--first-screen 1400

# --pdf: report.pdf in the folder through headless Chromium (its profile
# and processes gone after), and without chromium on PATH an error, exit 1
# and no PDF.
echo "report_html: --pdf at ${SECONDS}s" >&2
run_bounded 90 "$LOCKSTEP" report "$TMP/rec" --pdf > "$TMP/pdf.txt" 2>&1
[ "$rc" -eq 0 ] || { fail_show "$TMP/pdf.txt" "lockstep report --pdf exited $rc"; }
grep -q "PDF written to $TMP/rec/report.pdf" "$TMP/pdf.txt" ||
	fail "--pdf did not say where the PDF is"
"$PY" "$CHECK" pdf "$TMP/rec/report.pdf" "$TMP/rec-dom.html"
if compgen -G "$TMP/rec/.report.pdf*" > /dev/null; then
	fail "--pdf left a temporary file in the folder"
fi
if pgrep -f -- "--print-to-pdf=$TMP/rec/" > /dev/null; then
	fail "--pdf left chromium running"
fi
rm "$TMP/rec/report.pdf"
run_bounded 30 env PATH=/nonexistent "$LOCKSTEP" report "$TMP/rec" --pdf \
	> "$TMP/nopdf.txt" 2>&1
[ "$rc" -eq 1 ] && grep -q -- "--pdf needs chromium" "$TMP/nopdf.txt" ||
	{ fail_show "$TMP/nopdf.txt" "--pdf without chromium: exit $rc"; }
[ ! -e "$TMP/rec/report.pdf" ] || fail "--pdf without chromium wrote a PDF"

# The same curve whose knee is its most IOPS (saturation, knee.c's
# at_max_iops): the line says so, with the growth of response time
# beyond it, not a rise ratio.
"$PY" - "$TMP/rec/summary.json" <<'PY'
import json, sys
p = sys.argv[1]
s = json.load(open(p))
k = s["curves"][0]["knee"]
k.pop("rise_ratio")
k.update(at_max_iops=True, resp_growth=4.75)
json.dump(s, open(p, "w"))
PY
run_bounded 30 "$LOCKSTEP" report "$TMP/rec" > "$TMP/sat.txt" 2>&1
[ "$rc" -eq 0 ] || { fail_show "$TMP/sat.txt" "report of the saturated curve exited $rc"; }
chrome sat 900 --dump-dom "file://$TMP/rec/report.html" > "$TMP/sat-dom.html"
"$PY" "$CHECK" dom "$TMP/sat-dom.html" "$TMP/rec" --charts 25 --curves 1 \
	--not-steady 1 --knees 1
grep -q "the curve's most IOPS; beyond it response time rises 4.8x with no more IOPS" "$TMP/sat-dom.html" ||
	fail "the saturated knee's line is not in the page"

# The devices', hosts' and probes' files with known numbers on run1's own
# intervals: h1 has one device, h2 two, one of them seen by two slaves
# (the second one's 999s must not count), awaits weighted by the I/Os;
# h1's last interval came late (drawn, and added to the cluster's row,
# which has the devices on time only); a probe steps down, another
# gives one sample then times out, one sample falls between runs (run
# names quoted, as probes.csv has them); one row is broken. The panels must draw exactly the files' numbers (the
# checker sums them itself), on the IOPS chart's time axis.
cp -r "$TMP/out" "$TMP/tel"
"$PY" - "$TMP/tel" <<'PY'
import sys
d = sys.argv[1]
rows = [l.split(",") for l in open(d + "/intervals.csv").read().splitlines()]
iv = [dict(zip(rows[0], r)) for r in rows[1:]]
run = iv[0]["run"]
mine = [r for r in iv if r["run"] == run and r["phase"] != "late"]
dev = ["run,interval,phase,start_ns,end_ns,host,slave,device,r_s,w_s,rmbps,"
       "wmbps,r_await_ms,w_await_ms,aqu_sz,util_pct,inflight,late"]
hs = ["run,interval,phase,start_ns,end_ns,host,slave,cpu_user_pct,"
      "cpu_sys_pct,cpu_iowait_pct,cpu_steal_pct,cpu_idle_pct,slave_cpu_pct,"
      "psi_cpu_some_pct,psi_mem_some_pct,psi_io_some_pct,nic,rx_mbps,tx_mbps,"
      "rx_pps,tx_pps,late"]
pr = ["time_ns,run,interval,probe,key,value,status"]
for i, r in enumerate(mine, 1):
    pre = ",".join([run, r["interval"], r["phase"], r["start_ns"], r["end_ns"]])
    late = "1" if i == len(mine) else "0"
    dev += [pre + ",h1,local-1,sda,100,50,0.4,0.2,2.5,4,0.5,%d,1,%s" % (20 + i, late),
            pre + ",h2,s2,nvme0n1,300,0,1.2,0,0.5,,0.2,60,0,0",
            pre + ",h2,s3,nvme0n1,999,999,9,9,99,99,9,99,9,0",
            pre + ",h2,s2,nvme1n1,100,100,0.4,0.4,1.5,3,0.3,90,2,0",
            # The cluster's row has the devices on time (not h1's late).
            pre + (",cluster,,all,500,150,2,0.6,1.1,3.5,1,90,3,0" if late == "0"
                   else ",cluster,,all,400,100,1.6,0.4,0.75,3,0.5,90,2,0")]
    hs += [pre + ",h1,local-1,20,10,5,1,64,12,1,0,3,eth0,%d,50,1000,500,%s"
           % (100 + i, late),
           pre + ",h2,s2,60,20,2,8,10,30,4,1,9,,,,,,0",
           pre + ",h2,s3,1,1,1,1,96,5,0,0,0,,,,,,0"]
    t = int(r["start_ns"]) + 500 * 10**6
    # The run quoted, as master/events/probes.c writes it.
    pr += ['%d,"%s",%s,ceph,degraded,%s,ok' % (t, run, r["interval"],
                                              0.5 / 2**(i - 1) if i < len(mine) else 0),
           '%d,"%s",%s,resync,,%s' % (t, run, r["interval"],
                                      "42,ok" if i == 1 else ",timeout")]
dev.append(run + ",1,measure,not-a-row")
pr.append('%d,"",,ceph,degraded,1,ok' % (int(mine[-1]["end_ns"]) + 10**8))
for name, lines in (("devices.csv", dev), ("hoststats.csv", hs),
                    ("probes.csv", pr)):
    open(d + "/" + name, "w").write("\n".join(lines) + "\n")
PY
run_bounded 30 "$LOCKSTEP" report "$TMP/tel" > "$TMP/tel.txt" 2>&1
[ "$rc" -eq 0 ] || { fail_show "$TMP/tel.txt" "report of the telemetry folder exited $rc"; }
chrome tel 900 --dump-dom "file://$TMP/tel/report.html" > "$TMP/tel-dom.html"
"$PY" "$CHECK" dom "$TMP/tel-dom.html" "$TMP/tel" --charts 31 --curves 1
"$PY" "$CHECK" telemetry "$TMP/tel-dom.html" "$TMP/tel" --want-panels 3
# The numbers as the files said them: h1's await 2.5 ms, h2's weighted.
grep -F '{&quot;label&quot;:&quot;h1 r await&quot;,&quot;n&quot;:' "$TMP/tel-dom.html" |
	grep -F '&quot;min&quot;:2.5,&quot;max&quot;:2.5,' > /dev/null ||
	fail "h1's device await is not the file's 2.5 ms"
grep -F '&quot;label&quot;:&quot;h2 r await&quot;' "$TMP/tel-dom.html" |
	grep -F '&quot;min&quot;:0.75,&quot;max&quot;:0.75,' > /dev/null ||
	fail "h2's device await is not (300 x 0.5 + 100 x 1.5) / 400"
grep -q 'devices.csv: 1 rows that do not parse were left out' "$TMP/tel-dom.html" ||
	fail "the broken row of devices.csv is not said"
grep -q '>1 (on no run.s axis, not drawn)<' "$TMP/tel-dom.html" ||
	fail "the probe sample between runs is not said"
theight=$(grep -o 'data-height="[0-9]*"' "$TMP/tel-dom.html" | grep -o '[0-9]*')
(cd "$TMP" && chrome telshot "$theight" --screenshot="$TMP/tel.png" \
	"file://$TMP/tel/report.html" > /dev/null)
"$PY" "$CHECK" shot "$TMP/tel.png" "$TMP/tel-dom.html"
keep_shot "$TMP/tel.png" telemetry

# A hostile folder: strings that try to leave the script element, an
# event, an .hgrm name outside the folder, a host file that is a link.
cp -r "$TMP/out" "$TMP/evil"
"$PY" - "$TMP/evil/summary.json" <<'PY'
import json, sys
p = sys.argv[1]
s = json.load(open(p))
s["param_file"] = '</script><script>document.title="pwned"</script><!--'
r = s["runs"][0]
s["events"] = [{"name": "kill <img src=x onerror=alert(1)>", "run": r["name"],
                "start": r["start_ns"] + 2 * 10**9, "status": "</script>"}]
s["runs"][1]["files"] = {"hgrm": "../t.vdb"}
json.dump(s, open(p, "w"))
PY
rm "$TMP/evil/hosts/local-1.csv"
ln -s ../intervals.csv "$TMP/evil/hosts/local-1.csv"
run_bounded 30 "$LOCKSTEP" report "$TMP/evil" > "$TMP/evil.txt" 2>&1
[ "$rc" -eq 0 ] || { fail_show "$TMP/evil.txt" "report of the hostile folder exited $rc"; }
grep -q "symbolic link" "$TMP/evil.txt" || fail "the link was not reported"
if grep -q '</script><script>document' "$TMP/evil/report.html"; then
	fail "a folder string closed the data's script element"
fi
chrome evil 900 --dump-dom "file://$TMP/evil/report.html" > "$TMP/evil-dom.html"
"$PY" "$CHECK" hostile "$TMP/evil-dom.html"

# Bad input: exit 1 with a reason, and nothing written.
printf '{"runs": [' > "$TMP/evil/summary.json"
run_bounded 30 "$LOCKSTEP" report "$TMP/evil" -o "$TMP/no.html" 2> "$TMP/bad.txt"
[ "$rc" -eq 1 ] || fail "a broken summary.json: exit $rc, want 1"
grep -q "summary.json: line 1 column 11" "$TMP/bad.txt" || { fail_show "$TMP/bad.txt" "no position for the JSON error"; }
[ ! -e "$TMP/no.html" ] || fail "a report was written from a broken folder"
run_bounded 30 "$LOCKSTEP" report "$TMP/nothing" 2> "$TMP/bad.txt"
[ "$rc" -eq 1 ] || fail "a missing folder: exit $rc, want 1"

# Per host: synthetic folders of 16 hosts (h07 slow: half the IOPS, three
# times the p99) and of 64 (h41 slow); summary.json flags nobody, so the
# order is the page's own. Small multiples with the slow host first and
# alone marked, every small chart of a kind on one y range, the overlay
# when asked for (#overlay); time axes in seconds from the run's UTC start,
# or UTC time of day with #clock. A slave of run1 came late in its first
# measured interval: 40% of that interval's I/Os are in a `late` row after
# the next cluster row, as intervals.csv has them; the cluster IOPS chart
# must still average summary.json's IOPS (check_report.py dom).
for n in 16 64; do
	cp -r "$TMP/out" "$TMP/hosts$n"
	"$PY" - "$TMP/hosts$n" "$n" <<'PY'
import csv, json, os, sys
d, n = sys.argv[1], int(sys.argv[2])
slow = 7 if n == 16 else 41
s = json.load(open(d + "/summary.json"))
src = list(csv.DictReader(open(d + "/hosts/local-1.csv")))
head = list(src[0].keys())
for f in os.listdir(d + "/hosts"):
    os.remove(d + "/hosts/" + f)
slaves = []
for i in range(1, n + 1):
    name = "h%02d" % i
    slaves.append(dict(s["slaves"][0], name=name))
    with open(d + "/hosts/%s.csv" % name, "w", newline="") as f:
        w = csv.DictWriter(f, head)
        w.writeheader()
        for r in src:
            r = dict(r)
            k = 1 + 0.3 * i / n  # hosts differ, less than 1.5x
            if r["iops"]:
                r["iops"] = "%.3f" % (float(r["iops"]) * (0.5 if i == slow else k))
            if r["p99_ms"]:
                r["p99_ms"] = "%.6f" % (float(r["p99_ms"]) * (3 if i == slow else k))
            w.writerow(r)
s["slaves"] = slaves
for r in s["runs"]:
    r.pop("slow_hosts", None)
json.dump(s, open(d + "/summary.json", "w"))
rows = list(csv.reader(open(d + "/intervals.csv")))
c = {k: i for i, k in enumerate(rows[0])}
at = next(i for i, r in enumerate(rows) if i and r[c["run"]] ==
          s["runs"][0]["name"] and r[c["phase"]] == "measure")
r, late = rows[at], [""] * len(rows[0])
for k in ("run", "interval", "start_ns", "end_ns", "emitted_ns", "read_pct",
          "resp_ms", "p95_ms", "p99_ms", "queue_depth"):
    late[c[k]] = r[c[k]]
late[c["phase"]], late[c["slaves_reported"]], late[c["slaves_expected"]] = \
    "late", "1", "0"
for k, dec in (("ops", 0), ("read_ops", 0), ("write_ops", 0), ("bytes", 0),
               ("read_bytes", 0), ("write_bytes", 0), ("iops", 3),
               ("mbps", 4)):
    v = float(r[c[k]])
    part = round(v * 0.4, dec)
    late[c[k]], r[c[k]] = "%.*f" % (dec, part), "%.*f" % (dec, v - part)
rows.insert(at + 2, late)
csv.writer(open(d + "/intervals.csv", "w", newline=""),
           lineterminator="\n").writerows(rows)
PY
	run_bounded 60 "$LOCKSTEP" report "$TMP/hosts$n" > "$TMP/hosts$n.txt" 2>&1
	[ "$rc" -eq 0 ] || { fail_show "$TMP/hosts$n.txt" "lockstep report ($n hosts) exited $rc"; }
done
chrome hosts16 900 --dump-dom "file://$TMP/hosts16/report.html" \
	> "$TMP/hosts16-dom.html"
"$PY" "$CHECK" dom "$TMP/hosts16-dom.html" "$TMP/hosts16" --charts 25 --curves 1
"$PY" "$CHECK" hosts "$TMP/hosts16-dom.html" h07 16 multiples
"$PY" "$CHECK" clock "$TMP/hosts16-dom.html" run
chrome hosts64 900 --dump-dom "file://$TMP/hosts64/report.html#overlay,clock" \
	> "$TMP/hosts64-dom.html"
"$PY" "$CHECK" dom "$TMP/hosts64-dom.html" "$TMP/hosts64" --charts 25 --curves 1
"$PY" "$CHECK" hosts "$TMP/hosts64-dom.html" h41 64 overlay
"$PY" "$CHECK" clock "$TMP/hosts64-dom.html" utc

# --report that cannot write report.html: the run is incomplete (exit 5)
# and the folder and the history say so, not the "completed" they held
# before the report was tried.
mkdir -p "$TMP/nopage/report.html"
cat > "$TMP/short.vdb" <<VDB
sd=sd1,lun=$TMP/d1.dat,size=16m,threads=4
wd=wd1,sd=sd1,xfersize=4k,rdpct=70
rd=run1,wd=wd1,iorate=max,elapsed=2,warmup=1,interval=1
VDB
run_bounded 60 "$LOCKSTEP" run "$TMP/short.vdb" -o "$TMP/nopage" --workers 1 \
	--report > "$TMP/nopage.txt" 2>&1
[ "$rc" -eq 5 ] || { fail_show "$TMP/nopage.txt" "report.html not written: exit $rc, want 5"; }
"$PY" - "$TMP/nopage/summary.json" <<'PY' || fail "summary.json does not say incomplete"
import json, sys
s = json.load(open(sys.argv[1]))
assert s["status"] == "incomplete" and s["exit_code"] == 5, (s["status"], s["exit_code"])
PY
head -1 "$TMP/nopage/summary.txt" | grep "incomplete (exit 5)" > /dev/null ||
	fail "summary.txt does not say incomplete (exit 5)"
run_bounded 30 "$LOCKSTEP" history > "$TMP/nopage-hist.txt" 2>&1
nid=$("$PY" -c 'import json,sys; print(json.load(open(sys.argv[1]))["run_id"][:8])' "$TMP/nopage/summary.json")
grep -E " $nid " "$TMP/nopage-hist.txt" | grep -E "incomplete +5 " > /dev/null ||
	{ fail_show "$TMP/nopage-hist.txt" "the history row does not say incomplete, 5"; }
echo "report_html: ok in ${SECONDS}s"
