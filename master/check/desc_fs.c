/*
 * `lockstep check`'s description of a file system run (issue 32): every
 * fsd's tree (its shape and what it holds: folders, files, bytes, from
 * common/fstree.h), every fwd, and the phases of an rd with fwd=: what a
 * format phase does to the trees, and how the run splits fwdrate= and
 * threads= (plan_fs.c's rules).
 */
#include <stdio.h>
#include <string.h>
#include "common/fstree.h"
#include "common/units.h"
#include "master/check/desc_fs.h"

/* Above this many files a tree's bytes are not summed (a walk per file). */
#define COUNT_FILES_MAX 50000000ull

static const char *size_str(uint64_t v, char *buf, size_t len)
{
	return units_fmt_size(v, buf, len);
}

/* Folders and files of fsd, and its bytes (0 when not summed). */
static void fsd_counts(const struct params_fsd *f, struct fstree_counts *n)
{
	struct fstree_shape sh = { 0 };
	uint64_t level = 1, holders;

	memset(n, 0, sizeof(*n));
	for (uint32_t l = 1; l <= f->depth; l++) {
		level *= f->width;
		n->dirs += level;
	}
	holders = f->dist_all ? n->dirs : level;
	n->files = holders * f->files;
	if (n->files > COUNT_FILES_MAX)
		return;
	params_fsd_shape(f, &sh);
	if (fstree_check(&sh, n, NULL, 0))
		n->bytes = 0;
}

static void describe_fsd(struct desc *d, const struct params_fsd *f)
{
	struct fstree_counts n;
	char sz[32];

	fsd_counts(f, &n);
	desc_object(d, NULL);
	desc_str(d, "name", f->name);
	SHOWN(d, "  %s:", f->name);
	desc_str(d, "anchor", f->anchor);
	SHOWN(d, " anchor=%s", f->anchor);
	desc_u64(d, "depth", f->depth);
	SHOWN(d, " depth=%u", f->depth);
	desc_u64(d, "width", f->width);
	SHOWN(d, " width=%u", f->width);
	desc_u64(d, "files", f->files);
	SHOWN(d, " files=%u", f->files);
	desc_array(d, "sizes");
	TEXT(d, " sizes=%s", f->nsizes > 1 || f->average ? "(" : "");
	for (uint32_t i = 0; i < f->nsizes; i++) {
		desc_object(d, NULL);
		desc_u64(d, "size", f->size[i]);
		SHOWN(d, "%s%s", i ? "," : "",
		      size_str(f->size[i], sz, sizeof(sz)));
		desc_u64(d, "pct",
			 f->nsizes == 1 && !f->average ? 100 : f->pct[i]);
		if (f->nsizes > 1 || f->average)
			SHOWN(d, ",%u", f->pct[i]);
		desc_end(d);
	}
	desc_end(d);
	TEXT(d, "%s", f->nsizes > 1 || f->average ? ")" : "");
	desc_boolean(d, "average", f->average);
	desc_str(d, "distribution", f->dist_all ? "all" : "bottom");
	SHOWN(d, " distribution=%s", f->dist_all ? "all" : "bottom");
	desc_boolean(d, "shared", f->shared);
	SHOWN(d, " shared=%s", f->shared ? "yes" : "no");
	desc_u64(d, "totalsize", f->totalsize);
	if (f->totalsize)
		SHOWN(d, " totalsize=%s",
		      size_str(f->totalsize, sz, sizeof(sz)));
	desc_u64(d, "workingsetsize", f->wss);
	if (f->wss)
		SHOWN(d, " workingsetsize=%s",
		      size_str(f->wss, sz, sizeof(sz)));
	TEXT(d, "\n");
	desc_u64(d, "tree_dirs", n.dirs);
	SHOWN(d, "      a tree: %llu folders, %llu files",
	      (unsigned long long)n.dirs, (unsigned long long)n.files);
	desc_u64(d, "tree_files", n.files);
	desc_u64(d, "tree_bytes", n.bytes);
	if (n.bytes)
		SHOWN(d, ", %s", size_str(n.bytes, sz, sizeof(sz)));
	else
		TEXT(d, ", bytes not summed (over %llu files)",
		     (unsigned long long)COUNT_FILES_MAX);
	if (f->shared)
		TEXT(d,
		     "; one tree in the anchor, each slave on it owning every n-th file\n");
	else
		TEXT(d, "; one per slave that uses it, in ANCHOR/SLAVE\n");
	desc_end(d);
}

