/*
 * One phase on this slave: targets, workers, intervals. See phase.h. The
 * session thread runs all of it; workers hand their intervals over through
 * worker_pop and get the buffers back through worker_release.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>
#include "common/log.h"
#include "common/timeutil.h"
#include "slave/dedupval.h"
#include "slave/engine.h"
#include "slave/fsphase.h"
#include "slave/outbox.h"
#include "slave/phase.h"
#include "slave/target.h"
#include "slave/tsched.h"

/* A telemetry warning, said once a run (every phase opens its devices). */
static void tele_warn_once(struct session *s, const char *text)
{
	uint64_t h = UINT64_C(14695981039346656037);
	const unsigned n = sizeof(s->tele_said) / sizeof(s->tele_said[0]);

	for (const char *c = text; *c; c++)
		h = (h ^ (unsigned char)*c) * UINT64_C(1099511628211);
	for (unsigned i = 0; i < s->tele_nsaid && i < n; i++)
		if (s->tele_said[i] == h)
			return;
	if (s->tele_nsaid < n)
		s->tele_said[s->tele_nsaid++] = h;
	log_warn("%s", text);
	outbox_log(s, LOG_WARN, text);
}

/*
 * What an sd with openflags= was opened with, as the kernel reports it
 * (F_GETFL): into lockstep.log through the master, each phase.
 */
static void say_flags(struct session *s, const struct proto_target *t,
		      int flags, int async)
{
	char text[PROTO_PATH_LEN + 192], fl[64];

	snprintf(text, sizeof(text), "sd %s: %s opened %s%s", t->name, t->path,
		 target_flags_text(flags, fl, sizeof(fl)),
		 async ? " (it cannot take I/O without blocking: its requests go to io_uring's io-wq threads at once)" :
			 "");
	log_info("%s", text);
	outbox_log(s, LOG_INFO, text);
}

void phase_reset(struct phase *ph)
{
	for (unsigned i = 0; i < ph->slots.nworkers; i++)
		worker_join(&ph->workers[i]);
	fsphase_free(ph->fs);
	prepare_slots_free(&ph->slots);
	if (ph->fds)
		for (unsigned t = 0; t < ph->plan.ntargets; t++)
			if (ph->fds[t] >= 0)
				close(ph->fds[t]);
	if (ph->acc)
		for (unsigned k = 0; k < ph->plan.intervals; k++)
			free(ph->acc[k]);
	free(ph->acc);
	free(ph->accn);
	free(ph->fds);
	free(ph->size);
	free(ph->forced);
	free(ph->async);
	free(ph->vmap);
	free(ph->v0);
	if (ph->efd >= 0)
		close(ph->efd);
	if (ph->tele_open)
		telemetry_close(&ph->tele);
	proto_msg_free(
		&(struct proto_msg){ .type = PROTO_PLAN, .u.plan = ph->plan });
	memset(ph, 0, sizeof(*ph));
	ph->efd = -1;
}

/*
 * Validation: the map of every target (made, or replayed from its journal,
 * on first use in the run) and its counters now, so that the phase's end
 * reports the phase's own part.
 */
static int phase_validate_maps(struct session *s, char *err, size_t errlen)
{
	struct phase *ph = &s->ph;
	const struct proto_plan *plan = &ph->plan;
	unsigned n = plan->ntargets ? plan->ntargets : 1;
	int ret;

	if (!plan->validate)
		return 0;
	if (plan->journal[0]) {
		ret = target_check_journal(plan->journal, &s->policy, err,
					   errlen);
		if (ret < 0)
			return ret;
	}
	ph->vmap = calloc(n, sizeof(*ph->vmap));
	ph->v0 = calloc(n, sizeof(*ph->v0));
	if (!ph->vmap || !ph->v0)
		return -ENOMEM;
	for (unsigned t = 0; t < plan->ntargets; t++) {
		struct valmap *m;

		ret = valmap_get(&s->vmaps, plan->targets[t].name,
				 plan->targets[t].path, ph->size[t],
				 plan->journal, s->hello.name,
				 dedupval_layout(plan->dedupratio,
						 plan->dedupunit),
				 &m, err, errlen);
		if (ret < 0)
			return ret;
		ph->vmap[t] = m;
		ph->v0[t][0] = atomic_load(&m->written);
		ph->v0[t][1] = atomic_load(&m->verified);
		ph->v0[t][2] = atomic_load(&m->mismatched);
		ph->v0[t][3] = atomic_load(&m->settled);
		if (plan->validate == PROTO_VALIDATE_ONLY)
			ph->v0[t][4] = valmap_known(m);
		pthread_mutex_lock(&m->lock);
		m->nbad = m->nlogged = 0;
		pthread_mutex_unlock(&m->lock);
		if (m->nalt && !m->nalt_told) {
			char text[PROTO_TEXT_LEN];

			snprintf(text, sizeof(text),
				 "sd %s: %zu blocks were being written when the journal ended: either content is accepted once",
				 m->sd, m->nalt);
			log_warn("%s", text);
			outbox_log(s, LOG_WARN, text);
			m->nalt_told = m->nalt;
		}
	}
	return 0;
}

