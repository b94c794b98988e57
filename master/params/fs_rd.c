/*
 * An fwd= rd: its keywords (fwd=, fwdrate=, operations=), fs_rd_finish()
 * with the block keywords refused beside fwd=, and the checks that
 * concern keywords beyond the fsd/fwd lines: validate=yes (what the slaves' key maps keep exact), the
 * for-loops an fs run takes (forxfersize=, forthreads=, forrdpct=,
 * foroperation= and the tree loops fordepth=, forwidth=, forfiles=,
 * forsizes=, fortotal=, forwss=) and operations= (Vdbench's RD_entry and
 * For_loop). And an fsd's count=
 * (Vdbench's FsdEntry.handleFsdCount): one line, n fsds, each anchor
 * checked against the others (fsd_check_anchor).
 */
#include "master/params/params_int.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <stdint.h>

/* operations=(OP,...): each fwd of the rd runs each of them. */
int rd_set_operations(struct parser *p, const struct kw *kw, void *obj,
		      const struct item *it)
{
	struct params_rd *rd = obj;
	size_t n = 0;

	if (!it->nval)
		return values_single(p, kw, it) ? 0 : -EINVAL;
	for (size_t k = 0; k < it->nval; k++) {
		const struct val *v = &it->val[k];
		int op = fsop_parse(v);

		if (op < 0)
			return perr(p, v->pos,
				    "%s=%.*s is not an operation (read, write, create, delete, mkdir, rmdir, open, close, getattr, setattr, access, copy or move)",
				    kw->name, show(v->len), v->s);
		for (size_t j = 0; j < n; j++)
			if (rd->ops[j] == (enum params_fsop)op)
				return perr(p, v->pos,
					    "%s= names %s twice (each fwd runs each operation once)",
					    kw->name,
					    params_fsop_name(rd->ops[j]));
		rd->ops[n++] = (enum params_fsop)op;
	}
	rd->nops = n;
	rd->ops_pos = it->kpos;
	return 0;
}

/* count=(start,n): n fsds from this line, numbered from start. */
int fsd_set_count(struct parser *p, const struct kw *kw, void *obj,
		  const struct item *it)
{
	struct params_fsd *fsd = obj;
	double start, n;

	if (it->nval != 2)
		return perr(p, it->vpos,
			    "%s= takes two values, (start,count) (Vdbench's rule)",
			    kw->name);
	if (values_whole(p, kw, &it->val[0], 0, 1e9, &start) ||
	    values_whole(p, kw, &it->val[1], 1, PARAMS_FSD_COUNT_MAX, &n))
		return -EINVAL;
	fsd->count_start = (uint32_t)start;
	fsd->count_n = (uint32_t)n;
	return 0;
}

/* Whether folder in is beneath folder dir ("/" holds every other). */
static bool nested(const char *dir, const char *in)
{
	size_t n = strlen(dir);

	if (n == 1)
		return in[1] != '\0';
	return !strncmp(dir, in, n) && in[n] == '/';
}

int fsd_check_anchor(struct parser *p, const struct params_fsd *fsd)
{
	for (size_t i = 0; i < p->out->nfsd; i++) {
		const struct params_fsd *o = &p->out->fsd[i];

		if (!strcmp(o->anchor, fsd->anchor))
			return perr(p, fsd->anchor_pos,
				    "fsd=%s: anchor=%s is also fsd=%s's (line %u): two trees in one folder would clean each other away",
				    fsd->name, fsd->anchor, o->name,
				    o->pos.line);
		if (nested(o->anchor, fsd->anchor) ||
		    nested(fsd->anchor, o->anchor))
			return perr(p, fsd->anchor_pos,
				    "fsd=%s: anchor=%s and fsd=%s's anchor=%s (line %u) are one inside the other (Vdbench's rule: anchors may not be parents or children of each other)",
				    fsd->name, fsd->anchor, o->name, o->anchor,
				    o->pos.line);
	}
	return 0;
}

