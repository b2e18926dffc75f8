// Small CPU helpers for OhanaCore that Swift has no spelling for.
#ifndef COHANA_CORE_H
#define COHANA_CORE_H

/// Asks the CPU to start loading the cache line at `p` for reading. A hint
/// only: it never faults, whatever `p` is, and has no visible effect.
static inline void ohana_prefetch(const void *p) { __builtin_prefetch(p, 0, 3); }

#endif
