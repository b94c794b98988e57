/*
 * The plausibility of what slaves report (see plausible.h). Each check is
 * a bound that real I/O cannot pass, with slack for timing where timing
 * enters; the first one an interval fails is its reason. Products are
 * taken in 128 bits so that no check can itself wrap.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "common/hist.h"
#include "master/run/plausible.h"

__extension__ typedef unsigned __int128 u128;
__extension__ typedef __int128 s128;

static const char *const dir_name[2] = { "read", "write" };

/* A file-system phase's operations, threads and transfer sizes. */
static void fs_plan_of(const struct proto_plan *p, struct plausible_plan *out)
{
	if (!p->nfwds) {
		out->fsops = UINT32_C(1) << PROTO_FSOP_WRITE;
		out->xfer_min = 1;
		out->xfer_max = PLAUSIBLE_FS_FORMAT_XFER;
		for (uint32_t f = 0; f < p->nfsds; f++) {
			/* fwd=format xfersize= may write more at a time. */
			if (p->fsds[f].format_xfer > out->xfer_max)
				out->xfer_max = p->fsds[f].format_xfer;
			/* The fsds at once, each with its threads. */
			out->slots += p->fsds[f].format_threads ?
					      p->fsds[f].format_threads :
					      PLAUSIBLE_FS_FORMAT_THREADS;
		}
		return;
	}
	for (uint32_t f = 0; f < p->nfwds; f++) {
		const struct proto_fwd *w = &p->fwds[f];

		if (w->mixed)
			out->fsops |= (UINT32_C(1) << PROTO_FSOP_READ) |
				      (UINT32_C(1) << PROTO_FSOP_WRITE);
		if (w->op < PROTO_FSOP_MAX)
			out->fsops |= UINT32_C(1) << w->op;
		out->slots += w->threads;
		for (uint32_t x = 0; x < w->nxfer; x++)
			if (w->xfer[x].size > out->xfer_max)
				out->xfer_max = w->xfer[x].size;
	}
	out->xfer_min = 1;
}

void plausible_plan_of(const struct proto_plan *p, uint32_t cores,
		       struct plausible_plan *out)
{
	memset(out, 0, sizeof(*out));
	out->interval_ns = p->interval_ns;
	out->cores = cores;
	out->iorate = p->iorate > 0 ? p->iorate : 0;
	out->clock_error_ns = p->clock_error_ns;
	out->intervals = p->intervals;
	out->ntargets = p->ntargets;
	for (uint32_t t = 0; t < p->ntargets; t++)
		out->slots += p->targets[t].threads;
	if (p->nfsds)
		fs_plan_of(p, out);
	for (uint32_t s = 0; s < p->nstreams; s++)
		for (uint32_t x = 0; x < p->streams[s].nxfer; x++) {
			uint32_t size = p->streams[s].xfer[x].size;

			if (!size)
				continue;
			if (!out->xfer_min || size < out->xfer_min)
				out->xfer_min = size;
			if (size > out->xfer_max)
				out->xfer_max = size;
			/* A replay's records: any length up to its size. */
			if (p->streams[s].replay[0])
				out->xfer_min = 1;
		}
}

/*
 * A histogram that agrees with itself: its minimum in its lowest bucket,
 * its maximum in its highest, its sum between count x min and count x
 * max, and its sum of squares at least sum^2 / count (Cauchy-Schwarz) and
 * at most count x max^2. Decoding checked the rest (buckets sum to count).
 */
static int hist_plausible(const struct hist_sparse *h, const char *dir,
			  char *why, size_t whylen)
{
	double mean;

	if (h->count == 0) {
		if (h->sum == 0)
			return 0;
		snprintf(why, whylen,
			 "empty %s histogram with a sum of %" PRIu64 " ns", dir,
			 h->sum);
		return -EINVAL;
	}
	if (h->n == 0 || hist_index(h->min) != h->idx[0] ||
	    hist_index(h->max) != h->idx[h->n - 1]) {
		snprintf(why, whylen,
			 "%s histogram: buckets %u..%u contradict its min %" PRIu64
			 " ns and max %" PRIu64 " ns",
			 dir, h->n ? h->idx[0] : 0, h->n ? h->idx[h->n - 1] : 0,
			 h->min, h->max);
		return -EINVAL;
	}
	if ((u128)h->sum < (u128)h->count * h->min ||
	    (u128)h->sum > (u128)h->count * h->max) {
		snprintf(why, whylen,
			 "%s histogram: sum %" PRIu64 " ns is outside %" PRIu64
			 " x [%" PRIu64 ", %" PRIu64 "] ns",
			 dir, h->sum, h->count, h->min, h->max);
		return -EINVAL;
	}
	mean = (double)h->sum / (double)h->count;
	if (h->sumsq < (double)h->sum * mean * (1 - 1e-9) ||
	    h->sumsq > (double)h->count * (double)h->max * (double)h->max *
			       (1 + 1e-9)) {
		snprintf(why, whylen,
			 "%s histogram: sum of squares %g is impossible for %" PRIu64
			 " values with sum %" PRIu64 " and max %" PRIu64,
			 dir, h->sumsq, h->count, h->sum, h->max);
		return -EINVAL;
	}
	return 0;
}

