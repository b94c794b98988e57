/*
 * The master's interval merge for one phase. Samples from the slaves are
 * added into a pending row per interval, allocated only when the interval
 * receives data and recycled after it is emitted, and rows leave in order
 * of seq once every live slave has reported or the grace deadline passed.
 * A bit per (slave, seq) remembers what was already counted, so a resent
 * or late sample is counted exactly once and a duplicate never. The run
 * totals are the sum of the measured rows, each added once (dense) when it
 * is emitted or when the totals are asked for, plus the late samples: a
 * sample's histograms are added to its row and its slave's totals only.
 * The code is pure: no sockets, no clocks, no threads; time is an argument.
 */
#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "master/run/merge.h"

/* Emitted rows kept for reuse instead of freed; each is a struct stats. */
#define MERGE_SPARE_ROWS 4

struct merge_pending {
	struct stats st;
	struct fsops fs;       /* file-system phase: the other operations */
	unsigned live_reports; /* samples from slaves that are still live */
	int in_totals;         /* already added to the run totals */
	struct merge_pending *next_free;
};

struct merge {
	struct merge_cfg cfg;
	unsigned next; /* seq of the next row to emit */
	unsigned nlive;
	unsigned nlate, ndup;
	unsigned char *lost; /* per slave */
	/*
	 * Per slave: 1 + the row from which a lost slave is expected again
	 * (merge_slave_back), 0 for none; nback of them are set.
	 */
	unsigned *back_at;
	unsigned nback;
	uint64_t *seen;              /* bit per (slave, seq) already counted */
	size_t seen_words;           /* words per slave in seen */
	struct merge_pending **rows; /* pending rows by seq, or NULL */
	struct merge_pending *out;   /* last emitted row, never NULL */
	struct merge_pending *spare; /* free list */
	unsigned nspare;
	unsigned *missing;               /* nslaves entries */
	struct stats_sums *slave_totals; /* nslaves entries, no buckets */
	struct stats totals;
	struct fsops totals_fs; /* file-system phase (cfg.fsops) */
	/* What the totals will hold once every pending row is in. */
	struct stats_sums run;
	/* The same of the other file operations: count, bytes, errors,
	   latency count and sum. */
	uint64_t run_fs[FSOPS_N][5];
	/* Each slave's of the other file operations (cfg.fsops; else
	   NULL): count, bytes, errors and latency sum, measured only. */
	uint64_t (*slave_fs)[FSOPS_N][FSOPS_SUMS];
};

_Static_assert((int)PROTO_FSOP_MAX == (int)FSOPS_N,
	       "common/fsops.h numbers the operations as enum proto_fsop");

static int seen_test(const struct merge *m, unsigned slave, unsigned seq)
{
	const uint64_t *w = m->seen + (size_t)slave * m->seen_words;

	return (w[seq / 64] >> (seq % 64)) & 1;
}

static void seen_set(struct merge *m, unsigned slave, unsigned seq)
{
	uint64_t *w = m->seen + (size_t)slave * m->seen_words;

	w[seq / 64] |= UINT64_C(1) << (seq % 64);
}

static uint64_t row_start(const struct merge *m, unsigned seq)
{
	return m->cfg.start_ns + (uint64_t)seq * m->cfg.interval_ns;
}

/*
 * merge_new() made sure the last deadline fits in 64 bits, so none of the
 * interval arithmetic can overflow.
 */
static uint64_t row_deadline(const struct merge *m, unsigned seq)
{
	return row_start(m, seq + 1) + m->cfg.grace_ns;
}

static int cfg_valid(const struct merge_cfg *c)
{
	uint64_t len, end;

	if (c->nslaves < 1 || c->intervals < 1 || c->interval_ns == 0 ||
	    c->warmup_intervals > c->intervals)
		return 0;
	if (__builtin_mul_overflow((uint64_t)c->intervals, c->interval_ns,
				   &len) ||
	    __builtin_add_overflow(c->start_ns, len, &end) ||
	    __builtin_add_overflow(end, c->grace_ns, &end))
		return 0;
	return 1;
}

