// Small CPU helpers for OhanaCore that Swift has no spelling for.
#ifndef COHANA_CORE_H
#define COHANA_CORE_H

/// Asks the CPU to start loading the cache line at `p` for reading. A hint
/// only: it never faults, whatever `p` is, and has no visible effect.
static inline void ohana_prefetch(const void *p) { __builtin_prefetch(p, 0, 3); }

/// Fixes glibc's mmap threshold at `bytes` (turning off its dynamic
/// raising): heap blocks of that size or more get their own mapping and go
/// back to the system when freed. Returns 1 when set, 0 where the C library
/// has no such setting.
int ohana_set_mmap_threshold(int bytes);

#endif
