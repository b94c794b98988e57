/*
 * The planner: turns parsed parameters into the run's phases and, for each
 * phase, the resolved plan each slave executes. Pure: no sockets, no files.
 *
 * Each rd= becomes, in order: a format phase (format=yes|only), then one
 * phase per combination of its for-loops (forxfersize=, forrdpct=,
 * forseekpct=, forthreads=, forcompratio=; the first one given is the
 * outermost) and, innermost, per I/O rate: iorate=(a,b,..) gives one
 * warmup+measure phase per rate, iorate=curve a curve-max phase followed
 * by one curve-point phase per curve= percentage.
 *
 * How the master runs a curve: it runs the curve-max phase as any other,
 * takes its average I/O rate over the measured intervals, and before each
 * curve-point phase ph with ph.curve_max == that phase's index sets
 * ph.iorate = plan_curve_rate(max_rate, ph.curve_pct) and only then calls
 * plan_for_slave. When ph.stopcurve_ms > 0 and a curve point's average
 * response time exceeds it, the curve points left after it (same
 * curve_max) are skipped. A curve point whose rate comes out 0 (the max
 * phase did no I/O) cannot run and is skipped too.
 */
#ifndef LOCKSTEP_MASTER_PLAN_H
#define LOCKSTEP_MASTER_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "master/params/params.h"
#include "proto/proto.h"

/* Phase names: the rd name and the values that vary ("rd1 xfersize=8k"). */
#define PLAN_NAME_MAX 192
/* More phases than this from one file is a typo in a loop, not a plan. */
#define PLAN_PHASES_MAX 10000
/*
 * A format phase ends when every slave has written its share of the
 * working set once; its elapsed_s is only this upper bound.
 */
#define PLAN_FORMAT_BOUND_S (24 * 3600.0)
/* A file-system validate=only pass reads 128 KiB at a time (plan_fs.c). */
#define PLAN_FS_VERIFY_XFER (128u * 1024u)

/* Command-line overrides of every rd's timing (Vdbench -e, -w, -i); < 0 = unset. */
struct plan_overrides {
	double elapsed_s, warmup_s, interval_s;
};

enum plan_kind {
	PLAN_MEASURE,     /* warmup intervals, then measured ones */
	PLAN_FORMAT,      /* write the working set once, sequentially */
	PLAN_CURVE_MAX,   /* iorate=curve: the uncontrolled run, 100% */
	PLAN_CURVE_POINT, /* iorate=curve: curve_pct of that run's rate */
	PLAN_SLO_MAX,     /* iorate=slo: the uncontrolled run, the bracket */
	PLAN_SLO_STEP,    /* iorate=slo: a rate the search picks (slo.h) */
};

