/*
 * File-system operations through a thread's io_uring (see fsring.h).
 */
#include "slave/fsring.h"

#include <errno.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "slave/anchor.h"

void fsring_init(struct fsring *r)
{
	static const int opcode[FSRING_NOPS] = {
		[FSRING_OPENAT2] = IORING_OP_OPENAT2,
		[FSRING_CLOSE] = IORING_OP_CLOSE,
		[FSRING_UNLINKAT] = IORING_OP_UNLINKAT,
		[FSRING_MKDIRAT] = IORING_OP_MKDIRAT,
		[FSRING_READ] = IORING_OP_READ,
		[FSRING_WRITE] = IORING_OP_WRITE,
		[FSRING_RENAMEAT] = IORING_OP_RENAMEAT,
	};
	struct io_uring_probe *p;

	memset(r, 0, sizeof(*r));
	if (io_uring_queue_init(4, &r->ring, 0) < 0)
		return;
	r->up = 1;
	p = io_uring_get_probe_ring(&r->ring);
	if (!p)
		return;
	for (int k = 0; k < FSRING_NOPS; k++)
		if (io_uring_opcode_supported(p, opcode[k]))
			r->have |= 1u << k;
	io_uring_free_probe(p);
}

void fsring_exit(struct fsring *r)
{
	if (r->up)
		io_uring_queue_exit(&r->ring);
	r->up = 0;
	r->have = 0;
}

/* The sqe for op, or NULL: then the caller makes the system call. */
static struct io_uring_sqe *sqe_for(struct fsring *r, enum fsring_op op)
{
	struct io_uring_sqe *sqe;

	if (!r->up || !(r->have & (1u << op)))
		return NULL;
	sqe = io_uring_get_sqe(&r->ring);
	return sqe;
}

/* Submit sqe and wait for its result. */
static int run(struct fsring *r)
{
	struct io_uring_cqe *cqe;
	int ret = io_uring_submit_and_wait(&r->ring, 1);

	if (ret < 0)
		return ret;
	do {
		ret = io_uring_wait_cqe(&r->ring, &cqe);
	} while (ret == -EINTR);
	if (ret < 0)
		return ret;
	ret = cqe->res;
	io_uring_cqe_seen(&r->ring, cqe);
	r->uring_ops++;
	return ret;
}

static int sys(struct fsring *r, int ret)
{
	r->sys_ops++;
	return ret < 0 ? -errno : ret;
}

int fsring_open(struct fsring *r, int dirfd, const char *rel, int flags,
		mode_t mode)
{
	struct io_uring_sqe *sqe;
	struct open_how how;

	if (!rel[0] || rel[0] == '/')
		return -EXDEV;
	/* An O_CREAT open always goes to io-wq: the call is cheaper. */
	sqe = flags & O_CREAT ? NULL : sqe_for(r, FSRING_OPENAT2);
	if (!sqe) {
		r->sys_ops++;
		return anchor_openat(dirfd, rel, flags, mode);
	}
	anchor_how(&how, flags, mode);
	io_uring_prep_openat2(sqe, dirfd, rel, &how);
	return run(r);
}

int fsring_close(struct fsring *r, int fd)
{
	struct io_uring_sqe *sqe = sqe_for(r, FSRING_CLOSE);

	if (!sqe)
		return sys(r, close(fd));
	io_uring_prep_close(sqe, fd);
	return run(r);
}

int fsring_statx(struct fsring *r, int dirfd, const char *name, int flags,
		 struct statx *sx)
{
	/*
	 * The system call: the kernel hands every IORING_OP_STATX to an
	 * io-wq worker (two context switches for one lookup).
	 */
	return sys(r, statx(dirfd, name, flags, STATX_BASIC_STATS, sx));
}

int fsring_unlinkat(struct fsring *r, int dirfd, const char *name, int flags)
{
	struct io_uring_sqe *sqe = sqe_for(r, FSRING_UNLINKAT);

	if (!sqe)
		return sys(r, unlinkat(dirfd, name, flags));
	io_uring_prep_unlinkat(sqe, dirfd, name, flags);
	return run(r);
}

int fsring_mkdirat(struct fsring *r, int dirfd, const char *name, mode_t mode)
{
	struct io_uring_sqe *sqe = sqe_for(r, FSRING_MKDIRAT);

	if (!sqe)
		return sys(r, mkdirat(dirfd, name, mode));
	io_uring_prep_mkdirat(sqe, dirfd, name, mode);
	return run(r);
}

int fsring_renameat(struct fsring *r, int from, const char *oldname, int to,
		    const char *newname, unsigned flags)
{
	struct io_uring_sqe *sqe = sqe_for(r, FSRING_RENAMEAT);

	if (!sqe)
		return sys(r, renameat2(from, oldname, to, newname, flags));
	io_uring_prep_renameat(sqe, from, oldname, to, newname, flags);
	return run(r);
}

ssize_t fsring_rw(struct fsring *r, int write, int fd, void *buf, size_t len,
		  uint64_t off, int direct)
{
	struct io_uring_sqe *sqe = direct ? sqe_for(r, write ? FSRING_WRITE :
							       FSRING_READ) :
					    NULL;

	if (!sqe) {
		ssize_t n = write ? pwrite(fd, buf, len, (off_t)off) :
				    pread(fd, buf, len, (off_t)off);

		r->sys_ops++;
		return n < 0 ? -errno : n;
	}
	if (write)
		io_uring_prep_write(sqe, fd, buf, (unsigned)len, off);
	else
		io_uring_prep_read(sqe, fd, buf, (unsigned)len, off);
	return run(r);
}
