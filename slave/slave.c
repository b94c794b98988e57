/*
 * The slave session: registers with the master, answers clock pings, takes
 * a plan per phase (opens its targets, starts its workers), starts I/O at
 * the agreed time on its own corrected clock, sends one interval message per
 * interval (kept until the master acknowledges it), ends the phase, and
 * exits on stop. If the master falls silent past the master timeout, it
 * stops all I/O at once: an orphaned slave never keeps hammering storage.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <linux/fs.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#include <uuid/uuid.h>
#include "common/log.h"
#include "common/timeutil.h"
#include "proto/proto.h"
#include "slave/conn.h"
#include "slave/engine.h"
#include "slave/slave.h"
#include "slave/spool.h"
#include "slave/worker.h"

#define MAX_WORKERS 64
#define HELLO_RETRY_NS (1 * NS_PER_SEC)
#define RESEND_NS (3 * NS_PER_SEC)   /* unacknowledged this long: re-send */
#define RESEND_BATCH 64
#define FILL_CHUNK (1u << 20)

struct phase {
	int active;         /* a plan is prepared */
	int started;        /* go received */
	struct proto_plan plan;
	int *fds;
	uint64_t *size;
	unsigned nworkers;
	struct worker *workers[MAX_WORKERS];
	unsigned *slot_target[MAX_WORKERS];
	unsigned *slice[MAX_WORKERS]; /* per target: the worker's slice */
	unsigned *nslices;            /* per target: workers sharing it */
	int efd;
	uint64_t start_at;  /* master clock */
	struct worker_interval **acc; /* per seq, summed over workers */
	unsigned *accn;
	unsigned next_send;
	int wlast[MAX_WORKERS]; /* last interval seq a worker handed over */
	struct rusage ru_last;
	uint64_t ops, bytes, errors;
	struct hist *meas;  /* [2]: latency over the measured intervals sent */
	int status;         /* -EIO once data_errors was exceeded */
	int eof;            /* every worker ended with its eof pass done */
};

struct session {
	const char *endpoint;
	unsigned want_workers;
	int sqpoll;          /* --sqpoll: every ring gets a submission thread */
	struct conn *conn;
	struct proto_hello hello;
	int welcomed;
	uint64_t hb_ns, master_timeout_ns;
	uint64_t last_rx, last_tx, last_hello;
	struct phase ph;
	struct spool spool;
	int daemon;
	int quit;
	int exit_code;
};

static volatile sig_atomic_t got_signal;

static void on_signal(int sig)
{
	got_signal = sig;
}

static int send_msg(struct session *s, const struct proto_msg *m)
{
	void *buf;
	size_t len;
	int ret = proto_encode(m, &buf, &len);

	if (ret < 0) {
		log_error("cannot encode %s: %s", proto_type_name(m->type),
			  strerror(-ret));
		return ret;
	}
	ret = conn_send(s->conn, buf, len);
	free(buf);
	if (ret == 0)
		s->last_tx = time_mono_ns();
	return ret;
}

static void send_error(struct session *s, uint32_t phase, int code,
		       const char *text)
{
	struct proto_msg m = { .type = PROTO_ERROR };

	m.u.error.phase = phase;
	m.u.error.code = code;
	snprintf(m.u.error.message, sizeof(m.u.error.message), "%s", text);
	log_error("%s", text);
	send_msg(s, &m);
}

static void send_log(struct session *s, enum log_level lvl, const char *text)
{
	struct proto_msg m = { .type = PROTO_LOG };

	m.u.log.level = lvl;
	snprintf(m.u.log.message, sizeof(m.u.log.message), "%s", text);
	send_msg(s, &m);
}

/* ---- targets ---------------------------------------------------------- */

static int device_size(int fd, uint64_t *size)
{
	struct stat st;

	if (fstat(fd, &st) < 0)
		return -errno;
	if (S_ISBLK(st.st_mode)) {
		if (ioctl(fd, BLKGETSIZE64, size) < 0)
			return -errno;
		return 0;
	}
	*size = (uint64_t)st.st_size;
	return 0;
}

/*
 * Create or extend a file lun to size, writing real data (a sparse file
 * would read back holes, not storage). Slaves on one host share the file:
 * an exclusive flock makes the first one fill it and the others wait.
 */
/* Create the folders above a file lun, like mkdir -p of its dirname. */
static void make_parents(const char *path)
{
	char tmp[PROTO_PATH_LEN];

	snprintf(tmp, sizeof(tmp), "%s", path);
	for (char *p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = 0;
		mkdir(tmp, 0755);
		*p = '/';
	}
}

