/*
 * Parser for Vdbench-syntax parameter files: the public functions
 * (params.h) and the definitions (the error and warning messages every
 * part reports through are diag.c's). The scanner (scan.c) turns the text into KEY=VALUE
 * items and include=FILE (include.c) switches it to another text until its
 * end; here definitions (general parameters, hd=, sd=, wd=, rd=) gather the
 * items that belong to them, xx=default lines set the defaults of the ones
 * after them, and each kind's keyword table (keywords.c) maps a keyword to
 * the function that checks its value and stores it. References to earlier
 * definitions (sd=, wd=, host=) are resolved here. The first error stops the
 * parse and is reported as "NAME:LINE:COLUMN: message".
 */
#include "master/params/params_int.h"
#include "common/fsutil.h"

#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
	case KIND_FSD:
		return pa->fsd[i].name;
	case KIND_FWD:
		return pa->fwd[i].name;
	case KIND_RD:
		return pa->rd[i].name;
	case KIND_PROBE:
		return pa->probe[i].name;
	case KIND_EV:
		return pa->ev[i].name;
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
	case KIND_FSD:
		return pa->nfsd;
	case KIND_FWD:
		return pa->nfwd;
	case KIND_RD:
		return pa->nrd;
	case KIND_PROBE:
		return pa->nprobe;
	case KIND_EV:
		return pa->nev;
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
int params_set_refs(struct parser *p, const struct kw *kw,
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
					    keywords_kinds[k].name);
			idx[n++] = (unsigned)j;
		}
		if (!found && wild)
			return perr(p, v->pos, "%s=%.*s matches no %s",
				    kw->name, show(v->len), v->s,
				    keywords_kinds[k].name);
		if (!found)
			return perr(p, v->pos,
				    "%s=%.*s refers to an undefined %s",
				    kw->name, show(v->len), v->s,
				    keywords_kinds[k].name);
	}
	*nidx = n;
	return 0;
}

/*
 * host=: hd names or patterns; '*' (or, without hd= lines, localhost)
 * means every host and is stored as an empty list.
 */
int params_set_hosts(struct parser *p, const struct kw *kw,
		     const struct item *it, unsigned *idx, size_t *nidx)
{
	if (values_all_are(it, "*") ||
	    (!p->out->nhd && values_all_are(it, "localhost"))) {
		*nidx = 0;
		return 0;
	}
	if (!p->out->nhd)
		return perr(p, it->vpos,
			    "%s=%.*s names a host, but no hd= is defined (use localhost or *)",
			    kw->name, show(it->rawlen), it->raw);
	return params_set_refs(p, kw, it, KIND_HD, idx, nidx);
}

/* ---- definitions ------------------------------------------------------ */

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
	case KIND_FSD:
		return &p->cur.fsd.pos;
	case KIND_FWD:
		return &p->cur.fwd.pos;
	case KIND_EV:
		return &p->cur.ev.pos;
	case KIND_PROBE:
		return &p->cur.probe.pos;
	default:
		return &p->cur.rd.pos;
	}
}

/* FNV-1a of the len bytes at s. */
static size_t name_hash(const char *s, size_t len)
{
	uint64_t h = 14695981039346656037ull;

	for (size_t i = 0; i < len; i++) {
		h ^= (unsigned char)s[i];
		h *= 1099511628211ull;
	}
	return (size_t)h;
}

/* The definition of kind k named s (len bytes), or -1. */
static long name_lookup(const struct parser *p, enum kind k, const char *s,
			size_t len)
{
	const struct name_index *ix = &p->names[k];

	if (!ix->cap)
		return -1;
	for (size_t i = name_hash(s, len) & (ix->cap - 1);;
	     i = (i + 1) & (ix->cap - 1)) {
		unsigned v = ix->slot[i];
		const char *name;

		if (!v)
			return -1;
		name = obj_name(k, v - 1, p->out);
		if (strlen(name) == len && !memcmp(name, s, len))
			return (long)(v - 1);
	}
}

