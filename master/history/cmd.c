/*
 * The commands of the run history: `lockstep history [list|import|
 * accept|changes]` and `lockstep compare A B`. The hook `lockstep run`
 * calls is hook.c's; where the history lives by default is db.c's.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pwd.h>
#include <unistd.h>
#include <sys/stat.h>
#include "common/exitcode.h"
#include "common/fsutil.h"
#include "common/log.h"
#include "common/opts.h"
#include "master/history/history_int.h"
#include "common/jsonw.h"

#define LIST_MAX 100000

/* ---- lockstep compare --------------------------------------------------- */

int history_compare_main(int argc, char **argv)
{
	const char *hist = NULL, *threshold = HISTORY_DEFAULT_THRESHOLD;
	struct history_run a = { 0 }, b = { 0 };
	struct history_db *db = NULL;
	struct history_threshold t;
	struct history_cmp c;
	char buf[PATH_MAX], err[1024], dberr[1024] = "";
	int json = 0, help = 0, args, ret;
	const struct opts_def defs[] = {
		{ "threshold", 0, OPTS_STRING, &threshold, .arg = "LIST",
		  .help = "how far a metric may move (" HISTORY_DEFAULT_THRESHOLD
			  ")" },
		{ "json", 0, OPTS_FLAG, &json, .help = "the result as JSON" },
		{ "history", 0, OPTS_STRING, &hist, .arg = "PATH",
		  .help = "the run history (default $LOCKSTEP_HISTORY, else " HISTORY_ROOT_DB
			  " for root, ~/.local/share/lockstep/history.db otherwise)" },
		{ .name = "help",
		  .letter = 'h',
		  .kind = OPTS_HELP,
		  .dest = &help },
	};
	const struct opts_cmd cmd = {
		.prog = "lockstep compare",
		.synopsis =
			"usage: lockstep compare BASELINE CANDIDATE [options]",
		.footer =
			"BASELINE and CANDIDATE: a results folder, a history id, last, last~N\n"
			"or median:N (of the last N usable runs of the same parameter file:\n"
			"exit 0, never a regression, unless accepted; never the candidate).\n"
			"With 5 or more baseline nights each metric is judged night to night\n"
			"(robust z against their median and MAD), else over the intervals\n"
			"(Mann-Whitney U widened for lag-1 autocorrelation). A file-system\n"
			"run's operations are judged as runs RUN/OP (rc/create: rate, latency).\n"
			"Exit 0: no regression, 3: regression, 1: bad input.\n",
		.width = 20,
		.defs = defs,
		.ndefs = sizeof(defs) / sizeof(defs[0]),
		.nargs = 2,
	};

	ret = opts_parse(&cmd, argc, argv, &args);
	if (ret)
		return ret > 0 ? LS_EXIT_OK : LS_EXIT_BAD_INPUT;
	if (history_threshold_parse(threshold, &t, err, sizeof(err)) < 0 ||
	    history_spec_ok(argv[args], err, sizeof(err)) < 0 ||
	    history_spec_ok(argv[args + 1], err, sizeof(err)) < 0) {
		fprintf(stderr, "lockstep compare: %s\n", err);
		return LS_EXIT_BAD_INPUT;
	}
	hist = history_default_path(hist, buf, sizeof(buf));
	if (history_db_open(hist, 0, &db, dberr, sizeof(dberr)) < 0)
		db = NULL;
	/* The candidate first: a relative baseline is of its file. */
	ret = history_resolve(db, argv[args + 1], NULL, NULL, &b, err,
			      sizeof(err));
	if (ret == 0) {
		/* A median that held the candidate would judge it by itself. */
		const char *ex = strncmp(argv[args], "median:", 7) ? NULL :
								     b.run_id;

		ret = history_resolve(db, argv[args], b.param_hash, ex, &a, err,
				      sizeof(err));
		if (ret < 0)
			history_run_free(&b);
	}
	history_db_close(db);
	if (ret < 0) {
		fprintf(stderr, "lockstep compare: %s\n", err);
		if (!db && *dberr)
			fprintf(stderr, "lockstep compare: %s\n", dberr);
		return LS_EXIT_BAD_INPUT;
	}
	ret = history_compare(&a, &b, &t, &c);
	if (ret == 0) {
		if (json)
			history_compare_json(stdout, &a, &b, &c);
		else
			history_compare_print(stdout, &a, &b, &c);
		ret = c.regression ? LS_EXIT_REGRESSION : LS_EXIT_OK;
		history_compare_free(&c);
	} else {
		ret = LS_EXIT_BAD_INPUT;
	}
	history_run_free(&a);
	history_run_free(&b);
	return ret;
}