/* A file-system phase: fsphase.c's, with the phase's common parts. */
static int phase_prepare_fs(struct session *s, char *err, size_t errlen)
{
	struct phase *ph = &s->ph;
	const int *fds;
	unsigned nfds;
	int ret;

	ph->size = calloc(1, sizeof(uint64_t));
	ph->efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (!ph->size || ph->efd < 0) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	hist_init(&ph->tot.meas[0]);
	hist_init(&ph->tot.meas[1]);
	ret = fsphase_prepare(s, err, errlen);
	if (ret < 0)
		return ret;
	/* The devices under the trees, the host's CPU, PSI and NIC. */
	fds = fsphase_dirfds(ph->fs, &nfds);
	telemetry_open(&ph->tele, fds, nfds, ph->plan.nic);
	ph->tele_open = 1;
	for (unsigned i = 0; i < ph->tele.nwarn; i++)
		tele_warn_once(s, ph->tele.warn[i]);
	ph->active = 1;
	return 0;
}

int phase_prepare(struct session *s, struct proto_plan *plan, char *err,
		  size_t errlen)
{
	struct phase *ph = &s->ph;
	const struct engine_ops *eng = engine_find(plan->engine);
	struct prepare_slots *ps = &ph->slots;
	double rate[PREPARE_MAX_WORKERS];
	unsigned total;
	int ret, split;

	phase_reset(ph);
	ph->plan = *plan;
	memset(plan, 0, sizeof(*plan)); /* ownership moved into ph */
	plan = &ph->plan;
	/* Hostile until checked: the master is not the only possible sender. */
	ret = prepare_check_plan(plan, err, errlen);
	if (ret < 0)
		return ret;
	if (plan->nfsds)
		return phase_prepare_fs(s, err, errlen);
	if (!eng) {
		char list[128];

		engine_list(list, sizeof(list));
		snprintf(err, errlen, "unknown engine '%s' (this slave has %s)",
			 plan->engine, list);
		return -EINVAL;
	}
	total = prepare_threads(plan);
	if (total == 0) {
		snprintf(err, errlen, "phase %s gives this slave no threads",
			 plan->name);
		return -EINVAL;
	}
	ps->nworkers = prepare_nworkers(s->want_workers, total);
	ph->fds = malloc(sizeof(int) * (plan->ntargets ? plan->ntargets : 1));
	ph->size = calloc(plan->ntargets ? plan->ntargets : 1,
			  sizeof(uint64_t));
	ph->forced = calloc(plan->ntargets ? plan->ntargets : 1,
			    sizeof(*ph->forced));
	ph->async = calloc(plan->ntargets ? plan->ntargets : 1, 1);
	ph->acc = calloc(plan->intervals ? plan->intervals : 1,
			 sizeof(*ph->acc));
	ph->accn = calloc(plan->intervals ? plan->intervals : 1,
			  sizeof(*ph->accn));
	ph->efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (!ph->fds || !ph->size || !ph->forced || !ph->async || !ph->acc ||
	    !ph->accn || ph->efd < 0) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	hist_init(&ph->tot.meas[0]);
	hist_init(&ph->tot.meas[1]);
	for (unsigned t = 0; t < plan->ntargets; t++)
		ph->fds[t] = -1;
	for (unsigned i = 0; i < plan->nstreams; i++) {
		ret = target_check_replay(&plan->streams[i], &s->policy, err,
					  errlen);
		if (ret < 0)
			return ret;
	}
	for (unsigned t = 0; t < plan->ntargets; t++) {
		struct target_opened o;

		ret = target_open(plan, t, prepare_target_writes(plan, t),
				  &s->policy, &o, err, errlen);
		if (ret < 0)
			return ret;
		ph->fds[t] = o.fd;
		ph->size[t] = o.size;
		ph->async[t] = (unsigned char)o.async;
		if (plan->targets[t].openflags)
			say_flags(s, &plan->targets[t], o.flags, o.async);
		if (o.forced[0]) {
			struct proto_forced *f = &ph->forced[ph->nforced++];

			snprintf(f->sd, sizeof(f->sd), "%s",
				 plan->targets[t].name);
			snprintf(f->signature, sizeof(f->signature), "%s",
				 o.forced);
		}
	}
	ret = prepare_assign_slots(ps, plan);
	if (ret < 0)
		return ret;
	split = prepare_split(plan, ps);
	if (!split)
		log_info("phase %u (%s): %u targets, latency not split per target (at most %d targets and %u target histograms of workers)",
			 plan->phase, plan->name, plan->ntargets,
			 PROTO_MAX_SD_LATS, PREPARE_MAX_SPLIT);
	telemetry_open(&ph->tele, ph->fds, plan->ntargets, plan->nic);
	ph->tele_open = 1;
	for (unsigned i = 0; i < ph->tele.nwarn; i++)
		tele_warn_once(s, ph->tele.warn[i]);
	ret = phase_validate_maps(s, err, errlen);
	if (ret < 0)
		return ret;
	/* Each worker's part of the rate: its slots' targets' shares. */
	ret = tsched_worker_rates(plan, ps->slot_target, ps->depth,
				  ps->nworkers, rate);
	if (ret < 0)
		return ret;
	for (unsigned i = 0; i < ps->nworkers; i++) {
		struct worker_cfg wc = {
			.engine = eng,
			.nfiles = plan->ntargets,
			.fds = ph->fds,
			.async = ph->async,
			.depth = ps->depth[i],
			.slot_target = ps->slot_target[i],
			.plan = plan,
			.target_size = ph->size,
			.slice = ps->slice[i],
			.nslices = ps->nslices,
			.seed = time_real_ns() ^ ((uint64_t)getpid() << 20) ^ i,
			.interval_ns = plan->interval_ns,
			.intervals = plan->intervals,
			.iorate = rate[i],
			.engine_flags = prepare_engine_flags(plan,
							     ps->slot_target[i],
							     ps->depth[i],
							     s->sqpoll),
			.notify_fd = ph->efd,
			.vmap = ph->vmap,
			.slave_id = (uint16_t)validate_id(s->hello.name),
			.split = split,
		};

		ret = worker_start(&wc, &ph->workers[i], err, errlen);
		if (ret < 0)
			return ret;
	}
	ph->active = 1;
	log_debug("phase %u (%s) ready: %u targets, %u workers, %s",
		  plan->phase, plan->name, plan->ntargets, ps->nworkers,
		  worker_describe(ph->workers[0]));
	return 0;
}

