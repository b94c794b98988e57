/*
 * What the files of the parameter-file parser share and nothing outside
 * master/params/ may include: the scanned form of the text (items and their
 * values with positions), the parser's state, the keyword-table row, the
 * small value helpers every setter uses, and the functions one file of the
 * parser calls in another. The public API is params.h.
 */
#ifndef LOCKSTEP_MASTER_PARAMS_PARAMS_INT_H
#define LOCKSTEP_MASTER_PARAMS_PARAMS_INT_H

#include "master/params/params.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

/* Upper bounds that keep values sane; the engine has its own limits. */
#define THREADS_MAX 65536
/* fwd=format threads=: a slave's format threads (PROTO_FSFMT_THREADS_MAX). */
#define FORMAT_THREADS_MAX 64u
#define SLAVES_MAX 1024
#define XFER_MIN 512
#define XFER_MAX (1024 * 1024)
/* Longest value quoted back in a message. */
#define SHOW_MAX 64

/*
 * In the order a file must define them; fsd= lines go with the sd= lines
 * and fwd= lines with the wd= lines (params.c's kind_rank).
 */
enum kind {
	KIND_NONE = -1,
	KIND_GENERAL,
	KIND_HD,
	KIND_SD,
	KIND_FSD,
	KIND_WD,
	KIND_FWD,
	KIND_RD,
	KIND_PROBE,
	KIND_EV,
	KIND_NR,
};

struct val {
	const char *s; /* not NUL-terminated; quotes removed */
	size_t len;
	struct params_pos pos;
};

struct item {
	const char *key;
	size_t keylen;
	struct params_pos kpos;
	const char *raw; /* the value as written, list parentheses included */
	size_t rawlen;
	struct params_pos vpos;
	bool list;
	size_t nval;
	struct val val[PARAMS_LIST_MAX];
	bool first_on_line; /* first item of its line */
	bool indented;      /* that line started with blanks */
	bool cont;          /* that line began with ',' or the last ended so */
};

struct parser;
struct kw;

typedef int (*kw_set_fn)(struct parser *p, const struct kw *kw, void *obj,
			 const struct item *it);

struct kw {
	const char *name;
	kw_set_fn set; /* NULL: accepted and ignored */
	size_t off;    /* field written by the generic setters */
	size_t size;   /* its size, for strings */
	/* Another name for this row's keyword: both count as one. */
	const char *alias_of;
	/* Keywords lockstep skips: why, and the value that is harmless. */
	const char *why;
	const char *harmless;
	/*
	 * What it means, for lockstep-params(5) (manual.c): every row that
	 * is neither an alias nor skipped (why) has one, or the manual is
	 * not written.
	 */
	const char *doc;
};

#define KW_MAX 64

struct kind_desc {
	const char *name;
	const struct kw *kws;
	size_t nkw;
	int (*finish)(struct parser *p);  /* each definition, once read */
	int (*resolve)(struct parser *p); /* once every line is read; or NULL */
};

union obj {
	struct params_hd hd;
	struct params_sd sd;
	struct params_wd wd;
	struct params_fsd fsd;
	struct params_fwd fwd;
	struct params_rd rd;
	struct params_probe probe;
	struct params_ev ev;
};

/* A text being scanned, saved while an included one is. */
struct source {
	const char *s, *bol;
	unsigned line, file;
	bool at_bol, cont_next;
	bool trusted;
	char *owned; /* an included file's text, freed at its end */
};

/*
 * The names defined so far of one kind, hashed (open addressing, index + 1
 * per slot, 0 free): a duplicate check that walked every earlier name made
 * 100,000 sd= lines take 81 s.
 */
struct name_index {
	unsigned *slot;
	size_t cap; /* a power of two, or 0 */
	size_t n;
};

struct parser {
	const char *name;
	const char *text;
	unsigned flags;  /* PARAMS_* */
	const char *s;   /* scan position */
	const char *bol; /* start of the line s is on */
	unsigned line;
	unsigned file;  /* index into out->files of the text being scanned */
	bool at_bol;    /* nothing scanned yet on this line */
	bool cont_next; /* the last line ended with ',' */
	char *owned;    /* the text being scanned, when it is an include */
	/*
	 * An included file is not trusted to be a parameter file until one of
	 * its items starts with a keyword: before that, an error quotes none
	 * of its text (include=/etc/shadow must not print a line of it).
	 */
	bool trusted;
	size_t depth; /* includes open */
	struct source outer[PARAMS_INCLUDE_DEPTH];
	char *err;
	size_t errlen;
	struct params *out;
	size_t cap[KIND_NR];
	struct name_index names[KIND_NR];
	enum kind last; /* the latest kind defined, for the order check */
	struct item it;

