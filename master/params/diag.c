/*
 * The parser's messages: an error goes into the caller's buffer as
 * "FILE:LINE:COLUMN: message" and a warning into params.warn, both quoting
 * nothing of an include that is not yet trusted to be a parameter file;
 * and params_file() (params.h), the file a position is in, which they
 * print. Its own file because every part of the parser (the scanner,
 * include=, the value readers, the setters, the keyword tables) reports
 * through it while params.c calls them: kept in params.c, each of them
 * and params.c would call each other.
 */
#include "master/params/params_int.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * What an error or warning says instead of its message in an included file
 * none of whose items began with a keyword yet: the message would quote
 * text of a file that may be anything (include=/etc/shadow).
 */
#define UNTRUSTED \
	"not a parameter file (no line of it so far starts with a parameter); its text is not shown"

static const char *pos_file(const struct parser *p, struct params_pos pos)
{
	return params_file(p->out, pos);
}

int diag_err(struct parser *p, struct params_pos pos, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!p->err || !p->errlen)
		return -EINVAL;
	n = snprintf(p->err, p->errlen, "%s:%u:%u: ", pos_file(p, pos),
		     pos.line, pos.col);
	if (n < 0 || (size_t)n >= p->errlen)
		return -EINVAL;
	if (!p->trusted) {
		snprintf(p->err + n, p->errlen - (size_t)n, "%s", UNTRUSTED);
		return -EINVAL;
	}
	va_start(ap, fmt);
	vsnprintf(p->err + n, p->errlen - (size_t)n, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* Keep a warning about the text at pos; -ENOMEM if it cannot be kept. */
int diag_warn(struct parser *p, struct params_pos pos, const char *fmt, ...)
{
	struct params *pa = p->out;
	char buf[1024], **nw;
	va_list ap;
	int n;

	n = snprintf(buf, sizeof(buf), "%s:%u:%u: warning: ", pos_file(p, pos),
		     pos.line, pos.col);
	if (n < 0 || (size_t)n >= sizeof(buf))
		n = 0;
	va_start(ap, fmt);
	if (p->trusted)
		vsnprintf(buf + n, sizeof(buf) - (size_t)n, fmt, ap);
	else
		snprintf(buf + n, sizeof(buf) - (size_t)n, "%s", UNTRUSTED);
	va_end(ap);
	nw = realloc(pa->warn, (pa->nwarn + 1) * sizeof(*nw));
	if (!nw)
		return -ENOMEM;
	pa->warn = nw;
	nw[pa->nwarn] = strdup(buf);
	if (!nw[pa->nwarn])
		return -ENOMEM;
	pa->nwarn++;
	return 0;
}

const char *params_file(const struct params *p, struct params_pos pos)
{
	if (!p || !p->nfiles)
		return "-";
	return p->files[pos.file < p->nfiles ? pos.file : 0];
}