/*
 * A row's histograms of the other file operations stay with it when it is
 * recycled (a phase has few operations): freed only with the row.
 */
static void pending_free(struct merge_pending *p)
{
	if (p)
		fsops_release(&p->fs);
	free(p);
}

static struct merge_pending *pending_get(struct merge *m)
{
	struct merge_pending *p = m->spare;

	if (p) {
		m->spare = p->next_free;
		m->nspare--;
	} else {
		p = malloc(sizeof(*p));
		if (!p)
			return NULL;
		fsops_init(&p->fs, 0);
	}
	stats_init(&p->st);
	fsops_reset(&p->fs); /* a fresh row's are none, a spare's kept */
	p->fs.requested = m->cfg.fsops;
	p->live_reports = 0;
	p->in_totals = 0;
	p->next_free = NULL;
	return p;
}

static void pending_put(struct merge *m, struct merge_pending *p)
{
	if (m->nspare >= MERGE_SPARE_ROWS) {
		pending_free(p);
		return;
	}
	p->next_free = m->spare;
	m->spare = p;
	m->nspare++;
}

struct merge *merge_new(const struct merge_cfg *cfg)
{
	struct merge *m;
	size_t nseen;
	unsigned i;

	if (!cfg || !cfg_valid(cfg))
		return NULL;
	m = calloc(1, sizeof(*m));
	if (!m)
		return NULL;
	m->cfg = *cfg;
	m->nlive = cfg->nslaves;
	m->seen_words = ((size_t)cfg->intervals + 63) / 64;
	if (__builtin_mul_overflow(m->seen_words, (size_t)cfg->nslaves, &nseen))
		goto fail;
	m->lost = calloc(cfg->nslaves, sizeof(*m->lost));
	m->back_at = calloc(cfg->nslaves, sizeof(*m->back_at));
	m->seen = calloc(nseen, sizeof(*m->seen));
	m->rows = calloc(cfg->intervals, sizeof(*m->rows));
	m->missing = calloc(cfg->nslaves, sizeof(*m->missing));
	m->slave_totals = calloc(cfg->nslaves, sizeof(*m->slave_totals));
	if (cfg->fsops)
		m->slave_fs = calloc(cfg->nslaves, sizeof(*m->slave_fs));
	if (!m->lost || !m->back_at || !m->seen || !m->rows || !m->missing ||
	    !m->slave_totals || (cfg->fsops && !m->slave_fs))
		goto fail;
	/* Allocated here so that emitting an empty row cannot fail. */
	m->out = pending_get(m);
	if (!m->out)
		goto fail;
	stats_init(&m->totals);
	fsops_init(&m->totals_fs, cfg->fsops);
	stats_sums_init(&m->run);
	for (i = 0; i < cfg->nslaves; i++)
		stats_sums_init(&m->slave_totals[i]);
	return m;
fail:
	merge_destroy(&m);
	return NULL;
}

void merge_destroy(struct merge **mp)
{
	struct merge *m;
	struct merge_pending *p;
	unsigned i;

	if (!mp || !*mp)
		return;
	m = *mp;
	if (m->rows)
		for (i = m->next; i < m->cfg.intervals; i++)
			pending_free(m->rows[i]);
	while ((p = m->spare)) {
		m->spare = p->next_free;
		pending_free(p);
	}
	pending_free(m->out);
	fsops_release(&m->totals_fs);
	free(m->rows);
	free(m->slave_totals);
	free(m->slave_fs);
	free(m->missing);
	free(m->seen);
	free(m->lost);
	free(m->back_at);
	free(m);
	*mp = NULL;
}

