/*
 * lockstep: one executable, subcommands dispatched here and nowhere else.
 * The table below is also the manual page's list of commands: `lockstep
 * help --man` prints the page (the build writes it to lockstep.1) by
 * asking each command for its --help in roff, so a command added to the
 * table and an option added to a command's table appear in both.
 */
#include <stdio.h>
#include <string.h>
#include "master/deploy/keygen.h"
#include "common/opts.h"
#include "lockstep_version.h"
#include "master/deploy/deploy.h"
#include "master/history/history.h"
#include "master/check/check.h"
#include "master/run/run.h"
#include "master/report/html.h"
#include "slave/engine.h"
#include "slave/probe.h"
#include "slave/slave.h"

typedef int (*main_fn)(int argc, char **argv);

static int run_main(int argc, char **argv)
{
	return master_main(argc, argv, engine_names());
}

static int vdbench_main(int argc, char **argv)
{
	return master_vdbench_main(argc, argv, engine_names());
}

static int version_main(int argc, char **argv);
static int help_main(int argc, char **argv);

static const struct command {
	const char *name;
	const char *args;    /* in the list of commands: "run FILE" */
	const char *summary; /* one line */
	main_fn fn;
	int has_opts; /* fn prints its options table for --help */
} commands[] = {
	{ "run", "FILE", "run a Vdbench-style parameter file (the master)",
	  run_main, 1 },
	{ "vdbench", "",
	  "Vdbench's command line (-f FILE -o DIR ...) and console; also as a binary named vdbench",
	  vdbench_main, 1 },
	{ "slave", "", "run a slave that connects to a master", slave_main, 1 },
	{ "check", "FILE",
	  "parse and validate a parameter file, print the plan", check_main,
	  1 },
	{ "report", "DIR", "write DIR/report.html: charts of a results folder",
	  html_main, 1 },
	{ "history", "[list|import|changes]",
	  "the run history: list, import DIR..., changes", history_main, 1 },
	{ "compare", "A B",
	  "compare two runs (folders, history ids, last, median:N)",
	  history_compare_main, 1 },
	{ "keygen", "DIR",
	  "write a CURVE key pair (DIR/NAME.key, DIR/NAME.pub)", keygen_main,
	  1 },
	{ "hosts", "FILE", "check every hd= host of a parameter file (no I/O)",
	  hosts_main, 1 },
	{ "version", "",
	  "print the version (with the git revision of a checkout build)",
	  version_main, 0 },
	{ "help", "[--man]", "this list; --man: the manual page, in roff",
	  help_main, 0 },
	/* Hidden (no summary): the remote half of hosts. */
	{ "probe", "", NULL, probe_main, 0 },
};

#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

static void usage(FILE *f)
{
	fprintf(f, "usage: lockstep COMMAND [options]\n");
	for (size_t i = 0; i < NCOMMANDS; i++) {
		char head[64];

		if (!commands[i].summary)
			continue;
		snprintf(head, sizeof(head), "%s %s", commands[i].name,
			 commands[i].args);
		fprintf(f, "  %-13s%s\n", head, commands[i].summary);
	}
	fprintf(f, "`lockstep COMMAND --help` for the options of a command.\n");
}

static int version_main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	printf("lockstep %s\n", LOCKSTEP_VERSION);
	return 0;
}

/*
 * The manual page: a header, then each command's subsection as its own
 * --help prints it in roff (opts_set_format), so nothing here repeats an
 * option.
 */
