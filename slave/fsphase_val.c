/*
 * A file-system phase's data validation (validate=yes with fwd=): what it
 * refuses, each fsd's key map from the session (slave/fsval.h), the
 * mismatches logged in full, and the counts per fsd in phase_end.
 */
#include "slave/fsphase.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/log.h"
#include "slave/fsint.h"
#include "slave/fsval.h"
#include "slave/outbox.h"

/*
 * What fs data validation keeps exact, else refused: no validate=only
 * pass and no journal (the key maps live in the session), no operation
 * whose effect on a file's contents the map does not follow.
 */
int fs_val_check(const struct proto_plan *p, char *err, size_t errlen)
{
	if (!p->validate)
		return 0;
	if (p->validate != PROTO_VALIDATE_YES || p->journal[0]) {
		snprintf(err, errlen,
			 "phase %s: file-system data validation runs without %s",
			 p->name,
			 p->journal[0] ? "a journal" : "a validate=only pass");
		return -EINVAL;
	}
	for (uint32_t i = 0; i < p->nfwds; i++)
		if (p->fwds[i].op == PROTO_FSOP_COPY ||
		    p->fwds[i].op == PROTO_FSOP_MOVE) {
			snprintf(err, errlen,
				 "fwd %s: data validation does not follow operation=%s",
				 p->fwds[i].name,
				 p->fwds[i].op == PROTO_FSOP_COPY ? "copy" :
								    "move");
			return -EINVAL;
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
		struct fsval_map *m;

		if (fsval_get(&s->fsvals, f->name, fs->path[i], &fs->tree[i],
			      f->share_no, f->share_count, &m) < 0) {
			snprintf(err, errlen,
				 "fsd %s: out of memory for its key map",
				 f->name);
			return -ENOMEM;
		}
		m->nbad = m->nlogged = 0;
		fs->val[i] = m;
		fs->v0[i][0] = atomic_load(&m->written);
		fs->v0[i][1] = atomic_load(&m->verified);
		fs->v0[i][2] = atomic_load(&m->mismatched);
	}
	return 0;
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