struct plan_phase {
	unsigned rd; /* index into params.rd */
	char name[PLAN_NAME_MAX];
	enum plan_kind kind;
	double elapsed_s, warmup_s, interval_s;
	uint64_t interval_ns;
	unsigned intervals; /* warmup + elapsed */
	unsigned warmup_intervals;
	/*
	 * warmup=steady: warmup_intervals is the most the warmup may take;
	 * the master ends it once steady (rounds of warmup_round intervals).
	 */
	bool warmup_steady;
	unsigned warmup_round;
	/*
	 * Cluster total I/O per second, 0 = max. A curve point's is 0 until
	 * the master sets it from plan_curve_rate().
	 */
	double iorate;
	double curve_pct;    /* curve point: percent of the curve-max rate */
	unsigned curve_max;  /* curve point, slo step: index of its max phase */
	unsigned slo_step;   /* slo step: its number, 1.. */
	unsigned slo_steps;  /* slo phases: the steps planned */
	double stopcurve_ms; /* curve phases: rd stopcurve=, 0 = none */
	double pause_s;      /* sleep before this phase (rd pause=) */
	/*
	 * For-loop values of this phase; bit 1 << PARAMS_LOOP_x of loops says
	 * which are set (they override every wd's / sd's own value).
	 */
	unsigned loops;
	uint32_t xfersize; /* forxfersize: bytes */
	double rdpct;      /* forrdpct */
	double seekpct;    /* forseekpct; PARAMS_SEEK_EOF = eof */
	unsigned threads;  /* forthreads: every sd's threads */
	double compratio;  /* forcompratio, else the general compratio= */
	double rhpct;      /* forrhpct: every wd's rhpct= */
	double whpct;      /* forwhpct: every wd's whpct= */
	uint64_t hitarea;  /* forhitarea: every sd's hitarea=, bytes */
	/* fwd= runs: foroperation= (enum params_fsop) and the tree loops,
	   each standing for every fwd's operation= or every fsd's value. */
	unsigned fsop;
	uint32_t depth, width, files;
	uint64_t fsize, totalsize, wss; /* bytes */
	/* fortotal=N%: N, each fsd's totalsize= share (totalsize unused);
	   0: totalsize is bytes, 0 bytes each fsd's own totalsize=. */
	double totalsize_pct;
	enum params_dist distribution;
	/* Format: bytes written, and the sds whose size is known only once
	 * opened (not counted in format_bytes). */
	uint64_t format_bytes;
	unsigned format_unsized;
	/* A format phase that reads and verifies instead (validate=only). */
	bool verify;
	/*
	 * A file system phase (an rd with fwd=, plan_fs.c): its plans hold
	 * fsds and fwds, no targets or streams, and come from
	 * plan_fs_for_slave(). A PLAN_FORMAT one makes (fs_format
	 * PROTO_FSFMT_YES or RESTART) or deletes (CLEAN) the rd's trees and
	 * ends when they are done; a PLAN_MEASURE one runs the fwds at
	 * iorate, the rd's fwdrate= (0 = max).
	 */
	bool fs;
	uint32_t fs_format; /* enum proto_fsformat */
	/* PROTO_FSFMT_DIRS, LIMITED (format phases), COMPLETE (runs). */
	uint32_t fs_format_flags;
};

/* One wd as a phase runs it, every value resolved. */
struct plan_wd {
	unsigned wd; /* index into params.wd */
	size_t nxfer;
	struct params_xfer xfer[PARAMS_XFER_MAX];
	double rdpct, seekpct;
	bool seek_eof;
	double range_lo, range_hi; /* percent of each sd's range= */
	/* Percent of the phase's I/O: skew= given, an even share of what the
	 * others leave, or from iorate= when every wd has its own. */
	double skew;
	double iorate;       /* its own fixed rate, 0 = none */
	double rhpct, whpct; /* cache hits: the wd's or the phase's loop */
	enum params_access access; /* random_distribution= */
	double access_arg;
	unsigned streams; /* streams=: then seekpct is 0 (or eof) */
	uint64_t stride_min, stride_max; /* stride=; max 0: none */
};

/* "warmup+measure", "format", "curve-max", "curve-point", "slo-max",
 * "slo-step". */
const char *plan_kind_name(enum plan_kind k);

/*
 * The phases of a parameter file, in order. Returns 0 with a malloc'd
 * array (caller frees with free(); the phases own nothing), or -EINVAL with
 * "FILE:LINE:COL: message" in err (e.g. elapsed not a multiple of interval
 * after overrides, or loops that expand past PLAN_PHASES_MAX), or -ENOMEM.
 */
int plan_phases(const struct params *p, const struct plan_overrides *ov,
		struct plan_phase **out, size_t *n, char *err, size_t errlen);

/*
 * The i-th wd of phase ph's rd (rd.wd[i]) with the phase's loop values
 * (plan_wd.c).
 */
void plan_wd_resolve(const struct params *p, const struct plan_phase *ph,
		     size_t i, struct plan_wd *out);
