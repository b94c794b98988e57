/*
 * wd= (workload) definitions: transfer sizes with their shares, seek
 * percentage, skew, a fixed rate, hosts and sds, and which sds a finished
 * wd= uses when it names none.
 */
#include "master/params/params_int.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* xfersize=4k or xfersize=(4k,50,8k,50): sizes with their share of I/Os. */
int wd_set_xfersize(struct parser *p, const struct kw *kw, void *obj,
		    const struct item *it)
{
	struct params_wd *wd = obj;

	return wd_parse_xfers(p, kw, it, wd->xfer, &wd->nxfer);
}

int wd_parse_xfers(struct parser *p, const struct kw *kw, const struct item *it,
		   struct params_xfer *out, size_t *nout)
{
	struct params_xfer x[PARAMS_XFER_MAX];
	double sum = 0;
	size_t n = it->nval / 2;
	int ret;

	if (it->nval == 1) {
		ret = values_xfer_size(p, kw, &it->val[0], &x[0].size);
		if (ret)
			return ret;
		out[0].size = x[0].size;
		out[0].pct = 100;
		*nout = 1;
		return 0;
	}
	if (it->nval % 2)
		return perr(p, it->vpos,
			    "%s= needs one size or size,percentage pairs such as (4k,50,8k,50)",
			    kw->name);
	if (n > PARAMS_XFER_MAX)
		return perr(p, it->vpos,
			    "%s= has more than %d size,percentage pairs",
			    kw->name, PARAMS_XFER_MAX);
	for (size_t i = 0; i < n; i++) {
		const struct val *pv = &it->val[2 * i + 1];

		ret = values_xfer_size(p, kw, &it->val[2 * i], &x[i].size);
		if (!ret)
			ret = values_number(p, kw, pv, &x[i].pct);
		if (ret)
			return ret;
		if (x[i].pct <= 0 || x[i].pct > 100)
			return perr(p, pv->pos,
				    "%s= percentage %.*s is out of range (0..100]",
				    kw->name, show(pv->len), pv->s);
		sum += x[i].pct;
	}
	if (fabs(sum - 100) > 1e-6)
		return perr(p, it->vpos,
			    "%s=%.*s: the percentages add up to %g, not 100",
			    kw->name, show(it->rawlen), it->raw, sum);
	memcpy(out, x, n * sizeof(x[0]));
	*nout = n;
	return 0;
}

int wd_set_seekpct(struct parser *p, const struct kw *kw, void *obj,
		   const struct item *it)
{
	struct params_wd *wd = obj;
	const struct val *v = values_single(p, kw, it);
	char b[SHOW_MAX + 1];
	double x;
	int ret = v ? 0 : -EINVAL;

	if (!ret)
		ret = values_parse_seek(p, kw, v, &x);
	if (!ret)
		ret = values_check_seek(p, kw, v->pos, shown(v, b, sizeof(b)),
					x);
	if (ret)
		return ret;
	wd->seek_eof = x == PARAMS_SEEK_EOF;
	wd->seekpct = wd->seek_eof ? 0 : x;
	return 0;
}

int wd_set_skew(struct parser *p, const struct kw *kw, void *obj,
		const struct item *it)
{
	struct params_wd *wd = obj;
	const struct val *v = values_single(p, kw, it);
	int ret = v ? 0 : -EINVAL;

	if (!ret)
		ret = values_number_in(p, kw, v, 0, 100, &wd->skew);
	wd->skew_pos = it->kpos;
	return ret;
}

int wd_set_iorate(struct parser *p, const struct kw *kw, void *obj,
		  const struct item *it)
{
	struct params_wd *wd = obj;

	wd->iorate_pos = it->kpos;
	return values_read_positive(p, kw, it, &wd->iorate, "");
}

/* priority=N (Vdbench's): 1 is the highest; Vdbench refuses 0. */
int wd_set_priority(struct parser *p, const struct kw *kw, void *obj,
		    const struct item *it)
{
	struct params_wd *wd = obj;
	const struct val *v = values_single(p, kw, it);
	double d;
	int ret = v ? 0 : -EINVAL;

	if (!ret)
		ret = values_whole(p, kw, v, 1, PARAMS_LIST_MAX, &d);
	if (!ret)
		wd->priority = (unsigned)d;
	wd->priority_pos = it->kpos;
	return ret;
}

