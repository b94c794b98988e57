/*
 * lockstep-params(5), the parameter-file language: the narrative below
 * (the markup of common/manpage.h) around the keyword lists, which are
 * printed from the parser's own tables (keywords.c), so that a keyword
 * cannot be accepted without being in the manual: a row that is neither
 * an alias nor skipped must have a doc, or params_manual() fails (and the
 * build with it).
 */
#include "master/params/params_int.h"

#include "common/manpage.h"

static const char params_intro[] =
	"# DESCRIPTION\n"
	"A lockstep parameter file is a Vdbench parameter file: HCIBench's "
	"generated files run unchanged. `lockstep run FILE` runs it, "
	"`lockstep check FILE` shows what it expands to without touching a "
	"target or a host.\n"
	"\n"
	"Vdbench syntax, in Vdbench's order: general parameters, then "
	"`hd=`, `sd=`, `wd=`, `rd=` and, lockstep's own, `ev=` lines. `*` "
	"and `#` start comment lines; one definition per line, with "
	"`key=value` pairs separated by commas; lists in parentheses, "
	"`(4k,8k)`; quoted strings; continuation lines starting with "
	"blanks or a comma; `xx=default` lines set the defaults of the "
	"definitions of their kind that follow. Keywords are not "
	"case-sensitive. Sizes take k, m, g and t (binary), times s, m and "
	"h. A file may start with a UTF-8 byte-order mark.\n"
	"\n"
	"A definition's name is at most 63 characters, with no `/`, `\\`, "
	"`*`, `?` or control character, and unique among its kind; the "
	"name of an `hd=` (it names slaves and their files) or an `ev=` "
	"(it names a log) is letters, digits, `-`, `_` and `.`, with no "
	"leading dot.\n"
	"\n"
	"## include=FILE\n"
	"reads FILE in place of the line (relative to the including file's "
	"folder), up to 16 deep. Parameter files and includes must be "
	"regular files of at most 16 MiB: a FIFO or a device is refused at "
	"once, never waited on. An error in an included file quotes none "
	"of its text until one of its lines starts with a known parameter, "
	"so `include=/etc/shadow` prints no line of it.\n"
	"\n"
	"## Errors\n"
	"Every error names the file, line, column and parameter and exits "
	"1 before anything starts:\n"
	"```\n"
	"bad.vdb:2:15: unknown wd parameter 'rdpcnt' (did you mean "
	"'rdpct'?)\n"
	"```\n"
	"A Vdbench keyword lockstep skips where skipping cannot change "
	"what is measured (`messagescan=`, `histogram=`, `report=`, ...) "
	"gets a warning; one that would change it (`rhpct=`, `stride=`, "
	"`fsd=`, ...) is an error saying it is not supported. The lists "
	"below are printed from the parser's own tables.\n";

