/*
 * The Prometheus sink: a node_exporter textfile (the textfile collector
 * reads *.prom files from one folder) holding the last cluster interval,
 * each slave's last interval and the totals of every finished run, in the
 * exposition format with HELP and TYPE. The file is rewritten whole after
 * each batch: a temporary file in the same folder, then rename(), so the
 * collector never reads half a file. Nothing is written anywhere else.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "common/fsutil.h"
#include "common/log.h"
#include "master/export/export_int.h"

const char *export_prom_label(const char *s, char *out, size_t len)
{
	size_t n = 0;

	if (!len)
		return out;
	for (; s && *s; s++) {
		char c = *s;
		const char *rep = c == '\\' ? "\\\\" :
				  c == '"'  ? "\\\"" :
				  c == '\n' ? "\\n" :
					      NULL;
		size_t k = rep ? 2 : 1;

		if (n + k >= len)
			break;
		if (rep)
			memcpy(out + n, rep, 2);
		else /* a peer's host name: nothing that is not ASCII text */
			out[n] = (unsigned char)c < ' ' ||
						 (unsigned char)c >= 127 ?
					 '_' :
					 c;
		n += k;
	}
	out[n] = 0;
	return out;
}

int export_prom_check(const char *path, char *err, size_t len)
{
	char a[PATH_MAX], b[PATH_MAX];
	const char *dir, *base;
	struct stat st;
	size_t bl;

	if (!path || !*path || strlen(path) >= sizeof(a) - 16) {
		snprintf(err, len, "wants a file name");
		return -EINVAL;
	}
	snprintf(a, sizeof(a), "%s", path);
	snprintf(b, sizeof(b), "%s", path);
	dir = dirname(a);
	base = basename(b);
	bl = strlen(base);
	if (bl < 6 || strcmp(base + bl - 5, ".prom") != 0 || base[0] == '.') {
		snprintf(err, len,
			 "the textfile collector reads NAME.prom: the name must end in .prom and not start with a dot");
		return -EINVAL;
	}
	if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode)) {
		snprintf(err, len, "its folder %.200s does not exist", dir);
		return -EINVAL;
	}
	if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		snprintf(err, len,
			 "exists and is not a regular file (a symbolic link is not followed)");
		return -EINVAL;
	}
	return 0;
}

struct prom {
	char path[PATH_MAX];
	int have_cluster;
	struct export_item cluster;
	struct export_item *slave; /* the last row of each slave */
	size_t nslave, capslave;
	struct export_item *total; /* every finished run's totals */
	size_t ntotal, captotal;
	/* The last of each device (slave, device), host (slave), probe key,
	   file-system operation (of the cluster). */
	struct export_item *dev, *host, *probe, *op;
	size_t ndev, capdev, nhost, caphost, nprobe, capprobe, nop, capop;
	int failed; /* a write failure was logged */
};

static int prom_open(const struct export_opts *o, void **state, char *err,
		     size_t len)
{
	struct prom *p = calloc(1, sizeof(*p));
	int ret;

	if (!p)
		return -ENOMEM;
	ret = export_prom_check(o->prom, err, len);
	if (ret < 0) {
		free(p);
		return ret;
	}
	snprintf(p->path, sizeof(p->path), "%s", o->prom);
	*state = p;
	return 0;
}

/* Whether a and b are rows of one series: one slave, device, probe key. */
static int same_series(const struct export_item *a, const struct export_item *b)
{
	return !strcmp(a->slave, b->slave) && !strcmp(a->obj, b->obj) &&
	       !strcmp(a->key, b->key);
}

/* Keep it in *v (one row per series, replaced), growing *v as needed. */
static void keep_row(struct export_item **v, size_t *n, size_t *cap,
		     const struct export_item *it, int by_series)
{
	size_t i = *n;

	if (by_series)
		for (i = 0; i < *n; i++)
			if (same_series(&(*v)[i], it))
				break;
	if (i == *n) {
		if (*n == *cap) {
			size_t c = *cap ? 2 * *cap : 16;
			struct export_item *nv = realloc(*v, c * sizeof(*nv));

			if (!nv)
				return;
			*v = nv;
			*cap = c;
		}
		(*n)++;
	}
	(*v)[i] = *it;
}

/*
 * Prometheus wants base units: the latencies in ms go out in seconds,
 * named *_seconds (promtool's lint refuses "_ms"). m is changed in place.
 */
static void base_units(struct export_metric *m, size_t n, char (*names)[48])
{
	for (size_t k = 0; k < n; k++) {
		size_t l = strlen(m[k].name);

		if (l > 3 && !strcmp(m[k].name + l - 3, "_ms")) {
			snprintf(names[k], 48, "%.*s_seconds", (int)(l - 3),
				 m[k].name);
			m[k].name = names[k];
			m[k].x /= 1000.0;
			m[k].decimals += 3;
		}
	}
}

static void put_value(FILE *f, const struct export_metric *m)
{
	if (!isfinite(m->x))
		fputs("NaN\n", f);
	else
		fprintf(f, "%.*f\n", m->decimals, m->x);
}

/*
 * The labels of a row: a run's totals have run only, an interval row run
 * and phase and, for a slave, host and slave.
 */
