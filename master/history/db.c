/*
 * The run history: one SQLite file (lockstep-output/history.db by
 * default) with a row per run, a row per run of it (rd, loop, curve
 * point) with its totals, and a row per measured interval with the
 * cluster series. A run is written in one transaction, so a history holds
 * a run whole or not at all; a busy database is waited for a few seconds,
 * then refused with a message, never blocked on forever. The results
 * folder stays the source of truth: this is an index of it, and `history
 * import` rebuilds it.
 */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sqlite3.h>
#include <limits.h>
#include <pwd.h>
#include "common/fsutil.h"
#include "master/history/history_int.h"

#define BUSY_MS 5000

/* ---- where the history lives ------------------------------------------- */

int history_default_for(const char *env, unsigned uid, const char *xdg,
			const char *home, char *buf, size_t len)
{
	int n;

	if (env && *env)
		n = snprintf(buf, len, "%s", env);
	else if (uid == 0)
		n = snprintf(buf, len, "%s", HISTORY_ROOT_DB);
	else if (xdg && *xdg == '/')
		n = snprintf(buf, len, "%s/lockstep/history.db", xdg);
	else if (home && *home == '/')
		n = snprintf(buf, len, "%s/.local/share/lockstep/history.db",
			     home);
	else
		return -ENOENT;
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

const char *history_default_path(const char *opt, char *buf, size_t len)
{
	struct passwd *pw;
	const char *home = getenv("HOME");

	if (opt)
		return opt;
	if ((!home || *home != '/') && (pw = getpwuid(getuid())))
		home = pw->pw_dir;
	if (history_default_for(getenv("LOCKSTEP_HISTORY"), (unsigned)geteuid(),
				getenv("XDG_DATA_HOME"), home, buf, len) < 0)
		snprintf(buf, len, "history.db");
	return buf;
}

void history_make_parent(const char *path)
{
	char dir[PATH_MAX];
	const char *slash = strrchr(path, '/');

	if (!slash || slash == path || (size_t)(slash - path) >= sizeof(dir))
		return;
	snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
	fsutil_mkdir_p(dir);
}

/* ---- the database ------------------------------------------------------ */

struct history_db {
	sqlite3 *h;
	char path[4096];
};

static const char schema[] =
	"CREATE TABLE IF NOT EXISTS runs("
	" id INTEGER PRIMARY KEY AUTOINCREMENT,"
	" run_id TEXT UNIQUE NOT NULL, started TEXT, ended TEXT,"
	" status TEXT, exit_code INTEGER, host TEXT, engine TEXT,"
	" slaves TEXT, hosts TEXT, nslaves INTEGER, param_name TEXT,"
	" param_hash TEXT, param_text TEXT, plan TEXT, dir TEXT,"
	" recorded TEXT DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ','now')),"
	" verdict TEXT, insecure INTEGER);"
	"CREATE INDEX IF NOT EXISTS runs_file ON runs(param_hash, started);"
	"CREATE TABLE IF NOT EXISTS phases("
	" run INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
	" idx INTEGER NOT NULL, name TEXT NOT NULL, kind TEXT,"
	" elapsed_s REAL, warmup_s REAL, interval_s REAL, iorate REAL,"
	" errors INTEGER, iops REAL, mbps REAL, lat_mean_ms REAL,"
	" lat_p50_ms REAL, lat_p95_ms REAL, lat_p99_ms REAL,"
	" lat_p999_ms REAL, read_pct REAL, PRIMARY KEY(run, idx));"
	"CREATE TABLE IF NOT EXISTS intervals("
	" run INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
	" phase INTEGER NOT NULL, seq INTEGER NOT NULL, iops REAL,"
	" mbps REAL, resp_ms REAL, p95_ms REAL, p99_ms REAL,"
	" PRIMARY KEY(run, phase, seq));"
	"CREATE TABLE IF NOT EXISTS accepts("
	" id INTEGER PRIMARY KEY AUTOINCREMENT,"
	" run INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
	" who TEXT, at TEXT, why TEXT);";

/*
 * Version 2 added the verdict a run printed (runs.verdict), whether it ran
 * --insecure (runs.insecure; NULL for runs recorded before) and the
 * accepted levels (accepts). A version-1 history is migrated in place, in
 * one transaction; its runs keep the exit code they were recorded with.
 */
#define SCHEMA_VERSION 2
static const char migrate_v1[] = "ALTER TABLE runs ADD COLUMN verdict TEXT;"
				 "ALTER TABLE runs ADD COLUMN insecure INTEGER;";

static int db_err(struct history_db *db, const char *what, char *err,
		  size_t errlen)
{
	int code = sqlite3_errcode(db->h);

	snprintf(err, errlen, "history %s: %s: %s%s", db->path, what,
		 sqlite3_errmsg(db->h),
		 code == SQLITE_BUSY || code == SQLITE_LOCKED ?
			 " (another lockstep holds it; try again)" :
		 code == SQLITE_CORRUPT || code == SQLITE_NOTADB ?
			 " (move it aside; `lockstep history import` rebuilds it from the results folders)" :
			 "");
	switch (code) {
	case SQLITE_BUSY:
	case SQLITE_LOCKED:
		return -EBUSY;
	case SQLITE_CORRUPT:
	case SQLITE_NOTADB:
		return -EBADMSG;
	case SQLITE_READONLY:
	case SQLITE_PERM:
	case SQLITE_AUTH:
		return -EACCES;
	case SQLITE_FULL:
		return -ENOSPC;
	case SQLITE_CANTOPEN:
		return -ENOENT;
	default:
		return -EIO;
	}
}

const char *history_db_path(const struct history_db *db)
{
	return db->path;
}

static int user_version(sqlite3 *h)
{
	sqlite3_stmt *st;
	int v = -1;

	if (sqlite3_prepare_v2(h, "PRAGMA user_version", -1, &st, NULL) !=
	    SQLITE_OK)
		return -1;
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return v;
}

/*
 * The schema of a new history, or an older one migrated: 0 or -errno with
 * why in err.
 */
static int db_setup(struct history_db *db, char *err, size_t errlen)
{
	char sql[64];
	int v, ok, ret;

	if (sqlite3_exec(db->h, "BEGIN IMMEDIATE", NULL, NULL, NULL) !=
	    SQLITE_OK)
		return db_err(db, "cannot read or set up", err, errlen);
	v = user_version(db->h);
	if (v > SCHEMA_VERSION) {
		sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL);
		snprintf(err, errlen,
			 "history %s: schema version %d is newer than this lockstep's %d: use a newer lockstep",
			 db->path, v, SCHEMA_VERSION);
		return -EPROTO;
	}
	snprintf(sql, sizeof(sql), "PRAGMA user_version=%d;", SCHEMA_VERSION);
	ok = v >= 0 &&
	     (v != 1 ||
	      sqlite3_exec(db->h, migrate_v1, NULL, NULL, NULL) == SQLITE_OK) &&
	     sqlite3_exec(db->h, schema, NULL, NULL, NULL) == SQLITE_OK &&
	     (v == SCHEMA_VERSION ||
	      sqlite3_exec(db->h, sql, NULL, NULL, NULL) == SQLITE_OK) &&
	     sqlite3_exec(db->h, "COMMIT", NULL, NULL, NULL) == SQLITE_OK;
	if (ok)
		return 0;
	ret = db_err(db,
		     v == 1 ? "cannot migrate from schema version 1" :
			      "cannot read or set up",
		     err, errlen);
	sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL);
	return ret;
}