static const char params_body[] =
	"# HOW PHASES RUN\n"
	"Each `rd=` is one or more phases (runs): one per rate of an "
	"`iorate=` list, per point of a curve, and per combination of its "
	"`for...=` loops. `lockstep check` lists them by the names the "
	"console prints (`r1`, `r2 curve=50%`, `r3 xfersize=8k`).\n"
	"- `threads=N` on an sd means N I/Os kept in flight on io_uring, "
	"not N OS threads; an sd's threads are split evenly over the "
	"slaves that run it (each host runs every sd its `host=` allows).\n"
	"- Warmup comes before elapsed: `elapsed=10,warmup=2` runs 12 s "
	"and measures the last 10. A run has at most 1,000,000 intervals "
	"(warmup and elapsed; use a longer `interval=` beyond), also after "
	"`-e`. `warmup=(steady,10m)` warms up until the cluster's IOPS and "
	"every slave's pass SNIA PTS's steady-state test, for at most 10 "
	"minutes, then measures `elapsed=`.\n"
	"- A fixed `iorate=` is the cluster total, split over slaves and "
	"workers. I/Os go out on an open-loop schedule (exponential gaps "
	"by default; `distribution=deterministic` for fixed gaps, "
	"`distribution=uniform` for gaps drawn uniformly between 0 and "
	"twice the mean, as in Vdbench) and latency runs from each I/O's "
	"intended start, so a stalled device shows its stall instead of "
	"hiding it. A rate that is not reached is printed as `iorate=N not "
	"reached: ... % short`.\n"
	"- The wds of an rd share its rate by `skew=` (those without one "
	"split what the others leave: the given ones add up to 100 when "
	"every wd has one, and to less when some have none), or every wd "
	"runs at an `iorate=` of its own, and the rd then has none; "
	"fixed-rate and shared-rate wds cannot be mixed in one rd.\n"
	"- A completion's latency ends when the worker reaps it. At "
	"`iorate=max` with 16 or more I/Os in flight per worker, the "
	"worker waits for an eighth of them (at most 4) before it wakes, "
	"instead of waking once per completion: on fast devices those "
	"wake-ups cost more than the I/O. The first completions of such a "
	"batch are stamped late by the time the batch took to fill; "
	"batching stays on only while batches fill within 1 ms, a wait "
	"that took longer turns it off for the next 4096 waits, and no "
	"batched wait lasts more than 5 ms. A fixed `iorate` and shallower "
	"queues wake once per completion.\n"
	"- `iorate=curve` runs a max phase first, then one phase per "
	"`curve=` point at that share of its rate (rounded as Vdbench "
	"does), skipping the rest once the response time passes "
	"`stopcurve=`.\n"
	"- `format=yes` writes every sd's working set once, sequentially, "
	"before the rd's phases (split over slaves and workers so no block "
	"is written twice), with a progress line on a terminal, and "
	"reports its rate and duration. `seekpct=eof` makes one sequential "
	"pass and ends the phase.\n"
	"- Written data is incompressible and unique unless `compratio=` / "
	"`dedupratio=` ask otherwise (both checked with zlib and hashing "
	"in the tests).\n"
	"\n"
	"# DATA VALIDATION\n"
	"`validate=yes` (a general parameter, as in Vdbench) checks that "
	"what was written is what is read back:\n"
	"- Every written 4 KiB block carries, in each of its 512-byte "
	"sectors, a 32-byte header: the sd, the sector's address, the "
	"block's write generation, the writing slave, the time and a "
	"CRC-32C of the sector. The rest of the block keeps the "
	"`compratio=` pattern.\n"
	"- Each sd's range is cut among the slaves that run it (ranked by "
	"name, so a slave keeps its cut in every phase and run), and each "
	"slave's part among its workers: every block has exactly one "
	"owner, which keeps its generation in a map (one byte per block) "
	"with no coordination on the I/O path, and no two I/Os in flight "
	"touch one block.\n"
	"- Every read of a block written under validation is verified. A "
	"mismatch is one of `corrupt` (a checksum fails, or the sectors of "
	"a block disagree), `misdirected` (intact data of another block or "
	"sd), `lost` (this block's data, an older generation), "
	"`never-written` (no header where a write completed) or `stale` (a "
	"newer generation than the map holds). Each counts as an I/O error "
	"of its sd and interval (so `data_errors=` decides: within it the "
	"run ends degraded, exit 4; past it on a slave, the run aborts, "
	"exit 2); the first 16 per sd and phase are logged in full: `data "
	"validation: sd sd1 offset 409600: corrupt: expected generation 2 "
	"by slave 3f1a, found generation 2 by slave 3f1a (sd id ..., "
	"sector 800), written 2026-12-03T17:31:02Z`.\n"
	"- After each run the console prints `validation rd1: N blocks "
	"written, M verified, K mismatches` and one such line per sd "
	"(`validation rd1 sd1: ...`), and `summary.json` has the same per "
	"run (`validation`, with `sds`: each `sd`, `written`, `verified`, "
	"`mismatched`, summed over the slaves that ran it) and per slave. "
	"Each slave sends its counts per sd; the master refuses counts "
	"that do not add up to the slave's totals, that have more "
	"mismatches than verified blocks, or that name an sd outside the "
	"slave's plan (the slave is then suspect and the run degraded). "
	"`validate=yes` that verified no block in the whole run prints a "
	"warning and sets `validation_warning`.\n"
	"- `journal=DIR` journals each slave's map in "
	"`DIR/<sd>.<slave>.jnl`: the new generation of a block is made "
	"durable (`fdatasync`) before its write is submitted, and its "
	"completion before the next I/O is issued. A later run with the "
	"same slaves replays it; a block whose write was in flight when "
	"the journal ended (a crash) may hold either generation, once. "
	"Without a journal the map lives for one `lockstep run`. A "
	"journal's header names its slave, its sd and the lun's size in "
	"blocks: one renamed, copied or swapped to another slave or sd is "
	"refused (the phase fails with an error naming the file); a "
	"journal of an older lockstep (format 1, which did not say whose "
	"it was) is refused too: remove it to start afresh. The folder "
	"obeys the slave's `--allow` policy (lockstep-slave(1)).\n"
	"- `rd=NAME,wd=...,validate=only` reads each slave's whole part of "
	"the sds once and verifies it: the natural step after a crash or a "
	"rebuild. It must verify every block the slave's map expects: a "
	"pass that verified fewer, or found no written block at all in a "
	"non-empty part (a journal emptied, cut to its header or deleted), "
	"ends its phase with an error naming the journal and the run fails "
	"(exit 2), never \"0 mismatches\".\n"
	"\n"
	"Refused at parse time (`FILE:LINE:COL`), because validation could "
	"not keep them honest: `journal=` or `validate=only` without "
	"`validate=yes`, `dedupratio=` above 1, two sds on one lun (two "
	"owners per block), and `xfersize=`, `formatxfersize=`, `offset=` "
	"or `align=` that are not whole 4 KiB blocks. A slave lost during "
	"a validated run stops the run before its next phase (exit 2): "
	"cutting the sds anew would hand its blocks to a slave that does "
	"not know their generations. The generation map costs one byte of "
	"memory per 4 KiB of each sd's lun on every slave that runs it; "
	"journals grow by 16 bytes per block written (they are not "
	"compacted). What validation costs in I/O rate is measured in "
	"docs/PERFORMANCE.md.\n"
	"\n"
	"# EVENTS: FAILURE AND REBUILD RUNS\n"
	"The second job lockstep exists for: run a steady load, fail a "
	"part (power a host off through its BMC, pull a disk, cut a link, "
	"stop a service), time the rebuild, restore the part, time the "
	"rebalance, and compare IOPS and latency before, during and after, "
	"all in one parameter file. `ev=` lines come after the `rd=` "
	"lines; their keywords are listed under `ev=NAME` above, and the "
	"name of an event names its log, `events/NAME.log`.\n"
	"```\n"
	"rd=steady,wd=wd1,iorate=50000,elapsed=3h,warmup=5m,interval=10\n"
	"ev=poweroff,rd=steady,at=30m,exec=\"ipmitool -H esx2-bmc -U admin "
	"-P secret chassis power off\",\n"
	"   until=\"ceph health | grep -q "
	"HEALTH_OK\",poll=30s,timeout=2h,expect_loss=(esx2)\n"
	"ev=poweron,after=poweroff+1h,exec=\"ipmitool -H esx2-bmc -U admin "
	"-P secret chassis power on\",\n"
	"   until=\"ceph health | grep -q "
	"HEALTH_OK\",poll=30s,timeout=2h,baseline=5m\n"
	"```\n"
	"`ends=EVENT` makes a fault and its restore one story: EVENT must "
	"be an earlier event of the same rd (one it follows through "
	"`after=`, or an earlier `at=` in the same phase); EVENT's "
	"recovery window runs through this one, and its figures tell the "
	"whole story of fault and restore. Without it an `after=` event "
	"cuts the window of the event it follows, and `lockstep check` "
	"says so under it (`ev=EVENT's recovery window stops where this "
	"event starts ...`).\n"
	"\n"
	"`exec=` runs on the master through `/bin/sh -c`, or with `host=` "
	"on that hd's system over the ssh the launcher uses (`--ssh`, "
	"`user=`, BatchMode). `rejoin=yes`: lockstep admits a slave that "
	"comes back under its name; it rejoins the running phase at the "
	"next interval boundary, or takes part from the next phase where a "
	"rejoin is not safe (lockstep-run(1), WHEN A HOST DIES). A failed "
	"event is one whose `exec=` exited with a status other than 0 or "
	"could not start.\n"
	"\n"
	"Every error is refused before anything starts, with the file, "
	"line and column of the value at fault: an unknown rd, event or "
	"host, `at=` past the measured time of its rd or phase (also after "
	"`-e`), an `after=` chain that starts past its rd's end even if "
	"every event before it took no time, cycles in `after=`, bad "
	"durations, a phase name that is not a measured phase of the rd. "
	"`lockstep check` prints the timeline:\n"
	"```\n"
	"timeline:\n"
	"  poweroff: at 1800s into phase steady's measured time (2100 s "
	"from the start)\n"
	"      exec: ipmitool -H esx2-bmc -U admin -P secret chassis power "
	"off\n"
	"      until: ceph health | grep -q HEALTH_OK (every 30s)\n"
	"      timeout=7200s on_fail=continue baseline=60s "
	"expect_loss=(esx2)\n"
	"  poweron: 3600s after ev=poweroff ends (at the earliest 5700 s "
	"from the start)\n"
	"      exec: ipmitool -H esx2-bmc -U admin -P secret chassis power "
	"on\n"
	"      until: ceph health | grep -q HEALTH_OK (every 30s)\n"
	"      timeout=7200s on_fail=continue baseline=300s\n"
	"```\n"
	"Each command runs in a process group of its own with "
	"`LOCKSTEP_RUN_ID`, `LOCKSTEP_RUN` (the phase), `LOCKSTEP_EVENT` "
	"and `LOCKSTEP_OUTPUT` (the results folder) in its environment (on "
	"a `host=` they are set on the remote command line) and its stdout "
	"and stderr in `events/NAME.log`, with a line of lockstep's for "
	"every start, exit status and poll. The log keeps the first 16 MiB "
	"of an event's output: the rest is counted, not written "
	"(`summary.json`'s `log_bytes` and `log_dropped_bytes`, a line in "
	"the log and one on the console), and the output of a background "
	"program a command leaves behind is kept until the run ends, not "
	"after (redirect it). A timeout kills the group here; on a `host=` "
	"it kills the local ssh, and the remote side bounds itself: the "
	"command runs there under `timeout -k 5` with the same time left "
	"(TERM to its process group, KILL 5 s later), where the host has "
	"timeout(1) (coreutils); a host without it runs the command "
	"unbounded.\n"
	"\n"
	"The console says when an event starts, ends, fails or times out, "
	"and the interval lines gain an `events` column naming the events "
	"active in each interval. What `tests/integration/events_netns.sh` "
	"printed on stderr (two hosts at a fixed 2000 IO/s, an event 5 s "
	"into the measured time that kills h2's slave, `expect_loss=(h2)`, "
	"and an `until=` that finds its marker file 4 s later; the run "
	"ends `completed`, exit 0):\n"
	"```\n"
	"lockstep: event poweroff started in r1: exec=, then until=\n"
	"lockstep: warning: slave h2 lost: nothing heard for 3.1 s (last "
	"at 17:40:04.198); expected by event poweroff, the run goes on "
	"without it\n"
	"lockstep: event poweroff ended after 4.1 s (until= succeeded)\n"
	"```\n"
	"An event ends `completed`, `failed`, `timed_out`, `not_run` (its "
	"phase was skipped or ended first, or the event it follows did not "
	"end) or `cut` (the run ended while it was still going); anything "
	"but `completed` makes a completed run degraded (exit 4), and "
	"`on_fail=abort` aborts the run on a failed or timed-out one (exit "
	"2).\n"
	"\n"
	"## Recovery figures\n"
	"Each event's figures are computed from the interval series of the "
	"phase it started in, every slave's rows counted, late ones "
	"included (`master/recovery.c`, pure; docs/DESIGN.md \"Recovery "
	"figures\" has every definition). They are in `events.csv` (one row "
	"per event: "
	"`name,run,kind,planned_ns,start_ns,end_ns,status,exit_code,duration_s,log`, "
	"then the figures as columns, empty when they did not happen; "
	"`kind` is `exec`, `until` or `exec+until`; times in ns of the "
	"master's clock, 0 when it never started) and in `summary.json`'s "
	"`events`: the same plus `reason`, `polls`, `log_bytes`, "
	"`log_dropped_bytes`, `expected_losses` (each `slave`, `lost_at`, "
	"`back_at` (when it registered again), `rejoined_at` (the start of "
	"its first interval back), `rejoined_run` and `rejoined_interval`, "
	"with `rejoin=yes` `rejoined`) and `recovery`:\n"
	"- `status`: `recovered`, `not_recovered`, `not_degraded`, "
	"`no_baseline`, `overlap` when the baseline window reaches into "
	"the previous event rather than inventing one; `restore` on an "
	"`ends=` event, whose figures are in `figures_in`;\n"
	"- `judged_on`: `cluster`, or `survivors` when the slaves it took "
	"away were not expected back and did not come back;\n"
	"- its window (`window_start_s`, `window_end_s`, `window_through`: "
	"the `ends=` event it ran through);\n"
	"- `baseline_iops` and `baseline_p99_us` (the mean over "
	"`baseline=` before the event), `baseline_survivors_iops` (what "
	"the slaves it did not take away did then), `worst_iops` and "
	"`worst_p99_us` after it (and when);\n"
	"- `time_to_degrade_s` (the first interval below `degrade=` of the "
	"baseline IOPS), `time_to_recover_s` (the whole cluster: "
	"`recover_n=` consecutive intervals with IOPS within "
	"`recover_iops=` and p99 within `recover_p99=` of the baseline), "
	"`time_to_recover_survivors_s` (the same for the slaves left, "
	"against their own share), `rebuild_s` (`until=` success minus "
	"start);\n"
	"- `io_lost` (the I/Os the cluster did not do over the whole "
	"window, a catch-up included), `io_delayed` (the I/Os that were "
	"late and caught up) and `io_lost_expected` (the part of `io_lost` "
	"the lost slaves' own share explains).\n"
	"\n"
	"Figures that never happened are `null`; `recovery` is `null` with "
	"`recovery_error` when they could not be computed. The console "
	"prints the figures in a recovery block at the end of the run, and "
	"summary.txt has the same block. A fixed-rate phase that lost "
	"slaves as expected says how much of its shortfall the loss "
	"explains. What `tests/integration/events_survivors.sh` printed "
	"(two hosts at a fixed 2000 IO/s, `ev=poweroff` kills h2's slave 5 "
	"s into the measured time with `expect_loss=(h2),rejoin=no`, its "
	"`until=` succeeds 3 s later, `ev=poweron` restarts h2's daemon 8 "
	"s after that; h2 takes part again from the next phase):\n"
	"```\n"
	"iorate=2000 not reached: 1202.3 IO/s, 39.9% short; the expected "
	"losses explain 98.3% of it (their share not done: 18824 I/Os, of "
	"19145 short)\n"
	"...\n"
	"Recovery figures (seconds from the start of each run's measured "
	"time):\n"
	"  poweroff (steady): recovered, judged on the survivors; window "
	"5.0-16.0 s\n"
	"    baseline 2007.0 IO/s (survivors 1016.2), p99 70.058 ms over 4 "
	"intervals\n"
	"    worst 920.0 IO/s at 13.0 s, p99 157.811 ms at 5.0 s\n"
	"    time to degrade 0.0 s, to recover - (survivors 0.0 s), "
	"rebuild 3.2 s\n"
	"    I/O lost 11260 (10898 by the expected losses), delayed and "
	"caught up 0\n"
	"  poweron (steady): not_degraded, judged on the cluster; window "
	"16.2-24.0 s\n"
	"    baseline 966.2 IO/s (survivors 966.2), p99 91.881 ms over 4 "
	"intervals\n"
	"    worst 954.0 IO/s at 21.0 s, p99 113.508 ms at 16.0 s\n"
	"    time to degrade -, to recover - (survivors -), rebuild -\n"
	"    I/O lost 0 (0 by the expected losses), delayed and caught up "
	"12\n"
	"```\n"
	"The slave left, h1, never missed its share (recovered at once "
	"against its own 1016.2 IO/s), the whole cluster did not recover "
	"in the phase (`-`), and of the 11,260 I/Os lost 10,898 were h2's "
	"share (the rest is h1 a little under its own baseline). In "
	"`tests/integration/events_restore.sh` a blkio throttle to 100 "
	"IO/s at a fixed 500 (`ev=throttle`) is lifted by "
	"`ev=unthrottle,after=throttle+4s,ends=throttle`, and the "
	"throttle's figures run through the restore:\n"
	"```\n"
	"Recovery figures (seconds from the start of each run's measured "
	"time):\n"
	"  throttle (r1): recovered, judged on the cluster; window "
	"5.0-22.0 s through unthrottle\n"
	"    baseline 507.3 IO/s (survivors 507.3), p99 0.314 ms over 3 "
	"intervals\n"
	"    worst 100.0 IO/s at 6.0 s, p99 3145.728 ms at 9.0 s\n"
	"    time to degrade 0.0 s, to recover 5.0 s (survivors 5.0 s), "
	"rebuild -\n"
	"    I/O lost 270 (0 by the expected losses), delayed and caught "
	"up 1637\n"
	"  unthrottle: restores throttle (its figures, above or below)\n"
	"```\n"
	"A 5 s link pull of a host whose slave kept doing its I/O "
	"(`tests/integration/events_linkpull.sh`; its rows arrived late) "
	"lost nothing: `pull (r1): not_degraded`, `I/O lost 98` of 26,000 "
	"in its window. The measurements themselves are kept whole as in "
	"any run: a lost host's data up to its last interval, late rows, "
	"and every loss, expected or not, in `slaves`.\n"
	"\n"
	"# EXAMPLES\n"
	"Two hosts started over ssh, one disk each, 4k 70% read random for "
	"an hour after a half-hour warmup:\n"
	"```\n"
	"hd=default,user=root,lockstep=/usr/local/bin/lockstep\n"
	"hd=esx1,system=10.0.0.11\n"
	"hd=esx2,system=10.0.0.12\n"
	"sd=sd1,lun=/dev/sdb,openflags=o_direct,threads=16\n"
	"wd=wd1,sd=sd1,xfersize=4k,rdpct=70\n"
	"rd=run1,wd=wd1,iorate=max,elapsed=3600,warmup=1800,interval=5\n"
	"```\n"
	"The examples folder (/usr/share/doc/lockstep/examples when "
	"installed) has more.\n";