static int fill_fd(int fd, const char *path, uint64_t size, char *err,
		   size_t errlen)
{
	uint64_t have, seed = (uint64_t)getpid() * 0x9e3779b97f4a7c15ull;
	uint64_t *buf = NULL;
	int ret = 0;

	if (flock(fd, LOCK_EX) < 0 || device_size(fd, &have) < 0) {
		ret = -errno;
		goto out;
	}
	if (have >= size)
		goto out;
	buf = malloc(FILL_CHUNK);
	if (!buf) {
		ret = -ENOMEM;
		goto out;
	}
	log_info("creating %s (%llu MiB)", path,
		 (unsigned long long)(size >> 20));
	for (uint64_t off = have; off < size;) {
		size_t n = size - off < FILL_CHUNK ? size - off : FILL_CHUNK;
		ssize_t w;

		for (size_t k = 0; k < FILL_CHUNK / 8; k++) {
			seed ^= seed << 13;
			seed ^= seed >> 7;
			seed ^= seed << 17;
			buf[k] = seed;
		}
		w = pwrite(fd, buf, n, (off_t)off);
		if (w <= 0) {
			ret = w < 0 ? -errno : -EIO;
			break;
		}
		off += (uint64_t)w;
	}
	if (ret == 0 && fsync(fd) < 0)
		ret = -errno;
out:
	if (ret < 0)
		snprintf(err, errlen, "cannot create %s at %llu bytes: %s",
			 path, (unsigned long long)size, strerror(-ret));
	free(buf);
	close(fd);
	return ret;
}

static int fill_file(const char *path, uint64_t size, char *err,
		     size_t errlen)
{
	int fd, ret;

	make_parents(path);
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0) {
		ret = -errno;
		snprintf(err, errlen, "cannot create %s: %s", path,
			 strerror(-ret));
		return ret;
	}
	return fill_fd(fd, path, size, err, errlen);
}

/*
 * The alignment O_DIRECT needs on fd: the logical block size of a block
 * device, the file system's direct I/O alignment of a file (statx, 6.1+),
 * else 512.
 */
static unsigned direct_align(int fd)
{
	struct statx stx;
	int lbs;

	if (ioctl(fd, BLKSSZGET, &lbs) == 0 && lbs > 0)
		return (unsigned)lbs;
	if (statx(fd, "", AT_EMPTY_PATH, STATX_DIOALIGN, &stx) == 0 &&
	    (stx.stx_mask & STATX_DIOALIGN) && stx.stx_dio_offset_align)
		return stx.stx_dio_offset_align;
	return 512;
}

/* Every transfer size on an O_DIRECT target must be a multiple of align. */
static int check_align(const struct proto_plan *p, unsigned t, unsigned align,
		       char *err, size_t errlen)
{
	for (unsigned s = 0; s < p->nstreams; s++) {
		const struct proto_stream *ps = &p->streams[s];
		int uses = 0;

		for (unsigned k = 0; k < ps->ntargets; k++)
			uses |= ps->targets[k] == t;
		for (unsigned x = 0; uses && x < ps->nxfer; x++) {
			if (ps->xfer[x].size % align == 0)
				continue;
			snprintf(err, errlen,
				 "sd %s: xfersize %u of wd %s is not a multiple of %u, the alignment O_DIRECT needs on %s",
				 p->targets[t].name, ps->xfer[x].size, ps->name,
				 align, p->targets[t].path);
			return -EINVAL;
		}
	}
	return 0;
}

static int open_target(const struct proto_target *t, int need_write, int *fdp,
		       uint64_t *sizep, char *err, size_t errlen)
{
	int flags = (need_write ? O_RDWR : O_RDONLY) | O_CLOEXEC;
	uint64_t actual;
	struct stat st;
	int fd, ret;

	if (t->create && t->size &&
	    (stat(t->path, &st) < 0 ||
	     (S_ISREG(st.st_mode) && (uint64_t)st.st_size < t->size))) {
		ret = fill_file(t->path, t->size, err, errlen);
		if (ret < 0)
			return ret;
	}
	if (t->openflags & PROTO_O_DIRECT)
		flags |= O_DIRECT;
	if (t->openflags & PROTO_O_DSYNC)
		flags |= O_DSYNC;
	fd = open(t->path, flags);
	if (fd < 0) {
		ret = -errno;
		snprintf(err, errlen, "sd %s: cannot open %s%s: %s", t->name,
			 t->path,
			 ret == -EINVAL && (flags & O_DIRECT) ?
				 " with O_DIRECT" : "",
			 strerror(-ret));
		return ret;
	}
	ret = device_size(fd, &actual);
	if (ret < 0) {
		snprintf(err, errlen, "sd %s: cannot size %s: %s", t->name,
			 t->path, strerror(-ret));
		close(fd);
		return ret;
	}
	if (t->size > actual) {
		snprintf(err, errlen,
			 "sd %s: %s has %llu bytes, less than size=%llu",
			 t->name, t->path, (unsigned long long)actual,
			 (unsigned long long)t->size);
		close(fd);
		return -ENOSPC;
	}
	*sizep = t->size ? t->size : actual;
	*fdp = fd;
	return 0;
}

