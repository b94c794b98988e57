/*
 * File-system definitions (issue 32), Vdbench's second half: fsd= lines
 * (a tree of folders and files under an anchor: common/fstree.h's shape,
 * checked by fstree_check()), fwd= lines (one operation on the files of
 * one or more fsds); the rd= keywords of a file-system run are fs_rd.c's.
 * Vdbench keywords of these lines that
 * lockstep does not run are refused by their rows (keywords.c) or here,
 * never skipped.
 */
#include "master/params/params_int.h"
#include "common/fstree.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* ---- fsd= ------------------------------------------------------------- */

/* anchor=: an absolute folder on the slaves (Vdbench's may be relative). */
int fsd_set_anchor(struct parser *p, const struct kw *kw, void *obj,
		   const struct item *it)
{
	struct params_fsd *fsd = obj;
	const struct val *v = values_single(p, kw, it);

	if (!v)
		return -EINVAL;
	fsd->anchor_pos = v->pos;
	fsd->anchor_slash = v->len > 1 && v->s[v->len - 1] == '/';
	if (!v->len || v->s[0] != '/' || memchr(v->s, '\0', v->len))
		return perr(p, v->pos,
			    "anchor=%.*s is not an absolute folder (for example anchor=/mnt/nfs/lockstep): a slave resolves it on its own host",
			    show(v->len), v->s);
	if (!cstr(v, fsd->anchor, sizeof(fsd->anchor)))
		return perr(p, v->pos,
			    "anchor= is too long (%zu characters, at most %zu)",
			    v->len, sizeof(fsd->anchor) - 1);
	/* One spelling per folder: /a/b/ is /a/b (a repeated anchor is found). */
	for (size_t n = strlen(fsd->anchor); n > 1 && fsd->anchor[n - 1] == '/';
	     n--)
		fsd->anchor[n - 1] = '\0';
	return 0;
}

/*
 * depth=, width=, files= (the uint32_t at kw->off): whole numbers from 1.
 * depth= stops at a path's length (common/fstree.h), files= at Vdbench's
 * limit; fstree_check() judges the whole tree once the line is read.
 */
int fsd_set_shape(struct parser *p, const struct kw *kw, void *obj,
		  const struct item *it)
{
	const struct val *v = values_single(p, kw, it);
	double hi = !strcmp(kw->name, "depth") ? FSTREE_PATH_MAX / 2 :
		    !strcmp(kw->name, "files") ? FSTREE_FILES_MAX :
						 UINT32_MAX;
	double d;
	int ret = v ? values_whole(p, kw, v, 1, hi, &d) : -EINVAL;

	if (!ret)
		*(uint32_t *)((char *)obj + kw->off) = (uint32_t)d;
	return ret;
}

/*
 * sizes=SIZE, sizes=(SIZE,PCT,SIZE,PCT,...) with whole percentages adding
 * up to 100, or sizes=(SIZE,0): sizes averaging SIZE (Vdbench's forms).
 */
int fsd_set_sizes(struct parser *p, const struct kw *kw, void *obj,
		  const struct item *it)
{
	struct params_fsd *fsd = obj;
	size_t n = it->nval / 2;

	fsd->average = false;
	if (it->nval == 1) {
		fsd->nsizes = 1;
		fsd->pct[0] = 100;
		if (values_size(p, kw, &it->val[0], &fsd->size[0]))
			return -EINVAL;
		if (!fsd->size[0])
			return perr(p, it->val[0].pos,
				    "%s=0: a file size must be at least 1 byte",
				    kw->name);
		return 0;
	}
	if (it->nval % 2)
		return perr(p, it->vpos,
			    "%s= needs one size, size,percentage pairs such as (4k,50,64k,50), or (size,0) for sizes averaging size",
			    kw->name);
	if (n > PARAMS_FSD_SIZES)
		return perr(p, it->vpos,
			    "%s= has more than %d size,percentage pairs",
			    kw->name, PARAMS_FSD_SIZES);
	for (size_t i = 0; i < n; i++) {
		double pct;

		if (values_size(p, kw, &it->val[2 * i], &fsd->size[i]) ||
		    values_whole(p, kw, &it->val[2 * i + 1], 0, 100, &pct))
			return -EINVAL;
		if (!fsd->size[i])
			return perr(p, it->val[2 * i].pos,
				    "%s=: a file size must be at least 1 byte",
				    kw->name);
		if (!pct && n > 1)
			return perr(p, it->val[2 * i + 1].pos,
				    "%s=: a share of 0 is only for one pair, (size,0): sizes averaging size",
				    kw->name);
		fsd->pct[i] = (uint32_t)pct;
	}
	fsd->nsizes = (uint32_t)n;
	fsd->average = n == 1 && fsd->pct[0] == 0;
	return 0;
}

