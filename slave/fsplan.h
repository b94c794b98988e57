/*
 * The decisions of a file-system phase on the slave (fsd=, fwd=), without
 * threads, clocks or files: the tree as this slave sees it (its folders,
 * its files with their sizes, shared=yes's share of them), which folders
 * and files exist or are busy (bit arrays: nothing is allocated per
 * operation), which file or folder an operation takes next by
 * fileselect= (and whether it may: a read needs an existing file, a
 * create a missing one whose folder exists, an rmdir an empty folder),
 * what the tree looks like after the operation, and each transfer's
 * direction, size and offset. slave/fsphase.c does the doing.
 */
#ifndef LOCKSTEP_SLAVE_FSPLAN_H
#define LOCKSTEP_SLAVE_FSPLAN_H

#include <stddef.h>
#include <stdint.h>

#include "common/fstree.h"
#include "proto/proto.h"
#include "slave/workload.h"

/* Random draws before a pick looks at every entry in turn. */
#define FSPLAN_DRAWS 64

/* One fsd's tree as this slave uses it. Arrays malloc'd, owned. */
struct fsplan_tree {
	uint32_t ndirs;
	uint64_t nfiles;     /* this slave's files (shared=yes: its share) */
	uint32_t *dir_up;    /* parent folder; UINT32_MAX: the anchor */
	uint32_t *dir_name;  /* offset of its relative path in names */
	uint32_t *file_dir;  /* folder of each file */
	uint32_t *file_no;   /* its N in vdb_fNNNN.file */
	uint64_t *file_size; /* bytes, as the tree says */
	char *names;         /* folder paths, NUL-terminated */
	uint64_t *fexist, *fbusy, *dexist, *dbusy; /* bits */
	uint32_t *dkids; /* existing entries in each folder */
	uint64_t *total; /* totalsize=: bits of the files formatted, or NULL */
	uint64_t *use;   /* workingsetsize=, totalsize=: the files picked */
	uint64_t nuse;   /* from, in order; NULL: every file */
	uint64_t *file_at; /* stopafter= sequential: where each file goes on */
	/*
	 * fileio=(random,shared): how many shared picks hold each file (a
	 * busy file with 0 is held alone); NULL when no fwd shares.
	 */
	uint32_t *fshare;
};

/* Build t from a checked shape, this slave share_no of share_count. */
int fsplan_tree_build(struct fsplan_tree *t, const struct fstree_shape *shape,
		      uint32_t share_no, uint32_t share_count);
void fsplan_tree_free(struct fsplan_tree *t);
/*
 * totalsize= and workingsetsize= (bytes, 0 = none): t->total, the files
 * a format makes (fstree_subset() of this slave's files), and t->use, the
 * files the fwds pick from (fstree_subset() of those, with wss, or all of
 * them). -ERANGE when a size passes the bytes it is drawn from.
 */
int fsplan_tree_subsets(struct fsplan_tree *t, uint64_t totalsize,
			uint64_t wss);
/* t->fshare for a fwd with fileio=(random,shared): 0 or -ENOMEM. */
int fsplan_tree_sharing(struct fsplan_tree *t);
/* The relative path of folder d, or of file f (into buf). */
const char *fsplan_dir_path(const struct fsplan_tree *t, uint32_t d);
int fsplan_file_path(const struct fsplan_tree *t, uint64_t f, char *buf,
		     size_t len);

static inline int fsplan_bit(const uint64_t *b, uint64_t i)
{
	return (int)((b[i >> 6] >> (i & 63)) & 1);
}
static inline void fsplan_bit_set(uint64_t *b, uint64_t i, int on)
{
	if (on)
		b[i >> 6] |= UINT64_C(1) << (i & 63);
	else
		b[i >> 6] &= ~(UINT64_C(1) << (i & 63));
}

/* Record what exists (a scan of the anchor): file f, folder d. */
void fsplan_set_file(struct fsplan_tree *t, uint64_t f, int exists);
void fsplan_set_dir(struct fsplan_tree *t, uint32_t d, int exists);

/* Whether op works on folders (mkdir, rmdir) rather than files. */
int fsplan_op_dirs(uint32_t op);
/*
 * Whether entry i may take op now: not busy, and for a file: create a
 * missing one in an existing folder, every other operation an existing
 * one; for a folder: mkdir a missing one whose parent exists, rmdir an
 * existing empty one (a folder an rmdir is taking counts as missing).
 */
int fsplan_ok(const struct fsplan_tree *t, uint32_t op, uint64_t i);

enum { FSPLAN_PICKED = 0, FSPLAN_NONE = 1, FSPLAN_DONE = 2 };
/*
 * fileselect=poisson/midpoint=N (midpoint > 0): Vdbench's distPoisson
 * over n entries: (uint64)(-ln(u) * n / midpoint) mod n, u uniform in
 * (0, 1) (u 0: entry 0). Entry k is picked with probability about
 * (1 - e^(-m/n)) e^(-k m/n) / (1 - e^(-m)), m the midpoint.
 */
uint64_t fsplan_poisson(struct workload_rng *rng, uint64_t n, double midpoint);
/*
 * How a fwd picks (fsplan_pick_how): its operation, fileselect sel,
 * midpoint (> 0: random picks skewed by fsplan_poisson()), shared (fileio=(random,
 * shared), Vdbench's FileEntry.setFileBusy with file sharing: a file
 * that only shared picks hold busy may be taken again, counted in
 * fsplan_tree.fshare; one held alone may not) and, with
 * PROTO_FSEL_RANDOM_ONCE, seen: fsplan_entries() bits, zeroed, the
 * fwd's own (Vdbench's FileEntry.isSelected).
 */
