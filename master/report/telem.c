/*
 * devices.csv and hoststats.csv for the report (see telem.h). Both have
 * intervals.csv's first columns (run, interval, phase, start_ns, end_ns)
 * and a host and a slave; a row is one slave's view of an interval. A row
 * is taken only when every cell is what its column says (a name, a whole
 * non-negative finite number, an empty cell where nothing was measured):
 * anything else is counted and left out, never guessed at.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "master/report/csvrow.h"
#include "master/report/telem.h"

/* The columns every row of both files has. */
enum {
	C_RUN,
	C_IV,
	C_PHASE,
	C_START,
	C_END,
	C_HOST,
	C_SLAVE,
	C_LATE,
	C_N,
};
static const char *const common_col[C_N] = {
	"run",    "interval", "phase", "start_ns",
	"end_ns", "host",     "slave", "late",
};

/* A row's common cells, checked. */
struct prelude {
	const char *run, *host, *slave;
	uint64_t seq, start, end;
	int warm, late;
};

/* One file's parse: its header's columns and what it saw. */
struct reader {
	int col[C_N];
	const char *const *names; /* the columns found by name: */
	int *num;                 /* their index, -1 when absent, */
	size_t nnum;              /* nnum of them, */
	size_t nnumb; /* the first nnumb numbers, the others names */
	size_t nhead;
	struct telem_stats *st;
	void *file; /* the file's own (struct devices, struct hoststats) */
};

uint64_t telem_t0(const struct telem_ref *ref, size_t nref, const char *run,
		  uint64_t fallback)
{
	for (size_t i = 0; i < nref; i++)
		if (ref[i].run && !strcmp(ref[i].run, run))
			return ref[i].t0;
	return fallback;
}

int telem_each_row(char *text, size_t len, int truncated, telem_line_fn header,
		   telem_line_fn row, void *arg, struct telem_stats *st)
{
	char *f[CSVROW_FIELDS_MAX + 1], *pos = text, *line;
	int head = 0, ret;

	if (truncated)
		csvrow_whole_lines(text, &len);
	while ((line = csvrow_next(text, len, &pos))) {
		size_t nf = csvrow_split(line, f, CSVROW_FIELDS_MAX);

		if (!head) {
			if (nf > CSVROW_FIELDS_MAX || header(arg, f, nf) < 0)
				return -EINVAL;
			head = 1;
			continue;
		}
		if (nf > CSVROW_FIELDS_MAX || !*line) {
			st->skipped += *line || nf > 1;
			continue;
		}
		ret = row(arg, f, nf);
		if (ret == -EINVAL)
			st->skipped++;
		else if (ret == -ENOSPC)
			st->over++;
		else if (ret < 0)
			return ret;
	}
	return head ? 0 : -EINVAL;
}

/*
 * The header row: the common columns must all be there (late may not:
 * then no row is late); the numbers are found by name.
 */
static int header(void *arg, char *const *f, size_t nf)
{
	struct reader *r = arg;

	csvrow_header(f, nf, common_col, C_N, r->col);
	for (size_t k = 0; k < C_N; k++)
		if (r->col[k] < 0 && k != C_LATE)
			return -EINVAL;
	csvrow_header(f, nf, r->names, r->nnum, r->num);
	r->nhead = nf;
	return 0;
}

/* The common cells of a row (nf fields f): 0, or -EINVAL to skip it. */
static int prelude(const struct reader *r, char *const *f, size_t nf,
		   struct prelude *p)
{
	const char *late = r->col[C_LATE] >= 0 ? f[r->col[C_LATE]] : "";
	const char *phase = f[r->col[C_PHASE]];

	if (nf != r->nhead)
		return -EINVAL;
	p->run = f[r->col[C_RUN]];
	p->host = f[r->col[C_HOST]];
	p->slave = f[r->col[C_SLAVE]];
	if (!csvrow_name_ok(p->run) || !csvrow_name_ok(p->host) ||
	    (*p->slave && !csvrow_name_ok(p->slave)))
		return -EINVAL;
	if (csvrow_u64(f[r->col[C_IV]], &p->seq) < 0 || p->seq == 0 ||
	    csvrow_u64(f[r->col[C_START]], &p->start) < 0 ||
	    csvrow_u64(f[r->col[C_END]], &p->end) < 0 || p->end < p->start)
		return -EINVAL;
	if (strcmp(phase, "warmup") && strcmp(phase, "measure"))
		return -EINVAL;
	p->warm = !strcmp(phase, "warmup");
	if (strcmp(late, "") && strcmp(late, "0") && strcmp(late, "1"))
		return -EINVAL;
	p->late = !strcmp(late, "1");
	return 0;
}

