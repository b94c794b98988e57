/*
 * The threads of a file-system phase (fsint.h): the format of every fsd
 * through slave/anchor.c, and the fwds' operations. Every path is opened
 * beneath the fsd's tree with anchor_openat (openat2 RESOLVE_BENEATH |
 * RESOLVE_NO_SYMLINKS); an operation on a name (delete, mkdir, rmdir,
 * getattr, setattr, access) acts on it in its folder opened that way, and
 * never follows a link as its last component. Plain system calls, one
 * operation in flight per thread (fwd.threads threads per fwd).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/timeutil.h"
#include "slave/anchor.h"
#include "slave/fsint.h"

void fs_record(struct fsphase *fs, uint32_t op, unsigned fsd, uint64_t t0,
	       uint64_t t1, uint64_t bytes, int err)
{
	uint64_t lat = t1 > t0 ? t1 - t0 : 0;
	struct fs_stat *st;
	unsigned seq;

	pthread_mutex_lock(&fs->lock);
	seq = fs->first +
	      (unsigned)(t1 > fs->mono_start ?
				 (t1 - fs->mono_start) / fs->interval_ns :
				 0);
	if (seq < fs->sent)
		seq = fs->sent;
	if (seq > fs->sent + FS_RING - 1)
		seq = fs->sent + FS_RING - 1;
	/* Done after the last interval's end (being stopped): its. */
	if (seq >= fs->plan->intervals && fs->plan->intervals)
		seq = fs->plan->intervals - 1 > fs->sent ?
			      fs->plan->intervals - 1 :
			      fs->sent;
	st = &fs->ring[seq % FS_RING];
	if (!fs->first_io)
		fs->first_io = t0;
	if (op <= PROTO_FSOP_WRITE) {
		if (!err) {
			st->ops[op]++;
			st->bytes[op] += bytes;
			hist_add(&st->lat[op], lat);
		}
	} else if (op < PROTO_FSOP_MAX) {
		st->n[op]++;
		st->b[op] += bytes;
		hist_add(&st->flat[op], lat);
		if (err)
			st->e[op]++;
	}
	if (err) {
		st->errors++;
		st->last_err = -err;
		st->last_op = op;
		st->last_fsd = fsd;
	}
	pthread_mutex_unlock(&fs->lock);
}

static void tell_done(struct fsphase *fs)
{
	uint64_t one = 1;

	atomic_fetch_sub(&fs->running, 1);
	if (write(fs->efd, &one, sizeof(one)) < 0) {
		/* The session polls every 100 ms at worst: it will see. */
	}
}

/* Sleep until monotonic time t, or until stopped: 0, or -1 stopped. */
static int sleep_until(struct fsphase *fs, uint64_t t)
{
	for (;;) {
		uint64_t now = time_mono_ns(), step;
		struct timespec ts;

		if (fs->stop)
			return -1;
		if (now >= t)
			return 0;
		step = t - now < 50000000u ? t - now : 50000000u;
		ts.tv_sec = (time_t)(step / 1000000000u);
		ts.tv_nsec = (long)(step % 1000000000u);
		nanosleep(&ts, NULL);
	}
}

int fs_wait_go(struct fsphase *fs)
{
	pthread_mutex_lock(&fs->lock);
	while (!fs->go && !fs->stop)
		pthread_cond_wait(&fs->cond, &fs->lock);
	pthread_mutex_unlock(&fs->lock);
	return sleep_until(fs, fs->mono_start);
}

static void format_note(void *arg, enum anchor_event ev, uint64_t lat_ns,
			uint64_t bytes, int err)
{
	static const uint32_t op[] = {
		[ANCHOR_EV_MKDIR] = PROTO_FSOP_MKDIR,
		[ANCHOR_EV_CREATE] = PROTO_FSOP_CREATE,
		[ANCHOR_EV_WRITE] = PROTO_FSOP_WRITE,
		[ANCHOR_EV_DELETE] = PROTO_FSOP_DELETE,
		[ANCHOR_EV_RMDIR] = PROTO_FSOP_RMDIR,
	};
	struct fs_thread *th = arg;
	uint64_t now = time_mono_ns();

	fs_record(th->fs, op[ev], th->fwd, now - lat_ns, now, bytes, err);
}

