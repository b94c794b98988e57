/*
 * Formatting an fsd= anchor's tree (see anchor.h): the marker first, then
 * the folders and files, made by the threads sharing the walk (fmtq.c),
 * each file written to its size from the pattern or, with validate=yes,
 * xfersize= or O_DIRECT, from an aligned buffer of its own. Every rule
 * of the tree (the marker, a foreign entry refused, no link followed) is
 * anchor.c's (anchor_int.h).
 */
#include "slave/anchor.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/timeutil.h"
#include "slave/anchor_int.h"
#include "slave/fmtq.h"

/* The pattern's bytes: Vdbench's format xfersize (128k). */
#define ANCHOR_CHUNK ANCHOR_FORMAT_XFER

static int make_dir(int dirfd, const struct fstree_entry *e,
		    struct anchor_stats *st)
{
	const char *last;
	struct stat sb;
	int pfd, ret = 0;

	uint64_t t0;

	pfd = anchor_open_parent(dirfd, e->path, &last);
	if (pfd < 0)
		return pfd;
	t0 = time_mono_ns();
	if (!mkdirat(pfd, last, 0755)) {
		anchor_note(st, ANCHOR_EV_MKDIR, t0, 0, 0);
		if (st)
			st->dirs_made++;
	} else if (errno != EEXIST) {
		ret = -errno;
		anchor_note(st, ANCHOR_EV_MKDIR, t0, 0, ret);
	} else if (fstatat(pfd, last, &sb, AT_SYMLINK_NOFOLLOW)) {
		ret = -errno;
	} else if (!S_ISDIR(sb.st_mode)) {
		/* A link here is never followed: it is an error. */
		ret = S_ISLNK(sb.st_mode) ? -ELOOP : -ENOTDIR;
	}
	close(pfd);
	return ret;
}

static unsigned char pattern_buf[ANCHOR_CHUNK];

static void pattern_fill(void)
{
	uint64_t x = 0x9E3779B97F4A7C15ull;

	/* Not zeros: a file system must store every block. */
	for (size_t i = 0; i < sizeof(pattern_buf); i += 8) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		memcpy(pattern_buf + i, &x, 8);
	}
}

/* Filled once, whichever format thread comes first. */
static const unsigned char *pattern(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, pattern_fill);
	return pattern_buf;
}

/* File number file of the walk (validation's key): made, or completed. */
static int make_file(int dirfd, const struct fstree_entry *e, uint64_t file,
		     struct anchor_stats *st)
{
	const unsigned char *buf = pattern();
	const struct anchor_run *run = st ? st->run : NULL;
	size_t chunk = run && run->xfer ? run->xfer : ANCHOR_CHUNK;
	int fl = run ? run->oflags : 0;
	unsigned char *own = NULL;
	struct stat sb;
	uint64_t at, t0 = time_mono_ns();
	int fd, ret = 0, made = 0;

	/* O_EXCL first: a create is told only for a file this made. */
	fd = anchor_openat(dirfd, e->path, O_WRONLY | O_CREAT | O_EXCL | fl,
			   0644);
	if (fd >= 0)
		made = 1;
	else if (fd == -EEXIST)
		fd = anchor_openat(dirfd, e->path, O_WRONLY | fl, 0);
	if (made || fd < 0)
		anchor_note(st, ANCHOR_EV_CREATE, t0, 0, fd < 0 ? fd : 0);
	if (fd < 0)
		return fd;
	if (fstat(fd, &sb)) {
		ret = -errno;
		goto out;
	}
	if (!S_ISREG(sb.st_mode)) {
		ret = -EINVAL;
		goto out;
	}
	if ((uint64_t)sb.st_size > e->size) {
		ret = -EFBIG;
		goto out;
	}
	at = (uint64_t)sb.st_size;
	/* Each write's headers differ; a larger write repeats the pattern. */
	if ((run && run->stamp) || chunk > ANCHOR_CHUNK || (fl & O_DIRECT)) {
		/* Aligned for O_DIRECT; freed by free(). */
		if (posix_memalign((void **)&own, 4096, chunk)) {
			own = NULL;
			ret = -ENOMEM;
			goto out;
		}
		for (size_t k = 0; k < chunk; k += ANCHOR_CHUNK)
			memcpy(own + k, buf,
			       chunk - k < ANCHOR_CHUNK ? chunk - k :
							  ANCHOR_CHUNK);
		buf = own;
	}
	if (st && at == 0 && e->size > 0)
		st->files_made++;
	else if (st && at < e->size)
		st->files_completed++;
	while (at < e->size) {
		size_t n = e->size - at < chunk ? (size_t)(e->size - at) :
						  chunk;
		ssize_t w;

		if (anchor_stopped(st)) {
			ret = -ECANCELED;
			goto out;
		}
		if (run && run->stamp) {
			ret = run->stamp(run->arg, file, own, at, n);
			if (ret < 0)
				goto out;
		}
		t0 = time_mono_ns();
		w = pwrite(fd, buf, n, (off_t)at);
		if (run && run->stamp)
			run->wrote(run->arg, file, at, n, w < 0 ? -errno : w);
		anchor_note(st, ANCHOR_EV_WRITE, t0, w > 0 ? (uint64_t)w : 0,
			    w < 0  ? -errno :
			    w == 0 ? -EIO :
				     0);
		if (w <= 0) {
			ret = w < 0 ? -errno : -EIO;
			goto out;
		}
		at += (uint64_t)w;
		if (st)
			st->bytes_written += (uint64_t)w;
	}
out:
	free(own);
	close(fd);
	return ret;
}

