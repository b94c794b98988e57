/*
 * The keyword tables: for each kind of definition (general parameters, hd=,
 * sd=, wd=, rd=, probe=, ev=) the keywords it takes, the function that checks and
 * stores each one and what it means: a row's doc (or, for a keyword
 * lockstep skips, its why) is its entry in lockstep-params(5), printed
 * from these tables (manual.c). Supporting a new keyword is one row here
 * and, if no existing setter fits, one small function in the kind's file
 * (hd.c, sd.c, wd.c, rd.c, ev.c); the setters shared by several kinds
 * (strings, percentages, durations, yes/no, ratios) and the general
 * parameters' own are here too.
 */
#include "master/params/params_int.h"

#include <assert.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

/* ---- setters ---------------------------------------------------------- */

/* A string field of kw->size bytes at kw->off. */
static int set_string(struct parser *p, const struct kw *kw, void *obj,
		      const struct item *it)
{
	const struct val *v = values_single(p, kw, it);

	if (!v)
		return -EINVAL;
	if (!cstr(v, (char *)obj + kw->off, kw->size))
		return perr(p, v->pos,
			    "%s= is too long (%zu characters, at most %zu)",
			    kw->name, v->len, kw->size - 1);
	return 0;
}

/*
 * nic=NAME: the network interface whose counters slaves sample
 * (/sys/class/net/NAME/statistics): an interface name, nothing a path
 * could be made of.
 */
static int set_nic(struct parser *p, const struct kw *kw, void *obj,
		   const struct item *it)
{
	const struct val *v = values_single(p, kw, it);

	if (!v)
		return -EINVAL;
	if (!v->len || v->len >= kw->size ||
	    (v->len <= 2 && v->s[0] == '.' && v->s[v->len - 1] == '.'))
		return perr(p, v->pos,
			    "nic=%.*s is not an interface name (1 to %zu characters, as `ip link` lists them)",
			    (int)v->len, v->s, kw->size - 1);
	for (size_t i = 0; i < v->len; i++) {
		unsigned char c = (unsigned char)v->s[i];

		if (c == '/' || c == ':' || c <= ' ' || c >= 0x7f)
			return perr(p, v->pos,
				    "nic=%.*s is not an interface name ('%c' is not allowed)",
				    (int)v->len, v->s,
				    c >= 0x20 && c < 0x7f ? c : '?');
	}
	return set_string(p, kw, obj, it);
}

/* lockstep= names the executable, vdbench= the folder it is in. */
static int set_hd_exe(struct parser *p, const struct kw *kw, void *obj,
		      const struct item *it)
{
	int ret = set_string(p, kw, obj, it);

	if (!ret)
		((struct params_hd *)obj)->lockstep_dir = !strcmp(kw->name,
								  "vdbench");
	return ret;
}

static int set_lun(struct parser *p, const struct kw *kw, void *obj,
		   const struct item *it)
{
	struct params_sd *sd = obj;
	int ret = set_string(p, kw, obj, it);

	if (!ret)
		sd->lun_pos = it->val[0].pos;
	return ret;
}

/* A percentage, 0..100, in the double at kw->off. */
static int set_pct(struct parser *p, const struct kw *kw, void *obj,
		   const struct item *it)
{
	const struct val *v = values_single(p, kw, it);

	if (!v)
		return -EINVAL;
	return values_number_in(p, kw, v, 0, 100, field_double(obj, kw));
}

/* A duration > 0 s in the double at kw->off. */
static int set_duration(struct parser *p, const struct kw *kw, void *obj,
			const struct item *it)
{
	const struct val *v = values_single(p, kw, it);
	int ret;

	if (!v)
		return -EINVAL;
	ret = values_seconds(p, kw, v, field_double(obj, kw));
	return ret ? ret :
		     values_positive(p, kw, v, *field_double(obj, kw),
				     " seconds");
}

/* A duration >= 0 s in the double at kw->off. */
static int set_duration0(struct parser *p, const struct kw *kw, void *obj,
			 const struct item *it)
{
	const struct val *v = values_single(p, kw, it);

	if (!v)
		return -EINVAL;
	return values_seconds(p, kw, v, field_double(obj, kw));
}

/*
 * The recovery thresholds of an ev= (percent, in the double at kw->off):
 * degrade= 1..100 of the baseline, recover_iops= 0..100 and recover_p99=
 * 0..100000 away from it (a p99 that wanders 20x between quiet intervals,
 * as on a busy shared machine, wants more than 1000; the largest judges
 * IOPS alone in all but name).
 */
static int set_threshold(struct parser *p, const struct kw *kw, void *obj,
			 const struct item *it)
{
	const struct val *v = values_single(p, kw, it);
	double lo = strcmp(kw->name, "degrade") == 0 ? 1 : 0;
	double hi = strcmp(kw->name, "recover_p99") == 0 ? 100000 : 100;

	if (!v)
		return -EINVAL;
	return values_number_in(p, kw, v, lo, hi, field_double(obj, kw));
}

/* ---- general ---------------------------------------------------------- */

static int set_data_errors(struct parser *p, const struct kw *kw, void *obj,
			   const struct item *it)
{
	struct params *pa = obj;
	const struct val *v = values_single(p, kw, it);
	double d;
	int ret = v ? 0 : -EINVAL;

	if (!ret)
		ret = values_whole(p, kw, v, 0, UINT_MAX, &d);
	if (!ret)
		pa->data_errors = (unsigned)d;
	return ret;
}

/* A ratio >= 1 (compratio=, dedupratio=) in the double at kw->off. */
static int set_ratio(struct parser *p, const struct kw *kw, void *obj,
		     const struct item *it)
{
	const struct val *v = values_single(p, kw, it);
	double *d = field_double(obj, kw);
	int ret = v ? 0 : -EINVAL;

	if (!ret)
		ret = values_number(p, kw, v, d);
	if (!ret && *d < 1)
		return perr(p, v->pos, "%s=%.*s must be at least 1", kw->name,
			    show(v->len), v->s);
	return ret;
}

/* yes or no in the bool at kw->off. */
static int set_yesno(struct parser *p, const struct kw *kw, void *obj,
		     const struct item *it)
{
	const struct val *v = values_single(p, kw, it);
	bool *b = (bool *)((char *)obj + kw->off);

	if (!v)
		return -EINVAL;
	if (val_is(v, "yes"))
		*b = true;
	else if (val_is(v, "no"))
		*b = false;
	else
		return perr(p, v->pos,
			    "%s=%.*s is not supported (use yes or no)",
			    kw->name, show(v->len), v->s);
	return 0;
}