/* The format of every fsd in turn (format=yes, restart, clean). */
void *fs_format_thread(void *arg)
{
	struct fs_thread *th = arg;
	struct fsphase *fs = th->fs;
	const struct proto_plan *plan = fs->plan;
	char err[PROTO_TEXT_LEN] = "";
	int ret = 0;

	if (fs_wait_go(fs) < 0)
		goto out;
	for (unsigned i = 0; i < fs->nfsds && !ret && !fs->stop; i++) {
		const struct proto_fsd *f = &plan->fsds[i];
		struct anchor_run run = {
			.note = format_note,
			.arg = th,
			.stop = &fs->stop,
			.share_no = f->share_no,
			.share_count = f->share_count,
			.only = fs->tree[i].total,
		};
		struct anchor_stats st = { .run = &run };

		th->fwd = i; /* the fsd of its events */
		if (f->format == PROTO_FSFMT_YES ||
		    f->format == PROTO_FSFMT_RESTART)
			ret = anchor_format(fs->dirfd[i], fs->path[i],
					    &fs->shape[i],
					    f->format == PROTO_FSFMT_RESTART,
					    &st, err, sizeof(err));
		else if (f->format == PROTO_FSFMT_CLEAN)
			ret = anchor_clean(fs->dirfd[i], fs->path[i],
					   &fs->shape[i], &st, err,
					   sizeof(err));
		if (ret && ret != -ECANCELED) {
			pthread_mutex_lock(&fs->lock);
			fs->status = ret;
			snprintf(fs->err, sizeof(fs->err), "fsd %s: %s",
				 f->name, err[0] ? err : strerror(-ret));
			pthread_mutex_unlock(&fs->lock);
		}
	}
out:
	tell_done(fs);
	return NULL;
}

/* The folder of rel opened beneath dirfd (dirfd itself at the top). */
static int parent_of(struct fsring *r, int dirfd, const char *rel,
		     const char **last)
{
	char dir[FSTREE_PATH_MAX];
	const char *slash = strrchr(rel, '/');

	if (!slash) {
		*last = rel;
		return dirfd;
	}
	*last = slash + 1;
	memcpy(dir, rel, (size_t)(slash - rel));
	dir[slash - rel] = '\0';
	return fsring_open(r, dirfd, dir, O_PATH | O_DIRECTORY, 0);
}

/* One operation on the name rel (not a transfer): -errno or 0. */
static int name_op(struct fsring *r, int dirfd, uint32_t op, const char *rel)
{
	const char *last;
	struct statx sx;
	int pfd = parent_of(r, dirfd, rel, &last), ret = 0;

	if (pfd < 0)
		return pfd;
	switch (op) {
	case PROTO_FSOP_DELETE:
		ret = fsring_unlinkat(r, pfd, last, 0);
		break;
	case PROTO_FSOP_RMDIR:
		ret = fsring_unlinkat(r, pfd, last, AT_REMOVEDIR);
		break;
	case PROTO_FSOP_MKDIR:
		ret = fsring_mkdirat(r, pfd, last, 0755);
		break;
	case PROTO_FSOP_GETATTR:
		ret = fsring_statx(r, pfd, last, AT_SYMLINK_NOFOLLOW, &sx);
		break;
	case PROTO_FSOP_SETATTR:
		/* No io_uring opcode: the system call. */
		r->sys_ops++;
		ret = utimensat(pfd, last, NULL, AT_SYMLINK_NOFOLLOW) < 0 ?
			      -errno :
			      0;
		break;
	case PROTO_FSOP_ACCESS:
		r->sys_ops++;
		ret = faccessat(pfd, last, R_OK, AT_SYMLINK_NOFOLLOW) < 0 ?
			      -errno :
			      0;
		break;
	default:
		ret = -EOPNOTSUPP;
		break;
	}
	ret = ret > 0 ? 0 : ret;
	if (pfd != dirfd)
		close(pfd);
	return ret;
}

