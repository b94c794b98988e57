/*
 * Reading one value of a parameter file as a number, a size, a duration or
 * a transfer size, with the range checks and the messages that go with
 * them; and lists of numbers with Vdbench's ranges ("10-100,10", "(1k,64k,d)")
 * expanded, each value read and judged by its kind (struct numkind).
 */
#include "master/params/params_int.h"

#include "common/fstree.h"
#include "common/units.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* The one value of it (a list of one counts), or NULL after an error. */
const struct val *values_single(struct parser *p, const struct kw *kw,
				const struct item *it)
{
	if (it->nval != 1) {
		perr(p, it->vpos, "%s= takes one value, not a list", kw->name);
		return NULL;
	}
	return &it->val[0];
}

int params_journal_value(struct parser *p, const struct kw *kw,
			 const struct item *it, char *dst, size_t len,
			 struct params_pos *pos)
{
	const struct val *v = values_single(p, kw, it);

	if (!v)
		return -EINVAL;
	*pos = v->pos;
	if (val_is(v, "no")) {
		dst[0] = '\0';
		return 0;
	}
	if (!v->len || v->s[0] != '/' || v->len >= len ||
	    memchr(v->s, '\0', v->len))
		return perr(p, v->pos,
			    "journal=%.*s is not an absolute folder (for example journal=/var/lib/lockstep/journal)",
			    show(v->len), v->s);
	memcpy(dst, v->s, v->len);
	dst[v->len] = '\0';
	return 0;
}

int values_number(struct parser *p, const struct kw *kw, const struct val *v,
		  double *out)
{
	char buf[64];

	if (!cstr(v, buf, sizeof(buf)) || units_parse_number(buf, out))
		return perr(p, v->pos, "%s=%.*s is not a number", kw->name,
			    show(v->len), v->s);
	return 0;
}

static int check_range(struct parser *p, const struct kw *kw,
		       struct params_pos pos, const char *sh, double x,
		       double lo, double hi)
{
	if (x < lo || x > hi)
		return perr(p, pos, "%s=%s is out of range %g..%g", kw->name,
			    sh, lo, hi);
	return 0;
}

static int check_whole(struct parser *p, const struct kw *kw,
		       struct params_pos pos, const char *sh, double x,
		       double lo, double hi)
{
	if (x != floor(x))
		return perr(p, pos, "%s=%s is not a whole number", kw->name,
			    sh);
	if (x < lo || x > hi)
		return perr(p, pos, "%s=%s is out of range %.0f..%.0f",
			    kw->name, sh, lo, hi);
	return 0;
}

int values_number_in(struct parser *p, const struct kw *kw, const struct val *v,
		     double lo, double hi, double *out)
{
	char b[SHOW_MAX + 1];
	int ret = values_number(p, kw, v, out);

	return ret ? ret :
		     check_range(p, kw, v->pos, shown(v, b, sizeof(b)), *out,
				 lo, hi);
}

int values_whole(struct parser *p, const struct kw *kw, const struct val *v,
		 double lo, double hi, double *out)
{
	char b[SHOW_MAX + 1];
	int ret = values_number(p, kw, v, out);

	return ret ? ret :
		     check_whole(p, kw, v->pos, shown(v, b, sizeof(b)), *out,
				 lo, hi);
}

int values_seconds(struct parser *p, const struct kw *kw, const struct val *v,
		   double *out)
{
	char buf[64];

	if (!cstr(v, buf, sizeof(buf)) || units_parse_seconds(buf, out))
		return perr(p, v->pos,
			    "%s=%.*s is not a duration (seconds, or a number with s, m or h)",
			    kw->name, show(v->len), v->s);
	return 0;
}

int values_size(struct parser *p, const struct kw *kw, const struct val *v,
		uint64_t *out)
{
	char buf[64];

	if (!cstr(v, buf, sizeof(buf)) || units_parse_size(buf, out))
		return perr(p, v->pos,
			    "%s=%.*s is not a size (bytes, or a number with k, m, g or t)",
			    kw->name, show(v->len), v->s);
	return 0;
}