/*
 * How n wds of an rd share a phase of rate IO/s (0: max), Vdbench's rule
 * (HandleSkew.spreadWdSkew, WG_entry.wg_set_interarrival): a wd with its
 * own iorate (fixed[i] > 0) runs at it; the others share what is left,
 * max(0, rate - their sum), by skew[i] (percent; 0: an even share of what
 * the given skews leave). Fills pct[i], the percent of the phase's I/O
 * wd i gets, and returns the phase's rate: rate, or the sum of the fixed
 * rates when every wd has one. Without fixed rates pct is the skew split.
 */
double plan_wd_shares(size_t n, const double *fixed, const double *skew,
		      double rate, double *pct);
/*
 * The openflags= (PARAMS_O_*) sd is opened with in phase ph, Vdbench's
 * rule (SD_entry.openOneSd, WG_entry.overrideOpenflags): the rd's when
 * it has openflags=, else the one of its wds on sd that has openflags=
 * (params refuses two that differ), else the sd's own. *from says whose:
 * -2 the rd, -1 the sd, else the index of the wd.
 */
unsigned plan_sd_openflags(const struct params *p, const struct plan_phase *ph,
			   unsigned sd, int *from);
/*
 * Data validation (plan_validate.c). plan_validate_check refuses, with
 * "FILE:LINE:COLUMN: message" in err and -EINVAL, what validation cannot
 * keep honest: journal= or rd validate=only without validate=yes,
 * concatenatesds=yes, two sds on one lun (two owners per block), offset=,
 * align=, xfersize= or formatxfersize= not in whole 4 KiB blocks, or, with
 * dedupratio= above 1, not in whole dedup units (and a dedupunit= not in
 * whole 4 KiB blocks).
 * plan_validate_own cuts [lo, hi) among n owners: owner k gets [klo, khi);
 * the cuts of neighbours meet, so every point has exactly one owner.
 */
int plan_validate_check(const struct params *p, const struct plan_phase *ph,
			size_t n, char *err, size_t errlen);
void plan_validate_own(uint64_t lo, uint64_t hi, unsigned k, unsigned n,
		       uint64_t *klo, uint64_t *khi);
/*
 * With validation, who owns which cut must not depend on the order the
 * slaves registered in: the n live slaves (names[i], on hd[i]) are ranked
 * by name. Fills rank[i] (the slave index to give plan_for_slave) and
 * reorders hd (when not NULL) into rank order. Returns 0 or -ENOMEM.
 */
int plan_validate_order(const char *const *names, int *hd, unsigned n,
			unsigned *rank);
/*
 * The threads sd runs with in phase ph (forthreads= or its threads=);
 * with concatenatesds=yes, outside a format phase, the wd's threads= (or
 * forthreads=) on the first sd of its concatenation and 0 on the others.
 */
unsigned plan_sd_threads(const struct params *p, const struct plan_phase *ph,
			 unsigned sd);
/* Whether rd (index) runs sd (index) through one of its wds. */
bool plan_rd_uses_sd(const struct params *p, unsigned rd, unsigned sd);
/*
 * maxdata= of phase ph in bytes (0: none, and for a format phase): its
 * rd's bytes, or up to PARAMS_MAXDATA_TIMES that many times the summed
 * size of the sds the rd's wds use, each whole whatever its range=
 * (Vdbench's CollectSlaveStats.getLimit, the sds' end_lba): its size=,
 * else sd_bytes[sd] (params nsd of them, the slaves' reports; NULL:
 * none). *unsized (may be NULL) counts the sds of the rd with neither.
 */
uint64_t plan_maxdata_bytes(const struct params *p, const struct plan_phase *ph,
			    const uint64_t *sd_bytes, unsigned *unsized);
/* Whether sd (index) may run on hd (index; -1 = a slave on no hd). */
bool plan_sd_on_host(const struct params *p, unsigned sd, int hd);

/*
 * The hd each slave is on, when every hd= line's slaves= processes are
 * started in file order; without hd= lines, nlocal slaves on no hd (-1).
 * *slave_hd is malloc'd (caller frees). Returns 0 or -ENOMEM.
 */
int plan_slave_hosts(const struct params *p, unsigned nlocal, int **slave_hd,
		     unsigned *n);

