// The module's only function is inline, in include/SpatialCorePrefetch.h.
#include "SpatialCorePrefetch.h"