/* x, read from v, must be more than 0; unit ends the message. */
int values_positive(struct parser *p, const struct kw *kw, const struct val *v,
		    double x, const char *unit)
{
	if (x > 0)
		return 0;
	return perr(p, v->pos, "%s=%.*s must be more than 0%s", kw->name,
		    show(v->len), v->s, unit);
}

/* The one number of it, more than 0. */
int values_read_positive(struct parser *p, const struct kw *kw,
			 const struct item *it, double *out, const char *unit)
{
	const struct val *v = values_single(p, kw, it);
	int ret = v ? values_number(p, kw, v, out) : -EINVAL;

	return ret ? ret : values_positive(p, kw, v, *out, unit);
}

bool values_all_are(const struct item *it, const char *word)
{
	if (!word || !it->nval)
		return false;
	for (size_t i = 0; i < it->nval; i++)
		if (!val_is(&it->val[i], word))
			return false;
	return true;
}

static int parse_size(struct parser *p, const struct kw *kw,
		      const struct val *v, double *out)
{
	uint64_t n;
	int ret = values_size(p, kw, v, &n);

	*out = (double)n;
	return ret;
}

int values_parse_seek(struct parser *p, const struct kw *kw,
		      const struct val *v, double *out)
{
	if (val_is(v, "random")) {
		*out = 100;
		return 0;
	}
	if (val_is(v, "seq") || val_is(v, "sequential")) {
		*out = 0;
		return 0;
	}
	if (val_is(v, "eof") || val_is(v, "-1")) {
		*out = PARAMS_SEEK_EOF;
		return 0;
	}
	if (!isdigit((unsigned char)v->s[0]))
		return perr(p, v->pos,
			    "%s=%.*s is not a percentage, random, seq, sequential or eof",
			    kw->name, show(v->len), v->s);
	return values_number(p, kw, v, out);
}

static int parse_iorate(struct parser *p, const struct kw *kw,
			const struct val *v, double *out)
{
	if (val_is(v, "max")) {
		*out = IORATE_MAX_MARK;
		return 0;
	}
	if (val_is(v, "curve") || val_is(v, "slo"))
		return perr(p, v->pos,
			    "%s=%.*s must be alone, not in a list of rates",
			    kw->name, show(v->len), v->s);
	if (values_number(p, kw, v, out))
		return perr(p, v->pos,
			    "%s=%.*s is not max, curve, slo or a number",
			    kw->name, show(v->len), v->s);
	return 0;
}

static int check_pct(struct parser *p, const struct kw *kw,
		     struct params_pos pos, const char *sh, double x)
{
	return check_range(p, kw, pos, sh, x, 0, 100);
}

int values_check_seek(struct parser *p, const struct kw *kw,
		      struct params_pos pos, const char *sh, double x)
{
	return x == PARAMS_SEEK_EOF ? 0 : check_pct(p, kw, pos, sh, x);
}

static int check_xfer(struct parser *p, const struct kw *kw,
		      struct params_pos pos, const char *sh, double x)
{
	if (x < XFER_MIN || x > XFER_MAX)
		return perr(p, pos, "%s=%s is out of range 512..1m", kw->name,
			    sh);
	if (fmod(x, XFER_MIN) != 0)
		return perr(p, pos, "%s=%s is not a multiple of 512", kw->name,
			    sh);
	return 0;
}

int values_check_hitarea(struct parser *p, const struct kw *kw,
			 struct params_pos pos, const char *sh, double x)
{
	/* 0 (HCIBench writes it) leaves no room for hits: the planner
	 * refuses it only when a wd asks for some. */
	if (x < 0 || fmod(x, 4096) != 0)
		return perr(p, pos, "%s=%s is not a multiple of 4k", kw->name,
			    sh);
	return 0;
}

