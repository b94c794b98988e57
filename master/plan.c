/*
 * The planner: parameters -> phases -> one resolved plan per slave per
 * phase. Phases carry every value a reader (and `lockstep check`) needs;
 * per-slave plans split each sd's threads and the phase's I/O rate over
 * the slaves that run them, honouring host= on sds and wds. See plan.h.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common/units.h"
#include "master/plan.h"

#define PPB 1000000000ull

/* Whole number of intervals in s seconds, or -1 if s is not a multiple. */
static long whole_intervals(double s, double interval)
{
	double n = s / interval;
	long r = lround(n);

	if (fabs(n - (double)r) > 1e-6)
		return -1;
	return r;
}

__attribute__((format(printf, 5, 6))) static int
plan_err(const struct params *p, struct params_pos pos, char *err,
	 size_t errlen, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!err || !errlen)
		return -EINVAL;
	n = snprintf(err, errlen, "%s:%u:%u: ", params_file(p, pos), pos.line,
		     pos.col);
	if (n < 0 || (size_t)n >= errlen)
		return -EINVAL;
	va_start(ap, fmt);
	vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

const char *plan_kind_name(enum plan_kind k)
{
	switch (k) {
	case PLAN_MEASURE:
		return "warmup+measure";
	case PLAN_FORMAT:
		return "format";
	case PLAN_CURVE_MAX:
		return "curve-max";
	case PLAN_CURVE_POINT:
		return "curve-point";
	}
	return "?";
}

/* ---- phases ----------------------------------------------------------- */

struct phases {
	struct plan_phase *ph;
	size_t n, cap;
};

/* A new phase, a copy of base; NULL when out of memory or phases. */
static struct plan_phase *phase_add(struct phases *a,
				    const struct plan_phase *base)
{
	if (a->n == PLAN_PHASES_MAX)
		return NULL;
	if (a->n == a->cap) {
		size_t cap = a->cap ? 2 * a->cap : 16;
		struct plan_phase *np = realloc(a->ph, cap * sizeof(*np));

		if (!np)
			return NULL;
		a->ph = np;
		a->cap = cap;
	}
	a->ph[a->n] = *base;
	return &a->ph[a->n++];
}

__attribute__((format(printf, 2, 3))) static void
name_add(char *name, const char *fmt, ...)
{
	size_t len = strlen(name);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(name + len, PLAN_NAME_MAX - len, fmt, ap);
	va_end(ap);
}

/* Set loop k's value v in phase x, and say so in its name. */
static void loop_apply(struct plan_phase *x, enum params_loop_kind k,
		       double v)
{
	char sz[32];

	x->loops |= 1u << k;
	switch (k) {
	case PARAMS_LOOP_XFERSIZE:
		x->xfersize = (uint32_t)v;
		name_add(x->name, " xfersize=%s",
			 units_fmt_size(x->xfersize, sz, sizeof(sz)));
		break;
	case PARAMS_LOOP_RDPCT:
		x->rdpct = v;
		name_add(x->name, " rdpct=%g", v);
		break;
	case PARAMS_LOOP_SEEKPCT:
		x->seekpct = v;
		if (v == PARAMS_SEEK_EOF)
			name_add(x->name, " seekpct=eof");
		else
			name_add(x->name, " seekpct=%g", v);
		break;
	case PARAMS_LOOP_THREADS:
		x->threads = (unsigned)v;
		name_add(x->name, " threads=%u", x->threads);
		break;
	case PARAMS_LOOP_COMPRATIO:
		x->compratio = v;
		name_add(x->name, " compratio=%g", v);
		break;
	default:
		break;
	}
}

bool plan_rd_uses_sd(const struct params *p, unsigned r, unsigned sd)
{
	const struct params_rd *rd = &p->rd[r];

	for (size_t w = 0; w < rd->nwd; w++) {
		const struct params_wd *wd = &p->wd[rd->wd[w]];

		for (size_t k = 0; k < wd->nsd; k++)
			if (wd->sd[k] == sd)
				return true;
	}
	return false;
}

/* The format phase of rd: its bytes and an upper bound on its time. */
static void format_phase(const struct params *p, const struct params_rd *rd,
			 struct plan_phase *x)
{
	long n = (long)ceil(PLAN_FORMAT_BOUND_S / x->interval_s);

