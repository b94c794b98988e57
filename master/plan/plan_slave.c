/*
 * The planner, second half: one resolved plan per slave per phase. Each
 * sd's threads and the phase's I/O rate are split over the slaves that run
 * them, honouring host= on sds and wds; sd ranges are cut into per-slave
 * slices for format passes. See plan.h.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "master/plan/plan.h"
#include "master/plan/plan_int.h"

/* ---- per-slave plans -------------------------------------------------- */

/*
 * Slaves on one hd behave alike, so who runs what is worked out once per
 * class of slaves: one class per hd, one for slaves on no hd, and a single
 * class that may run everything when no host is known.
 */
struct layout {
	size_t ncls, nwd, nsd;
	int *cls_hd;              /* the hd of each class; -2 = any */
	unsigned *count, *before; /* slaves in each class; those before ours */
	unsigned mine;            /* our slave's class */
	unsigned char *wd_on;     /* [cls][wd of the rd]: runs that wd */
	unsigned char *sd_runs;   /* [cls][sd]: runs that sd */
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
	return l->cls_hd[c] == HD_ANY ||
	       plan_host_in(host, nhost, l->cls_hd[c]);
}

/*
 * Whether class c may run every sd of wd: a concatenated wd runs whole
 * on a slave or not at all (Vdbench runs a concatenation on one host).
 */
static bool has_all_sds(const struct params *p, const struct layout *l,
			size_t c, const struct params_wd *wd)
{
	for (size_t k = 0; k < wd->nsd; k++)
		if (!cls_allows(l, c, p->sd[wd->sd[k]].host,
				p->sd[wd->sd[k]].nhost))
			return false;
	return true;
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
	if (!l->cls_hd || !l->count || !l->before || !l->wd_on || !l->sd_runs) {
		layout_free(l);
		return -ENOMEM;
	}
	for (size_t c = 0; c < l->ncls; c++)
		l->cls_hd[c] = !slave_hd ? HD_ANY : c < p->nhd ? (int)c : -1;
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
			    (!cls_allows(l, c, wd->host, wd->nhost) ||
			     (p->concat && !has_all_sds(p, l, c, wd))))
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
static unsigned sd_runners(const struct layout *l, unsigned sd, unsigned *rank)
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

/*
 * The (slave, sd) pairs of wd w one slave of class c runs: the wd's sds it
 * may run there, 0 when the wd does not run there.
 */
static unsigned wd_pairs(const struct params *p, const struct layout *l,
			 const struct params_wd *wd, size_t w, size_t c)
{
	unsigned n = 0;

	if (!l->wd_on[c * l->nwd + w])
		return 0;
	for (size_t k = 0; k < wd->nsd; k++) {
		const struct params_sd *sd = &p->sd[wd->sd[k]];

		n += cls_allows(l, c, sd->host, sd->nhost);
	}
	return n;
}

/*
 * Vdbench's split of a wd's skew (HandleSkew.spreadWgSkew): every (slave,
 * sd) pair that runs the wd gets an even part, so our slave's share is its
 * pairs over all of them. Pure, from the layout.
 */
static double wd_slave_part(const struct params *p, const struct layout *l,
			    const struct params_wd *wd, size_t w)
{
	unsigned all = 0, mine = wd_pairs(p, l, wd, w, l->mine);

	for (size_t c = 0; c < l->ncls; c++)
		all += l->count[c] * wd_pairs(p, l, wd, w, c);
	return all ? (double)mine / all : 0;
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
 * by the range= of the wds that use it, which must agree (a hotband= wd
 * has its band instead, anywhere in the sd). *seq says whether every one
 * of those wds is sequential.
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
		/* A replay is cut among slaves by offset, as sequential work. */
		*seq &= pw.seekpct == 0 || wd->replay[0];
		/* A hot band is its wd's own range, in the whole sd. */
		if (pw.access == PARAMS_ACCESS_HOTBAND)
			continue;
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

/*
 * The cache-hit area of sd in the phase: its hitarea= (or the phase's
 * forhitarea=) once a wd that uses it asks for hits, else 0. Vdbench's
 * rule: at least 4 times the largest xfersize of those wds (the slave
 * holds the miss area to it too, once it knows the size).
 */
static int sd_hitarea(const struct params *p, const struct plan_phase *ph,
		      unsigned sd, uint64_t *out, char *err, size_t errlen)
{
	const struct params_rd *rd = &p->rd[ph->rd];
	const struct params_sd *s = &p->sd[sd];
	uint64_t area = ph->loops & (1u << PARAMS_LOOP_HITAREA) ? ph->hitarea :
								  s->hitarea;
	uint32_t most = 0;
	bool hits = false;
	struct plan_wd pw;

	*out = 0;
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
		hits |= pw.rhpct > 0 || pw.whpct > 0;
		for (size_t x = 0; x < pw.nxfer; x++)
			most = pw.xfer[x].size > most ? pw.xfer[x].size : most;
	}
	if (!hits)
		return 0;
	if (area < 4ull * most)
		return plan_err(p, s->pos, err, errlen,
				"sd=%s: hitarea of %llu bytes is less than 4 times the largest xfersize of its wds in %s (%u bytes), as Vdbench requires",
				s->name, (unsigned long long)area, ph->name,
				most);
	*out = area;
	return 0;
}