/* concatenatesds=yes|no, and where, for later messages. */
static int set_concat(struct parser *p, const struct kw *kw, void *obj,
		      const struct item *it)
{
	struct params *pa = obj;
	const struct kw k = { .name = kw->name,
			      .off = offsetof(struct params, concat) };

	pa->concat_pos = it->kpos;
	return set_yesno(p, &k, obj, it);
}

/*
 * range=(lo,hi) in percent into the two doubles at kw->off (range_lo and
 * the range_hi right after it).
 */
static int set_range(struct parser *p, const struct kw *kw, void *obj,
		     const struct item *it)
{
	double *r = field_double(obj, kw);
	double lo, hi;
	int ret;

	if (it->nval != 2)
		return perr(p, it->vpos, "%s= needs two values: (low,high)",
			    kw->name);
	ret = values_number_in(p, kw, &it->val[0], 0, 100, &lo);
	if (!ret)
		ret = values_number_in(p, kw, &it->val[1], 0, 100, &hi);
	if (ret)
		return ret;
	if (lo >= hi)
		return perr(p, it->vpos,
			    "%s=%.*s: the low end must be below the high end",
			    kw->name, show(it->rawlen), it->raw);
	r[0] = lo;
	r[1] = hi;
	return 0;
}

_Static_assert(offsetof(struct params_sd, range_hi) ==
		       offsetof(struct params_sd, range_lo) + sizeof(double),
	       "set_range writes range_lo and range_hi as a pair");
_Static_assert(offsetof(struct params_wd, range_hi) ==
		       offsetof(struct params_wd, range_lo) + sizeof(double),
	       "set_range writes range_lo and range_hi as a pair");
_Static_assert(offsetof(struct params_wd, hotband_hi) ==
		       offsetof(struct params_wd, hotband_lo) + sizeof(double),
	       "set_range writes hotband_lo and hotband_hi as a pair");

/* A transfer-size-like uint32_t at kw->off (dedupunit=, formatxfersize=). */
static int set_xfer_field(struct parser *p, const struct kw *kw, void *obj,
			  const struct item *it)
{
	const struct val *v = values_single(p, kw, it);

	if (!v)
		return -EINVAL;
	return values_xfer_size(p, kw, v, (uint32_t *)((char *)obj + kw->off));
}

/* ---- keyword tables --------------------------------------------------- */

/* One line a row; clang-format would brace each on lines of its own. */
/* clang-format off */
#define KW(n, fn, d) { .name = (n), .set = (fn), .doc = (d) }
#define KWF(n, fn, type, field, d) \
	{ .name = (n), .set = (fn), .off = offsetof(type, field), .doc = (d) }
#define KWS(n, type, field, d)                                       \
	{ .name = (n), .set = set_string, .off = offsetof(type, field), \
	  .size = sizeof(((type *)0)->field), .doc = (d) }
#define NIC(type, d)                                                 \
	{ .name = "nic", .set = set_nic, .off = offsetof(type, nic),    \
	  .size = sizeof(((type *)0)->nic), .doc = (d) }
#define LOOP(n, alias, kind, d)                                      \
	{ .name = (n), .set = rd_set_loop, .off = (kind), .alias_of = (alias), \
	  .doc = (d) }
/* clang-format on */
#define IGNORED(n, w)                                              \
	{                                                          \
		.name = (n), .set = compat_set_ignored, .why = (w) \
	}
#define UNSUPPORTED(n, w)                                              \
	{                                                              \
		.name = (n), .set = compat_set_unsupported, .why = (w) \
	}
#define UNSUPPORTED_BUT(n, ok, w)                                       \
	{                                                               \
		.name = (n), .set = compat_set_unsupported, .why = (w), \
		.harmless = (ok)                                        \
	}

/* validate=yes|no, remembering where (the planner's checks point at it). */
static int set_validate(struct parser *p, const struct kw *kw, void *obj,
			const struct item *it)
{
	struct params *pa = obj;

	pa->validate_pos = it->vpos;
	return set_yesno(p, kw, obj, it);
}

/* journal=DIR (Vdbench's name): where slaves journal validation maps. */
static int set_journal(struct parser *p, const struct kw *kw, void *obj,
		       const struct item *it)
{
	struct params *pa = obj;

	return params_journal_value(p, kw, it, pa->journal, sizeof(pa->journal),
				    &pa->journal_pos);
}

#define WHY_DEDUP \
	"lockstep's data patterns take the general dedupratio= and dedupunit= only"
#define WHY_REPORTS "lockstep writes its own reports"
/* startcmd=, endcmd= and Vdbench's start_cmd=, end_cmd= (cmd.c). */
#define CMD(n, type, field, d)                                             \
	{                                                                  \
		.name = (n), .set = cmd_set, .off = offsetof(type, field), \
		.doc = (d)                                                 \
	}
#define CMD_ALIAS(n, type, field, a)                                       \
	{                                                                  \
		.name = (n), .set = cmd_set, .off = offsetof(type, field), \
		.alias_of = (a)                                            \
	}
#define DOC_CMD_TAIL \
	" A list may give several commands, run in order, and the target of their output, Vdbench's: log (default: commands/NAME.log in the results folder), summary (summary.txt too) or console (the console too); a single word that starts with log, sum or cons is read as the target. $output in a command is the results folder. A command that fails (exit not 0, a signal, past an hour) is said and recorded in summary.json's \"commands\" and the run goes on, as in Vdbench"

