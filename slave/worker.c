/*
 * (Over 800 lines on purpose: the per-I/O path - issue, completion,
 * accounting and the loop - is one concern, kept in one translation unit
 * so that the compiler inlines it; the build has no LTO.)
 *
 * The worker thread: the I/O hot path. One clock read per loop iteration
 * serves as the completion time of everything reaped and the issue time of
 * everything refilled, one submit-and-wait per iteration, no allocation and
 * no locks except once per interval boundary. See worker.h.
 *
 * Intervals are double-buffered: two are allocated at set-up, the one being
 * counted (cur) and a spare. At a boundary the worker queues cur for the
 * session thread and counts into the spare; the session thread copies what
 * it needs, clears the buffer and gives it back with worker_release. Both
 * hand-offs go through the worker's lock, so a buffer always has exactly one
 * owner. Only if the session thread falls more than an interval behind is a
 * third buffer allocated (correct counts matter more than the promise).
 *
 * Data validation (cfg.vmap) costs one branch per I/O when it is off. When
 * it is on, writes are stamped and reads verified (valmap.c), two I/Os in
 * flight never touch one block (an I/O that would is drawn again, as
 * Vdbench keeps the same rule), and the journal is made durable before
 * the writes stamped since the last flush are submitted.
 */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stddef.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>
#include "common/timeutil.h"
#include "slave/prio.h"
#include "slave/datagen.h"
#include "slave/iotrace.h"
#include "slave/prepare.h"
#include "slave/rate.h"
#include "slave/reap.h"
#include "slave/replay.h"
#include "slave/runq.h"
#include "slave/tsched.h"
#include "slave/wival.h"
#include "slave/worker.h"

#define DRAIN_TIMEOUT_NS (30 * NS_PER_SEC)
#define START_SPIN_NS (200 * NS_PER_US) /* spun, not slept, before go */

struct slot {
	uint64_t start; /* issue time, or intended time at a fixed rate */
	uint64_t offset;
	uint32_t len;
	uint32_t done;   /* bytes transferred so far (short transfers) */
	unsigned target; /* the target whose threads the slot is */
	unsigned iot;    /* the I/O's: target, or a concatenation's sd */
	unsigned rec;    /* its histograms: interval.rec[rec + write] */
	int write;
	int busy; /* in flight (validation's overlap rule) */
};

struct worker {
	struct worker_cfg cfg;
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int setup_done; /* under lock */
	int setup_ret;
	char *err;
	size_t errlen;
	int go; /* under lock */
	uint64_t mono_start;
	/* The first interval (not 0 for a slave that rejoins a phase). */
	unsigned first;
	atomic_int stop;
	/*
	 * The phase's end: cfg.intervals until the master says the measured
	 * window of a warmup=steady phase (worker_set_end) ends earlier.
	 */
	atomic_uint limit;
	atomic_int finished;
	atomic_int eof; /* ended early: every target finished its pass */
	atomic_uint_fast64_t first_io;
	struct worker_interval *head,
		*tail;                 /* finished intervals, under lock */
	struct worker_interval *spare; /* cleared buffers, under lock */

	void *ectx;
	void **bufs;
	struct slot *slots;
	struct engine_cqe *cqes;
	struct workload wl;
	struct tsched ts; /* per-target schedules and free slots */
	struct reap reap;
	enum rate_dist dist;
	struct datagen dg;
	uint64_t *key;    /* datagen key per target */
	unsigned *free;   /* set-up scratch */
	unsigned retired; /* slots whose target finished its eof pass */
	unsigned inflight;
	uint64_t wake_armed; /* the boundary given to engine->wake_at */
	int validating;      /* cfg.vmap given */
	uint64_t runq_last;  /* runq_read() at the last interval's start */
	int runq_fd;         /* runq_open() of the worker thread, -1: none */
	struct valmap_io val;
	FILE *iotrace; /* LOCKSTEP_IOTRACE (iotrace.h), or NULL */
	struct worker_interval *cur;
	unsigned *split_target; /* per target split: its plan targets */
	unsigned nsplit;
	unsigned *rec_of; /* nfiles: a target's pair of histograms, 2 x j */
	char desc[128];
};

