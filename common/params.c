/*
 * Parser for Vdbench-syntax parameter files. A scanner turns the text into
 * KEY=VALUE items (a value is a bare word, a "quoted string" or a
 * parenthesized list of those) with the line and column of every keyword and
 * value; definitions (general parameters, hd=, sd=, wd=, rd=) gather the items
 * that belong to them, and each kind's keyword table maps a keyword to the
 * function that checks its value and stores it. Supporting a new keyword is
 * one table row and, if no existing setter fits, one small function. The
 * first error stops the parse and is reported as "NAME:LINE:COLUMN: message".
 */
#include "common/params.h"

#include "common/units.h"

#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Upper bounds that keep values sane; the engine has its own limits. */
#define THREADS_MAX 65536
#define SLAVES_MAX 1024
#define XFER_MIN 512
#define XFER_MAX (1024 * 1024)
/* Parameter files are small; anything this big is not one. */
#define FILE_MAX (16u << 20)
/* Longest value quoted back in a message. */
#define SHOW_MAX 64

/* In the order a file must define them. */
enum kind {
	KIND_NONE = -1,
	KIND_GENERAL,
	KIND_HD,
	KIND_SD,
	KIND_WD,
	KIND_RD,
	KIND_NR,
};

struct val {
	const char *s; /* not NUL-terminated; quotes removed */
	size_t len;
	struct params_pos pos;
};

struct item {
	const char *key;
	size_t keylen;
	struct params_pos kpos;
	const char *raw; /* the value as written, list parentheses included */
	size_t rawlen;
	struct params_pos vpos;
	bool list;
	size_t nval;
	struct val val[PARAMS_LIST_MAX];
	bool first_on_line; /* first item of its line */
	bool indented;      /* that line started with blanks */
	bool cont;          /* that line began with ',' or the last ended so */
};

struct parser;
struct kw;

typedef int (*kw_set_fn)(struct parser *p, const struct kw *kw, void *obj,
			 const struct item *it);

struct kw {
	const char *name;
	kw_set_fn set; /* NULL: accepted and ignored */
	size_t off;    /* field written by the generic setters */
	size_t size;   /* its size, for strings */
};

#define KW_MAX 24

struct kind_desc {
	const char *name;
	const struct kw *kws;
	size_t nkw;
	int (*finish)(struct parser *p);
};

union obj {
	struct params_hd hd;
	struct params_sd sd;
	struct params_wd wd;
	struct params_rd rd;
};

struct parser {
	const char *name;
	const char *text;
	const char *s;   /* scan position */
	const char *bol; /* start of the line s is on */
	unsigned line;
	bool at_bol;    /* nothing scanned yet on this line */
	bool cont_next; /* the last line ended with ',' */
	char *err;
	size_t errlen;
	struct params *out;
	size_t cap[KIND_NR];
	enum kind last; /* the latest kind defined, for the order check */
	struct item it;

	/* The definition being gathered. */
	enum kind kind;
	bool is_default;
	struct params_pos dpos;
	struct params_pos seen[KW_MAX]; /* given in this definition */
	struct params_pos from[KW_MAX]; /* where each value came from */
	union obj cur;

	/* What xx=default lines set so far. */
	union obj dflt[KIND_NR];
	struct params_pos dflt_from[KIND_NR][KW_MAX];
};

static const struct kind_desc kinds[KIND_NR];