static const struct kw general_kws[] = {
	KWF("compratio", set_ratio, struct params, compratio,
	    "the compression ratio of the written data, at least 1 (default 1: incompressible)"),
	KW("data_errors", set_data_errors,
	   "I/O errors (validation mismatches included) a slave may see before the run aborts, exit 2 (default 50); within it the run ends degraded, exit 4"),
	/* Vdbench's own tracing: nothing for lockstep to do. */
	KW("debug", NULL, "Vdbench's own tracing: accepted, nothing to do"),
	KWF("dedupratio", set_ratio, struct params, dedupratio,
	    "how many written blocks share each content, at least 1 (default 1: every block unique); with validate=yes every transfer must be whole dedup units (see DATA VALIDATION)"),
	KWF("dedupunit", set_xfer_field, struct params, dedupunit,
	    "the size of the unit dedupratio= counts in (default 128k)"),
	KWF("formatxfersize", set_xfer_field, struct params, formatxfersize,
	    "the transfer size of format= passes (default 1m)"),
	KWF("validate", set_validate, struct params, validate,
	    "yes: every written block (of an sd, or of an fsd's files) carries a header per sector and every read of one is verified (see DATA VALIDATION); no (default)"),
	KW("journal", set_journal,
	   "an absolute folder where each slave journals its validation map of each sd (DIR/<sd>.<slave>.jnl) or fsd (DIR/<fsd>.<slave>.fsjnl), replayed by a later run (needs validate=yes); no: none"),
	NIC(struct params,
	    "the network interface every slave samples (bytes and packets each way, per interval), e.g. the one that carries the storage traffic; an hd's nic= overrides it (default: none)"),
	IGNORED("abort_failed_skew",
		"lockstep does not abort on a missed skew"),
	KW("concatenatesds", set_concat,
	   "yes: Vdbench's sd concatenation: the sds of each wd, in the order its sd= names them, are one address space (their sizes added, range= and seekpct= of the wd over the whole of it, a sequential wd walking the first sd, then the next); an I/O that would straddle two sds goes to the start of the next one instead, Vdbench's rule; the wd's threads= (or the rd's forthreads=) are its I/Os in flight, split evenly over the slaves that have every one of its sds. Not with threads=, range=, hitarea=, offset= or align= on the sds, rhpct=/whpct=, hotband=, random_distribution=, streams= or stride= on the wds, forrhpct=/forwhpct=/forhitarea=, validate=yes, or an sd in two wds of one rd; each sd must hold the largest xfersize whole, and size= neither creates nor extends a file (Vdbench's rule). no (default)"),
	KWF("create_anchors", set_yesno, struct params, create_anchors,
	    "yes: a slave makes an fsd's anchor folder, and the missing folders above it, when it is not there (Vdbench's); only where its --allow allows the anchor, never through a symbolic link it would have to make a folder beyond, and not for format=clean; no (default): the anchor must exist"),
	UNSUPPORTED("dedupsets", WHY_DEDUP),
	UNSUPPORTED("deduphotsets", WHY_DEDUP),
	UNSUPPORTED("dedupflipflop", WHY_DEDUP),
	CMD("startcmd", struct params, startcmd,
	    "a command the master runs through /bin/sh -c before the first run (startcmd=\"CMD\" or startcmd=(\"CMD\",\"CMD2\",console))." DOC_CMD_TAIL),
	CMD_ALIAS("start_cmd", struct params, startcmd, "startcmd"),
	CMD("endcmd", struct params, endcmd,
	    "a command the master runs after the last run, when every run ended well; as startcmd="),
	CMD_ALIAS("end_cmd", struct params, endcmd, "endcmd"),
	UNSUPPORTED_BUT("formatsds", "no",
			"prime the sds with format=yes on the rd"),
	IGNORED("fwd_thread_adjust",
		"it applies to file system workloads only"),
	IGNORED("histogram", "lockstep's latency histograms need no buckets"),
	IGNORED("ios_per_jvm", "lockstep has no per-slave rate warning"),
	UNSUPPORTED("loop", "repeat the rd= lines instead"),
	IGNORED("messagescan", "lockstep does not scan system logs"),
	IGNORED("monitor", "lockstep does not watch a monitor file"),
	UNSUPPORTED("pattern", "lockstep makes its own data (see compratio=)"),
	IGNORED("port", "give `lockstep run --port` instead"),
	IGNORED("report", WHY_REPORTS),
	IGNORED("report_run_totals", WHY_REPORTS),
	IGNORED("showlba", "lockstep writes no lba trace"),
	IGNORED("timeout", "lockstep has its own slave timeouts"),
};

static const struct kw hd_kws[] = {
	KWS("system", struct params_hd, system,
	    "the host's address for ssh (default: the hd's name); passed after `--`, so never an option"),
	KWS("user", struct params_hd, user, "the ssh user (default: ssh's)"),
	NIC(struct params_hd,
	    "the network interface the host's slaves sample (default: the general nic=)"),
	KW("shell", hd_set_shell,
	   "ssh (default): the master starts the host's slaves over ssh; none (or vdbench): it waits for slaves started there, such as daemons"),
	KW("slaves", hd_set_slaves,
	   "slave processes on the host, 1..1024 (default 1): named HD, or HD-1..HD-N"),
	{ .name = "jvms", .set = hd_set_slaves, .alias_of = "slaves" },
	{ .name = "lockstep",
	  .doc = "the path of the lockstep executable on the host (default: the PATH's, or with --push ~/.cache/lockstep/lockstep-VERSION)",
	  .set = set_hd_exe,
	  .off = offsetof(struct params_hd, lockstep),
	  .size = sizeof(((struct params_hd *)0)->lockstep) },
	{ .name = "vdbench",
	  .doc = "the Vdbench install folder, as Vdbench and HCIBench files give it: the host runs DIR/lockstep, else DIR/vdbench when its version says lockstep; --push puts lockstep in as DIR/lockstep; the search needs a POSIX shell there",
	  .set = set_hd_exe,
	  .off = offsetof(struct params_hd, lockstep),
	  .size = sizeof(((struct params_hd *)0)->lockstep),
	  .alias_of = "lockstep" },
	UNSUPPORTED("clients", "start more slaves with slaves= instead"),
	UNSUPPORTED("mount", WHY_MOUNT),
};

static const struct kw sd_kws[] = {
	{ .name = "lun",
	  .doc = "the target: a file or a block device (see lockstep-slave(1), TARGET SAFETY)",
	  .set = set_lun,
	  .off = offsetof(struct params_sd, lun),
	  .size = sizeof(((struct params_sd *)0)->lun) },
	KW("size", sd_set_size,
	   "the size of the target used (default: the lun's own); a missing file is created at this size with random data"),
	KW("threads", sd_set_threads,
	   "I/Os kept in flight on io_uring (not OS threads), 1..65536 (default 8), split evenly over the slaves that run the sd"),
	KW("openflags", sd_set_openflags,
	   "how the lun is opened: o_direct (or directio: O_DIRECT), o_dsync (O_DSYNC) and o_sync (O_SYNC), one or a list (default: none, buffered); a wd's or rd's openflags= replaces it"),
	KWF("range", set_range, struct params_sd, range_lo,
	    "(low,high) in percent of the sd: the part of it the I/O covers"),
	KW("align", sd_set_align,
	   "the alignment of random offsets, a multiple of 512"),
	KW("offset", sd_set_offset,
	   "where on the lun the sd starts, a multiple of 512"),
	KW("host", sd_set_host,
	   "the hd= hosts that run the sd, a name or a list (default: every host)"),
	KWF("force", set_yesno, struct params_sd, force,
	    "yes: write over a signature libblkid knows (a file system, a partition table, ...); the only safety rule it overrides"),
	/* lockstep's own: run the sd from a ring with a kernel SQ thread. */
	KWF("sqpoll", set_yesno, struct params_sd, sqpoll,
	    "yes: run the sd from rings with a kernel submission-queue polling thread (lockstep's own)"),
	KW("hitarea", sd_set_hitarea,
	   "the cache-hit area, Vdbench's: the first this many bytes of the sd's range take the hits of the wds with rhpct= or whpct=, and all their other I/O goes to the rest of the range (the miss area); a multiple of 4k, each area at least 4 times the largest xfersize (default 1m)"),
	UNSUPPORTED("count", "write one sd= line per lun"),
	UNSUPPORTED("journal", "give journal=DIR among the general parameters"),
	UNSUPPORTED("dedupratio", WHY_DEDUP),
	UNSUPPORTED("dedupsets", WHY_DEDUP),
	UNSUPPORTED("deduphotsets", WHY_DEDUP),
	UNSUPPORTED("dedupflipflop", WHY_DEDUP),
	UNSUPPORTED("replay",
		    "Vdbench's replay groups are not supported: give replay=FILE on a wd= (lockstep's form)"),
	UNSUPPORTED("resetbus", "bus resets are not supported"),
	UNSUPPORTED("resetlun", "lun resets are not supported"),
};