	x->kind = PLAN_FORMAT;
	name_add(x->name, " format");
	x->elapsed_s = (double)n * x->interval_s;
	x->warmup_s = 0;
	x->intervals = (unsigned)n;
	x->warmup_intervals = 0;
	x->iorate = 0;
	for (unsigned i = 0; i < p->nsd; i++) {
		const struct params_sd *sd = &p->sd[i];

		if (!plan_rd_uses_sd(p, (unsigned)(rd - p->rd), i))
			continue;
		if (!sd->size)
			x->format_unsized++;
		else
			x->format_bytes += (uint64_t)((double)sd->size *
						      (sd->range_hi -
						       sd->range_lo) / 100);
	}
}

/* The phase timing of rd with the command-line overrides. */
static int rd_timing(const struct params *p, const struct params_rd *rd,
		     const struct plan_overrides *ov, struct plan_phase *x,
		     char *err, size_t errlen)
{
	long ne, nw;

	x->elapsed_s = ov && ov->elapsed_s >= 0 ? ov->elapsed_s :
						  rd->elapsed_s;
	x->warmup_s = ov && ov->warmup_s >= 0 ? ov->warmup_s : rd->warmup_s;
	x->interval_s = ov && ov->interval_s > 0 ? ov->interval_s :
						   rd->interval_s;
	ne = whole_intervals(x->elapsed_s, x->interval_s);
	nw = whole_intervals(x->warmup_s, x->interval_s);
	if (ne < 1 || nw < 0)
		return plan_err(p, rd->pos, err, errlen,
				"rd=%s: %s=%g is not a whole number of intervals of %g s",
				rd->name, ne < 1 ? "elapsed" : "warmup",
				ne < 1 ? x->elapsed_s : x->warmup_s,
				x->interval_s);
	x->interval_ns = (uint64_t)llround(x->interval_s * 1e9);
	x->intervals = (unsigned)(ne + nw);
	x->warmup_intervals = (unsigned)nw;
	return 0;
}

/* The phases of one loop combination: per rate, or a whole curve. */
static int rate_phases(const struct params *p, const struct params_rd *rd,
		       const struct plan_phase *combo, struct phases *a)
{
	double fixed = 0, rates[PARAMS_LIST_MAX] = { 0 };
	size_t nrates = 1;
	struct plan_phase *x;

	for (size_t w = 0; w < rd->nwd; w++)
		fixed += p->wd[rd->wd[w]].iorate;
	if (rd->iorate_kind == PARAMS_IORATE_CURVE && !fixed) {
		size_t max = a->n;

		x = phase_add(a, combo);
		if (!x)
			return -ENOMEM;
		x->kind = PLAN_CURVE_MAX;
		x->stopcurve_ms = rd->stopcurve_ms;
		name_add(x->name, " curve=max");
		for (size_t i = 0; i < rd->ncurve; i++) {
			x = phase_add(a, combo);
			if (!x)
				return -ENOMEM;
			x->kind = PLAN_CURVE_POINT;
			x->curve_pct = rd->curve[i];
			x->curve_max = (unsigned)max;
			x->stopcurve_ms = rd->stopcurve_ms;
			name_add(x->name, " curve=%g%%", rd->curve[i]);
		}
		return 0;
	}
	if (fixed) {
		rates[0] = fixed;
	} else if (rd->iorate_kind == PARAMS_IORATE_FIXED) {
		nrates = rd->niorate;
		memcpy(rates, rd->iorates, nrates * sizeof(rates[0]));
	}
	for (size_t i = 0; i < nrates; i++) {
		x = phase_add(a, combo);
		if (!x)
			return -ENOMEM;
		x->iorate = rates[i];
		if (nrates > 1 && rates[i] > 0)
			name_add(x->name, " iorate=%g", rates[i]);
		else if (nrates > 1)
			name_add(x->name, " iorate=max");
	}
	return 0;
}