/*
 * The per-target histograms (sl): targets of its plan, each histogram
 * agreeing with itself. The decoder checked that they add up to l's.
 */
static int sds_plausible(const struct plausible_plan *pl,
			 const struct proto_interval *iv, char *why,
			 size_t whylen)
{
	for (uint32_t i = 0; i < iv->nsds; i++) {
		char what[32];

		if (iv->sds[i].target >= pl->ntargets) {
			snprintf(why, whylen,
				 "a latency histogram of target %u, but its plan has %u",
				 iv->sds[i].target, pl->ntargets);
			return -EINVAL;
		}
		snprintf(what, sizeof(what), "target %u", iv->sds[i].target);
		if (hist_plausible(&iv->sds[i].lat, what, why, whylen) < 0)
			return -EINVAL;
	}
	return 0;
}

/*
 * A file-system phase's other operations (fo): none in a block phase,
 * each histogram holding its count and agreeing with itself (as l's);
 * their least latency lowers *min_lat and their count adds to *ops (one
 * thread does one operation at a time, whichever it is).
 */
static int fsops_plausible(const struct plausible_plan *pl,
			   const struct proto_interval *iv, uint64_t *min_lat,
			   u128 *ops, char *why, size_t whylen)
{
	if (iv->nfsops && !pl->fsops) {
		snprintf(why, whylen,
			 "%u file operations in a phase without file workloads",
			 iv->nfsops);
		return -EINVAL;
	}
	for (uint32_t i = 0; i < iv->nfsops; i++) {
		const struct proto_fsop_stat *o = &iv->fsops[i];
		char what[32];

		if (o->op < PROTO_FSOP_CREATE || o->op >= PROTO_FSOP_MAX) {
			snprintf(why, whylen, "file operation %u is not one",
				 o->op);
			return -EINVAL;
		}
		snprintf(what, sizeof(what), "file operation %u", o->op);
		if (o->lat.count != o->count) {
			snprintf(why, whylen,
				 "%" PRIu64 " latencies for %" PRIu64 " of %s",
				 o->lat.count, o->count, what);
			return -EINVAL;
		}
		if (hist_plausible(&o->lat, what, why, whylen) < 0)
			return -EINVAL;
		if (o->lat.count && o->lat.min < *min_lat)
			*min_lat = o->lat.min;
		*ops += o->count;
	}
	return 0;
}

uint64_t plausible_ops(const struct proto_interval *iv)
{
	uint64_t ops;

	if (__builtin_add_overflow(iv->ops[0], iv->ops[1], &ops))
		return UINT64_MAX;
	for (uint32_t i = 0; i < iv->nfsops; i++)
		if (__builtin_add_overflow(ops, iv->fsops[i].count, &ops))
			return UINT64_MAX;
	return ops;
}

/* A kernel name of a block device or an interface: [A-Za-z0-9._!+-]. */
static int kname_ok(const char *s)
{
	if (!*s || !strcmp(s, ".") || !strcmp(s, ".."))
		return 0;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || strchr("._!+-", *s)))
			return 0;
	return 1;
}

/* A per-second bound over span ns, with slack. */
static u128 per_span(uint64_t span_ns, uint64_t per_s)
{
	return (u128)span_ns * per_s * PLAUSIBLE_SLACK / 1000000000u + 1;
}