/* ---- phases ----------------------------------------------------------- */

static void phase_reset(struct phase *ph)
{
	for (unsigned i = 0; i < ph->nworkers; i++) {
		worker_join(&ph->workers[i]);
		free(ph->slot_target[i]);
		ph->slot_target[i] = NULL;
		free(ph->slice[i]);
		ph->slice[i] = NULL;
	}
	free(ph->nslices);
	if (ph->fds)
		for (unsigned t = 0; t < ph->plan.ntargets; t++)
			if (ph->fds[t] >= 0)
				close(ph->fds[t]);
	if (ph->acc)
		for (unsigned k = 0; k < ph->plan.intervals; k++)
			free(ph->acc[k]);
	free(ph->acc);
	free(ph->accn);
	free(ph->meas);
	free(ph->fds);
	free(ph->size);
	if (ph->efd >= 0)
		close(ph->efd);
	proto_msg_free(&(struct proto_msg){ .type = PROTO_PLAN,
					    .u.plan = ph->plan });
	memset(ph, 0, sizeof(*ph));
	ph->efd = -1;
}

static int target_writes(const struct proto_plan *p, unsigned t)
{
	for (unsigned s = 0; s < p->nstreams; s++)
		for (unsigned k = 0; k < p->streams[s].ntargets; k++)
			if (p->streams[s].targets[k] == t &&
			    p->streams[s].rdpct < 100)
				return 1;
	return 0;
}

/* Whether any slot's target asks for a kernel submission thread. */
static int slots_sqpoll(const struct proto_plan *p, const unsigned *target,
			unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		if (p->targets[target[i]].sqpoll)
			return 1;
	return 0;
}

/* Whether every slot's target is open with O_DIRECT. */
static int slots_direct(const struct proto_plan *p, const unsigned *target,
			unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		if (!(p->targets[target[i]].openflags & PROTO_O_DIRECT))
			return 0;
	return 1;
}

/* Spread every target's threads over the workers, round robin. */
static int assign_slots(struct phase *ph, unsigned *depth)
{
	unsigned total = 0, w = 0;

	for (unsigned t = 0; t < ph->plan.ntargets; t++)
		total += ph->plan.targets[t].threads;
	for (unsigned i = 0; i < ph->nworkers; i++) {
		ph->slot_target[i] = calloc(total ? total : 1, sizeof(unsigned));
		if (!ph->slot_target[i])
			return -ENOMEM;
		depth[i] = 0;
	}
	for (unsigned t = 0; t < ph->plan.ntargets; t++)
		for (unsigned k = 0; k < ph->plan.targets[t].threads; k++) {
			ph->slot_target[w][depth[w]++] = t;
			w = (w + 1) % ph->nworkers;
		}
	/* Workers that share a target each take a slice of its range. */
	ph->nslices = calloc(ph->plan.ntargets ? ph->plan.ntargets : 1,
			     sizeof(unsigned));
	if (!ph->nslices)
		return -ENOMEM;
	for (unsigned i = 0; i < ph->nworkers; i++) {
		ph->slice[i] = calloc(ph->plan.ntargets ? ph->plan.ntargets : 1,
				      sizeof(unsigned));
		if (!ph->slice[i])
			return -ENOMEM;
		for (unsigned t = 0; t < ph->plan.ntargets; t++) {
			int uses = 0;

			for (unsigned k = 0; k < depth[i]; k++)
				uses |= ph->slot_target[i][k] == t;
			ph->slice[i][t] = uses ? ph->nslices[t]++ : UINT_MAX;
		}
	}
	return 0;
}

