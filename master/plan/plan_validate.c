/*
 * Data validation in the planner (validate=yes, journal=, rd validate=only):
 * which parameter files validation can run honestly, everything else
 * refused with FILE:LINE:COLUMN before anything starts, and the cut of an
 * sd's blocks among the slaves that run it so that every block has exactly
 * one owner (its generation map is then local to one slave and nothing is
 * coordinated on the I/O path). Pure. See plan.h.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "master/plan/plan.h"
#include "master/plan/plan_int.h"

/* Slaves keep one generation per 4 KiB block (slave/validate.h). */
#define VBLOCK 4096u

void plan_validate_own(uint64_t lo, uint64_t hi, unsigned k, unsigned n,
		       uint64_t *klo, uint64_t *khi)
{
	uint64_t span = hi - lo;

	if (n <= 1) {
		*klo = lo;
		*khi = hi;
		return;
	}
	/* Cut points depend only on (lo, hi, n): neighbours share them. */
	*klo = lo + (uint64_t)((unsigned __int128)span * k / n);
	*khi = lo + (uint64_t)((unsigned __int128)span * (k + 1) / n);
}

struct by_name {
	const char *name;
	unsigned i;
};

static int cmp_name(const void *a, const void *b)
{
	return strcmp(((const struct by_name *)a)->name,
		      ((const struct by_name *)b)->name);
}

int plan_validate_order(const char *const *names, int *hd, unsigned n,
			unsigned *rank)
{
	struct by_name *v = malloc(sizeof(*v) * (n ? n : 1));
	int *h = malloc(sizeof(*h) * (n ? n : 1));

	if (!v || !h) {
		free(v);
		free(h);
		return -ENOMEM;
	}
	for (unsigned i = 0; i < n; i++) {
		v[i].name = names[i];
		v[i].i = i;
	}
	qsort(v, n, sizeof(*v), cmp_name);
	for (unsigned k = 0; k < n; k++) {
		rank[v[k].i] = k;
		h[k] = hd ? hd[v[k].i] : 0;
	}
	if (hd)
		memcpy(hd, h, sizeof(*h) * n);
	free(v);
	free(h);
	return 0;
}

static int cmp_lun(const void *a, const void *b, void *arg)
{
	const struct params *p = arg;

	return strcmp(p->sd[*(const unsigned *)a].lun,
		      p->sd[*(const unsigned *)b].lun);
}

/* Two sds on one lun would give its blocks two owners. */
static int check_luns(const struct params *p, char *err, size_t errlen)
{
	unsigned *idx = malloc(sizeof(*idx) * (p->nsd ? p->nsd : 1));
	int ret = 0;

	if (!idx)
		return -ENOMEM;
	for (unsigned i = 0; i < p->nsd; i++)
		idx[i] = i;
	qsort_r(idx, p->nsd, sizeof(*idx), cmp_lun, (void *)p);
	for (size_t i = 1; i < p->nsd && !ret; i++) {
		const struct params_sd *a = &p->sd[idx[i - 1]];
		const struct params_sd *b = &p->sd[idx[i]];

		if (strcmp(a->lun, b->lun))
			continue;
		if (idx[i] < idx[i - 1]) {
			const struct params_sd *t = a;

			a = b;
			b = t;
		}
		ret = plan_err(p, b->pos, err, errlen,
			       "sd=%s uses lun %s as sd=%s does: validate=yes needs one sd per lun (one owner per block)",
			       b->name, b->lun, a->name);
	}
	free(idx);
	return ret;
}

/*
 * What every transfer, offset and alignment must be a multiple of: a 4 KiB
 * block, or with duplicates a whole dedup unit, so that the members of a
 * dedup set are always written whole and flip their key together
 * (slave/dedupval.h).
 */
static uint32_t vunit(const struct params *p)
{
	return p->dedupratio > 1 ? p->dedupunit : VBLOCK;
}

/* Why vunit(): dedup's reason, for messages with a dedupratio= above 1. */
#define DEDUP_WHY \
	"as validate=yes with dedupratio=%g needs (every write covers whole dedup units, so that the copies of a unit change together)"
static int check_sds(const struct params *p, char *err, size_t errlen)
{
	uint32_t u = vunit(p);

	for (unsigned i = 0; i < p->nsd; i++) {
		const struct params_sd *sd = &p->sd[i];

		if (sd->offset % VBLOCK || sd->align % VBLOCK)
			return plan_err(p, sd->pos, err, errlen,
					"sd=%s: offset= and align= must be multiples of 4k with validate=yes (one generation per 4 KiB block)",
					sd->name);
		if (sd->offset % u || sd->align % u)
			return plan_err(p, sd->pos, err, errlen,
					"sd=%s: offset= and align= must be multiples of dedupunit=%u, " DEDUP_WHY,
					sd->name, u, p->dedupratio);
	}
	return check_luns(p, err, errlen);
}

