/*
 * The walk of a format shared by its threads (see fmtq.h).
 */
#include "slave/fmtq.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void fmtq_init(struct fmtq *q, const struct fstree_shape *shape,
	       uint32_t share_no, uint32_t share_count, const uint64_t *only,
	       int dirs_only)
{
	memset(q, 0, sizeof(*q));
	fstree_iter_init(&q->it, shape);
	if (share_count > 1)
		fstree_iter_share(&q->it, share_no, share_count);
	q->only = only;
	q->dirs_only = dirs_only;
	pthread_mutex_init(&q->lock, NULL);
	pthread_cond_init(&q->cond, NULL);
}

void fmtq_destroy(struct fmtq *q)
{
	pthread_cond_destroy(&q->cond);
	pthread_mutex_destroy(&q->lock);
}

int fmtq_next(struct fmtq *q, struct fstree_entry *e, uint64_t *file)
{
	while (fstree_next(&q->it, e)) {
		uint64_t k;

		if (e->is_dir)
			return 1;
		/* format=directories: the folders only. */
		if (q->dirs_only)
			continue;
		/* totalsize=: only the files of its subset, numbered all. */
		k = q->files++;
		if (q->only && !((q->only[k >> 6] >> (k & 63)) & 1))
			continue;
		*file = k;
		return 1;
	}
	return 0;
}

uint32_t fmtq_level(const struct fstree_entry *e)
{
	return e->is_dir ? e->level : FMTQ_FILES;
}

int fmtq_may_start(uint32_t running, unsigned busy, uint32_t level)
{
	return level <= running || busy == 0;
}

int fmtq_take(struct fmtq *q, struct fstree_entry *e, uint64_t *file)
{
	uint32_t level;
	int got = 0;

	pthread_mutex_lock(&q->lock);
	while (!q->ret) {
		if (!q->have_next &&
		    !(q->have_next = fmtq_next(q, &q->next, &q->next_file)))
			break;
		/*
		 * The walk's levels only grow: the next entry waits in the
		 * queue for the lower ones; what is busy is all that is
		 * drawn and not done, and all of one level.
		 */
		level = fmtq_level(&q->next);
		if (!fmtq_may_start(q->level, q->busy, level)) {
			pthread_cond_wait(&q->cond, &q->lock);
			continue;
		}
		*e = q->next;
		*file = q->next_file;
		q->have_next = 0;
		if (level > q->level)
			q->level = level;
		q->busy++;
		got = 1;
		break;
	}
	pthread_mutex_unlock(&q->lock);
	return got;
}

int fmtq_done(struct fmtq *q, int ret)
{
	int first = 0;

	pthread_mutex_lock(&q->lock);
	q->busy--;
	if (ret && !q->ret) {
		q->ret = ret;
		first = 1;
	}
	if (!q->busy || ret)
		pthread_cond_broadcast(&q->cond);
	pthread_mutex_unlock(&q->lock);
	return first;
}

/* Stop the walk with ret (a thread that did not start). */
static void fmtq_fail(struct fmtq *q, int ret)
{
	pthread_mutex_lock(&q->lock);
	if (!q->ret)
		q->ret = ret;
	pthread_cond_broadcast(&q->cond);
	pthread_mutex_unlock(&q->lock);
}

struct fmtq_thread {
	struct fmtq *q;
	fmtq_make_fn make;
	void *ctx;
	char *bad;
	size_t badlen;
	pthread_t tid;
	struct fstree_entry e;
};

static void *fmtq_main(void *arg)
{
	struct fmtq_thread *t = arg;
	uint64_t file = 0;

	while (fmtq_take(t->q, &t->e, &file))
		if (fmtq_done(t->q, t->make(t->ctx, &t->e, file)))
			snprintf(t->bad, t->badlen, "%s", t->e.path);
	return NULL;
}

int fmtq_run(struct fmtq *q, unsigned n, fmtq_make_fn make, void *ctx,
	     size_t ctx_size, char *bad, size_t badlen)
{
	struct fmtq_thread *t;
	unsigned started = 1;

	if (badlen)
		bad[0] = '\0';
	if (n < 1 || n > FMTQ_THREADS_MAX)
		return -EINVAL;
	t = calloc(n, sizeof(*t));
	if (!t)
		return -ENOMEM;
	for (unsigned i = 0; i < n; i++) {
		t[i].q = q;
		t[i].make = make;
		t[i].ctx = (char *)ctx + i * ctx_size;
		t[i].bad = bad;
		t[i].badlen = badlen;
	}
	for (; started < n; started++) {
		int ret = pthread_create(&t[started].tid, NULL, fmtq_main,
					 &t[started]);

		if (ret) {
			fmtq_fail(q, -ret);
			break;
		}
	}
	fmtq_main(&t[0]);
	for (unsigned i = 1; i < started; i++)
		pthread_join(t[i].tid, NULL);
	free(t);
	return q->ret;
}