static int plan_rd(const struct params *p, const struct plan_overrides *ov,
		   unsigned r, struct phases *a, char *err, size_t errlen)
{
	const struct params_rd *rd = &p->rd[r];
	size_t idx[PARAMS_LOOP_NR] = { 0 };
	struct plan_phase base, *x;
	int ret;

	memset(&base, 0, sizeof(base));
	base.rd = r;
	snprintf(base.name, sizeof(base.name), "%s", rd->name);
	base.compratio = p->compratio;
	base.distribution = rd->distribution;
	base.pause_s = rd->pause_s;
	ret = rd_timing(p, rd, ov, &base, err, errlen);
	if (ret)
		return ret;
	if (rd->format != PARAMS_FORMAT_NO) {
		x = phase_add(a, &base);
		if (!x)
			goto full;
		format_phase(p, rd, x);
	}
	if (rd->format == PARAMS_FORMAT_ONLY)
		return 0;
	/* An odometer over the loops; the last one given turns fastest. */
	for (;;) {
		struct plan_phase combo = base;
		size_t l;

		for (l = 0; l < rd->nloop; l++)
			loop_apply(&combo, rd->loop[l].kind,
				   rd->loop[l].val[idx[l]]);
		if (rate_phases(p, rd, &combo, a))
			goto full;
		for (l = rd->nloop; l > 0; l--) {
			if (++idx[l - 1] < rd->loop[l - 1].n)
				break;
			idx[l - 1] = 0;
		}
		if (l == 0)
			return 0;
	}
full:
	if (a->n == PLAN_PHASES_MAX)
		return plan_err(p, rd->pos, err, errlen,
				"rd=%s: its loops make more than %d phases",
				rd->name, PLAN_PHASES_MAX);
	return -ENOMEM;
}

int plan_phases(const struct params *p, const struct plan_overrides *ov,
		struct plan_phase **out, size_t *n, char *err, size_t errlen)
{
	struct phases a = { 0 };
	int ret = 0;

	for (size_t r = 0; !ret && r < p->nrd; r++)
		ret = plan_rd(p, ov, (unsigned)r, &a, err, errlen);
	if (!ret && !a.ph)
		a.ph = calloc(1, sizeof(*a.ph));
	if (!ret && !a.ph)
		ret = -ENOMEM;
	if (ret) {
		if (ret == -ENOMEM && err && errlen)
			snprintf(err, errlen, "%s: out of memory",
				 params_file(p, (struct params_pos){ 0 }));
		free(a.ph);
		return ret;
	}
	/* Pauses separate runs; nothing comes before the first one. */
	if (a.n)
		a.ph[0].pause_s = 0;
	*out = a.ph;
	*n = a.n;
	return 0;
}

double plan_total_seconds(const struct plan_phase *ph, size_t n)
{
	double t = 0;

	for (size_t i = 0; i < n; i++) {
		t += ph[i].pause_s;
		if (ph[i].kind != PLAN_FORMAT)
			t += (double)ph[i].intervals * ph[i].interval_s;
	}
	return t;
}

double plan_curve_rate(double max_iops, double pct)
{
	double r = max_iops * pct / 100, step;

	if (!(r > 0))
		return 0;
	step = r > 1000 ? 100 : 10;
	/* Up to the step, without turning 1000.0000001 into 1100. */
	return ceil(r / step - 1e-9) * step;
}

/* ---- resolved values -------------------------------------------------- */

/* Percent of the phase's I/O wd i of rd gets. */
static double wd_skew(const struct params *p, const struct params_rd *rd,
		      size_t i)
{
	double fixed = 0, given = 0;
	size_t unset = 0;

	for (size_t w = 0; w < rd->nwd; w++) {
		const struct params_wd *wd = &p->wd[rd->wd[w]];

		fixed += wd->iorate;
		given += wd->skew;
		unset += wd->skew > 0 ? 0 : 1;
	}
	if (fixed > 0)
		return p->wd[rd->wd[i]].iorate / fixed * 100;
	if (p->wd[rd->wd[i]].skew > 0)
		return p->wd[rd->wd[i]].skew;
	return given < 100 ? (100 - given) / (double)unset : 0;
}

void plan_wd_resolve(const struct params *p, const struct plan_phase *ph,
		     size_t i, struct plan_wd *out)
{
	const struct params_rd *rd = &p->rd[ph->rd];
	const struct params_wd *wd = &p->wd[rd->wd[i]];

	memset(out, 0, sizeof(*out));
	out->wd = rd->wd[i];
	out->nxfer = wd->nxfer;
	memcpy(out->xfer, wd->xfer, wd->nxfer * sizeof(wd->xfer[0]));
	if (ph->loops & (1u << PARAMS_LOOP_XFERSIZE)) {
		out->nxfer = 1;
		out->xfer[0].size = ph->xfersize;
		out->xfer[0].pct = 100;
	}
	out->rdpct = ph->loops & (1u << PARAMS_LOOP_RDPCT) ? ph->rdpct :
							      wd->rdpct;
	out->seekpct = wd->seekpct;
	out->seek_eof = wd->seek_eof;
	if (ph->loops & (1u << PARAMS_LOOP_SEEKPCT)) {
		out->seek_eof = ph->seekpct == PARAMS_SEEK_EOF;
		out->seekpct = out->seek_eof ? 0 : ph->seekpct;
	}
	out->range_lo = wd->range_lo;
	out->range_hi = wd->range_hi;
	out->skew = wd_skew(p, rd, i);
	out->iorate = wd->iorate;
}