static int print_man(void)
{
	printf(".TH LOCKSTEP 1 \"\" \"lockstep %s\" \"User Commands\"\n"
	       ".SH NAME\n"
	       "lockstep \\- distributed storage load generator\n"
	       ".SH SYNOPSIS\n"
	       ".B lockstep\n"
	       ".I COMMAND\n"
	       "[options]\n"
	       ".SH DESCRIPTION\n"
	       "lockstep runs Vdbench\\-style parameter files on many hosts at "
	       "once: a master plans the run and merges the numbers, slaves "
	       "(started by the master over ssh, or as daemons) drive the I/O "
	       "with io_uring.\n"
	       ".SH COMMANDS\n",
	       LOCKSTEP_VERSION);
	opts_set_format(OPTS_ROFF);
	for (size_t i = 0; i < NCOMMANDS; i++) {
		const struct command *c = &commands[i];
		char *av[] = { (char *)c->name, "--help", NULL };

		if (!c->summary)
			continue;
		if (!c->has_opts) {
			printf(".SS \"lockstep %s %s\"\n.PP\n%s.\n", c->name,
			       c->args, c->summary);
			continue;
		}
		fflush(stdout);
		if (c->fn(2, av) != 0)
			return 1;
	}
	opts_set_format(OPTS_TEXT);
	printf(".SH EXIT STATUS\n"
	       ".TP\n0\neverything ran (or the file is valid)\n"
	       ".TP\n1\nthe command line, the parameter file or the set-up was refused\n"
	       ".TP\n2\na signal or a lost slave stopped the run\n"
	       ".TP\n3\na regression against \\-\\-baseline (lockstep compare too)\n"
	       ".TP\n4\nthe run completed without a slave it lost, or with I/O errors\n"
	       ".TP\n5\na file of the results folder could not be written in full\n"
	       ".TP\n6\nthe run completed, but the comparison \\-\\-baseline asked for "
	       "could not be made (no usable baseline run, no history)\n"
	       ".SH FILES\n"
	       ".TP\n/etc/lockstep/slave.env\n"
	       "the options of the lockstep\\-slave systemd service\n"
	       ".TP\n/var/lib/lockstep/history.db\n"
	       "the run history of root's runs (others: "
	       "$XDG_DATA_HOME/lockstep/history.db, else "
	       "~/.local/share/lockstep/history.db; \\-\\-history or "
	       "LOCKSTEP_HISTORY choose another)\n"
	       ".SH NIGHTLY RUNS\n"
	       ".B lockstep\\-nightly\n"
	       "FILE [\\-\\-keep DAYS] [\\-\\- run options] runs FILE, judges it "
	       "against the median of the last 7 usable runs of the file, prints "
	       "one line (also to syslog) and exits with lockstep's code; it "
	       "finds lockstep beside itself, so cron needs no PATH:\n"
	       ".PP\n.nf\n"
	       "30 2 * * * LOCKSTEP_OUTPUT=/srv/lockstep/out /usr/bin/lockstep\\-nightly "
	       "/srv/lockstep/nightly.vdb \\-\\-keep 30\n"
	       ".fi\n"
	       ".PP\n"
	       "LOCKSTEP=/path/to/lockstep names another binary (a build folder).\n"
	       ".SH SEE ALSO\n"
	       "README.md and DESIGN.md in /usr/share/doc/lockstep\n");
	return 0;
}

static int help_main(int argc, char **argv)
{
	if (argc == 2 && strcmp(argv[1], "--man") == 0)
		return print_man();
	if (argc > 1) {
		usage(stderr);
		return 1;
	}
	usage(stdout);
	return 0;
}

int main(int argc, char **argv)
{
	const char *base = argv[0] ? strrchr(argv[0], '/') : NULL;

	/* Installed (or linked) as `vdbench`: Vdbench's command line, but a
	   lockstep command word first (`vdbench slave ...`, `vdbench version`,
	   how the master starts and checks a slave found as DIR/vdbench) is
	   that command. */
	base = base ? base + 1 : argv[0];
	if (base && strcmp(base, "vdbench") == 0) {
		int cmd = 0;

		for (size_t i = 0; argc > 1 && i < NCOMMANDS; i++)
			cmd |= strcmp(argv[1], commands[i].name) == 0;
		if (!cmd)
			return vdbench_main(argc, argv);
	}
	if (argc < 2) {
		usage(stderr);
		return 1;
	}
	if (strcmp(argv[1], "--version") == 0)
		return version_main(argc - 1, argv + 1);
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)
		return help_main(1, argv + 1);
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (strcmp(argv[1], commands[i].name) == 0)
			return commands[i].fn(argc - 1, argv + 1);
	fprintf(stderr, "lockstep: unknown command '%s'\n", argv[1]);
	usage(stderr);
	return 1;
}
