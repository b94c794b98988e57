/*
 * Vdbench-syntax parameter files: the parsed form. A file holds, in order,
 * general parameters, hd= (hosts), sd= (storage), wd= (workloads) and rd=
 * (runs) lines; a line whose first non-blank character is '*' or '#' is a
 * comment, as is text after a blank that follows a complete parameter. A
 * line that starts with blanks or ',', follows a line ending in ',', or
 * opens with a keyword that starts no definition continues the previous
 * definition. xx=default lines set defaults for the xx= lines after them.
 * include=FILE on a line of its own reads FILE (relative to the including
 * file) in its place. Every value keeps the file position it came from so
 * later checks can say FILE:LINE:COLUMN.
 *
 * Vdbench keywords lockstep knowingly does not implement are recognised:
 * where skipping one cannot change what is measured (messagescan=,
 * report=, ...) the parse goes on with a warning in params.warn; otherwise
 * it fails saying the keyword is not supported.
 *
 * The parser is pure: it reads the parameter text (and included files) and
 * produces this structure; it never touches the targets it names.
 */
#ifndef LOCKSTEP_MASTER_PARAMS_PARAMS_H
#define LOCKSTEP_MASTER_PARAMS_PARAMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define PARAMS_NAME_MAX 64
#define PARAMS_PATH_MAX 1024
#define PARAMS_XFER_MAX 16
#define PARAMS_LIST_MAX 256
#define PARAMS_HOST_MAX 256
#define PARAMS_INCLUDE_DEPTH 16
/*
 * Intervals in one run (warmup and elapsed): 11.5 days at interval=1. The
 * master keeps a byte per slave and interval, and the wire counts them in
 * 32 bits; a longer run takes a longer interval=.
 */
#define PARAMS_INTERVALS_MAX 1000000

/*
 * openflags= (sd, wd and rd): how an sd's lun is opened. Vdbench's
 * o_direct and directio are O_DIRECT, o_dsync O_DSYNC, o_sync O_SYNC.
 */
enum params_openflags {
	PARAMS_O_DIRECT = 1 << 0,
	PARAMS_O_DSYNC = 1 << 1,
	PARAMS_O_SYNC = 1 << 2,
};

enum params_shell {
	PARAMS_SHELL_SSH,  /* the master starts the host's slaves over ssh */
	PARAMS_SHELL_NONE, /* slaves run there as daemons and register */
};

/* rd iorate=: how the phases of a run pick their I/O rate. */
enum params_iorate {
	PARAMS_IORATE_MAX,   /* as fast as possible (uncontrolled) */
	PARAMS_IORATE_FIXED, /* the rates in rd.iorates, one phase each */
	PARAMS_IORATE_CURVE, /* a max phase, then rd.curve percentages of it */
	PARAMS_IORATE_SLO,   /* a max phase, then a search for rd.slo */
};

/* rd slo=: the percentile is PARAMS_SLO_MEAN for the mean response time. */
#define PARAMS_SLO_MEAN (-1.0)

/* rd format=: prime the working set before the measured phases. */
enum params_format {
	PARAMS_FORMAT_NO,
	PARAMS_FORMAT_YES,  /* a format phase, then the measured phases */
	PARAMS_FORMAT_ONLY, /* the format phase alone */
	/* fwd= runs only (Vdbench's FileAnchor formats): */
	PARAMS_FORMAT_RESTART,      /* make what is missing, then the run */
	PARAMS_FORMAT_RESTART_ONLY, /* format=(restart,only): no run */
	PARAMS_FORMAT_CLEAN, /* delete the trees, no run (Vdbench's: only) */
};

/* rd distribution=: I/O inter-arrival times under a fixed iorate. */
enum params_dist {
	PARAMS_DIST_EXPONENTIAL, /* Vdbench's default */
	PARAMS_DIST_UNIFORM,
	PARAMS_DIST_DETERMINISTIC,
};