/* The row's numbers into v: each empty (NaN) or finite and >= 0. */
static int numbers(const struct reader *r, char *const *f, double *v)
{
	for (size_t k = 0; k < r->nnumb; k++) {
		v[k] = NAN;
		if (r->num[k] < 0)
			continue;
		if (csvrow_cell(f[r->num[k]], &v[k]) < 0 || v[k] < 0)
			return -EINVAL;
	}
	return 0;
}

/* The row's time in its run's series: -EINVAL when before its origin. */
static int row_time(const struct tseries *s, const struct prelude *p, double *t)
{
	if (p->end < s->t0)
		return -EINVAL;
	*t = (double)(p->end - s->t0) / 1e9;
	return 0;
}

/* ---- devices.csv ---------------------------------------------------- */

enum {
	DV_RS,
	DV_WS,
	DV_RMB,
	DV_WMB,
	DV_RAW,
	DV_WAW,
	DV_AQU,
	DV_UTIL,
	DV_INFL,
	DV_N,
	/* A sum's accumulators: await x I/Os and the I/Os, r and w. */
	DV_RNUM = DV_N,
	DV_RDEN,
	DV_WNUM,
	DV_WDEN,
	DV_OWN, /* 1 once the cluster's own row of the interval is in */
	DV_NSUM,
};
static const char *const dev_col[DV_N + 1] = {
	"r_s",        "w_s",    "rmbps",    "wmbps",    "r_await_ms",
	"w_await_ms", "aqu_sz", "util_pct", "inflight", "device",
};

struct devices {
	struct tstable dev;     /* (run, host, device): one row a device */
	struct tstable host;    /* (run, host, ""): its devices summed */
	struct tstable cluster; /* (run, "", ""): the cluster rows */
	const struct telem_ref *ref;
	size_t nref;
};

static void add(double *acc, double v)
{
	if (isfinite(v))
		*acc = isfinite(*acc) ? *acc + v : v;
}

static void most(double *acc, double v)
{
	if (isfinite(v) && !(*acc >= v))
		*acc = v;
}

/* A device's (or a part of the cluster's) row v into the sum acc. */
static void dev_sum(double *acc, const double *v)
{
	static const size_t sum[] = { DV_RS,  DV_WS,  DV_RMB,
				      DV_WMB, DV_AQU, DV_INFL };

	for (size_t k = 0; k < sizeof(sum) / sizeof(sum[0]); k++)
		add(&acc[sum[k]], v[sum[k]]);
	most(&acc[DV_UTIL], v[DV_UTIL]);
	if (isfinite(v[DV_RAW]) && v[DV_RS] > 0) {
		add(&acc[DV_RNUM], v[DV_RAW] * v[DV_RS]);
		add(&acc[DV_RDEN], v[DV_RS]);
	}
	if (isfinite(v[DV_WAW]) && v[DV_WS] > 0) {
		add(&acc[DV_WNUM], v[DV_WAW] * v[DV_WS]);
		add(&acc[DV_WDEN], v[DV_WS]);
	}
	acc[DV_RAW] = acc[DV_RDEN] > 0 ? acc[DV_RNUM] / acc[DV_RDEN] : NAN;
	acc[DV_WAW] = acc[DV_WDEN] > 0 ? acc[DV_WNUM] / acc[DV_WDEN] : NAN;
}

