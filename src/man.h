/*
 * The subcommands' table (main.c) and the manual pages printed from it
 * (man.c).
 */
#ifndef LOCKSTEP_SRC_MAN_H
#define LOCKSTEP_SRC_MAN_H

#include <stddef.h>

typedef int (*main_fn)(int argc, char **argv);

struct command {
	const char *name;
	const char *args;    /* in the list of commands: "run FILE" */
	const char *summary; /* one line; NULL: hidden */
	main_fn fn;
	int has_opts; /* fn prints its options table for --help */
};

/*
 * `lockstep help --man [PAGE]`: print PAGE (NULL: lockstep(1); "run",
 * "lockstep-run" or "lockstep-run.1"; "params", "nightly") in roff, or
 * with "--list" the file names of every page. Returns the exit code.
 */
int man_main(const char *page, const struct command *cmds, size_t n);

#endif