int fsd_set_distribution(struct parser *p, const struct kw *kw, void *obj,
			 const struct item *it)
{
	struct params_fsd *fsd = obj;
	const struct val *v = values_single(p, kw, it);

	if (!v)
		return -EINVAL;
	if (val_is(v, "bottom"))
		fsd->dist_all = false;
	else if (val_is(v, "all"))
		fsd->dist_all = true;
	else
		return perr(p, v->pos, "%s=%.*s is not bottom or all", kw->name,
			    show(v->len), v->s);
	return 0;
}

int fsd_set_openflags(struct parser *p, const struct kw *kw, void *obj,
		      const struct item *it)
{
	struct params_fsd *fsd = obj;

	return sd_parse_openflags(p, kw, it, &fsd->openflags);
}

/*
 * totalsize=, workingsetsize= (wss=): bytes of the tree's files, Vdbench's
 * subsets (proto.h's ts and ws: each slave draws them from its files).
 * Vdbench's FsdEntry.readParms: one size, or (size,divisor), the size
 * divided by the divisor in long arithmetic (truncated). 0 is no subset
 * (FileAnchor.createUsedList and createWorkingSetList draw nothing for
 * 0: the whole tree, every file). A percentage: Vdbench's parser makes
 * it a negative number, which its totalsize= refuses ("only for an RD")
 * and its workingsetsize= takes as a working set that draws no file
 * (the run fails, "Subset creation failed").
 */
int fsd_set_bytes(struct parser *p, const struct kw *kw, void *obj,
		  const struct item *it)
{
	struct params_fsd *fsd = obj;
	bool total = !strcmp(kw->name, "totalsize");
	const struct val *v = &it->val[0];
	double div = 1;
	uint64_t b;

	if (it->nval < 1 || it->nval > 2)
		return perr(p, it->vpos,
			    "%s= takes one size or Vdbench's (size,divisor)",
			    kw->name);
	for (size_t i = 0; i < it->nval; i++) {
		const struct val *x = &it->val[i];

		if (!x->len || x->s[x->len - 1] != '%')
			continue;
		if (total)
			return perr(p, x->pos,
				    "%s=%.*s: a percentage is not allowed on an fsd, only as an rd's fortotal= (Vdbench's rule); give bytes",
				    kw->name, show(x->len), x->s);
		return perr(p, x->pos,
			    "%s=%.*s: a percentage is not a working set (Vdbench draws no file for it and the run fails); give bytes",
			    kw->name, show(x->len), x->s);
	}
	if (values_size(p, kw, v, &b))
		return -EINVAL;
	if (it->nval == 2 && values_whole(p, kw, &it->val[1], 1, 1e15, &div))
		return -EINVAL;
	if (b && !(b / (uint64_t)div))
		return perr(p, it->val[1].pos,
			    "%s=(%.*s,%.*s) is 0 bytes, which Vdbench takes as no subset; give 0 for that",
			    kw->name, show(v->len), v->s, show(it->val[1].len),
			    it->val[1].s);
	b /= (uint64_t)div;
	if (total) {
		fsd->totalsize = b;
		fsd->totalsize_given = true;
		fsd->totalsize_pos = v->pos;
	} else {
		fsd->wss = b;
		fsd->wss_pos = v->pos;
	}
	return 0;
}

