/*
 * The rules of a mid-phase rejoin (rejoin.h): pure, no clocks or sockets.
 */
#include <errno.h>
#include <stddef.h>
#include "master/run/rejoin.h"

unsigned rejoin_first_interval(uint64_t start_ns, uint64_t interval_ns,
			       uint64_t now_ns, uint64_t lead_ns)
{
	uint64_t at, k;

	if (__builtin_add_overflow(now_ns, lead_ns, &at))
		at = UINT64_MAX;
	if (at <= start_ns)
		return 1;
	k = (at - start_ns) / interval_ns;
	if ((at - start_ns) % interval_ns)
		k++;
	if (k == 0)
		k = 1;
	return k > UINT32_MAX ? UINT32_MAX : (unsigned)k;
}

static int wait(struct rejoin_out *out, const char *why)
{
	out->verdict = REJOIN_WAIT;
	out->first = 0;
	out->why = why;
	return 0;
}

int rejoin_decide(const struct rejoin_in *in, struct rejoin_out *out)
{
	unsigned first;

	if (!in->interval_ns)
		return -EINVAL;
	if (!in->running)
		return wait(out, "no phase is running");
	if (in->format)
		return wait(out,
			    "a format pass splits the working set among the slaves that began it");
	if (in->eof)
		return wait(out,
			    "a seekpct=eof pass splits its ranges among the slaves that began it");
	if (in->validate == 2)
		return wait(out,
			    "a validate=only pass reads its ranges once, split among the slaves that began it");
	if (in->curve)
		return wait(out,
			    "a curve phase's rate is measured on (or derived from) the cluster that began it");
	if (!in->planned)
		return wait(out,
			    "it had no part in this phase's plan, and one now would change every other slave's");
	if (in->fs && in->once)
		return wait(out,
			    "a fileselect=once fwd goes over its files once, and a new process would begin again");
	if (in->fs ? !in->nfwds : !in->ntargets)
		return wait(out, "its part of this phase is empty");
	if (in->validate == 1 && !in->same_process && !in->journal)
		return wait(out,
			    "validate=yes: the generations of its blocks were in the process that was lost (no journal=)");
	if (!in->same_host)
		return wait(out,
			    "it runs on another host than the one its clock offset was measured for");
	first = rejoin_first_interval(in->start_ns, in->interval_ns, in->now_ns,
				      in->lead_ns);
	if (first >= in->intervals || in->intervals - first < REJOIN_MIN_LEFT)
		return wait(out, "too little of the phase is left");
	out->verdict = REJOIN_JOIN;
	out->first = first;
	out->why = NULL;
	return 0;
}