static int check_phase(const struct params *p, const struct plan_phase *ph,
		       char *err, size_t errlen)
{
	const struct params_rd *rd = &p->rd[ph->rd];
	struct plan_wd pw;

	if (ph->kind == PLAN_FORMAT) {
		if (p->formatxfersize % VBLOCK)
			return plan_err(p, rd->pos, err, errlen,
					"rd=%s: formatxfersize=%u is not a multiple of 4k, as validate=yes needs",
					rd->name, p->formatxfersize);
		if (p->formatxfersize % vunit(p))
			return plan_err(p, rd->pos, err, errlen,
					"rd=%s: formatxfersize=%u is not a multiple of dedupunit=%u, " DEDUP_WHY,
					rd->name, p->formatxfersize, vunit(p),
					p->dedupratio);
		return 0;
	}
	for (size_t w = 0; w < rd->nwd; w++) {
		const struct params_wd *wd = &p->wd[rd->wd[w]];

		plan_wd_resolve(p, ph, w, &pw);
		/*
		 * Hits and skews are computed on the whole sd, but each
		 * slave and worker owns only its cut of it under validation.
		 */
		if (pw.rhpct > 0 || pw.whpct > 0)
			return plan_err(p,
					wd->hit_pos.line ? wd->hit_pos :
							   rd->pos,
					err, errlen,
					"wd=%s: rhpct= and whpct= send I/O to the start of each sd, which validate=yes gives to one slave only: not supported together yet",
					wd->name);
		if (pw.access != PARAMS_ACCESS_UNIFORM)
			return plan_err(p, wd->access_pos, err, errlen,
					"wd=%s: %s spreads I/O over the whole sd, which validate=yes cuts among its slaves: not supported together yet",
					wd->name,
					pw.access == PARAMS_ACCESS_HOTBAND ?
						"hotband=" :
						"random_distribution=");
		for (size_t x = 0; x < pw.nxfer; x++) {
			bool loop = ph->loops & (1u << PARAMS_LOOP_XFERSIZE);

			if (pw.xfer[x].size % vunit(p) == 0)
				continue;
			if (pw.xfer[x].size % VBLOCK)
				return plan_err(p, loop ? rd->pos : wd->pos,
						err, errlen,
						"%s=%s: xfersize %u is not a multiple of 4k, as validate=yes needs (one generation per 4 KiB block)",
						loop ? "rd" : "wd",
						loop ? rd->name : wd->name,
						pw.xfer[x].size);
			return plan_err(p, loop ? rd->pos : wd->pos, err,
					errlen,
					"%s=%s: xfersize %u is not a multiple of dedupunit=%u, " DEDUP_WHY,
					loop ? "rd" : "wd",
					loop ? rd->name : wd->name,
					pw.xfer[x].size, vunit(p),
					p->dedupratio);
		}
	}
	return 0;
}

int plan_validate_check(const struct params *p, const struct plan_phase *ph,
			size_t n, char *err, size_t errlen)
{
	int ret;

	if (p->journal[0] && !p->validate)
		return plan_err(p, p->journal_pos, err, errlen,
				"journal=%s journals data validation: it needs validate=yes",
				p->journal);
	for (size_t f = 0; f < p->nfsd; f++)
		if (p->fsd[f].journal[0] && !p->validate)
			return plan_err(p, p->fsd[f].journal_pos, err, errlen,
					"fsd=%s journal=%s journals its data validation: it needs validate=yes",
					p->fsd[f].name, p->fsd[f].journal);
	for (size_t r = 0; r < p->nrd; r++)
		if (p->rd[r].validate_only && !p->validate)
			return plan_err(p, p->rd[r].validate_pos, err, errlen,
					"rd=%s: validate=only needs validate=yes, so that every phase that writes keeps the generation map",
					p->rd[r].name);
	if (!p->validate)
		return 0;
	if (p->concat)
		return plan_err(p, p->validate_pos, err, errlen,
				"validate=yes with concatenatesds=yes: Vdbench does not validate concatenated sds, and lockstep's one owner per block is per sd");
	if (p->dedupratio > 1 && p->dedupunit % VBLOCK)
		return plan_err(p, p->validate_pos, err, errlen,
				"validate=yes with dedupratio=%g needs dedupunit= a multiple of 4k, not %u bytes (one generation per 4 KiB block)",
				p->dedupratio, p->dedupunit);
	ret = check_sds(p, err, errlen);
	for (size_t i = 0; !ret && i < n; i++)
		ret = check_phase(p, &ph[i], err, errlen);
	return ret;
}
