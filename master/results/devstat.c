/*
 * Device and host telemetry figures (devstat.h): iostat's and top's
 * arithmetic on the differences a slave sent.
 */
#include <math.h>
#include <string.h>
#include "master/results/devstat.h"

#define MIB 1048576.0
#define SECTOR 512.0

void devstat_of(const struct proto_dev *d, struct devstat_fig *f)
{
	double s = (double)d->span_ns / 1e9, ms = (double)d->span_ns / 1e6;

	memset(f, 0, sizeof(*f));
	f->in_flight = d->in_flight;
	if (!(s > 0)) {
		f->r_s = f->w_s = f->rmbps = f->wmbps = NAN;
		f->r_await_ms = f->w_await_ms = f->aqu_sz = f->util_pct = NAN;
		return;
	}
	f->r_s = (double)d->ios[0] / s;
	f->w_s = (double)d->ios[1] / s;
	f->rmbps = (double)d->sectors[0] * SECTOR / MIB / s;
	f->wmbps = (double)d->sectors[1] * SECTOR / MIB / s;
	f->r_await_ms = d->ios[0] ? (double)d->ticks_ms[0] / (double)d->ios[0] :
				    NAN;
	f->w_await_ms = d->ios[1] ? (double)d->ticks_ms[1] / (double)d->ios[1] :
				    NAN;
	f->aqu_sz = (double)d->queue_ms / ms;
	/* io_ticks can run a tick ahead of the span: %util tops at 100. */
	f->util_pct = fmin(100.0, (double)d->busy_ms / ms * 100.0);
}

void devstat_sum_add(struct devstat_sum *s, const struct proto_dev *d)
{
	struct devstat_fig f;

	devstat_of(d, &f);
	if (isnan(f.r_s))
		return;
	s->ios_s[0] += f.r_s;
	s->ios_s[1] += f.w_s;
	s->bytes_s[0] += f.rmbps;
	s->bytes_s[1] += f.wmbps;
	s->aqu += f.aqu_sz;
	for (int k = 0; k < 2; k++) {
		s->ios[k] += d->ios[k];
		s->ticks_ms[k] += d->ticks_ms[k];
	}
	s->in_flight += d->in_flight;
	if (f.util_pct > s->util_max)
		s->util_max = f.util_pct;
	s->ndevs++;
}

void devstat_sum_fig(const struct devstat_sum *s, struct devstat_fig *f)
{
	memset(f, 0, sizeof(*f));
	if (!s->ndevs) {
		f->r_s = f->w_s = f->rmbps = f->wmbps = NAN;
		f->r_await_ms = f->w_await_ms = f->aqu_sz = f->util_pct = NAN;
		return;
	}
	f->r_s = s->ios_s[0];
	f->w_s = s->ios_s[1];
	f->rmbps = s->bytes_s[0];
	f->wmbps = s->bytes_s[1];
	f->r_await_ms = s->ios[0] ? (double)s->ticks_ms[0] / (double)s->ios[0] :
				    NAN;
	f->w_await_ms = s->ios[1] ? (double)s->ticks_ms[1] / (double)s->ios[1] :
				    NAN;
	f->aqu_sz = s->aqu;
	f->util_pct = s->util_max;
	f->in_flight = s->in_flight;
}

void devstat_host(const struct proto_interval *iv, uint64_t interval_ns,
		  struct hoststat_fig *f)
{
	double total = 0, span = (double)iv->tele_span_ns / 1e9;
	double avail = (double)interval_ns * (iv->cores ? iv->cores : 1);

	for (int i = 0; i < 5; i++)
		total += (double)iv->host_cpu_ns[i];
	for (int i = 0; i < 5; i++)
		f->cpu_pct[i] = (iv->tele & PROTO_TELE_CPU) && total > 0 ?
					(double)iv->host_cpu_ns[i] / total *
						100.0 :
					NAN;
	f->slave_cpu_pct = avail > 0 ?
				   (double)(iv->cpu_user_ns + iv->cpu_sys_ns) /
					   avail * 100.0 :
				   NAN;
	for (int i = 0; i < 3; i++)
		f->psi_pct[i] = (iv->tele & PROTO_TELE_PSI) && span > 0 ?
					fmin(100.0,
					     (double)iv->psi_ns[i] /
						     (double)iv->tele_span_ns *
						     100.0) :
					NAN;
	for (int k = 0; k < 2; k++) {
		int on = (iv->tele & PROTO_TELE_NIC) && span > 0;

		f->net_mbps[k] = on ? (double)iv->net_bytes[k] / MIB / span :
				      NAN;
		f->net_pps[k] = on ? (double)iv->net_pkts[k] / span : NAN;
	}
}

uint64_t devstat_key(const char *host, uint32_t major, uint32_t minor)
{
	uint64_t h = UINT64_C(14695981039346656037);
	const uint32_t nums[2] = { major, minor };

	for (; *host; host++)
		h = (h ^ (unsigned char)*host) * UINT64_C(1099511628211);
	h = (h ^ 0xff) * UINT64_C(1099511628211); /* "ab"+1 != "a"+"b1" */
	for (int i = 0; i < 2; i++)
		for (int b = 0; b < 4; b++)
			h = (h ^ ((nums[i] >> (8 * b)) & 0xff)) *
			    UINT64_C(1099511628211);
	return h;
}