/* What each kind's subsection is headed with and says first. */
static const char *const kind_intro[KIND_NR] = {
	[KIND_GENERAL] = "## General parameters\n"
			 "Before the first `hd=`, `sd=`, `wd=` or `rd=` line.\n",
	[KIND_HD] = "## hd=NAME\n"
		    "A host whose slaves run the sds (see lockstep-run(1)). "
		    "A file without `hd=` lines runs on this machine.\n",
	[KIND_SD] = "## sd=NAME\n"
		    "A storage definition: one target.\n",
	[KIND_WD] = "## wd=NAME\n"
		    "A workload on one or more sds.\n",
	[KIND_RD] = "## rd=NAME\n"
		    "A run: one or more phases of its wds, one after another "
		    "(see HOW PHASES RUN).\n",
	[KIND_EV] = "## ev=NAME\n"
		    "An event of a failure-and-rebuild run, after the `rd=` "
		    "lines (lockstep's own; see EVENTS).\n",
};

/* One keyword's entry: "= `name=`" and what it means. */
static int print_kw(FILE *f, const struct kind_desc *k, const struct kw *kw)
{
	char buf[1024];

	if (kw->alias_of && !kw->doc)
		snprintf(buf, sizeof(buf), "= `%s=`\nthe same as `%s=`\n",
			 kw->name, kw->alias_of);
	else if (kw->doc)
		snprintf(buf, sizeof(buf), "= `%s=`\n%s\n", kw->name, kw->doc);
	else {
		fprintf(stderr,
			"lockstep-params(5): %s keyword %s= has no doc in keywords.c\n",
			k->name, kw->name);
		return -1;
	}
	return man_markup(f, buf);
}

