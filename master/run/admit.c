/*
 * Who may join the run: a slave's hello judged (admit_hello). The key the
 * peer proved decides the names it may use; the hello must be a sane one
 * of this build; a name already in is taken over only as roster.c's rules
 * say; a new slave must be one the run waits for, have its engine and get
 * its hosts/ file. link.c counts a refused hello against its sender's
 * budget when it says so, and answers an admitted one.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "common/fsutil.h"
#include "common/log.h"
#include "master/params/params.h"
#include "master/run/master_int.h"
#include "lockstep_version.h"

/* Whether the slave's hello lists the engine the run uses. */
static int has_engine(const struct proto_hello *h, const char *engine)
{
	for (uint32_t i = 0; i < h->nengines && i < PROTO_MAX_ENGINES; i++)
		if (strcmp(h->engines[i], engine) == 0)
			return 1;
	return 0;
}

/* The hello's engines as "a, b", or "none". Returns buf. */
static const char *engine_list(const struct proto_hello *h, char *buf,
			       size_t len)
{
	size_t used = 0;

	snprintf(buf, len, "none");
	for (uint32_t i = 0;
	     i < h->nengines && i < PROTO_MAX_ENGINES && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s",
					 i ? ", " : "", h->engines[i]);
	return buf;
}

/* Refused: why into buf; *invalid when it counts as an invalid frame. */
static struct slave_rec *refused(char *buf, size_t len, int *invalid, int bad,
				 const char *why)
{
	snprintf(buf, len, "%s", why);
	*invalid = bad;
	return NULL;
}

/* What the key the peer proved says of the name it asks for. */
static const char *key_refused(const struct master *m,
			       const struct hub_peer *peer,
			       const struct proto_hello *h)
{
	/*
	 * With CURVE, the key the peer proved decides the names it may use
	 * (keys.h): a launched slave's name belongs to its per-run key, and
	 * a listed key with names gets only those. The key is never logged.
	 */
	if ((m->link.curve || peer->via == HUB_LOCAL) &&
	    !keys_name_allowed(&m->link.auth, peer->key, h->name))
		return "the key it proved is not authorized for that name";
	/*
	 * --insecure: a plain peer may use any name but those of the slaves
	 * this master forked, which prove their per-run keys on the local
	 * pair (a local user reading their pid from /proc cannot pass).
	 */
	if (!m->link.curve && peer->via == HUB_MAIN &&
	    keys_name_bound(&m->link.auth, h->name))
		return "that name belongs to a slave this master started, which proves its key";
	return NULL;
}

/* A new slave: one the run waits for, with its engine and hosts/ file. */
static struct slave_rec *admit_new(struct master *m,
				   const struct hub_peer *peer,
				   const struct proto_hello *h, char *why,
				   size_t len, int *invalid)
{
	char host[LOG_ESC_LEN(PROTO_HOST_LEN)];
	struct slave_rec *s;
	struct rfile csv;
	int ret;

	if (!m->roster.registering)
		return refused(why, len, invalid, 0,
			       "the run has started and it is not one of its slaves");
	if (m->params->nhd && roster_hd_of_name(m->params, h->name) < 0)
		return refused(why, len, invalid, 0, "no hd= line names it");
	if (!has_engine(h, m->opt->engine)) {
		char have[PROTO_MAX_ENGINES * (PROTO_NAME_LEN + 2) + 8];
		char esc[LOG_ESC_LEN(sizeof(have))];

		snprintf(why, len, "it has no engine %s (it has: %s)",
			 m->opt->engine,
			 log_escape(engine_list(h, have, sizeof(have)), esc,
				    sizeof(esc)));
		return NULL;
	}
	ret = results_open_slave(&m->view, h->name, &csv);
	if (ret < 0)
		return refused(why, len, invalid, 0,
			       ret == -EINVAL ?
				       "its name cannot name a file under hosts/" :
				       strerror(-ret));
	s = roster_add(&m->roster, m->params, peer, h);
	if (!s) {
		results_discard(&m->view, &csv);
		log_limited("hello refused", LOG_WARN,
			    "slave %s refused: %d slaves at most", h->name,
			    MAX_SLAVES);
		return refused(why, len, invalid, 0, "");
	}
	results_slave_file(&m->view, (unsigned)(s - m->roster.slaves), &csv);
	log_info("slave %s registered (host %s, pid %u, %u cores)", h->name,
		 log_escape(h->host, host, sizeof(host)), h->pid, h->cores);
	return s;
}

struct slave_rec *admit_hello(struct master *m, struct slave_rec *s,
			      const struct hub_peer *peer,
			      const struct proto_hello *h, char *why,
			      size_t len, int *invalid)
{
	const char *no = key_refused(m, peer, h);

	*invalid = 0;
	if (no)
		return refused(why, len, invalid, 1, no);
	if (!fsutil_name_ok(h->name))
		return refused(why, len, invalid, 1,
			       "a slave name is 1 to 63 letters, digits, '-', '_' and '.', not starting with '.'");
	if (h->cores == 0 || h->cores > PLAUSIBLE_MAX_CORES)
		return refused(why, len, invalid, 1,
			       "it declares no cores or more than Linux has");
	if (strcmp(h->version, LOCKSTEP_VERSION) != 0) {
		char ver[LOG_ESC_LEN(PROTO_NAME_LEN)];

		snprintf(why, len,
			 "it runs lockstep %s, this master lockstep %s: %s",
			 log_escape(h->version, ver, sizeof(ver)),
			 LOCKSTEP_VERSION, LINK_SAME_VERSION);
		return NULL;
	}
	if (s && strcmp(s->hello.name, h->name) != 0) {
		snprintf(why, len, "its connection is registered as slave %s",
			 s->hello.name);
		return NULL;
	}
	if (!s)
		s = roster_find_name(&m->roster, h->name);
	no = roster_claim_refused(&m->roster, &m->ph.launch, m->params, m->opt,
				  h);
	if (no)
		return refused(why, len, invalid, 0, no);
	if (!s)
		return admit_new(m, peer, h, why, len, invalid);
	no = roster_takeover_refused(m, s, peer, h, why, len);
	if (no)
		return no == why ? NULL : refused(why, len, invalid, 0, no);
	if (s->state != SLAVE_JOINED || strcmp(s->hello.id, h->id) ||
	    s->peer.via != peer->via || s->peer.len != peer->len ||
	    memcmp(s->peer.id, peer->id, peer->len))
		roster_back(m, s, peer, h);
	return s;
}