int phase_go(struct session *s, const struct proto_go *go, char *err,
	     size_t errlen)
{
	struct phase *ph = &s->ph;
	int64_t slave_start, delta;
	uint64_t now_mono, now_real, mono_start;
	int ret;

	if (!ph->active || ph->started || go->phase != ph->plan.phase)
		return 0;
	now_mono = time_mono_ns();
	now_real = time_real_ns();
	ret = prepare_check_go(&ph->plan, go, now_real, &slave_start, err,
			       errlen);
	if (ret < 0)
		return ret;
	ph->started = 1;
	/* Intervals keep the phase's numbers and stamps (a rejoin: from K). */
	ph->start_at = go->start_at;
	ph->next_send = go->first_interval;
	delta = slave_start - (int64_t)now_real;
	mono_start = delta > 0 ? now_mono + (uint64_t)delta : now_mono;
	getrusage(RUSAGE_SELF, &ph->ru_last);
	/* Samples at the intervals' boundaries (phase_collect). */
	telemetry_start(&ph->tele, mono_start, go->first_interval,
			ph->plan.interval_ns);
	if (ph->fs) {
		fsphase_go(ph->fs, mono_start, go->first_interval);
		return 1;
	}
	for (unsigned i = 0; i < ph->slots.nworkers; i++)
		worker_go(ph->workers[i], mono_start, go->first_interval);
	return 1;
}

