/*
 * A file-system phase, the session's side (see fsphase.h): anchors,
 * trees, threads (fsops.c), and the intervals sent as they end.
 */
#include "slave/fsphase.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/log.h"
#include "common/timeutil.h"
#include "slave/anchor.h"
#include "slave/fsint.h"
#include "slave/fsval.h"
#include "slave/outbox.h"
#include "slave/safety.h"

/* Whether this slave's --allow lets it use anchor path (as a target). */
static int check_allow(const struct session *s, const struct proto_fsd *f,
		       char *err, size_t errlen)
{
	struct safety_verdict v;
	int ret;

	if (s->policy.none) {
		snprintf(err, errlen,
			 "fsd %s: anchor=%s: refused: this slave is a daemon started without --allow, so it accepts no anchors (restart it with --allow naming the folder)",
			 f->name, f->anchor);
		return -EPERM;
	}
	if (!s->policy.allow)
		return 0;
	ret = safety_allow_check(s->policy.allow, f->anchor, &v);
	if (ret < 0)
		snprintf(err, errlen,
			 "fsd %s: anchor=%s: %s; this slave's --allow limits what it opens",
			 f->name, f->anchor, v.reason);
	return ret;
}

/*
 * The fsd's tree: the anchor, or its subdir made (a format that makes
 * the tree) or opened beneath it, never through a link.
 */
static int open_tree(const struct proto_fsd *f, int make, char **path,
		     char *err, size_t errlen)
{
	char why[PROTO_TEXT_LEN];
	int fd = anchor_open(f->anchor, why, sizeof(why)), sub;

	if (fd < 0) {
		snprintf(err, errlen, "fsd %s: %s", f->name, why);
		return fd;
	}
	if (asprintf(path, "%s%s%s", f->anchor, f->subdir[0] ? "/" : "",
		     f->subdir) < 0) {
		*path = NULL;
		close(fd);
		return -ENOMEM;
	}
	if (!f->subdir[0])
		return fd;
	if (make && mkdirat(fd, f->subdir, 0755) < 0 && errno != EEXIST) {
		sub = -errno;
	} else {
		sub = anchor_openat(fd, f->subdir, O_RDONLY | O_DIRECTORY, 0);
	}
	close(fd);
	if (sub < 0)
		snprintf(err, errlen, "fsd %s: %s: %s%s", f->name, *path,
			 sub == -ELOOP ?
				 "a symbolic link; lockstep follows none" :
				 strerror(-sub),
			 sub == -ENOENT ? " (format the fsd first)" : "");
	return sub;
}

static void fsd_shape(const struct proto_fsd *f, struct fstree_shape *sh)
{
	memset(sh, 0, sizeof(*sh));
	sh->depth = f->depth;
	sh->width = f->width;
	sh->files = f->files;
	sh->dist = f->dist ? FSTREE_DIST_ALL : FSTREE_DIST_BOTTOM;
	sh->nsizes = f->nsizes;
	for (uint32_t k = 0; k < f->nsizes && k < FSTREE_SIZES_MAX; k++) {
		sh->size[k] = f->sizes[k].size;
		sh->pct[k] = (uint32_t)f->sizes[k].pct;
	}
	sh->average = f->average != 0;
	sh->seed = f->seed;
}

/* What exists of tree t under dirfd now (a run starts from it). */
static void scan_tree(struct fsplan_tree *t, int dirfd)
{
	uint32_t curd = UINT32_MAX;
	int cur = -1;

	for (uint32_t d = 0; d < t->ndirs; d++) {
		int fd = anchor_openat(dirfd, fsplan_dir_path(t, d),
				       O_PATH | O_DIRECTORY, 0);

		if (fd >= 0) {
			fsplan_set_dir(t, d, 1);
			close(fd);
		}
	}
	for (uint64_t f = 0; f < t->nfiles; f++) {
		char name[32];
		struct stat sb;

		if (t->file_dir[f] != curd) {
			if (cur >= 0)
				close(cur);
			curd = t->file_dir[f];
			cur = fsplan_bit(t->dexist, curd) ?
				      anchor_openat(dirfd,
						    fsplan_dir_path(t, curd),
						    O_PATH | O_DIRECTORY, 0) :
				      -1;
		}
		snprintf(name, sizeof(name), "vdb_f%04u.file", t->file_no[f]);
		if (cur >= 0 && !fstatat(cur, name, &sb, AT_SYMLINK_NOFOLLOW))
			fsplan_set_file(t, f, 1);
	}
	if (cur >= 0)
		close(cur);
}