static int phase_prepare(struct session *s, struct proto_plan *plan,
			 char *err, size_t errlen)
{
	struct phase *ph = &s->ph;
	const struct engine_ops *eng = engine_find(plan->engine);
	unsigned depth[MAX_WORKERS], total = 0;
	int ret;

	phase_reset(ph);
	ph->plan = *plan;
	memset(plan, 0, sizeof(*plan)); /* ownership moved into ph */
	plan = &ph->plan;
	if (!eng) {
		snprintf(err, errlen, "unknown engine '%s'", plan->engine);
		return -EINVAL;
	}
	for (unsigned t = 0; t < plan->ntargets; t++)
		total += plan->targets[t].threads;
	if (total == 0) {
		snprintf(err, errlen, "phase %s gives this slave no threads",
			 plan->name);
		return -EINVAL;
	}
	ph->nworkers = s->want_workers < total ? s->want_workers : total;
	if (ph->nworkers > MAX_WORKERS)
		ph->nworkers = MAX_WORKERS;
	ph->fds = malloc(sizeof(int) * (plan->ntargets ? plan->ntargets : 1));
	ph->size = calloc(plan->ntargets ? plan->ntargets : 1, sizeof(uint64_t));
	ph->acc = calloc(plan->intervals ? plan->intervals : 1,
			 sizeof(*ph->acc));
	ph->accn = calloc(plan->intervals ? plan->intervals : 1,
			  sizeof(*ph->accn));
	ph->meas = malloc(2 * sizeof(*ph->meas));
	ph->efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (!ph->fds || !ph->size || !ph->acc || !ph->accn || !ph->meas ||
	    ph->efd < 0) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	hist_init(&ph->meas[0]);
	hist_init(&ph->meas[1]);
	for (unsigned t = 0; t < plan->ntargets; t++)
		ph->fds[t] = -1;
	for (unsigned t = 0; t < plan->ntargets; t++) {
		ret = open_target(&plan->targets[t], target_writes(plan, t),
				  &ph->fds[t], &ph->size[t], err, errlen);
		if (ret == 0 && (plan->targets[t].openflags & PROTO_O_DIRECT))
			ret = check_align(plan, t, direct_align(ph->fds[t]),
					  err, errlen);
		if (ret < 0)
			return ret;
	}
	ret = assign_slots(ph, depth);
	if (ret < 0)
		return ret;
	for (unsigned i = 0; i < ph->nworkers; i++) {
		struct worker_cfg wc = {
			.engine = eng,
			.nfiles = plan->ntargets,
			.fds = ph->fds,
			.depth = depth[i],
			.slot_target = ph->slot_target[i],
			.plan = plan,
			.target_size = ph->size,
			.slice = ph->slice[i],
			.nslices = ph->nslices,
			.seed = time_real_ns() ^ ((uint64_t)getpid() << 20) ^ i,
			.interval_ns = plan->interval_ns,
			.intervals = plan->intervals,
			.iorate = plan->iorate * depth[i] / total,
			.engine_flags = (s->sqpoll || slots_sqpoll(plan,
							ph->slot_target[i],
							depth[i]) ?
						 ENGINE_SQPOLL : 0) |
					(slots_direct(plan, ph->slot_target[i],
						      depth[i]) ?
						 ENGINE_DIRECT : 0),
			.notify_fd = ph->efd,
		};

		ret = worker_start(&wc, &ph->workers[i], err, errlen);
		if (ret < 0)
			return ret;
	}
	ph->active = 1;
	log_debug("phase %u (%s) ready: %u targets, %u workers, %s",
		  plan->phase, plan->name, plan->ntargets, ph->nworkers,
		  worker_describe(ph->workers[0]));
	return 0;
}

static void phase_go(struct session *s, const struct proto_go *go)
{
	struct phase *ph = &s->ph;
	int64_t slave_start, delta;
	uint64_t now_mono, now_real, mono_start;

	if (!ph->active || ph->started || go->phase != ph->plan.phase)
		return;
	ph->started = 1;
	ph->start_at = go->start_at;
	now_mono = time_mono_ns();
	now_real = time_real_ns();
	slave_start = (int64_t)go->start_at + ph->plan.clock_offset_ns;
	delta = slave_start - (int64_t)now_real;
	mono_start = delta > 0 ? now_mono + (uint64_t)delta : now_mono;
	getrusage(RUSAGE_SELF, &ph->ru_last);
	for (unsigned i = 0; i < ph->nworkers; i++)
		worker_go(ph->workers[i], mono_start);
}

static uint64_t tv_ns(const struct timeval *tv)
{
	return (uint64_t)tv->tv_sec * NS_PER_SEC + (uint64_t)tv->tv_usec * 1000;
}

/* Master-clock time of a CLOCK_MONOTONIC instant on this slave. */
static uint64_t mono_to_master(const struct phase *ph, uint64_t mono)
{
	int64_t real = (int64_t)mono +
		       ((int64_t)time_real_ns() - (int64_t)time_mono_ns());

	return (uint64_t)(real - ph->plan.clock_offset_ns);
}

static uint64_t first_io_master(const struct phase *ph)
{
	uint64_t first = 0;

	for (unsigned i = 0; i < ph->nworkers; i++) {
		uint64_t f = worker_first_io(ph->workers[i]);

		if (f && (!first || f < first))
			first = f;
	}
	return first ? mono_to_master(ph, first) : 0;
}