static int open_flags(const struct proto_fsd *f)
{
	int fl = 0;

	if (f->openflags & PROTO_O_DIRECT)
		fl |= O_DIRECT;
	if (f->openflags & PROTO_O_DSYNC)
		fl |= O_DSYNC;
	if (f->openflags & PROTO_O_SYNC)
		fl |= O_SYNC;
	return fl;
}

/*
 * The transfers of one selected file, on fd; -errno of the first error.
 * *resume (stopafter= with sequential fileio, else NULL): where the last
 * visit of the file stopped, and where this one stops.
 */
static int transfers(struct fs_thread *th, const struct proto_fwd *w,
		     unsigned fsd, int fd, uint64_t size, int create,
		     uint64_t *resume)
{
	struct fsphase *fs = th->fs;
	const struct fsplan_xfer *x = &fs->xfer[th->fwd];
	int rnd = !create && w->fileio == PROTO_FILEIO_RANDOM;
	uint64_t at = resume && *resume < size ? *resume : 0, done = 0;
	int ret = 0;

	for (uint64_t k = 0; !fs->stop; k++) {
		uint32_t len = fsplan_xfer_size(x, &th->rng);
		int rd = !create && fsplan_reads(x, w->op, &th->rng);
		uint64_t t0;
		ssize_t got;

		if (!create && k && fsplan_enough(w, size, x->max, k, done))
			break;
		if (rnd) {
			at = fsplan_random_offset(size, len, &th->rng);
		} else if (at >= size) {
			break;
		}
		if (size > at && len > size - at)
			len = (uint32_t)(size - at);
		if (!len)
			break;
		t0 = time_mono_ns();
		got = fsring_rw(&th->ring, !rd, fd, th->buf, len, at);
		fs_record(fs, rd ? PROTO_FSOP_READ : PROTO_FSOP_WRITE, fsd, t0,
			  time_mono_ns(), got > 0 ? (uint64_t)got : 0,
			  got < 0 ? (int)got : 0);
		if (got < 0 && !ret)
			ret = (int)got;
		if (got <= 0)
			break; /* an error, or the end of a shorter file */
		at += (uint64_t)got;
		done += (uint64_t)got;
	}
	if (resume)
		*resume = at;
	return ret;
}

/* Open (or create), transfer, close: a read, write or create. */
static int file_op(struct fs_thread *th, const struct proto_fwd *w,
		   const char *rel, uint64_t size, uint64_t *resume)
{
	struct fsphase *fs = th->fs;
	const struct proto_fsd *f = &fs->plan->fsds[w->fsd];
	int create = w->op == PROTO_FSOP_CREATE, fl = open_flags(f);
	uint32_t op = create ? PROTO_FSOP_CREATE : PROTO_FSOP_OPEN;
	uint64_t t0 = time_mono_ns();
	int fd, ret = 0;

	if (create)
		fl |= O_WRONLY | O_CREAT | O_EXCL;
	else if (w->mixed)
		fl |= O_RDWR;
	else if (w->op == PROTO_FSOP_WRITE)
		fl |= O_WRONLY;
	else
		fl |= O_RDONLY;
	fd = fsring_open(&th->ring, fs->dirfd[w->fsd], rel, fl, 0644);
	fs_record(fs, op, w->fsd, t0, time_mono_ns(), 0, fd < 0 ? fd : 0);
	if (fd < 0)
		return fd;
	if (w->op == PROTO_FSOP_READ || w->op == PROTO_FSOP_WRITE || create)
		ret = transfers(th, w, w->fsd, fd, size, create, resume);
	t0 = time_mono_ns();
	fd = fsring_close(&th->ring, fd);
	fs_record(fs, PROTO_FSOP_CLOSE, w->fsd, t0, time_mono_ns(), 0,
		  fd < 0 ? fd : 0);
	if (fd < 0 && !ret)
		ret = fd;
	return ret;
}

