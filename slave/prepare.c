/*
 * The slave's pure decisions about a phase: slot assignment, engine flags,
 * interval sums and messages. See prepare.h.
 */
#include <errno.h>
#include <stdarg.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "slave/datagen.h"
#include "slave/engine.h"
#include "slave/prepare.h"

unsigned prepare_threads(const struct proto_plan *p)
{
	uint64_t total = 0;

	for (unsigned t = 0; t < p->ntargets; t++)
		total += p->targets[t].threads;
	return total > UINT_MAX ? UINT_MAX : (unsigned)total;
}

unsigned prepare_nworkers(unsigned want, unsigned threads)
{
	unsigned n = want < threads ? want : threads;

	return n > PREPARE_MAX_WORKERS ? PREPARE_MAX_WORKERS : n;
}

/*
 * A target with streams: the threads of stream j (threads/streams of
 * them, Vdbench's rule) all go to worker (w + j) mod nworkers, which takes
 * it as its slice j mod n of n (n: the workers so used), and
 * workload_slice() gives it the streams of that slice. Returns the next
 * worker to take a slot.
 */
static unsigned assign_streams(struct prepare_slots *ps,
			       const struct proto_target *pt, unsigned t,
			       unsigned w)
{
	unsigned per = pt->threads / pt->streams;
	unsigned n = pt->streams < ps->nworkers ? pt->streams : ps->nworkers;

	for (unsigned j = 0; j < pt->streams; j++) {
		unsigned i = (w + j) % ps->nworkers;

		for (unsigned k = 0; k < per; k++)
			ps->slot_target[i][ps->depth[i]++] = t;
	}
	for (unsigned i = 0; i < ps->nworkers; i++)
		ps->slice[i][t] = UINT_MAX;
	for (unsigned j = 0; j < n; j++)
		ps->slice[(w + j) % ps->nworkers][t] = j;
	ps->nslices[t] = n;
	return (w + pt->streams) % ps->nworkers;
}

int prepare_assign_slots(struct prepare_slots *ps, const struct proto_plan *p)
{
	unsigned total = 0, w = 0;
	unsigned nt = p->ntargets ? p->ntargets : 1;
	uint64_t sum = 0;

	/*
	 * Summed without wrap: 0xFFFFFFFF + 2 threads once made a 1-slot
	 * array take 0x100000001 slots. prepare_check_plan refuses such a
	 * plan first; this keeps the allocation honest on its own.
	 */
	for (unsigned t = 0; t < p->ntargets; t++)
		sum += p->targets[t].threads;
	if (sum > PREPARE_MAX_THREADS || !ps->nworkers ||
	    ps->nworkers > PREPARE_MAX_WORKERS)
		return -EINVAL;
	total = (unsigned)sum;

	for (unsigned i = 0; i < ps->nworkers; i++) {
		ps->slot_target[i] = calloc(total ? total : 1,
					    sizeof(unsigned));
		if (!ps->slot_target[i])
			return -ENOMEM;
		ps->depth[i] = 0;
	}
	ps->nslices = calloc(nt, sizeof(unsigned));
	if (!ps->nslices)
		return -ENOMEM;
	for (unsigned i = 0; i < ps->nworkers; i++) {
		ps->slice[i] = calloc(nt, sizeof(unsigned));
		if (!ps->slice[i])
			return -ENOMEM;
	}
	for (unsigned t = 0; t < p->ntargets; t++) {
		if (p->targets[t].streams) {
			w = assign_streams(ps, &p->targets[t], t, w);
			continue;
		}
		for (unsigned k = 0; k < p->targets[t].threads; k++) {
			ps->slot_target[w][ps->depth[w]++] = t;
			w = (w + 1) % ps->nworkers;
		}
	}
	/* Workers that share a target each take a slice of its range. */
	for (unsigned i = 0; i < ps->nworkers; i++) {
		for (unsigned t = 0; t < p->ntargets; t++) {
			int uses = 0;

			if (p->targets[t].streams)
				continue;
			for (unsigned k = 0; k < ps->depth[i]; k++)
				uses |= ps->slot_target[i][k] == t;
			ps->slice[i][t] = uses ? ps->nslices[t]++ : UINT_MAX;
		}
	}
	return 0;
}

void prepare_slots_free(struct prepare_slots *ps)
{
	for (unsigned i = 0; i < PREPARE_MAX_WORKERS; i++) {
		free(ps->slot_target[i]);
		free(ps->slice[i]);
	}
	free(ps->nslices);
	memset(ps, 0, sizeof(*ps));
}