struct fsplan_how {
	uint32_t op, sel;
	double midpoint;
	int shared;
	uint64_t *seen;
};
/* The entries a pick for op draws from: folders, or the files used. */
uint64_t fsplan_entries(const struct fsplan_tree *t, uint32_t op);
/*
 * Pick the entry h->op works on next by fileselect h->sel: random (up to
 * FSPLAN_DRAWS draws, then every entry in turn from a drawn one; with a
 * midpoint first FSPLAN_DRAWS draws of fsplan_poisson()), sequential
 * (from *cursor on, wrapping) or once (from *cursor on, never wrapping:
 * FSPLAN_DONE past the last). *cursor is the fwd's, rng the thread's.
 * FSPLAN_PICKED with *i (marked busy), or FSPLAN_NONE when no entry may
 * take op now. A create or mkdir picked counts in its folder's entries
 * until it is done, so that no rmdir takes that folder meanwhile. d is a
 * copy's or move's destination tree (fsplan_ok_pair), or NULL.
 * PROTO_FSEL_RANDOM_ONCE (Vdbench's FileAnchor.getFile with
 * select_random and select_once): an entry not drawn yet, at random
 * (FSPLAN_DRAWS draws, then the next one not drawn after a drawn one),
 * marked drawn and counted in *cursor whether or not it may take op (a
 * busy or unfit one stays skipped, as Vdbench's); FSPLAN_DONE once every
 * entry was drawn.
 */
int fsplan_pick_how(struct fsplan_tree *t, struct fsplan_tree *d,
		    const struct fsplan_how *h, uint64_t *cursor,
		    struct workload_rng *rng, uint64_t *i);
/*
 * copy and move (to the destination tree d, file for file: the file of
 * the same relative name, Vdbench's getRelativeFile): file i of s may be
 * taken when it exists and is not busy, file i of d is not busy and its
 * folder exists (it is replaced when it exists). A pick marks both busy
 * and counts the destination in its folder (no rmdir meanwhile).
 */
int fsplan_ok_pair(const struct fsplan_tree *s, const struct fsplan_tree *d,
		   uint64_t i);
/*
 * After a copy or move of file i: neither busy; the source gone after a
 * move that worked or an ENOENT; the destination as the operation left
 * it (dst_now: the thread knows whether it removed or made it).
 */
void fsplan_done_pair(struct fsplan_tree *s, struct fsplan_tree *d, uint32_t op,
		      uint64_t i, int err, int dst_now);
/* 0 when d holds s's files index for index (the same shape and share). */
int fsplan_pair_ok(const struct fsplan_tree *s, const struct fsplan_tree *d);
/*
 * After op on entry i: not busy (a file shared picks hold: one fewer,
 * busy until the last is done), and on success (err 0) the tree as the
 * op left it; an error that says otherwise (ENOENT, EEXIST) corrects the
 * bits.
 */
void fsplan_done(struct fsplan_tree *t, uint32_t op, uint64_t i, int err);

/* Whether fileio is random (random, or (random,shared)). */
static inline int fsplan_random_io(uint32_t fileio)
{
	return fileio == PROTO_FILEIO_RANDOM ||
	       fileio == PROTO_FILEIO_RANDOM_SHARED;
}
/*
 * fileio=(sequential,delete) (Vdbench's FwgThread.openForWrite): whether
 * a write of file f (size bytes) deletes it first, then creates it: when
 * the file is whole. at: where the fwd's stopafter= visits go on in it
 * (fsplan_tree.file_at), or NULL: every visit writes the whole file.
 * With at, the file is whole when its next visit would start at 0 (0,
 * or at its end); a file part written since its delete is appended to.
 */
int fsplan_delete_first(const struct proto_fwd *w, const uint64_t *at,
			uint64_t size);
/* A fwd's transfers: sizes and shares, read share. */
struct fsplan_xfer {
	unsigned n;
	uint32_t size[PROTO_MAX_XFER];
	uint64_t cum[PROTO_MAX_XFER]; /* cumulative share, scaled 2^32 */
	uint64_t rd;                  /* with mixed: rdpct scaled 2^32 */
	int mixed;
	uint32_t max;
};
void fsplan_xfer_init(struct fsplan_xfer *x, const struct proto_fwd *w);
/* One transfer's size. */
uint32_t fsplan_xfer_size(const struct fsplan_xfer *x,
			  struct workload_rng *rng);
/* 1 when a transfer of a read or write fwd reads (mixed: by rdpct). */
int fsplan_reads(const struct fsplan_xfer *x, uint32_t op,
		 struct workload_rng *rng);
/*
 * Transfers of one selected file: sequential fileio, every transfer from
 * 0 to size; random: one per xfersize block of the file, at most
 * FSPLAN_RANDOM_MAX, at least 1.
 */
#define FSPLAN_RANDOM_MAX 100
uint64_t fsplan_random_count(uint64_t size, uint32_t xfer);
/*
 * Whether a read or write of a file of size bytes did enough after blocks
 * transfers moving bytes (then it moves to another file): stopafter=N
 * after N transfers, stopafter=P% after P percent of the file's bytes (at
 * least one transfer, as Vdbench checks after each); without stopafter=,
 * random fileio after fsplan_random_count() transfers, sequential never
 * (the file's end ends it).
 */
int fsplan_enough(const struct proto_fwd *w, uint64_t size, uint32_t xfer,
		  uint64_t blocks, uint64_t bytes);
/* A random transfer's offset: len-aligned, below size (0 if smaller). */
uint64_t fsplan_random_offset(uint64_t size, uint32_t len,
			      struct workload_rng *rng);

#endif
