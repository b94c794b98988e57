/*
 * Probes (probe= lines): commands the master samples during the run, each
 * every every= from the start of the first run to the end of the last,
 * whose output is one number or KEY=VALUE pairs: vSAN's resync bytes
 * through govc, `ceph status -f json | jq .pgmap.degraded_ratio`, a SAN's
 * REST API through curl. They run as the ev= commands do (events.c: a
 * process group of their own, stdin /dev/null, a timeout that kills the
 * group, nothing waited for on the master's loop), on the master only.
 * Every sample is a row of probes.csv, stamped when the command finished
 * (master clock) with the run and interval it fell in; summary.json's
 * "probes" counts them; an ev= may end at the first sample that meets
 * until=probe:NAME.KEY<op>VALUE. The output is read by
 * probe_parse_output() (probe_parse.c, pure).
 */
#ifndef LOCKSTEP_MASTER_EVENTS_PROBES_H
#define LOCKSTEP_MASTER_EVENTS_PROBES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "master/events/child.h"
#include "master/params/params.h"
#include "master/results/results.h"

struct run_view;
struct run_result;

/* At most this many keys a sample; more makes it unparsed. */
#define PROBE_KEYS_MAX 16
/* A sample's stdout kept for parsing (the rest is counted, and the sample
   is unparsed: a cut output could end inside a number). */
#define PROBE_OUT_MAX (64 * 1024)

struct probe_kv {
	char key[PARAMS_PROBE_KEY_MAX];
	double v;
};

/*
 * The len bytes of a sample's stdout: one number (the key "value"), or
 * KEY=VALUE pairs separated by blanks or newlines, KEY of [A-Za-z0-9_.-]
 * (shorter than PARAMS_PROBE_KEY_MAX), each once, VALUE a finite decimal
 * number, at most PROBE_KEYS_MAX. Returns the number of keys in kv (at
 * most PROBE_KEYS_MAX), or -EINVAL with why (a static string) for
 * anything else: never a made-up number.
 */
int probe_parse_output(const char *buf, size_t len,
		       struct probe_kv kv[PROBE_KEYS_MAX], const char **why);

/*
 * The run (index into runs, -1 none) and its 1-based interval that time t
 * (master clock) falls in: a run that started (start_at) and whose
 * intervals, as planned (done: as reported, rows), cover t; the latest
 * such. Pure.
 */
int probe_parse_locate(const struct run_result *runs, size_t nruns, uint64_t t,
		       unsigned *interval);

/* How a sample ended: its row's status column. */
enum probe_status {
	PROBE_OK,
	PROBE_TIMEOUT,
	PROBE_EXIT,     /* exit N, N != 0 */
	PROBE_SIGNAL,   /* signal N, not ours */
	PROBE_UNPARSED, /* exit 0, output not one number nor pairs */
};

/* One probe at run time. */
struct probe_state {
	const struct params_probe *pp;
	pid_t pid;   /* the sample running (its process group), 0 none */
	int pipe[2]; /* its stdout and stderr, read ends; -1 closed */
	char *out;   /* its stdout, PROBE_OUT_MAX bytes */
	size_t outlen;
	uint64_t out_dropped; /* stdout past PROBE_OUT_MAX, this sample */
	int killed;           /* the timeout killed it */
	uint64_t started_real, started_mono, deadline_mono, next_mono;
	struct child_log log; /* probes/NAME.log */
	/* The samples: how many, how many failed, the last one. */
	uint64_t samples, failures, unparsed;
	unsigned said; /* 1 << status: a sample that was not ok is said
			  on the console once a probe and status */
	uint64_t seq;  /* samples ended so far; the last one's number */
	enum probe_status last_status;
	int last_code; /* PROBE_EXIT's status, PROBE_SIGNAL's signal */
	uint64_t last_real, last_started_real;
	struct probe_kv last[PROBE_KEYS_MAX];
	int nlast;
	/* The last value of each key seen in the run (summary.json). */
	struct probe_kv key[PROBE_KEYS_MAX];
	int nkey;
	uint64_t keys_untracked; /* values of keys past PROBE_KEYS_MAX */
};

struct probes {
	struct probe_state *pr;
	size_t n;
	int started, stopped;
	struct rfile csv; /* probes.csv, opened by its sink */
};

/* The file's probes into *out (NULL without any). 0 or -ENOMEM. */
int probes_new(const struct params *p, struct probes **out);
/* Free and NULL *P (after probes_stop); safe on NULL. */
void probes_free(struct probes **P);
/*
 * From the master's loop (before events_tick): start what is due, read
 * the output, reap, time out, record. Never waits for a child.
 */
void probes_tick(const struct run_view *rv);
/* The run is over: samples running are killed (not recorded), the logs
   closed. */
void probes_stop(const struct run_view *rv);
/*
 * until=probe: of an event polling since since_real: whether probe
 * u->probe's newest sample, if newer than *seen, started at or after
 * since_real and meets u; *seen is moved to it, *at is its stamped time.
 */
bool probes_until_met(const struct probes *P,
		      const struct params_probe_until *u, uint64_t since_real,
		      uint64_t *seen, uint64_t *at);
/* "ok", "timeout", "exit N", "signal N", "unparsed" into buf. */
const char *probes_status_text(enum probe_status st, int code, char *buf,
			       size_t len);

#endif
