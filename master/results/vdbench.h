/*
 * What Vdbench users' tools parse, written the way Vdbench writes it: the
 * run header line printed before each run ("Starting RD=...", which log
 * parsers such as HCIBench's key on) and flatfile.html, the tab-separated
 * per-interval table that `vdbench parseflat` and spreadsheets read. Only
 * formats: every number comes from a struct stats_view.
 */
#ifndef LOCKSTEP_MASTER_VDBENCH_H
#define LOCKSTEP_MASTER_VDBENCH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "common/stats.h"
#include "master/plan/plan.h"

/*
 * "Starting RD=NAME; I/O rate: Uncontrolled MAX; elapsed=E warmup=W; For
 * loops: xfersize=4k rdpct=70" for phase ph of the rd named rd (a fixed
 * rate prints "I/O rate: N", a curve's max run "Uncontrolled curve", a
 * format pass RD=format_for_NAME; no loops prints "For loops: None").
 * Pure. Returns the length written (cut to len).
 */
size_t vdbench_rd_line(const char *rd, const struct plan_phase *ph, char *buf,
		       size_t len);

/*
 * flatfile.html as Vdbench writes it (Flat.java) and its ParseFlat reads
 * it: comment lines starting with '*', then the column names on one line
 * that starts with a blank (`%12s %23s ` tod and timestamp, `%10s ` each),
 * then one line per interval and one avg_ line per run, blank-separated,
 * no blank inside a value, "n/a" where there is no value. A format pass's
 * Run is format_for_NAME (ParseFlat leaves those out).
 */
struct vdbench_req {
	char run[PLAN_NAME_MAX + 16]; /* the rd's name (format_for_NAME) */
	char reqrate[32];             /* the rate asked, "max" */
	/* What the rd's workloads all ask, "n/a" when they differ. */
	char xfersize[24], threads[24], rdpct[24], seekpct[24];
	char lunsize[32]; /* GiB of the rd's sds, n/a if one's size is unknown */
	char compratio[24], dedupratio[24];
	char version[64];
};

/* The requested columns of phase ph (pure: params and plan in, text out). */
void vdbench_flat_req(const struct params *p, const struct plan_phase *ph,
		      const char *version, struct vdbench_req *out);
void vdbench_flat_header(FILE *f);
/*
 * One row: interval "7" or "avg_2-10", the figures of v, slaves reported
 * of expected (expected 0: n/a, an avg_ row).
 */
void vdbench_flat_row(FILE *f, uint64_t end_ns, const struct vdbench_req *rq,
		      const char *interval, const struct stats_view *v,
		      unsigned reported, unsigned expected);

/*
 * `lockstep vdbench` (or the binary run as `vdbench`): Vdbench's command
 * line. -f FILE (one), -o DIR (no '+'), -e/-i/-w SECONDS as `lockstep
 * run`; -s simulate (`lockstep check`); -v and -vw validate=yes (lockstep
 * never reads before it writes); -j, -jr, -jn validate=yes with a
 * journal in the current folder (replayed when there, each entry made
 * durable); --long options of `lockstep run` pass through; any other
 * option is refused by name. Pure: run[] is `lockstep run`'s argv (the
 * parameter file not yet in it), NULL-terminated.
 */
#define VDBENCH_CLI_MAX 128
struct vdbench_cli {
	const char *file, *dir;
	int simulate, validate, journal, help;
	const char *run[VDBENCH_CLI_MAX];
	int nrun;
};
int vdbench_cli(int argc, char **argv, struct vdbench_cli *out, char *err,
		size_t len);

/*
 * vdbench=DIR on an hd= line is the Vdbench install folder: the start of a
 * POSIX shell command that finds lockstep there (DIR/lockstep, else
 * DIR/vdbench when its `version` says lockstep, else DIR itself when it
 * is lockstep) and ends with the found path quoted, so that " slave ..."
 * can follow; none found: the reason on stderr, exit 127. -EINVAL for a
 * DIR a shell could misread (quotes, '$', '`', newline). Pure.
 */
int vdbench_remote_exe(const char *dir, char *buf, size_t len);

#endif