	/* The definition being gathered. */
	enum kind kind;
	bool is_default;
	struct params_pos dpos;
	struct params_pos seen[KW_MAX]; /* given in this definition */
	struct params_pos from[KW_MAX]; /* where each value came from */
	union obj cur;

	/* What xx=default lines set so far. */
	union obj dflt[KIND_NR];
	struct params_pos dflt_from[KIND_NR][KW_MAX];
};

/* How one kind of list value is read (parse) and judged (check). */
struct numkind {
	int (*parse)(struct parser *p, const struct kw *kw, const struct val *v,
		     double *out);
	int (*check)(struct parser *p, const struct kw *kw,
		     struct params_pos pos, const char *sh, double x);
};

/* iorate=max inside a list of rates, until the list is stored. */
#define IORATE_MAX_MARK (-1.0)

/* Vdbench's mount= (hd, rd), refused. */
#define WHY_MOUNT \
	"it would run mount commands as root on every slave: give them as the rd's startcmd= (run on one slave of each host, started with --allow-commands)"

/* How many characters of a value to quote back in a message. */
static inline int show(size_t len)
{
	return len > SHOW_MAX ? SHOW_MAX : (int)len;
}

static inline bool key_is(const struct item *it, const char *name)
{
	return strlen(name) == it->keylen &&
	       !strncasecmp(it->key, name, it->keylen);
}

static inline bool val_is(const struct val *v, const char *word)
{
	return strlen(word) == v->len && !strncasecmp(v->s, word, v->len);
}

/* Copy v into buf as a C string; false when it does not fit. */
static inline bool cstr(const struct val *v, char *buf, size_t len)
{
	if (v->len >= len)
		return false;
	memcpy(buf, v->s, v->len);
	buf[v->len] = '\0';
	return true;
}

/* v as written, cut short for messages. */
static inline const char *shown(const struct val *v, char *buf, size_t len)
{
	snprintf(buf, len, "%.*s", show(v->len), v->s);
	return buf;
}

static inline double *field_double(void *obj, const struct kw *kw)
{
	return (double *)((char *)obj + kw->off);
}

/*
 * diag.c: messages. An error goes into the caller's buffer as
 * "FILE:LINE:COLUMN: message" and stops the parse (it returns -EINVAL);
 * perr is its short name, kept for the many places that report one. A
 * warning is kept in params.warn (0, or -ENOMEM).
 */
__attribute__((format(printf, 3, 4))) int
diag_err(struct parser *p, struct params_pos pos, const char *fmt, ...);
#define perr diag_err
__attribute__((format(printf, 3, 4))) int
diag_warn(struct parser *p, struct params_pos pos, const char *fmt, ...);

/* defaults.c: o as kind k before any xx=default line. */
void params_obj_defaults(union obj *o, enum kind k);

/* params.c: references and definitions. */
int params_set_refs(struct parser *p, const struct kw *kw,
		    const struct item *it, enum kind k, unsigned *idx,
		    size_t *nidx);
int params_set_hosts(struct parser *p, const struct kw *kw,
		     const struct item *it, unsigned *idx, size_t *nidx);

/* scan.c: the text into items. */
bool scan_is_blank(char c);
void scan_skip_to_eol(struct parser *p);
void scan_end_line(struct parser *p);
int scan_next_item(struct parser *p);
struct params_pos scan_text_pos(const char *text, const char *e);
struct params_pos scan_end_pos(const char *text);

/* include.c: include=, and reading a parameter file whole. */
int include_add_file(struct params *pa, const char *name);
/*
 * The path of file name v into path (len bytes): as given when absolute,
 * else from the folder of the file v is written in. -ENAMETOOLONG.
 */
int include_path(const struct parser *p, const struct val *v, char *path,
		 size_t len);
int include_start(struct parser *p, const struct item *it);
void include_end(struct parser *p);
/* The whole regular file at path; -ENOTSUP for anything else. */
int include_read_text(const char *path, char **text, size_t *len);
/* Why include_read_text() failed, for a message. */
const char *include_strerror(int ret);
/* text past a UTF-8 byte-order mark, if it starts with one. */
const char *include_skip_bom(const char *text);

/* values.c: values read, checked, and lists of numbers expanded. */
bool values_all_are(const struct item *it, const char *word);
const struct val *values_single(struct parser *p, const struct kw *kw,
				const struct item *it);