/* The rd for-loops (forxfersize=, ...); each phase takes one value each. */
enum params_loop_kind {
	PARAMS_LOOP_XFERSIZE,  /* bytes */
	PARAMS_LOOP_RDPCT,     /* 0..100 */
	PARAMS_LOOP_SEEKPCT,   /* 0..100, or PARAMS_SEEK_EOF */
	PARAMS_LOOP_THREADS,   /* per sd */
	PARAMS_LOOP_COMPRATIO, /* >= 1 */
	PARAMS_LOOP_RHPCT,     /* 0..100: every wd's rhpct= */
	PARAMS_LOOP_WHPCT,     /* 0..100: every wd's whpct= */
	PARAMS_LOOP_HITAREA,   /* bytes: every sd's hitarea= */
	/* fwd= runs only (Vdbench's For_loop.forLoopOverrideFwd): */
	PARAMS_LOOP_OPERATION, /* enum params_fsop: every fwd's operation= */
	PARAMS_LOOP_DEPTH,     /* every fsd's depth= */
	PARAMS_LOOP_WIDTH,     /* every fsd's width= */
	PARAMS_LOOP_FILES,     /* every fsd's files= */
	PARAMS_LOOP_SIZES,     /* bytes: every fsd's sizes=, one size */
	PARAMS_LOOP_TOTAL,     /* bytes: every fsd's totalsize= */
	PARAMS_LOOP_WSS,       /* bytes: every fsd's workingsetsize= */
	PARAMS_LOOP_NR,
};

/* seekpct=eof in a forseekpct= list: sequential, stop at the end. */
#define PARAMS_SEEK_EOF (-1.0)

/* A place in the text: file is an index into params.files. */
struct params_pos {
	unsigned line, col;
	unsigned file;
};

/*
 * startcmd= and endcmd= (Vdbench's Debug_cmds): commands run before and
 * after the file's runs (general) or before and after each run of an rd
 * (rd=), their output kept in the results folder (commands/), on the
 * console too with the target console, in summary.txt too with summary.
 * Scope master runs them on the master through /bin/sh -c; slave (an
 * rd's default, as Vdbench's) on one slave of each host, which runs them
 * only when started with --allow-commands. The texts are in
 * params.cmd, shared by the definitions an rd=default gave them to.
 */
#define PARAMS_CMDS_MAX 8
enum params_cmd_target {
	PARAMS_CMD_LOG,     /* log (default): the results folder only */
	PARAMS_CMD_CONSOLE, /* console: the master's console too */
	PARAMS_CMD_SUMMARY, /* summary: summary.txt too */
};
struct params_cmd {
	unsigned n;                    /* commands, in order; 0: none */
	unsigned cmd[PARAMS_CMDS_MAX]; /* indexes into params.cmd */
	enum params_cmd_target target;
	bool slave; /* slave scope: on one slave of each host */
	struct params_pos pos;
};

struct params_hd {
	char name[PARAMS_NAME_MAX];
	char system[PARAMS_HOST_MAX]; /* host name or address; default: name */
	char user[PARAMS_NAME_MAX];   /* empty = the master's user */
	enum params_shell shell;      /* default PARAMS_SHELL_SSH */
	unsigned slaves;              /* slave processes there; default 1 */
	/* lockstep=: the executable there; "" = the master's. vdbench=: the
	   Vdbench install folder (lockstep_dir set): DIR/lockstep, else
	   DIR/vdbench when it is lockstep, found on the host at start. */
	char lockstep[PARAMS_PATH_MAX];
	bool lockstep_dir;
	char nic[16]; /* nic=: the interface slaves sample; "" = general's */
	struct params_pos pos;
};

struct params_xfer {
	uint32_t size; /* bytes */
	double pct;    /* share of I/Os, 0..100; fixed size: one entry, 100 */
};