static int lat_valid(const struct merge_sample *s, int d)
{
	const struct hist_sparse *h = s->lat[d];
	const char *dir = d == STATS_READ ? "read" : "write";

	if (!h || (!s->lat_valid && hist_sparse_validate(h) < 0)) {
		log_warn("merge: slave %u interval %u: malformed %s histogram",
			 s->slave, s->seq, dir);
		return 0;
	}
	if (h->count != s->ops[d]) {
		log_warn("merge: slave %u interval %u: %" PRIu64
			 " %s latencies for %" PRIu64 " ops",
			 s->slave, s->seq, h->count, dir, s->ops[d]);
		return 0;
	}
	return 1;
}

/*
 * The other file operations: only in a file-system phase, each of
 * create..move once in increasing order, each histogram well formed and
 * holding the operation's count.
 */
static int fsops_valid(const struct merge *m, const struct merge_sample *s)
{
	unsigned prev = FSOPS_WRITE;

	if (s->nfsops && !m->cfg.fsops) {
		log_warn("merge: slave %u interval %u: file operations in a block phase",
			 s->slave, s->seq);
		return 0;
	}
	if (s->nfsops && !s->fsops) {
		log_warn("merge: slave %u interval %u: file operations missing",
			 s->slave, s->seq);
		return 0;
	}
	for (unsigned i = 0; i < s->nfsops; i++) {
		const struct proto_fsop_stat *o = &s->fsops[i];

		if (o->op <= prev || o->op >= FSOPS_N) {
			log_warn("merge: slave %u interval %u: file operation %u out of order or unknown",
				 s->slave, s->seq, o->op);
			return 0;
		}
		prev = o->op;
		if (!s->lat_valid && hist_sparse_validate(&o->lat) < 0) {
			log_warn("merge: slave %u interval %u: malformed %s histogram",
				 s->slave, s->seq, fsops_name(o->op));
			return 0;
		}
		if (o->lat.count != o->count) {
			log_warn("merge: slave %u interval %u: %" PRIu64
				 " %s latencies for %" PRIu64 " operations",
				 s->slave, s->seq, o->lat.count,
				 fsops_name(o->op), o->count);
			return 0;
		}
	}
	return 1;
}

/*
 * Everything a sample carries is checked before any of it is added, and
 * the reason for a refusal is logged here, the only place that knows it.
 */
static int sample_valid(const struct merge *m, const struct merge_sample *s)
{
	if (s->slave >= m->cfg.nslaves) {
		log_warn("merge: interval from slave %u of %u: no such slave",
			 s->slave, m->cfg.nslaves);
		return 0;
	}
	if (s->seq >= m->cfg.intervals) {
		log_warn("merge: slave %u: interval %u of %u: out of range",
			 s->slave, s->seq, m->cfg.intervals);
		return 0;
	}
	return lat_valid(s, STATS_READ) && lat_valid(s, STATS_WRITE) &&
	       fsops_valid(m, s);
}

/*
 * A sample's histograms are validated once, by sample_valid(), and then
 * added to its row and its slave's totals (and, late, the run totals)
 * unchecked. What hist_add_sparse() would still refuse is a wrapped count
 * or sum: a peer can declare any sum, so every destination is checked here
 * before the first one is touched, which keeps a refused sample from being
 * half counted.
 */
static int sums_fit(uint64_t count, uint64_t sum, const struct hist_sparse *s)
{
	uint64_t x;

	return !__builtin_add_overflow(count, s->count, &x) &&
	       !__builtin_add_overflow(sum, s->sum, &x);
}

static int hist_fits(const struct hist *dst, const struct hist_sparse *s)
{
	return sums_fit(dst->count, dst->sum, s);
}

/* a + b + c + d without wrapping (the view adds directions together). */
static int fits4(uint64_t a, uint64_t b, uint64_t c, uint64_t d)
{
	return (unsigned __int128)a + b + c + d <= UINT64_MAX;
}

/*
 * The counters of a struct stats or struct stats_sums (same names) plus
 * sample s's, each alone and each pair a view adds together (read + write
 * ops and bytes, user + system CPU), without wrapping. A sample's ops
 * equal its histogram counts (sample_valid), so the latency counts cover
 * them alone.
 */