/* The j-th fsd of count=(start,n) of line fsd into out, checked. */
static int count_copy(struct parser *p, const struct params_fsd *fsd,
		      uint32_t j, struct params_fsd *out)
{
	char num[16];
	size_t nl = strlen(fsd->name), al = strlen(fsd->anchor);

	*out = *fsd;
	snprintf(num, sizeof(num), "%u", fsd->count_start + j);
	if (nl + strlen(num) >= sizeof(out->name) ||
	    al + fsd->anchor_slash + strlen(num) >= sizeof(out->anchor))
		return perr(p, p->dpos,
			    "fsd=%s: count= makes a name or anchor= too long",
			    fsd->name);
	snprintf(out->name + nl, sizeof(out->name) - nl, "%s", num);
	snprintf(out->anchor + al, sizeof(out->anchor) - al, "%s%s",
		 fsd->anchor_slash && al > 1 ? "/" : "", num);
	out->count_n = 0;
	if (params_lookup(p, KIND_FSD, out->name, strlen(out->name)) >= 0)
		return perr(p, p->dpos,
			    "fsd=%s: count= makes fsd=%s, which is defined already",
			    fsd->name, out->name);
	return fsd_check_anchor(p, out);
}

int fsd_count_expand(struct parser *p)
{
	const struct params_fsd line = p->cur.fsd;
	struct params *pa = p->out;
	struct params_fsd one = line;
	int ret = 0;

	for (uint32_t j = 0; !ret && j < line.count_n; j++) {
		ret = count_copy(p, &line, j, &one);
		if (ret || j + 1 == line.count_n)
			break;
		ret = params_grow(p, KIND_FSD, (void **)&pa->fsd, pa->nfsd,
				  sizeof(*pa->fsd));
		if (!ret)
			pa->fsd[pa->nfsd++] = one;
	}
	if (!ret)
		p->cur.fsd = one;
	return ret;
}

/*
 * validate=yes with fwd=: what the slaves' key maps (slave/fsval.h) keep
 * exact. Refused: copy and move (their effect on a file's contents is
 * not followed), fileio=(random,shared) (Vdbench's rule) and
 * transfers that are not whole 4 KiB blocks (one key per block).
 * journal= journals the maps (slave/fsjnl.h); validate=only is one pass
 * that reads every file of the rd's fsds once (fs_validate_only).
 */
int fs_validate(struct parser *p, const struct params_rd *rd)
{
	const struct params *pa = p->out;

	for (size_t i = 0; i < rd->nfwd; i++) {
		const struct params_fwd *w = &pa->fwd[rd->fwd[i]];

		if (w->op == PARAMS_FSOP_COPY || w->op == PARAMS_FSOP_MOVE)
			return perr(p, w->pos,
				    "fwd=%s: validate=yes does not follow what operation=%s does to a file's contents",
				    w->name,
				    w->op == PARAMS_FSOP_COPY ? "copy" :
								"move");
		if (w->fileio_shared)
			return perr(p, w->fileio_pos,
				    "fwd=%s: fileio=(random,shared) may not be used with validate=yes (Vdbench's rule: threads writing one file at once leave no key to follow)",
				    w->name);
		for (size_t k = 0; k < w->nxfer; k++)
			if (w->xfer[k].size % 4096u)
				return perr(p, w->pos,
					    "fwd=%s: xfersize %u is not a multiple of 4k, as validate=yes needs (one key per 4 KiB block of a file)",
					    w->name, w->xfer[k].size);
	}
	return 0;
}

/* The rd's foroperation= loop, or NULL. */
static const struct params_loop *op_loop(const struct params_rd *rd)
{
	for (size_t l = 0; l < rd->nloop; l++)
		if (rd->loop[l].kind == PARAMS_LOOP_OPERATION)
			return &rd->loop[l];
	return NULL;
}

/*
 * Whether every operation fwd w runs in rd (operations=, foroperation=
 * or its own operation=) is read or write.
 */