/* One format thread: its descriptor and its own counts. */
struct maker {
	int dirfd;
	struct anchor_stats st;
};

static int make_one(void *ctx, const struct fstree_entry *e, uint64_t file)
{
	struct maker *m = ctx;

	return anchor_stopped(&m->st) ? -ECANCELED :
	       e->is_dir              ? make_dir(m->dirfd, e, &m->st) :
					make_file(m->dirfd, e, file, &m->st);
}

/*
 * Every folder and this slave's files, in the tree's order, by
 * run->threads threads sharing the walk (fmtq.h): each file keeps its
 * number in the walk whichever thread makes it.
 */
static int make_tree(int dirfd, const char *path,
		     const struct fstree_shape *shape, struct anchor_stats *st,
		     char *err, size_t errlen)
{
	const struct anchor_run *run = st ? st->run : NULL;
	unsigned n = run && run->threads > 1 ? run->threads : 1;
	char bad[FSTREE_PATH_MAX];
	struct maker *m;
	struct fmtq q;
	int ret;

	if (n > FMTQ_THREADS_MAX)
		n = FMTQ_THREADS_MAX;
	m = calloc(n, sizeof(*m));
	if (!m)
		return -ENOMEM;
	for (unsigned i = 0; i < n; i++) {
		m[i].dirfd = dirfd;
		m[i].st.run = run;
	}
	fmtq_init(&q, shape, anchor_shared(st) ? run->share_no : 0,
		  anchor_shared(st) ? run->share_count : 0,
		  run ? run->only : NULL, run && run->dirs_only);
	ret = fmtq_run(&q, n, make_one, m, sizeof(*m), bad, sizeof(bad));
	for (unsigned i = 0; st && i < n; i++) {
		st->dirs_made += m[i].st.dirs_made;
		st->files_made += m[i].st.files_made;
		st->files_completed += m[i].st.files_completed;
		st->bytes_written += m[i].st.bytes_written;
	}
	if (st)
		st->files_walked += q.files;
	if (ret && *bad)
		snprintf(err, errlen, "anchor=%s: %s: %s", path, bad,
			 anchor_why(ret));
	else if (ret)
		snprintf(err, errlen, "anchor=%s: a format thread: %s", path,
			 anchor_why(ret));
	fmtq_destroy(&q);
	free(m);
	return ret;
}

/*
 * shared=yes: the tree is made by several slaves at once, so none of
 * them may clean it first or find it empty. Slave 0 checks the marker
 * (one of another tree is refused) and writes it; every slave refuses a
 * foreign entry, makes the folders missing (another's EEXIST is fine)
 * and makes or completes its own files, as format=restart.
 */
static int format_shared(int dirfd, const char *path,
			 const struct fstree_shape *shape,
			 struct anchor_stats *st, char *err, size_t errlen)
{
	int ret = anchor_marker(dirfd, shape);

	if (ret < 0)
		return anchor_marker_refused(path, ret, err, errlen);
	ret = anchor_refuse_foreign(dirfd, path, shape,
				    "lockstep formats only an empty folder or "
				    "one it formatted",
				    err, errlen);
	if (ret)
		return ret;
	if (st->run->share_no == 0) {
		ret = anchor_marker_write(dirfd, shape);
		if (ret) {
			snprintf(err, errlen, "anchor=%s: %s: %s", path,
				 FSTREE_MARKER, anchor_why(ret));
			return ret;
		}
	}
	return make_tree(dirfd, path, shape, st, err, errlen);
}

int anchor_format(int dirfd, const char *path, const struct fstree_shape *shape,
		  int restart, struct anchor_stats *st, char *err,
		  size_t errlen)
{
	int ret;

	if (err && errlen)
		err[0] = '\0';
	if (anchor_shared(st))
		return format_shared(dirfd, path, shape, st, err, errlen);
	ret = anchor_marker(dirfd, shape);
	if (ret < 0)
		return anchor_marker_refused(path, ret, err, errlen);
	if (ret == 0) {
		/* Without the marker, even a vdb.* tree is not ours. */
		char first[256];
		int r = anchor_first_entry(dirfd, first, sizeof(first));

		if (r < 0) {
			snprintf(err, errlen, "anchor=%s: %s", path,
				 anchor_why(r));
			return r;
		}
		if (r) {
			snprintf(err, errlen,
				 "anchor=%s holds %s but no %s: lockstep formats "
				 "only an empty folder or one it formatted",
				 path, first, FSTREE_MARKER);
			return -ENOTEMPTY;
		}
	} else if (restart) {
		/* Nothing but lockstep's own tree may be in the way. */
		int r = anchor_refuse_foreign(dirfd, path, shape,
					      "lockstep formats only an empty "
					      "folder or one it formatted",
					      err, errlen);

		if (r)
			return r;
	}
	if (ret == 1 && !restart) {
		ret = anchor_remove_tree(dirfd, path, shape, st, err, errlen);
		if (ret)
			return ret;
	}
	ret = anchor_marker_write(dirfd, shape);
	if (ret) {
		snprintf(err, errlen, "anchor=%s: %s: %s", path, FSTREE_MARKER,
			 anchor_why(ret));
		return ret;
	}
	return make_tree(dirfd, path, shape, st, err, errlen);
}
