/*
 * lockstep report page: draws the results folder embedded as JSON in
 * #lockstep-data with uPlot. Every string of the data comes from a results
 * folder and is shown with textContent only, never as HTML. The page needs
 * no network (its Content-Security-Policy allows none).
 */
"use strict";
(function () {
	var D = JSON.parse(document.getElementById("lockstep-data").textContent);
	var root = document.getElementById("report");
	var main = D.main || {};
	var base = D.baseline || null;
	var S = main.summary || {};
	var B = base ? base.summary || {} : null;
	var PALETTE = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
		"#8c564b", "#e377c2", "#17becf", "#bcbd22", "#393b79",
		"#ad494a", "#637939"];
	var BASE_COLOR = "#999999";
	var MARK_COLOR = "#000000";
	/* The slaves' response time and the cluster's devices, beside the
	   hosts' palette colours in the device charts. */
	var APP_COLOR = "#000080";
	var CLUSTER_COLOR = "#000000";
	/* Hosts drawn on a device or host chart (the busiest). */
	var HOSTS_DRAWN = 32;
	var charts = [];
	/* Time axes in UTC wall-clock time (the toggle, or #clock) rather
	   than seconds of the run; curT0: the run being drawn's start, ns. */
	var CLOCK = hashHas("clock");
	var curT0 = null;

	/* The address asks for word: report.html#clock, #overlay or both
	   (#clock,overlay). */
	function hashHas(word) {
		return location.hash.substr(1).split(/[,&+]/).indexOf(word) >= 0;
	}

	/* ms since the page began loading, for the self-check's timing. */
	function now() {
		return window.performance ? performance.now() : Date.now();
	}

	/* el("td", {class: "x"}, "text", child...): text is never HTML. */
	function el(tag, attrs) {
		var e = document.createElement(tag);
		var k, i, c;
		for (k in attrs || {}) {
			if (Object.prototype.hasOwnProperty.call(attrs, k))
				e.setAttribute(k, String(attrs[k]));
		}
		for (i = 2; i < arguments.length; i++) {
			c = arguments[i];
			if (c === null || c === undefined)
				continue;
			e.appendChild(typeof c === "object" ? c :
				document.createTextNode(String(c)));
		}
		return e;
	}

	function isNum(v) {
		return typeof v === "number" && isFinite(v);
	}

	function fmt(v, d) {
		return isNum(v) ? v.toFixed(d) : "\u2014";
	}

	function arr(v) {
		return Array.isArray(v) ? v : [];
	}

	function str(v) {
		return typeof v === "string" ? v : (v === undefined || v === null ?
			"" : String(v));
	}

	function byRun(list, name) {
		return arr(list).filter(function (x) {
			return x && x.run === name;
		})[0] || null;
	}

	function table(head, rows, cls) {
		var t = el("table", cls ? { "class": cls } : {});
		var tr = el("tr");
		head.forEach(function (h) {
			tr.appendChild(el("th", {}, h));
		});
		t.appendChild(el("thead", {}, tr));
		var tb = el("tbody");
		rows.forEach(function (r) {
			tb.appendChild(r);
		});
		t.appendChild(tb);
		return t;
	}

	function row(cells) {
		var tr = el("tr");
		cells.forEach(function (c) {
			tr.appendChild(typeof c === "object" && c !== null &&
				c.tagName === "TD" ? c : el("td", {}, c));
		});
		return tr;
	}

	/* Several [x[], y[]] sets on one x axis (x rounded to 1 ms). */
	function align(sets) {
		var m = new Map();
		sets.forEach(function (s, i) {
			arr(s[0]).forEach(function (x, j) {
				if (!isNum(x))
					return;
				var k = Math.round(x * 1000) / 1000;
				var r = m.get(k);
				if (!r) {
					r = sets.map(function () { return null; });
					m.set(k, r);
				}
				var y = arr(s[1])[j];
				r[i] = isNum(y) ? y : null;
			});
		});
		var xs = Array.from(m.keys()).sort(function (a, b) {
			return a - b;
		});
		return [xs].concat(sets.map(function (_, i) {
			return xs.map(function (x) { return m.get(x)[i]; });
		}));
	}

	/* UTC time of day of sec seconds after t0 ns, to the second. */
	function clockOf(t0, sec) {
		return new Date(t0 / 1e6 + sec * 1000).toISOString().substr(11, 8);
	}

	function utcDate(t0) {
		return new Date(t0 / 1e6).toISOString().replace("T", " ")
			.substr(0, 19) + " UTC";
	}

	function width() {
		return Math.max(480, Math.min(1100,
			(document.documentElement.clientWidth || 1100) - 60));
	}

	/* Seconds after a run's first interval began, of a time an event
	   gives as ns since the epoch (a number) or an ISO 8601 string. */
	function eventSec(v, t0) {
		if (isNum(v))
			return (v - t0) / 1e9;
		if (typeof v === "string") {
			var ms = Date.parse(v);
			if (isFinite(ms))
				return ms / 1e3 - t0 / 1e9;
		}
		return null;
	}

	/*
	 * An event's recovery figures (summary.json's, master/recovery.c) on
	 * the chart's time axis: the degraded span from when it degraded to
	 * when it recovered (on the figure it is judged by) or its window's
	 * end, and the recovered span from then to the window's end. Their
	 * times count from the run's measured series, whose offset to the
	 * chart's is the event's start in both.
	 */
	function recovery(e, s) {
		var r = e.recovery;
		if (!r || typeof r !== "object" || s === null || !isNum(r.start_s))
			return null;
		var off = s - r.start_s;
		var ttr = r.judged_on === "survivors" ?
			r.time_to_recover_survivors_s : r.time_to_recover_s;
		var end = isNum(r.window_end_s) ? r.window_end_s + off : null;
		var out = { status: str(r.status), fig: r };
		if (isNum(r.time_to_degrade_s)) {
			var d0 = s + r.time_to_degrade_s;
			var d1 = isNum(ttr) ? s + ttr : end;
			if (d1 !== null && d1 > d0)
				out.deg = [d0, d1];
			if (isNum(ttr) && end !== null && end > s + ttr)
				out.rec = [s + ttr, end];
		}
		return out;
	}

	function runEvents(name, t0) {
		return arr(S.events).filter(function (e) {
			return e && e.run === name;
		}).map(function (e) {
			var s = eventSec(e.start !== undefined ? e.start :
				e.start_ns !== undefined ? e.start_ns : e.at, t0);
			var end = eventSec(e.end !== undefined ? e.end : e.end_ns, t0);
			return { name: str(e.name), status: str(e.status),
				s: s, e: end, rec: recovery(e, s) };
		}).filter(function (e) {
			return e.s !== null;
		});
	}

	/* Warmup shading (named unless small) and event lines, drawn under
	   the series. */
	function decorations(warm, events, small) {
		return function (u) {
			var ctx = u.ctx, b = u.bbox;
			ctx.save();
			if (warm > 0) {
				var x0 = u.valToPos(0, "x", true);
				var x1 = u.valToPos(warm, "x", true);
				x0 = Math.max(x0, b.left);
				x1 = Math.min(x1, b.left + b.width);
				if (x1 > x0) {
					ctx.fillStyle = "rgba(255, 200, 0, 0.18)";
					ctx.fillRect(x0, b.top, x1 - x0, b.height);
				}
				if (x1 > x0 && !small) {
					ctx.fillStyle = "#8a6d00";
					ctx.font = 11 * devicePixelRatio + "px sans-serif";
					ctx.fillText("warmup", x0 + 4, b.top + 14 *
						devicePixelRatio);
				}
			}
			/* Degraded red, recovered green, under the lines. */
			events.forEach(function (e) {
				[["deg", "rgba(220, 0, 0, 0.12)"],
					["rec", "rgba(0, 160, 0, 0.12)"]].forEach(function (k) {
					var sp = e.rec && e.rec[k[0]];
					if (!sp)
						return;
					var x0 = Math.max(u.valToPos(sp[0], "x", true), b.left);
					var x1 = Math.min(u.valToPos(sp[1], "x", true),
						b.left + b.width);
					if (x1 <= x0)
						return;
					ctx.fillStyle = k[1];
					ctx.fillRect(x0, b.top, x1 - x0, b.height);
				});
			});
			events.forEach(function (e) {
				[e.s, e.e].forEach(function (t, i) {
					if (t === null || t === undefined)
						return;
					var x = u.valToPos(t, "x", true);
					if (x < b.left || x > b.left + b.width)
						return;
					ctx.strokeStyle = "#c00000";
					ctx.lineWidth = 1.5 * devicePixelRatio;
					ctx.setLineDash(i ? [2, 3] : [6, 3]);
					ctx.beginPath();
					ctx.moveTo(x, b.top);
					ctx.lineTo(x, b.top + b.height);
					ctx.stroke();
					if (!i && !small) {
						ctx.fillStyle = "#c00000";
						ctx.font = 11 * devicePixelRatio +
							"px sans-serif";
						ctx.fillText(e.name, x + 3, b.top + 28 *
							devicePixelRatio);
					}
				});
			});
			ctx.restore();
		};
	}

	/* A ring around one point (x, y on the chart's scales), labelled. */
	function markPoint(m) {
		return function (u) {
			var ctx = u.ctx, dpr = devicePixelRatio;
			var x = u.valToPos(m.x, "x", true);
			var y = u.valToPos(m.y, "y", true);
			ctx.save();
			ctx.strokeStyle = MARK_COLOR;
			ctx.lineWidth = 2.5 * dpr;
			ctx.beginPath();
			ctx.arc(x, y, 9 * dpr, 0, 2 * Math.PI);
			ctx.stroke();
			ctx.fillStyle = MARK_COLOR;
			ctx.font = "bold " + 12 * dpr + "px sans-serif";
			/* Right of the ring, or left of it near the right edge. */
			var right = x + 60 * dpr < u.bbox.left + u.bbox.width;
			ctx.textAlign = right ? "left" : "right";
			ctx.fillText(m.label, x + (right ? 12 : -12) * dpr,
				y - 12 * dpr);
			ctx.restore();
		};
	}

	/* A number for a legend: 4 significant digits, thousands whole. */
	function short(v) {
		if (!isNum(v))
			return "\u2014";
		var a = Math.abs(v);
		return a >= 1000 ? v.toFixed(0) : a >= 1 ? String(Number(
			v.toPrecision(4))) : a === 0 ? "0" : String(Number(
			v.toPrecision(3)));
	}

	/* A small chart's ticks: 200k, 1.5M, 0.05 (uPlot's log axis labels
	   only powers of ten, which a narrow range may not hold). */
	function tickShort(u, splits) {
		return splits.map(function (v) {
			var a = Math.abs(v);
			return v === null ? "" : a >= 1e6 ? Number((v / 1e6)
				.toPrecision(3)) + "M" : a >= 1e3 ? Number((v / 1e3)
				.toPrecision(3)) + "k" : String(Number(v.toPrecision(2)));
		});
	}

	/*
	 * A legend's value of series si: under the cursor its value there;
	 * without a cursor (the page as it loads, and as it prints) its last
	 * value, said so, rather than uPlot's "--". xfmt turns an x into its
	 * words (a percentile).
	 */
	function legendValue(data, si, xfmt) {
		var f = xfmt || short;
		return function (u, v, _si, idx) {
			if (idx !== null && idx !== undefined)
				return isNum(v) ? f(v) : "\u2014";
			var ys = arr(data[si]);
			for (var j = ys.length - 1; j >= 0; j--) {
				if (isNum(ys[j]))
					return f(ys[j]) + (si ? " (last)" : " (end)");
			}
			return "\u2014";
		};
	}

	/*
	 * A big chart's x axis, with only the keys it means: uPlot copies a
	 * key given as undefined over its default, and an axis whose incrs=
	 * and space= were undefined drew no ticks, grid lines or tick labels
	 * on any chart (the report's x axes had none until 2026-12-06).
	 */
	function xaxis(label, clock, t0, xvalues) {
		var a = { label: label };

		if (clock) {
			/* Whole seconds at least 90 px apart: a time of day
			   does not repeat along the axis. */
			a.space = 90;
			a.incrs = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900,
				1800, 3600, 7200, 14400, 21600, 43200, 86400];
			a.values = function (u, splits) {
				return splits.map(function (v) {
					return v === null ? "" : clockOf(t0, v);
				});
			};
		} else if (xvalues) {
			a.values = xvalues;
		}
		return a;
	}

	/*
	 * A fixed range for a log axis, widened to whole decades. uPlot
	 * steps a log axis's ticks up from the range's low end; one just
	 * under a decade (0.0098: 0.0108 rounds to 0.011, past 0.01) makes
	 * 0.011 its step, which its rounding then never leaves: it pushed
	 * ticks until "Invalid array length", the chart blank after 30 s.
	 * A range that is not positive is left to uPlot (null: automatic).
	 */
	function decades(r) {
		var lo = Math.floor(Math.log10(r[0]));
		var hi = Math.ceil(Math.log10(r[1]));
		if (!isFinite(lo) || !isFinite(hi))
			return null;
		return [Number("1e" + lo), Number("1e" + Math.max(hi, lo + 1))];
	}

	/*
	 * One uPlot chart in parent. series: [{label, color, dash}], data as
	 * uPlot wants it. opts: title, xlabel, ylabel, xlog, ylog, warm,
	 * events (listEvents: also as a table), points, xvalues, from0 (x axis
	 * from 0), xmax (with from0: the axis reaches at least there, as the
	 * run's other charts), yrange ([lo, hi], fixed), height, width, xfmt
	 * (an x in the legend), mark ({x, y, label}: a point ringed, data-mark
	 * says where). A series with pointsOnly is markers without a line.
	 */
	function chart(parent, id, series, data, opts) {
		var box = el("div", { "class": "chart", id: id,
			"data-title": opts.title });
		parent.appendChild(box);
		if (!data[0] || data[0].length === 0) {
			box.appendChild(el("p", { "class": "empty" },
				opts.title + ": no data"));
			box.setAttribute("data-empty", "1");
			return;
		}
		var t0 = opts.t0 !== undefined ? opts.t0 : curT0;
		var clock = CLOCK && opts.from0 && !opts.small && isNum(t0);
		/* Either way the wall clock shows (a printed page has no
		   toggle): the run's start by the seconds (data-x-label for a
		   test: uPlot draws the label on its canvas). */
		var xlabel = clock ? "UTC time" : opts.from0 && isNum(t0) &&
			!opts.small ? opts.xlabel + " from " + clockOf(t0, 0) + " UTC" :
			opts.xlabel;
		box.setAttribute("data-x-clock", clock ? "utc" : "run");
		box.setAttribute("data-x-label", xlabel);
		var o = {
			title: opts.title,
			width: opts.width || width(),
			height: opts.height || 260,
			scales: {
				x: opts.from0 ? {
					time: false,
					/* From the run's start: the warmup shows. */
					range: function (u, lo, hi) {
						var top = Math.max(hi, opts.xmax || 0);
						return [0, top > 0 ? top : 1];
					},
				} : { time: false, distr: opts.xlog ? 3 : 1 },
				y: opts.yrange ? { range: opts.ylog ?
					decades(opts.yrange) : opts.yrange,
					distr: opts.ylog ? 3 : 1 } :
					{ distr: opts.ylog ? 3 : 1 },
			},
			axes: opts.small ? [
				{ size: 24 },
				{ label: opts.ylabel, size: 64, values: tickShort },
			] : [xaxis(xlabel, clock, t0, opts.xvalues),
				{ label: opts.ylabel, size: 70 }],
			legend: { show: !opts.small },
			series: [{ label: clock ? "UTC" : opts.xlabel,
				value: legendValue(data, 0, clock ? function (v) {
					return clockOf(t0, v);
				} : opts.xfmt) }].concat(
				series.map(function (s, i) {
					return {
						label: s.label,
						stroke: s.color,
						width: s.width || 2,
						dash: s.dash,
						spanGaps: true,
						/* A marker alone (a curve's max run): no
						   line to or from it. */
						paths: s.pointsOnly ? function () {
							return null;
						} : undefined,
						/* Filled, so that a lone sample shows. */
						points: opts.points || s.pointsOnly ? {
							show: true, size: s.pointsOnly ? 14 : 10,
							fill: s.color } : { show: false },
						value: legendValue(data, i + 1),
					};
				})),
			hooks: {
				drawClear: [decorations(opts.warm || 0,
					opts.events || [], opts.small)],
				/* The y scale as uPlot drew it, for a test: it
				   is set when the chart is drawn (a microtask
				   after the constructor), not before. */
				draw: [function (u) {
					box.setAttribute("data-y-range", u.scales.y.min +
						"," + u.scales.y.max);
				}].concat(opts.mark ? [markPoint(opts.mark)] : []),
			},
		};
		/* What each series holds, for a test to compare with the
		   folder's files: its points, the x of its first and last,
		   its least, most, first and last value and their sum; on a
		   run's time axis also the points after the warmup and their
		   sum (mn, msum: what the run's totals measure). */
		box.setAttribute("data-stats", JSON.stringify(series.map(function (s,
			i) {
			var xs = [], ys = [], mn = 0, msum = 0;
			arr(data[i + 1]).forEach(function (y, j) {
				if (isNum(y)) {
					xs.push(data[0][j]);
					ys.push(y);
					if (data[0][j] > (opts.warm || 0)) {
						mn++;
						msum += y;
					}
				}
			});
			return { label: s.label, n: ys.length,
				mn: opts.from0 ? mn : undefined,
				msum: opts.from0 ? msum : undefined,
				x0: ys.length ? xs[0] : null,
				x1: ys.length ? xs[xs.length - 1] : null,
				min: ys.length ? ys.reduce(function (a, b) {
					return Math.min(a, b);
				}) : null,
				max: ys.length ? ys.reduce(function (a, b) {
					return Math.max(a, b);
				}) : null,
				first: ys.length ? ys[0] : null,
				last: ys.length ? ys[ys.length - 1] : null,
				sum: ys.reduce(function (a, b) { return a + b; }, 0) };
		})));
		var u = new uPlot(o, data, box);
		/* The legend without a cursor: each series' last value. */
		u.setLegend({ idx: null });
		/* The y scale's kind (3: logarithmic), for a test. */
		box.setAttribute("data-y-distr", String(u.scales.y.distr || 1));
		if (opts.mark)
			box.setAttribute("data-mark", opts.mark.x + "," + opts.mark.y);
		charts.push({ box: box, plot: u, colors: series.filter(function (s) {
			return !s.dash;
		}).map(function (s) { return s.color; }) });
		/* The spans drawn, in seconds of the x axis, for a test to read. */
		(opts.events || []).forEach(function (e) {
			["deg", "rec"].forEach(function (k) {
				if (e.rec && e.rec[k])
					box.setAttribute("data-" + k, (box.getAttribute("data-" +
						k) ? box.getAttribute("data-" + k) + " " : "") +
						e.rec[k][0].toFixed(3) + "," + e.rec[k][1].toFixed(3));
			});
		});
		if ((opts.events || []).length && opts.listEvents) {
			box.appendChild(table(["event", "status", "start (s)", "end (s)",
				"recovery", "judged on", "degraded after (s)",
				"recovered after (s)", "survivors after (s)", "worst IO/s",
				"I/O lost", "I/O delayed", "window through"],
				opts.events.map(function (e) {
					var f = e.rec ? e.rec.fig : {};
					return row([e.name, e.status, fmt(e.s, 3),
						fmt(e.e, 3), e.rec ? e.rec.status : "\u2014",
						str(f.judged_on), fmt(f.time_to_degrade_s, 1),
						fmt(f.time_to_recover_s, 1),
						fmt(f.time_to_recover_survivors_s, 1),
						fmt(f.worst_iops, 1), fmt(f.io_lost, 0),
						fmt(f.io_delayed, 0), str(f.window_through)]);
				}), "events"));
		}
	}

	/*
	 * A run's steady-state verdict (summary.json's steady_state, by
	 * sink_steady.c): "steady", "not-steady", "not-judged", or "" for a
	 * run without one (a format pass), with the words the page shows.
	 */
	function steadyOf(r) {
		var st = r && r.steady_state;
		if (!st || typeof st !== "object")
			return { state: "", short: "\u2014", text: "" };
		if (st.not_judged !== undefined)
			return { state: "not-judged", short: "not judged",
				text: "Steady state not judged: " + str(st.not_judged) };
		var ex = "IOPS data excursion " + fmt(st.data_excursion_pct, 1) +
			"% (limit " + fmt(st.data_excursion_limit_pct, 0) +
			"%), slope excursion " + fmt(st.slope_excursion_pct, 1) +
			"% (limit " + fmt(st.slope_excursion_limit_pct, 0) + "%), " +
			str(st.method);
		var hosts = arr(st.not_steady).map(function (h) {
			return str(h && h.slave);
		});
		if (hosts.length)
			ex += "; " + str(st.slaves_not_steady) + " of " +
				str(st.slaves_judged) + " slaves not steady: " +
				hosts.join(", ");
		return st.steady === true ?
			{ state: "steady", short: "steady", text: "Steady: " + ex } :
			{ state: "not-steady", short: "NOT STEADY",
				text: "NOT STEADY: " + ex };
	}

	/* ---- summary: the first screen answers the run ----------------- */

	/* The run figures the summary shows, by summary.json's totals. */
	var KEY_FIGURES = [["IOPS", "iops", 2], ["MB/s", "mbps", 2],
		["p50 (ms)", "lat_p50_ms", 4], ["p99 (ms)", "lat_p99_ms", 4],
		["p99.9 (ms)", "lat_p999_ms", 4], ["read %", "read_pct", 2],
		["read IO/s", "read_iops", 2], ["write IO/s", "write_iops", 2],
		["errors", "errors", 0]];

	/* A run's totals with its reads' and writes' share of its IOPS. */
	function keyTotals(r) {
		var t = r.totals || {}, o = {};
		Object.keys(t).forEach(function (k) { o[k] = t[k]; });
		if (isNum(t.iops) && isNum(t.ops) && t.ops > 0) {
			o.read_iops = isNum(t.read_ops) ? t.iops * t.read_ops / t.ops :
				null;
			o.write_iops = isNum(t.write_ops) ? t.iops * t.write_ops /
				t.ops : null;
		}
		return o;
	}

	/* Status, exit code, the run's verdict and, with a baseline, the
	   compare's: one line, coloured by the status. */
	function verdictLine(sec) {
		var status = str(S.status);
		var c = base && D.compare_now && typeof D.compare_now ===
			"object" ? D.compare_now : null;
		var words = "Status " + (status || "unknown") + " (exit " +
			str(S.exit_code) + ")";
		if (S.verdict !== undefined)
			words += "; verdict " + str(S.verdict);
		if (c && c.verdict !== undefined)
			words += "; against the baseline: " + str(c.verdict);
		sec.appendChild(el("p", { id: "verdict", "class": "verdict status " +
			"status-" + status.replace(/[^a-z]/g, ""), "data-status": status,
			"data-exit": str(S.exit_code),
			"data-compare": c ? str(c.verdict) : "" }, words));
		if (!c)
			return;
		/* Per run and metric: regression, improvement, noise or no
		   change, with the change in per cent. */
		var keys = [];
		arr(c.runs).forEach(function (r) {
			Object.keys((r && r.metrics) || {}).forEach(function (k) {
				if (keys.indexOf(k) < 0)
					keys.push(k);
			});
		});
		sec.appendChild(table(["run", "verdict"].concat(keys),
			arr(c.runs).map(function (r) {
				var ms = (r && r.metrics) || {};
				return row([str(r && r.name), str(r && r.verdict)].concat(
					keys.map(function (k) {
						var m = ms[k] || {};
						var v = m.verdict === undefined ? "not judged" :
							str(m.verdict);
						return el("td", { "class": "cmp " + v.replace(
							/[^a-z]/g, ""), "data-metric": k,
						"data-verdict": v }, (isNum(m.delta_pct) ?
							(m.delta_pct >= 0 ? "+" : "") +
							m.delta_pct.toFixed(1) + "% " : "") + v);
					})));
			}), "summary-compare"));
	}

	function keyFigures(sec) {
		sec.appendChild(table(["run", "kind"].concat(KEY_FIGURES.map(
			function (m) {
				return m[0];
			})).concat(["steady state"]),
		arr(S.runs).map(function (r) {
			var t = keyTotals(r), st = steadyOf(r);
			var tr = row([str(r.name), str(r.kind)].concat(KEY_FIGURES.map(
				function (m) {
					return el("td", { "class": "num", "data-key": m[1] },
						fmt(t[m[1]], m[2]));
				})).concat([el("td", { "class": "steady " + st.state },
				st.short)]));
			tr.setAttribute("data-run", str(r.name));
			return tr;
		}), "summary-runs"));
	}

	/* Slaves lost and rejoined (summary.json's slaves). */
	function lossLine(sec) {
		var lost = [], losses = 0, rejoins = 0;
		arr(S.slaves).forEach(function (s) {
			if (!isNum(s.losses) || s.losses <= 0)
				return;
			losses += s.losses;
			if (s.rejoined_at)
				rejoins++;
			lost.push(str(s.name) + " (" + str(s.host) + ") lost " +
				s.losses + "x" + (s.lost_at ? ", at " + str(s.lost_at) :
				"") + (s.rejoined_at ? ", rejoined at " +
				str(s.rejoined_at) : ", not back"));
		});
		sec.appendChild(el("p", { id: "losses", "class": losses ? "bad" :
			"meta", "data-losses": losses, "data-rejoins": rejoins },
		losses ? "Losses " + losses + ", rejoins " + rejoins + ": " +
			lost.join("; ") : "No slave was lost (" +
			arr(S.slaves).length + " slaves)."));
		if (arr(D.warnings).length)
			sec.appendChild(el("p", { "class": "bad" },
				arr(D.warnings).length + (arr(D.warnings).length === 1 ?
					" warning" : " warnings") + " about missing or " +
				"cut data (listed under Run details)."));
	}

	/* An event's figures (summary.json's recovery, events_out.c), the
	   recovery time on the figure it is judged by. */
	var RECOVERY = [["baseline IO/s", "baseline_iops", 1],
		["baseline p99 (ms)", "baseline_p99_ms", 3],
		["worst IO/s", "worst_iops", 1],
		["worst p99 (ms)", "worst_p99_ms", 3],
		["degraded after (s)", "time_to_degrade_s", 1],
		["recovered after (s)", "time_to_recover", 1],
		["rebuild (s)", "rebuild_s", 1],
		["I/O lost", "io_lost", 0], ["I/O delayed", "io_delayed", 0]];

	function recoveryOf(f) {
		var o = {};
		Object.keys(f).forEach(function (k) { o[k] = f[k]; });
		o.baseline_p99_ms = isNum(f.baseline_p99_us) ?
			f.baseline_p99_us / 1000 : null;
		o.worst_p99_ms = isNum(f.worst_p99_us) ? f.worst_p99_us / 1000 :
			null;
		o.time_to_recover = f.judged_on === "survivors" ?
			f.time_to_recover_survivors_s : f.time_to_recover_s;
		return o;
	}

	/*
	 * A failure run: the recovery table of its events next to its IOPS
	 * chart with the degraded (red) and recovered (green) spans shaded.
	 * The chart is the first run with figures; the table lists all.
	 */
	function failureStory(sec) {
		var evs = arr(S.events).filter(function (e) {
			return e && e.recovery && typeof e.recovery === "object" &&
				e.recovery.status !== "restore";
		});
		if (!evs.length)
			return;
		var grid = el("div", { "class": "summary-failure" });
		var left = el("div", {});
		left.appendChild(el("h3", {}, "Recovery"));
		/* A column an event: the figures read down, beside the chart. */
		var figs = evs.map(function (e) {
			return recoveryOf(e.recovery);
		});
		var head = [["run", "run"], ["status", "status"],
			["judged on", "judged_on"]].map(function (m) {
			return [m[0], m[1], null];
		}).concat(RECOVERY);
		left.appendChild(table(["figure"].concat(evs.map(function (e) {
			return str(e.name);
		})), head.map(function (m) {
			return row([m[0]].concat(evs.map(function (e, i) {
				var v = m[1] === "run" ? e.run : figs[i][m[1]];
				return el("td", { "class": m[2] === null ? "" : "num",
					"data-event": str(e.name), "data-key": m[1] },
				m[2] === null ? str(v) : fmt(v, m[2]));
			})));
		}), "recovery"));
		grid.appendChild(left);
		sec.appendChild(grid);
		var ax = runAxis(str(evs[0].run));
		if (!ax.s)
			return;
		var right = el("div", {});
		grid.appendChild(right);
		chart(right, "sf-iops", [{ label: "IOPS", color: PALETTE[0] }],
			align([[ax.s.t, ax.s.iops]]), {
				title: "Run " + str(evs[0].run) + ": IOPS, degraded " +
					"(red) and recovered (green)",
				xlabel: "seconds", ylabel: "IO/s", warm: ax.warm,
				from0: true, events: ax.events, height: 240,
				t0: ax.s.t0_ns,
				width: Math.max(420, Math.min(680, width() - 420)),
			});
	}

	function summary() {
		var sec = el("section", { id: "summary" });
		root.appendChild(sec);
		sec.appendChild(el("h2", {}, "Summary"));
		verdictLine(sec);
		keyFigures(sec);
		lossLine(sec);
		failureStory(sec);
		curves(sec);
	}

	/* ---- header ------------------------------------------------------ */

	function header() {
		var slaves = arr(S.slaves);
		var hosts = {};
		var losses = 0;
		slaves.forEach(function (s) {
			hosts[str(s.host)] = 1;
			if (isNum(s.losses))
				losses += s.losses;
		});
		var status = str(S.status);
		var h = el("section", { id: "run-header" });
		h.appendChild(el("h2", {}, "Run details"));
		var dl = el("dl", { "class": "facts" });
		function fact(k, v, cls) {
			dl.appendChild(el("dt", {}, k));
			dl.appendChild(el("dd", cls ? { "class": cls } : {}, v));
		}
		fact("parameter file", str(S.param_file));
		fact("results folder", str(main.dir));
		fact("run id", str(S.run_id));
		fact("status", status + " (exit " + str(S.exit_code) + ")",
			"status status-" + status.replace(/[^a-z]/g, ""));
		if (S.verdict !== undefined)
			fact("verdict", str(S.verdict), "status status-" +
				status.replace(/[^a-z]/g, ""));
		fact("started", str(S.started));
		fact("ended", str(S.ended));
		fact("hosts", String(Object.keys(hosts).length));
		fact("slaves", String(slaves.length));
		fact("losses", String(losses));
		fact("authentication", str(S.authentication) +
			(S.insecure ? " (insecure)" : ""));
		if (arr(S.incomplete_files).length)
			fact("incomplete files", arr(S.incomplete_files).map(str)
				.join(", "), "bad");
		if (base)
			fact("baseline", str(base.dir) + " (" + str(B.run_id) +
				", " + str(B.status) + ")");
		if (isNum(main.probes_between_runs))
			fact("probe samples between runs", main.probes_between_runs +
				" (on no run's axis, not drawn)");
		fact("report", str(D.generator) + ", " + str(D.generated));
		h.appendChild(dl);
		if (arr(D.warnings).length) {
			var ul = el("ul", { "class": "warnings" });
			arr(D.warnings).forEach(function (w) {
				ul.appendChild(el("li", {}, str(w)));
			});
			h.appendChild(el("h3", {}, "Missing or cut data"));
			h.appendChild(ul);
		}
		h.appendChild(el("h3", {}, "Slaves"));
		h.appendChild(table(["slave", "host", "state", "clock offset (ms)",
			"\u00b1 error (ms)", "losses", "lost at", "rejoined at",
			"rejected intervals", "invalid frames"],
		slaves.map(function (s) {
			return row([str(s.name), str(s.host), str(s.state),
				fmt(s.clock_offset_ns / 1e6, 3),
				fmt(s.clock_error_ns / 1e6, 3),
				str(s.losses), str(s.lost_at), str(s.rejoined_at),
				str(s.rejected_intervals), str(s.invalid_frames)]);
		}), "slaves"));
		h.appendChild(el("h3", {}, "Runs"));
		h.appendChild(table(["run", "kind", "start skew (ms)", "IOPS",
			"MB/s", "p99 (ms)", "steady state"],
		arr(S.runs).map(function (r) {
			var t = r.totals || {};
			var st = steadyOf(r);
			return row([str(r.name), str(r.kind),
				fmt(r.start_skew_ns / 1e6, 3), fmt(t.iops, 2),
				fmt(t.mbps, 2), fmt(t.lat_p99_ms, 4),
				el("td", { "class": "steady " + st.state,
					"data-steady": st.state }, st.short)]);
		}), "runs"));
		root.appendChild(h);
	}

	/*
	 * `lockstep compare` (another command) writes DIR/compare.json with
	 * its verdicts; they are shown here when the file is there.
	 */
	/* `lockstep compare`'s JSON: one table per run, a row per metric. */
	function compareRuns(sec, c) {
		sec.appendChild(el("p", {}, "Verdict: " + str(c.verdict) +
			" (" + str(c.test) + ", alpha " + str(c.alpha) + ")"));
		arr(c.conditions).forEach(function (x) {
			sec.appendChild(el("p", { "class": "warn" },
				"Changed condition: " + str(x)));
		});
		arr(c.unmatched).forEach(function (x) {
			sec.appendChild(el("p", { "class": "warn" }, "Unmatched run " +
				str(x && x.name) + " (only in " + str(x && x.only_in) +
				")"));
		});
		arr(c.runs).forEach(function (r) {
			var ms = (r && r.metrics) || {};
			sec.appendChild(el("h3", {}, "Run " + str(r && r.name) +
				": " + str(r && r.verdict)));
			sec.appendChild(table(["metric", "baseline", "candidate",
				"delta", "delta %", "verdict", "p"],
				Object.keys(ms).map(function (k) {
					var m = ms[k] || {};
					return row([k, fmt(m.baseline, 3),
						fmt(m.candidate, 3), fmt(m.delta, 3),
						fmt(m.delta_pct, 1),
						m.verdict === undefined ? "-" : str(m.verdict),
						isNum(m.p_value) ?
							m.p_value.toPrecision(3) : ""]);
				}), "compare"));
		});
	}

	function compareVerdicts() {
		var sec = el("section", { id: "compare-verdicts" });
		var c = base && D.compare_now !== undefined ? D.compare_now :
			main.compare;
		if (c === undefined) {
			if (!base)
				return;
			sec.appendChild(el("h2", {}, "Compare verdicts"));
			sec.appendChild(el("p", { "class": "empty" },
				"No compare.json in this folder (lockstep compare " +
				"writes its verdicts there)."));
			root.appendChild(sec);
			return;
		}
		sec.appendChild(el("h2", {}, "Compare verdicts"));
		if (c && typeof c === "object" && Array.isArray(c.runs) &&
		    c.verdict !== undefined) {
			compareRuns(sec, c);
			root.appendChild(sec);
			return;
		}
		var list = Array.isArray(c) ? c : arr(c && (c.verdicts ||
			c.runs || c.metrics));
		var objs = list.filter(function (x) {
			return x && typeof x === "object" && !Array.isArray(x);
		});
		if (objs.length) {
			var keys = [];
			objs.forEach(function (o) {
				Object.keys(o).forEach(function (k) {
					if (keys.indexOf(k) < 0 && keys.length < 12)
						keys.push(k);
				});
			});
			sec.appendChild(table(keys, objs.map(function (o) {
				return row(keys.map(function (k) {
					var v = o[k];
					return typeof v === "object" && v !== null ?
						JSON.stringify(v) : str(v);
				}));
			}), "compare"));
		} else {
			sec.appendChild(el("pre", {}, JSON.stringify(c, null, 2)));
		}
		root.appendChild(sec);
	}

	/* ---- per run ----------------------------------------------------- */

	var METRICS = [
		["IOPS", "iops", 2], ["MB/s", "mbps", 2], ["read %", "read_pct", 2],
		["ops", "ops", 0], ["read ops", "read_ops", 0],
		["write ops", "write_ops", 0], ["bytes", "bytes", 0],
		["read bytes", "read_bytes", 0], ["write bytes", "write_bytes", 0],
		["errors", "errors", 0],
		["response time (ms)", "lat_mean_ms", 4],
		["read response (ms)", "read_lat_mean_ms", 4],
		["write response (ms)", "write_lat_mean_ms", 4],
		["p50 (ms)", "lat_p50_ms", 4], ["p95 (ms)", "lat_p95_ms", 4],
		["p99 (ms)", "lat_p99_ms", 4], ["p99.9 (ms)", "lat_p999_ms", 4],
		["max (ms)", "lat_max_ms", 3], ["stddev (ms)", "lat_stddev_ms", 4],
		["queue depth", "queue_depth", 2], ["CPU %", "cpu_pct", 1],
		["CPU sys %", "cpu_sys_pct", 1],
	];

	/*
	 * A file-system run's operations (summary.json's "operations", as
	 * ops.csv's total rows): one row each, and the baseline's rate.
	 */
	function opsTable(box, r, b, idx) {
		var o = r.operations;
		if (!o || typeof o !== "object")
			return;
		var bo = b && b.operations && typeof b.operations === "object" ?
			b.operations : null;
		var names = Object.keys(o).filter(function (k) {
			return o[k] && typeof o[k] === "object";
		});
		if (!names.length)
			return;
		var head = ["operation", "count", "rate/s", "resp ms", "p50 ms",
			"p95 ms", "p99 ms", "max ms", "MB/s", "errors"];
		if (bo)
			head.push("baseline rate/s");
		box.appendChild(el("h3", {}, "Operations"));
		box.appendChild(el("p", { "class": "meta" }, "requested " +
			fmt(o.requested_rate, 2) + " ops/s, " +
			fmt(o.requested_resp_ms, 4) + " ms"));
		var rows = names.map(function (k) {
			var x = o[k];
			var cells = [k].concat([["count", 0], ["rate", 2],
				["resp_ms", 4], ["p50_ms", 4], ["p95_ms", 4],
				["p99_ms", 4], ["max_ms", 4]].map(function (m) {
				return el("td", { "class": "num", "data-key": m[0] },
					fmt(x[m[0]], m[1]));
			}));
			cells.push(el("td", { "class": "num" }, fmt(isNum(x.bytes) &&
				isNum(x.rate) && x.count > 0 ? x.bytes / x.count *
				x.rate / 1048576 : null, 4)));
			cells.push(el("td", { "class": "num", "data-key": "errors" },
				isNum(x.errors) ? String(x.errors) : "\u2014"));
			if (bo)
				cells.push(el("td", { "class": "num base" },
					fmt(bo[k] && bo[k].rate, 2)));
			var tr = row(cells);
			tr.setAttribute("data-op", k);
			return tr;
		});
		var tab = table(head, rows, "operations");
		tab.setAttribute("data-run", str(r.name));
		tab.id = "ops-" + idx;
		box.appendChild(tab);
	}

	function totalsTable(r, b, idx) {
		var t = r.totals || {};
		var bt = b ? b.totals || {} : null;
		var head = ["metric", "value"];
		if (bt)
			head = head.concat(["baseline", "\u0394 %"]);
		var rows = METRICS.map(function (m) {
			var cells = [m[0], el("td", { "class": "num", "data-key": m[1] },
				fmt(t[m[1]], m[2]))];
			if (bt) {
				var a = t[m[1]], c = bt[m[1]];
				cells.push(el("td", { "class": "num base" }, fmt(c, m[2])));
				var d = isNum(a) && isNum(c) && c !== 0 ?
					(a - c) / c * 100 : null;
				cells.push(el("td", { "class": "num delta" },
					d === null ? "\u2014" : (d >= 0 ? "+" : "") +
					d.toFixed(1)));
			}
			return row(cells);
		});
		var tab = table(head, rows, "totals");
		tab.setAttribute("data-run", str(r.name));
		tab.id = "totals-" + idx;
		return tab;
	}

	/*
	 * A run's time axis, as its cluster charts draw it: the cluster's
	 * series (intervals.csv), the warmup's end, its events and the last
	 * interval's end (the panels under the charts reach as far).
	 */
	function runAxis(name) {
		var s = byRun(main.intervals, name);
		var ax = { s: s, warm: 0, events: [], xmax: 0 };
		if (!s)
			return ax;
		arr(s.warmup).forEach(function (w, i) {
			if (w && isNum(s.t[i]))
				ax.warm = Math.max(ax.warm, s.t[i]);
		});
		arr(s.t).forEach(function (t) {
			if (isNum(t))
				ax.xmax = Math.max(ax.xmax, t);
		});
		ax.events = runEvents(name, s.t0_ns);
		return ax;
	}

	function clusterCharts(sec, name, idx, interval) {
		var ax = runAxis(name);
		var s = ax.s;
		var bs = base ? byRun(base.intervals, name) : null;
		if (!s) {
			sec.appendChild(el("p", { "class": "empty" },
				"No intervals of this run in intervals.csv."));
			return;
		}
		[["IOPS", "iops", "IO/s"], ["MB/s", "mbps", "MB/s"]].forEach(
			function (m, k) {
			var sets = [[s.t, s[m[1]]]];
			var series = [{ label: m[0], color: PALETTE[k] }];
			/* The reads' and the writes' IO/s, from their counts. */
			if (k === 0 && interval > 0 && hasNum(s.read_ops))
				[["reads", "read_ops", PALETTE[2]],
					["writes", "write_ops", PALETTE[4]]].forEach(
					function (d) {
						sets.push([s.t, arr(s[d[1]]).map(function (v) {
							return isNum(v) ? v / interval : null;
						})]);
						series.push({ label: d[0] + " IO/s", color: d[2],
							width: 1.5 });
					});
			if (bs) {
				sets.push([bs.t, bs[m[1]]]);
				series.push({ label: m[0] + " (baseline)",
					color: BASE_COLOR, dash: [6, 4] });
			}
			chart(sec, "c" + idx + "-" + m[1], series, align(sets), {
				title: "Cluster " + m[0] + " per interval (" +
					fmt(interval, 3) + " s)",
				xlabel: "seconds", ylabel: m[2], warm: ax.warm, from0: true,
				events: ax.events, listEvents: k === 0,
			});
			/* The probes' series under the IOPS chart, on its axis. */
			if (k === 0)
				probePanel(sec, name, idx, ax);
		});
		latencyChart(sec, name, idx, interval, ax, bs);
	}

	/*
	 * Latency per interval on a log axis (a 0.3 ms baseline stays
	 * visible beside a 4,800 ms stall): what intervals.csv has per
	 * interval (p99, p95, the mean, the reads' and writes' means), and
	 * the whole run's p50 and p99.9 (summary.json: intervals.csv has
	 * none per interval) as flat dotted lines.
	 */
	function latencyChart(sec, name, idx, interval, ax, bs) {
		var s = ax.s;
		var r = arr(S.runs).filter(function (x) {
			return x && x.name === name;
		})[0] || {};
		var t = r.totals || {};
		var sets = [], series = [];
		[["p99.9", "p999_ms", PALETTE[5]], ["p99", "p99_ms", PALETTE[1]],
			["p95", "p95_ms", PALETTE[3]], ["p50", "p50_ms", PALETTE[7]],
			["mean", "resp_ms", PALETTE[0]],
			["read mean", "read_resp_ms", PALETTE[2]],
			["write mean", "write_resp_ms", PALETTE[4]]].forEach(
			function (m) {
				if (!hasNum(s[m[1]]))
					return;
				sets.push([s.t, positive(s[m[1]])]);
				series.push({ label: m[0] + " (ms)", color: m[2],
					width: m[0] === "p99" ? 2.5 : 1.5 });
			});
		/* An older folder without them per interval: the run's. */
		[["run p50", "lat_p50_ms", "p50_ms"],
			["run p99.9", "lat_p999_ms", "p999_ms"]].forEach(
			function (m, k) {
				if (!isNum(t[m[1]]) || t[m[1]] <= 0 || hasNum(s[m[2]]))
					return;
				sets.push([s.t, arr(s.t).map(function () {
					return t[m[1]];
				})]);
				series.push({ label: m[0] + " (ms, whole run)",
					color: k ? PALETTE[5] : PALETTE[7], dash: [2, 4],
					width: 1.5 });
			});
		if (bs && hasNum(bs.p99_ms)) {
			sets.push([bs.t, positive(bs.p99_ms)]);
			series.push({ label: "p99 (baseline)", color: BASE_COLOR,
				dash: [6, 4] });
		}
		if (!series.length)
			return;
		chart(sec, "c" + idx + "-lat", series, align(sets), {
			title: "Latency per interval (" + fmt(interval, 3) +
				" s), log scale",
			xlabel: "seconds", ylabel: "ms (log)", warm: ax.warm,
			from0: true, ylog: true, events: ax.events,
		});
	}

	/*
	 * Hosts worst first: those the slow-host test flagged (summary.json's
	 * slow_hosts, in its order), then by how far the host is from the
	 * hosts' medians over the measured intervals, the larger of median
	 * IOPS / its IOPS and its p99 / median p99 (1: typical).
	 */
	function hostOrder(hosts, r) {
		var flagged = arr(r && r.slow_hosts && r.slow_hosts.hosts)
			.map(function (h) { return str(h.slave); });
		function median(vs) {
			var v = vs.filter(isNum).sort(function (a, b) { return a - b; });
			return v.length ? (v[(v.length - 1) >> 1] + v[v.length >> 1]) / 2 :
				null;
		}
		hosts.forEach(function (h) {
			h.iops = mean(measured(h.s, h.s.iops));
			h.mbps = mean(measured(h.s, h.s.mbps));
			h.p99 = mean(measured(h.s, positive(h.s.p99_ms)));
		});
		var mi = median(hosts.map(function (h) { return h.iops; }));
		var mp = median(hosts.map(function (h) { return h.p99; }));
		hosts.forEach(function (h) {
			var f = flagged.indexOf(h.slave);
			var ri = mi > 0 ? mi / Math.max(h.iops || 0, 1e-9) : 1;
			var rp = mp > 0 && isNum(h.p99) ? h.p99 / mp : 1;
			h.flag = f;
			h.score = Math.max(ri, rp);
			/* Why it is an outlier, in the words its cell shows. */
			h.why = h.score < OUTLIER ? "" : ri >= rp ?
				"IO/s " + fmt(1 / ri, 2) + "x the median" :
				"p99 " + fmt(rp, 1) + "x the median";
		});
		return hosts.slice().sort(function (a, b) {
			if ((a.flag >= 0) !== (b.flag >= 0))
				return a.flag >= 0 ? -1 : 1;
			if (a.flag !== b.flag)
				return a.flag - b.flag;
			return b.score - a.score || (a.slave < b.slave ? -1 : 1);
		});
	}

	/* A host this far from the hosts' medians (hostOrder's score) is
	   marked as an outlier on its small multiple. */
	var OUTLIER = 1.5;

	/* The overlay: every host on one IOPS and one p99 chart. */
	function hostOverlay(box, hosts, idx) {
		[["IOPS", "iops", "IO/s"], ["MB/s", "mbps", "MB/s"],
			["p99 latency", "p99_ms", "ms"]]
			.forEach(function (m) {
				var series = hosts.map(function (h, i) {
					return { label: h.slave,
						color: PALETTE[i % PALETTE.length] };
				});
				chart(box, "h" + idx + "-" + m[1], series,
					align(hosts.map(function (h) {
						return [h.s.t, m[1] === "p99_ms" ?
							positive(h.s[m[1]]) : h.s[m[1]]];
					})), {
						title: "Per host " + m[0] + (m[1] === "p99_ms" ?
							", log scale" : "") +
							" (click a name to hide it)",
						xlabel: "seconds", ylabel: m[2],
						from0: true, ylog: m[1] === "p99_ms",
					});
			});
	}

	/*
	 * Per host: small multiples (a small IOPS and p99 chart per host, all
	 * on the same scales, worst host first), or with the toggle (or the
	 * page opened as report.html#overlay) all hosts overlaid on one chart
	 * each, drawn when first asked for.
	 */
	function hostCharts(sec, name, idx, r) {
		var hosts = arr(main.hosts).map(function (h) {
			return { slave: str(h.slave), s: byRun(h.runs, name) };
		}).filter(function (h) {
			return h.s;
		});
		if (!hosts.length)
			return;
		hosts = hostOrder(hosts, r);
		var all = function (k) {
			var v = [];
			hosts.forEach(function (h) {
				arr(h.s[k]).forEach(function (x) {
					if (isNum(x) && (k !== "p99_ms" || x > 0))
						v.push(x);
				});
			});
			return v;
		};
		var ax = runAxis(name);
		var imax = most(all("iops")) || 1;
		var pv = all("p99_ms");
		var plo = least(pv), phi = most(pv);
		var tmax = most(all("t")) || 1;
		var head = el("h3", {}, "Per host (" + hosts.length +
			", worst first) ");
		var btn = el("button", { type: "button", "class": "host-toggle" },
			"overlay all hosts");
		head.appendChild(btn);
		sec.appendChild(head);
		sec.appendChild(el("p", { "class": "meta host-order" }, "Worst " +
			"first: the hosts the slow-host test flagged, then by how " +
			"far a host is from the hosts' medians over the measured " +
			"intervals (the larger of median IO/s / its IO/s and its " +
			"p99 / median p99); " + OUTLIER + "x or more is marked. " +
			"The IO/s charts share one scale, the p99 charts another " +
			"(log)."));
		var grid = el("div", { "class": "host-grid", "data-run": name,
			"data-order": hosts.map(function (h) { return h.slave; })
				.join(" ") });
		var over = el("div", { "class": "host-overlay", hidden: "hidden" });
		sec.appendChild(grid);
		sec.appendChild(over);
		var w = hosts.length > 1 ? 260 : width();
		hosts.forEach(function (h, i) {
			var cell = el("div", { "class": "host-cell" + (h.flag >= 0 ?
				" flagged" : "") + (h.why ? " outlier" : ""),
			"data-slave": h.slave, "data-score": fmt(h.score, 3) });
			/* Its name (and why it is first) over its figures. */
			cell.appendChild(el("h4", {}, el("span", { "class": "name" },
				h.slave + (h.flag >= 0 ? " (slow host)" : "") +
				(h.why ? ": " + h.why : "")), el("br"),
			fmt(h.iops, 0) + " IO/s, " + fmt(h.mbps, 1) + " MB/s, p99 " +
				fmt(h.p99, 3) + " ms"));
			grid.appendChild(cell);
			chart(cell, "h" + idx + "-" + i + "-iops", [{ label: "IO/s",
				color: PALETTE[0] }], [h.s.t, h.s.iops], {
				title: "", xlabel: "s", ylabel: "IO/s", from0: true,
				warm: ax.warm, events: ax.events, xmax: tmax,
				yrange: [0, imax * 1.05], width: w,
				height: 130, small: true });
			chart(cell, "h" + idx + "-" + i + "-p99", [{ label: "p99 ms",
				color: PALETTE[1] }], [h.s.t, positive(h.s.p99_ms)], {
				title: "", xlabel: "s", ylabel: "p99 ms", from0: true,
				warm: ax.warm, events: ax.events, xmax: tmax, ylog: true,
				width: w, height: 130,
				small: true, yrange: isNum(plo) ? [plo / 1.5, phi * 1.5] :
					undefined });
		});
		function overlay(on) {
			if (on && !over.firstChild)
				hostOverlay(over, hosts, idx);
			if (on) {
				over.removeAttribute("hidden");
				grid.setAttribute("hidden", "hidden");
			} else {
				grid.removeAttribute("hidden");
				over.setAttribute("hidden", "hidden");
			}
			btn.textContent = on ? "one chart per host" :
				"overlay all hosts";
			sec.setAttribute("data-hosts-view", on ? "overlay" : "multiples");
		}
		var on = hashHas("overlay");
		btn.addEventListener("click", function () {
			on = !on;
			overlay(on);
		});
		overlay(on);
	}

	/* ---- devices, hosts and probes (devices.csv, hoststats.csv,
	   probes.csv; absent in older folders: then no panel) ------------- */

	/* The numbers of a that are finite, over the measured rows of s
	   (all rows when none is measured). */
	function measured(s, a) {
		var w = arr(s.warmup);
		var any = w.some(function (x) { return !x; });
		return arr(a).filter(function (v, i) {
			return isNum(v) && (!any || !w[i]);
		});
	}

	function mean(vs) {
		return vs.length ? vs.reduce(function (a, b) { return a + b; }) /
			vs.length : null;
	}

	function least(vs) {
		return vs.length ? vs.reduce(function (a, b) {
			return Math.min(a, b);
		}) : null;
	}

	/* A probe's number as it is, to 6 significant digits. */
	function num(v) {
		return isNum(v) ? String(Number(v.toPrecision(6))) : "\u2014";
	}

	function most(vs) {
		return vs.length ? vs.reduce(function (a, b) {
			return Math.max(a, b);
		}) : null;
	}

	function hasNum(a) {
		return arr(a).some(isNum);
	}

	/* On a log axis a value that is not above 0 is a gap. */
	function positive(a) {
		return arr(a).map(function (v) {
			return isNum(v) && v > 0 ? v : null;
		});
	}

	/* Per element a + b of two series (one of them alone if the other
	   is missing there). */
	function plus(a, b) {
		return arr(a).map(function (v, i) {
			var w = arr(b)[i];
			return isNum(v) ? (isNum(w) ? v + w : v) : (isNum(w) ? w : null);
		});
	}

	/* A chart only when a series has a number: "no data" is never drawn
	   for a panel the files do not fill. */
	function panelChart(box, id, series, sets, opts) {
		var drawn = sets.some(function (st) { return hasNum(st[1]); });
		if (!drawn)
			return false;
		var data = align(sets);
		opts.points = opts.points || data[0].length < 3;
		opts.height = opts.height || 190;
		chart(box, id, series, data, opts);
		return true;
	}

	/* The hosts a panel's charts draw, busiest first: a legend of
	   hundreds of lines is read by nobody; the table lists them all. */
	function fewHosts(box, hosts) {
		if (hosts.length > HOSTS_DRAWN)
			box.appendChild(el("p", { "class": "meta" }, hosts.length +
				" hosts: the charts draw the " + HOSTS_DRAWN +
				" busiest, the table lists every one."));
		return hosts.slice(0, HOSTS_DRAWN);
	}

	function panel(sec, cls, idx, name, title) {
		var box = el("div", { "class": "panel " + cls, id: cls + "-" + idx,
			"data-run": name });
		box.appendChild(el("h3", {}, title));
		sec.appendChild(box);
		return box;
	}

	/*
	 * Devices: each host's device await (reads solid, writes dashed) next
	 * to the application's mean response time the slaves measured, on a
	 * log axis, and each host's util% (its busiest device), busiest
	 * hosts first, one colour a host in both charts.
	 */
	function devicePanel(sec, name, idx, ax) {
		var d = byRun(main.devices, name);
		if (!d)
			return;
		var cl = d.cluster && typeof d.cluster === "object" &&
			["r_await_ms", "w_await_ms", "util_pct"].some(function (k) {
				return hasNum(d.cluster[k]);
			}) ? d.cluster : null;
		var hosts = arr(d.hosts).filter(function (h) {
			return h && ["r_await_ms", "w_await_ms", "util_pct", "r_s",
				"w_s"].some(function (k) { return hasNum(h[k]); });
		}).map(function (h) {
			return { h: h, util: mean(measured(h, h.util_pct)),
				await: most(measured(h, h.r_await_ms).concat(measured(h,
					h.w_await_ms))) };
		}).sort(function (a, b) {
			return (b.util || 0) - (a.util || 0) ||
				(b.await || 0) - (a.await || 0);
		});
		if (!hosts.length && !cl)
			return;
		var box = panel(sec, "devices", idx, name, "Devices");
		var drawn = fewHosts(box, hosts);
		var opts = function (title, ylabel) {
			return { title: title, xlabel: "seconds", ylabel: ylabel,
				from0: true, xmax: ax.xmax, warm: ax.warm,
				events: ax.events };
		};
		var series = [], sets = [];
		if (ax.s && hasNum(ax.s.resp_ms)) {
			series.push({ label: "application response time (slaves)",
				color: APP_COLOR, width: 3 });
			sets.push([ax.s.t, positive(ax.s.resp_ms)]);
		}
		if (cl) {
			series.push({ label: "all devices r await", color: CLUSTER_COLOR,
				dash: [8, 4] });
			sets.push([cl.t, positive(cl.r_await_ms)]);
			series.push({ label: "all devices w await", color: CLUSTER_COLOR,
				dash: [2, 3] });
			sets.push([cl.t, positive(cl.w_await_ms)]);
		}
		drawn.forEach(function (x, i) {
			var c = PALETTE[i % PALETTE.length];
			series.push({ label: str(x.h.host) + " r await", color: c });
			sets.push([x.h.t, positive(x.h.r_await_ms)]);
			series.push({ label: str(x.h.host) + " w await", color: c,
				dash: [6, 3] });
			sets.push([x.h.t, positive(x.h.w_await_ms)]);
		});
		var o = opts("Device await per host and application response " +
			"time (log)", "ms");
		o.ylog = true;
		/* Without a device's await the slaves' line alone says nothing
		   about the devices: no chart. */
		if (sets.some(function (st, i) {
			return series[i].color !== APP_COLOR && hasNum(st[1]);
		}))
			panelChart(box, "dv" + idx + "-await", series, sets, o);
		series = [];
		sets = [];
		if (cl) {
			series.push({ label: "busiest device", color: CLUSTER_COLOR,
				dash: [8, 4] });
			sets.push([cl.t, cl.util_pct]);
		}
		drawn.forEach(function (x, i) {
			series.push({ label: str(x.h.host),
				color: PALETTE[i % PALETTE.length] });
			sets.push([x.h.t, x.h.util_pct]);
		});
		o = opts("Device util% per host (its busiest device)", "util %");
		o.yrange = [0, 100];
		panelChart(box, "dv" + idx + "-util", series, sets, o);
		if (!hosts.length)
			return;
		box.appendChild(table(["host", "devices", "IO/s", "r await (ms)",
			"w await (ms)", "util % mean", "util % max"],
		hosts.map(function (x) {
			var h = x.h;
			return row([str(h.host), arr(h.devices).map(str).join(" "),
				fmt(mean(measured(h, plus(h.r_s, h.w_s))), 1),
				fmt(mean(measured(h, h.r_await_ms)), 3),
				fmt(mean(measured(h, h.w_await_ms)), 3),
				fmt(x.util, 1), fmt(most(measured(h, h.util_pct)), 1)]);
		}), "devices"));
	}

	/*
	 * Hosts: each host's CPU (user+sys solid, iowait dashed, steal
	 * dotted, of all its cores) and its NICs' MB/s where one was named;
	 * the table adds the slaves' own CPU and the pressure stalls (PSI)
	 * over the measured intervals.
	 */
	function hostPanel(sec, name, idx, ax) {
		var d = byRun(main.hoststats, name);
		if (!d)
			return;
		var hosts = arr(d.hosts).filter(function (h) {
			return h && ["cpu_user_pct", "cpu_sys_pct", "cpu_iowait_pct",
				"cpu_steal_pct", "psi_io_some_pct"].some(function (k) {
				return hasNum(h[k]);
			});
		}).map(function (h) {
			var busy = plus(plus(h.cpu_user_pct, h.cpu_sys_pct),
				plus(h.cpu_iowait_pct, h.cpu_steal_pct));
			return { h: h, busy: mean(measured(h, busy)) };
		}).sort(function (a, b) {
			return (b.busy || 0) - (a.busy || 0);
		});
		var nics = arr(d.nics).filter(function (n) {
			return n && (hasNum(n.rx_mbps) || hasNum(n.tx_mbps));
		});
		if (!hosts.length && !nics.length)
			return;
		var box = panel(sec, "hosts", idx, name, "Hosts");
		var drawn = fewHosts(box, hosts);
		var opts = function (title, ylabel, yrange) {
			return { title: title, xlabel: "seconds", ylabel: ylabel,
				from0: true, xmax: ax.xmax, warm: ax.warm,
				events: ax.events, yrange: yrange };
		};
		var series = [], sets = [];
		drawn.forEach(function (x, i) {
			var c = PALETTE[i % PALETTE.length], h = x.h;
			series.push({ label: str(h.host) + " user+sys", color: c });
			sets.push([h.t, plus(h.cpu_user_pct, h.cpu_sys_pct)]);
			series.push({ label: str(h.host) + " iowait", color: c,
				dash: [6, 3] });
			sets.push([h.t, h.cpu_iowait_pct]);
			series.push({ label: str(h.host) + " steal", color: c,
				dash: [2, 3] });
			sets.push([h.t, h.cpu_steal_pct]);
		});
		panelChart(box, "hs" + idx + "-cpu", series, sets,
			opts("Host CPU (% of all its cores)", "%", [0, 100]));
		series = [];
		sets = [];
		if (nics.length > HOSTS_DRAWN)
			box.appendChild(el("p", { "class": "meta" }, nics.length +
				" NICs: the chart draws the first " + HOSTS_DRAWN + "."));
		nics.slice(0, HOSTS_DRAWN).forEach(function (n, i) {
			var c = PALETTE[i % PALETTE.length];
			var lab = str(n.host) + " " + str(n.nic);
			series.push({ label: lab + " rx", color: c });
			sets.push([n.t, n.rx_mbps]);
			series.push({ label: lab + " tx", color: c, dash: [6, 3] });
			sets.push([n.t, n.tx_mbps]);
		});
		panelChart(box, "hs" + idx + "-nic", series, sets,
			opts("NIC MB/s (rx solid, tx dashed)", "MB/s"));
		if (!hosts.length)
			return;
		box.appendChild(table(["host", "slaves", "user+sys %", "iowait %",
			"steal %", "slaves' CPU %", "PSI io %", "PSI cpu %",
			"PSI memory %"],
		hosts.map(function (x) {
			var h = x.h;
			return row([str(h.host), str(h.slaves),
				fmt(mean(measured(h, plus(h.cpu_user_pct,
					h.cpu_sys_pct))), 1),
				fmt(mean(measured(h, h.cpu_iowait_pct)), 1),
				fmt(mean(measured(h, h.cpu_steal_pct)), 1),
				fmt(mean(measured(h, h.slave_cpu_pct)), 1),
				fmt(mean(measured(h, h.psi_io_some_pct)), 1),
				fmt(mean(measured(h, h.psi_cpu_some_pct)), 1),
				fmt(mean(measured(h, h.psi_mem_some_pct)), 1)]);
		}), "hoststats"));
	}

	/*
	 * A file-system run's operations per interval (ops.csv): each
	 * operation's rate, and its mean response time on a log axis, one
	 * colour an operation in both charts, on the run's time axis.
	 */
	function opsPanel(sec, name, idx, ax) {
		var d = byRun(main.ops, name);
		if (!d || !arr(d.ops).length)
			return;
		var box = panel(sec, "ops", idx, name, "Operations per interval");
		var ops = arr(d.ops);
		var series = function (unit) {
			return ops.map(function (o, i) {
				return { label: str(o.op) + " " + unit,
					color: PALETTE[i % PALETTE.length] };
			});
		};
		var common = function (title, ylabel, ylog) {
			return { title: title, xlabel: "seconds", ylabel: ylabel,
				ylog: ylog, from0: true, xmax: ax.xmax, warm: ax.warm,
				events: ax.events };
		};
		panelChart(box, "ops-rate-" + idx, series("ops/s"),
			ops.map(function (o) { return [o.t, o.rate]; }),
			common("Operations per second", "ops/s", false));
		panelChart(box, "ops-resp-" + idx, series("ms"),
			ops.map(function (o) {
				/* A log axis: an interval without one is a gap. */
				return [o.t, arr(o.resp_ms).map(function (v) {
					return isNum(v) && v > 0 ? v : null;
				})];
			}), common("Operations' mean response time", "ms", true));
	}

	/*
	 * Probes: each key a probe gave, a chart of its own (its own y axis)
	 * on the run's time axis, under the IOPS chart; a sample that was not
	 * ok is counted in the table, not drawn.
	 */
	function probePanel(sec, name, idx, ax) {
		var d = byRun(main.probes, name);
		if (!d || !arr(d.probes).length)
			return;
		var box = panel(sec, "probes", idx, name, "Probes");
		var rows = [], n = 0;
		arr(d.probes).forEach(function (p) {
			var st = p.status && typeof p.status === "object" ? p.status : {};
			var bad = ["timeout", "exit", "signal", "unparsed"].filter(
				function (k) {
					return isNum(st[k]) && st[k] > 0;
				}).map(function (k) {
				return k + " " + st[k];
			}).join(", ");
			var keys = arr(p.keys);
			if (!keys.length)
				rows.push(row([str(p.probe), "\u2014", "0", "\u2014",
					"\u2014", "\u2014", bad || "\u2014"]));
			keys.forEach(function (k) {
				var label = str(p.probe) + (str(k.key) ? " " + str(k.key) :
					"");
				var vs = arr(k.value).filter(isNum);
				panelChart(box, "pr" + idx + "-" + n++, [{ label: label,
					color: PALETTE[(n - 1) % PALETTE.length] }],
				[[k.t, k.value]], { title: "Probe " + label,
					xlabel: "seconds", ylabel: str(k.key) || str(p.probe),
					from0: true, xmax: ax.xmax, warm: ax.warm,
					events: ax.events, height: 150 });
				rows.push(row([str(p.probe), str(k.key), String(vs.length),
					num(least(vs)), num(most(vs)),
					num(vs.length ? vs[vs.length - 1] : null),
					bad || "\u2014"]));
			});
		});
		box.appendChild(table(["probe", "key", "samples", "min", "max",
			"last", "not ok"], rows, "probes"));
	}

	/* HdrHistogram's plot: value against 1/(1-percentile), log x. */
	function hgrmSet(h) {
		var xs = [], ys = [];
		if (!h)
			return [xs, ys];
		arr(h.percentile).forEach(function (p, i) {
			if (p < 1) {
				xs.push(1 / (1 - p));
				ys.push(arr(h.value_ms)[i]);
			}
		});
		return [xs, ys];
	}

	function pctLabel(u, splits) {
		return splits.map(function (v) {
			var p = (1 - 1 / v) * 100;
			return v === null ? "" : (p < 99.99 ? p.toFixed(p % 1 ? 2 : 0) :
				p.toPrecision(7).replace(/0+$/, "")) + "%";
		});
	}

	function hgrmChart(sec, name, idx) {
		var h = byRun(main.hgrm, name);
		var bh = base ? byRun(base.hgrm, name) : null;
		if (!h)
			return;
		var sets = [hgrmSet(h)];
		var series = [{ label: "latency (ms)", color: PALETTE[4] }];
		if (bh) {
			sets.push(hgrmSet(bh));
			series.push({ label: "baseline (ms)", color: BASE_COLOR,
				dash: [6, 4] });
		}
		chart(sec, "d" + idx, series, align(sets), {
			title: "Latency by percentile (" + str(h.file) + ")",
			xlabel: "percentile", ylabel: "ms", xlog: true,
			xvalues: pctLabel,
			xfmt: function (v) {
				return pctLabel(null, [v])[0];
			},
		});
	}

	/*
	 * iorate=curve: a curve-max run and the curve points after it, in
	 * parent (the summary). The points make the curve; the max run, at
	 * another load (as fast as it goes), is a marker of its own, not
	 * joined to them.
	 */
	function curves(parent) {
		var groups = [], cur = null;
		arr(S.runs).forEach(function (r) {
			if (r.kind === "curve-max") {
				cur = { runs: [r] };
				groups.push(cur);
			} else if (r.kind === "curve-point" && cur) {
				cur.runs.push(r);
			} else {
				cur = null;
			}
		});
		groups.forEach(function (g, gi) {
			var sec = el("section", { "class": "curve", id: "curve-" + gi });
			parent.appendChild(sec);
			var first = str(g.runs[0].name).replace(/ curve=max$/, "");
			sec.appendChild(el("h2", {}, "Curve " + first +
				": IOPS against response time"));
			/* The knee lockstep found (summary.json's curves, sink_knee.c). */
			var kc = arr(S.curves).filter(function (c) {
				return c && c.max_run === g.runs[0].name;
			})[0] || null;
			var knee = kc && kc.knee && typeof kc.knee === "object" ?
				kc.knee : null;
			var pts = g.runs.map(function (r) {
				var t = r.totals || {};
				return { name: str(r.name), iops: t.iops,
					resp: t.lat_mean_ms, p99: t.lat_p99_ms,
					max: r.kind === "curve-max" };
			}).filter(function (p) {
				return isNum(p.iops);
			}).sort(function (a, b) {
				return a.iops - b.iops;
			});
			var line = pts.filter(function (p) { return !p.max; });
			var mx = pts.filter(function (p) { return p.max; });
			var sets = [[line.map(function (p) { return p.iops; }),
				line.map(function (p) { return p.resp; })],
				[line.map(function (p) { return p.iops; }),
				line.map(function (p) { return p.p99; })]];
			var series = [{ label: "response time (ms)", color: PALETTE[0] },
				{ label: "p99 (ms)", color: PALETTE[1] }];
			if (mx.length) {
				sets.push([mx.map(function (p) { return p.iops; }),
					mx.map(function (p) { return p.resp; })]);
				series.push({ label: "max run, response time (ms)",
					color: PALETTE[3], pointsOnly: true });
			}
			if (B) {
				var bp = arr(B.runs).filter(function (r) {
					return r.kind !== "curve-max" &&
						g.runs.some(function (x) {
							return x.name === r.name;
						});
				}).map(function (r) {
					return r.totals || {};
				}).filter(function (t) {
					return isNum(t.iops);
				}).sort(function (a, b) {
					return a.iops - b.iops;
				});
				if (bp.length) {
					sets.push([bp.map(function (t) { return t.iops; }),
						bp.map(function (t) { return t.lat_mean_ms; })]);
					series.push({ label: "baseline response time (ms)",
						color: BASE_COLOR, dash: [6, 4] });
				}
			}
			chart(sec, "k" + gi, series, align(sets), {
				title: "IOPS against response time (the max run a " +
					"marker of its own)", xlabel: "IOPS",
				ylabel: "ms", points: true, height: 300,
				mark: knee && isNum(knee.iops) && isNum(knee.resp_ms) ?
					{ x: knee.iops, y: knee.resp_ms, label: "knee" } :
					null,
			});
			if (kc)
				sec.appendChild(el("p", { "class": "knee",
					"data-run": knee ? str(knee.run) : "" }, knee ?
					"Knee at " + str(knee.pct) + "% (" + str(knee.run) +
					": " + fmt(knee.iops, 0) + " IO/s, response time " +
					fmt(knee.resp_ms, 3) + " ms): " + (knee.at_max_iops ?
					"the curve's most IOPS; beyond it response time " +
					"rises " + fmt(knee.resp_growth, 1) +
					"x with no more IOPS" :
					"beyond it response time rises " +
					fmt(knee.rise_ratio, 1) + "x faster than IOPS") +
					" (" + str(kc.method) + ")" :
					"No knee: " + str(kc.no_knee)));
			sec.appendChild(table(["run", "IOPS", "response time (ms)",
				"p99 (ms)", "knee"], pts.map(function (p) {
				var at = knee && knee.run === p.name;
				var tr = row([p.name, fmt(p.iops, 2), fmt(p.resp, 4),
					fmt(p.p99, 4), at ? "\u25c0 knee" : p.max ?
					"max run (not on the curve)" : ""]);
				if (at)
					tr.setAttribute("class", "knee");
				return tr;
			}), "curve-points"));
		});
	}

	/*
	 * A badge per slow host (sink_slowhost.c) and per slow sd
	 * (sink_slowsd.c) the run's test named: cls its class, word and key
	 * the unit's word and its name's key ("host", "slave").
	 */
	function slowUnits(sec, list, cls, word, key) {
		arr(list).forEach(function (h) {
			var what = [];
			if (h.latency)
				what.push("p99 " + fmt(h.p99_ratio, 2) +
					"x the others, median " +
					fmt(h.median_ratio, 2) + "x");
			if (h.io_share)
				what.push("I/Os " + fmt(h.io_share_ratio, 2) +
					"x its share");
			sec.appendChild(el("p", { "class": "badge " + cls },
				"slow " + word + " " + str(h[key]) + ": " +
				what.join(", ") + " (" + (h.p < 0.001 ?
					"p<0.001" : "p=" + fmt(h.p, 3)) +
				") in " + str(h.intervals_flagged) + " of " +
				str(h.intervals_judged) + " intervals"));
		});
	}

	function slowHosts(sec, sh) {
		if (sh && typeof sh === "object")
			slowUnits(sec, sh.hosts, "slow-host", "host", "slave");
	}

	function slowSds(sec, ss) {
		if (ss && typeof ss === "object")
			slowUnits(sec, ss.sds, "slow-sd", "sd", "sd");
	}

	/* A badge per generator-bound host of the run (sink_genwarn.c). */
	function generatorBound(sec, r) {
		arr(r.generator_warnings).forEach(function (g) {
			var what = arr(g.warnings).map(function (k) {
				return k === "cpu" ? "CPU " + fmt(g.cpu_pct_mean, 0) +
					"% of its cores (limit " +
					fmt(g.cpu_pct_limit, 0) + "%), " +
					fmt(g.runq_per_core_mean, 1) +
					" workers a core waiting" :
					k === "inflight" ? str(g.inflight) +
					" I/Os in flight (" +
					fmt(g.inflight_per_core, 0) + " a core, budget " +
					str(g.inflight_budget_per_core) + ")" :
					k === "schedule_lag" ? "scheduled I/Os " +
					fmt(g.schedule_lag_mean_us, 1) +
					" us late with a slot free (" +
					fmt(g.schedule_lag_pct_of_latency, 0) +
					"% of the latency)" : str(k);
			});
			sec.appendChild(el("p", { "class": "badge generator-bound" },
				"generator-bound: host " + str(g.host) + " (" +
				str(g.slaves) + " slaves, " + str(g.cores) +
				" cores): " + what.join("; ") + " in " +
				str(g.intervals_over_limit) + " of " +
				str(g.intervals) + " intervals; the numbers " +
				"measure the generator as much as the storage"));
		});
	}

	/* The answer of an SLO search, on its max run (sink_slo.c). */
	function sloAnswer(sec, r) {
		arr(S.slo).forEach(function (s) {
			if (s.max_run !== r.name)
				return;
			sec.appendChild(el("p", { "class": "badge slo" +
				(s.end === "found" || s.end === "max_meets" ? "" :
					" slo-open"), "data-end": str(s.end) },
				str(s.said)));
		});
	}

	function runs() {
		var names = arr(S.runs).map(function (r) {
			return r;
		});
		/* Runs with rows but no summary entry (an aborted run). */
		arr(main.intervals).forEach(function (s) {
			if (!names.some(function (r) { return r.name === s.run; }))
				names.push({ name: s.run, kind: "(not in summary.json)" });
		});
		names.forEach(function (r, idx) {
			var name = str(r.name);
			var sec = el("section", { "class": "run", id: "run-" + idx });
			var b = B ? arr(B.runs).filter(function (x) {
				return x.name === r.name;
			})[0] : null;
			sec.appendChild(el("h2", {}, "Run " + name));
			var iv = byRun(main.intervals, name);
			curT0 = iv && isNum(iv.t0_ns) ? iv.t0_ns : null;
			sec.appendChild(el("p", { "class": "meta" }, str(r.kind) +
				(curT0 !== null ? "; started " + utcDate(curT0) : "") +
				"; elapsed " + str(r.elapsed_s) + " s, warmup " +
				str(r.warmup_s) + " s, interval " + str(r.interval_s) +
				" s, start skew " + fmt(r.start_skew_ns / 1e6, 3) +
				" ms" + (b ? "; baseline overlaid (grey, dashed)" : "")));
			slowHosts(sec, r.slow_hosts);
			slowSds(sec, r.slow_sds);
			generatorBound(sec, r);
			sloAnswer(sec, r);
			/* Not steady or not judged: said at the top of the run. */
			var st = steadyOf(r);
			if (st.state)
				sec.appendChild(el("p", { "class": "badge " + st.state,
					"data-run": name, "data-steady": st.state }, st.text));
			var grid = el("div", { "class": "run-grid" });
			var left = el("div", { "class": "totals-box" });
			left.appendChild(el("h3", {}, "Totals"));
			if (r.totals)
				left.appendChild(totalsTable(r, b, idx));
			opsTable(left, r, b, idx);
			sec.appendChild(grid);
			grid.appendChild(left);
			root.appendChild(sec);
			clusterCharts(sec, name, idx, r.interval_s);
			opsPanel(sec, name, idx, runAxis(name));
			var hm = byRun(main.heatmap, name);
			if (hm && window.lsHeatmap)
				window.lsHeatmap(sec, hm, "hm" + idx, { el: el,
					charts: charts, width: width(),
					tick: CLOCK && isNum(hm.t0_ns) ? function (v) {
						return clockOf(hm.t0_ns, v);
					} : function (v) { return v + " s"; } });
			hostCharts(sec, name, idx, r);
			devicePanel(sec, name, idx, runAxis(name));
			hostPanel(sec, name, idx, runAxis(name));
			hgrmChart(sec, name, idx);
			curT0 = null;
		});
	}

	/* ---- self-check -------------------------------------------------- */

	function rgb(hex) {
		return [1, 3, 5].map(function (i) {
			return parseInt(hex.substr(i, 2), 16);
		});
	}

	/*
	 * Count, for every chart, the pixels painted in its series' own
	 * colours, and write it into the page (data-series-px), with each
	 * canvas's place on the page (data-rect, CSS pixels): a test reads
	 * these back from the DOM and from a screenshot.
	 */
	function selfCheck(ms, t1) {
		var blank = 0;
		charts.forEach(function (c) {
			var cv = c.plot.ctx.canvas;
			var img = c.plot.ctx.getImageData(0, 0, cv.width, cv.height).data;
			var cols = c.colors.map(rgb), n = 0;
			for (var i = 0; i < img.length; i += 4) {
				if (img[i + 3] < 200)
					continue;
				for (var k = 0; k < cols.length; k++) {
					if (Math.abs(img[i] - cols[k][0]) < 24 &&
						Math.abs(img[i + 1] - cols[k][1]) < 24 &&
						Math.abs(img[i + 2] - cols[k][2]) < 24) {
						n++;
						break;
					}
				}
			}
			var r = cv.getBoundingClientRect();
			c.box.setAttribute("data-series-px", String(n));
			/* A uPlot chart's plot area (the axes are around it; a
			   heat map is its own canvas). */
			if (c.plot.over) {
				var o = c.plot.over.getBoundingClientRect();

				c.box.setAttribute("data-plot", [Math.round(o.left +
					window.scrollX), Math.round(o.top + window.scrollY),
				Math.round(o.width), Math.round(o.height)].join(","));
			}
			c.box.setAttribute("data-colors", c.colors.join(" "));
			c.box.setAttribute("data-rect", [Math.round(r.left +
				window.scrollX), Math.round(r.top + window.scrollY),
			Math.round(r.width), Math.round(r.height)].join(","));
			if (n === 0)
				blank++;
		});
		/* For the tests only: nothing of it shows on the page. data-ms:
		   the page drawn (the script's run and this check) in ms;
		   data-load-ms: since the page began loading (its JSON read). */
		var sc = el("p", { id: "selfcheck", hidden: "hidden",
			"data-charts": charts.length, "data-blank": blank,
			"data-height": document.documentElement.scrollHeight + 40,
			"data-ms": Math.round(ms + now() - t1),
			"data-load-ms": Math.round(now()) });
		root.appendChild(sc);
	}

	/* The page; drawn again when the time axis changes. */
	function render() {
		var t0 = now();
		/* The charts of the page drawn before go with it. */
		charts.forEach(function (c) {
			c.plot.destroy();
		});
		while (root.firstChild)
			root.removeChild(root.firstChild);
		charts.length = 0;
		var btn = el("button", { type: "button", "class": "clock-toggle",
			"data-clock": CLOCK ? "utc" : "run" }, CLOCK ?
			"time axes: UTC (show seconds of the run)" :
			"time axes: seconds of the run (show UTC)");
		btn.addEventListener("click", function () {
			CLOCK = !CLOCK;
			render();
		});
		root.appendChild(el("h1", {}, "lockstep report ", btn));
		summary();
		header();
		compareVerdicts();
		runs();
		/* uPlot draws on the next microtask; check after it did. */
		var ms = now() - t0;
		setTimeout(function () {
			selfCheck(ms, now());
		}, 0);
	}
	render();
}());
