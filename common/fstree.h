/*
 * The file tree of a Vdbench file-system definition (fsd=): from depth=,
 * width=, files=, distribution= and sizes= it names every directory and
 * file under an anchor, in Vdbench's order and with Vdbench's names
 * (vdb.DEPTH_WIDTH.dir, vdb_fNNNN.file), and gives each file its size from
 * the sizes= distribution, drawn with java.util.Random from a fixed seed
 * exactly as Vdbench draws it, so that seed 0 (Vdbench's) reproduces
 * Vdbench's tree byte for byte. Pure: no file is looked at. The master
 * uses it to plan (counts, bytes) and the slave to format and clean an
 * anchor (slave/anchor_format.c, slave/anchor.c); the marker text lockstep
 * writes into an anchor it formats is made and checked here too.
 */
#ifndef LOCKSTEP_COMMON_FSTREE_H
#define LOCKSTEP_COMMON_FSTREE_H

#include <stddef.h>
#include <stdint.h>

/* Vdbench's limit on files= (files in one directory). */
#define FSTREE_FILES_MAX 10000000u
/*
 * The most directories plus files one tree may have: Vdbench counts them
 * in a Java int, and a larger tree is a typing error, not a test.
 */
#define FSTREE_ENTRIES_MAX 2147483647ull
/* At most this many (size,pct) pairs in sizes=. */
#define FSTREE_SIZES_MAX 32
/* The longest relative path of an entry (with its NUL). */
#define FSTREE_PATH_MAX 4096
/* The name of the marker file lockstep keeps in an anchor it formats. */
#define FSTREE_MARKER ".lockstep-anchor"

/* Where files go: only the deepest directories (Vdbench's default), or all. */
enum fstree_dist { FSTREE_DIST_BOTTOM, FSTREE_DIST_ALL };

/*
 * The shape of a tree as the fsd= row gives it. sizes= is either one size
 * (nsizes 1, size[0]), pairs of (size, percent) adding up to 100, or one
 * pair (size, 0): "sizes averaging size", each file a random size between
 * size/2 and size*3/2 rounded as Vdbench rounds it.
 */
struct fstree_shape {
	uint32_t depth, width, files;
	enum fstree_dist dist;
	uint32_t nsizes;                 /* pairs given; 1 = one size */
	uint64_t size[FSTREE_SIZES_MAX]; /* bytes */
	uint32_t pct[FSTREE_SIZES_MAX];  /* percent; unused when nsizes 1 */
	int average;                     /* sizes=(size,0) */
	uint64_t seed;                   /* 0 = Vdbench's */
};

/* The counts of a checked shape. */
struct fstree_counts {
	uint64_t dirs;  /* width + width^2 + ... + width^depth */
	uint64_t files; /* files x directories holding files */
	uint64_t bytes; /* the sum of every file's size */
};

/*
 * Check shape and fill counts (NULL allowed). Every product and sum is
 * overflow-checked against FSTREE_ENTRIES_MAX and UINT64_MAX. Returns 0,
 * or -EINVAL / -E2BIG with a sentence in err (errlen bytes; err may be
 * NULL with errlen 0) naming the parameter and the limit. counts->bytes
 * walks every file's size (the sizes are drawn one by one), so it costs
 * O(files).
 */
int fstree_check(const struct fstree_shape *shape, struct fstree_counts *counts,
		 char *err, size_t errlen);

/* One entry of the tree, as fstree_next() yields it. */
struct fstree_entry {
	int is_dir;
	uint32_t level;             /* 1 = a child of the anchor */
	uint64_t index;             /* dirs: 0.., files: 0.. (separately) */
	uint64_t size;              /* files only */
	char path[FSTREE_PATH_MAX]; /* relative to the anchor */
};

/*
 * A walk over a checked shape: every directory first, parents before
 * children, in Vdbench's order (by level, then by the directory's own
 * width index, then by its parent's order), then every file, directory by
 * directory in that order, with its size. The caller owns the struct; it
 * holds no memory.
 */
struct fstree_iter {
	const struct fstree_shape *shape;
	uint64_t dirs, dir_at, file_dir, file_no, file_index;
	uint64_t rng;
	uint32_t share_no, share_count; /* shared=yes: this slave's files */
	int phase;                      /* 0 dirs, 1 files, 2 done */
};
void fstree_iter_init(struct fstree_iter *it, const struct fstree_shape *shape);
/*
 * shared=yes (Vdbench's): yield only the files of slave number no of
 * count (every count-th file from the no-th, counted over the whole
 * tree), every folder still yielded. Each file's size is drawn whether
 * it is this slave's or not, so a file has the same size whatever the
 * number of slaves. Returns 0, or -EINVAL when no >= count or count is 0.
 */
int fstree_iter_share(struct fstree_iter *it, uint32_t no, uint32_t count);
/* The next entry into e: 1, or 0 at the end. */
int fstree_next(struct fstree_iter *it, struct fstree_entry *e);

/*
 * What a name found in a directory of the tree is: FSTREE_NAME_DIR (a
 * vdb.L_W.dir the tree has at that level), FSTREE_NAME_FILE (a
 * vdb_fNNNN.file the tree has there) or FSTREE_NAME_FOREIGN. level is the
 * level of the directory holding name (0 = the anchor); leaf says whether
 * that directory holds files in this shape.
 */
enum fstree_name { FSTREE_NAME_FOREIGN, FSTREE_NAME_DIR, FSTREE_NAME_FILE };
enum fstree_name fstree_name_kind(const struct fstree_shape *shape,
				  uint32_t level, const char *name);
/* Whether the directory at level (0 = the anchor) holds files. */
int fstree_level_has_files(const struct fstree_shape *shape, uint32_t level);

/*
 * The marker's text for shape (one "key value" line each: the format
 * version, depth, width, files, distribution, seed and every size pair),
 * into buf. Returns its length, or -ENOSPC.
 */
int fstree_marker_text(const struct fstree_shape *shape, char *buf, size_t len);

/*
 * Vdbench's totalsize= and workingsetsize= subset (FileAnchor's
 * createUsedList, createWorkingSetList): of the n files whose sizes are
 * size[], draw file (int)(nextDouble() * n) with java.util.Random(0),
 * each file once, until the drawn files' bytes reach want. in[] (n bits,
 * zeroed by the caller) marks them; *picked counts them. Returns 0,
 * -ERANGE when want passes the n files' bytes, or -EAGAIN after
 * FSTREE_SUBSET_TRIES draws in a row of files already drawn (Vdbench
 * gives up there too).
 */
#define FSTREE_SUBSET_TRIES 1000000
int fstree_subset(const uint64_t *size, uint64_t n, uint64_t want, uint64_t *in,
		  uint64_t *picked);

#endif
