/*
 * CSV lines of a results folder, split and checked (see csvrow.h). Pure:
 * no file is opened here; data.c reads the files.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "master/report/csvrow.h"

size_t csvrow_split(char *line, char **f, size_t max)
{
	char *r = line;
	size_t n = 0;

	for (;;) {
		char *start = r, *w = r, end;

		if (*r == '"') {
			/* Quoted: "" is a quote, commas are text. */
			for (r++;; r++) {
				if (!*r)
					return max + 1; /* no closing quote */
				if (*r == '"' && r[1] != '"')
					break;
				if (*r == '"')
					r++;
				*w++ = *r;
			}
			r++;
			if (*r && *r != ',')
				return max + 1; /* text after the quote */
		} else {
			while (*r && *r != ',')
				*w++ = *r++;
		}
		end = *r;
		*w = '\0';
		if (n == max)
			return max + 1;
		f[n++] = start;
		if (!end)
			return n;
		r++;
	}
}

int csvrow_u64(const char *s, uint64_t *v)
{
	char *e;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	*v = strtoull(s, &e, 10);
	return errno || *e ? -EINVAL : 0;
}

double csvrow_dbl(const char *s)
{
	double v;

	return csvrow_cell(s, &v) < 0 ? NAN : v;
}

int csvrow_cell(const char *s, double *v)
{
	char *e;

	*v = NAN;
	if (!*s)
		return 0;
	/* strtod takes "nan", "inf" and hex: a number here is decimal. */
	if (!strchr("+-.0123456789", *s))
		return -EINVAL;
	*v = strtod(s, &e);
	if (*e || !isfinite(*v) || strpbrk(s, "xXnN")) {
		*v = NAN;
		return -EINVAL;
	}
	return 0;
}

char *csvrow_next(char *text, size_t len, char **pos)
{
	char *line = *pos, *nl;

	if (line >= text + len)
		return NULL;
	nl = memchr(line, '\n', (size_t)(text + len - line));
	if (!nl)
		nl = text + len;
	*nl = '\0';
	if (nl > line && nl[-1] == '\r')
		nl[-1] = '\0';
	*pos = nl + 1;
	return line;
}

void csvrow_whole_lines(char *text, size_t *len)
{
	while (*len > 0 && text[*len - 1] != '\n')
		(*len)--;
	text[*len] = '\0';
}

size_t csvrow_header(char *const *f, size_t nf, const char *const *names,
		     size_t n, int *col)
{
	size_t found = 0;

	for (size_t k = 0; k < n; k++) {
		col[k] = -1;
		for (size_t i = 0; i < nf; i++) {
			if (strcmp(f[i], names[k]) == 0) {
				col[k] = (int)i;
				found++;
				break;
			}
		}
	}
	return found;
}

int csvrow_name_ok(const char *s)
{
	size_t n = 0;

	for (; s[n]; n++)
		if ((unsigned char)s[n] < 0x20 || s[n] == 0x7f || n >= 255)
			return 0;
	return n > 0;
}
