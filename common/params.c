/*
 * Parser for Vdbench-syntax parameter files. A scanner turns the text into
 * KEY=VALUE items (a value is a bare word, a "quoted string" or a
 * parenthesized list of those) with the file, line and column of every
 * keyword and value; include=FILE switches the scanner to another text until
 * its end. Definitions (general parameters, hd=, sd=, wd=, rd=) gather the
 * items that belong to them, and each kind's keyword table maps a keyword to
 * the function that checks its value and stores it. Supporting a new keyword
 * is one table row and, if no existing setter fits, one small function;
 * Vdbench keywords lockstep does not implement are rows too, with the reason
 * given to the user. The first error stops the parse and is reported as
 * "NAME:LINE:COLUMN: message".
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
	/* Another name for this row's keyword: both count as one. */
	const char *alias_of;
	/* Keywords lockstep skips: why, and the value that is harmless. */
	const char *why;
	const char *harmless;
};

#define KW_MAX 48

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

/* A text being scanned, saved while an included one is. */
struct source {
	const char *s, *bol;
	unsigned line, file;
	bool at_bol, cont_next;
	char *owned; /* an included file's text, freed at its end */
};

struct parser {
	const char *name;
	const char *text;
	unsigned flags;  /* PARAMS_* */
	const char *s;   /* scan position */
	const char *bol; /* start of the line s is on */
	unsigned line;
	unsigned file;  /* index into out->files of the text being scanned */
	bool at_bol;    /* nothing scanned yet on this line */
	bool cont_next; /* the last line ended with ',' */
	char *owned;    /* the text being scanned, when it is an include */
	size_t depth;   /* includes open */
	struct source outer[PARAMS_INCLUDE_DEPTH];
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

static const char *pos_file(const struct parser *p, struct params_pos pos)
{
	return params_file(p->out, pos);
}

__attribute__((format(printf, 3, 4))) static int
perr(struct parser *p, struct params_pos pos, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!p->err || !p->errlen)
		return -EINVAL;
	n = snprintf(p->err, p->errlen, "%s:%u:%u: ", pos_file(p, pos),
		     pos.line, pos.col);
	if (n < 0 || (size_t)n >= p->errlen)
		return -EINVAL;
	va_start(ap, fmt);
	vsnprintf(p->err + n, p->errlen - (size_t)n, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* Keep a warning about the text at pos; -ENOMEM if it cannot be kept. */
__attribute__((format(printf, 3, 4))) static int
pwarn(struct parser *p, struct params_pos pos, const char *fmt, ...)
{
	struct params *pa = p->out;
	char buf[1024], **nw;
	va_list ap;
	int n;

	n = snprintf(buf, sizeof(buf), "%s:%u:%u: warning: ", pos_file(p, pos),
		     pos.line, pos.col);
	if (n < 0 || (size_t)n >= sizeof(buf))
		n = 0;
	va_start(ap, fmt);
	vsnprintf(buf + n, sizeof(buf) - (size_t)n, fmt, ap);
	va_end(ap);
	nw = realloc(pa->warn, (pa->nwarn + 1) * sizeof(*nw));
	if (!nw)
		return -ENOMEM;
	pa->warn = nw;
	nw[pa->nwarn] = strdup(buf);
	if (!nw[pa->nwarn])
		return -ENOMEM;
	pa->nwarn++;
	return 0;
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
	struct params_pos pos = { p->line, (unsigned)(c - p->bol) + 1,
				  p->file };

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

/* v as written, cut short for messages. */
static const char *shown(const struct val *v, char *buf, size_t len)
{
	snprintf(buf, len, "%.*s", show(v->len), v->s);
	return buf;
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

static int number_in(struct parser *p, const struct kw *kw,
		     const struct val *v, double lo, double hi, double *out)
{
	char b[SHOW_MAX + 1];
	int ret = number(p, kw, v, out);

	return ret ? ret :
		     check_range(p, kw, v->pos, shown(v, b, sizeof(b)), *out,
				 lo, hi);
}

static int whole(struct parser *p, const struct kw *kw, const struct val *v,
		 double lo, double hi, double *out)
{
	char b[SHOW_MAX + 1];
	int ret = number(p, kw, v, out);

	return ret ? ret :
		     check_whole(p, kw, v->pos, shown(v, b, sizeof(b)), *out,
				 lo, hi);
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

/* x, read from v, must be more than 0; unit ends the message. */
static int positive(struct parser *p, const struct kw *kw,
		    const struct val *v, double x, const char *unit)
{
	if (x > 0)
		return 0;
	return perr(p, v->pos, "%s=%.*s must be more than 0%s", kw->name,
		    show(v->len), v->s, unit);
}

/* The one number of it, more than 0. */
static int read_positive(struct parser *p, const struct kw *kw,
			 const struct item *it, double *out, const char *unit)
{
	const struct val *v = single(p, kw, it);
	int ret = v ? number(p, kw, v, out) : -EINVAL;

	return ret ? ret : positive(p, kw, v, *out, unit);
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
	return ret ? ret : positive(p, kw, v, *field_double(obj, kw), " seconds");
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

/* ---- keywords lockstep skips ------------------------------------------ */

static bool all_values_are(const struct item *it, const char *word)
{
	if (!word || !it->nval)
		return false;
	for (size_t i = 0; i < it->nval; i++)
		if (!val_is(&it->val[i], word))
			return false;
	return true;
}

/*
 * A Vdbench keyword lockstep does not implement and whose absence cannot
 * change what is measured: a warning, and the parse goes on.
 */
static int set_ignored(struct parser *p, const struct kw *kw, void *obj,
		       const struct item *it)
{
	(void)obj;
	return pwarn(p, it->kpos, "%s= is ignored: %s", kw->name, kw->why);
}

/*
 * A Vdbench keyword lockstep does not implement and whose absence would
 * change what is measured: an error, unless the value is the harmless one.
 */
static int set_unsupported(struct parser *p, const struct kw *kw, void *obj,
			   const struct item *it)
{
	if (all_values_are(it, kw->harmless))
		return set_ignored(p, kw, obj, it);
	return perr(p, it->kpos, "%s= is not supported: %s", kw->name,
		    kw->why);
}

/* ---- general ---------------------------------------------------------- */

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

/* A ratio >= 1 (compratio=, dedupratio=) in the double at kw->off. */
static int set_ratio(struct parser *p, const struct kw *kw, void *obj,
		     const struct item *it)
{
	const struct val *v = single(p, kw, it);
	double *d = field_double(obj, kw);
	int ret = v ? 0 : -EINVAL;

	if (!ret)
		ret = number(p, kw, v, d);
	if (!ret && *d < 1)
		return perr(p, v->pos, "%s=%.*s must be at least 1", kw->name,
			    show(v->len), v->s);
	return ret;
}

/* yes or no in the bool at kw->off. */
static int set_yesno(struct parser *p, const struct kw *kw, void *obj,
		     const struct item *it)
{
	const struct val *v = single(p, kw, it);
	bool *b = (bool *)((char *)obj + kw->off);

	if (!v)
		return -EINVAL;
	if (val_is(v, "yes"))
		*b = true;
	else if (val_is(v, "no"))
		*b = false;
	else
		return perr(p, v->pos, "%s=%.*s is not supported (use yes or no)",
			    kw->name, show(v->len), v->s);
	return 0;
}

/* ---- hd= -------------------------------------------------------------- */

static int set_shell(struct parser *p, const struct kw *kw, void *obj,
		     const struct item *it)
{
	struct params_hd *hd = obj;
	const struct val *v = single(p, kw, it);

	if (!v)
		return -EINVAL;
	if (val_is(v, "ssh"))
		hd->shell = PARAMS_SHELL_SSH;
	/* Vdbench's own daemon is what lockstep's registering slaves are. */
	else if (val_is(v, "none") || val_is(v, "vdbench"))
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

/* ---- sd= -------------------------------------------------------------- */

static int set_sd_size(struct parser *p, const struct kw *kw, void *obj,
		       const struct item *it)
{
	struct params_sd *sd = obj;
	const struct val *v = single(p, kw, it);
	int ret = v ? 0 : -EINVAL;

	if (!ret)
		ret = size(p, kw, v, &sd->size);
	return ret ? ret : positive(p, kw, v, (double)sd->size, "");
}

/* A byte count that must be a multiple of 512 (offset=, align=). */
static int sector_size(struct parser *p, const struct kw *kw,
		       const struct item *it, bool zero_ok, uint64_t *out)
{
	const struct val *v = single(p, kw, it);
	int ret = v ? 0 : -EINVAL;

	if (!ret)
		ret = size(p, kw, v, out);
	if (ret)
		return ret;
	if (!zero_ok && !*out)
		return positive(p, kw, v, 0, "");
	if (*out % 512)
		return perr(p, v->pos, "%s=%.*s is not a multiple of 512",
			    kw->name, show(v->len), v->s);
	return 0;
}

static int set_offset(struct parser *p, const struct kw *kw, void *obj,
		      const struct item *it)
{
	struct params_sd *sd = obj;

	return sector_size(p, kw, it, true, &sd->offset);
}

static int set_align(struct parser *p, const struct kw *kw, void *obj,
		     const struct item *it)
{
	struct params_sd *sd = obj;
	uint64_t n = 0;
	int ret = sector_size(p, kw, it, false, &n);

	if (!ret && n > UINT32_MAX)
		return perr(p, it->vpos, "%s=%.*s is too large", kw->name,
			    show(it->rawlen), it->raw);
	sd->align = (uint32_t)n;
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

/*
 * range=(lo,hi) in percent into the two doubles at kw->off (range_lo and
 * the range_hi right after it).
 */
static int set_range(struct parser *p, const struct kw *kw, void *obj,
		     const struct item *it)
{
	double *r = field_double(obj, kw);
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
	r[0] = lo;
	r[1] = hi;
	return 0;
}

_Static_assert(offsetof(struct params_sd, range_hi) ==
		       offsetof(struct params_sd, range_lo) + sizeof(double),
	       "set_range writes range_lo and range_hi as a pair");
_Static_assert(offsetof(struct params_wd, range_hi) ==
		       offsetof(struct params_wd, range_lo) + sizeof(double),
	       "set_range writes range_lo and range_hi as a pair");

/* ---- numbers in lists ------------------------------------------------- */

/* How one kind of list value is read (parse) and judged (check). */
struct numkind {
	int (*parse)(struct parser *p, const struct kw *kw,
		     const struct val *v, double *out);
	int (*check)(struct parser *p, const struct kw *kw,
		     struct params_pos pos, const char *sh, double x);
};

/* iorate=max inside a list of rates, until the list is stored. */
#define IORATE_MAX_MARK (-1.0)

static int parse_size(struct parser *p, const struct kw *kw,
		      const struct val *v, double *out)
{
	uint64_t n;
	int ret = size(p, kw, v, &n);

	*out = (double)n;
	return ret;
}

static int parse_seek(struct parser *p, const struct kw *kw,
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
	return number(p, kw, v, out);
}

static int parse_iorate(struct parser *p, const struct kw *kw,
			const struct val *v, double *out)
{
	if (val_is(v, "max")) {
		*out = IORATE_MAX_MARK;
		return 0;
	}
	if (val_is(v, "curve"))
		return perr(p, v->pos,
			    "%s=curve must be alone, not in a list of rates",
			    kw->name);
	if (number(p, kw, v, out))
		return perr(p, v->pos, "%s=%.*s is not max, curve or a number",
			    kw->name, show(v->len), v->s);
	return 0;
}

static int check_pct(struct parser *p, const struct kw *kw,
		     struct params_pos pos, const char *sh, double x)
{
	return check_range(p, kw, pos, sh, x, 0, 100);
}

static int check_seek(struct parser *p, const struct kw *kw,
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

static const struct numkind num_iorate = { parse_iorate, check_iorate };
static const struct numkind num_curve = { number, check_curve };
static const struct numkind num_loop[PARAMS_LOOP_NR] = {
	[PARAMS_LOOP_XFERSIZE] = { parse_size, check_xfer },
	[PARAMS_LOOP_RDPCT] = { number, check_pct },
	[PARAMS_LOOP_SEEKPCT] = { parse_seek, check_seek },
	[PARAMS_LOOP_THREADS] = { number, check_threads },
	[PARAMS_LOOP_COMPRATIO] = { number, check_ratio },
};

/* One value, read and judged, appended to out. */
static int add_value(struct parser *p, const struct kw *kw,
		     const struct numkind *nk, const struct val *v,
		     double *out, size_t *n)
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
		     const struct val *b, const struct val *step,
		     double *out, size_t *n)
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

/*
 * A list of numbers with Vdbench's ranges expanded: "lo-hi,step" (the next
 * value is the step, or d to double) and "(from,to,d)". A value may not
 * come twice: each one is a phase, and phases are named by their values.
 */
static int expand(struct parser *p, const struct kw *kw, const struct item *it,
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
				return perr(p, it->vpos,
					    "%s=%.*s has the value %g twice",
					    kw->name, show(it->rawlen), it->raw,
					    out[i] == IORATE_MAX_MARK ? 0 :
									out[i]);
	*nout = n;
	return 0;
}

/* ---- wd= -------------------------------------------------------------- */

static int xfer_size(struct parser *p, const struct kw *kw,
		     const struct val *v, uint32_t *out)
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

/* A transfer-size-like uint32_t at kw->off (dedupunit=, formatxfersize=). */
static int set_xfer_field(struct parser *p, const struct kw *kw, void *obj,
			  const struct item *it)
{
	const struct val *v = single(p, kw, it);

	if (!v)
		return -EINVAL;
	return xfer_size(p, kw, v, (uint32_t *)((char *)obj + kw->off));
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
	char b[SHOW_MAX + 1];
	double x;
	int ret = v ? 0 : -EINVAL;

	if (!ret)
		ret = parse_seek(p, kw, v, &x);
	if (!ret)
		ret = check_seek(p, kw, v->pos, shown(v, b, sizeof(b)), x);
	if (ret)
		return ret;
	wd->seek_eof = x == PARAMS_SEEK_EOF;
	wd->seekpct = wd->seek_eof ? 0 : x;
	return 0;
}

static int set_skew(struct parser *p, const struct kw *kw, void *obj,
		    const struct item *it)
{
	struct params_wd *wd = obj;
	const struct val *v = single(p, kw, it);
	int ret = v ? 0 : -EINVAL;

	if (!ret)
		ret = number_in(p, kw, v, 0, 100, &wd->skew);
	wd->skew_pos = it->kpos;
	return ret;
}

static int set_wd_iorate(struct parser *p, const struct kw *kw, void *obj,
			 const struct item *it)
{
	struct params_wd *wd = obj;

	wd->iorate_pos = it->kpos;
	return read_positive(p, kw, it, &wd->iorate, "");
}

/* ---- references ------------------------------------------------------- */

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

/*
 * host=: hd names or patterns; '*' (or, without hd= lines, localhost)
 * means every host and is stored as an empty list.
 */
static int set_hosts(struct parser *p, const struct kw *kw,
		     const struct item *it, unsigned *idx, size_t *nidx)
{
	if (all_values_are(it, "*") ||
	    (!p->out->nhd && all_values_are(it, "localhost"))) {
		*nidx = 0;
		return 0;
	}
	if (!p->out->nhd)
		return perr(p, it->vpos,
			    "%s=%.*s names a host, but no hd= is defined (use localhost or *)",
			    kw->name, show(it->rawlen), it->raw);
	return set_refs(p, kw, it, KIND_HD, idx, nidx);
}

static int set_sd_host(struct parser *p, const struct kw *kw, void *obj,
		       const struct item *it)
{
	struct params_sd *sd = obj;

	return set_hosts(p, kw, it, sd->host, &sd->nhost);
}

static int set_wd_host(struct parser *p, const struct kw *kw, void *obj,
		       const struct item *it)
{
	struct params_wd *wd = obj;

	return set_hosts(p, kw, it, wd->host, &wd->nhost);
}

static int set_wd_sd(struct parser *p, const struct kw *kw, void *obj,
		     const struct item *it)
{
	struct params_wd *wd = obj;

	return set_refs(p, kw, it, KIND_SD, wd->sd, &wd->nsd);
}

/* ---- rd= -------------------------------------------------------------- */

static int set_rd_wd(struct parser *p, const struct kw *kw, void *obj,
		     const struct item *it)
{
	struct params_rd *rd = obj;

	return set_refs(p, kw, it, KIND_WD, rd->wd, &rd->nwd);
}

/* iorate=max, iorate=curve, iorate=N or iorate=(N,M,...): one phase each. */
static int set_iorate(struct parser *p, const struct kw *kw, void *obj,
		      const struct item *it)
{
	struct params_rd *rd = obj;
	int ret;

	rd->iorate_pos = it->kpos;
	rd->iorate = 0;
	rd->niorate = 0;
	if (it->nval == 1 && val_is(&it->val[0], "curve")) {
		rd->iorate_kind = PARAMS_IORATE_CURVE;
		return 0;
	}
	ret = expand(p, kw, it, &num_iorate, rd->iorates, &rd->niorate);
	if (ret)
		return ret;
	for (size_t i = 0; i < rd->niorate; i++)
		if (rd->iorates[i] == IORATE_MAX_MARK)
			rd->iorates[i] = 0;
	rd->iorate = rd->iorates[0];
	rd->iorate_kind = PARAMS_IORATE_FIXED;
	if (rd->niorate == 1 && rd->iorate == 0) {
		rd->iorate_kind = PARAMS_IORATE_MAX;
		rd->niorate = 0;
	}
	return 0;
}

static int set_curve(struct parser *p, const struct kw *kw, void *obj,
		     const struct item *it)
{
	struct params_rd *rd = obj;

	return expand(p, kw, it, &num_curve, rd->curve, &rd->ncurve);
}

static int set_stopcurve(struct parser *p, const struct kw *kw, void *obj,
			 const struct item *it)
{
	struct params_rd *rd = obj;

	return read_positive(p, kw, it, &rd->stopcurve_ms, " (milliseconds)");
}

static int set_format(struct parser *p, const struct kw *kw, void *obj,
		      const struct item *it)
{
	struct params_rd *rd = obj;
	const struct val *v = single(p, kw, it);

	if (!v)
		return -EINVAL;
	if (val_is(v, "no"))
		rd->format = PARAMS_FORMAT_NO;
	else if (val_is(v, "yes"))
		rd->format = PARAMS_FORMAT_YES;
	else if (val_is(v, "only"))
		rd->format = PARAMS_FORMAT_ONLY;
	else
		return perr(p, v->pos, "%s=%.*s is not yes, only or no",
			    kw->name, show(v->len), v->s);
	return 0;
}

static int set_distribution(struct parser *p, const struct kw *kw, void *obj,
			    const struct item *it)
{
	static const struct {
		const char *word, *abbrev;
		enum params_dist d;
	} dists[] = {
		{ "exponential", "e", PARAMS_DIST_EXPONENTIAL },
		{ "uniform", "u", PARAMS_DIST_UNIFORM },
		{ "deterministic", "d", PARAMS_DIST_DETERMINISTIC },
	};
	struct params_rd *rd = obj;
	bool got = false;

	for (size_t i = 0; i < it->nval; i++) {
		const struct val *v = &it->val[i];
		size_t j;

		if (val_is(v, "variable") || val_is(v, "spike"))
			return perr(p, v->pos,
				    "%s=%.*s is not supported: lockstep runs one rate per phase (use iorate=(a,b,...))",
				    kw->name, show(v->len), v->s);
		for (j = 0; j < sizeof(dists) / sizeof(dists[0]); j++)
			if (val_is(v, dists[j].word) ||
			    val_is(v, dists[j].abbrev))
				break;
		if (j == sizeof(dists) / sizeof(dists[0]) || got)
			return perr(p, v->pos,
				    "%s=%.*s is not exponential, uniform or deterministic",
				    kw->name, show(v->len), v->s);
		rd->distribution = dists[j].d;
		got = true;
	}
	return 0;
}

/* forxfersize= and its kin: kw->off is the enum params_loop_kind. */
static int set_loop(struct parser *p, const struct kw *kw, void *obj,
		    const struct item *it)
{
	struct params_rd *rd = obj;
	enum params_loop_kind k = (enum params_loop_kind)kw->off;
	size_t i;

	/* A loop the rd=default line gave keeps its place in the order. */
	for (i = 0; i < rd->nloop && rd->loop[i].kind != k; i++)
		;
	if (i == rd->nloop)
		rd->nloop++;
	rd->loop[i].kind = k;
	rd->loop[i].pos = it->kpos;
	return expand(p, kw, it, &num_loop[k], rd->loop[i].val,
		      &rd->loop[i].n);
}

/* ---- keyword tables --------------------------------------------------- */

#define KW(n, fn) { .name = (n), .set = (fn) }
#define KWF(n, fn, type, field) \
	{ .name = (n), .set = (fn), .off = offsetof(type, field) }
#define KWS(n, type, field)                                          \
	{ .name = (n), .set = set_string, .off = offsetof(type, field), \
	  .size = sizeof(((type *)0)->field) }
#define LOOP(n, alias, kind) \
	{ .name = (n), .set = set_loop, .off = (kind), .alias_of = (alias) }
#define IGNORED(n, w) { .name = (n), .set = set_ignored, .why = (w) }
#define UNSUPPORTED(n, w) { .name = (n), .set = set_unsupported, .why = (w) }
#define UNSUPPORTED_BUT(n, ok, w) \
	{ .name = (n), .set = set_unsupported, .why = (w), .harmless = (ok) }

#define WHY_FS "file system workloads (fsd=, fwd=) are not supported"
#define WHY_DEDUP "lockstep's data patterns take the general dedupratio= and dedupunit= only"
#define WHY_REPORTS "lockstep writes its own reports"
#define WHY_CMD "lockstep runs no commands around runs"
#define WHY_HIT "cache hit targeting (rhpct=, whpct=) is not supported"
#define WHY_OPENFLAGS "give openflags= on the sd= lines"

static const struct kw general_kws[] = {
	KWF("compratio", set_ratio, struct params, compratio),
	KW("data_errors", set_data_errors),
	/* Vdbench's own tracing: nothing for lockstep to do. */
	KW("debug", NULL),
	KWF("dedupratio", set_ratio, struct params, dedupratio),
	KWF("dedupunit", set_xfer_field, struct params, dedupunit),
	KWF("formatxfersize", set_xfer_field, struct params, formatxfersize),
	KWF("validate", set_yesno, struct params, validate),
	IGNORED("abort_failed_skew", "lockstep does not abort on a missed skew"),
	UNSUPPORTED("concatenatesds", "lockstep does not concatenate sds"),
	UNSUPPORTED("create_anchors", WHY_FS),
	UNSUPPORTED("dedupsets", WHY_DEDUP),
	UNSUPPORTED("deduphotsets", WHY_DEDUP),
	UNSUPPORTED("dedupflipflop", WHY_DEDUP),
	IGNORED("endcmd", WHY_CMD),
	IGNORED("startcmd", WHY_CMD),
	UNSUPPORTED_BUT("formatsds", "no", "prime the sds with format=yes on the rd"),
	IGNORED("fwd_thread_adjust", "it applies to file system workloads only"),
	IGNORED("histogram", "lockstep's latency histograms need no buckets"),
	IGNORED("ios_per_jvm", "lockstep has no per-slave rate warning"),
	UNSUPPORTED_BUT("journal", "no", "data validation journaling"),
	UNSUPPORTED("loop", "repeat the rd= lines instead"),
	IGNORED("messagescan", "lockstep does not scan system logs"),
	IGNORED("monitor", "lockstep does not watch a monitor file"),
	UNSUPPORTED("pattern", "lockstep makes its own data (see compratio=)"),
	IGNORED("port", "give `lockstep run --port` instead"),
	IGNORED("report", WHY_REPORTS),
	IGNORED("report_run_totals", WHY_REPORTS),
	IGNORED("showlba", "lockstep writes no lba trace"),
	IGNORED("timeout", "lockstep has its own slave timeouts"),
};

static const struct kw hd_kws[] = {
	KWS("system", struct params_hd, system),
	KWS("user", struct params_hd, user),
	KW("shell", set_shell),
	KW("slaves", set_slaves),
	{ .name = "jvms", .set = set_slaves, .alias_of = "slaves" },
	KWS("lockstep", struct params_hd, lockstep),
	{ .name = "vdbench", .set = set_string,
	  .off = offsetof(struct params_hd, lockstep),
	  .size = sizeof(((struct params_hd *)0)->lockstep),
	  .alias_of = "lockstep" },
	UNSUPPORTED("clients", "start more slaves with slaves= instead"),
	UNSUPPORTED("mount", WHY_FS),
};

static const struct kw sd_kws[] = {
	{ .name = "lun", .set = set_lun, .off = offsetof(struct params_sd, lun),
	  .size = sizeof(((struct params_sd *)0)->lun) },
	KW("size", set_sd_size),
	KW("threads", set_threads),
	KW("openflags", set_openflags),
	KWF("range", set_range, struct params_sd, range_lo),
	KW("align", set_align),
	KW("offset", set_offset),
	KW("host", set_sd_host),
	KWF("force", set_yesno, struct params_sd, force),
	/* lockstep's own: run the sd from a ring with a kernel SQ thread. */
	KWF("sqpoll", set_yesno, struct params_sd, sqpoll),
	/* Only matters with rhpct=/whpct=, which are not supported. */
	KW("hitarea", NULL),
	UNSUPPORTED("count", "write one sd= line per lun"),
	IGNORED("journal", "journaling is not supported, so it has no use"),
	UNSUPPORTED("dedupratio", WHY_DEDUP),
	UNSUPPORTED("dedupsets", WHY_DEDUP),
	UNSUPPORTED("deduphotsets", WHY_DEDUP),
	UNSUPPORTED("dedupflipflop", WHY_DEDUP),
	UNSUPPORTED("replay", "Swat replay is not supported"),
	UNSUPPORTED("resetbus", "bus resets are not supported"),
	UNSUPPORTED("resetlun", "lun resets are not supported"),
};

static const struct kw wd_kws[] = {
	KW("sd", set_wd_sd),
	KW("xfersize", set_xfersize),
	KWF("rdpct", set_pct, struct params_wd, rdpct),
	KW("seekpct", set_seekpct),
	KWF("range", set_range, struct params_wd, range_lo),
	KW("skew", set_skew),
	KW("iorate", set_wd_iorate),
	KW("host", set_wd_host),
	UNSUPPORTED("hotband", "hot bands are not supported"),
	UNSUPPORTED("openflags", WHY_OPENFLAGS),
	UNSUPPORTED("priority", "workload priorities are not supported"),
	UNSUPPORTED_BUT("rhpct", "0", WHY_HIT),
	UNSUPPORTED_BUT("whpct", "0", WHY_HIT),
	UNSUPPORTED("streams", "independent sequential streams are not supported"),
	UNSUPPORTED("stride", "skip-sequential I/O is not supported"),
	UNSUPPORTED("threads", "give threads= on the sd= lines (wd threads= is for sd concatenation)"),
};

static const struct kw rd_kws[] = {
	KW("wd", set_rd_wd),
	KW("iorate", set_iorate),
	{ .name = "foriorate", .set = set_iorate, .alias_of = "iorate" },
	KW("curve", set_curve),
	KW("stopcurve", set_stopcurve),
	KWF("elapsed", set_duration, struct params_rd, elapsed_s),
	KWF("warmup", set_duration0, struct params_rd, warmup_s),
	KWF("interval", set_duration, struct params_rd, interval_s),
	KWF("pause", set_duration0, struct params_rd, pause_s),
	KW("format", set_format),
	KW("distribution", set_distribution),
	LOOP("forxfersize", NULL, PARAMS_LOOP_XFERSIZE),
	LOOP("xfersize", "forxfersize", PARAMS_LOOP_XFERSIZE),
	LOOP("forrdpct", NULL, PARAMS_LOOP_RDPCT),
	LOOP("rdpct", "forrdpct", PARAMS_LOOP_RDPCT),
	LOOP("forseekpct", NULL, PARAMS_LOOP_SEEKPCT),
	LOOP("seekpct", "forseekpct", PARAMS_LOOP_SEEKPCT),
	LOOP("forthreads", NULL, PARAMS_LOOP_THREADS),
	LOOP("threads", "forthreads", PARAMS_LOOP_THREADS),
	LOOP("forcompratio", NULL, PARAMS_LOOP_COMPRATIO),
	LOOP("compratio", "forcompratio", PARAMS_LOOP_COMPRATIO),
	UNSUPPORTED("sd", "name the sds on the wd= lines"),
	UNSUPPORTED("maxdata", "runs end after elapsed="),
	IGNORED("endcmd", WHY_CMD),
	IGNORED("startcmd", WHY_CMD),
	UNSUPPORTED("openflags", WHY_OPENFLAGS),
	UNSUPPORTED("replay", "Swat replay is not supported"),
	IGNORED("forhitarea", "hitarea= matters only with rhpct=/whpct="),
	IGNORED("hitarea", "hitarea= matters only with rhpct=/whpct="),
	UNSUPPORTED_BUT("forrhpct", "0", WHY_HIT),
	UNSUPPORTED_BUT("rhpct", "0", WHY_HIT),
	UNSUPPORTED_BUT("forwhpct", "0", WHY_HIT),
	UNSUPPORTED_BUT("whpct", "0", WHY_HIT),
	UNSUPPORTED("mount", WHY_FS),
};

#define NKW(t) (sizeof(t) / sizeof(t[0]))
_Static_assert(NKW(general_kws) <= KW_MAX && NKW(hd_kws) <= KW_MAX &&
		       NKW(sd_kws) <= KW_MAX && NKW(wd_kws) <= KW_MAX &&
		       NKW(rd_kws) <= KW_MAX,
	       "raise KW_MAX");

static int finish_hd(struct parser *p);
static int finish_sd(struct parser *p);
static int finish_wd(struct parser *p);
static int finish_rd(struct parser *p);

#define KIND(n, t, f) { n, t, NKW(t), f }
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

	if (key_is(it, "fsd") || key_is(it, "fwd"))
		return perr(p, it->kpos,
			    "%.*s= is not supported: " WHY_FS
			    " (lockstep runs sd= workloads)",
			    (int)it->keylen, it->key);
	if (key_is(it, "rg"))
		return perr(p, it->kpos,
			    "rg= is not supported: Swat replay is not supported");

	for (size_t i = 0; i < kinds[k].nkw; i++)
		suggest_from(it, kinds[k].kws[i].name, &best, &bestd);
	suggest_from(it, "include", &best, &bestd);
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
		o->wd.range_hi = 100;
		break;
	case KIND_RD: {
		static const double curve[] = { 10, 50, 70, 80, 90, 100 };

		o->rd.elapsed_s = 30;
		o->rd.warmup_s = 0;
		o->rd.interval_s = 1;
		o->rd.ncurve = sizeof(curve) / sizeof(curve[0]);
		memcpy(o->rd.curve, curve, sizeof(curve));
		break;
	}
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

/*
 * The wds of a run share its I/O rate by skew= (as in Vdbench, those
 * without one split what the others leave), or all run at their own
 * iorate=; lockstep cannot mix fixed-rate wds with shared-rate ones.
 */
static int check_rd_rates(struct parser *p, const struct params_rd *rd)
{
	const struct params_wd *fixed = NULL, *shared = NULL;
	double given = 0;
	size_t unset = 0;

	for (size_t i = 0; i < rd->nwd; i++) {
		const struct params_wd *wd = &p->out->wd[rd->wd[i]];

		if (wd->skew > 0)
			given += wd->skew;
		else
			unset++;
		if (wd->iorate > 0)
			fixed = wd;
		else
			shared = wd;
	}
	if (fixed && shared)
		return perr(p, fixed->iorate_pos,
			    "wd=%s has iorate= but wd=%s in rd=%s has none: give every wd of a run its own iorate=, or none",
			    fixed->name, shared->name, rd->name);
	if (fixed && rd->iorate_kind != PARAMS_IORATE_MAX)
		return perr(p, rd->iorate_pos.line ? rd->iorate_pos : p->dpos,
			    "rd=%s has iorate= but its wds have their own iorate=: drop one of them",
			    rd->name);
	if (fixed)
		return 0;
	if (given > 100 + 1e-6 || (!unset && fabs(given - 100) > 1e-6))
		return perr(p, p->dpos,
			    "rd=%s: the skew= of its wds add up to %g, not 100",
			    rd->name, given);
	if (unset && given > 100 - 1e-6)
		return perr(p, p->dpos,
			    "rd=%s: the skew= of its wds add up to 100 and leave nothing for the %zu without one",
			    rd->name, unset);
	return 0;
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
	return check_rd_rates(p, rd);
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
	/* Another name for a keyword counts as that keyword. */
	if (kw->alias_of)
		i = kw_index(p->kind, kw->alias_of);
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
	struct params_pos pos = { 1, 1, 0 };

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

/* Append a file name to out->files; its index, or -ENOMEM. */
static int add_file(struct params *pa, const char *name)
{
	char **nf = realloc(pa->files, (pa->nfiles + 1) * sizeof(*nf));

	if (!nf)
		return -ENOMEM;
	pa->files = nf;
	nf[pa->nfiles] = strdup(name);
	if (!nf[pa->nfiles])
		return -ENOMEM;
	return (int)pa->nfiles++;
}

static int read_text(const char *path, char **text, size_t *len);

/*
 * include=FILE on a line of its own: FILE (relative to the including
 * file's folder) is scanned in its place, then the line after it.
 */
static int include(struct parser *p, const struct item *it)
{
	const struct val *v = &it->val[0];
	const char *cur = p->out->files[p->file], *slash = strrchr(cur, '/');
	char path[PARAMS_PATH_MAX], *text = NULL;
	size_t dlen = 0, len;
	const char *c;
	int ret, idx;

	if (p->flags & PARAMS_NO_INCLUDE)
		return perr(p, it->kpos, "include= is not allowed here");
	for (c = p->s; is_blank(*c); c++)
		;
	if (!it->first_on_line || it->cont || *c == ',')
		return perr(p, it->kpos,
			    "include= must be on a line of its own");
	if (it->nval != 1 || it->list)
		return perr(p, it->vpos, "include= takes one file name");
	skip_to_eol(p);
	end_line(p);
	if (p->depth == PARAMS_INCLUDE_DEPTH)
		return perr(p, it->kpos,
			    "include= nested more than %d deep (does a file include itself?)",
			    PARAMS_INCLUDE_DEPTH);
	if (v->s[0] != '/' && slash)
		dlen = (size_t)(slash - cur) + 1;
	if (dlen + v->len >= sizeof(path))
		return perr(p, v->pos, "include=%.*s: the path is too long",
			    show(v->len), v->s);
	memcpy(path, cur, dlen);
	memcpy(path + dlen, v->s, v->len);
	path[dlen + v->len] = '\0';
	ret = read_text(path, &text, &len);
	if (ret == -ENOMEM)
		return ret;
	if (ret)
		return perr(p, v->pos, "include=%.*s: cannot read %s: %s",
			    show(v->len), v->s, path,
			    ret == -EFBIG ? "too large for a parameter file" :
					    strerror(-ret));
	if (strlen(text) != len) {
		struct params_pos at = text_pos(text, text + strlen(text));

		free(text);
		return perr(p, v->pos,
			    "include=%.*s: %s:%u:%u: a NUL byte: not a text file",
			    show(v->len), v->s, path, at.line, at.col);
	}
	idx = add_file(p->out, path);
	if (idx < 0) {
		free(text);
		return idx;
	}
	p->outer[p->depth++] = (struct source){
		.s = p->s, .bol = p->bol, .line = p->line, .file = p->file,
		.at_bol = p->at_bol, .cont_next = p->cont_next,
		.owned = p->owned,
	};
	p->s = p->bol = p->owned = text;
	p->line = 1;
	p->file = (unsigned)idx;
	p->at_bol = true;
	p->cont_next = false;
	return 0;
}

/* The end of an included text: back to the line after its include=. */
static void include_end(struct parser *p)
{
	const struct source *o = &p->outer[--p->depth];

	free(p->owned);
	p->s = o->s;
	p->bol = o->bol;
	p->line = o->line;
	p->file = o->file;
	p->at_bol = o->at_bol;
	p->cont_next = o->cont_next;
	p->owned = o->owned;
}

static int parse(struct parser *p)
{
	int ret;

	for (;;) {
		enum kind k;

		ret = next_item(p);
		if (ret == 0 && p->depth) {
			include_end(p);
			continue;
		}
		if (ret != 1)
			break;
		if (key_is(&p->it, "include")) {
			ret = include(p, &p->it);
		} else {
			k = line_kind(p, &p->it);
			if (k != KIND_NONE)
				ret = def_start(p, k, &p->it);
			else
				ret = def_apply(p, &p->it);
		}
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

int params_parse_text(const char *name, const char *text, unsigned flags,
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
	p->name = name ? name : "-";
	ret = add_file(p->out, p->name);
	if (ret < 0) {
		params_free(&p->out);
		free(p);
		return ret;
	}
	p->out->data_errors = 50;
	p->out->compratio = 1;
	p->out->dedupratio = 1;
	p->out->dedupunit = 128 * 1024;
	p->out->formatxfersize = 1024 * 1024;
	p->flags = flags;
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
	while (p->depth)
		include_end(p);
	if (ret == -ENOMEM && err && errlen)
		snprintf(err, errlen, "%s: out of memory", p->name);
	if (ret)
		params_free(&p->out);
	*out = p->out;
	free(p);
	return ret;
}

int params_parse_string(const char *name, const char *text,
			struct params **out, char *err, size_t errlen)
{
	return params_parse_text(name, text, 0, out, err, errlen);
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

/* The whole file at path as a string; *len excludes the added NUL. */
static int read_text(const char *path, char **text, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret;

	if (fd < 0)
		return -errno;
	ret = read_all(fd, text, len);
	close(fd);
	return ret;
}

int params_parse_file(const char *path, struct params **out, char *err,
		      size_t errlen)
{
	char *text = NULL;
	size_t len = 0;
	int ret;

	assert(path && out);
	*out = NULL;
	if (strlen(path) >= PARAMS_PATH_MAX) {
		if (err && errlen)
			snprintf(err, errlen, "%.*s...: path is too long",
				 SHOW_MAX, path);
		return -ENAMETOOLONG;
	}
	ret = read_text(path, &text, &len);
	if (ret) {
		if (err && errlen)
			snprintf(err, errlen, "%s: cannot read: %s", path,
				 ret == -EFBIG ?
					 "too large for a parameter file" :
					 strerror(-ret));
		return ret;
	}
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
}

void params_free(struct params **p)
{
	if (!p || !*p)
		return;
	for (size_t i = 0; i < (*p)->nfiles; i++)
		free((*p)->files[i]);
	for (size_t i = 0; i < (*p)->nwarn; i++)
		free((*p)->warn[i]);
	free((*p)->files);
	free((*p)->warn);
	free((*p)->hd);
	free((*p)->sd);
	free((*p)->wd);
	free((*p)->rd);
	free(*p);
	*p = NULL;
}

const char *params_file(const struct params *p, struct params_pos pos)
{
	if (!p || !p->nfiles)
		return "-";
	return p->files[pos.file < p->nfiles ? pos.file : 0];
}

const char *params_loop_name(enum params_loop_kind k)
{
	static const char *const names[PARAMS_LOOP_NR] = {
		[PARAMS_LOOP_XFERSIZE] = "forxfersize",
		[PARAMS_LOOP_RDPCT] = "forrdpct",
		[PARAMS_LOOP_SEEKPCT] = "forseekpct",
		[PARAMS_LOOP_THREADS] = "forthreads",
		[PARAMS_LOOP_COMPRATIO] = "forcompratio",
	};

	return (unsigned)k < PARAMS_LOOP_NR ? names[k] : "?";
}