/* The streams= of the wd that runs sd in the phase (one wd only), or 0. */
static unsigned sd_streams(const struct params *p, const struct plan_phase *ph,
			   unsigned sd)
{
	const struct params_rd *rd = &p->rd[ph->rd];

	if (ph->kind == PLAN_FORMAT)
		return 0;
	for (size_t w = 0; w < rd->nwd; w++) {
		const struct params_wd *wd = &p->wd[rd->wd[w]];

		for (size_t k = 0; k < wd->nsd; k++)
			if (wd->sd[k] == sd && wd->streams)
				return wd->streams;
	}
	return 0;
}

/*
 * streams=S: the sd's range is S equal streams, and the slaves that run
 * it take them whole, S/n each (the first S%n one more), their part of
 * the range and threads/S threads per stream (Vdbench hands streams out
 * to slaves the same way, a stream's threads on one slave).
 */
static int cut_streams(const struct params *p, const struct params_sd *s,
		       unsigned streams, unsigned threads, unsigned rank,
		       unsigned n, uint64_t *lo, uint64_t *hi,
		       struct proto_target *t, char *err, size_t errlen)
{
	unsigned mine = share(streams, rank, n);
	unsigned first = rank * (streams / n) +
			 (rank < streams % n ? rank : streams % n);
	uint64_t span = *hi - *lo;

	if (streams < n)
		return plan_err(p, s->pos, err, errlen,
				"sd=%s: streams=%u is fewer than the %u slaves that run it (each takes whole streams)",
				s->name, streams, n);
	if (threads % streams)
		return plan_err(p, s->pos, err, errlen,
				"sd=%s: threads=%u is not a multiple of streams=%u",
				s->name, threads, streams);
	t->streams = mine;
	t->threads = mine * (threads / streams);
	*hi = *lo + span * (first + mine) / streams;
	*lo = *lo + span * first / streams;
	return 0;
}

/* Sequential work reads or writes each block once: slave rank's part. */
static void seq_slice(uint64_t *lo, uint64_t *hi, unsigned rank, unsigned n)
{
	uint64_t span = *hi - *lo;

	*hi = *lo + span * (rank + 1) / n;
	*lo = *lo + span * rank / n;
}

/* What every target of sd carries, whatever the phase does with it. */
static void target_common(const struct params *p, const struct plan_phase *ph,
			  unsigned sd, struct proto_target *t)
{
	const struct params_sd *s = &p->sd[sd];
	int from;
	unsigned of = plan_sd_openflags(p, ph, sd, &from);

	snprintf(t->name, sizeof(t->name), "%s", s->name);
	snprintf(t->path, sizeof(t->path), "%s", s->lun);
	t->size = s->size;
	/* Vdbench neither creates nor extends the files of a concatenation. */
	t->create = s->size > 0 && !p->concat;
	t->openflags = (of & PARAMS_O_DIRECT ? PROTO_O_DIRECT : 0) |
		       (of & PARAMS_O_DSYNC ? PROTO_O_DSYNC : 0) |
		       (of & PARAMS_O_SYNC ? PROTO_O_SYNC : 0);
	t->offset = s->offset;
	t->align = s->align;
	t->sqpoll = s->sqpoll;
	t->force = s->force;
}

/*
 * concatenatesds=yes: sd in the concatenation of the one wd of the rd that
 * names it (params refuses two). Its first sd carries the concatenation's
 * threads, the wd's threads= (or forthreads=) split over the slaves that
 * run it, and its range: the wd's range= of the whole space, each slave's
 * slice of it when the wd is sequential. The other sds carry no threads
 * and the whole of themselves.
 */
static int add_concat_target(const struct params *p,
			     const struct plan_phase *ph,
			     const struct layout *l, unsigned sd,
			     struct proto_target *t, char *err, size_t errlen)
{
	const struct params_rd *rd = &p->rd[ph->rd];
	const struct params_wd *wd = NULL;
	unsigned rank, n = sd_runners(l, sd, &rank), threads;
	uint64_t lo, hi;
	struct plan_wd pw;
	size_t w;

