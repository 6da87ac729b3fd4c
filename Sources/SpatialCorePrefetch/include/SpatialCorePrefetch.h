#ifndef SPATIALCORE_PREFETCH_H
#define SPATIALCORE_PREFETCH_H

/// Asks the processor to start loading the cache line that holds `address` (for reading), without
/// waiting for it and without faulting: an invalid address is ignored. Inlined into the caller.
static inline __attribute__((always_inline)) void spatialcore_prefetch(const void *address) {
    __builtin_prefetch(address, 0, 3);
}

#endif