int values_number(struct parser *p, const struct kw *kw, const struct val *v,
		  double *out);
int values_number_in(struct parser *p, const struct kw *kw, const struct val *v,
		     double lo, double hi, double *out);
int values_whole(struct parser *p, const struct kw *kw, const struct val *v,
		 double lo, double hi, double *out);
int values_seconds(struct parser *p, const struct kw *kw, const struct val *v,
		   double *out);
int values_size(struct parser *p, const struct kw *kw, const struct val *v,
		uint64_t *out);
int values_positive(struct parser *p, const struct kw *kw, const struct val *v,
		    double x, const char *unit);
int values_read_positive(struct parser *p, const struct kw *kw,
			 const struct item *it, double *out, const char *unit);
int values_xfer_size(struct parser *p, const struct kw *kw, const struct val *v,
		     uint32_t *out);
int values_parse_seek(struct parser *p, const struct kw *kw,
		      const struct val *v, double *out);
int values_check_hitarea(struct parser *p, const struct kw *kw,
			 struct params_pos pos, const char *sh, double x);
int values_check_seek(struct parser *p, const struct kw *kw,
		      struct params_pos pos, const char *sh, double x);
int values_expand(struct parser *p, const struct kw *kw, const struct item *it,
		  const struct numkind *nk, double *out, size_t *nout);
extern const struct numkind values_num_iorate;
extern const struct numkind values_num_curve;
extern const struct numkind values_num_loop[PARAMS_LOOP_NR];

/* keywords.c: each kind's keyword table, and looking keywords up. */
extern const struct kind_desc keywords_kinds[KIND_NR];
int keywords_find(enum kind k, const struct item *it);
int keywords_index(enum kind k, const char *name);
enum kind keywords_starter(const struct item *it);

/* compat.c: Vdbench keywords lockstep skips, and unknown keywords. */
int compat_set_ignored(struct parser *p, const struct kw *kw, void *obj,
		       const struct item *it);
int compat_set_unsupported(struct parser *p, const struct kw *kw, void *obj,
			   const struct item *it);
/*
 * The error for an unknown keyword it of kind k, with the nearest keyword
 * of kinds[k] suggested. The tables are passed in (params.c passes
 * keywords_kinds): their rows name the setters above, so compat.c does not
 * name keywords.c.
 */
int compat_unknown(struct parser *p, const struct kind_desc *kinds, enum kind k,
		   const struct item *it);

/* hd.c, sd.c, wd.c, rd.c: each kind's setters and its finishing check. */
int hd_set_shell(struct parser *p, const struct kw *kw, void *obj,
		 const struct item *it);
int hd_set_slaves(struct parser *p, const struct kw *kw, void *obj,
		  const struct item *it);
int hd_finish(struct parser *p);

int sd_set_size(struct parser *p, const struct kw *kw, void *obj,
		const struct item *it);
int sd_set_offset(struct parser *p, const struct kw *kw, void *obj,
		  const struct item *it);
int sd_set_align(struct parser *p, const struct kw *kw, void *obj,
		 const struct item *it);
int sd_set_threads(struct parser *p, const struct kw *kw, void *obj,
		   const struct item *it);
int sd_set_openflags(struct parser *p, const struct kw *kw, void *obj,
		     const struct item *it);
/* openflags= of an sd, wd or rd into *flags (PARAMS_O_*); 0 or -EINVAL. */
int sd_parse_openflags(struct parser *p, const struct kw *kw,
		       const struct item *it, unsigned *flags);
int sd_set_host(struct parser *p, const struct kw *kw, void *obj,
		const struct item *it);
int sd_set_hitarea(struct parser *p, const struct kw *kw, void *obj,
		   const struct item *it);
int sd_finish(struct parser *p);

int wd_set_xfersize(struct parser *p, const struct kw *kw, void *obj,
		    const struct item *it);
/* xfersize= of a wd or fwd: one size, or size,percentage pairs. */
int wd_parse_xfers(struct parser *p, const struct kw *kw, const struct item *it,
		   struct params_xfer *out, size_t *nout);
int wd_set_seekpct(struct parser *p, const struct kw *kw, void *obj,
		   const struct item *it);
int wd_set_skew(struct parser *p, const struct kw *kw, void *obj,
		const struct item *it);
int wd_set_iorate(struct parser *p, const struct kw *kw, void *obj,
		  const struct item *it);
int wd_set_priority(struct parser *p, const struct kw *kw, void *obj,
		    const struct item *it);
int wd_set_openflags(struct parser *p, const struct kw *kw, void *obj,
		     const struct item *it);
