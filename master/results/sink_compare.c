/*
 * compare.txt and compare.json: the --baseline comparison the history
 * hook made (master/history/), written when the verdict is sealed, before
 * the summaries are rewritten with it, so that a comparison that could not
 * be written makes the run incomplete (exit 5) and the summaries say so.
 */
#include <errno.h>
#include "master/history/history.h"
#include "master/run/master_int.h"
#include "master/results/sink.h"

static void compare_one(const struct run_view *rv, const struct history_seal *s,
			const char *name, int json)
{
	struct rfile out;
	FILE *f;
	int ret = results_atomic_open(rv, name, &out);

	if (ret < 0)
		return;
	f = results_w(&out);
	if (f && history_compare_file(f, s, json) < 0)
		results_incomplete(rv, name, -EIO);
	results_atomic_commit(rv, &out, name);
}

static void compare_seal(const struct run_view *rv, void *priv,
			 const struct history_seal *s)
{
	(void)priv;
	if (!s->cmp)
		return;
	compare_one(rv, s, "compare.txt", 0);
	compare_one(rv, s, "compare.json", 1);
}

const struct sink_ops sink_compare = {
	.name = "compare.txt, compare.json",
	.seal = compare_seal,
};