static void send_interval(struct session *s, struct worker_interval *iv)
{
	struct phase *ph = &s->ph;
	struct proto_msg m = { .type = PROTO_INTERVAL };
	struct proto_interval *pi = &m.u.interval;
	struct rusage ru;
	void *buf;
	size_t len;

	getrusage(RUSAGE_SELF, &ru);
	pi->phase = ph->plan.phase;
	pi->seq = iv->seq;
	pi->start_ns = ph->start_at + iv->seq * ph->plan.interval_ns;
	pi->end_ns = pi->start_ns + ph->plan.interval_ns;
	pi->first_io_ns = first_io_master(ph);
	for (int d = 0; d < 2; d++) {
		pi->ops[d] = iv->ops[d];
		pi->bytes[d] = iv->bytes[d];
		ph->ops += iv->ops[d];
		ph->bytes += iv->bytes[d];
		if (iv->seq >= ph->plan.warmup_intervals)
			hist_merge(&ph->meas[d], &iv->lat[d]);
	}
	pi->errors = iv->errors;
	ph->errors += iv->errors;
	pi->cpu_user_ns = tv_ns(&ru.ru_utime) - tv_ns(&ph->ru_last.ru_utime);
	pi->cpu_sys_ns = tv_ns(&ru.ru_stime) - tv_ns(&ph->ru_last.ru_stime);
	pi->cores = s->hello.cores;
	ph->ru_last = ru;
	if (hist_to_sparse(&iv->lat[0], &pi->lat[0]) < 0 ||
	    hist_to_sparse(&iv->lat[1], &pi->lat[1]) < 0 ||
	    proto_encode(&m, &buf, &len) < 0) {
		log_error("cannot encode interval %u", iv->seq);
		proto_msg_free(&m);
		return;
	}
	proto_msg_free(&m);
	/* At most one log line per sd per interval: errors are counted. */
	for (unsigned t = 0; t < iv->ntargets && t < ph->plan.ntargets; t++) {
		char text[PROTO_TEXT_LEN];

		if (!iv->target_errors[t])
			continue;
		if (t == iv->last_err_target)
			snprintf(text, sizeof(text),
				 "sd %s (%s): %llu I/O errors in interval %u, the last at offset %llu: %s",
				 ph->plan.targets[t].name,
				 ph->plan.targets[t].path,
				 (unsigned long long)iv->target_errors[t],
				 iv->seq + 1,
				 (unsigned long long)iv->last_err_offset,
				 strerror(iv->last_errno));
		else
			snprintf(text, sizeof(text),
				 "sd %s (%s): %llu I/O errors in interval %u",
				 ph->plan.targets[t].name,
				 ph->plan.targets[t].path,
				 (unsigned long long)iv->target_errors[t],
				 iv->seq + 1);
		send_log(s, LOG_WARN, text);
	}
	if (conn_send(s->conn, buf, len) == 0)
		s->last_tx = time_mono_ns();
	if (spool_add(&s->spool, pi->phase, pi->seq, buf, len, time_mono_ns()))
		log_warn("interval spool full: the oldest unacknowledged interval was dropped");
}

static void add_interval(struct worker_interval *dst,
			 const struct worker_interval *src)
{
	for (int d = 0; d < 2; d++) {
		dst->ops[d] += src->ops[d];
		dst->bytes[d] += src->bytes[d];
		hist_merge(&dst->lat[d], &src->lat[d]);
	}
	dst->errors += src->errors;
	for (unsigned t = 0; t < dst->ntargets && t < src->ntargets; t++)
		dst->target_errors[t] += src->target_errors[t];
	if (src->errors) {
		dst->last_errno = src->last_errno;
		dst->last_err_offset = src->last_err_offset;
		dst->last_err_target = src->last_err_target;
	}
}

static void phase_end(struct session *s)
{
	struct phase *ph = &s->ph;
	struct proto_msg m = { .type = PROTO_PHASE_END };

	m.u.phase_end.phase = ph->plan.phase;
	m.u.phase_end.intervals = ph->next_send;
	m.u.phase_end.ops = ph->ops;
	m.u.phase_end.bytes = ph->bytes;
	m.u.phase_end.errors = ph->errors;
	m.u.phase_end.first_io_ns = first_io_master(ph);
	m.u.phase_end.status = ph->status ? ph->status :
			       ph->next_send == ph->plan.intervals || ph->eof ?
							0 : -EIO;
	if (hist_to_sparse(&ph->meas[0], &m.u.phase_end.lat[0]) < 0 ||
	    hist_to_sparse(&ph->meas[1], &m.u.phase_end.lat[1]) < 0) {
		/* Sent empty: the master then reports no percentiles. */
		log_warn("out of memory for the phase's histograms");
		proto_msg_free(&m);
		memset(m.u.phase_end.lat, 0, sizeof(m.u.phase_end.lat));
	}
	send_msg(s, &m);
	proto_msg_free(&m);
	log_debug("phase %u ended: %u intervals, %llu ops", ph->plan.phase,
		  ph->next_send, (unsigned long long)ph->ops);
	phase_reset(ph);
}