/*
 * format=(no,complete): the tree is taken as there and full without
 * looking (Vdbench's FileEntry with format_complete_used), once its
 * marker says lockstep formatted this shape here.
 */
static int take_complete(const struct proto_fsd *f, struct fsplan_tree *t,
			 int dirfd, const char *path, char *err, size_t errlen)
{
	struct fstree_shape sh;
	int ret;

	fsd_shape(f, &sh);
	ret = anchor_marker(dirfd, &sh);
	if (ret == 1) {
		for (uint32_t d = 0; d < t->ndirs; d++)
			fsplan_set_dir(t, d, 1);
		for (uint64_t k = 0; k < t->nfiles; k++)
			fsplan_set_file(t, k, 1);
		return 0;
	}
	snprintf(err, errlen,
		 "fsd %s: format=(no,complete) takes the tree at %s as formatted, but %s: format it first",
		 f->name, path,
		 ret == 0 ? "it holds no " FSTREE_MARKER " of lockstep's" :
		 ret == -ESTALE ? "its " FSTREE_MARKER
				  " describes another tree" :
				  strerror(-ret));
	return ret == 0 || ret == -ESTALE ? -EINVAL : ret;
}

static const char *op_name(uint32_t op)
{
	static const char *const names[PROTO_FSOP_MAX] = {
		"read",   "write", "create", "delete",  "mkdir",
		"rmdir",  "open",  "close",  "getattr", "setattr",
		"access", "copy",  "move",
	};

	return op < PROTO_FSOP_MAX ? names[op] : "?";
}

/* A run's fwds: what this slave runs, and their threads. */
static int check_fwds(const struct proto_plan *p, unsigned *threads, char *err,
		      size_t errlen)
{
	*threads = 0;
	if (!p->nfwds) {
		snprintf(err, errlen, "phase %s gives this slave no fwds",
			 p->name);
		return -EINVAL;
	}
	for (uint32_t i = 0; i < p->nfwds; i++) {
		const struct proto_fwd *w = &p->fwds[i];

		if (w->fsd >= p->nfsds ||
		    ((w->op == PROTO_FSOP_COPY || w->op == PROTO_FSOP_MOVE) &&
		     (w->target >= p->nfsds || w->target == w->fsd))) {
			snprintf(err, errlen, "fwd %s: operation=%s needs %s",
				 w->name, op_name(w->op),
				 w->fsd >= p->nfsds ?
					 "an fsd of the plan" :
					 "a target fsd of the plan other than its own");
			return -EINVAL;
		}
		for (uint32_t k = 0; k < w->nxfer; k++)
			if (!w->xfer[k].size ||
			    w->xfer[k].size > PREPARE_MAX_XFER) {
				snprintf(err, errlen,
					 "fwd %s: xfersize %u is not within 1 .. %u",
					 w->name, w->xfer[k].size,
					 PREPARE_MAX_XFER);
				return -EINVAL;
			}
		if (!(w->rate >= 0 && w->rate <= PREPARE_MAX_IORATE)) {
			snprintf(err, errlen,
				 "fwd %s: rate %g is not within 0 .. %g",
				 w->name, w->rate, PREPARE_MAX_IORATE);
			return -EINVAL;
		}
		*threads += w->threads;
		if (*threads > FS_MAX_THREADS) {
			snprintf(err, errlen,
				 "phase %s: the fwds' threads add up to more than %u, this slave's limit",
				 p->name, FS_MAX_THREADS);
			return -EINVAL;
		}
	}
	return 0;
}