#define COUNTERS_FIT(st, s)                                             \
	(fits4((st)->ops[0], (st)->ops[1], (s)->ops[0], (s)->ops[1]) && \
	 fits4((st)->bytes[0], (s)->bytes[0], 0, 0) &&                  \
	 fits4((st)->bytes[1], (s)->bytes[1], 0, 0) &&                  \
	 fits4((st)->bytes[0], (st)->bytes[1], (s)->bytes[0],           \
	       (s)->bytes[1]) &&                                        \
	 fits4((st)->errors, (s)->errors, 0, 0) &&                      \
	 fits4((st)->cpu_user_ns, (st)->cpu_sys_ns, (s)->cpu_user_ns,   \
	       (s)->cpu_sys_ns) &&                                      \
	 fits4((st)->cpu_avail_ns, (s)->cpu_avail_ns, 0, 0))

static int stats_fits(const struct stats *st, const struct merge_sample *s)
{
	return hist_fits(&st->lat[0], s->lat[0]) &&
	       hist_fits(&st->lat[1], s->lat[1]) && COUNTERS_FIT(st, s);
}

static int fs_fits(const struct fsops *fs, const struct merge_sample *s)
{
	for (unsigned i = 0; i < s->nfsops; i++) {
		const struct proto_fsop_stat *o = &s->fsops[i];

		if (!fsops_fits(fs, o->op, o->count, o->bytes, o->errors,
				&o->lat))
			return 0;
	}
	return 1;
}

/* The run's sums of the other operations (run_fs) plus s's. */
static int run_fs_fits(const struct merge *m, const struct merge_sample *s)
{
	for (unsigned i = 0; i < s->nfsops; i++) {
		const struct proto_fsop_stat *o = &s->fsops[i];
		const uint64_t *r = m->run_fs[o->op];

		if (!fits4(r[0], o->count, 0, 0) ||
		    !fits4(r[1], o->bytes, 0, 0) ||
		    !fits4(r[2], o->errors, 0, 0) ||
		    !fits4(r[3], o->lat.count, 0, 0) ||
		    !fits4(r[4], o->lat.sum, 0, 0))
			return 0;
	}
	return 1;
}

/* s's other operations into fs, which reserved them (fs_reserve). */
static void fs_add_sample(struct fsops *fs, const struct merge_sample *s)
{
	for (unsigned i = 0; i < s->nfsops; i++) {
		const struct proto_fsop_stat *o = &s->fsops[i];

		fsops_add_sparse(fs, o->op, o->count, o->bytes, o->errors,
				 &o->lat);
	}
}

/* Room in fs for s's other operations: 0 or -ENOMEM (nothing counted). */
static int fs_reserve(struct fsops *fs, const struct merge_sample *s)
{
	for (unsigned i = 0; i < s->nfsops; i++)
		if (fsops_reserve(fs, s->fsops[i].op) < 0)
			return -ENOMEM;
	return 0;
}

static int sums_fit_sample(const struct stats_sums *st,
			   const struct merge_sample *s)
{
	return sums_fit(st->lat[0].count, st->lat[0].sum, s->lat[0]) &&
	       sums_fit(st->lat[1].count, st->lat[1].sum, s->lat[1]) &&
	       COUNTERS_FIT(st, s);
}

/*
 * The counters a struct stats and a struct stats_sums share (they differ
 * only in how they keep latency), added from sample s.
 */
#define ADD_COUNTERS(st, s)                                \
	do {                                               \
		for (int d_ = 0; d_ < 2; d_++) {           \
			(st)->ops[d_] += (s)->ops[d_];     \
			(st)->bytes[d_] += (s)->bytes[d_]; \
		}                                          \
		(st)->errors += (s)->errors;               \
		(st)->cpu_user_ns += (s)->cpu_user_ns;     \
		(st)->cpu_sys_ns += (s)->cpu_sys_ns;       \
		(st)->cpu_avail_ns += (s)->cpu_avail_ns;   \
		(st)->samples++;                           \
	} while (0)