/* totalsize= and workingsetsize= within the tree (and each other). */
static int check_subsets(struct parser *p, const struct params_fsd *fsd,
			 uint64_t bytes)
{
	if (fsd->totalsize > bytes)
		return perr(p, fsd->totalsize_pos,
			    "fsd=%s: totalsize=%" PRIu64
			    " is more than the tree's %" PRIu64
			    " bytes (Vdbench's rule)",
			    fsd->name, fsd->totalsize, bytes);
	if (fsd->totalsize && fsd->wss > fsd->totalsize)
		return perr(p, fsd->wss_pos,
			    "fsd=%s: workingsetsize=%" PRIu64
			    " is more than totalsize=%" PRIu64
			    " (the working set is drawn from the totalsize= files)",
			    fsd->name, fsd->wss, fsd->totalsize);
	if (fsd->wss > bytes)
		return perr(p, fsd->wss_pos,
			    "fsd=%s: workingsetsize=%" PRIu64
			    " is more than the tree's %" PRIu64
			    " bytes (Vdbench's rule)",
			    fsd->name, fsd->wss, bytes);
	return 0;
}

void params_fsd_shape(const struct params_fsd *fsd, struct fstree_shape *sh)
{
	memset(sh, 0, sizeof(*sh));
	sh->depth = fsd->depth;
	sh->width = fsd->width;
	sh->files = fsd->files;
	sh->dist = fsd->dist_all ? FSTREE_DIST_ALL : FSTREE_DIST_BOTTOM;
	sh->nsizes = fsd->nsizes;
	sh->average = fsd->average;
	for (uint32_t i = 0; i < fsd->nsizes && i < FSTREE_SIZES_MAX; i++) {
		sh->size[i] = fsd->size[i];
		sh->pct[i] = fsd->pct[i];
	}
}

/* The keyword an fstree_check() message names first, if given here. */
static struct params_pos shape_pos(struct parser *p, const char *msg)
{
	static const char *const kws[] = { "depth", "width", "files", "sizes",
					   "distribution" };
	const char *first = NULL;
	struct params_pos pos = p->dpos;

	for (size_t i = 0; i < sizeof(kws) / sizeof(kws[0]); i++) {
		char key[32];
		const char *at;

		snprintf(key, sizeof(key), "%s=", kws[i]);
		at = strstr(msg, key);
		if (at && (!first || at < first)) {
			struct params_pos kp = params_from(p, kws[i]);

			first = at;
			pos = kp.line ? kp : p->dpos;
		}
	}
	return pos;
}

int fsd_finish(struct parser *p)
{
	struct params_fsd *fsd = &p->cur.fsd;
	struct fstree_counts counts;
	struct fstree_shape sh;
	char why[256];

	if (!fsd->anchor[0])
		return perr(p, p->dpos,
			    "fsd=%s needs anchor= (the folder its tree is made in)",
			    fsd->name);
	params_fsd_shape(fsd, &sh);
	if (fstree_check(&sh, &counts, why, sizeof(why)))
		return perr(p, shape_pos(p, why), "fsd=%s: %s", fsd->name, why);
	if (check_subsets(p, fsd, counts.bytes))
		return -EINVAL;
	/* count=: the line's fsds, each anchor checked as it is made. */
	return fsd->count_n ? fsd_count_expand(p) : fsd_check_anchor(p, fsd);
}

/* ---- fwd= ------------------------------------------------------------- */

int fwd_set_fsd(struct parser *p, const struct kw *kw, void *obj,
		const struct item *it)
{
	struct params_fwd *fwd = obj;

	return params_set_refs(p, kw, it, KIND_FSD, fwd->fsd, &fwd->nfsd);
}

