/*
 * The hook `lockstep run` calls once its results folder is complete:
 * record the run in the history, compare it with --baseline, exit 3 on a
 * regression, and hand the comparison and verdict to the run's seal,
 * whose sinks write compare.txt and compare.json and rewrite the
 * summaries. The results folder is the source of truth: whatever goes
 * wrong here is said on stderr and never changes how the run ended.
 * Nothing here writes into a results folder.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "common/exitcode.h"
#include "common/log.h"
#include "master/history/history_int.h"

int history_compare_file(FILE *f, const struct history_seal *s, int json)
{
	if (!s->cmp)
		return -ENODATA;
	if (json)
		return history_compare_json(f, s->base, s->cur, s->cmp);
	history_compare_print(f, s->base, s->cur, s->cmp);
	return 0;
}

/*
 * Compare and print; the verdict line into line and the comparison into
 * *c (free it with history_compare_free) when the return is >= 0: 1 a
 * regression, 0 none, -errno no comparison.
 */
static int run_compare(const struct history_run *base,
		       const struct history_run *cur, const char *threshold,
		       struct history_cmp *c, char *line, size_t len)
{
	struct history_threshold t;
	char err[512];

	if (history_threshold_parse(threshold ? threshold :
						HISTORY_DEFAULT_THRESHOLD,
				    &t, err, sizeof(err)) < 0) {
		log_error("%s", err);
		snprintf(line, len, "no comparison: %s", err);
		return -EINVAL;
	}
	if (history_compare(base, cur, &t, c) < 0) {
		log_error("compare: out of memory");
		snprintf(line, len, "no comparison: out of memory");
		return -ENOMEM;
	}
	printf("\n");
	history_compare_print(stdout, base, cur, c);
	fflush(stdout);
	history_compare_line(base, c, line, len);
	return c->regression;
}

static int is_dir(const char *path)
{
	struct stat sb;

	return stat(path, &sb) == 0 && S_ISDIR(sb.st_mode);
}

int history_check_args(const char *hist, int no_history, const char *baseline,
		       const char *threshold)
{
	struct history_threshold t;
	char err[512];

	if (no_history && hist) {
		fprintf(stderr,
			"lockstep run: --history and --no-history contradict each other\n");
		return -EINVAL;
	}
	if (no_history && baseline && !is_dir(baseline)) {
		fprintf(stderr,
			"lockstep run: --baseline %s needs the run history: only a results folder works with --no-history\n",
			baseline);
		return -EINVAL;
	}
	if (threshold && !baseline) {
		fprintf(stderr, "lockstep run: --threshold needs --baseline\n");
		return -EINVAL;
	}
	if ((baseline && history_spec_ok(baseline, err, sizeof(err)) < 0) ||
	    (threshold &&
	     history_threshold_parse(threshold, &t, err, sizeof(err)) < 0)) {
		fprintf(stderr, "lockstep run: %s\n", err);
		return -EINVAL;
	}
	return 0;
}

/* The status word of an exit code, as results_status_name() says it. */
static const char *hook_status(int code)
{
	return code == LS_EXIT_REGRESSION ? "regression" :
	       code == LS_EXIT_INCOMPLETE ? "incomplete" :
					    "uncompared";
}

int history_run_hook(const char *dir, const char *hist, int no_history,
		     const char *baseline, const char *threshold, int exit_code,
		     history_seal_fn seal, void *arg)
{
	char buf[PATH_MAX];
	const char *hist_path = no_history ? NULL :
					     history_default_path(hist, buf,
								  sizeof(buf));

	struct history_run cur, base;
	struct history_cmp c;
	struct history_seal s = { .exit_code = exit_code, .verdict = "" };
	struct history_db *db = NULL;
	int have_base = 0, regression = 0, final = exit_code;
	char err[1024], line[1024] = "";
	int64_t id;

	if (!hist_path && !baseline)
		return seal ? seal(arg, &s) : exit_code;
	if (history_load_dir(dir, &cur, err, sizeof(err)) < 0) {
		log_error("history: cannot read the results folder back, the run is not recorded: %s",
			  err);
		if (baseline) {
			snprintf(line, sizeof(line), "no comparison: %s", err);
			goto no_compare;
		}
		return seal ? seal(arg, &s) : exit_code;
	}
	if (!*cur.host)
		gethostname(cur.host, sizeof(cur.host) - 1);
	if (hist_path && !hist)
		history_make_parent(hist_path);
	if (hist_path &&
	    history_db_open(hist_path, 1, &db, err, sizeof(err)) < 0) {
		log_error("%s; the run is not recorded (its results folder %s is complete)",
			  err, dir);
		db = NULL;
	}
	/* The baseline first: "last" must not be tonight's run. */
	if (baseline) {
		if (history_resolve(db, baseline, cur.param_hash, cur.run_id,
				    &base, err, sizeof(err)) < 0) {
			log_error("compare: %s: no comparison made (exit %d unless the run already failed)",
				  err, LS_EXIT_NO_BASELINE);
			snprintf(line, sizeof(line), "no comparison: %s", err);
		} else {
			have_base = 1;
		}
	}
	if (have_base) {
		regression = run_compare(&base, &cur, threshold, &c, line,
					 sizeof(line));
		if (regression >= 0) {
			s.base = &base;
			s.cur = &cur;
			s.cmp = &c;
		}
	}
	/* 2, 4 and 5 say more about the run than its speed does. */
	if (exit_code == LS_EXIT_OK && regression > 0)
		final = LS_EXIT_REGRESSION;
	else if (exit_code == LS_EXIT_OK && baseline && regression <= 0 &&
		 (!have_base || regression < 0))
		final = LS_EXIT_NO_BASELINE;
	/*
	 * The record ends with the verdict printed: summary.json and
	 * summary.txt are rewritten first, then the history row says the
	 * same.
	 */
	s.exit_code = final;
	s.verdict = line;
	if (seal)
		final = seal(arg, &s);
	if (s.cmp)
		history_compare_free(&c);
	if (have_base)
		history_run_free(&base);
	cur.exit_code = final;
	if (final == LS_EXIT_REGRESSION || final == LS_EXIT_NO_BASELINE ||
	    final == LS_EXIT_INCOMPLETE)
		snprintf(cur.status, sizeof(cur.status), "%s",
			 hook_status(final));
	snprintf(cur.verdict, sizeof(cur.verdict), "%s", line);
	if (db) {
		if (history_db_record(db, &cur, &id, err, sizeof(err)) < 0)
			log_error("%s; the run is not recorded (its results folder %s is complete)",
				  err, dir);
		else
			log_info("history: run recorded as id %lld in %s",
				 (long long)id, hist_path);
	}
	history_db_close(db);
	history_run_free(&cur);
	return final;
no_compare:
	if (exit_code == LS_EXIT_OK)
		final = LS_EXIT_NO_BASELINE;
	s.exit_code = final;
	s.verdict = line;
	return seal ? seal(arg, &s) : final;
}
