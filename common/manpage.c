/*
 * The markup of the manual pages (manpage.h) turned into man(7) roff.
 */
#include <stdlib.h>
#include <string.h>
#include "common/manpage.h"

static const struct glyph {
	const char *utf8;
	const char *roff;
} glyphs[] = {
	{ "\xc2\xb1", "\\(+-" },     /* ± */
	{ "\xe2\x80\x94", "\\(em" }, /* — */
	{ "\xce\x94", "\\(*D" },     /* Δ */
	{ "\xe2\x86\x92", "\\(->" }, /* → */
	{ "\xc3\x97", "\\(mu" },     /* × */
	{ "\xe2\x89\xa4", "\\(<=" }, /* ≤ */
	{ "\xe2\x89\xa5", "\\(>=" }, /* ≥ */
	{ "\xc2\xb5", "\\(mc" },     /* µ */
};

/* One character at s (n bytes of it written); -1 on an unknown glyph. */
static int put_char(FILE *f, const char *s, size_t *n)
{
	*n = 1;
	if (*s == '\\') {
		fputs("\\e", f);
	} else if (*s == '-') {
		fputs("\\-", f);
	} else if ((unsigned char)*s < 128) {
		fputc(*s, f);
	} else {
		for (size_t i = 0; i < sizeof(glyphs) / sizeof(glyphs[0]);
		     i++) {
			size_t len = strlen(glyphs[i].utf8);

			if (strncmp(s, glyphs[i].utf8, len) == 0) {
				fputs(glyphs[i].roff, f);
				*n = len;
				return 0;
			}
		}
		fprintf(stderr, "manual: no glyph for byte 0x%02x in '%.40s'\n",
			(unsigned char)*s, s);
		return -1;
	}
	return 0;
}

/* Text of one line (len bytes), `code` in bold when markup is set. */
static int put_line(FILE *f, const char *s, size_t len, int markup)
{
	int bold = 0;

	if (len && (*s == '.' || *s == '\''))
		fputs("\\&", f);
	for (size_t i = 0; i < len;) {
		size_t n;

		if (markup && s[i] == '`') {
			fputs(bold ? "\\fR" : "\\fB", f);
			bold = !bold;
			i++;
			continue;
		}
		if (put_char(f, s + i, &n))
			return -1;
		/* A long list in code (a CSV header) may break after , or |. */
		if (bold && (s[i] == ',' || s[i] == '|'))
			fputs("\\:", f);
		i += n;
	}
	if (bold) {
		fprintf(stderr, "manual: unclosed ` in '%.*s'\n", (int)len, s);
		return -1;
	}
	return 0;
}

int man_text(FILE *f, const char *s)
{
	int bol = 1;

	for (; *s; s++) {
		size_t n;

		if (bol && (*s == '.' || *s == '\''))
			fputs("\\&", f);
		bol = *s == '\n';
		if (put_char(f, s, &n))
			return -1;
		s += n - 1;
	}
	return 0;
}

int man_markup(FILE *f, const char *markup)
{
	const char *p = markup;
	int verbatim = 0, para = 0, ret = 0;

	while (*p && !ret) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);

		if (len == 3 && strncmp(p, "```", 3) == 0) {
			fputs(verbatim ? ".fi\n.RE\n.PP\n" :
					 ".PP\n.RS 4\n.nf\n",
			      f);
			verbatim = !verbatim;
			para = !verbatim;
		} else if (verbatim) {
			ret = put_line(f, p, len, 0);
			fputc('\n', f);
		} else if (len == 0) {
			if (!para)
				fputs(".PP\n", f);
			para = 1;
		} else if (strncmp(p, "## ", 3) == 0 ||
			   strncmp(p, "# ", 2) == 0) {
			int sub = p[1] == '#';

			fputs(sub ? ".SS " : ".SH ", f);
			ret = put_line(f, p + 2 + sub, len - 2 - sub, 0);
			fputc('\n', f);
			para = 1;
		} else if (strncmp(p, "- ", 2) == 0) {
			fputs(".IP \\(bu 2\n", f);
			ret = put_line(f, p + 2, len - 2, 1);
			fputc('\n', f);
			para = 0;
		} else if (strncmp(p, "= ", 2) == 0) {
			fputs(".TP\n", f);
			ret = put_line(f, p + 2, len - 2, 1);
			fputc('\n', f);
			para = 0;
		} else {
			ret = put_line(f, p, len, 1);
			fputc('\n', f);
			para = 0;
		}
		p += len + (nl != NULL);
	}
	if (!ret && verbatim) {
		fprintf(stderr, "manual: unclosed ``` block\n");
		ret = -1;
	}
	return ret;
}
