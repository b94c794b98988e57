/* Forwarding header, removed at merge. */
#include "master/params/units.h"