static void describe_fwd(struct desc *d, const struct params *p,
			 const struct params_fwd *w)
{
	const char *fio, *fsel;
	char sz[32];

	desc_object(d, NULL);
	desc_str(d, "name", w->name);
	SHOWN(d, "  %s:", w->name);
	desc_array(d, "fsds");
	TEXT(d, " fsd=");
	for (size_t i = 0; i < w->nfsd; i++) {
		desc_str(d, NULL, p->fsd[w->fsd[i]].name);
		SHOWN(d, "%s%s", i ? "," : "", p->fsd[w->fsd[i]].name);
	}
	desc_end(d);
	desc_str(d, "operation", params_fsop_name(w->op));
	SHOWN(d, " operation=%s", params_fsop_name(w->op));
	desc_dbl(d, "rdpct", w->rdpct);
	if (w->rdpct >= 0)
		SHOWN(d, " rdpct=%g", w->rdpct);
	desc_array(d, "xfersize");
	TEXT(d, " xfersize=%s", w->nxfer > 1 ? "(" : "");
	for (size_t i = 0; i < w->nxfer; i++) {
		desc_object(d, NULL);
		desc_u64(d, "size", w->xfer[i].size);
		SHOWN(d, "%s%s", i ? "," : "",
		      size_str(w->xfer[i].size, sz, sizeof(sz)));
		desc_dbl(d, "pct", w->xfer[i].pct);
		if (w->nxfer > 1)
			SHOWN(d, ",%g", w->xfer[i].pct);
		desc_end(d);
	}
	desc_end(d);
	TEXT(d, "%s", w->nxfer > 1 ? ")" : "");
	fio = w->fileio_shared ? "(random,shared)" :
	      w->fileio_delete ? "(sequential,delete)" :
	      w->fileio_random ? "random" :
				 "sequential";
	fsel = w->fileselect == 3 ? "(random,once)" :
	       w->fileselect == 2 ? "once" :
	       w->fileselect == 1 ? "sequential" :
				    "random";
	desc_str(d, "fileio", fio);
	SHOWN(d, " fileio=%s", fio);
	desc_str(d, "fileselect", fsel);
	SHOWN(d, " fileselect=%s", fsel);
	desc_dbl(d, "midpoint", w->midpoint);
	if (w->midpoint > 0)
		SHOWN(d, " midpoint=%g", w->midpoint);
	desc_u64(d, "stopafter", w->stopafter);
	if (w->stopafter)
		SHOWN(d, " stopafter=%llu", (unsigned long long)w->stopafter);
	desc_u64(d, "stopafter_pct", w->stopafter_pct);
	if (w->stopafter_pct)
		SHOWN(d, " stopafter=%u%%", w->stopafter_pct);
	desc_u64(d, "threads", w->threads);
	SHOWN(d, " threads=%u", w->threads);
	desc_dbl(d, "skew", w->skew);
	if (w->skew > 0)
		SHOWN(d, " skew=%g", w->skew);
	desc_str(d, "target", w->target >= 0 ? p->fsd[w->target].name : "");
	if (w->target >= 0)
		SHOWN(d, " target=%s", p->fsd[w->target].name);
	desc_array(d, "hosts");
	if (!w->nhost)
		desc_str(d, NULL, "*");
	TEXT(d, " host=%s", w->nhost ? "" : "*");
	for (size_t h = 0; h < w->nhost; h++) {
		desc_str(d, NULL, p->hd[w->host[h]].name);
		SHOWN(d, "%s%s", h ? "," : "", p->hd[w->host[h]].name);
	}
	desc_end(d);
	TEXT(d, "\n");
	desc_end(d);
}