struct params_sd {
	char name[PARAMS_NAME_MAX];
	char lun[PARAMS_PATH_MAX];
	uint64_t size;             /* 0 = use the file's or device's size */
	unsigned threads;          /* I/Os kept in flight; default 8 */
	unsigned openflags;        /* PARAMS_O_* */
	double range_lo, range_hi; /* percent of the sd, default 0..100 */
	uint64_t offset;  /* bytes of the lun before the sd (n x 512) */
	uint32_t align;   /* random offsets align to this; 0 = xfersize */
	bool force;       /* force=yes: write despite a signature */
	bool sqpoll;      /* sqpoll=yes: a kernel submission thread */
	uint64_t hitarea; /* bytes of cache hits (rhpct=, whpct=); default 1m */
	size_t nhost;     /* host=: 0 = every host */
	unsigned host[PARAMS_LIST_MAX]; /* indexes into params.hd */
	struct params_pos pos;
	struct params_pos lun_pos; /* for messages about the target itself */
};

/* wd random_distribution= (fio's): how random offsets spread. */
enum params_access {
	PARAMS_ACCESS_UNIFORM = 0, /* random (uniform): every block alike */
	PARAMS_ACCESS_ZIPF,        /* zipf:THETA */
	PARAMS_ACCESS_PARETO,      /* pareto:H */
	PARAMS_ACCESS_NORMAL,      /* normal:SIGMA (percent of the range) */
	PARAMS_ACCESS_ZONED,       /* zoned:IO/RANGE:... (fio's zones) */
	PARAMS_ACCESS_HOTBAND,     /* hotband=(LO,HI), Vdbench's hot band */
};

/* random_distribution=zoned: at most a zone per percent. */
#define PARAMS_ZONE_MAX 100

/* A zone: io percent of the random I/O to the next range percent. */
struct params_zone {
	unsigned io, range; /* whole percents; range resolved (fio's rest) */
};

struct params_wd {
	char name[PARAMS_NAME_MAX];
	size_t nsd;
	unsigned sd[PARAMS_LIST_MAX]; /* indexes into params.sd */
	size_t nxfer;
	struct params_xfer xfer[PARAMS_XFER_MAX]; /* default one entry, 4k */
	double rdpct;                             /* 0..100, default 100 */
	double seekpct; /* 0..100 share of random I/Os, default 100 */
	bool seek_eof;  /* seekpct=eof: sequential (seekpct 0), stop at end */
	double range_lo, range_hi; /* percent of each sd's range, 0..100 */
	double skew;   /* percent of the rd's I/O; 0 = an even share */
	double iorate; /* this wd's own fixed I/O rate; 0 = none */
	/*
	 * priority= (Vdbench's): 1 is the highest; 0 = none. Within an rd
	 * they are 1..N, one each, those with iorate= first (rd.c).
	 */
	unsigned priority;
	/* openflags= (PARAMS_O_*): replaces its sds' in its phases */
	unsigned openflags;
	bool openflags_set;
	double rhpct; /* 0..100: reads to the sds' hit areas; default 0 */
	double whpct; /* 0..100: writes to them; default 0 */
	enum params_access access; /* random_distribution=, or hotband= */
	double access_arg;         /* its theta, h or sigma */
	size_t nzone;              /* zoned: the zones, in order */
	struct params_zone zone[PARAMS_ZONE_MAX];
	/* hotband=(LO,HI) (Vdbench's): percent of the whole sd; hi 0: none */
	double hotband_lo, hotband_hi;
	/* streams=N (Vdbench's): N sequential streams over each sd; 0 none */
	unsigned streams;
	/* stride=(MIN,MAX): skip-sequential random I/O; max 0 = none */
	uint64_t stride_min, stride_max;
	/* threads= (concatenatesds=yes only): I/Os in flight; 0 = none */
	unsigned threads;
	/*
	 * replay=FILE (lockstep's form of Vdbench's replay): the trace's
	 * records of device replay_dev replayed on the wd's one sd, at their
	 * recorded times (timed) or as fast as its threads= allow (afap).
	 * replay is the absolute path ("" none), read by the master at parse
	 * time (the facts below) and by each slave at the start of a phase.
	 */
	char replay[PARAMS_PATH_MAX];
	char replay_dev[256];
	bool replay_afap;     /* replay_mode=afap; default timed */
	uint64_t replay_hash; /* the trace's bytes (trace_hash) */
	uint64_t replay_nrec; /* records of replay_dev */
	uint64_t replay_end;  /* the highest offset + length of them */
	uint32_t replay_maxlen;
	uint64_t replay_span_ns;  /* the first to the last record's time */
	unsigned replay_odd_line; /* a record not in 512-byte units, or 0 */
	size_t nhost;             /* host=: 0 = every host */
	unsigned host[PARAMS_LIST_MAX]; /* indexes into params.hd */
	struct params_pos pos;
	struct params_pos replay_pos, replay_mode_pos;
	struct params_pos skew_pos, iorate_pos; /* where given, for messages */
	struct params_pos hit_pos, access_pos;  /* rhpct=/whpct=, the other */
	struct params_pos streams_pos, stride_pos;
	struct params_pos priority_pos, openflags_pos;
	struct params_pos threads_pos;
};

