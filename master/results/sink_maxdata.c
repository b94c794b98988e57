/*
 * How a run with maxdata= ended: summary.json's run says "end" (maxdata:
 * the data limit cut it; planned: its own end, elapsed=, its seekpct=eof
 * passes or a steady warmup's window) with the limit in bytes and the
 * intervals it was cut to, and summary.txt says it in a line. Runs
 * without maxdata= get no key.
 */
#include <stdio.h>
#include "common/jsonw.h"
#include "master/run/master_int.h"
#include "master/results/sink.h"

static void maxdata_run_json(const struct run_view *rv, void *priv,
			     const struct run_result *r, struct jsonw *w)
{
	(void)rv;
	(void)priv;
	if (!r->maxdata_limit)
		return;
	jsonw_str(w, "end", r->maxdata_cut ? "maxdata" : "planned");
	jsonw_u64(w, "maxdata_bytes", r->maxdata_limit);
	if (r->maxdata_cut)
		jsonw_u64(w, "maxdata_cut_intervals", r->maxdata_cut);
}

static void maxdata_run_txt(const struct run_view *rv, void *priv,
			    const struct run_result *r, FILE *f)
{
	(void)rv;
	(void)priv;
	if (r->maxdata_cut)
		fprintf(f,
			"ended on maxdata=%llu bytes (passed by %llu measured bytes): cut to %u intervals\n",
			(unsigned long long)r->maxdata_limit,
			(unsigned long long)r->maxdata_bytes, r->maxdata_cut);
}

const struct sink_ops sink_maxdata = {
	.name = "maxdata (summary.json, summary.txt)",
	.run_json = maxdata_run_json,
	.run_txt = maxdata_run_txt,
};
