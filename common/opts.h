/*
 * One table-driven command-line parser for every lockstep subcommand: a
 * command describes its options once (long name, short letter, kind, where
 * the value goes, bounds, help) and the same table parses argv (with
 * getopt_long underneath, so GNU abbreviations and permutation work as
 * before) and prints the usage lines.
 */
#ifndef LOCKSTEP_COMMON_OPTS_H
#define LOCKSTEP_COMMON_OPTS_H

#include <stddef.h>
#include <stdio.h>

enum opts_kind {
	OPTS_FLAG,      /* int *dest = 1 */
	OPTS_STRING,    /* const char **dest = the argument (argv's) */
	OPTS_UINT,      /* unsigned *dest: a base-10 integer in [min, max] */
	OPTS_SECONDS,   /* double *dest: seconds, >= 0, <= max if max > 0 */
	OPTS_CHOICE,    /* int *dest: the index of the argument in choices */
	OPTS_CUSTOM,    /* parse(def, arg, prog) does it all */
	OPTS_HELP,      /* print the usage on stdout; opts_parse() returns 1 */
};

/* OPTS_SECONDS: also "30s", "5m", "1h" (units_parse_seconds), no max. */
#define OPTS_UNITS 1u
/* OPTS_SECONDS: the value must be > 0 ("wants seconds > 0"). */
#define OPTS_POSITIVE 2u
/* OPTS_UINT: an empty argument is refused (else it reads as 0). */
#define OPTS_NONEMPTY 8u
/* OPTS_UINT: the error message does not repeat the argument. */
#define OPTS_NO_ECHO 16u

struct opts_def;
/* Parse arg for def; print why not (prefixed by prog) and return -EINVAL. */
typedef int (*opts_parse_fn)(const struct opts_def *def, const char *arg,
			     const char *prog);

struct opts_def {
	const char *name;       /* long name without "--", or NULL */
	int letter;             /* short option letter, or 0 */
	enum opts_kind kind;
	void *dest;             /* see enum opts_kind; not owned */
	double min, max;        /* OPTS_UINT bounds; OPTS_SECONDS max;
				   OPTS_STRING: max length if > 0 */
	unsigned flags;         /* OPTS_* above */
	const char *const *choices; /* OPTS_CHOICE: NULL-terminated */
	const char *what;       /* OPTS_CHOICE: "engine" gives "unknown
				   engine 'x' (a, b)"; NULL gives "--opt
				   wants a or b, not 'x'" */
	opts_parse_fn parse;    /* OPTS_CUSTOM */
	const char *arg;        /* the argument in usage ("N"); NULL for a
				   choice lists the choices a|b */
	const char *label;      /* usage label instead of "-o, --opt ARG" */
	const char *help;       /* usage text; NULL: not listed */
};

struct opts_cmd {
	const char *prog;       /* "lockstep run": prefixes every error */
	const char *synopsis;   /* the first usage line, without newline */
	const char *footer;     /* printed after the options, or NULL */
	/*
	 * What the command does, for the manual page (paragraphs separated
	 * by an empty line), or NULL; --help stays short without it.
	 */
	const char *description;
	int width;              /* usage labels are padded to this width */
	const struct opts_def *defs;
	size_t ndefs;
	int nargs; /* positional arguments: N exactly, -N: N+ */
};

/*
 * Parse argv[1..] against cmd. On success returns 0 and *args is the index
 * of the first positional argument (GNU getopt moved them to the end).
 * Returns 1 when the usage was printed on stdout (--help), -EINVAL after an
 * error message and, for an unknown option or a wrong count of arguments,
 * the usage on stderr.
 */
int opts_parse(const struct opts_cmd *cmd, int argc, char **argv, int *args);
/* Print the usage: the synopsis, one line per listed option, the footer. */
void opts_usage(const struct opts_cmd *cmd, FILE *f);

enum opts_format {
	OPTS_TEXT, /* --help: the usage lines */
	OPTS_ROFF, /* a manual page's SYNOPSIS, DESCRIPTION and OPTIONS */
};

/*
 * How opts_usage() prints from now on (OPTS_TEXT at start). The manual
 * page generator (`lockstep help --man CMD`) sets OPTS_ROFF and asks
 * the command for its --help: the tables live in the commands' own functions
 * (their options point at locals), so this is how one table feeds both.
 */
void opts_set_format(enum opts_format format);
/*
 * Join a NULL-terminated list of names with sep, and the last two with
 * last ("a, b or c"). Returns buf, cut to len.
 */
const char *opts_join(const char *const *names, const char *sep,
		      const char *last, char *buf, size_t len);

#endif
