/*
 * Targets: create, open, size and check one sd of a plan. See target.h.
 * The data a created file is filled with comes from the write pattern
 * generator (datagen), so a file lun holds incompressible data, as storage
 * under test would hold, and never reads back holes.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include "common/fsutil.h"
#include "common/log.h"
#include "slave/datagen.h"
#include "slave/safety.h"
#include "slave/target.h"

#define FILL_CHUNK (1u << 20)

int target_size(int fd, uint64_t *size)
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
 * Closes fd.
 */
static int fill_fd(int fd, const char *path, uint64_t size, char *err,
		   size_t errlen)
{
	uint64_t have, seed = (uint64_t)getpid() * 0x9e3779b97f4a7c15ull;
	struct datagen dg = { 0 };
	void *buf = NULL;
	int ret = 0;

	if (flock(fd, LOCK_EX) < 0) {
		ret = -errno;
		goto out;
	}
	ret = target_size(fd, &have);
	if (ret < 0 || have >= size)
		goto out;
	buf = malloc(FILL_CHUNK);
	if (!buf) {
		ret = -ENOMEM;
		goto out;
	}
	ret = datagen_init(&dg, 1, 1, 0, seed);
	if (ret < 0)
		goto out;
	log_info("creating %s (%llu MiB)", path,
		 (unsigned long long)(size >> 20));
	for (uint64_t off = have; off < size;) {
		size_t n = size - off < FILL_CHUNK ? size - off : FILL_CHUNK;
		ssize_t w;

		datagen_fill(&dg, buf, n, off, datagen_key(path));
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
	datagen_free(&dg);
	free(buf);
	close(fd);
	return ret;
}

/*
 * Create (or extend) the file at path and fill it. The checks resolved
 * path once; the file is created by openat() in its folder, opened once
 * and held, whose real path (/proc/self/fd) is checked against the policy
 * and /dev again, with O_NOFOLLOW: a symbolic link put at path, or a
 * dangling one that was there all along, is never followed to create a
 * file where nobody allowed one.
 */
static int fill_file(const char *path, uint64_t size,
		     const struct target_policy *pol, char *err, size_t errlen)
{
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	char dir[PATH_MAX], real[PATH_MAX], link[64], full[PATH_MAX + 256];
	struct safety_verdict v;
	struct stat st;
	ssize_t n;
	int dfd, fd, ret;

	if (!*base || strlen(path) >= sizeof(dir)) {
		snprintf(err, errlen, "cannot create %s: not a file name",
			 path);
		return -EINVAL;
	}
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == path)
		snprintf(dir, sizeof(dir), "/");
	else
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
	fsutil_mkdir_parents(path); /* open() says what failed */
	dfd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	snprintf(link, sizeof(link), "/proc/self/fd/%d", dfd);
	n = dfd < 0 ? -1 : readlink(link, real, sizeof(real) - 1);
	if (n < 0) {
		ret = -errno;
		snprintf(err, errlen, "cannot create %s: %s", path,
			 strerror(-ret));
		if (dfd >= 0)
			close(dfd);
		return ret;
	}
	real[n] = 0;
	snprintf(full, sizeof(full), "%s/%s", strcmp(real, "/") ? real : "",
		 base);
	ret = 0;
	if (strncmp(full, "/dev/", 5) == 0)
		ret = -EPERM;
	else if (pol && pol->allow)
		ret = safety_allow_check(pol->allow, full, &v);
	if (ret < 0) {
		snprintf(err, errlen,
			 "cannot create %s: it is %s now, which this slave may not create",
			 path, full);
		close(dfd);
		return ret;
	}
	/* O_NONBLOCK: a FIFO put here since the check must not hang us. */
	fd = openat(dfd, base,
		    O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY |
			    O_CLOEXEC,
		    0644);
	ret = fd < 0 ? -errno : 0;
	close(dfd);
	if (fd < 0) {
		snprintf(err, errlen, "cannot create %s: %s", path,
			 ret == -ELOOP ? "it is a symbolic link" :
					 strerror(-ret));
		return ret;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		snprintf(err, errlen,
			 "%s: changed into something other than a file while it was checked",
			 path);
		close(fd);
		return -EINVAL;
	}
	return fill_fd(fd, path, size, err, errlen);
}

unsigned target_direct_align(int fd)
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

