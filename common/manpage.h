/*
 * The manual pages' text: a small markup, written as plain prose in C
 * strings beside the code it describes, turned into man(7) roff. One
 * converter for every page, so no page hand-writes roff escapes.
 *
 * The markup, line by line:
 *   "# NAME"     a section (.SH); "## Name" a subsection (.SS)
 *   ""           an empty line ends a paragraph (.PP)
 *   "- text"     starts a bullet item (.IP), until the next item or "";
 *   "= TERM"     starts a tagged item (.TP): TERM, then the lines below
 *   "```"        starts and ends a verbatim block (no fill, no markup)
 * Inside a line `code` is set in bold. Everything else is text: '-' and
 * '\' are escaped, a line starting with '.' or '\'' cannot be a request,
 * and the few non-ASCII characters the pages use (± — Δ → × ≤ ≥ µ) become
 * groff's named glyphs; any other byte above 127 is an error.
 */
#ifndef LOCKSTEP_COMMON_MANPAGE_H
#define LOCKSTEP_COMMON_MANPAGE_H

#include <stdio.h>

/*
 * Write s as roff text: backslashes and hyphens escaped, a leading '.'
 * or '\'' guarded, the glyphs above named. Returns -1 (after a message on
 * stderr) on a byte it cannot write, else 0.
 */
int man_text(FILE *f, const char *s);
/* Write the markup above as roff. Returns -1 on a bad glyph, else 0. */
int man_markup(FILE *f, const char *markup);

#endif
