/*
 * The io_uring engine. One ring per worker thread, created on that thread.
 * Set-up is where the speed is: the ring is created with SINGLE_ISSUER and
 * DEFER_TASKRUN where the kernel has them (6.1+), else COOP_TASKRUN (5.19+),
 * else plain; the files are registered (fixed files) and every slot's buffer
 * is registered (fixed buffers) when the kernel allows, with a clean fallback
 * to plain reads and writes when it does not. Submission and reaping are
 * batched: one io_uring_submit_and_wait per loop, completions fetched with
 * io_uring_peek_batch_cqe.
 *
 * The worker's next interval boundary is a timeout request in the ring
 * (wake_at), armed once per interval, not a timeout argument to every
 * wait: the kernel arms and cancels an hrtimer for each wait given a
 * timeout, two locked timer-queue operations per I/O at QD1 (about 0.5 us
 * of a 7-8 us I/O on zram here, docs/PERFORMANCE.md). A wait that must end
 * before the armed request (a rate schedule's next arrival, a batched
 * wait's short bound) still passes its own limit.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>
#include <liburing.h>
#include "common/timeutil.h"
#include "slave/engine.h"

#define IOWQ_PER_CPU 2 /* io-wq workers per core for blocking devices */
#define IOWQ_ASYNC_PER_CPU 1 /* the same when requests are queued there */
/* user_data of the ring's own timeout request; slots are below it. */
#define TIMEOUT_TAG UINT64_MAX

struct uring_ctx {
	struct io_uring ring;
	unsigned depth;
	const int *fds;
	const unsigned char *async; /* per file: IOSQE_ASYNC; NULL: none */
	void *const *bufs;
	int fixed_files;
	int fixed_bufs;
	unsigned setup_flags;
	uint64_t armed;      /* deadline of the ring's timeout, 0 = none */
	int no_ring_timeout; /* the kernel refused one: limits per wait */
	struct __kernel_timespec armed_ts;
	struct io_uring_cqe **cqes;
	char desc[128];
};

static int uring_init_ring(struct uring_ctx *u, unsigned flags)
{
	static const unsigned tries[] = {
		IORING_SETUP_SQPOLL | IORING_SETUP_SINGLE_ISSUER,
		IORING_SETUP_SQPOLL,
		IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN,
		IORING_SETUP_COOP_TASKRUN,
		0,
	};
	int ret = -EINVAL;

	for (size_t i = 0; i < sizeof(tries) / sizeof(tries[0]); i++) {
		struct io_uring_params p;

		if ((tries[i] & IORING_SETUP_SQPOLL) && !(flags & ENGINE_SQPOLL))
			continue;
		memset(&p, 0, sizeof(p));
		p.flags = tries[i];
		p.sq_thread_idle = 1000; /* ms before the poller sleeps */
		/* One entry more than the slots: the timeout request. */
		ret = io_uring_queue_init_params(u->depth + 1, &u->ring, &p);
		if (ret == 0) {
			u->setup_flags = tries[i];
			return 0;
		}
		if (ret != -EINVAL)
			return ret;
	}
	return ret;
}

