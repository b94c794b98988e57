/*
 * The threads of a file-system phase (fsint.h): the format of every fsd
 * through slave/anchor.h (anchor_format.c, anchor.c), and the fwds'
 * operations. Every path is opened beneath the fsd's tree with
 * anchor_openat (openat2 RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS); an
 * operation on a name (delete, mkdir, rmdir, getattr, setattr, access)
 * acts on it in its folder opened that way, and never follows a link as
 * its last component. Plain system calls, one operation in flight per
 * thread (fwd.threads threads per fwd).
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
#include "slave/fsval.h"

/* The interval an operation that ended at t1 counts in (under the lock). */
static struct fs_stat *stat_at(struct fsphase *fs, uint64_t t1)
{
	unsigned seq;

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
	return &fs->ring[seq % FS_RING];
}

void fs_record(struct fsphase *fs, uint32_t op, unsigned fsd, uint64_t t0,
	       uint64_t t1, uint64_t bytes, int err)
{
	uint64_t lat = t1 > t0 ? t1 - t0 : 0;
	struct fs_stat *st;

	pthread_mutex_lock(&fs->lock);
	st = stat_at(fs, t1);
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

/*
 * A read at t1 of fsd found bad blocks that do not hold what the key map
 * says: each counts as an error (data_errors=), as a block read's do.
 */
static void count_mismatches(struct fsphase *fs, unsigned fsd, uint64_t t1,
			     unsigned bad)
{
	struct fs_stat *st;

	pthread_mutex_lock(&fs->lock);
	st = stat_at(fs, t1);
	st->errors += bad;
	st->last_err = EILSEQ;
	st->last_op = PROTO_FSOP_READ;
	st->last_fsd = fsd;
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

/*
 * fwd rate=: the thread's next operation waits for its turn. A turn is
 * what Vdbench's FwgThread takes one permit for: one transfer of a read
 * or write fwd (its file stays open across them), one whole operation
 * of every other (a create's open, writes and close are one).
 */
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

/* Whether the fwd's turns are its transfers rather than its picks. */
static int paces_transfers(const struct proto_fwd *w)
{
	return w->rate > 0 &&
	       (w->op == PROTO_FSOP_READ || w->op == PROTO_FSOP_WRITE);
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

/* validate=yes: a format write's headers, and its result in the map. */
static int format_stamp(void *arg, uint64_t file, void *buf, uint64_t at,
			size_t n)
{
	struct fs_thread *th = arg;

	/* A journal error stops the format before the write goes out. */
	return fsval_stamp(th->fs->val[th->fwd], file, buf, at, n,
			   th->fs->slave_id, time_real_ns());
}

/* The open(2) flags of PROTO_O_* bits (the master's choice). */
static int oflags_of(uint32_t bits)
{
	int fl = 0;

	if (bits & PROTO_O_DIRECT)
		fl |= O_DIRECT;
	if (bits & PROTO_O_DSYNC)
		fl |= O_DSYNC;
	if (bits & PROTO_O_SYNC)
		fl |= O_SYNC;
	return fl;
}

/* An fwd's opens of data. */
static int open_flags(const struct proto_fwd *w)
{
	return oflags_of(w->openflags);
}

static void format_wrote(void *arg, uint64_t file, uint64_t at, size_t n,
			 int64_t got)
{
	struct fs_thread *th = arg;

	fsval_wrote(th->fs->val[th->fwd], file, at, n, got);
}

/*
 * The format of fsd th->fwd (format=yes, restart, clean): a thread an
 * fsd, all at once, each running its fd[].ft threads (anchor_format), as
 * Vdbench runs every anchor's format threads side by side. The first
 * error stops the other fsds' formats too (a stop is -ECANCELED, not
 * an error), as the format of the fsds in turn did not go on.
 */
void *fs_format_thread(void *arg)
{
	struct fs_thread *th = arg;
	struct fsphase *fs = th->fs;
	const struct proto_plan *plan = fs->plan;
	const unsigned i = th->fwd; /* the fsd, also of its events */
	const struct proto_fsd *f = &plan->fsds[i];
	char err[PROTO_TEXT_LEN] = "";
	int ret = 0;
	struct anchor_run run = {
		.note = format_note,
		.arg = th,
		.stop = &fs->stop,
		.share_no = f->share_no,
		.share_count = f->share_count,
		.only = fs->tree[i].total,
		.dirs_only = (f->format_flags & PROTO_FSFMT_DIRS) != 0,
		.xfer = f->format_xfer,
		.threads = f->format_threads,
		.oflags = oflags_of(f->openflags),
	};
	struct anchor_stats st = { .run = &run };

	if (fs_wait_go(fs) < 0)
		goto out;
	if (fs->val) {
		run.stamp = format_stamp;
		run.wrote = format_wrote;
		/* A clean deletes, a format rewrites or keeps. */
		if (f->format != PROTO_FSFMT_RESTART)
			fsval_forget_all(fs->val[i]);
	}
	if (f->format == PROTO_FSFMT_YES || f->format == PROTO_FSFMT_RESTART)
		ret = anchor_format(fs->dirfd[i], fs->path[i], &fs->shape[i],
				    f->format == PROTO_FSFMT_RESTART, &st, err,
				    sizeof(err));
	else if (f->format == PROTO_FSFMT_CLEAN)
		ret = anchor_clean(fs->dirfd[i], fs->path[i], &fs->shape[i],
				   &st, err, sizeof(err));
	if (ret && ret != -ECANCELED) {
		pthread_mutex_lock(&fs->lock);
		if (!fs->status) {
			fs->status = ret;
			snprintf(fs->err, sizeof(fs->err), "fsd %s: %s",
				 f->name, err[0] ? err : strerror(-ret));
		}
		fs->stop = 1;
		pthread_cond_broadcast(&fs->cond);
		pthread_mutex_unlock(&fs->lock);
	}
out:
	tell_done(fs);
	return NULL;
}

/*
 * Folder d of tree fsd (UINT32_MAX: the tree's top) opened beneath it:
 * from the thread's cache when the fsd's folders stay (fs->dcache), else
 * opened now (*own: the caller closes it). The open is part of the
 * operation's latency, as it is of Vdbench's (a path lookup).
 */
static int dir_open(struct fs_thread *th, unsigned fsd, uint32_t d, int *own)
{
	struct fsphase *fs = th->fs;
	struct fs_dirfd *c = &th->dc[(d * 31u + fsd) % FS_DIRCACHE];
	int fd;

	*own = 0;
	if (d == UINT32_MAX)
		return fs->dirfd[fsd];
	if (fs->dcache[fsd] && c->fd >= 0 && c->fsd == fsd && c->dir == d)
		return c->fd;
	fd = fsring_open(&th->ring, fs->dirfd[fsd],
			 fsplan_dir_path(&fs->tree[fsd], d),
			 O_PATH | O_DIRECTORY, 0);
	if (fd < 0 || !fs->dcache[fsd]) {
		*own = fd >= 0;
		return fd;
	}
	if (c->fd >= 0)
		close(c->fd);
	c->fd = fd;
	c->fsd = fsd;
	c->dir = d;
	return fd;
}

void fs_dir_close(struct fs_thread *th)
{
	for (unsigned c = 0; c < FS_DIRCACHE; c++) {
		if (th->dc[c].fd >= 0)
			close(th->dc[c].fd);
		th->dc[c].fd = -1;
	}
}

/* The folder and last name of entry i of tree fsd (a file, or a folder). */
static int entry_at(struct fs_thread *th, unsigned fsd, int dirs, uint64_t i,
		    char *name, size_t len, int *own)
{
	const struct fsplan_tree *t = &th->fs->tree[fsd];
	uint32_t d;

	if (dirs) {
		const char *p = fsplan_dir_path(t, (uint32_t)i);
		const char *slash = strrchr(p, '/');

		snprintf(name, len, "%s", slash ? slash + 1 : p);
		d = t->dir_up[i];
	} else {
		snprintf(name, len, "vdb_f%04u.file", t->file_no[i]);
		d = t->file_dir[i];
	}
	return dir_open(th, fsd, d, own);
}

/* One operation on the name last in folder pfd (not a transfer). */
static int name_op(struct fsring *r, int pfd, uint32_t op, const char *last)
{
	struct statx sx;
	int ret = 0;

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
	return ret > 0 ? 0 : ret;
}

/*
 * The transfers of one selected file, on fd; -errno of the first error.
 * *resume (stopafter= with sequential fileio, else NULL): where the last
 * visit of the file stopped, and where this one stops.
 */
static int transfers(struct fs_thread *th, const struct proto_fwd *w,
		     unsigned fsd, int fd, uint64_t f, uint64_t size,
		     int create, uint64_t *resume)
{
	struct fsval_map *vm = th->fs->val ? th->fs->val[fsd] : NULL;
	struct fsphase *fs = th->fs;
	const struct fsplan_xfer *x = &fs->xfer[th->fwd];
	int rnd = !create && fsplan_random_io(w->fileio);
	int direct = (open_flags(w) & O_DIRECT) != 0; /* fsring_rw's */
	uint64_t at = resume && *resume < size ? *resume : 0, done = 0;
	int ret = 0;

	for (uint64_t k = 0; !fs->stop; k++) {
		uint32_t len = fsplan_xfer_size(x, &th->rng);
		int rd = !create && fsplan_reads(x, w->op, &th->rng);
		uint64_t t0, t1;
		unsigned bad;
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
		if (paces_transfers(w) && pace(fs, th->fwd, w->rate) < 0)
			break;
		/* A write its journal does not hold never goes out. */
		if (vm && !rd &&
		    (got = fsval_stamp(vm, f, th->buf, at, len, fs->slave_id,
				       time_real_ns())) < 0) {
			ret = (int)got;
			break;
		}
		t0 = time_mono_ns();
		got = fsring_rw(&th->ring, !rd, fd, th->buf, len, at, direct);
		t1 = time_mono_ns();
		/* Nothing at the offset: the file is shorter than its size
		   (a create cut short). Vdbench reads a file only to its
		   current size: a read that moved nothing is no read, and
		   a stopafter= visit goes on from the start next time. */
		if (!got && rd) {
			at = size;
			break;
		}
		fs_record(fs, rd ? PROTO_FSOP_READ : PROTO_FSOP_WRITE, fsd, t0,
			  t1, got > 0 ? (uint64_t)got : 0,
			  got < 0 ? (int)got : 0);
		if (vm && !rd)
			fsval_wrote(vm, f, at, len, got);
		else if (vm && got > 0 &&
			 (bad = fsval_verify(vm, f, th->buf, at,
					     (uint64_t)got)))
			count_mismatches(fs, fsd, t1, bad);
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

/*
 * fileio=(sequential,delete): file fi (name in folder pfd, the operation
 * began at *t0) deleted before its write, counted as a delete (Vdbench's
 * FileEntry.deleteFile); *t0 then the open's start. 0 (or -ENOENT: gone
 * already), else -errno: the file is still there.
 */
static int delete_first(struct fs_thread *th, const struct proto_fwd *w,
			int pfd, const char *name, uint64_t fi, uint64_t *t0)
{
	struct fsphase *fs = th->fs;
	int ret = pfd < 0 ? pfd :
			    name_op(&th->ring, pfd, PROTO_FSOP_DELETE, name);

	fs_record(fs, PROTO_FSOP_DELETE, w->fsd, *t0, time_mono_ns(), 0, ret);
	if (!ret && fs->val)
		fsval_forget(fs->val[w->fsd], fi);
	*t0 = time_mono_ns();
	return ret == -ENOENT ? 0 : ret;
}

/*
 * Open (or create) file fi, named name in folder pfd (its open began at
 * t0), transfer, close: a read, write or create. resume: transfers().
 * A write of fileio=(sequential,delete) deletes a whole file first
 * (delete_first), then creates it (O_CREAT | O_EXCL), counted as an open
 * and a create (Vdbench's openForWrite counts both, from one start); a
 * create that fails after the delete returns -ENOENT: the file is gone.
 */
static int file_op(struct fs_thread *th, const struct proto_fwd *w, int pfd,
		   const char *name, uint64_t fi, uint64_t size, uint64_t t0,
		   uint64_t *resume)
{
	struct fsphase *fs = th->fs;
	int create = w->op == PROTO_FSOP_CREATE, fl = open_flags(w);
	uint32_t op = create ? PROTO_FSOP_CREATE : PROTO_FSOP_OPEN;
	int anew = fsplan_delete_first(w, resume, size);
	int fd, ret = 0;

	if (anew && (ret = delete_first(th, w, pfd, name, fi, &t0)) < 0)
		return ret;
	if (create || anew)
		fl |= O_WRONLY | O_CREAT | O_EXCL;
	else if (w->mixed)
		fl |= O_RDWR;
	else if (w->op == PROTO_FSOP_WRITE)
		fl |= O_WRONLY;
	else
		fl |= O_RDONLY;
	fd = pfd < 0 ? pfd : fsring_open(&th->ring, pfd, name, fl, 0644);
	fs_record(fs, op, w->fsd, t0, time_mono_ns(), 0, fd < 0 ? fd : 0);
	if (anew)
		fs_record(fs, PROTO_FSOP_CREATE, w->fsd, t0, time_mono_ns(), 0,
			  fd < 0 ? fd : 0);
	if (fd < 0)
		return anew ? -ENOENT : fd;
	if (w->op == PROTO_FSOP_READ || w->op == PROTO_FSOP_WRITE || create)
		ret = transfers(th, w, w->fsd, fd, fi, size, create, resume);
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
	       !fsplan_random_io(w->fileio) &&
	       (w->op == PROTO_FSOP_READ || w->op == PROTO_FSOP_WRITE);
}

static int do_op(struct fs_thread *th, const struct proto_fwd *w, uint64_t i)
{
	struct fsphase *fs = th->fs;
	struct fsplan_tree *t = &fs->tree[w->fsd];
	char name[FSTREE_PATH_MAX];
	uint64_t t0 = time_mono_ns();
	int own, pfd, ret;

	pfd = entry_at(th, w->fsd, fsplan_op_dirs(w->op), i, name, sizeof(name),
		       &own);
	/* A file created or deleted holds nothing known (fsval.h). */
	if (fs->val &&
	    (w->op == PROTO_FSOP_CREATE || w->op == PROTO_FSOP_DELETE))
		fsval_forget(fs->val[w->fsd], i);
	switch (w->op) {
	case PROTO_FSOP_READ:
	case PROTO_FSOP_WRITE:
	case PROTO_FSOP_CREATE:
	case PROTO_FSOP_OPEN:
	case PROTO_FSOP_CLOSE:
		ret = file_op(th, w, pfd, name, i, t->file_size[i], t0,
			      resumes(w) && t->file_at ? &t->file_at[i] : NULL);
		break;
	default:
		ret = pfd < 0 ? pfd : name_op(&th->ring, pfd, w->op, name);
		fs_record(fs, w->op, w->fsd, t0, time_mono_ns(), 0, ret);
		break;
	}
	if (own)
		close(pfd);
	return ret;
}

/*
 * The data of a copy: the source (file i of fsd sf, sname in its folder
 * sp) read and the destination (made, O_EXCL) written in xfersize=
 * transfers to the source's size, each counted as a read or a write,
 * between their opens and closes. Not stopped part way: the tree is left with whole files.
 * *bytes: written; *dst_now: whether the destination exists now.
 */
static int copy_data(struct fs_thread *th, const struct proto_fwd *w,
		     uint64_t i, int sp, const char *sname, int dp,
		     const char *dname, uint64_t *bytes, int *dst_now)
{
	struct fsphase *fs = th->fs;
	struct fsring *r = &th->ring;
	unsigned sf = w->fsd, df = w->target;
	const struct fsplan_xfer *x = &fs->xfer[th->fwd];
	uint64_t size = fs->tree[sf].file_size[i], at = 0, t0;
	int direct = (open_flags(w) & O_DIRECT) != 0; /* fsring_rw's */
	int in, out, ret = 0, c;

	t0 = time_mono_ns();
	in = fsring_open(r, sp, sname, O_RDONLY | open_flags(w), 0);
	fs_record(fs, PROTO_FSOP_OPEN, sf, t0, time_mono_ns(), 0,
		  in < 0 ? in : 0);
	if (in < 0)
		return in;
	t0 = time_mono_ns();
	out = fsring_open(r, dp, dname,
			  O_WRONLY | O_CREAT | O_EXCL | open_flags(w), 0644);
	fs_record(fs, PROTO_FSOP_OPEN, df, t0, time_mono_ns(), 0,
		  out < 0 ? out : 0);
	*dst_now = out >= 0 || out == -EEXIST;
	if (out < 0)
		ret = out;
	while (out >= 0 && at < size) {
		uint32_t len = fsplan_xfer_size(x, &th->rng);
		ssize_t got, put;

		if (len > size - at)
			len = (uint32_t)(size - at);
		t0 = time_mono_ns();
		got = fsring_rw(r, 0, in, th->buf, len, at, direct);
		fs_record(fs, PROTO_FSOP_READ, sf, t0, time_mono_ns(),
			  got > 0 ? (uint64_t)got : 0, got < 0 ? (int)got : 0);
		if (got <= 0) {
			ret = (int)got; /* 0: a shorter source, copied */
			break;
		}
		t0 = time_mono_ns();
		put = fsring_rw(r, 1, out, th->buf, (size_t)got, at, direct);
		fs_record(fs, PROTO_FSOP_WRITE, df, t0, time_mono_ns(),
			  put > 0 ? (uint64_t)put : 0, put < 0 ? (int)put : 0);
		if (put < 0 || put < got) {
			ret = put < 0 ? (int)put : -EIO;
			break;
		}
		at += (uint64_t)put;
		*bytes += (uint64_t)put;
	}
	if (out >= 0) {
		t0 = time_mono_ns();
		c = fsring_close(r, out);
		fs_record(fs, PROTO_FSOP_CLOSE, df, t0, time_mono_ns(), 0,
			  c < 0 ? c : 0);
		if (c < 0 && !ret)
			ret = c;
	}
	t0 = time_mono_ns();
	c = fsring_close(r, in);
	fs_record(fs, PROTO_FSOP_CLOSE, sf, t0, time_mono_ns(), 0,
		  c < 0 ? c : 0);
	return ret;
}

/*
 * A copy or move of file i of w's fsd to file i of its target= fsd (the
 * file of the same relative name, Vdbench's OpCopy): an existing
 * destination is deleted first (counted as a delete, as Vdbench's
 * deleteFile); a copy then copies the data (copy_data), a move renames
 * the file (IORING_OP_RENAMEAT, or renameat2) from its folder to the
 * destination's, both opened beneath their anchors. The copy or move is
 * counted with its latency (a copy's from its first open to its last
 * close) and a copy with the bytes it wrote. *dst_now: in, whether the
 * destination existed; out, whether it exists.
 */
static int pair_op(struct fs_thread *th, const struct proto_fwd *w, uint64_t i,
		   int *dst_now)
{
	struct fsphase *fs = th->fs;
	unsigned sf = w->fsd, df = w->target;
	char sname[32], dname[32];
	uint64_t t0 = time_mono_ns(), bytes = 0;
	int sown, down, sp, dp, ret;

	dp = entry_at(th, df, 0, i, dname, sizeof(dname), &down);
	if (dp >= 0 && *dst_now) {
		ret = name_op(&th->ring, dp, PROTO_FSOP_DELETE, dname);
		fs_record(fs, PROTO_FSOP_DELETE, df, t0, time_mono_ns(), 0,
			  ret);
		if (ret < 0 && ret != -ENOENT)
			goto out_dst;
		*dst_now = 0;
		t0 = time_mono_ns();
	}
	sp = entry_at(th, sf, 0, i, sname, sizeof(sname), &sown);
	ret = sp < 0 ? sp : dp < 0 ? dp : 0;
	if (!ret && w->op == PROTO_FSOP_COPY) {
		ret = copy_data(th, w, i, sp, sname, dp, dname, &bytes,
				dst_now);
	} else if (!ret) {
		ret = fsring_renameat(&th->ring, sp, sname, dp, dname, 0);
		*dst_now = !ret;
	}
	fs_record(fs, w->op, sf, t0, time_mono_ns(), bytes, ret);
	if (sown)
		close(sp);
out_dst:
	if (down)
		close(dp);
	return ret;
}

/* One thread of a fwd: pick, operate, until the phase stops. */
void *fs_run_thread(void *arg)
{
	struct fs_thread *th = arg;
	struct fsphase *fs = th->fs;
	const struct proto_fwd *w = &fs->plan->fwds[th->fwd];
	struct fsplan_tree *t = &fs->tree[w->fsd];
	/* A copy's or move's destination tree (checked at prepare). */
	struct fsplan_tree *d = w->op == PROTO_FSOP_COPY ||
						w->op == PROTO_FSOP_MOVE ?
					&fs->tree[w->target] :
					NULL;
	const struct timespec nap = { 0, 1000000 };
	const struct fsplan_how how = {
		.op = w->op,
		.sel = w->fileselect,
		.midpoint = w->midpoint,
		.shared = w->fileio == PROTO_FILEIO_RANDOM_SHARED,
		.seen = fs->seen ? fs->seen[th->fwd] : NULL,
	};
	uint64_t i;
	int r, ret, dst_now = 0;

	fsring_init(&th->ring);
	if (fs_wait_go(fs) < 0)
		goto out;
	while (!fs->stop) {
		if (w->rate > 0 && !paces_transfers(w) &&
		    pace(fs, th->fwd, w->rate) < 0)
			break;
		pthread_mutex_lock(&fs->lock);
		r = fsplan_pick_how(t, d, &how, &fs->cursor[th->fwd], &th->rng,
				    &i);
		if (d && r == FSPLAN_PICKED)
			dst_now = fsplan_bit(d->fexist, i);
		pthread_mutex_unlock(&fs->lock);
		if (r == FSPLAN_DONE)
			break;
		if (r == FSPLAN_NONE) {
			/* Nothing this op may take now: another fwd will. */
			nanosleep(&nap, NULL);
			continue;
		}
		ret = d ? pair_op(th, w, i, &dst_now) : do_op(th, w, i);
		pthread_mutex_lock(&fs->lock);
		if (d)
			fsplan_done_pair(t, d, w->op, i, ret, dst_now);
		else
			fsplan_done(t, w->op, i, ret);
		pthread_mutex_unlock(&fs->lock);
	}
out:
	fs_dir_close(th);
	fsring_exit(&th->ring);
	tell_done(fs);
	return NULL;
}