static bool only_rw(const struct params_rd *rd, const struct params_fwd *w)
{
	const struct params_loop *ol = op_loop(rd);

	for (size_t k = 0; k < rd->nops; k++)
		if (rd->ops[k] != PARAMS_FSOP_READ &&
		    rd->ops[k] != PARAMS_FSOP_WRITE)
			return false;
	for (size_t k = 0; ol && k < ol->n; k++)
		if (ol->val[k] != PARAMS_FSOP_READ &&
		    ol->val[k] != PARAMS_FSOP_WRITE)
			return false;
	return rd->nops || ol || w->op == PARAMS_FSOP_READ ||
	       w->op == PARAMS_FSOP_WRITE;
}

/*
 * operations= and foroperation= (Vdbench's RD_entry.storeOperations,
 * createFwgListForOneRd, For_loop.forLoopOverrideFwd): not both; copy
 * and move need every fwd's target=; an fwd with rdpct= takes read or
 * write alone (checkRdpctOperations). (validate=yes refuses copy and
 * move fwds first, fs_validate, and those alone have a target=.)
 */
static int fs_ops(struct parser *p, const struct params_rd *rd)
{
	const struct params *pa = p->out;
	const struct params_loop *ol = op_loop(rd);
	struct params_pos at = ol ? ol->pos : rd->ops_pos;
	bool cm = false;

	if (rd->nops && ol)
		return perr(p, ol->pos,
			    "rd=%s: operations= and foroperation= are mutually exclusive (Vdbench's rule)",
			    rd->name);
	for (size_t k = 0; k < rd->nops; k++)
		cm |= rd->ops[k] == PARAMS_FSOP_COPY ||
		      rd->ops[k] == PARAMS_FSOP_MOVE;
	for (size_t k = 0; ol && k < ol->n; k++)
		cm |= ol->val[k] == PARAMS_FSOP_COPY ||
		      ol->val[k] == PARAMS_FSOP_MOVE;
	for (size_t i = 0; i < rd->nfwd; i++) {
		const struct params_fwd *w = &pa->fwd[rd->fwd[i]];

		if (cm && w->target < 0)
			return perr(p, at,
				    "rd=%s: copy and move need a target=, and fwd=%s has none (Vdbench's rule)",
				    rd->name, w->name);
		if (w->rdpct >= 0 && (rd->nops > 1 || !only_rw(rd, w)))
			return perr(p, at,
				    "rd=%s: fwd=%s has rdpct=, so it runs read or write alone (Vdbench's rule)",
				    rd->name, w->name);
	}
	return 0;
}

/* A loop that changes the tree's shape (what the marker holds). */
static bool shape_loop(enum params_loop_kind k)
{
	return k == PARAMS_LOOP_DEPTH || k == PARAMS_LOOP_WIDTH ||
	       k == PARAMS_LOOP_FILES || k == PARAMS_LOOP_SIZES;
}

int params_total_pct(const struct params_fsd *fsd, double pct, uint64_t *out,
		     char *why, size_t whylen)
{
	double b;

	if (!fsd->totalsize_given) {
		snprintf(why, whylen,
			 "fortotal=%g%% is a percentage of the fsd's totalsize=, and fsd=%s has none (Vdbench's rule)",
			 pct, fsd->name);
		return -EINVAL;
	}
	b = (double)fsd->totalsize * pct / 100.;
	if (!(b < 18446744073709551616.0)) {
		snprintf(why, whylen,
			 "fortotal=%g%% of fsd=%s's totalsize=%" PRIu64
			 " is more than 2^64 bytes",
			 pct, fsd->name, fsd->totalsize);
		return -EINVAL;
	}
	*out = (uint64_t)b;
	return 0;
}

/*
 * fortotal=N% (a value below 0, as Vdbench's parser makes it): N percent
 * of each fsd's own totalsize= (For_loop.forLoopOverrideFwd), so every
 * fsd the rd's fwds use must have one; the planner resolves the bytes
 * (params_total_pct) and checks them against each phase's tree.
 */
