/*
 * The slave roster of the master: every slave that registered, found by
 * its ZeroMQ routing id (an open-addressing hash table) or by its name; the
 * names a run waits for (from hd= lines or local-N); and the two changes of
 * a slave's standing, lost (roster_mark_lost) and back (roster_back).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common/exitcode.h"
#include "common/log.h"
#include "master/params/params.h"
#include "common/timeutil.h"
#include "master/run/master_int.h"

/* Slaves by ZeroMQ routing id: an open-addressing hash table. */
static unsigned peer_hash(const struct hub_peer *p)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (size_t i = 0; i < p->len; i++)
		h = (h ^ p->id[i]) * 0x100000001b3ull;
	return (unsigned)(h ^ (h >> 32)) & (PEER_SLOTS - 1);
}

static int peer_equal(const struct hub_peer *a, const struct hub_peer *b)
{
	return a->via == b->via && a->len == b->len &&
	       memcmp(a->id, b->id, a->len) == 0;
}

static void peer_insert(struct roster *r, unsigned idx)
{
	unsigned h = peer_hash(&r->slaves[idx].peer);

	while (r->peer_tab[h])
		h = (h + 1) & (PEER_SLOTS - 1);
	r->peer_tab[h] = (int)idx + 1;
}

/* After a slave's routing id changed (rare): build the table anew. */
static void peer_rebuild(struct roster *r)
{
	memset(r->peer_tab, 0, sizeof(r->peer_tab));
	for (unsigned i = 0; i < r->nslaves; i++)
		peer_insert(r, i);
}

struct slave_rec *roster_find_peer(struct roster *r, const struct hub_peer *p)
{
	for (unsigned h = peer_hash(p); r->peer_tab[h];
	     h = (h + 1) & (PEER_SLOTS - 1)) {
		struct slave_rec *s = &r->slaves[r->peer_tab[h] - 1];

		if (peer_equal(&s->peer, p))
			return s;
	}
	return NULL;
}

int roster_hd_of_name(const struct params *p, const char *name)
{
	char want[PROTO_NAME_LEN];

	for (size_t h = 0; h < p->nhd; h++)
		for (unsigned k = 0; k < p->hd[h].slaves; k++) {
			roster_expected_name(&p->hd[h], k, want, sizeof(want));
			if (strcmp(want, name) == 0)
				return (int)h;
		}
	return -1;
}

struct slave_rec *roster_find_name(struct roster *r, const char *name)
{
	for (unsigned i = 0; i < r->nslaves; i++)
		if (strcmp(r->slaves[i].hello.name, name) == 0)
			return &r->slaves[i];
	return NULL;
}

void roster_mark_lost(struct master *m, struct slave_rec *s)
{
	struct slave_loss *l = realloc(s->lossrec,
				       (s->nlossrec + 1) * sizeof(*l));

	s->state = SLAVE_LOST;
	s->lost_real = time_real_ns();
	s->losses++;
	if (l) {
		s->lossrec = l;
		l = &l[s->nlossrec++];
		memset(l, 0, sizeof(*l));
		l->lost_real = s->lost_real;
		l->rejoin_run = -1;
	} else {
		log_warn("out of memory recording the loss of slave %s",
			 s->hello.name);
	}
	midphase_lost(m, s);
	/* A loss an event (expect_loss=) caused does not degrade the run. */
	s->loss_expected = events_loss_expected(&m->view, s);
	if (m->ph.merge)
		merge_slave_lost(m->ph.merge, (unsigned)(s - m->roster.slaves));
	if (!s->loss_expected)
		m->fact.slaves_lost++;
}

void roster_back(struct master *m, struct slave_rec *s,
		 const struct hub_peer *peer, const struct proto_hello *h)
{
	int again;

	/* A restart we did not notice: its old process is gone. */
	if (s->state == SLAVE_JOINED && s->in_phase && m->ph.merge)
		roster_mark_lost(m, s);
	/* In a running phase it may rejoin it (midphase.c says). */
	again = midphase_back(m, s, !h);
	if (h && strcmp(h->id, s->hello.id) != 0)
		log_warn("slave %s is back as a new process (pid %u, was %u); %s",
			 h->name, h->pid, s->hello.pid,
			 again ? "it may rejoin the running phase" :
				 "it joins at the next phase");
	else
		log_warn("slave %s is back; %s", s->hello.name,
			 again ? "it may rejoin the running phase" :
				 "it joins at the next phase");
	if (peer && !peer_equal(&s->peer, peer)) {
		s->peer = *peer;
		peer_rebuild(&m->roster);
		/* Another connection: what the old one sent is not held. */
		s->banned = 0;
		s->invalid = 0;
	} else if (peer) {
		s->peer = *peer; /* the same routing id; its key as proved */
	}
	if (h)
		s->hello = *h;
	s->state = SLAVE_JOINED;
	s->in_phase = 0;
	s->back_real = time_real_ns();
	if (s->nlossrec && !s->lossrec[s->nlossrec - 1].back_real)
		s->lossrec[s->nlossrec - 1].back_real = s->back_real;
	s->last_rx = time_mono_ns();
	events_back(&m->view, s);
}