int fwd_set_operation(struct parser *p, const struct kw *kw, void *obj,
		      const struct item *it)
{
	struct params_fwd *fwd = obj;
	const struct val *v;

	if (it->nval != 1)
		return perr(p, it->vpos,
			    "%s= takes one operation (one fwd= per operation, or the rd's operations= list)",
			    kw->name);
	v = &it->val[0];
	if (fsop_parse(v) >= 0) {
		fwd->op = (enum params_fsop)fsop_parse(v);
		return 0;
	}
	return perr(p, v->pos,
		    "%s=%.*s is not an operation (read, write, create, delete, mkdir, rmdir, open, close, getattr, setattr, access, copy or move)",
		    kw->name, show(v->len), v->s);
}

int fwd_set_rdpct(struct parser *p, const struct kw *kw, void *obj,
		  const struct item *it)
{
	struct params_fwd *fwd = obj;
	const struct val *v = values_single(p, kw, it);

	if (!v)
		return -EINVAL;
	fwd->rdpct_pos = it->kpos;
	return values_number_in(p, kw, v, 0, 100, &fwd->rdpct);
}

int fwd_set_xfersize(struct parser *p, const struct kw *kw, void *obj,
		     const struct item *it)
{
	struct params_fwd *fwd = obj;

	return wd_parse_xfers(p, kw, it, fwd->xfer, &fwd->nxfer);
}

/*
 * fileio=sequential|random, or Vdbench's pairs (FwdEntry.fileIoParameters):
 * (random,shared), several threads on one file at once, and
 * (sequential,delete), a write deleting the file before it rewrites it.
 */
int fwd_set_fileio(struct parser *p, const struct kw *kw, void *obj,
		   const struct item *it)
{
	struct params_fwd *fwd = obj;
	const struct val *v = &it->val[0];
	bool random;

	if (!it->nval)
		return values_single(p, kw, it) ? 0 : -EINVAL;
	if (it->nval > 2)
		return perr(p, it->vpos,
			    "%s=%.*s: give sequential, random, (random,shared) or (sequential,delete)",
			    kw->name, show(it->rawlen), it->raw);
	if (val_is(v, "sequential") || val_is(v, "seq"))
		random = false;
	else if (val_is(v, "random"))
		random = true;
	else
		return perr(p, v->pos, "%s=%.*s is not sequential or random",
			    kw->name, show(v->len), v->s);
	fwd->fileio_random = random;
	fwd->fileio_shared = false;
	fwd->fileio_delete = false;
	fwd->fileio_pos = it->kpos;
	if (it->nval == 1)
		return 0;
	v = &it->val[1];
	if (random && val_is(v, "shared"))
		fwd->fileio_shared = true;
	else if (!random && val_is(v, "delete"))
		fwd->fileio_delete = true;
	else
		return perr(p, v->pos,
			    "%s=%.*s: with %s Vdbench takes %s, not %.*s",
			    kw->name, show(it->rawlen), it->raw,
			    random ? "random" : "sequential",
			    random ? "shared" : "delete", show(v->len), v->s);
	return 0;
}

/*
 * One word of fileselect= (Vdbench's parseFileSelect): random,
 * sequential, once, poisson (random, midpoint 3), midpoint=N (random,
 * midpoint N) or a number (midpoint N). Two flags, as Vdbench's:
 * *random (select_random) and *once (select_once).
 */
static int fileselect_word(struct parser *p, const struct kw *kw,
			   const struct val *v, bool *random, bool *once,
			   double *mid)
{
	struct val num;

	if (val_is(v, "random"))
		*random = true;
	else if (val_is(v, "sequential") || val_is(v, "seq"))
		*random = false;
	else if (val_is(v, "once"))
		*once = true;
	else if (val_is(v, "poisson")) {
		*random = true;
		*mid = 3;
	} else if (v->len > 9 && !strncasecmp(v->s, "midpoint=", 9)) {
		num = *v;
		num.s += 9;
		num.len -= 9;
		num.pos.col += 9;
		if (values_number_in(p, kw, &num, 0, 1e9, mid))
			return -EINVAL;
		if (!(*mid > 0))
			return perr(p, v->pos,
				    "%s=%.*s: the midpoint must be above 0",
				    kw->name, show(v->len), v->s);
		*random = true;
	} else if (v->len &&
		   (isdigit((unsigned char)v->s[0]) || v->s[0] == '.')) {
		if (values_number_in(p, kw, v, 0, 1e9, mid))
			return -EINVAL;
		if (!(*mid > 0))
			return perr(p, v->pos,
				    "%s=%.*s: the midpoint must be above 0",
				    kw->name, show(v->len), v->s);
	} else {
		return perr(p, v->pos,
			    "%s=%.*s is not random, sequential, once, poisson or midpoint=N",
			    kw->name, show(v->len), v->s);
	}
	return 0;
}

