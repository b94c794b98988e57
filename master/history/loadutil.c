/*
 * What load.c and loadops.c share to read a results folder: files read
 * whole and safely, CSV lines split, SQLite columns as numbers or text,
 * intervals appended, the parameter file's hash.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sqlite3.h>
#include "common/fsutil.h"
#include "master/history/history_int.h"

void history_load_hash(const char *s, size_t len, char *out)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (size_t i = 0; i < len; i++) {
		h ^= (unsigned char)s[i];
		h *= 0x100000001b3ull;
	}
	snprintf(out, 17, "%016llx", (unsigned long long)h);
}

/*
 * The whole of the regular file name in the folder dirfd, NUL-terminated,
 * read as lockstep report reads it (fsutil_read_at: no symbolic link, no
 * FIFO, at most max bytes); -errno (-EFBIG over max).
 */
int history_load_slurp(int dirfd, const char *name, size_t max, char **out,
		       size_t *len)
{
	int truncated,
		ret = fsutil_read_at(dirfd, name, max, out, len, &truncated);

	if (ret == 0 && truncated) {
		free(*out);
		*out = NULL;
		ret = -EFBIG;
	}
	return ret;
}

/* A column as a number: NULL, text or a blob are NaN, never 0. */
double history_load_col(sqlite3_stmt *st, int i)
{
	int t = sqlite3_column_type(st, i);

	return t == SQLITE_INTEGER || t == SQLITE_FLOAT ?
		       sqlite3_column_double(st, i) :
		       NAN;
}

void history_load_str(sqlite3_stmt *st, int i, char *out, size_t len)
{
	const unsigned char *s = sqlite3_column_text(st, i);

	snprintf(out, len, "%s",
		 sqlite3_column_type(st, i) == SQLITE_TEXT && s ?
			 (const char *)s :
			 "");
	/* Names from a file go to terminals: no control characters. */
	for (char *p = out; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
}

int history_load_split(char *line, char **f, int max)
{
	int n = 0;

	for (char *p = line;; p++) {
		if (n < max)
			f[n] = p;
		n++;
		p = strchr(p, ',');
		if (!p)
			break;
		*p = 0;
	}
	return n;
}

int history_load_push(struct history_phase *p, const double *v)
{
	for (int s = 0; s < HISTORY_NSERIES; s++) {
		double *ns = realloc(p->series[s], (p->n + 1) * sizeof(*ns));

		if (!ns)
			return -ENOMEM;
		ns[p->n] = v[s];
		p->series[s] = ns;
	}
	p->n++;
	return 0;
}

int history_load_cols(char *const *f, int n, const char *const *names,
		      int nnames, int *col)
{
	int ret = 0;

	for (int k = 0; k < nnames; k++) {
		col[k] = -1;
		for (int i = 0; i < n && col[k] < 0; i++)
			if (!strcmp(f[i], names[k]))
				col[k] = i;
		if (col[k] < 0)
			ret = -1;
	}
	return ret;
}

int history_load_nums(char *const *f, int n, const int *col, int k, double *v)
{
	for (int s = 0; s < k; s++) {
		char *end;

		if (col[s] >= n)
			return s + 1;
		v[s] = strtod(f[col[s]], &end);
		if (end == f[col[s]] || *end)
			return s + 1;
	}
	return 0;
}
