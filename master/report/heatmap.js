/*
 * lockstep report: the latency heat map of a run (histograms.csv, read by
 * master/report/heatmap.c): time across, latency up on a log axis (one
 * row a quarter octave), the I/Os of each cell as colour on a log scale.
 * A bimodal device is two bands, a stall a column that climbs. Loaded
 * before page.js, which calls window.lsHeatmap for each run; every
 * string is shown with textContent only.
 */
"use strict";
window.lsHeatmap = (function () {
	/* viridis, 5 stops: few I/Os dark blue, most yellow. */
	var STOPS = [[68, 1, 84], [59, 82, 139], [33, 145, 140],
		[94, 201, 98], [253, 231, 37]];
	var HEX = STOPS.map(function (c) {
		return "#" + c.map(function (v) {
			return (v < 16 ? "0" : "") + v.toString(16);
		}).join("");
	});
	var LEFT = 64, BOTTOM = 34, TOP = 8, RIGHT = 12, HEIGHT = 260;

	function colour(f) {
		var x = Math.max(0, Math.min(1, f)) * (STOPS.length - 1);
		var i = Math.min(STOPS.length - 2, Math.floor(x)), t = x - i;
		return "rgb(" + [0, 1, 2].map(function (k) {
			return Math.round(STOPS[i][k] +
				(STOPS[i + 1][k] - STOPS[i][k]) * t);
		}).join(",") + ")";
	}

	function latLabel(ns) {
		if (ns >= 1e9)
			return ns / 1e9 + " s";
		if (ns >= 1e6)
			return ns / 1e6 + " ms";
		if (ns >= 1e3)
			return ns / 1e3 + " µs";
		return ns + " ns";
	}

	/* The cells of a direction ("all": read and write summed). */
	function cells(hm, dir) {
		var r = hm.read || [], w = hm.write || [];
		return r.map(function (col, i) {
			return col.map(function (c, b) {
				var v = dir === "read" ? c : dir === "write" ?
					(w[i] || [])[b] || 0 : c + ((w[i] || [])[b] || 0);
				return Number(v) || 0;
			});
		});
	}

	/*
	 * Draw hm in canvas cv (its size set here) for dir; returns what it
	 * drew: the I/Os of its cells and the busiest cell.
	 */
	function draw(cv, hm, dir, w, tick) {
		var g = cells(hm, dir), edges = hm.edges_ns || [];
		var nb = Math.max(1, edges.length - 1), nc = Math.max(1, g.length);
		var pw = w - LEFT - RIGHT, ph = HEIGHT - TOP - BOTTOM;
		var ctx = cv.getContext("2d"), max = 0, total = 0;
		var t = hm.t || [], te = hm.t_end || [];
		cv.width = w;
		cv.height = HEIGHT;
		ctx.fillStyle = "#ffffff";
		ctx.fillRect(0, 0, w, HEIGHT);
		g.forEach(function (col) {
			col.forEach(function (c) {
				total += c;
				if (c > max)
					max = c;
			});
		});
		var lmax = Math.log(1 + max) || 1;
		var cw = pw / nc, ch = ph / nb;
		g.forEach(function (col, i) {
			col.forEach(function (c, b) {
				if (!c)
					return;
				ctx.fillStyle = colour(Math.log(1 + c) / lmax);
				ctx.fillRect(LEFT + i * cw, TOP + ph - (b + 1) * ch,
					Math.ceil(cw), Math.ceil(ch));
			});
		});
		/* Warmup columns: greyed over. */
		ctx.fillStyle = "rgba(255,255,255,0.55)";
		(hm.warmup || []).forEach(function (wu, i) {
			if (wu)
				ctx.fillRect(LEFT + i * cw, TOP, Math.ceil(cw), ph);
		});
		ctx.strokeStyle = "#888";
		ctx.strokeRect(LEFT, TOP, pw, ph);
		ctx.fillStyle = "#333";
		ctx.font = "11px system-ui, sans-serif";
		/* Latency: a tick at each power of ten inside the edges. */
		ctx.textAlign = "right";
		ctx.textBaseline = "middle";
		var l0 = Math.log(edges[0] || 1), l1 = Math.log(edges[nb] || 2);
		for (var p = 0; p <= 11; p++) {
			var v = Math.pow(10, p), y;
			if (v < edges[0] || v > edges[nb])
				continue;
			/* Inside bucket k, placed by its log share of the bucket. */
			for (var k = 0; k < nb; k++) {
				if (v >= edges[k] && v <= edges[k + 1])
					break;
			}
			var f = (Math.log(v) - Math.log(edges[k])) /
				(Math.log(edges[k + 1]) - Math.log(edges[k]) || 1);
			y = TOP + ph - (k + f) * ch;
			ctx.fillRect(LEFT - 4, Math.round(y), 4, 1);
			ctx.fillText(latLabel(v), LEFT - 6, y);
		}
		if (l1 <= l0)
			ctx.fillText(latLabel(edges[0]), LEFT - 6, TOP + ph / 2);
		/* Time: about six ticks, in seconds of the run. */
		ctx.textAlign = "center";
		ctx.textBaseline = "top";
		var step = Math.max(1, Math.ceil(nc / 6));
		for (var i = 0; i < nc; i += step) {
			if (typeof t[i] !== "number" || t[i] < 0)
				continue;
			ctx.fillRect(LEFT + i * cw, TOP + ph, 1, 4);
			ctx.fillText(tick(t[i]), LEFT + i * cw, TOP + ph + 6);
		}
		if (typeof te[nc - 1] === "number" && te[nc - 1] >= 0)
			ctx.fillText(tick(te[nc - 1]), LEFT + pw, TOP + ph + 6);
		return { total: total, max: max, nb: nb, nc: nc, cw: cw, ch: ch,
			ph: ph, grid: g };
	}

	/*
	 * The heat map of hm in parent: a canvas, a colour bar, a choice of
	 * direction and a readout of the cell under the pointer. ctx: the
	 * page's el() and charts list (its self-check counts the pixels of
	 * HEX's colours), and the width. Returns the box.
	 */
	return function (parent, hm, id, ctx) {
		var el = ctx.el;
		var box = el("div", { "class": "chart heatmap", id: id,
			"data-run": hm.run });
		var per = Number(hm.intervals_per_column) || 1;
		box.appendChild(el("h3", {}, "Latency over time (heat map" +
			(per > 1 ? ", a column is " + per + " intervals" : "") + ")"));
		var pick = el("select", { "aria-label": "direction" },
			el("option", { value: "all" }, "reads and writes"),
			el("option", { value: "read" }, "reads"),
			el("option", { value: "write" }, "writes"));
		box.appendChild(el("p", { "class": "meta" }, "Each cell: the I/Os " +
			"of a column of time whose latency is in a quarter octave; " +
			"colour on a log scale, warmup greyed. ", pick));
		var cv = el("canvas", { "class": "heatmap-canvas" });
		box.appendChild(cv);
		var bar = el("p", { "class": "meta heatmap-scale" });
		var readout = el("p", { "class": "meta heatmap-readout" }, "\u00a0");
		box.appendChild(bar);
		box.appendChild(readout);
		parent.appendChild(box);
		var drawn;
		function redraw() {
			drawn = draw(cv, hm, pick.value, ctx.width, ctx.tick);
			box.setAttribute("data-dir", pick.value);
			box.setAttribute("data-total", String(drawn.total));
			box.setAttribute("data-max", String(drawn.max));
			box.setAttribute("data-columns", String(drawn.nc));
			box.setAttribute("data-buckets", String(drawn.nb));
			bar.textContent = "colour: 1 I/O (dark) to " + drawn.max +
				" I/Os (yellow) in a cell; " + drawn.total + " I/Os drawn";
		}
		pick.addEventListener("change", redraw);
		cv.addEventListener("mousemove", function (ev) {
			var r = cv.getBoundingClientRect();
			var x = (ev.clientX - r.left) * cv.width / r.width - LEFT;
			var y = (ev.clientY - r.top) * cv.height / r.height - TOP;
			var i = Math.floor(x / drawn.cw);
			var b = Math.floor((drawn.ph - y) / drawn.ch);
			var e = hm.edges_ns || [];
			if (i < 0 || i >= drawn.nc || b < 0 || b >= drawn.nb) {
				readout.textContent = "\u00a0";
				return;
			}
			readout.textContent = ctx.tick((hm.t || [])[i]) + ": " +
				drawn.grid[i][b] + " I/Os from " + latLabel(e[b]) +
				" to " + latLabel(e[b + 1]);
		});
		redraw();
		/* Like a uPlot for the page: its canvas, and a destroy(). */
		ctx.charts.push({ box: box, plot: { ctx: cv.getContext("2d"),
			destroy: function () {} }, colors: HEX });
		return box;
	};
}());
