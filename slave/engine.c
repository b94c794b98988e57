/*
 * The table of I/O engines. Adding an engine is one file and one line here.
 */
#include <string.h>
#include "slave/engine.h"

static const struct engine_ops *const engines[] = {
	&engine_uring_ops,
	&engine_null_ops,
};

static const char *const names[] = { "io_uring", "null", NULL };

const struct engine_ops *engine_find(const char *name)
{
	for (size_t i = 0; i < sizeof(engines) / sizeof(engines[0]); i++)
		if (strcmp(engines[i]->name, name) == 0)
			return engines[i];
	return NULL;
}

const char *const *engine_names(void)
{
	return names;
}
