/*
 * Per-operation sums of a file-system span (fsops.h): the counters and a
 * lazily allocated dense histogram per operation, and the view that the
 * console, ops.csv and the summaries print.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "common/fsops.h"

static const char *const names[FSOPS_N] = {
	"read",  "write",   "create",  "delete", "mkdir", "rmdir", "open",
	"close", "getattr", "setattr", "access", "copy",  "move",
};

const char *fsops_name(unsigned op)
{
	return op < FSOPS_N ? names[op] : "?";
}

void fsops_init(struct fsops *fs, uint32_t requested)
{
	memset(fs, 0, sizeof(*fs));
	fs->requested = requested;
}

void fsops_reset(struct fsops *fs)
{
	for (unsigned i = 0; i < FSOPS_N; i++) {
		struct fsops_op *o = &fs->op[i];

		o->count = o->bytes = o->errors = 0;
		if (o->lat)
			hist_reset(o->lat);
	}
}

void fsops_release(struct fsops *fs)
{
	for (unsigned i = 0; i < FSOPS_N; i++) {
		free(fs->op[i].lat);
		fs->op[i].lat = NULL;
		fs->op[i].count = fs->op[i].bytes = fs->op[i].errors = 0;
	}
}

int fsops_reserve(struct fsops *fs, unsigned op)
{
	if (op >= FSOPS_N)
		return -EINVAL;
	if (fs->op[op].lat)
		return 0;
	fs->op[op].lat = malloc(sizeof(*fs->op[op].lat));
	if (!fs->op[op].lat)
		return -ENOMEM;
	hist_init(fs->op[op].lat);
	return 0;
}

static int wraps(uint64_t a, uint64_t b)
{
	uint64_t x;

	return __builtin_add_overflow(a, b, &x);
}

int fsops_fits(const struct fsops *dst, unsigned op, uint64_t count,
	       uint64_t bytes, uint64_t errors, const struct hist_sparse *lat)
{
	const struct fsops_op *o = &dst->op[op];

	if (wraps(o->count, count) || wraps(o->bytes, bytes) ||
	    wraps(o->errors, errors))
		return 0;
	return !o->lat || (!wraps(o->lat->count, lat->count) &&
			   !wraps(o->lat->sum, lat->sum));
}

void fsops_add_sparse(struct fsops *dst, unsigned op, uint64_t count,
		      uint64_t bytes, uint64_t errors,
		      const struct hist_sparse *lat)
{
	struct fsops_op *o = &dst->op[op];

	o->count += count;
	o->bytes += bytes;
	o->errors += errors;
	if (lat->count)
		hist_add_sparse_unchecked(o->lat, lat);
}

int fsops_add(struct fsops *dst, const struct fsops *src)
{
	for (unsigned i = 0; i < FSOPS_N; i++)
		if (src->op[i].lat && src->op[i].lat->count &&
		    fsops_reserve(dst, i) < 0)
			return -ENOMEM;
	for (unsigned i = 0; i < FSOPS_N; i++) {
		const struct fsops_op *s = &src->op[i];

		dst->op[i].count += s->count;
		dst->op[i].bytes += s->bytes;
		dst->op[i].errors += s->errors;
		if (s->lat && s->lat->count)
			hist_merge(dst->op[i].lat, s->lat);
	}
	return 0;
}

uint64_t fsops_percentile_all(const struct fsops *fs, const struct stats *st,
			      double p)
{
	const struct hist *h[FSOPS_N];
	unsigned n = 0;

	for (unsigned op = 0; op < FSOPS_N; op++) {
		const struct hist *x = op < 2 ? (st ? &st->lat[op] : NULL) :
						(fs ? fs->op[op].lat : NULL);

		if (x)
			h[n++] = x;
	}
	return hist_percentile_of(h, n, p);
}

static void op_view(uint64_t count, uint64_t bytes, uint64_t errors,
		    const struct hist *h, double seconds,
		    struct fsops_opview *v)
{
	v->count = count;
	v->bytes = bytes;
	v->errors = errors;
	/* No seconds (a run that ended in its warmup): no rate, as
	 * stats_view's, rather than inf or nan. */
	v->rate = seconds > 0 ? (double)count / seconds : 0;
	v->mbps = seconds > 0 ? (double)bytes / seconds / 1048576.0 : 0;
	if (!h || !h->count)
		return;
	v->resp_ms = hist_mean(h) / 1e6;
	v->p50_ms = (double)hist_percentile(h, 50) / 1e6;
	v->p95_ms = (double)hist_percentile(h, 95) / 1e6;
	v->p99_ms = (double)hist_percentile(h, 99) / 1e6;
	v->max_ms = (double)h->max / 1e6;
}

/*
 * The transfer errors to the read or the write when only one of them
 * was asked for (or done, when the phase says nothing); else unknown.
 */
static void fsops_rw_errors(struct fsops_view *v, uint32_t req)
{
	int r = req ? !!(req & (UINT32_C(1) << FSOPS_READ)) :
		      v->op[FSOPS_READ].count != 0;
	int w = req ? !!(req & (UINT32_C(1) << FSOPS_WRITE)) :
		      v->op[FSOPS_WRITE].count != 0;

	if (r && !w)
		v->op[FSOPS_READ].errors = v->rw_errors;
	else if (w && !r)
		v->op[FSOPS_WRITE].errors = v->rw_errors;
	else if (v->rw_errors)
		v->op[FSOPS_READ].errors_unknown =
			v->op[FSOPS_WRITE].errors_unknown = 1;
}

void fsops_view(const struct fsops *fs, const struct stats *st, double seconds,
		struct fsops_view *v)
{
	uint32_t req = fs ? fs->requested : 0;
	uint64_t rw = st->ops[0] + st->ops[1];
	double resp_ns = 0;

	memset(v, 0, sizeof(*v));
	for (unsigned d = 0; d < 2; d++)
		op_view(st->ops[d], st->bytes[d], 0, &st->lat[d], seconds,
			&v->op[d]);
	v->rw_errors = st->errors;
	for (unsigned i = FSOPS_CREATE; fs && i < FSOPS_N; i++) {
		op_view(fs->op[i].count, fs->op[i].bytes, fs->op[i].errors,
			fs->op[i].lat, seconds, &v->op[i]);
		v->rw_errors -= v->rw_errors < fs->op[i].errors ?
					v->rw_errors :
					fs->op[i].errors;
	}
	fsops_rw_errors(v, req);
	for (unsigned i = 0; i < FSOPS_N; i++) {
		const struct hist *h = NULL;

		if (i < 2)
			h = &st->lat[i];
		else if (fs)
			h = fs->op[i].lat;

		if (req ? !(req & (UINT32_C(1) << i)) : !v->op[i].count)
			continue;
		v->req_count += v->op[i].count;
		if (h)
			resp_ns += (double)h->sum;
	}
	v->req_rate = seconds > 0 ? (double)v->req_count / seconds : 0;
	v->req_resp_ms = v->req_count ? resp_ns / (double)v->req_count / 1e6 :
					0;
	if (rw) {
		v->read_pct = 100.0 * (double)st->ops[0] / (double)rw;
		v->xfer_bytes = (double)((st->bytes[0] + st->bytes[1]) / rw);
	}
}