	for (w = 0; !wd && w < rd->nwd; w++)
		for (size_t k = 0; k < p->wd[rd->wd[w]].nsd; k++)
			if (p->wd[rd->wd[w]].sd[k] == sd)
				wd = &p->wd[rd->wd[w]];
	target_common(p, ph, sd, t);
	t->range_lo = 0;
	t->range_hi = ppb(100);
	if (!wd || wd->sd[0] != sd)
		return 0;
	plan_wd_resolve(p, ph, w - 1, &pw);
	threads = plan_sd_threads(p, ph, sd);
	if (threads < n) {
		struct params_pos at = wd->threads_pos;

		for (size_t i = 0; i < rd->nloop; i++)
			if (ph->loops & (1u << PARAMS_LOOP_THREADS) &&
			    rd->loop[i].kind == PARAMS_LOOP_THREADS)
				at = rd->loop[i].pos;
		return plan_err(p, at, err, errlen,
				"wd=%s: %u threads in %s, fewer than the %u slaves that run its concatenation (raise threads= or use fewer slaves)",
				wd->name, threads, ph->name, n);
	}
	t->threads = share(threads, rank, n);
	lo = ppb(pw.range_lo);
	hi = ppb(pw.range_hi);
	if (pw.seekpct == 0 && n > 1)
		seq_slice(&lo, &hi, rank, n);
	t->range_lo = lo;
	t->range_hi = hi;
	return 0;
}

static int add_target(const struct params *p, const struct plan_phase *ph,
		      const struct layout *l, unsigned sd,
		      struct proto_target *t, char *err, size_t errlen)
{
	const struct params_sd *s = &p->sd[sd];
	unsigned rank, n = sd_runners(l, sd, &rank);
	unsigned threads = plan_sd_threads(p, ph, sd);
	unsigned streams = sd_streams(p, ph, sd);
	uint64_t lo, hi;
	double plo, phi;
	bool seq;
	int ret;

	if (p->concat && ph->kind != PLAN_FORMAT)
		return add_concat_target(p, ph, l, sd, t, err, errlen);
	if (threads < n)
		return plan_err(p, s->pos, err, errlen,
				"sd=%s has threads=%u, fewer than the %u slaves that run it (raise threads= or use fewer slaves)",
				s->name, threads, n);
	ret = sd_range(p, ph, sd, &plo, &phi, &seq, err, errlen);
	if (!ret)
		ret = sd_hitarea(p, ph, sd, &t->hitarea, err, errlen);
	if (ret)
		return ret;
	target_common(p, ph, sd, t);
	t->threads = share(threads, rank, n);
	lo = ppb(plo);
	hi = ppb(phi);
	/* Hits go to the start of the sd's range whichever part is ours. */
	t->hit_lo = t->hitarea ? lo : 0;
	/*
	 * Validation: each slave owns its cut of the sd's whole range in
	 * every phase, and works only on the part of the phase's range in it.
	 */
	if (streams) {
		ret = cut_streams(p, s, streams, threads, rank, n, &lo, &hi, t,
				  err, errlen);
		if (ret)
			return ret;
	} else if (p->validate) {
		uint64_t olo, ohi;

		plan_validate_own(ppb(s->range_lo), ppb(s->range_hi), rank, n,
				  &olo, &ohi);
		lo = lo > olo ? lo : olo;
		hi = hi < ohi ? hi : ohi;
		if (lo >= hi)
			return plan_err(p, s->pos, err, errlen,
					"sd=%s: with validate=yes each of its %u slaves owns a part of its range, and slave %u's part is outside the range of %s",
					s->name, n, rank + 1, ph->name);
	} else if (seq && n > 1) {
		seq_slice(&lo, &hi, rank, n);
	}
	t->range_lo = lo;
	t->range_hi = hi;
	return 0;
}

/*
 * The format phase's streams: the slave's targets, written once (read
 * once, for a validate=only pass).
 */
static int format_streams(const struct params *p, const struct plan_phase *ph,
			  struct proto_plan *out)
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
		s->rdpct = ph->verify ? 100 : 0;
		s->seekpct = 0;
		s->eof = 1;
	}
	out->iorate = 0;
	return 0;
}

static uint32_t access_of(enum params_access a)
{
	switch (a) {
	case PARAMS_ACCESS_ZIPF:
		return PROTO_ACCESS_ZIPF;
	case PARAMS_ACCESS_PARETO:
		return PROTO_ACCESS_PARETO;
	case PARAMS_ACCESS_NORMAL:
		return PROTO_ACCESS_NORMAL;
	case PARAMS_ACCESS_ZONED:
		return PROTO_ACCESS_ZONED;
	case PARAMS_ACCESS_HOTBAND:
		return PROTO_ACCESS_HOTBAND;
	default:
		return PROTO_ACCESS_UNIFORM;
	}
}