/*
 * How many workers contribute to interval k: all, except those that ended
 * early (their eof pass done) before k.
 */
static unsigned workers_due(const struct phase *ph, unsigned k)
{
	unsigned n = 0;

	for (unsigned i = 0; i < ph->nworkers; i++)
		n += !(worker_finished(ph->workers[i]) &&
		       worker_eof(ph->workers[i]) && ph->wlast[i] < (int)k);
	return n;
}

/* Collect finished intervals from the workers; send the complete ones. */
static void phase_collect(struct session *s)
{
	struct phase *ph = &s->ph;
	uint64_t junk;
	int all_done = 1;

	if (read(ph->efd, &junk, sizeof(junk)) < 0 && errno != EAGAIN)
		log_warn("eventfd: %s", strerror(errno));
	for (unsigned i = 0; i < ph->nworkers; i++) {
		struct worker_interval *iv;

		while ((iv = worker_pop(ph->workers[i]))) {
			unsigned k = iv->seq;

			ph->wlast[i] = (int)k;
			if (k >= ph->plan.intervals) {
				free(iv);
				continue;
			}
			if (!ph->acc[k])
				ph->acc[k] = iv;
			else {
				add_interval(ph->acc[k], iv);
				free(iv);
			}
			ph->accn[k]++;
		}
		if (!worker_finished(ph->workers[i]))
			all_done = 0;
	}
	while (ph->next_send < ph->plan.intervals && ph->acc[ph->next_send] &&
	       ph->accn[ph->next_send] == workers_due(ph, ph->next_send)) {
		send_interval(s, ph->acc[ph->next_send]);
		free(ph->acc[ph->next_send]);
		ph->acc[ph->next_send] = NULL;
		ph->next_send++;
	}
	if (!ph->status && ph->plan.data_errors &&
	    ph->errors > ph->plan.data_errors) {
		char text[PROTO_TEXT_LEN];

		snprintf(text, sizeof(text),
			 "%llu I/O errors, more than data_errors=%u: this slave ends the phase",
			 (unsigned long long)ph->errors, ph->plan.data_errors);
		log_error("%s", text);
		send_log(s, LOG_ERROR, text);
		ph->status = -EIO;
		for (unsigned i = 0; i < ph->nworkers; i++)
			worker_stop(ph->workers[i]);
	}
	if (all_done) {
		ph->eof = 1;
		for (unsigned i = 0; i < ph->nworkers; i++)
			ph->eof &= worker_eof(ph->workers[i]);
		/* Nothing more comes: send what the early enders left. */
		while (ph->eof && ph->next_send < ph->plan.intervals &&
		       ph->acc[ph->next_send]) {
			send_interval(s, ph->acc[ph->next_send]);
			free(ph->acc[ph->next_send]);
			ph->acc[ph->next_send] = NULL;
			ph->next_send++;
		}
		phase_end(s);
	}
}

/* ---- messages ---------------------------------------------------------- */

static void on_plan(struct session *s, struct proto_plan *plan)
{
	char err[PROTO_TEXT_LEN] = "";
	uint32_t phase = plan->phase;
	int ret = phase_prepare(s, plan, err, sizeof(err));
	struct proto_msg m = { .type = PROTO_READY };

	if (ret < 0) {
		send_error(s, phase, ret, err);
		phase_reset(&s->ph);
		return;
	}
	m.u.ready.phase = phase;
	send_msg(s, &m);
}

/*
 * The run is over for this slave: the master said stop or abort, or fell
 * silent. I/O stops at once. A launched slave exits; a daemon forgets the
 * run and waits for a master (the same one coming back, or the next).
 */
static void session_over(struct session *s, const char *why, int code)
{
	if (s->welcomed) {
		struct proto_msg m = { .type = PROTO_BYE };

		snprintf(m.u.bye.reason, sizeof(m.u.bye.reason), "%s", why);
		send_msg(s, &m);
	}
	phase_reset(&s->ph);
	spool_free(&s->spool);
	s->welcomed = 0;
	if (!s->daemon) {
		s->quit = 1;
		s->exit_code = code;
		return;
	}
	s->last_rx = 0;
	s->last_hello = 0;
	log_info("%s; waiting for a master at %s", why, s->endpoint);
}