static const struct kw wd_kws[] = {
	KW("sd", wd_set_sd,
	   "the sds it runs on: a name, a list, or a wildcard such as sd* (default: the only sd, when there is one)"),
	KW("xfersize", wd_set_xfersize,
	   "the transfer size (default 4k), or size,percentage pairs such as (4k,50,8k,50) adding up to 100"),
	KWF("rdpct", set_pct, struct params_wd, rdpct,
	    "the read percentage, 0..100 (default 100)"),
	KW("seekpct", wd_set_seekpct,
	   "the random percentage, 0..100 (default 100), random (100), seq or sequential (0), or eof (or -1): one sequential pass that ends the phase"),
	KWF("range", set_range, struct params_wd, range_lo,
	    "(low,high) in percent of each sd, within the sd's own range="),
	KW("skew", wd_set_skew,
	   "the wd's share of the rd's I/O rate in percent; the wds without one split what the others leave"),
	KW("iorate", wd_set_iorate,
	   "a fixed rate of its own for the wd, IO/s, not with skew=. Either every wd of the rd has one (and the rd gives no iorate=: the phase runs at their sum), or, Vdbench's rule, every wd of the rd has a priority= and those with iorate= come first: they run at their rates and the others share what the rd's fixed iorate= leaves by skew= (the rd's rate must exceed theirs; iorate=max, curve or slo beside fixed-rate wds is not supported)"),
	KW("priority", wd_set_priority,
	   "Vdbench's I/O priority, 1 the highest: once a wd of an rd has one, every wd of it needs a different one, 1 to the number of its wds, and the wds with iorate= come before those without. lockstep checks these rules and uses them to run fixed-rate wds beside shared ones (see iorate=); its slaves serve a backlog of I/O in arrival order, not highest priority first as Vdbench's do, and say so in a warning"),
	KW("openflags", wd_set_openflags,
	   "as the sd's openflags=, for its sds in its phases: it replaces theirs (Vdbench's rule) unless the rd has openflags=; a slave opens an sd once, so two wds of an rd that give one sd different openflags= are refused"),
	KW("host", wd_set_host,
	   "the hd= hosts that run the wd, a name or a list"),
	KWF("hotband", set_range, struct params_wd, hotband_lo,
	    "(low,high) in percent of each whole sd, Vdbench's hot band: the wd's random I/O goes there by Vdbench's HotBand curve, skewed to the band's start (of the reads, about 8.7% in its first 16,000 bytes, 20% in its first 256,000 and 33% in its first 1,024,000, the rest wrapped around the band's whole megabytes; a write lands one percent of the band further on than a read of the same draw), its sequential I/O through the band. The band replaces the sd's range for the wd (Vdbench's rule: not with range= on the wd or its sds), holds a megabyte (1,000,000 bytes) at least, and several wds with bands of their own share an sd by skew=. Vdbench's wrapping (high above 100) and byte forms are refused, and so are random_distribution=, stride=, streams=, rhpct=/whpct=, seekpct=eof and validate=yes with it"),
	KWF("rhpct", wd_set_hitpct, struct params_wd, rhpct,
	    "read hits, Vdbench's: the percentage of reads that go to the hitarea= of their sd (random offsets there), 0..100 (default 0); once any wd of a phase asks for hits on an sd, every other I/O on it goes past the hit area. Refused with validate=yes"),
	KWF("whpct", wd_set_hitpct, struct params_wd, whpct,
	    "write hits: the percentage of writes that go to the hitarea= of their sd, 0..100 (default 0), as rhpct="),
	KW("random_distribution", wd_set_access,
	   "how random offsets spread over the range, fio's option (lockstep's extension of the Vdbench language): random (default, uniform), zipf:THETA (theta > 0, not 1; zipf alone is 1.1), pareto:H (0 < h < 1: the hottest h of the blocks take 1-h of the I/O, so pareto:0.2 sends 80% of it to 20% of the blocks; pareto alone is 0.2), normal:SIGMA (a normal curve, sigma in percent of the range) or zoned:IO/RANGE:IO/RANGE:... (fio's zones: IO percent of the random I/O goes uniformly to the next RANGE percent of the range, such as zoned:60/10:30/20:10/ for 60% to the first 10%, 30% to the next 20% and 10% to the rest; whole percents, the IO shares adding up to 100 and the RANGE shares to at most 100, the rest of the range then untouched; a RANGE left empty or 0 takes an even share of what the others leave, rounded down as fio does; at most 100 zones; fio's zoned_abs and its per-direction sets are not supported). Blocks are align= or the wd's smallest xfersize; zipf's, pareto's and normal's hot ones are scattered over the range by a permutation of the sd's name that every slave shares, as fio scatters them, while zones lie in order from the range's start, as in fio; sequential I/O is not affected. Refused with validate=yes"),
	KW("streams", wd_set_streams,
	   "independent sequential streams, Vdbench's: each sd's range is cut into this many equal parts (2 at least), each read or written sequentially from its start, wrapping at its end (or ending its pass, with seekpct=eof), whatever seekpct= says otherwise; the sd's threads= are shared evenly by the streams and must be a multiple of them, and the wd runs alone in its rd. Streams are cut among slaves whole. Not with stride=, rhpct=/whpct=, a skewed random_distribution= or validate=yes"),
	KW("stride", wd_set_stride,
	   "skip-sequential I/O, Vdbench's: (MIN,MAX) sizes such as (4k,64k); each random I/O (seekpct=) starts a random gap of MIN plus a whole number of transfer sizes (of align= when the sd has one) below MAX after the previous I/O's end, the first at the range's start, and back at the start when it would pass the end. Needs random I/O (seekpct above 0); not with streams=, rhpct=/whpct= or a skewed random_distribution="),
	KW("threads", wd_set_threads,
	   "with concatenatesds=yes only (Vdbench's rule): the wd's I/Os in flight on its concatenated sds, 1..65536, split evenly over the slaves that run it; every wd needs one unless its rd gives forthreads=, which replaces it"),
	KW("replay", wd_set_replay,
	   "replay an I/O trace on the wd's sd (lockstep's form of Vdbench's replay): a blkparse text file (blkparse's default output; of each device its queue events Q, or its issue events D when it has no Q), a fio iolog of version 2 or 3, told apart by its first line, or blktrace's binary per-CPU files (NAME.blktrace.N: every CPU's file is read; of each device its Q events, or its D events). A relative path is from the parameter file's folder; the master reads it when the file is parsed, and each slave reads the same path at the start of a phase (the same bytes: the master checks their hash). Each record's offset, length and direction are issued as recorded, at its recorded time from the phase's start (replay_mode=timed; latency counts from that time) or as fast as the sd's threads= allow (afap); the phase ends when every record was issued, or at elapsed=. The wd runs on one sd; a record past the sd's end is refused (Vdbench's rule). Every wd of its rds replays, and xfersize=, rdpct=, seekpct=, range=, skew=, iorate=, hits, random_distribution=, hotband=, streams=, stride=, a fixed or curve iorate= on the rd, and validate=yes are refused with it"),
	KWS("replay_device", struct params_wd, replay_dev,
	    "the trace's device replayed on the wd's sd: MAJ,MIN for blkparse or blktrace (quote it, \"8,16\", or write 8:16) or the file name of a fio iolog (default: the trace's only device). Several devices of a trace run as several wds, one sd each"),
	KW("replay_mode", wd_set_replay_mode,
	   "timed (default): each record at its recorded time from the phase's start, an open-loop schedule; afap: each record as soon as a slot of the sd's threads= is free, in the trace's order per worker"),
};