/* The keywords lockstep skips (with a warning) or refuses, and why. */
static int print_skipped(FILE *f)
{
	int ret = man_markup(f, "## Skipped and refused Vdbench keywords\n"
				"Vdbench keywords that lockstep accepts with "
				"a warning (skipped) or refuses, and why:\n");

	for (int k = 0; k < KIND_NR && !ret; k++) {
		const struct kind_desc *d = &keywords_kinds[k];

		for (size_t i = 0; i < d->nkw && !ret; i++) {
			const struct kw *kw = &d->kws[i];
			char buf[512], harmless[128];

			if (!kw->why)
				continue;
			if (kw->harmless)
				snprintf(harmless, sizeof(harmless),
					 " (`%s=%s` is accepted)", kw->name,
					 kw->harmless);
			else
				harmless[0] = '\0';
			snprintf(buf, sizeof(buf), "= `%s=` (%s%s)\n%s: %s%s\n",
				 kw->name, d->name,
				 k == KIND_GENERAL ? "" : "=",
				 kw->set == compat_set_ignored ? "skipped" :
								 "refused",
				 kw->why, harmless);
			ret = man_markup(f, buf);
		}
	}
	if (!ret)
		ret = man_markup(f, "= `fsd=`, `fwd=`\nrefused: " WHY_FS "\n"
				    "= `rg=`\nrefused: Swat replay is not "
				    "supported\n");
	return ret;
}

int params_manual(FILE *f)
{
	int ret = man_markup(f, params_intro);

	if (!ret)
		ret = man_markup(f, "# KEYWORDS\n");
	for (int k = 0; k < KIND_NR && !ret; k++) {
		const struct kind_desc *d = &keywords_kinds[k];

		ret = man_markup(f, kind_intro[k]);
		for (size_t i = 0; i < d->nkw && !ret; i++)
			if (!d->kws[i].why)
				ret = print_kw(f, d, &d->kws[i]);
	}
	if (!ret)
		ret = print_skipped(f);
	if (!ret)
		ret = man_markup(f, params_body);
	return ret;
}
