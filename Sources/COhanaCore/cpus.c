#define _GNU_SOURCE
#include "COhanaCore.h"

#if defined(__linux__)
#include <sched.h>
#include <stdlib.h>

int ohana_affinity_cpus(void) {
  // Grow the mask until the kernel accepts its size (hosts with more than
  // 1,024 CPUs).
  for (int cpus = 1024; cpus <= (1 << 20); cpus *= 2) {
    cpu_set_t *set = CPU_ALLOC(cpus);
    if (set == NULL) return 0;
    size_t size = CPU_ALLOC_SIZE(cpus);
    CPU_ZERO_S(size, set);
    if (sched_getaffinity(0, size, set) == 0) {
      int n = CPU_COUNT_S(size, set);
      CPU_FREE(set);
      return n;
    }
    CPU_FREE(set);
  }
  return 0;
}
#else
int ohana_affinity_cpus(void) { return 0; }
#endif

// How deep the calling thread is in the worker pool's pieces (a piece that
// runs a nested job's pieces is still one busy thread).
static _Thread_local int pool_depth = 0;
int ohana_pool_enter(void) { return pool_depth++; }
void ohana_pool_leave(void) { pool_depth--; }