static int dev_row(void *arg, char *const *f, size_t nf)
{
	struct reader *r = arg;
	struct devices *d = r->file;
	struct prelude p;
	struct tseries *s;
	double v[DV_N], *row, t = 0;
	const char *dev;
	uint64_t t0;
	int found, ret;

	if (r->num[DV_N] < 0 || prelude(r, f, nf, &p) < 0 ||
	    numbers(r, f, v) < 0)
		return -EINVAL;
	dev = f[r->num[DV_N]];
	if (!csvrow_name_ok(dev))
		return -EINVAL;
	if (!*p.slave) {
		/* Only the cluster row has no slave. */
		if (strcmp(p.host, "cluster") || strcmp(dev, "all"))
			return -EINVAL;
		ret = tstable_get(&d->cluster, p.run, "", "",
				  telem_t0(d->ref, d->nref, p.run, p.start),
				  &s);
		if (ret == 0)
			ret = row_time(s, &p, &t);
		if (ret == 0)
			ret = tseries_row(s, DV_NSUM, p.seq, t, p.warm, &row,
					  &found);
		if (ret < 0)
			return ret;
		/* The cluster's row of an interval once (the late rows of
		   slaves may have started it). */
		if (found && row[DV_OWN] == 1) {
			r->st->dup++;
			return 0;
		}
		row[DV_OWN] = 1;
		dev_sum(row, v);
		r->st->rows++;
		r->st->late += p.late;
		return 0;
	}
	ret = tstable_get(&d->dev, p.run, p.host, dev,
			  telem_t0(d->ref, d->nref, p.run, p.start), &s);
	if (ret == 0)
		ret = row_time(s, &p, &t);
	if (ret == 0)
		ret = tseries_row(s, DV_N, p.seq, t, p.warm, &row, &found);
	if (ret < 0)
		return ret;
	if (found) {
		/* Two slaves of a host see its device: once is enough. */
		r->st->dup++;
		return 0;
	}
	memcpy(row, v, sizeof(v));
	t0 = s->t0;
	ret = tstable_get(&d->host, p.run, p.host, "", t0, &s);
	if (ret == 0)
		ret = tseries_row(s, DV_NSUM, p.seq, t, p.warm, &row, &found);
	if (ret < 0)
		return ret;
	dev_sum(row, v);
	r->st->rows++;
	r->st->late += p.late;
	if (!p.late)
		return 0;
	/* The cluster's row has the devices that came on time: a late
	   slave's device no other slave of its host gave adds to it. */
	ret = tstable_get(&d->cluster, p.run, "", "", t0, &s);
	if (ret == 0)
		ret = tseries_row(s, DV_NSUM, p.seq, t, p.warm, &row, &found);
	if (ret < 0)
		return ret;
	dev_sum(row, v);
	return 0;
}

static const char *const dev_out[] = {
	"r_s",        "w_s",    "rmbps",    "wmbps",    "r_await_ms",
	"w_await_ms", "aqu_sz", "util_pct", "inflight",
};
static const size_t dev_idx[] = { DV_RS,  DV_WS,  DV_RMB,  DV_WMB, DV_RAW,
				  DV_WAW, DV_AQU, DV_UTIL, DV_INFL };

static void dev_write_run(struct jsonw *w, const struct devices *d,
			  const char *run, uint64_t t0)
{
	jsonw_object(w, NULL);
	jsonw_str(w, "run", run);
	jsonw_u64(w, "t0_ns", t0);
	for (size_t i = 0; i < d->cluster.n; i++) {
		if (strcmp(d->cluster.s[i].run, run))
			continue;
		jsonw_object(w, "cluster");
		tseries_write(w, &d->cluster.s[i], DV_NSUM, dev_out, dev_idx,
			      DV_N);
		jsonw_end(w);
	}
	jsonw_array(w, "hosts");
	for (size_t i = 0; i < d->host.n; i++) {
		const struct tseries *h = &d->host.s[i];

		if (strcmp(h->run, run))
			continue;
		jsonw_object(w, NULL);
		jsonw_str(w, "host", h->a);
		jsonw_array(w, "devices");
		for (size_t k = 0; k < d->dev.n; k++)
			if (!strcmp(d->dev.s[k].run, run) &&
			    !strcmp(d->dev.s[k].a, h->a))
				jsonw_str(w, NULL, d->dev.s[k].b);
		jsonw_end(w);
		tseries_write(w, h, DV_NSUM, dev_out, dev_idx, DV_N);
		jsonw_end(w);
	}
	jsonw_end(w);
	jsonw_end(w);
}

int telem_devices(struct jsonw *w, const char *key, char *text, size_t len,
		  int truncated, const struct telem_ref *ref, size_t nref,
		  struct telem_stats *st)
{
	struct devices d = { .ref = ref, .nref = nref };
	int num[DV_N + 1];
	struct reader r = { .names = dev_col,
			    .num = num,
			    .nnum = DV_N + 1,
			    .nnumb = DV_N,
			    .st = st,
			    .file = &d };
	int ret;