int wd_set_openflags(struct parser *p, const struct kw *kw, void *obj,
		     const struct item *it)
{
	struct params_wd *wd = obj;

	wd->openflags_set = true;
	wd->openflags_pos = it->kpos;
	return sd_parse_openflags(p, kw, it, &wd->openflags);
}

int wd_set_host(struct parser *p, const struct kw *kw, void *obj,
		const struct item *it)
{
	struct params_wd *wd = obj;

	return params_set_hosts(p, kw, it, wd->host, &wd->nhost);
}

int wd_set_sd(struct parser *p, const struct kw *kw, void *obj,
	      const struct item *it)
{
	struct params_wd *wd = obj;

	return params_set_refs(p, kw, it, KIND_SD, wd->sd, &wd->nsd);
}

/* rhpct= and whpct= (kw->off: the field), remembering where. */
int wd_set_hitpct(struct parser *p, const struct kw *kw, void *obj,
		  const struct item *it)
{
	struct params_wd *wd = obj;
	const struct val *v = values_single(p, kw, it);

	if (!v)
		return -EINVAL;
	wd->hit_pos = it->kpos;
	return values_number_in(p, kw, v, 0, 100,
				(double *)((char *)obj + kw->off));
}

/* A whole percent 0..100 of len bytes at s, or -1. */
static int whole_pct(const char *s, size_t len)
{
	unsigned v = 0;

	if (!len || len > 3)
		return -1;
	for (size_t i = 0; i < len; i++) {
		if (!isdigit((unsigned char)s[i]))
			return -1;
		v = v * 10 + (unsigned)(s[i] - '0');
	}
	return v <= 100 ? (int)v : -1;
}

/* The zones' shares of the range that were left to the rest (fio's). */
static int zones_rest(struct parser *p, const struct kw *kw,
		      const struct val *v, struct params_zone *z,
		      const bool *rest, unsigned n, unsigned range)
{
	unsigned nrest = 0;

	for (unsigned i = 0; i < n; i++)
		nrest += rest[i];
	for (unsigned i = 0; i < n; i++) {
		if (rest[i])
			z[i].range = (100 - range) / nrest;
		if (z[i].io && !z[i].range)
			return perr(p, v->pos,
				    "%s=%.*s: zone %u takes %u%% of the I/O and none of the range",
				    kw->name, show(v->len), v->s, i + 1,
				    z[i].io);
	}
	return 0;
}

/*
 * zoned:IO/RANGE:IO/RANGE:... (fio's zoned distribution, spec after the
 * colon at buf + off): IO percent of the random I/O to the next RANGE
 * percent of the range, whole percents; the IO shares add up to 100, the
 * RANGE shares to at most 100 (the rest of the range is not accessed); a
 * RANGE left empty or 0 is an even share of what the others leave
 * (rounded down, as fio does); an empty zone ends the list. fio clamps a
 * RANGE above 100 and drops decimals: lockstep refuses them.
 */
static int set_zoned(struct parser *p, const struct kw *kw,
		     struct params_wd *wd, const struct val *v, const char *buf,
		     size_t off)
{
	struct params_zone z[PARAMS_ZONE_MAX];
	bool rest[PARAMS_ZONE_MAX];
	unsigned n = 0, io = 0, range = 0;
	const char *c = buf + off;

	while (*c && *c != ':') {
		size_t len = strcspn(c, ":");
		const char *slash = memchr(c, '/', len);
		size_t iolen = slash ? (size_t)(slash - c) : len;
		size_t rlen = slash ? len - iolen - 1 : 0;
		struct params_pos at = v->pos;
		int a = whole_pct(c, iolen),
		    b = rlen ? whole_pct(slash + 1, rlen) : 0;

		at.col += (unsigned)(c - buf);
		if (n == PARAMS_ZONE_MAX)
			return perr(p, at, "%s=: more than %d zones", kw->name,
				    PARAMS_ZONE_MAX);
		if (a < 0 || b < 0)
			return perr(p, at,
				    "%s=: zone %u, %.*s, is not IO/RANGE in whole percents 0..100 (RANGE empty or 0: a share of the rest)",
				    kw->name, n + 1, (int)len, c);
		z[n].io = (unsigned)a;
		z[n].range = (unsigned)b;
		rest[n] = b == 0;
		io += z[n].io;
		range += z[n].range;
		n++;
		c += len + (c[len] == ':');
	}
	if (!n)
		return perr(p, v->pos,
			    "%s=%.*s has no zones: zoned:IO/RANGE:..., such as zoned:60/10:30/20:10/",
			    kw->name, show(v->len), v->s);
	if (io != 100 || range > 100)
		return perr(p, v->pos,
			    "%s=%.*s: the zones' shares of the I/O add up to %u and of the range to %u: fio's zones need 100, and at most 100",
			    kw->name, show(v->len), v->s, io, range);
	if (zones_rest(p, kw, v, z, rest, n, range))
		return -EINVAL;
	memcpy(wd->zone, z, n * sizeof(z[0]));
	wd->nzone = n;
	wd->access = PARAMS_ACCESS_ZONED;
	wd->access_arg = 0;
	return 0;
}

