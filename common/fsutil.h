/*
 * Small file-system helpers shared by the master and the slave: creating a
 * folder with its parents, copying a file, syncing a folder, asking for a
 * filesystem's free space, and the checks that keep a name or path a peer
 * supplied inside the folder it is meant for.
 */
#ifndef LOCKSTEP_COMMON_FSUTIL_H
#define LOCKSTEP_COMMON_FSUTIL_H

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

/*
 * Create path and every missing parent (mode 0755), like `mkdir -p`. A
 * folder that exists already is fine. Returns 0 or -errno.
 */
int fsutil_mkdir_p(const char *path);
/*
 * Create the folders above the file at path (`mkdir -p` of its dirname).
 * Returns 0 or -errno; a path without a folder part is fine.
 */
int fsutil_mkdir_parents(const char *path);
/*
 * Copy the file from into to (created or truncated), flushed and fsynced:
 * every write is checked. Returns 0 or -errno.
 */
int fsutil_copy_file(const char *from, const char *to);
/* fsync the folder at path (after a rename in it). Returns 0 or -errno. */
int fsutil_fsync_dir(const char *path);
/*
 * Write path whole or not at all: fill(f, arg) writes into a temporary
 * beside it (".NAME.XXXXXX", created exclusively, so a planted file or
 * link of that name is never opened; mode 0644), which is then renamed
 * over path. With durable the temporary is fsync'ed before the rename and
 * the folder after it. An existing path that is not a regular file or a
 * link is refused (-EEXIST). Returns 0, fill's negative return, or -errno;
 * the temporary never stays.
 */
int fsutil_write_atomic(const char *path, int durable,
			int (*fill)(FILE *f, void *arg), void *arg);
/* Bytes an unprivileged writer may still use on path's filesystem. */
int fsutil_free_bytes(const char *path, uint64_t *bytes);

/* The longest name fsutil_name_ok() accepts (a 64-byte field with its NUL). */
#define FSUTIL_NAME_MAX 63

/*
 * Whether name is a safe name for a host, a slave or a file in a results
 * folder: 1 to FSUTIL_NAME_MAX bytes of letters, digits, '-', '_' and '.',
 * not starting with a dot (so never ".", ".." or a hidden file). Names that
 * pass can be printed and used as one path component as they are.
 */
int fsutil_name_ok(const char *name);
/*
 * out = dir "/" rel, when the result stays inside dir: rel is relative,
 * not empty, and none of its components is empty, "." or "..". Purely
 * lexical (no file is looked at): the caller opens the result without
 * following a symbolic link at its end. Returns 0, -EINVAL for a rel that
 * would leave dir, or -ENAMETOOLONG when out cannot hold it.
 */
int fsutil_join_inside(const char *dir, const char *rel, char *out,
		       size_t outlen);
/*
 * Read up to max bytes of the regular file name inside the folder dirfd
 * into *buf (malloc'ed, NUL-ended), opened with O_NOFOLLOW and O_NONBLOCK
 * (a FIFO never blocks: it is refused). *truncated says the file was
 * longer. Returns 0 or -errno (-ELOOP for a symbolic link, -EINVAL for
 * not a regular file). What lockstep report, history import and compare
 * read a results folder with.
 */
int fsutil_read_at(int dirfd, const char *name, size_t max, char **buf,
		   size_t *len, int *truncated);
/* Words for an error of fsutil_read_at(). */
const char *fsutil_read_why(int err);

#endif
