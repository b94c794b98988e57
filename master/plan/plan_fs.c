/*
 * The planner's file system half (issue 32): an rd with fwd= as the plan
 * each slave runs, fsds and fwds and no targets or streams (plan.h,
 * plan_fs_for_slave). The decisions, in docs/DESIGN.md section 12:
 * - each slave an fwd runs on gets its own subtree ANCHOR/SLAVE unless the
 *   fsd says shared=yes (one tree, every share_count-th file each);
 * - threads= is the fwd's total over its fsds and slaves, Vdbench's
 *   (RD_entry.createFwgListForOneRd: threads / fsds / hosts, at least 1);
 * - fwdrate= is the cluster's: split over the fwds by skew= as wds split
 *   an iorate (plan_wd_shares), then evenly over each fwd's fsds and
 *   slaves (Vdbench divides it by the slaves).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common/fsutil.h"
#include "common/fstree.h"
#include "master/plan/plan.h"
#include "master/plan/plan_int.h"

/* Proto's bound on a slave's operations in flight for one fwd. */
#define FS_THREADS_MAX 4096

static int hd_of(const int *slave_hd, unsigned s)
{
	return slave_hd ? slave_hd[s] : -1;
}

static bool fwd_on(const struct params *p, unsigned fwd, const int *slave_hd,
		   unsigned s)
{
	return plan_host_in(p->fwd[fwd].host, p->fwd[fwd].nhost,
			    hd_of(slave_hd, s));
}

/* Whether fwd (index) reads or writes fsd (index): its own, or target=. */
static bool fwd_uses(const struct params *p, unsigned fwd, unsigned fsd)
{
	const struct params_fwd *w = &p->fwd[fwd];

	if (w->target == (int)fsd)
		return true;
	for (size_t i = 0; i < w->nfsd; i++)
		if (w->fsd[i] == fsd)
			return true;
	return false;
}

/* Whether slave s runs an fwd of rd on fsd. */
static bool slave_uses(const struct params *p, const struct params_rd *rd,
		       unsigned fsd, const int *slave_hd, unsigned s)
{
	for (size_t i = 0; i < rd->nfwd; i++)
		if (fwd_uses(p, rd->fwd[i], fsd) &&
		    fwd_on(p, rd->fwd[i], slave_hd, s))
			return true;
	return false;
}

/* How many of the slaves run fwd. */
static unsigned fwd_runners(const struct params *p, unsigned fwd,
			    const int *slave_hd, unsigned nslaves)
{
	unsigned n = 0;

	for (unsigned s = 0; s < nslaves; s++)
		n += fwd_on(p, fwd, slave_hd, s);
	return n;
}

static uint32_t proto_openflags(unsigned f)
{
	return (f & PARAMS_O_DIRECT ? PROTO_O_DIRECT : 0) |
	       (f & PARAMS_O_DSYNC ? PROTO_O_DSYNC : 0) |
	       (f & PARAMS_O_SYNC ? PROTO_O_SYNC : 0);
}

/* The first of rd's tree loops (fordepth=, ...), for messages. */
static struct params_pos tree_loop_pos(const struct params_rd *rd)
{
	for (size_t l = 0; l < rd->nloop; l++)
		if (rd->loop[l].kind >= PARAMS_LOOP_DEPTH)
			return rd->loop[l].pos;
	return rd->pos;
}

/* rd's loop of kind k, for messages (rd= when it has none). */
static struct params_pos loop_pos(const struct params_rd *rd,
				  enum params_loop_kind k)
{
	for (size_t l = 0; l < rd->nloop; l++)
		if (rd->loop[l].kind == k)
			return rd->loop[l].pos;
	return rd->pos;
}

/*
 * fsd f as phase ph's tree loops make it (Vdbench's forLoopOverrideFwd:
 * each value stands for every fsd's own; forsizes= is one size), into
 * out, checked as the parser checks an fsd line (fstree_check, and
 * totalsize= and workingsetsize= within the tree and each other).
 */