/* s passed sample_valid() and sums_fit_sample(st, s). */
static void sums_add_sample(struct stats_sums *st, const struct merge_sample *s)
{
	ADD_COUNTERS(st, s);
	for (int d = 0; d < 2; d++) {
		const struct hist_sparse *h = s->lat[d];
		struct stats_lat_sums *l = &st->lat[d];

		if (!h->count)
			continue;
		l->count += h->count;
		l->sum += h->sum;
		l->sumsq += h->sumsq;
		if (h->min < l->min)
			l->min = h->min;
		if (h->max > l->max)
			l->max = h->max;
	}
}

/* s passed sample_valid() and stats_fits(st, s). */
static void stats_add_sample(struct stats *st, const struct merge_sample *s)
{
	ADD_COUNTERS(st, s);
	hist_add_sparse_unchecked(&st->lat[STATS_READ], s->lat[STATS_READ]);
	hist_add_sparse_unchecked(&st->lat[STATS_WRITE], s->lat[STATS_WRITE]);
}

/*
 * Slave totals, and the sums the run totals will reach: measured intervals
 * only. The sample itself enters the run totals directly only when its row
 * is no longer on the way there (direct set).
 */
static void add_totals(struct merge *m, const struct merge_sample *s,
		       int direct)
{
	if (s->seq < m->cfg.warmup_intervals)
		return;
	sums_add_sample(&m->run, s);
	sums_add_sample(&m->slave_totals[s->slave], s);
	for (unsigned i = 0; i < s->nfsops; i++) {
		const struct proto_fsop_stat *o = &s->fsops[i];
		uint64_t *r = m->run_fs[o->op];

		r[0] += o->count;
		r[1] += o->bytes;
		r[2] += o->errors;
		r[3] += o->lat.count;
		r[4] += o->lat.sum;
		if (m->slave_fs) {
			/* At most the run's sums, which fit (totals_fit). */
			uint64_t *t = m->slave_fs[s->slave][o->op];

			t[FSOPS_SUM_COUNT] += o->count;
			t[FSOPS_SUM_BYTES] += o->bytes;
			t[FSOPS_SUM_ERRORS] += o->errors;
			t[FSOPS_SUM_LAT] += o->lat.sum;
		}
	}
	if (direct) {
		stats_add_sample(&m->totals, s);
		fs_add_sample(&m->totals_fs, s);
	}
}

/* Whether the sample's sums still fit in every total it will enter. */
static int totals_fit(const struct merge *m, const struct merge_sample *s)
{
	if (s->seq < m->cfg.warmup_intervals)
		return 1;
	return sums_fit_sample(&m->run, s) &&
	       sums_fit_sample(&m->slave_totals[s->slave], s) &&
	       run_fs_fits(m, s);
}

/* A measured row joins the run totals, once. */
static void row_to_totals(struct merge *m, unsigned seq,
			  struct merge_pending *p)
{
	if (p->in_totals || seq < m->cfg.warmup_intervals)
		return;
	stats_add(&m->totals, &p->st);
	/* Cannot fail: merge_add() reserved every operation in the totals. */
	if (m->cfg.fsops && fsops_add(&m->totals_fs, &p->fs) < 0)
		assert(!"the totals reserved the row's operations");
	p->in_totals = 1;
}

