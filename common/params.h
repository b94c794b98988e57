/* Forwarding header, removed at merge. */
#include "master/params/params.h"
