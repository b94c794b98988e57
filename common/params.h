/*
 * Vdbench-syntax parameter files: the parsed form. A file holds, in order,
 * general parameters, hd= (hosts), sd= (storage), wd= (workloads) and rd=
 * (runs) lines; a line whose first non-blank character is '*' or '#' is a
 * comment, as is text after a blank that follows a complete parameter. A
 * line that starts with blanks or ',', follows a line ending in ',', or
 * opens with a keyword that starts no definition continues the previous
 * definition. xx=default lines set defaults for the xx= lines after them.
 * Every value keeps the file position it came from so later checks can say
 * FILE:LINE:COLUMN.
 *
 * The parser is pure: it reads text and produces this structure; it never
 * touches the targets it names.
 */
#ifndef LOCKSTEP_COMMON_PARAMS_H
#define LOCKSTEP_COMMON_PARAMS_H

#include <stddef.h>
#include <stdint.h>

#define PARAMS_NAME_MAX 64
#define PARAMS_PATH_MAX 1024
#define PARAMS_XFER_MAX 16
#define PARAMS_LIST_MAX 256
#define PARAMS_HOST_MAX 256

enum params_openflags {
	PARAMS_O_DIRECT = 1 << 0,
	PARAMS_O_DSYNC = 1 << 1,
};

enum params_shell {
	PARAMS_SHELL_SSH,  /* the master starts the host's slaves over ssh */
	PARAMS_SHELL_NONE, /* slaves run there as daemons and register */
};

struct params_pos {
	unsigned line, col;
};

struct params_hd {
	char name[PARAMS_NAME_MAX];
	char system[PARAMS_HOST_MAX]; /* host name or address; default: name */
	char user[PARAMS_NAME_MAX];   /* empty = the master's user */
	enum params_shell shell;      /* default PARAMS_SHELL_SSH */
	unsigned slaves;              /* slave processes there; default 1 */
	struct params_pos pos;
};

struct params_xfer {
	uint32_t size;  /* bytes */
	double pct;     /* share of I/Os, 0..100; fixed size: one entry, 100 */
};

struct params_sd {
	char name[PARAMS_NAME_MAX];
	char lun[PARAMS_PATH_MAX];
	uint64_t size;          /* 0 = use the file's or device's size */
	unsigned threads;       /* I/Os kept in flight; default 8 */
	unsigned openflags;     /* PARAMS_O_* */
	double range_lo, range_hi; /* percent of the sd, default 0..100 */
	struct params_pos pos;
	struct params_pos lun_pos; /* for messages about the target itself */
};

struct params_wd {
	char name[PARAMS_NAME_MAX];
	size_t nsd;
	unsigned sd[PARAMS_LIST_MAX]; /* indexes into params.sd */
	size_t nxfer;
	struct params_xfer xfer[PARAMS_XFER_MAX]; /* default one entry, 4k */
	double rdpct;    /* 0..100, default 100 */
	double seekpct;  /* 0..100 share of random I/Os, default 100 */
	struct params_pos pos;
};

struct params_rd {
	char name[PARAMS_NAME_MAX];
	size_t nwd;
	unsigned wd[PARAMS_LIST_MAX]; /* indexes into params.wd */
	double iorate;     /* I/O per second for the cluster; 0 = max */
	double elapsed_s;  /* default 30 */
	double warmup_s;   /* default 0 */
	double interval_s; /* default 1 */
	struct params_pos pos;
};

struct params {
	char path[PARAMS_PATH_MAX]; /* the file as named by the caller */
	unsigned data_errors;       /* data_errors=, default 50 */
	double compratio;           /* compratio=, default 1 */
	size_t nhd, nsd, nwd, nrd;
	struct params_hd *hd;
	struct params_sd *sd;
	struct params_wd *wd;
	struct params_rd *rd;
};

/*
 * Parse text (name is used in messages; path is left empty). On success
 * returns 0 and *out (owned by the caller, free with params_free). On a syntax or semantic
 * error returns -EINVAL and writes "NAME:LINE:COLUMN: message" (naming the
 * parameter) into err. -ENOMEM on allocation failure.
 */
int params_parse_string(const char *name, const char *text,
			struct params **out, char *err, size_t errlen);
/* Read and parse a file; -errno with a message in err if unreadable. */
int params_parse_file(const char *path, struct params **out, char *err,
		      size_t errlen);
/* Free and NULL *p; safe on NULL. */
void params_free(struct params **p);

#endif
