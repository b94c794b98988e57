/*
 * What the results layer (master/results/) and the event runner
 * (master/events/) are given of a run: the run as planned and the parts
 * they may read, each behind a const pointer, and the parts they own or
 * record into. They never see struct master (run/master_int.h), which
 * stays the conductor's: neither can move a phase on, register a slave or
 * change an option. master.c fills the view once, when every part exists,
 * and hands &view to every call down into results/ and events/.
 */
#ifndef LOCKSTEP_MASTER_RUN_VIEW_H
#define LOCKSTEP_MASTER_RUN_VIEW_H

#include <stddef.h>
#include <stdint.h>

struct run_opts;
struct params;
struct plan_phase;
struct roster;
struct phase_state;
struct link_state;
struct run_facts;
struct results_state;
struct events;
struct probes;
struct cmds;

struct run_view {
	/* The run as planned: set once, read-only. */
	const struct run_opts *opt;
	const struct params *params;
	const struct plan_phase *phases;
	size_t nphases;
	const char *run_id;
	uint64_t started_real;
	/* What they read and never change (their owners in run/). */
	const struct roster *roster;   /* the slaves (roster.c) */
	const struct phase_state *ph;  /* the phases (conductor.c) */
	const struct link_state *link; /* the transport (link.c) */
	/* The facts that decide the exit code: anyone who observes one
	   records it (decide.h); only decide_exit() turns them into a code. */
	struct run_facts *fact;
	/* Their own state. */
	struct results_state *out; /* the sinks (results/) */
	struct events *events;     /* the ev= lines (events/), NULL none */
	struct probes *probes; /* probe= lines (events/probes.c), NULL none */
	struct cmds *cmds;     /* startcmd=, endcmd= (events/cmds.c), NULL */
};

#endif