/*
 * random_distribution= as fio spells it: random (or uniform), zipf:THETA
 * (theta > 0, not 1; zipf alone is fio's 1.1), pareto:H (0 < h < 1;
 * pareto alone is fio's 0.2), normal:SIGMA or gauss:SIGMA (percent of
 * the range, 0 < sigma <= 100), zoned:IO/RANGE:... (set_zoned).
 */
int wd_set_access(struct parser *p, const struct kw *kw, void *obj,
		  const struct item *it)
{
	static const struct {
		const char *name;
		enum params_access kind;
		double dflt, lo, hi; /* dflt 0: a value is needed */
		const char *rule;
	} forms[] = {
		{ "random", PARAMS_ACCESS_UNIFORM, 1, 0, 0, "" },
		{ "uniform", PARAMS_ACCESS_UNIFORM, 1, 0, 0, "" },
		{ "zipf", PARAMS_ACCESS_ZIPF, 1.1, 0, INFINITY,
		  "zipf's theta must be more than 0 and not 1" },
		{ "pareto", PARAMS_ACCESS_PARETO, 0.2, 0, 1,
		  "pareto's h must be between 0 and 1" },
		{ "normal", PARAMS_ACCESS_NORMAL, 0, 0, 100.000001,
		  "normal's sigma is a percentage of the range, more than 0 and at most 100" },
		{ "gauss", PARAMS_ACCESS_NORMAL, 0, 0, 100.000001,
		  "gauss's sigma is a percentage of the range, more than 0 and at most 100" },
	};
	struct params_wd *wd = obj;
	const struct val *v = values_single(p, kw, it);
	char buf[1024], *colon, *end;
	double x;

	if (!v)
		return -EINVAL;
	wd->access_pos = v->pos;
	wd->nzone = 0;
	if (!cstr(v, buf, sizeof(buf)))
		goto bad;
	if (!strncmp(buf, "zoned:", 6))
		return set_zoned(p, kw, wd, v, buf, 6);
	if (!strncmp(buf, "zoned", 5))
		return perr(p, v->pos,
			    "%s=%.*s: lockstep takes fio's zoned:IO/RANGE:... in percents of the range, not %s",
			    kw->name, show(v->len), v->s,
			    strncmp(buf, "zoned_abs", 9) ? "a bare zoned" :
							   "zoned_abs's sizes");
	colon = strchr(buf, ':');
	if (colon)
		*colon = '\0';
	for (size_t i = 0; i < sizeof(forms) / sizeof(forms[0]); i++) {
		if (strcmp(buf, forms[i].name))
			continue;
		if (forms[i].kind == PARAMS_ACCESS_UNIFORM) {
			if (colon)
				goto bad;
			wd->access = PARAMS_ACCESS_UNIFORM;
			wd->access_arg = 0;
			return 0;
		}
		if (!colon && !forms[i].dflt)
			return perr(p, v->pos,
				    "%s=%.*s needs its sigma, such as normal:10",
				    kw->name, show(v->len), v->s);
		x = forms[i].dflt;
		if (colon) {
			errno = 0;
			x = strtod(colon + 1, &end);
			if (end == colon + 1 || *end || errno || !isfinite(x))
				goto bad;
		}
		if (!(x > forms[i].lo && x < forms[i].hi) ||
		    (forms[i].kind == PARAMS_ACCESS_ZIPF && x == 1))
			return perr(p, v->pos, "%s=%.*s: %s", kw->name,
				    show(v->len), v->s, forms[i].rule);
		wd->access = forms[i].kind;
		wd->access_arg = x;
		return 0;
	}
bad:
	return perr(p, v->pos,
		    "%s=%.*s is not random, zipf:THETA, pareto:H, normal:SIGMA or zoned:IO/RANGE:...",
		    kw->name, show(v->len), v->s);
}