static int alloc_fs(struct fsphase *fs, const struct proto_plan *p)
{
	unsigned n = p->nfsds, nw = p->nfwds ? p->nfwds : 1;

	fs->shape = calloc(n, sizeof(*fs->shape));
	fs->tree = calloc(n, sizeof(*fs->tree));
	fs->dirfd = malloc(n * sizeof(int));
	fs->dcache = calloc(n, 1);
	fs->path = calloc(n, sizeof(char *));
	fs->cursor = calloc(nw, sizeof(uint64_t));
	fs->seen = calloc(nw, sizeof(uint64_t *));
	fs->next_due = calloc(nw, sizeof(uint64_t));
	fs->xfer = calloc(nw, sizeof(*fs->xfer));
	fs->ring = calloc(FS_RING, sizeof(*fs->ring));
	if (!fs->shape || !fs->tree || !fs->dirfd || !fs->dcache || !fs->path ||
	    !fs->cursor || !fs->seen || !fs->next_due || !fs->xfer || !fs->ring)
		return -ENOMEM;
	for (unsigned i = 0; i < n; i++)
		fs->dirfd[i] = -1;
	for (unsigned k = 0; k < FS_RING; k++) {
		hist_init(&fs->ring[k].lat[0]);
		hist_init(&fs->ring[k].lat[1]);
		for (unsigned o = 0; o < PROTO_FSOP_MAX; o++)
			hist_init(&fs->ring[k].flat[o]);
	}
	return 0;
}

/* Start nthreads threads: a format thread an fsd, or the fwds'. */
static int start_threads(struct fsphase *fs, unsigned nthreads, char *err,
			 size_t errlen)
{
	const struct proto_plan *p = fs->plan;
	unsigned k = 0;

	fs->th = calloc(nthreads ? nthreads : 1, sizeof(*fs->th));
	if (!fs->th)
		return -ENOMEM;
	for (uint32_t i = 0; k < nthreads; i++) {
		unsigned n = p->format ? 1 : p->fwds[i].threads;
		uint32_t len = p->format ? 0 : fs->xfer[i].max;

		for (unsigned j = 0; j < n; j++, k++) {
			struct fs_thread *th = &fs->th[k];
			int ret;

			th->fs = fs;
			for (unsigned c = 0; c < FS_DIRCACHE; c++)
				th->dc[c].fd = -1;
			th->fwd = i; /* a format's: its fsd */
			workload_rng_seed(&th->rng,
					  time_real_ns() ^ ((uint64_t)k << 32));
			if (len) {
				size_t sz = (len + 4095u) & ~(size_t)4095u;

				th->buf = aligned_alloc(4096, sz);
				if (!th->buf)
					return -ENOMEM;
				/* Not zeros: a file system stores them all. */
				for (size_t b = 0; b < sz; b += 8) {
					uint64_t x = workload_rng_next(
						&th->rng);

					memcpy(th->buf + b, &x, 8);
				}
			}
			atomic_fetch_add(&fs->running, 1);
			ret = pthread_create(&th->tid, NULL,
					     p->format ? fs_format_thread :
							 fs_run_thread,
					     th);
			if (ret) {
				atomic_fetch_sub(&fs->running, 1);
				snprintf(err, errlen,
					 "cannot start a thread: %s",
					 strerror(ret));
				return -ret;
			}
			th->joinable = 1;
			fs->nthreads = k + 1;
		}
	}
	return 0;
}

/*
 * fsd i's totalsize= and workingsetsize= subsets (a format makes the one,
 * the fwds use the other), and where its files go on for a stopafter=.
 */
static int tree_subsets(const struct proto_plan *p, unsigned i,
			struct fsplan_tree *t, char *err, size_t errlen)
{
	const struct proto_fsd *f = &p->fsds[i];
	uint64_t bytes = 0;
	int ret = fsplan_tree_subsets(t, f->totalsize, p->format ? 0 : f->wss);

	for (uint64_t k = 0; k < t->nfiles; k++)
		bytes += t->file_size[k];
	if (ret == -ERANGE) {
		snprintf(err, errlen,
			 "fsd %s: totalsize=%" PRIu64
			 " or workingsetsize=%" PRIu64
			 " is more than the %" PRIu64
			 " bytes of this slave's files%s",
			 f->name, f->totalsize, f->wss, bytes,
			 f->share_count > 1 ? " (its share of shared=yes)" :
					      "");
		return ret;
	}
	if (ret < 0) {
		snprintf(err, errlen, "fsd %s: its totalsize= subset: %s",
			 f->name, strerror(-ret));
		return ret;
	}
	for (uint32_t w = 0; !p->format && w < p->nfwds; w++)
		if (p->fwds[w].fsd == i && !t->file_at &&
		    (p->fwds[w].stopafter || p->fwds[w].stopafter_pct)) {
			t->file_at = calloc((size_t)t->nfiles + 1,
					    sizeof(uint64_t));
			if (!t->file_at)
				return -ENOMEM;
		}
	for (uint32_t w = 0; !p->format && w < p->nfwds; w++)
		if (p->fwds[w].fsd == i &&
		    p->fwds[w].fileio == PROTO_FILEIO_RANDOM_SHARED &&
		    fsplan_tree_sharing(t) < 0)
			return -ENOMEM;
	return 0;
}