static void handle(struct session *s, int which, const void *buf, size_t len)
{
	struct proto_msg m, r = { 0 };
	char err[256];
	int ret = proto_decode(buf, len, &m, err, sizeof(err));

	if (ret < 0) {
		log_warn("dropped a bad frame from the master: %s", err);
		return;
	}
	if (which == CONN_DEALER)
		s->last_rx = time_mono_ns();
	switch (m.type) {
	case PROTO_WELCOME:
		s->welcomed = 1;
		s->hb_ns = m.u.welcome.heartbeat_ns;
		s->master_timeout_ns = m.u.welcome.master_timeout_ns;
		log_debug("registered as slave %u of run %s",
			  m.u.welcome.slave_index, m.u.welcome.run_id);
		break;
	case PROTO_PING:
		r.type = PROTO_PONG;
		r.u.pong.seq = m.u.ping.seq;
		r.u.pong.t1 = m.u.ping.t1;
		r.u.pong.t2 = time_real_ns();
		r.u.pong.t3 = time_real_ns();
		send_msg(s, &r);
		break;
	case PROTO_PLAN:
		on_plan(s, &m.u.plan);
		break;
	case PROTO_GO:
		if (s->ph.active && m.u.go.phase == s->ph.plan.phase) {
			phase_go(s, &m.u.go);
			r.type = PROTO_GO_ACK;
			r.u.go_ack.phase = m.u.go.phase;
			send_msg(s, &r);
		}
		break;
	case PROTO_ACK:
		spool_ack(&s->spool, m.u.ack.phase, m.u.ack.seq);
		break;
	case PROTO_STOP:
	case PROTO_ABORT:
		log_debug("master says %s: %s", proto_type_name(m.type),
			  m.u.stop.reason);
		session_over(s, m.type == PROTO_STOP ? "stopped" : "aborted",
			     0);
		break;
	case PROTO_HEARTBEAT:
		break;
	default:
		log_debug("ignored %s from the master", proto_type_name(m.type));
		break;
	}
	proto_msg_free(&m);
}

static void drain_socket(struct session *s, int which)
{
	void *buf;
	size_t len;

	while (!s->quit && conn_recv(s->conn, which, &buf, &len) == 0) {
		handle(s, which, buf, len);
		free(buf);
	}
}

static void tick(struct session *s)
{
	uint64_t now = time_mono_ns();
	struct proto_msg m = { 0 };

	if (!s->welcomed) {
		if (now - s->last_hello >= HELLO_RETRY_NS) {
			m.type = PROTO_HELLO;
			m.u.hello = s->hello;
			send_msg(s, &m);
			s->last_hello = now;
			if (!s->last_rx)
				s->last_rx = now;
		}
	} else {
		struct spool_item *it;

		for (int k = 0; k < RESEND_BATCH; k++) {
			it = spool_due(&s->spool, now, RESEND_NS);
			if (!it)
				break;
			if (conn_send(s->conn, it->buf, it->len) < 0)
				break;
			log_debug("re-sent interval %u of phase %u", it->seq,
				  it->phase);
			it->sent_ns = now;
		}
		/*
		 * While intervals flow they are the heartbeat: one sent a bit
		 * later than the last one plus hb_ns must not bring a
		 * heartbeat with it (a thousand slaves would double what the
		 * master receives), so in a phase silence must last a
		 * quarter longer.
		 */
		uint64_t quiet = s->hb_ns;

		if (s->ph.active && s->ph.next_send < s->ph.plan.intervals)
			quiet += s->hb_ns / 4;
		if (now - s->last_tx >= quiet) {
			m.type = PROTO_HEARTBEAT;
			m.u.heartbeat.now_ns = time_real_ns();
			send_msg(s, &m);
		}
	}
	/* A daemon waits for a master as long as it takes. */
	if (s->last_rx && (s->welcomed || !s->daemon) &&
	    now - s->last_rx > s->master_timeout_ns) {
		log_error("no word from the master at %s for %.1f s: stopping all I/O",
			  s->endpoint, (double)(now - s->last_rx) / 1e9);
		session_over(s, "master timeout", 2);
	}
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: lockstep slave --master tcp://HOST:PORT [options]\n"
		"  --master EP          the master's ROUTER endpoint (its PUB is PORT+1)\n"
		"  --name NAME          name of this slave (default HOST-PID)\n"
		"  --workers N          I/O threads, each with its own ring (default: one per core)\n"
		"  --master-timeout S   stop I/O after S seconds of silence (default 10)\n"
		"  --daemon             stay up across runs and master restarts\n"
		"  --sqpoll             kernel submission-queue polling on every ring\n"
		"  -v, --verbose        debug messages\n");
}

