/*
 * What a baseline spec names: "last", "last~N", "median:N", a history id
 * or a results folder, resolved to one loaded run. Relative specs count
 * usable runs of one parameter file only (history_db_ids, BASELINE): a
 * night that was aborted, degraded or itself a regression, or a different
 * file, is no reference for tonight, unless a person accepted it as the
 * new level; runs older than the newest accepted one no longer count.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "master/history/history_int.h"

#define MEDIAN_MAX 1000

enum spec_kind { SPEC_BAD, SPEC_LAST, SPEC_MEDIAN, SPEC_ID, SPEC_DIR };

/* A count after a prefix: 1..max, digits only. */
static int spec_count(const char *s, unsigned long max, unsigned long *n)
{
	char *end;

	if (*s < '0' || *s > '9')
		return 0;
	errno = 0;
	*n = strtoul(s, &end, 10);
	return !errno && !*end && *n <= max;
}

static enum spec_kind spec_parse(const char *spec, unsigned long *n)
{
	struct stat sb;

	*n = 0;
	if (!strcmp(spec, "last"))
		return SPEC_LAST;
	if (!strncmp(spec, "last~", 5))
		return spec_count(spec + 5, 1000000, n) ? SPEC_LAST : SPEC_BAD;
	if (!strncmp(spec, "median:", 7))
		return spec_count(spec + 7, MEDIAN_MAX, n) && *n > 0 ?
			       SPEC_MEDIAN :
			       SPEC_BAD;
	/* A folder of that name wins over an id: "./12" is never ambiguous. */
	if (stat(spec, &sb) == 0 && S_ISDIR(sb.st_mode))
		return SPEC_DIR;
	if (spec_count(spec, (unsigned long)INT64_MAX, n) && *n > 0)
		return SPEC_ID;
	return strchr(spec, '/') ? SPEC_DIR : SPEC_BAD;
}

int history_spec_ok(const char *spec, char *err, size_t errlen)
{
	unsigned long n;

	if (spec_parse(spec, &n) != SPEC_BAD)
		return 0;
	snprintf(err, errlen,
		 "'%s' is no baseline: last, last~N, median:N (1..%d), a history id or a results folder",
		 spec, MEDIAN_MAX);
	return -EINVAL;
}

static int need_db(struct history_db *db, const char *spec, char *err,
		   size_t errlen)
{
	if (db)
		return 0;
	snprintf(err, errlen,
		 "baseline %s needs a run history, and none is open (--no-history, or it could not be opened)",
		 spec);
	return -EINVAL;
}

static int resolve_median(struct history_db *db, const char *spec,
			  unsigned long n, const char *file_hash,
			  const char *exclude, struct history_run *r, char *err,
			  size_t errlen)
{
	struct history_run *runs = calloc(n, sizeof(*runs));
	int64_t *ids = calloc(n, sizeof(*ids));
	int got, ret = 0, loaded = 0;

	if (!runs || !ids) {
		ret = -ENOMEM;
		goto out;
	}
	got = history_db_ids(db, file_hash, HISTORY_IDS_BASELINE, exclude, ids,
			     n, err, errlen);
	if (got < 0) {
		ret = got;
		goto out;
	}
	if ((unsigned long)got < n) {
		snprintf(err, errlen,
			 "baseline %s: the history has %d usable run%s of this parameter file (clean, or accepted), %lu wanted",
			 spec, got, got == 1 ? "" : "s", n);
		ret = -ENOENT;
		goto out;
	}
	for (loaded = 0; loaded < got; loaded++) {
		ret = history_db_load(db, ids[loaded], &runs[loaded], err,
				      errlen);
		if (ret < 0)
			goto out;
	}
	ret = history_load_median(runs, (size_t)got, r);
out:
	for (int i = 0; i < loaded; i++)
		history_run_free(&runs[i]);
	free(runs);
	free(ids);
	return ret;
}

int history_resolve(struct history_db *db, const char *spec,
		    const char *file_hash, const char *exclude,
		    struct history_run *r, char *err, size_t errlen)
{
	unsigned long n;
	int64_t *ids;
	int got, ret;

	memset(r, 0, sizeof(*r));
	switch (spec_parse(spec, &n)) {
	case SPEC_DIR:
		return history_load_dir(spec, r, err, errlen);
	case SPEC_ID:
		ret = need_db(db, spec, err, errlen);
		return ret ? ret :
			     history_db_load(db, (int64_t)n, r, err, errlen);
	case SPEC_MEDIAN:
		ret = need_db(db, spec, err, errlen);
		return ret ? ret :
			     resolve_median(db, spec, n, file_hash, exclude, r,
					    err, errlen);
	case SPEC_LAST:
		ret = need_db(db, spec, err, errlen);
		if (ret)
			return ret;
		ids = calloc(n + 1, sizeof(*ids));
		if (!ids)
			return -ENOMEM;
		got = history_db_ids(db, file_hash, HISTORY_IDS_BASELINE,
				     exclude, ids, n + 1, err, errlen);
		if (got >= 0 && (unsigned long)got <= n) {
			snprintf(err, errlen,
				 "baseline %s: the history has %d usable run%s of this parameter file (clean, or accepted)",
				 spec, got, got == 1 ? "" : "s");
			got = -ENOENT;
		}
		ret = got < 0 ? got :
				history_db_load(db, ids[n], r, err, errlen);
		free(ids);
		return ret;
	default:
		return history_spec_ok(spec, err, errlen);
	}
}