/* stopafter= on sequential reads or writes: a file goes on where it
 * stopped (Vdbench's ActiveFile: an append, from 0 after the end). */
static int resumes(const struct proto_fwd *w)
{
	return (w->stopafter || w->stopafter_pct) &&
	       w->fileio == PROTO_FILEIO_SEQ &&
	       (w->op == PROTO_FSOP_READ || w->op == PROTO_FSOP_WRITE);
}

static int do_op(struct fs_thread *th, const struct proto_fwd *w, uint64_t i)
{
	struct fsphase *fs = th->fs;
	const struct fsplan_tree *t = &fs->tree[w->fsd];
	char rel[FSTREE_PATH_MAX];
	uint64_t t0;
	int ret;

	if (fsplan_op_dirs(w->op)) {
		snprintf(rel, sizeof(rel), "%s",
			 fsplan_dir_path(t, (uint32_t)i));
	} else if (fsplan_file_path(t, i, rel, sizeof(rel)) < 0) {
		return -ENAMETOOLONG;
	}
	switch (w->op) {
	case PROTO_FSOP_READ:
	case PROTO_FSOP_WRITE:
	case PROTO_FSOP_CREATE:
	case PROTO_FSOP_OPEN:
	case PROTO_FSOP_CLOSE:
		return file_op(th, w, rel, t->file_size[i],
			       resumes(w) && t->file_at ? &t->file_at[i] :
							  NULL);
	default:
		t0 = time_mono_ns();
		ret = name_op(&th->ring, fs->dirfd[w->fsd], w->op, rel);
		fs_record(fs, w->op, w->fsd, t0, time_mono_ns(), 0, ret);
		return ret;
	}
}

/* fwd rate=: the thread's next operation waits for its turn. */
static int pace(struct fsphase *fs, unsigned fwd, double rate)
{
	uint64_t period = (uint64_t)(1e9 / rate), due;

	if (!period)
		return 0;
	pthread_mutex_lock(&fs->lock);
	if (!fs->next_due[fwd])
		fs->next_due[fwd] = fs->mono_start;
	due = fs->next_due[fwd];
	fs->next_due[fwd] += period;
	pthread_mutex_unlock(&fs->lock);
	return sleep_until(fs, due);
}

/* One thread of a fwd: pick, operate, until the phase stops. */
void *fs_run_thread(void *arg)
{
	struct fs_thread *th = arg;
	struct fsphase *fs = th->fs;
	const struct proto_fwd *w = &fs->plan->fwds[th->fwd];
	struct fsplan_tree *t = &fs->tree[w->fsd];
	const struct timespec nap = { 0, 1000000 };
	uint64_t i;
	int r, ret;

	fsring_init(&th->ring);
	if (fs_wait_go(fs) < 0)
		goto out;
	while (!fs->stop) {
		if (w->rate > 0 && pace(fs, th->fwd, w->rate) < 0)
			break;
		pthread_mutex_lock(&fs->lock);
		r = w->midpoint > 0 ?
			    fsplan_pick_skewed(t, w->op, w->midpoint,
					       &fs->cursor[th->fwd], &th->rng,
					       &i) :
			    fsplan_pick(t, w->op, w->fileselect,
					&fs->cursor[th->fwd], &th->rng, &i);
		pthread_mutex_unlock(&fs->lock);
		if (r == FSPLAN_DONE)
			break;
		if (r == FSPLAN_NONE) {
			/* Nothing this op may take now: another fwd will. */
			nanosleep(&nap, NULL);
			continue;
		}
		ret = do_op(th, w, i);
		pthread_mutex_lock(&fs->lock);
		fsplan_done(t, w->op, i, ret);
		pthread_mutex_unlock(&fs->lock);
	}
out:
	fsring_exit(&th->ring);
	tell_done(fs);
	return NULL;
}
