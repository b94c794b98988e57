/*
 * (Over 800 lines on purpose: every per-I/O offset decision - streams,
 * hits, bands, distributions, concatenation, replay - is one concern,
 * workload_next(), kept in one translation unit so that it inlines.)
 *
 * Workload generator: stream choice by skew, transfer size by distribution,
 * read or write by rdpct, random (seekpct share) or sequential offsets inside
 * each target's range, random ones aligned to the transfer size, and the
 * single pass of seekpct=eof. See workload.h.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "slave/datagen.h"
#include "slave/concat.h"
#include "slave/hotband.h"
#include "slave/replay.h"
#include "slave/workload.h"

#define SCALE 4294967296.0 /* 2^32: shares are compared to 32 random bits */

uint64_t workload_rand(struct workload *w)
{
	return workload_rng_next(&w->rng);
}

static uint64_t splitmix(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

void workload_rng_seed(struct workload_rng *g, uint64_t seed)
{
	for (int i = 0; i < 4; i++)
		g->s[i] = splitmix(&seed);
}

/* Uniform in [0, n) without division (Lemire's multiply-shift). */
static uint64_t below(struct workload *w, uint64_t n)
{
	return (uint64_t)(((unsigned __int128)workload_rand(w) * n) >> 64);
}

static uint32_t gcd32(uint32_t a, uint32_t b)
{
	while (b) {
		uint32_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

/*
 * First offset of [lo, hi) that is a multiple of align and leaves room for
 * len bytes; lo itself when the range is too narrow for such an offset (its
 * transfers are then only as aligned as lo, which is 4 KiB).
 */
static uint64_t align_start(uint64_t lo, uint64_t hi, uint64_t align,
			    uint64_t len)
{
	uint64_t a = (lo + align - 1) / align * align;

	return a + len <= hi ? a : lo;
}

static uint64_t pct_scaled(double pct)
{
	if (pct <= 0)
		return 0;
	if (pct >= 100)
		return (uint64_t)SCALE;
	return (uint64_t)(pct / 100.0 * SCALE);
}

/* seekpct: a share in [0, 100], or eof (sequential, one pass). */
static int init_seek(struct workload_stream *ws, const struct proto_stream *ps,
		     char *err, size_t errlen)
{
	if (ps->eof) {
		ws->eof = 1;
		ws->seek_thresh = 0;
		return 0;
	}
	if (!(ps->seekpct >= 0 && ps->seekpct <= 100)) {
		snprintf(err, errlen, "wd %s: seekpct %g is not in [0, 100]",
			 ps->name, ps->seekpct);
		return -EINVAL;
	}
	ws->seek_thresh = pct_scaled(ps->seekpct);
	return 0;
}

static int init_streams(struct workload *w, const struct proto_plan *plan,
			char *err, size_t errlen)
{
	for (unsigned s = 0; s < plan->nstreams; s++) {
		const struct proto_stream *ps = &plan->streams[s];
		struct workload_stream *ws = &w->streams[s];
		double total = 0, cum = 0;
		int ret;

		if (ps->nxfer == 0 || ps->nxfer > WORKLOAD_XFER_MAX) {
			snprintf(err, errlen, "wd %s: no transfer size",
				 ps->name);
			return -EINVAL;
		}
		for (unsigned i = 0; i < ps->nxfer; i++)
			total += ps->xfer[i].pct;
		if (total <= 0) {
			snprintf(err, errlen, "wd %s: xfersize shares are 0",
				 ps->name);
			return -EINVAL;
		}
		ws->nxfer = ps->nxfer;
		for (unsigned i = 0; i < ps->nxfer; i++) {
			uint32_t sz = ps->xfer[i].size;

			if (sz == 0 || sz % 512) {
				snprintf(err, errlen,
					 "wd %s: xfersize %u is not a multiple of 512",
					 ps->name, sz);
				return -EINVAL;
			}
			cum += ps->xfer[i].pct;
			ws->xsize[i] = sz;
			ws->align = gcd32(ws->align, sz);
			ws->xcum[i] = (uint64_t)(cum / total * SCALE);
			if (sz > w->max_xfer)
				w->max_xfer = sz;
		}
		ws->xcum[ps->nxfer - 1] = (uint64_t)SCALE;
		ws->rd_thresh = pct_scaled(ps->rdpct);
		ws->rh_thresh = pct_scaled(ps->rhpct);
		ws->wh_thresh = pct_scaled(ps->whpct);
		ws->stride_min = ps->stride_min;
		ws->stride_max = ps->stride_max;
		ret = init_seek(ws, ps, err, errlen);
		if (ret < 0)
			return ret;
	}
	return 0;
}

static uint32_t stream_max_xfer(const struct workload_stream *ws)
{
	uint32_t m = 0;

	for (unsigned i = 0; i < ws->nxfer; i++)
		if (ws->xsize[i] > m)
			m = ws->xsize[i];
	return m;
}

/* Where sequential I/O of stream s starts on target t, and wraps to. */
static uint64_t seq_start(const struct workload_target *t,
			  const struct workload_stream *s)
{
	return align_start(t->lo, t->hi, s->align, stream_max_xfer(s));
}

/*
 * Where a stream's cursor starts: its sequential start, or past the end
 * for stride=, so that its first random I/O wraps to the start (Vdbench
 * puts the first one there).
 */
static uint64_t cursor_start(const struct workload_target *t,
			     const struct workload_stream *s)
{
	return s->stride_max ? t->hi : seq_start(t, s);
}

void workload_stream_weights(const struct proto_plan *plan, double *weight)
{
	double given = 0;
	unsigned unset = 0;

	for (unsigned s = 0; s < plan->nstreams; s++) {
		if (plan->streams[s].skew > 0)
			given += plan->streams[s].skew;
		else
			unset++;
	}
	for (unsigned s = 0; s < plan->nstreams; s++) {
		if (plan->streams[s].skew > 0)
			weight[s] = plan->streams[s].skew;
		else
			weight[s] = given < 100 ? (100 - given) / unset : 0;
	}
}

#define PPB 1000000000ull
#define ALIGN 4096ull

/*
 * Byte range of a target from its parts-per-billion range, aligned to
 * al: 4 KiB, or the dedup unit when validated duplicates must be written
 * whole (slave/dedupval.h).
 */
static void target_range(const struct proto_target *pt, uint64_t size,
			 uint64_t al, uint64_t *lo, uint64_t *hi)
{
	uint64_t hi_ppb = pt->range_hi ? pt->range_hi : PPB;

	*lo = (uint64_t)((unsigned __int128)size * pt->range_lo / PPB);
	*hi = (uint64_t)((unsigned __int128)size * hi_ppb / PPB);
	*lo = (*lo + al - 1) / al * al;
	*hi = *hi / al * al;
	if (*hi < *lo)
		*hi = *lo;
}

/* Where the sd lies in its lun (offset=), its range=, and align=. */
static int target_place(struct workload_target *wt,
			const struct proto_target *pt, uint64_t size,
			uint64_t al, char *err, size_t errlen)
{
	if (pt->align % 512) {
		snprintf(err, errlen,
			 "sd %s: align %u is not a multiple of 512", pt->name,
			 pt->align);
		return -EINVAL;
	}
	if (pt->offset >= size) {
		snprintf(err, errlen,
			 "sd %s: offset %llu is not below the size, %llu bytes",
			 pt->name, (unsigned long long)pt->offset,
			 (unsigned long long)size);
		return -EINVAL;
	}
	wt->base = pt->offset;
	wt->align = pt->align;
	target_range(pt, size - pt->offset, al, &wt->lo, &wt->hi);
	return 0;
}

static int check_range(const struct workload *w, const struct proto_plan *plan,
		       unsigned t, char *err, size_t errlen)
{
	const struct workload_target *wt = &w->targets[t];

	for (unsigned c = 0; c < wt->nchoice; c++) {
		const struct workload_stream *ws =
			&w->streams[wt->choice[c].stream];

		for (unsigned i = 0; i < ws->nxfer; i++) {
			if (wt->hi - wt->lo >= ws->xsize[i])
				continue;
			snprintf(err, errlen,
				 "sd %s: range of %llu bytes is smaller than xfersize %u",
				 plan->targets[t].name,
				 (unsigned long long)(wt->hi - wt->lo),
				 ws->xsize[i]);
			return -EINVAL;
		}
	}
	return 0;
}

static uint32_t target_max_xfer(const struct workload *w,
				const struct workload_target *wt)
{
	uint32_t m = 0, x;

	for (unsigned c = 0; c < wt->nchoice; c++) {
		x = stream_max_xfer(&w->streams[wt->choice[c].stream]);
		m = x > m ? x : m;
	}
	return m;
}

/*
 * Vdbench's cache hits: the hit area is the first hitarea bytes of the
 * sd's range (from hit_lo, the same for every slave), the miss area the
 * rest of this slave's range; each at least 4 times the largest transfer,
 * Vdbench's own rule.
 */
static int init_hits(const struct workload *w, const struct proto_target *pt,
		     struct workload_target *wt, uint64_t size, char *err,
		     size_t errlen)
{
	uint64_t min, hlo, hhi;

	if (!pt->hitarea)
		return 0;
	min = 4ull * target_max_xfer(w, wt);
	hlo = (uint64_t)((unsigned __int128)(size - pt->offset) * pt->hit_lo /
			 PPB);
	hlo = (hlo + ALIGN - 1) / ALIGN * ALIGN;
	hhi = hlo + pt->hitarea;
	if (pt->hitarea < min) {
		snprintf(err, errlen,
			 "sd %s: hitarea of %llu bytes is less than 4 times the largest xfersize (%llu bytes)",
			 pt->name, (unsigned long long)pt->hitarea,
			 (unsigned long long)min);
		return -EINVAL;
	}
	if (wt->lo < hhi)
		wt->lo = hhi;
	if (wt->hi < wt->lo || wt->hi - wt->lo < min) {
		snprintf(err, errlen,
			 "sd %s: after its hitarea of %llu bytes, the miss area is less than 4 times the largest xfersize (%llu bytes)",
			 pt->name, (unsigned long long)pt->hitarea,
			 (unsigned long long)min);
		return -EINVAL;
	}
	wt->hlo = hlo;
	wt->hhi = hhi;
	return 0;
}

static uint32_t stream_min_xfer(const struct workload_stream *ws)
{
	uint32_t m = UINT32_MAX;

	for (unsigned i = 0; i < ws->nxfer; i++)
		if (ws->xsize[i] < m)
			m = ws->xsize[i];
	return m;
}

/*
 * Vdbench's hot band of a stream on a target: the band's parts per billion
 * of the usable size (the whole sd), its ends on multiples of the
 * stream's largest transfer; Vdbench's own minimums (a megabyte, two
 * transfers, a record of the largest transfer). Hits, strides, eof passes
 * and streams= do not go with it (the planner refuses them).
 */
static int init_band(struct workload_access *a, const struct proto_stream *ps,
		     const struct proto_target *pt, uint64_t usable,
		     uint32_t mx, char *err, size_t errlen)
{
	uint64_t lo = (uint64_t)((unsigned __int128)usable * ps->band_lo / PPB);
	uint64_t hi = (uint64_t)((unsigned __int128)usable * ps->band_hi / PPB);

	a->band = 1;
	a->lo = (lo + mx - 1) / mx * mx;
	a->hi = hi / mx * mx;
	if (ps->eof || ps->stride_max || ps->rhpct > 0 || ps->whpct > 0 ||
	    pt->streams) {
		snprintf(err, errlen,
			 "wd %s: a hot band with seekpct=eof, stride=, hits or streams= on sd %s",
			 ps->name, pt->name);
		return -EINVAL;
	}
	if (a->hi <= a->lo || a->hi - a->lo < 2ull * mx ||
	    !hotband_records(a->hi - a->lo, mx)) {
		snprintf(err, errlen,
			 "wd %s: the hot band of %llu bytes on sd %s holds less than Vdbench's minimum (a megabyte of 1,000,000 bytes, two transfers and a %u-byte record in its whole megabytes)",
			 ps->name,
			 (unsigned long long)(a->hi > a->lo ? a->hi - a->lo :
							      0),
			 pt->name, mx);
		return -EINVAL;
	}
	a->slo = a->lo;
	a->shi = a->hi;
	return 0;
}

/* The skewed or zoned distribution of a stream over n blocks. */
static int init_dist(struct workload_access *a, const struct proto_stream *ps,
		     uint64_t n, uint64_t key, char *err, size_t errlen)
{
	if (ps->access == PROTO_ACCESS_ZONED) {
		if (!dist_init_zoned(&a->d, ps->zones, ps->nzones, n))
			return 0;
		snprintf(err, errlen,
			 "wd %s: random_distribution zones are not fio's (shares of the I/O adding up to 100, of the range to at most 100)",
			 ps->name);
		return -EINVAL;
	}
	if (!dist_init(&a->d, ps->access, ps->access_arg, n, key))
		return 0;
	snprintf(err, errlen,
		 "wd %s: random_distribution parameter %g is out of its range",
		 ps->name, ps->access_arg);
	return -EINVAL;
}

/*
 * The skewed distributions of target t's streams, over the whole range
 * this slave runs (before any worker's slice): blocks of align= or the
 * stream's smallest transfer (fio's unit), each with room for its largest;
 * or a stream's hot band, in the whole sd (usable bytes).
 */
static int init_access(struct workload *w, const struct proto_plan *plan,
		       unsigned t, uint64_t usable, char *err, size_t errlen)
{
	struct workload_target *wt = &w->targets[t];

	for (unsigned c = 0; c < wt->nchoice; c++) {
		const struct proto_stream *ps =
			&plan->streams[wt->choice[c].stream];
		const struct workload_stream *ws =
			&w->streams[wt->choice[c].stream];
		struct workload_access *a;
		uint32_t mx = stream_max_xfer(ws);
		int ret;

		if (ps->access == PROTO_ACCESS_UNIFORM)
			continue;
		a = calloc(1, sizeof(*a));
		if (!a)
			return -ENOMEM;
		wt->choice[c].access = a;
		if (ps->access == PROTO_ACCESS_HOTBAND) {
			ret = init_band(a, ps, &plan->targets[t], usable, mx,
					err, errlen);
			if (ret)
				return ret;
			continue;
		}
		a->unit = wt->align ? wt->align : stream_min_xfer(ws);
		a->lo = align_start(wt->lo, wt->hi, a->unit, mx);
		ret = init_dist(a, ps, (wt->hi - a->lo - mx) / a->unit + 1,
				dist_key(plan->targets[t].name), err, errlen);
		if (ret)
			return ret;
	}
	return 0;
}

/* This generator runs streams first, first + step, ...: their positions. */
static void seq_own(struct workload_target *wt, unsigned first, unsigned step)
{
	wt->seq_first = first;
	wt->seq_step = step;
	wt->seq_rr = 0;
	wt->seq_live = (wt->nseq - first + step - 1) / step;
	for (unsigned j = 0; j < wt->nseq; j++)
		wt->seq_cur[j] = wt->lo + j * wt->seq_size;
}

/*
 * streams=: the range cut into equal streams, each a whole number of the
 * largest transfer (Vdbench truncates a stream to a multiple of it).
 */
static int init_seq(struct workload *w, const struct proto_target *pt,
		    struct workload_target *wt, char *err, size_t errlen)
{
	uint64_t mx = target_max_xfer(w, wt);

	if (!pt->streams)
		return 0;
	wt->nseq = pt->streams;
	wt->seq_size = (wt->hi - wt->lo) / wt->nseq / mx * mx;
	if (!wt->seq_size) {
		snprintf(err, errlen,
			 "sd %s: a range of %llu bytes holds no %u streams of a %llu-byte transfer",
			 pt->name, (unsigned long long)(wt->hi - wt->lo),
			 wt->nseq, (unsigned long long)mx);
		return -EINVAL;
	}
	wt->seq_cur = calloc(wt->nseq, sizeof(*wt->seq_cur));
	if (!wt->seq_cur)
		return -ENOMEM;
	seq_own(wt, 0, 1);
	return 0;
}

/* Where a target's range starts and ends: whole dedup units when each write
 * of a validated duplicate must cover its unit, else 4 KiB. */
static uint64_t range_align(const struct proto_plan *plan)
{
	if (plan->validate && plan->dedupratio > 1)
		return plan->dedupunit ? plan->dedupunit :
					 DATAGEN_DEDUPUNIT_DEFAULT;
	return ALIGN;
}

/*
 * A concatenated stream's leader: its range over the sds' sizes added
 * (*space), and where each sd ends in that space (concat_layout).
 */
static int init_concat(struct workload *w, const struct proto_plan *plan,
		       const struct proto_stream *ps,
		       const uint64_t *target_size, uint64_t *space, char *err,
		       size_t errlen)
{
	struct workload_target *wt = &w->targets[ps->targets[0]];
	uint32_t most = stream_max_xfer(&w->streams[ps - plan->streams]);

	wt->cat = calloc(ps->ntargets, sizeof(*wt->cat));
	wt->cat_end = calloc(ps->ntargets, sizeof(*wt->cat_end));
	if (!wt->cat || !wt->cat_end)
		return -ENOMEM;
	wt->ncat = ps->ntargets;
	if (concat_layout(plan, ps, target_size, most, wt->cat, wt->cat_end,
			  err, errlen))
		return -EINVAL;
	*space = wt->cat_end[wt->ncat - 1];
	wt->base = 0;
	wt->align = 0;
	target_range(&plan->targets[ps->targets[0]], *space, ALIGN, &wt->lo,
		     &wt->hi);
	return 0;
}

static int init_targets(struct workload *w, const struct proto_plan *plan,
			const uint64_t *target_size, char *err, size_t errlen)
{
	double *weight = calloc(plan->nstreams ? plan->nstreams : 1,
				sizeof(*weight));
	int ret = 0;

	if (!weight)
		return -ENOMEM;
	workload_stream_weights(plan, weight);
	for (unsigned t = 0; t < plan->ntargets && ret == 0; t++) {
		struct workload_target *wt = &w->targets[t];
		double total = 0, acc = 0;

		const struct proto_stream *cs = concat_leads(plan, t);
		uint64_t usable = target_size[t] - plan->targets[t].offset;

		ret = target_place(wt, &plan->targets[t], target_size[t],
				   range_align(plan), err, errlen);
		if (ret == 0 && cs)
			ret = init_concat(w, plan, cs, target_size, &usable,
					  err, errlen);
		if (ret < 0)
			break;
		wt->choice = calloc(plan->nstreams ? plan->nstreams : 1,
				    sizeof(*wt->choice));
		if (!wt->choice) {
			ret = -ENOMEM;
			break;
		}
		for (unsigned s = 0; s < plan->nstreams; s++) {
			const struct proto_stream *ps = &plan->streams[s];

			for (unsigned k = 0; k < ps->ntargets; k++) {
				if (ps->targets[k] != t)
					continue;
				wt->choice[wt->nchoice++].stream = s;
				total += weight[s] / ps->ntargets;
				break;
			}
		}
		/*
		 * Streams of a target share its I/Os by their weight's part on
		 * it (split evenly over the stream's targets, as tsched.h gives
		 * the target its rate), else evenly.
		 */
		for (unsigned c = 0; c < wt->nchoice; c++) {
			unsigned s = wt->choice[c].stream;
			double part = weight[s] / plan->streams[s].ntargets;

			acc += total > 0 ? part : 1;
			wt->choice[c].cum =
				(uint64_t)(acc /
					   (total > 0 ? total : wt->nchoice) *
					   SCALE);
		}
		if (wt->nchoice)
			wt->choice[wt->nchoice - 1].cum = (uint64_t)SCALE;
		if (wt->nchoice == 0) {
			snprintf(err, errlen, "sd %s is used by no wd",
				 plan->targets[t].name);
			ret = -EINVAL;
			break;
		}
		ret = init_hits(w, &plan->targets[t], wt, target_size[t], err,
				errlen);
		if (ret < 0)
			break;
		for (unsigned s = 0; s < plan->nstreams; s++)
			w->cursor[t * plan->nstreams + s] =
				cursor_start(wt, &w->streams[s]);
		ret = check_range(w, plan, t, err, errlen);
		if (ret == 0)
			ret = init_access(w, plan, t, usable, err, errlen);
		if (ret == 0)
			ret = init_seq(w, &plan->targets[t], wt, err, errlen);
	}
	free(weight);
	return ret;
}

int workload_init(struct workload *w, const struct proto_plan *plan,
		  const uint64_t *target_size, uint64_t seed, char *err,
		  size_t errlen)
{
	int ret;

	memset(w, 0, sizeof(*w));
	workload_rng_seed(&w->rng, seed);
	w->ntargets = plan->ntargets;
	w->nstreams = plan->nstreams;
	w->targets = calloc(plan->ntargets ? plan->ntargets : 1,
			    sizeof(*w->targets));
	w->streams = calloc(plan->nstreams ? plan->nstreams : 1,
			    sizeof(*w->streams));
	w->cursor = calloc((size_t)(plan->ntargets ? plan->ntargets : 1) *
				   (plan->nstreams ? plan->nstreams : 1),
			   sizeof(*w->cursor));
	if (!w->targets || !w->streams || !w->cursor) {
		workload_free(w);
		return -ENOMEM;
	}
	ret = init_streams(w, plan, err, errlen);
	if (ret == 0)
		ret = init_targets(w, plan, target_size, err, errlen);
	if (ret < 0)
		workload_free(w);
	return ret;
}

/* The hot bands' sequential parts: slice k of n, as the target's range. */
static void slice_bands(struct workload_target *wt, uint64_t unit, unsigned k,
			unsigned n)
{
	for (unsigned c = 0; c < wt->nchoice; c++) {
		struct workload_access *a = wt->choice[c].access;
		uint64_t units;

		if (!a || !a->band)
			continue;
		units = (a->hi - a->lo) / unit;
		a->slo = a->lo + units * k / n * unit;
		a->shi = k + 1 < n ? a->lo + units * (k + 1) / n * unit : a->hi;
	}
}

int workload_slice(struct workload *w, const struct proto_plan *plan,
		   unsigned t, unsigned k, unsigned n, char *err, size_t errlen)
{
	struct workload_target *wt = &w->targets[t];
	uint64_t unit = w->max_xfer > ALIGN ? w->max_xfer : ALIGN;
	uint64_t units = (wt->hi - wt->lo) / unit;
	uint64_t lo = wt->lo;

	if (wt->nseq) {
		if (k >= n || n > wt->nseq) {
			snprintf(err, errlen,
				 "sd %s: %u workers share its %u streams",
				 plan->targets[t].name, n, wt->nseq);
			return -EINVAL;
		}
		seq_own(wt, k, n);
		return 0;
	}
	if (n <= 1)
		return 0;
	slice_bands(wt, unit, k, n);
	wt->lo = lo + units * k / n * unit;
	if (k + 1 < n)
		wt->hi = lo + units * (k + 1) / n * unit;
	for (unsigned s = 0; s < w->nstreams; s++)
		w->cursor[t * w->nstreams + s] = cursor_start(wt,
							      &w->streams[s]);
	return check_range(w, plan, t, err, errlen);
}

void workload_free(struct workload *w)
{
	for (unsigned t = 0; w->targets && t < w->ntargets; t++) {
		for (unsigned c = 0;
		     w->targets[t].choice && c < w->targets[t].nchoice; c++)
			free(w->targets[t].choice[c].access);
		free(w->targets[t].choice);
		free(w->targets[t].seq_cur);
		free(w->targets[t].cat);
		free(w->targets[t].cat_end);
		if (w->targets[t].replay)
			free(w->targets[t].replay->rec);
		free(w->targets[t].replay);
	}
	free(w->targets);
	free(w->streams);
	free(w->cursor);
	memset(w, 0, sizeof(*w));
}

/* A random offset in [lo, hi) aligned to align=, else to the length. */
static uint64_t uniform(struct workload *w, const struct workload_target *t,
			uint64_t lo, uint64_t hi, uint32_t len)
{
	uint64_t a = t->align ? t->align : len;
	uint64_t start = align_start(lo, hi, a, len);

	return start + below(w, (hi - start - len) / a + 1) * a;
}

/* Whether this read or write is one of the stream's cache hits. */
static int is_hit(struct workload *w, const struct workload_stream *s,
		  int write)
{
	uint64_t thresh = write ? s->wh_thresh : s->rh_thresh;

	return thresh && (workload_rand(w) & 0xffffffffu) < thresh;
}

/*
 * stride=: MIN plus a whole number of units below MAX - MIN after the
 * previous I/O's end (Vdbench's blockBoundarySeek), back at the start
 * when the I/O would cross the end.
 */
static uint64_t stride_next(struct workload *w, const struct workload_target *t,
			    const struct workload_stream *s, uint64_t prev_end,
			    uint32_t len)
{
	uint64_t unit = t->align ? t->align : len;
	uint64_t n = (s->stride_max - s->stride_min) / unit;
	uint64_t off = prev_end + s->stride_min + (n ? below(w, n) : 0) * unit;

	if (prev_end < t->lo || off > t->hi || t->hi - off < len)
		return seq_start(t, s);
	return off;
}

/* The next I/O of this generator's next stream with room for len bytes. */
static int stream_next(struct workload_target *t,
		       const struct workload_stream *s, struct workload_io *io)
{
	unsigned owned = (t->nseq - t->seq_first + t->seq_step - 1) /
			 t->seq_step;

	for (unsigned tries = 0; tries < owned && t->seq_live; tries++) {
		unsigned j = t->seq_first + t->seq_rr * t->seq_step;
		uint64_t lo = t->lo + j * t->seq_size, hi = lo + t->seq_size;
		uint64_t *c = &t->seq_cur[j];

		t->seq_rr = t->seq_rr + 1 < owned ? t->seq_rr + 1 : 0;
		if (*c == WORKLOAD_SEQ_DONE)
			continue;
		if (*c + io->len > hi) {
			if (s->eof) {
				*c = WORKLOAD_SEQ_DONE;
				t->seq_live--;
				continue;
			}
			*c = lo;
		}
		io->offset = *c + t->base;
		*c += io->len;
		return 0;
	}
	t->done = 1;
	io->len = 0;
	io->offset = 0;
	return WORKLOAD_EOF;
}

/* A random offset of a skewed, zoned or hot-band stream. */
static uint64_t access_next(struct workload *w, const struct workload_access *a,
			    const struct workload_io *io)
{
	if (a->band)
		return a->lo + hotband_record(a->hi - a->lo, io->len, io->write,
					      workload_rand(w)) *
				       io->len;
	return a->lo + dist_next(&a->d, workload_rand(w)) * a->unit;
}

int workload_next(struct workload *w, unsigned target, struct workload_io *io)
{
	struct workload_target *t = &w->targets[target];
	struct workload_stream *s;
	uint64_t r = workload_rand(w);
	uint64_t r1 = r & 0xffffffffu, r2 = r >> 32;
	unsigned c = 0, x = 0;
	uint64_t *cur;

	if (t->replay)
		return replay_next(t->replay, target, io);
	while (c + 1 < t->nchoice && r1 >= t->choice[c].cum)
		c++;
	io->target = target;
	io->stream = t->choice[c].stream;
	s = &w->streams[io->stream];
	while (x + 1 < s->nxfer && r2 >= s->xcum[x])
		x++;
	io->len = s->xsize[x];
	r = workload_rand(w);
	io->write = (r & 0xffffffffu) >= s->rd_thresh;
	cur = &w->cursor[target * w->nstreams + io->stream];
	if (t->nseq && !t->done)
		return stream_next(t, s, io);
	if (t->done || (s->eof && *cur + io->len > t->hi)) {
		t->done = 1;
		io->len = 0;
		io->offset = 0;
		return WORKLOAD_EOF;
	}
	if (t->hhi && is_hit(w, s, io->write)) {
		io->offset = uniform(w, t, t->hlo, t->hhi, io->len);
	} else if ((r >> 32) < s->seek_thresh) {
		const struct workload_access *a = t->choice[c].access;

		if (a)
			io->offset = access_next(w, a, io);
		else if (s->stride_max)
			io->offset = stride_next(w, t, s, *cur, io->len);
		else
			io->offset = uniform(w, t, t->lo, t->hi, io->len);
		*cur = io->offset + io->len;
	} else {
		const struct workload_access *a = t->choice[c].access;
		uint64_t lo = a && a->band ? a->slo : t->lo;
		uint64_t hi = a && a->band ? a->shi : t->hi;

		if (*cur + io->len > hi || *cur < lo)
			*cur = align_start(lo, hi, s->align,
					   stream_max_xfer(s));
		io->offset = *cur;
		*cur += io->len;
	}
	io->offset += t->base;
	if (t->ncat) {
		unsigned k;
		uint64_t off;

		concat_map(t->cat_end, t->ncat, io->offset, io->len, &k, &off);
		io->target = t->cat[k];
		io->offset = w->targets[io->target].base + off;
	}
	return 0;
}
