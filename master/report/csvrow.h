/*
 * The report's CSV primitives: a results folder's CSV files (intervals.csv,
 * hosts/<slave>.csv, devices.csv, hoststats.csv, probes.csv) are
 * comma-separated lines with a header row, a field in double quotes when
 * it holds a comma, a quote or a space (RFC 4180; probes.csv quotes every
 * run name), read here as hostile input: lines split and unquoted in
 * place, numbers refused unless they are whole and finite, columns found
 * by their header's names.
 */
#ifndef LOCKSTEP_MASTER_REPORT_CSVROW_H
#define LOCKSTEP_MASTER_REPORT_CSVROW_H

#include <stddef.h>
#include <stdint.h>

/* Most fields a row may have (a longer row is refused). */
#define CSVROW_FIELDS_MAX 64

/*
 * Split line at commas, in place, into f (max entries), a quoted field
 * unquoted ("" a quote). Returns the number of fields, or max + 1 when
 * the line has more or a quote is not closed or followed by text.
 */
size_t csvrow_split(char *line, char **f, size_t max);
/* A decimal unsigned integer, all of s: 0, or -EINVAL. */
int csvrow_u64(const char *s, uint64_t *v);
/* A number, all of s, finite; NaN for an empty or bad cell. */
double csvrow_dbl(const char *s);
/*
 * Like csvrow_dbl, but says whether the cell was well formed: 0 with *v a
 * finite number or NaN for an empty cell, -EINVAL for anything else.
 */
int csvrow_cell(const char *s, double *v);
/*
 * The next line of text (len bytes, NUL-terminated at len) from *pos: its
 * '\n' (and a '\r' before it) replaced by NUL. NULL at the end.
 */
char *csvrow_next(char *text, size_t len, char **pos);
/*
 * A file cut at a bound ends in the middle of a row: shorten *len to the
 * last whole line (and NUL-terminate there).
 */
void csvrow_whole_lines(char *text, size_t *len);
/*
 * The columns of names (n of them) in a header row (f, nf fields): col[i]
 * is its index, or -1. Returns how many were found.
 */
size_t csvrow_header(char *const *f, size_t nf, const char *const *names,
		     size_t n, int *col);
/*
 * Whether s is a name the report will show (a host, a device, a probe):
 * 1 to 255 bytes, no control character. It is escaped in JSON and shown
 * as text, never as HTML.
 */
int csvrow_name_ok(const char *s);

#endif
