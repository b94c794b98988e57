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

struct prom_total {
	char run[EXPORT_NAME_MAX];
	struct stats_view v;
};

struct prom {
	char path[PATH_MAX];
	char dir[PATH_MAX];
	char base[NAME_MAX + 1];
	int have_cluster;
	struct export_item cluster;
	struct export_item *slave; /* the last row of each slave */
	size_t nslave, capslave;
	struct prom_total *total;
	size_t ntotal, captotal;
	int failed; /* a write failure was logged */
};

static int prom_open(const struct export_opts *o, void **state, char *err,
		     size_t len)
{
	struct prom *p = calloc(1, sizeof(*p));
	char a[PATH_MAX], b[PATH_MAX];
	int ret;

	if (!p)
		return -ENOMEM;
	ret = export_prom_check(o->prom, err, len);
	if (ret < 0) {
		free(p);
		return ret;
	}
	snprintf(p->path, sizeof(p->path), "%s", o->prom);
	snprintf(a, sizeof(a), "%s", o->prom);
	snprintf(b, sizeof(b), "%s", o->prom);
	snprintf(p->dir, sizeof(p->dir), "%s", dirname(a));
	snprintf(p->base, sizeof(p->base), "%s", basename(b));
	*state = p;
	return 0;
}

static void keep_slave(struct prom *p, const struct export_item *it)
{
	size_t i;

	for (i = 0; i < p->nslave; i++)
		if (!strcmp(p->slave[i].slave, it->slave))
			break;
	if (i == p->nslave) {
		if (p->nslave == p->capslave) {
			size_t cap = p->capslave ? 2 * p->capslave : 16;
			struct export_item *n = realloc(p->slave,
							cap * sizeof(*n));

			if (!n)
				return;
			p->slave = n;
			p->capslave = cap;
		}
		p->nslave++;
	}
	p->slave[i] = *it;
}

static void keep_total(struct prom *p, const struct export_item *it)
{
	if (p->ntotal == p->captotal) {
		size_t cap = p->captotal ? 2 * p->captotal : 16;
		struct prom_total *n = realloc(p->total, cap * sizeof(*n));

		if (!n)
			return;
		p->total = n;
		p->captotal = cap;
	}
	snprintf(p->total[p->ntotal].run, sizeof(p->total[0].run), "%s",
		 it->run);
	p->total[p->ntotal++].v = it->v;
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

/* The labels of an interval row: run, phase and, for a slave, host, slave. */
static void put_labels(FILE *f, const struct export_item *it)
{
	char run[2 * EXPORT_NAME_MAX + 1], ph[40],
		host[2 * EXPORT_PEER_MAX + 1], slave[2 * EXPORT_PEER_MAX + 1];

	fprintf(f, "{run=\"%s\",phase=\"%s\"",
		export_prom_label(it->run, run, sizeof(run)),
		export_prom_label(it->phase, ph, sizeof(ph)));
	if (it->slave[0])
		fprintf(f, ",host=\"%s\",slave=\"%s\"",
			export_prom_label(it->host, host, sizeof(host)),
			export_prom_label(it->slave, slave, sizeof(slave)));
	fputc('}', f);
}

static void write_all(struct prom *p, FILE *f)
{
	struct export_metric m[EXPORT_METRICS_MAX];
	char names[EXPORT_METRICS_MAX][48];
	struct export_point pt;
	size_t n;

	if (p->have_cluster) {
		export_item_point(&p->cluster, &pt);
		n = export_metrics(&pt, m);
		base_units(m, n, names);
		for (size_t k = 0; k < n; k++) {
			fprintf(f,
				"# HELP lockstep_interval_%s %s of the cluster's last interval\n"
				"# TYPE lockstep_interval_%s gauge\nlockstep_interval_%s",
				m[k].name, m[k].name, m[k].name, m[k].name);
			put_labels(f, &p->cluster);
			fputc(' ', f);
			put_value(f, &m[k]);
		}
	}
	if (p->nslave) {
		export_item_point(&p->slave[0], &pt);
		n = export_metrics(&pt, m);
		base_units(m, n, names);
		for (size_t k = 0; k < n; k++) {
			fprintf(f,
				"# HELP lockstep_slave_interval_%s %s of each slave's last interval\n"
				"# TYPE lockstep_slave_interval_%s gauge\n",
				m[k].name, m[k].name, m[k].name);
			for (size_t i = 0; i < p->nslave; i++) {
				struct export_metric ms[EXPORT_METRICS_MAX];

				export_item_point(&p->slave[i], &pt);
				base_units(ms, export_metrics(&pt, ms), names);
				fprintf(f, "lockstep_slave_interval_%s",
					m[k].name);
				put_labels(f, &p->slave[i]);
				fputc(' ', f);
				put_value(f, &ms[k]);
			}
		}
	}
	if (p->ntotal) {
		struct export_point tp = { .slave = "x", .v = &p->total[0].v };

		/* A run's totals: the interval metrics but the interval's number. */
		n = export_metrics(&tp, m) - 1;
		base_units(m, n, names);
		for (size_t k = 0; k < n; k++) {
			fprintf(f,
				"# HELP lockstep_run_%s %s over a finished run's measured intervals\n"
				"# TYPE lockstep_run_%s gauge\n",
				m[k].name, m[k].name, m[k].name);
			for (size_t i = 0; i < p->ntotal; i++) {
				struct export_metric ms[EXPORT_METRICS_MAX];
				char run[2 * EXPORT_NAME_MAX + 1];

				tp.v = &p->total[i].v;
				base_units(ms, export_metrics(&tp, ms), names);
				fprintf(f, "lockstep_run_%s{run=\"%s\"} ",
					m[k].name,
					export_prom_label(p->total[i].run, run,
							  sizeof(run)));
				put_value(f, &ms[k]);
			}
		}
	}
}

/*
 * The whole file, atomically: a temporary beside it, then rename(). The
 * temporary gets a fresh name created exclusively (the folder may be
 * writable by others: a planted file or link of a guessable name is never
 * opened), and does not end in .prom, so the collector skips it.
 */
static int prom_write(struct prom *p)
{
	char tmp[PATH_MAX + NAME_MAX + 16];
	FILE *f;
	int fd, ret = 0;

	snprintf(tmp, sizeof(tmp), "%s/.%s.XXXXXX", p->dir, p->base);
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0)
		return -errno;
	f = fchmod(fd, 0644) == 0 ? fdopen(fd, "w") : NULL;
	if (!f) {
		ret = -errno;
		close(fd);
		unlink(tmp);
		return ret;
	}
	write_all(p, f);
	if (fflush(f) != 0 || ferror(f))
		ret = -EIO;
	if (fclose(f) != 0 && !ret)
		ret = -errno;
	if (!ret && rename(tmp, p->path) < 0)
		ret = -errno;
	if (ret)
		unlink(tmp);
	return ret;
}

static size_t prom_deliver(void *state, const struct export_item *it, size_t n)
{
	struct prom *p = state;
	size_t points = 0;
	int ret;

	for (size_t i = 0; i < n; i++) {
		if (it[i].totals) {
			keep_total(p, &it[i]);
			continue;
		}
		points++;
		if (it[i].slave[0]) {
			keep_slave(p, &it[i]);
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
	free(p);
}

const struct export_sink_ops export_prom_ops = {
	.open = prom_open,
	.deliver = prom_deliver,
	.close = prom_close,
};