static int uring_open(const struct engine_cfg *cfg, void **ctx)
{
	struct uring_ctx *u = calloc(1, sizeof(*u));
	struct iovec *iov = NULL;
	int ret;

	if (!u)
		return -ENOMEM;
	u->depth = cfg->depth;
	u->fds = cfg->fds;
	u->bufs = cfg->bufs;
	for (unsigned i = 0; cfg->async && i < cfg->nfiles; i++)
		if (cfg->async[i] && (cfg->flags & ENGINE_DIRECT))
			u->async = cfg->async;
	u->cqes = calloc(cfg->depth, sizeof(*u->cqes));
	if (!u->cqes) {
		ret = -ENOMEM;
		goto err_free;
	}
	ret = uring_init_ring(u, cfg->flags);
	if (ret < 0)
		goto err_free;

	if (io_uring_register_files(&u->ring, cfg->fds, cfg->nfiles) == 0)
		u->fixed_files = 1;

	iov = calloc(cfg->depth, sizeof(*iov));
	if (!iov) {
		ret = -ENOMEM;
		goto err_ring;
	}
	for (unsigned i = 0; i < cfg->depth; i++) {
		iov[i].iov_base = cfg->bufs[i];
		iov[i].iov_len = cfg->buf_len;
	}
	/*
	 * Devices that cannot take I/O without blocking (zram, some other
	 * drivers) get their requests punted to io-wq worker threads; left
	 * alone, io-wq runs up to four per core, and on a few cores the
	 * context switches cost more than the I/O (zram: 30-50% more I/O per
	 * CPU-second with one per core). With O_DIRECT a punted request only
	 * blocks while it is submitted, not until it completes, so the queue
	 * depth stays what was asked; buffered I/O can block for the whole
	 * read, so it keeps the kernel's default.
	 *
	 * A file that cannot take I/O without blocking at all (cfg->async:
	 * zram, brd, tmpfs) has every request punted after a failed inline
	 * try, and io-wq adds a thread for a punted request only when none of
	 * its threads is running: one thread does all the device's work while
	 * the submitter waits (zram QD32: one core busy of two, 0.68x fio's
	 * IOPS). Queued with IOSQE_ASYNC the requests skip the failed try and
	 * io-wq runs them on a thread per core (docs/PERFORMANCE.md).
	 */
	if (cfg->flags & ENGINE_DIRECT) {
		long cpus = sysconf(_SC_NPROCESSORS_ONLN);
		unsigned vals[2] = { (unsigned)(cpus > 0 ? cpus : 1) *
					     (u->async ? IOWQ_ASYNC_PER_CPU :
							 IOWQ_PER_CPU),
				     0 };

		io_uring_register_iowq_max_workers(&u->ring, vals);
	}
	/* Registration fails past RLIMIT_MEMLOCK on old kernels: fall back. */
	if (io_uring_register_buffers(&u->ring, iov, cfg->depth) == 0)
		u->fixed_bufs = 1;
	free(iov);

	snprintf(u->desc, sizeof(u->desc), "%s%s%s%s",
		 u->setup_flags & IORING_SETUP_SQPOLL        ? "sqpoll" :
		 u->setup_flags & IORING_SETUP_DEFER_TASKRUN ? "defer-taskrun" :
		 u->setup_flags & IORING_SETUP_COOP_TASKRUN  ? "coop-taskrun" :
							       "plain-ring",
		 u->fixed_files ? ",fixed-files" : "",
		 u->fixed_bufs ? ",fixed-buffers" : "",
		 u->async ? ",io-wq-direct" : "");
	*ctx = u;
	return 0;

err_ring:
	io_uring_queue_exit(&u->ring);
err_free:
	free(u->cqes);
	free(u);
	return ret;
}

static int uring_prep(void *ctx, unsigned slot, unsigned file, int write,
		      uint32_t buf_off, uint32_t len, uint64_t offset)
{
	struct uring_ctx *u = ctx;
	struct io_uring_sqe *sqe = io_uring_get_sqe(&u->ring);
	int fd = u->fixed_files ? (int)file : u->fds[file];
	void *buf = (char *)u->bufs[slot] + buf_off;

	if (!sqe)
		return -EBUSY;
	if (u->fixed_bufs) {
		if (write)
			io_uring_prep_write_fixed(sqe, fd, buf, len, offset,
						  (int)slot);
		else
			io_uring_prep_read_fixed(sqe, fd, buf, len, offset,
						 (int)slot);
	} else {
		if (write)
			io_uring_prep_write(sqe, fd, buf, len, offset);
		else
			io_uring_prep_read(sqe, fd, buf, len, offset);
	}
	if (u->fixed_files)
		sqe->flags |= IOSQE_FIXED_FILE;
	if (u->async && u->async[file])
		sqe->flags |= IOSQE_ASYNC;
	io_uring_sqe_set_data64(sqe, slot);
	return 0;
}

/*
 * The worker's next interval boundary (CLOCK_MONOTONIC): a timeout request
 * queued now, to go out with the next submission. Returns 0, -EOPNOTSUPP
 * when the kernel refused one before, or -EBUSY without a free SQE (then
 * waits keep passing their own limits).
 */
static int uring_wake_at(void *ctx, uint64_t mono_ns)
{
	struct uring_ctx *u = ctx;
	struct io_uring_sqe *sqe;

	if (u->no_ring_timeout)
		return -EOPNOTSUPP;
	sqe = io_uring_get_sqe(&u->ring);
	if (!sqe)
		return -EBUSY;
	u->armed_ts.tv_sec = (long long)(mono_ns / 1000000000u);
	u->armed_ts.tv_nsec = (long long)(mono_ns % 1000000000u);
	io_uring_prep_timeout(sqe, &u->armed_ts, 0, IORING_TIMEOUT_ABS);
	io_uring_sqe_set_data64(sqe, TIMEOUT_TAG);
	u->armed = mono_ns;
	return 0;
}

