/*
 * What the probes give the results, as a sink of the results table
 * (master/results/sinks.c, sink.h): probes.csv, opened at the start and
 * written a row per key of each sample as it ends (probes.c), then
 * synced and closed at the end; summary.json's "probes": each probe with
 * its samples, failures and the last value of each key.
 */
#include <string.h>
#include "common/jsonw.h"
#include "common/log.h"
#include "master/events/probes.h"
#include "master/run/master_int.h"
#include "master/results/sink.h"

static int probes_open(const struct run_view *rv, void *priv)
{
	struct probes *P = rv->probes;
	FILE *f;
	int ret;

	(void)priv;
	if (!P)
		return 0;
	ret = results_file_open(rv, "probes.csv", &P->csv);
	if (ret < 0) {
		log_error("cannot write %s/probes.csv: %s", rv->out->dir,
			  strerror(-ret));
		return ret;
	}
	if ((f = results_w(&P->csv))) {
		fputs("time_ns,run,interval,probe,key,value,status\n", f);
		results_wrote(rv, &P->csv);
	}
	return 0;
}

static void probes_end(const struct run_view *rv, void *priv)
{
	(void)priv;
	if (rv->probes)
		results_file_close(rv, &rv->probes->csv, 1);
}

static void probes_close(const struct run_view *rv, void *priv)
{
	(void)priv;
	if (rv->probes)
		results_file_close(rv, &rv->probes->csv, 0);
}

static void probes_json(const struct run_view *rv, void *priv, struct jsonw *w)
{
	const struct probes *P = rv->probes;
	char buf[32];

	(void)priv;
	if (!P)
		return;
	jsonw_array(w, "probes");
	for (size_t i = 0; i < P->n; i++) {
		const struct probe_state *s = &P->pr[i];

		jsonw_object(w, NULL);
		jsonw_str(w, "name", s->pp->name);
		jsonw_str(w, "exec", s->pp->exec);
		jsonw_dbl(w, "every_s", s->pp->every_s);
		jsonw_dbl(w, "timeout_s", s->pp->timeout_s);
		jsonw_u64(w, "samples", s->samples);
		jsonw_u64(w, "ok", s->samples - s->failures - s->unparsed);
		/* timeout, exit N, signal N; unparsed apart */
		jsonw_u64(w, "failures", s->failures);
		jsonw_u64(w, "unparsed", s->unparsed);
		if (s->seq)
			jsonw_str(w, "last_status",
				  probes_status_text(s->last_status,
						     s->last_code, buf,
						     sizeof(buf)));
		else
			jsonw_str(w, "last_status", "");
		jsonw_u64(w, "last_ns", s->last_real);
		/* The last value of each key seen in the run. */
		jsonw_object(w, "last");
		for (int k = 0; k < s->nkey; k++)
			jsonw_dbl(w, s->key[k].key, s->key[k].v);
		jsonw_end(w);
		jsonw_u64(w, "keys_untracked", s->keys_untracked);
		jsonw_str(w, "log", s->log.name);
		jsonw_u64(w, "log_bytes", s->log.kept);
		jsonw_u64(w, "log_dropped_bytes", s->log.dropped);
		jsonw_end(w);
	}
	jsonw_end(w);
}

const struct sink_ops sink_probes = {
	.name = "probes",
	.open = probes_open,
	.summary_json = probes_json,
	.end = probes_end,
	.close = probes_close,
};
