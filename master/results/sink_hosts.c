/*
 * hosts/<name>.csv: each slave's intervals in intervals.csv's columns
 * (the column providers' too), flushed every HOSTS_FLUSH_NS and at the
 * end of each run. The files of the names the run expects are opened
 * before any slave comes; a name that arrives with hello gets its file
 * then, and a slave whose file cannot be opened is refused (link.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "common/fsutil.h"
#include "common/log.h"
#include "common/timeutil.h"
#include "master/run/master_int.h"
#include "master/results/fmt.h"
#include "master/results/sink.h"

struct hosts {
	/* hosts/<name>.csv opened before the slaves of these names came. */
	struct rfile *pre;
	unsigned npre;
	/* Each registered slave's file, by its index in the roster. */
	struct rfile *file;
	unsigned nfile;
	uint64_t flushed; /* when the slaves' files were last flushed */
};

const struct sink_ops sink_hosts;

/*
 * A slave's name becomes a file name under hosts/: the name comes from a
 * peer, so it must pass the hd= name rule (fsutil_name_ok: no '/', no
 * leading '.', no control characters) and the path must stay inside the
 * results folder (the hello's check is the first wall, this the second).
 */
static int host_file_name(const struct run_view *rv, const char *name,
			  char *buf, size_t len)
{
	char path[PATH_MAX + 128];

	if (!fsutil_name_ok(name))
		return -EINVAL;
	if (snprintf(buf, len, "hosts/%s.csv", name) >= (int)len)
		return -ENAMETOOLONG;
	return fsutil_join_inside(rv->out->dir, buf, path, sizeof(path));
}

static int open_host_file(const struct run_view *rv, const char *name,
			  struct rfile *out)
{
	char rel[PROTO_NAME_LEN + 16];
	FILE *f;
	int ret = host_file_name(rv, name, rel, sizeof(rel));

	if (ret == 0)
		ret = results_file_open(rv, rel, out);
	if (ret < 0)
		return ret;
	f = results_w(out);
	if (f) {
		/* intervals.csv's columns, the providers' included. */
		results_csv_header(rv, f);
		results_wrote(rv, out);
	}
	return 0;
}

/*
 * The names are known before any slave comes (local-1..N, the hd= lines),
 * so their files are opened now, while no peer holds a descriptor: a storm
 * of connections cannot keep the master from opening them later. Names
 * that arrive with hello (--expect-slaves) are opened then, and a slave
 * whose file cannot be opened is refused.
 */
int results_open_expected(const struct run_view *rv)
{
	struct hosts *H = results_priv(rv, &sink_hosts);
	char name[PROTO_NAME_LEN];
	unsigned n = rv->params->nhd ? 0 : rv->opt->nlocal;
	int ret;

	for (size_t h = 0; h < rv->params->nhd; h++)
		n += rv->params->hd[h].slaves;
	if (!n)
		return 0;
	H->pre = calloc(n, sizeof(*H->pre));
	if (!H->pre)
		return -ENOMEM;
	for (unsigned i = 0; i < rv->opt->nlocal && !rv->params->nhd; i++) {
		snprintf(name, sizeof(name), "local-%u", i + 1);
		ret = open_host_file(rv, name, &H->pre[H->npre]);
		if (ret < 0)
			goto fail;
		H->npre++;
	}
	for (size_t h = 0; h < rv->params->nhd; h++)
		for (unsigned k = 0; k < rv->params->hd[h].slaves; k++) {
			roster_expected_name(&rv->params->hd[h], k, name,
					     sizeof(name));
			ret = open_host_file(rv, name, &H->pre[H->npre]);
			if (ret < 0)
				goto fail;
			H->npre++;
		}
	return 0;
fail:
	log_error("cannot write %s/hosts/%s.csv: %s", rv->out->dir, name,
		  strerror(-ret));
	return ret;
}