static void notify(struct worker *w)
{
	uint64_t one = 1;
	ssize_t r = write(w->cfg.notify_fd, &one, sizeof(one));

	(void)r; /* an eventfd write only fails on overflow: still readable */
}

/* Queue a finished interval for the session thread; call under lock. */
static void queue_done(struct worker *w, struct worker_interval *done)
{
	if (w->tail)
		w->tail->next = done;
	else
		w->head = done;
	w->tail = done;
}

/*
 * Hand the current interval over and start the next one in the spare
 * buffer: no allocation and no clearing on this thread, as long as the
 * session thread gave the previous one back.
 */
static int roll_interval(struct worker *w, unsigned next_seq)
{
	struct worker_interval *done = w->cur, *fresh;
	uint64_t q = runq_read(w->runq_fd);

	/* Read at each roll: the interval's share of the thread's wait. */
	done->runq_ns = q > w->runq_last ? q - w->runq_last : 0;
	w->runq_last = q;
	pthread_mutex_lock(&w->lock);
	fresh = w->spare;
	if (fresh) {
		w->spare = fresh->next;
		queue_done(w, done);
	}
	pthread_mutex_unlock(&w->lock);
	if (!fresh) {
		fresh = wival_new(next_seq, w->cfg.nfiles, w->nsplit,
				  w->split_target);
		if (!fresh)
			return -ENOMEM;
		pthread_mutex_lock(&w->lock);
		queue_done(w, done);
		pthread_mutex_unlock(&w->lock);
	}
	fresh->seq = next_seq;
	fresh->next = NULL;
	w->cur = fresh;
	notify(w);
	return 0;
}