/* ---- lockstep history ---------------------------------------------------- */

struct hopts {
	const char *hist, *file, *metrics, *why;
	unsigned last;
	int json, help, baseline;
};

static int hist_open(struct hopts *o, int create, struct history_db **db)
{
	char buf[PATH_MAX], err[1024];

	if (create && !o->hist) {
		history_make_parent(
			history_default_path(NULL, buf, sizeof(buf)));
	}
	o->hist = history_default_path(o->hist, buf, sizeof(buf));
	if (history_db_open(o->hist, create, db, err, sizeof(err)) < 0) {
		fprintf(stderr, "lockstep history: %s\n", err);
		return -1;
	}
	return 0;
}

/* The first measured run's figures: what a line of the list shows. */
static const struct history_phase *main_phase(const struct history_run *r)
{
	for (size_t i = 0; i < r->nphases; i++)
		if (strcmp(r->ph[i].kind, "format"))
			return &r->ph[i];
	return r->nphases ? &r->ph[0] : NULL;
}

static void list_json(const struct history_run *r);

static int history_list(struct hopts *o)
{
	struct history_db *db;
	char err[1024];
	int64_t *ids;
	int n, ret = LS_EXIT_OK;

	if (hist_open(o, 0, &db) < 0)
		return LS_EXIT_BAD_INPUT;
	ids = calloc(o->last, sizeof(*ids));
	n = ids ? history_db_ids(db, o->file,
				 o->baseline ? HISTORY_IDS_BASELINE :
					       HISTORY_IDS_ALL,
				 NULL, ids, o->last, err, sizeof(err)) :
		  -ENOMEM;
	if (n < 0) {
		fprintf(stderr, "lockstep history: %s\n",
			n == -ENOMEM ? "out of memory" : err);
		ret = LS_EXIT_BAD_INPUT;
		goto out;
	}
	if (o->json)
		printf("[");
	else
		printf("%-19s %5s  %-8s  %-20s %-10s %4s  %s\n", "started",
		       "id", "run", "file", "status", "exit",
		       "first run: IOPS, MB/s, p99 ms; verdict");
	for (int i = 0; i < n; i++) {
		struct history_run r;
		const struct history_phase *p;

		if (history_db_load(db, ids[i], &r, err, sizeof(err)) < 0) {
			fprintf(stderr, "lockstep history: %s\n", err);
			ret = LS_EXIT_BAD_INPUT;
			break;
		}
		p = main_phase(&r);
		if (o->json) {
			printf("%s\n", i ? "," : "");
			list_json(&r);
		} else {
			printf("%-19.19s %5lld  %-8.8s  %-20.20s %-10s %4d",
			       r.started, (long long)r.id, r.run_id,
			       r.param_name, r.status, r.exit_code);
			if (p)
				printf("  %s: %.0f IOPS, %.1f MB/s, %.3f ms%s",
				       p->name, p->v[HISTORY_IOPS],
				       p->v[HISTORY_MBPS], p->v[HISTORY_P99],
				       r.nphases > 1 ? " (+ more runs)" : "");
			if (*r.verdict)
				printf("; %s", r.verdict);
			if (r.insecure)
				printf(" [insecure: no authentication]");
			if (r.accepted)
				printf(" [accepted as the baseline level]");
			printf("\n");
		}
		history_run_free(&r);
	}
	if (o->json)
		printf("\n]\n");
out:
	free(ids);
	history_db_close(db);
	return ret;
}

