/*
 * What the files of proto/ share and nobody else may see: the field tables
 * that describe each message (schema.c), the decoder's error context that
 * the scanner and the histogram codec report through (decode_fail.c), and the
 * entry points of the layers between. Only the .c files of proto/
 * include this header, which keeps <msgpack.h> inside proto/; everyone
 * else uses proto/proto.h.
 */
#ifndef LOCKSTEP_PROTO_PROTO_INT_H
#define LOCKSTEP_PROTO_PROTO_INT_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>

#include <msgpack.h>

#include "common/hist.h"
#include "proto/proto.h"

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))
#define MEMBER(st, m) (((st *)0)->m)

/* Most fields in one map (see the tables in schema.c). */
#define MAX_FIELDS 32 /* fields of the largest map; checked per table */

enum fkind {
	F_U32,
	F_U64,
	F_I32,
	F_I64,
	F_DBL,      /* double, finite and >= 0 */
	F_PCT,      /* double, finite and in [0, 100] */
	F_STR,      /* char[size], NUL-terminated */
	F_STRS,     /* char[max][size] with a uint32_t count */
	F_U32S,     /* uint32_t[max] with a uint32_t count */
	F_U64X2,    /* uint64_t[2]: read, write */
	F_MAPS,     /* inline struct array with a uint32_t count */
	F_MAPS_PTR, /* malloc'd struct array with a uint32_t count */
	F_HISTS,    /* struct hist_sparse[2]: read, write */
	F_HIST,     /* one struct hist_sparse */
	F_HIST_BIN, /* hist_sparse idx[] and cnt[] as one bin of varints */
};

struct ftab;

struct field {
	const char *key;
	enum fkind kind;
	size_t off;             /* of the value in the struct */
	size_t size;            /* F_STR, F_STRS: bytes per string */
	uint64_t max;           /* arrays: most elements; F_U64: top value */
	size_t cnt;             /* array kinds: offset of the uint32_t count */
	const struct ftab *sub; /* F_MAPS, F_MAPS_PTR: element layout */
};

struct ftab {
	const struct field *f;
	size_t n;
	size_t elem; /* sizeof the struct described */
};

/* ---- schema.c ---- */

/* Per message type: its name on the wire ("t") and its field table. */
extern const char *const schema_type_names[PROTO_TYPE_MAX];
extern const struct ftab *const schema_type_tabs[PROTO_TYPE_MAX];

/*
 * A sparse histogram. The position of its bin "b" is relied on by
 * decode_hist(). Its offset is 0: the bin is written from, and read into,
 * the whole struct hist_sparse.
 */
extern const struct ftab schema_hist_tab;
enum { HIST_F_BIN = 5 };

/*
 * Checks the plan's cross-references, which no single field can: every
 * stream's target indexes must name one of the plan's targets. Counts are
 * checked too, so the encoder can call this on hand-built plans first.
 * Returns 0, or -EINVAL with the reason in why.
 */
int schema_plan_check(const struct proto_plan *p, char *why, size_t whylen);
/*
 * schema_fs.c: a plan's fsds and fwds (none beside targets or streams,
 * none in a format phase, indexes in range, shapes and shares that can
 * be), and an interval's fsops (each operation other than read and write
 * at most once, in order, its histogram counting its count). 0 or
 * -EINVAL with why.
 */
int schema_plan_fs_check(const struct proto_plan *p, char *why, size_t whylen);
int schema_fsops_check(const struct proto_interval *iv, char *why,
		       size_t whylen);

/*
 * Whether a phase_end's validation counts hang together: vs's targets
 * strictly increasing, no sd (nor the totals) with more mismatches than
 * blocks verified, and vs summing exactly to vw, vr and vm (a slave that
 * sends no vs must send zero totals). Whether the targets are in the
 * slave's plan is the master's check: the decoder has no plan. Returns 0,
 * or -EINVAL with the reason in why.
 */
int schema_phase_end_check(const struct proto_phase_end *p, char *why,
			   size_t whylen);

/*
 * Whether an interval's per-target histograms hang together: at most
 * PROTO_MAX_SD_LATS, targets strictly increasing, and (when there are
 * any) their counts and sums adding up to the read and write
 * histograms' (every I/O is in exactly one target's). Whether the
 * targets are in the slave's plan is the master's check. Returns 0, or
 * -EINVAL with the reason in why.
 */
int schema_interval_check(const struct proto_interval *iv, char *why,
			  size_t whylen);

/*
 * Whether a ready's target sizes are plausible for any plan: at most
 * PROTO_MAX_TARGETS, each a named sd of at least one byte (below
 * PROTO_MAX_SD_BYTES, the field's own bound), no sd twice. Whether the
 * sds are in the slave's plan, and the sizes its size=, is the master's
 * check. Returns 0, or -EINVAL with the reason in why.
 */
int schema_ready_check(const struct proto_ready *r, char *why, size_t whylen);

/* ---- decode_fail.c ---- */

/*
 * Where in the message the decoder is, as a stack of keys and array
 * indexes; it is only formatted when something is wrong, so decoding a
 * histogram of thousands of buckets costs no printf.
 */
#define PATH_DEPTH 12

struct dctx {
	char *err;
	size_t errlen;
	unsigned depth;
	struct {
		const char *key; /* NULL for an array index */
		uint32_t idx;
	} path[PATH_DEPTH];
};

/* Writes "path: reason" to the caller's err and returns rc. */
int decode_fail(struct dctx *c, int rc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#define BAD(c, ...) decode_fail(c, -EBADMSG, __VA_ARGS__)

/* ---- scan.c ---- */

/*
 * Checks that buf is exactly one well-formed msgpack object whose
 * containers the remaining bytes could hold, before msgpack-c allocates
 * anything for it. Returns 0 or -EBADMSG (through c).
 */
int scan_frame(struct dctx *c, const void *buf, size_t len);

/* ---- histcodec.c ---- */

/* Packs the buckets of the valid sparse histogram h as one bin. */
int histcodec_encode(msgpack_packer *pk, const struct hist_sparse *h);

/*
 * Reads the bin o into h->idx, h->cnt and h->n, checking it against
 * h->count (read before). h owns what was allocated even on failure.
 * Returns 0, -EBADMSG or -ENOMEM (through c).
 */
int histcodec_decode(struct dctx *c, const msgpack_object *o,
		     struct hist_sparse *h);

#endif
