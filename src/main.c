/*
 * lockstep: one executable, subcommands dispatched here and nowhere else.
 * The table below is also the manual's list of commands: `lockstep help
 * --man [PAGE]` (man.c) prints lockstep(1) from it and each command's page
 * by asking the command for its --help in roff, so a command added to the
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
#include "master/easy/easy.h"
#include "master/run/run.h"
#include "master/report/html.h"
#include "slave/engine.h"
#include "slave/probe.h"
#include "slave/slave.h"
#include "src/man.h"

static int run_main(int argc, char **argv)
{
	return master_main(argc, argv, engine_names());
}

static int vdbench_main(int argc, char **argv)
{
	return master_vdbench_main(argc, argv, engine_names());
}

static int easy_cmd(int argc, char **argv)
{
	return easy_main(argc, argv, engine_names());
}

static int version_main(int argc, char **argv);
static int help_main(int argc, char **argv);

static const struct command commands[] = {
	{ "run", "FILE", "run a Vdbench-style parameter file (the master)",
	  run_main, 1 },
	{ "vdbench", "",
	  "Vdbench's command line (-f FILE -o DIR ...) and console; also as a binary named vdbench",
	  vdbench_main, 1 },
	{ "slave", "", "run a slave that connects to a master", slave_main, 1 },
	{ "easy", "FILE",
	  "HCIBench's Easy Run on FILE's hosts and sds: four profiles, each an SLO search",
	  easy_cmd, 1 },
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
	{ "help", "[--man [PAGE]]", "this list; --man: a manual page, in roff",
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
		/* A long head keeps two blanks before its summary. */
		fprintf(f, "  %-13s%s%s\n", head, strlen(head) < 12 ? "" : "  ",
			commands[i].summary);
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

static int help_main(int argc, char **argv)
{
	if ((argc == 2 || argc == 3) && strcmp(argv[1], "--man") == 0)
		return man_main(argc == 3 ? argv[2] : NULL, commands,
				NCOMMANDS);
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
