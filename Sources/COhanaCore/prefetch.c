// COhanaCore: static inline CPU helpers (in the header) and the one
// malloc setting Swift cannot reach (malloc.h is not in the Glibc module).
#include "COhanaCore.h"
#include <stdlib.h>  // defines __GLIBC__ on glibc

#if defined(__GLIBC__)
#include <malloc.h>
int ohana_set_mmap_threshold(int bytes) { return mallopt(M_MMAP_THRESHOLD, bytes) == 1 ? 1 : 0; }
#else
int ohana_set_mmap_threshold(int bytes) { (void)bytes; return 0; }
#endif