long params_lookup(const struct parser *p, enum kind k, const char *s,
		   size_t len)
{
	return name_lookup(p, k, s, len);
}

struct params_pos params_from(const struct parser *p, const char *name)
{
	return p->from[keywords_index(p->kind, name)];
}

struct params_pos params_seen(const struct parser *p, const char *name)
{
	return p->seen[keywords_index(p->kind, name)];
}

static void name_put(struct name_index *ix, const char *name, unsigned idx)
{
	size_t i = name_hash(name, strlen(name)) & (ix->cap - 1);

	while (ix->slot[i])
		i = (i + 1) & (ix->cap - 1);
	ix->slot[i] = idx + 1;
}

/* Index definition idx of kind k (just stored) by its name. */
static int name_add(struct parser *p, enum kind k, unsigned idx)
{
	struct name_index *ix = &p->names[k];

	if (2 * (ix->n + 1) > ix->cap) {
		size_t cap = ix->cap ? 2 * ix->cap : 64;
		unsigned *slot = calloc(cap, sizeof(*slot));
		struct name_index nx = { slot, cap, ix->n };

		if (!slot)
			return -ENOMEM;
		for (size_t i = 0; i < ix->cap; i++)
			if (ix->slot[i])
				name_put(&nx,
					 obj_name(k, ix->slot[i] - 1, p->out),
					 ix->slot[i] - 1);
		free(ix->slot);
		*ix = nx;
	}
	name_put(ix, obj_name(k, idx, p->out), idx);
	ix->n++;
	return 0;
}

int params_grow(struct parser *p, enum kind k, void **arr, size_t n,
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
	ret = keywords_kinds[k].finish(p);
	p->kind = KIND_NONE;
	if (ret)
		return ret < 0 ? ret : 0; /* 1: kept elsewhere (fwd=format) */
	switch (k) {
	case KIND_HD:
		ret = params_grow(p, k, (void **)&pa->hd, pa->nhd,
				  sizeof(*pa->hd));
		if (!ret)
			pa->hd[pa->nhd++] = p->cur.hd;
		break;
	case KIND_SD:
		ret = params_grow(p, k, (void **)&pa->sd, pa->nsd,
				  sizeof(*pa->sd));
		if (!ret)
			pa->sd[pa->nsd++] = p->cur.sd;
		break;
	case KIND_WD:
		ret = params_grow(p, k, (void **)&pa->wd, pa->nwd,
				  sizeof(*pa->wd));
		if (!ret)
			pa->wd[pa->nwd++] = p->cur.wd;
		break;
	case KIND_FSD:
		ret = params_grow(p, k, (void **)&pa->fsd, pa->nfsd,
				  sizeof(*pa->fsd));
		if (!ret)
			pa->fsd[pa->nfsd++] = p->cur.fsd;
		break;
	case KIND_FWD:
		ret = params_grow(p, k, (void **)&pa->fwd, pa->nfwd,
				  sizeof(*pa->fwd));
		if (!ret)
			pa->fwd[pa->nfwd++] = p->cur.fwd;
		break;
	case KIND_EV:
		ret = params_grow(p, k, (void **)&pa->ev, pa->nev,
				  sizeof(*pa->ev));
		if (!ret)
			pa->ev[pa->nev++] = p->cur.ev;
		break;
	case KIND_PROBE:
		ret = params_grow(p, k, (void **)&pa->probe, pa->nprobe,
				  sizeof(*pa->probe));
		if (!ret)
			pa->probe[pa->nprobe++] = p->cur.probe;
		break;
	default:
		ret = params_grow(p, k, (void **)&pa->rd, pa->nrd,
				  sizeof(*pa->rd));
		if (!ret)
			pa->rd[pa->nrd++] = p->cur.rd;
		break;
	}
	if (!ret)
		ret = name_add(p, k, (unsigned)(obj_count(k, pa) - 1));
	return ret;
}

