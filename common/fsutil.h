/*
 * Small file-system helpers shared by the master and the slave: creating a
 * folder with its parents, copying a file, syncing a folder and asking for
 * a filesystem's free space.
 */
#ifndef LOCKSTEP_COMMON_FSUTIL_H
#define LOCKSTEP_COMMON_FSUTIL_H

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
/* Bytes an unprivileged writer may still use on path's filesystem. */
int fsutil_free_bytes(const char *path, uint64_t *bytes);

#endif
