/*
 * The checks of an fwd= rd that concern keywords beyond the fsd/fwd
 * lines: validate=yes (what the slaves' key maps keep exact) and the
 * for-loops an fs run takes (forxfersize=, forthreads=, forrdpct=).
 * Called from fs_rd_finish() (fs.c).
 */
#include "master/params/params_int.h"

#include <stdint.h>

/*
 * validate=yes with fwd=: what the slaves' key maps (slave/fsval.h) keep
 * exact. Refused: journal= (the maps live in the slaves for the run),
 * copy and move (their effect on a file's contents is not followed),
 * fileio=(random,shared) (Vdbench's rule) and
 * transfers that are not whole 4 KiB blocks (one key per block).
 */
int fs_validate(struct parser *p, const struct params_rd *rd)
{
	const struct params *pa = p->out;

	if (pa->journal[0])
		return perr(p, pa->journal_pos,
			    "rd=%s: journal= keeps block validation across runs; file-system validation (fwd=) keeps its keys in the slaves for one run and takes no journal",
			    rd->name);
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

/*
 * forxfersize=, forthreads= and forrdpct= with fwd=: a run phase per
 * value (plan_fs.c puts it in every fwd, as Vdbench's RD_entry does).
 * forrdpct= mixes reads and writes, so every fwd must take rdpct= (read
 * or write, fileio=random); with validate=yes every size of
 * forxfersize= is whole 4 KiB blocks.
 */
int fs_loops(struct parser *p, const struct params_rd *rd)
{
	const struct params *pa = p->out;

	for (size_t l = 0; l < rd->nloop; l++) {
		const struct params_loop *lp = &rd->loop[l];

		for (size_t i = 0;
		     lp->kind == PARAMS_LOOP_RDPCT && i < rd->nfwd; i++) {
			const struct params_fwd *w = &pa->fwd[rd->fwd[i]];

			if ((w->op != PARAMS_FSOP_READ &&
			     w->op != PARAMS_FSOP_WRITE) ||
			    !w->fileio_random)
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