static int session_init(struct session *s, const char *name)
{
	uuid_t uu;
	char host[PROTO_HOST_LEN];
	const char *const *eng = engine_names();
	long cores = sysconf(_SC_NPROCESSORS_ONLN);

	uuid_generate(uu);
	uuid_unparse_lower(uu, s->hello.id);
	if (gethostname(host, sizeof(host)) < 0)
		snprintf(host, sizeof(host), "unknown");
	host[sizeof(host) - 1] = 0;
	snprintf(s->hello.host, sizeof(s->hello.host), "%s", host);
	if (name)
		snprintf(s->hello.name, sizeof(s->hello.name), "%s", name);
	else
		snprintf(s->hello.name, sizeof(s->hello.name), "%.40s-%d",
			 host, (int)getpid());
	s->hello.pid = (uint32_t)getpid();
	s->hello.cores = cores > 0 ? (uint32_t)cores : 1;
	snprintf(s->hello.version, sizeof(s->hello.version), "%s",
		 LOCKSTEP_VERSION);
	for (; *eng && s->hello.nengines < PROTO_MAX_ENGINES; eng++)
		snprintf(s->hello.engines[s->hello.nengines++], PROTO_NAME_LEN,
			 "%s", *eng);
	s->ph.efd = -1;
	s->hb_ns = NS_PER_SEC;
	return 0;
}

int slave_main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "master", required_argument, NULL, 'm' },
		{ "name", required_argument, NULL, 'n' },
		{ "workers", required_argument, NULL, 'W' },
		{ "master-timeout", required_argument, NULL, 'T' },
		{ "daemon", no_argument, NULL, 'D' },
		{ "sqpoll", no_argument, NULL, 'Q' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct session s = { 0 };
	const char *name = NULL;
	char err[512], prefix[96];
	double timeout_s = 10;
	long workers = 0; /* one per core */
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "m:n:W:T:vh", opts, NULL)) != -1) {
		char *end = NULL;

		switch (c) {
		case 'm':
			s.endpoint = optarg;
			break;
		case 'n':
			if (strlen(optarg) >= PROTO_NAME_LEN) {
				fprintf(stderr, "lockstep slave: --name is longer than %d characters\n",
					PROTO_NAME_LEN - 1);
				return 1;
			}
			name = optarg;
			break;
		case 'W':
			workers = strtol(optarg, &end, 10);
			if (*end || workers < 1 || workers > MAX_WORKERS) {
				fprintf(stderr, "lockstep slave: --workers wants 1..%d, not '%s'\n",
					MAX_WORKERS, optarg);
				return 1;
			}
			break;
		case 'T':
			timeout_s = strtod(optarg, &end);
			if (*end || !(timeout_s > 0)) {
				fprintf(stderr, "lockstep slave: --master-timeout wants seconds > 0, not '%s'\n",
					optarg);
				return 1;
			}
			break;
		case 'v':
			log_set_level(LOG_DEBUG);
			break;
		case 'D':
			s.daemon = 1;
			break;
		case 'Q':
			s.sqpoll = 1;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 1;
		}
	}
	if (!s.endpoint || optind != argc) {
		usage(stderr);
		return 1;
	}
	s.want_workers = workers ? (unsigned)workers :
				   (unsigned)sysconf(_SC_NPROCESSORS_ONLN);
	if (s.want_workers < 1)
		s.want_workers = 1;
	s.master_timeout_ns = (uint64_t)(timeout_s * 1e9);
	session_init(&s, name);
	snprintf(prefix, sizeof(prefix), "lockstep slave %s", s.hello.name);
	log_set_prefix(prefix);
	if (conn_open(s.endpoint, s.hello.id, &s.conn, err, sizeof(err)) < 0) {
		log_error("%s", err);
		return 1;
	}
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGPIPE, SIG_IGN);

	while (!s.quit && !got_signal) {
		int mask = conn_wait(s.conn, s.ph.active ? s.ph.efd : -1, 100);

		if (mask < 0) {
			log_error("poll: %s", strerror(-mask));
			s.exit_code = 1;
			break;
		}
		if (mask & CONN_DEALER)
			drain_socket(&s, CONN_DEALER);
		if (mask & CONN_SUB)
			drain_socket(&s, CONN_SUB);
		if (s.ph.active && s.ph.started)
			phase_collect(&s);
		if (!s.quit)
			tick(&s);
	}
	if (got_signal) {
		log_info("signal %d: stopping", (int)got_signal);
		s.daemon = 0;
		session_over(&s, "signal", 0);
	}
	conn_close(&s.conn, 200);
	return s.exit_code;
}
