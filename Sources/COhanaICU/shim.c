#include "COhanaICU.h"
int ohana_icu_placeholder(void) { return 0; }