	memset(st, 0, sizeof(*st));
	tstable_init(&d.dev, DV_N, TELEM_SERIES_MAX);
	tstable_init(&d.host, DV_NSUM, TELEM_SERIES_MAX);
	tstable_init(&d.cluster, DV_NSUM, TELEM_SERIES_MAX);
	ret = telem_each_row(text, len, truncated, header, dev_row, &r, st);
	/* The device's name is a column every row must have. */
	if (ret == 0 && num[DV_N] < 0)
		ret = -EINVAL;
	if (ret == 0)
		ret = tstable_sort(&d.host);
	if (ret == 0)
		ret = tstable_sort(&d.cluster);
	if (ret < 0)
		goto out;
	jsonw_array(w, key);
	for (size_t i = 0; i < d.cluster.n; i++)
		if (!tstable_run_seen(&d.cluster, i, d.cluster.s[i].run))
			dev_write_run(w, &d, d.cluster.s[i].run,
				      d.cluster.s[i].t0);
	for (size_t i = 0; i < d.host.n; i++)
		if (!tstable_run_seen(&d.host, i, d.host.s[i].run) &&
		    !tstable_run_seen(&d.cluster, d.cluster.n, d.host.s[i].run))
			dev_write_run(w, &d, d.host.s[i].run, d.host.s[i].t0);
	jsonw_end(w);
out:
	tstable_free(&d.dev);
	tstable_free(&d.host);
	tstable_free(&d.cluster);
	return ret;
}

/* ---- hoststats.csv -------------------------------------------------- */

enum {
	HS_USER,
	HS_SYS,
	HS_IOWAIT,
	HS_STEAL,
	HS_IDLE,
	HS_SLAVE,
	HS_PSICPU,
	HS_PSIMEM,
	HS_PSIIO,
	HS_RX,
	HS_TX,
	HS_RXP,
	HS_TXP,
	HS_N,
	HS_NIC = HS_N, /* a name, not a number */
};
static const char *const hs_col[HS_N + 1] = {
	"cpu_user_pct",     "cpu_sys_pct",
	"cpu_iowait_pct",   "cpu_steal_pct",
	"cpu_idle_pct",     "slave_cpu_pct",
	"psi_cpu_some_pct", "psi_mem_some_pct",
	"psi_io_some_pct",  "rx_mbps",
	"tx_mbps",          "rx_pps",
	"tx_pps",           "nic",
};

struct hoststats {
	struct tstable slave; /* (run, host, slave): one row an interval */
	struct tstable host;  /* (run, host, ""): the host's figures */
	struct tstable nic;   /* (run, host, nic): its traffic */
	const struct telem_ref *ref;
	size_t nref;
};

static int hs_row(void *arg, char *const *f, size_t nf)
{
	struct reader *r = arg;
	struct hoststats *h = r->file;
	struct prelude p;
	struct tseries *s;
	double v[HS_N], *row, t = 0;
	const char *nic;
	int found, ret;

	if (prelude(r, f, nf, &p) < 0 || numbers(r, f, v) < 0 || !*p.slave)
		return -EINVAL;
	nic = r->num[HS_NIC] >= 0 ? f[r->num[HS_NIC]] : "";
	if (*nic && !csvrow_name_ok(nic))
		return -EINVAL;
	/* Percent of the host's cores or of the interval: at most 100. */
	for (size_t k = HS_USER; k <= HS_PSIIO; k++)
		if (k != HS_SLAVE && v[k] > 100.5)
			return -EINVAL;
	ret = tstable_get(&h->slave, p.run, p.host, p.slave,
			  telem_t0(h->ref, h->nref, p.run, p.start), &s);
	if (ret == 0)
		ret = row_time(s, &p, &t);
	if (ret == 0)
		ret = tseries_row(s, 0, p.seq, t, p.warm, &row, &found);
	if (ret < 0)
		return ret;
	if (found) {
		r->st->dup++; /* the same slave's interval again */
		return 0;
	}
	ret = tstable_get(&h->host, p.run, p.host, "", s->t0, &s);
	if (ret == 0)
		ret = tseries_row(s, HS_N, p.seq, t, p.warm, &row, &found);
	if (ret < 0)
		return ret;
	/* The host's figures are the first slave's; its own CPU adds. */
	for (size_t k = HS_USER; k <= HS_PSIIO; k++) {
		if (k == HS_SLAVE)
			add(&row[k], v[k]);
		else if (!found || isnan(row[k]))
			row[k] = v[k];
	}
	r->st->rows++;
	r->st->late += p.late;
	if (!*nic)
		return 0;
	ret = tstable_get(&h->nic, p.run, p.host, nic, s->t0, &s);
	if (ret == 0)
		ret = tseries_row(s, HS_N, p.seq, t, p.warm, &row, &found);
	if (ret < 0)
		return ret;
	if (found) {
		r->st->dup++;
		return 0;
	}
	for (size_t k = HS_RX; k <= HS_TXP; k++)
		row[k] = v[k];
	return 0;
}