void describe_fs(struct desc *d, const struct params *p)
{
	desc_array(d, "fsds");
	if (p->nfsd)
		TEXT(d, "fsds:\n");
	for (size_t i = 0; i < p->nfsd; i++)
		describe_fsd(d, &p->fsd[i]);
	desc_end(d);
	desc_array(d, "fwds");
	if (p->nfwd)
		TEXT(d, "fwds:\n");
	for (size_t i = 0; i < p->nfwd; i++)
		describe_fwd(d, p, &p->fwd[i]);
	desc_end(d);
}

/* The phase's fwdrate=: a curve point's is its share of its max phase. */
static void fs_curve_desc(struct desc *d, const struct plan_phase *ph)
{
	if (ph->kind == PLAN_CURVE_POINT) {
		desc_dbl(d, "curve_pct", ph->curve_pct);
		desc_u64(d, "curve_max", ph->curve_max + 1);
		TEXT(d,
		     " fwdrate=%g%% of phase %u's requested operations' rate",
		     ph->curve_pct, ph->curve_max + 1);
	} else if (ph->iorate > 0) {
		TEXT(d, " fwdrate=%g", ph->iorate);
	} else {
		TEXT(d, " fwdrate=max");
	}
	if (ph->kind == PLAN_CURVE_MAX || ph->kind == PLAN_CURVE_POINT)
		desc_dbl(d, "stopcurve_ms", ph->stopcurve_ms);
}