static void put_labels(FILE *f, const struct export_item *it)
{
	char run[2 * EXPORT_NAME_MAX + 1], ph[40],
		host[2 * EXPORT_PEER_MAX + 1], slave[2 * EXPORT_PEER_MAX + 1];

	if (it->kind == EXPORT_PROBE) {
		fprintf(f, "{probe=\"%s\",key=\"%s\"}",
			export_prom_label(it->obj, host, sizeof(host)),
			export_prom_label(it->key, slave, sizeof(slave)));
		return;
	}
	fprintf(f, "{run=\"%s\"", export_prom_label(it->run, run, sizeof(run)));
	if (!it->totals)
		fprintf(f, ",phase=\"%s\"",
			export_prom_label(it->phase, ph, sizeof(ph)));
	if (it->slave[0])
		fprintf(f, ",host=\"%s\",slave=\"%s\"",
			export_prom_label(it->host, host, sizeof(host)),
			export_prom_label(it->slave, slave, sizeof(slave)));
	if (it->kind == EXPORT_DEVICE)
		fprintf(f, ",device=\"%s\"",
			export_prom_label(it->obj, host, sizeof(host)));
	if (it->kind == EXPORT_FSOP)
		fprintf(f, ",operation=\"%s\"",
			export_prom_label(it->obj, host, sizeof(host)));
	fputc('}', f);
}

/*
 * The metrics of a row in base units; a run's totals have neither the
 * slave counts nor an interval number (the last metric).
 */
static size_t item_metrics(const struct export_item *it,
			   struct export_metric *m, char (*names)[48])
{
	struct export_point pt;
	size_t n;

	export_item_point(it, &pt);
	if (it->totals)
		pt.slave = "totals";
	n = export_metrics(&pt, m) - (it->totals ? 1 : 0);
	if (it->kind != EXPORT_INTERVAL)
		n = export_metrics(&pt, m);
	base_units(m, n, names);
	return n;
}

/* One family per metric of rows: HELP, TYPE, then a sample per row. */
static void put_family(FILE *f, const char *family, const char *what,
		       const struct export_item *rows, size_t nrows)
{
	struct export_metric m[EXPORT_METRICS_MAX], r[EXPORT_METRICS_MAX];
	char names[EXPORT_METRICS_MAX][48], rnames[EXPORT_METRICS_MAX][48];
	size_t n;

	if (!nrows)
		return;
	n = item_metrics(&rows[0], m, names);
	for (size_t k = 0; k < n; k++) {
		fprintf(f, "# HELP %s_%s %s %s\n# TYPE %s_%s gauge\n", family,
			m[k].name, m[k].name, what, family, m[k].name);
		for (size_t i = 0; i < nrows; i++) {
			item_metrics(&rows[i], r, rnames);
			fprintf(f, "%s_%s", family, m[k].name);
			put_labels(f, &rows[i]);
			fputc(' ', f);
			put_value(f, &r[k]);
		}
	}
}

static void write_all(struct prom *p, FILE *f)
{
	put_family(f, "lockstep_interval", "of the cluster's last interval",
		   &p->cluster, (size_t)p->have_cluster);
	put_family(f, "lockstep_slave_interval",
		   "of each slave's last interval", p->slave, p->nslave);
	put_family(f, "lockstep_run",
		   "over a finished run's measured intervals", p->total,
		   p->ntotal);
	put_family(f, "lockstep_device",
		   "of each block device in its slave's last interval", p->dev,
		   p->ndev);
	put_family(f, "lockstep_host", "of each slave's host, last interval",
		   p->host, p->nhost);
	put_family(f, "lockstep_probe", "of each probe key's last sample",
		   p->probe, p->nprobe);
	put_family(f, "lockstep_op",
		   "of each file-system operation in the cluster's last interval",
		   p->op, p->nop);
}

/*
 * The whole file, atomically (fsutil_write_atomic): the temporary gets a
 * fresh name created exclusively (the folder may be writable by others: a
 * planted file or link of a guessable name is never opened), and does not
 * end in .prom, so the collector skips it.
 */
static int fill_prom(FILE *f, void *arg)
{
	write_all(arg, f);
	return 0;
}

static int prom_write(struct prom *p)
{
	/* Rewritten every interval: not fsync'ed (a crash loses one). */
	return fsutil_write_atomic(p->path, 0, fill_prom, p);
}

static size_t prom_deliver(void *state, const struct export_item *it, size_t n)
{
	struct prom *p = state;
	size_t points = 0;
	int ret;

	for (size_t i = 0; i < n; i++) {
		if (it[i].totals) {
			keep_row(&p->total, &p->ntotal, &p->captotal, &it[i],
				 0);
			continue;
		}
		points++;
		if (it[i].kind == EXPORT_DEVICE) {
			keep_row(&p->dev, &p->ndev, &p->capdev, &it[i], 1);
		} else if (it[i].kind == EXPORT_HOSTSTAT) {
			keep_row(&p->host, &p->nhost, &p->caphost, &it[i], 1);
		} else if (it[i].kind == EXPORT_PROBE) {
			keep_row(&p->probe, &p->nprobe, &p->capprobe, &it[i],
				 1);
		} else if (it[i].kind == EXPORT_FSOP) {
			/* A new run's operations replace the last run's:
			   a format's mkdir is not the next run's. */
			if (p->nop && strcmp(p->op[0].run, it[i].run))
				p->nop = 0;
			keep_row(&p->op, &p->nop, &p->capop, &it[i], 1);
		} else if (it[i].slave[0]) {
			keep_row(&p->slave, &p->nslave, &p->capslave, &it[i],
				 1);
		} else {
			p->cluster = it[i];
			p->have_cluster = 1;
		}
	}
	ret = prom_write(p);
	if (ret < 0) {
		if (!p->failed)
			log_warn("prometheus textfile %s: %s: not updated (points counted as dropped)",
				 p->path, strerror(-ret));
		p->failed = 1;
		return 0;
	}
	return points;
}

static void prom_close(void *state)
{
	struct prom *p = state;

	free(p->slave);
	free(p->total);
	free(p->dev);
	free(p->host);
	free(p->probe);
	free(p->op);
	free(p);
}

const struct export_sink_ops export_prom_ops = {
	.open = prom_open,
	.deliver = prom_deliver,
	.close = prom_close,
};
