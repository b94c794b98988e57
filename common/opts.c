/*
 * The command-line parser of every subcommand (opts.h): getopt_long tables
 * built from one struct opts_def array, values checked and stored by kind,
 * and the usage printed from the same array, so an option is added in one
 * place and its help cannot drift from what is parsed.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include "common/manpage.h"
#include "common/opts.h"
#include "common/units.h"

#define OPTS_MAX 64
#define OPTS_LONG_VAL 256 /* getopt value of a long-only option: + index */

/* The name an error message gives an option: "--name", else "-x". */
static const char *opt_name(const struct opts_def *d, char *buf, size_t len)
{
	if (d->name)
		snprintf(buf, len, "--%s", d->name);
	else
		snprintf(buf, len, "-%c", d->letter);
	return buf;
}

const char *opts_join(const char *const *names, const char *sep,
		      const char *last, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = 0;
	for (size_t i = 0; names[i] && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s",
					 i == 0 ? "" :
					 names[i + 1] ? sep : last, names[i]);
	return buf;
}

static int parse_uint(const struct opts_def *d, const char *arg,
		      const char *prog, const char *name)
{
	char *end;
	long n = strtol(arg, &end, 10);

	if (*end || ((d->flags & OPTS_NONEMPTY) && !*arg) || n < d->min ||
	    n > d->max) {
		if (d->flags & OPTS_NO_ECHO)
			fprintf(stderr, "%s: %s wants %.0f..%.0f\n", prog,
				name, d->min, d->max);
		else
			fprintf(stderr, "%s: %s wants %.0f..%.0f, not '%s'\n",
				prog, name, d->min, d->max, arg);
		return -EINVAL;
	}
	*(unsigned *)d->dest = (unsigned)n;
	return 0;
}

static int parse_seconds(const struct opts_def *d, const char *arg,
			 const char *prog, const char *name)
{
	double v = 0;
	int bad;

	if (d->flags & OPTS_UNITS) {
		bad = units_parse_seconds(arg, &v) != 0;
	} else {
		char *end;

		v = strtod(arg, &end);
		bad = end == arg || *end || !(v >= 0) ||
		      (d->max > 0 && v > d->max);
	}
	/* One message: a positive-only option says so in it. */
	if ((d->flags & OPTS_POSITIVE) && (bad || v <= 0)) {
		fprintf(stderr, "%s: %s wants seconds > 0, not '%s'\n", prog,
			name, arg);
		return -EINVAL;
	}
	if (bad) {
		fprintf(stderr, "%s: %s wants seconds, not '%s'\n", prog, name,
			arg);
		return -EINVAL;
	}
	*(double *)d->dest = v;
	return 0;
}

static int parse_choice(const struct opts_def *d, const char *arg,
			const char *prog, const char *name)
{
	char list[512];

	for (int i = 0; d->choices[i]; i++)
		if (strcmp(d->choices[i], arg) == 0) {
			*(int *)d->dest = i;
			return 0;
		}
	if (d->what)
		fprintf(stderr, "%s: unknown %s '%s' (%s)\n", prog, d->what,
			arg, opts_join(d->choices, ", ", ", ", list,
				       sizeof(list)));
	else
		fprintf(stderr, "%s: %s wants %s, not '%s'\n", prog, name,
			opts_join(d->choices, ", ", " or ", list,
				  sizeof(list)),
			arg);
	return -EINVAL;
}

static int parse_one(const struct opts_cmd *cmd, const struct opts_def *d,
		     const char *arg)
{
	char name[80];

	opt_name(d, name, sizeof(name));
	switch (d->kind) {
	case OPTS_FLAG:
		*(int *)d->dest = 1;
		return 0;
	case OPTS_STRING:
		if (d->max > 0 && (double)strlen(arg) > d->max) {
			fprintf(stderr, "%s: %s is longer than %.0f characters\n",
				cmd->prog, name, d->max);
			return -EINVAL;
		}
		*(const char **)d->dest = arg;
		return 0;
	case OPTS_UINT:
		return parse_uint(d, arg, cmd->prog, name);
	case OPTS_SECONDS:
		return parse_seconds(d, arg, cmd->prog, name);
	case OPTS_CHOICE:
		return parse_choice(d, arg, cmd->prog, name);
	case OPTS_CUSTOM:
		return d->parse(d, arg, cmd->prog);
	case OPTS_HELP:
		opts_usage(cmd, stdout);
		return 1;
	}
	return -EINVAL;
}

