/*
 * A file-system thread's operations through its own io_uring, one at a
 * time (the thread waits for each), where the kernel has the opcode
 * (IORING_OP_OPENAT2 with RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS |
 * RESOLVE_NO_MAGICLINKS, CLOSE, UNLINKAT, MKDIRAT, RENAMEAT, and READ and
 * WRITE of an O_DIRECT file, as the ring's probe says), else the system
 * call (an open then through slave/anchor.h's anchor_openat, which walks
 * where openat2 is missing). statx, an open with O_CREAT and a buffered
 * read or write are always system calls: the kernel gives those to an
 * io-wq worker (a tmpfs read, an ext4 or tmpfs write), a hand-off that
 * costs more than the call, or does no better (docs/PERFORMANCE.md).
 * A ring that cannot be set up (memlock, an old kernel) leaves every
 * operation to the system calls. Each call returns what the system call
 * would, as -errno on failure.
 */
#ifndef LOCKSTEP_SLAVE_FSRING_H
#define LOCKSTEP_SLAVE_FSRING_H

#include <fcntl.h>
#include <liburing.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

enum fsring_op {
	FSRING_OPENAT2,
	FSRING_CLOSE,
	FSRING_UNLINKAT,
	FSRING_MKDIRAT,
	FSRING_READ,
	FSRING_WRITE,
	FSRING_RENAMEAT,
	FSRING_NOPS
};

struct fsring {
	struct io_uring ring;
	int up;        /* the ring is set up */
	uint32_t have; /* bit per enum fsring_op the ring runs */
	/* Operations through the ring and through system calls. */
	uint64_t uring_ops, sys_ops;
};

/* Set up r (its probe decides what goes through it); never fails. */
void fsring_init(struct fsring *r);
void fsring_exit(struct fsring *r);
/* rel beneath dirfd, following no link (anchor_openat's rules). */
int fsring_open(struct fsring *r, int dirfd, const char *rel, int flags,
		mode_t mode);
int fsring_close(struct fsring *r, int fd);
int fsring_statx(struct fsring *r, int dirfd, const char *name, int flags,
		 struct statx *sx);
int fsring_unlinkat(struct fsring *r, int dirfd, const char *name, int flags);
int fsring_mkdirat(struct fsring *r, int dirfd, const char *name, mode_t mode);
/* Rename name in folder from to name in folder to (renameat2 flags). */
int fsring_renameat(struct fsring *r, int from, const char *oldname, int to,
		    const char *newname, unsigned flags);
/*
 * pread or pwrite: bytes moved or -errno. Through the ring only for a
 * file opened O_DIRECT (direct); buffered, the system call: the kernel
 * hands a buffered write (ext4, tmpfs) and a tmpfs read to an io-wq
 * worker, 22 us a 4 KiB transfer against 2.5 us for the call, and an
 * ext4 page-cache read through the ring is no faster than the call
 * (docs/PERFORMANCE.md).
 */
ssize_t fsring_rw(struct fsring *r, int write, int fd, void *buf, size_t len,
		  uint64_t off, int direct);

#endif