/*
 * What concatenation cannot keep. Vdbench refuses rhpct=, whpct=,
 * hitarea= and offset= (ConcatSds.abortIf) and uses the wd's threads, not
 * the sd's; range= and align= of an sd would be of one part of the
 * space, and hot bands, skewed distributions, streams and strides of a
 * concatenated space are not Vdbench's (its own list of them is "todo").
 */
static int concat_refuse(struct parser *p, const struct kw *kw,
			 const struct item *it)
{
	static const char *const sd_no[] = { "threads", "range", "hitarea",
					     "offset", "align" };
	static const char *const wd_no[] = { "rhpct",   "whpct",
					     "hotband", "random_distribution",
					     "streams", "stride" };
	const char *const *no = p->kind == KIND_SD ? sd_no : wd_no;
	size_t n = p->kind == KIND_SD ? sizeof(sd_no) / sizeof(*sd_no) :
					sizeof(wd_no) / sizeof(*wd_no);

	if (p->kind != KIND_SD && p->kind != KIND_WD)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!strcmp(kw->name, no[i]))
			return perr(p, it->kpos,
				    "%s %s= is not supported with concatenatesds=yes%s",
				    p->kind == KIND_SD ? "sd" : "wd", kw->name,
				    p->kind == KIND_SD && !strcmp(kw->name,
								  "threads") ?
					    " (Vdbench's rule: give threads= on the wd)" :
					    "");
	return 0;
}

static int def_apply(struct parser *p, const struct item *it)
{
	const struct kw *kw;
	int i;

	if (p->kind == KIND_NONE)
		return compat_unknown(p, keywords_kinds, KIND_GENERAL, it);
	if (p->kind != KIND_GENERAL && key_is(it, keywords_kinds[p->kind].name))
		return perr(p, it->kpos,
			    "a second %s= in one definition (start each definition on a new line)",
			    keywords_kinds[p->kind].name);
	i = keywords_find(p->kind, it);
	if (i < 0)
		return compat_unknown(p, keywords_kinds, p->kind, it);
	kw = &keywords_kinds[p->kind].kws[i];
	/* Another name for a keyword counts as that keyword. */
	if (kw->alias_of)
		i = keywords_index(p->kind, kw->alias_of);
	if (p->seen[i].line)
		return perr(p, it->kpos, "%s= is given twice (first at %u:%u)",
			    kw->name, p->seen[i].line, p->seen[i].col);
	p->seen[i] = p->from[i] = it->kpos;
	if (p->out->concat && concat_refuse(p, kw, it))
		return -EINVAL;
	if (!kw->set)
		return 0;
	return kw->set(p, kw,
		       p->kind == KIND_GENERAL ? (void *)p->out :
						 (void *)&p->cur,
		       it);
}

static int check_name(struct parser *p, enum kind k, const struct val *v)
{
	const char *kn = keywords_kinds[k].name;
	long at;

	if (v->len >= PARAMS_NAME_MAX)
		return perr(p, v->pos,
			    "%s= name is too long (%zu characters, at most %d)",
			    kn, v->len, PARAMS_NAME_MAX - 1);
	for (size_t i = 0; i < v->len; i++) {
		unsigned char c = (unsigned char)v->s[i];

		if (c == '/' || c == '\\' || c == '*' || c == '?' || iscntrl(c))
			return perr(p, v->pos,
				    "%s=%.*s: a name may not contain '%c'", kn,
				    show(v->len), v->s, iscntrl(c) ? '?' : c);
	}
	/*
	 * Slaves are named after their hd= line and a slave name must pass
	 * fsutil_name_ok() at hello (it names a file of the results), so an
	 * hd= name is held to the same rule here, where the error has a line.
	 * An ev= name names its log, events/NAME.log, and a probe= name
	 * probes/NAME.log: the same rule.
	 */
	if (k == KIND_HD || k == KIND_EV || k == KIND_PROBE) {
		char name[PARAMS_NAME_MAX];

		memcpy(name, v->s, v->len);
		name[v->len] = '\0';
		if (!fsutil_name_ok(name))
			return perr(p, v->pos,
				    "%s=%.*s: a%s name is letters, digits, '-', '_' and '.', not starting with '.'",
				    kn, show(v->len), v->s,
				    k == KIND_HD ? " host" :
				    k == KIND_EV ? "n event" :
						   " probe");
	}
	at = name_lookup(p, k, v->s, v->len);
	if (at >= 0) {
		const struct params_pos *pos =
			k == KIND_HD    ? &p->out->hd[at].pos :
			k == KIND_SD    ? &p->out->sd[at].pos :
			k == KIND_WD    ? &p->out->wd[at].pos :
			k == KIND_FSD   ? &p->out->fsd[at].pos :
			k == KIND_FWD   ? &p->out->fwd[at].pos :
			k == KIND_RD    ? &p->out->rd[at].pos :
			k == KIND_PROBE ? &p->out->probe[at].pos :
					  &p->out->ev[at].pos;

		return perr(p, v->pos, "%s=%.*s is already defined at line %u",
			    kn, show(v->len), v->s, pos->line);
	}
	return 0;
}