unsigned prepare_split_slots(const unsigned *slot_target, unsigned depth,
			     unsigned *targets, unsigned *local)
{
	unsigned n = 0;

	for (unsigned i = 0; i < depth; i++) {
		unsigned j = 0;

		while (j < n && targets[j] != slot_target[i])
			j++;
		if (j == n)
			targets[n++] = slot_target[i];
		local[i] = j;
	}
	return n;
}

unsigned prepare_split_concat(const struct proto_plan *p, unsigned *targets,
			      unsigned n)
{
	unsigned first = n;

	for (unsigned s = 0; s < p->nstreams; s++) {
		const struct proto_stream *ps = &p->streams[s];
		int led = 0;

		if (!ps->concat || !ps->ntargets)
			continue;
		for (unsigned j = 0; j < first; j++)
			led |= targets[j] == ps->targets[0];
		for (unsigned k = 1; led && k < ps->ntargets; k++) {
			unsigned j = 0;

			while (j < n && targets[j] != ps->targets[k])
				j++;
			if (j == n && ps->targets[k] < p->ntargets)
				targets[n++] = ps->targets[k];
		}
	}
	return n;
}

int prepare_split(const struct proto_plan *p, const struct prepare_slots *ps)
{
	unsigned pairs = 0;

	if (p->ntargets > PROTO_MAX_SD_LATS)
		return 0;
	for (unsigned i = 0; i < ps->nworkers; i++) {
		/* At most 64 targets: a bit each. */
		uint64_t seen = 0;
		unsigned k = 0;

		unsigned t[PROTO_MAX_SD_LATS], n = 0;

		for (unsigned s = 0; s < ps->depth[i]; s++)
			seen |= UINT64_C(1) << ps->slot_target[i][s];
		for (unsigned j = 0; j < p->ntargets; j++)
			if (seen & UINT64_C(1) << j)
				t[n++] = j;
		n = prepare_split_concat(p, t, n);
		for (unsigned j = 0; j < n; j++)
			seen |= UINT64_C(1) << t[j];
		k = (unsigned)__builtin_popcountll(seen);
		pairs += k > 1 ? k : 0;
	}
	return pairs <= PREPARE_MAX_SPLIT;
}

int prepare_target_writes(const struct proto_plan *p, unsigned t)
{
	for (unsigned s = 0; s < p->nstreams; s++)
		for (unsigned k = 0; k < p->streams[s].ntargets; k++)
			if (p->streams[s].targets[k] == t &&
			    p->streams[s].rdpct < 100)
				return 1;
	return 0;
}

unsigned prepare_engine_flags(const struct proto_plan *p,
			      const unsigned *target, unsigned n, int sqpoll)
{
	unsigned flags = ENGINE_DIRECT;

	if (sqpoll)
		flags |= ENGINE_SQPOLL;
	for (unsigned i = 0; i < n; i++) {
		if (p->targets[target[i]].sqpoll)
			flags |= ENGINE_SQPOLL;
		if (!(p->targets[target[i]].openflags & PROTO_O_DIRECT))
			flags &= ~ENGINE_DIRECT;
	}
	return flags;
}

/* src's per-target histograms into dst's per-target sums. */
static void add_split(struct worker_interval *dst,
		      const struct worker_interval *src)
{
	for (unsigned j = 0; dst->sd && j < src->nsplit; j++) {
		unsigned t = src->split_target[j];

		if (t >= dst->ntargets)
			continue;
		hist_merge(&dst->sd[t], &src->rec[2 * j]);
		hist_merge(&dst->sd[t], &src->rec[2 * j + 1]);
	}
}

void prepare_add_interval(struct worker_interval *dst,
			  const struct worker_interval *src)
{
	for (int d = 0; d < 2; d++) {
		dst->ops[d] += src->ops[d];
		dst->bytes[d] += src->bytes[d];
		hist_merge(&dst->lat[d], &src->lat[d]);
	}
	dst->errors += src->errors;
	dst->runq_ns += src->runq_ns;
	dst->lag.sum += src->lag.sum;
	dst->lag.n += src->lag.n;
	if (src->lag.max > dst->lag.max)
		dst->lag.max = src->lag.max;
	for (unsigned t = 0; t < dst->ntargets && t < src->ntargets; t++)
		dst->target_errors[t] += src->target_errors[t];
	add_split(dst, src);
	if (src->errors) {
		dst->last_errno = src->last_errno;
		dst->last_err_offset = src->last_err_offset;
		dst->last_err_target = src->last_err_target;
	}
}

