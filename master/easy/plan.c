/*
 * `lockstep easy`'s sizing and text (easy.h), pure: what it learned comes
 * in, the lines go out; tests/test_easy.c holds them to their rules.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include "common/units.h"
#include "master/easy/easy.h"

const struct easy_profile easy_profiles[EASY_NPROFILES] = {
	{ "r4k_70read_rand", "4k", 70, 100, "4k, 70% read, 100% random" },
	{ "r4k_100read_rand", "4k", 100, 100, "4k, 100% read, 100% random" },
	{ "r8k_50read_rand", "8k", 50, 100, "8k, 50% read, 100% random" },
	{ "r256k_0read_seq", "256k", 0, 0, "256k, 100% write, sequential" },
};

/* Slaves that run sd s over all hosts. */
static unsigned sd_slaves(const struct easy_host *h, size_t nh,
			  const struct easy_sd *s)
{
	unsigned n = 0;

	for (size_t i = 0; i < nh; i++)
		if (s->on[i])
			n += h[i].slaves;
	return n;
}

unsigned easy_threads(const struct easy_host *h, size_t nh,
		      const struct easy_sd *sd, size_t nsd)
{
	double best = INFINITY;
	unsigned floor_t = 0;

	for (size_t s = 0; s < nsd; s++) {
		unsigned n = sd_slaves(h, nh, &sd[s]);

		if (n > floor_t)
			floor_t = n;
	}
	if (!floor_t)
		return 0;
	for (size_t i = 0; i < nh; i++) {
		/* Host i's share of T, summed over its sds: T x share. */
		double share = 0, budget;

		for (size_t s = 0; s < nsd; s++) {
			unsigned n = sd_slaves(h, nh, &sd[s]);

			if (sd[s].on[i] && n)
				share += (double)h[i].slaves / n;
		}
		if (share <= 0)
			continue;
		budget = (double)EASY_INFLIGHT_PER_CORE *
			 (h[i].cores ? h[i].cores : 1);
		if (budget / share < best)
			best = budget / share;
	}
	if (best > EASY_THREADS_MAX)
		best = EASY_THREADS_MAX;
	/* A tiny fraction under a whole number is the division's, not less. */
	best = floor(best + 1e-9);
	return best < floor_t ? floor_t : (unsigned)best;
}

int easy_write(FILE *f, const struct easy_host *h, size_t nh,
	       const struct easy_sd *sd, size_t nsd, const struct easy_opts *o,
	       unsigned threads)
{
	char b[32];

	fprintf(f,
		"*\n* lockstep easy: the four profiles of HCIBench's Easy Run, each an\n"
		"* SLO search (iorate=slo: the highest cluster rate whose %s\n"
		"* holds) after a warmup until steady (SNIA PTS), sized from what\n"
		"* the hosts said. Edit and rerun with `lockstep run FILE`.\n*\n",
		o->slo);
	for (size_t i = 0; i < nh; i++)
		fprintf(f, "* %s: %u cores, %u slave%s\n", h[i].name,
			h[i].cores, h[i].slaves, h[i].slaves == 1 ? "" : "s");
	for (size_t s = 0; s < nsd; s++)
		fprintf(f, "* sd=%s: %s\n", sd[s].name,
			units_fmt_iec(sd[s].bytes, b, sizeof(b)));
	fprintf(f,
		"* threads=%u: at most %u I/Os in flight a core on every host\n"
		"* (HCIBench's ratio: 8 disks x 4 threads on a 4-vCPU VM), an sd's\n"
		"* split over the slaves that run it\n",
		threads, EASY_INFLIGHT_PER_CORE);
	if (o->ws_pct < 100)
		fprintf(f,
			"* working set: the first %u%% of each sd (range= on every wd)",
			o->ws_pct);
	else
		fprintf(f, "* working set: all of each sd");
	fprintf(f, "%s\n*\n",
		o->prepare ? "; written once first (format=yes)" : "");
	for (size_t p = 0; p < EASY_NPROFILES; p++) {
		const struct easy_profile *e = &easy_profiles[p];

		fprintf(f, "wd=w%s,sd=*,xfersize=%s,rdpct=%u,seekpct=%u",
			e->name, e->xfer, e->rdpct, e->seekpct);
		if (o->ws_pct < 100)
			fprintf(f, ",range=(0,%u)", o->ws_pct);
		fputc('\n', f);
	}
	for (size_t p = 0; p < EASY_NPROFILES; p++) {
		const struct easy_profile *e = &easy_profiles[p];

		fprintf(f, "* %s\n", e->title);
		fprintf(f,
			"rd=%s,wd=w%s,iorate=slo,slo=%s,sloprecision=%g,threads=%u,\n"
			"   warmup=(steady,%g),elapsed=%g,interval=%g%s\n",
			e->name, e->name, o->slo, o->sloprecision, threads,
			o->warmup_max_s, o->elapsed_s, o->interval_s,
			o->prepare && p == 0 ? ",format=yes" : "");
	}
	return ferror(f) ? -EIO : 0;
}