/*
 * fsd= (Vdbench's file system definition): a tree of folders and files
 * under an anchor (common/fstree.h's shape), checked by fstree_check().
 */
#define PARAMS_FSD_SIZES 32
struct params_fsd {
	char name[PARAMS_NAME_MAX];
	char anchor[PARAMS_PATH_MAX]; /* absolute; required */
	uint32_t depth, width, files; /* default 1, 1, 10 */
	bool dist_all;                /* distribution=all; default bottom */
	uint32_t nsizes;              /* sizes=: 1 size, or pairs */
	uint64_t size[PARAMS_FSD_SIZES];
	uint32_t pct[PARAMS_FSD_SIZES];
	bool average; /* sizes=(size,0): sizes averaging size */
	bool shared;  /* shared=yes: one tree for every slave on it */
	/* count=(start,n): the line is n fsds, NAMEstart.. on ANCHORstart.. */
	uint32_t count_start, count_n;
	bool anchor_slash;  /* anchor= ended in '/': numbers go after it */
	unsigned openflags; /* PARAMS_O_* */
	uint64_t totalsize; /* totalsize= bytes; 0 = the whole tree */
	uint64_t wss;       /* workingsetsize= bytes; 0 = every file */
	/* totalsize= was given (0 too): an rd's fortotal=N% takes N% of it */
	bool totalsize_given;
	/* journal=DIR: its key maps' journals, over the general journal= */
	char journal[PARAMS_PATH_MAX];
	struct params_pos pos, anchor_pos, totalsize_pos, wss_pos, journal_pos;
};

/*
 * rd fortotal=N% for an fsd (Vdbench's For_loop.forLoopOverrideFwd): N
 * percent of the fsd's own totalsize=, in Vdbench's double arithmetic,
 * truncated. -EINVAL when the fsd has no totalsize= (Vdbench's failure
 * "without a totalsize= value specified for the FSD") or the bytes would
 * not fit in 64 bits; why says so.
 */
int params_total_pct(const struct params_fsd *fsd, double pct, uint64_t *out,
		     char *why, size_t whylen);

/* The shape of fsd as common/fstree.h takes it (fstree_check's). */
struct fstree_shape;
void params_fsd_shape(const struct params_fsd *fsd, struct fstree_shape *sh);

/* fwd operation= (Vdbench's order, proto/proto.h's enum proto_fsop). */
enum params_fsop {
	PARAMS_FSOP_READ,
	PARAMS_FSOP_WRITE,
	PARAMS_FSOP_CREATE,
	PARAMS_FSOP_DELETE,
	PARAMS_FSOP_MKDIR,
	PARAMS_FSOP_RMDIR,
	PARAMS_FSOP_OPEN,
	PARAMS_FSOP_CLOSE,
	PARAMS_FSOP_GETATTR,
	PARAMS_FSOP_SETATTR,
	PARAMS_FSOP_ACCESS,
	PARAMS_FSOP_COPY,
	PARAMS_FSOP_MOVE,
	PARAMS_FSOP_NR,
};