static int check_threads(struct parser *p, const struct kw *kw,
			 struct params_pos pos, const char *sh, double x)
{
	return check_whole(p, kw, pos, sh, x, 1, THREADS_MAX);
}

static int check_ratio(struct parser *p, const struct kw *kw,
		       struct params_pos pos, const char *sh, double x)
{
	if (x < 1)
		return perr(p, pos, "%s=%s must be at least 1", kw->name, sh);
	return 0;
}

static int check_iorate(struct parser *p, const struct kw *kw,
			struct params_pos pos, const char *sh, double x)
{
	if (x != IORATE_MAX_MARK && x <= 0)
		return perr(p, pos, "%s=%s must be more than 0", kw->name, sh);
	return 0;
}

static int check_curve(struct parser *p, const struct kw *kw,
		       struct params_pos pos, const char *sh, double x)
{
	if (x <= 0 || x > 100)
		return perr(p, pos, "%s=%s is out of range (0..100]", kw->name,
			    sh);
	return 0;
}

/* foroperation=: an operation's name, as its enum params_fsop. */
static int parse_operation(struct parser *p, const struct kw *kw,
			   const struct val *v, double *out)
{
	int op = fsop_parse(v);

	if (op >= 0) {
		*out = op;
		return 0;
	}
	return perr(p, v->pos,
		    "%s=%.*s is not an operation (read, write, create, delete, mkdir, rmdir, open, close, getattr, setattr, access, copy or move)",
		    kw->name, show(v->len), v->s);
}

static int check_any(struct parser *p, const struct kw *kw,
		     struct params_pos pos, const char *sh, double x)
{
	(void)p, (void)kw, (void)pos, (void)sh, (void)x;
	return 0;
}

/* fordepth=: as an fsd's depth= (common/fstree.h bounds a path). */
static int check_depth(struct parser *p, const struct kw *kw,
		       struct params_pos pos, const char *sh, double x)
{
	return check_whole(p, kw, pos, sh, x, 1, FSTREE_PATH_MAX / 2);
}

static int check_width(struct parser *p, const struct kw *kw,
		       struct params_pos pos, const char *sh, double x)
{
	return check_whole(p, kw, pos, sh, x, 1, UINT32_MAX);
}

static int check_files(struct parser *p, const struct kw *kw,
		       struct params_pos pos, const char *sh, double x)
{
	return check_whole(p, kw, pos, sh, x, 1, FSTREE_FILES_MAX);
}

/* v ends in '%'. */
static bool is_pct(const struct val *v)
{
	return v->len > 1 && v->s[v->len - 1] == '%';
}

/*
 * fortotal= (totalsize= on an rd): bytes, or N% (Vdbench's parser makes
 * it -N, as here; For_loop.forLoopOverrideFwd takes N percent of each
 * fsd's totalsize=, resolved by the planner, params_total_pct).
 */
static int parse_total(struct parser *p, const struct kw *kw,
		       const struct val *v, double *out)
{
	struct val n = *v;

	if (!is_pct(v))
		return parse_size(p, kw, v, out);
	n.len--;
	if (v->s[0] == '-')
		return perr(p, v->pos, "%s=%.*s: a percentage from 1%%",
			    kw->name, show(v->len), v->s);
	if (values_number(p, kw, &n, out))
		return -EINVAL;
	if (*out == 0)
		return perr(p, v->pos,
			    "%s=%.*s: Vdbench reads 0%% as 0, each fsd's own totalsize=; give 0 for that",
			    kw->name, show(v->len), v->s);
	*out = -*out;
	return 0;
}

/*
 * Bytes from 0 (fortotal=0: each fsd's own totalsize=, Vdbench's; forwss=0:
 * no working set, every file), or a whole percentage from 1 (fortotal=:
 * Vdbench's (long) cast drops a fraction, and 0% would be its 0).
 */
