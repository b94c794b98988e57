/*
 * `lockstep keygen DIR [--name NAME]`: a CURVE key pair for a master or a
 * slave, like ssh-keygen: DIR/NAME.key (the secret, mode 0600) and
 * DIR/NAME.pub (the public key, to give to the other side). NAME defaults
 * to this host's name. An existing file is never overwritten.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "common/exitcode.h"
#include "master/deploy/keygen.h"
#include "common/keys.h"
#include "common/opts.h"

int keygen_main(int argc, char **argv)
{
	const char *name = NULL, *dir;
	char host[256], err[1024];
	struct keys_pair kp;
	int help = 0, args, ret;
	const struct opts_def defs[] = {
		{ "name", 'n', OPTS_STRING, &name, 0, KEYS_NAME_LEN - 1,
		  .arg = "NAME",
		  .help = "file names NAME.key and NAME.pub (default: the host name)" },
		{ .name = "help",
		  .letter = 'h',
		  .kind = OPTS_HELP,
		  .dest = &help,
		  .help = "this text" },
	};
	const struct opts_cmd cmd = {
		.prog = "lockstep keygen",
		.synopsis = "usage: lockstep keygen DIR [--name NAME]",
		.description =
			"Writes a CURVE key pair for a master or a slave started elsewhere: the master's --key and a slave's --key take the secret file, the other side the public one (a slave's --master-key, a line of the master's --authorized-slaves).",
		.footer =
			"Writes DIR/NAME.key (secret, mode 0600) and DIR/NAME.pub; never overwrites.\n",
		.width = 20,
		.defs = defs,
		.ndefs = sizeof(defs) / sizeof(defs[0]),
		.nargs = 1,
	};

	ret = opts_parse(&cmd, argc, argv, &args);
	if (ret)
		return ret > 0 ? LS_EXIT_OK : LS_EXIT_BAD_INPUT;
	dir = argv[args];
	if (!name) {
		if (gethostname(host, sizeof(host)) < 0) {
			fprintf(stderr,
				"lockstep keygen: gethostname: %s; give --name NAME\n",
				strerror(errno));
			return LS_EXIT_BAD_INPUT;
		}
		host[sizeof(host) - 1] = 0;
		name = host;
	}
	if (!keys_name_valid(name, strlen(name))) {
		fprintf(stderr,
			"lockstep keygen: '%s' is not a key name (letters, digits, '-', '_' and '.', not starting with '.', at most %d bytes); give --name NAME\n",
			name, KEYS_NAME_LEN - 1);
		return LS_EXIT_BAD_INPUT;
	}
	/* The folder asked for, one level; its parent must exist. */
	if (mkdir(dir, 0755) < 0 && errno != EEXIST) {
		fprintf(stderr, "lockstep keygen: cannot create %s: %s\n", dir,
			strerror(errno));
		return LS_EXIT_BAD_INPUT;
	}
	ret = keys_generate(&kp);
	if (ret < 0) {
		fprintf(stderr, "lockstep keygen: %s\n",
			ret == -ENOTSUP ? "this libzmq has no CURVE support" :
					  strerror(-ret));
		return LS_EXIT_BAD_INPUT;
	}
	ret = keys_write_pair(dir, name, &kp, err, sizeof(err));
	keys_wipe(&kp, sizeof(kp));
	if (ret < 0) {
		fprintf(stderr, "lockstep keygen: %s\n", err);
		return LS_EXIT_BAD_INPUT;
	}
	printf("wrote %s/%s.key (secret, mode 0600) and %s/%s.pub (public)\n",
	       dir, name, dir, name);
	return LS_EXIT_OK;
}
