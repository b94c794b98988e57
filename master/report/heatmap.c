/*
 * histograms.csv for the report's latency heat map (see heatmap.h): per
 * run a grid of time columns by quarter-octave latency buckets, read and
 * write apart, the counts summed exactly. A run of more than
 * HEATMAP_COLUMNS intervals has columns of 2, 4, 8 ... intervals (two
 * columns merged into one each time the run outgrows the grid), so a
 * day-long run is a page of at most HEATMAP_COLUMNS columns and every
 * I/O of the file is still in one cell.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "common/latmap.h"
#include "master/report/csvrow.h"
#include "master/report/heatmap.h"

enum { H_RUN, H_IV, H_PHASE, H_START, H_END, H_DIR, H_LO, H_HI, H_COUNT, H_N };
static const char *const hm_col[H_N] = {
	"run", "interval", "phase", "start_ns", "end_ns",
	"dir", "lo_ns",    "hi_ns", "count",
};

/* A time column: the intervals [first, first + group) of its run. */
struct hm_col {
	uint64_t start_ns, end_ns; /* 0: no row yet */
	int measured, warm;        /* it holds measured / warmup rows */
	uint64_t *cnt;             /* [2][LATMAP_BUCKETS], NULL: empty */
};

struct hm_run {
	char *run;
	uint64_t t0;
	uint64_t group; /* intervals a column */
	struct hm_col col[HEATMAP_COLUMNS];
	unsigned lo, hi; /* buckets used: [lo, hi] (lo > hi: none) */
	uint64_t total;
};

struct hm {
	struct hm_run *run;
	size_t nrun;
	const struct telem_ref *ref;
	size_t nref;
	int col[H_N];
	size_t nhead;
	struct telem_stats *st;
};

static int hm_header(void *arg, char *const *f, size_t nf)
{
	struct hm *h = arg;

	if (csvrow_header(f, nf, hm_col, H_N, h->col) != H_N)
		return -EINVAL;
	h->nhead = nf;
	return 0;
}

static struct hm_run *hm_find(struct hm *h, const char *run, uint64_t start)
{
	struct hm_run *r;

	for (size_t i = h->nrun; i-- > 0;)
		if (!strcmp(h->run[i].run, run))
			return &h->run[i];
	if (h->nrun == TELEM_SERIES_MAX)
		return NULL;
	r = realloc(h->run, (h->nrun + 1) * sizeof(*r));
	if (!r)
		return NULL;
	h->run = r;
	r = &h->run[h->nrun];
	memset(r, 0, sizeof(*r));
	r->run = strdup(run);
	if (!r->run)
		return NULL;
	h->nrun++;
	r->t0 = telem_t0(h->ref, h->nref, run, start);
	r->group = 1;
	r->lo = LATMAP_BUCKETS;
	return r;
}

/* Columns of twice as many intervals: column 2k and 2k+1 become k. */
static void hm_widen(struct hm_run *r)
{
	for (size_t k = 0; k < HEATMAP_COLUMNS; k++) {
		struct hm_col *a, *b, m;

		if (2 * k >= HEATMAP_COLUMNS) {
			memset(&r->col[k], 0, sizeof(r->col[k]));
			continue;
		}
		a = &r->col[2 * k];
		b = &r->col[2 * k + 1];
		m = *a;
		if (b->cnt && !m.cnt) {
			m.cnt = b->cnt;
		} else if (b->cnt) {
			for (size_t i = 0; i < 2 * LATMAP_BUCKETS; i++)
				m.cnt[i] += b->cnt[i];
			free(b->cnt);
		}
		if (b->start_ns && (!m.start_ns || b->start_ns < m.start_ns))
			m.start_ns = b->start_ns;
		if (b->end_ns > m.end_ns)
			m.end_ns = b->end_ns;
		m.measured |= b->measured;
		m.warm |= b->warm;
		r->col[k] = m;
	}
	r->group *= 2;
}