/* fsd=: a file tree (fs.c). */
#define FS_SHAPE(n, field, d)                                         \
	{                                                             \
		.name = (n), .set = fsd_set_shape,                    \
		.off = offsetof(struct params_fsd, field), .doc = (d) \
	}
static const struct kw fsd_kws[] = {
	KW("anchor", fsd_set_anchor,
	   "the folder the tree is made in, an absolute path that must exist on the slaves (or general create_anchors=yes makes it) and that lockstep-slave(1)'s --allow must allow; each slave an fwd runs on gets its own subtree ANCHOR/SLAVE unless shared=yes"),
	FS_SHAPE("depth", depth,
		 "levels of folders below the anchor (default 1), each folder named vdb.LEVEL_INDEX.dir as Vdbench names them"),
	FS_SHAPE("width", width, "folders in each folder (default 1)"),
	FS_SHAPE("files", files,
		 "files in each folder that holds files (default 10, at most 10,000,000), named vdb_fNNNN.file"),
	KW("sizes", fsd_set_sizes,
	   "the files' size (default 4k); (SIZE,PCT,SIZE,PCT,...) with whole percentages adding up to 100 for a mix, each file drawing its size as Vdbench does (java.util.Random, seed 0: Vdbench's sizes file for file); (SIZE,0) for sizes averaging SIZE"),
	{ .name = "size", .set = fsd_set_sizes, .alias_of = "sizes" },
	KW("distribution", fsd_set_distribution,
	   "bottom (default): files in the deepest folders only; all: files in every folder"),
	KWF("shared", set_yesno, struct params_fsd, shared,
	    "yes: Vdbench's shared anchor: every slave an fwd runs on uses the one tree, each formatting and using every n-th file (n: the slaves on it); no (default): each slave its own subtree, ANCHOR/SLAVE"),
	KW("openflags", fsd_set_openflags,
	   "how files are opened: o_direct (or directio), o_dsync, o_sync, one or a list (default: none); an rd's openflags= replaces it"),
	UNSUPPORTED("host",
		    "give host= on the fwd: an fsd is used where its fwds run (Vdbench's rule)"),
	KW("totalsize", fsd_set_bytes,
	   "bytes of the tree's files to format and use (default: every file), Vdbench's subset: each slave draws files of its own (of its share with shared=yes) at random with Vdbench's generator (java.util.Random, seed 0), each once, until their bytes reach the size; the format makes every folder and only those files, and the fwds use only them. Vdbench's (size,divisor) is size/divisor bytes (totalsize=(1m,2) is 512k); 0 is the whole tree. At most the tree's bytes; a slave whose files (its share) hold fewer refuses the phase; a percentage is refused (Vdbench's rule: only an rd's fortotal= takes one, of this size)"),
	KW("workingsetsize", fsd_set_bytes,
	   "bytes of the files the fwds use (default: every file, or the totalsize= files), drawn from the totalsize= files (or every file) as totalsize= draws them, with a generator of its own; a format ignores it (Vdbench's rule). (size,divisor) as totalsize=; 0 is every file; a percentage is refused (Vdbench draws no file for it). At most totalsize= and the tree's bytes"),
	{ .name = "wss", .set = fsd_set_bytes, .alias_of = "workingsetsize" },
	KW("count", fsd_set_count,
	   "(start,n): the line is n fsds (Vdbench's FsdEntry), each with the number start, start+1, ... appended to its name and to its anchor= (after a '/' the anchor ends in): fsd=f,anchor=/mnt/a,count=(1,3) is f1, f2 and f3 on /mnt/a1, /mnt/a2 and /mnt/a3; an fwd names them, or fsd=f* for all; at most 10000"),
	KW("journal", fsd_set_journal,
	   "an absolute folder where each slave journals this fsd's key maps (DIR/<fsd>.<slave>.fsjnl) with validate=yes, instead of the general journal='s (Vdbench's fsd journal=); no: the general one"),
	UNSUPPORTED("dedupratio", WHY_DEDUP),
	UNSUPPORTED("dedupunit", WHY_DEDUP),
	UNSUPPORTED("dedupsets", WHY_DEDUP),
};

