/*
 * The progress line of long phases. See progress.h.
 */
#include <math.h>
#include <stdio.h>
#include "master/run/progress.h"

int progress_wanted(const struct plan_phase *ph, int tty)
{
	if (!tty)
		return 0;
	return ph->kind == PLAN_FORMAT ||
	       ph->warmup_s + ph->elapsed_s > PROGRESS_MIN_S;
}

const char *progress_line(const char *name, double done, double total,
			  double elapsed_s, char *buf, size_t len)
{
	double frac = total > 0 ? done / total : 0, left;
	unsigned long s;

	if (!(frac >= 0))
		frac = 0;
	if (frac > 1)
		frac = 1;
	if (frac <= 0 || elapsed_s <= 0) {
		snprintf(buf, len, "run %s: %.0f%% done, ETA unknown", name,
			 100 * frac);
		return buf;
	}
	left = elapsed_s / frac - elapsed_s;
	s = (unsigned long)ceil(left);
	if (s >= 3600)
		snprintf(buf, len, "run %s: %.0f%% done, ETA %luh%02lum%02lus",
			 name, floor(100 * frac), s / 3600, s / 60 % 60,
			 s % 60);
	else
		snprintf(buf, len, "run %s: %.0f%% done, ETA %lum%02lus", name,
			 floor(100 * frac), s / 60, s % 60);
	return buf;
}
