/*
 * Targets: making one sd of a plan ready for I/O. A file lun is created or
 * extended with real data first, the file or device is opened with the
 * plan's flags, its size checked against size=, and on O_DIRECT every
 * transfer size checked against the alignment the device needs. Everything
 * that decides whether a slave may touch a target belongs here.
 */
#ifndef LOCKSTEP_SLAVE_TARGET_H
#define LOCKSTEP_SLAVE_TARGET_H

#include <stddef.h>
#include <stdint.h>
#include "proto/proto.h"

/*
 * Make target t of plan p ready: create or extend a file lun to its size
 * (t->create), open it (read-write when need_write), size it, and refuse an
 * O_DIRECT target whose transfer sizes it cannot take. On success *fdp is
 * an open descriptor the caller owns and *sizep the bytes to use; on
 * failure returns -errno with a message naming the sd in err, and leaves
 * nothing open.
 */
int target_open(const struct proto_plan *p, unsigned t, int need_write,
		int *fdp, uint64_t *sizep, char *err, size_t errlen);

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
