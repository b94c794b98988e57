/*
 * The exit codes of every lockstep command, so that scripts (and the slave,
 * the master and `lockstep check` alike) agree on what a status means.
 */
#ifndef LOCKSTEP_COMMON_EXITCODE_H
#define LOCKSTEP_COMMON_EXITCODE_H

enum ls_exit {
	/* Everything ran (or the file is valid, for `check`). */
	LS_EXIT_OK = 0,
	/* The command line, the parameter file or the set-up was refused. */
	LS_EXIT_BAD_INPUT = 1,
	/* A signal or a lost slave (--on-slave-loss=abort) stopped the run. */
	LS_EXIT_ABORTED = 2,
	/* Results worse than the baseline (--baseline, lockstep compare). */
	LS_EXIT_REGRESSION = 3,
	/* The run completed without a slave it lost, or with I/O errors. */
	LS_EXIT_DEGRADED = 4,
	/*
	 * The run ran (completed or degraded), but a file of its results
	 * folder could not be written in full (a full disk, an I/O error):
	 * summary.json lists them as incomplete_files, or, when it could not
	 * be written either, the master's stderr does. An aborted run keeps
	 * 2 (its results are partial anyway) and still lists them.
	 */
	LS_EXIT_INCOMPLETE = 5,
	/*
	 * The run completed, but the comparison --baseline asked for could
	 * not be made (no usable baseline run, no history): a nightly job
	 * must not pass for judged when it was not.
	 */
	LS_EXIT_NO_BASELINE = 6,
};

#endif