/*
 * The plan slave `slave` of `nslaves` runs in phase ph. slave_hd[i] is the
 * hd (index into params.hd) slave i runs on, -1 for none; NULL means no
 * host is known and every slave may run every sd and wd. A slave runs the
 * wds whose host= includes its hd, on their sds whose host= does; an sd's
 * threads are split evenly over the slaves that run it, and the phase's
 * rate over the wds by skew and then over the slaves that run each wd.
 * For a format phase, and for an sd whose every wd in the phase is
 * sequential (seekpct=0 or eof), each slave gets its own slice of the
 * sd's range so no block is written (or read) twice.
 *
 * A slave with nothing to run gets a plan with no targets and no streams
 * (and returns 0): it sits the phase out. out->targets and out->streams
 * are malloc'd (free with proto_msg_free). Returns 0, or -EINVAL with a
 * "FILE:LINE:COL: message" (an sd with fewer threads than slaves, a wd or
 * sd no slave can run, wds giving one sd different range=), or -ENOMEM.
 */
int plan_for_slave(const struct params *p, const struct plan_phase *ph,
		   unsigned phase_no, const int *slave_hd, unsigned slave,
		   unsigned nslaves, const char *engine, struct proto_plan *out,
		   char *err, size_t errlen);

/*
 * Build the plans of every phase for one slave of each host (what
 * plan_for_slave refuses does not depend on anything else), so that a file
 * that cannot run is refused before anything starts: call it once the
 * slaves and their hosts are known, before the first phase. Curve points
 * are tried at a stand-in rate. Returns 0, or plan_for_slave's first error
 * with its message (-EINVAL) or -ENOMEM.
 */
int plan_check_slaves(const struct params *p, const struct plan_phase *ph,
		      size_t n, const int *slave_hd, unsigned nslaves,
		      char *err, size_t errlen);

/*
 * File system phases (plan_fs.c). The plan slave `slave` (named
 * slave_name, as it said hello) of `nslaves` runs in fs phase ph; the
 * arguments are plan_for_slave's. The fsds its fwds use (fwd host=
 * includes its hd), each with subdir = slave_name (its own subtree of
 * the anchor), or with shared=yes subdir "" and (share_no, share_count)
 * its rank and the count of the slaves using the fsd; in a format phase
 * every fsd's format and no fwds, else one fwd per (fwd, fsd) pair with
 * threads = max(1, threads / fsds of the fwd / slaves that run it)
 * (Vdbench's split) and rate = the rd's fwdrate= split over the fwds by
 * skew= (plan_wd_shares), then evenly over their fsds and slaves. A
 * slave no fwd runs on gets no fsds (it sits the phase out). out->fsds
 * and out->fwds are malloc'd (free with proto_msg_free). Returns 0, or
 * -EINVAL with "FILE:LINE:COL: message" (a slave name that cannot be a
 * folder name, an fwd no slave runs, too many threads or fsds), or
 * -ENOMEM. plan_for_slave() refuses an fs phase: it has no name.
 */
int plan_fs_for_slave(const struct params *p, const struct plan_phase *ph,
		      unsigned phase_no, const int *slave_hd, unsigned slave,
		      unsigned nslaves, const char *slave_name,
		      const char *engine, struct proto_plan *out, char *err,
		      size_t errlen);
/* plan_fs_for_slave for every slave of fs phase ph with stand-in names. */
int plan_fs_check(const struct params *p, const struct plan_phase *ph,
		  unsigned phase_no, const int *slave_hd, unsigned nslaves,
		  char *err, size_t errlen);

/*
 * Total seconds the phases take: warmup, elapsed and pauses; format phases
 * count 0 (they run until their bytes are written).
 */
double plan_total_seconds(const struct plan_phase *ph, size_t n);

/*
 * A curve point's cluster I/O rate: pct percent of max_iops rounded up as
 * Vdbench does, to a multiple of 100 above 1000 and of 10 below. 0 when
 * max_iops is not more than 0.
 */
double plan_curve_rate(double max_iops, double pct);

#endif