int fsphase_prepare(struct session *s, char *err, size_t errlen)
{
	struct phase *ph = &s->ph;
	const struct proto_plan *p = &ph->plan;
	struct fsphase *fs = calloc(1, sizeof(*fs));
	unsigned threads = 1;
	int ret;

	if (!fs)
		return -ENOMEM;
	ph->fs = fs;
	pthread_mutex_init(&fs->lock, NULL);
	pthread_cond_init(&fs->cond, NULL);
	fs->plan = p;
	fs->nfsds = p->nfsds;
	fs->efd = ph->efd;
	if (alloc_fs(fs, p) < 0) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	if (p->replay || p->iorate != 0) {
		snprintf(err, errlen,
			 "phase %s: a file-system phase runs no %s (a fwd's rate is its fw[].ra)",
			 p->name, p->replay ? "replay" : "plan iorate");
		return -EINVAL;
	}
	ret = fs_val_check(p, err, errlen);
	if (ret < 0)
		return ret;
	if (!p->format) {
		ret = check_fwds(p, &threads, err, errlen);
		if (ret < 0)
			return ret;
	} else {
		/* A format thread an fsd: the fsds at once (Vdbench's). */
		threads = p->nfsds;
	}
	for (unsigned i = 0; i < p->nfsds; i++) {
		const struct proto_fsd *f = &p->fsds[i];
		char why[PROTO_TEXT_LEN];
		int make = p->format && (f->format == PROTO_FSFMT_YES ||
					 f->format == PROTO_FSFMT_RESTART);

		fsd_shape(f, &fs->shape[i]);
		ret = fstree_check(&fs->shape[i], NULL, why, sizeof(why));
		if (ret < 0) {
			snprintf(err, errlen, "fsd %s: %s", f->name, why);
			return ret;
		}
		ret = check_allow(s, f, err, errlen);
		if (ret < 0)
			return ret;
		/* create_anchors=yes; a clean has nothing to make. */
		if ((f->format_flags & PROTO_FSFMT_ANCHOR) &&
		    !(p->format && f->format == PROTO_FSFMT_CLEAN)) {
			ret = anchor_make(f->anchor, why, sizeof(why));
			if (ret < 0) {
				snprintf(err, errlen, "fsd %s: %s", f->name,
					 why);
				return ret;
			}
			if (ret > 0)
				log_info("fsd %s: made anchor=%s (%d folder%s, create_anchors=yes)",
					 f->name, f->anchor, ret,
					 ret == 1 ? "" : "s");
		}
		ret = open_tree(f, make, &fs->path[i], err, errlen);
		if (ret < 0)
			return ret;
		fs->dirfd[i] = ret;
		if (p->format && !p->validate && (!make || !f->totalsize))
			continue;
		ret = fsplan_tree_build(&fs->tree[i], &fs->shape[i],
					f->share_no, f->share_count);
		if (ret < 0) {
			snprintf(err, errlen, "fsd %s: its tree: %s", f->name,
				 strerror(-ret));
			return ret;
		}
		ret = tree_subsets(p, i, &fs->tree[i], err, errlen);
		if (ret < 0)
			return ret;
		if (!p->format && (f->format_flags & PROTO_FSFMT_COMPLETE)) {
			ret = take_complete(f, &fs->tree[i], fs->dirfd[i],
					    fs->path[i], err, errlen);
			if (ret < 0)
				return ret;
		} else if (!p->format) {
			scan_tree(&fs->tree[i], fs->dirfd[i]);
		}
	}
	ret = fs_val_maps(s, err, errlen);
	if (ret < 0)
		return ret;
	/* Folders stay what they were unless an rmdir fwd removes them. */
	for (unsigned i = 0; !p->format && i < p->nfsds; i++)
		fs->dcache[i] = 1;
	for (unsigned i = 0; !p->format && i < p->nfwds; i++)
		if (p->fwds[i].op == PROTO_FSOP_RMDIR &&
		    p->fwds[i].fsd < p->nfsds)
			fs->dcache[p->fwds[i].fsd] = 0;
	for (unsigned i = 0; !p->format && i < p->nfwds; i++) {
		const struct proto_fwd *w = &p->fwds[i];

		fsplan_xfer_init(&fs->xfer[i], w);
		if (w->fileselect == PROTO_FSEL_RANDOM_ONCE) {
			uint64_t n = fsplan_entries(&fs->tree[w->fsd], w->op);

			fs->seen[i] = calloc((size_t)(n / 64 + 1), 8);
			if (!fs->seen[i]) {
				snprintf(err, errlen, "out of memory");
				return -ENOMEM;
			}
		}
		if ((w->op == PROTO_FSOP_COPY || w->op == PROTO_FSOP_MOVE) &&
		    fsplan_pair_ok(&fs->tree[w->fsd], &fs->tree[w->target]) <
			    0) {
			snprintf(err, errlen,
				 "fwd %s: operation=%s from fsd %s to fsd %s: this slave's files of the two differ (the same shape, and both shared=yes or neither, as this slave uses them)",
				 w->name, op_name(w->op), p->fsds[w->fsd].name,
				 p->fsds[w->target].name);
			return -EINVAL;
		}
	}
	ret = start_threads(fs, threads, err, errlen);
	if (ret < 0)
		return ret;
	log_debug("phase %u (%s) ready: %u fsds, %u fwds, %u threads%s",
		  p->phase, p->name, p->nfsds, p->nfwds, fs->nthreads,
		  p->format ? " (format)" : "");
	return 0;
}