/*
 * fileselect=: a word or a list of them, Vdbench's: random and
 * sequential set how (the last wins), once makes it one pass (random
 * once: each file once in random order); poisson and midpoint=N skew
 * random picks.
 */
int fwd_set_fileselect(struct parser *p, const struct kw *kw, void *obj,
		       const struct item *it)
{
	struct params_fwd *fwd = obj;
	bool random = fwd->fileselect == 0 || fwd->fileselect == 3;
	bool once = fwd->fileselect == 2 || fwd->fileselect == 3;
	double mid = fwd->midpoint;
	unsigned sel;

	if (!it->nval)
		return values_single(p, kw, it) ? 0 : -EINVAL;
	for (size_t k = 0; k < it->nval; k++)
		if (fileselect_word(p, kw, &it->val[k], &random, &once, &mid))
			return -EINVAL;
	sel = once ? (random ? 3 : 2) : (random ? 0 : 1);
	if (mid > 0 && sel != 0)
		return perr(p, it->vpos,
			    "%s=%.*s: a poisson or midpoint= skew is for random selection (Vdbench skews only random picks; with once, none)",
			    kw->name, show(it->rawlen), it->raw);
	fwd->fileselect = sel;
	fwd->midpoint = mid;
	return 0;
}

int fwd_set_threads(struct parser *p, const struct kw *kw, void *obj,
		    const struct item *it)
{
	struct params_fwd *fwd = obj;
	const struct val *v = values_single(p, kw, it);
	double d;
	int ret = v ? values_whole(p, kw, v, 1, THREADS_MAX, &d) : -EINVAL;

	if (!ret)
		fwd->threads = (unsigned)d;
	return ret;
}

int fwd_set_skew(struct parser *p, const struct kw *kw, void *obj,
		 const struct item *it)
{
	struct params_fwd *fwd = obj;
	const struct val *v = values_single(p, kw, it);

	if (!v)
		return -EINVAL;
	fwd->skew_pos = it->kpos;
	return values_number_in(p, kw, v, 0, 100, &fwd->skew);
}

int fwd_set_host(struct parser *p, const struct kw *kw, void *obj,
		 const struct item *it)
{
	struct params_fwd *fwd = obj;

	return params_set_hosts(p, kw, it, fwd->host, &fwd->nhost);
}

/*
 * stopafter=N (transfers) or stopafter=P% (of a file's bytes): a read or
 * write moves to another file after that much (Vdbench's ActiveFile).
 */
int fwd_set_stopafter(struct parser *p, const struct kw *kw, void *obj,
		      const struct item *it)
{
	struct params_fwd *fwd = obj;
	const struct val *v = values_single(p, kw, it);
	struct val num;
	double d;

	if (!v)
		return -EINVAL;
	fwd->stopafter = 0;
	fwd->stopafter_pct = 0;
	if (v->len > 1 && v->s[v->len - 1] == '%') {
		num = *v;
		num.len--;
		if (values_whole(p, kw, &num, 1, 100, &d))
			return -EINVAL;
		fwd->stopafter_pct = (unsigned)d;
		return 0;
	}
	if (values_whole(p, kw, v, 1, 1e15, &d))
		return -EINVAL;
	fwd->stopafter = (uint64_t)d;
	return 0;
}