int opts_parse(const struct opts_cmd *cmd, int argc, char **argv, int *args)
{
	struct option lopts[OPTS_MAX + 1];
	char sopts[2 * OPTS_MAX + 1];
	size_t nl = 0, ns = 0;
	int c;

	if (cmd->ndefs > OPTS_MAX)
		return -EINVAL;
	for (size_t i = 0; i < cmd->ndefs; i++) {
		const struct opts_def *d = &cmd->defs[i];
		int has_arg = d->kind != OPTS_FLAG && d->kind != OPTS_HELP;

		if (d->name)
			lopts[nl++] = (struct option){
				.name = d->name,
				.has_arg = has_arg ? required_argument :
						     no_argument,
				.val = d->letter ? d->letter :
						   OPTS_LONG_VAL + (int)i,
			};
		if (d->letter) {
			sopts[ns++] = (char)d->letter;
			if (has_arg)
				sopts[ns++] = ':';
		}
	}
	lopts[nl] = (struct option){ 0 };
	sopts[ns] = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, sopts, lopts, NULL)) != -1) {
		const struct opts_def *d = NULL;
		int ret;

		for (size_t i = 0; i < cmd->ndefs && !d; i++)
			if (c == OPTS_LONG_VAL + (int)i ||
			    (cmd->defs[i].letter && c == cmd->defs[i].letter))
				d = &cmd->defs[i];
		if (!d) {
			opts_usage(cmd, stderr);
			return -EINVAL;
		}
		ret = parse_one(cmd, d, optarg);
		if (ret)
			return ret;
	}
	if (cmd->nargs >= 0 ? argc - optind != cmd->nargs :
			      argc - optind < -cmd->nargs) {
		opts_usage(cmd, stderr);
		return -EINVAL;
	}
	*args = optind;
	return 0;
}

static enum opts_format usage_format = OPTS_TEXT;

void opts_set_format(enum opts_format format)
{
	usage_format = format;
}

/* "-o, --output DIR": what usage lists for d (its label if it has one). */
static const char *label_of(const struct opts_def *d, char *label, size_t len)
{
	char list[256];
	size_t n = 0;

	if (d->label) {
		snprintf(label, len, "%s", d->label);
		return label;
	}
	label[0] = 0;
	if (d->letter)
		n += (size_t)snprintf(label + n, len - n, "-%c%s", d->letter,
				      d->name ? ", " : "");
	if (d->name && n < len)
		n += (size_t)snprintf(label + n, len - n, "--%s", d->name);
	if (n >= len)
		return label;
	if (d->arg)
		snprintf(label + n, len - n, " %s", d->arg);
	else if (d->kind == OPTS_CHOICE)
		snprintf(label + n, len - n, " %s",
			 opts_join(d->choices, "|", "|", list, sizeof(list)));
	return label;
}

/* Paragraphs (separated by an empty line) as .PP blocks. */
static void roff_paragraphs(FILE *f, const char *text)
{
	const char *p = text;

	while (*p) {
		const char *end = strstr(p, "\n\n");
		size_t n = end ? (size_t)(end - p) : strlen(p);
		char *para = strndup(p, n);

		if (!para)
			return;
		fputs(".PP\n", f);
		man_text(f, para);
		fputs(n && p[n - 1] == '\n' ? "" : "\n", f);
		free(para);
		p += n;
		while (*p == '\n')
			p++;
	}
}

/*
 * The body of a command's manual page: SYNOPSIS (every line of the
 * synopsis, since a quoted roff argument cannot span lines), DESCRIPTION
 * (the description, then the footer) and OPTIONS.
 */
static void usage_roff(const struct opts_cmd *cmd, FILE *f)
{
	const char *syn = cmd->synopsis;
	char label[160];
	int listed = 0;

	if (strncmp(syn, "usage: ", 7) == 0)
		syn += 7;
	fputs(".SH SYNOPSIS\n", f);
	for (const char *line = syn; line;) {
		const char *nl = strchr(line, '\n');
		char *one;

		while (*line == ' ')
			line++;
		one = strndup(line, nl ? (size_t)(nl - line) : strlen(line));
		if (one && *one) {
			fputs(line == syn ? ".B \"" : ".br\n.B \"", f);
			man_text(f, one);
			fputs("\"\n", f);
		}
		free(one);
		line = nl ? nl + 1 : NULL;
	}
	if (cmd->description || cmd->footer)
		fputs(".SH DESCRIPTION\n", f);
	if (cmd->description)
		roff_paragraphs(f, cmd->description);
	if (cmd->footer)
		roff_paragraphs(f, cmd->footer);
	for (size_t i = 0; i < cmd->ndefs; i++) {
		const struct opts_def *d = &cmd->defs[i];

		if (!d->help)
			continue;
		if (!listed++)
			fputs(".SH OPTIONS\n", f);
		fputs(".TP\n.B \"", f);
		man_text(f, label_of(d, label, sizeof(label)));
		fputs("\"\n", f);
		man_text(f, d->help);
		fputs("\n", f);
	}
}

void opts_usage(const struct opts_cmd *cmd, FILE *f)
{
	char label[160];

	if (usage_format == OPTS_ROFF) {
		usage_roff(cmd, f);
		return;
	}
	fprintf(f, "%s\n", cmd->synopsis);
	for (size_t i = 0; i < cmd->ndefs; i++) {
		const struct opts_def *d = &cmd->defs[i];

		if (!d->help)
			continue;
		label_of(d, label, sizeof(label));
		if ((int)strlen(label) + 2 <= cmd->width)
			fprintf(f, "  %-*s%s\n", cmd->width, label, d->help);
		else
			fprintf(f, "  %s  %s\n", label, d->help);
	}
	if (cmd->footer)
		fprintf(f, "%s", cmd->footer);
}