static int setup(struct worker *w)
{
	const struct worker_cfg *c = &w->cfg;
	struct engine_cfg ec;
	unsigned j;
	int ret;

	ret = workload_init(&w->wl, c->plan, c->target_size, c->seed, w->err,
			    w->errlen);
	if (ret < 0)
		return ret;
	for (unsigned t = 0; c->nslices && t < c->nfiles; t++) {
		if (c->slice[t] == UINT_MAX) /* no slot of ours on it */
			continue;
		ret = workload_slice(&w->wl, c->plan, t, c->slice[t],
				     c->nslices[t], w->err, w->errlen);
		if (ret < 0)
			return ret;
	}
	ret = replay_load(&w->wl, c->plan, c->target_size, c->slice, c->nslices,
			  w->err, w->errlen);
	if (ret < 0)
		return ret;
	w->iotrace = iotrace_open();
	w->bufs = calloc(c->depth, sizeof(*w->bufs));
	w->slots = calloc(c->depth, sizeof(*w->slots));
	w->cqes = calloc(c->depth, sizeof(*w->cqes));
	w->free = calloc(c->depth, sizeof(*w->free));
	w->key = calloc(c->nfiles ? c->nfiles : 1, sizeof(*w->key));
	w->split_target = calloc(c->depth + c->nfiles, sizeof(unsigned));
	w->rec_of = calloc(c->nfiles + 1, sizeof(*w->rec_of));
	if (!w->bufs || !w->slots || !w->cqes || !w->free || !w->key ||
	    !w->split_target || !w->rec_of)
		return -ENOMEM;
	for (unsigned i = 0; i < c->depth; i++) {
		if (posix_memalign(&w->bufs[i], 4096, w->wl.max_xfer))
			return -ENOMEM;
		memset(w->bufs[i], 0, w->wl.max_xfer);
		w->slots[i].target = c->slot_target[i];
		w->slots[i].iot = c->slot_target[i];
	}
	/*
	 * Each I/O's pair of histograms: its target's among ours (w->free,
	 * filled at the start, serves as the scratch), or lat's.
	 */
	if (c->split) {
		j = prepare_split_slots(c->slot_target, c->depth,
					w->split_target, w->free);
		w->nsplit = prepare_split_concat(c->plan, w->split_target, j);
	}
	for (j = 0; j < w->nsplit; j++)
		if (w->split_target[j] < c->nfiles)
			w->rec_of[w->split_target[j]] = 2 * j;
	w->cur = wival_new(0, c->nfiles, w->nsplit, w->split_target);
	w->spare = wival_new(0, c->nfiles, w->nsplit, w->split_target);
	if (!w->cur || !w->spare)
		return -ENOMEM;
	for (unsigned t = 0; t < c->nfiles; t++)
		w->key[t] = datagen_key(c->plan->targets[t].name);
	ret = datagen_init(&w->dg,
			   c->plan->compratio >= 1 ? c->plan->compratio : 1,
			   c->plan->dedupratio >= 1 ? c->plan->dedupratio : 1,
			   c->plan->dedupunit, c->seed);
	if (ret < 0) {
		snprintf(w->err, w->errlen,
			 "data pattern compratio=%g dedupratio=%g dedupunit=%u: %s",
			 c->plan->compratio, c->plan->dedupratio,
			 c->plan->dedupunit, strerror(-ret));
		return ret;
	}
	if (c->vmap) {
		ret = valmap_io_init(&w->val, c->vmap, c->nfiles, c->slave_id,
				     c->depth, w->wl.max_xfer, &w->dg);
		if (ret < 0)
			return ret;
		w->validating = 1;
	}
	if (tsched_init(&w->ts, c->plan, c->slot_target, c->depth, c->iorate))
		return -ENOMEM;
	w->dist = rate_dist_of(c->plan->distribution);
	ec.depth = c->depth;
	ec.nfiles = c->nfiles;
	ec.fds = c->fds;
	ec.async = c->async;
	ec.bufs = w->bufs;
	ec.buf_len = w->wl.max_xfer;
	ec.flags = c->engine_flags;
	ret = c->engine->open(&ec, &w->ectx);
	if (ret < 0) {
		snprintf(w->err, w->errlen, "engine %s: %s", c->engine->name,
			 strerror(-ret));
		return ret;
	}
	snprintf(w->desc, sizeof(w->desc), "%s", c->engine->describe(w->ectx));
	return 0;
}

/* issue()'s answer when every draw overlapped an I/O in flight. */
#define ISSUE_BUSY 2
#define VALIDATE_DRAWS 8

/* Whether io touches a block of an I/O in flight on the same target. */
static int overlaps(const struct worker *w, const struct workload_io *io)
{
	for (unsigned j = 0; j < w->cfg.depth; j++) {
		const struct slot *o = &w->slots[j];

		if (o->busy && o->iot == io->target &&
		    o->offset < io->offset + io->len &&
		    io->offset < o->offset + o->len)
			return 1;
	}
	return 0;
}

/*
 * Validation's rule: draw again while io would touch a block in flight.
 * Returns 0, WORKLOAD_EOF, or ISSUE_BUSY after VALIDATE_DRAWS draws.
 */
static int draw_free(struct worker *w, unsigned target, struct workload_io *io)
{
	for (unsigned k = 1; overlaps(w, io); k++) {
		if (k == VALIDATE_DRAWS)
			return ISSUE_BUSY;
		if (workload_next(&w->wl, target, io) == WORKLOAD_EOF)
			return WORKLOAD_EOF;
	}
	return 0;
}

/*
 * Start the next I/O on free slot i; its latency runs from start. Returns
 * 0, WORKLOAD_EOF when the slot's target finished its one pass (the slot
 * stays idle), ISSUE_BUSY (validation: every draw overlapped an I/O in
 * flight; the slot stays free for now), or -errno.
 */