static int fs_total_pct(struct parser *p, const struct params_rd *rd,
			const struct params_loop *lp)
{
	const struct params *pa = p->out;
	char why[256];
	uint64_t b;

	for (size_t v = 0; v < lp->n; v++) {
		if (lp->val[v] >= 0)
			continue;
		for (size_t i = 0; i < rd->nfwd; i++) {
			const struct params_fwd *w = &pa->fwd[rd->fwd[i]];

			for (size_t j = 0; j < w->nfsd; j++)
				if (params_total_pct(&pa->fsd[w->fsd[j]],
						     -lp->val[v], &b, why,
						     sizeof(why)))
					return perr(p, lp->pos, "rd=%s: %s",
						    rd->name, why);
		}
	}
	return 0;
}

/*
 * The tree loops: a tree of another shape than the last run's is
 * refused by Vdbench without a format (ControlFile.readControlFile), so
 * fordepth=, forwidth=, forfiles= and forsizes= need format=yes or only
 * (the planner cleans the previous value's tree and formats the next);
 * restart keeps a tree, once formats only the first, and clean runs
 * nothing to loop over.
 */
static int fs_tree_loops(struct parser *p, const struct params_rd *rd,
			 const struct params_loop *lp)
{
	bool fmt = rd->format == PARAMS_FORMAT_YES ||
		   rd->format == PARAMS_FORMAT_ONLY;

	if (lp->kind < PARAMS_LOOP_DEPTH)
		return 0;
	if (rd->format == PARAMS_FORMAT_CLEAN)
		return perr(p, lp->pos,
			    "rd=%s: %s= with format=clean: clean deletes the trees and runs nothing to loop over",
			    rd->name, params_loop_name(lp->kind));
	if (rd->format_once && lp->kind <= PARAMS_LOOP_TOTAL)
		return perr(p, lp->pos,
			    "rd=%s: %s= with format=once: each value makes another tree, which needs its own format (give format=yes)",
			    rd->name, params_loop_name(lp->kind));
	if (shape_loop(lp->kind) && !fmt)
		return perr(p, lp->pos,
			    "rd=%s: %s= changes the tree's shape, which needs format=yes or only (Vdbench refuses a run on a tree of another shape than its control file's)",
			    rd->name, params_loop_name(lp->kind));
	return lp->kind == PARAMS_LOOP_TOTAL ? fs_total_pct(p, rd, lp) : 0;
}

/*
 * forxfersize=, forthreads= and forrdpct= with fwd=: a run phase per
 * value (plan_fs.c puts it in every fwd, as Vdbench's RD_entry does).
 * forrdpct= mixes reads and writes, so every fwd must take rdpct= (read
 * or write, fileio=random); with validate=yes every size of
 * forxfersize= is whole 4 KiB blocks. Then foroperation=, operations=
 * and the tree loops (fs_ops, fs_tree_loops).
 */
int fs_loops(struct parser *p, const struct params_rd *rd)
{
	const struct params *pa = p->out;

	if (fs_ops(p, rd))
		return -EINVAL;
	for (size_t l = 0; l < rd->nloop; l++) {
		const struct params_loop *lp = &rd->loop[l];

		if (fs_tree_loops(p, rd, lp))
			return -EINVAL;
		for (size_t i = 0;
		     lp->kind == PARAMS_LOOP_RDPCT && i < rd->nfwd; i++) {
			const struct params_fwd *w = &pa->fwd[rd->fwd[i]];

			if (!only_rw(rd, w) || !w->fileio_random)
				return perr(p, lp->pos,
					    "rd=%s: forrdpct= mixes reads and writes in every fwd, and fwd=%s is not operation=read or write with fileio=random (Vdbench's rdpct= rule)",
					    rd->name, w->name);
		}
		for (size_t i = 0;
		     pa->validate && lp->kind == PARAMS_LOOP_XFERSIZE &&
		     i < lp->n;
		     i++)
			if ((uint64_t)lp->val[i] % 4096u)
				return perr(p, lp->pos,
					    "rd=%s: forxfersize %g is not a multiple of 4k, as validate=yes needs (one key per 4 KiB block of a file)",
					    rd->name, lp->val[i]);
	}
	return 0;
}