int fwd_set_target(struct parser *p, const struct kw *kw, void *obj,
		   const struct item *it)
{
	struct params_fwd *fwd = obj;
	const struct val *v = values_single(p, kw, it);
	long at;

	if (!v)
		return -EINVAL;
	fwd->target_pos = v->pos;
	at = params_lookup(p, KIND_FSD, v->s, v->len);
	if (at < 0)
		return perr(p, v->pos, "%s=%.*s refers to an undefined fsd",
			    kw->name, show(v->len), v->s);
	fwd->target = (int)at;
	return 0;
}

/* Whether fsds a and b have one shape (Vdbench's rule for target=). */
static bool same_shape(const struct params_fsd *a, const struct params_fsd *b)
{
	if (a->depth != b->depth || a->width != b->width ||
	    a->files != b->files || a->dist_all != b->dist_all ||
	    a->nsizes != b->nsizes || a->average != b->average)
		return false;
	for (uint32_t i = 0; i < a->nsizes; i++)
		if (a->size[i] != b->size[i] || a->pct[i] != b->pct[i])
			return false;
	return true;
}

/*
 * fwd=format (Vdbench's FwdEntry): not a workload but the settings of
 * every fs format: "only the threads=, openflags= and the first
 * xfersize= are used". Its xfersize= defaults to 128k (Vdbench resets it
 * from fwd=default's); its threads= (fwd=default's when not given, as
 * Vdbench clones fwd=default) are the threads that format each tree on
 * each slave, at most FORMAT_THREADS_MAX; without fwd=format
 * Vdbench's 8; its openflags= open the format's files, over the fsds'
 * (an rd's over it). Returns 1: kept in params, not stored as an fwd.
 */
static int format_fwd(struct parser *p, const struct params_fwd *fwd)
{
	static const char *const not_format[] = {
		"fsd",  "operation", "rdpct",  "fileio",    "fileselect",
		"skew", "host",      "target", "stopafter",
	};
	struct params *pa = p->out;
	struct params_pos at = params_seen(p, "xfersize");

	if (pa->format_fwd)
		return perr(p, p->dpos, "fwd=format is given twice");
	for (size_t i = 0; i < sizeof(not_format) / sizeof(*not_format); i++) {
		struct params_pos kp = params_seen(p, not_format[i]);

		if (kp.line)
			return perr(p, kp,
				    "fwd=format takes xfersize=, threads= and openflags= only (the settings of every format; Vdbench uses no other): %s= means nothing there",
				    not_format[i]);
	}
	if (fwd->threads < 1 || fwd->threads > FORMAT_THREADS_MAX) {
		struct params_pos tp = params_from(p, "threads");

		return perr(p, tp.line ? tp : p->dpos,
			    "fwd=format threads=%u: a format runs 1..%u threads on each slave for each fsd",
			    fwd->threads, FORMAT_THREADS_MAX);
	}
	pa->format_fwd = true;
	pa->fs_format_xfer = at.line ? fwd->xfer[0].size : 128 * 1024;
	pa->fs_format_threads = fwd->threads;
	pa->fs_format_openflags = fwd->openflags;
	pa->fs_format_openflags_set = fwd->openflags_set;
	return 1;
}

int fsd_set_journal(struct parser *p, const struct kw *kw, void *obj,
		    const struct item *it)
{
	struct params_fsd *fsd = obj;

	return params_journal_value(p, kw, it, fsd->journal,
				    sizeof(fsd->journal), &fsd->journal_pos);
}

int fwd_set_openflags(struct parser *p, const struct kw *kw, void *obj,
		      const struct item *it)
{
	struct params_fwd *fwd = obj;

	fwd->openflags_set = true;
	return sd_parse_openflags(p, kw, it, &fwd->openflags);
}