static int issue(struct worker *w, unsigned i, uint64_t start)
{
	struct slot *s = &w->slots[i];
	struct workload_io io;
	int val;

	if (workload_next(&w->wl, s->target, &io) == WORKLOAD_EOF)
		return WORKLOAD_EOF;
	val = w->validating && w->cfg.vmap[io.target];
	if (val) {
		int r = draw_free(w, s->target, &io);

		if (r)
			return r;
	}
	if (io.write)
		datagen_fill(&w->dg, w->bufs[i], io.len, io.offset,
			     w->key[io.target]);
	if (val && io.write)
		valmap_io_stamp(&w->val, io.target, w->bufs[i], io.offset,
				io.len, time_real_ns());
	s->busy = 1;
	s->iot = io.target;
	if (w->nsplit > 1)
		s->rec = w->rec_of[io.target];
	s->start = start;
	s->offset = io.offset;
	s->len = io.len;
	s->done = 0;
	s->write = io.write;
	iotrace_io(w->iotrace, start, &io);
	return w->cfg.engine->prep(w->ectx, i, io.target, io.write, 0, io.len,
				   io.offset);
}

/* Submit what is left of a short or interrupted transfer. */
static int reissue(struct worker *w, unsigned i)
{
	struct slot *s = &w->slots[i];

	return w->cfg.engine->prep(w->ectx, i, s->iot, s->write, s->done,
				   s->len - s->done, s->offset + s->done);
}

static void count_errors(struct worker *w, struct slot *s, int err, uint64_t n)
{
	struct worker_interval *iv = w->cur;

	iv->errors += n;
	iv->target_errors[s->iot] += n;
	iv->last_errno = err;
	iv->last_err_offset = s->offset;
	iv->last_err_target = s->iot;
}

static void count_error(struct worker *w, struct slot *s, int err)
{
	count_errors(w, s, err, 1);
}

/*
 * Validation's part of a completion that frees its slot: a write's blocks
 * take their new generations (or become unknown when it failed), a read's
 * are verified and every mismatch counts as an error (data_errors=).
 */
static void validate_done(struct worker *w, struct slot *s, int ok)
{
	unsigned bad;

	s->busy = 0;
	if (!w->validating || !w->cfg.vmap[s->iot])
		return;
	if (s->write && ok)
		valmap_io_written(&w->val, s->iot, w->bufs[s - w->slots],
				  s->offset, s->len);
	else if (s->write)
		valmap_io_failed(&w->val, s->iot, s->offset, s->len);
	else if (ok) {
		bad = valmap_io_verify(&w->val, s->iot, w->bufs[s - w->slots],
				       s->offset, s->len);
		if (bad)
			count_errors(w, s, WORKER_ERR_MISMATCH, bad);
	}
}

/*
 * Account for one completion. Returns 1 when the slot is free again, 0 when
 * the rest of a short transfer, or a retry after -EAGAIN/-EINTR, was queued
 * (its latency keeps running from the original start).
 */
static int complete(struct worker *w, const struct engine_cqe *e, uint64_t now)
{
	struct slot *s = &w->slots[e->slot];
	struct worker_interval *iv = w->cur;

	if (e->res == -EAGAIN || e->res == -EINTR) {
		if (reissue(w, e->slot) == 0)
			return 0;
		validate_done(w, s, 0);
		return 1;
	}
	if (e->res < 0) {
		count_error(w, s, -e->res);
		validate_done(w, s, 0);
		return 1;
	}
	if (e->res == 0) {
		/* Nothing moved: past the end of the file or device. */
		count_error(w, s, ENXIO);
		validate_done(w, s, 0);
		return 1;
	}
	s->done += (uint32_t)e->res;
	if (s->done < s->len) {
		if (reissue(w, e->slot) == 0)
			return 0;
		validate_done(w, s, 0);
		return 1;
	}
	validate_done(w, s, 1);
	iv->ops[s->write]++;
	iv->bytes[s->write] += s->len;
	hist_add(&iv->rec[s->rec + s->write], now - s->start);
	return 1;
}