/* "read", "write", ... ("?" out of range). */
const char *params_fsop_name(enum params_fsop op);

/*
 * fwd= (Vdbench's file system workload definition): one operation on
 * the files of one or more fsds.
 */
struct params_fwd {
	char name[PARAMS_NAME_MAX];
	size_t nfsd;
	unsigned fsd[PARAMS_LIST_MAX]; /* indexes into params.fsd */
	enum params_fsop op;           /* operation=, default read */
	double rdpct;                  /* with read or write; -1 = none */
	size_t nxfer;
	struct params_xfer xfer[PARAMS_XFER_MAX]; /* default one, 4k */
	bool fileio_random;  /* fileio=random; default sequential */
	bool fileio_shared;  /* fileio=(random,shared) */
	bool fileio_delete;  /* fileio=(sequential,delete) */
	unsigned fileselect; /* 0 random, 1 sequential, 2 once, 3 random once */
	unsigned threads;    /* default 1: the total, split (plan_fs.c) */
	double skew;         /* percent of the rd's fwdrate=; 0 = even */
	int target;          /* copy, move: target= fsd index; -1 = none */
	size_t nhost;        /* host=: 0 = every host */
	unsigned host[PARAMS_LIST_MAX]; /* indexes into params.hd */
	uint64_t stopafter;             /* stopafter=N transfers; 0 = none */
	unsigned stopafter_pct;         /* stopafter=P%; 0 = none */
	double midpoint; /* fileselect=poisson (3), midpoint=N; 0 = none */
	/*
	 * openflags= (PARAMS_O_*): replaces its fsds' for its operations,
	 * an rd's replaces it (Vdbench's FwgEntry).
	 */
	unsigned openflags;
	bool openflags_set;
	struct params_pos pos, rdpct_pos, target_pos, skew_pos, fileio_pos;
};

struct params_loop {
	enum params_loop_kind kind;
	size_t n;
	double val[PARAMS_LIST_MAX];
	struct params_pos pos;
};

struct params_rd {
	char name[PARAMS_NAME_MAX];
	size_t nwd;
	unsigned wd[PARAMS_LIST_MAX];   /* indexes into params.wd */
	enum params_iorate iorate_kind; /* default PARAMS_IORATE_MAX */
	double iorate;  /* the first rate of a fixed list; else 0 */
	size_t niorate; /* fixed: iorate=(a,b,..) / foriorate= rates */
	double iorates[PARAMS_LIST_MAX]; /* I/O per second for the cluster */
	size_t ncurve;                 /* curve=, default 10,50,70,80,90,100 */
	double curve[PARAMS_LIST_MAX]; /* percent of the max rate */
	double stopcurve_ms;           /* 0 = run every curve point */
	double elapsed_s;              /* default 30 */
	double warmup_s;               /* default 0; steady: its maximum */
	double interval_s;             /* default 1 */
	/*
	 * warmup=steady: warm up until the cluster and every slave are steady
	 * (SNIA PTS), for at most warmup_s (0: 25 rounds), in rounds of
	 * warmup_round_s (0: one interval).
	 */
	bool warmup_steady;
	double warmup_round_s;
	double pause_s; /* sleep before each phase but the file's first */
	enum params_format format;
	/*
	 * format= words of fwd= runs besides the kind (Vdbench's FormatFlags):
	 * once: with for-loops, format only before the first combination
	 * (else before each); directories: make the folders, no files;
	 * limited: with only, the format stops at elapsed=; complete (given
	 * as (no,complete)): no format, the run takes the tree as complete.
	 */
	bool format_once, format_dirs, format_limited, format_complete;
	bool validate_only; /* validate=only: read the ranges once, verify */
	struct params_pos validate_pos;
	enum params_dist distribution;
	/* The for-loops in the order given: loop[0] is the outermost. */
	size_t nloop;
	struct params_loop loop[PARAMS_LOOP_NR];
	struct params_pos pos;
	struct params_pos iorate_pos;
	/* iorate=slo: slo=pPCT:LATENCY (or mean:LATENCY) and its search's
	   precision in percent of the max rate (sloprecision=, default 5). */
	double slo_pct; /* 0 < pct < 100, or PARAMS_SLO_MEAN */
	double slo_ms;  /* 0 = no slo= given */
	double sloprecision_pct;
	/*
	 * maxdata= (Vdbench's): a phase ends at the interval after the one
	 * whose measured bytes (reads and writes, the cluster's) pass it;
	 * up to PARAMS_MAXDATA_TIMES it is a multiple of the size of the
	 * sds the rd uses, above that bytes. 0: none.
	 */
	double maxdata;
	struct params_pos maxdata_pos;
	/* openflags= (PARAMS_O_*): replaces every sd's and wd's in its phases */
	unsigned openflags;
	bool openflags_set;
	struct params_pos openflags_pos;
	/* startcmd=, endcmd=: around each run of the rd but its format. */
	struct params_cmd startcmd, endcmd;
	/*
	 * fwd= (a file system run; then nwd is 0): the fwds, and fwdrate=,
	 * the cluster's operations per second (0 = max, the default), or
	 * fwdrate=curve: a max phase, then one per curve= point (ncurve,
	 * curve, stopcurve_ms above).
	 */
	size_t nfwd;
	unsigned fwd[PARAMS_LIST_MAX]; /* indexes into params.fwd */
	double fwdrate;
	bool fwdrate_curve;
	/* operations= (Vdbench's): each fwd runs each of them; 0: its own */
	size_t nops;
	enum params_fsop ops[PARAMS_FSOP_NR];
	struct params_pos fwd_pos, fwdrate_pos, format_pos, ops_pos;
};