unsigned plan_sd_threads(const struct params *p, const struct plan_phase *ph,
			 unsigned sd)
{
	if (ph->kind != PLAN_FORMAT && ph->loops & (1u << PARAMS_LOOP_THREADS))
		return ph->threads;
	return p->sd[sd].threads;
}

static bool host_in(const unsigned *host, size_t nhost, int hd)
{
	if (!nhost)
		return true;
	for (size_t i = 0; hd >= 0 && i < nhost; i++)
		if (host[i] == (unsigned)hd)
			return true;
	return false;
}

bool plan_sd_on_host(const struct params *p, unsigned sd, int hd)
{
	return host_in(p->sd[sd].host, p->sd[sd].nhost, hd);
}

int plan_slave_hosts(const struct params *p, unsigned nlocal, int **slave_hd,
		     unsigned *n)
{
	unsigned total = 0, k = 0;
	int *h;

	for (size_t i = 0; i < p->nhd; i++)
		total += p->hd[i].slaves;
	if (!p->nhd)
		total = nlocal;
	h = malloc(sizeof(*h) * (total ? total : 1));
	if (!h)
		return -ENOMEM;
	for (size_t i = 0; i < p->nhd; i++)
		for (unsigned j = 0; j < p->hd[i].slaves; j++)
			h[k++] = (int)i;
	for (; k < total; k++)
		h[k] = -1;
	*slave_hd = h;
	*n = total;
	return 0;
}

/* ---- per-slave plans -------------------------------------------------- */

/*
 * Slaves on one hd behave alike, so who runs what is worked out once per
 * class of slaves: one class per hd, one for slaves on no hd, and a single
 * class that may run everything when no host is known.
 */
struct layout {
	size_t ncls, nwd, nsd;
	int *cls_hd;             /* the hd of each class; -2 = any */
	unsigned *count, *before; /* slaves in each class; those before ours */
	unsigned mine;           /* our slave's class */
	unsigned char *wd_on;    /* [cls][wd of the rd]: runs that wd */
	unsigned char *sd_runs;  /* [cls][sd]: runs that sd */
};

#define HD_ANY (-2)

static void layout_free(struct layout *l)
{
	free(l->cls_hd);
	free(l->count);
	free(l->before);
	free(l->wd_on);
	free(l->sd_runs);
}

static bool cls_allows(const struct layout *l, size_t c, const unsigned *host,
		       size_t nhost)
{
	return l->cls_hd[c] == HD_ANY || host_in(host, nhost, l->cls_hd[c]);
}

static int layout_build(const struct params *p, const struct plan_phase *ph,
			const int *slave_hd, unsigned slave, unsigned nslaves,
			struct layout *l)
{
	const struct params_rd *rd = &p->rd[ph->rd];

	memset(l, 0, sizeof(*l));
	l->ncls = slave_hd ? p->nhd + 1 : 1;
	l->nwd = rd->nwd;
	l->nsd = p->nsd;
	l->cls_hd = calloc(l->ncls, sizeof(*l->cls_hd));
	l->count = calloc(l->ncls, sizeof(*l->count));
	l->before = calloc(l->ncls, sizeof(*l->before));
	l->wd_on = calloc(l->ncls * (l->nwd ? l->nwd : 1), 1);
	l->sd_runs = calloc(l->ncls * (l->nsd ? l->nsd : 1), 1);
	if (!l->cls_hd || !l->count || !l->before || !l->wd_on ||
	    !l->sd_runs) {
		layout_free(l);
		return -ENOMEM;
	}
	for (size_t c = 0; c < l->ncls; c++)
		l->cls_hd[c] = !slave_hd ? HD_ANY :
			       c < p->nhd ? (int)c : -1;
	for (unsigned s = 0; s < nslaves; s++) {
		unsigned c = 0;

		if (slave_hd && slave_hd[s] >= 0 &&
		    (size_t)slave_hd[s] < p->nhd)
			c = (unsigned)slave_hd[s];
		else if (slave_hd)
			c = (unsigned)p->nhd;
		l->count[c]++;
		if (s < slave)
			l->before[c]++;
		if (s == slave)
			l->mine = c;
	}
	for (size_t c = 0; c < l->ncls; c++) {
		unsigned char *on = &l->wd_on[c * l->nwd];
		unsigned char *runs = &l->sd_runs[c * l->nsd];

		for (size_t w = 0; w < rd->nwd; w++) {
			const struct params_wd *wd = &p->wd[rd->wd[w]];

			if (ph->kind != PLAN_FORMAT &&
			    !cls_allows(l, c, wd->host, wd->nhost))
				continue;
			for (size_t k = 0; k < wd->nsd; k++) {
				const struct params_sd *sd = &p->sd[wd->sd[k]];

				if (!cls_allows(l, c, sd->host, sd->nhost))
					continue;
				on[w] = 1;
				runs[wd->sd[k]] = 1;
			}
		}
	}
	return 0;
}