int phase_measure(struct session *s, const struct proto_measure *ms, char *err,
		  size_t errlen)
{
	struct phase *ph = &s->ph;
	int ret;

	if (!ph->active || ms->phase != ph->plan.phase)
		return 0;
	if (ms->from == ph->plan.warmup_intervals &&
	    ms->intervals == ph->plan.intervals)
		return 0; /* a repeat, or the planned window */
	ret = prepare_check_measure(&ph->plan, ms, err, errlen);
	if (ret < 0)
		return ret;
	/* An earlier end (maxdata=) keeps the start: nothing was missed. */
	if (ms->from != ph->plan.warmup_intervals && ph->next_send > ms->from) {
		/*
		 * Intervals of the window were sent (and left out of this
		 * slave's latency histograms) before this came: the master's
		 * cross-check of the phase_end will not vouch for them and
		 * names this slave with no percentiles; the sums still hold.
		 */
		snprintf(err, errlen,
			 "measure of phase %u came after interval %u of its window was sent: this slave's phase_end latency misses intervals %u..%u",
			 ms->phase, ph->next_send, ms->from + 1, ph->next_send);
		ret = 1;
	}
	/* Sums of intervals past an earlier end will not be sent. */
	for (unsigned k = ms->intervals; k < ph->plan.intervals; k++) {
		free(ph->acc[k]);
		ph->acc[k] = NULL;
	}
	ph->plan.warmup_intervals = ms->from;
	ph->plan.intervals = ms->intervals;
	for (unsigned i = 0; i < ph->slots.nworkers; i++)
		worker_set_end(ph->workers[i], ms->intervals);
	return ret;
}

static uint64_t tv_ns(const struct timeval *tv)
{
	return (uint64_t)tv->tv_sec * NS_PER_SEC + (uint64_t)tv->tv_usec * 1000;
}

/* Master-clock time of the phase's first I/O on this slave, 0 for none. */
static uint64_t first_io_master(const struct phase *ph)
{
	uint64_t first[SESSION_MAX_WORKERS], f;

	for (unsigned i = 0; i < ph->slots.nworkers; i++)
		first[i] = worker_first_io(ph->workers[i]);
	f = ph->fs ? fsphase_first_io(ph->fs) :
		     prepare_first_io(first, ph->slots.nworkers);
	if (!f)
		return 0;
	return prepare_mono_to_master(f,
				      (int64_t)time_real_ns() -
					      (int64_t)time_mono_ns(),
				      ph->plan.clock_offset_ns);
}

/* Send interval iv (complete over the workers) and its error log lines. */
static void send_interval(struct session *s, const struct worker_interval *iv)
{
	struct phase *ph = &s->ph;
	struct proto_msg m = { .type = PROTO_INTERVAL };
	struct proto_interval *pi = &m.u.interval;
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	pi->first_io_ns = first_io_master(ph);
	pi->cpu_user_ns = tv_ns(&ru.ru_utime) - tv_ns(&ph->ru_last.ru_utime);
	pi->cpu_sys_ns = tv_ns(&ru.ru_stime) - tv_ns(&ph->ru_last.ru_stime);
	pi->cores = s->hello.cores;
	ph->ru_last = ru;
	telemetry_tick(&ph->tele, time_mono_ns()); /* its end may be now */
	telemetry_fill(&ph->tele, iv->seq, pi);
	prepare_account(&ph->tot, &ph->plan, iv);
	if (prepare_interval_msg(pi, &ph->plan, ph->start_at, iv) < 0) {
		log_error("cannot encode interval %u", iv->seq);
		proto_msg_free(&m);
		return;
	}
	for (unsigned t = 0; t < iv->ntargets; t++) {
		char text[PROTO_TEXT_LEN];

		if (prepare_error_text(text, sizeof(text), &ph->plan, iv, t))
			outbox_log(s, LOG_WARN, text);
	}
	outbox_send(s, &m);
	proto_msg_free(&m);
}