static int tree_of(const struct params *p, const struct plan_phase *ph,
		   unsigned f, struct params_fsd *out, char *err, size_t errlen)
{
	const struct params_rd *rd = &p->rd[ph->rd];
	struct fstree_counts counts;
	struct fstree_shape sh;
	char why[256];

	*out = p->fsd[f];
	if (ph->loops & (1u << PARAMS_LOOP_DEPTH))
		out->depth = ph->depth;
	if (ph->loops & (1u << PARAMS_LOOP_WIDTH))
		out->width = ph->width;
	if (ph->loops & (1u << PARAMS_LOOP_FILES))
		out->files = ph->files;
	if (ph->loops & (1u << PARAMS_LOOP_SIZES)) {
		out->nsizes = 1;
		out->size[0] = ph->fsize;
		out->pct[0] = 100;
		out->average = false;
	}
	/* fortotal=: bytes; N% of the fsd's own; 0 the fsd's own (Vdbench's). */
	if ((ph->loops & (1u << PARAMS_LOOP_TOTAL)) && ph->totalsize_pct) {
		if (params_total_pct(&p->fsd[f], ph->totalsize_pct,
				     &out->totalsize, why, sizeof(why)))
			return plan_err(p, loop_pos(rd, PARAMS_LOOP_TOTAL), err,
					errlen, "%s: %s", ph->name, why);
	} else if ((ph->loops & (1u << PARAMS_LOOP_TOTAL)) && ph->totalsize) {
		out->totalsize = ph->totalsize;
	}
	if (ph->loops & (1u << PARAMS_LOOP_WSS))
		out->wss = ph->wss;
	if (!(ph->loops & ~((1u << PARAMS_LOOP_DEPTH) - 1)))
		return 0;
	params_fsd_shape(out, &sh);
	if (fstree_check(&sh, &counts, why, sizeof(why)))
		return plan_err(p, tree_loop_pos(rd), err, errlen,
				"%s: fsd=%s: %s", ph->name, out->name, why);
	if (out->totalsize > counts.bytes || out->wss > counts.bytes ||
	    (out->totalsize && out->wss > out->totalsize))
		return plan_err(p, tree_loop_pos(rd), err, errlen,
				"%s: fsd=%s: totalsize=%" PRIu64
				" and workingsetsize=%" PRIu64
				" must be within the tree's %" PRIu64
				" bytes, the working set within totalsize= (Vdbench's rule)",
				ph->name, out->name, out->totalsize, out->wss,
				counts.bytes);
	return 0;
}

static int fill_fsd(const struct params *p, const struct plan_phase *ph,
		    unsigned f, const int *slave_hd, unsigned slave,
		    unsigned nslaves, const char *slave_name,
		    struct proto_fsd *o, char *err, size_t errlen)
{
	const struct params_rd *rd = &p->rd[ph->rd];
	struct params_fsd tree;
	const struct params_fsd *d = &tree;
	int ret = tree_of(p, ph, f, &tree, err, errlen);

	if (ret)
		return ret;

	snprintf(o->name, sizeof(o->name), "%s", d->name);
	snprintf(o->anchor, sizeof(o->anchor), "%s", d->anchor);
	o->depth = d->depth;
	o->width = d->width;
	o->files = d->files;
	o->dist = d->dist_all ? 1 : 0;
	o->average = d->average;
	o->nsizes = d->nsizes;
	for (uint32_t i = 0; i < d->nsizes && i < PROTO_FSD_SIZES; i++) {
		o->sizes[i].size = d->size[i];
		o->sizes[i].pct = d->nsizes == 1 ? 100 : d->pct[i];
	}
	o->seed = 0;
	/*
	 * How a format opens its files (Vdbench's FwgEntry for fwd=format:
	 * the rd's openflags=, else fwd=format's, else the fsd's). A run
	 * phase's fwds carry their own (fill_fwd).
	 */
	o->openflags = proto_openflags(
		rd->openflags_set ? rd->openflags :
		ph->kind == PLAN_FORMAT && p->fs_format_openflags_set ?
				    p->fs_format_openflags :
				    d->openflags);
	o->format = ph->kind == PLAN_FORMAT ? ph->fs_format : 0;
	o->format_flags = ph->fs_format_flags;
	if (p->create_anchors) /* Vdbench's create_anchors=yes */
		o->format_flags |= PROTO_FSFMT_ANCHOR;
	o->format_xfer = p->fs_format_xfer;
	/* params bounds it by 64, the bound the slave enforces. */
	o->format_threads = p->fs_format_threads;
	/* Its own journal folder, over the plan's (validate=yes only). */
	if (p->validate)
		snprintf(o->journal, sizeof(o->journal), "%s", d->journal);
	/* Each slave draws its subsets from its own files (Vdbench's). */
	o->totalsize = d->totalsize;
	o->wss = d->wss;
	/* validate=only reads every file there, whatever held its keys. */
	if (ph->verify)
		o->totalsize = o->wss = 0;
	if (d->shared) {
		/* Vdbench's shared anchor: every n-th file per slave. */
		for (unsigned s = 0; s < nslaves; s++) {
			if (!slave_uses(p, rd, f, slave_hd, s))
				continue;
			if (s < slave)
				o->share_no++;
			o->share_count++;
		}
		return 0;
	}
	if (!slave_name || strlen(slave_name) >= sizeof(o->subdir) ||
	    !fsutil_name_ok(slave_name))
		return plan_err(p, d->pos, err, errlen,
				"fsd=%s: slave name '%.32s' cannot name its subtree of anchor=%s (one folder name: letters, digits, '-', '_' and '.', not starting with '.'); rename the slave or give the fsd shared=yes",
				d->name, slave_name ? slave_name : "",
				d->anchor);
	snprintf(o->subdir, sizeof(o->subdir), "%s", slave_name);
	return 0;
}