/* fsd= lines go with the sd= lines, fwd= lines with the wd= lines. */
static int kind_rank(enum kind k)
{
	return k == KIND_FSD ? KIND_SD : k == KIND_FWD ? KIND_WD : (int)k;
}

/* An item that starts a definition of kind k. */
static int def_start(struct parser *p, enum kind k, const struct item *it)
{
	const struct val *v = &it->val[0];
	int ret = def_finish(p);

	if (ret)
		return ret;
	if (kind_rank(k) < kind_rank(p->last))
		return perr(p, it->kpos,
			    "%.*s=%.*s must come before the %s= definitions (the order is general, hd, sd, wd, rd%s)",
			    (int)it->keylen, it->key, show(it->rawlen), it->raw,
			    keywords_kinds[p->last].name,
			    p->last == KIND_EV    ? ", probe, ev" :
			    p->last == KIND_PROBE ? ", probe" :
						    "");
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
			    keywords_kinds[k].name);
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
	k = keywords_starter(it);
	if (k != KIND_NONE) {
		if (!it->indented || p->kind == KIND_NONE ||
		    keywords_find(p->kind, it) < 0)
			return k;
		return KIND_NONE;
	}
	if (keywords_find(KIND_GENERAL, it) >= 0 &&
	    (!it->indented || p->kind == KIND_NONE))
		return KIND_GENERAL;
	return KIND_NONE;
}

/* ---- the public functions --------------------------------------------- */

/* An item whose keyword this language knows: its file is a parameter file. */
static bool starts_with_keyword(const struct parser *p, const struct item *it)
{
	return key_is(it, "include") || keywords_starter(it) != KIND_NONE ||
	       keywords_find(KIND_GENERAL, it) >= 0 ||
	       (p->kind != KIND_NONE && keywords_find(p->kind, it) >= 0);
}

