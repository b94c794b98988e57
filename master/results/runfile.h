/*
 * File names of per-run files (a run's .hgrm): a display name such as
 * "loop1 xfersize=4k rdpct=70" becomes "loop1_xfersize-4k_rdpct-70", a
 * name that shells, scripts and file shares take as it is (no spaces, no
 * '=', no '/'). The display name stays as it is on the console and in
 * summary.json. Pure.
 */
#ifndef LOCKSTEP_MASTER_RUNFILE_H
#define LOCKSTEP_MASTER_RUNFILE_H

#include <stddef.h>

#define RUNFILE_MAX 224 /* a stem, with room for a "-N" suffix */

/*
 * The stem of display into out: ' ' becomes '_', '=' and '/' become '-',
 * '%' becomes "pct", any other byte that is not a letter, digit, '.', '_',
 * '+' or '-' becomes '-'; a leading '.' becomes '_'; empty gives "run".
 * Cut to len - 1 bytes. Returns out.
 */
const char *runfile_stem(const char *display, char *out, size_t len);

/*
 * The stems of n display names, unique: the first name with a stem keeps
 * it, a later one that would repeat it gets "-2", "-3", ... (the first
 * free one), so the same names always give the same files. names[i] is
 * the i-th display name; out[i] receives its stem. Returns 0.
 */
int runfile_assign(const char *const *names, size_t n,
		   char (*out)[RUNFILE_MAX]);

#endif