void fsphase_go(struct fsphase *fs, uint64_t mono_start, unsigned first)
{
	pthread_mutex_lock(&fs->lock);
	fs->mono_start = mono_start;
	fs->interval_ns = fs->plan->interval_ns;
	fs->first = first;
	fs->sent = first;
	for (unsigned k = 0; k < FS_RING; k++)
		fs->ring[k].seq = first + k;
	fs->go = 1;
	pthread_cond_broadcast(&fs->cond);
	pthread_mutex_unlock(&fs->lock);
}

uint64_t fsphase_first_io(struct fsphase *fs)
{
	uint64_t f;

	pthread_mutex_lock(&fs->lock);
	f = fs->first_io;
	pthread_mutex_unlock(&fs->lock);
	return f;
}

static uint64_t end_of(const struct fsphase *fs, unsigned seq)
{
	return fs->mono_start +
	       (uint64_t)(seq - fs->first + 1) * fs->interval_ns;
}

const int *fsphase_dirfds(const struct fsphase *fs, unsigned *n)
{
	*n = fs->plan->nfsds;
	return fs->dirfd;
}

int fsphase_wait_ms(const struct fsphase *fs, int most)
{
	uint64_t now = time_mono_ns(), end, ms;

	if (!fs->go)
		return most;
	end = end_of(fs, fs->sent);
	ms = end > now ? (end - now) / 1000000 + 1 : 0;
	return ms < (uint64_t)most ? (int)ms : most;
}

static uint64_t tv_ns(const struct timeval *tv)
{
	return (uint64_t)tv->tv_sec * 1000000000ull +
	       (uint64_t)tv->tv_usec * 1000;
}

/* The interval message of st (under the lock), and the phase's totals. */
static int fill_msg(struct phase *ph, struct fs_stat *st,
		    struct proto_interval *pi)
{
	const struct proto_plan *p = &ph->plan;
	unsigned n = 0;

