"""Checks of a report.html as headless Chromium rendered it (report_html.sh).

  check_report.py dom DOM DIR [--baseline BDIR] [--charts N] [--curves N]
                   [--not-steady N] [--knees N]
      the page's self-check says every chart drew its series; every run of
      DIR/summary.json has a totals table whose numbers equal the summary's
      (and the baseline's, and the deltas, with --baseline); every run's
      steady-state verdict is on its row of the runs table and in a badge
      at the top of its section, with its excursions (N runs not steady at
      least); every curve's knee is ringed on its chart, named under it
      and its row marked in the points table (N knees at least)
  check_report.py shot PNG DOM
      in the screenshot, every chart's canvas holds its series' colours
  check_report.py recovery DOM PNG
      the injected event's degraded span (its start + 0.5 s to + 1.5 s)
      and recovered span (to + 2.5 s) are shaded on its charts, in the
      DOM and in the screenshot, and its figures are in the events table
  check_report.py hostile DOM
      strings of a hostile folder stayed text; warnings and events shown
  check_report.py telemetry DOM DIR [--want-panels N]
      the Devices, Hosts and Probes panels of each run are there exactly
      when DIR's devices.csv, hoststats.csv and probes.csv have rows of
      it, and their charts drew the files' numbers (each series' count,
      first and last time, least, most, first and last value and sum,
      from the chart's data-stats): device await and util% per host (a device two
      slaves see counted once, awaits weighted by the I/Os, util% the
      busiest device's) next to intervals.csv's response time, host CPU
      and NIC MB/s, each probe key (N panels at least)
  check_report.py summary DOM DIR HTML [--compare] [--first-screen PX]
      the page opens with its summary: status and exit code (and with
      --compare the verdict per run and metric of the compare the page
      holds), each run's key figures equal to summary.json's, the losses,
      every event's recovery figures, each curve drawn from its points with
      the max run a marker of its own (its top within PX of the page's
      top); every run's latency chart on a log axis with intervals.csv's
      p99s; no legend without a value, no debug text; the print
      stylesheet keeps a chart with its title
  check_report.py pdf PDF
      a PDF (it begins with %PDF) of one page at least
  check_report.py hosts DOM SLOW N VIEW
      per run N small multiples (IOPS and p99 a host, each kind on one y
      range), host SLOW first and the only one marked an outlier, the
      overlay toggle; VIEW (multiples or overlay) is what shows, the
      overlay with one series a host
  check_report.py ops DOM DIR
      a file-system folder: each run's Operations table as summary.json's
      operations, and its operations panel's rate chart as ops.csv's rows
      (late rows into their interval), its measured points x the interval
      summary.json's count
  check_report.py clock DOM WANT
      the time axes in seconds labelled with the run's UTC start (WANT
      run) or in UTC time of day (utc), the toggle in that state, each
      run's UTC start in its line
Exits non-zero with the reason on the first failed check.
"""
import csv
import json
import os
import sys
from html.parser import HTMLParser

# Decimals the page shows each total with (page.js METRICS).
DEC = {"iops": 2, "mbps": 2, "read_pct": 2, "ops": 0, "read_ops": 0,
       "write_ops": 0, "bytes": 0, "read_bytes": 0, "write_bytes": 0,
       "errors": 0, "lat_mean_ms": 4,
       "read_lat_mean_ms": 4, "write_lat_mean_ms": 4, "lat_p50_ms": 4,
       "lat_p95_ms": 4, "lat_p99_ms": 4, "lat_p999_ms": 4, "lat_max_ms": 3,
       "lat_stddev_ms": 4, "queue_depth": 2, "cpu_pct": 1, "cpu_sys_pct": 1}


class Node:
    def __init__(self, tag, attrs, parent):
        self.tag, self.attrs, self.parent = tag, dict(attrs), parent
        self.children, self.text = [], ""

    def all(self):
        yield self
        for c in self.children:
            yield from c.all()

    def alltext(self):
        return self.text + "".join(c.alltext() for c in self.children)

    def cls(self):
        return (self.attrs.get("class") or "").split()


VOID = {"meta", "br", "img", "input", "link", "hr", "col", "source"}