/*
 * A mismatch where a duplicate unit's block was expected or found: what
 * each side is (a dedup set's place and key, or a unique block's header).
 */
static void mismatch_dup(const struct valmap *m, const struct valmap_bad *b,
			 const char *when, char *text, size_t len)
{
	char want[96], got[128];

	if (b->dup)
		snprintf(want, sizeof(want), "dedup set %llu sector %u key %u",
			 (unsigned long long)b->expect_set, b->expect_sector,
			 dedupval_key(b->expect));
	else
		snprintf(want, sizeof(want), "generation %u by slave %04x",
			 b->expect, b->expect_slave);
	if (b->found.dup)
		snprintf(got, sizeof(got),
			 "dedup set %llu sector %llu key %u (sd id %08x)",
			 (unsigned long long)b->found.set,
			 (unsigned long long)b->found.sector, b->found.gen,
			 b->found.sd);
	else
		snprintf(got, sizeof(got),
			 "generation %u by slave %04x (sd id %08x, sector %llu), written %s",
			 b->found.gen, b->found.slave, b->found.sd,
			 (unsigned long long)b->found.sector, when);
	snprintf(text, len,
		 "data validation: sd %s offset %llu: %s: expected %s, found %s",
		 m->sd, (unsigned long long)b->offset,
		 validate_kind_name(b->kind), want, got);
}

/* Log, in full, the mismatches the workers kept since the last call. */
static void log_mismatches(struct session *s)
{
	struct phase *ph = &s->ph;

	for (unsigned t = 0; ph->vmap && t < ph->plan.ntargets; t++) {
		struct valmap *m = ph->vmap[t];

		pthread_mutex_lock(&m->lock);
		while (m->nlogged < m->nbad) {
			const struct valmap_bad *b = &m->bad[m->nlogged++];
			char text[PROTO_TEXT_LEN], when[64];
			time_t sec = (time_t)(b->found.time_ns / NS_PER_SEC);
			struct tm tm;

			if (b->found.time_ns && gmtime_r(&sec, &tm))
				strftime(when, sizeof(when),
					 "%Y-%m-%dT%H:%M:%SZ", &tm);
			else
				snprintf(when, sizeof(when), "unknown");
			if (b->dup || b->found.dup)
				mismatch_dup(m, b, when, text, sizeof(text));
			else
				snprintf(text, sizeof(text),
					 "data validation: sd %s offset %llu: %s: expected generation %u by slave %04x, found generation %u by slave %04x (sd id %08x, sector %llu), written %s",
					 m->sd, (unsigned long long)b->offset,
					 validate_kind_name(b->kind), b->expect,
					 b->expect_slave, b->found.gen,
					 b->found.slave, b->found.sd,
					 (unsigned long long)b->found.sector,
					 when);
			log_error("%s", text);
			outbox_log(s, LOG_ERROR, text);
		}
		pthread_mutex_unlock(&m->lock);
		if (atomic_load(&m->jerr) < 0 && !ph->status) {
			char text[PROTO_TEXT_LEN];

			snprintf(text, sizeof(text),
				 "sd %s: journal write failed (%s): this slave ends the phase",
				 m->sd, strerror(-atomic_load(&m->jerr)));
			log_error("%s", text);
			outbox_log(s, LOG_ERROR, text);
			ph->status = -EIO;
			for (unsigned i = 0; i < ph->slots.nworkers; i++)
				worker_stop(ph->workers[i]);
		}
	}
}

/*
 * A validate=only pass must have verified every block its map expected
 * (some blocks in flight at a crash are settled instead), and must have
 * had some to verify where its part of the sd is not empty: an emptied,
 * cut, deleted or foreign journal, or a pass cut short, would otherwise
 * read as "0 mismatches". The phase then ends with an error naming the
 * journal.
 */