int results_open_slave(const struct run_view *rv, const char *name,
		       struct rfile *out)
{
	struct hosts *H = results_priv(rv, &sink_hosts);
	char rel[PROTO_NAME_LEN + 16];

	if (host_file_name(rv, name, rel, sizeof(rel)) < 0)
		return -EINVAL;
	for (unsigned i = 0; i < H->npre; i++)
		if (H->pre[i].name && !strcmp(H->pre[i].name, rel)) {
			*out = H->pre[i];
			memset(&H->pre[i], 0, sizeof(H->pre[i]));
			return 0;
		}
	return open_host_file(rv, name, out);
}

void results_slave_file(const struct run_view *rv, unsigned idx,
			struct rfile *f)
{
	struct hosts *H = results_priv(rv, &sink_hosts);

	/* The roster holds at most MAX_SLAVES: one file each, made once. */
	if (!H->file && !(H->file = calloc(MAX_SLAVES, sizeof(*H->file)))) {
		results_incomplete(rv, f->name ? f->name : "hosts/", -ENOMEM);
		results_discard(rv, f);
		return;
	}
	H->file[idx] = *f;
	memset(f, 0, sizeof(*f));
	if (idx + 1 > H->nfile)
		H->nfile = idx + 1;
}

void results_discard(const struct run_view *rv, struct rfile *r)
{
	char path[PATH_MAX + 128];

	if (!r->name)
		return;
	snprintf(path, sizeof(path), "%s/%s", rv->out->dir, r->name);
	if (r->f)
		fclose(r->f);
	r->f = NULL;
	unlink(path);
	free(r->name);
	r->name = NULL;
}

static void hosts_slave_row(const struct run_view *rv, void *priv,
			    const struct sink_slave_row *r)
{
	struct hosts *H = priv;
	unsigned idx = (unsigned)(r->s - rv->roster->slaves);
	struct rfile *csv = idx < H->nfile ? &H->file[idx] : NULL;
	FILE *f = csv ? results_w(csv) : NULL;

	if (!f)
		return;
	fmt_csv_row_tail(f, rv->ph->cur->ph.name, r->iv->seq + 1, r->note,
			 r->iv->start_ns, r->iv->end_ns, 1, 1, &r->v, r->now,
			 r->cells);
	results_wrote(rv, csv);
}

/*
 * The slaves' CSV files are flushed every HOSTS_FLUSH_NS, not per row: a
 * write per file per interval adds up with a thousand slaves.
 */
void results_flush_hosts(const struct run_view *rv, int force)
{
	struct hosts *H = results_priv(rv, &sink_hosts);
	uint64_t now = time_mono_ns();

	if (!H || (!force && now - H->flushed < HOSTS_FLUSH_NS))
		return;
	H->flushed = now;
	for (unsigned i = 0; i < H->nfile; i++)
		results_flush(rv, &H->file[i]);
}

/* Every slave's file closed (with sync); unused pre-opened ones gone. */
static void hosts_close_all(const struct run_view *rv, struct hosts *H,
			    int sync)
{
	for (unsigned i = 0; i < H->nfile; i++)
		results_file_close(rv, &H->file[i], sync);
	for (unsigned i = 0; i < H->npre; i++)
		results_discard(rv, &H->pre[i]);
}

static void hosts_end(const struct run_view *rv, void *priv)
{
	hosts_close_all(rv, priv, 1);
}

static void hosts_close(const struct run_view *rv, void *priv)
{
	struct hosts *H = priv;

	hosts_close_all(rv, H, 0);
	free(H->pre);
	H->pre = NULL;
	H->npre = 0;
	free(H->file);
	H->file = NULL;
	H->nfile = 0;
}

const struct sink_ops sink_hosts = {
	.name = "hosts/<name>.csv",
	.priv_size = sizeof(struct hosts),
	.slave_row = hosts_slave_row,
	.end = hosts_end,
	.close = hosts_close,
};