__attribute__((format(printf, 3, 4))) static int
perr(struct parser *p, struct params_pos pos, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!p->err || !p->errlen)
		return -EINVAL;
	n = snprintf(p->err, p->errlen, "%s:%u:%u: ", p->name, pos.line,
		     pos.col);
	if (n < 0 || (size_t)n >= p->errlen)
		return -EINVAL;
	va_start(ap, fmt);
	vsnprintf(p->err + n, p->errlen - (size_t)n, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* How many characters of a value to quote back in a message. */
static int show(size_t len)
{
	return len > SHOW_MAX ? SHOW_MAX : (int)len;
}

/* ---- scanner ---------------------------------------------------------- */

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

static bool is_key_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

static bool is_bare_char(char c)
{
	return c && c != '\n' && !is_blank(c) && c != ',' && c != '(' &&
	       c != ')' && c != '"';
}

static bool is_comment_char(char c)
{
	return c == '*' || c == '#';
}

static struct params_pos pos_at(const struct parser *p, const char *c)
{
	struct params_pos pos = { p->line, (unsigned)(c - p->bol) + 1 };

	return pos;
}

/* s is at a '\n': step over it. */
static void newline(struct parser *p)
{
	p->s++;
	p->line++;
	p->bol = p->s;
}

static void skip_to_eol(struct parser *p)
{
	while (*p->s && *p->s != '\n')
		p->s++;
}

/* At the end of a line (or of the text): go to the next line. */
static void end_line(struct parser *p)
{
	if (*p->s == '\n')
		newline(p);
	p->at_bol = true;
}

/* KEY= at c: text a missing comma would have turned into a comment. */
static bool looks_like_param(const char *c)
{
	const char *e = c;

	while (is_key_char(*e))
		e++;
	return e != c && *e == '=';
}

/*
 * Inside a list: skip blanks, newlines and whole comment lines. Fails if a
 * new line looks like the start of a new definition, which means the list's
 * ')' is missing.
 */
static int skip_in_list(struct parser *p, const struct item *it)
{
	const char *c;

	for (;;) {
		while (is_blank(*p->s))
			p->s++;
		if (*p->s != '\n')
			return 0;
		newline(p);
		for (c = p->s; is_blank(*c); c++)
			;
		if (is_comment_char(*c)) {
			p->s = c;
			skip_to_eol(p);
		} else if (c == p->s && looks_like_param(c)) {
			return perr(p, it->vpos, "missing ')' in %.*s=",
				    (int)it->keylen, it->key);
		}
	}
}

static int scan_value(struct parser *p, const struct item *it, struct val *v)
{
	const char *c = p->s, *e;

	v->pos = pos_at(p, c);
	if (*c == '"') {
		for (e = c + 1; *e && *e != '"' && *e != '\n'; e++)
			;
		if (*e != '"')
			return perr(p, v->pos,
				    "unterminated quoted string in %.*s=",
				    (int)it->keylen, it->key);
		v->s = c + 1;
		v->len = (size_t)(e - c - 1);
		p->s = e + 1;
	} else {
		for (e = c; is_bare_char(*e); e++)
			;
		v->s = c;
		v->len = (size_t)(e - c);
		p->s = e;
	}
	if (!v->len)
		return perr(p, v->pos, "%.*s= has an empty value",
			    (int)it->keylen, it->key);
	return 0;
}

/* s is just past the '(' of it's value. */
static int scan_list(struct parser *p, struct item *it)
{
	int ret;

	for (;;) {
		ret = skip_in_list(p, it);
		if (ret)
			return ret;
		if (!*p->s)
			return perr(p, it->vpos, "missing ')' in %.*s=",
				    (int)it->keylen, it->key);
		if (*p->s == '(')
			return perr(p, pos_at(p, p->s),
				    "nested '(' in %.*s= is not allowed",
				    (int)it->keylen, it->key);
		if (it->nval == PARAMS_LIST_MAX)
			return perr(p, pos_at(p, p->s),
				    "%.*s= has more than %d values",
				    (int)it->keylen, it->key, PARAMS_LIST_MAX);
		ret = scan_value(p, it, &it->val[it->nval]);
		if (ret)
			return ret;
		it->nval++;
		ret = skip_in_list(p, it);
		if (ret)
			return ret;
		if (*p->s == ')') {
			p->s++;
			return 0;
		}
		if (*p->s != ',') {
			if (!*p->s)
				return perr(p, it->vpos, "missing ')' in %.*s=",
					    (int)it->keylen, it->key);
			return perr(p, pos_at(p, p->s),
				    "expected ',' or ')' in %.*s=",
				    (int)it->keylen, it->key);
		}
		p->s++;
	}
}

/* One KEY=VALUE at s. */
static int scan_item(struct parser *p)
{
	struct item *it = &p->it;
	const char *c = p->s;
	int ret;

	it->key = c;
	it->kpos = pos_at(p, c);
	while (is_key_char(*c))
		c++;
	it->keylen = (size_t)(c - it->key);
	if (!it->keylen) {
		if (isprint((unsigned char)*c))
			return perr(p, it->kpos,
				    "expected a parameter name, found '%c'",
				    *c);
		return perr(p, it->kpos, "expected a parameter name");
	}
	if (*c != '=')
		return perr(p, pos_at(p, c), "expected '=' after '%.*s'",
			    (int)it->keylen, it->key);
	p->s = ++c;
	it->raw = c;
	it->vpos = pos_at(p, c);
	it->nval = 0;
	it->list = *c == '(';
	if (it->list) {
		p->s++;
		ret = scan_list(p, it);
	} else {
		ret = scan_value(p, it, &it->val[0]);
		it->nval = 1;
	}
	/* A list may span lines; quote back only its first one. */
	for (c = it->raw; c < p->s && *c != '\n'; c++)
		;
	it->rawlen = (size_t)(c - it->raw);
	return ret;
}

/*
 * Scan the next item. Returns 1 with it in p->it, 0 at the end of the text,
 * -EINVAL on a syntax error. As in Vdbench, text after a blank that follows
 * a complete item is a comment; text that reads like a parameter there is an
 * error, because it is almost always a missing comma.
 */
static int next_item(struct parser *p)
{
	struct item *it = &p->it;
	bool first = false, indented = false, cont = false;
	const char *c;

	for (;;) {
		if (p->at_bol) {
			for (c = p->s; is_blank(*c); c++)
				;
			indented = c != p->s;
			p->s = c;
			if (!*c)
				return 0;
			if (*c == '\n') {
				newline(p);
				continue;
			}
			if (is_comment_char(*c)) {
				skip_to_eol(p);
				end_line(p);
				continue;
			}
			p->at_bol = false;
			first = true;
			cont = p->cont_next;
			p->cont_next = false;
			if (*c != ',')
				break;
			cont = true;
		}
		c = p->s;
		while (is_blank(*c))
			c++;
		if (*c == ',') {
			for (c++; is_blank(*c); c++)
				;
			p->s = c;
			if (*c == '\n' || !*c) {
				p->cont_next = true;
				end_line(p);
				continue;
			}
			break;
		}
		if (*c == '\n' || !*c) {
			p->s = c;
			end_line(p);
			continue;
		}
		if (c == p->s) {
			if (isprint((unsigned char)*c))
				return perr(p, pos_at(p, c),
					    "expected ',' before '%c'", *c);
			return perr(p, pos_at(p, c), "expected ','");
		}
		if (looks_like_param(c)) {
			const char *e = strchr(c, '=');

			return perr(p, pos_at(p, c),
				    "'%.*s=' follows a blank: separate parameters with ',' (text after a blank is a comment)",
				    (int)(e - c), c);
		}
		p->s = c;
		skip_to_eol(p);
		end_line(p);
	}
	it->first_on_line = first;
	it->indented = indented;
	it->cont = cont;
	return scan_item(p) ? -EINVAL : 1;
}

/* ---- values ----------------------------------------------------------- */

static bool key_is(const struct item *it, const char *name)
{
	return strlen(name) == it->keylen &&
	       !strncasecmp(it->key, name, it->keylen);
}

static bool val_is(const struct val *v, const char *word)
{
	return strlen(word) == v->len && !strncasecmp(v->s, word, v->len);
}

/* The one value of it (a list of one counts), or NULL after an error. */
static const struct val *single(struct parser *p, const struct kw *kw,
				const struct item *it)
{
	if (it->nval != 1) {
		perr(p, it->vpos, "%s= takes one value, not a list", kw->name);
		return NULL;
	}
	return &it->val[0];
}

/* Copy v into buf as a C string; false when it does not fit. */
static bool cstr(const struct val *v, char *buf, size_t len)
{
	if (v->len >= len)
		return false;
	memcpy(buf, v->s, v->len);
	buf[v->len] = '\0';
	return true;
}

static int number(struct parser *p, const struct kw *kw, const struct val *v,
		  double *out)
{
	char buf[64];

	if (!cstr(v, buf, sizeof(buf)) || units_parse_number(buf, out))
		return perr(p, v->pos, "%s=%.*s is not a number", kw->name,
			    show(v->len), v->s);
	return 0;
}

static int number_in(struct parser *p, const struct kw *kw,
		     const struct val *v, double lo, double hi, double *out)
{
	int ret = number(p, kw, v, out);

	if (ret)
		return ret;
	if (*out < lo || *out > hi)
		return perr(p, v->pos, "%s=%.*s is out of range %g..%g",
			    kw->name, show(v->len), v->s, lo, hi);
	return 0;
}

static int whole(struct parser *p, const struct kw *kw, const struct val *v,
		 double lo, double hi, double *out)
{
	int ret = number(p, kw, v, out);

	if (ret)
		return ret;
	if (*out != floor(*out))
		return perr(p, v->pos, "%s=%.*s is not a whole number",
			    kw->name, show(v->len), v->s);
	if (*out < lo || *out > hi)
		return perr(p, v->pos, "%s=%.*s is out of range %.0f..%.0f",
			    kw->name, show(v->len), v->s, lo, hi);
	return 0;
}

static int seconds(struct parser *p, const struct kw *kw, const struct val *v,
		   double *out)
{
	char buf[64];

	if (!cstr(v, buf, sizeof(buf)) || units_parse_seconds(buf, out))
		return perr(p, v->pos,
			    "%s=%.*s is not a duration (seconds, or a number with s, m or h)",
			    kw->name, show(v->len), v->s);
	return 0;
}

static int size(struct parser *p, const struct kw *kw, const struct val *v,
		uint64_t *out)
{
	char buf[64];

	if (!cstr(v, buf, sizeof(buf)) || units_parse_size(buf, out))
		return perr(p, v->pos,
			    "%s=%.*s is not a size (bytes, or a number with k, m, g or t)",
			    kw->name, show(v->len), v->s);
	return 0;
}

static double *field_double(void *obj, const struct kw *kw)
{
	return (double *)((char *)obj + kw->off);
}

/* ---- setters ---------------------------------------------------------- */

/* A string field of kw->size bytes at kw->off. */
static int set_string(struct parser *p, const struct kw *kw, void *obj,
		      const struct item *it)
{
	const struct val *v = single(p, kw, it);

	if (!v)
		return -EINVAL;
	if (!cstr(v, (char *)obj + kw->off, kw->size))
		return perr(p, v->pos,
			    "%s= is too long (%zu characters, at most %zu)",
			    kw->name, v->len, kw->size - 1);
	return 0;
}

static int set_lun(struct parser *p, const struct kw *kw, void *obj,
		   const struct item *it)
{
	struct params_sd *sd = obj;
	int ret = set_string(p, kw, obj, it);

	if (!ret)
		sd->lun_pos = it->val[0].pos;
	return ret;
}

/* A percentage, 0..100, in the double at kw->off. */
static int set_pct(struct parser *p, const struct kw *kw, void *obj,
		   const struct item *it)
{
	const struct val *v = single(p, kw, it);

	if (!v)
		return -EINVAL;
	return number_in(p, kw, v, 0, 100, field_double(obj, kw));
}

/* A duration > 0 s in the double at kw->off. */
static int set_duration(struct parser *p, const struct kw *kw, void *obj,
			const struct item *it)
{
	const struct val *v = single(p, kw, it);
	int ret;

	if (!v)
		return -EINVAL;
	ret = seconds(p, kw, v, field_double(obj, kw));
	if (ret)
		return ret;
	if (*field_double(obj, kw) <= 0)
		return perr(p, v->pos, "%s=%.*s must be more than 0 seconds",
			    kw->name, show(v->len), v->s);
	return 0;
}

/* A duration >= 0 s in the double at kw->off. */
static int set_duration0(struct parser *p, const struct kw *kw, void *obj,
			 const struct item *it)
{
	const struct val *v = single(p, kw, it);

	if (!v)
		return -EINVAL;
	return seconds(p, kw, v, field_double(obj, kw));
}

/* Keywords Vdbench has and lockstep will have, but not yet. */
static int set_unsupported(struct parser *p, const struct kw *kw, void *obj,
			   const struct item *it)
{
	(void)obj;
	return perr(p, it->kpos, "%s= is not supported yet", kw->name);
}

static int set_data_errors(struct parser *p, const struct kw *kw, void *obj,
			   const struct item *it)
{
	struct params *pa = obj;
	const struct val *v = single(p, kw, it);
	double d;
	int ret = v ? 0 : -EINVAL;

	if (!ret)
		ret = whole(p, kw, v, 0, UINT_MAX, &d);
	if (!ret)
		pa->data_errors = (unsigned)d;
	return ret;
}

static int set_compratio(struct parser *p, const struct kw *kw, void *obj,
			 const struct item *it)
{
	struct params *pa = obj;
	const struct val *v = single(p, kw, it);
	int ret = v ? 0 : -EINVAL;

	if (!ret)
		ret = number(p, kw, v, &pa->compratio);
	if (!ret && pa->compratio < 1)
		return perr(p, v->pos, "%s=%.*s must be at least 1", kw->name,
			    show(v->len), v->s);
	return ret;
}

static int set_shell(struct parser *p, const struct kw *kw, void *obj,
		     const struct item *it)
{
	struct params_hd *hd = obj;
	const struct val *v = single(p, kw, it);

	if (!v)
		return -EINVAL;
	if (val_is(v, "ssh"))
		hd->shell = PARAMS_SHELL_SSH;
	else if (val_is(v, "none"))
		hd->shell = PARAMS_SHELL_NONE;
	else
		return perr(p, v->pos,
			    "%s=%.*s is not supported (use ssh or none)",
			    kw->name, show(v->len), v->s);
	return 0;
}

static int set_slaves(struct parser *p, const struct kw *kw, void *obj,
		      const struct item *it)
{
	struct params_hd *hd = obj;
	const struct val *v = single(p, kw, it);
	double d;
	int ret = v ? 0 : -EINVAL;

	if (!ret)
		ret = whole(p, kw, v, 1, SLAVES_MAX, &d);
	if (!ret)
		hd->slaves = (unsigned)d;
	return ret;
}

static int set_sd_size(struct parser *p, const struct kw *kw, void *obj,
		       const struct item *it)
{
	struct params_sd *sd = obj;
	const struct val *v = single(p, kw, it);
	int ret = v ? 0 : -EINVAL;

	if (!ret)
		ret = size(p, kw, v, &sd->size);
	if (!ret && !sd->size)
		return perr(p, v->pos, "%s=%.*s must be more than 0", kw->name,
			    show(v->len), v->s);
	return ret;
}

static int set_threads(struct parser *p, const struct kw *kw, void *obj,
		       const struct item *it)
{
	struct params_sd *sd = obj;
	const struct val *v = single(p, kw, it);
	double d;
	int ret = v ? 0 : -EINVAL;

	if (!ret)
		ret = whole(p, kw, v, 1, THREADS_MAX, &d);
	if (!ret)
		sd->threads = (unsigned)d;
	return ret;
}

static int set_openflags(struct parser *p, const struct kw *kw, void *obj,
			 const struct item *it)
{
	struct params_sd *sd = obj;
	unsigned flags = 0;

	for (size_t i = 0; i < it->nval; i++) {
		const struct val *v = &it->val[i];

		if (val_is(v, "o_direct") || val_is(v, "directio"))
			flags |= PARAMS_O_DIRECT;
		else if (val_is(v, "o_dsync"))
			flags |= PARAMS_O_DSYNC;
		else
			return perr(p, v->pos,
				    "%s=%.*s is not supported (use o_direct, directio or o_dsync)",
				    kw->name, show(v->len), v->s);
	}
	sd->openflags = flags;
	return 0;
}

static int set_range(struct parser *p, const struct kw *kw, void *obj,
		     const struct item *it)
{
	struct params_sd *sd = obj;
	double lo, hi;
	int ret;

	if (it->nval != 2)
		return perr(p, it->vpos, "%s= needs two values: (low,high)",
			    kw->name);
	ret = number_in(p, kw, &it->val[0], 0, 100, &lo);
	if (!ret)
		ret = number_in(p, kw, &it->val[1], 0, 100, &hi);
	if (ret)
		return ret;
	if (lo >= hi)
		return perr(p, it->vpos,
			    "%s=%.*s: the low end must be below the high end",
			    kw->name, show(it->rawlen), it->raw);
	sd->range_lo = lo;
	sd->range_hi = hi;
	return 0;
}

static int xfer_size(struct parser *p, const struct kw *kw,
		     const struct val *v, uint32_t *out)
{
	uint64_t n;
	int ret = size(p, kw, v, &n);

	if (ret)
		return ret;
	if (n < XFER_MIN || n > XFER_MAX)
		return perr(p, v->pos, "%s=%.*s is out of range 512..1m",
			    kw->name, show(v->len), v->s);
	if (n % XFER_MIN)
		return perr(p, v->pos, "%s=%.*s is not a multiple of 512",
			    kw->name, show(v->len), v->s);
	*out = (uint32_t)n;
	return 0;
}

/* xfersize=4k or xfersize=(4k,50,8k,50): sizes with their share of I/Os. */
static int set_xfersize(struct parser *p, const struct kw *kw, void *obj,
			const struct item *it)
{
	struct params_wd *wd = obj;
	struct params_xfer x[PARAMS_XFER_MAX];
	double sum = 0;
	size_t n = it->nval / 2;
	int ret;

	if (it->nval == 1) {
		ret = xfer_size(p, kw, &it->val[0], &x[0].size);
		if (ret)
			return ret;
		wd->xfer[0].size = x[0].size;
		wd->xfer[0].pct = 100;
		wd->nxfer = 1;
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

		ret = xfer_size(p, kw, &it->val[2 * i], &x[i].size);
		if (!ret)
			ret = number(p, kw, pv, &x[i].pct);
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
	memcpy(wd->xfer, x, n * sizeof(x[0]));
	wd->nxfer = n;
	return 0;
}

static int set_seekpct(struct parser *p, const struct kw *kw, void *obj,
		       const struct item *it)
{
	struct params_wd *wd = obj;
	const struct val *v = single(p, kw, it);

	if (!v)
		return -EINVAL;
	if (val_is(v, "random")) {
		wd->seekpct = 100;
		return 0;
	}
	if (val_is(v, "seq") || val_is(v, "sequential")) {
		wd->seekpct = 0;
		return 0;
	}
	if (!isdigit((unsigned char)v->s[0]))
		return perr(p, v->pos,
			    "%s=%.*s is not a percentage, random, seq or sequential",
			    kw->name, show(v->len), v->s);
	return number_in(p, kw, v, 0, 100, &wd->seekpct);
}

static int set_iorate(struct parser *p, const struct kw *kw, void *obj,
		      const struct item *it)
{
	struct params_rd *rd = obj;
	const struct val *v = single(p, kw, it);

	if (!v)
		return -EINVAL;
	if (val_is(v, "max")) {
		rd->iorate = 0;
		return 0;
	}
	if (number(p, kw, v, &rd->iorate))
		return perr(p, v->pos, "%s=%.*s is not max or a number",
			    kw->name, show(v->len), v->s);
	if (rd->iorate <= 0)
		return perr(p, v->pos, "%s=%.*s must be more than 0",
			    kw->name, show(v->len), v->s);
	return 0;
}

static const char *obj_name(enum kind k, size_t i, const struct params *pa)
{
	switch (k) {
	case KIND_HD:
		return pa->hd[i].name;
	case KIND_SD:
		return pa->sd[i].name;
	case KIND_WD:
		return pa->wd[i].name;
	case KIND_RD:
		return pa->rd[i].name;
	default:
		return NULL;
	}
}

static size_t obj_count(enum kind k, const struct params *pa)
{
	switch (k) {
	case KIND_HD:
		return pa->nhd;
	case KIND_SD:
		return pa->nsd;
	case KIND_WD:
		return pa->nwd;
	case KIND_RD:
		return pa->nrd;
	default:
		return 0;
	}
}

static bool has_wildcard(const struct val *v)
{
	return memchr(v->s, '*', v->len) || memchr(v->s, '?', v->len);
}

static bool has_index(const unsigned *idx, size_t n, unsigned i)
{
	for (size_t j = 0; j < n; j++)
		if (idx[j] == i)
			return true;
	return false;
}

/*
 * Names of earlier definitions of kind k, or shell-style patterns (sd*)
 * matching them, into indexes; each one once, in the order given.
 */
static int set_refs(struct parser *p, const struct kw *kw,
		    const struct item *it, enum kind k, unsigned *idx,
		    size_t *nidx)
{
	size_t total = obj_count(k, p->out), n = 0;
	char buf[PARAMS_NAME_MAX];

	for (size_t i = 0; i < it->nval; i++) {
		const struct val *v = &it->val[i];
		bool wild = has_wildcard(v), found = false;
		/* A name too long to fit was never defined. */
		size_t candidates = cstr(v, buf, sizeof(buf)) ? total : 0;

		for (size_t j = 0; j < candidates; j++) {
			const char *name = obj_name(k, j, p->out);

			if (wild ? fnmatch(buf, name, 0) : strcmp(buf, name))
				continue;
			found = true;
			if (has_index(idx, n, (unsigned)j))
				continue;
			if (n == PARAMS_LIST_MAX)
				return perr(p, v->pos,
					    "%s= names more than %d %ss",
					    kw->name, PARAMS_LIST_MAX,
					    kinds[k].name);
			idx[n++] = (unsigned)j;
		}
		if (!found && wild)
			return perr(p, v->pos, "%s=%.*s matches no %s",
				    kw->name, show(v->len), v->s,
				    kinds[k].name);
		if (!found)
			return perr(p, v->pos,
				    "%s=%.*s refers to an undefined %s",
				    kw->name, show(v->len), v->s,
				    kinds[k].name);
	}
	*nidx = n;
	return 0;
}

static int set_wd_sd(struct parser *p, const struct kw *kw, void *obj,
		     const struct item *it)
{
	struct params_wd *wd = obj;

	return set_refs(p, kw, it, KIND_SD, wd->sd, &wd->nsd);
}

static int set_rd_wd(struct parser *p, const struct kw *kw, void *obj,
		     const struct item *it)
{
	struct params_rd *rd = obj;

	return set_refs(p, kw, it, KIND_WD, rd->wd, &rd->nwd);
}

/* ---- keyword tables --------------------------------------------------- */

#define STR(type, field)                                              \
	.set = set_string, .off = offsetof(type, field),              \
	.size = sizeof(((type *)0)->field)
#define DBL(fn, type, field) .set = fn, .off = offsetof(type, field)

static const struct kw general_kws[] = {
	{ "compratio", set_compratio, 0, 0 },
	{ "data_errors", set_data_errors, 0, 0 },
	{ "debug", NULL, 0, 0 },
	{ "dedupratio", NULL, 0, 0 },
	{ "dedupunit", NULL, 0, 0 },
	{ "validate", NULL, 0, 0 },
};

static const struct kw hd_kws[] = {
	{ "system", STR(struct params_hd, system) },
	{ "user", STR(struct params_hd, user) },
	{ "shell", set_shell, 0, 0 },
	{ "slaves", set_slaves, 0, 0 },
	/* Where Vdbench is installed: lockstep has no use for it. */
	{ "vdbench", NULL, 0, 0 },
};

static const struct kw sd_kws[] = {
	{ "lun", .set = set_lun, .off = offsetof(struct params_sd, lun),
	  .size = sizeof(((struct params_sd *)0)->lun) },
	{ "size", set_sd_size, 0, 0 },
	{ "threads", set_threads, 0, 0 },
	{ "openflags", set_openflags, 0, 0 },
	{ "range", set_range, 0, 0 },
	/* Only matters with rhpct=/whpct=, which are not supported. */
	{ "hitarea", NULL, 0, 0 },
	{ "align", set_unsupported, 0, 0 },
	{ "offset", set_unsupported, 0, 0 },
	{ "host", set_unsupported, 0, 0 },
};

static const struct kw wd_kws[] = {
	{ "sd", set_wd_sd, 0, 0 },
	{ "xfersize", set_xfersize, 0, 0 },
	{ "rdpct", DBL(set_pct, struct params_wd, rdpct) },
	{ "seekpct", set_seekpct, 0, 0 },
	{ "range", set_unsupported, 0, 0 },
	{ "skew", set_unsupported, 0, 0 },
	{ "iorate", set_unsupported, 0, 0 },
};

static const struct kw rd_kws[] = {
	{ "wd", set_rd_wd, 0, 0 },
	{ "iorate", set_iorate, 0, 0 },
	{ "elapsed", DBL(set_duration, struct params_rd, elapsed_s) },
	{ "warmup", DBL(set_duration0, struct params_rd, warmup_s) },
	{ "interval", DBL(set_duration, struct params_rd, interval_s) },
	{ "curve", set_unsupported, 0, 0 },
	{ "forxfersize", set_unsupported, 0, 0 },
	{ "forrdpct", set_unsupported, 0, 0 },
	{ "forseekpct", set_unsupported, 0, 0 },
	{ "forthreads", set_unsupported, 0, 0 },
	{ "format", set_unsupported, 0, 0 },
};

static int finish_hd(struct parser *p);
static int finish_sd(struct parser *p);
static int finish_wd(struct parser *p);
static int finish_rd(struct parser *p);

#define KIND(n, t, f) { n, t, sizeof(t) / sizeof(t[0]), f }
static const struct kind_desc kinds[KIND_NR] = {
	[KIND_GENERAL] = KIND("general", general_kws, NULL),
	[KIND_HD] = KIND("hd", hd_kws, finish_hd),
	[KIND_SD] = KIND("sd", sd_kws, finish_sd),
	[KIND_WD] = KIND("wd", wd_kws, finish_wd),
	[KIND_RD] = KIND("rd", rd_kws, finish_rd),
};

static int kw_find(enum kind k, const struct item *it)
{
	for (size_t i = 0; i < kinds[k].nkw; i++)
		if (key_is(it, kinds[k].kws[i].name))
			return (int)i;
	return -1;
}

static int kw_index(enum kind k, const char *name)
{
	for (size_t i = 0; i < kinds[k].nkw; i++)
		if (!strcmp(kinds[k].kws[i].name, name))
			return (int)i;
	assert(0 && "keyword not in its table");
	return -1;
}

/* The kind an item such as sd=NAME starts, or KIND_NONE. */
static enum kind starter(const struct item *it)
{
	for (int k = KIND_HD; k < KIND_NR; k++)
		if (key_is(it, kinds[k].name))
			return (enum kind)k;
	return KIND_NONE;
}

/* ---- unknown keywords ------------------------------------------------- */

#define EDIT_MAX 32

/* Case-insensitive Levenshtein distance; long words count as far. */
static size_t edit_distance(const char *a, size_t alen, const char *b)
{
	size_t blen = strlen(b), row[EDIT_MAX + 1];

	if (alen > EDIT_MAX || blen > EDIT_MAX)
		return SIZE_MAX;
	for (size_t j = 0; j <= blen; j++)
		row[j] = j;
	for (size_t i = 1; i <= alen; i++) {
		size_t diag = row[0];

		row[0] = i;
		for (size_t j = 1; j <= blen; j++) {
			size_t up = row[j];
			size_t cost = tolower((unsigned char)a[i - 1]) !=
				      tolower((unsigned char)b[j - 1]);
			size_t best = diag + cost;

			if (row[j] + 1 < best)
				best = row[j] + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	return row[blen];
}

static void suggest_from(const struct item *it, const char *cand,
			 const char **best, size_t *bestd)
{
	size_t d = edit_distance(it->key, it->keylen, cand);

	if (d < *bestd) {
		*best = cand;
		*bestd = d;
	}
}

static int unknown(struct parser *p, enum kind k, const struct item *it)
{
	const char *best = NULL;
	size_t bestd = SIZE_MAX;

	for (size_t i = 0; i < kinds[k].nkw; i++)
		suggest_from(it, kinds[k].kws[i].name, &best, &bestd);
	/* Before any definition a misspelt sd= is likelier than anything. */
	for (int s = KIND_HD; k == KIND_GENERAL && s < KIND_NR; s++)
		suggest_from(it, kinds[s].name, &best, &bestd);
	if (best && bestd <= 2 && bestd < it->keylen)
		return perr(p, it->kpos,
			    "unknown %s parameter '%.*s' (did you mean '%s'?)",
			    kinds[k].name, show(it->keylen), it->key, best);
	return perr(p, it->kpos, "unknown %s parameter '%.*s'",
		    kinds[k].name, show(it->keylen), it->key);
}

/* ---- definitions ------------------------------------------------------ */

static void obj_defaults(union obj *o, enum kind k)
{
	memset(o, 0, sizeof(*o));
	switch (k) {
	case KIND_HD:
		o->hd.shell = PARAMS_SHELL_SSH;
		o->hd.slaves = 1;
		break;
	case KIND_SD:
		o->sd.threads = 8;
		o->sd.range_hi = 100;
		break;
	case KIND_WD:
		o->wd.nxfer = 1;
		o->wd.xfer[0].size = 4096;
		o->wd.xfer[0].pct = 100;
		o->wd.rdpct = 100;
		o->wd.seekpct = 100;
		break;
	case KIND_RD:
		o->rd.elapsed_s = 30;
		o->rd.warmup_s = 0;
		o->rd.interval_s = 1;
		break;
	default:
		break;
	}
}

/* Every kind's struct starts with its name. */
static char *cur_name(struct parser *p)
{
	return p->cur.sd.name;
}

static struct params_pos *cur_pos(struct parser *p)
{
	switch (p->kind) {
	case KIND_HD:
		return &p->cur.hd.pos;
	case KIND_SD:
		return &p->cur.sd.pos;
	case KIND_WD:
		return &p->cur.wd.pos;
	default:
		return &p->cur.rd.pos;
	}
}

static int finish_hd(struct parser *p)
{
	struct params_hd *hd = &p->cur.hd;

	if (!hd->system[0])
		memcpy(hd->system, hd->name, sizeof(hd->name));
	return 0;
}

static int finish_sd(struct parser *p)
{
	if (!p->cur.sd.lun[0])
		return perr(p, p->dpos, "sd=%s needs lun=", p->cur.sd.name);
	return 0;
}

static int finish_wd(struct parser *p)
{
	struct params_wd *wd = &p->cur.wd;

	if (wd->nsd)
		return 0;
	if (p->out->nsd == 1) {
		wd->sd[0] = 0;
		wd->nsd = 1;
		return 0;
	}
	if (!p->out->nsd)
		return perr(p, p->dpos,
			    "wd=%s needs sd=, and no sd= is defined",
			    wd->name);
	return perr(p, p->dpos,
		    "wd=%s needs sd= to say which of the %zu sds it uses",
		    wd->name, p->out->nsd);
}

static bool is_multiple(double a, double b)
{
	double q = a / b;

	return fabs(q - nearbyint(q)) <= 1e-9 * fmax(1, q);
}

/* Where a value of the current definition came from, for messages. */
static struct params_pos src_pos(struct parser *p, const char *kwname)
{
	struct params_pos pos = p->from[kw_index(p->kind, kwname)];

	return pos.line ? pos : p->dpos;
}

static int finish_rd(struct parser *p)
{
	struct params_rd *rd = &p->cur.rd;
	int ie = kw_index(KIND_RD, "elapsed");
	int iw = kw_index(KIND_RD, "warmup");

	if (!rd->nwd && p->out->nwd == 1) {
		rd->wd[0] = 0;
		rd->nwd = 1;
	} else if (!rd->nwd && !p->out->nwd) {
		return perr(p, p->dpos,
			    "rd=%s needs wd=, and no wd= is defined",
			    rd->name);
	} else if (!rd->nwd) {
		return perr(p, p->dpos,
			    "rd=%s needs wd= to say which of the %zu wds it runs",
			    rd->name, p->out->nwd);
	}
	if (!is_multiple(rd->elapsed_s, rd->interval_s))
		return perr(p,
			    p->from[ie].line ? p->from[ie] :
					       src_pos(p, "interval"),
			    "elapsed=%g is not a multiple of interval=%g",
			    rd->elapsed_s, rd->interval_s);
	if (!is_multiple(rd->warmup_s, rd->interval_s))
		return perr(p,
			    p->from[iw].line ? p->from[iw] :
					       src_pos(p, "interval"),
			    "warmup=%g is not a multiple of interval=%g",
			    rd->warmup_s, rd->interval_s);
	return 0;
}

static int grow(struct parser *p, enum kind k, void **arr, size_t n,
		size_t elem)
{
	size_t cap = p->cap[k] ? 2 * p->cap[k] : 8;
	void *na;

	if (n < p->cap[k])
		return 0;
	na = realloc(*arr, cap * elem);
	if (!na)
		return -ENOMEM;
	*arr = na;
	p->cap[k] = cap;
	return 0;
}

/* Store the definition in progress: in the defaults or in the result. */
static int def_finish(struct parser *p)
{
	struct params *pa = p->out;
	enum kind k = p->kind;
	int ret;

	p->kind = KIND_NONE;
	if (k == KIND_NONE || k == KIND_GENERAL)
		return 0;
	if (p->is_default) {
		p->dflt[k] = p->cur;
		memcpy(p->dflt_from[k], p->from, sizeof(p->from));
		return 0;
	}
	p->kind = k;
	ret = kinds[k].finish(p);
	p->kind = KIND_NONE;
	if (ret)
		return ret;
	switch (k) {
	case KIND_HD:
		ret = grow(p, k, (void **)&pa->hd, pa->nhd, sizeof(*pa->hd));
		if (!ret)
			pa->hd[pa->nhd++] = p->cur.hd;
		break;
	case KIND_SD:
		ret = grow(p, k, (void **)&pa->sd, pa->nsd, sizeof(*pa->sd));
		if (!ret)
			pa->sd[pa->nsd++] = p->cur.sd;
		break;
	case KIND_WD:
		ret = grow(p, k, (void **)&pa->wd, pa->nwd, sizeof(*pa->wd));
		if (!ret)
			pa->wd[pa->nwd++] = p->cur.wd;
		break;
	default:
		ret = grow(p, k, (void **)&pa->rd, pa->nrd, sizeof(*pa->rd));
		if (!ret)
			pa->rd[pa->nrd++] = p->cur.rd;
		break;
	}
	return ret;
}

static int def_apply(struct parser *p, const struct item *it)
{
	const struct kw *kw;
	int i;

	if (p->kind == KIND_NONE)
		return unknown(p, KIND_GENERAL, it);
	if (p->kind != KIND_GENERAL && key_is(it, kinds[p->kind].name))
		return perr(p, it->kpos,
			    "a second %s= in one definition (start each definition on a new line)",
			    kinds[p->kind].name);
	i = kw_find(p->kind, it);
	if (i < 0)
		return unknown(p, p->kind, it);
	kw = &kinds[p->kind].kws[i];
	if (p->seen[i].line)
		return perr(p, it->kpos,
			    "%s= is given twice (first at %u:%u)", kw->name,
			    p->seen[i].line, p->seen[i].col);
	p->seen[i] = p->from[i] = it->kpos;
	if (!kw->set)
		return 0;
	return kw->set(p, kw, p->kind == KIND_GENERAL ? (void *)p->out :
						       (void *)&p->cur,
		       it);
}

static int check_name(struct parser *p, enum kind k, const struct val *v)
{
	const char *kn = kinds[k].name;
	size_t n = obj_count(k, p->out);

	if (v->len >= PARAMS_NAME_MAX)
		return perr(p, v->pos,
			    "%s= name is too long (%zu characters, at most %d)",
			    kn, v->len, PARAMS_NAME_MAX - 1);
	for (size_t i = 0; i < v->len; i++) {
		unsigned char c = (unsigned char)v->s[i];

		if (c == '/' || c == '\\' || c == '*' || c == '?' ||
		    iscntrl(c))
			return perr(p, v->pos,
				    "%s=%.*s: a name may not contain '%c'", kn,
				    show(v->len), v->s, iscntrl(c) ? '?' : c);
	}
	for (size_t i = 0; i < n; i++) {
		const char *name = obj_name(k, i, p->out);

		if (strlen(name) == v->len && !memcmp(name, v->s, v->len)) {
			const struct params_pos *pos =
				k == KIND_HD ? &p->out->hd[i].pos :
				k == KIND_SD ? &p->out->sd[i].pos :
				k == KIND_WD ? &p->out->wd[i].pos :
					       &p->out->rd[i].pos;

			return perr(p, v->pos,
				    "%s=%.*s is already defined at line %u",
				    kn, show(v->len), v->s, pos->line);
		}
	}
	return 0;
}

/* An item that starts a definition of kind k. */
static int def_start(struct parser *p, enum kind k, const struct item *it)
{
	const struct val *v = &it->val[0];
	int ret = def_finish(p);

	if (ret)
		return ret;
	if (k < p->last)
		return perr(p, it->kpos,
			    "%.*s=%.*s must come before the %s= definitions (the order is general, hd, sd, wd, rd)",
			    (int)it->keylen, it->key, show(it->rawlen),
			    it->raw, kinds[p->last].name);
	p->last = k;
	p->kind = k;
	p->dpos = it->kpos;
	memset(p->seen, 0, sizeof(p->seen));
	if (k == KIND_GENERAL) {
		memset(p->from, 0, sizeof(p->from));
		return def_apply(p, it);
	}
	if (it->list)
		return perr(p, it->vpos, "%s= takes one name, not a list",
			    kinds[k].name);
	p->cur = p->dflt[k];
	memcpy(p->from, p->dflt_from[k], sizeof(p->from));
	p->is_default = val_is(v, "default");
	if (p->is_default)
		return 0;
	ret = check_name(p, k, v);
	if (ret)
		return ret;
	memcpy(cur_name(p), v->s, v->len);
	cur_name(p)[v->len] = '\0';
	*cur_pos(p) = it->kpos;
	return 0;
}

/*
 * Where an item that opens a line belongs. A line starts a new definition
 * when it opens with sd=, wd=, ... unless it is a continuation: after a
 * trailing ',' or before a leading one, or an indented line whose keyword is
 * also a parameter of the current definition (an indented sd= under a wd=).
 * An unindented general parameter starts a general line; everything else
 * continues the current definition.
 */
static enum kind line_kind(const struct parser *p, const struct item *it)
{
	enum kind k;

	if (!it->first_on_line || it->cont)
		return KIND_NONE;
	k = starter(it);
	if (k != KIND_NONE) {
		if (!it->indented || p->kind == KIND_NONE ||
		    kw_find(p->kind, it) < 0)
			return k;
		return KIND_NONE;
	}
	if (kw_find(KIND_GENERAL, it) >= 0 &&
	    (!it->indented || p->kind == KIND_NONE))
		return KIND_GENERAL;
	return KIND_NONE;
}

/* The line and column of e in text. */
static struct params_pos text_pos(const char *text, const char *e)
{
	const char *bol = text;
	struct params_pos pos = { 1, 1 };

	for (const char *c = text; c < e; c++) {
		if (*c == '\n') {
			pos.line++;
			bol = c + 1;
		}
	}
	pos.col = (unsigned)(e - bol) + 1;
	return pos;
}

/* The end of the text's last line, for errors about the file as a whole. */
static struct params_pos end_pos(const char *text)
{
	const char *e = text + strlen(text);

	while (e > text && (e[-1] == '\n' || is_blank(e[-1])))
		e--;
	return text_pos(text, e);
}

static int parse(struct parser *p)
{
	int ret;

	while ((ret = next_item(p)) == 1) {
		enum kind k = line_kind(p, &p->it);

		if (k != KIND_NONE)
			ret = def_start(p, k, &p->it);
		else
			ret = def_apply(p, &p->it);
		if (ret)
			return ret;
	}
	if (!ret)
		ret = def_finish(p);
	if (!ret && !p->out->nrd)
		ret = perr(p, end_pos(p->text),
			   "no rd= run definition: nothing to run");
	return ret;
}

int params_parse_string(const char *name, const char *text,
			struct params **out, char *err, size_t errlen)
{
	struct parser *p;
	int ret;

	assert(text && out);
	*out = NULL;
	if (err && errlen)
		err[0] = '\0';
	p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	p->out = calloc(1, sizeof(*p->out));
	if (!p->out) {
		free(p);
		return -ENOMEM;
	}
	p->out->data_errors = 50;
	p->out->compratio = 1;
	p->name = name ? name : "-";
	p->text = p->s = p->bol = text;
	p->line = 1;
	p->at_bol = true;
	p->err = err;
	p->errlen = errlen;
	p->kind = KIND_NONE;
	p->last = KIND_GENERAL;
	for (int k = 0; k < KIND_NR; k++)
		obj_defaults(&p->dflt[k], (enum kind)k);

	ret = parse(p);
	if (ret == -ENOMEM && err && errlen)
		snprintf(err, errlen, "%s: out of memory", p->name);
	if (ret)
		params_free(&p->out);
	*out = p->out;
	free(p);
	return ret;
}

/* The whole of fd as a string; *len excludes the added NUL. */
static int read_all(int fd, char **buf, size_t *len)
{
	size_t cap = 4096, n = 0;
	char *b = malloc(cap), *nb;

	if (!b)
		return -ENOMEM;
	for (;;) {
		ssize_t r;

		if (cap - n < 2) {
			if (cap >= FILE_MAX) {
				free(b);
				return -EFBIG;
			}
			nb = realloc(b, cap * 2);
			if (!nb) {
				free(b);
				return -ENOMEM;
			}
			b = nb;
			cap *= 2;
		}
		r = read(fd, b + n, cap - n - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int e = -errno;

			free(b);
			return e;
		}
		if (!r)
			break;
		n += (size_t)r;
	}
	b[n] = '\0';
	*buf = b;
	*len = n;
	return 0;
}

int params_parse_file(const char *path, struct params **out, char *err,
		      size_t errlen)
{
	char *text = NULL;
	size_t len = 0;
	int fd, ret;

	assert(path && out);
	*out = NULL;
	if (strlen(path) >= PARAMS_PATH_MAX) {
		if (err && errlen)
			snprintf(err, errlen, "%.*s...: path is too long",
				 SHOW_MAX, path);
		return -ENAMETOOLONG;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		goto fail;
	}
	ret = read_all(fd, &text, &len);
	close(fd);
	if (ret)
		goto fail;
	if (strlen(text) != len) {
		struct params_pos pos = text_pos(text, text + strlen(text));

		if (err && errlen)
			snprintf(err, errlen,
				 "%s:%u:%u: a NUL byte: not a text file",
				 path, pos.line, pos.col);
		free(text);
		return -EINVAL;
	}
	ret = params_parse_string(path, text, out, err, errlen);
	free(text);
	if (!ret)
		strcpy((*out)->path, path);
	return ret;

fail:
	if (err && errlen)
		snprintf(err, errlen, "%s: cannot read: %s", path,
			 ret == -EFBIG ? "too large for a parameter file" :
					 strerror(-ret));
	return ret;
}

void params_free(struct params **p)
{
	if (!p || !*p)
		return;
	free((*p)->hd);
	free((*p)->sd);
	free((*p)->wd);
	free((*p)->rd);
	free(*p);
	*p = NULL;
}