int wd_set_host(struct parser *p, const struct kw *kw, void *obj,
		const struct item *it);
int wd_set_sd(struct parser *p, const struct kw *kw, void *obj,
	      const struct item *it);
int wd_set_hitpct(struct parser *p, const struct kw *kw, void *obj,
		  const struct item *it);
int wd_set_access(struct parser *p, const struct kw *kw, void *obj,
		  const struct item *it);
int wd_set_threads(struct parser *p, const struct kw *kw, void *obj,
		   const struct item *it);
/* replay.c: replay= on a wd, and its checks on the wd and its rds. */
int replay_wd_finish(struct parser *p, struct params_wd *wd);
int replay_rd_finish(struct parser *p, const struct params_rd *rd);
int wd_set_replay_mode(struct parser *p, const struct kw *kw, void *obj,
		       const struct item *it);
int wd_set_replay(struct parser *p, const struct kw *kw, void *obj,
		  const struct item *it);
int wd_set_streams(struct parser *p, const struct kw *kw, void *obj,
		   const struct item *it);
int wd_set_stride(struct parser *p, const struct kw *kw, void *obj,
		  const struct item *it);
int wd_finish(struct parser *p);

int rd_set_validate(struct parser *p, const struct kw *kw, void *obj,
		    const struct item *it);
int rd_set_wd(struct parser *p, const struct kw *kw, void *obj,
	      const struct item *it);
int rd_set_iorate(struct parser *p, const struct kw *kw, void *obj,
		  const struct item *it);
int rd_set_openflags(struct parser *p, const struct kw *kw, void *obj,
		     const struct item *it);
int rd_set_curve(struct parser *p, const struct kw *kw, void *obj,
		 const struct item *it);
int rd_set_maxdata(struct parser *p, const struct kw *kw, void *obj,
		   const struct item *it);
int rd_set_warmup(struct parser *p, const struct kw *kw, void *obj,
		  const struct item *it);
int rd_set_stopcurve(struct parser *p, const struct kw *kw, void *obj,
		     const struct item *it);
int rd_set_slo(struct parser *p, const struct kw *kw, void *obj,
	       const struct item *it);
int rd_set_format(struct parser *p, const struct kw *kw, void *obj,
		  const struct item *it);
int rd_set_distribution(struct parser *p, const struct kw *kw, void *obj,
			const struct item *it);
int rd_set_loop(struct parser *p, const struct kw *kw, void *obj,
		const struct item *it);
int rd_finish(struct parser *p);

/* fs.c: fsd= and fwd= lines, and an rd= with fwd=. */
int fsd_set_anchor(struct parser *p, const struct kw *kw, void *obj,
		   const struct item *it);
int fsd_set_shape(struct parser *p, const struct kw *kw, void *obj,
		  const struct item *it);
int fsd_set_sizes(struct parser *p, const struct kw *kw, void *obj,
		  const struct item *it);
int fsd_set_distribution(struct parser *p, const struct kw *kw, void *obj,
			 const struct item *it);
int fsd_set_openflags(struct parser *p, const struct kw *kw, void *obj,
		      const struct item *it);
int fsd_set_bytes(struct parser *p, const struct kw *kw, void *obj,
		  const struct item *it);
int fsd_finish(struct parser *p);
int fwd_set_fsd(struct parser *p, const struct kw *kw, void *obj,
		const struct item *it);
int fwd_set_operation(struct parser *p, const struct kw *kw, void *obj,
		      const struct item *it);
int fwd_set_rdpct(struct parser *p, const struct kw *kw, void *obj,
		  const struct item *it);
int fwd_set_xfersize(struct parser *p, const struct kw *kw, void *obj,
		     const struct item *it);
int fwd_set_fileio(struct parser *p, const struct kw *kw, void *obj,
		   const struct item *it);
int fwd_set_fileselect(struct parser *p, const struct kw *kw, void *obj,
		       const struct item *it);
int fwd_set_threads(struct parser *p, const struct kw *kw, void *obj,
		    const struct item *it);
int fwd_set_skew(struct parser *p, const struct kw *kw, void *obj,
		 const struct item *it);
int fwd_set_host(struct parser *p, const struct kw *kw, void *obj,
		 const struct item *it);
int fwd_set_target(struct parser *p, const struct kw *kw, void *obj,
		   const struct item *it);
int fwd_set_stopafter(struct parser *p, const struct kw *kw, void *obj,
		      const struct item *it);
int fwd_set_openflags(struct parser *p, const struct kw *kw, void *obj,
		      const struct item *it);