static int check_total(struct parser *p, const struct kw *kw,
		       struct params_pos pos, const char *sh, double x)
{
	if (x >= 0)
		return 0;
	if (x != floor(x))
		return perr(p, pos,
			    "%s=%s: give a whole percentage (Vdbench drops the fraction)",
			    kw->name, sh);
	if (x < -1e9)
		return perr(p, pos, "%s=%s is out of range 1%%..1000000000%%",
			    kw->name, sh);
	return 0;
}

/* forwss=, forsizes=: bytes; a percentage has no meaning in Vdbench. */
static int parse_bytes(struct parser *p, const struct kw *kw,
		       const struct val *v, double *out)
{
	if (is_pct(v))
		return perr(p, v->pos,
			    "%s=%.*s: a percentage is only for fortotal= (Vdbench's For_loop resolves no other); give bytes",
			    kw->name, show(v->len), v->s);
	return parse_size(p, kw, v, out);
}

/* forsizes=: at least a byte, as an fsd's sizes=. */
static int check_bytes(struct parser *p, const struct kw *kw,
		       struct params_pos pos, const char *sh, double x)
{
	if (x < 1)
		return perr(p, pos, "%s=%s: give at least 1 byte", kw->name,
			    sh);
	return 0;
}

const struct numkind values_num_iorate = { parse_iorate, check_iorate };
const struct numkind values_num_curve = { values_number, check_curve };
const struct numkind values_num_loop[PARAMS_LOOP_NR] = {
	[PARAMS_LOOP_XFERSIZE] = { parse_size, check_xfer },
	[PARAMS_LOOP_RDPCT] = { values_number, check_pct },
	[PARAMS_LOOP_SEEKPCT] = { values_parse_seek, values_check_seek },
	[PARAMS_LOOP_THREADS] = { values_number, check_threads },
	[PARAMS_LOOP_COMPRATIO] = { values_number, check_ratio },
	[PARAMS_LOOP_RHPCT] = { values_number, check_pct },
	[PARAMS_LOOP_WHPCT] = { values_number, check_pct },
	[PARAMS_LOOP_HITAREA] = { parse_size, values_check_hitarea },
	[PARAMS_LOOP_OPERATION] = { parse_operation, check_any },
	[PARAMS_LOOP_DEPTH] = { values_number, check_depth },
	[PARAMS_LOOP_WIDTH] = { values_number, check_width },
	[PARAMS_LOOP_FILES] = { values_number, check_files },
	[PARAMS_LOOP_SIZES] = { parse_bytes, check_bytes },
	[PARAMS_LOOP_TOTAL] = { parse_total, check_total },
	[PARAMS_LOOP_WSS] = { parse_bytes, check_any },
};

/* One value, read and judged, appended to out. */
static int add_value(struct parser *p, const struct kw *kw,
		     const struct numkind *nk, const struct val *v, double *out,
		     size_t *n)
{
	char b[SHOW_MAX + 1];
	double x;
	int ret = nk->parse(p, kw, v, &x);

	if (!ret)
		ret = nk->check(p, kw, v->pos, shown(v, b, sizeof(b)), x);
	if (ret)
		return ret;
	if (*n == PARAMS_LIST_MAX)
		return perr(p, v->pos, "%s= expands to more than %d values",
			    kw->name, PARAMS_LIST_MAX);
	out[(*n)++] = x;
	return 0;
}

/* The '-' of a range such as 10-100, or NULL. */
static const char *range_dash(const struct val *v)
{
	return v->len > 2 ? memchr(v->s + 1, '-', v->len - 2) : NULL;
}

/*
 * The values from a to b (either way round) by step, or doubling
 * (halving when going down) when step is 'd', as Vdbench's (1k-64k,d).
 */