int merge_add(struct merge *m, const struct merge_sample *s)
{
	struct merge_pending *p;

	assert(m && s);
	if (!sample_valid(m, s))
		return -EINVAL;
	if (seen_test(m, s->slave, s->seq)) {
		m->ndup++;
		return MERGE_DUPLICATE;
	}
	p = s->seq < m->next ? NULL : m->rows[s->seq];
	if (!totals_fit(m, s) ||
	    (p && (!stats_fits(&p->st, s) || !fs_fits(&p->fs, s)))) {
		log_warn("merge: slave %u interval %u: its sums would wrap a total",
			 s->slave, s->seq);
		return -EINVAL;
	}
	/* Before anything is counted: the only step that can fail. */
	if (fs_reserve(&m->totals_fs, s) < 0)
		return -ENOMEM;
	if (s->seq < m->next) {
		seen_set(m, s->slave, s->seq);
		add_totals(m, s, 1);
		m->nlate++;
		return MERGE_LATE;
	}
	if (!p) {
		p = pending_get(m);
		if (!p)
			return -ENOMEM;
		m->rows[s->seq] = p;
	}
	if (fs_reserve(&p->fs, s) < 0)
		return -ENOMEM; /* p stays, empty: a row without data yet */
	seen_set(m, s->slave, s->seq);
	stats_add_sample(&p->st, s);
	fs_add_sample(&p->fs, s);
	if (!m->lost[s->slave])
		p->live_reports++;
	add_totals(m, s, p->in_totals);
	return MERGE_ACCEPTED;
}

/*
 * The pending rows (from the next one on) this slave reported: each counts
 * it as a live reporter once more (+1) or once less (-1). Its seen bits are
 * walked a word at a time.
 */
static void live_reports_move(struct merge *m, unsigned slave, int by)
{
	const uint64_t *w = m->seen + (size_t)slave * m->seen_words;

	for (size_t i = m->next / 64; i < m->seen_words; i++) {
		uint64_t bits = w[i];

		while (bits) {
			unsigned seq = (unsigned)(i * 64) +
				       (unsigned)__builtin_ctzll(bits);

			bits &= bits - 1;
			if (seq < m->next)
				continue;
			assert(m->rows[seq]);
			assert(by > 0 || m->rows[seq]->live_reports > 0);
			m->rows[seq]->live_reports += (unsigned)by;
		}
	}
}

void merge_slave_lost(struct merge *m, unsigned slave)
{
	assert(m);
	if (slave >= m->cfg.nslaves)
		return;
	if (m->back_at[slave]) {
		/* Lost again before its rows came: not expected after all. */
		m->back_at[slave] = 0;
		m->nback--;
	}
	if (m->lost[slave])
		return;
	m->lost[slave] = 1;
	m->nlive--;
	/*
	 * Pending rows that counted this slave as a live reporter must stop
	 * counting it, or they would wait for one slave too many.
	 */
	live_reports_move(m, slave, -1);
}

/* A slave back: rows from the next one on wait for it again. */
static void slave_expected(struct merge *m, unsigned slave)
{
	if (m->back_at[slave]) {
		m->back_at[slave] = 0;
		m->nback--;
	}
	m->lost[slave] = 0;
	m->nlive++;
	live_reports_move(m, slave, 1);
}

int merge_slave_back(struct merge *m, unsigned slave, unsigned from)
{
	assert(m);
	if (slave >= m->cfg.nslaves || !m->lost[slave] ||
	    from >= m->cfg.intervals)
		return -EINVAL;
	if (from <= m->next) {
		slave_expected(m, slave);
		return 0;
	}
	if (!m->back_at[slave])
		m->nback++;
	m->back_at[slave] = from + 1;
	return 0;
}

/* Slaves expected again from row seq on become live before it is judged. */
static void backs_due(struct merge *m, unsigned seq)
{
	for (unsigned i = 0; m->nback && i < m->cfg.nslaves; i++)
		if (m->back_at[i] && m->back_at[i] <= seq + 1)
			slave_expected(m, i);
}