/* maxdata= up to this is a multiple of the sds' size (Vdbench's rule). */
#define PARAMS_MAXDATA_TIMES 100.0

/*
 * warmup=steady judges SNIA PTS's window of 5 rounds; without a maximum
 * it warms up for at most 25 rounds (PTS's limit before it reports no
 * steady state).
 */
#define PARAMS_WARMUP_MIN_ROUNDS 5
#define PARAMS_WARMUP_MAX_ROUNDS 25

/* The longest command of ev= exec= and until=, and of a phase name. */
#define PARAMS_CMD_MAX 1024
#define PARAMS_PHASE_NAME_MAX 192

/*
 * ev= (an event of a failure-and-rebuild run): a command run at a time of
 * an rd (at=) or after another event ended (after=), a probe polled until
 * it succeeds (until=), and the hosts whose slaves it is expected to take
 * away (expect_loss=). Parsed and checked here (master/params/ev.c); when
 * at= names a phase, that name is checked against the plan (master/
 * evplan.c).
 */
/*
 * probe= (a command the master samples during the run): its output is one
 * number or KEY=VALUE pairs (master/events/probes.c runs it,
 * probe_output_parse() reads it). Parsed here (master/params/probe.c).
 */
struct params_probe {
	char name[PARAMS_NAME_MAX]; /* a file name: probes/NAME.log */
	char exec[PARAMS_CMD_MAX];  /* through /bin/sh -c on the master */
	double every_s;             /* a sample every every_s (default 10) */
	double timeout_s; /* a sample's bound (default min(every, 30 s)) */
	struct params_pos pos;
};

/* The longest KEY of a probe's output (and of until=probe:NAME.KEY). */
#define PARAMS_PROBE_KEY_MAX 64

/* The comparisons of until=probe:NAME.KEY<op>VALUE. */
enum params_cmp {
	PARAMS_CMP_EQ, /* == */
	PARAMS_CMP_NE, /* != */
	PARAMS_CMP_LT, /* < */
	PARAMS_CMP_LE, /* <= */
	PARAMS_CMP_GT, /* > */
	PARAMS_CMP_GE, /* >= */
};