int fsd_set_journal(struct parser *p, const struct kw *kw, void *obj,
		    const struct item *it);
/*
 * A journal= value: an absolute folder into dst (len bytes), or "" for
 * no; its position into pos. 0, or -EINVAL said with FILE:LINE:COL.
 */
int params_journal_value(struct parser *p, const struct kw *kw,
			 const struct item *it, char *dst, size_t len,
			 struct params_pos *pos);
int fwd_finish(struct parser *p);
int rd_set_fwd(struct parser *p, const struct kw *kw, void *obj,
	       const struct item *it);
int rd_set_fwdrate(struct parser *p, const struct kw *kw, void *obj,
		   const struct item *it);
/* The checks of an rd= with fwd= (rd_finish calls it first). */
int fs_rd_finish(struct parser *p, struct params_rd *rd);
/* fs_rd.c: validate=yes and the for-loops of an fwd= rd; 0 or -EINVAL. */
int fs_validate(struct parser *p, const struct params_rd *rd);
int fs_loops(struct parser *p, const struct params_rd *rd);
int rd_set_operations(struct parser *p, const struct kw *kw, void *obj,
		      const struct item *it);
/* count=(start,n) on an fsd: at most this many fsds from one line. */
#define PARAMS_FSD_COUNT_MAX 10000
int fsd_set_count(struct parser *p, const struct kw *kw, void *obj,
		  const struct item *it);
/*
 * count=(start,n) of the finished fsd line p->cur.fsd: its fsds, the
 * name and anchor= with start, start+1, ... appended (after a '/' the
 * anchor ended in), each checked as a line's fsd (a name not defined
 * yet, fsd_check_anchor); all but the last appended to p->out->fsd, the
 * last left in p->cur.fsd for the parser to store. 0, -EINVAL, -ENOMEM.
 */
int fsd_count_expand(struct parser *p);
/* fsop.c: the enum params_fsop v names, or -1. */
int fsop_parse(const struct val *v);
/*
 * Room for one more in *arr of n elements of elem bytes (kind k's
 * capacity in p->cap): 0 or -ENOMEM (params.c).
 */
int params_grow(struct parser *p, enum kind k, void **arr, size_t n,
		size_t elem);
/* fsd's anchor= is neither another fsd's nor in or above one (fs_rd.c). */
int fsd_check_anchor(struct parser *p, const struct params_fsd *fsd);

/* ev.c: ev= lines; ev_resolve() checks after= chains once all are read. */
int ev_set_rd(struct parser *p, const struct kw *kw, void *obj,
	      const struct item *it);
int ev_set_at(struct parser *p, const struct kw *kw, void *obj,
	      const struct item *it);
int ev_set_ends(struct parser *p, const struct kw *kw, void *obj,
		const struct item *it);
int ev_set_after(struct parser *p, const struct kw *kw, void *obj,
		 const struct item *it);
int ev_set_host(struct parser *p, const struct kw *kw, void *obj,
		const struct item *it);
int ev_set_loss(struct parser *p, const struct kw *kw, void *obj,
		const struct item *it);
int ev_set_recover_n(struct parser *p, const struct kw *kw, void *obj,
		     const struct item *it);
int ev_set_on_fail(struct parser *p, const struct kw *kw, void *obj,
		   const struct item *it);
int ev_set_until(struct parser *p, const struct kw *kw, void *obj,
		 const struct item *it);
int ev_finish(struct parser *p);
int ev_resolve(struct parser *p);

/* probe.c: probe= lines, and until=probe: of an ev= resolved to one. */
int probe_set_host(struct parser *p, const struct kw *kw, void *obj,
		   const struct item *it);
int probe_set_every(struct parser *p, const struct kw *kw, void *obj,
		    const struct item *it);
int probe_finish(struct parser *p);
int probe_until(struct parser *p, struct params_ev *ev, const struct val *v);
/* cmd.c: startcmd= and endcmd= (general and rd=). */
int cmd_set(struct parser *p, const struct kw *kw, void *obj,
	    const struct item *it);
/* params.c: the definition of kind k named s (len bytes), or -1. */
long params_lookup(const struct parser *p, enum kind k, const char *s,
		   size_t len);
/*
 * params.c: where keyword name (of the kind being finished, p->kind) was
 * given in the current definition or its xx=default line; line 0 if not.
 */
struct params_pos params_from(const struct parser *p, const char *name);
/* Where keyword name was given in the definition being read (line 0: not
 * given there, maybe inherited from the kind's default). */
struct params_pos params_seen(const struct parser *p, const char *name);

#endif