/*
 * Validation at the end: a drained write that completed whole keeps its
 * generations, any other leaves its blocks unknown (so no later read can
 * call the device wrong about them); reads are not verified any more.
 */
static void drain_validate(struct worker *w, const struct engine_cqe *e)
{
	struct slot *s = &w->slots[e->slot];

	if (!s->busy)
		return;
	s->done += e->res > 0 ? (uint32_t)e->res : 0;
	if (!s->write) {
		s->busy = 0;
		return;
	}
	validate_done(w, s, e->res > 0 && s->done == s->len);
}

/* Wait for everything in flight; nothing is counted any more. */
static void drain(struct worker *w, unsigned inflight)
{
	const struct engine_ops *ops = w->cfg.engine;
	uint64_t deadline = time_mono_ns() + DRAIN_TIMEOUT_NS;

	while (inflight > 0 && time_mono_ns() < deadline) {
		int n;

		if (ops->submit(w->ectx, 1, 100 * NS_PER_MS) < 0)
			break;
		n = ops->reap(w->ectx, w->cqes, w->cfg.depth);
		if (n < 0)
			break;
		for (int k = 0; w->validating && k < n; k++)
			drain_validate(w, &w->cqes[k]);
		inflight -= (unsigned)n > inflight ? inflight : (unsigned)n;
	}
	if (!w->validating)
		return;
	/* Writes still in flight: what they leave behind is unknown. */
	for (unsigned j = 0; j < w->cfg.depth; j++)
		if (w->slots[j].busy && w->slots[j].write)
			validate_done(w, &w->slots[j], 0);
	valmap_io_flush(&w->val);
}

/*
 * Put I/O on one target's free slots while it is due: at once without a
 * rate, else at the intended times of its open-loop schedule (latency is
 * measured from them, so a device that stalls cannot hide its stall).
 */
static int fill_group(struct worker *w, struct tsched_group *g, uint64_t now)
{
	while (g->nfree > 0 && !g->idle) {
		uint64_t start;
		unsigned i;
		int ret;

		if (g->held) {
			/* An arrival a busy block held back goes first. */
			start = g->held_start;
			g->held = 0;
		} else if (!rate_take(&g->rate, now, &start)) {
			break;
		} else if (w->ts.fixed) {
			rate_lag_add(&w->cur->lag, start, g->free_since, now);
		}
		i = g->free[--g->nfree];
		ret = issue(w, i, start);
		if (ret == WORKLOAD_EOF) {
			w->retired++;
			continue;
		}
		if (ret == ISSUE_BUSY) {
			/* Its turn comes again once something completes. */
			g->free[g->nfree++] = i;
			g->held = 1;
			g->held_start = start;
			break;
		}
		if (ret < 0)
			return ret;
		w->inflight++;
	}
	return 0;
}

/* Put due I/O on free slots, each target on its own schedule. */
static int fill(struct worker *w, uint64_t now, uint64_t end)
{
	for (unsigned j = 0; j < w->ts.n && now < end; j++) {
		int ret = fill_group(w, &w->ts.g[j], now);

		if (ret < 0)
			return ret;
	}
	/* Intents and dones durable before the new writes are submitted. */
	if (w->validating)
		return valmap_io_flush(&w->val);
	return 0;
}

static uint64_t min_u64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

