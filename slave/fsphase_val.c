/*
 * A file-system phase's data validation (validate=yes with fwd=): what it
 * refuses, each fsd's key map from the session (slave/fsval.h, replayed
 * from its journal with journal=, slave/fsjnl.h), the mismatches logged
 * in full, the counts per fsd in phase_end, and what a validate=only
 * pass must have verified.
 */
#include "slave/fsphase.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "slave/fsint.h"
#include "slave/fsjnl.h"
#include "slave/fsval.h"
#include "slave/outbox.h"
#include "slave/target.h"

/*
 * What fs data validation keeps exact, else refused: no operation whose
 * effect on a file's contents the map does not follow; a validate=only
 * pass only reads.
 */
int fs_val_check(const struct proto_plan *p, char *err, size_t errlen)
{
	if (!p->validate)
		return 0;
	if (p->validate == PROTO_VALIDATE_ONLY && p->format) {
		snprintf(err, errlen,
			 "phase %s: a validate=only pass formats nothing",
			 p->name);
		return -EINVAL;
	}
	for (uint32_t i = 0; i < p->nfwds; i++) {
		if (p->validate == PROTO_VALIDATE_ONLY &&
		    (p->fwds[i].op != PROTO_FSOP_READ || p->fwds[i].mixed)) {
			snprintf(err, errlen,
				 "fwd %s: a validate=only pass only reads",
				 p->fwds[i].name);
			return -EINVAL;
		}
		if (p->fwds[i].op == PROTO_FSOP_COPY ||
		    p->fwds[i].op == PROTO_FSOP_MOVE) {
			snprintf(err, errlen,
				 "fwd %s: data validation does not follow operation=%s",
				 p->fwds[i].name,
				 p->fwds[i].op == PROTO_FSOP_COPY ? "copy" :
								    "move");
			return -EINVAL;
		}
	}
	return 0;
}

/* validate=yes: each fsd's key map, kept by the session across phases. */
int fs_val_maps(struct session *s, char *err, size_t errlen)
{
	struct phase *ph = &s->ph;
	const struct proto_plan *p = &ph->plan;
	struct fsphase *fs = ph->fs;

	if (!p->validate)
		return 0;
	fs->val = calloc(p->nfsds ? p->nfsds : 1, sizeof(*fs->val));
	fs->v0 = calloc(p->nfsds ? p->nfsds : 1, sizeof(*fs->v0));
	if (!fs->val || !fs->v0) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	fs->slave_id = (uint16_t)validate_id(s->hello.name);
	for (unsigned i = 0; i < p->nfsds; i++) {
		const struct proto_fsd *f = &p->fsds[i];
		/* The fsd's own journal folder, else the plan's. */
		const char *jdir = f->journal[0] ? f->journal : p->journal;
		struct fsval_map *m;
		int ret = jdir[0] ? target_check_journal(jdir, &s->policy, err,
							 errlen) :
				    0;

		if (ret < 0)
			return ret;
		ret = fsval_open(&s->fsvals, f->name, fs->path[i], &fs->tree[i],
				 f->share_no, f->share_count, jdir,
				 s->hello.name, &m, err, errlen);
		if (ret < 0)
			return ret;
		m->nbad = m->nlogged = 0;
		fs->val[i] = m;
		fs->v0[i][0] = atomic_load(&m->written);
		fs->v0[i][1] = atomic_load(&m->verified);
		fs->v0[i][2] = atomic_load(&m->mismatched);
		if (p->validate == PROTO_VALIDATE_ONLY)
			fs->v0[i][3] = fsval_known(m);
		if (m->inflight && !m->inflight_told) {
			char text[PROTO_TEXT_LEN];

			snprintf(text, sizeof(text),
				 "fsd %s: %llu blocks were being written when journal %s ended: each must hold, whole, the content before that write or the one it wrote",
				 m->fsd, (unsigned long long)m->inflight,
				 m->jpath);
			log_warn("%s", text);
			outbox_log(s, LOG_WARN, text);
			m->inflight_told = 1;
		}
	}
	return 0;
}

/* "file REL is gone": the first file of fsd i with keys and no file. */
static void first_gone(const struct fsphase *fs, unsigned i, char *out,
		       size_t len)
{
	const struct fsval_map *m = fs->val[i];
	const struct fsplan_tree *t = &fs->tree[i];
	char rel[FSTREE_PATH_MAX];

	for (uint64_t f = 0; f < m->nfiles && f < t->nfiles; f++) {
		int known = 0;

		for (uint64_t b = m->base[f]; b < m->base[f + 1] && !known; b++)
			known = m->gen[b] != 0;
		if (!known || fsplan_bit(t->fexist, f) ||
		    fsplan_file_path(t, f, rel, sizeof(rel)) < 0)
			continue;
		snprintf(out, len, "file %s is gone", rel);
		return;
	}
}

/*
 * At a phase's end: the journals durable, and a journal that failed or a
 * validate=only pass that verified fewer blocks than its map expected
 * (a file gone or cut, a journal emptied or of nothing) is the phase's
 * error, never "0 mismatches".
 */
