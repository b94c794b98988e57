/*
 * What fsphase.c (the session's side of a file-system phase) and fsops.c
 * (its threads: the format and the fwds' operations) share. Internal to
 * those two files.
 */
#ifndef LOCKSTEP_SLAVE_FSINT_H
#define LOCKSTEP_SLAVE_FSINT_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#include "common/fstree.h"
#include "common/hist.h"
#include "proto/proto.h"
#include "slave/fsplan.h"
#include "slave/fsring.h"
#include "slave/workload.h"

/*
 * Intervals being filled: an operation goes to the interval it completed
 * in, but never to one already sent (the next then) nor more than
 * FS_RING - 1 past the next to send (the session is late: the last).
 */
#define FS_RING 4
/* Threads of one phase, over all its fwds. */
#define FS_MAX_THREADS 1024u

/* One interval's counts, as the interval message carries them. */
struct fs_stat {
	unsigned seq;
	uint64_t ops[2], bytes[2], errors;
	uint64_t n[PROTO_FSOP_MAX], b[PROTO_FSOP_MAX], e[PROTO_FSOP_MAX];
	int last_err;       /* the last error's errno, for the log line */
	uint32_t last_op;   /* and its operation */
	unsigned last_fsd;  /* and its fsd */
	struct hist lat[2]; /* reads, writes */
	struct hist flat[PROTO_FSOP_MAX]; /* the others (from CREATE on) */
};

struct fsphase;

/*
 * A run thread's open folders (O_PATH, opened beneath the tree with
 * anchor_openat, so never through a link), by (fsd, folder), direct
 * mapped; closed when the thread ends. Only for fsds whose folders no
 * fwd of the phase removes (fsphase.dcache), so a cached folder is the
 * tree's folder for the whole phase.
 */
#define FS_DIRCACHE 64
struct fs_dirfd {
	int fd; /* -1: empty */
	unsigned fsd;
	uint32_t dir;
};

struct fs_thread {
	pthread_t tid;
	int joinable;
	struct fsphase *fs;
	unsigned fwd; /* a run thread's fwd, a format thread's fsd */
	struct workload_rng rng;
	unsigned char *buf; /* its transfers' data, the fwd's largest */
	struct fsring ring; /* a run thread's, set up on its thread */
	struct fs_dirfd dc[FS_DIRCACHE];
};

struct fsphase {
	pthread_mutex_t lock; /* state bits, cursors, ring, status */
	pthread_cond_t cond;  /* go */
	const struct proto_plan *plan;
	unsigned nfsds;
	struct fstree_shape *shape;
	struct fsplan_tree *tree;
	int *dirfd;  /* each fsd's tree: the anchor, or its subdir */
	char **path; /* for messages: anchor[/subdir] */
	/* Per fsd: no fwd removes its folders (threads cache them). */
	unsigned char *dcache;
	uint64_t *cursor, *next_due; /* per fwd */
	/* Per fwd: fileselect=(random,once)'s drawn bits, else NULL. */
	uint64_t **seen;
	struct fsplan_xfer *xfer; /* per fwd */
	struct fs_stat *ring;
	unsigned sent; /* the next interval to send */
	int go;
	uint64_t mono_start, interval_ns;
	unsigned first;
	volatile int stop;
	unsigned nthreads;
	struct fs_thread *th;
	atomic_uint running;
	uint64_t first_io;
	/* validate=yes: each fsd's key map (the session's), else NULL. */
	struct fsval_map **val;
	/* validate_id() of this slave's name, in every header it writes. */
	uint16_t slave_id;
	/*
	 * Per fsd: its map's written, verified, mismatched at prepare, and
	 * (validate=only) the blocks it expected then.
	 */
	uint64_t (*v0)[4];
	int status; /* a format's error, -errno */
	char err[PROTO_TEXT_LEN];
	int efd;
};

/*
 * Count one operation op of fsd that began at t0 and ended at t1 (moving
 * bytes, failing with err < 0) into its interval.
 */
void fs_record(struct fsphase *fs, uint32_t op, unsigned fsd, uint64_t t0,
	       uint64_t t1, uint64_t bytes, int err);
/* Wait for go and its start time: 0, or -1 when stopped first. */
int fs_wait_go(struct fsphase *fs);
/* The threads' bodies (arg: struct fs_thread). */
/* slave/fsphase_val.c: validate=yes in a file-system phase. */
struct session;
int fs_val_check(const struct proto_plan *p, char *err, size_t errlen);
int fs_val_maps(struct session *s, char *err, size_t errlen);
void fs_val_log(struct session *s);
void *fs_format_thread(void *arg);
void *fs_run_thread(void *arg);
/* Close a run thread's cached folders (at its end). */
void fs_dir_close(struct fs_thread *th);

#endif