/* ---- rd= with fwd= ---------------------------------------------------- */

int rd_set_fwd(struct parser *p, const struct kw *kw, void *obj,
	       const struct item *it)
{
	struct params_rd *rd = obj;

	rd->fwd_pos = it->kpos;
	return params_set_refs(p, kw, it, KIND_FWD, rd->fwd, &rd->nfwd);
}

/*
 * fwdrate=max, curve (Vdbench's RD_entry: a max run, then the curve=
 * points) or a rate: the cluster's operations per second.
 */
int rd_set_fwdrate(struct parser *p, const struct kw *kw, void *obj,
		   const struct item *it)
{
	struct params_rd *rd = obj;
	const struct val *v = values_single(p, kw, it);

	if (!v)
		return -EINVAL;
	rd->fwdrate_pos = it->kpos;
	rd->fwdrate_curve = val_is(v, "curve");
	if (val_is(v, "max") || rd->fwdrate_curve) {
		rd->fwdrate = 0;
		return 0;
	}
	if (values_number(p, kw, v, &rd->fwdrate))
		return -EINVAL;
	if (!(rd->fwdrate > 0) || rd->fwdrate > 1e9)
		return perr(p, v->pos,
			    "%s=%.*s is not max or a rate above 0, at most 1e9 operations per second",
			    kw->name, show(v->len), v->s);
	return 0;
}

/* rd keywords of a wd= run that mean nothing to an fwd= run yet. */
static const char *const not_with_fwd[] = {
	"iorate",       "slo",      "sloprecision", "maxdata",    "forseekpct",
	"forcompratio", "forrhpct", "forwhpct",     "forhitarea",
};

/*
 * curve= and stopcurve= go with fwdrate=curve (Vdbench reads them only for
 * its curve runs: without one they would be ignored, so they are refused).
 */
static int fwd_curve_keys(struct parser *p, const struct params_rd *rd)
{
	static const char *const keys[] = { "curve", "stopcurve" };

	for (size_t i = 0; !rd->fwdrate_curve && i < 2; i++) {
		struct params_pos at = params_from(p, keys[i]);

		if (at.line)
			return perr(p, at,
				    "rd=%s: %s= goes with fwdrate=curve (Vdbench ignores it at another fwdrate=)",
				    rd->name, keys[i]);
	}
	return 0;
}

/* An rd with wd= keeps the block rules; fs-only keywords are refused. */
static int block_rd(struct parser *p, const struct params_rd *rd)
{
	if (rd->nops)
		return perr(p, rd->ops_pos,
			    "rd=%s: operations= is for fwd= runs", rd->name);
	for (size_t l = 0; l < rd->nloop; l++)
		if (rd->loop[l].kind >= PARAMS_LOOP_OPERATION)
			return perr(p, rd->loop[l].pos,
				    "rd=%s: %s= is for fwd= runs", rd->name,
				    params_loop_name(rd->loop[l].kind));
	if (rd->fwdrate_pos.line)
		return perr(p, rd->fwdrate_pos,
			    "rd=%s: fwdrate= is for fwd= runs (a wd= run takes iorate=)",
			    rd->name);
	if (rd->format == PARAMS_FORMAT_RESTART ||
	    rd->format == PARAMS_FORMAT_RESTART_ONLY ||
	    rd->format == PARAMS_FORMAT_CLEAN || rd->format_once ||
	    rd->format_dirs || rd->format_limited || rd->format_complete)
		return perr(p, rd->format_pos,
			    "rd=%s: format=%s is for fwd= runs (a wd= run takes format=yes or only)",
			    rd->name,
			    rd->format == PARAMS_FORMAT_CLEAN ? "clean" :
			    rd->format == PARAMS_FORMAT_RESTART ||
					    rd->format ==
						    PARAMS_FORMAT_RESTART_ONLY ?
								"restart" :
			    rd->format_once    ? "once" :
			    rd->format_dirs    ? "directories" :
			    rd->format_limited ? "limited" :
						 "complete");
	return 0;
}