static void list_json(const struct history_run *r)
{
	struct jsonw w;

	jsonw_init(&w, stdout);
	jsonw_object(&w, NULL);
	jsonw_i64(&w, "id", r->id);
	jsonw_str(&w, "run_id", r->run_id);
	jsonw_str(&w, "started", r->started);
	jsonw_str(&w, "ended", r->ended);
	jsonw_str(&w, "status", r->status);
	jsonw_i64(&w, "exit_code", r->exit_code);
	jsonw_str(&w, "verdict", r->verdict);
	jsonw_bool(&w, "accepted", r->accepted);
	jsonw_bool(&w, "insecure", r->insecure);
	jsonw_str(&w, "host", r->host);
	jsonw_str(&w, "engine", r->engine);
	jsonw_u64(&w, "slaves", r->nslaves);
	jsonw_str(&w, "param_file", r->param_name);
	jsonw_str(&w, "param_hash", r->param_hash);
	jsonw_str(&w, "dir", r->dir);
	jsonw_array(&w, "runs");
	for (size_t i = 0; i < r->nphases; i++) {
		const struct history_phase *p = &r->ph[i];

		jsonw_object(&w, NULL);
		jsonw_str(&w, "name", p->name);
		for (int m = 0; m < HISTORY_NMETRICS; m++)
			jsonw_dbl(&w, history_metric_name(m), p->v[m]);
		jsonw_u64(&w, "intervals", p->n);
		jsonw_end(&w);
	}
	jsonw_end(&w);
	jsonw_end(&w);
	fflush(stdout);
}

static int history_import(struct hopts *o, int argc, char **argv)
{
	struct history_db *db;
	char err[1024];
	int ret = LS_EXIT_OK;

	if (hist_open(o, 1, &db) < 0)
		return LS_EXIT_BAD_INPUT;
	for (int i = 0; i < argc; i++) {
		struct history_run r;
		int64_t id;
		int rc;

		if (history_load_dir(argv[i], &r, err, sizeof(err)) < 0) {
			fprintf(stderr, "lockstep history import: %s\n", err);
			ret = LS_EXIT_BAD_INPUT;
			continue;
		}
		rc = history_db_record(db, &r, &id, err, sizeof(err));
		if (rc == -EEXIST) {
			printf("%s: already recorded as id %lld\n", argv[i],
			       (long long)id);
		} else if (rc < 0) {
			fprintf(stderr, "lockstep history import: %s\n", err);
			ret = LS_EXIT_BAD_INPUT;
		} else {
			printf("%s: recorded as id %lld\n", argv[i],
			       (long long)id);
		}
		history_run_free(&r);
	}
	history_db_close(db);
	return ret;
}

/* Who accepts: the person behind sudo, else the user. */
static void who_am_i(char *buf, size_t len)
{
	const char *sudo = getenv("SUDO_USER");
	struct passwd *pw = getpwuid(getuid());

	if (sudo && *sudo)
		snprintf(buf, len, "%s (via sudo)", sudo);
	else if (pw)
		snprintf(buf, len, "%s", pw->pw_name);
	else
		snprintf(buf, len, "uid %u", (unsigned)getuid());
}

/*
 * `history accept ID|last --why TEXT`: a deliberate new level. Relative
 * baselines then take that run (whatever its verdict) and the usable
 * runs after it, never the runs before it.
 */