static void val_end_checks(struct session *s)
{
	struct fsphase *fs = s->ph.fs;
	const struct proto_plan *p = &s->ph.plan;

	for (unsigned i = 0; i < fs->nfsds && fs->val[i]; i++) {
		struct fsval_map *m = fs->val[i];
		uint64_t verified = atomic_load(&m->verified) - fs->v0[i][1];
		char text[PROTO_TEXT_LEN], from[PROTO_TEXT_LEN / 2];
		int ret = fsjnl_sync(m);

		if (ret < 0) {
			snprintf(text, sizeof(text),
				 "fsd %s: journal %s failed (%s): its keys are not to be trusted",
				 m->fsd, m->jpath, strerror(-ret));
		} else if (p->validate != PROTO_VALIDATE_ONLY) {
			continue;
		} else if (verified < fs->v0[i][3]) {
			char gone[FSTREE_PATH_MAX + 32] = "";

			first_gone(fs, i, gone, sizeof(gone));
			snprintf(text, sizeof(text),
				 "data validation: fsd %s: validate=only verified %llu of the %llu blocks the map expected (%s)",
				 m->fsd, (unsigned long long)verified,
				 (unsigned long long)fs->v0[i][3],
				 gone[0] ? gone : "a file cut or unreadable?");
			ret = -EIO;
		} else if (!fs->v0[i][3] && m->base[m->nfiles]) {
			if (m->jfd >= 0)
				snprintf(from, sizeof(from), "journal %s",
					 m->jpath);
			else
				snprintf(from, sizeof(from),
					 "this run (no journal=)");
			snprintf(text, sizeof(text),
				 "data validation: fsd %s: %s records no block written by this slave, so validate=only had nothing to verify (was the journal emptied, cut or deleted?)",
				 m->fsd, from);
			ret = -ENODATA;
		} else {
			continue;
		}
		log_error("%s", text);
		outbox_log(s, LOG_ERROR, text);
		if (!s->ph.status)
			s->ph.status = ret;
	}
}

/* Log, in full, the mismatches the threads kept since the last call. */
void fs_val_log(struct session *s)
{
	struct fsphase *fs = s->ph.fs;

	for (unsigned i = 0; fs && fs->val && i < fs->nfsds; i++) {
		struct fsval_map *m = fs->val[i];

		if (!m)
			continue; /* a prepare that failed part way */
		pthread_mutex_lock(&m->lock);
		while (m->nlogged < m->nbad) {
			const struct fsval_bad *b = &m->bad[m->nlogged++];
			char rel[FSTREE_PATH_MAX], text[PROTO_TEXT_LEN];

			if (fsplan_file_path(&fs->tree[i], b->file, rel,
					     sizeof(rel)) < 0)
				snprintf(rel, sizeof(rel), "#%llu",
					 (unsigned long long)b->file);
			snprintf(text, sizeof(text),
				 "data validation: fsd %s file %s offset %llu: %s: expected generation %u of file id %08x, found generation %u of file id %08x by slave %04x (block %llu)",
				 m->fsd, rel, (unsigned long long)b->offset,
				 validate_kind_name(b->kind), b->expect,
				 m->id[b->file], b->found.gen, b->found.sd,
				 b->found.slave,
				 (unsigned long long)(b->found.sector /
						      VALIDATE_SECTORS));
			log_error("%s", text);
			outbox_log(s, LOG_ERROR, text);
		}
		pthread_mutex_unlock(&m->lock);
	}
}

void fsphase_validate_end(struct session *s, struct proto_phase_end *pe)
{
	struct fsphase *fs = s->ph.fs;

	if (!fs || !fs->val)
		return;
	fs_val_log(s);
	val_end_checks(s);
	/* Per fsd: vs[].t is the fsd's index in an fs plan. */
	pe->val_sds = calloc(fs->nfsds ? fs->nfsds : 1, sizeof(*pe->val_sds));
	if (!pe->val_sds) {
		log_error("out of memory for the validation counts");
		if (!s->ph.status)
			s->ph.status = -ENOMEM;
		return;
	}
	for (unsigned i = 0; i < fs->nfsds && fs->val[i]; i++) {
		struct fsval_map *m = fs->val[i];
		struct proto_val_sd *vs = &pe->val_sds[pe->nval_sds++];

		vs->target = i;
		vs->written = atomic_load(&m->written) - fs->v0[i][0];
		vs->verified = atomic_load(&m->verified) - fs->v0[i][1];
		vs->mismatches = atomic_load(&m->mismatched) - fs->v0[i][2];
		pe->val_written += vs->written;
		pe->val_verified += vs->verified;
		pe->val_mismatches += vs->mismatches;
	}
	{
		char text[PROTO_TEXT_LEN];

		snprintf(text, sizeof(text),
			 "data validation: phase %s: %llu blocks written, %llu verified, %llu mismatches",
			 s->ph.plan.name, (unsigned long long)pe->val_written,
			 (unsigned long long)pe->val_verified,
			 (unsigned long long)pe->val_mismatches);
		log_info("%s", text);
		outbox_log(s, pe->val_mismatches ? LOG_ERROR : LOG_INFO, text);
	}
}