/* Vdbench asks for two streams at least; more than this is a typo. */
#define STREAMS_MAX 4096

/* streams=N: N independent sequential streams over each sd. */
int wd_set_streams(struct parser *p, const struct kw *kw, void *obj,
		   const struct item *it)
{
	struct params_wd *wd = obj;
	const struct val *v = values_single(p, kw, it);
	double x;
	int ret = v ? values_whole(p, kw, v, 0, STREAMS_MAX, &x) : -EINVAL;

	if (ret)
		return ret;
	if (x < 2)
		return perr(p, v->pos,
			    "%s=%.*s: Vdbench's streams= asks for two streams at least",
			    kw->name, show(v->len), v->s);
	wd->streams = (unsigned)x;
	wd->streams_pos = v->pos;
	return 0;
}

/*
 * stride=(MIN,MAX): the gap a random I/O leaves after the previous one's
 * end, sizes with units, MIN <= MAX (Vdbench's rule), each a multiple of
 * 512 so that offsets stay on sectors.
 */
int wd_set_stride(struct parser *p, const struct kw *kw, void *obj,
		  const struct item *it)
{
	struct params_wd *wd = obj;
	uint64_t x[2];
	int ret;

	if (it->nval != 2)
		return perr(p, it->vpos,
			    "%s= needs two sizes, (MIN,MAX), such as (4k,64k)",
			    kw->name);
	for (int i = 0; i < 2; i++) {
		ret = values_size(p, kw, &it->val[i], &x[i]);
		if (ret)
			return ret;
		if (x[i] % 512)
			return perr(p, it->val[i].pos,
				    "%s= value %.*s is not a multiple of 512",
				    kw->name, show(it->val[i].len),
				    it->val[i].s);
	}
	if (x[1] < x[0])
		return perr(p, it->val[1].pos,
			    "%s=(%.*s,%.*s): the maximum is less than the minimum",
			    kw->name, show(it->val[0].len), it->val[0].s,
			    show(it->val[1].len), it->val[1].s);
	if (x[1] == 0)
		return perr(p, it->vpos,
			    "%s=(0,0) leaves no gap: write seekpct=0 for sequential I/O",
			    kw->name);
	wd->stride_min = x[0];
	wd->stride_max = x[1];
	wd->stride_pos = it->kpos;
	return 0;
}

/*
 * What streams= and stride= cannot be combined with. Vdbench makes every
 * I/O of a stream the next one of its stream, whatever seekpct= says: a
 * seekpct= given with it is said not to apply. stride= replaces the
 * random offset of seekpct='s random I/Os, so it needs some, and it has
 * no meaning for hits or a skewed random_distribution=.
 */
static int check_seq_kinds(struct parser *p, struct params_wd *wd)
{
	struct params_pos sp = params_from(p, "seekpct");
	const char *why = NULL;

	if (wd->streams && wd->stride_max)
		return perr(p, wd->stride_pos,
			    "wd=%s: stride= skips between random I/Os and streams= makes every I/O sequential: not both",
			    wd->name);
	if (wd->streams && !wd->seek_eof && wd->seekpct > 0 && sp.line) {
		int ret =
			diag_warn(p, sp,
				  "wd=%s: seekpct= does not apply with streams= (Vdbench's rule): every I/O is the next of its stream",
				  wd->name);

		if (ret)
			return ret;
	}
	if (wd->streams || wd->stride_max) {
		if (wd->rhpct > 0 || wd->whpct > 0)
			why = "rhpct= and whpct=";
		else if (wd->access != PARAMS_ACCESS_UNIFORM)
			why = "a skewed random_distribution=";
	}
	if (why)
		return perr(p, wd->streams ? wd->streams_pos : wd->stride_pos,
			    "wd=%s: %s with %s is not supported", wd->name,
			    wd->streams ? "streams=" : "stride=", why);
	if (wd->stride_max && (wd->seek_eof || wd->seekpct <= 0))
		return perr(p, wd->stride_pos,
			    "wd=%s: stride= sets where seekpct='s random I/Os go, and seekpct=%s gives none",
			    wd->name, wd->seek_eof ? "eof" : "0");
	if (wd->streams && p->out->validate)
		return perr(p, wd->streams_pos,
			    "wd=%s: streams= cuts each sd into streams and validate=yes cuts it among its slaves: not supported together yet",
			    wd->name);
	return 0;
}