int fwd_finish(struct parser *p)
{
	struct params_fwd *fwd = &p->cur.fwd;
	const struct params *pa = p->out;
	bool rw = fwd->op == PARAMS_FSOP_READ || fwd->op == PARAMS_FSOP_WRITE;

	if (!strcmp(fwd->name, "format"))
		return format_fwd(p, fwd);
	for (int op = 0; op < PARAMS_FSOP_NR; op++)
		if (!strcasecmp(fwd->name,
				params_fsop_name((enum params_fsop)op)))
			return perr(p, p->dpos,
				    "fwd=%s: an fwd may not be named after an operation (Vdbench's rule)",
				    fwd->name);
	if (!fwd->nfsd && pa->nfsd == 1) {
		fwd->fsd[0] = 0;
		fwd->nfsd = 1;
	} else if (!fwd->nfsd) {
		return perr(p, p->dpos,
			    "fwd=%s needs fsd= (the fsds it runs on: a name, a list or a wildcard)",
			    fwd->name);
	}
	if (fwd->rdpct_pos.line && !rw)
		return perr(p, fwd->rdpct_pos,
			    "fwd=%s: rdpct= mixes reads and writes: it needs operation=read or operation=write, not %s",
			    fwd->name, params_fsop_name(fwd->op));
	if (fwd->rdpct_pos.line && !fwd->fileio_random)
		return perr(p, fwd->rdpct_pos,
			    "fwd=%s: rdpct= needs fileio=random (Vdbench's rule: fileio=sequential and rdpct= are mutually exclusive)",
			    fwd->name);
	if (!fwd->rdpct_pos.line)
		fwd->rdpct = -1;
	if (fwd->fileio_delete && fwd->op != PARAMS_FSOP_WRITE)
		return perr(p, fwd->fileio_pos,
			    "fwd=%s: fileio=(sequential,delete) deletes a file before a write rewrites it (Vdbench's openForWrite): it needs operation=write, not %s",
			    fwd->name, params_fsop_name(fwd->op));
	if (fwd->fileio_shared &&
	    (fwd->fileselect == 0 || fwd->fileselect == 3))
		return perr(p, fwd->fileio_pos,
			    "fwd=%s: fileio=(random,shared) and fileselect=random are mutually exclusive (Vdbench's rule): give fileselect=sequential or once",
			    fwd->name);
	if (fwd->fileio_shared &&
	    (fwd->op == PARAMS_FSOP_CREATE || fwd->op == PARAMS_FSOP_DELETE ||
	     fwd->op == PARAMS_FSOP_MKDIR || fwd->op == PARAMS_FSOP_RMDIR ||
	     fwd->op == PARAMS_FSOP_COPY || fwd->op == PARAMS_FSOP_MOVE))
		return perr(p, fwd->fileio_pos,
			    "fwd=%s: fileio=(random,shared) lets threads use a file at once; operation=%s takes its entry alone (read, write, open, close, getattr, setattr and access share)",
			    fwd->name, params_fsop_name(fwd->op));
	if (fwd->target >= 0 && fwd->op != PARAMS_FSOP_COPY &&
	    fwd->op != PARAMS_FSOP_MOVE)
		return perr(p, fwd->target_pos,
			    "fwd=%s: target= is for operation=copy or move, not %s",
			    fwd->name, params_fsop_name(fwd->op));
	if (fwd->target < 0 &&
	    (fwd->op == PARAMS_FSOP_COPY || fwd->op == PARAMS_FSOP_MOVE))
		return perr(p, p->dpos,
			    "fwd=%s: operation=%s needs target= (the fsd to %s to, of the same shape: Vdbench's rule; a copy within one fsd would be onto the file itself)",
			    fwd->name, params_fsop_name(fwd->op),
			    params_fsop_name(fwd->op));
	for (size_t i = 0; fwd->target >= 0 && i < fwd->nfsd; i++) {
		const struct params_fsd *s = &pa->fsd[fwd->fsd[i]];
		const struct params_fsd *t = &pa->fsd[fwd->target];

		if (fwd->fsd[i] == (unsigned)fwd->target)
			return perr(p, fwd->target_pos,
				    "fwd=%s: target=%s is one of its own fsds (a copy or move goes to another fsd)",
				    fwd->name, t->name);
		if (!same_shape(s, t))
			return perr(p, fwd->target_pos,
				    "fwd=%s: target=%s must have the shape of fsd=%s (depth=, width=, files=, distribution=, sizes=: Vdbench's rule)",
				    fwd->name, t->name, s->name);
	}
	return 0;
}