	pi->phase = p->phase;
	pi->seq = st->seq;
	pi->start_ns = ph->start_at + (uint64_t)st->seq * p->interval_ns;
	pi->end_ns = pi->start_ns + p->interval_ns;
	for (int d = 0; d < 2; d++) {
		pi->ops[d] = st->ops[d];
		pi->bytes[d] = st->bytes[d];
		if (hist_to_sparse(&st->lat[d], &pi->lat[d]) < 0)
			return -ENOMEM;
		ph->tot.ops += st->ops[d];
		ph->tot.bytes += st->bytes[d];
		if (st->seq >= p->warmup_intervals)
			hist_merge(&ph->tot.meas[d], &st->lat[d]);
	}
	pi->errors = st->errors;
	ph->tot.errors += st->errors;
	for (unsigned o = PROTO_FSOP_CREATE; o < PROTO_FSOP_MAX; o++)
		n += st->n[o] > 0;
	if (!n)
		return 0;
	pi->fsops = calloc(n, sizeof(*pi->fsops));
	if (!pi->fsops)
		return -ENOMEM;
	for (unsigned o = PROTO_FSOP_CREATE; o < PROTO_FSOP_MAX; o++) {
		struct proto_fsop_stat *f = &pi->fsops[pi->nfsops];

		if (!st->n[o])
			continue;
		pi->nfsops++;
		f->op = o;
		f->count = st->n[o];
		f->bytes = st->b[o];
		f->errors = st->e[o];
		if (hist_to_sparse(&st->flat[o], &f->lat) < 0)
			return -ENOMEM;
	}
	return 0;
}

static void reset_stat(struct fs_stat *st, unsigned seq)
{
	st->seq = seq;
	memset(st->ops, 0, sizeof(st->ops));
	memset(st->bytes, 0, sizeof(st->bytes));
	st->errors = 0;
	memset(st->n, 0, sizeof(st->n));
	memset(st->b, 0, sizeof(st->b));
	memset(st->e, 0, sizeof(st->e));
	st->last_err = 0;
	hist_reset(&st->lat[0]);
	hist_reset(&st->lat[1]);
	for (unsigned o = 0; o < PROTO_FSOP_MAX; o++)
		hist_reset(&st->flat[o]);
}

/* Send interval fs->sent and move on. */
static void send_next(struct session *s)
{
	struct phase *ph = &s->ph;
	struct fsphase *fs = ph->fs;
	struct proto_msg m = { .type = PROTO_INTERVAL };
	struct proto_interval *pi = &m.u.interval;
	struct fs_stat *st;
	char text[PROTO_TEXT_LEN] = "";
	struct rusage ru;
	uint64_t first;
	int ret;

	pthread_mutex_lock(&fs->lock);
	st = &fs->ring[fs->sent % FS_RING];
	ret = fill_msg(ph, st, pi);
	if (st->errors && st->last_err)
		snprintf(text, sizeof(text),
			 "fsd %s: %llu operations failed in interval %u, the last a %s: %s",
			 ph->plan.fsds[st->last_fsd].name,
			 (unsigned long long)st->errors, st->seq + 1,
			 op_name(st->last_op), strerror(st->last_err));
	reset_stat(st, fs->sent + FS_RING);
	fs->sent++;
	first = fs->first_io;
	pthread_mutex_unlock(&fs->lock);
	ph->next_send = fs->sent;
	getrusage(RUSAGE_SELF, &ru);
	pi->cpu_user_ns = tv_ns(&ru.ru_utime) - tv_ns(&ph->ru_last.ru_utime);
	pi->cpu_sys_ns = tv_ns(&ru.ru_stime) - tv_ns(&ph->ru_last.ru_stime);
	pi->cores = s->hello.cores;
	ph->ru_last = ru;
	if (ph->tele_open) {
		telemetry_tick(&ph->tele, time_mono_ns());
		telemetry_fill(&ph->tele, pi->seq, pi);
	}
	pi->first_io_ns =
		first ? prepare_mono_to_master(first,
					       (int64_t)time_real_ns() -
						       (int64_t)time_mono_ns(),
					       ph->plan.clock_offset_ns) :
			0;
	fs_val_log(s);
	if (ret < 0) {
		log_error("cannot encode interval %u", pi->seq);
	} else {
		if (text[0])
			outbox_log(s, LOG_WARN, text);
		outbox_send(s, &m);
	}
	proto_msg_free(&m);
}

static void stop_join(struct fsphase *fs);

