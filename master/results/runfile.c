/*
 * File names of per-run files from display names. See runfile.h.
 */
#include <stdio.h>
#include <string.h>
#include "master/results/runfile.h"

const char *runfile_stem(const char *display, char *out, size_t len)
{
	size_t n = 0;

	if (!len)
		return out;
	for (const char *p = display; p && *p; p++) {
		char c = *p;
		const char *rep;
		char one[2] = { 0, 0 };

		if (c == ' ')
			rep = "_";
		else if (c == '%')
			rep = "pct";
		else if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			 (c >= '0' && c <= '9') || c == '.' || c == '_' ||
			 c == '+' || c == '-')
			rep = (one[0] = c, one);
		else
			rep = "-"; /* '=', '/' and anything else */
		if (n == 0 && c == '.')
			rep = "_";
		if (n + strlen(rep) >= len)
			break;
		memcpy(out + n, rep, strlen(rep));
		n += strlen(rep);
	}
	if (!n)
		n = (size_t)snprintf(out, len, "run") < len ? 3 : len - 1;
	out[n] = 0;
	return out;
}

static int taken(char (*out)[RUNFILE_MAX], size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(out[i], s))
			return 1;
	return 0;
}

int runfile_assign(const char *const *names, size_t n, char (*out)[RUNFILE_MAX])
{
	char stem[RUNFILE_MAX - 12];

	for (size_t i = 0; i < n; i++) {
		runfile_stem(names[i], stem, sizeof(stem));
		snprintf(out[i], RUNFILE_MAX, "%s", stem);
		for (unsigned k = 2; taken(out, i, out[i]); k++)
			snprintf(out[i], RUNFILE_MAX, "%s-%u", stem, k);
	}
	return 0;
}