int history_db_open(const char *path, int create, struct history_db **out,
		    char *err, size_t errlen)
{
	struct history_db *db = calloc(1, sizeof(*db));
	int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOFOLLOW, ret;

	*out = NULL;
	if (!db)
		return -ENOMEM;
	snprintf(db->path, sizeof(db->path), "%s", path);
	if (create) {
		/* Parameter files are in it: readable by its owner only. */
		int fd = open(path,
			      O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
				      O_CLOEXEC,
			      0600);

		if (fd >= 0)
			close(fd);
		flags |= SQLITE_OPEN_CREATE;
	}
	if (sqlite3_open_v2(path, &db->h, flags, NULL) != SQLITE_OK) {
		ret = db->h ? db_err(db, "cannot open", err, errlen) : -ENOMEM;
		if (!create && ret == -ENOENT)
			snprintf(err, errlen,
				 "history %s: no such file (lockstep run records there; --history or LOCKSTEP_HISTORY choose another)",
				 path);
		goto fail;
	}
	sqlite3_busy_timeout(db->h, BUSY_MS);
	sqlite3_extended_result_codes(db->h, 0);
	ret = 0;
	if (sqlite3_exec(db->h, "PRAGMA foreign_keys=ON;", NULL, NULL, NULL) !=
		    SQLITE_OK ||
	    (ret = db_setup(db, err, errlen)) < 0) {
		if (ret == 0)
			ret = db_err(db, "cannot read or set up", err, errlen);
		goto fail;
	}
	*out = db;
	return 0;
fail:
	sqlite3_close(db->h);
	free(db);
	return ret;
}