static int hm_row(void *arg, char *const *f, size_t nf)
{
	struct hm *h = arg;
	const int *c = h->col;
	uint64_t seq, start, end, lo, hi, n, k;
	const char *phase, *dir;
	struct hm_run *r;
	struct hm_col *col;
	unsigned q;
	int d;

	if (nf != h->nhead)
		return -EINVAL;
	phase = f[c[H_PHASE]];
	dir = f[c[H_DIR]];
	if (!csvrow_name_ok(f[c[H_RUN]]) || csvrow_u64(f[c[H_IV]], &seq) ||
	    csvrow_u64(f[c[H_START]], &start) ||
	    csvrow_u64(f[c[H_END]], &end) || csvrow_u64(f[c[H_LO]], &lo) ||
	    csvrow_u64(f[c[H_HI]], &hi) || csvrow_u64(f[c[H_COUNT]], &n) ||
	    seq == 0 || seq > UINT32_MAX || end < start || n == 0)
		return -EINVAL;
	if (strcmp(phase, "warmup") && strcmp(phase, "measure") &&
	    strcmp(phase, "late"))
		return -EINVAL;
	d = !strcmp(dir, "read") ? 0 : !strcmp(dir, "write") ? 1 : -1;
	q = latmap_bucket(lo);
	if (d < 0 || latmap_lo(q) != lo || latmap_hi(q) != hi)
		return -EINVAL;
	r = hm_find(h, f[c[H_RUN]], start);
	if (!r)
		return h->nrun == TELEM_SERIES_MAX ? -ENOSPC : -ENOMEM;
	while ((seq - 1) / r->group >= HEATMAP_COLUMNS)
		hm_widen(r);
	col = &r->col[(seq - 1) / r->group];
	if (!col->cnt) {
		col->cnt = calloc(2 * LATMAP_BUCKETS, sizeof(*col->cnt));
		if (!col->cnt)
			return -ENOMEM;
	}
	k = col->cnt[d * LATMAP_BUCKETS + q] + n;
	if (k < n || r->total + n < n)
		return -EINVAL; /* no real run counts that far */
	col->cnt[d * LATMAP_BUCKETS + q] = k;
	r->total += n;
	if (!col->start_ns || start < col->start_ns)
		col->start_ns = start;
	if (end > col->end_ns)
		col->end_ns = end;
	if (!strcmp(phase, "measure"))
		col->measured = 1;
	else if (!strcmp(phase, "warmup"))
		col->warm = 1;
	if (q < r->lo)
		r->lo = q;
	if (q > r->hi)
		r->hi = q;
	h->st->rows++;
	return 0;
}

static double rel(uint64_t t, uint64_t t0)
{
	return t >= t0 ? (double)(t - t0) / 1e9 : -(double)(t0 - t) / 1e9;
}

static void hm_write_run(struct jsonw *w, const struct hm_run *r)
{
	static const char *const dname[2] = { "read", "write" };
	size_t ncol = 0;

	for (size_t k = 0; k < HEATMAP_COLUMNS; k++)
		if (r->col[k].cnt)
			ncol = k + 1;
	jsonw_object(w, NULL);
	jsonw_str(w, "run", r->run);
	jsonw_u64(w, "t0_ns", r->t0);
	jsonw_u64(w, "intervals_per_column", r->group);
	jsonw_u64(w, "total", r->total);
	jsonw_array(w, "t");
	for (size_t k = 0; k < ncol; k++)
		jsonw_dbl(w, NULL,
			  r->col[k].cnt ? rel(r->col[k].start_ns, r->t0) : -1);
	jsonw_end(w);
	jsonw_array(w, "t_end");
	for (size_t k = 0; k < ncol; k++)
		jsonw_dbl(w, NULL,
			  r->col[k].cnt ? rel(r->col[k].end_ns, r->t0) : -1);
	jsonw_end(w);
	jsonw_array(w, "warmup");
	for (size_t k = 0; k < ncol; k++)
		jsonw_u64(w, NULL, r->col[k].warm && !r->col[k].measured);
	jsonw_end(w);
	/* The edges of buckets lo..hi: lo_ns[i] <= latency < lo_ns[i + 1]. */
	jsonw_array(w, "edges_ns");
	for (unsigned q = r->lo; q <= r->hi; q++)
		jsonw_u64(w, NULL, latmap_lo(q));
	jsonw_u64(w, NULL, latmap_hi(r->hi));
	jsonw_end(w);
	for (int d = 0; d < 2; d++) {
		jsonw_array(w, dname[d]);
		for (size_t k = 0; k < ncol; k++) {
			const uint64_t *cnt = r->col[k].cnt;

			jsonw_array(w, NULL);
			for (unsigned q = r->lo; q <= r->hi; q++)
				jsonw_u64(w, NULL,
					  cnt ? cnt[d * LATMAP_BUCKETS + q] :
						0);
			jsonw_end(w);
		}
		jsonw_end(w);
	}
	jsonw_end(w);
}

int telem_heatmap(struct jsonw *w, const char *key, char *text, size_t len,
		  int truncated, const struct telem_ref *ref, size_t nref,
		  struct telem_stats *st)
{
	struct hm h = { .ref = ref, .nref = nref, .st = st };
	int ret;

	memset(st, 0, sizeof(*st));
	ret = telem_each_row(text, len, truncated, hm_header, hm_row, &h, st);
	if (ret == 0) {
		jsonw_array(w, key);
		for (size_t i = 0; i < h.nrun; i++)
			if (h.run[i].total)
				hm_write_run(w, &h.run[i]);
		jsonw_end(w);
	}
	for (size_t i = 0; i < h.nrun; i++) {
		for (size_t k = 0; k < HEATMAP_COLUMNS; k++)
			free(h.run[i].col[k].cnt);
		free(h.run[i].run);
	}
	free(h.run);
	return ret;
}
