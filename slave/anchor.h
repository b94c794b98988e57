/*
 * An fsd= anchor on the slave: formatting its tree (common/fstree.h) and
 * cleaning it, with every file operation kept beneath the anchor. Each
 * path is opened with openat2(RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS |
 * RESOLVE_NO_MAGICLINKS) from the anchor's descriptor, or, on a kernel
 * without openat2, by walking it one component at a time with O_NOFOLLOW:
 * no symbolic link is ever followed and nothing outside the anchor is
 * touched. Lockstep writes a marker (FSTREE_MARKER, its text the tree's
 * shape) into an anchor it formats, and cleans only an anchor whose marker
 * matches, only names the tree has, and nothing if a foreign name is there.
 */
#ifndef LOCKSTEP_SLAVE_ANCHOR_H
#define LOCKSTEP_SLAVE_ANCHOR_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "common/fstree.h"

/* What a format or clean did, told as it happens (anchor_run.note). */
enum anchor_event {
	ANCHOR_EV_MKDIR,  /* a folder made */
	ANCHOR_EV_CREATE, /* a file created (its open with O_CREAT) */
	ANCHOR_EV_WRITE,  /* one write of a file's data: bytes */
	ANCHOR_EV_DELETE, /* a file removed */
	ANCHOR_EV_RMDIR,  /* a folder removed */
};

/*
 * How a format or clean runs when it is a phase's (slave/fsphase.c): each
 * event told to note (its latency in ns, its bytes for a write, 0 or
 * -errno) as it happens, so that the phase's intervals show progress; the
 * walk checks *stop between entries and ends with -ECANCELED once it is
 * set. shared=yes (share_count > 1): only the files of share_no
 * (fstree_iter_share), folders made by whoever comes first, the marker
 * written and checked by share_no 0 only, no clean before a format.
 */
struct anchor_run {
	void (*note)(void *arg, enum anchor_event ev, uint64_t lat_ns,
		     uint64_t bytes, int err);
	void *arg;
	const volatile int *stop;
	uint32_t share_no, share_count;
	/*
	 * validate=yes (slave/fsval.h): stamp is told each write of a file's
	 * data before it goes out (file: its number in the walk's files,
	 * buf: n writable bytes for offset at), wrote when it came back
	 * (got: bytes written or -errno). NULL: the fixed pattern goes out.
	 * A stamp that fails (-errno: its journal) stops the format with
	 * that error before the write goes out.
	 */
	int (*stamp)(void *arg, uint64_t file, void *buf, uint64_t at,
		     size_t n);
	void (*wrote)(void *arg, uint64_t file, uint64_t at, size_t n,
		      int64_t got);
	/* totalsize=: bits of this slave's files (in the tree's order) a
	 * format makes, or NULL: all of them. */
	const uint64_t *only;
	/* format=directories: the folders only, no file made or written. */
	int dirs_only;
	/* fwd=format xfersize=: bytes a write (0: ANCHOR_FORMAT_XFER). */
	uint32_t xfer;
	/*
	 * fwd=format threads=: the threads that make the tree at once (0 or
	 * 1: the caller alone; at most FMTQ_THREADS_MAX), sharing its walk
	 * (slave/fmtq.h): folders level by level, then files, each file
	 * with its number in the walk whichever thread makes it. note,
	 * stamp and wrote are called from each of them.
	 */
	uint32_t threads;
	/*
	 * O_DIRECT, O_DSYNC, O_SYNC: how the files are opened (the rd's,
	 * fwd=format's or the fsd's openflags=, as Vdbench opens a format's
	 * files). With O_DIRECT the writes come from an aligned buffer; a
	 * file whose size is not whole sectors then fails (EINVAL).
	 */
	int oflags;
};

/* A format's writes without fwd=format xfersize= (Vdbench's 128k). */
#define ANCHOR_FORMAT_XFER (128u * 1024)

/* What a format or clean did. */
struct anchor_stats {
	uint64_t dirs_made, files_made, files_completed, bytes_written;
	uint64_t dirs_removed, files_removed;
	uint64_t files_walked;        /* files walked: the next file's number */
	const struct anchor_run *run; /* NULL: no events, no share */
};

/*
 * Open the anchor folder path (it must exist and be a folder; a symbolic
 * link as its last component is refused, as Vdbench refuses a missing
 * anchor). Returns a descriptor the caller closes, or -errno with a
 * sentence in err.
 */
int anchor_open(const char *path, char *err, size_t errlen);

/*
 * create_anchors=yes: make the folders of the absolute path that are
 * missing, the anchor last (mode 0755). The folders that exist are
 * walked as the kernel resolves them, as anchor_open() and the --allow
 * check do; from the first missing one on, each folder is made and then
 * opened with O_NOFOLLOW before the next is made in it, so nothing is
 * made through a link that appears meanwhile. A "." or ".." component is
 * refused. Returns the folders made (0: the anchor was there), or -errno
 * with a message in err.
 */
int anchor_make(const char *path, char *err, size_t errlen);

/*
 * Open rel (relative, no "." or ".." components) beneath the anchor's
 * descriptor dirfd with flags and mode, following no symbolic link.
 * Returns a descriptor the caller closes, or -errno: -ELOOP for a link on
 * the way, -EXDEV for a path that would leave the anchor.
 */
int anchor_openat(int dirfd, const char *rel, int flags, mode_t mode);
/*
 * The open_how of anchor_openat(): flags with O_CLOEXEC, mode with
 * O_CREAT, resolved beneath dirfd with no symlink (fsring.c's ring open).
 */
struct open_how;
void anchor_how(struct open_how *how, int flags, mode_t mode);

/* Tests: 1 makes anchor_openat() walk even where openat2 exists. */
void anchor_force_walk(int on);

/*
 * Format the tree of shape (checked by fstree_check()) in the anchor
 * dirfd named path (for messages): the marker first, then every folder,
 * then every file written with real data to its size (no holes). With
 * restart the tree is completed where it stands: existing folders and
 * files are kept and short files written up to their size. Without
 * restart an anchor lockstep formatted before is cleaned first. An anchor
 * that holds anything but lockstep's marker and tree, or whose marker
 * describes another tree, is refused. Returns 0 or -errno with a sentence
 * in err naming the entry; st (may be NULL) counts what was done.
 */
int anchor_format(int dirfd, const char *path, const struct fstree_shape *shape,
		  int restart, struct anchor_stats *st, char *err,
		  size_t errlen);

/*
 * Whether the anchor dirfd holds lockstep's marker for shape: 1 it does,
 * 0 there is none, -ESTALE it describes another tree, or -errno.
 */
int anchor_marker(int dirfd, const struct fstree_shape *shape);

/*
 * Remove the tree of shape from the anchor (format=clean): only when its
 * marker exists and matches shape, and only when every entry is a name
 * the tree has, of its kind (folder or regular file); otherwise nothing
 * is removed and err names the first foreign entry and how many there
 * are. The marker goes last. shared=yes (st->run->share_count > 1): each
 * sharing slave removes its own files and the folders it can; share_no 0
 * waits for the others' files to go and removes the marker last.
 * Returns 0 or -errno.
 */
int anchor_clean(int dirfd, const char *path, const struct fstree_shape *shape,
		 struct anchor_stats *st, char *err, size_t errlen);

#endif
