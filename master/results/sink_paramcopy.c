/*
 * The parameter file, copied into the results folder as it was run
 * (flushed and fsynced by fsutil_copy_file; a copy that fails is named
 * incomplete, the run goes on).
 */
#include <stdio.h>
#include <string.h>
#include "common/fsutil.h"
#include "master/run/master_int.h"
#include "master/results/sink.h"

static int paramcopy_open(const struct run_view *rv, void *priv)
{
	char path[PATH_MAX + 64];
	const char *base = strrchr(rv->opt->param_path, '/');
	const char *name = base ? base + 1 : rv->opt->param_path;
	int ret;

	(void)priv;
	snprintf(path, sizeof(path), "%s/%s", rv->out->dir, name);
	ret = fsutil_copy_file(rv->opt->param_path, path);
	if (ret < 0)
		results_incomplete(rv, name, ret);
	return 0;
}

const struct sink_ops sink_paramcopy = {
	.name = "parameter file",
	.open = paramcopy_open,
};
