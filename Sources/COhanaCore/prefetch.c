// COhanaCore is header-only (static inline helpers); SwiftPM needs one source file.
#include "COhanaCore.h"
