/*
 * What anchor.c (the marker, the walks over a tree, the clean) and
 * anchor_format.c (the format) share: the phase's hooks and the tree's
 * rules the format obeys. Internal to those two files; the rest of the
 * slave uses anchor.h.
 */
#ifndef LOCKSTEP_SLAVE_ANCHOR_INT_H
#define LOCKSTEP_SLAVE_ANCHOR_INT_H

#include <stddef.h>
#include <stdint.h>

#include "common/fstree.h"
#include "common/timeutil.h"
#include "slave/anchor.h"

/* Tell the phase (st->run) about one event that began at t0. */
static inline void anchor_note(const struct anchor_stats *st,
			       enum anchor_event ev, uint64_t t0,
			       uint64_t bytes, int err)
{
	if (st && st->run && st->run->note)
		st->run->note(st->run->arg, ev, time_mono_ns() - t0, bytes,
			      err);
}

/* Whether the phase (st->run) was told to stop. */
static inline int anchor_stopped(const struct anchor_stats *st)
{
	return st && st->run && st->run->stop && *st->run->stop;
}

/* Whether the tree is shared=yes: made by several slaves at once. */
static inline int anchor_shared(const struct anchor_stats *st)
{
	return st && st->run && st->run->share_count > 1;
}

/* Write the marker of shape into the anchor dirfd: 0 or -errno. */
int anchor_marker_write(int dirfd, const struct fstree_shape *shape);

/* The error of a marker that differs (-ESTALE) or cannot be read: ret. */
int anchor_marker_refused(const char *path, int ret, char *err, size_t errlen);

/* The reason for -errno ret in an anchor's message (links, size, stop). */
const char *anchor_why(int ret);

/* 1 with the anchor's first entry's name in buf, 0 if empty, or -errno. */
int anchor_first_entry(int dirfd, char *buf, size_t len);

/*
 * 0 when the anchor holds nothing but the tree of shape; -ENOTEMPTY with
 * a sentence in err naming the first foreign entry and ending in tail; or
 * -errno.
 */
int anchor_refuse_foreign(int dirfd, const char *path,
			  const struct fstree_shape *shape, const char *tail,
			  char *err, size_t errlen);

/*
 * Remove the tree of shape (format=clean, or a format without restart):
 * refused, nothing removed, with a foreign entry. 0 or -errno with err.
 */
int anchor_remove_tree(int dirfd, const char *path,
		       const struct fstree_shape *shape,
		       struct anchor_stats *st, char *err, size_t errlen);

/*
 * Open the folder of rel beneath dirfd (a duplicate of dirfd for a name
 * in the anchor) with *last its last name: a descriptor or -errno.
 */
int anchor_open_parent(int dirfd, const char *rel, const char **last);

#endif