static int history_accept(struct hopts *o, const char *which)
{
	struct history_db *db;
	struct history_run r;
	char err[1024], who[300];
	int64_t id = 0;
	int ret = LS_EXIT_OK;

	if (!o->why || !*o->why) {
		fprintf(stderr,
			"lockstep history accept: --why TEXT is required: say why this level is the new normal\n");
		return LS_EXIT_BAD_INPUT;
	}
	if (strcmp(which, "last")) {
		char *end;

		errno = 0;
		id = strtoll(which, &end, 10);
		if (errno || *end || id <= 0 || *which < '0' || *which > '9') {
			fprintf(stderr,
				"lockstep history accept: '%s' is no history id (a number, or last)\n",
				which);
			return LS_EXIT_BAD_INPUT;
		}
	}
	if (hist_open(o, 0, &db) < 0)
		return LS_EXIT_BAD_INPUT;
	if (!id) {
		int n = history_db_ids(db, o->file, HISTORY_IDS_ALL, NULL, &id,
				       1, err, sizeof(err));

		if (n <= 0) {
			fprintf(stderr, "lockstep history accept: %s\n",
				n < 0 ? err : "the history has no run");
			history_db_close(db);
			return LS_EXIT_BAD_INPUT;
		}
	}
	who_am_i(who, sizeof(who));
	if (history_db_accept(db, id, who, o->why, err, sizeof(err)) < 0 ||
	    history_db_load(db, id, &r, err, sizeof(err)) < 0) {
		fprintf(stderr, "lockstep history accept: %s\n", err);
		ret = LS_EXIT_BAD_INPUT;
	} else {
		printf("history id %lld (run %.8s, %s, %s, exit %d) accepted by %s: %s\n"
		       "relative baselines of %s now start at this run\n",
		       (long long)id, r.run_id, r.started, r.status,
		       r.exit_code, who, o->why, r.param_name);
		history_run_free(&r);
	}
	history_db_close(db);
	return ret;
}

/* The nearest miss over every run name and metric searched. */
struct miss {
	struct history_change c;
	const struct history_run *r;
	size_t night, nights;
	char name[HISTORY_NAME_MAX];
	int metric;
};

/* One change (or the nearest miss), with its night, size and p. */
static void change_print(const struct history_run *r, size_t night,
			 size_t nights, const char *name, int metric,
			 const struct history_change *c, int json, int kept,
			 int *first)
{
	double pct = c->before ? (c->after - c->before) / c->before * 100 : NAN;

	if (json) {
		struct jsonw w;

		printf("%s", *first ? "" : ",");
		jsonw_init(&w, stdout);
		jsonw_object(&w, NULL);
		jsonw_str(&w, "started", r->started);
		jsonw_i64(&w, "id", r->id);
		jsonw_u64(&w, "night", night + 1);
		jsonw_u64(&w, "nights", nights);
		jsonw_str(&w, "run", name);
		jsonw_str(&w, "metric", history_metric_name(metric));
		jsonw_dbl(&w, "before", c->before);
		jsonw_dbl(&w, "after", c->after);
		jsonw_dbl(&w, "change_pct", pct);
		jsonw_dbl(&w, "p_value", c->p);
		jsonw_bool(&w, "nearest_miss", !kept);
		jsonw_end(&w);
		jsonw_finish(&w);
	} else {
		printf("%s%-19.19s id %-5lld night %zu of %zu: %s %s %.3f -> %.3f (%+.1f%%), p=%.3g\n",
		       kept ? "" : "none; nearest miss: ", r->started,
		       (long long)r->id, night + 1, nights, name,
		       history_metric_name(metric), c->before, c->after, pct,
		       c->p);
	}
	*first = 0;
}

/*
 * Change points of one metric of one run name across the nights (oldest
 * first in runs[]), printed with the night each shift starts.
 */