static int run(struct worker *w)
{
	const struct engine_ops *ops = w->cfg.engine;
	uint64_t I = w->cfg.interval_ns;
	uint64_t start = w->mono_start, next_b = start + I;
	unsigned lim = atomic_load(&w->limit);
	uint64_t end = start + I * (lim - w->first);
	unsigned seq = w->first;
	uint64_t now;
	int ret = 0;

	while (!atomic_load(&w->stop)) {
		now = time_mono_ns();
		if (now >= start)
			break;
		/* The last stretch to the common start: no late wake-up. */
		if (start - now <= 20 * NS_PER_MS)
			time_until_mono_precise(start, START_SPIN_NS);
		else
			time_sleep_ns(20 * NS_PER_MS);
	}
	if (atomic_load(&w->stop))
		return 0;
	w->cur->seq = seq;
	ret = tsched_start(&w->ts, w->dist, start, w->cfg.seed);
	if (ret < 0)
		return ret;
	replay_schedule(&w->ts, &w->wl);
	now = time_mono_ns();
	ret = fill(w, now, end);
	if (ret < 0)
		goto out;
	atomic_store(&w->first_io, now);
	w->runq_last = runq_read(w->runq_fd); /* after the first I/Os */

	while (!atomic_load(&w->stop)) {
		uint64_t wake = next_b > now ? next_b - now : 1;
		unsigned nr = 1;
		uint64_t t;
		int n;

		t = tsched_wait_ns(&w->ts, now);
		if (t != UINT64_MAX)
			wake = min_u64(wake, t + 1);
		if (w->inflight) {
			nr = reap_wait_nr(&w->reap, w->inflight, !w->ts.fixed,
					  &wake);
			/* The boundary once per interval, not in every wait. */
			if (ops->wake_at && w->wake_armed != next_b) {
				w->wake_armed = next_b;
				ops->wake_at(w->ectx, next_b);
			}
			ret = ops->submit(w->ectx, nr, wake);
		} else {
			time_sleep_ns(
				wake); /* idle: waiting for the schedule */
		}
		if (ret < 0)
			break;
		n = w->inflight ? ops->reap(w->ectx, w->cqes, w->cfg.depth) : 0;
		if (n < 0) {
			ret = n;
			break;
		}
		t = time_mono_ns();
		if (w->inflight)
			reap_seen(&w->reap, nr, (unsigned)n, t - now);
		now = t;
		w->inflight -= (unsigned)n;
		for (int k = 0; k < n; k++) {
			if (!complete(w, &w->cqes[k], now))
				w->inflight++; /* the rest is in flight again */
			else
				tsched_put(&w->ts, w->cqes[k].slot, now);
		}
		if (atomic_load(&w->limit) != lim) {
			lim = atomic_load(&w->limit);
			end = start + I * (lim > w->first ? lim - w->first : 0);
		}
		ret = fill(w, now, end);
		if (ret < 0)
			break;
		while (now >= next_b && seq < lim) {
			ret = roll_interval(w, ++seq);
			if (ret < 0)
				goto out;
			next_b += I;
		}
		if (seq >= lim)
			break;
		/* Every target finished its eof pass: the phase is over here. */
		if (w->retired == w->cfg.depth && !w->inflight) {
			ret = roll_interval(w, ++seq);
			atomic_store(&w->eof, 1);
			break;
		}
	}
out:
	drain(w, w->inflight);
	return ret;
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	int ret;

	/*
	 * Behind the session thread, before the ring (and its kernel
	 * workers, which inherit this) exists. Raising one's own nice value
	 * is always allowed, so this does not fail.
	 */
	(void)prio_restore();
	/* Woken at intended times: no 50 us of slack (this thread's only). */
	(void)prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
	w->runq_fd = runq_open();
	ret = setup(w);

	pthread_mutex_lock(&w->lock);
	w->setup_ret = ret;
	w->setup_done = 1;
	pthread_cond_broadcast(&w->cond);
	if (ret < 0) {
		pthread_mutex_unlock(&w->lock);
		return NULL;
	}
	while (!w->go && !atomic_load(&w->stop))
		pthread_cond_wait(&w->cond, &w->lock);
	pthread_mutex_unlock(&w->lock);
	if (!atomic_load(&w->stop))
		run(w);
	atomic_store(&w->finished, 1);
	notify(w);
	return NULL;
}