struct slave_rec *roster_add(struct roster *r, const struct params *p,
			     const struct hub_peer *peer,
			     const struct proto_hello *h)
{
	struct slave_rec *s;

	if (r->nslaves >= MAX_SLAVES)
		return NULL;
	s = &r->slaves[r->nslaves++];
	memset(s, 0, sizeof(*s));
	s->peer = *peer;
	peer_insert(r, (unsigned)(s - r->slaves));
	s->hello = *h;
	s->state = SLAVE_JOINED;
	s->last_rx = time_mono_ns();
	s->hd = roster_hd_of_name(p, h->name);
	clockoff_init(&s->clk);
	return s;
}

void roster_expected_name(const struct params_hd *hd, unsigned k, char *buf,
			  size_t len)
{
	if (hd->slaves <= 1)
		snprintf(buf, len, "%s", hd->name);
	else
		snprintf(buf, len, "%s-%u", hd->name, k + 1);
}

unsigned roster_missing(struct roster *r, const struct params *p,
			const struct run_opts *o, char *buf, size_t len)
{
	char name[PROTO_NAME_LEN];
	unsigned missing = 0;
	size_t used = 0;

	buf[0] = 0;
	if (p->nhd == 0)
		return r->nslaves < o->nlocal + o->expect ?
			       o->nlocal + o->expect - r->nslaves :
			       0;
	for (size_t h = 0; h < p->nhd; h++) {
		const struct params_hd *hd = &p->hd[h];

		for (unsigned k = 0; k < hd->slaves; k++) {
			roster_expected_name(hd, k, name, sizeof(name));
			if (roster_find_name(r, name))
				continue;
			missing++;
			if (used < len)
				used += (size_t)
					snprintf(buf + used, len - used, "%s%s",
						 missing > 1 ? ", " : "", name);
		}
	}
	return missing;
}

unsigned roster_live_count(const struct roster *r)
{
	unsigned n = 0;

	for (unsigned i = 0; i < r->nslaves; i++)
		n += r->slaves[i].state == SLAVE_JOINED;
	return n;
}

unsigned roster_unended(const struct roster *r, unsigned intervals,
			unsigned *holes)
{
	unsigned n = 0;

	*holes = 0;
	for (unsigned i = 0; i < r->nslaves; i++) {
		const struct slave_rec *s = &r->slaves[i];
		unsigned did = s->end_intervals < intervals ? s->end_intervals :
							      intervals;

		if (!s->in_phase || s->state != SLAVE_JOINED)
			continue;
		if (!s->ended)
			n++;
		else if (s->contig < did)
			(*holes)++;
	}
	return n;
}

int *roster_live_hosts(const struct roster *r, unsigned *n)
{
	int *hd = malloc(sizeof(int) * (r->nslaves ? r->nslaves : 1));

	*n = 0;
	if (!hd)
		return NULL;
	for (unsigned i = 0; i < r->nslaves; i++)
		if (r->slaves[i].state == SLAVE_JOINED)
			hd[(*n)++] = r->slaves[i].hd;
	return hd;
}

/* The entry of a process the master started here under name, or NULL. */
static const struct launch_proc *local_proc(const struct launch *l,
					    const char *name)
{
	for (unsigned i = 0; i < l->n; i++) {
		const struct launch_proc *p = &l->p[i];

		if (!p->helper && strcmp(p->host, "localhost") == 0 &&
		    strcmp(p->name, name) == 0)
			return p;
	}
	return NULL;
}

const char *roster_claim_refused(const struct roster *r, const struct launch *l,
				 const struct params *params,
				 const struct run_opts *o,
				 const struct proto_hello *h)
{
	const struct launch_proc *p = local_proc(l, h->name);
	unsigned others = 0;

	if (p) {
		/* A cross-check: the key of a launched slave is the proof. */
		if (p->pid <= 0)
			return "the slave the master started under this name has exited";
		if ((pid_t)h->pid != p->pid)
			return "its pid is not the one of the slave the master started under this name";
		return NULL;
	}
	if (params->nhd)
		return NULL; /* hd= lines name every slave: checked by the caller */
	for (unsigned i = 0; i < r->nslaves; i++)
		if (strcmp(r->slaves[i].hello.name, h->name) != 0 &&
		    !local_proc(l, r->slaves[i].hello.name))
			others++;
	if (others >= o->expect)
		return "no place is left for a slave started elsewhere (--expect-slaves)";
	return NULL;
}

const char *roster_takeover_refused(struct master *m, struct slave_rec *s,
				    const struct hub_peer *peer,
				    const struct proto_hello *h, char *buf,
				    size_t len)
{
	uint64_t silent = time_mono_ns() - s->last_rx;
	int same = peer_equal(&s->peer, peer) &&
		   strcmp(s->hello.id, h->id) == 0;

	/* The same key proves the same slave; a lost one may be replaced. */
	if (s->peer.key[0] && strcmp(s->peer.key, peer->key) == 0)
		return NULL;
	if (s->state != SLAVE_JOINED)
		return NULL;
	if (s->peer.key[0]) {
		snprintf(buf, len, "slave %s is registered with another key",
			 s->hello.name);
		return buf;
	}
	if (same)
		return NULL;
	if (silent > m->opt->slave_timeout_ns) {
		log_warn("slave %s: nothing heard for %.1f s and a new process claims its name: it is lost",
			 s->hello.name, (double)silent / 1e9);
		roster_mark_lost(m, s);
		return NULL;
	}
	snprintf(buf, len,
		 "slave %s is registered and alive (pid %u, heard %.1f s ago); a new process may take its name only once it is lost",
		 s->hello.name, s->hello.pid, (double)silent / 1e9);
	return buf;
}
