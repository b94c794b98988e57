/*
 * The walk of a format shared by its threads (fwd=format threads=,
 * Vdbench's OpFormat). The tree's walk (common/fstree.h: every folder,
 * level by level, then every file) is one queue: each thread takes the
 * next entry under a lock, so the n-th file of the walk keeps number n
 * (validation's key, slave/fsval.h) whichever thread makes it. A folder
 * of level L starts only once no entry of a lower level is being made,
 * and a file only once every folder is made: a folder's parent, and a
 * file's folder, exist before it is made (Vdbench's mkdir step ending
 * before its create step, OpFormat.waitForAllOtherThreads). A failed
 * entry stops the walk: no entry is taken after it.
 */
#ifndef LOCKSTEP_SLAVE_FMTQ_H
#define LOCKSTEP_SLAVE_FMTQ_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "common/fstree.h"

/* The level the files run at: after every folder's. */
#define FMTQ_FILES UINT32_MAX
/* The most threads one format runs (the slave refuses more). */
#define FMTQ_THREADS_MAX 64u

struct fmtq {
	struct fstree_iter it;
	const uint64_t *only; /* totalsize=: the files made, or NULL: all */
	int dirs_only;        /* format=directories: no file */
	uint64_t files;       /* files walked: the next file's number */
	uint32_t level;       /* the level of the entries being made */
	unsigned busy;        /* entries taken and not done */
	/*
	 * The walk's next entry, drawn but not taken: it waits here, not in
	 * a thread, until it may start, so that every entry drawn and not
	 * done is a busy one (an entry a thread held while it waited was not
	 * counted, and a file could start before the folder that thread was
	 * to make: ENOENT on ext4 one run in eight).
	 */
	int have_next;
	struct fstree_entry next;
	uint64_t next_file;
	int ret; /* the first error */
	pthread_mutex_t lock;
	pthread_cond_t cond;
};

/*
 * The walk of shape (checked), of share share_no of share_count
 * (shared=yes; a count of 0 or 1: every file), making the files of only
 * (bits in the walk's order of this slave's files; NULL: all), or the
 * folders alone with dirs_only.
 */
void fmtq_init(struct fmtq *q, const struct fstree_shape *shape,
	       uint32_t share_no, uint32_t share_count, const uint64_t *only,
	       int dirs_only);
void fmtq_destroy(struct fmtq *q);

/*
 * The next entry to make into e, and a file's number in *file: 1, or 0
 * at the end. Files skipped (not in only) still take their number. Not
 * locked: fmtq_take() calls it under the lock.
 */
int fmtq_next(struct fmtq *q, struct fstree_entry *e, uint64_t *file);

/* An entry's level in the queue: a folder's own, FMTQ_FILES a file's. */
uint32_t fmtq_level(const struct fstree_entry *e);

/*
 * Whether an entry of level may start while busy entries of level
 * running are being made: the same level or lower, or none busy.
 */
int fmtq_may_start(uint32_t running, unsigned busy, uint32_t level);

/*
 * Take the next entry (waiting for the folders it needs): 1, or 0 when
 * there is none left or the walk failed. Each 1 is followed by
 * fmtq_done().
 */
int fmtq_take(struct fmtq *q, struct fstree_entry *e, uint64_t *file);
/* The taken entry is made (ret 0) or failed: 1 when ret is the first. */
int fmtq_done(struct fmtq *q, int ret);

/* What a thread does with an entry it took: 0 or -errno. */
typedef int (*fmtq_make_fn)(void *ctx, const struct fstree_entry *e,
			    uint64_t file);

/*
 * Make every entry of q with n threads (1..FMTQ_THREADS_MAX; the caller
 * is one), thread i calling make with (char *)ctx + i * ctx_size. Returns
 * 0, or the first error with the path of its entry in bad ("" when a
 * thread could not start).
 */
int fmtq_run(struct fmtq *q, unsigned n, fmtq_make_fn make, void *ctx,
	     size_t ctx_size, char *bad, size_t badlen);

#endif