/*
 * A stream's random_distribution= or hotband=: its kind, and fio's zones
 * or Vdbench's band (percent of the whole sd). A phase's loops may give a
 * hotband= wd what its own line could not (seekpct=eof, hits): refused.
 */
static int set_access(const struct params *p, const struct plan_phase *ph,
		      const struct params_wd *wd, const struct plan_wd *pw,
		      struct proto_stream *s, char *err, size_t errlen)
{
	s->access = access_of(pw->access);
	s->access_arg = pw->access_arg;
	if (pw->access == PARAMS_ACCESS_ZONED) {
		s->nzones = (uint32_t)wd->nzone;
		for (size_t z = 0; z < wd->nzone; z++) {
			s->zones[z].io = wd->zone[z].io;
			s->zones[z].range = wd->zone[z].range;
		}
	}
	if (pw->access != PARAMS_ACCESS_HOTBAND)
		return 0;
	if (pw->seek_eof || pw->rhpct > 0 || pw->whpct > 0)
		return plan_err(p, p->rd[ph->rd].pos, err, errlen,
				"wd=%s: hotband= with %s is not supported (phase %s)",
				wd->name,
				pw->seek_eof ? "seekpct=eof" :
					       "rhpct= or whpct=",
				ph->name);
	s->band_lo = ppb(wd->hotband_lo);
	s->band_hi = ppb(wd->hotband_hi);
	return 0;
}

/*
 * A replaying wd's stream: its trace, device and hash, and one transfer
 * size, the device's largest record (rounded up to 512 bytes), which
 * sizes the slave's buffers; the records give every I/O.
 */
static void set_replay(const struct params_wd *wd, struct proto_stream *s,
		       struct proto_plan *out)
{
	snprintf(s->replay, sizeof(s->replay), "%s", wd->replay);
	snprintf(s->replay_dev, sizeof(s->replay_dev), "%s", wd->replay_dev);
	s->replay_hash = wd->replay_hash;
	s->nxfer = 1;
	s->xfer[0].size = (wd->replay_maxlen + 511) / 512 * 512;
	s->xfer[0].pct = 100;
	s->rdpct = 0;
	s->seekpct = 0;
	out->replay = wd->replay_afap ? PROTO_REPLAY_AFAP : PROTO_REPLAY_TIMED;
}

/*
 * The wd streams this slave runs, with its share of the phase's rate: each
 * wd gets its skew of the rate, split evenly over the (slave, sd) pairs
 * that run it (wd_slave_part), as Vdbench's WG_entry per slave and sd.
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
	int ret;

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
				s->targets[s->ntargets++] = (uint32_t)
					map[wd->sd[k]];
		s->nxfer = (uint32_t)pw.nxfer;
		for (size_t x = 0; x < pw.nxfer; x++) {
			s->xfer[x].size = pw.xfer[x].size;
			s->xfer[x].pct = pw.xfer[x].pct;
		}
		s->rdpct = pw.rdpct;
		s->seekpct = pw.seekpct;
		s->eof = pw.seek_eof;
		s->rhpct = pw.rhpct;
		s->whpct = pw.whpct;
		ret = set_access(p, ph, wd, &pw, s, err, errlen);
		if (ret)
			return ret;
		s->stride_min = pw.stride_min;
		s->stride_max = pw.stride_max;
		s->concat = p->concat;
		if (wd->replay[0])
			set_replay(wd, s, out);
		s->skew = pw.skew * wd_slave_part(p, l, wd, w);
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
	if (ph->fs)
		return plan_err(p, p->rd[ph->rd].pos, err, errlen,
				"rd=%s runs fwd=: lockstep cannot run file system workloads yet (issue 32: plan_fs_for_slave is not called by the run)",
				p->rd[ph->rd].name);
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
	plan_header(p, ph, phase_no, slave_hd, slave, engine, out);
	out->validate = ph->verify  ? PROTO_VALIDATE_ONLY :
			p->validate ? PROTO_VALIDATE_YES :
				      PROTO_VALIDATE_OFF;
	if (out->validate)
		snprintf(out->journal, sizeof(out->journal), "%s", p->journal);
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
		ret = format_streams(p, ph, out);
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
		else if (x.kind == PLAN_SLO_STEP)
			x.iorate = 1000;
		if (x.fs)
			ret = plan_fs_check(p, &x, (unsigned)i + 1, slave_hd,
					    nslaves, err, errlen);
		for (unsigned s = 0; !ret && !x.fs && s < nslaves; s++) {
			struct proto_plan pl;

			if (!first_of_host(slave_hd, s))
				continue;
			ret = plan_for_slave(p, &x, (unsigned)i + 1, slave_hd,
					     s, nslaves, "null", &pl, err,
					     errlen);
			if (!ret) {
				free(pl.targets);
				free(pl.streams);
			}
		}
	}
	return ret;
}