/* Slaves that run sd, and how many of them come before ours. */
static unsigned sd_runners(const struct layout *l, unsigned sd,
			   unsigned *rank)
{
	unsigned n = 0;

	*rank = 0;
	for (size_t c = 0; c < l->ncls; c++)
		if (l->sd_runs[c * l->nsd + sd]) {
			n += l->count[c];
			*rank += l->before[c];
		}
	return n;
}

static unsigned wd_runners(const struct layout *l, size_t w)
{
	unsigned n = 0;

	for (size_t c = 0; c < l->ncls; c++)
		if (l->wd_on[c * l->nwd + w])
			n += l->count[c];
	return n;
}

static unsigned share(unsigned total, unsigned slave, unsigned nslaves)
{
	return total / nslaves + (slave < total % nslaves ? 1 : 0);
}

static uint64_t ppb(double pct)
{
	return (uint64_t)llround(pct * 1e7);
}

/*
 * The range of sd in the phase, in percent of the sd: its range= narrowed
 * by the range= of the wds that use it, which must agree. *seq says
 * whether every one of those wds is sequential.
 */
static int sd_range(const struct params *p, const struct plan_phase *ph,
		    unsigned sd, double *lo, double *hi, bool *seq, char *err,
		    size_t errlen)
{
	const struct params_rd *rd = &p->rd[ph->rd];
	const struct params_sd *s = &p->sd[sd];
	const struct params_wd *first = NULL;
	struct plan_wd pw;

	*lo = s->range_lo;
	*hi = s->range_hi;
	*seq = true;
	if (ph->kind == PLAN_FORMAT)
		return 0;
	for (size_t w = 0; w < rd->nwd; w++) {
		const struct params_wd *wd = &p->wd[rd->wd[w]];
		bool uses = false;

		for (size_t k = 0; k < wd->nsd; k++)
			uses |= wd->sd[k] == sd;
		if (!uses)
			continue;
		plan_wd_resolve(p, ph, w, &pw);
		*seq &= pw.seekpct == 0;
		if (!first) {
			first = wd;
			continue;
		}
		if (wd->range_lo != first->range_lo ||
		    wd->range_hi != first->range_hi)
			return plan_err(p, wd->pos, err, errlen,
					"wd=%s and wd=%s give sd=%s different range= in %s: lockstep needs one range per sd in a phase",
					first->name, wd->name, s->name,
					ph->name);
	}
	if (first) {
		double span = *hi - *lo;

		*hi = *lo + span * first->range_hi / 100;
		*lo = *lo + span * first->range_lo / 100;
	}
	return 0;
}

static int add_target(const struct params *p, const struct plan_phase *ph,
		      const struct layout *l, unsigned sd,
		      struct proto_target *t, char *err, size_t errlen)
{
	const struct params_sd *s = &p->sd[sd];
	unsigned rank, n = sd_runners(l, sd, &rank);
	unsigned threads = plan_sd_threads(p, ph, sd);
	uint64_t lo, hi, span;
	double plo, phi;
	bool seq;
	int ret;