static void worker_free(struct worker *w)
{
	if (w->runq_fd >= 0)
		close(w->runq_fd);
	wival_free_list(w->head);
	wival_free_list(w->spare);
	if (w->ectx)
		w->cfg.engine->close(&w->ectx);
	if (w->bufs)
		for (unsigned i = 0; i < w->cfg.depth; i++)
			free(w->bufs[i]);
	free(w->bufs);
	free(w->slots);
	free(w->cqes);
	free(w->free);
	tsched_free(&w->ts);
	iotrace_close(w->iotrace);
	free(w->key);
	valmap_io_free(&w->val);
	wival_free(w->cur);
	free(w->split_target);
	free(w->rec_of);
	datagen_free(&w->dg);
	workload_free(&w->wl);
	pthread_mutex_destroy(&w->lock);
	pthread_cond_destroy(&w->cond);
	free(w);
}

int worker_start(const struct worker_cfg *cfg, struct worker **wp, char *err,
		 size_t errlen)
{
	struct worker *w = calloc(1, sizeof(*w));
	int ret;

	if (!w)
		return -ENOMEM;
	w->cfg = *cfg;
	w->runq_fd = -1;
	atomic_init(&w->limit, cfg->intervals);
	w->err = err;
	w->errlen = errlen;
	pthread_mutex_init(&w->lock, NULL);
	pthread_cond_init(&w->cond, NULL);
	ret = -pthread_create(&w->thread, NULL, worker_main, w);
	if (ret < 0) {
		snprintf(err, errlen, "cannot start worker: %s",
			 strerror(-ret));
		worker_free(w);
		return ret;
	}
	pthread_mutex_lock(&w->lock);
	while (!w->setup_done)
		pthread_cond_wait(&w->cond, &w->lock);
	ret = w->setup_ret;
	pthread_mutex_unlock(&w->lock);
	if (ret < 0) {
		if (!err[0])
			snprintf(err, errlen, "worker set-up: %s",
				 strerror(-ret));
		pthread_join(w->thread, NULL);
		worker_free(w);
		return ret;
	}
	*wp = w;
	return 0;
}

void worker_go(struct worker *w, uint64_t mono_start, unsigned first)
{
	pthread_mutex_lock(&w->lock);
	if (!w->go) {
		w->mono_start = mono_start;
		w->first = first < w->cfg.intervals ? first : 0;
		w->go = 1;
		pthread_cond_broadcast(&w->cond);
	}
	pthread_mutex_unlock(&w->lock);
}

void worker_set_end(struct worker *w, unsigned intervals)
{
	if (intervals && intervals < atomic_load(&w->limit))
		atomic_store(&w->limit, intervals);
}

void worker_stop(struct worker *w)
{
	atomic_store(&w->stop, 1);
	pthread_mutex_lock(&w->lock);
	pthread_cond_broadcast(&w->cond);
	pthread_mutex_unlock(&w->lock);
}

struct worker_interval *worker_pop(struct worker *w)
{
	struct worker_interval *iv;

	pthread_mutex_lock(&w->lock);
	iv = w->head;
	if (iv) {
		w->head = iv->next;
		if (!w->head)
			w->tail = NULL;
		iv->next = NULL;
	}
	pthread_mutex_unlock(&w->lock);
	if (iv)
		wival_fold(iv);
	return iv;
}

void worker_release(struct worker *w, struct worker_interval *iv)
{
	/* Cleared here, on the session thread, off the I/O path. */
	wival_clear(iv);
	pthread_mutex_lock(&w->lock);
	iv->next = w->spare;
	w->spare = iv;
	pthread_mutex_unlock(&w->lock);
}

int worker_finished(struct worker *w)
{
	return atomic_load(&w->finished);
}

int worker_eof(struct worker *w)
{
	return atomic_load(&w->eof);
}

uint64_t worker_first_io(struct worker *w)
{
	return (uint64_t)atomic_load(&w->first_io);
}

const char *worker_describe(struct worker *w)
{
	return w->desc;
}

void worker_join(struct worker **wp)
{
	struct worker *w = *wp;

	if (!w)
		return;
	worker_stop(w);
	pthread_join(w->thread, NULL);
	worker_free(w);
	*wp = NULL;
}