/* One device of an interval (span checked by the caller). */
static int dev_plausible(const struct proto_dev *d, char *why, size_t whylen)
{
	uint64_t ms = d->span_ns / 1000000 + 1;

	if (!kname_ok(d->name)) {
		snprintf(why, whylen, "device name '%.32s' is not a kernel's",
			 d->name);
		return -EINVAL;
	}
	for (int k = 0; k < 2; k++)
		if ((u128)d->ios[k] >
			    per_span(d->span_ns, PLAUSIBLE_DEV_IOPS) ||
		    (u128)d->sectors[k] * 512 >
			    per_span(d->span_ns, PLAUSIBLE_DEV_BPS) ||
		    (u128)d->ticks_ms[k] > (u128)ms * PLAUSIBLE_DEV_INFLIGHT) {
			snprintf(why, whylen,
				 "device %s: %" PRIu64 " %s I/Os, %" PRIu64
				 " sectors, %" PRIu64 " ms waited in %" PRIu64
				 " ns: no device does that",
				 d->name, d->ios[k], dir_name[k], d->sectors[k],
				 d->ticks_ms[k], d->span_ns);
			return -EINVAL;
		}
	if (d->in_flight > PLAUSIBLE_DEV_INFLIGHT ||
	    (u128)d->busy_ms > (u128)ms * PLAUSIBLE_SLACK ||
	    (u128)d->queue_ms > (u128)ms * PLAUSIBLE_DEV_INFLIGHT) {
		snprintf(why, whylen,
			 "device %s: %" PRIu64 " in flight, busy %" PRIu64
			 " ms, queue %" PRIu64 " ms in %" PRIu64
			 " ns: no device does that",
			 d->name, d->in_flight, d->busy_ms, d->queue_ms,
			 d->span_ns);
		return -EINVAL;
	}
	return 0;
}

/*
 * Telemetry: spans no longer than the phase so far, CPU time no more
 * than the host's cores have, stalls no longer than the span, devices
 * distinct and within what devices do, interface counts likewise.
 */
static int tele_plausible(const struct plausible_plan *pl,
			  const struct proto_interval *iv, char *why,
			  size_t whylen)
{
	u128 most = ((u128)iv->seq + 2) * pl->interval_ns * PLAUSIBLE_SLACK +
		    PLAUSIBLE_TIME_SLACK_NS;
	u128 cpu = 0;

	if (iv->tele &
	    ~(uint32_t)(PROTO_TELE_CPU | PROTO_TELE_PSI | PROTO_TELE_NIC)) {
		snprintf(why, whylen, "unknown telemetry bits 0x%x", iv->tele);
		return -EINVAL;
	}
	if ((iv->tele || iv->ndevs) &&
	    (!iv->tele_span_ns || iv->tele_span_ns > most)) {
		snprintf(why, whylen,
			 "telemetry over %" PRIu64
			 " ns in interval %u of %" PRIu64 " ns",
			 iv->tele_span_ns, iv->seq + 1, pl->interval_ns);
		return -EINVAL;
	}
	for (int i = 0; i < 5; i++)
		cpu += iv->host_cpu_ns[i];
	if (cpu > (u128)iv->tele_span_ns * pl->cores * PLAUSIBLE_SLACK +
			  PLAUSIBLE_CPU_SLACK_NS) {
		snprintf(why, whylen,
			 "host CPU time of %u cores is more than they have in %" PRIu64
			 " ns",
			 pl->cores, iv->tele_span_ns);
		return -EINVAL;
	}
	for (int i = 0; i < 3; i++)
		if ((u128)iv->psi_ns[i] >
		    (u128)iv->tele_span_ns * PLAUSIBLE_SLACK +
			    PLAUSIBLE_TIME_SLACK_NS) {
			snprintf(why, whylen,
				 "pressure stall %" PRIu64
				 " ns is longer than its %" PRIu64 " ns",
				 iv->psi_ns[i], iv->tele_span_ns);
			return -EINVAL;
		}
	if ((iv->tele & PROTO_TELE_NIC) ? !kname_ok(iv->nic) : iv->nic[0]) {
		snprintf(why, whylen, "interface name '%.16s' is not one",
			 iv->nic);
		return -EINVAL;
	}
	for (int k = 0; k < 2; k++)
		if ((u128)iv->net_bytes[k] >
			    per_span(iv->tele_span_ns, PLAUSIBLE_NET_BPS) ||
		    (u128)iv->net_pkts[k] >
			    per_span(iv->tele_span_ns, PLAUSIBLE_NET_PPS)) {
			snprintf(why, whylen,
				 "interface %s: %" PRIu64 " bytes, %" PRIu64
				 " packets in %" PRIu64
				 " ns: no interface does that",
				 iv->nic, iv->net_bytes[k], iv->net_pkts[k],
				 iv->tele_span_ns);
			return -EINVAL;
		}
	for (uint32_t i = 0; i < iv->ndevs; i++) {
		const struct proto_dev *d = &iv->devs[i];

		if (!d->span_ns || d->span_ns > most) {
			snprintf(why, whylen,
				 "device %.32s: a span of %" PRIu64
				 " ns in interval %u",
				 d->name, d->span_ns, iv->seq + 1);
			return -EINVAL;
		}
		for (uint32_t j = 0; j < i; j++)
			if (iv->devs[j].major == d->major &&
			    iv->devs[j].minor == d->minor) {
				snprintf(why, whylen,
					 "device %u:%u reported twice",
					 d->major, d->minor);
				return -EINVAL;
			}
		if (dev_plausible(d, why, whylen) < 0)
			return -EINVAL;
	}
	return 0;
}