	if (threads < n)
		return plan_err(p, s->pos, err, errlen,
				"sd=%s has threads=%u, fewer than the %u slaves that run it (raise threads= or use fewer slaves)",
				s->name, threads, n);
	ret = sd_range(p, ph, sd, &plo, &phi, &seq, err, errlen);
	if (ret)
		return ret;
	snprintf(t->name, sizeof(t->name), "%s", s->name);
	snprintf(t->path, sizeof(t->path), "%s", s->lun);
	t->size = s->size;
	t->create = s->size > 0;
	t->openflags = (s->openflags & PARAMS_O_DIRECT ? PROTO_O_DIRECT : 0) |
		       (s->openflags & PARAMS_O_DSYNC ? PROTO_O_DSYNC : 0);
	t->threads = share(threads, rank, n);
	t->offset = s->offset;
	t->align = s->align;
	t->sqpoll = s->sqpoll;
	lo = ppb(plo);
	hi = ppb(phi);
	/* Sequential work reads or writes each block once: a slice each. */
	if (seq && n > 1) {
		span = hi - lo;
		hi = lo + span * (rank + 1) / n;
		lo = lo + span * rank / n;
	}
	t->range_lo = lo;
	t->range_hi = hi;
	return 0;
}

/* The format phase's streams: the slave's targets, written once. */
static int format_streams(const struct params *p, struct proto_plan *out)
{
	uint32_t per = PROTO_MAX_STREAM_TARGETS;
	uint32_t n = (out->ntargets + per - 1) / per;

	out->streams = calloc(n ? n : 1, sizeof(*out->streams));
	if (!out->streams)
		return -ENOMEM;
	out->nstreams = n;
	for (uint32_t i = 0; i < n; i++) {
		struct proto_stream *s = &out->streams[i];
		uint32_t end = (i + 1) * per;

		snprintf(s->name, sizeof(s->name), "format");
		for (uint32_t t = i * per; t < out->ntargets && t < end; t++)
			s->targets[s->ntargets++] = t;
		s->nxfer = 1;
		s->xfer[0].size = p->formatxfersize;
		s->xfer[0].pct = 100;
		s->rdpct = 0;
		s->seekpct = 0;
		s->eof = 1;
	}
	out->iorate = 0;
	return 0;
}

/*
 * The wd streams this slave runs, with its share of the phase's rate: each
 * wd gets its skew of the rate, split evenly over the slaves that run it.
 */
static int wd_streams(const struct params *p, const struct plan_phase *ph,
		      const struct layout *l, const int *map,
		      struct proto_plan *out, char *err, size_t errlen)
{
	const struct params_rd *rd = &p->rd[ph->rd];
	const unsigned char *on = &l->wd_on[l->mine * l->nwd];
	double share_pct = 0;
	bool even = true;
	struct plan_wd pw;

	out->streams = calloc(rd->nwd ? rd->nwd : 1, sizeof(*out->streams));
	if (!out->streams)
		return -ENOMEM;
	for (size_t w = 0; w < rd->nwd; w++) {
		const struct params_wd *wd = &p->wd[rd->wd[w]];
		unsigned n = wd_runners(l, w);
		struct proto_stream *s;

		if (!n)
			return plan_err(p, wd->pos, err, errlen,
					"wd=%s: no slave runs it in %s (check host= on the wd and its sds)",
					wd->name, ph->name);
		if (!on[w])
			continue;
		plan_wd_resolve(p, ph, w, &pw);
		s = &out->streams[out->nstreams++];
		snprintf(s->name, sizeof(s->name), "%s", wd->name);
		for (size_t k = 0; k < wd->nsd; k++)
			if (map[wd->sd[k]] >= 0)
				s->targets[s->ntargets++] =
					(uint32_t)map[wd->sd[k]];
		s->nxfer = (uint32_t)pw.nxfer;
		for (size_t x = 0; x < pw.nxfer; x++) {
			s->xfer[x].size = pw.xfer[x].size;
			s->xfer[x].pct = pw.xfer[x].pct;
		}
		s->rdpct = pw.rdpct;
		s->seekpct = pw.seekpct;
		s->eof = pw.seek_eof;
		s->skew = pw.skew / n;
		share_pct += s->skew;
		even &= wd->skew == 0 && wd->iorate == 0 &&
			s->skew == out->streams[0].skew;
	}
	for (uint32_t i = 0; i < out->nstreams; i++)
		out->streams[i].skew = even || share_pct <= 0 ?
					       0 :
					       out->streams[i].skew /
						       share_pct * 100;
	out->iorate = ph->iorate * share_pct / 100;
	return 0;
}