static int changes_one(const struct history_run *runs, size_t n,
		       const char *name, int metric,
		       const struct history_changes_opts *co, int json,
		       int *first, struct miss *best)
{
	struct history_change ch[32], miss;
	double *x = malloc((n + 1) * sizeof(*x));
	size_t *at = malloc((n + 1) * sizeof(*at)), k = 0;
	int found;

	if (!x || !at) {
		free(x);
		free(at);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++)
		for (size_t q = 0; q < runs[i].nphases; q++)
			if (!strcmp(runs[i].ph[q].name, name) &&
			    isfinite(runs[i].ph[q].v[metric])) {
				x[k] = runs[i].ph[q].v[metric];
				at[k++] = i;
			}
	found = history_changes_find(x, k, co, ch, 32, &miss);
	for (int c = 0; c < found; c++)
		change_print(&runs[at[ch[c].at]], at[ch[c].at], n, name, metric,
			     &ch[c], json, 1, first);
	if (found == 0 && isfinite(miss.p) && !(best->c.p <= miss.p)) {
		best->c = miss;
		best->r = &runs[at[miss.at]];
		best->night = at[miss.at];
		best->nights = n;
		best->metric = metric;
		snprintf(best->name, sizeof(best->name), "%s", name);
	}
	free(x);
	free(at);
	return found < 0 ? found : 0;
}