static int parse(struct parser *p)
{
	int ret;

	for (;;) {
		enum kind k;

		ret = scan_next_item(p);
		if (ret == 0 && p->depth) {
			include_end(p);
			continue;
		}
		if (ret != 1)
			break;
		if (!p->trusted && starts_with_keyword(p, &p->it))
			p->trusted = true;
		if (key_is(&p->it, "include")) {
			ret = include_start(p, &p->it);
		} else {
			k = line_kind(p, &p->it);
			if ((p->flags & PARAMS_CLUSTER) &&
			    (k == KIND_WD || k == KIND_RD || k == KIND_EV ||
			     k == KIND_PROBE || k == KIND_FSD || k == KIND_FWD))
				return perr(p, p->it.kpos,
					    "%s= in a cluster file: lockstep easy writes the workloads (run your own with lockstep run)",
					    keywords_kinds[k].name);
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
	if (!ret && !p->out->nrd && !(p->flags & PARAMS_CLUSTER))
		ret = perr(p, scan_end_pos(p->text),
			   "no rd= run definition: nothing to run");
	/* Checks that need every line read (ev.c's after= chains). */
	for (int k = 0; !ret && k < KIND_NR; k++)
		if (keywords_kinds[k].resolve)
			ret = keywords_kinds[k].resolve(p);
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
	ret = include_add_file(p->out, p->name);
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
	p->out->fs_format_xfer = 128 * 1024; /* Vdbench's format xfersize */
	p->out->fs_format_threads = 8;       /* Vdbench's format_fwd.threads */
	p->flags = flags;
	/* A file saved with a UTF-8 byte-order mark (Windows editors). */
	p->text = p->s = p->bol = include_skip_bom(text);
	p->line = 1;
	p->at_bol = true;
	/* The file named by the caller is its parameter file. */
	p->trusted = true;
	p->err = err;
	p->errlen = errlen;
	p->kind = KIND_NONE;
	p->last = KIND_GENERAL;
	for (int k = 0; k < KIND_NR; k++)
		params_obj_defaults(&p->dflt[k], (enum kind)k);

	ret = parse(p);
	while (p->depth)
		include_end(p);
	for (int k = 0; k < KIND_NR; k++)
		free(p->names[k].slot);
	if (ret == -ENOMEM && err && errlen)
		snprintf(err, errlen, "%s: out of memory", p->name);
	if (ret)
		params_free(&p->out);
	*out = p->out;
	free(p);
	return ret;
}

int params_parse_string(const char *name, const char *text, struct params **out,
			char *err, size_t errlen)
{
	return params_parse_text(name, text, 0, out, err, errlen);
}

int params_parse_file_flags(const char *path, unsigned flags,
			    struct params **out, char *err, size_t errlen)
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
	ret = include_read_text(path, &text, &len);
	if (ret) {
		if (err && errlen)
			snprintf(err, errlen, "%s: cannot read: %s", path,
				 include_strerror(ret));
		return ret;
	}
	if (strlen(text) != len) {
		struct params_pos pos = scan_text_pos(text,
						      text + strlen(text));

		if (err && errlen)
			snprintf(err, errlen,
				 "%s:%u:%u: a NUL byte: not a text file", path,
				 pos.line, pos.col);
		free(text);
		return -EINVAL;
	}
	ret = params_parse_text(path, text, flags, out, err, errlen);
	free(text);
	if (!ret)
		strcpy((*out)->path, path);
	return ret;
}

int params_parse_file(const char *path, struct params **out, char *err,
		      size_t errlen)
{
	return params_parse_file_flags(path, 0, out, err, errlen);
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
	free((*p)->fsd);
	free((*p)->fwd);
	free((*p)->rd);
	free((*p)->ev);
	free((*p)->probe);
	for (size_t i = 0; i < (*p)->ncmd; i++)
		free((*p)->cmd[i]);
	free((*p)->cmd);
	free(*p);
	*p = NULL;
}

const char *params_loop_name(enum params_loop_kind k)
{
	static const char *const names[PARAMS_LOOP_NR] = {
		[PARAMS_LOOP_XFERSIZE] = "forxfersize",
		[PARAMS_LOOP_RDPCT] = "forrdpct",
		[PARAMS_LOOP_SEEKPCT] = "forseekpct",
		[PARAMS_LOOP_THREADS] = "forthreads",
		[PARAMS_LOOP_COMPRATIO] = "forcompratio",
		[PARAMS_LOOP_RHPCT] = "forrhpct",
		[PARAMS_LOOP_WHPCT] = "forwhpct",
		[PARAMS_LOOP_HITAREA] = "forhitarea",
		[PARAMS_LOOP_OPERATION] = "foroperation",
		[PARAMS_LOOP_DEPTH] = "fordepth",
		[PARAMS_LOOP_WIDTH] = "forwidth",
		[PARAMS_LOOP_FILES] = "forfiles",
		[PARAMS_LOOP_SIZES] = "forsizes",
		[PARAMS_LOOP_TOTAL] = "fortotal",
		[PARAMS_LOOP_WSS] = "forwss",
	};

	return (unsigned)k < PARAMS_LOOP_NR ? names[k] : "?";
}