/* fwd=: a file workload (fs.c). */
static const struct kw fwd_kws[] = {
	KW("fsd", fwd_set_fsd,
	   "the fsds it runs on: a name, a list or a wildcard (default: the only fsd, when there is one); on each of them"),
	KW("operation", fwd_set_operation,
	   "what it does, one of read (default), write, create, delete, mkdir, rmdir, open, close, getattr, setattr, access, copy, move"),
	KW("rdpct", fwd_set_rdpct,
	   "with operation=read or write and fileio=random: the percentage of its transfers that read, the rest write (Vdbench's mixed read and write)"),
	{ .name = "readpct", .set = fwd_set_rdpct, .alias_of = "rdpct" },
	KW("xfersize", fwd_set_xfersize,
	   "the transfer size of reads and writes (default 4k), or size,percentage pairs adding up to 100"),
	{ .name = "xfersizes", .set = fwd_set_xfersize, .alias_of = "xfersize" },
	KW("fileio", fwd_set_fileio,
	   "sequential (default): a file from its start to its end; random: xfersize-aligned random offsets; (random,shared): random, and the fwd's threads may use one file at once (with fileselect=sequential or once, not random: Vdbench's rule); (sequential,delete): sequential, and a write deletes a whole file first, then creates and writes it anew (operation=write only)"),
	KW("fileselect", fwd_set_fileselect,
	   "how files are picked: sequential (default, Vdbench's: in the tree's order, again and again), random, once (each file once, in order, then the fwd is done; with random, (random,once): each file once in random order), poisson (random, skewed to the start of the file list: Vdbench's distPoisson with midpoint 3, about 2/3 of the picks in the first third of the files) or midpoint=N (the same with N: the larger, the more skewed); a list such as (random,midpoint=5) as Vdbench takes it. A skew with sequential or once is refused (Vdbench ignores it there)"),
	KW("threads", fwd_set_threads,
	   "operations in flight (default 1), Vdbench's: the fwd's total, split evenly over its fsds and the slaves that run it, at least 1 each. On fwd=format: the threads that format each fsd's tree on each slave (its fsds at once), 1..64 (Vdbench's 8 without fwd=format; fwd=default's when fwd=format gives none): folders first, level by level, then files, each file keeping its number in the tree's walk"),
	KW("skew", fwd_set_skew,
	   "the fwd's share of the rd's fwdrate= in percent; the fwds without one split what the others leave"),
	KW("host", fwd_set_host,
	   "the hd= hosts that run the fwd, a name or a list (default: every host)"),
	{ .name = "hd", .set = fwd_set_host, .alias_of = "host" },
	KW("target", fwd_set_target,
	   "operation=copy or move (required there, Vdbench's rule): the fsd each file is copied or moved to, as the file of the same relative name; of the same shape as the fwd's fsds, and not one of them"),
	KW("stopafter", fwd_set_stopafter,
	   "N, or P%: a read or write moves to another file after N transfers, or after P percent of the file's bytes (at least one transfer). With fileio=sequential the next visit of a file goes on where the last stopped, from its start after its end (Vdbench's append). Default: sequential reads and writes the whole file, random one transfer per xfersize block of it, at most 100"),
	KW("openflags", fwd_set_openflags,
	   "as the fsd's openflags=, for this fwd's operations: it replaces its fsds' and an rd's openflags= replaces it (Vdbench's FwgEntry); on fwd=format, the format's files' (over the fsds', an rd's over it)"),
};