void history_db_close(struct history_db *db)
{
	if (!db)
		return;
	sqlite3_close(db->h);
	free(db);
}

static void bind_num(sqlite3_stmt *st, int i, double v)
{
	if (isfinite(v))
		sqlite3_bind_double(st, i, v);
	else
		sqlite3_bind_null(st, i);
}

static void bind_str(sqlite3_stmt *st, int i, const char *s)
{
	if (s)
		sqlite3_bind_text(st, i, s, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(st, i);
}

static int insert_run(sqlite3 *h, const struct history_run *r, int64_t *id)
{
	sqlite3_stmt *st;
	int ret;

	if (sqlite3_prepare_v2(h,
			       "INSERT INTO runs(run_id,started,ended,status,exit_code,"
			       "host,engine,slaves,hosts,nslaves,param_name,param_hash,"
			       "param_text,plan,dir,verdict,insecure) "
			       "VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
			       -1, &st, NULL) != SQLITE_OK)
		return -1;
	bind_str(st, 1, r->run_id);
	bind_str(st, 2, r->started);
	bind_str(st, 3, r->ended);
	bind_str(st, 4, r->status);
	sqlite3_bind_int(st, 5, r->exit_code);
	bind_str(st, 6, r->host);
	bind_str(st, 7, r->engine);
	bind_str(st, 8, r->slaves);
	bind_str(st, 9, r->hosts);
	sqlite3_bind_int(st, 10, (int)r->nslaves);
	bind_str(st, 11, r->param_name);
	bind_str(st, 12, r->param_hash);
	bind_str(st, 13, r->param_text);
	bind_str(st, 14, r->plan);
	bind_str(st, 15, r->dir);
	bind_str(st, 16, *r->verdict ? r->verdict : NULL);
	sqlite3_bind_int(st, 17, r->insecure);
	ret = sqlite3_step(st) == SQLITE_DONE ? 0 : -1;
	sqlite3_finalize(st);
	*id = sqlite3_last_insert_rowid(h);
	return ret;
}

static int insert_phases(sqlite3 *h, const struct history_run *r, int64_t id)
{
	sqlite3_stmt *ps = NULL, *is = NULL;
	int ret = -1;

	if (sqlite3_prepare_v2(h,
			       "INSERT INTO phases(run,idx,name,kind,elapsed_s,warmup_s,"
			       "interval_s,iorate,errors,iops,mbps,lat_mean_ms,lat_p50_ms,"
			       "lat_p95_ms,lat_p99_ms,lat_p999_ms,read_pct) "
			       "VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
			       -1, &ps, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(h,
			       "INSERT INTO intervals(run,phase,seq,iops,mbps,"
			       "resp_ms,p95_ms,p99_ms) VALUES(?,?,?,?,?,?,?,?)",
			       -1, &is, NULL) != SQLITE_OK)
		goto out;
	for (size_t i = 0; i < r->nphases; i++) {
		const struct history_phase *p = &r->ph[i];

		sqlite3_reset(ps);
		sqlite3_bind_int64(ps, 1, id);
		sqlite3_bind_int64(ps, 2, (int64_t)i);
		bind_str(ps, 3, p->name);
		bind_str(ps, 4, p->kind);
		bind_num(ps, 5, p->elapsed_s);
		bind_num(ps, 6, p->warmup_s);
		bind_num(ps, 7, p->interval_s);
		bind_num(ps, 8, p->iorate);
		sqlite3_bind_int64(ps, 9, (int64_t)p->errors);
		for (int m = 0; m < HISTORY_NMETRICS; m++)
			bind_num(ps, 10 + m, p->v[m]);
		if (sqlite3_step(ps) != SQLITE_DONE)
			goto out;
		for (size_t k = 0; k < p->n; k++) {
			sqlite3_reset(is);
			sqlite3_bind_int64(is, 1, id);
			sqlite3_bind_int64(is, 2, (int64_t)i);
			sqlite3_bind_int64(is, 3, (int64_t)k);
			for (int s = 0; s < HISTORY_NSERIES; s++)
				bind_num(is, 4 + s, p->series[s][k]);
			if (sqlite3_step(is) != SQLITE_DONE)
				goto out;
		}
	}
	ret = 0;
out:
	sqlite3_finalize(ps);
	sqlite3_finalize(is);
	return ret;
}

int history_db_record(struct history_db *db, const struct history_run *r,
		      int64_t *id, char *err, size_t errlen)
{
	int64_t old = history_db_find(db, r->run_id);
	int ret;

	if (old < 0)
		return db_err(db, "cannot record the run", err, errlen);
	if (old > 0) {
		*id = old;
		snprintf(err, errlen, "run %s is already in %s as id %lld",
			 r->run_id, db->path, (long long)old);
		return -EEXIST;
	}
	if (sqlite3_exec(db->h, "BEGIN IMMEDIATE", NULL, NULL, NULL) !=
	    SQLITE_OK)
		return db_err(db, "cannot record the run", err, errlen);
	if (insert_run(db->h, r, id) < 0 || insert_phases(db->h, r, *id) < 0) {
		ret = db_err(db, "cannot record the run", err, errlen);
		sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL);
		return ret;
	}
	if (sqlite3_exec(db->h, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
		ret = db_err(db, "cannot record the run", err, errlen);
		sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL);
		return ret;
	}
	return 0;
}

int64_t history_db_find(struct history_db *db, const char *run_id)
{
	sqlite3_stmt *st;
	int64_t id = 0;
	int rc;

	if (sqlite3_prepare_v2(db->h, "SELECT id FROM runs WHERE run_id=?", -1,
			       &st, NULL) != SQLITE_OK)
		return -EIO;
	bind_str(st, 1, run_id);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		id = sqlite3_column_int64(st, 0);
	else if (rc != SQLITE_DONE)
		id = -EIO;
	sqlite3_finalize(st);
	return id;
}

static char *col_dup(sqlite3_stmt *st, int i)
{
	const unsigned char *s = sqlite3_column_text(st, i);

	return s ? strdup((const char *)s) : NULL;
}

static int load_series(sqlite3 *h, int64_t id, struct history_run *r)
{
	sqlite3_stmt *st;
	int ret = 0;

	if (sqlite3_prepare_v2(h,
			       "SELECT phase,iops,mbps,resp_ms,p95_ms,p99_ms "
			       "FROM intervals WHERE run=? ORDER BY phase,seq",
			       -1, &st, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_int64(st, 1, id);
	while (sqlite3_step(st) == SQLITE_ROW) {
		int64_t k = sqlite3_column_int64(st, 0);
		double v[HISTORY_NSERIES];

		if (k < 0 || (size_t)k >= r->nphases)
			continue;
		for (int s = 0; s < HISTORY_NSERIES; s++)
			v[s] = history_load_col(st, 1 + s);
		if (history_load_push(&r->ph[k], v) < 0) {
			ret = -1;
			break;
		}
	}
	sqlite3_finalize(st);
	return ret;
}

static int load_phases(sqlite3 *h, int64_t id, struct history_run *r)
{
	sqlite3_stmt *st;
	int ret = 0;

	if (sqlite3_prepare_v2(h,
			       "SELECT name,kind,elapsed_s,warmup_s,interval_s,iorate,"
			       "errors,iops,mbps,lat_mean_ms,lat_p50_ms,lat_p95_ms,"
			       "lat_p99_ms,lat_p999_ms,read_pct,"
			       "(SELECT count(*) FROM phases WHERE run=?1) "
			       "FROM phases WHERE run=?1 ORDER BY idx",
			       -1, &st, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_int64(st, 1, id);
	while (sqlite3_step(st) == SQLITE_ROW) {
		struct history_phase *p;

		if (!r->ph) {
			r->ph = calloc((size_t)sqlite3_column_int64(st, 15) + 1,
				       sizeof(*r->ph));
			if (!r->ph) {
				ret = -1;
				break;
			}
		}
		p = &r->ph[r->nphases++];
		history_load_str(st, 0, p->name, sizeof(p->name));
		history_load_str(st, 1, p->kind, sizeof(p->kind));
		p->elapsed_s = history_load_col(st, 2);
		p->warmup_s = history_load_col(st, 3);
		p->interval_s = history_load_col(st, 4);
		p->iorate = history_load_col(st, 5);
		p->errors = (uint64_t)sqlite3_column_int64(st, 6);
		for (int m = 0; m < HISTORY_NMETRICS; m++)
			p->v[m] = history_load_col(st, 7 + m);
	}
	sqlite3_finalize(st);
	return ret;
}

int history_db_load(struct history_db *db, int64_t id, struct history_run *r,
		    char *err, size_t errlen)
{
	sqlite3_stmt *st;
	int found = 0;

	memset(r, 0, sizeof(*r));
	if (sqlite3_prepare_v2(db->h,
			       "SELECT run_id,started,ended,status,exit_code,host,engine,"
			       "slaves,hosts,nslaves,param_name,param_hash,param_text,plan,"
			       "dir,verdict,"
			       "(SELECT count(*) FROM accepts WHERE run=?1),"
			       "insecure "
			       "FROM runs WHERE id=?1",
			       -1, &st, NULL) != SQLITE_OK)
		return db_err(db, "cannot read", err, errlen);
	sqlite3_bind_int64(st, 1, id);
	if (sqlite3_step(st) == SQLITE_ROW) {
		found = 1;
		r->id = id;
		history_load_str(st, 0, r->run_id, sizeof(r->run_id));
		history_load_str(st, 1, r->started, sizeof(r->started));
		history_load_str(st, 2, r->ended, sizeof(r->ended));
		history_load_str(st, 3, r->status, sizeof(r->status));
		r->exit_code = sqlite3_column_int(st, 4);
		history_load_str(st, 5, r->host, sizeof(r->host));
		history_load_str(st, 6, r->engine, sizeof(r->engine));
		r->slaves = col_dup(st, 7);
		r->hosts = col_dup(st, 8);
		r->nslaves = (unsigned)sqlite3_column_int(st, 9);
		history_load_str(st, 10, r->param_name, sizeof(r->param_name));
		history_load_str(st, 11, r->param_hash, sizeof(r->param_hash));
		r->param_text = col_dup(st, 12);
		r->plan = col_dup(st, 13);
		history_load_str(st, 14, r->dir, sizeof(r->dir));
		history_load_str(st, 15, r->verdict, sizeof(r->verdict));
		r->accepted = sqlite3_column_int(st, 16) > 0;
		r->insecure = sqlite3_column_int(st, 17) != 0;
	}
	sqlite3_finalize(st);
	if (!found) {
		snprintf(err, errlen, "history %s: no run with id %lld",
			 db->path, (long long)id);
		return -ENOENT;
	}
	snprintf(r->label, sizeof(r->label), "history id %lld (run %.8s, %s)",
		 (long long)id, r->run_id, r->started);
	if (load_phases(db->h, id, r) < 0 || load_series(db->h, id, r) < 0) {
		int ret = db_err(db, "cannot read", err, errlen);

		history_run_free(r);
		return ret;
	}
	return 0;
}

/*
 * Which runs a list holds. A relative baseline takes only runs that ran
 * clean and were judged clean (exit 0), or that a person accepted, and
 * none older than the newest accepted run of the same file: accepting a
 * run starts a new level.
 */
static const char *const ids_where[] = {
	[HISTORY_IDS_ALL] = "1",
	[HISTORY_IDS_MEASURED] =
		"status IN ('completed','regression','uncompared')",
	[HISTORY_IDS_BASELINE] =
		"((status='completed' AND exit_code=0) OR "
		"id IN (SELECT run FROM accepts)) AND started >= "
		"coalesce((SELECT max(r.started) FROM runs r JOIN accepts a "
		"ON a.run=r.id WHERE r.param_hash=runs.param_hash),'')",
};

int history_db_ids(struct history_db *db, const char *file,
		   enum history_ids which, const char *exclude, int64_t *ids,
		   size_t max, char *err, size_t errlen)
{
	char sql[1024];
	sqlite3_stmt *st;
	size_t n = 0;
	int rc;

	snprintf(sql, sizeof(sql),
		 "SELECT id FROM runs WHERE (?1 IS NULL OR param_hash=?1 "
		 "OR param_name=?1) AND (%s) "
		 "AND (?2 IS NULL OR run_id<>?2) "
		 "ORDER BY started DESC, id DESC LIMIT ?3",
		 ids_where[which]);
	if (sqlite3_prepare_v2(db->h, sql, -1, &st, NULL) != SQLITE_OK)
		return db_err(db, "cannot read", err, errlen);
	bind_str(st, 1, file);
	bind_str(st, 2, exclude);
	sqlite3_bind_int64(st, 3, (int64_t)max);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW && n < max)
		ids[n++] = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		return db_err(db, "cannot read", err, errlen);
	return (int)n;
}

int history_db_accept(struct history_db *db, int64_t id, const char *who,
		      const char *why, char *err, size_t errlen)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(db->h,
			       "INSERT INTO accepts(run,who,at,why) SELECT id,?2,"
			       "strftime('%Y-%m-%dT%H:%M:%SZ','now'),?3 FROM runs "
			       "WHERE id=?1",
			       -1, &st, NULL) != SQLITE_OK)
		return db_err(db, "cannot accept", err, errlen);
	sqlite3_bind_int64(st, 1, id);
	bind_str(st, 2, who);
	bind_str(st, 3, why);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return db_err(db, "cannot accept", err, errlen);
	if (sqlite3_changes(db->h) != 1) {
		snprintf(err, errlen, "history %s: no run with id %lld",
			 db->path, (long long)id);
		return -ENOENT;
	}
	return 0;
}