int prepare_collect(struct worker_interval **acc, unsigned *accn,
		    unsigned intervals, const struct worker_interval *iv)
{
	unsigned k = iv->seq;

	if (k >= intervals)
		return 0;
	if (!acc[k]) {
		size_t sz = sizeof(*iv) + iv->ntargets * sizeof(uint64_t);
		size_t nsd = iv->nsplit ? iv->ntargets : 0;
		struct worker_interval *a;

		/* sz is a multiple of 8: the histograms follow, aligned. */
		a = malloc(sz + nsd * sizeof(struct hist));
		if (!a)
			return -ENOMEM;
		memcpy(a, iv, sz);
		a->next = NULL;
		/* A sum, not a worker's buffer: none of its pointers. */
		a->rec = NULL;
		a->nsplit = 0;
		a->split_target = NULL;
		a->sd = nsd ? (struct hist *)((char *)a + sz) : NULL;
		for (size_t t = 0; t < nsd; t++)
			hist_init(&a->sd[t]);
		add_split(a, iv);
		acc[k] = a;
	} else {
		prepare_add_interval(acc[k], iv);
	}
	accn[k]++;
	return 0;
}

unsigned prepare_workers_due(const int *ended, const int *wlast, unsigned n,
			     unsigned k)
{
	unsigned due = 0;

	for (unsigned i = 0; i < n; i++)
		due += !(ended[i] && wlast[i] < (int)k);
	return due;
}

uint64_t prepare_mono_to_master(uint64_t mono, int64_t real_minus_mono,
				int64_t clock_offset_ns)
{
	int64_t real = (int64_t)mono + real_minus_mono;

	return (uint64_t)(real - clock_offset_ns);
}

uint64_t prepare_first_io(const uint64_t *first, unsigned n)
{
	uint64_t min = 0;

	for (unsigned i = 0; i < n; i++)
		if (first[i] && (!min || first[i] < min))
			min = first[i];
	return min;
}

void prepare_account(struct prepare_totals *tot, const struct proto_plan *plan,
		     const struct worker_interval *iv)
{
	for (int d = 0; d < 2; d++) {
		tot->ops += iv->ops[d];
		tot->bytes += iv->bytes[d];
		if (iv->seq >= plan->warmup_intervals)
			hist_merge(&tot->meas[d], &iv->lat[d]);
	}
	tot->errors += iv->errors;
}

int prepare_interval_msg(struct proto_interval *pi,
			 const struct proto_plan *plan, uint64_t start_at,
			 const struct worker_interval *iv)
{
	pi->phase = plan->phase;
	pi->seq = iv->seq;
	pi->start_ns = start_at + iv->seq * plan->interval_ns;
	pi->end_ns = pi->start_ns + plan->interval_ns;
	for (int d = 0; d < 2; d++) {
		pi->ops[d] = iv->ops[d];
		pi->bytes[d] = iv->bytes[d];
	}
	pi->errors = iv->errors;
	pi->runq_ns = iv->runq_ns;
	pi->lag_ns = iv->lag.sum;
	pi->lag_n = iv->lag.n;
	pi->lag_max_ns = iv->lag.max;
	if (hist_to_sparse(&iv->lat[0], &pi->lat[0]) < 0 ||
	    hist_to_sparse(&iv->lat[1], &pi->lat[1]) < 0)
		return -ENOMEM;
	if (!iv->sd || !iv->ntargets)
		return 0;
	pi->sds = calloc(iv->ntargets, sizeof(*pi->sds));
	if (!pi->sds)
		return -ENOMEM;
	pi->nsds = iv->ntargets;
	for (unsigned t = 0; t < iv->ntargets; t++) {
		pi->sds[t].target = t;
		if (hist_to_sparse(&iv->sd[t], &pi->sds[t].lat) < 0)
			return -ENOMEM;
	}
	return 0;
}