static int uring_submit(void *ctx, unsigned wait_nr, uint64_t timeout_ns)
{
	struct uring_ctx *u = ctx;
	struct io_uring_cqe *cqe;
	struct __kernel_timespec ts;
	int ret;

	/*
	 * No limit asked, or the armed boundary comes first: the limit is
	 * measured from a moment before this call, so an armed boundary at or
	 * before now + timeout_ns ends the wait in time.
	 */
	if (timeout_ns == 0 ||
	    (u->armed && u->armed <= time_mono_ns() + timeout_ns)) {
		ret = io_uring_submit_and_wait(&u->ring, wait_nr);
	} else {
		ts.tv_sec = (long long)(timeout_ns / 1000000000u);
		ts.tv_nsec = (long long)(timeout_ns % 1000000000u);
		ret = io_uring_submit_and_wait_timeout(&u->ring, &cqe, wait_nr,
						       &ts, NULL);
	}
	if (ret == -ETIME || ret == -EINTR || ret == -EAGAIN ||
	    ret == -EBUSY)
		return 0;
	return ret < 0 ? ret : 0;
}

/*
 * A timeout request completed: -ETIME when it fired. A late one of an
 * earlier boundary leaves the armed (later) boundary alone; anything but
 * -ETIME means the kernel has no timeout requests.
 */
static void uring_timeout_done(struct uring_ctx *u, int res)
{
	if (res != -ETIME) {
		u->no_ring_timeout = 1;
		u->armed = 0;
	} else if (u->armed && u->armed <= time_mono_ns()) {
		u->armed = 0;
	}
}

static int uring_reap(void *ctx, struct engine_cqe *out, unsigned max)
{
	struct uring_ctx *u = ctx;
	unsigned n, got = 0;

	if (max > u->depth)
		max = u->depth;
	n = io_uring_peek_batch_cqe(&u->ring, u->cqes, max);
	for (unsigned i = 0; i < n; i++) {
		uint64_t tag = io_uring_cqe_get_data64(u->cqes[i]);

		if (tag == TIMEOUT_TAG) {
			uring_timeout_done(u, u->cqes[i]->res);
			continue;
		}
		out[got].slot = (unsigned)tag;
		out[got].res = u->cqes[i]->res;
		got++;
	}
	io_uring_cq_advance(&u->ring, n);
	return (int)got;
}

static void uring_close(void **ctx)
{
	struct uring_ctx *u = *ctx;

	if (!u)
		return;
	io_uring_queue_exit(&u->ring);
	free(u->cqes);
	free(u);
	*ctx = NULL;
}

static const char *uring_describe(void *ctx)
{
	return ((struct uring_ctx *)ctx)->desc;
}

const struct engine_ops engine_uring_ops = {
	.name = "io_uring",
	.open = uring_open,
	.prep = uring_prep,
	.submit = uring_submit,
	.wake_at = uring_wake_at,
	.reap = uring_reap,
	.close = uring_close,
	.describe = uring_describe,
};

/* Kernel features a ring reports (IORING_FEAT_*), by the names hosts shows. */
static const struct {
	unsigned flag;
	const char *name;
} uring_feats[] = {
	{ IORING_FEAT_SINGLE_MMAP, "single_mmap" },
	{ IORING_FEAT_NODROP, "nodrop" },
	{ IORING_FEAT_SUBMIT_STABLE, "submit_stable" },
	{ IORING_FEAT_RW_CUR_POS, "rw_cur_pos" },
	{ IORING_FEAT_FAST_POLL, "fast_poll" },
	{ IORING_FEAT_EXT_ARG, "ext_arg" },
	{ IORING_FEAT_NATIVE_WORKERS, "native_workers" },
	{ IORING_FEAT_RSRC_TAGS, "rsrc_tags" },
};

int engine_uring_probe(char *buf, size_t len)
{
	struct io_uring_params p = { 0 };
	struct io_uring ring;
	size_t used = 0;
	int ret = io_uring_queue_init_params(4, &ring, &p);

	if (len)
		buf[0] = 0;
	if (ret < 0)
		return ret;
	for (size_t i = 0; i < sizeof(uring_feats) / sizeof(uring_feats[0]);
	     i++)
		if ((p.features & uring_feats[i].flag) && used < len)
			used += (size_t)snprintf(buf + used, len - used, "%s%s",
						 used ? "," : "",
						 uring_feats[i].name);
	io_uring_queue_exit(&ring);
	return 0;
}