int plan_for_slave(const struct params *p, const struct plan_phase *ph,
		   unsigned phase_no, const int *slave_hd, unsigned slave,
		   unsigned nslaves, const char *engine, struct proto_plan *out,
		   char *err, size_t errlen)
{
	const unsigned char *runs;
	struct layout l;
	int *map = NULL;
	unsigned nt = 0, rank;
	int ret;

	memset(out, 0, sizeof(*out));
	ret = layout_build(p, ph, slave_hd, slave, nslaves, &l);
	if (ret)
		return ret;
	runs = &l.sd_runs[l.mine * l.nsd];
	map = malloc(sizeof(int) * (p->nsd ? p->nsd : 1));
	if (!map) {
		ret = -ENOMEM;
		goto out;
	}
	for (unsigned i = 0; i < p->nsd; i++) {
		map[i] = runs[i] ? (int)nt++ : -1;
		if (plan_rd_uses_sd(p, ph->rd, i) &&
		    !sd_runners(&l, i, &rank)) {
			ret = plan_err(p, p->sd[i].pos, err, errlen,
				       "sd=%s: no slave runs it in %s (check host= on the sd and its wds)",
				       p->sd[i].name, ph->name);
			goto out;
		}
	}
	if (nt > PROTO_MAX_TARGETS) {
		ret = plan_err(p, p->rd[ph->rd].pos, err, errlen,
			       "%s gives one slave %u sds, more than %d",
			       ph->name, nt, PROTO_MAX_TARGETS);
		goto out;
	}
	out->run = ph->rd;
	out->phase = phase_no;
	snprintf(out->name, sizeof(out->name), "%s", ph->name);
	snprintf(out->engine, sizeof(out->engine), "%s", engine);
	out->interval_ns = ph->interval_ns;
	out->intervals = ph->intervals;
	out->warmup_intervals = ph->warmup_intervals;
	out->data_errors = p->data_errors;
	/* The wire's uniform is fixed spacing: Vdbench's deterministic. */
	out->distribution = ph->distribution == PARAMS_DIST_EXPONENTIAL ?
				    PROTO_DIST_EXPONENTIAL :
				    PROTO_DIST_UNIFORM;
	out->format = ph->kind == PLAN_FORMAT;
	out->compratio = ph->compratio;
	out->dedupratio = p->dedupratio;
	out->dedupunit = p->dedupunit;
	out->targets = calloc(nt ? nt : 1, sizeof(*out->targets));
	if (!out->targets) {
		ret = -ENOMEM;
		goto out;
	}
	out->ntargets = nt;
	for (unsigned i = 0; i < p->nsd; i++) {
		if (map[i] < 0)
			continue;
		ret = add_target(p, ph, &l, i, &out->targets[map[i]], err,
				 errlen);
		if (ret)
			goto out;
	}
	if (ph->kind == PLAN_FORMAT)
		ret = format_streams(p, out);
	else
		ret = wd_streams(p, ph, &l, map, out, err, errlen);
	/* Nothing to run here: sit the phase out. */
	if (!ret && (!out->nstreams || !out->ntargets)) {
		out->ntargets = out->nstreams = 0;
		out->iorate = 0;
	}
out:
	if (ret) {
		free(out->targets);
		free(out->streams);
		out->targets = NULL;
		out->streams = NULL;
		out->ntargets = out->nstreams = 0;
	}
	free(map);
	layout_free(&l);
	return ret;
}

/* Whether slave s is the first on its hd (or the first of all). */
static bool first_of_host(const int *slave_hd, unsigned s)
{
	if (!slave_hd)
		return s == 0;
	for (unsigned i = 0; i < s; i++)
		if (slave_hd[i] == slave_hd[s])
			return false;
	return true;
}

int plan_check_slaves(const struct params *p, const struct plan_phase *ph,
		      size_t n, const int *slave_hd, unsigned nslaves,
		      char *err, size_t errlen)
{
	int ret = 0;

	for (size_t i = 0; !ret && i < n; i++) {
		struct plan_phase x = ph[i];

		if (x.kind == PLAN_CURVE_POINT)
			x.iorate = plan_curve_rate(1000, x.curve_pct);
		for (unsigned s = 0; !ret && s < nslaves; s++) {
			struct proto_plan pl;

			if (!first_of_host(slave_hd, s))
				continue;
			ret = plan_for_slave(p, &x, (unsigned)i + 1, slave_hd, s,
					     nslaves, "null", &pl, err, errlen);
			if (!ret) {
				free(pl.targets);
				free(pl.streams);
			}
		}
	}
	return ret;
}