class Tree(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.root = Node("#root", {}, None)
        self.cur = self.root

    def handle_starttag(self, tag, attrs):
        n = Node(tag, attrs, self.cur)
        self.cur.children.append(n)
        if tag not in VOID:
            self.cur = n

    def handle_endtag(self, tag):
        n = self.cur
        while n is not self.root and n.tag != tag:
            n = n.parent
        if n is not self.root:
            self.cur = n.parent

    def handle_data(self, data):
        self.cur.text += data


def parse(path):
    t = Tree()
    t.feed(open(path, encoding="utf-8").read())
    return t.root


def fail(msg):
    print("FAIL: " + msg, file=sys.stderr)
    sys.exit(1)


def charts(root):
    return [n for n in root.all() if n.tag == "div" and "chart" in n.cls()]


def fmt(v, d):
    return "\u2014" if v is None else f"{v:.{d}f}"


def jsfixed(v, d):
    """JavaScript's toFixed: the exact binary value, ties rounded up."""
    import decimal
    return str(decimal.Decimal(v).quantize(decimal.Decimal(1).scaleb(-d),
                                           rounding=decimal.ROUND_HALF_UP))


def jsfmt(v, d):
    """page.js's fmt(): toFixed, or a dash for no value."""
    return "\u2014" if v is None else jsfixed(v, d)


def steady_of(run):
    """The page's state and words for a run's steady_state (page.js)."""
    st = run.get("steady_state")
    if st is None:
        return "", None
    if "not_judged" in st:
        return "not-judged", "Steady state not judged: " + st["not_judged"]
    words = ("IOPS data excursion %s%% (limit %s%%), slope excursion "
             "%s%% (limit %s%%)" % (
                 jsfixed(st["data_excursion_pct"], 1),
                 jsfixed(st["data_excursion_limit_pct"], 0),
                 jsfixed(st["slope_excursion_pct"], 1),
                 jsfixed(st["slope_excursion_limit_pct"], 0)))
    if st["steady"]:
        return "steady", "Steady: " + words
    return "not-steady", "NOT STEADY: " + words


def check_steady(root, summ, want):
    """Each run's verdict, in the runs table and as its section's badge."""
    cells = {}
    for t in (n for n in root.all() if n.tag == "table" and "runs" in n.cls()):
        for tr in (n for n in t.all() if n.tag == "tr"):
            tds = [n for n in tr.children if n.tag == "td"]
            if tds:
                cells[tds[0].alltext()] = tds[-1]
    badges = {n.attrs.get("data-run"): n for n in root.all()
              if n.tag == "p" and "badge" in n.cls()}
    bad = 0
    for run in summ["runs"]:
        state, words = steady_of(run)
        cell = cells.get(run["name"])
        if cell is None or cell.attrs.get("data-steady") != state:
            fail("run %s: runs table says %r, summary.json %r" % (
                run["name"], cell and cell.attrs.get("data-steady"), state))
        if not state:
            continue
        b = badges.get(run["name"])
        if b is None or b.attrs.get("data-steady") != state:
            fail("run %s: no %s badge" % (run["name"], state))
        if not b.alltext().startswith(words):
            fail("run %s: badge %r, want %r" % (run["name"], b.alltext(),
                                                words))
        bad += state == "not-steady"
        for h in run["steady_state"].get("not_steady", []):
            if h["slave"] not in b.alltext():
                fail("run %s: badge does not name %s" % (run["name"],
                                                         h["slave"]))
    if bad < want:
        fail(f"{bad} runs marked not steady, want at least {want}")
    return len(summ["runs"])


def check_knees(root, summ, want):
    """summary.json's knees: ringed, named and their rows marked."""
    secs = [n for n in root.all() if n.tag == "section"
            and "curve" in n.cls()]
    knees = 0
    for c in summ.get("curves", []):
        name = c["max_run"].replace(" curve=max", "")
        sec = next((s for s in secs if any(
            h.tag == "h2" and h.alltext().startswith("Curve " + name + ":")
            for h in s.children)), None)
        if sec is None:
            fail("no section for curve " + name)
        p = [n for n in sec.all() if n.tag == "p" and "knee" in n.cls()]
        if not p:
            fail("curve %s: no knee line" % name)
        marked = [n for n in sec.all() if n.tag == "tr" and "knee" in n.cls()]
        mark = [n.attrs.get("data-mark") for n in charts(sec)
                if n.attrs.get("data-mark")]
        k = c.get("knee")
        if k is None:
            if p[0].alltext() != "No knee: " + c["no_knee"] or marked or mark:
                fail("curve %s: %r, marks %s %s, want no knee (%s)" % (
                    name, p[0].alltext(), marked, mark, c["no_knee"]))
            continue
        if not p[0].alltext().startswith("Knee at %g%% (%s: %s IO/s" % (
                k["pct"], k["run"], jsfixed(k["iops"], 0))):
            fail("curve %s: knee line %r, summary %r" % (name, p[0].alltext(), k))
        tail = ("the curve's most IOPS; beyond it response time rises %sx "
                "with no more IOPS" % jsfixed(k["resp_growth"], 1)
                if k.get("at_max_iops") else
                "beyond it response time rises %sx faster than IOPS"
                % jsfixed(k["rise_ratio"], 1))
        if tail + " (" + c["method"] + ")" not in p[0].alltext():
            fail("curve %s: knee line %r, want %r" % (name, p[0].alltext(), tail))
        if len(marked) != 1 or marked[0].children[0].alltext() != k["run"]:
            fail("curve %s: rows marked %s, want %s" % (
                name, [m.children[0].alltext() for m in marked], k["run"]))
        if len(mark) != 1 or [float(v) for v in mark[0].split(",")] != [
                k["iops"], k["resp_ms"]]:
            fail("curve %s: chart ringed %s, want %s,%s" % (
                name, mark, k["iops"], k["resp_ms"]))
        knees += 1
    if knees < want:
        fail(f"{knees} knees marked, want at least {want}")
    return knees


def check_dom(dom, d, base, want_charts, want_curves, want_unsteady=0,
              want_knees=0):
    root = parse(dom)
    sc = [n for n in root.all() if n.attrs.get("id") == "selfcheck"]
    if not sc:
        fail("the page's self-check did not run (no #selfcheck)")
    sc = sc[0]
    if sc.attrs.get("data-blank") != "0":
        fail("charts without their series drawn: " + sc.alltext())
    ch = charts(root)
    if len(ch) < want_charts or int(sc.attrs["data-charts"]) != len(ch):
        fail(f"{len(ch)} charts, want at least {want_charts}")
    for c in ch:
        if c.attrs.get("data-empty"):
            fail("chart without data: " + c.attrs.get("data-title", "?"))
        if int(c.attrs.get("data-series-px", "0")) < 50:
            fail("chart %s: %s pixels of its series" %
                 (c.attrs.get("id"), c.attrs.get("data-series-px")))
    summ = json.load(open(d + "/summary.json"))
    bsum = json.load(open(base + "/summary.json")) if base else None
    tables = {n.attrs.get("data-run"): n for n in root.all()
              if n.tag == "table" and "totals" in n.cls()}
    checked = 0
    for run in summ["runs"]:
        t = tables.get(run["name"])
        if t is None:
            fail("no totals table for run " + run["name"])
        tot = run["totals"]
        missing = set(tot) - set(DEC)
        if missing:
            fail("totals the table does not show: %s" % sorted(missing))
        brun = None
        if bsum:
            brun = next((r for r in bsum["runs"]
                         if r["name"] == run["name"]), None)
        for tr in (n for n in t.all() if n.tag == "tr"):
            tds = [n for n in tr.children if n.tag == "td"]
            if not tds:
                continue
            key = tds[1].attrs.get("data-key")
            # The page rounds with toFixed (ties up): 553.125 is 553.13
            # there and 553.12 in Python's format (ties to even).
            want = jsfmt(tot[key], DEC[key])
            if tds[1].alltext() != want:
                fail("run %s %s: table %r, summary.json %r" %
                     (run["name"], key, tds[1].alltext(), want))
            checked += 1
            if brun:
                b = brun["totals"][key]
                if tds[2].alltext() != jsfmt(b, DEC[key]):
                    fail("run %s %s: baseline %r, its summary %r" %
                         (run["name"], key, tds[2].alltext(),
                          jsfmt(b, DEC[key])))
                dl = ("\u2014" if not b else
                      f"{(tot[key] - b) / b * 100:+.1f}")
                if tds[3].alltext() != dl and dl != "\u2014":
                    fail("run %s %s: delta %r, want %r" %
                         (run["name"], key, tds[3].alltext(), dl))
                checked += 1
    if bsum and not any("base" in n.cls() for n in root.all()):
        fail("no baseline column")
    curves = [n for n in root.all() if n.tag == "table"
              and "curve-points" in n.cls()]
    if len(curves) != want_curves:
        fail(f"{len(curves)} curve tables, want {want_curves}")
    for ct in curves:
        rows = [n for n in ct.all() if n.tag == "tr"
                and any(c.tag == "td" for c in n.children)]
        if len(rows) < 2:
            fail("a curve with fewer than 2 points")
    nsteady = check_steady(root, summ, want_unsteady)
    nknees = check_knees(root, summ, want_knees)
    nmaps = check_heatmaps(root, d)
    check_iops_series(root, d, summ)
    print(f"dom: {len(ch)} charts drawn, {checked} numbers equal "
          f"summary.json's, {nsteady} steady-state verdicts, "
          f"{nknees} knees and {nmaps} heat maps shown")


def check_iops_series(root, d, summ):
    """The cluster IOPS chart draws the I/Os the totals count: its points
    times the interval add up to intervals.csv's ops of the run, late rows
    included (a link pulled mid-run must not draw a dip that is only
    late rows). And the mean of its points after the warmup is
    summary.json's IOPS of the run within 1%: the series the totals use."""
    ops, rw = {}, {}
    for r in (read_csv(d + "/intervals.csv") or (None, []))[1]:
        ops[r["run"]] = ops.get(r["run"], 0) + int(r["ops"])
        k = rw.setdefault(r["run"], [0, 0])
        k[0] += int(r["read_ops"])
        k[1] += int(r["write_ops"])
    ivs = {r["name"]: r.get("interval_s") for r in summ["runs"]}
    tot = {r["name"]: r.get("totals") or {} for r in summ["runs"]}
    checked = 0
    for sec in (n for n in root.all() if n.tag == "section" and "run" in n.cls()):
        h2 = [n for n in sec.all() if n.tag == "h2"]
        name = h2[0].alltext()[4:] if h2 else None
        iops = [c for c in charts(sec) if c.attrs.get("data-title", "")
                .startswith("Cluster IOPS per interval")]
        if name not in ops or not iops or not ivs.get(name):
            continue
        st = json.loads(iops[0].attrs["data-stats"])[0]
        drawn = st["sum"] * ivs[name]
        if abs(drawn - ops[name]) > max(2, 0.005 * ops[name]):
            fail("run %s: the IOPS chart draws %.0f I/Os, intervals.csv "
                 "has %d" % (name, drawn, ops[name]))
        want = tot.get(name, {}).get("iops")
        if want and (not st.get("mn") or
                     abs(st["msum"] / st["mn"] - want) > 0.01 * want):
            fail("run %s: the IOPS chart's measured intervals average %s "
                 "IO/s over %s points, summary.json says %s" % (
                     name, st.get("msum", 0) / (st.get("mn") or 1),
                     st.get("mn"), want))
        checked += 1
        stats = {x["label"]: x for x in json.loads(iops[0].attrs["data-stats"])}
        for lab, want in (("reads IO/s", rw[name][0]),
                          ("writes IO/s", rw[name][1])):
            got = stats.get(lab, {}).get("sum", -1) * ivs[name]
            if abs(got - want) > max(2, 0.005 * want):
                fail("run %s: the chart's %s draw %.0f I/Os, intervals.csv "
                     "has %d" % (name, lab, got, want))
    if not checked:
        fail("no run's IOPS chart to check against the totals")
    return checked


def check_heatmaps(root, d):
    """Each run with I/O has a heat map drawing every I/O of intervals.csv
    (its rows of every phase, late rows too: histograms.csv holds them)."""
    ops = {}
    for r in (read_csv(d + "/intervals.csv") or (None, []))[1]:
        ops[r["run"]] = ops.get(r["run"], 0) + int(r["ops"])
    maps = {n.attrs.get("data-run"): n for n in charts(root)
            if "heatmap" in n.cls()}
    for run, n in ops.items():
        if not n:
            continue
        m = maps.get(run)
        if m is None:
            fail("run %s: no heat map" % run)
        if int(m.attrs["data-total"]) != n:
            fail("run %s: the heat map draws %s I/Os, intervals.csv has %d"
                 % (run, m.attrs["data-total"], n))
        if int(m.attrs["data-buckets"]) < 1 or int(m.attrs["data-columns"]) < 1:
            fail("run %s: an empty heat map grid" % run)
    return len(maps)


def check_hosts(dom, slow, nhosts, view):
    """Small multiples: one IOPS and one p99 chart per host, the slow host
    first, each kind on one y range, the toggle; view: what the page shows
    (multiples; overlay with #overlay: every host on one chart a kind)."""
    root = parse(dom)
    grids = [n for n in root.all() if "host-grid" in n.cls()]
    if not grids:
        fail("no per-host small multiples")
    for g in grids:
        run = g.attrs.get("data-run")
        order = g.attrs.get("data-order", "").split()
        if len(order) != nhosts or order[0] != slow:
            fail("run %s: hosts in order %s, want %s first of %d"
                 % (run, order, slow, nhosts))
        cells = [n for n in g.all() if "host-cell" in n.cls()]
        if [c.attrs.get("data-slave") for c in cells] != order:
            fail("run %s: cells not in data-order" % run)
        # The slow host is marked; a host as far as the next is not.
        if "outlier" not in cells[0].cls() or \
                any("outlier" in c.cls() for c in cells[1:]):
            fail("run %s: outliers marked %s, want %s alone" % (run, [
                c.attrs.get("data-slave") for c in cells
                if "outlier" in c.cls()], slow))
        for kind in ("-iops", "-p99"):
            small = [c for c in charts(g) if c.attrs.get("id", "")
                     .endswith(kind)]
            ranges = {c.attrs.get("data-y-range") for c in small}
            if len(small) != nhosts or len(ranges) != 1:
                fail("run %s: %d small %s charts on %d scales: %s"
                     % (run, len(small), kind, len(ranges), ranges))
        # What is hidden takes no room on the page (data-rect: the
        # canvas's place as the page laid it out).
        shown = {int(c.attrs.get("data-rect", "0,0,0,0").split(",")[2]) > 0
                 for c in charts(g)}
        if (g.attrs.get("hidden") is not None) != (view == "overlay") or \
                shown != {view == "multiples"}:
            fail("run %s: small multiples hidden=%r, laid out %s in the %s "
                 "view" % (run, g.attrs.get("hidden"), shown, view))
    if not [n for n in root.all() if n.tag == "button"
            and "host-toggle" in n.cls()]:
        fail("no overlay toggle")
    secs = [n for n in root.all() if n.attrs.get("data-hosts-view")]
    if len(secs) != len(grids) or \
            any(n.attrs["data-hosts-view"] != view for n in secs):
        fail("the hosts' view is not %s" % view)
    ov = [c for c in charts(root) if c.attrs.get("id", "").endswith("-iops")
          and "Per host" in c.attrs.get("data-title", "")]
    if len(ov) != (len(grids) if view == "overlay" else 0):
        fail("%d overlay IOPS charts in the %s view" % (len(ov), view))
    for c in ov:
        if len(json.loads(c.attrs["data-stats"])) != nhosts or \
                int(c.attrs.get("data-rect", "0,0,0,0").split(",")[2]) <= 0:
            fail("an overlay chart without every host, or not laid out")
    sc = next(n for n in root.all() if n.attrs.get("id") == "selfcheck")
    print(f"hosts: {len(grids)} runs of {nhosts} small multiples, {slow} "
          f"first and alone marked, one scale each, {view} shown; "
          f"{sc.attrs['data-charts']} charts drawn in "
          f"{sc.attrs.get('data-ms')} ms, {sc.attrs.get('data-load-ms')} ms "
          "from loading")


def check_clock(dom, want):
    """Time axes: seconds of the run (labelled with the run's UTC start)
    by default, UTC time of day with #clock (the toggle's state); each run
    says when it started in UTC either way."""
    import re
    root = parse(dom)
    btn = [n for n in root.all() if "clock-toggle" in n.cls()]
    if not btn or btn[0].attrs.get("data-clock") != want:
        fail("%s: no time-axis toggle in state %s" % (dom, want))
    iops = [c for c in charts(root) if c.attrs.get("data-title", "")
            .startswith("Cluster IOPS per interval")]
    if not iops or any(c.attrs.get("data-x-clock") != want for c in iops):
        fail("%s: IOPS charts not on the %s axis" % (dom, want))
    lab = r"UTC time" if want == "utc" else \
        r"seconds from \d\d:\d\d:\d\d UTC"
    for c in iops:
        if not re.fullmatch(lab, c.attrs.get("data-x-label", "")):
            fail("%s: x axis %r, want %s" % (dom, c.attrs.get("data-x-label"),
                                             lab))
    runs = [n for n in root.all() if n.tag == "section" and "run" in n.cls()]
    for sec in runs:
        meta = [n for n in sec.all() if "meta" in n.cls()]
        if not meta or not re.search(r"started \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC",
                                     meta[0].alltext()):
            fail("%s: a run without its UTC start" % dom)
    print("clock: %s axes (%s), %d runs with their UTC start" % (
        want, iops[0].attrs.get("data-x-label"), len(runs)))


def check_shot(png, dom):
    from PIL import Image
    img = Image.open(png).convert("RGB")
    root = parse(dom)
    ch = charts(root)
    if not ch:
        fail("no charts")
    for c in ch:
        x, y, w, h = (int(v) for v in c.attrs["data-rect"].split(","))
        cols = [tuple(int(s[i:i + 2], 16) for i in (1, 3, 5))
                for s in c.attrs["data-colors"].split()]
        if y + h > img.height or x + w > img.width:
            fail(f"chart {c.attrs['id']} lies outside the screenshot")
        n = 0
        for count, px in img.crop((x, y, x + w, y + h)).getcolors(w * h):
            if any(all(abs(px[i] - col[i]) < 24 for i in range(3))
                   for col in cols):
                n += count
        if n < 50:
            fail(f"chart {c.attrs['id']}: {n} pixels of its series in "
                 "the screenshot")
        # The x axis's tick labels: dark text in the band just under the
        # plot area (the axis's own label is further down). A report once
        # drew none on any chart and every other check passed.
        if "data-plot" not in c.attrs:
            continue  # a heat map: its axes are HTML, not drawn
        px, py, pw, ph = (int(v) for v in c.attrs["data-plot"].split(","))
        band = img.crop((px, py + ph + 3, px + pw, py + ph + 28))
        ink = sum(count for count, p in band.getcolors(pw * 25) if sum(p) < 450)
        if ink < 10:
            fail(f"chart {c.attrs['id']}: no tick labels under its x axis "
                 f"({ink} dark pixels)")
    print(f"screenshot: {len(ch)} charts show their series and x ticks")


def tint(img, rect, rgb):
    """Pixels of rect within 8 of rgb (a translucent fill over white)."""
    x, y, w, h = rect
    return sum(count for count, px in img.crop((x, y, x + w, y + h)).getcolors(w * h)
               if all(abs(px[i] - rgb[i]) <= 8 for i in range(3)))


def check_recovery(dom, png):
    from PIL import Image
    img = Image.open(png).convert("RGB")
    root = parse(dom)
    ev = [n for n in root.all() if n.tag == "table" and "events" in n.cls()]
    if not ev:
        fail("no events table")
    cells = [c.alltext() for c in ev[0].all() if c.tag == "td"]
    # event, status, start, end, recovery, judged on, degraded after,
    # recovered after, survivors after, worst, lost, delayed, through
    want = ["pull", "completed", None, "\u2014", "recovered", "cluster",
            "0.5", "1.5", "1.0", "12.5", "1234", "567", "restore"]
    if len(cells) != len(want):
        fail(f"events table cells {cells}")
    for got, w in zip(cells, want):
        if w is not None and got != w:
            fail(f"events table: {got!r}, want {w!r} ({cells})")
    start = float(cells[2])
    shaded = [c for c in charts(root) if c.attrs.get("data-deg")]
    if not shaded:
        fail("no chart says it shaded a degraded span")
    for c in shaded:
        deg = [float(v) for v in c.attrs["data-deg"].split(",")]
        rec = [float(v) for v in c.attrs.get("data-rec", "0,0").split(",")]
        for got, w in zip(deg + rec, (start + 0.5, start + 1.5, start + 1.5,
                                       start + 2.5)):
            if abs(got - w) > 1e-3:
                fail(f"chart {c.attrs['id']}: spans {deg} {rec}, want from "
                     f"{start + 0.5} to {start + 1.5} to {start + 2.5}")
        rect = tuple(int(v) for v in c.attrs["data-rect"].split(","))
        # rgba(220, 0, 0, 0.12) and rgba(0, 160, 0, 0.12) over white.
        red, green = tint(img, rect, (251, 224, 224)), tint(img, rect, (224, 244, 224))
        if red < 200 or green < 200:
            fail(f"chart {c.attrs['id']}: {red} degraded and {green} "
                 "recovered pixels in the screenshot")
    print(f"recovery: {len(shaded)} charts shade the spans, figures listed")


def check_hostile(dom):
    root = parse(dom)
    title = [n for n in root.all() if n.tag == "title"]
    if not title or title[0].alltext() != "lockstep report":
        fail("the title was changed by the folder's strings")
    scripts = [n for n in root.all() if n.tag == "script"]
    if len(scripts) != 4:
        fail(f"{len(scripts)} script elements, want 4 (data, uPlot, heat map, page)")
    if [n for n in root.all() if n.tag in ("img", "iframe")]:
        fail("an element from the folder's strings was created")
    facts = [n.alltext() for n in root.all() if n.tag == "dd"]
    if not any("</script><script>" in f for f in facts):
        fail("the hostile parameter file name is not shown as text")
    warns = " | ".join(n.alltext() for n in root.all() if n.tag == "li")
    for w in ("symbolic link", "not a file of the folder"):
        if w not in warns:
            fail(f"no warning saying '{w}': {warns}")
    ev = [n for n in root.all() if n.tag == "table" and "events" in n.cls()]
    if not ev or "<img src=x" not in ev[0].alltext():
        fail("the event is not listed under its chart")
    print("hostile: strings stayed text, warnings and events shown")


# ---- telemetry: devices.csv, hoststats.csv, probes.csv ------------------

def read_csv(path):
    """Header and rows of a CSV of the folder; None when absent or empty."""
    if not os.path.exists(path) or os.path.getsize(path) == 0:
        return None
    import csv
    rows = list(csv.reader(open(path, encoding="utf-8", newline="")))
    head = rows[0]
    return head, [dict(zip(head, r)) for r in rows[1:] if len(r) == len(head)]


def cell(v):
    """A number of a cell, None for an empty one; ValueError otherwise."""
    if v == "":
        return None
    if any(c in v for c in "xXnN") or v[0] not in "+-.0123456789":
        raise ValueError(v)
    f = float(v)
    if f != f or f in (float("inf"), float("-inf")) or f < 0:
        raise ValueError(v)
    return f


def run_t0(d):
    """Each run's first interval start (intervals.csv) and its response
    times per interval end."""
    t0, resp = {}, {}
    for r in read_csv(d + "/intervals.csv")[1]:
        if r["phase"] == "late":
            continue
        t0.setdefault(r["run"], int(r["start_ns"]))
        resp.setdefault(r["run"], []).append(
            ((int(r["end_ns"]) - t0[r["run"]]) / 1e9, cell(r["resp_ms"])))
    return t0, resp


def ok_row(r, nums, t0):
    """The common cells of a devices/hoststats row, checked as the report
    does; its numbers, or None for a row the report leaves out."""
    try:
        if int(r["interval"]) < 1 or r["phase"] not in ("warmup", "measure"):
            return None
        if not r["run"] or not r["host"] or r.get("late", "") not in ("", "0", "1"):
            return None
        end, start = int(r["end_ns"]), int(r["start_ns"])
        if end < start or end < t0.get(r["run"], start):
            return None
        return {k: cell(r[k]) for k in nums}
    except (ValueError, KeyError):
        return None


def stats(label, pts, positive=False):
    """A series' stats as the page writes them (data-stats)."""
    pts = sorted((x, y) for x, y in pts if y is not None and
                 (not positive or y > 0))
    ys = [y for _, y in pts]
    return {"label": label, "n": len(ys),
            "x0": pts[0][0] if pts else None,
            "x1": pts[-1][0] if pts else None,
            "min": min(ys) if ys else None, "max": max(ys) if ys else None,
            "first": ys[0] if ys else None, "last": ys[-1] if ys else None,
            "sum": float(sum(ys))}


DEV_NUMS = ["r_s", "w_s", "rmbps", "wmbps", "r_await_ms", "w_await_ms",
            "aqu_sz", "util_pct", "inflight"]
HS_NUMS = ["cpu_user_pct", "cpu_sys_pct", "cpu_iowait_pct", "cpu_steal_pct",
           "cpu_idle_pct", "slave_cpu_pct", "psi_cpu_some_pct",
           "psi_mem_some_pct", "psi_io_some_pct", "rx_mbps", "tx_mbps",
           "rx_pps", "tx_pps"]


def dev_sum(acc, v):
    """A device's row into its host's interval (or the cluster's)."""
    for k in ("r_s", "w_s"):
        if v[k] is not None:
            acc[k] = (acc.get(k) or 0) + v[k]
    if v["util_pct"] is not None:
        acc["util"] = max(acc.get("util", v["util_pct"]), v["util_pct"])
    for a, n in (("r_await_ms", "r_s"), ("w_await_ms", "w_s")):
        if v[a] is not None and v[n]:
            acc[a + "num"] = acc.get(a + "num", 0) + v[a] * v[n]
            acc[a + "den"] = acc.get(a + "den", 0) + v[n]
            acc[a] = acc[a + "num"] / acc[a + "den"]


def want_devices(d, t0, resp):
    """run -> {chart suffix: [expected stats]} from devices.csv."""
    f = read_csv(d + "/devices.csv")
    if f is None:
        return {}
    seen, own, hosts, cluster = set(), set(), {}, {}
    for r in f[1]:
        v = ok_row(r, DEV_NUMS, t0)
        if v is None:
            continue
        t = (int(r["end_ns"]) - t0.get(r["run"], int(r["start_ns"]))) / 1e9
        key = (r["run"], r["interval"])
        if r["slave"] == "":
            # The cluster's row (the devices on time, each once), once.
            if r["host"] != "cluster" or r["device"] != "all" or key in own:
                continue
            own.add(key)
            dev_sum(cluster.setdefault(key, {"t": t}), v)
            continue
        if (r["run"], r["host"], r["device"], r["interval"]) in seen:
            continue
        seen.add((r["run"], r["host"], r["device"], r["interval"]))
        dev_sum(hosts.setdefault(r["run"], {}).setdefault(
            r["host"], {}).setdefault(r["interval"], {"t": t,
                                                      "warm": r["phase"] == "warmup"}), v)
        # A late slave's device is not in the cluster's row: it adds.
        if r.get("late") == "1":
            dev_sum(cluster.setdefault(key, {"t": t}), v)
    out = {}
    for run in set(hosts) | {k[0] for k in cluster}:
        aw = [stats("application response time (slaves)", resp.get(run, []),
                    True)]
        ut = []
        cl = [c for k, c in cluster.items() if k[0] == run]
        if cl:
            aw.append(stats("all devices r await",
                            [(c["t"], c.get("r_await_ms")) for c in cl], True))
            aw.append(stats("all devices w await",
                            [(c["t"], c.get("w_await_ms")) for c in cl], True))
            ut.append(stats("busiest device",
                            [(c["t"], c.get("util")) for c in cl]))
        for h, ivs in hosts.get(run, {}).items():
            for a, lab in (("r_await_ms", " r await"), ("w_await_ms", " w await")):
                aw.append(stats(h + lab, [(x["t"], x.get(a))
                                          for x in ivs.values()], True))
            ut.append(stats(h, [(x["t"], x.get("util")) for x in ivs.values()]))
            # Busiest first: the mean util% of its measured intervals.
            us = [x["util"] for x in ivs.values() if "util" in x and not x["warm"]]
            us = us or [x["util"] for x in ivs.values() if "util" in x]
            ut[-1]["busy"] = sum(us) / len(us) if us else 0
        out[run] = {"await": aw, "util": ut}
    return out


def want_hosts(d, t0):
    """run -> {chart suffix: [expected stats]} from hoststats.csv."""
    f = read_csv(d + "/hoststats.csv")
    if f is None:
        return {}
    first, nics, seen = {}, {}, set()
    for r in f[1]:
        v = ok_row(r, HS_NUMS, t0)
        if v is None or not r["slave"]:
            continue
        if any(v[k] is not None and v[k] > 100.5 for k in HS_NUMS[:9]
               if k != "slave_cpu_pct"):
            continue
        if (r["run"], r["host"], r["slave"], r["interval"]) in seen:
            continue
        seen.add((r["run"], r["host"], r["slave"], r["interval"]))
        t = (int(r["end_ns"]) - t0.get(r["run"], int(r["start_ns"]))) / 1e9
        v["t"] = t
        first.setdefault(r["run"], {}).setdefault(r["host"], {}).setdefault(
            r["interval"], v)
        if r.get("nic"):
            nics.setdefault(r["run"], {}).setdefault(
                (r["host"], r["nic"]), {}).setdefault(r["interval"], v)
    out = {}
    for run in set(first) | set(nics):
        cpu, nic = [], []
        for h, ivs in first.get(run, {}).items():
            def us(x):
                a, b = x["cpu_user_pct"], x["cpu_sys_pct"]
                return None if a is None and b is None else (a or 0) + (b or 0)
            cpu.append(stats(h + " user+sys", [(x["t"], us(x))
                                               for x in ivs.values()]))
            cpu.append(stats(h + " iowait", [(x["t"], x["cpu_iowait_pct"])
                                             for x in ivs.values()]))
            cpu.append(stats(h + " steal", [(x["t"], x["cpu_steal_pct"])
                                            for x in ivs.values()]))
        for (h, n), ivs in nics.get(run, {}).items():
            nic.append(stats(h + " " + n + " rx", [(x["t"], x["rx_mbps"])
                                                   for x in ivs.values()]))
            nic.append(stats(h + " " + n + " tx", [(x["t"], x["tx_mbps"])
                                                   for x in ivs.values()]))
        out[run] = {"cpu": cpu, "nic": nic}
    return out


def want_probes(d, t0):
    """run -> {probe label: expected stats} from probes.csv."""
    f = read_csv(d + "/probes.csv")
    if f is None:
        return {}
    out = {}
    for r in f[1]:
        if r["status"] != "ok" or not r["run"] or not r["probe"]:
            continue
        try:
            tns, v = int(r["time_ns"]), cell(r["value"])
        except ValueError:
            continue
        first = out.setdefault(r["run"], {})
        lab = r["probe"] + (" " + r["key"] if r["key"] else "")
        base0 = t0.get(r["run"])
        if base0 is None:
            continue
        first.setdefault(lab, []).append(((tns - base0) / 1e9, v))
    return {run: {lab: stats(lab, pts) for lab, pts in labs.items()}
            for run, labs in out.items()}


def same_stats(got, want, where):
    for k, w in want.items():
        g = got.get(k)
        # The page puts x on a 1 ms grid (align() in page.js).
        if isinstance(w, float) or isinstance(g, float):
            tol = 5e-4 + 1e-9 if k in ("x0", "x1") else \
                1e-9 * max(1, abs(w or 0))
            if g is None or w is None or abs(g - w) > tol:
                fail(f"{where}: {k} {g!r}, the files say {w!r}")
        elif g != w:
            fail(f"{where}: {k} {g!r}, the files say {w!r}")


def chart_stats(ch):
    return {s["label"]: s for s in json.loads(ch.attrs.get("data-stats", "[]"))}


def check_telemetry(dom, d, want_panels):
    root = parse(dom)
    t0, resp = run_t0(d)
    dev, hst, prb = want_devices(d, t0, resp), want_hosts(d, t0), want_probes(d, t0)
    runs = {}
    for sec in (n for n in root.all() if n.tag == "section" and "run" in n.cls()):
        h2 = next(c for c in sec.children if c.tag == "h2")
        runs[h2.alltext()[len("Run "):]] = sec
    panels = series = 0
    for name, sec in runs.items():
        idx = sec.attrs["id"][len("run-"):]
        got = {p.attrs["id"].rsplit("-", 1)[0]: p for p in sec.all()
               if p.tag == "div" and "panel" in p.cls()}
        for kind, want in (("devices", dev), ("hosts", hst), ("probes", prb)):
            w = want.get(name)
            has = w and any(s["n"] for v in w.values()
                            for s in (v if isinstance(v, list) else [v]))
            if not has:
                if kind in got:
                    fail(f"run {name}: a {kind} panel without rows in its file")
                continue
            if kind not in got:
                fail(f"run {name}: no {kind} panel, its file has rows")
            if got[kind].attrs.get("data-run") != name:
                fail(f"run {name}: {kind} panel of run {got[kind].attrs.get('data-run')}")
            panels += 1
            charts_ = {c.attrs["id"]: c for c in charts(got[kind])}
            if kind == "probes":
                titled = {c.attrs["data-title"][len("Probe "):]: c
                          for c in charts_.values()}
                for lab, st in w.items():
                    if lab not in titled:
                        fail(f"run {name}: no chart of probe {lab}")
                    same_stats(chart_stats(titled[lab]).get(lab, {}), st,
                               f"run {name} probe {lab}")
                    series += 1
                continue
            pre = ("dv" if kind == "devices" else "hs") + idx + "-"
            for suffix, sts in w.items():
                if not any(s["n"] for s in sts if not s["label"].startswith(
                        "application")):
                    if pre + suffix in charts_:
                        fail(f"run {name}: chart {pre + suffix} without data")
                    continue
                if pre + suffix not in charts_:
                    fail(f"run {name}: no chart {pre + suffix}")
                gs = chart_stats(charts_[pre + suffix])
                busy = {st["label"]: st.pop("busy") for st in sts if "busy" in st}
                order = [busy[lab] for lab in gs if lab in busy]
                if any(a < b - 1e-9 for a, b in zip(order, order[1:])):
                    fail(f"run {name}: {pre + suffix} hosts not busiest "
                         f"first: {list(gs)}")
                # Many hosts: the page draws the busiest and says so.
                capped = "the charts draw the" in got[kind].alltext()
                for st in sts:
                    if (st["n"] == 0 or capped) and st["label"] not in gs:
                        continue
                    if st["label"] not in gs:
                        fail(f"run {name}: {pre + suffix} has no series {st['label']}")
                    same_stats(gs[st["label"]], st,
                               f"run {name} {pre + suffix} {st['label']}")
                    series += 1
    if panels < want_panels:
        fail(f"{panels} telemetry panels, want at least {want_panels}")
    print(f"telemetry: {panels} panels, {series} series equal the files'")


# ---- the summary, the latency charts, the print stylesheet, the PDF -----

# The summary's key figures (page.js KEY_FIGURES) and their decimals.
KEY = {"iops": 2, "mbps": 2, "lat_p50_ms": 4, "lat_p99_ms": 4,
       "lat_p999_ms": 4, "read_pct": 2, "read_iops": 2, "write_iops": 2,
       "errors": 0}
# The recovery table's figures (page.js RECOVERY) and their decimals.
REC = {"baseline_iops": 1, "baseline_p99_ms": 3, "worst_iops": 1,
       "worst_p99_ms": 3, "time_to_degrade_s": 1, "time_to_recover": 1,
       "rebuild_s": 1, "io_lost": 0, "io_delayed": 0}


def page_data(html):
    """The JSON the page holds (its #lockstep-data script)."""
    import re
    text = open(html, encoding="utf-8").read()
    m = re.search(r'<script type="application/json" id="lockstep-data">'
                  r'(.*?)</script>', text, re.S)
    if not m:
        fail("no data in " + html)
    return json.loads(m.group(1)), text


def cells_by_key(tr):
    return {c.attrs["data-key"]: c.alltext() for c in tr.children
            if c.tag == "td" and "data-key" in c.attrs}


def jsf(v, d):
    """A number as the page shows it (toFixed), a dash for none."""
    return "\u2014" if v is None else jsfixed(v, d)


def check_summary(dom, d, html, compare, first_px):
    root = parse(dom)
    summ = json.load(open(d + "/summary.json"))
    main_ = next(n for n in root.all() if n.attrs.get("id") == "report")
    kids = [c for c in main_.children if c.tag not in ("noscript",)]
    if [c.tag for c in kids[:2]] != ["h1", "section"] or \
            kids[1].attrs.get("id") != "summary":
        fail("the page does not open with its summary: %s" %
             [(c.tag, c.attrs.get("id")) for c in kids[:3]])
    sm = kids[1]
    v = next((n for n in sm.all() if n.attrs.get("id") == "verdict"), None)
    if v is None or v.attrs.get("data-status") != summ["status"] or \
            v.attrs.get("data-exit") != str(summ["exit_code"]):
        fail("summary verdict %r, summary.json %s (exit %s)" % (
            v and v.attrs, summ["status"], summ["exit_code"]))
    checked = 0
    rows = {n.attrs.get("data-run"): n for t in sm.all() if t.tag == "table"
            and "summary-runs" in t.cls() for n in t.all() if n.tag == "tr"}
    for run in summ["runs"]:
        tr = rows.get(run["name"])
        if tr is None:
            fail("summary: no key figures of run " + run["name"])
        tot = dict(run["totals"])
        if tot.get("ops"):
            tot["read_iops"] = tot["iops"] * tot["read_ops"] / tot["ops"]
            tot["write_iops"] = tot["iops"] * tot["write_ops"] / tot["ops"]
        got = cells_by_key(tr)
        for k, dec in KEY.items():
            if got.get(k) != jsf(tot.get(k), dec):
                fail("summary run %s %s: %r, summary.json %r" % (
                    run["name"], k, got.get(k), jsf(tot.get(k), dec)))
            checked += 1
    losses = sum(s.get("losses", 0) for s in summ["slaves"])
    lo = next((n for n in sm.all() if n.attrs.get("id") == "losses"), None)
    if lo is None or lo.attrs.get("data-losses") != str(losses):
        fail("summary losses %r, summary.json %d" % (lo and lo.attrs, losses))
    evs = [e for e in summ.get("events", []) if isinstance(
        e.get("recovery"), dict) and e["recovery"].get("status") != "restore"]
    rec = {}
    for t in sm.all():
        if t.tag == "table" and "recovery" in t.cls():
            for c in t.all():
                if c.tag == "td" and "data-event" in c.attrs:
                    rec.setdefault(c.attrs["data-event"], {})[
                        c.attrs["data-key"]] = c.alltext()
    for e in evs:
        got = rec.get(e["name"])
        if got is None:
            fail("summary: no recovery figures of event " + e["name"])
        f = dict(e["recovery"])
        for a, b in (("baseline_p99_ms", "baseline_p99_us"),
                     ("worst_p99_ms", "worst_p99_us")):
            f[a] = f[b] / 1000 if f.get(b) is not None else None
        f["time_to_recover"] = f.get("time_to_recover_survivors_s"
                                     if f.get("judged_on") == "survivors"
                                     else "time_to_recover_s")
        for k, dec in REC.items():
            if got.get(k) != jsf(f.get(k), dec):
                fail("summary event %s %s: %r, summary.json %r" % (
                    e["name"], k, got.get(k), jsf(f.get(k), dec)))
            checked += 1
    if evs:
        sf = [c for c in charts(sm) if c.attrs.get("id") == "sf-iops"]
        if not sf or not sf[0].attrs.get("data-deg"):
            fail("summary: no IOPS chart with the degraded span shaded")
    # Curves: drawn in the summary from their points, the max run apart.
    runs = summ["runs"]
    ncurve = 0
    for i, r in enumerate(runs):
        if r["kind"] != "curve-max":
            continue
        pts = []
        for p in runs[i + 1:]:
            if p["kind"] != "curve-point":
                break
            pts.append(p["totals"]["iops"])
        ch = [c for c in charts(sm) if c.attrs.get("id") == "k%d" % ncurve]
        if not ch:
            fail("summary: no curve chart k%d" % ncurve)
        st = chart_stats(ch[0])
        line, mx = st.get("response time (ms)"), st.get(
            "max run, response time (ms)")
        if not line or line["n"] != len(pts) or \
                abs(line["x0"] - min(pts)) > 1e-3 or \
                abs(line["x1"] - max(pts)) > 1e-3:
            fail("curve %d: line %r, points %r" % (ncurve, line, pts))
        if not mx or mx["n"] != 1 or \
                abs(mx["x0"] - r["totals"]["iops"]) > 1e-3:
            fail("curve %d: max run marker %r, want one at %r" % (
                ncurve, mx, r["totals"]["iops"]))
        top = int(ch[0].attrs["data-rect"].split(",")[1])
        if top > first_px:
            fail("curve %d: its chart starts %d px down (want %d at most)"
                 % (ncurve, top, first_px))
        ncurve += 1
    # Latency per interval: a log axis, intervals.csv's p99s.
    t0, _ = run_t0(d)
    iv = read_csv(d + "/intervals.csv")[1]
    secs = {}
    for sec in (n for n in root.all() if n.tag == "section"
                and "run" in n.cls()):
        h2 = next(c for c in sec.children if c.tag == "h2")
        secs[h2.alltext()[len("Run "):]] = sec
    nlat = 0
    for run in summ["runs"]:
        sec = secs.get(run["name"])
        idx = sec.attrs["id"][len("run-"):]
        ch = [c for c in charts(sec) if c.attrs.get("id") == "c%s-lat" % idx]
        if not ch or ch[0].attrs.get("data-y-distr") != "3":
            fail("run %s: no latency chart on a log axis (%r)" % (
                run["name"], ch and ch[0].attrs.get("data-y-distr")))
        # Each interval's p50, p99 and p99.9 as intervals.csv has them.
        for col, lab in (("p99_ms", "p99 (ms)"), ("p50_ms", "p50 (ms)"),
                         ("p999_ms", "p99.9 (ms)")):
            p = [float(x[col]) for x in iv if x["run"] == run["name"]
                 and x["phase"] != "late" and x[col] and float(x[col]) > 0]
            st = chart_stats(ch[0]).get(lab)
            if not st or st["n"] != len(p) or \
                    abs(st["max"] - max(p)) > 1e-9 or \
                    abs(st["min"] - min(p)) > 1e-9:
                fail("run %s: latency chart %s %r, intervals.csv %d rows, "
                     "%r..%r" % (run["name"], lab, st, len(p), min(p), max(p)))
        for lab in ("p95 (ms)", "mean (ms)", "read mean (ms)",
                    "write mean (ms)"):
            if lab not in chart_stats(ch[0]):
                fail("run %s: latency chart without %s" % (run["name"], lab))
        nlat += 1
    # No empty legend, no debug text.
    empty = [n for n in root.all() if n.tag == "td" and "u-value" in n.cls()
             and n.alltext().strip() in ("", "--")]
    if empty:
        fail("%d legend values empty" % len(empty))
    sc = next(n for n in root.all() if n.attrs.get("id") == "selfcheck")
    if sc.alltext().strip() or "hidden" not in sc.attrs:
        fail("the self-check shows on the page: %r" % sc.alltext())
    data, text = page_data(html)
    if compare:
        c = data.get("compare_now")
        if not c or v.attrs.get("data-compare") != c["verdict"]:
            fail("summary compare verdict %r, the page's compare %r" % (
                v.attrs.get("data-compare"), c and c.get("verdict")))
        cells = [n for n in sm.all() if n.tag == "td" and "cmp" in n.cls()]
        want = sum(len(r["metrics"]) for r in c["runs"])
        if len(cells) != want or not want:
            fail(f"{len(cells)} compare cells in the summary, want {want}")
        for r in c["runs"]:
            for k, m in r["metrics"].items():
                w = m.get("verdict", "not judged")
                if not any(n.attrs.get("data-metric") == k and
                           n.attrs.get("data-verdict") == w for n in cells):
                    fail(f"summary: run {r['name']} {k} not {w!r}")
                checked += 1
    import re
    pr = text[text.find("@media print"):]
    if "@media print" not in text or not re.search(
            r"\.chart[^{]*\{[^}]*break-inside: avoid", pr) or \
            "break-after: avoid" not in pr or "break-before: page" not in pr:
        fail("no print stylesheet keeping a chart with its title")
    print(f"summary: first on the page, {checked} figures equal "
          f"summary.json's, {ncurve} curves with the max run apart, "
          f"{nlat} latency charts on a log axis")


def page_breaks(dom):
    """The elements the print stylesheet starts a page with (page.css):
    each run's and curve's section (a curve inside the summary excepted),
    the run details' header and the compare verdicts."""
    def in_summary(n):
        while n is not None:
            if n.attrs.get("id") == "summary":
                return True
            n = n.parent
        return False
    return [n for n in parse(dom).all()
            if (n.tag == "section" and ({"run", "curve"} & set(n.cls()))
                and not in_summary(n))
            or n.attrs.get("id") in ("run-header", "compare-verdicts")]


def check_pdf(path, dom=None):
    import re
    import subprocess
    import tempfile
    from PIL import Image
    d = open(path, "rb").read()
    if not d.startswith(b"%PDF-"):
        fail(path + " is not a PDF: " + repr(d[:8]))
    pages = len(re.findall(rb"/Type\s*/Page(?![A-Za-z])", d))
    if pages < 1:
        fail(path + ": no page")
    # poppler's own count, and every page rendered and not blank.
    info = subprocess.run(["pdfinfo", path], capture_output=True, text=True,
                          check=True).stdout
    m = re.search(r"^Pages:\s+(\d+)$", info, re.M)
    if not m or int(m.group(1)) != pages:
        fail(f"{path}: pdfinfo says {m and m.group(1)} pages, the file {pages}")
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(["pdftoppm", "-r", "20", "-png", path, tmp + "/p"],
                       check=True, timeout=120)
        pngs = sorted(os.listdir(tmp))
        if len(pngs) != pages:
            fail(f"{path}: pdftoppm rendered {len(pngs)} of {pages} pages")
        for f in pngs:
            img = Image.open(os.path.join(tmp, f)).convert("L")
            ink = sum(c for c, v in img.getcolors(img.width * img.height) if v < 200)
            if ink < 20:
                fail(f"{path}: page {f} is blank")
    # The summary's page, then one for each element that starts a page.
    if dom:
        want = 1 + len(page_breaks(dom))
        if pages < want:
            fail(f"{path}: {pages} pages, the stylesheet starts at least {want}")
    print(f"pdf: {pages} pages, each rendered and not blank")


def check_ops(dom, d):
    """A file-system run's Operations table: a row per operation of its
    summary.json "operations", each figure as the page writes it."""
    root = parse(dom)
    summ = json.load(open(os.path.join(d, "summary.json")))
    tabs = {n.attrs.get("data-run"): n for n in root.all()
            if n.tag == "table" and "operations" in n.cls()}
    nops = 0
    for run in summ["runs"]:
        ops = {k: v for k, v in (run.get("operations") or {}).items()
               if isinstance(v, dict)}
        tab = tabs.get(run["name"])
        if not ops:
            if tab is not None:
                fail("run %s has no operations but a table" % run["name"])
            continue
        if tab is None:
            fail("run %s: no Operations table" % run["name"])
        rows = {n.attrs.get("data-op"): n for n in tab.all() if n.tag == "tr"
                and n.attrs.get("data-op")}
        if set(rows) != set(ops):
            fail("run %s: rows %s, summary %s" % (run["name"], sorted(rows),
                                                 sorted(ops)))
        for op, v in ops.items():
            cells = {c.attrs.get("data-key"): c.alltext().strip()
                     for c in rows[op].all() if c.tag == "td"}
            for k, dec in (("count", 0), ("rate", 2), ("resp_ms", 4),
                           ("p99_ms", 4), ("max_ms", 4)):
                want = "\u2014" if v.get(k) is None else jsfixed(v[k], dec)
                if cells.get(k) != want:
                    fail("run %s %s %s: page %r, summary %r" % (
                        run["name"], op, k, cells.get(k), want))
            nops += 1
    if not nops:
        fail("no operation in the folder's summary")
    print("ops: %d operations shown as summary.json has them" % nops)
    check_ops_charts(root, d, summ)


def check_ops_charts(root, d, summ):
    """Each run's operations charts: each operation's rate series sums
    to ops.csv's interval rows (late ones added into their interval),
    and its points after the warmup times the interval give the run's
    count in summary.json (a rate is count / interval)."""
    rows = {}
    with open(os.path.join(d, "ops.csv")) as f:
        for r in csv.DictReader(f):
            if r["phase"] == "total":
                continue
            k = (r["run"], r["operation"])
            rows.setdefault(k, {})
            rows[k][r["interval"]] = rows[k].get(r["interval"], 0) + \
                float(r["rate"])
    panels = {n.attrs.get("data-run"): n for n in root.all()
              if n.tag == "div" and "ops" in n.cls() and "panel" in n.cls()}
    nser = 0
    for run in summ["runs"]:
        ops = {k: v for k, v in (run.get("operations") or {}).items()
               if isinstance(v, dict)}
        if not ops:
            continue
        box = panels.get(run["name"])
        if box is None:
            fail("run %s: no operations panel" % run["name"])
        rate = [c for c in charts(box)
                if c.attrs.get("data-title") == "Operations per second"]
        if not rate:
            fail("run %s: no operations rate chart" % run["name"])
        stats = {x["label"]: x for x in json.loads(rate[0].attrs["data-stats"])}
        for op, v in ops.items():
            want = rows.get((run["name"], op))
            st = stats.get(op + " ops/s")
            if not want:
                if st and st["n"]:
                    fail("run %s %s: drawn without ops.csv rows" % (
                        run["name"], op))
                continue
            if st is None or st["n"] != len(want) or \
                    abs(st["sum"] - sum(want.values())) > 1e-6 * max(1, st["sum"]):
                fail("run %s %s: chart %s, ops.csv %d intervals summing %.3f" % (
                    run["name"], op, st, len(want), sum(want.values())))
            got = st["msum"] * run["interval_s"]
            if abs(got - v["count"]) > max(2, 0.005 * v["count"]):
                fail("run %s %s: the chart's measured points draw %.1f "
                     "operations, summary.json counts %d" % (
                         run["name"], op, got, v["count"]))
            nser += 1
    if not nser:
        fail("no operation drawn")
    print("ops: %d operations drawn as ops.csv has them" % nser)


def main(a):
    if a[0] == "dom":
        base, nch, ncurves, nbad, nknees = None, 1, 0, 0, 0
        rest = a[3:]
        while rest:
            if rest[0] == "--baseline":
                base = rest[1]
            elif rest[0] == "--charts":
                nch = int(rest[1])
            elif rest[0] == "--curves":
                ncurves = int(rest[1])
            elif rest[0] == "--not-steady":
                nbad = int(rest[1])
            elif rest[0] == "--knees":
                nknees = int(rest[1])
            rest = rest[2:]
        check_dom(a[1], a[2], base, nch, ncurves, nbad, nknees)
    elif a[0] == "summary":
        px = int(a[a.index("--first-screen") + 1]) \
            if "--first-screen" in a else 1400
        check_summary(a[1], a[2], a[3], "--compare" in a, px)
    elif a[0] == "pdf":
        check_pdf(a[1], a[2] if len(a) > 2 else None)
    elif a[0] == "shot":
        check_shot(a[1], a[2])
    elif a[0] == "recovery":
        check_recovery(a[1], a[2])
    elif a[0] == "clock":
        check_clock(a[1], a[2])
    elif a[0] == "hosts":
        check_hosts(a[1], a[2], int(a[3]), a[4])
    elif a[0] == "ops":
        check_ops(a[1], a[2])
    elif a[0] == "hostile":
        check_hostile(a[1])
    elif a[0] == "telemetry":
        check_telemetry(a[1], a[2], int(a[4]) if a[3:4] == ["--want-panels"]
                        else 0)
    else:
        fail("unknown check " + a[0])


main(sys.argv[1:])