static int add_range(struct parser *p, const struct kw *kw,
		     const struct numkind *nk, const struct val *a,
		     const struct val *b, const struct val *step, double *out,
		     size_t *n)
{
	bool dbl = val_is(step, "d");
	double xa, xb, st = 0, eps, x;
	char sh[64];
	int ret;

	ret = nk->parse(p, kw, a, &xa);
	if (!ret)
		ret = nk->parse(p, kw, b, &xb);
	if (!ret && !dbl)
		ret = nk->parse(p, kw, step, &st);
	if (ret)
		return ret;
	if (dbl ? xa <= 0 || xb <= 0 : st <= 0)
		return perr(p, step->pos,
			    "%s=: a range needs a step more than 0 (or d to double)",
			    kw->name);
	eps = 1e-9 * fmax(1, fmax(fabs(xa), fabs(xb)));
	for (x = xa; xa <= xb ? x <= xb + eps : x >= xb - eps;
	     x = dbl ? (xa <= xb ? x * 2 : x / 2) :
		       (xa <= xb ? x + st : x - st)) {
		snprintf(sh, sizeof(sh), "%g", x);
		ret = nk->check(p, kw, a->pos, sh, x);
		if (ret)
			return ret;
		if (*n == PARAMS_LIST_MAX)
			return perr(p, a->pos,
				    "%s= expands to more than %d values",
				    kw->name, PARAMS_LIST_MAX);
		out[(*n)++] = x;
	}
	return 0;
}

/* A list's value x given twice (a fortotal= percentage is kept as -N). */
static int twice(struct parser *p, const struct kw *kw, const struct item *it,
		 const struct numkind *nk, double x)
{
	bool pct = nk == &values_num_loop[PARAMS_LOOP_TOTAL] && x < 0;

	return perr(p, it->vpos, "%s=%.*s has the value %g%s twice", kw->name,
		    show(it->rawlen), it->raw,
		    x == IORATE_MAX_MARK ? 0 :
		    pct                  ? -x :
					   x,
		    pct ? "%" : "");
}

/*
 * A list of numbers with Vdbench's ranges expanded: "lo-hi,step" (the next
 * value is the step, or d to double) and "(from,to,d)". A value may not
 * come twice: each one is a phase, and phases are named by their values.
 */
int values_expand(struct parser *p, const struct kw *kw, const struct item *it,
		  const struct numkind *nk, double *out, size_t *nout)
{
	size_t n = 0;
	int ret = 0;

	if (it->nval == 3 && val_is(&it->val[2], "d") &&
	    !range_dash(&it->val[0])) {
		ret = add_range(p, kw, nk, &it->val[0], &it->val[1],
				&it->val[2], out, &n);
		goto out;
	}
	for (size_t i = 0; !ret && i < it->nval; i++) {
		const struct val *v = &it->val[i];
		const char *dash = range_dash(v);
		struct val lo, hi;

		if (!dash) {
			ret = add_value(p, kw, nk, v, out, &n);
			continue;
		}
		if (i + 1 == it->nval)
			return perr(p, v->pos,
				    "%s=%.*s: a range needs a step after it, as in (10-100,10)",
				    kw->name, show(v->len), v->s);
		lo = *v;
		lo.len = (size_t)(dash - v->s);
		hi = *v;
		hi.s = dash + 1;
		hi.len = v->len - lo.len - 1;
		hi.pos.col += (unsigned)lo.len + 1;
		ret = add_range(p, kw, nk, &lo, &hi, &it->val[++i], out, &n);
	}
out:
	if (ret)
		return ret;
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++)
			if (out[i] == out[j])
				return twice(p, kw, it, nk, out[i]);
	*nout = n;
	return 0;
}

int values_xfer_size(struct parser *p, const struct kw *kw, const struct val *v,
		     uint32_t *out)
{
	char b[SHOW_MAX + 1];
	double x;
	int ret = parse_size(p, kw, v, &x);

	if (!ret)
		ret = check_xfer(p, kw, v->pos, shown(v, b, sizeof(b)), x);
	if (!ret)
		*out = (uint32_t)x;
	return ret;
}