static void validate_only_check(struct session *s, unsigned t, uint64_t v)
{
	struct phase *ph = &s->ph;
	const struct valmap *m = ph->vmap[t];
	const struct proto_target *pt = &ph->plan.targets[t];
	uint64_t known = ph->v0[t][4];
	uint64_t settled = atomic_load(&m->settled) - ph->v0[t][3];
	char text[PROTO_TEXT_LEN], from[sizeof(m->jpath) + 16];
	int empty_part = ph->size[t] < VALIDATE_BLOCK ||
			 (pt->range_hi && pt->range_lo >= pt->range_hi);

	if (m->jpath[0])
		snprintf(from, sizeof(from), "journal %s", m->jpath);
	else
		snprintf(from, sizeof(from), "this run");
	if (known == 0 && !empty_part)
		snprintf(text, sizeof(text),
			 "data validation: sd %s: %s records no block written by this slave, so validate=only had nothing to verify (was the journal emptied, cut or deleted?)",
			 m->sd, from);
	else if (v + settled < known)
		snprintf(text, sizeof(text),
			 "data validation: sd %s: validate=only verified %llu of the %llu blocks %s says were written",
			 m->sd, (unsigned long long)(v + settled),
			 (unsigned long long)known, from);
	else
		return;
	log_error("%s", text);
	outbox_log(s, LOG_ERROR, text);
	if (!ph->status)
		ph->status = -EIO;
}

/* The phase's validation counters into phase_end, and one line per sd. */
static void validate_end(struct session *s, struct proto_phase_end *pe)
{
	struct phase *ph = &s->ph;

	log_mismatches(s);
	if (ph->vmap && ph->plan.ntargets) {
		pe->val_sds = calloc(ph->plan.ntargets, sizeof(*pe->val_sds));
		if (!pe->val_sds) {
			/* Totals without their split would be refused. */
			log_error("out of memory for the validation counts");
			if (!ph->status)
				ph->status = -ENOMEM;
			return;
		}
	}
	for (unsigned t = 0; ph->vmap && t < ph->plan.ntargets; t++) {
		struct valmap *m = ph->vmap[t];
		/*
		 * Mismatches before verified: a block is counted verified
		 * before it is counted mismatched, so x <= v holds.
		 */
		uint64_t x = atomic_load(&m->mismatched) - ph->v0[t][2];
		uint64_t w = atomic_load(&m->written) - ph->v0[t][0];
		uint64_t v = atomic_load(&m->verified) - ph->v0[t][1];
		struct proto_val_sd *vs = &pe->val_sds[pe->nval_sds++];
		char text[PROTO_TEXT_LEN];
		size_t len;

		vs->target = t;
		vs->written = w;
		vs->verified = v;
		vs->mismatches = x;
		pe->val_written += w;
		pe->val_verified += v;
		pe->val_mismatches += x;
		len = (size_t)
			snprintf(text, sizeof(text),
				 "data validation: sd %s: %llu blocks written, %llu verified, %llu mismatches",
				 m->sd, (unsigned long long)w,
				 (unsigned long long)v, (unsigned long long)x);
		/* Kinds over the run so far (they are not kept per phase). */
		for (int k = 1; x && k < VALIDATE_NKINDS && len < sizeof(text);
		     k++)
			len += (size_t)snprintf(text + len, sizeof(text) - len,
						"%s%s %llu",
						k == 1 ? " (run so far: " :
							 ", ",
						validate_kind_name(
							(enum validate_kind)k),
						(unsigned long long)atomic_load(
							&m->kinds[k]));
		if (x && len < sizeof(text))
			snprintf(text + len, sizeof(text) - len, ")");
		log_info("%s", text);
		outbox_log(s, x ? LOG_ERROR : LOG_INFO, text);
		if (ph->plan.validate == PROTO_VALIDATE_ONLY)
			validate_only_check(s, t, v);
	}
}

static void phase_end(struct session *s)
{
	struct phase *ph = &s->ph;
	struct proto_msg m = { .type = PROTO_PHASE_END };

	validate_end(s, &m.u.phase_end);
	fsphase_validate_end(s, &m.u.phase_end);

	m.u.phase_end.phase = ph->plan.phase;
	m.u.phase_end.intervals = ph->next_send;
	m.u.phase_end.ops = ph->tot.ops;
	m.u.phase_end.bytes = ph->tot.bytes;
	m.u.phase_end.errors = ph->tot.errors;
	m.u.phase_end.first_io_ns = first_io_master(ph);
	m.u.phase_end.status = ph->status ? ph->status :
			       ph->next_send == ph->plan.intervals || ph->eof ?
					    0 :
					    -EIO;
	if (hist_to_sparse(&ph->tot.meas[0], &m.u.phase_end.lat[0]) < 0 ||
	    hist_to_sparse(&ph->tot.meas[1], &m.u.phase_end.lat[1]) < 0) {
		/* Sent empty: the master then reports no percentiles. */
		log_warn("out of memory for the phase's histograms");
		hist_sparse_free(&m.u.phase_end.lat[0]);
		hist_sparse_free(&m.u.phase_end.lat[1]);
		memset(m.u.phase_end.lat, 0, sizeof(m.u.phase_end.lat));
	}
	outbox_send(s, &m);
	proto_msg_free(&m);
	log_debug("phase %u ended: %u intervals, %llu ops", ph->plan.phase,
		  ph->next_send, (unsigned long long)ph->tot.ops);
	phase_reset(ph);
}