/*
 * The I/Os the slave's slots can complete in interval seq, with slack: at
 * full speed, each slot one per per_io_ns (the least latency it measured);
 * at a fixed rate, what the schedule started by the interval's end.
 */
static u128 capacity(const struct plausible_plan *pl, uint32_t seq,
		     uint64_t per_io_ns)
{
	if (pl->iorate > 0) {
		double started = pl->iorate * ((double)seq + 1) *
				 ((double)pl->interval_ns / 1e9);

		if (started > 1e30)
			started = 1e30;
		return (u128)(started * PLAUSIBLE_SLACK) + pl->slots +
		       PLAUSIBLE_RATE_EXTRA;
	}
	if (per_io_ns == 0)
		per_io_ns = 1;
	return (u128)pl->slots * (pl->interval_ns / per_io_ns + 1) *
	       PLAUSIBLE_SLACK;
}

/* The slack on times: one interval, twice the clock error, and a second. */
static s128 time_slack(const struct plausible_plan *pl)
{
	return (s128)pl->interval_ns + 2 * (s128)pl->clock_error_ns +
	       PLAUSIBLE_TIME_SLACK_NS;
}

int plausible_first_io(const struct plausible_plan *pl, uint64_t first_io,
		       uint32_t by_seq, char *why, size_t whylen)
{
	s128 lo, hi;

	if (!pl->start_at || !pl->interval_ns)
		return 0;
	lo = (s128)pl->start_at - time_slack(pl);
	hi = (s128)pl->start_at + ((s128)by_seq + 1) * pl->interval_ns +
	     time_slack(pl);
	if ((s128)first_io >= lo && (s128)first_io <= hi)
		return 0;
	snprintf(why, whylen,
		 "its first I/O at %" PRIu64
		 " ns (master time) is outside its phase, which started at %" PRIu64
		 " ns",
		 first_io, pl->start_at);
	return -EINVAL;
}

/*
 * An interval's stamped times against its schedule: start <= end, and
 * each within the slack of where the go and seq put it (a slave stamps
 * master time: the go's start_at plus seq intervals). A slave that stamps start 2^64 - 1 and end 0 is refused here
 * instead of giving a start skew of centuries.
 */
static int times_plausible(const struct plausible_plan *pl,
			   const struct proto_interval *iv, char *why,
			   size_t whylen)
{
	s128 want, slack = time_slack(pl);
	s128 d_start, d_end;

	if (!pl->start_at || !pl->interval_ns)
		return 0;
	if (iv->end_ns < iv->start_ns) {
		snprintf(why, whylen,
			 "interval %u ends at %" PRIu64
			 " ns, before its start at %" PRIu64 " ns",
			 iv->seq + 1, iv->end_ns, iv->start_ns);
		return -EINVAL;
	}
	want = (s128)pl->start_at + (s128)iv->seq * pl->interval_ns;
	d_start = (s128)iv->start_ns - want;
	d_end = (s128)iv->end_ns - (want + pl->interval_ns);
	if (d_start < -slack || d_start > slack || d_end < -slack ||
	    d_end > slack) {
		snprintf(why, whylen,
			 "interval %u is stamped %" PRIu64 "-%" PRIu64
			 " ns, its schedule says %" PRIu64 " ns +- %" PRIu64
			 " ns",
			 iv->seq + 1, iv->start_ns, iv->end_ns,
			 want > 0 && want < (s128)UINT64_MAX ? (uint64_t)want :
							       0,
			 (uint64_t)slack);
		return -EINVAL;
	}
	if (iv->first_io_ns &&
	    plausible_first_io(pl, iv->first_io_ns, iv->seq, why, whylen) < 0)
		return -EINVAL;
	return 0;
}

