// The layout of the Arrow C Data Interface structs is an ABI: pin it on
// 64-bit targets, where the specification's sizes are these.
#include "ohana_arrow.h"
#include <stddef.h>

_Static_assert(sizeof(void*) != 8 || sizeof(struct ArrowSchema) == 72, "ArrowSchema is 72 bytes");
_Static_assert(sizeof(void*) != 8 || sizeof(struct ArrowArray) == 80, "ArrowArray is 80 bytes");
_Static_assert(offsetof(struct ArrowArray, buffers) == 5 * sizeof(int64_t), "ArrowArray.buffers");
_Static_assert(sizeof(ohana_error) == 1040, "ohana_error is 1040 bytes");