/*
 * until=probe:NAME.KEY<op>VALUE (probe:NAME<op>VALUE: the key "value" of a
 * single-number probe): the event ends at the stamped time of the first
 * sample of probe NAME, started once the event polls, whose KEY holds.
 */
struct params_probe_until {
	unsigned probe; /* index into params.probe */
	char key[PARAMS_PROBE_KEY_MAX];
	enum params_cmp op;
	double value;
};

struct params_ev {
	char name[PARAMS_NAME_MAX]; /* a file name: events/NAME.log */
	unsigned rd;                /* index into params.rd */
	bool has_at, has_after;     /* exactly one of them */
	/* at=: at_s into the measured time of the rd's first measured phase,
	   or of the phase named at_phase (its printed name) when not "". */
	char at_phase[PARAMS_PHASE_NAME_MAX];
	double at_s;
	/* after=EVENT[+OFFSET]: after_s after event `after` ended. */
	char after_name[PARAMS_NAME_MAX];
	unsigned after; /* index into params.ev */
	double after_s;
	char exec[PARAMS_CMD_MAX];  /* "" = none */
	char until[PARAMS_CMD_MAX]; /* "" = none; as written */
	/* until=probe:...: no command, a condition on a probe's samples. */
	bool until_probe;
	struct params_probe_until upr;
	int host;          /* hd= index they run on, -1 the master */
	double poll_s;     /* until= every poll_s (default 10) */
	double timeout_s;  /* the event's bound (default 3600) */
	double baseline_s; /* recovery baseline window (default 60) */
	/* The recovery thresholds (master/events/recovery.h), in percent: degraded
	   below degrade_pct of the baseline IOPS (90); good within
	   recover_iops_pct of its IOPS (10) and recover_p99_pct above its p99
	   (20) for recover_n intervals in a row (10). */
	double degrade_pct, recover_iops_pct, recover_p99_pct;
	unsigned recover_n;
	size_t nloss; /* expect_loss= hd indexes */
	unsigned loss[PARAMS_LIST_MAX];
	/* ends=EVENT: this event restores EVENT (index `ends`, -1 none):
	   EVENT's recovery window runs through this one. */
	char ends_name[PARAMS_NAME_MAX];
	int ends;
	bool rejoin;        /* rejoin=yes: report when they are back */
	bool abort_on_fail; /* on_fail=abort */
	struct params_pos pos, at_pos, after_pos, ends_pos;
};

struct params {
	char path[PARAMS_PATH_MAX]; /* the file as named by the caller */
	unsigned data_errors;       /* data_errors=, default 50 */
	double compratio;           /* compratio=, default 1 */
	double dedupratio;          /* dedupratio=, default 1 (no duplicates) */
	uint32_t dedupunit;         /* dedupunit=, default 128k */
	uint32_t formatxfersize;    /* formatxfersize=, default 1m */
	/*
	 * fwd=format (Vdbench's): not a workload; its xfersize= (the first
	 * size) is the size of an fs format's writes (default 128k), its
	 * threads= the threads that format each tree on each slave (1..64;
	 * Vdbench's 8 without fwd=format, fwd=default's threads= with it).
	 */
	bool format_fwd;
	uint32_t fs_format_xfer;
	uint32_t fs_format_threads;
	/* fwd=format openflags= (PARAMS_O_*): a format's, over the fsds'. */
	unsigned fs_format_openflags;
	bool fs_format_openflags_set;
	bool validate;              /* validate=yes */
	/*
	 * concatenatesds=yes (Vdbench's): each wd's sds, in the order it
	 * names them, are one address space, run with the wd's threads=.
	 */
	bool concat;
	struct params_pos concat_pos;
	/*
	 * create_anchors=yes (Vdbench's): a slave makes an fsd's anchor
	 * folder, and the folders above it that are missing, when it is
	 * not there (its --allow must allow the anchor all the same).
	 */
	bool create_anchors;
	char journal[PARAMS_PATH_MAX]; /* journal=DIR; "" = no journal */
	char nic[16]; /* nic=: the interface every slave samples; "" none */
	struct params_pos validate_pos, journal_pos; /* where given */
	/* startcmd=, endcmd=: before the first run, after the last. */
	struct params_cmd startcmd, endcmd;
	/* The texts of every startcmd= and endcmd= (malloc'd). */
	size_t ncmd;
	char **cmd;
	size_t nhd, nsd, nwd, nrd, nev;
	struct params_hd *hd;
	struct params_sd *sd;
	struct params_wd *wd;
	size_t nfsd, nfwd;
	struct params_fsd *fsd; /* fsd= lines, with the sd= lines */
	struct params_fwd *fwd; /* fwd= lines, with the wd= lines */
	struct params_rd *rd;
	struct params_ev *ev; /* ev= lines, after the rd= lines */
	size_t nprobe;
	struct params_probe *probe; /* probe= lines, between rd= and ev= */
	/* files[0] is the name given to the parser, then every include=. */
	size_t nfiles;
	char **files;
	/* "FILE:LINE:COLUMN: warning: ..." for keywords lockstep skips. */
	size_t nwarn;
	char **warn;
};

