/*
 * The names of fwd operations (Vdbench's Operations), a leaf of the
 * parser: fs.c, fs_rd.c and values.c read operation= and the rd's
 * operations= and foroperation= through it.
 */
#include "master/params/params_int.h"

#include <string.h>

const char *params_fsop_name(enum params_fsop op)
{
	static const char *const names[PARAMS_FSOP_NR] = {
		"read",   "write", "create", "delete",  "mkdir",
		"rmdir",  "open",  "close",  "getattr", "setattr",
		"access", "copy",  "move",
	};

	return (unsigned)op < PARAMS_FSOP_NR ? names[op] : "?";
}

int fsop_parse(const struct val *v)
{
	for (int op = 0; op < PARAMS_FSOP_NR; op++)
		if (val_is(v, params_fsop_name((enum params_fsop)op)))
			return op;
	return -1;
}