int plausible_interval(const struct plausible_plan *pl,
		       const struct proto_interval *iv, char *why,
		       size_t whylen)
{
	uint64_t min_lat = UINT64_MAX;
	u128 ops, cpu, cpu_max;

	if (iv->cores != pl->cores) {
		snprintf(why, whylen, "it reports %u cores, its hello %u",
			 iv->cores, pl->cores);
		return -EINVAL;
	}
	for (int d = 0; d < 2; d++) {
		const struct hist_sparse *h = &iv->lat[d];

		if (h->count != iv->ops[d]) {
			snprintf(why, whylen,
				 "%" PRIu64 " %s latencies for %" PRIu64
				 " %s ops",
				 h->count, dir_name[d], iv->ops[d],
				 dir_name[d]);
			return -EINVAL;
		}
		if (hist_plausible(h, dir_name[d], why, whylen) < 0)
			return -EINVAL;
		if (h->count && h->min < min_lat)
			min_lat = h->min;
	}
	ops = (u128)iv->ops[0] + iv->ops[1];
	if (fsops_plausible(pl, iv, &min_lat, &ops, why, whylen) < 0)
		return -EINVAL;
	if (ops && ops > capacity(pl, iv->seq, min_lat)) {
		if (pl->iorate > 0)
			snprintf(why, whylen,
				 "%" PRIu64 " + %" PRIu64
				 " ops in interval %u are more than a rate of %g/s started by its end",
				 iv->ops[0], iv->ops[1], iv->seq + 1,
				 pl->iorate);
		else
			snprintf(why, whylen,
				 "%" PRIu64 " + %" PRIu64 " ops in %" PRIu64
				 " ns are more than %" PRIu64
				 " I/Os in flight complete at a latency of %" PRIu64
				 " ns or more",
				 iv->ops[0], iv->ops[1], pl->interval_ns,
				 pl->slots, min_lat);
		return -EINVAL;
	}
	if (iv->errors &&
	    (u128)iv->errors > capacity(pl, iv->seq, PLAUSIBLE_ERROR_NS)) {
		snprintf(why, whylen,
			 "%" PRIu64 " I/O errors in %" PRIu64
			 " ns are more than %" PRIu64
			 " I/Os in flight can fail (at %d ns each or more)",
			 iv->errors, pl->interval_ns, pl->slots,
			 PLAUSIBLE_ERROR_NS);
		return -EINVAL;
	}
	for (int d = 0; d < 2; d++)
		if ((u128)iv->bytes[d] < (u128)iv->ops[d] * pl->xfer_min ||
		    (u128)iv->bytes[d] > (u128)iv->ops[d] * pl->xfer_max) {
			snprintf(why, whylen,
				 "%" PRIu64 " %s bytes for %" PRIu64
				 " ops of %u to %u bytes each",
				 iv->bytes[d], dir_name[d], iv->ops[d],
				 pl->xfer_min, pl->xfer_max);
			return -EINVAL;
		}
	cpu = (u128)iv->cpu_user_ns + iv->cpu_sys_ns;
	cpu_max = (u128)pl->interval_ns * pl->cores * PLAUSIBLE_SLACK +
		  PLAUSIBLE_CPU_SLACK_NS;
	if (cpu > cpu_max) {
		snprintf(why, whylen,
			 "CPU time %" PRIu64 " + %" PRIu64
			 " ns is more than %u cores have in %" PRIu64 " ns",
			 iv->cpu_user_ns, iv->cpu_sys_ns, pl->cores,
			 pl->interval_ns);
		return -EINVAL;
	}
	if ((u128)iv->runq_ns >
	    (u128)pl->interval_ns * PLAUSIBLE_MAX_THREADS * PLAUSIBLE_SLACK +
		    PLAUSIBLE_CPU_SLACK_NS) {
		snprintf(why, whylen,
			 "run-queue wait %" PRIu64
			 " ns is more than %d threads have in %" PRIu64 " ns",
			 iv->runq_ns, PLAUSIBLE_MAX_THREADS, pl->interval_ns);
		return -EINVAL;
	}
	/* Schedule lag: a sum of lag_n lags, the largest lag_max_ns. */
	if ((!iv->lag_n && (iv->lag_ns || iv->lag_max_ns)) ||
	    iv->lag_max_ns > iv->lag_ns ||
	    (u128)iv->lag_ns > (u128)iv->lag_n * iv->lag_max_ns) {
		snprintf(why, whylen,
			 "schedule lag %" PRIu64 " ns over %" PRIu64
			 " I/Os with a largest of %" PRIu64
			 " ns is not a sum of that many",
			 iv->lag_ns, iv->lag_n, iv->lag_max_ns);
		return -EINVAL;
	}
	if (tele_plausible(pl, iv, why, whylen) < 0 ||
	    sds_plausible(pl, iv, why, whylen) < 0)
		return -EINVAL;
	return times_plausible(pl, iv, why, whylen);
}
