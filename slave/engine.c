/*
 * The table of I/O engines, generated: engine_table.def holds one
 * ENGINE(NAME) per name in LS_ENGINES (slave/CMakeLists.txt), in that
 * order, the default first. Adding an engine is its file engine_NAME.c and
 * its name in that list: everything else that lists engines (the hello's
 * engine list, the master's --engine choices, error messages, the
 * conformance test) reads this table.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include "slave/engine.h"

#define ENGINE(stem) extern const struct engine_ops engine_##stem##_ops;
#include "engine_table.def"
#undef ENGINE

static const struct engine_ops *const engines[] = {
#define ENGINE(stem) &engine_##stem##_ops,
#include "engine_table.def"
#undef ENGINE
};

#define NENGINES (sizeof(engines) / sizeof(engines[0]))

/*
 * The names are taken from the table once: an ops table's address is not a
 * constant expression, so the list cannot be written out at compile time
 * without naming every engine a second time.
 */
static const char *names[NENGINES + 1];
static pthread_once_t names_once = PTHREAD_ONCE_INIT;

static void names_fill(void)
{
	for (size_t i = 0; i < NENGINES; i++)
		names[i] = engines[i]->name;
	names[NENGINES] = NULL;
}

const struct engine_ops *engine_find(const char *name)
{
	for (size_t i = 0; i < NENGINES; i++)
		if (strcmp(engines[i]->name, name) == 0)
			return engines[i];
	return NULL;
}

const char *const *engine_names(void)
{
	pthread_once(&names_once, names_fill);
	return names;
}

size_t engine_list(char *buf, size_t len)
{
	size_t used = 0;

	if (len)
		buf[0] = 0;
	for (size_t i = 0; i < NENGINES; i++) {
		int n = snprintf(buf + used, len - used, "%s%s", i ? ", " : "",
				 engines[i]->name);

		if (n < 0 || (size_t)n >= len - used)
			return len ? len - 1 : 0;
		used += (size_t)n;
	}
	return used;
}