int prepare_error_text(char *text, size_t len, const struct proto_plan *plan,
		       const struct worker_interval *iv, unsigned t)
{
	if (t >= iv->ntargets || t >= plan->ntargets || !iv->target_errors[t])
		return 0;
	if (t == iv->last_err_target)
		snprintf(text, len,
			 "sd %s (%s): %llu I/O errors in interval %u, the last at offset %llu: %s",
			 plan->targets[t].name, plan->targets[t].path,
			 (unsigned long long)iv->target_errors[t], iv->seq + 1,
			 (unsigned long long)iv->last_err_offset,
			 iv->last_errno == WORKER_ERR_MISMATCH ?
				 "data validation mismatch (the data validation lines say which blocks)" :
				 strerror(iv->last_errno));
	else
		snprintf(text, len,
			 "sd %s (%s): %llu I/O errors in interval %u",
			 plan->targets[t].name, plan->targets[t].path,
			 (unsigned long long)iv->target_errors[t], iv->seq + 1);
	return 1;
}

/* "plan field F: ..." into err; always -EINVAL. */
static int bad_field(char *err, size_t errlen, const char *field,
		     const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int bad_field(char *err, size_t errlen, const char *field,
		     const char *fmt, ...)
{
	char why[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	snprintf(err, errlen, "refused plan: field %s: %s", field, why);
	return -EINVAL;
}

static int check_flag(uint32_t v, const char *field, char *err, size_t errlen)
{
	if (v <= 1)
		return 0;
	return bad_field(err, errlen, field, "%u is neither 0 nor 1", v);
}

static int check_target(const struct proto_target *t, unsigned i,
			uint64_t *threads, char *err, size_t errlen)
{
	char f[64];

#define FIELD(key) \
	(snprintf(f, sizeof(f), "tg[%u].%s (sd %.40s)", i, key, t->name), f)
	if (!t->name[0])
		return bad_field(err, errlen, FIELD("nm"), "empty sd name");
	if (!t->path[0])
		return bad_field(err, errlen, FIELD("pa"), "empty path");
	*threads += t->threads;
	if (*threads > PREPARE_MAX_THREADS)
		return bad_field(err, errlen, FIELD("th"),
				 "threads add up to %llu on this slave, more than its cap of %u",
				 (unsigned long long)*threads,
				 PREPARE_MAX_THREADS);
	if (t->size > PREPARE_MAX_BYTES)
		return bad_field(err, errlen, FIELD("sz"),
				 "size %llu is over 2^62 bytes",
				 (unsigned long long)t->size);
	if (t->offset > PREPARE_MAX_BYTES || t->offset % 512)
		return bad_field(err, errlen, FIELD("os"),
				 "offset %llu is not a multiple of 512 up to 2^62",
				 (unsigned long long)t->offset);
	if (t->openflags &
	    ~(uint32_t)(PROTO_O_DIRECT | PROTO_O_DSYNC | PROTO_O_SYNC))
		return bad_field(err, errlen, FIELD("of"),
				 "unknown open flags 0x%x", t->openflags);
	if (t->range_hi && t->range_lo >= t->range_hi)
		return bad_field(err, errlen, FIELD("lo"),
				 "range start %llu is not below its end %llu",
				 (unsigned long long)t->range_lo,
				 (unsigned long long)t->range_hi);
	if (t->align % 512 || t->align > PREPARE_MAX_XFER)
		return bad_field(err, errlen, FIELD("al"),
				 "align %u is not a multiple of 512 up to %u",
				 t->align, PREPARE_MAX_XFER);
	if (t->streams && (t->threads % t->streams || !t->threads))
		return bad_field(err, errlen, FIELD("sn"),
				 "%u threads are not a multiple of its %u streams",
				 t->threads, t->streams);
	if (check_flag(t->create, FIELD("cr"), err, errlen) ||
	    check_flag(t->sqpoll, FIELD("sq"), err, errlen) ||
	    check_flag(t->force, FIELD("fc"), err, errlen))
		return -EINVAL;
#undef FIELD
	return 0;
}

static int check_stream(const struct proto_stream *s, unsigned i, char *err,
			size_t errlen)
{
	char f[64];

	if (!s->nxfer) {
		snprintf(f, sizeof(f), "st[%u].x (wd %.40s)", i, s->name);
		return bad_field(err, errlen, f, "no transfer size");
	}
	for (unsigned x = 0; x < s->nxfer; x++) {
		uint32_t sz = s->xfer[x].size;

		if (sz && sz % 512 == 0 && sz <= PREPARE_MAX_XFER)
			continue;
		snprintf(f, sizeof(f), "st[%u].x[%u].sz (wd %.40s)", i, x,
			 s->name);
		return bad_field(err, errlen, f,
				 "transfer size %u is not a multiple of 512 from 512 to %u",
				 sz, PREPARE_MAX_XFER);
	}
	if (s->stride_min % 512 || s->stride_max % 512 ||
	    s->stride_max > PREPARE_MAX_BYTES) {
		snprintf(f, sizeof(f), "st[%u].tx (wd %.40s)", i, s->name);
		return bad_field(err, errlen, f,
				 "stride %llu..%llu is not in multiples of 512 up to 2^62",
				 (unsigned long long)s->stride_min,
				 (unsigned long long)s->stride_max);
	}
	snprintf(f, sizeof(f), "st[%u].eof (wd %.40s)", i, s->name);
	return check_flag(s->eof, f, err, errlen);
}

/*
 * Validation keeps one generation per 4 KiB block: every transfer, sd
 * offset and alignment must be whole blocks (whole dedup units with
 * dedupratio= above 1), and the journal a full path.
 */
static int check_validate(const struct proto_plan *p, char *err, size_t errlen)
{
	uint32_t unit = 4096;

	if (p->validate > PROTO_VALIDATE_ONLY)
		return bad_field(err, errlen, "va", "unknown validate mode %u",
				 p->validate);
	if (p->journal[0] && (p->journal[0] != '/' || !p->validate))
		return bad_field(err, errlen, "jd",
				 "journal '%.64s' is not an absolute path or comes without validation",
				 p->journal);
	if (!p->validate)
		return 0;
	/*
	 * With duplicates every write covers whole dedup units, so that the
	 * members of a set flip their key together (slave/dedupval.h).
	 */
	if (p->dedupratio > 1) {
		unit = p->dedupunit ? p->dedupunit : DATAGEN_DEDUPUNIT_DEFAULT;
		if (unit % 4096)
			return bad_field(err, errlen, "du",
					 "dedupunit %u is not a multiple of 4096 with validation",
					 unit);
	}
	for (unsigned t = 0; t < p->ntargets; t++)
		if (p->targets[t].offset % unit || p->targets[t].align % unit)
			return bad_field(err, errlen, "tg",
					 "target %u: offset or align not a multiple of %u with validation",
					 t, unit);
	for (unsigned s = 0; s < p->nstreams; s++)
		for (unsigned x = 0; x < p->streams[s].nxfer; x++)
			if (p->streams[s].xfer[x].size % unit)
				return bad_field(err, errlen, "st",
						 "stream %u: xfersize %u is not a multiple of %u with validation",
						 s, p->streams[s].xfer[x].size,
						 unit);
	return 0;
}

int prepare_check_plan(const struct proto_plan *p, char *err, size_t errlen)
{
	uint64_t threads = 0, phase_ns;
	int ret;

	if (p->interval_ns < PREPARE_MIN_INTERVAL_NS ||
	    p->interval_ns > PREPARE_MAX_INTERVAL_NS)
		return bad_field(err, errlen, "in",
				 "interval %llu ns is not within 1 ms .. 1 day",
				 (unsigned long long)p->interval_ns);
	if (!p->intervals)
		return bad_field(err, errlen, "ni", "no intervals");
	if (__builtin_mul_overflow(p->interval_ns, (uint64_t)p->intervals,
				   &phase_ns) ||
	    phase_ns > PREPARE_MAX_PHASE_NS)
		return bad_field(err, errlen, "ni",
				 "%u intervals of %llu ns last more than a year",
				 p->intervals,
				 (unsigned long long)p->interval_ns);
	if (p->warmup_intervals >= p->intervals)
		return bad_field(err, errlen, "wi",
				 "%u warmup intervals of %u leave none measured",
				 p->warmup_intervals, p->intervals);
	if (p->iorate != 0 && !(p->iorate >= PREPARE_MIN_IORATE &&
				p->iorate <= PREPARE_MAX_IORATE))
		return bad_field(err, errlen, "io",
				 "iorate %g is neither 0 (max) nor within %g .. %g",
				 p->iorate, PREPARE_MIN_IORATE,
				 PREPARE_MAX_IORATE);
	if (p->clock_offset_ns < -PREPARE_MAX_OFFSET_NS ||
	    p->clock_offset_ns > PREPARE_MAX_OFFSET_NS)
		return bad_field(err, errlen, "co",
				 "clock offset %lld ns is more than a day",
				 (long long)p->clock_offset_ns);
	if (p->clock_error_ns > (uint64_t)PREPARE_MAX_OFFSET_NS)
		return bad_field(err, errlen, "ce",
				 "clock error %llu ns is more than a day",
				 (unsigned long long)p->clock_error_ns);
	if (p->distribution > PROTO_DIST_UNIFORM)
		return bad_field(err, errlen, "di", "unknown distribution %u",
				 p->distribution);
	if (check_flag(p->format, "fm", err, errlen))
		return -EINVAL;
	/* Below 1 is taken as 1 (PROTOCOL.md); the decoder refused < 0. */
	if (p->compratio > PREPARE_MAX_RATIO)
		return bad_field(err, errlen, "cp", "compratio %g is over %g",
				 p->compratio, PREPARE_MAX_RATIO);
	if (p->dedupratio > PREPARE_MAX_RATIO)
		return bad_field(err, errlen, "dr", "dedupratio %g is over %g",
				 p->dedupratio, PREPARE_MAX_RATIO);
	if (p->dedupunit % 512 || p->dedupunit > PREPARE_MAX_XFER)
		return bad_field(err, errlen, "du",
				 "dedupunit %u is not a multiple of 512 up to %u",
				 p->dedupunit, PREPARE_MAX_XFER);
	if (p->nfsds)
		return 0; /* a file-system phase: slave/fsphase.c checks it */
	if (!p->ntargets)
		return bad_field(err, errlen, "tg", "no targets");
	ret = check_validate(p, err, errlen);
	if (ret < 0)
		return ret;
	for (unsigned t = 0; t < p->ntargets; t++) {
		ret = check_target(&p->targets[t], t, &threads, err, errlen);
		if (ret < 0)
			return ret;
	}
	if (!threads)
		return bad_field(err, errlen, "tg", "no threads on any target");
	for (unsigned s = 0; s < p->nstreams; s++) {
		ret = check_stream(&p->streams[s], s, err, errlen);
		if (ret < 0)
			return ret;
	}
	return 0;
}

int prepare_check_measure(const struct proto_plan *p,
			  const struct proto_measure *ms, char *err,
			  size_t errlen)
{
	/*
	 * The window keeps its planned length and moves earlier within the
	 * planned warmup, never later: a warmup=steady phase was planned as
	 * its maximum warmup and then the measured intervals. Or it keeps
	 * its start and ends early (maxdata=), still measuring something.
	 */
	if (ms->from == p->warmup_intervals && ms->intervals > ms->from &&
	    ms->intervals < p->intervals)
		return 0;
	if (ms->from > p->warmup_intervals || ms->intervals <= ms->from ||
	    ms->intervals - ms->from != p->intervals - p->warmup_intervals) {
		snprintf(err, errlen,
			 "refused measure of phase %u: window %u..%u is neither %u measured intervals within its %u warmup and %u in all nor an earlier end",
			 p->phase, ms->from, ms->intervals,
			 p->intervals - p->warmup_intervals,
			 p->warmup_intervals, p->intervals);
		return -ERANGE;
	}
	return 0;
}

int prepare_check_go(const struct proto_plan *p, const struct proto_go *go,
		     uint64_t now_real, int64_t *slave_start, char *err,
		     size_t errlen)
{
	uint64_t start_at, skip;
	int64_t at, dist;

	if (go->first_interval >= p->intervals) {
		snprintf(err, errlen,
			 "refused go of phase %u: first interval %u is not one of its %u",
			 p->phase, go->first_interval, p->intervals);
		return -ERANGE;
	}
	/* in x ni is at most a year (prepare_check_plan): no wrap here. */
	skip = (uint64_t)go->first_interval * p->interval_ns;
	if (__builtin_add_overflow(go->start_at, skip, &start_at))
		start_at = UINT64_MAX;
	if (start_at > INT64_MAX ||
	    __builtin_add_overflow((int64_t)start_at, p->clock_offset_ns,
				   &at) ||
	    now_real > INT64_MAX ||
	    __builtin_sub_overflow(at, (int64_t)now_real, &dist) ||
	    dist > (int64_t)PREPARE_GO_WINDOW_NS ||
	    dist < -(int64_t)PREPARE_GO_WINDOW_NS) {
		snprintf(err, errlen,
			 "refused go of phase %u: start time %llu ns (master clock, offset %lld ns) is more than %llu s from now",
			 p->phase, (unsigned long long)start_at,
			 (long long)p->clock_offset_ns,
			 PREPARE_GO_WINDOW_NS / 1000000000ull);
		return -ERANGE;
	}
	*slave_start = at;
	return 0;
}