static int history_changes(struct hopts *o)
{
	const struct history_changes_opts co = HISTORY_CHANGES_DEFAULTS;
	struct miss best = { .c = { .p = NAN } };
	int metric[HISTORY_NMETRICS], nm = 0, first = 1, n, ret = 0;
	char mbuf[256], err[1024], hash[20], *save = NULL, *tok;
	struct history_run *runs = NULL;
	struct history_db *db;
	int64_t *ids = NULL;

	snprintf(mbuf, sizeof(mbuf), "%s", o->metrics);
	for (tok = strtok_r(mbuf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		int m = history_metric_find(tok);

		if (m < 0 || m == HISTORY_READ_PCT || nm >= HISTORY_NMETRICS) {
			fprintf(stderr,
				"lockstep history changes: unknown metric '%s' (iops, mbps, mean, p50, p95, p99, p999)\n",
				tok);
			return LS_EXIT_BAD_INPUT;
		}
		metric[nm++] = m;
	}
	if (hist_open(o, 0, &db) < 0)
		return LS_EXIT_BAD_INPUT;
	ids = calloc(HISTORY_CHANGES_MAX_N, sizeof(*ids));
	n = ids ? history_db_ids(db, o->file, HISTORY_IDS_MEASURED, NULL, ids,
				 HISTORY_CHANGES_MAX_N, err, sizeof(err)) :
		  -ENOMEM;
	/* One parameter file: the newest run's, unless --file says which. */
	if (n > 0 && !o->file) {
		struct history_run r;

		if (history_db_load(db, ids[0], &r, err, sizeof(err)) < 0) {
			n = -EIO;
		} else {
			snprintf(hash, sizeof(hash), "%s", r.param_hash);
			history_run_free(&r);
			n = history_db_ids(db, *hash ? hash : NULL,
					   HISTORY_IDS_MEASURED, NULL, ids,
					   HISTORY_CHANGES_MAX_N, err,
					   sizeof(err));
		}
	}
	runs = n > 0 ? calloc((size_t)n, sizeof(*runs)) : NULL;
	if (n < 0 || (n > 0 && !runs)) {
		fprintf(stderr, "lockstep history changes: %s\n",
			n < 0 ? err : "out of memory");
		ret = LS_EXIT_BAD_INPUT;
		goto out;
	}
	for (int i = 0; i < n; i++) {
		ret = history_db_load(db, ids[n - 1 - i], &runs[i], err,
				      sizeof(err));
		if (ret < 0) {
			fprintf(stderr, "lockstep history changes: %s\n", err);
			n = i;
			ret = LS_EXIT_BAD_INPUT;
			goto out;
		}
	}
	if (!o->json)
		printf("change points (E-divisive means, %u permutations, seed %llu, p < %g) of %s, %d measured runs (regressions included):\n",
		       co.perms, (unsigned long long)co.seed, co.alpha,
		       n ? runs[n - 1].param_name : "-", n);
	else
		printf("[\n");
	for (size_t p = 0; n > 0 && p < runs[n - 1].nphases; p++)
		for (int m = 0; m < nm; m++)
			if (changes_one(runs, (size_t)n, runs[n - 1].ph[p].name,
					metric[m], &co, o->json, &first,
					&best) < 0)
				ret = LS_EXIT_BAD_INPUT;
	if (first && best.r)
		change_print(best.r, best.night, best.nights, best.name,
			     best.metric, &best.c, o->json, 0, &first);
	else if (first && !o->json)
		printf("none (too few nights to test a split: %d, at least %zu)\n",
		       n, 2 * co.min_seg);
	if (o->json)
		printf("]\n");
out:
	for (int i = 0; i < n; i++)
		history_run_free(&runs[i]);
	free(runs);
	free(ids);
	history_db_close(db);
	return ret;
}

int history_main(int argc, char **argv)
{
	static const char *const subs[] = { "list", "import", "changes",
					    "accept" };
	struct hopts o = { .last = 50, .metrics = "iops,p99" };
	const char *sub = argc > 1 && argv[1][0] != '-' ? argv[1] : "list";
	int args, ret, which = -1;
	const struct opts_def defs[] = {
		{ "history", 0, OPTS_STRING, &o.hist, .arg = "PATH",
		  .help = "the run history (default $LOCKSTEP_HISTORY, else " HISTORY_ROOT_DB
			  " for root, ~/.local/share/lockstep/history.db otherwise)" },
		{ "file", 0, OPTS_STRING, &o.file, .arg = "HASH|NAME",
		  .help = "only runs of this parameter file" },
		{ "last", 0, OPTS_UINT, &o.last, 1, LIST_MAX, .arg = "N",
		  .help = "list: the N newest runs (default 50)" },
		{ "metric", 0, OPTS_STRING, &o.metrics, .arg = "LIST",
		  .help = "changes: the metrics to search (default iops,p99)" },
		{ "baseline", 0, OPTS_FLAG, &o.baseline,
		  .help = "list: only the runs a relative baseline may use" },
		{ "why", 0, OPTS_STRING, &o.why, .arg = "TEXT",
		  .help = "accept: why the run is the new level (required)" },
		{ "json", 0, OPTS_FLAG, &o.json, .help = "JSON output" },
		{ .name = "help",
		  .letter = 'h',
		  .kind = OPTS_HELP,
		  .dest = &o.help },
	};
	struct opts_cmd cmd = {
		.prog = "lockstep history",
		.synopsis =
			"usage: lockstep history [list|changes] [options]\n"
			"       lockstep history import DIR... [--history PATH]\n"
			"       lockstep history accept ID|last --why TEXT",
		.footer =
			"accept: the run becomes the baseline level: median:N and last take it\n"
			"and the clean runs after it, never older ones (who, when and why are\n"
			"recorded). Without it a regression is never a baseline, so it fails\n"
			"every night until it is fixed or accepted.\n",
		.width = 22,
		.defs = defs,
		.ndefs = sizeof(defs) / sizeof(defs[0]),
		.nargs = 0,
	};

	for (int i = 0; i < 4; i++)
		if (!strcmp(sub, subs[i]))
			which = i;
	if (which < 0) {
		fprintf(stderr,
			"lockstep history: unknown command '%s' (list, import, changes or accept)\n",
			sub);
		return LS_EXIT_BAD_INPUT;
	}
	if (which == 1)
		cmd.nargs = -1;
	if (which == 3)
		cmd.nargs = 1;
	/* argv[0] is the subcommand when one was named, else "history". */
	if (argc > 1 && argv[1][0] != '-') {
		argc--;
		argv++;
	}
	ret = opts_parse(&cmd, argc, argv, &args);
	if (ret)
		return ret > 0 ? LS_EXIT_OK : LS_EXIT_BAD_INPUT;
	if (which == 1)
		return history_import(&o, argc - args, argv + args);
	if (which == 2)
		return history_changes(&o);
	if (which == 3)
		return history_accept(&o, argv[args]);
	return history_list(&o);
}