int target_nowait_of(ssize_t r, int err)
{
	if (r > 0)
		return 1;
	if (r == 0)
		return -ENODATA;
	return err == EOPNOTSUPP ? 0 : -(err ? err : EIO);
}

int target_nowait(int fd)
{
	struct iovec iov;
	void *buf;
	ssize_t r;
	int ret;

	if (posix_memalign(&buf, 4096, 4096))
		return -ENOMEM;
	iov.iov_base = buf;
	iov.iov_len = 4096;
	r = preadv2(fd, &iov, 1, 0, RWF_NOWAIT);
	ret = target_nowait_of(r, r < 0 ? errno : 0);
	free(buf);
	return ret;
}

int target_check_align(const struct proto_plan *p, unsigned t, unsigned align,
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

int target_check_journal(const char *dir, const struct target_policy *pol,
			 char *err, size_t errlen)
{
	struct safety_verdict v;
	int ret;

	if (pol && pol->none) {
		snprintf(err, errlen,
			 "journal=%s: refused: this slave is a daemon started without --allow, so it writes nowhere (restart it with --allow naming the folder)",
			 dir);
		return -EPERM;
	}
	if (!pol || !pol->allow)
		return 0;
	ret = safety_allow_check(pol->allow, dir, &v);
	if (ret < 0)
		snprintf(err, errlen,
			 "journal=%s: %s; this slave's --allow limits where it writes",
			 dir, v.reason);
	return ret;
}

int target_check_replay(const struct proto_stream *st,
			const struct target_policy *pol, char *err,
			size_t errlen)
{
	struct safety_verdict v;
	int ret;

	if (!st->replay[0])
		return 0;
	if (pol && pol->none) {
		snprintf(err, errlen,
			 "replay of wd %s: %s: refused: this slave is a daemon started without --allow, so it reads no trace (restart it with --allow naming the file)",
			 st->name, st->replay);
		return -EPERM;
	}
	if (!pol || !pol->allow)
		return 0;
	ret = safety_allow_check(pol->allow, st->replay, &v);
	if (ret < 0)
		snprintf(err, errlen,
			 "replay of wd %s: %s; this slave's --allow limits what it reads",
			 st->name, v.reason);
	return ret;
}

/*
 * Everything that decides whether this slave may touch t, before anything
 * is opened or created: the policy (--allow, or a daemon without it), the
 * safety verdict (slave/safety.h) for the access the phase needs (a fill
 * is a write), and room on the file system for a file to be filled.
 * *fill says whether the file is to be created or extended first; forced
 * gets the signature force=yes overwrites. 0 or -errno with err.
 */
static int check_target(const struct proto_target *t, int need_write,
			const struct target_policy *pol, int *fill,
			char *forced, char *err, size_t errlen)
{
	struct safety_verdict v;
	char why[SAFETY_REASON_LEN] = "";
	struct stat st;
	int ret;

	if (pol && pol->none) {
		snprintf(err, errlen,
			 "sd %s: %s: refused: this slave is a daemon started without --allow, so it accepts no targets (restart it with --allow GLOB[,GLOB...] naming its luns)",
			 t->name, t->path);
		return -EPERM;
	}
	if (pol && pol->allow) {
		ret = safety_allow_check(pol->allow, t->path, &v);
		if (ret < 0) {
			snprintf(err, errlen,
				 "sd %s: %s; this slave's --allow limits what it opens",
				 t->name, v.reason);
			return ret;
		}
	}
	*fill = 0;
	if (t->create && t->size) {
		if (stat(t->path, &st) < 0)
			*fill = errno == ENOENT;
		else
			*fill = S_ISREG(st.st_mode) &&
				(uint64_t)st.st_size < t->size;
	}
	ret = safety_check_target(t->path, need_write || *fill, t->force, &v);
	if (ret < 0) {
		snprintf(err, errlen, "sd %s: %s", t->name, v.reason);
		return ret;
	}
	forced[0] = 0;
	if (v.forced) {
		snprintf(forced, PROTO_SIG_LEN, "%s", v.signature);
		log_warn("sd %s: %s", t->name, v.reason);
	}
	if (*fill) {
		ret = safety_check_room(t->path, t->size, why, sizeof(why));
		if (ret < 0) {
			if (!why[0])
				snprintf(why, sizeof(why),
					 "%s: cannot tell whether its file system has room: %s",
					 t->path, strerror(-ret));
			snprintf(err, errlen, "sd %s: %s", t->name, why);
			return ret;
		}
	}
	return 0;
}

/*
 * Open what was checked. O_NONBLOCK so that a FIFO swapped in since the
 * check cannot hang the slave; then fstat must show a file, a block device
 * or the null/zero devices, and the same one the path named a moment ago.
 */
static int open_checked(const struct proto_target *t, int flags, int *got,
			char *err, size_t errlen)
{
	struct stat before, st;
	int fd, ret, nb;

	if (stat(t->path, &before) < 0)
		memset(&before, 0, sizeof(before));
	fd = open(t->path, flags | O_NONBLOCK | O_NOCTTY);
	if (fd < 0) {
		ret = -errno;
		snprintf(err, errlen, "sd %s: cannot open %s%s: %s", t->name,
			 t->path,
			 ret == -EINVAL && (flags & O_DIRECT) ?
				 " with O_DIRECT" :
				 "",
			 strerror(-ret));
		return ret;
	}
	if (fstat(fd, &st) < 0 ||
	    !(S_ISREG(st.st_mode) || S_ISBLK(st.st_mode) ||
	      (S_ISCHR(st.st_mode) && major(st.st_rdev) == 1 &&
	       (minor(st.st_rdev) == 3 || minor(st.st_rdev) == 5))) ||
	    st.st_dev != before.st_dev || st.st_ino != before.st_ino) {
		snprintf(err, errlen,
			 "sd %s: %s is not the file or block device that was checked (replaced meanwhile?)",
			 t->name, t->path);
		close(fd);
		return -EINVAL;
	}
	nb = fcntl(fd, F_GETFL);
	if (nb < 0 || fcntl(fd, F_SETFL, nb & ~O_NONBLOCK) < 0 ||
	    (*got = fcntl(fd, F_GETFL)) < 0) {
		ret = -errno;
		snprintf(err, errlen, "sd %s: %s: fcntl: %s", t->name, t->path,
			 strerror(-ret));
		close(fd);
		return ret;
	}
	return fd;
}

static int open_fd(const struct proto_target *t, int need_write,
		   const struct target_policy *pol, struct target_opened *o,
		   char *err, size_t errlen)
{
	int flags = (need_write ? O_RDWR : O_RDONLY) | O_CLOEXEC;
	uint64_t actual;
	int fd, ret, fill;

	ret = check_target(t, need_write, pol, &fill, o->forced, err, errlen);
	if (ret < 0)
		return ret;
	if (fill) {
		ret = fill_file(t->path, t->size, pol, err, errlen);
		if (ret < 0)
			return ret;
	}
	if (t->openflags & PROTO_O_DIRECT)
		flags |= O_DIRECT;
	if (t->openflags & PROTO_O_DSYNC)
		flags |= O_DSYNC;
	if (t->openflags & PROTO_O_SYNC)
		flags |= O_SYNC;
	fd = open_checked(t, flags, &o->flags, err, errlen);
	if (fd < 0)
		return fd;
	ret = target_size(fd, &actual);
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
	o->size = t->size ? t->size : actual;
	o->fd = fd;
	return 0;
}

int target_open(const struct proto_plan *p, unsigned t, int need_write,
		const struct target_policy *pol, struct target_opened *o,
		char *err, size_t errlen)
{
	int ret;

	o->fd = -1;
	o->size = 0;
	o->flags = 0;
	o->forced[0] = 0;
	o->async = 0;
	ret = open_fd(&p->targets[t], need_write, pol, o, err, errlen);
	if (ret < 0)
		return ret;
	if (p->targets[t].openflags & PROTO_O_DIRECT) {
		ret = target_check_align(p, t, target_direct_align(o->fd), err,
					 errlen);
		if (ret < 0) {
			close(o->fd);
			o->fd = -1;
			return ret;
		}
		o->async = target_nowait(o->fd) == 0;
	}
	return 0;
}

const char *target_flags_text(int flags, char *buf, size_t len)
{
	int acc = flags & O_ACCMODE;

	snprintf(buf, len, "%s%s%s",
		 acc == O_RDWR   ? "O_RDWR" :
		 acc == O_WRONLY ? "O_WRONLY" :
				   "O_RDONLY",
		 flags & O_DIRECT ? "|O_DIRECT" : "",
		 (flags & O_SYNC) == O_SYNC ? "|O_SYNC" :
		 flags & O_DSYNC            ? "|O_DSYNC" :
					      "");
	return buf;
}