/* The fwds' skew= add up to at most 100, and to 100 when all give one. */
static int check_fwd_skews(struct parser *p, const struct params_rd *rd)
{
	const struct params *pa = p->out;
	double sum = 0;
	size_t given = 0;

	for (size_t i = 0; i < rd->nfwd; i++) {
		const struct params_fwd *w = &pa->fwd[rd->fwd[i]];

		given += w->skew_pos.line != 0;
		sum += w->skew;
	}
	if (sum > 100 + 1e-6 ||
	    (given && given == rd->nfwd && fabs(sum - 100) > 1e-6))
		return perr(p, rd->fwd_pos.line ? rd->fwd_pos : p->dpos,
			    "rd=%s: the skew= of its fwds add up to %g: at most 100, and 100 when every fwd gives one",
			    rd->name, sum);
	return 0;
}

/*
 * 1 when rd runs fwds (after defaulting fwd= to the only fwd of a file
 * without wds), 0 when it runs wds (block rules left to rd.c), or
 * -EINVAL.
 */
int fs_rd_finish(struct parser *p, struct params_rd *rd)
{
	const struct params *pa = p->out;

	if (rd->nfwd && rd->nwd)
		return perr(p, rd->fwd_pos,
			    "rd=%s runs wd= or fwd=, not both (one rd= per kind of run)",
			    rd->name);
	if (!rd->nfwd && !rd->nwd && !pa->nwd && pa->nfwd == 1) {
		rd->fwd[0] = 0;
		rd->nfwd = 1;
	} else if (!rd->nfwd && !rd->nwd && !pa->nwd && pa->nfwd) {
		return perr(p, p->dpos,
			    "rd=%s needs fwd= to say which of the %zu fwds it runs",
			    rd->name, pa->nfwd);
	}
	if (!rd->nfwd)
		return block_rd(p, rd);
	for (size_t i = 0; i < sizeof(not_with_fwd) / sizeof(*not_with_fwd);
	     i++) {
		struct params_pos at = params_from(p, not_with_fwd[i]);

		if (at.line)
			return perr(p, at,
				    "rd=%s: %s= is not run with fwd= yet (issue 32)%s",
				    rd->name, not_with_fwd[i],
				    !strcmp(not_with_fwd[i], "iorate") ?
					    ": give fwdrate=" :
					    "");
	}
	if (fwd_curve_keys(p, rd))
		return -EINVAL;
	if (rd->warmup_steady)
		return perr(p, params_from(p, "warmup"),
			    "rd=%s: warmup=steady is not run with fwd= yet (issue 32): give a time",
			    rd->name);
	if (pa->validate && fs_validate(p, rd))
		return -EINVAL;
	/*
	 * validate=only (Vdbench's journal_recovery run, which "will
	 * sequentially read and validate all modified data"): every file
	 * of the rd's fsds read once, at max; nothing else of the rd runs.
	 */
	if (rd->validate_only &&
	    (rd->format != PARAMS_FORMAT_NO || rd->nloop || rd->nops ||
	     rd->fwdrate > 0 || rd->fwdrate_curve))
		return perr(p,
			    rd->format != PARAMS_FORMAT_NO ? rd->format_pos :
							     rd->validate_pos,
			    "rd=%s: validate=only reads every file of its fsds once, as fast as it can: it takes no format=, for-loops, operations= or fwdrate= other than max (give them their own rd)",
			    rd->name);
	if (fs_loops(p, rd))
		return -EINVAL;
	return check_fwd_skews(p, rd) ? -EINVAL : 1;
}