int merge_next(struct merge *m, uint64_t now_ns, struct merge_row *row)
{
	struct merge_pending *p;
	unsigned seq, i, expected = 0, nmissing = 0;

	assert(m && row);
	if (merge_done(m))
		return 0;
	seq = m->next;
	if (m->nback)
		backs_due(m, seq);
	p = m->rows[seq];
	if ((p ? p->live_reports : 0) < m->nlive &&
	    now_ns < row_deadline(m, seq))
		return 0;

	if (p) {
		row_to_totals(m, seq, p);
		pending_put(m, m->out);
		m->out = p;
		m->rows[seq] = NULL;
	} else {
		stats_init(&m->out->st);
		fsops_reset(&m->out->fs);
	}
	for (i = 0; i < m->cfg.nslaves; i++) {
		int seen = seen_test(m, i, seq);

		if (!m->lost[i] && !seen)
			m->missing[nmissing++] = i;
		if (!m->lost[i] || seen)
			expected++;
	}
	m->next++;

	memset(row, 0, sizeof(*row));
	row->seq = seq;
	row->warmup = seq < m->cfg.warmup_intervals;
	row->start_ns = row_start(m, seq);
	row->end_ns = row_start(m, seq + 1);
	row->reported = m->out->st.samples;
	row->expected = expected;
	row->nmissing = nmissing;
	row->missing = m->missing;
	row->stats = &m->out->st;
	row->fs = m->cfg.fsops ? &m->out->fs : NULL;
	return 1;
}

void merge_truncate(struct merge *m, unsigned intervals)
{
	if (intervals < m->next)
		intervals = m->next;
	if (intervals >= m->cfg.intervals)
		return;
	for (unsigned i = intervals; i < m->cfg.intervals; i++) {
		if (m->rows[i])
			pending_put(m, m->rows[i]);
		m->rows[i] = NULL;
	}
	m->cfg.intervals = intervals;
	if (m->cfg.warmup_intervals > intervals)
		m->cfg.warmup_intervals = intervals;
}

int merge_measure(struct merge *m, unsigned from, unsigned intervals)
{
	if (from < m->next || from > m->cfg.warmup_intervals ||
	    intervals < from || intervals > m->cfg.intervals)
		return -EINVAL;
	/* Their samples skipped the sums as warmup: they cannot be measured. */
	for (unsigned seq = from; seq < m->cfg.intervals; seq++)
		if (m->rows[seq])
			return -EBUSY;
	m->cfg.warmup_intervals = from;
	merge_truncate(m, intervals);
	return 0;
}

unsigned merge_emitted(const struct merge *m)
{
	return m->next;
}

unsigned merge_intervals(const struct merge *m)
{
	return m->cfg.intervals;
}

unsigned merge_reported_rows(const struct merge *m)
{
	for (unsigned seq = m->cfg.intervals; seq > m->next; seq--)
		if (m->rows[seq - 1])
			return seq;
	return m->next;
}

int merge_done(const struct merge *m)
{
	return m->next >= m->cfg.intervals;
}

uint64_t merge_next_deadline(const struct merge *m)
{
	if (merge_done(m))
		return UINT64_MAX;
	return row_deadline(m, m->next);
}

const struct stats *merge_totals(struct merge *m)
{
	/* Rows still pending (a phase cut short) are in the totals too. */
	for (unsigned seq = m->next; seq < m->cfg.intervals; seq++)
		if (m->rows[seq])
			row_to_totals(m, seq, m->rows[seq]);
	return &m->totals;
}

const struct fsops *merge_fs_totals(const struct merge *m)
{
	return m->cfg.fsops ? &m->totals_fs : NULL;
}

const struct stats_sums *merge_slave_totals(const struct merge *m,
					    unsigned slave)
{
	if (slave >= m->cfg.nslaves)
		return NULL;
	return &m->slave_totals[slave];
}

const uint64_t (*merge_slave_fs(const struct merge *m,
				unsigned slave))[FSOPS_SUMS]
{
	if (!m->slave_fs || slave >= m->cfg.nslaves)
		return NULL;
	return (const uint64_t(*)[FSOPS_SUMS])m->slave_fs[slave];
}

unsigned merge_late_count(const struct merge *m)
{
	return m->nlate;
}

unsigned merge_duplicate_count(const struct merge *m)
{
	return m->ndup;
}
