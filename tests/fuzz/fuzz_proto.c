/*
 * libFuzzer target for the protocol decoder: any frame must either be
 * refused (-EBADMSG, -EPROTO or -ENOMEM, with a reason, and the message
 * left owning nothing) or decode to a message that holds what the decoder
 * promises: it re-encodes, the re-encoding decodes to an equal message and
 * encodes to the same bytes again, and its histograms pass
 * hist_sparse_validate() (the master merges them trusting that). Leaks are
 * LeakSanitizer's to find: every decoded message is freed with
 * proto_msg_free(), twice, since that must be idempotent.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/hist.h"
#include "proto/proto.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int hist_equal(const struct hist_sparse *a, const struct hist_sparse *b)
{
	return a->count == b->count && a->sum == b->sum && a->min == b->min &&
	       a->max == b->max &&
	       !memcmp(&a->sumsq, &b->sumsq, sizeof(a->sumsq)) &&
	       a->n == b->n &&
	       (!a->n || (!memcmp(a->idx, b->idx, a->n * sizeof(*a->idx)) &&
			  !memcmp(a->cnt, b->cnt, a->n * sizeof(*a->cnt))));
}

static int hists_valid(const struct hist_sparse *lat)
{
	return !hist_sparse_validate(&lat[0]) && !hist_sparse_validate(&lat[1]);
}

static int val_sds_equal(const struct proto_phase_end *a,
			 const struct proto_phase_end *b)
{
	if (a->nval_sds != b->nval_sds)
		return 0;
	for (uint32_t i = 0; i < a->nval_sds; i++) {
		const struct proto_val_sd *x = &a->val_sds[i];
		const struct proto_val_sd *y = &b->val_sds[i];

		if (x->target != y->target || x->written != y->written ||
		    x->verified != y->verified ||
		    x->mismatches != y->mismatches)
			return 0;
	}
	return 1;
}

/*
 * Decoded messages start zeroed (padding included) and the decoder writes
 * only fields, so what holds no pointer compares as bytes; doubles compare
 * as bits, which a round trip must keep.
 */
static int msg_equal(const struct proto_msg *a, const struct proto_msg *b)
{
	if (a->type != b->type)
		return 0;
	switch (a->type) {
	case PROTO_PLAN: {
		const struct proto_plan *p = &a->u.plan, *q = &b->u.plan;

		return !memcmp(p, q, offsetof(struct proto_plan, ntargets)) &&
		       p->ntargets == q->ntargets &&
		       p->nstreams == q->nstreams &&
		       (!p->ntargets ||
			!memcmp(p->targets, q->targets,
				p->ntargets * sizeof(*p->targets))) &&
		       (!p->nstreams ||
			!memcmp(p->streams, q->streams,
				p->nstreams * sizeof(*p->streams)));
	}
	case PROTO_READY:
		return a->u.ready.phase == b->u.ready.phase &&
		       a->u.ready.nforced == b->u.ready.nforced &&
		       (!a->u.ready.nforced ||
			!memcmp(a->u.ready.forced, b->u.ready.forced,
				a->u.ready.nforced *
					sizeof(*a->u.ready.forced)));
	case PROTO_INTERVAL:
		return !memcmp(&a->u.interval, &b->u.interval,
			       offsetof(struct proto_interval, lat)) &&
		       hist_equal(&a->u.interval.lat[0],
				  &b->u.interval.lat[0]) &&
		       hist_equal(&a->u.interval.lat[1], &b->u.interval.lat[1]);
	case PROTO_PHASE_END:
		return !memcmp(&a->u.phase_end, &b->u.phase_end,
			       offsetof(struct proto_phase_end, val_sds)) &&
		       val_sds_equal(&a->u.phase_end, &b->u.phase_end) &&
		       hist_equal(&a->u.phase_end.lat[0],
				  &b->u.phase_end.lat[0]) &&
		       hist_equal(&a->u.phase_end.lat[1],
				  &b->u.phase_end.lat[1]);
	default:
		return !memcmp(&a->u, &b->u, sizeof(a->u));
	}
}

/* What decoding promises beyond "it re-encodes". */
static int msg_valid(const struct proto_msg *m)
{
	if (m->type == PROTO_INTERVAL)
		return hists_valid(m->u.interval.lat);
	if (m->type == PROTO_PHASE_END)
		return hists_valid(m->u.phase_end.lat);
	return 1;
}

static int all_zero(const void *p, size_t len)
{
	const uint8_t *b = p;

	for (size_t i = 0; i < len; i++)
		if (b[i])
			return 0;
	return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct proto_msg m, m2;
	void *buf = NULL, *buf2 = NULL;
	size_t len = 0, len2 = 0;
	char err[256];
	int rc;

	rc = proto_decode(data, size, &m, err, sizeof(err));
	/* Without an error buffer the verdict is the same. */
	if (proto_decode(data, size, &m2, NULL, 0) != rc)
		abort();
	proto_msg_free(&m2);
	if (rc) {
		if (rc != -EBADMSG && rc != -EPROTO && rc != -ENOMEM)
			abort();
		/* It owns nothing: all zero but the type and, for a plan,
		   its phase, kept so that the receiver can answer it. */
		if (m.type == PROTO_PLAN)
			m.u.plan.phase = 0;
		m.type = 0;
		if (!err[0] || !all_zero(&m, sizeof(m)))
			abort();
		return 0;
	}
	if (!msg_valid(&m))
		abort();

	/* What was accepted can be sent back unchanged. */
	if (proto_encode(&m, &buf, &len))
		abort();
	if (proto_decode(buf, len, &m2, err, sizeof(err)))
		abort();
	if (!msg_equal(&m, &m2))
		abort();
	if (proto_encode(&m2, &buf2, &len2) || len2 != len ||
	    memcmp(buf, buf2, len))
		abort();

	free(buf);
	free(buf2);
	proto_msg_free(&m);
	proto_msg_free(&m);
	proto_msg_free(&m2);
	return 0;
}