/* format=limited: every fsd's format stops at the phase's end. */
static int format_limited(const struct proto_plan *p)
{
	for (uint32_t i = 0; i < p->nfsds; i++)
		if (!(p->fsds[i].format_flags & PROTO_FSFMT_LIMITED))
			return 0;
	return p->nfsds > 0;
}

int fsphase_collect(struct session *s)
{
	struct phase *ph = &s->ph;
	struct fsphase *fs = ph->fs;
	const struct proto_plan *p = &ph->plan;
	uint64_t junk, now;
	int done;

	if (read(ph->efd, &junk, sizeof(junk)) < 0 && errno != EAGAIN)
		log_warn("eventfd: %s", strerror(errno));
	if (!fs->go)
		return 0;
	done = atomic_load(&fs->running) == 0;
	now = time_mono_ns();
	while (fs->sent < p->intervals && now >= end_of(fs, fs->sent)) {
		/*
		 * The last one: the operations in flight end in it (the
		 * tree then shows every operation an interval counts).
		 */
		if (fs->sent + 1 == p->intervals && !done)
			stop_join(fs);
		send_next(s);
	}
	if (done) {
		/* Every thread is over: its last interval is partial. */
		while (fs->sent < p->intervals &&
		       now >= end_of(fs, fs->sent) - fs->interval_ns)
			send_next(s);
		ph->eof = fs->sent < p->intervals;
	} else if (fs->sent < p->intervals) {
		return 0;
	}
	if (fs->status && !ph->status) {
		log_error("%s", fs->err);
		outbox_log(s, LOG_ERROR, fs->err);
		ph->status = fs->status;
	} else if (p->format && !done && !ph->status) {
		/* format=limited: stopped at elapsed= is done (Vdbench's). */
		int limited = format_limited(p);
		char text[PROTO_TEXT_LEN];

		snprintf(text, sizeof(text),
			 limited ?
				 "phase %s: format=limited: the format stopped at elapsed= (%u intervals), the trees left partial" :
				 "phase %s: the format was not done in its %u intervals",
			 p->name, p->intervals);
		log_msg(limited ? LOG_INFO : LOG_ERROR, "%s", text);
		outbox_log(s, limited ? LOG_INFO : LOG_ERROR, text);
		if (!limited)
			ph->status = -ETIMEDOUT;
	}
	return 1;
}

/* Stop the threads and wait for their operations in flight. */
static void stop_join(struct fsphase *fs)
{
	pthread_mutex_lock(&fs->lock);
	fs->stop = 1;
	pthread_cond_broadcast(&fs->cond);
	pthread_mutex_unlock(&fs->lock);
	for (unsigned k = 0; fs->th && k < fs->nthreads; k++) {
		if (fs->th[k].joinable)
			pthread_join(fs->th[k].tid, NULL);
		fs->th[k].joinable = 0;
	}
}

void fsphase_free(struct fsphase *fs)
{
	uint64_t ur = 0, sy = 0;

	if (!fs)
		return;
	stop_join(fs);
	for (unsigned k = 0; fs->th && k < fs->nthreads; k++) {
		ur += fs->th[k].ring.uring_ops;
		sy += fs->th[k].ring.sys_ops;
		free(fs->th[k].buf);
	}
	if (ur || sy)
		log_info("phase %u (%s): %llu file operations through io_uring, %llu through system calls",
			 fs->plan->phase, fs->plan->name,
			 (unsigned long long)ur, (unsigned long long)sy);
	for (unsigned i = 0; fs->dirfd && i < fs->nfsds; i++) {
		if (fs->dirfd[i] >= 0)
			close(fs->dirfd[i]);
		if (fs->tree)
			fsplan_tree_free(&fs->tree[i]);
		if (fs->path)
			free(fs->path[i]);
	}
	free(fs->th);
	free(fs->val);
	free(fs->v0);
	free(fs->shape);
	free(fs->tree);
	free(fs->dirfd);
	free(fs->dcache);
	free(fs->path);
	for (unsigned i = 0; fs->seen && i < fs->plan->nfwds; i++)
		free(fs->seen[i]);
	free(fs->seen);
	free(fs->cursor);
	free(fs->next_due);
	free(fs->xfer);
	free(fs->ring);
	pthread_mutex_destroy(&fs->lock);
	pthread_cond_destroy(&fs->cond);
	free(fs);
}