static const struct kw rd_kws[] = {
	KW("wd", rd_set_wd, "the wds it runs: a name, a list or a wildcard"),
	KW("fwd", rd_set_fwd,
	   "the fwds it runs (a file system run, see FILE SYSTEM RUNS): a name, a list or a wildcard (default: the only fwd of a file without wds); not with wd="),
	KW("fwdrate", rd_set_fwdrate,
	   "with fwd=: max (default), curve (a max phase, then one phase per curve= point at that percent of the max phase's rate of the requested operations, Vdbench's ReqstdOps, rounded up as Vdbench does; stopcurve= applies) or the cluster's operations per second, split over the fwds by skew= and over the slaves that run each; an operation of a read or write fwd is one transfer, of a create the whole file"),
	KW("iorate", rd_set_iorate,
	   "max (default), curve, slo (a max phase, then a search for the highest rate that meets slo=), a rate N (the cluster total, IO/s) or a list of rates (N,M,...): one phase each"),
	{ .name = "foriorate", .set = rd_set_iorate, .alias_of = "iorate" },
	KW("curve", rd_set_curve,
	   "with iorate=curve or fwdrate=curve: the points, in percent of the max phase's rate (default Vdbench's 10,50,70,80,90,100)"),
	KW("stopcurve", rd_set_stopcurve,
	   "with iorate=curve or fwdrate=curve: skip the remaining points once the response time (of an fwd run: of its requested operations) passes this many milliseconds"),
	KW("slo", rd_set_slo,
	   "with iorate=slo: the latency objective, pPCT:LATENCY or mean:LATENCY (p99:2ms, p99.9:500us, mean:1ms; units us, ms or s): the search reports the highest cluster rate whose measured percentile over all I/O is at most LATENCY"),
	KWF("sloprecision", set_pct, struct params_rd, sloprecision_pct,
	    "with iorate=slo: the search stops when its bracket is this narrow, in percent of the max phase's rate (default 5, 0.5..50)"),
	KWF("elapsed", set_duration, struct params_rd, elapsed_s,
	    "the measured time of each phase (default 30s)"),
	KW("warmup", rd_set_warmup,
	   "the time before elapsed= that is run but not measured (default 0); steady, (steady,MAX) or (steady,MAX,ROUND): until the cluster's IOPS and every slave's are steady by SNIA PTS (5 rounds, data excursion <= 20%, slope excursion <= 10%), judged after each interval, for at most MAX (default 25 rounds), in rounds of ROUND (default one interval)"),
	KWF("interval", set_duration, struct params_rd, interval_s,
	    "the reporting interval (default 1s)"),
	KWF("pause", set_duration0, struct params_rd, pause_s,
	    "a pause before each of its phases starts (default 0)"),
	KW("format", rd_set_format,
	   "yes: write every sd's working set once, sequentially, before the phases; only: the format pass alone; no (default). With fwd=: yes cleans and makes every fsd's tree before the run, restart makes only what is missing (short files filled) before it, only makes the trees with no run after, clean deletes them with no run (see FILE SYSTEM RUNS). Vdbench's lists combine them: (restart,only) makes what is missing with no run, (clean,only) is clean, (yes,only) only, and no anywhere in the list means no format. With fwd= also: once (with for-loops, format only before the first combination; without it, before each, Vdbench's), directories (the folders only, no files), limited (with only: the format stops at elapsed=, leaving a partial tree) and (no,complete) (no format; the run takes every folder and file as there and full without looking, when the tree's marker matches)"),
	KW("validate", rd_set_validate,
	   "only: one pass that reads each slave's whole part of the sds and verifies it (with fwd=: every file of the fwds' fsds, once, Vdbench's journal_recovery run; needs validate=yes); no"),
	KW("distribution", rd_set_distribution,
	   "the gaps of a fixed iorate=: exponential (default), uniform (between 0 and twice the mean) or deterministic"),
	LOOP("forxfersize", NULL, PARAMS_LOOP_XFERSIZE,
	     "a phase per transfer size of the list (with fwd=, every fwd's xfersize=)"),
	LOOP("xfersize", "forxfersize", PARAMS_LOOP_XFERSIZE, NULL),
	LOOP("forrdpct", NULL, PARAMS_LOOP_RDPCT,
	     "a phase per read percentage of the list (with fwd=, every fwd's rdpct=: each must be a read or write with fileio=random)"),
	LOOP("rdpct", "forrdpct", PARAMS_LOOP_RDPCT, NULL),
	LOOP("forseekpct", NULL, PARAMS_LOOP_SEEKPCT,
	     "a phase per seek percentage of the list"),
	LOOP("seekpct", "forseekpct", PARAMS_LOOP_SEEKPCT, NULL),
	LOOP("forthreads", NULL, PARAMS_LOOP_THREADS,
	     "a phase per threads= of the list (I/Os in flight per sd; with fwd=, every fwd's threads=, its total over its fsds and slaves)"),
	LOOP("threads", "forthreads", PARAMS_LOOP_THREADS, NULL),
	LOOP("forcompratio", NULL, PARAMS_LOOP_COMPRATIO,
	     "a phase per compression ratio of the list"),
	LOOP("compratio", "forcompratio", PARAMS_LOOP_COMPRATIO, NULL),
	LOOP("forrhpct", NULL, PARAMS_LOOP_RHPCT,
	     "a phase per read hit percentage of the list (every wd's rhpct=)"),
	LOOP("rhpct", "forrhpct", PARAMS_LOOP_RHPCT, NULL),
	LOOP("forwhpct", NULL, PARAMS_LOOP_WHPCT,
	     "a phase per write hit percentage of the list (every wd's whpct=)"),
	LOOP("whpct", "forwhpct", PARAMS_LOOP_WHPCT, NULL),
	LOOP("forhitarea", NULL, PARAMS_LOOP_HITAREA,
	     "a phase per hit area size of the list (every sd's hitarea=)"),
	LOOP("hitarea", "forhitarea", PARAMS_LOOP_HITAREA, NULL),
	UNSUPPORTED("sd", "name the sds on the wd= lines"),
	KW("maxdata", rd_set_maxdata,
	   "end each phase early after this much data, Vdbench's: bytes with units (such as 10g), or up to 100 a multiple of the total size of the sds the rd uses (2 is twice their size: each sd's size=, else the size of its file or device as its slaves report it, whole whatever its range=); once the measured reads and writes of the whole cluster pass it at the end of an interval, the phase ends with the next interval, and summary.json's run says \"end\": \"maxdata\""),
	CMD("startcmd", struct params_rd, startcmd,
	    "a command run before each run of the rd (each phase but a format pass, as Vdbench runs it before each of its runs), and its I/O waits for it: with the word slave (default, Vdbench's) on one slave of each host, which runs it only when started with --allow-commands (see lockstep-slave(1); a slave the master starts itself has it; a refusal stops the run, exit 1), its output sent to the master; with master on the master through /bin/sh -c." DOC_CMD_TAIL),
	CMD_ALIAS("start_cmd", struct params_rd, startcmd, "startcmd"),
	CMD("endcmd", struct params_rd, endcmd,
	    "a command run after each run of the rd that ended well, once its last interval is in; as startcmd="),
	CMD_ALIAS("end_cmd", struct params_rd, endcmd, "endcmd"),
	KW("openflags", rd_set_openflags,
	   "as the sd's openflags=, for every sd of its phases: it replaces the sds' and the wds' (Vdbench's rule)"),
	UNSUPPORTED("replay",
		    "Vdbench's replay groups are not supported: give replay=FILE on a wd= (lockstep's form)"),
	UNSUPPORTED("mount", WHY_MOUNT),
	KW("operations", rd_set_operations,
	   "with fwd=: the operations every fwd of the rd runs instead of its operation=, Vdbench's RD_entry: each fwd runs each of them on each of its fsds at once, its threads= and its share of fwdrate= split evenly over them; copy and move need the fwd's target=, and an fwd with rdpct= takes only one, read or write. Not with foroperation="),
	{ .name = "operation",
	  .set = rd_set_operations,
	  .alias_of = "operations" },
	LOOP("foroperation", NULL, PARAMS_LOOP_OPERATION,
	     "with fwd=: a phase per operation of the list, each standing for every fwd's operation= (Vdbench's For_loop); copy and move need every fwd's target=, and with an fwd's rdpct= or forrdpct= only read and write are taken. Not with operations="),
	LOOP("foroperations", "foroperation", PARAMS_LOOP_OPERATION, NULL),
	LOOP("fordepth", NULL, PARAMS_LOOP_DEPTH,
	     "with fwd=: a phase per depth of the list, standing for the depth= of every fsd the rd's fwds use (Vdbench's For_loop); a tree loop needs format=yes or only: before the first phase of each new tree shape lockstep cleans the tree the previous value made (lockstep's marker and names only) and formats the new one"),
	LOOP("depth", "fordepth", PARAMS_LOOP_DEPTH, NULL),
	LOOP("forwidth", NULL, PARAMS_LOOP_WIDTH,
	     "with fwd=: a phase per width of the list, standing for every fsd's width=; formatted per value as fordepth="),
	LOOP("width", "forwidth", PARAMS_LOOP_WIDTH, NULL),
	LOOP("forfiles", NULL, PARAMS_LOOP_FILES,
	     "with fwd=: a phase per files= of the list, standing for every fsd's files=; formatted per value as fordepth="),
	LOOP("files", "forfiles", PARAMS_LOOP_FILES, NULL),
	LOOP("forsizes", NULL, PARAMS_LOOP_SIZES,
	     "with fwd=: a phase per file size of the list, each one size standing for every fsd's sizes= (Vdbench's For_loop); formatted per value as fordepth="),
	LOOP("sizes", "forsizes", PARAMS_LOOP_SIZES, NULL),
	LOOP("fortotal", NULL, PARAMS_LOOP_TOTAL,
	     "with fwd=: a phase per size of the list, standing for every fsd's totalsize=: bytes, 0 for each fsd's own totalsize=, or N% for N percent of each fsd's own (Vdbench's: every fsd must have a totalsize=; whole percentages from 1; the bytes within the tree), as in (50%,100%); with format=yes or only each new size is formatted before its phase"),
	LOOP("fortotalsize", "fortotal", PARAMS_LOOP_TOTAL, NULL),
	LOOP("totalsize", "fortotal", PARAMS_LOOP_TOTAL, NULL),
	LOOP("forwss", NULL, PARAMS_LOOP_WSS,
	     "with fwd=: a phase per size of the list, standing for every fsd's workingsetsize= (bytes; 0 for no working set, every file; a percentage is refused, as Vdbench has no meaning for it); the tree is not formatted again for it (a format ignores the working set)"),
	LOOP("forworkingsetsize", "forwss", PARAMS_LOOP_WSS, NULL),
	LOOP("wss", "forwss", PARAMS_LOOP_WSS, NULL),
	LOOP("workingsetsize", "forwss", PARAMS_LOOP_WSS, NULL),
};