void describe_fs_phase(struct desc *d, const struct params *p,
		       const struct plan_phase *ph, size_t i)
{
	static const char *const fmt_does[] = {
		[PROTO_FSFMT_NONE] = "",
		[PROTO_FSFMT_YES] =
			"cleans what lockstep's last format made and makes the trees",
		[PROTO_FSFMT_RESTART] =
			"makes what the trees miss and fills short files",
		[PROTO_FSFMT_CLEAN] = "deletes the trees lockstep made",
	};
	const struct params_rd *rd = &p->rd[ph->rd];
	bool fmt = ph->kind == PLAN_FORMAT;
	double pct[PARAMS_LIST_MAX], fixed[PARAMS_LIST_MAX] = { 0 };
	double skew[PARAMS_LIST_MAX] = { 0 };

	desc_object(d, NULL);
	desc_u64(d, "index", i + 1);
	SHOWN(d, "  %zu.", i + 1);
	desc_str(d, "run", rd->name);
	desc_str(d, "name", ph->name);
	SHOWN(d, " %s", ph->name);
	desc_str(d, "kind", plan_kind_name(ph->kind));
	SHOWN(d, " [%s, file system]", plan_kind_name(ph->kind));
	desc_boolean(d, "fs", 1);
	desc_dbl(d, "fwdrate", ph->iorate);
	desc_dbl(d, "interval", ph->interval_s);
	desc_u64(d, "intervals", ph->intervals);
	desc_u64(d, "warmup_intervals", ph->warmup_intervals);
	desc_dbl(d, "pause", ph->pause_s);
	desc_boolean(d, "validate_only", ph->verify);
	if (ph->verify) {
		SHOWN(d,
		      " reads every file once and verifies its keyed blocks (validate=only) of:");
	} else if (fmt) {
		desc_str(d, "format",
			 ph->fs_format == PROTO_FSFMT_CLEAN   ? "clean" :
			 ph->fs_format == PROTO_FSFMT_RESTART ? "restart" :
								"yes");
		SHOWN(d, " %s%s of:",
		      ph->fs_format < PROTO_FSFMT_MAX ?
			      fmt_does[ph->fs_format] :
			      "?",
		      ph->fs_format_flags & PROTO_FSFMT_DIRS ?
			      " (folders only, no files)" :
			      "");
		desc_boolean(d, "directories",
			     (ph->fs_format_flags & PROTO_FSFMT_DIRS) != 0);
		desc_boolean(d, "limited",
			     (ph->fs_format_flags & PROTO_FSFMT_LIMITED) != 0);
		desc_u64(d, "format_xfersize", p->fs_format_xfer);
		desc_u64(d, "format_threads", p->fs_format_threads);
	} else {
		desc_boolean(d, "complete",
			     (ph->fs_format_flags & PROTO_FSFMT_COMPLETE) != 0);
		if (ph->fs_format_flags & PROTO_FSFMT_COMPLETE)
			TEXT(d, " (trees taken as complete, not looked at)");
		desc_dbl(d, "elapsed", ph->elapsed_s);
		desc_dbl(d, "warmup", ph->warmup_s);
		fs_curve_desc(d, ph);
		TEXT(d, " elapsed=%g warmup=%g interval=%g", ph->elapsed_s,
		     ph->warmup_s, ph->interval_s);
		if (ph->pause_s > 0)
			TEXT(d, " pause=%g", ph->pause_s);
	}
	desc_array(d, "fsds");
	for (unsigned f = 0; f < p->nfsd; f++) {
		bool used = false;

		for (size_t k = 0; k < rd->nfwd && !used; k++) {
			const struct params_fwd *w = &p->fwd[rd->fwd[k]];

			used = w->target == (int)f;
			for (size_t j = 0; j < w->nfsd && !used; j++)
				used = w->fsd[j] == f;
		}
		if (!used)
			continue;
		desc_str(d, NULL, p->fsd[f].name);
		if (fmt)
			SHOWN(d, " %s", p->fsd[f].name);
	}
	desc_end(d);
	if (ph->verify)
		TEXT(d, ", %g KiB reads", PLAN_FS_VERIFY_XFER / 1024.0);
	else if (fmt && ph->fs_format != PROTO_FSFMT_CLEAN &&
		 !(ph->fs_format_flags & PROTO_FSFMT_DIRS))
		TEXT(d, ", %g KiB writes", p->fs_format_xfer / 1024.0);
	/* A clean is one thread (Vdbench's cleanupOldFiles too). */
	if (fmt && ph->fs_format != PROTO_FSFMT_CLEAN)
		TEXT(d, ", %u thread%s an fsd a slave", p->fs_format_threads,
		     p->fs_format_threads == 1 ? "" : "s");
	if (fmt && (ph->fs_format_flags & PROTO_FSFMT_LIMITED))
		TEXT(d, ", interval=%g, until done or elapsed=%g\n",
		     ph->interval_s, ph->elapsed_s);
	else if (fmt)
		TEXT(d, ", interval=%g, until done\n", ph->interval_s);
	else
		TEXT(d, "\n");
	desc_array(d, "fwds");
	for (size_t k = 0; !fmt && k < rd->nfwd; k++)
		skew[k] = p->fwd[rd->fwd[k]].skew;
	plan_wd_shares(rd->nfwd, fixed, skew, ph->iorate, pct);
	for (size_t k = 0; !fmt && k < rd->nfwd; k++) {
		const struct params_fwd *w = &p->fwd[rd->fwd[k]];

		desc_object(d, NULL);
		desc_str(d, "name", w->name);
		SHOWN(d, "      %s:", w->name);
		desc_dbl(d, "share_pct", pct[k]);
		SHOWN(d, " %g%% of the operations", pct[k]);
		desc_dbl(d, "rate", ph->iorate * pct[k] / 100);
		if (ph->iorate > 0)
			SHOWN(d, " (%g/s)", ph->iorate * pct[k] / 100);
		TEXT(d, ", split evenly over its %zu fsd%s", w->nfsd,
		     w->nfsd == 1 ? "" : "s");
		/* operations=: an FwgEntry per operation (Vdbench's). */
		for (size_t o = 0; o < rd->nops; o++)
			TEXT(d, "%s%s", o ? "," : ", the operations ",
			     params_fsop_name(rd->ops[o]));
		TEXT(d,
		     " and the slaves that run it; threads=%u split so too, at least 1 each\n",
		     w->threads);
		desc_end(d);
	}
	desc_end(d);
	desc_end(d);
}
