/*
 * The null engine: every I/O completes at once with its full length and
 * touches no device. It measures lockstep itself (scheduling, statistics,
 * messaging) and lets scale tests run many slaves without storage.
 */
#include <errno.h>
#include <stdlib.h>
#include "slave/engine.h"

struct null_ctx {
	unsigned depth;
	unsigned nq;
	struct engine_cqe *q;
};

static int null_open(const struct engine_cfg *cfg, void **ctx)
{
	struct null_ctx *n = calloc(1, sizeof(*n));

	if (!n)
		return -ENOMEM;
	n->depth = cfg->depth;
	n->q = calloc(cfg->depth ? cfg->depth : 1, sizeof(*n->q));
	if (!n->q) {
		free(n);
		return -ENOMEM;
	}
	*ctx = n;
	return 0;
}

static int null_prep(void *ctx, unsigned slot, unsigned file, int write,
		     uint32_t buf_off, uint32_t len, uint64_t offset)
{
	struct null_ctx *n = ctx;

	(void)file;
	(void)write;
	(void)offset;
	(void)buf_off;
	if (n->nq >= n->depth)
		return -EBUSY;
	n->q[n->nq].slot = slot;
	n->q[n->nq].res = (int)len;
	n->nq++;
	return 0;
}

static int null_submit(void *ctx, unsigned wait_nr, uint64_t timeout_ns)
{
	(void)ctx;
	(void)wait_nr;
	(void)timeout_ns;
	return 0;
}

static int null_reap(void *ctx, struct engine_cqe *out, unsigned max)
{
	struct null_ctx *n = ctx;
	unsigned k = n->nq < max ? n->nq : max;

	for (unsigned i = 0; i < k; i++)
		out[i] = n->q[n->nq - k + i];
	n->nq -= k;
	return (int)k;
}

static void null_close(void **ctx)
{
	struct null_ctx *n = *ctx;

	if (!n)
		return;
	free(n->q);
	free(n);
	*ctx = NULL;
}

static const char *null_describe(void *ctx)
{
	(void)ctx;
	return "no I/O";
}

const struct engine_ops engine_null_ops = {
	.name = "null",
	.open = null_open,
	.prep = null_prep,
	.submit = null_submit,
	.reap = null_reap,
	.close = null_close,
	.describe = null_describe,
};
