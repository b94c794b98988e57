/*
 * lockstep: one executable, subcommands dispatched here and nowhere else.
 */
#include <stdio.h>
#include <string.h>
#include "common/keygen.h"
#include "lockstep_version.h"
#include "master/master.h"
#include "slave/engine.h"
#include "slave/slave.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: lockstep COMMAND [options]\n"
		"  run FILE     run a Vdbench-style parameter file (the master)\n"
		"  slave        run a slave that connects to a master\n"
		"  check FILE   parse and validate a parameter file, print the plan\n"
		"  keygen DIR   write a CURVE key pair (DIR/NAME.key, DIR/NAME.pub)\n"
		"  version      print the version\n"
		"`lockstep COMMAND --help` for the options of a command.\n");
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return 1;
	}
	if (strcmp(argv[1], "run") == 0)
		return master_main(argc - 1, argv + 1, engine_names());
	if (strcmp(argv[1], "slave") == 0)
		return slave_main(argc - 1, argv + 1);
	if (strcmp(argv[1], "check") == 0)
		return master_check_main(argc - 1, argv + 1);
	if (strcmp(argv[1], "keygen") == 0)
		return keygen_main(argc - 1, argv + 1);
	if (strcmp(argv[1], "version") == 0 ||
	    strcmp(argv[1], "--version") == 0) {
		printf("lockstep %s\n", LOCKSTEP_VERSION);
		return 0;
	}
	if (strcmp(argv[1], "help") == 0 || strcmp(argv[1], "--help") == 0 ||
	    strcmp(argv[1], "-h") == 0) {
		usage(stdout);
		return 0;
	}
	fprintf(stderr, "lockstep: unknown command '%s'\n", argv[1]);
	usage(stderr);
	return 1;
}