/* The fsds of rd slave uses into out (map: fsd index -> plan index). */
static int plan_fsds(const struct params *p, const struct plan_phase *ph,
		     const int *slave_hd, unsigned slave, unsigned nslaves,
		     const char *slave_name, int *map, struct proto_plan *out,
		     char *err, size_t errlen)
{
	const struct params_rd *rd = &p->rd[ph->rd];
	unsigned n = 0;

	for (unsigned f = 0; f < p->nfsd; f++) {
		map[f] = slave_uses(p, rd, f, slave_hd, slave) ? (int)n : -1;
		n += map[f] >= 0;
	}
	if (n > PROTO_MAX_FSDS)
		return plan_err(p, rd->pos, err, errlen,
				"%s gives one slave %u fsds, more than %d",
				ph->name, n, PROTO_MAX_FSDS);
	out->fsds = calloc(n ? n : 1, sizeof(*out->fsds));
	if (!out->fsds)
		return -ENOMEM;
	out->nfsds = n;
	for (unsigned f = 0; f < p->nfsd; f++) {
		int ret;

		if (map[f] < 0)
			continue;
		ret = fill_fsd(p, ph, f, slave_hd, slave, nslaves, slave_name,
			       &out->fsds[map[f]], err, errlen);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * One fwd on one of its fsds, as this slave runs it: op is its k-th
 * operation of the rd's operations= (Vdbench's createFwgListForOneRd:
 * an FwgEntry per operation, threads and rate split evenly over them),
 * else foroperation='s value, else its own.
 */
static int fill_fwd(const struct params *p, const struct plan_phase *ph,
		    unsigned w, unsigned runners, double pct, const int *map,
		    unsigned fsd, size_t k, struct proto_fwd *o, char *err,
		    size_t errlen)
{
	const struct params_rd *rd = &p->rd[ph->rd];
	const struct params_fwd *d = &p->fwd[w];
	unsigned share = (unsigned)d->nfsd * runners *
			 (unsigned)(rd->nops ? rd->nops : 1);
	/* forthreads= stands for every fwd's threads= (Vdbench's rule). */
	unsigned threads = ph->loops & (1u << PARAMS_LOOP_THREADS) ?
				   ph->threads :
				   d->threads;
	unsigned th = threads / share;

	snprintf(o->name, sizeof(o->name), "%s", d->name);
	o->fsd = (uint32_t)map[fsd];
	o->op = (uint32_t)(rd->nops ? rd->ops[k] :
			   ph->loops & (1u << PARAMS_LOOP_OPERATION) ?
				      (enum params_fsop)ph->fsop :
				      d->op);
	o->mixed = d->rdpct >= 0;
	o->rdpct = o->mixed ? d->rdpct : 0;
	o->nxfer = (uint32_t)d->nxfer;
	for (size_t i = 0; i < d->nxfer && i < PROTO_MAX_XFER; i++) {
		o->xfer[i].size = d->xfer[i].size;
		o->xfer[i].pct = d->xfer[i].pct;
	}
	/* forxfersize= and forrdpct= stand for the fwd's own. */
	if (ph->loops & (1u << PARAMS_LOOP_XFERSIZE)) {
		o->nxfer = 1;
		o->xfer[0].size = ph->xfersize;
		o->xfer[0].pct = 100;
	}
	if (ph->loops & (1u << PARAMS_LOOP_RDPCT)) {
		o->mixed = 1;
		o->rdpct = ph->rdpct;
	}
	o->fileio = d->fileio_shared ? PROTO_FILEIO_RANDOM_SHARED :
		    d->fileio_random ? PROTO_FILEIO_RANDOM :
		    d->fileio_delete ? PROTO_FILEIO_SEQ_DELETE :
				       PROTO_FILEIO_SEQ;
	o->fileselect = d->fileselect;
	o->openflags = proto_openflags(
		rd->openflags_set ? rd->openflags :
		d->openflags_set  ? d->openflags :
				    p->fsd[fsd].openflags);
	/* Vdbench's split, rounded down, at least 1 (fwd_thread_adjust). */
	o->threads = th ? th : 1;
	if (o->threads > FS_THREADS_MAX)
		return plan_err(p, d->pos, err, errlen,
				"fwd=%s: threads=%u gives a slave %u operations in flight on fsd=%s, more than %d (threads= is the fwd's total over its fsds and slaves)",
				d->name, threads, o->threads, p->fsd[fsd].name,
				FS_THREADS_MAX);
	o->target = (uint32_t)map[d->target >= 0 ? (unsigned)d->target : fsd];
	o->rate = ph->iorate > 0 ? ph->iorate * pct / 100 / share : 0;
	o->stopafter = d->stopafter;
	o->stopafter_pct = d->stopafter_pct;
	o->midpoint = d->midpoint;
	return 0;
}

/* The fwds of rd this slave runs, one per (fwd, fsd). */
static int plan_fwds(const struct params *p, const struct plan_phase *ph,
		     const int *slave_hd, unsigned slave, unsigned nslaves,
		     const int *map, struct proto_plan *out, char *err,
		     size_t errlen)
{
	const struct params_rd *rd = &p->rd[ph->rd];
	double fixed[PARAMS_LIST_MAX] = { 0 }, skew[PARAMS_LIST_MAX] = { 0 };
	double pct[PARAMS_LIST_MAX];
	unsigned n = 0, k = 0;
	size_t nops = rd->nops ? rd->nops : 1;

	for (size_t i = 0; i < rd->nfwd; i++) {
		const struct params_fwd *d = &p->fwd[rd->fwd[i]];

		skew[i] = d->skew;
		if (!fwd_runners(p, rd->fwd[i], slave_hd, nslaves))
			return plan_err(p, d->pos, err, errlen,
					"fwd=%s: no slave runs it in %s (check its host=)",
					d->name, ph->name);
		if (fwd_on(p, rd->fwd[i], slave_hd, slave))
			n += (unsigned)d->nfsd * (unsigned)nops;
	}
	plan_wd_shares(rd->nfwd, fixed, skew, ph->iorate, pct);
	if (n > PROTO_MAX_FWDS)
		return plan_err(p, rd->pos, err, errlen,
				"%s gives one slave %u fwds (one per fwd and fsd), more than %d",
				ph->name, n, PROTO_MAX_FWDS);
	out->fwds = calloc(n ? n : 1, sizeof(*out->fwds));
	if (!out->fwds)
		return -ENOMEM;
	out->nfwds = n;
	for (size_t i = 0; i < rd->nfwd; i++) {
		const struct params_fwd *d = &p->fwd[rd->fwd[i]];
		unsigned runners = fwd_runners(p, rd->fwd[i], slave_hd,
					       nslaves);

		if (!fwd_on(p, rd->fwd[i], slave_hd, slave))
			continue;
		for (size_t j = 0; j < d->nfsd * nops; j++) {
			int ret = fill_fwd(p, ph, rd->fwd[i], runners, pct[i],
					   map, d->fsd[j / nops], j % nops,
					   &out->fwds[k++], err, errlen);

			if (ret)
				return ret;
		}
	}
	return 0;
}

/*
 * A validate=only pass (Vdbench's journal_recovery run): on each fsd of
 * the rd this slave uses, one thread reads every file once, in the
 * tree's order, to its end, verifying each keyed block.
 */
static int plan_verify_fwds(const struct params *p, const int *map,
			    struct proto_plan *out)
{
	unsigned k = 0;

	out->fwds = calloc(out->nfsds ? out->nfsds : 1, sizeof(*out->fwds));
	if (!out->fwds)
		return -ENOMEM;
	for (unsigned f = 0; f < p->nfsd; f++) {
		struct proto_fwd *o;

		if (map[f] < 0)
			continue;
		o = &out->fwds[k++];
		snprintf(o->name, sizeof(o->name), "validate");
		o->fsd = (uint32_t)map[f];
		o->target = o->fsd;
		o->op = PROTO_FSOP_READ;
		o->nxfer = 1;
		o->xfer[0].size = PLAN_FS_VERIFY_XFER;
		o->xfer[0].pct = 100;
		o->fileio = PROTO_FILEIO_SEQ;
		o->fileselect = PROTO_FSEL_ONCE;
		o->threads = 1;
	}
	out->nfwds = k;
	return 0;
}

void plan_header(const struct params *p, const struct plan_phase *ph,
		 unsigned phase_no, const int *slave_hd, unsigned slave,
		 const char *engine, struct proto_plan *out)
{
	out->run = ph->rd;
	out->phase = phase_no;
	snprintf(out->name, sizeof(out->name), "%s", ph->name);
	snprintf(out->engine, sizeof(out->engine), "%s", engine);
	out->interval_ns = ph->interval_ns;
	out->intervals = ph->intervals;
	out->warmup_intervals = ph->warmup_intervals;
	out->data_errors = p->data_errors;
	out->distribution = ph->distribution == PARAMS_DIST_UNIFORM ?
				    PROTO_DIST_UNIFORM :
			    ph->distribution == PARAMS_DIST_DETERMINISTIC ?
				    PROTO_DIST_FIXED :
				    PROTO_DIST_EXPONENTIAL;
	out->format = ph->kind == PLAN_FORMAT;
	out->compratio = ph->compratio;
	out->dedupratio = p->dedupratio;
	out->dedupunit = p->dedupunit;
	snprintf(out->nic, sizeof(out->nic), "%s",
		 slave_hd && slave_hd[slave] >= 0 &&
				 (size_t)slave_hd[slave] < p->nhd &&
				 p->hd[slave_hd[slave]].nic[0] ?
			 p->hd[slave_hd[slave]].nic :
			 p->nic);
}

int plan_fs_for_slave(const struct params *p, const struct plan_phase *ph,
		      unsigned phase_no, const int *slave_hd, unsigned slave,
		      unsigned nslaves, const char *slave_name,
		      const char *engine, struct proto_plan *out, char *err,
		      size_t errlen)
{
	int *map;
	double mine = 0;
	int ret;

	memset(out, 0, sizeof(*out));
	if (!ph->fs)
		return plan_err(p, p->rd[ph->rd].pos, err, errlen,
				"%s is not a file system phase", ph->name);
	map = malloc(sizeof(int) * (p->nfsd ? p->nfsd : 1));
	if (!map)
		return -ENOMEM;
	plan_header(p, ph, phase_no, slave_hd, slave, engine, out);
	/* The key maps, journaled with journal= (slave/fsjnl.h). */
	out->validate = ph->verify  ? PROTO_VALIDATE_ONLY :
			p->validate ? PROTO_VALIDATE_YES :
				      PROTO_VALIDATE_OFF;
	if (out->validate)
		snprintf(out->journal, sizeof(out->journal), "%s", p->journal);
	out->format = out->format && !ph->verify;
	ret = plan_fsds(p, ph, slave_hd, slave, nslaves, slave_name, map, out,
			err, errlen);
	if (!ret && ph->verify)
		ret = plan_verify_fwds(p, map, out);
	else if (!ret && ph->kind != PLAN_FORMAT)
		ret = plan_fwds(p, ph, slave_hd, slave, nslaves, map, out, err,
				errlen);
	/*
	 * This slave's share of the cluster's rate is its fwds' (0: as fast
	 * as they go); plan.iorate stays 0, which a slave requires of an fs
	 * plan (the master's plausibility bounds the I/O of a plan rate).
	 */
	for (uint32_t i = 0; !ret && i < out->nfwds; i++)
		mine += out->fwds[i].rate;
	if (!ret && ph->iorate > 0 && out->nfwds && !(mine > 0))
		ret = plan_err(p, p->rd[ph->rd].pos, err, errlen,
			       "%s: fwdrate=%g leaves a slave no rate",
			       ph->name, ph->iorate);
	if (ret) {
		free(out->fsds);
		free(out->fwds);
		out->fsds = NULL;
		out->fwds = NULL;
		out->nfsds = out->nfwds = 0;
	}
	free(map);
	return ret;
}

int plan_fs_check(const struct params *p, const struct plan_phase *ph,
		  unsigned phase_no, const int *slave_hd, unsigned nslaves,
		  char *err, size_t errlen)
{
	int ret = 0;

	for (unsigned s = 0; !ret && s < nslaves; s++) {
		struct proto_plan pl;
		char name[32];

		snprintf(name, sizeof(name), "slave%u", s);
		ret = plan_fs_for_slave(p, ph, phase_no, slave_hd, s, nslaves,
					name, "null", &pl, err, errlen);
		if (!ret) {
			free(pl.fsds);
			free(pl.fwds);
		}
	}
	return ret;
}
