/*
 * The checks of the wire protocol's file-system parts (proto/PROTOCOL.md,
 * protocol 16) that no single field can express: a plan's trees (fsd
 * maps) and file workloads (fwd maps), and an interval's operations
 * other than read and write (fsop maps). Both directions run them, as
 * schema.c's other checks.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "proto/proto_int.h"

/* An fsd's shape, share and format; the shape's limits are fstree's. */
static int fsd_check(const struct proto_fsd *f, uint32_t i, char *why,
		     size_t whylen)
{
	const char *bad = NULL;
	uint64_t pct = 0;

	if (!f->name[0])
		bad = "nm: no name";
	else if (f->anchor[0] != '/')
		bad = "an: the anchor is not an absolute path";
	else if (strchr(f->subdir, '/') || !strcmp(f->subdir, ".") ||
		 !strcmp(f->subdir, ".."))
		bad = "sb: not one path component";
	else if (!f->depth || !f->width || !f->files)
		bad = "dp/wd/fl: a depth, width and files of at least 1";
	else if (f->dist > 1)
		bad = "di: unknown distribution";
	else if (!f->nsizes)
		bad = "sz: no size";
	else if (f->share_count > 1 && f->share_no >= f->share_count)
		bad = "sh: share number not below the share count";
	else if (f->format >= PROTO_FSFMT_MAX)
		bad = "fm: unknown format";
	else if (f->totalsize && f->wss > f->totalsize)
		bad = "ws: a working set above the total size";
	else if (f->format_flags & ~PROTO_FSFMT_FLAGS)
		bad = "ff: unknown format flags";
	else if (f->format_xfer > PROTO_FSFMT_XFER_MAX)
		bad = "fx: a format write above 16 MiB";
	else if (f->format_threads > PROTO_FSFMT_THREADS_MAX)
		bad = "ft: more than 64 format threads";
	if (!bad && f->nsizes > 1) {
		for (uint32_t k = 0; k < f->nsizes; k++)
			pct += f->sizes[k].pct;
		if (pct != 100)
			bad = "sz: the shares do not add up to 100";
	}
	if (!bad)
		return 0;
	snprintf(why, whylen, "fd[%" PRIu32 "].%s", i, bad);
	return -EINVAL;
}

static int fwd_check(const struct proto_plan *p, const struct proto_fwd *w,
		     uint32_t i, char *why, size_t whylen)
{
	const char *bad = NULL;

	if (w->fsd >= p->nfsds)
		bad = "fd: fsd index out of range";
	else if (w->op >= PROTO_FSOP_MAX)
		bad = "op: unknown operation";
	else if (w->mixed && w->op != PROTO_FSOP_READ &&
		 w->op != PROTO_FSOP_WRITE)
		bad = "mx: a mix of reads and writes on another operation";
	else if (w->fileio >= PROTO_FILEIO_MAX)
		bad = "fi: unknown fileio";
	else if (w->fileselect >= PROTO_FSEL_MAX)
		bad = "fs: unknown fileselect";
	else if (w->fileio == PROTO_FILEIO_SEQ_DELETE &&
		 (w->op != PROTO_FSOP_WRITE || w->mixed))
		bad = "fi: delete before write on another operation than write";
	else if (w->fileio == PROTO_FILEIO_RANDOM_SHARED &&
		 (w->fileselect == PROTO_FSEL_RANDOM ||
		  w->fileselect == PROTO_FSEL_RANDOM_ONCE))
		bad = "fi: shared files with random fileselect";
	else if (!w->threads || w->threads > 4096)
		bad = "th: threads not in 1..4096";
	else if (w->openflags &
		 ~(uint32_t)(PROTO_O_DIRECT | PROTO_O_DSYNC | PROTO_O_SYNC))
		bad = "of: unknown open flags";
	else if ((w->op == PROTO_FSOP_COPY || w->op == PROTO_FSOP_MOVE) &&
		 w->target >= p->nfsds)
		bad = "tg: destination fsd index out of range";
	else if (!w->nxfer)
		bad = "x: no transfer size";
	else if (w->stopafter && w->stopafter_pct)
		bad = "sa/sp: both a block count and a percentage";
	else if (!(w->midpoint >= 0 && w->midpoint <= 1e9))
		bad = "pm: midpoint not within 0..1e9";
	else if (w->midpoint > 0 && w->fileselect != PROTO_FSEL_RANDOM)
		bad = "pm: a midpoint without random fileselect";
	if (!bad)
		return 0;
	snprintf(why, whylen, "fw[%" PRIu32 "].%s", i, bad);
	return -EINVAL;
}

int schema_plan_fs_check(const struct proto_plan *p, char *why, size_t whylen)
{
	if (p->nfsds > PROTO_MAX_FSDS || p->nfwds > PROTO_MAX_FWDS ||
	    (p->nfsds && !p->fsds) || (p->nfwds && !p->fwds)) {
		snprintf(why, whylen, "bad fsd or fwd count");
		return -EINVAL;
	}
	if (p->nfsds && (p->ntargets || p->nstreams)) {
		snprintf(why, whylen, "fd: a phase of both sds and fsds");
		return -EINVAL;
	}
	if (p->nfwds && (!p->nfsds || p->format)) {
		snprintf(why, whylen, "fw: fwds %s",
			 p->format ? "in a format phase" : "without fsds");
		return -EINVAL;
	}
	for (uint32_t i = 0; i < p->nfsds; i++)
		if (fsd_check(&p->fsds[i], i, why, whylen))
			return -EINVAL;
	for (uint32_t i = 0; i < p->nfwds; i++)
		if (fwd_check(p, &p->fwds[i], i, why, whylen))
			return -EINVAL;
	return 0;
}

/* Operations other than read and write, each once, in order. */
int schema_fsops_check(const struct proto_interval *iv, char *why,
		       size_t whylen)
{
	if (iv->nfsops > PROTO_FSOP_MAX || (iv->nfsops && !iv->fsops)) {
		snprintf(why, whylen, "bad file operation count");
		return -EINVAL;
	}
	for (uint32_t i = 0; i < iv->nfsops; i++) {
		const struct proto_fsop_stat *o = &iv->fsops[i];
		const char *bad = NULL;

		if (o->op < PROTO_FSOP_CREATE || o->op >= PROTO_FSOP_MAX)
			bad = "not an operation other than read or write";
		else if (i && o->op <= iv->fsops[i - 1].op)
			bad = "not above the one before";
		else if (o->lat.count != o->count)
			bad = "a latency count other than its count";
		if (!bad)
			continue;
		snprintf(why, whylen,
			 "fo[%" PRIu32 "].o: operation %" PRIu32 " %s", i,
			 o->op, bad);
		return -EINVAL;
	}
	return 0;
}