/* How many workers contribute to interval k (see prepare_workers_due). */
static unsigned workers_due(const struct phase *ph, unsigned k)
{
	int ended[SESSION_MAX_WORKERS];

	for (unsigned i = 0; i < ph->slots.nworkers; i++)
		ended[i] = worker_finished(ph->workers[i]) &&
			   worker_eof(ph->workers[i]);
	return prepare_workers_due(ended, ph->wlast, ph->slots.nworkers, k);
}

/* Send interval next_send and move on to the next. */
static void send_next(struct session *s)
{
	struct phase *ph = &s->ph;

	send_interval(s, ph->acc[ph->next_send]);
	free(ph->acc[ph->next_send]);
	ph->acc[ph->next_send] = NULL;
	ph->next_send++;
}

int phase_wait_ms(const struct session *s, int most)
{
	const struct phase *ph = &s->ph;

	if (!ph->active || !ph->started)
		return most;
	if (ph->fs)
		most = fsphase_wait_ms(ph->fs, most);
	if (!ph->tele_open)
		return most;
	return telemetry_due_ms(&ph->tele, time_mono_ns(), most);
}

void phase_collect(struct session *s)
{
	struct phase *ph = &s->ph;
	uint64_t junk;
	int all_done = 1;

	if (ph->fs) {
		if (ph->tele_open)
			telemetry_tick(&ph->tele, time_mono_ns());
		if (fsphase_collect(s))
			phase_end(s);
		return;
	}

	if (read(ph->efd, &junk, sizeof(junk)) < 0 && errno != EAGAIN)
		log_warn("eventfd: %s", strerror(errno));
	telemetry_tick(&ph->tele, time_mono_ns());
	for (unsigned i = 0; i < ph->slots.nworkers; i++) {
		struct worker_interval *iv;

		while ((iv = worker_pop(ph->workers[i]))) {
			ph->wlast[i] = (int)iv->seq;
			if (prepare_collect(ph->acc, ph->accn,
					    ph->plan.intervals, iv) < 0)
				log_error("out of memory: interval %u of a worker is lost",
					  iv->seq);
			worker_release(ph->workers[i], iv);
		}
		if (!worker_finished(ph->workers[i]))
			all_done = 0;
	}
	while (ph->next_send < ph->plan.intervals && ph->acc[ph->next_send] &&
	       ph->accn[ph->next_send] == workers_due(ph, ph->next_send))
		send_next(s);
	if (ph->vmap)
		log_mismatches(s);
	if (!ph->status && ph->plan.data_errors &&
	    ph->tot.errors > ph->plan.data_errors) {
		char text[PROTO_TEXT_LEN];

		snprintf(text, sizeof(text),
			 "%llu I/O errors, more than data_errors=%u: this slave ends the phase",
			 (unsigned long long)ph->tot.errors,
			 ph->plan.data_errors);
		log_error("%s", text);
		outbox_log(s, LOG_ERROR, text);
		ph->status = -EIO;
		for (unsigned i = 0; i < ph->slots.nworkers; i++)
			worker_stop(ph->workers[i]);
	}
	if (all_done) {
		ph->eof = 1;
		for (unsigned i = 0; i < ph->slots.nworkers; i++)
			ph->eof &= worker_eof(ph->workers[i]);
		/* Nothing more comes: send what the early enders left. */
		while (ph->eof && ph->next_send < ph->plan.intervals &&
		       ph->acc[ph->next_send])
			send_next(s);
		phase_end(s);
	}
}
