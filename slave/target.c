/*
 * Targets: create, open, size and check one sd of a plan. See target.h.
 * The data a created file is filled with comes from the write pattern
 * generator (datagen), so a file lun holds incompressible data, as storage
 * under test would hold, and never reads back holes.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>
#include "common/fsutil.h"
#include "common/log.h"
#include "slave/datagen.h"
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

static int fill_file(const char *path, uint64_t size, char *err,
		     size_t errlen)
{
	int fd, ret;

	fsutil_mkdir_parents(path); /* open() says what failed */
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0) {
		ret = -errno;
		snprintf(err, errlen, "cannot create %s: %s", path,
			 strerror(-ret));
		return ret;
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

static int open_fd(const struct proto_target *t, int need_write, int *fdp,
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
	*sizep = t->size ? t->size : actual;
	*fdp = fd;
	return 0;
}

int target_open(const struct proto_plan *p, unsigned t, int need_write,
		int *fdp, uint64_t *sizep, char *err, size_t errlen)
{
	int fd = -1, ret;

	ret = open_fd(&p->targets[t], need_write, &fd, sizep, err, errlen);
	if (ret < 0)
		return ret;
	if (p->targets[t].openflags & PROTO_O_DIRECT) {
		ret = target_check_align(p, t, target_direct_align(fd), err,
					 errlen);
		if (ret < 0) {
			close(fd);
			return ret;
		}
	}
	*fdp = fd;
	return 0;
}