/* Flags for params_parse_text. */
enum params_flags {
	PARAMS_NO_INCLUDE = 1 << 0, /* include= is an error (fuzzing) */
	/*
	 * The cluster alone (lockstep easy): general, hd= and sd= lines; a
	 * wd=, rd= or ev= is an error, and no rd= is needed.
	 */
	PARAMS_CLUSTER = 1 << 1,
};

/*
 * Parse text (name is used in messages and as the directory include=
 * paths are relative to; path is left empty). On success returns 0 and
 * *out (owned by the caller, free with params_free). On a syntax or
 * semantic error returns -EINVAL and writes "NAME:LINE:COLUMN: message"
 * (naming the parameter) into err. -ENOMEM on allocation failure.
 */
int params_parse_string(const char *name, const char *text, struct params **out,
			char *err, size_t errlen);
/* The same with PARAMS_* flags. */
int params_parse_text(const char *name, const char *text, unsigned flags,
		      struct params **out, char *err, size_t errlen);
/* Read and parse a file; -errno with a message in err if unreadable. */
int params_parse_file(const char *path, struct params **out, char *err,
		      size_t errlen);
/* The same with PARAMS_* flags. */
int params_parse_file_flags(const char *path, unsigned flags,
			    struct params **out, char *err, size_t errlen);
/* Free and NULL *p; safe on NULL. */
void params_free(struct params **p);
/*
 * lockstep-params(5) after its NAME section, in roff: the language, every
 * keyword of the parser's tables, validation and events. Returns 0, or -1
 * (after a message) when a keyword has no entry.
 */
int params_manual(FILE *f);

/* The file a position is in, for "FILE:LINE:COLUMN" messages. */
const char *params_file(const struct params *p, struct params_pos pos);

/*
 * The text after until=probe: (len bytes): NAME.KEY<op>VALUE or
 * NAME<op>VALUE into ref (NAME.KEY or NAME, refsize bytes), *op and *value
 * (a finite number). Returns 0, or -EINVAL with *why saying what is wrong
 * (a static string). Which probe and key ref names is the caller's to
 * resolve: a probe's name may hold '.'.
 */
int params_probe_until_parse(const char *s, size_t len, char *ref,
			     size_t refsize, enum params_cmp *op, double *value,
			     const char **why);
/* Whether x <op> v holds. */
bool params_cmp_holds(enum params_cmp op, double x, double v);
/* "==", "!=", "<", "<=", ">", ">=". */
const char *params_cmp_name(enum params_cmp op);

/* Command i of c: its text as the file gives it. */
const char *params_cmd_text(const struct params *p, const struct params_cmd *c,
			    unsigned i);
/* "log", "console" or "summary". */
const char *params_cmd_target_name(enum params_cmd_target t);

/* "forxfersize", ... */
const char *params_loop_name(enum params_loop_kind k);

#endif