/* ev=: an event of a failure-and-rebuild run (ev.c). */
static const struct kw ev_kws[] = {
	KW("rd", ev_set_rd,
	   "the rd the event belongs to (may be left out with one rd, or with after=: the rd of that event)"),
	KW("at", ev_set_at,
	   "start OFFSET into the measured time (after warmup) of the rd's first measured phase; at=\"PHASE\" or at=\"PHASE+OFFSET\" into the phase of that printed name (lockstep check lists them: \"r2 curve=50%\", \"r3 xfersize=8k\")"),
	KW("after", ev_set_after,
	   "EVENT[+OFFSET]: start OFFSET (default 0) after EVENT ended (instead of at=); EVENT may be defined further down"),
	KW("ends", ev_set_ends,
	   "EVENT: this event restores EVENT (an earlier event of the same rd); EVENT's recovery window runs through this one, which has no figures of its own"),
	KWS("exec", struct params_ev, exec,
	    "the command to run through /bin/sh -c on the master, or with host= on that hd's system over ssh"),
	KW("until", ev_set_until,
	   "once exec= exited 0 (or at the start without exec=), run this command every poll= until it exits 0: that moment is the event's end; or probe:NAME.KEY<op>VALUE (op ==, !=, <, <=, >, >=; probe:NAME<op>VALUE for a probe that prints one number): the event ends at the stamped time of the first sample of probe= NAME, started after exec= exited, that meets it (until=probe:ceph.degraded==0)"),
	KW("host", ev_set_host,
	   "the hd= where exec= and until= run (default: the master)"),
	KWF("poll", set_duration, struct params_ev, poll_s,
	    "how often until= runs (default 10s); a poll still running after the longer of poll= and 10 s is killed and counts as failed"),
	KWF("timeout", set_duration, struct params_ev, timeout_s,
	    "the event's bound from its start (default 1h): then exec= is killed with its process group, until= stops, and the event ends timed_out"),
	KWF("baseline", set_duration, struct params_ev, baseline_s,
	    "the window before the event its recovery figures take as the baseline (default 60s)"),
	KWF("degrade", set_threshold, struct params_ev, degrade_pct,
	    "degraded when an interval's IOPS fall below this percentage of the baseline's, 1..100 (default 90)"),
	KWF("recover_iops", set_threshold, struct params_ev, recover_iops_pct,
	    "recovered needs IOPS within this percentage of the baseline's, 0..100 (default 10)"),
	KWF("recover_p99", set_threshold, struct params_ev, recover_p99_pct,
	    "recovered needs p99 at most this percentage above the baseline's, 0..100000 (default 20; a large value judges IOPS alone)"),
	KW("recover_n", ev_set_recover_n,
	   "recovered at the first of this many intervals in a row that meet both, 1..100000 (default 10)"),
	KW("expect_loss", ev_set_loss,
	   "(HD,...): hosts whose slaves the event is expected to take away: such a loss after the event started does not make the run degraded"),
	KWF("rejoin", set_yesno, struct params_ev, rejoin,
	    "yes: the slaves of expect_loss= are expected back, and one that did not come back makes the run degraded; no (default)"),
	KW("on_fail", ev_set_on_fail,
	   "what a failed or timed-out event does: continue (default; the run ends degraded, exit 4) or abort (exit 2)"),
};

/* probe=: a command sampled by the master during the run (probe.c). */
static const struct kw probe_kws[] = {
	KWS("exec", struct params_probe, exec,
	    "the command, run through /bin/sh -c on the master (never on a slave's host: to sample another host the command reaches it itself, ssh HOST CMD, curl, govc); it prints one number (the key value) or KEY=VALUE pairs, one a line or blank-separated, at most 16 keys of letters, digits, '_', '.' and '-' and finite numbers; anything else is recorded as unparsed; its stdout and stderr go to probes/NAME.log"),
	KW("every", probe_set_every,
	   "a sample every this long (default 10s, at least 0.1s), the first at the start of the first run, through every run of the file; a sample still running when the next is due delays it"),
	KWF("timeout", set_duration, struct params_probe, timeout_s,
	    "a sample still running after this long is killed with its process group and recorded as timeout (default every=, at most 30s)"),
	KW("host", probe_set_host,
	   "refused: a probe runs on the master; give exec=\"ssh HOST CMD\" instead"),
};

#define NKW(t) (sizeof(t) / sizeof(t[0]))
_Static_assert(NKW(general_kws) <= KW_MAX && NKW(hd_kws) <= KW_MAX &&
		       NKW(sd_kws) <= KW_MAX && NKW(wd_kws) <= KW_MAX &&
		       NKW(rd_kws) <= KW_MAX && NKW(ev_kws) <= KW_MAX &&
		       NKW(probe_kws) <= KW_MAX && NKW(fsd_kws) <= KW_MAX &&
		       NKW(fwd_kws) <= KW_MAX,
	       "raise KW_MAX");

#define KIND(n, t, f, r)           \
	{                          \
		n, t, NKW(t), f, r \
	}
const struct kind_desc keywords_kinds[KIND_NR] = {
	[KIND_GENERAL] = KIND("general", general_kws, NULL, NULL),
	[KIND_HD] = KIND("hd", hd_kws, hd_finish, NULL),
	[KIND_SD] = KIND("sd", sd_kws, sd_finish, NULL),
	[KIND_FSD] = KIND("fsd", fsd_kws, fsd_finish, NULL),
	[KIND_WD] = KIND("wd", wd_kws, wd_finish, NULL),
	[KIND_FWD] = KIND("fwd", fwd_kws, fwd_finish, NULL),
	[KIND_RD] = KIND("rd", rd_kws, rd_finish, NULL),
	[KIND_PROBE] = KIND("probe", probe_kws, probe_finish, NULL),
	[KIND_EV] = KIND("ev", ev_kws, ev_finish, ev_resolve),
};

int keywords_find(enum kind k, const struct item *it)
{
	for (size_t i = 0; i < keywords_kinds[k].nkw; i++)
		if (key_is(it, keywords_kinds[k].kws[i].name))
			return (int)i;
	return -1;
}

int keywords_index(enum kind k, const char *name)
{
	for (size_t i = 0; i < keywords_kinds[k].nkw; i++)
		if (!strcmp(keywords_kinds[k].kws[i].name, name))
			return (int)i;
	assert(0 && "keyword not in its table");
	return -1;
}

/* The kind an item such as sd=NAME starts, or KIND_NONE. */
enum kind keywords_starter(const struct item *it)
{
	for (int k = KIND_HD; k < KIND_NR; k++)
		if (key_is(it, keywords_kinds[k].name))
			return (enum kind)k;
	return KIND_NONE;
}