static const char *const hs_out[] = {
	"cpu_user_pct",     "cpu_sys_pct",      "cpu_iowait_pct",
	"cpu_steal_pct",    "cpu_idle_pct",     "slave_cpu_pct",
	"psi_cpu_some_pct", "psi_mem_some_pct", "psi_io_some_pct",
};
static const size_t hs_idx[] = { HS_USER,   HS_SYS,    HS_IOWAIT,
				 HS_STEAL,  HS_IDLE,   HS_SLAVE,
				 HS_PSICPU, HS_PSIMEM, HS_PSIIO };
static const char *const nic_out[] = { "rx_mbps", "tx_mbps", "rx_pps",
				       "tx_pps" };
static const size_t nic_idx[] = { HS_RX, HS_TX, HS_RXP, HS_TXP };

static void hs_write_run(struct jsonw *w, const struct hoststats *h,
			 const char *run, uint64_t t0)
{
	jsonw_object(w, NULL);
	jsonw_str(w, "run", run);
	jsonw_u64(w, "t0_ns", t0);
	jsonw_array(w, "hosts");
	for (size_t i = 0; i < h->host.n; i++) {
		const struct tseries *s = &h->host.s[i];
		uint64_t slaves = 0;

		if (strcmp(s->run, run))
			continue;
		for (size_t k = 0; k < h->slave.n; k++)
			slaves += !strcmp(h->slave.s[k].run, run) &&
				  !strcmp(h->slave.s[k].a, s->a);
		jsonw_object(w, NULL);
		jsonw_str(w, "host", s->a);
		jsonw_u64(w, "slaves", slaves);
		tseries_write(w, s, HS_N, hs_out, hs_idx,
			      sizeof(hs_idx) / sizeof(hs_idx[0]));
		jsonw_end(w);
	}
	jsonw_end(w);
	jsonw_array(w, "nics");
	for (size_t i = 0; i < h->nic.n; i++) {
		const struct tseries *s = &h->nic.s[i];

		if (strcmp(s->run, run))
			continue;
		jsonw_object(w, NULL);
		jsonw_str(w, "host", s->a);
		jsonw_str(w, "nic", s->b);
		tseries_write(w, s, HS_N, nic_out, nic_idx,
			      sizeof(nic_idx) / sizeof(nic_idx[0]));
		jsonw_end(w);
	}
	jsonw_end(w);
	jsonw_end(w);
}

int telem_hoststats(struct jsonw *w, const char *key, char *text, size_t len,
		    int truncated, const struct telem_ref *ref, size_t nref,
		    struct telem_stats *st)
{
	struct hoststats h = { .ref = ref, .nref = nref };
	int num[HS_N + 1];
	struct reader r = { .names = hs_col,
			    .num = num,
			    .nnum = HS_N + 1,
			    .nnumb = HS_N,
			    .st = st,
			    .file = &h };
	int ret;

	memset(st, 0, sizeof(*st));
	tstable_init(&h.slave, 0, TELEM_SERIES_MAX);
	tstable_init(&h.host, HS_N, TELEM_SERIES_MAX);
	tstable_init(&h.nic, HS_N, TELEM_SERIES_MAX);
	ret = telem_each_row(text, len, truncated, header, hs_row, &r, st);
	if (ret == 0)
		ret = tstable_sort(&h.host);
	if (ret == 0)
		ret = tstable_sort(&h.nic);
	if (ret < 0)
		goto out;
	jsonw_array(w, key);
	for (size_t i = 0; i < h.host.n; i++)
		if (!tstable_run_seen(&h.host, i, h.host.s[i].run))
			hs_write_run(w, &h, h.host.s[i].run, h.host.s[i].t0);
	jsonw_end(w);
out:
	tstable_free(&h.slave);
	tstable_free(&h.host);
	tstable_free(&h.nic);
	return ret;
}
