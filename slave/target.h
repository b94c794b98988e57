/*
 * Targets: making one sd of a plan ready for I/O. A file lun is created or
 * extended with real data first, the file or device is opened with the
 * plan's flags, its size checked against size=, and on O_DIRECT every
 * transfer size checked against the alignment the device needs. Whether a
 * slave may touch a target at all is asked here, of slave/safety.c, before
 * anything is opened or created.
 */
#ifndef LOCKSTEP_SLAVE_TARGET_H
#define LOCKSTEP_SLAVE_TARGET_H

#include <stddef.h>
#include <stdint.h>
#include "proto/proto.h"

struct safety_allow;

/* Which paths this slave may open at all, from its command line. */
struct target_policy {
	const struct safety_allow *allow; /* --allow; NULL: any path */
	int none; /* a daemon without --allow: no path at all */
};

/* An opened target: the descriptor (the caller's), its bytes, the file
 * status flags the kernel reports for it (F_GETFL), and the signature
 * force=yes lets the phase overwrite ("" for none). */
struct target_opened {
	int fd;
	uint64_t size;
	int flags;
	char forced[PROTO_SIG_LEN];
	/*
	 * O_DIRECT on a file or device that cannot take I/O without
	 * blocking (target_nowait() 0): io_uring hands each of its requests
	 * to an io-wq thread anyway, so the engine queues them there at once.
	 */
	int async;
};

/*
 * Make target t of plan p ready. First the checks, before anything is
 * opened or created: pol (NULL: none), then slave/safety.c's verdict for
 * the access needed (need_write, or a file to fill) with the sd's force=,
 * then room for a file to be created. Then create or extend a file lun to
 * its size (t->create; never under /dev), open it (read-write when
 * need_write; O_NONBLOCK first, so a FIFO cannot hang the slave), size it,
 * and refuse an O_DIRECT target whose transfer sizes it cannot take. On
 * success o holds an open descriptor the caller owns; on failure returns
 * -errno with a message naming the sd, the path, the reason and any
 * override in err, and leaves nothing open (o->fd is -1).
 */
int target_open(const struct proto_plan *p, unsigned t, int need_write,
		const struct target_policy *pol, struct target_opened *o,
		char *err, size_t errlen);

/*
 * Whether an O_DIRECT fd can take I/O without blocking (the kernel's
 * bdev_nowait() for a device, FMODE_NOWAIT for a file), the test io_uring
 * makes before it tries a request inline: one read of the first 4 KiB
 * with RWF_NOWAIT, which the kernel refuses with EOPNOTSUPP when it cannot
 * (zram, brd, tmpfs files). Read only; fd open for reading with O_DIRECT.
 * 1: it can; 0: it cannot (every io_uring request goes to io-wq); -errno:
 * not known (a file shorter than a block, an alignment the device
 * refuses, a read that would have blocked).
 */
int target_nowait(int fd);
/* target_nowait()'s verdict from the read's result r and its errno. */
int target_nowait_of(ssize_t r, int err);

/*
 * Whether this slave's policy lets a plan's journal=dir be made and
 * written: like a target, it must match an --allow glob or be an
 * --allow-path (after symlinks are resolved), and a daemon without
 * --allow has none. 0, or -EPERM (or -errno) with err naming the folder.
 */
int target_check_journal(const char *dir, const struct target_policy *pol,
			 char *err, size_t errlen);

/*
 * Whether this slave's policy lets it read a stream's replay= trace (the
 * master names the file; an error quoting a line of it goes back): as a
 * target, an --allow glob or --allow-path must name it, and a daemon
 * without --allow reads none. 0 for a stream without a trace, or -EPERM
 * (or -errno) with err naming the wd and the file; nothing is opened.
 */
int target_check_replay(const struct proto_stream *st,
			const struct target_policy *pol, char *err,
			size_t errlen);

/*
 * The access mode and the open flags lockstep sets, of F_GETFL flags, as
 * "O_RDWR|O_DIRECT|O_SYNC" (O_SYNC includes O_DSYNC's bit: said once) into
 * buf; returns buf.
 */
const char *target_flags_text(int flags, char *buf, size_t len);

/* Size in bytes of an open regular file or block device. 0 or -errno. */
int target_size(int fd, uint64_t *size);

/*
 * The alignment O_DIRECT needs on fd: the logical block size of a block
 * device, the file system's direct I/O alignment of a file (statx, 6.1+),
 * else 512.
 */
unsigned target_direct_align(int fd);

/*
 * Whether every transfer size of every stream of p that uses target t is a
 * multiple of align: 0, or -EINVAL with a message naming the sd, the wd and
 * the size in err. Pure.
 */
int target_check_align(const struct proto_plan *p, unsigned t, unsigned align,
		       char *err, size_t errlen);

#endif