/*
 * hotband=(LO,HI) (Vdbench's WD_entry, WG_entry, HotBand): the band is the
 * wd's range in Vdbench, replacing the sd's, with its own distribution:
 * not with range= on the wd or its sds, another random_distribution=, or
 * what lockstep cannot do in a band (strides, streams, hits, eof passes).
 */
static int check_hotband(struct parser *p, struct params_wd *wd)
{
	struct params_pos at = params_from(p, "hotband");
	struct params_pos other = params_from(p, "range");
	const char *why = NULL;

	if (!wd->hotband_hi)
		return 0;
	if (other.line)
		return perr(p, other,
			    "wd=%s: hotband= is the wd's range in Vdbench: not with range=",
			    wd->name);
	other = params_from(p, "random_distribution");
	if (other.line)
		return perr(p, other,
			    "wd=%s: hotband= spreads the I/O by Vdbench's HotBand curve: not with random_distribution=",
			    wd->name);
	if (wd->stride_max)
		why = "stride= (Vdbench would ignore it)";
	else if (wd->streams)
		why = "streams=";
	else if (wd->rhpct > 0 || wd->whpct > 0)
		why = "rhpct= and whpct= (lockstep's hit area is the sd's)";
	else if (wd->seek_eof)
		why = "seekpct=eof (no random I/O)";
	if (why)
		return perr(p, at, "wd=%s: hotband= with %s is not supported",
			    wd->name, why);
	for (size_t k = 0; k < wd->nsd; k++) {
		const struct params_sd *sd = &p->out->sd[wd->sd[k]];

		if (sd->range_lo == 0 && sd->range_hi == 100)
			continue;
		return perr(p, at,
			    "wd=%s: hotband= is in percent of the whole sd, replacing its range (Vdbench's rule), and sd=%s has range=(%g,%g): drop one",
			    wd->name, sd->name, sd->range_lo, sd->range_hi);
	}
	wd->access = PARAMS_ACCESS_HOTBAND;
	wd->access_pos = at;
	return 0;
}

/* Which sds a wd without sd= uses: the only one there is. */
static int default_sd(struct parser *p, struct params_wd *wd)
{
	if (wd->nsd)
		return 0;
	if (p->out->nsd == 1) {
		wd->sd[0] = 0;
		wd->nsd = 1;
		return 0;
	}
	if (!p->out->nsd)
		return perr(p, p->dpos,
			    "wd=%s needs sd=, and no sd= is defined", wd->name);
	return perr(p, p->dpos,
		    "wd=%s needs sd= to say which of the %zu sds it uses",
		    wd->name, p->out->nsd);
}

int wd_finish(struct parser *p)
{
	struct params_wd *wd = &p->cur.wd;
	int ret = check_seq_kinds(p, wd);

	/* Vdbench's WD_entry.checkParameters. */
	if (!ret && wd->iorate > 0 && wd->skew > 0)
		ret = perr(p, wd->skew_pos,
			   "wd=%s: iorate= and skew= are mutually exclusive (Vdbench's rule)",
			   wd->name);
	if (!ret)
		ret = default_sd(p, wd);
	if (!ret)
		ret = check_hotband(p, wd);
	return ret ? ret : replay_wd_finish(p, wd);
}

/* wd threads=: Vdbench's WD_entry allows it with concatenation alone. */
int wd_set_threads(struct parser *p, const struct kw *kw, void *obj,
		   const struct item *it)
{
	struct params_wd *wd = obj;
	const struct val *v = values_single(p, kw, it);
	double d;
	int ret = v ? 0 : -EINVAL;

	if (!ret && !p->out->concat)
		return perr(p, it->kpos,
			    "wd threads= is only for sd concatenation (concatenatesds=yes, Vdbench's rule): give threads= on the sd= lines");
	if (!ret)
		ret = values_whole(p, kw, v, 1, THREADS_MAX, &d);
	if (ret)
		return ret;
	wd->threads = (unsigned)d;
	wd->threads_pos = it->kpos;
	return 0;
}
